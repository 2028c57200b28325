// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "merge.h"
#include "ui_state.h"

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
	    snapshot_init(&st->held, shape->nr_cpus, shape->nr_nodes)) {
		ui_state_free(st);
		return -ENOMEM;
	}
	return 0;
}

void ui_state_free(struct ui_state *st)
{
	snapshot_free(&st->shown);
	snapshot_free(&st->held);
	free(st->history);
	free(st->events);
	free(st->forks);
	st->history = NULL;
	st->events = NULL;
	st->forks = NULL;
}

void ui_state_push(struct ui_state *st, const struct snapshot *s)
{
	double *row;
	int cpu, i;

	if (snapshot_copy(&st->shown, s))
		return;
	st->have_data = true;
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
	snapshot_free(&st->held);
	st->nr_held = 0;
	if (snapshot_init(&st->held, cpus, nodes))
		memset(&st->held, 0, sizeof(st->held));
}

void ui_state_reset(struct ui_state *st)
{
	st->have_data = false;
	st->hist_len = st->hist_pos = 0;
	st->nr_events = st->ev_pos = 0;
	st->nr_forks = st->fork_pos = 0;
	st->forks_seen = 0;
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
