/* SPDX-License-Identifier: GPL-2.0 */
/* The views: each draws the body of the screen from the shown snapshot. */
#ifndef MMTOP_UI_VIEWS_H
#define MMTOP_UI_VIEWS_H

#include "table.h"
#include "ui_state.h"

struct view_ops {
	const char *name;
	/* Draw the body in lines [y, y + h). */
	void (*draw)(struct ui_state *st, int y, int h);
	/* Enter on the selected row; NULL where there is nothing to zoom. */
	void (*enter)(struct ui_state *st);
};

extern const struct view_ops view_overview, view_cpus, view_mmap, view_locks,
			     view_forks, view_events, view_blame, view_vma;
const struct view_ops *view_of(enum ui_view v);

/* Admits a blame row into blame_table(). */
typedef bool (*blame_keep_fn)(const struct blame_row *r, const void *arg);
/*
 * The blame rows @keep admits (all when NULL) in @t, as the Blame view
 * fills them; returns their wait total, the SHARE column's whole.
 */
uint64_t blame_table(struct ui_table *t, const struct snapshot *s, blame_keep_fn keep,
		     const void *arg);

/* Why a family's data is missing ("" when it is there). */
const char *family_na(const struct ui_state *st, enum probe_family f);
/* Draw the whole screen: header, tabs, body, key hints, overlays. */
void ui_draw(struct ui_state *st);

#endif
