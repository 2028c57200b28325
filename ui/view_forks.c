// SPDX-License-Identifier: GPL-2.0
/*
 * Forks: the aggregates of this interval, or since start (rate, latency,
 * cost per MiB of parent RSS for 4K- and THP-backed parents), and the
 * recent forks, worst first.
 */
#include <curses.h>
#include <time.h>

#include "draw.h"
#include "table.h"
#include "util.h"
#include "views.h"

/* TIME sorts on the fork's time (newest first), not on its text. */
static const struct ui_column cols[] = {
	{ "TIME", 12, false }, { "PID", 7, false }, { "COMM", 16, TABLE_NAME },
	{ "CHILD", 7, false }, { "SYSCALL", 7, true }, { "LATENCY", 9, false },
	{ "ANON_MB", 8, false }, { "THP_MB", 7, false }, { "BACK", 4, true },
	{ "COST/MiB", 9, false }, { "DUP_HOLD", 9, false }, { "STALLED", 7, false },
};

enum { COL_TIME = 0, COL_LATENCY = 5 };

static void fill(struct ui_cell *c, const struct fork_row *k)
{
	time_t sec = k->wall_ns / NSEC_PER_SEC;
	uint64_t kb = k->anon_kb + k->file_kb + k->shmem_kb;
	char when[16];
	struct tm tm;

	localtime_r(&sec, &tm);
	strftime(when, sizeof(when), "%H:%M:%S", &tm);
	cell_set(&c[0], k->wall_ns, "%s", when);
	cell_set(&c[1], k->pid, "%d", k->pid);
	cell_set(&c[2], 0, "%s", k->comm);
	cell_set(&c[3], k->child, "%d", k->child);
	cell_set(&c[4], 0, "%s", fork_syscall(k));
	if (fork_timed(k))
		cell_ns(&c[5], k->latency_ns);
	else
		cell_set(&c[5], 0, "-");
	cell_set(&c[6], k->anon_kb, "%.1f", k->anon_kb / 1024.0);
	if (k->thp_kb >= 0)
		cell_set(&c[7], k->thp_kb, "%.1f", k->thp_kb / 1024.0);
	else
		cell_set(&c[7], -1, "?");
	cell_set(&c[8], 0, "%s", fork_backing(k));
	if (fork_timed(k))
		cell_ns(&c[9], fork_cost_per_mib(k->latency_ns, kb));
	else
		cell_set(&c[9], 0, "-");
	/* dup_mmap's hold: exact mode's. */
	if (k->dup_hold_ns)
		cell_ns(&c[10], k->dup_hold_ns);
	else
		cell_set(&c[10], 0, "-");
	cell_set(&c[11], k->stalled, "%u", k->stalled);
}

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
	table_init(&t, cols, sizeof(cols) / sizeof(cols[0]), timed ? COL_LATENCY : COL_TIME);
	for (i = 0; i < st->nr_forks; i++) {
		struct ui_cell *c = table_row(&t, i);

		if (!c)
			break;
		fill(c, ui_fork(st, i));
	}
	table_show(&t, ts, st, y + 2, h - 2);
}

const struct view_ops view_forks = {
	.name = "Forks",
	.draw = forks_draw,
};
