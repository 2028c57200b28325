// SPDX-License-Identifier: GPL-2.0
/* Locks: contended waits by class, caller and lock type. */
#include <curses.h>

#include "draw.h"
#include "table.h"
#include "util.h"
#include "views.h"

static const struct ui_column cols[] = {
	{ "CLASS", 15, true }, { "BY", 5, true }, { "PID", 7, false },
	{ "COMM", 16, TABLE_NAME }, { "CALLER", 24, true }, { "TYPE", 12, true },
	{ "MODE", 5, true }, { "COUNT", 8, false }, { "TOTAL", 8, false },
	{ "p50", 8, false }, { "p99", 8, false }, { "max", 8, false },
};

enum { COL_TOTAL = 8 };

static void locks_draw(struct ui_state *st, int y, int h)
{
	const struct snapshot *s = ui_snapshot(st);
	struct table_state *ts = &st->tables[VIEW_LOCKS];
	struct ui_table t;
	char m[20];
	int i;

	if (family_na(st, FAMILY_CONTENTION)[0]) {
		draw_text(y, 0, COLS, C_DIM, "contention: n/a (%s)",
			  family_na(st, FAMILY_CONTENTION));
		return;
	}
	draw_text(y, 0, COLS, C_DIM, "classified by %s", s->cont_method);
	table_init(&t, cols, sizeof(cols) / sizeof(cols[0]), COL_TOTAL);
	for (i = 0; i < s->conts.nr; i++) {
		const struct cont_row *r = &s->conts.v[i];
		struct ui_cell *c = table_row(&t, i);

		if (!c)
			break;
		cell_set(&c[0], 0, "%s", cont_class_name(r->cls));
		cell_set(&c[1], 0, "%s", r->by_address ? "addr" : "stack");
		cell_set(&c[2], r->pid, "%d", r->pid);
		cell_set(&c[3], 0, "%s", r->pid ? r->comm : "-");
		cell_set(&c[4], 0, "%s", r->caller[0] ? r->caller : "?");
		cell_set(&c[5], 0, "%s", r->type);
		cell_set(&c[6], 0, "%s", r->mode);
		cell_set(&c[7], r->count, "%lu", (unsigned long)r->count);
		cell_ns(&c[8], r->wait_ns);
		cell_ns(&c[9], hist_quantile(&r->wait, 0.5, r->wait_max_ns));
		cell_ns(&c[10], hist_quantile(&r->wait, 0.99, r->wait_max_ns));
		cell_set(&c[11], r->wait_max_ns, "%s",
			 format_max(r->wait_max_ns, r->wait_max_bound, m, sizeof(m)));
	}
	table_show(&t, ts, st, y + 1, h - 1);
}

const struct view_ops view_locks = {
	.name = "Locks",
	.draw = locks_draw,
};
