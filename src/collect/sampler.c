// SPDX-License-Identifier: GPL-2.0
/*
 * The window is a flag the programs read (lock_source_gate()), not an
 * attach and a detach: measured here, creating or closing each link took
 * 14 ms and a cycle of them 30 ms of CPU, and paced churn lost 18% of its
 * calls at two cycles a second (its estimates 11-13% high). Outside the
 * window each run pays only the hook's entry, which the budget counts.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/random.h>

#include "budget.h"
#include "proc.h"
#include "sampler.h"
#include "util.h"

/*
 * An interval's window in up to SAMPLER_SLOTS pieces (stratified: a burst
 * of work a few slots long is seen in proportion, wherever it falls), none
 * shorter than SAMPLER_MIN_WINDOW_NS: a hold longer than a piece is not
 * seen whole.
 */
#define SAMPLER_SLOTS 10
#define SAMPLER_MIN_WINDOW_NS 2000000ULL
/* How often an open window's cost is checked against the budget. */
#define SAMPLER_CHECK_NS 50000000ULL

struct sampler {
	struct lock_source *ls;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake;		/* CLOCK_MONOTONIC */
	bool stop;
	bool open;
	bool whole;			/* open for the whole interval */
	double budget;
	uint64_t start_ns, end_ns;	/* the next window; start 0: none */
	/* The interval's windows: one in each of nr_slots slots, from t0. */
	uint64_t t0_ns, slot_ns, len_ns;
	int slot, nr_slots;
	uint64_t opened_ns;		/* when the window opened, or the last cut */
	uint64_t open_ns;		/* open since the last cut, closed spans */
	bool gap;			/* closed at some time since the last cut */
	bool throttled;			/* a window closed early since the last cut */
	/* At the window's opening: when, its programs' cost, the busy CPU. */
	uint64_t check_ns, check_cost, check_busy;
};

/* What the sampled programs have cost so far, their hooks' entries included. */
static uint64_t programs_ns(const struct sampler *sm)
{
	struct prog_cost c = { 0, 0 };

	lock_source_cost(sm->ls, true, &c);
	return c.ns + c.runs * BUDGET_FLOOR_NS;
}

static void window_open(struct sampler *sm, uint64_t now)
{
	lock_source_gate(sm->ls, true);
	sm->open = true;
	sm->opened_ns = now;
	sm->end_ns = now + sm->len_ns;
	sm->check_ns = now;
	sm->check_cost = programs_ns(sm);
	if (proc_busy_ns(&sm->check_busy))
		sm->check_busy = 0;
}

static void window_close(struct sampler *sm, uint64_t now)
{
	lock_source_gate(sm->ls, false);
	sm->open = false;
	sm->gap = true;
	sm->open_ns += now - sm->opened_ns;
}

/* A uniform offset in [0, @range). */
static uint64_t random_below(uint64_t range)
{
	uint64_t r = 0;

	if (range < 2 || getrandom(&r, sizeof(r), GRND_NONBLOCK) != sizeof(r))
		return 0;
	return r % range;
}

/* The next slot's window, at a random offset in it; none after the last. */
static void next_window(struct sampler *sm)
{
	if (++sm->slot >= sm->nr_slots) {
		sm->start_ns = 0;
		return;
	}
	sm->start_ns = sm->t0_ns + sm->slot * sm->slot_ns +
		       random_below(sm->slot_ns - sm->len_ns);
}

/*
 * A window whose programs have cost more than twice the budget of the CPU
 * the machine used in the last SAMPLER_CHECK_NS closes early, and the interval has no
 * more (as perf throttles its sampling): a burst of lock-heavy work that
 * starts while the whole interval is open pays for SAMPLER_CHECK_NS, not
 * the interval. The next plan sizes the windows to it.
 */
static bool over_budget(struct sampler *sm, uint64_t now)
{
	uint64_t busy = 0, cost;
	bool over;

	if (!sm->budget || now - sm->check_ns < SAMPLER_CHECK_NS || proc_busy_ns(&busy))
		return false;
	cost = programs_ns(sm);
	over = sm->check_busy && cost - sm->check_cost >
	       2 * (sm->budget * (double)(busy - sm->check_busy) +
		    (double)BUDGET_SLACK_NS_PER_S * (now - sm->check_ns) / 1e9);
	/* Each period on its own: a burst is not diluted by quiet before it. */
	sm->check_ns = now;
	sm->check_cost = cost;
	sm->check_busy = busy;
	return over;
}

static void wait_until(struct sampler *sm, uint64_t when)
{
	struct timespec ts = { when / NSEC_PER_SEC, when % NSEC_PER_SEC };

	pthread_cond_timedwait(&sm->wake, &sm->lock, &ts);
}

/* Open and close the planned windows on time, and throttle. */
static void *run(void *arg)
{
	struct sampler *sm = arg;

	pthread_mutex_lock(&sm->lock);
	while (!sm->stop) {
		uint64_t now = clock_ns(CLOCK_MONOTONIC);

		if (!sm->open && sm->start_ns && now >= sm->start_ns)
			window_open(sm, now);
		if (sm->open && over_budget(sm, now)) {
			window_close(sm, now);
			sm->throttled = true;
			sm->whole = false;
			sm->start_ns = 0;
		} else if (sm->open && !sm->whole && now >= sm->end_ns) {
			window_close(sm, now);
			next_window(sm);
		}
		if (sm->open)
			wait_until(sm, sm->whole || sm->end_ns > now + SAMPLER_CHECK_NS ?
				   now + SAMPLER_CHECK_NS : sm->end_ns);
		else if (sm->start_ns)
			wait_until(sm, sm->start_ns);
		else
			pthread_cond_wait(&sm->wake, &sm->lock);
	}
	pthread_mutex_unlock(&sm->lock);
	return NULL;
}

struct sampler *sampler_start(struct lock_source *ls, double budget, char *err,
			      size_t errlen)
{
	struct sampler *sm = calloc(1, sizeof(*sm));
	pthread_condattr_t attr;
	int ret;

	if (!sm) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	sm->ls = ls;
	sm->budget = budget;
	pthread_mutex_init(&sm->lock, NULL);
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&sm->wake, &attr);
	pthread_condattr_destroy(&attr);
	sm->whole = true;
	window_open(sm, clock_ns(CLOCK_MONOTONIC));
	ret = pthread_create(&sm->thread, NULL, run, sm);
	if (ret) {
		snprintf(err, errlen, "sampling thread: %s", strerror(ret));
		lock_source_gate(ls, false);
		free(sm);
		return NULL;
	}
	return sm;
}

uint64_t sampler_cut(struct sampler *sm, bool *whole, bool *throttled)
{
	uint64_t now = clock_ns(CLOCK_MONOTONIC), span;

	pthread_mutex_lock(&sm->lock);
	span = sm->open_ns;
	if (whole)
		*whole = sm->open && !sm->gap;
	if (throttled)
		*throttled = sm->throttled;
	if (sm->open) {
		span += now - sm->opened_ns;
		sm->opened_ns = now;
	}
	sm->open_ns = 0;
	sm->gap = !sm->open;
	sm->throttled = false;
	pthread_mutex_unlock(&sm->lock);
	return span;
}

void sampler_plan(struct sampler *sm, double fraction, uint64_t interval_ns)
{
	uint64_t now = clock_ns(CLOCK_MONOTONIC), len;

	pthread_mutex_lock(&sm->lock);
	sm->whole = fraction >= 1;
	if (sm->whole) {
		sm->start_ns = now;
	} else {
		/* The last window may still be open (it was whole): it ends now. */
		if (sm->open)
			window_close(sm, now);
		len = fraction * interval_ns;
		sm->nr_slots = len / SAMPLER_MIN_WINDOW_NS;
		if (sm->nr_slots > SAMPLER_SLOTS)
			sm->nr_slots = SAMPLER_SLOTS;
		if (sm->nr_slots < 1)
			sm->nr_slots = 1;
		sm->t0_ns = now;
		sm->slot_ns = interval_ns / sm->nr_slots;
		sm->len_ns = len / sm->nr_slots;
		sm->slot = -1;
		next_window(sm);
	}
	pthread_cond_signal(&sm->wake);
	pthread_mutex_unlock(&sm->lock);
}

void sampler_stop(struct sampler *sm)
{
	if (!sm)
		return;
	pthread_mutex_lock(&sm->lock);
	sm->stop = true;
	pthread_cond_signal(&sm->wake);
	pthread_mutex_unlock(&sm->lock);
	pthread_join(sm->thread, NULL);
	pthread_cond_destroy(&sm->wake);
	pthread_mutex_destroy(&sm->lock);
	free(sm);
}
