/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Values over time for the HTML report: one value per interval and series,
 * kept as the recording is read, then drawn at the plot's width. More
 * intervals than pixels are bucketed by time and each bucket drawn from
 * its minimum to its maximum, so a one-interval spike in a week still
 * shows. Time not covered by an interval (the recorder stopped, a damaged
 * frame) is a gap: shaded, and no line crosses it.
 */
#ifndef MMTOP_TIMELINE_H
#define MMTOP_TIMELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "plot.h"

/* Buckets at most: about a pixel each at the plot's width. */
#define TIMELINE_BUCKETS 800
#define TIMELINE_NAME_LEN 96

struct tl_series {
	char name[TIMELINE_NAME_LEN];
	float *v;		/* per interval; NULL while every value was 0 */
	double sum, max;
	bool seen;		/* a value was set (0 included) */
};

struct timeline {
	size_t n, cap;		/* intervals */
	double *start, *end;	/* seconds since the epoch */
	int nr;
	struct tl_series *s;
	int *bucket_first;	/* per bucket: its first interval, -1 if none */
	int nr_buckets;
	bool failed;		/* out of memory: the page says so */
};

/* One plot of some series over time. */
struct tl_plot {
	const char *id, *title, *what, *y_label;
	enum plot_unit unit;
	const int *series;	/* indices into the timeline */
	int nr;
	const bool *dashed;	/* per series, or NULL */
	const int *colour;	/* per series, or NULL: 0, 1, 2, ... */
};

int timeline_init(struct timeline *tl, int nr_series);
void timeline_free(struct timeline *tl);
/* Start the next interval; its values are 0 until set. */
int timeline_add(struct timeline *tl, double start, double end);
/* Set / add to the last interval's value of series @i. NaN: no value. */
void timeline_set(struct timeline *tl, int i, double v);
void timeline_add_to(struct timeline *tl, int i, double v);
void timeline_name(struct timeline *tl, int i, const char *name);
/* Gaps: time before interval i not covered by i - 1. */
int timeline_gaps(const struct timeline *tl);
bool timeline_gap_before(const struct timeline *tl, size_t i);
/* Bucket the intervals once all are in (before any plot). */
int timeline_bucket(struct timeline *tl);
/* Draw the plot: lines, gaps, a hover target per bucket with its values. */
void timeline_plot(FILE *f, const struct timeline *tl, const struct tl_plot *tp);

#endif
