/* SPDX-License-Identifier: GPL-2.0 */
/* The viewer's state, shared by its files; no curses types here. */
#ifndef MMTOP_UI_STATE_H
#define MMTOP_UI_STATE_H

#include <stdbool.h>
#include <stdint.h>

#include "snapshot.h"

#define UI_HISTORY 64		/* intervals of per-CPU fault rates kept */
#define UI_EVENTS 512		/* slow events kept, newest first */
#define UI_FORKS 256		/* forks kept */
#define UI_TOTAL_ROWS 4096	/* rows of one kind the totals keep */
#define UI_FILTER_LEN 48

enum ui_view {
	VIEW_OVERVIEW,
	VIEW_CPUS,
	VIEW_MMAP,
	VIEW_LOCKS,
	VIEW_FORKS,
	VIEW_EVENTS,
	VIEW_BLAME,
	VIEW_VMA,
	VIEW__COUNT
};

#define UI_TABLE_COLS 32	/* columns of a table, at most */

/* Sort, scroll and selection of one view's table, kept across intervals. */
struct table_state {
	int sort_col;		/* -1: the view's default */
	bool reverse;
	int top;		/* first row shown */
	int selected;		/* row index in display order */
	int nr_rows;		/* rows shown at the last draw */
	int page;		/* rows that fit at the last draw */
	int selected_id;	/* the view's id of the selected row, or -1 */
	int left;		/* columns scrolled out on the left (narrow terminals) */
	/*
	 * The widest cell seen in each column, so far: columns widen to their
	 * content and do not narrow back as values change (no jitter).
	 */
	int seen[UI_TABLE_COLS];
};

struct ui_state {
	struct snapshot shown;		/* the interval shown (frozen when paused) */
	bool have_data;
	/*
	 * Since the start (or since logs_from): every interval shown, merged
	 * (its events and forks are in the logs below, and its forks' sums in
	 * fork_total), so that what a short workload did stays on screen
	 * after it ends. The views draw it instead of shown when cumulative.
	 */
	struct snapshot total;
	struct fork_agg fork_total;
	uint64_t total_from_ns;		/* wall clock where total begins */
	/*
	 * Why the totals began again past UI_TOTAL_ROWS rows of a kind, and
	 * when ("": they run from the start); span, what they cover.
	 */
	char total_why[80], span[32];
	bool cumulative;
	double *history;		/* [UI_HISTORY][nr_cpus] faults/s, ring */
	int hist_len, hist_pos;
	struct slow_event *events;	/* ring of UI_EVENTS */
	int nr_events, ev_pos;
	struct fork_row *forks;		/* ring of UI_FORKS */
	int nr_forks, fork_pos;
	uint64_t forks_seen;		/* since the start, or since logs_from */
	long logs_from;			/* replay: first interval in the logs (0: the start) */
	enum ui_view view;
	struct table_state tables[VIEW__COUNT];
	bool paused, help, color, zoomed;
	bool by_cgroup;			/* g: process views grouped by cgroup */
	struct snapshot held;		/* live intervals that came while paused */
	int nr_held;
	struct lock_row zoom;		/* found again by lock_row_same() */
	char filter[UI_FILTER_LEN];
	bool editing;			/* typing at the bottom line */
	bool jumping;			/* ... a replay offset, not a filter */
	char edit[UI_FILTER_LEN];
	bool replay;			/* a recording: t/T/j/[/] work */
	double speed;			/* replay speed, 1 = as recorded */
	double jump_s;			/* offset asked for with j */
	uint64_t interval_ns;
	const char *mode;
	char host[65], kernel[65], status[128];
	char man[160];			/* how to read mmtop-metrics(7), for the help */
};

int ui_state_init(struct ui_state *st, const struct snapshot *shape);
void ui_state_free(struct ui_state *st);
/* A new interval to show: copy it, extend the history and the event log. */
void ui_state_push(struct ui_state *st, const struct snapshot *s);
/*
 * A new live interval: shown as ui_state_push does, unless paused; then it
 * is held (merged with the others that arrive while paused: their events
 * and forks kept, their counts added) and shown as one when the pause ends.
 */
void ui_state_hold(struct ui_state *st, const struct snapshot *s);
/* Forget the history and the logs (a replay seeking rebuilds them). */
void ui_state_reset(struct ui_state *st);
/* What the views draw: the interval shown, or the totals when cumulative. */
const struct snapshot *ui_snapshot(const struct ui_state *st);
/* The forks' sums over what ui_snapshot() covers. */
void ui_fork_agg(const struct ui_state *st, struct fork_agg *a);
/* "this interval" or "since start", for the views' captions. */
const char *ui_span(const struct ui_state *st);
/* faults/s of @cpu @age intervals ago (0: latest); -1 if not recorded. */
double ui_history(const struct ui_state *st, int cpu, int age);
/* The @i-th newest slow event, fork. */
const struct slow_event *ui_event(const struct ui_state *st, int i);
const struct fork_row *ui_fork(const struct ui_state *st, int i);

#endif
