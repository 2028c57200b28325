// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel_features.h"
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

static bool is_warmup(const char *name)
{
	return !strncmp(name, METRIC_WARMUP, strlen(METRIC_WARMUP));
}

bool metric_is_rate(const char *name)
{
	if (is_warmup(name))
		name += strlen(METRIC_WARMUP);
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

const char *metric_change(const struct metric *base, const struct metric *m, char *buf,
			  size_t len)
{
	double b = metric_summary(base), v = metric_summary(m);

	if (!b && v)
		snprintf(buf, len, "from 0");
	else
		snprintf(buf, len, "%.2f%%", b ? (v / b - 1) * 100 : 0);
	return buf;
}

const char *metric_rel(const struct metric *base, const struct metric *m, char *buf,
		       size_t len)
{
	double bm = stats_mean(base->v, base->n), mm = stats_mean(m->v, m->n);

	if (!bm)
		snprintf(buf, len, mm ? "from 0" : "0.0%% (0.0%%)");
	else
		snprintf(buf, len, "%.1f%% (%.1f%%)", (mm / bm - 1) * 100,
			 stats_stddev(m->v, m->n) / bm * 100);
	return buf;
}

void workload_params(const char *workload, char *out, size_t len)
{
	char words[256], *save, *w;
	size_t n = 0;

	snprintf(words, sizeof(words), "%s", workload);
	out[0] = '\0';
	for (w = strtok_r(words, " ", &save); w && n < len; w = strtok_r(NULL, " ", &save)) {
		if (!strcmp(w, "--record") || !strcmp(w, "--label")) {
			strtok_r(NULL, " ", &save);
			continue;
		}
		n += snprintf(out + n, len - n, "%s%s", n ? " " : "", w);
	}
}

static bool listed(const struct comparison *c, const char *name)
{
	int i;

	for (i = 0; i < c->nr; i++)
		if (!strcmp(c->names[i], name))
			return true;
	return false;
}

void run_sampling_text(const struct run *r, char *buf, size_t len)
{
	if (!r->intervals)
		snprintf(buf, len, "%s", "");
	else if (r->budget_ppm)
		snprintf(buf, len, "mmap_lock sampled %.1f%% of the time (mmtop 0.1's budget %.4g%%)",
			 100 * r->sampled, r->budget_ppm / 1e4);
	else if (r->sampled <= 0)
		snprintf(buf, len, "mmap_lock waits (the default set)");
	else if (r->sampled >= 1)
		snprintf(buf, len, "mmap_lock exact (--exact)");
	else
		snprintf(buf, len, "mmap_lock exact %.1f%% of the time", 100 * r->sampled);
}

/* How a run traced mmap_lock: the default set, exact, in part, or a budget. */
static int tracing_of(const struct run *r)
{
	return r->budget_ppm ? 3 : r->sampled <= 0 ? 0 : r->sampled >= 1 ? 1 : 2;
}

int comparison_init(struct comparison *c, const struct run *runs, int n)
{
	int k, i;

	c->runs = runs;
	c->n = n;
	c->nr = 0;
	c->workloads_differ = false;
	c->sampling_differs = false;
	c->names = calloc((size_t)n * RUN_MAX_METRICS, sizeof(*c->names));
	if (!c->names)
		return -1;
	for (k = 0; k < n; k++) {
		for (i = 0; i < runs[k].nr; i++)
			if (runs[k].m[i].n && !listed(c, runs[k].m[i].name))
				c->names[c->nr++] = runs[k].m[i].name;
		if (k && strcmp(runs[0].workload, runs[k].workload))
			c->workloads_differ = true;
		if (k && runs[0].intervals && runs[k].intervals &&
		    (tracing_of(&runs[0]) != tracing_of(&runs[k]) ||
		     runs[0].budget_ppm != runs[k].budget_ppm))
			c->sampling_differs = true;
	}
	return 0;
}

/* Run @r's feature @f in words (@tok: room for its token). */
static const char *run_feature(const struct run *r, int f, char *tok, size_t len)
{
	kernel_features_get(r->kernel_has, f, tok, len);
	return tok[0] ? kernel_feature_words(f, tok) : "unknown (its recording does not say)";
}

bool comparison_kernel_line(const struct comparison *c, int f, char *buf, size_t len)
{
	char first[256], tok[256];
	size_t n;
	int k;
	bool differ = false;

	kernel_features_get(c->runs[0].kernel_has, f, first, sizeof(first));
	for (k = 1; k < c->n && !differ; k++) {
		kernel_features_get(c->runs[k].kernel_has, f, tok, sizeof(tok));
		differ = strcmp(first, tok) != 0;
	}
	if (!differ)
		return false;
	n = snprintf(buf, len, "%s:", kernel_feature_title(f));
	for (k = 0; k < c->n && n < len; k++)
		n += snprintf(buf + n, len - n, "%s %s %s", k ? ";" : "", c->runs[k].label,
			      run_feature(&c->runs[k], f, tok, sizeof(tok)));
	return true;
}

void comparison_free(struct comparison *c)
{
	free(c->names);
	c->names = NULL;
	c->nr = 0;
}

const struct metric *comparison_get(const struct comparison *c, int k, int i)
{
	return run_find(&c->runs[k], c->names[i]);
}

const char *comparison_summary_name(const struct comparison *c, int i)
{
	return metric_is_rate(c->names[i]) ? "Hmean" : "Mean";
}

bool comparison_scaling(const struct comparison *c, int k, int i, double *ratio)
{
	const char *name = c->names[i], *dash = strrchr(name, '-');
	const struct metric *m = comparison_get(c, k, i), *one;
	char base[64];
	double b;

	/* Warm-ups are not what scales. */
	if (!m || !metric_is_rate(name) || is_warmup(name) || !dash || atoi(dash + 1) <= 1)
		return false;
	snprintf(base, sizeof(base), "%.*s-1", (int)(dash - name), name);
	one = run_find(&c->runs[k], base);
	b = one ? metric_summary(one) : 0;
	if (!b)
		return false;
	*ratio = metric_summary(m) / b;
	return true;
}

void comparison_marks_note(const struct comparison *c, char *buf, size_t len)
{
	const struct metric *base, *m;
	int i, k, marked = 0, tested = 0;

	for (i = 0; i < c->nr; i++) {
		base = comparison_get(c, 0, i);
		for (k = 1; k < c->n && base && base->n > 1; k++) {
			m = comparison_get(c, k, i);
			if (!m || m->n < 2)
				continue;
			tested++;
			marked += metric_significant(base, m);
		}
	}
	snprintf(buf, len, "* p < %.2f (Welch's t-test): chance alone marks %.0f%% of unchanged "
		 "metrics; %d of %d marked here", SIGNIFICANT_P, SIGNIFICANT_P * 100, marked, tested);
}

bool comparison_row_scales(const struct comparison *c, int i)
{
	double r;
	int k;

	for (k = 0; k < c->n; k++)
		if (comparison_scaling(c, k, i, &r))
			return true;
	return false;
}

bool comparison_scales(const struct comparison *c)
{
	int i;

	for (i = 0; i < c->nr; i++)
		if (comparison_row_scales(c, i))
			return true;
	return false;
}
