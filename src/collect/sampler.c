// SPDX-License-Identifier: GPL-2.0
/*
 * The window is a flag the programs read (lock_source_gate()) while the
 * hooks' entries fit in the budget: attaching and detaching is dear
 * (measured here, each took 7 ms of CPU per tracepoint, the kernel
 * patching every inlined mmap_lock call, and paced churn lost 18% of its
 * calls at two cycles a second). Past that, each acquisition's call into
 * BPF alone is over the budget (mmap churn: 60 ns per hook of 1.6 us), so
 * the programs are attached for the window only, one window an interval
 * at most, the cycle's measured CPU paid from the budget saved.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/eventfd.h>
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
/*
 * After a throttle, attached, how long the programs' runs are counted
 * before they are detached or not. A loop of forks' runs come in bursts
 * (measured after its trips: 64000 a second over 2 ms, 39000 over 5 ms,
 * 8000 over 25 ms), churn's at 500000 a second, and the runs counted cost
 * what they cost (at 25 ms, 1% of a 0.3-s churn; at 10 ms, 0.4%).
 */
#define SAMPLER_RATE_NS 5000000ULL

struct sampler {
	struct lock_source *ls;
	pthread_t thread;
	pthread_mutex_t lock;
	int wake_fd;			/* an eventfd: a plan, or stop */
	bool stop;
	bool open;
	bool whole;			/* open for the whole interval */
	bool detached;			/* the programs attached for windows only */
	bool hooked;			/* the programs attached now */
	double budget;
	struct budget_plan plan;	/* the last (before the first: entries alone) */
	uint64_t start_ns, end_ns;	/* the next window; start 0: none */
	/* The interval's windows: one in each of nr_slots slots, from t0. */
	uint64_t t0_ns, slot_ns, len_ns;
	int slot, nr_slots;
	uint64_t opened_ns;		/* when the window opened, or the last cut */
	uint64_t open_ns;		/* open since the last cut, closed spans */
	uint64_t hooked_since;		/* attached since, or the last cut */
	uint64_t hooked_ns;		/* attached since the last cut, past spans */
	uint64_t hook_cpu;		/* CPU attaching and detaching since the cut */
	uint64_t hook_wall;		/* and the time it took */
	unsigned int hook_ops;
	bool gap;			/* closed at some time since the last cut */
	bool throttled;			/* a window closed early since the last cut */
	/* At the window's opening: its programs' cost; the last check's. */
	uint64_t open_cost;
	uint64_t check_ns, check_cost, check_busy;
	/*
	 * Throttled attached: when to decide (0: not), on the runs since
	 * rate_ns and the machine's busy CPU since rate_busy_ns (read in
	 * ticks: over a few ms, 0 or 2 CPUs).
	 */
	uint64_t decide_ns, rate_ns, rate_runs, rate_busy_ns, rate_busy;
	uint64_t decide_span;		/* and the span before the next decision */
};

/*
 * What the sampled programs have cost so far, their hooks' entries
 * included; and their runs (@runs may be NULL).
 */
static uint64_t programs_ns(const struct sampler *sm, uint64_t *runs)
{
	struct prog_cost c = { 0, 0 };

	lock_source_cost(sm->ls, true, &c);
	if (runs)
		*runs = c.runs;
	return c.ns + c.runs * BUDGET_FLOOR_NS;
}

/* Attach or detach the programs, its CPU counted: false if it failed. */
static bool hook(struct sampler *sm, bool on)
{
	uint64_t cpu = clock_ns(CLOCK_THREAD_CPUTIME_ID), now;
	uint64_t begin = clock_ns(CLOCK_MONOTONIC);
	char err[128];
	bool ok;

	if (sm->hooked == on)
		return true;
	/* Attached from the end of an attach to the start of a detach. */
	if (sm->hooked)
		sm->hooked_ns += begin - sm->hooked_since;
	ok = !lock_source_hook(sm->ls, on, err, sizeof(err));
	now = clock_ns(CLOCK_MONOTONIC);
	sm->hook_wall += now - begin;
	sm->hook_cpu += clock_ns(CLOCK_THREAD_CPUTIME_ID) - cpu;
	sm->hook_ops++;
	sm->hooked = on && ok;
	sm->hooked_since = now;
	return ok;
}

/* Open the window (detached: attach first); false if it could not be. */
static bool window_open(struct sampler *sm)
{
	uint64_t now;

	if (sm->detached && !hook(sm, true))
		return false;
	now = clock_ns(CLOCK_MONOTONIC);
	lock_source_gate(sm->ls, true);
	sm->open = true;
	sm->opened_ns = now;
	sm->end_ns = now + sm->len_ns;
	sm->check_ns = now;
	sm->check_cost = sm->open_cost = programs_ns(sm, NULL);
	if (proc_busy_ns(&sm->check_busy))
		sm->check_busy = 0;
	return true;
}

static void window_close(struct sampler *sm, uint64_t now)
{
	lock_source_gate(sm->ls, false);
	sm->open = false;
	sm->gap = true;
	sm->open_ns += now - sm->opened_ns;
	if (sm->detached)
		hook(sm, false);
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

/* The slack: what counts as no cost at all over @ns. */
static double slack(uint64_t ns)
{
	return (double)BUDGET_SLACK_NS_PER_S * ns / 1e9;
}

/*
 * A window whose programs cost more than twice what they may closes
 * early, and the interval has no more (as perf throttles its sampling).
 * Attached throughout: more than twice the budget of the CPU the machine
 * used in the last SAMPLER_CHECK_NS, each period on its own, so a burst
 * of lock-heavy work that starts while the whole interval is open pays
 * for SAMPLER_CHECK_NS, not the interval. Detached: more than twice the
 * cost planned for the window, which the budget saved pays. The next plan
 * sizes the windows to it.
 */
static bool over_budget(struct sampler *sm, uint64_t now)
{
	uint64_t busy = 0, cost;
	bool over;

	if (!sm->budget || now - sm->check_ns < SAMPLER_CHECK_NS || proc_busy_ns(&busy))
		return false;
	cost = programs_ns(sm, NULL);
	if (sm->detached)
		over = cost - sm->open_cost > 2 * sm->plan.window_cost + slack(now - sm->opened_ns);
	else
		over = sm->check_busy && cost - sm->check_cost >
		       2 * sm->budget * (double)(busy - sm->check_busy) +
		       BUDGET_BURST_SLACK * SAMPLER_CHECK_NS;
	sm->check_ns = now;
	sm->check_cost = cost;
	sm->check_busy = busy;
	return over;
}

/*
 * Close a window early, and open no more in the interval. Attached
 * throughout, the programs stay attached while the rates after it are
 * measured (see decide()), from the last check for the busy CPU.
 */
static void throttle(struct sampler *sm, uint64_t now)
{
	window_close(sm, now);
	sm->throttled = true;
	sm->whole = false;
	sm->start_ns = 0;
	/* The machine's busy CPU unread: attached until the plan decides. */
	if (sm->detached || !sm->check_busy)
		return;
	programs_ns(sm, &sm->rate_runs);
	sm->rate_ns = now;
	sm->rate_busy_ns = sm->check_ns;
	sm->rate_busy = sm->check_busy;
	sm->decide_span = SAMPLER_RATE_NS;
	sm->decide_ns = now + sm->decide_span;
}

/*
 * SAMPLER_RATE_NS after a throttle, attached: detach the programs if their
 * runs with the gate closed are over the budget at the rates since (the
 * test of the next plan, made now). Else again, on the runs since, after
 * twice the span, up to SAMPLER_CHECK_NS, until the plan: the start of a
 * process that trips the window comes before its stride (churn's: 24000
 * runs a second in the 5 ms after a trip, 700000 in the next 10 ms;
 * decided once, 280000 runs went by in the rest of an interval).
 */
static void decide(struct sampler *sm, uint64_t now)
{
	double span = (now - sm->rate_ns) / 1e9;
	double busy_span = (now - sm->rate_busy_ns) / 1e9;
	uint64_t runs, busy;

	sm->decide_ns = 0;
	if (proc_busy_ns(&busy))
		return;
	programs_ns(sm, &runs);
	if (budget_detach_now(&sm->plan, sm->budget, (runs - sm->rate_runs) / span,
			      (busy - sm->rate_busy) / busy_span)) {
		sm->detached = true;
		hook(sm, false);
		return;
	}
	sm->rate_ns = sm->rate_busy_ns = now;
	sm->rate_runs = runs;
	sm->rate_busy = busy;
	sm->decide_span *= 2;
	if (sm->decide_span > SAMPLER_CHECK_NS)
		sm->decide_span = SAMPLER_CHECK_NS;
	sm->decide_ns = now + sm->decide_span;
}

/* Unlocked until @when (0: no deadline), a plan or stop, or a trip. */
static void wait_until(struct sampler *sm, uint64_t when)
{
	struct pollfd p[2] = {
		{ .fd = sm->wake_fd, .events = POLLIN },
		{ .fd = lock_source_trip_fd(sm->ls), .events = POLLIN },
	};
	uint64_t now = clock_ns(CLOCK_MONOTONIC), n;
	uint64_t left = when > now ? when - now : 0;
	struct timespec ts = { left / NSEC_PER_SEC, left % NSEC_PER_SEC };

	pthread_mutex_unlock(&sm->lock);
	if (ppoll(p, 2, when ? &ts : NULL, NULL) > 0 && (p[0].revents & POLLIN) &&
	    read(sm->wake_fd, &n, sizeof(n)) < 0 && errno != EAGAIN)
		perror("mmtop: sampler");
	pthread_mutex_lock(&sm->lock);
}

static void wake(struct sampler *sm)
{
	uint64_t one = 1;

	if (write(sm->wake_fd, &one, sizeof(one)) < 0)
		perror("mmtop: sampler");
}

/* Open and close the planned windows on time, and throttle. */
static void *run(void *arg)
{
	struct sampler *sm = arg;

	pthread_mutex_lock(&sm->lock);
	while (!sm->stop) {
		uint64_t now = clock_ns(CLOCK_MONOTONIC);
		/*
		 * Read (and its ring drained) whether the window is open or
		 * not; a trip is cleared as the window closes, so a window the
		 * loop opens below is not taken for the one that tripped.
		 */
		bool tripped = lock_source_tripped(sm->ls);

		if (!sm->open && sm->start_ns && now >= sm->start_ns && !window_open(sm))
			next_window(sm);
		now = clock_ns(CLOCK_MONOTONIC);
		if (sm->open && (tripped || over_budget(sm, now)))
			throttle(sm, now);
		else if (sm->open && !sm->whole && now >= sm->end_ns) {
			window_close(sm, now);
			next_window(sm);
		} else if (sm->decide_ns && now >= sm->decide_ns) {
			decide(sm, now);
		}
		if (sm->open)
			wait_until(sm, sm->whole || sm->end_ns > now + SAMPLER_CHECK_NS ?
				   now + SAMPLER_CHECK_NS : sm->end_ns);
		else if (sm->decide_ns)	/* throttled: no window until the plan */
			wait_until(sm, sm->decide_ns);
		else
			wait_until(sm, sm->start_ns);
	}
	pthread_mutex_unlock(&sm->lock);
	return NULL;
}

struct sampler *sampler_start(struct lock_source *ls, double budget, char *err,
			      size_t errlen)
{
	struct sampler *sm = calloc(1, sizeof(*sm));
	int ret;

	if (!sm) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	sm->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (sm->wake_fd < 0) {
		snprintf(err, errlen, "eventfd: %s", strerror(errno));
		free(sm);
		return NULL;
	}
	sm->ls = ls;
	sm->budget = budget;
	sm->plan = (struct budget_plan){ .gated_run_ns = BUDGET_FLOOR_NS };
	pthread_mutex_init(&sm->lock, NULL);
	/* Until the first plan, from what the budget allows alone. */
	lock_source_trip_limit(ls, budget ? budget_trip_runs(&(struct budget_state){ 0 },
				&(struct budget_in){ .budget = budget }) : 0);
	/* The lock source opened with the programs attached. */
	sm->hooked = true;
	sm->hooked_since = clock_ns(CLOCK_MONOTONIC);
	sm->whole = true;
	window_open(sm);
	ret = pthread_create(&sm->thread, NULL, run, sm);
	if (ret) {
		snprintf(err, errlen, "sampling thread: %s", strerror(ret));
		lock_source_gate(ls, false);
		close(sm->wake_fd);
		free(sm);
		return NULL;
	}
	return sm;
}

void sampler_cut(struct sampler *sm, struct sampler_cut *cut)
{
	uint64_t now = clock_ns(CLOCK_MONOTONIC);

	pthread_mutex_lock(&sm->lock);
	cut->window_ns = sm->open_ns;
	cut->whole = sm->open && !sm->gap;
	cut->throttled = sm->throttled;
	if (sm->open) {
		cut->window_ns += now - sm->opened_ns;
		sm->opened_ns = now;
	}
	cut->hooked_ns = sm->hooked_ns;
	if (sm->hooked) {
		cut->hooked_ns += now - sm->hooked_since;
		sm->hooked_since = now;
	}
	cut->hook_ns = sm->hook_cpu;
	cut->hook_wall_ns = sm->hook_wall;
	cut->hook_ops = sm->hook_ops;
	sm->open_ns = sm->hooked_ns = sm->hook_cpu = sm->hook_wall = 0;
	sm->hook_ops = 0;
	sm->gap = !sm->open;
	sm->throttled = false;
	pthread_mutex_unlock(&sm->lock);
}

/* The interval's windows: @fraction of it, in slots from now. */
static void schedule(struct sampler *sm, double fraction, uint64_t interval_ns)
{
	uint64_t len = fraction * interval_ns;

	/* Detached, each window pays an attach and a detach: one only. */
	sm->nr_slots = sm->detached ? 1 : len / SAMPLER_MIN_WINDOW_NS;
	if (sm->nr_slots > SAMPLER_SLOTS)
		sm->nr_slots = SAMPLER_SLOTS;
	if (sm->nr_slots < 1)
		sm->nr_slots = 1;
	sm->t0_ns = clock_ns(CLOCK_MONOTONIC);
	sm->slot_ns = interval_ns / sm->nr_slots;
	sm->len_ns = len / sm->nr_slots;
	sm->slot = -1;
	next_window(sm);
}

void sampler_plan(struct sampler *sm, const struct budget_plan *plan,
		  uint64_t interval_ns)
{
	pthread_mutex_lock(&sm->lock);
	sm->detached = plan->detached;
	sm->plan = *plan;
	sm->decide_ns = 0;
	lock_source_trip_limit(sm->ls, sm->budget ? plan->trip_runs : 0);
	sm->whole = plan->fraction >= 1;
	/* The last window may still be open (it was whole): it ends now. */
	if (sm->open && !sm->whole)
		window_close(sm, clock_ns(CLOCK_MONOTONIC));
	/* Attached throughout, or detached while the window is closed. */
	if (!sm->detached || sm->whole)
		hook(sm, true);
	else if (!sm->open)
		hook(sm, false);
	if (sm->whole)
		sm->start_ns = clock_ns(CLOCK_MONOTONIC);
	else if (plan->fraction > 0)
		schedule(sm, plan->fraction, interval_ns);
	else
		sm->start_ns = 0;
	wake(sm);
	pthread_mutex_unlock(&sm->lock);
}

void sampler_stop(struct sampler *sm)
{
	if (!sm)
		return;
	pthread_mutex_lock(&sm->lock);
	sm->stop = true;
	wake(sm);
	pthread_mutex_unlock(&sm->lock);
	pthread_join(sm->thread, NULL);
	close(sm->wake_fd);
	pthread_mutex_destroy(&sm->lock);
	free(sm);
}
