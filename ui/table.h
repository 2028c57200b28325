/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A sortable, filterable, scrolling table. Views fill it from the shown
 * snapshot at every draw; its sort, scroll and selection live in the
 * view's struct table_state.
 */
#ifndef MMTOP_UI_TABLE_H
#define MMTOP_UI_TABLE_H

#include <stdbool.h>
#include <stdint.h>

#include "row_fields.h"
#include "ui_state.h"

#define TABLE_CELL 64

struct ui_column {
	const char *title;
	int width;
	/*
	 * 0 a number; true (TABLE_TEXT) text: left-aligned, sorts ascending
	 * first; TABLE_NAME a process name: text that is never narrowed;
	 * TABLE_PATH a path (a cgroup's), narrowed as text but cut at its
	 * start: its end names it.
	 */
	unsigned char text;
};

#define TABLE_TEXT 1
#define TABLE_NAME 2
#define TABLE_PATH 3

struct ui_cell {
	char text[TABLE_CELL];
	double key;		/* sort key of numeric cells */
};

struct ui_table {
	const struct ui_column *cols;
	int nr_cols;
	int default_sort;	/* column sorted on until the user picks one */
	struct ui_cell *cells;	/* nr_rows * nr_cols */
	int *ids;		/* the caller's id of each row */
	int *groups;		/* rows of a lower group come first, whatever the sort */
	int *order;		/* display order, filtered */
	int nr_rows, nr_shown, cap;
	const char *span;	/* what the rows cover: "this interval", "since start" */
	/*
	 * Columns (1 << index) from the sampled programs: titled "~" while
	 * the shown snapshot is sampled (estimates). Set by the view.
	 */
	uint32_t sampled_cols;
	bool estimate;		/* the shown snapshot is sampled (table_finish()) */
	int sort_col;		/* as table_finish() sorted */
	bool sort_desc;
};

void table_init(struct ui_table *t, const struct ui_column *cols, int nr_cols,
		int default_sort);
void table_free(struct ui_table *t);
/* Append a row; its cells, to fill with cell_set(); NULL out of memory. */
struct ui_cell *table_row(struct ui_table *t, int id);
/* The same in group @group (e.g. 1 for aggregate rows kept below the rest). */
struct ui_cell *table_row_in(struct ui_table *t, int id, int group);
void cell_set(struct ui_cell *c, double key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A time in ns as "1.2ms", sorted by its value. */
void cell_ns(struct ui_cell *c, double ns);
/*
 * A view's columns from the field table: row type @type's fields named in
 * @names (the view's choice), titled and shown as the table says, made at
 * their first use (field_cols()). A NULL name is a column of the view's
 * own, the next of @own, whose cells the view fills.
 */
struct field_cols {
	enum row_type_id type;
	const char *const *names;
	int nr;
	const struct ui_column *own;
	struct ui_column cols[ROW_TABLE_COLS_MAX];
	const struct row_field *fields[ROW_TABLE_COLS_MAX];
};

#define FIELD_COLS(type_, names_, ...)					\
	{ .type = (type_), .names = (names_),				\
	  .nr = sizeof(names_) / sizeof(*(names_)), __VA_ARGS__ }

/* @fc, its columns made. */
const struct field_cols *field_cols(struct field_cols *fc);
/* The column of @fc that shows the field named @name; -1 if none does. */
int field_col(const struct field_cols *fc, const char *name);
/* A row's cells, one per field column of @fc (the view's own left as they are). */
void field_cells(struct ui_cell *c, const struct field_cols *fc, const void *row,
		 const struct snapshot *s);
/* All the rows, sorted as @ts sorts its view's (a zoom's list, as its view). */
void table_sort_like(struct ui_table *t, const struct table_state *ts);
/* Filter by st's filter (case-insensitive substring of any cell) and sort. */
void table_finish(struct ui_table *t, struct table_state *ts, const struct ui_state *st);
/* Draw titles at @y and rows below, @h lines in all. */
void table_draw(const struct ui_table *t, struct table_state *ts, int y, int h);
/* table_finish(), table_draw() and table_free(): a view's table, shown. */
void table_show(struct ui_table *t, struct table_state *ts, const struct ui_state *st,
		int y, int h);
/* The id of the selected row, or -1. */
int table_selected(const struct ui_table *t, const struct table_state *ts);
int table_sort_col(const struct ui_table *t, const struct table_state *ts);

#endif
