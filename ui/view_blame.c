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

/* The view's columns: fields of the blame rows (row_types.c), and SHARE. */
static const char *const shown[] = {
	"wait_ns", NULL, "pid", "comm", "site", "write", "holder_pid", "holder_comm",
	"holder_site", "holder_write", "count", "wait_max_ns",
};
static const struct ui_column share_col = { "SHARE", 10, TABLE_TEXT };

enum { COL_TOTAL = 0, COL_SHARE = 1 };	/* wait_ns, the default sort; NULL */

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
	static struct field_cols fc = FIELD_COLS(ROWS_BLAME, shown, .own = &share_col);
	uint64_t all = kept_wait(s, keep, arg);
	const struct blame_row *r;
	struct ui_cell *c;
	int i;

	table_init(t, field_cols(&fc)->cols, fc.nr, COL_TOTAL);
	t->sampled_cols = 1u << COL_TOTAL | 1u << field_col(&fc, "count");
	for (i = 0; i < s->blame.nr; i++) {
		r = &s->blame.v[i];
		if ((keep && !keep(r, arg)) || !(c = table_row(t, i)))
			continue;
		field_cells(c, &fc, r, s);
		share_cell(&c[COL_SHARE], r->wait_ns, all);
	}
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
