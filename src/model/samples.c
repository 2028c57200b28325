// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "samples.h"
#include "stats.h"

const struct metric *run_find(const struct run *r, const char *name)
{
	int i;

	for (i = 0; i < r->nr; i++)
		if (!strcmp(r->m[i].name, name))
			return r->m[i].n ? &r->m[i] : NULL;
	return NULL;
}

static struct metric *metric_of(struct run *r, const char *name)
{
	int i;

	for (i = 0; i < r->nr; i++)
		if (!strcmp(r->m[i].name, name))
			return &r->m[i];
	if (r->nr == RUN_MAX_METRICS)
		return NULL;
	snprintf(r->m[r->nr].name, sizeof(r->m[0].name), "%s", name);
	return &r->m[r->nr++];
}

int run_add(struct run *r, const char *name, double v)
{
	struct metric *m = metric_of(r, name);
	double *nv;

	if (!m)
		return -1;
	if (m->n == m->cap) {
		nv = realloc(m->v, (m->cap ? m->cap * 2 : 16) * sizeof(*nv));
		if (!nv)
			return -1;
		m->v = nv;
		m->cap = m->cap ? m->cap * 2 : 16;
	}
	m->v[m->n++] = v;
	return 0;
}

void run_free(struct run *r)
{
	int i;

	for (i = 0; i < r->nr; i++)
		free(r->m[i].v);
	r->nr = 0;
}

bool metric_is_rate(const char *name)
{
	return !strncmp(name, "faults/", 7);
}

double metric_summary(const struct metric *m)
{
	return metric_is_rate(m->name) ? stats_hmean(m->v, m->n) : stats_mean(m->v, m->n);
}

const char *metric_summary_name(const struct metric *m)
{
	return metric_is_rate(m->name) ? "Hmean" : "Mean";
}

bool metric_significant(const struct metric *base, const struct metric *m)
{
	return stats_welch_p(base->v, base->n, m->v, m->n) < SIGNIFICANT_P;
}

double metric_change_pct(const struct metric *base, const struct metric *m)
{
	double b = metric_summary(base);

	return b ? (metric_summary(m) / b - 1) * 100 : 0;
}

bool metric_rel(const struct metric *base, const struct metric *m, double *mean_rel,
		double *std_rel)
{
	double bm = stats_mean(base->v, base->n);

	if (!bm)
		return false;
	*mean_rel = (stats_mean(m->v, m->n) / bm - 1) * 100;
	*std_rel = stats_stddev(m->v, m->n) / bm * 100;
	return true;
}
