/* SPDX-License-Identifier: GPL-2.0 */
/* Drawing primitives shared by the views: colours, text, bars, sparklines. */
#ifndef MMTOP_UI_DRAW_H
#define MMTOP_UI_DRAW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "snapshot.h"

enum ui_color {
	C_NORMAL,
	C_HEADER,	/* title bar and key hints */
	C_SELECTED,	/* the table row under the cursor */
	C_LOW,		/* bars: low, middle, high */
	C_MID,
	C_HIGH,
	C_DIM,		/* n/a, notes */
	C_TAB,		/* the current view's tab */
	C_TITLE,	/* column titles, section titles */
	C__COUNT
};

void draw_init_colors(bool color);
void draw_set_color(bool color);
/* Print at (@y, @x), clipped to @width columns, in @c. */
void draw_text(int y, int x, int width, enum ui_color c, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* A horizontal bar of @width cells filled to @fraction (0..1). */
void draw_bar(int y, int x, int width, double fraction);
/* A sparkline of @n values (oldest first); negative values are gaps. */
void draw_sparkline(int y, int x, const double *v, int n);
/* A log2 histogram as one bar per non-empty bucket range. */
int draw_hist(int y, int x, int width, int max_lines, const struct hist *h);
/* The sort mark at (@y, @x): down for largest (or A) first, up for the reverse. */
void draw_arrow(int y, int x, bool down);
/* Fill the line with the colour, as a background. */
void draw_fill(int y, enum ui_color c);

/* 12.3, 4.5k, 1.2M */
const char *fmt_rate(double v, char *buf, size_t len);

#endif
