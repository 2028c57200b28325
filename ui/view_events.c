// SPDX-License-Identifier: GPL-2.0
/* Events: the slow-event log, newest first, kept across intervals. */
#include <curses.h>
#include <time.h>

#include "draw.h"
#include "table.h"
#include "util.h"
#include "views.h"

/* TIME sorts on the event's time (newest first), not on its text. */
static const struct ui_column cols[] = {
	{ "TIME", 12, false }, { "PID", 7, false }, { "TID", 7, false },
	{ "CPU", 3, false }, { "COMM", 16, TABLE_NAME }, { "LOCK", 10, true },
	{ "WHAT", 24, true }, { "MODE", 5, true }, { "WAIT", 8, false },
	{ "HOLD", 8, false }, { "BEHIND", 32, true },
};

enum { COL_TIME = 0 };

static void events_draw(struct ui_state *st, int y, int h)
{
	struct table_state *ts = &st->tables[VIEW_EVENTS];
	struct ui_table t;
	char b[16], when[16];
	int i;

	draw_text(y, 0, COLS, C_DIM, "waits and holds of at least %s, newest first (%d kept)",
		  format_ns(ui_snapshot(st)->slow_ns, b, sizeof(b)), st->nr_events);
	table_init(&t, cols, sizeof(cols) / sizeof(cols[0]), COL_TIME);
	for (i = 0; i < st->nr_events; i++) {
		const struct slow_event *e = ui_event(st, i);
		struct ui_cell *c = table_row(&t, i);
		time_t sec = e->wall_ns / NSEC_PER_SEC;
		struct tm tm;

		if (!c)
			break;
		localtime_r(&sec, &tm);
		strftime(when, sizeof(when), "%H:%M:%S", &tm);
		/* Sorting on time sorts on the wall clock, ns included. */
		cell_set(&c[0], e->wall_ns, "%s.%03u", when,
			 (unsigned int)(e->wall_ns % NSEC_PER_SEC / 1000000));
		cell_set(&c[1], e->pid, "%d", e->pid);
		cell_set(&c[2], e->tid, "%d", e->tid);
		cell_set(&c[3], e->cpu, "%d", e->cpu);
		cell_set(&c[4], 0, "%s", e->comm);
		cell_set(&c[5], 0, "%s", e->contention ? cont_class_name(e->cls) : "mmap_lock");
		cell_set(&c[6], 0, "%s", e->contention ? e->symbol :
			 callsite_label(e->site, e->symbol));
		cell_set(&c[7], 0, "%s", slow_event_mode(e));
		cell_set(&c[8], e->wait_ns, "%s", format_ns(e->wait_ns, b, sizeof(b)));
		if (e->hold_ns)
			cell_set(&c[9], e->hold_ns, "%s", format_ns(e->hold_ns, b, sizeof(b)));
		else
			cell_set(&c[9], 0, "-");
		if (e->holder_pid)
			cell_set(&c[10], 0, "%d%s %s %s %s", e->holder_pid,
				 e->holder_pid != e->pid ? "*" : "", e->holder_comm,
				 callsite_label(e->holder_site, e->holder_symbol),
				 e->holder_write ? "write" : "read");
		else
			cell_set(&c[10], 0, "-");
	}
	table_show(&t, ts, st, y + 1, h - 1);
}

const struct view_ops view_events = {
	.name = "Events",
	.draw = events_draw,
};
