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

/* The view's columns: fields of the VMA rows (row_types.c). */
static const char *const shown[] = {
	"pid", "comm", "faults", "fallbacks", "anon", "vma_ok",
};

enum { COL_FAULTS = 2, COL_FALLBACKS, COL_ANON, COL_VMA_OK };

static void vma_draw(struct ui_state *st, int y, int h)
{
	const struct snapshot *s = ui_snapshot(st);
	struct table_state *ts = &st->tables[VIEW_VMA];
	const char *na = snapshot_vma_na(s);
	static struct field_cols fc = FIELD_COLS(ROWS_VMA, shown);
	struct ui_table t;
	int i;

	/* Without per-VMA locks there are no rows; in the default set, faults. */
	if (na)
		draw_text(y, 0, COLS, C_DIM, "per-VMA lock outcome: n/a (%s)", na);
	else
		draw_text(y, 0, COLS, C_DIM,
			  "per process: FALLBACK faults took the mmap_lock, ANON took it for an anon_vma");
	table_init(&t, field_cols(&fc)->cols, fc.nr, na ? COL_FAULTS : COL_FALLBACKS);
	t.sampled_cols = 1u << COL_FALLBACKS | 1u << COL_ANON | 1u << COL_VMA_OK;
	for (i = 0; i < s->vmas.nr; i++) {
		struct ui_cell *c = table_row(&t, i);

		if (!c)
			break;
		field_cells(c, &fc, &s->vmas.v[i], s);
	}
	table_show(&t, ts, st, y + 1, h - 1);
}

const struct view_ops view_vma = {
	.name = "VMA",
	.draw = vma_draw,
};
