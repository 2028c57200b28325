// SPDX-License-Identifier: GPL-2.0
/*
 * Forks: the aggregates of this interval, or since start (rate, latency,
 * cost per MiB of parent RSS for 4K- and THP-backed parents), and the
 * recent forks, worst first.
 */
#include <curses.h>

#include "draw.h"
#include "table.h"
#include "util.h"
#include "views.h"

/*
 * The view's columns: fields of the fork rows (row_types.c). TIME sorts
 * on the fork's time (newest first), not on its text.
 */
static const char *const shown[] = {
	"wall_ns", "pid", "comm", "child", "syscall", "latency_ns", "anon_kb", "thp_kb",
	"backing", "cost_ns_per_mib", "dup_hold_ns", "stalled",
};

enum { COL_TIME = 0, COL_LATENCY = 5 };

static void summary_line(const struct ui_state *st, int y)
{
	const struct snapshot *s = ui_snapshot(st);
	struct fork_agg a;
	char b[4][16];

	ui_fork_agg(st, &a);
	if (a.count && !a.timed) {
		draw_text(y, 0, COLS, C_NORMAL, "%s: %lu forks (%.1f/s); latency and cost not measured (%s)",
			  ui_span(st), (unsigned long)a.count, snapshot_rate(s, a.count),
			  fork_untimed_why(s));
		return;
	}
	draw_text(y, 0, COLS, C_NORMAL,
		  "%s: %lu forks (%.1f/s), latency mean %s, max %s; per MiB of parent RSS: 4K %s, THP %s",
		  ui_span(st), (unsigned long)a.count, snapshot_rate(s, a.count),
		  a.timed ? format_ns(a.latency_ns / a.timed, b[0], 16) : "-",
		  a.timed ? format_ns(a.latency_max_ns, b[1], 16) : "-",
		  a.kb_4k ? format_ns(fork_cost_per_mib(a.ns_4k, a.kb_4k), b[2], 16) : "-",
		  a.kb_thp ? format_ns(fork_cost_per_mib(a.ns_thp, a.kb_thp), b[3], 16) : "-");
}

static void forks_draw(struct ui_state *st, int y, int h)
{
	static struct field_cols fc = FIELD_COLS(ROWS_FORK, shown);
	struct table_state *ts = &st->tables[VIEW_FORKS];
	bool timed = false;
	const char *order;
	struct ui_table t;
	int i;

	if (family_na(st, FAMILY_FORK)[0]) {
		draw_text(y, 0, COLS, C_DIM, "forks: n/a (%s)", family_na(st, FAMILY_FORK));
		return;
	}
	summary_line(st, y);
	/* Worst first has nothing to sort by where no fork was timed. */
	for (i = 0; i < st->nr_forks; i++)
		timed |= fork_timed(ui_fork(st, i));
	order = timed ? "worst first" : "newest first";
	if (st->logs_from)
		draw_text(y + 1, 0, COLS, C_DIM,
			  "%lu forks since interval %ld; the last %d below, %s",
			  (unsigned long)st->forks_seen, st->logs_from + 1, st->nr_forks, order);
	else
		draw_text(y + 1, 0, COLS, C_DIM, "%lu forks since start; the last %d below, %s",
			  (unsigned long)st->forks_seen, st->nr_forks, order);
	table_init(&t, field_cols(&fc)->cols, fc.nr, timed ? COL_LATENCY : COL_TIME);
	for (i = 0; i < st->nr_forks; i++) {
		struct ui_cell *c = table_row(&t, i);

		if (!c)
			break;
		field_cells(c, &fc, ui_fork(st, i), ui_snapshot(st));
	}
	table_show(&t, ts, st, y + 2, h - 2);
}

const struct view_ops view_forks = {
	.name = "Forks",
	.draw = forks_draw,
};
