/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SVG plots for the HTML pages: a frame with axes, grid, ticks and units,
 * and the marks drawn in it (lines over time with gaps, points, bars).
 * Each plot is a <figure> whose <svg> scales to the page's width; series
 * take the page's colours by class (s0..s7), so both themes apply.
 */
#ifndef MMTOP_PLOT_H
#define MMTOP_PLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define PLOT_COLOURS 8

enum plot_unit {
	UNIT_COUNT,		/* 1.2k, 3.4M */
	UNIT_PER_S,		/* 1.2k/s */
	UNIT_NS,		/* 850ns, 1.2us, 3ms */
	UNIT_NS_PER_S,		/* time spent per second of wall time: 1.2ms/s */
	UNIT_PCT,		/* 0-100% */
	UNIT_MIB,		/* 512MiB */
	UNIT_TIME,		/* seconds since the epoch, shown as UTC */
	UNIT_LOG2_NS,		/* a log2 histogram bucket index, shown in ns */
	UNIT_INDEX,		/* categories at 0, 1, 2, ... (labels given) */
	UNIT_LOG10,		/* a count's log10, shown as the count: 1, 10, 100 */
};

struct plot_axis {
	double lo, hi;
	enum plot_unit unit;
	const char *label;
	/* UNIT_INDEX: the category names. */
	const char *const *names;
};

struct plot {
	FILE *f;
	const char *id;		/* the figure's id (letters, digits, -) */
	const char *kind;	/* data-kind: what the test counts */
	struct plot_axis x, y;
	int height;		/* of the drawing area, in viewBox units */
	bool points;		/* legend of points (circle, square, ...), not lines */
	bool pen;		/* a line is being drawn (plot_line_*) */
};

/* A value with its unit, for ticks and titles. */
const char *plot_format(enum plot_unit unit, double v, char *buf, size_t len);

/*
 * <figure> with @title (and an explanation @what, may be NULL) and the
 * legend's entries (@nr_series names; NULL for none), the <svg> with
 * grid, ticks and axis labels. Ranges are widened to round ticks.
 */
void plot_begin(struct plot *p, const char *title, const char *what,
		const char *const *series, int nr_series, const bool *dashed);
void plot_end(struct plot *p);
double plot_x(const struct plot *p, double v);
double plot_y(const struct plot *p, double v);

/* A line: points added in x order; a gap (no data) breaks it. */
void plot_line_begin(struct plot *p, int colour, bool dashed);
void plot_line_to(struct plot *p, double x, double y, bool after_gap);
void plot_line_end(struct plot *p);
/* A shaded span of x with no data (a missing interval). */
void plot_gap(struct plot *p, double x0, double x1);
/*
 * A hover target covering x0..x1 the full height; its title is the text
 * the caller writes between plot_hover_begin and plot_hover_end (escaped
 * by the caller), shown on hover as the values there.
 */
void plot_hover_begin(struct plot *p, double x0, double x1);
void plot_hover_end(struct plot *p);
/* A point (circle, or square when @square), its title @title (escaped here). */
void plot_point(struct plot *p, double x, double y, int colour, bool square,
		bool hollow, const char *title);
/* A bar from y=0 (or the axis bottom) to @y between x0 and x1. */
void plot_bar(struct plot *p, double x0, double x1, double y, int colour,
	      const char *title);
/*
 * A box at @x: the quartiles @q1..@q3 with the median, whiskers to @lo
 * and @hi, @half_width in x units either side.
 */
void plot_box(struct plot *p, double x, double half_width, const double q[5],
	      int colour, const char *title);

#endif
