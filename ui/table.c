// SPDX-License-Identifier: GPL-2.0
#include <curses.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "draw.h"
#include "table.h"

void table_init(struct ui_table *t, const struct ui_column *cols, int nr_cols,
		int default_sort)
{
	memset(t, 0, sizeof(*t));
	t->cols = cols;
	t->nr_cols = nr_cols;
	t->default_sort = default_sort;
}

void table_free(struct ui_table *t)
{
	free(t->cells);
	free(t->ids);
	free(t->order);
	memset(t, 0, sizeof(*t));
}

static int table_grow(struct ui_table *t)
{
	int cap = t->cap ? t->cap * 2 : 64;
	struct ui_cell *cells = realloc(t->cells, (size_t)cap * t->nr_cols * sizeof(*cells));
	int *ids, *order;

	if (!cells)
		return -1;
	t->cells = cells;
	ids = realloc(t->ids, cap * sizeof(*ids));
	if (!ids)
		return -1;
	t->ids = ids;
	order = realloc(t->order, cap * sizeof(*order));
	if (!order)
		return -1;
	t->order = order;
	t->cap = cap;
	return 0;
}

struct ui_cell *table_row(struct ui_table *t, int id)
{
	struct ui_cell *row;

	if (t->nr_rows == t->cap && table_grow(t))
		return NULL;
	row = &t->cells[(size_t)t->nr_rows * t->nr_cols];
	memset(row, 0, t->nr_cols * sizeof(*row));
	t->ids[t->nr_rows++] = id;
	return row;
}

void cell_set(struct ui_cell *c, double key, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->text, sizeof(c->text), fmt, ap);
	va_end(ap);
	c->key = key;
}

int table_sort_col(const struct ui_table *t, const struct table_state *ts)
{
	if (ts->sort_col < 0)
		return t->default_sort;
	return ts->sort_col < t->nr_cols ? ts->sort_col : t->nr_cols - 1;
}

static const struct ui_cell *cell(const struct ui_table *t, int row, int col)
{
	return &t->cells[(size_t)row * t->nr_cols + col];
}

static bool row_matches(const struct ui_table *t, int row, const char *filter)
{
	int c;

	if (!filter[0])
		return true;
	for (c = 0; c < t->nr_cols; c++)
		if (strcasestr(cell(t, row, c)->text, filter))
			return true;
	return false;
}

/* qsort has no context argument: the table being sorted. */
static const struct ui_table *sorting;
static int sort_col;
static bool sort_desc;

static int by_column(const void *a, const void *b)
{
	const struct ui_cell *x = cell(sorting, *(const int *)a, sort_col);
	const struct ui_cell *y = cell(sorting, *(const int *)b, sort_col);
	int r;

	if (sorting->cols[sort_col].text)
		r = strcmp(x->text, y->text);
	else
		r = x->key < y->key ? -1 : x->key > y->key;
	if (!r)	/* stable across refreshes */
		r = *(const int *)a - *(const int *)b;
	return sort_desc ? -r : r;
}

void table_finish(struct ui_table *t, struct table_state *ts, const char *filter)
{
	int r;

	t->nr_shown = 0;
	for (r = 0; r < t->nr_rows; r++)
		if (row_matches(t, r, filter))
			t->order[t->nr_shown++] = r;
	sorting = t;
	sort_col = table_sort_col(t, ts);
	ts->sort_col = sort_col;	/* < and > move on from here */
	/* Numbers: the hottest first; text: alphabetical first. */
	sort_desc = !t->cols[sort_col].text != ts->reverse;
	if (t->nr_shown > 1)
		qsort(t->order, t->nr_shown, sizeof(*t->order), by_column);
	ts->nr_rows = t->nr_shown;
	if (ts->selected >= t->nr_shown)
		ts->selected = t->nr_shown - 1;
	if (ts->selected < 0)
		ts->selected = 0;
}

static void draw_row(const struct ui_table *t, int y, int row, enum ui_color c)
{
	int col, x = 0;

	if (c != C_NORMAL)
		draw_fill(y, c);
	for (col = 0; col < t->nr_cols && x < COLS; col++) {
		const struct ui_column *k = &t->cols[col];
		const char *text = row < 0 ? k->title : cell(t, row, col)->text;

		draw_text(y, x, k->width, row < 0 ? C_TITLE : c,
			  k->text ? "%-*.*s" : "%*.*s", k->width, k->width, text);
		x += k->width + 1;
	}
}

void table_draw(const struct ui_table *t, struct table_state *ts, int y, int h)
{
	int i, rows = h - 1;

	draw_row(t, y, -1, C_NORMAL);
	ts->page = rows > 0 ? rows : 1;
	if (ts->selected < ts->top)
		ts->top = ts->selected;
	if (ts->selected >= ts->top + rows)
		ts->top = ts->selected - rows + 1;
	if (ts->top > t->nr_shown - rows)
		ts->top = t->nr_shown - rows;
	if (ts->top < 0)
		ts->top = 0;
	for (i = 0; i < rows && ts->top + i < t->nr_shown; i++)
		draw_row(t, y + 1 + i, t->order[ts->top + i],
			 ts->top + i == ts->selected ? C_SELECTED : C_NORMAL);
	if (!t->nr_shown)
		draw_text(y + 1, 1, COLS - 2, C_DIM, "%s", t->nr_rows ?
			  "no rows match the filter" : "no rows this interval");
	ts->selected_id = table_selected(t, ts);
}

int table_selected(const struct ui_table *t, const struct table_state *ts)
{
	if (ts->selected < 0 || ts->selected >= t->nr_shown)
		return -1;
	return t->ids[t->order[ts->selected]];
}
