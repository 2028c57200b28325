// SPDX-License-Identifier: GPL-2.0
/*
 * VMA: the per-VMA lock outcome of each process: its faults, those that
 * fell back to the mmap_lock and those that took it to set up an anon_vma,
 * and the share served under the VMA lock alone.
 */
#include <curses.h>

#include "draw.h"
#include "table.h"
#include "util.h"
#include "views.h"

static const struct ui_column cols[] = {
	{ "PID", 7, false }, { "COMM", 16, TABLE_NAME }, { "FAULTS", 9, false },
	{ "FALLBK", 8, false }, { "ANON", 8, false }, { "VMA-OK%", 8, false },
};

enum { COL_FALLBACKS = 3 };

/* @outcome: the VMA-lock outcome known, else "-" (exact mode's). */
static void fill(struct ui_cell *c, const struct vma_row *v, bool outcome)
{
	cell_set(&c[0], v->pid, "%d", v->pid);
	cell_set(&c[1], 0, "%s", v->comm);
	if (v->faults < 0) {
		cell_set(&c[2], -1, "?");
		cell_set(&c[5], -1, "?");
	} else {
		cell_set(&c[2], v->faults, "%lld", (long long)v->faults);
		cell_set(&c[5], vma_ok(v->faults, v->fallbacks, v->anon), "%.1f",
			 100.0 * vma_ok(v->faults, v->fallbacks, v->anon));
	}
	cell_set(&c[3], v->fallbacks, "%lu", (unsigned long)v->fallbacks);
	cell_set(&c[4], v->anon, "%lu", (unsigned long)v->anon);
	if (outcome)
		return;
	cell_set(&c[3], 0, "-");
	cell_set(&c[4], 0, "-");
	cell_set(&c[5], -1, "-");
}

static void vma_draw(struct ui_state *st, int y, int h)
{
	const struct snapshot *s = ui_snapshot(st);
	struct table_state *ts = &st->tables[VIEW_VMA];
	const char *na = snapshot_vma_na(s);
	struct ui_table t;
	int i;

	/* Without per-VMA locks there are no rows; in the default set, faults. */
	if (na)
		draw_text(y, 0, COLS, C_DIM, "per-VMA lock outcome: n/a (%s)", na);
	else
		draw_text(y, 0, COLS, C_DIM,
			  "per process: FALLBK faults took the mmap_lock, ANON took it for an anon_vma");
	table_init(&t, cols, sizeof(cols) / sizeof(cols[0]), na ? 2 : COL_FALLBACKS);
	t.sampled_cols = 1u << COL_FALLBACKS | 1u << 4 | 1u << 5;	/* FALLBK, ANON, VMA-OK% */
	for (i = 0; i < s->vmas.nr; i++) {
		struct ui_cell *c = table_row(&t, i);

		if (!c)
			break;
		fill(c, &s->vmas.v[i], !na);
	}
	table_show(&t, ts, st, y + 1, h - 1);
}

const struct view_ops view_vma = {
	.name = "VMA",
	.draw = vma_draw,
};
