// SPDX-License-Identifier: GPL-2.0
/*
 * Overview: per-CPU fault-rate bars with a sparkline of the last intervals,
 * per-node totals, then the top lines of the other views.
 */
#include <curses.h>
#include <stdlib.h>
#include <string.h>

#include "draw.h"
#include "util.h"
#include "views.h"

#define TOP_LINES 3

static double max_rate(const struct ui_state *st)
{
	double max = 1;
	int cpu, age;

	for (cpu = 0; cpu < ui_snapshot(st)->nr_cpus; cpu++)
		for (age = 0; age < st->hist_len; age++)
			if (ui_history(st, cpu, age) > max)
				max = ui_history(st, cpu, age);
	return max;
}

static int draw_cpus(const struct ui_state *st, int y, int h)
{
	const struct snapshot *s = ui_snapshot(st);
	int spark = COLS - 50, cpu, line = 0, n;
	double max = max_rate(st), v[UI_HISTORY];
	char r[16];

	if (spark > UI_HISTORY)
		spark = UI_HISTORY;
	draw_text(y + line++, 0, COLS, C_TITLE, "CPU  faults/s (bar: share of the busiest interval shown)");
	if (family_na(st, FAMILY_FAULTS)[0]) {
		draw_text(y + line++, 2, COLS - 2, C_DIM, "faults: n/a (%s)",
			  family_na(st, FAMILY_FAULTS));
		return line;
	}
	for (cpu = 0; cpu < s->nr_cpus && line < h; cpu++, line++) {
		const struct cpu_sample *c = &s->cpus[cpu];
		double rate = snapshot_rate(s, c->faults.min_flt + c->faults.maj_flt);

		if (!c->online) {
			draw_text(y + line, 0, COLS, C_DIM, "%3d  offline", cpu);
			continue;
		}
		draw_text(y + line, 0, 5, C_NORMAL, "%3d", cpu);
		draw_bar(y + line, 4, 24, rate / max);
		draw_text(y + line, 31, 10, C_NORMAL, "%9s", fmt_rate(rate, r, sizeof(r)));
		/* Oldest on the left, as a strip chart. */
		for (n = 0; n < spark; n++)
			v[n] = ui_history(st, cpu, spark - 1 - n);
		draw_sparkline(y + line, 43, v, spark);
	}
	for (n = 0; n < s->nr_nodes && line < h; n++, line++)
		draw_text(y + line, 0, COLS, C_NORMAL, "node%-2d %d CPUs  %s faults/s", n,
			  s->nodes[n].nr_online,
			  fmt_rate(snapshot_rate(s, s->nodes[n].faults.min_flt +
						 s->nodes[n].faults.maj_flt), r, sizeof(r)));
	return line;
}

static int by_time(const void *a, const void *b)
{
	const struct lock_row *x = a, *y = b;
	uint64_t tx = x->wait_ns + x->hold_ns, ty = y->wait_ns + y->hold_ns;

	return tx < ty ? 1 : tx > ty ? -1 : 0;
}

static int by_wait(const void *a, const void *b)
{
	const struct cont_row *x = a, *y = b;

	return x->wait_ns < y->wait_ns ? 1 : x->wait_ns > y->wait_ns ? -1 : 0;
}

static int draw_top_locks(const struct ui_state *st, int y)
{
	const struct snapshot *s = ui_snapshot(st);
	struct lock_row *top;
	int i, n = s->locks.nr;
	char w[16], h[16];

	draw_text(y, 0, COLS, C_TITLE, "Top mmap_lock (3: mmap_lock view)");
	if (family_na(st, FAMILY_MMAP_LOCK)[0]) {
		draw_text(y + 1, 2, COLS - 2, C_DIM, "n/a (%s)", family_na(st, FAMILY_MMAP_LOCK));
		return 2;
	}
	if (!n) {
		draw_text(y + 1, 2, COLS - 2, C_DIM, "no mmap_lock activity %s", ui_span(st));
		return 2;
	}
	top = malloc(n * sizeof(*top));
	if (!top)
		return 1;
	memcpy(top, s->locks.v, n * sizeof(*top));
	qsort(top, n, sizeof(*top), by_time);
	for (i = 0; i < n && i < TOP_LINES; i++)
		draw_text(y + 1 + i, 2, COLS - 2, C_NORMAL,
			  "%7d %-16s %-20.20s %-5s acq %-8lu wait %-9s hold %s", top[i].pid,
			  top[i].comm, callsite_label(top[i].site, top[i].symbol),
			  top[i].write ? "write" : "read", (unsigned long)top[i].acquired,
			  format_ns(top[i].wait_ns, w, sizeof(w)),
			  format_ns(top[i].hold_ns, h, sizeof(h)));
	free(top);
	return 1 + (n < TOP_LINES ? n : TOP_LINES);
}

static int draw_top_conts(const struct ui_state *st, int y)
{
	const struct snapshot *s = ui_snapshot(st);
	struct cont_row *copy;
	int i, n = s->conts.nr;
	char w[16];

	draw_text(y, 0, COLS, C_TITLE, "Top contention (4: Locks view)");
	if (family_na(st, FAMILY_CONTENTION)[0]) {
		draw_text(y + 1, 2, COLS - 2, C_DIM, "n/a (%s)", family_na(st, FAMILY_CONTENTION));
		return 2;
	}
	if (!n) {
		draw_text(y + 1, 2, COLS - 2, C_DIM, "no contended locks %s", ui_span(st));
		return 2;
	}
	copy = malloc(n * sizeof(*copy));
	if (!copy)
		return 1;
	memcpy(copy, s->conts.v, n * sizeof(*copy));
	qsort(copy, n, sizeof(*copy), by_wait);
	for (i = 0; i < n && i < TOP_LINES; i++)
		draw_text(y + 1 + i, 2, COLS - 2, C_NORMAL, "%-16s %-24.24s %-10s x%-7lu wait %s",
			  cont_class_name(copy[i].cls), copy[i].caller, copy[i].type,
			  (unsigned long)copy[i].count, format_ns(copy[i].wait_ns, w, sizeof(w)));
	free(copy);
	return 1 + (n < TOP_LINES ? n : TOP_LINES);
}

static int draw_last_events(const struct ui_state *st, int y)
{
	int i;
	char w[16];

	draw_text(y, 0, COLS, C_TITLE, "Latest slow events (6: Events view)");
	if (!st->nr_events) {
		draw_text(y + 1, 2, COLS - 2, C_DIM, "none at or above the --slow threshold");
		return 2;
	}
	for (i = 0; i < st->nr_events && i < TOP_LINES; i++) {
		const struct slow_event *e = ui_event(st, i);

		draw_text(y + 1 + i, 2, COLS - 2, C_NORMAL, "%7d %-16s %-30.30s %s %s",
			  e->pid, e->comm, e->contention ? cont_class_name(e->cls) :
			  callsite_label(e->site, e->symbol),
			  e->hold_ns ? "hold" : "wait",
			  format_ns(e->hold_ns ? e->hold_ns : e->wait_ns, w, sizeof(w)));
	}
	return 1 + (st->nr_events < TOP_LINES ? st->nr_events : TOP_LINES);
}

static void overview_draw(struct ui_state *st, int y, int h)
{
	int line, room;

	/* CPUs take at most half of the body; the rest shows the others. */
	line = draw_cpus(st, y, h / 2 > 4 ? h / 2 : 4) + 1;
	room = h - line;
	if (room > 2)
		line += draw_top_locks(st, y + line) + 1;
	if (h - line > 2)
		line += draw_top_conts(st, y + line) + 1;
	if (h - line > 2)
		draw_last_events(st, y + line);
}

const struct view_ops view_overview = {
	.name = "Overview",
	.draw = overview_draw,
};
