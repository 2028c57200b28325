// SPDX-License-Identifier: GPL-2.0
/*
 * Overview: per-CPU fault-rate bars with a sparkline of the last intervals,
 * per-node totals, then the top lines of the other views, who blocks whom
 * first.
 */
#include <curses.h>
#include <stdlib.h>
#include <string.h>

#include "draw.h"
#include "util.h"
#include "views.h"

#define TOP_LINES 3
#define NODE_WIDTH 40	/* a node's total, "node1  64 CPUs    1.2M faults/s" */

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

/* One CPU's line: its fault rate, a bar against @max and a sparkline. */
static void draw_cpu(const struct ui_state *st, int y, int cpu, double max)
{
	const struct snapshot *s = ui_snapshot(st);
	const struct cpu_sample *c = &s->cpus[cpu];
	double rate = snapshot_rate(s, c->faults.min_flt + c->faults.maj_flt), v[UI_HISTORY];
	int spark = COLS - 50 < UI_HISTORY ? COLS - 50 : UI_HISTORY, n;
	char r[16];

	if (!c->online) {
		draw_text(y, 0, COLS, C_DIM, "%3d  offline", cpu);
		return;
	}
	draw_text(y, 0, 5, C_NORMAL, "%3d", cpu);
	draw_bar(y, 4, 24, rate / max);
	draw_text(y, 31, 10, C_NORMAL, "%9s", fmt_rate(rate, r, sizeof(r)));
	/* Oldest on the left, as a strip chart. */
	for (n = 0; n < spark; n++)
		v[n] = ui_history(st, cpu, spark - 1 - n);
	draw_sparkline(y, 43, v, spark);
}

static const struct snapshot *by_rate_snapshot;

static double cpu_rate(const struct snapshot *s, int cpu)
{
	const struct cpu_sample *c = &s->cpus[cpu];

	return c->online ? snapshot_rate(s, c->faults.min_flt + c->faults.maj_flt) : -1;
}

/* Busiest first; CPU number among equals. */
static int by_rate(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	double rx = cpu_rate(by_rate_snapshot, x), ry = cpu_rate(by_rate_snapshot, y);

	return rx != ry ? (rx < ry) - (rx > ry) : x - y;
}

/*
 * The nodes' totals, then a line for each CPU; where the CPUs do not all
 * fit (a machine of hundreds), the busiest that do, and a line that says
 * how many are left out and what they are below.
 */
static int draw_cpus(const struct ui_state *st, int y, int h)
{
	const struct snapshot *s = ui_snapshot(st);
	int line = 0, n, shown, *order, per_line;
	double max = max_rate(st);
	char r[16];

	draw_text(y + line++, 0, COLS, C_TITLE, "CPU  faults/s (bar: share of the busiest interval shown)");
	if (family_na(st, FAMILY_FAULTS)[0]) {
		draw_text(y + line++, 2, COLS - 2, C_DIM, "faults: n/a (%s)",
			  family_na(st, FAMILY_FAULTS));
		return line;
	}
	/* Nodes side by side, as many as the width takes (8 nodes: 4 lines). */
	per_line = COLS / NODE_WIDTH > 1 ? COLS / NODE_WIDTH : 1;
	for (n = 0; n < s->nr_nodes && line < h; n++) {
		draw_text(y + line, n % per_line * NODE_WIDTH, NODE_WIDTH - 1, C_NORMAL,
			  "node%-2d %3d CPUs %9s faults/s", n, s->nodes[n].nr_online,
			  fmt_rate(snapshot_rate(s, s->nodes[n].faults.min_flt +
						 s->nodes[n].faults.maj_flt), r, sizeof(r)));
		if (n % per_line == per_line - 1 || n == s->nr_nodes - 1)
			line++;
	}
	shown = h - line < s->nr_cpus ? h - line - 1 : s->nr_cpus;
	order = malloc(s->nr_cpus * sizeof(*order));
	if (!order || shown < 0)
		shown = 0;
	for (n = 0; order && n < s->nr_cpus; n++)
		order[n] = n;
	if (order && shown < s->nr_cpus) {
		by_rate_snapshot = s;
		qsort(order, s->nr_cpus, sizeof(*order), by_rate);
	}
	for (n = 0; n < shown; n++, line++)
		draw_cpu(st, y + line, order[n], max);
	if (shown < s->nr_cpus && line < h) {
		double below = order && shown ? cpu_rate(s, order[shown]) : 0;

		draw_text(y + line++, 0, COLS, C_DIM, "+%d more CPUs, each at most %s faults/s: the CPUs view lists them all",
			  s->nr_cpus - shown, fmt_rate(below < 0 ? 0 : below, r, sizeof(r)));
	}
	free(order);
	return line;
}

static int by_time(const void *a, const void *b)
{
	const struct lock_row *x = a, *y = b;
	uint64_t tx = x->wait_ns + x->hold_ns, ty = y->wait_ns + y->hold_ns;

	return tx < ty ? 1 : tx > ty ? -1 : 0;
}

/*
 * The memory-management locks first (mmap_lock, zone, pcp, VMA), then the
 * rest: a kernel thread's one long wait on an unrelated mutex is not what
 * this screen is for, however long; each group by total wait.
 */
static int by_wait(const void *a, const void *b)
{
	const struct cont_row *x = a, *y = b;
	bool ox = x->cls == CONT_CLASS_OTHER, oy = y->cls == CONT_CLASS_OTHER;

	if (ox != oy)
		return ox ? 1 : -1;
	return x->wait_ns < y->wait_ns ? 1 : x->wait_ns > y->wait_ns ? -1 : 0;
}

static int by_blame(const void *a, const void *b)
{
	const struct blame_row *x = a, *y = b;

	return x->wait_ns < y->wait_ns ? 1 : x->wait_ns > y->wait_ns ? -1 : 0;
}

static void lock_line(int y, const void *row)
{
	const struct lock_row *r = row;
	char w[16], h[16];

	/* Holds are exact mode's: none released, "-". The mm tells a fork's two rows apart. */
	draw_text(y, 2, COLS - 2, C_NORMAL, "%7d %-16s %-20.20s %-5s %-5s waits %-7lu wait %-9s hold %s",
		  r->pid, r->comm, callsite_label(r->site, r->symbol), r->write ? "write" : "read",
		  r->foreign ? "other" : "own",
		  (unsigned long)lock_row_waits(r), format_ns(r->wait_ns, w, sizeof(w)),
		  r->holds ? format_ns(r->hold_ns, h, sizeof(h)) : "-");
}

static void cont_line(int y, const void *row)
{
	const struct cont_row *r = row;
	char w[16];

	draw_text(y, 2, COLS - 2, C_NORMAL, "%-16s %-24.24s %-10s x%-7lu wait %s",
		  cont_class_name(r->cls), r->caller, r->type, (unsigned long)r->count,
		  format_ns(r->wait_ns, w, sizeof(w)));
}

static void blame_line(int y, const void *row)
{
	const struct blame_row *r = row;
	char w[16], h[12];

	draw_text(y, 2, COLS - 2, C_NORMAL,
		  "%7d %-12.12s %-9.9s %-5s waited %-8s behind %7s%s %-12.12s %-9.9s %s x%lu",
		  r->pid, r->comm, callsite_label(r->site, r->symbol), r->write ? "write" : "read",
		  format_ns(r->wait_ns, w, sizeof(w)), blame_holder_pid(r, h, sizeof(h)), blame_foreign(r) ? "*" : " ",
		  r->holder_comm, callsite_label(r->holder_site, r->holder_symbol),
		  r->holder_write ? "write" : "read", (unsigned long)r->count);
}

/* One section of the Overview: the top rows of another view. */
struct top {
	const char *title;
	enum probe_family family;	/* n/a when it is */
	const char *none;		/* said when there is no row */
	size_t size;			/* of a row */
	int (*cmp)(const void *, const void *);
	void (*line)(int y, const void *row);
	bool sampled;			/* its figures from the sampled programs */
};

/* The TOP_LINES first of @n @rows in @t's order; returns the lines drawn. */
static int draw_top(const struct ui_state *st, int y, const struct top *t, const void *rows,
		    int n)
{
	char *copy;
	int i;

	draw_text(y, 0, COLS, C_TITLE, "%s%s", t->title,
		  t->sampled && snapshot_estimates(ui_snapshot(st)) ? "  ~ estimates (sampled)" : "");
	if (family_na(st, t->family)[0]) {
		draw_text(y + 1, 2, COLS - 2, C_DIM, "n/a (%s)", family_na(st, t->family));
		return 2;
	}
	if (!n) {
		draw_text(y + 1, 2, COLS - 2, C_DIM, "%s %s", t->none, ui_span(st));
		return 2;
	}
	copy = malloc(n * t->size);
	if (!copy)
		return 1;
	memcpy(copy, rows, n * t->size);
	qsort(copy, n, t->size, t->cmp);
	for (i = 0; i < n && i < TOP_LINES; i++)
		t->line(y + 1 + i, copy + i * t->size);
	free(copy);
	return 1 + (n < TOP_LINES ? n : TOP_LINES);
}

static const struct top top_blame = {
	"Who blocks whom: mmap_lock waits by holder (7: Blame view)", FAMILY_MMAP_LOCK,
	"no mmap_lock wait behind a holder", sizeof(struct blame_row), by_blame, blame_line, true,
};
static const struct top top_locks = {
	"Top mmap_lock (3: mmap_lock view)", FAMILY_MMAP_LOCK, "no mmap_lock activity",
	sizeof(struct lock_row), by_time, lock_line, true,
};
static const struct top top_conts = {
	"Top contention, mm locks first (4: Locks view)", FAMILY_CONTENTION, "no contended locks",
	sizeof(struct cont_row), by_wait, cont_line, false,
};

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
	const struct snapshot *s = ui_snapshot(st);
	int line, room, cpus;

	/*
	 * CPUs take at most half of the body (the rest shows the others), but
	 * always their nodes and a few of the busiest.
	 */
	cpus = h / 2 > 4 ? h / 2 : 4;
	if (cpus < (s->nr_nodes + 1) / 2 + 5)
		cpus = (s->nr_nodes + 1) / 2 + 5;
	line = draw_cpus(st, y, cpus < h ? cpus : h) + 1;
	room = h - line;
	if (room > 2)
		line += draw_top(st, y + line, &top_blame, s->blame.v, s->blame.nr) + 1;
	if (h - line > 2)
		line += draw_top(st, y + line, &top_locks, s->locks.v, s->locks.nr) + 1;
	if (h - line > 2)
		line += draw_top(st, y + line, &top_conts, s->conts.v, s->conts.nr) + 1;
	if (h - line > 2)
		draw_last_events(st, y + line);
}

const struct view_ops view_overview = {
	.name = "Overview",
	.draw = overview_draw,
};
