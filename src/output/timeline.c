// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "html.h"
#include "timeline.h"
#include "util.h"

int timeline_init(struct timeline *tl, int nr_series)
{
	memset(tl, 0, sizeof(*tl));
	tl->s = calloc(nr_series, sizeof(*tl->s));
	tl->nr = nr_series;
	return tl->s ? 0 : -1;
}

void timeline_free(struct timeline *tl)
{
	int i;

	for (i = 0; i < tl->nr; i++)
		free(tl->s[i].v);
	free(tl->s);
	free(tl->start);
	free(tl->end);
	free(tl->bucket_first);
	memset(tl, 0, sizeof(*tl));
}

static int grow(float **v, size_t old, size_t cap)
{
	if (realloc_in(v, cap, sizeof(**v)))
		return -1;
	memset(*v + old, 0, (cap - old) * sizeof(**v));
	return 0;
}

static int grow_all(struct timeline *tl)
{
	size_t cap = tl->cap ? tl->cap * 2 : 1024;
	int i;

	if (realloc_in(&tl->start, cap, sizeof(*tl->start)) ||
	    realloc_in(&tl->end, cap, sizeof(*tl->end)))
		return -1;
	for (i = 0; i < tl->nr; i++)
		if (tl->s[i].v && grow(&tl->s[i].v, tl->cap, cap))
			return -1;
	tl->cap = cap;
	return 0;
}

int timeline_add(struct timeline *tl, double start, double end)
{
	if (tl->n == tl->cap && grow_all(tl)) {
		tl->failed = true;
		return -1;
	}
	tl->start[tl->n] = start;
	tl->end[tl->n] = end;
	tl->n++;
	return 0;
}

void timeline_set(struct timeline *tl, int i, double v)
{
	struct tl_series *s = &tl->s[i];

	if (!tl->n)
		return;
	s->seen = true;
	if (!s->v && v == 0)
		return;
	if (!s->v && grow(&s->v, 0, tl->cap)) {
		tl->failed = true;
		return;
	}
	s->v[tl->n - 1] = v;
	if (isnan(v))
		return;
	s->sum += v;
	if (v > s->max)
		s->max = v;
}

void timeline_add_to(struct timeline *tl, int i, double v)
{
	struct tl_series *s = &tl->s[i];
	double old = s->v && tl->n ? s->v[tl->n - 1] : 0;

	if (isnan(old))
		old = 0;
	s->sum -= old;
	timeline_set(tl, i, old + v);
}

void timeline_name(struct timeline *tl, int i, const char *name)
{
	snprintf(tl->s[i].name, sizeof(tl->s[i].name), "%s", name);
}

/* A gap: more than half an interval of time between two intervals. */
bool timeline_gap_before(const struct timeline *tl, size_t i)
{
	return i > 0 && i < tl->n &&
	       tl->start[i] - tl->end[i - 1] > (tl->end[i] - tl->start[i]) / 2;
}

int timeline_gaps(const struct timeline *tl)
{
	size_t i;
	int n = 0;

	for (i = 1; i < tl->n; i++)
		n += timeline_gap_before(tl, i);
	return n;
}

/*
 * As many buckets as intervals while they fit, else TIMELINE_BUCKETS
 * spans of equal time, each holding the intervals whose middle is in it.
 */
int timeline_bucket(struct timeline *tl)
{
	double t0, span;
	size_t i;
	int b, last = -1;

	tl->nr_buckets = tl->n <= TIMELINE_BUCKETS ? (int)tl->n : TIMELINE_BUCKETS;
	free(tl->bucket_first);
	tl->bucket_first = malloc((tl->nr_buckets + 1) * sizeof(int));
	if (!tl->bucket_first)
		return -1;
	for (b = 0; b <= tl->nr_buckets; b++)
		tl->bucket_first[b] = -1;
	if (!tl->n)
		return 0;
	t0 = tl->start[0];
	span = tl->end[tl->n - 1] - t0;
	for (i = 0; i < tl->n; i++) {
		b = tl->n <= TIMELINE_BUCKETS ? (int)i :
		    (int)(((tl->start[i] + tl->end[i]) / 2 - t0) / span * tl->nr_buckets);
		if (b >= tl->nr_buckets)
			b = tl->nr_buckets - 1;
		if (b < last)
			b = last;	/* out of order: keep buckets contiguous */
		if (b != last)
			tl->bucket_first[b] = (int)i;
		last = b;
	}
	tl->bucket_first[tl->nr_buckets] = (int)tl->n;
	return 0;
}

/* The next bucket with intervals after @b, or nr_buckets. */
static int next_bucket(const struct timeline *tl, int b)
{
	for (b++; b < tl->nr_buckets && tl->bucket_first[b] < 0; b++)
		;
	return b;
}

struct range {
	int first, end;		/* intervals [first, end) */
	bool gap;		/* one of them follows a gap */
};

static struct range bucket_range(const struct timeline *tl, int b)
{
	struct range r = { tl->bucket_first[b], tl->bucket_first[next_bucket(tl, b)], false };
	int i;

	for (i = r.first; i < r.end; i++)
		r.gap |= timeline_gap_before(tl, i);
	return r;
}

/* Minimum and maximum of a series over a range; false if it has no value. */
static bool min_max(const struct tl_series *s, struct range r, double *lo, double *hi)
{
	bool any = false;
	int i;

	for (i = r.first; i < r.end; i++) {
		double v = s->v ? s->v[i] : 0;

		if (isnan(v))
			continue;
		if (!any || v < *lo)
			*lo = v;
		if (!any || v > *hi)
			*hi = v;
		any = true;
	}
	return any;
}

static void draw_series(struct plot *p, const struct timeline *tl, const struct tl_series *s,
			int colour, bool dashed)
{
	double prev = 0;
	bool broken = true;
	int b;

	plot_line_begin(p, colour, dashed);
	for (b = next_bucket(tl, -1); b < tl->nr_buckets; b = next_bucket(tl, b)) {
		struct range r = bucket_range(tl, b);
		double lo = 0, hi = 0, x = (tl->start[r.first] + tl->end[r.end - 1]) / 2;

		if (!min_max(s, r, &lo, &hi)) {
			broken = true;
			continue;
		}
		/* Down then up, or up then down: whichever the line comes from. */
		if (fabs(prev - lo) <= fabs(prev - hi)) {
			plot_line_to(p, x, lo, broken || r.gap);
			if (hi != lo)
				plot_line_to(p, x, hi, false);
			prev = hi;
		} else {
			plot_line_to(p, x, hi, broken || r.gap);
			plot_line_to(p, x, lo, false);
			prev = lo;
		}
		broken = false;
	}
	plot_line_end(p);
}

static void hover_text(FILE *f, const struct timeline *tl, const struct tl_plot *tp,
		       struct range r)
{
	char a[32], b[32];
	int k;

	plot_format(UNIT_TIME, tl->start[r.first], a, sizeof(a));
	plot_format(UNIT_TIME, tl->end[r.end - 1], b, sizeof(b));
	fprintf(f, "%s-%s UTC", a, b);
	if (r.end - r.first > 1)
		fprintf(f, " (%d intervals: min-max)", r.end - r.first);
	for (k = 0; k < tp->nr; k++) {
		const struct tl_series *s = &tl->s[tp->series[k]];
		double lo = 0, hi = 0;

		fputs("\n", f);
		html_text(f, s->name);
		if (!min_max(s, r, &lo, &hi)) {
			fputs(": -", f);
			continue;
		}
		fprintf(f, ": %s", plot_format(tp->unit, lo, a, sizeof(a)));
		if (hi != lo)
			fprintf(f, "-%s", plot_format(tp->unit, hi, b, sizeof(b)));
	}
}

static double plot_max(const struct timeline *tl, const struct tl_plot *tp)
{
	double max = 0;
	int k;

	for (k = 0; k < tp->nr; k++)
		if (tl->s[tp->series[k]].max > max)
			max = tl->s[tp->series[k]].max;
	return tp->unit == UNIT_PCT ? 100 : max;
}

void timeline_plot(FILE *f, const struct timeline *tl, const struct tl_plot *tp)
{
	const char *names[PLOT_COLOURS];
	struct plot p = {
		.f = f, .id = tp->id, .kind = "timeseries",
		.x = { tl->start[0], tl->end[tl->n - 1], UNIT_TIME, "time (UTC)", NULL },
		.y = { 0, plot_max(tl, tp), tp->unit, tp->y_label, NULL },
	};
	size_t i;
	int k, b;

	for (k = 0; k < tp->nr && k < PLOT_COLOURS; k++)
		names[k] = tl->s[tp->series[k]].name;
	plot_begin(&p, tp->title, tp->what, names, k, tp->dashed);
	for (i = 1; i < tl->n; i++)
		if (timeline_gap_before(tl, i))
			plot_gap(&p, tl->end[i - 1], tl->start[i]);
	for (k = 0; k < tp->nr && k < PLOT_COLOURS; k++)
		draw_series(&p, tl, &tl->s[tp->series[k]], tp->colour ? tp->colour[k] : k,
			    tp->dashed && tp->dashed[k]);
	fputs("<g class=\"hov\">", f);
	for (b = next_bucket(tl, -1); b < tl->nr_buckets; b = next_bucket(tl, b)) {
		struct range r = bucket_range(tl, b);

		plot_hover_begin(&p, tl->start[r.first], tl->end[r.end - 1]);
		hover_text(f, tl, tp, r);
		plot_hover_end(&p);
	}
	fputs("</g>\n", f);
	plot_end(&p);
}
