/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Text tables from one column layout: a table's header and each of its
 * rows are printed from the same widths, so every value sits under its
 * header (words start where their header starts, numbers end where
 * theirs ends). Used by the text output, report and the summary.
 */
#ifndef MMTOP_TEXT_TABLE_H
#define MMTOP_TEXT_TABLE_H

#include <stdbool.h>
#include <stdio.h>

struct text_col {
	const char *name;
	int width;		/* 0: the rest of the line (the last column only) */
	bool left;		/* words; numbers are right-aligned */
	bool cut;		/* words cut to the width, the cut marked '+' */
};

struct text_table {
	int indent;
	int nr;
	const struct text_col *cols;
};

#define TEXT_TABLE(indent_, cols_) \
	{ .indent = (indent_), .nr = sizeof(cols_) / sizeof(*(cols_)), .cols = (cols_) }
/* A number's column, a word's, and a word's cut to its width. */
#define TEXT_NUM(name_, width_) { .name = (name_), .width = (width_) }
#define TEXT_WORD(name_, width_) { .name = (name_), .width = (width_), .left = true }
#define TEXT_CUT(name_, width_) { .name = (name_), .width = (width_), .left = true, .cut = true }

void text_header(FILE *f, const struct text_table *t);

/* A row being printed: one text_cell() a column, in order, then text_row_end(). */
struct text_row {
	FILE *f;
	const struct text_table *t;
	int col;
};

struct text_row text_row_begin(FILE *f, const struct text_table *t);
void text_cell(struct text_row *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void text_row_end(struct text_row *r);

#endif
