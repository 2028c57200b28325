// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "merge.h"
#include "ui_state.h"
#include "util.h"

int ui_state_init(struct ui_state *st, const struct snapshot *shape)
{
	int i;

	memset(st, 0, sizeof(*st));
	for (i = 0; i < VIEW__COUNT; i++)
		st->tables[i].sort_col = -1;
	st->history = calloc((size_t)UI_HISTORY * shape->nr_cpus, sizeof(double));
	st->events = calloc(UI_EVENTS, sizeof(*st->events));
	st->forks = calloc(UI_FORKS, sizeof(*st->forks));
	if (!st->history || !st->events || !st->forks ||
	    snapshot_init(&st->shown, shape->nr_cpus, shape->nr_nodes) ||
	    snapshot_init(&st->total, shape->nr_cpus, shape->nr_nodes) ||
	    snapshot_init(&st->held, shape->nr_cpus, shape->nr_nodes)) {
		ui_state_free(st);
		return -ENOMEM;
	}
	return 0;
}

void ui_state_free(struct ui_state *st)
{
	snapshot_free(&st->shown);
	snapshot_free(&st->total);
	snapshot_free(&st->held);
	free(st->history);
	free(st->events);
	free(st->forks);
	st->history = NULL;
	st->events = NULL;
	st->forks = NULL;
}

/* Empty @s again (zeroed if out of memory: merges into it then fail). */
static void renew(struct snapshot *s, int cpus, int nodes)
{
	snapshot_free(s);
	if (snapshot_init(s, cpus, nodes))
		memset(s, 0, sizeof(*s));
}

static void reset_totals(struct ui_state *st)
{
	renew(&st->total, st->shown.nr_cpus, st->shown.nr_nodes);
	memset(&st->fork_total, 0, sizeof(st->fork_total));
	st->total_from_ns = 0;
	st->total_why[0] = '\0';
}

/* The kind of row the totals hold more than UI_TOTAL_ROWS of; NULL: none. */
static const char *totals_full(const struct snapshot *t)
{
	return t->locks.nr > UI_TOTAL_ROWS ? "mmap_lock" :
	       t->conts.nr > UI_TOTAL_ROWS ? "contention" :
	       t->blame.nr > UI_TOTAL_ROWS ? "blame" :
	       t->vmas.nr > UI_TOTAL_ROWS ? "VMA" : NULL;
}

/* The totals began again at @ns (wall clock), past too many @kind rows. */
static void restarted(struct ui_state *st, uint64_t ns, const char *kind)
{
	time_t sec = ns / NSEC_PER_SEC;
	char when[16];
	struct tm tm;

	localtime_r(&sec, &tm);
	strftime(when, sizeof(when), "%H:%M:%S", &tm);
	snprintf(st->total_why, sizeof(st->total_why),
		 "totals restarted at %s: over %d %s rows", when, UI_TOTAL_ROWS, kind);
	snprintf(st->span, sizeof(st->span), "since %s", when);
}

/*
 * Add @s to the totals. Its events and forks are not kept there: the logs
 * keep the recent ones and fork_total their sums, so that the totals grow
 * with the rows seen, not with time. Rows are kept per process, and hours
 * of short-lived processes would grow them (and each merge, which is
 * linear in them) without bound: past UI_TOTAL_ROWS of a kind they start
 * again from this interval, and the status line says so.
 */
static void add_total(struct ui_state *st, const struct snapshot *s)
{
	struct snapshot rows = *s;
	const char *full;
	int err;

	rows.events.nr = 0;
	rows.forks.nr = 0;
	err = snapshot_merge(&st->total, &rows);
	if (!err && (full = totals_full(&st->total))) {
		reset_totals(st);
		err = snapshot_merge(&st->total, &rows);
		restarted(st, s->wall_ns - s->interval_ns, full);
	}
	/* Out of memory: the totals miss rows, as the status line says. */
	if (err)
		snprintf(st->status, sizeof(st->status), "totals incomplete: out of memory");
	if (!st->total_from_ns)
		st->total_from_ns = s->wall_ns - s->interval_ns;
	fork_agg_add(&st->fork_total, s);
}

void ui_state_push(struct ui_state *st, const struct snapshot *s)
{
	double *row;
	int cpu, i;

	if (snapshot_copy(&st->shown, s))
		return;
	st->have_data = true;
	add_total(st, s);
	st->hist_pos = (st->hist_pos + 1) % UI_HISTORY;
	if (st->hist_len < UI_HISTORY)
		st->hist_len++;
	row = st->history + (size_t)st->hist_pos * s->nr_cpus;
	for (cpu = 0; cpu < s->nr_cpus; cpu++)
		row[cpu] = snapshot_rate(s, s->cpus[cpu].faults.min_flt +
					 s->cpus[cpu].faults.maj_flt);
	for (i = 0; i < s->events.nr; i++) {
		st->ev_pos = (st->ev_pos + 1) % UI_EVENTS;
		st->events[st->ev_pos] = s->events.v[i];
		if (st->nr_events < UI_EVENTS)
			st->nr_events++;
	}
	for (i = 0; i < s->forks.nr; i++) {
		st->fork_pos = (st->fork_pos + 1) % UI_FORKS;
		st->forks[st->fork_pos] = s->forks.v[i];
		if (st->nr_forks < UI_FORKS)
			st->nr_forks++;
		st->forks_seen++;
	}
}

void ui_state_hold(struct ui_state *st, const struct snapshot *s)
{
	int cpus = s->nr_cpus, nodes = s->nr_nodes;

	if (!st->paused && !st->nr_held) {
		ui_state_push(st, s);
		return;
	}
	/* Out of memory: this interval is shown alone rather than lost. */
	if (snapshot_merge(&st->held, s)) {
		ui_state_push(st, s);
		return;
	}
	st->nr_held++;
	if (st->paused)
		return;
	ui_state_push(st, &st->held);
	renew(&st->held, cpus, nodes);
	st->nr_held = 0;
}

void ui_state_reset(struct ui_state *st)
{
	st->have_data = false;
	st->hist_len = st->hist_pos = 0;
	st->nr_events = st->ev_pos = 0;
	st->nr_forks = st->fork_pos = 0;
	st->forks_seen = 0;
	reset_totals(st);
}

const struct snapshot *ui_snapshot(const struct ui_state *st)
{
	return st->cumulative ? &st->total : &st->shown;
}

void ui_fork_agg(const struct ui_state *st, struct fork_agg *a)
{
	if (st->cumulative)
		*a = st->fork_total;
	else
		fork_agg(&st->shown, a);
}

const char *ui_span(const struct ui_state *st)
{
	if (!st->cumulative)
		return "this interval";
	return st->total_why[0] ? st->span : "since start";
}

double ui_history(const struct ui_state *st, int cpu, int age)
{
	int pos;

	if (age >= st->hist_len)
		return -1;
	pos = (st->hist_pos - age + UI_HISTORY) % UI_HISTORY;
	return st->history[(size_t)pos * st->shown.nr_cpus + cpu];
}

const struct slow_event *ui_event(const struct ui_state *st, int i)
{
	return &st->events[(st->ev_pos - i + UI_EVENTS) % UI_EVENTS];
}

const struct fork_row *ui_fork(const struct ui_state *st, int i)
{
	return &st->forks[(st->fork_pos - i + UI_FORKS) % UI_FORKS];
}
