// SPDX-License-Identifier: GPL-2.0
/*
 * Blame: mmap_lock waits by whom they waited behind, the worst pairs
 * first. HOLDER is marked * when it is another process (a /proc reader,
 * ptrace, process_vm_readv, or a parent in dup_mmap of a child's mm).
 */
#include <curses.h>
#include <stdlib.h>
#include <string.h>

#include "cgroup_pairs.h"
#include "draw.h"
#include "table.h"
#include "util.h"
#include "views.h"

static const struct ui_column cols[] = {
	{ "TOTAL", 8, false }, { "SHARE", 10, true }, { "PID", 7, false },
	{ "COMM", 12, TABLE_NAME }, { "SITE", 10, true }, { "MODE", 5, true },
	{ "HOLDER", 8, false }, { "COMM", 12, TABLE_NAME }, { "SITE", 10, true },
	{ "MODE", 5, true }, { "COUNT", 8, false }, { "max", 8, false },
};

enum { COL_TOTAL = 0 };

#define BAR 10

/* The row's share of all attributed wait, as a bar of BAR cells. */
static void share_cell(struct ui_cell *c, uint64_t ns, uint64_t all)
{
	char bar[BAR + 1];
	int n = all ? (int)((ns * BAR + all - 1) / all) : 0;

	memset(bar, '#', n);
	memset(bar + n, ' ', BAR - n);
	bar[BAR] = '\0';
	cell_set(c, all ? (double)ns / all : 0, "%s", bar);
}

static void fill(struct ui_cell *c, const struct blame_row *r, uint64_t all)
{
	char m[20], h[12];

	cell_ns(&c[0], r->wait_ns);
	share_cell(&c[1], r->wait_ns, all);
	cell_set(&c[2], r->pid, "%d", r->pid);
	cell_set(&c[3], 0, "%s", r->comm);
	cell_set(&c[4], 0, "%s", callsite_label(r->site, r->symbol));
	cell_set(&c[5], 0, "%s", r->write ? "write" : "read");
	cell_set(&c[6], r->holder_pid, "%s%s", blame_holder_pid(r, h, sizeof(h)),
		 blame_foreign(r) ? "*" : "");
	cell_set(&c[7], 0, "%s", r->holder_comm);
	cell_set(&c[8], 0, "%s", callsite_label(r->holder_site, r->holder_symbol));
	cell_set(&c[9], 0, "%s", r->holder_write ? "write" : "read");
	cell_set(&c[10], r->count, "%lu", (unsigned long)r->count);
	cell_set(&c[11], r->wait_max_ns, "%s",
		 format_max(r->wait_max_ns, r->wait_max_bound, m, sizeof(m)));
}

/* Attributed wait of the rows @keep admits (all rows when NULL). */
static uint64_t kept_wait(const struct snapshot *s, blame_keep_fn keep, const void *arg)
{
	uint64_t all = 0;
	int i;

	for (i = 0; i < s->blame.nr; i++)
		if (!keep || keep(&s->blame.v[i], arg))
			all += s->blame.v[i].wait_ns;
	return all;
}

uint64_t blame_table(struct ui_table *t, const struct snapshot *s, blame_keep_fn keep,
		     const void *arg)
{
	uint64_t all = kept_wait(s, keep, arg);
	struct ui_cell *c;
	int i;

	table_init(t, cols, sizeof(cols) / sizeof(cols[0]), COL_TOTAL);
	t->sampled_cols = 1u << COL_TOTAL | 1u << 10;	/* TOTAL, COUNT */
	for (i = 0; i < s->blame.nr; i++)
		if ((!keep || keep(&s->blame.v[i], arg)) && (c = table_row(t, i)))
			fill(c, &s->blame.v[i], all);
	return all;
}

static const struct ui_column pair_cols[] = {
	{ "TOTAL", 8, false }, { "SHARE", 10, true }, { "CGROUP", 28, TABLE_PATH },
	{ "HOLDER CGROUP", 28, TABLE_PATH }, { "COUNT", 8, false }, { "max", 8, false },
	{ "ROWS", 5, false },
};

/* Grouped by cgroup (g): the waits by the waiter's cgroup and the holder's. */
static void pairs_draw(struct ui_state *st, const struct snapshot *s, int y, int h)
{
	uint64_t all = kept_wait(s, NULL, NULL);
	struct cgroup_pair *v;
	int i, n = cgroup_pairs_of(s, &v);
	struct ui_table t;
	struct ui_cell *c;
	char m[20];

	if (n < 0 || (!n && s->cgroups_na[0])) {
		draw_text(y, 0, COLS, C_DIM, "by cgroup: n/a (%s)",
			  n < 0 ? "out of memory" : s->cgroups_na);
		return;
	}
	table_init(&t, pair_cols, sizeof(pair_cols) / sizeof(pair_cols[0]), COL_TOTAL);
	t.sampled_cols = 1u << COL_TOTAL | 1u << 4;	/* TOTAL, COUNT */
	for (i = 0; i < n && (c = table_row(&t, i)); i++) {
		cell_ns(&c[0], v[i].wait_ns);
		share_cell(&c[1], v[i].wait_ns, all);
		cell_set(&c[2], 0, "%s", v[i].cgroup);
		cell_set(&c[3], 0, "%s", v[i].holder_cgroup[0] ? v[i].holder_cgroup : "- (none seen)");
		cell_set(&c[4], v[i].count, "%lu", (unsigned long)v[i].count);
		cell_set(&c[5], v[i].wait_max_ns, "%s",
			 format_max(v[i].wait_max_ns, v[i].wait_max_bound, m, sizeof(m)));
		cell_set(&c[6], v[i].rows, "%d", v[i].rows);
	}
	free(v);
	table_show(&t, &st->tables[VIEW_BLAME], st, y, h);
}

static void blame_draw(struct ui_state *st, int y, int h)
{
	const struct snapshot *s = ui_snapshot(st);
	struct ui_table t;

	if (family_na(st, FAMILY_MMAP_LOCK)[0]) {
		draw_text(y, 0, COLS, C_DIM, "blame: n/a (%s)", family_na(st, FAMILY_MMAP_LOCK));
		return;
	}
	draw_text(y, 0, COLS, C_DIM, "mmap_lock waits by %s; SHARE of %s",
		  st->by_cgroup ? "cgroup pair (g: processes)" :
		  "the holder they waited behind (* another process)",
		  format_ns(kept_wait(s, NULL, NULL), (char[16]){ 0 }, 16));
	if (s->holders[0] && !snapshot_acquisitions(s) && h > 2) {
		draw_text(++y, 0, COLS, C_DIM, "a wait's holder: %s", s->holders);
		h--;
	}
	if (st->by_cgroup) {
		pairs_draw(st, s, y + 1, h - 1);
		return;
	}
	blame_table(&t, s, NULL, NULL);
	table_show(&t, &st->tables[VIEW_BLAME], st, y + 1, h - 1);
}

const struct view_ops view_blame = {
	.name = "Blame",
	.draw = blame_draw,
};
