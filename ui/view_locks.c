// SPDX-License-Identifier: GPL-2.0
/* Locks: contended waits by class, caller and lock type. */
#include <curses.h>

#include "draw.h"
#include "table.h"
#include "util.h"
#include "views.h"

/* The view's columns: fields of the contention rows (row_types.c). */
static const char *const shown[] = {
	"cls", "by_address", "pid", "comm", "caller", "type", "mode", "count", "wait_ns",
	"wait_p50_ns", "wait_p90_ns", "wait_p99_ns", "wait_max_ns",
};

#define COL_TOTAL 8	/* wait_ns, the default sort */

static void locks_draw(struct ui_state *st, int y, int h)
{
	static struct field_cols fc = FIELD_COLS(ROWS_CONT, shown);
	const struct snapshot *s = ui_snapshot(st);
	struct table_state *ts = &st->tables[VIEW_LOCKS];
	struct ui_table t;
	int i;

	if (family_na(st, FAMILY_CONTENTION)[0]) {
		draw_text(y, 0, COLS, C_DIM, "contention: n/a (%s)",
			  family_na(st, FAMILY_CONTENTION));
		return;
	}
	draw_text(y, 0, COLS, C_DIM, "classified by %s", s->cont_method);
	table_init(&t, field_cols(&fc)->cols, fc.nr, COL_TOTAL);
	for (i = 0; i < s->conts.nr; i++) {
		struct ui_cell *c = table_row(&t, i);

		if (!c)
			break;
		field_cells(c, &fc, &s->conts.v[i], s);
	}
	table_show(&t, ts, st, y + 1, h - 1);
}

const struct view_ops view_locks = {
	.name = "Locks",
	.draw = locks_draw,
};
