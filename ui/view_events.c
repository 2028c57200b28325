// SPDX-License-Identifier: GPL-2.0
/* Events: the slow-event log, newest first, kept across intervals. */
#include <curses.h>

#include "draw.h"
#include "table.h"
#include "util.h"
#include "views.h"

/* The view's columns: fields of the slow events (row_types.c). */
static const char *const shown[] = {
	"wall_ns", "pid", "tid", "cpu", "comm", "lock_name", "what", "mode", "foreign", "wait_ns",
	"hold_ns", "behind",
};

#define COL_TIME 0	/* the event's time, to the ns: newest first */

static void events_draw(struct ui_state *st, int y, int h)
{
	static struct field_cols fc = FIELD_COLS(ROWS_EVENT, shown);
	const struct snapshot *s = ui_snapshot(st);
	struct table_state *ts = &st->tables[VIEW_EVENTS];
	struct ui_table t;
	struct ui_cell *c;
	char b[16];
	int i;

	draw_text(y, 0, COLS, C_DIM, "waits and holds of at least %s, newest first (%d kept)",
		  format_ns(s->slow_ns, b, sizeof(b)), st->nr_events);
	table_init(&t, field_cols(&fc)->cols, fc.nr, COL_TIME);
	for (i = 0; i < st->nr_events && (c = table_row(&t, i)); i++)
		field_cells(c, &fc, ui_event(st, i), s);
	table_show(&t, ts, st, y + 1, h - 1);
}

const struct view_ops view_events = {
	.name = "Events",
	.draw = events_draw,
};
