// SPDX-License-Identifier: GPL-2.0
/* Locks: contended waits by class, caller and lock type. */
#include <curses.h>

#include "draw.h"
#include "table.h"
#include "util.h"
#include "views.h"

/* The view's columns: fields of the contention rows (row_fields.c). */
static const char *const shown[] = {
	"cls", "by_address", "pid", "comm", "caller", "type", "mode", "count", "wait_ns",
	"wait_p50_ns", "wait_p90_ns", "wait_p99_ns", "wait_max_ns",
};

#define NR_COLS (int)(sizeof(shown) / sizeof(*shown))
#define COL_TOTAL 8	/* wait_ns, the default sort */

static void locks_draw(struct ui_state *st, int y, int h)
{
	static struct ui_column cols[NR_COLS];
	static const struct row_field *fields[NR_COLS];
	const struct snapshot *s = ui_snapshot(st);
	struct table_state *ts = &st->tables[VIEW_LOCKS];
	struct ui_table t;
	int i;

	if (family_na(st, FAMILY_CONTENTION)[0]) {
		draw_text(y, 0, COLS, C_DIM, "contention: n/a (%s)",
			  family_na(st, FAMILY_CONTENTION));
		return;
	}
	if (!cols[0].title)
		table_field_columns(&row_types[ROWS_CONT], shown, NR_COLS, cols, fields);
	draw_text(y, 0, COLS, C_DIM, "classified by %s", s->cont_method);
	table_init(&t, cols, NR_COLS, COL_TOTAL);
	for (i = 0; i < s->conts.nr; i++) {
		struct ui_cell *c = table_row(&t, i);

		if (!c)
			break;
		table_field_cells(c, fields, NR_COLS, &s->conts.v[i], s);
	}
	table_show(&t, ts, st, y + 1, h - 1);
}

const struct view_ops view_locks = {
	.name = "Locks",
	.draw = locks_draw,
};
