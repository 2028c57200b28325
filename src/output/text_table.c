// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <string.h>

#include "text_table.h"

/* @s in column @c of a row or the header, after its separator. */
static void put(FILE *f, const struct text_table *t, int c, const char *s)
{
	const struct text_col *col = &t->cols[c];
	int len = strlen(s);

	if (c == 0)
		fprintf(f, "%*s", t->indent, "");
	else
		fputc(' ', f);
	if (col->left && col->cut && col->width && len > col->width)
		fprintf(f, "%.*s+", col->width - 1, s);
	else if (!col->width || (col->left && c == t->nr - 1))
		fputs(s, f);	/* no trailing blanks */
	else
		fprintf(f, col->left ? "%-*s" : "%*s", col->width, s);
}

void text_header(FILE *f, const struct text_table *t)
{
	int c;

	for (c = 0; c < t->nr; c++)
		put(f, t, c, t->cols[c].name);
	fputc('\n', f);
}

struct text_row text_row_begin(FILE *f, const struct text_table *t)
{
	return (struct text_row){ .f = f, .t = t };
}

void text_cell(struct text_row *r, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	if (r->col >= r->t->nr)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	put(r->f, r->t, r->col++, buf);
}

void text_row_end(struct text_row *r)
{
	/* Cells not given are left blank. */
	fputc('\n', r->f);
}
