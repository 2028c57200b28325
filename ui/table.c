// SPDX-License-Identifier: GPL-2.0
#include <curses.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "draw.h"
#include "table.h"
#include "util.h"

void table_init(struct ui_table *t, const struct ui_column *cols, int nr_cols,
		int default_sort)
{
	memset(t, 0, sizeof(*t));
	t->cols = cols;
	t->nr_cols = nr_cols < UI_TABLE_COLS ? nr_cols : UI_TABLE_COLS;
	t->default_sort = default_sort;
}

void table_free(struct ui_table *t)
{
	free(t->cells);
	free(t->ids);
	free(t->groups);
	free(t->order);
	memset(t, 0, sizeof(*t));
}

static int table_grow(struct ui_table *t)
{
	int cap = t->cap ? t->cap * 2 : 64;

	if (realloc_in(&t->cells, (size_t)cap * t->nr_cols, sizeof(*t->cells)) ||
	    realloc_in(&t->ids, cap, sizeof(*t->ids)) ||
	    realloc_in(&t->groups, cap, sizeof(*t->groups)) ||
	    realloc_in(&t->order, cap, sizeof(*t->order)))
		return -1;
	t->cap = cap;
	return 0;
}

struct ui_cell *table_row_in(struct ui_table *t, int id, int group)
{
	struct ui_cell *row;

	if (t->nr_rows == t->cap && table_grow(t))
		return NULL;
	row = &t->cells[(size_t)t->nr_rows * t->nr_cols];
	memset(row, 0, t->nr_cols * sizeof(*row));
	t->groups[t->nr_rows] = group;
	t->ids[t->nr_rows++] = id;
	return row;
}

struct ui_cell *table_row(struct ui_table *t, int id)
{
	return table_row_in(t, id, 0);
}

void cell_set(struct ui_cell *c, double key, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->text, sizeof(c->text), fmt, ap);
	va_end(ap);
	c->key = key;
}

void cell_ns(struct ui_cell *c, double ns)
{
	char b[16];

	cell_set(c, ns, "%s", format_ns(ns, b, sizeof(b)));
}

/* How the viewer shows field @f's column (struct ui_column's text). */
static unsigned char field_col_kind(const struct row_field *f)
{
	if (!field_words(f))
		return 0;
	return f->show == SHOW_NAME ? TABLE_NAME : TABLE_TEXT;
}

const struct field_cols *field_cols(struct field_cols *fc)
{
	const struct ui_column *own = fc->own;
	int i;

	if (fc->cols[0].title)
		return fc;
	row_fields_pick(&row_types[fc->type], fc->names, fc->nr, fc->fields);
	for (i = 0; i < fc->nr; i++) {
		const struct row_field *f = fc->fields[i];

		fc->cols[i] = f ? (struct ui_column){ .title = f->title, .width = f->width,
						      .text = field_col_kind(f) } : *own++;
	}
	return fc;
}

int field_col(const struct field_cols *fc, const char *name)
{
	int i;

	for (i = 0; i < fc->nr; i++)
		if (fc->names[i] && !strcmp(fc->names[i], name))
			return i;
	return -1;
}

void field_cells(struct ui_cell *c, const struct field_cols *fc, const void *row,
		 const struct snapshot *s)
{
	char b[TABLE_CELL];
	double key;
	int i;

	for (i = 0; i < fc->nr; i++) {
		const char *text;

		if (!fc->fields[i])
			continue;
		text = field_shown(fc->fields[i], row, s, b, sizeof(b), &key);
		cell_set(&c[i], key, "%s", text);
	}
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
	int ga = sorting->groups[*(const int *)a], gb = sorting->groups[*(const int *)b];
	int r;

	if (ga != gb)
		return ga - gb;

	if (sorting->cols[sort_col].text)
		r = strcmp(x->text, y->text);
	else
		r = x->key < y->key ? -1 : x->key > y->key;
	if (!r)	/* stable across refreshes */
		r = *(const int *)a - *(const int *)b;
	return sort_desc ? -r : r;
}

/* The rows in t->order sorted as @ts says: numbers the hottest first, text alphabetical. */
static void sort_shown(struct ui_table *t, const struct table_state *ts)
{
	sorting = t;
	sort_col = table_sort_col(t, ts);
	sort_desc = !t->cols[sort_col].text != ts->reverse;
	t->sort_col = sort_col;
	t->sort_desc = sort_desc;
	if (t->nr_shown > 1)
		qsort(t->order, t->nr_shown, sizeof(*t->order), by_column);
}

void table_sort_like(struct ui_table *t, const struct table_state *ts)
{
	for (t->nr_shown = 0; t->nr_shown < t->nr_rows; t->nr_shown++)
		t->order[t->nr_shown] = t->nr_shown;
	sort_shown(t, ts);
}

void table_finish(struct ui_table *t, struct table_state *ts, const struct ui_state *st)
{
	int r;

	t->span = ui_span(st);
	t->estimate = snapshot_estimates(ui_snapshot(st));
	t->nr_shown = 0;
	for (r = 0; r < t->nr_rows; r++)
		if (row_matches(t, r, st->filter))
			t->order[t->nr_shown++] = r;
	sort_shown(t, ts);
	ts->sort_col = t->sort_col;	/* < and > move on from here */
	ts->nr_rows = t->nr_shown;
	if (ts->selected >= t->nr_shown)
		ts->selected = t->nr_shown - 1;
	if (ts->selected < 0)
		ts->selected = 0;
}

#define TEXT_MIN 8		/* text columns narrow down to this first */
#define TEXT_MAX 40		/* and widen to their content up to this */

/*
 * Where the columns go on a terminal of COLS: each column as wide as its
 * widest cell seen (numbers whole, text up to TEXT_MAX), its title and the
 * sort mark (column_width()); then text columns narrow (the widest
 * first, to TEXT_MIN) so that numbers stay on screen; what still does not
 * fit scrolls sideways (table_state.left, the arrow keys) behind the frozen
 * columns, those up to the first text one (the row's name). A column is
 * drawn whole or not at all: never a number cut at the edge.
 */
struct layout {
	int width[UI_TABLE_COLS];
	int frozen;		/* columns always shown on the left */
	int first;		/* first scrolled column shown */
	int end;		/* past the last one shown */
	bool more;		/* columns hidden on the right */
};

static int total_width(const struct layout *l, int n)
{
	int c, w = 0;

	for (c = 0; c < n; c++)
		w += l->width[c] + 1;
	return w;
}

/*
 * Text columns narrow, the widest first, down to TEXT_MIN; process names
 * (15 characters at most) do not: they tell rows apart, and what does not
 * fit after them scrolls.
 */
static void narrow(const struct ui_table *t, struct layout *l)
{
	int excess = total_width(l, t->nr_cols) - 1 - COLS;

	while (excess > 0) {
		int c, widest = -1;

		for (c = 0; c < t->nr_cols; c++)
			if ((t->cols[c].text == TABLE_TEXT || t->cols[c].text == TABLE_PATH) &&
			    l->width[c] > TEXT_MIN &&
			    (widest < 0 || l->width[c] > l->width[widest]))
				widest = c;
		if (widest < 0)
			return;
		l->width[widest]--;
		excess--;
	}
}

/* Terminal cells @s takes as draw_text() shows it (escaped, one per character). */
static int shown_width(const char *s)
{
	char safe[4 * TABLE_CELL];
	int n = 0;

	for (s = text_safe(s, safe, sizeof(safe)); *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* Remember the widest cell of each column among the rows shown. */
static void measure(const struct ui_table *t, struct table_state *ts)
{
	int r, c, w;

	for (r = 0; r < t->nr_shown; r++)
		for (c = 0; c < t->nr_cols; c++) {
			w = shown_width(cell(t, t->order[r], c)->text);
			if (w > ts->seen[c])
				ts->seen[c] = w;
		}
}

/*
 * Text as wide as the widest seen (TEXT_MAX at most), numbers at least
 * their declared width, so that they line up from one interval to the
 * next; either at least its title and the sort mark.
 */
/* Column @c's title: "~" before a number's that is an estimate. */
static const char *title_of(const struct ui_table *t, int c, char *buf, size_t len)
{
	const struct ui_column *k = &t->cols[c];

	if (!t->estimate || !(t->sampled_cols & 1u << c))
		return k->title;
	snprintf(buf, len, "~%s", k->title);
	return buf;
}

static int column_width(const struct ui_table *t, const struct table_state *ts, int c)
{
	const struct ui_column *k = &t->cols[c];
	char buf[64];
	int w = ts->seen[c], title = strlen(title_of(t, c, buf, sizeof(buf))) + 1;

	if (k->text && w > TEXT_MAX)
		w = TEXT_MAX;
	if (!k->text && w < k->width)
		w = k->width;
	return w > title ? w : title;
}

static void layout(const struct ui_table *t, struct table_state *ts, struct layout *l)
{
	int c, x;

	measure(t, ts);
	for (c = 0; c < t->nr_cols; c++)
		l->width[c] = column_width(t, ts, c);
	narrow(t, l);
	for (l->frozen = 0; l->frozen < t->nr_cols && !t->cols[l->frozen].text; l->frozen++)
		;
	l->frozen = l->frozen < t->nr_cols ? l->frozen + 1 : 0;
	if (ts->left > t->nr_cols - l->frozen - 1)
		ts->left = t->nr_cols - l->frozen - 1;
	if (ts->left < 0 || total_width(l, t->nr_cols) - 1 <= COLS)
		ts->left = 0;
	l->first = l->frozen + ts->left;
	x = total_width(l, l->frozen);
	for (c = l->first; c < t->nr_cols && x + l->width[c] <= COLS; c++)
		x += l->width[c] + 1;
	l->more = c < t->nr_cols;
	/* Room for the > that says so: not over the last cell of a column. */
	if (l->more && x > COLS && c > l->first)
		c--;
	l->end = c;
}

static int draw_cell(const struct ui_table *t, const struct layout *l, int y, int x,
		     int row, int col, enum ui_color c)
{
	const struct ui_column *k = &t->cols[col];
	char buf[64];
	const char *text = row < 0 ? title_of(t, col, buf, sizeof(buf)) : cell(t, row, col)->text;
	int w = l->width[col];

	/* A path cut to its column keeps its end, after a +. */
	if (row >= 0 && k->text == TABLE_PATH && w > 1 && shown_width(text) > w) {
		const char *end = text + strlen(text);

		while (end > text && shown_width(end - 1) < w)
			end--;
		while ((*end & 0xc0) == 0x80)
			end++;
		draw_text(y, x, 1, c, "+");
		draw_text(y, x + 1, w - 1, c, "%s", end);
		return x + w + 1;
	}
	/* Text cut to its column ends in +: a cut name is not another name. */
	if (row >= 0 && k->text && w > 1 && shown_width(text) > w) {
		draw_text(y, x, w - 1, c, "%s", text);
		draw_text(y, x + w - 1, 1, c, "+");
		return x + w + 1;
	}
	draw_text(y, x, w, row < 0 ? C_TITLE : c, k->text ? "%-*.*s" : "%*.*s", w, w, text);
	/* The sorted column: an arrow by its title, the way it sorts. */
	if (row < 0 && col == t->sort_col && (int)strlen(text) < w)
		draw_arrow(y, k->text ? x + (int)strlen(text) : x + w - (int)strlen(text) - 1,
			   t->sort_desc);
	return x + w + 1;
}

static void draw_row(const struct ui_table *t, const struct layout *l, int y, int row,
		     enum ui_color c)
{
	int col, x = 0;

	if (c != C_NORMAL)
		draw_fill(y, c);
	for (col = 0; col < l->frozen; col++)
		x = draw_cell(t, l, y, x, row, col, c);
	for (col = l->first; col < l->end; col++)
		x = draw_cell(t, l, y, x, row, col, c);
	if (row >= 0)
		return;
	/* Titles show where columns are hidden: < on the left, > on the right. */
	if (l->first > l->frozen)
		draw_text(y, total_width(l, l->frozen) - 1, 1, C_TITLE, "<");
	if (l->more)
		draw_text(y, COLS - 1, 1, C_TITLE, ">");
}

void table_draw(const struct ui_table *t, struct table_state *ts, int y, int h)
{
	struct layout l;
	int i, rows = h - 1;

	layout(t, ts, &l);
	draw_row(t, &l, y, -1, C_NORMAL);
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
		draw_row(t, &l, y + 1 + i, t->order[ts->top + i],
			 ts->top + i == ts->selected ? C_SELECTED : C_NORMAL);
	if (!t->nr_shown)
		draw_text(y + 1, 1, COLS - 2, C_DIM, "%s%s", t->nr_rows ?
			  "no rows match the filter" : "no rows ", t->nr_rows ? "" : t->span);
	ts->selected_id = table_selected(t, ts);
}

void table_show(struct ui_table *t, struct table_state *ts, const struct ui_state *st,
		int y, int h)
{
	table_finish(t, ts, st);
	table_draw(t, ts, y, h);
	table_free(t);
}

int table_selected(const struct ui_table *t, const struct table_state *ts)
{
	if (ts->selected < 0 || ts->selected >= t->nr_shown)
		return -1;
	return t->ids[t->order[ts->selected]];
}
