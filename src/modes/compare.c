// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "recfile.h"
#include "recset.h"
#include "stats.h"
#include "util.h"

#define MAX_METRICS 256
#define SIGNIFICANT_P 0.10

struct metric {
	char name[64];
	double *v;
	size_t n, cap;
};

struct run {
	char label[128];
	struct metric m[MAX_METRICS];
	int nr;
};

static struct metric *metric_of(struct run *r, const char *name)
{
	int i;

	for (i = 0; i < r->nr; i++)
		if (!strcmp(r->m[i].name, name))
			return &r->m[i];
	if (r->nr == MAX_METRICS)
		return NULL;
	snprintf(r->m[r->nr].name, sizeof(r->m[0].name), "%s", name);
	return &r->m[r->nr++];
}

static void add(struct run *r, const char *name, double v)
{
	struct metric *m = metric_of(r, name);
	double *nv;

	if (!m)
		return;
	if (m->n == m->cap) {
		nv = realloc(m->v, (m->cap = m->cap ? m->cap * 2 : 16) * sizeof(*nv));
		if (!nv)
			return;
		m->v = nv;
	}
	m->v[m->n++] = v;
}

/* SAMPLE frames: "metric=NAME\nvalue=NUMBER\n". */
static void parse_sample(struct run *r, const unsigned char *p, size_t len)
{
	char text[512], name[64] = "", *line, *save;
	double value = 0;
	bool have = false;

	snprintf(text, sizeof(text), "%.*s", (int)(len < sizeof(text) - 1 ? len : sizeof(text) - 1), p);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, "metric=", 7))
			snprintf(name, sizeof(name), "%s", line + 7);
		else if (!strncmp(line, "value=", 6))
			have = sscanf(line + 6, "%lf", &value) == 1;
	}
	if (name[0] && have)
		add(r, name, value);
}

/*
 * A recording's samples; a monitoring recording (no samples) gives one
 * interval-faults/sec sample per interval instead (a mean: idle
 * intervals are zero).
 */
static int load(char *path, struct run *r)
{
	struct snapshot s = { 0 };
	struct rec_set rd;
	const unsigned char *p;
	char err[512], raw[128];
	size_t len;
	int ret = rec_set_open(&rd, &path, 1, stderr, err, sizeof(err));

	if (ret) {
		fprintf(stderr, "mmtop: %s\n", err);
		return ret == -2 ? 2 : 1;
	}
	/* Labels come from files: printed as one safe line of text. */
	rec_set_header(&rd, "label", raw, sizeof(raw));
	text_safe(raw[0] ? raw : path, r->label, sizeof(r->label));
	while (rec_set_next_of(&rd, REC_SAMPLE, &p, &len))
		parse_sample(r, p, len);
	if (!r->nr) {
		rec_set_seek(&rd, (struct rec_pos){ 0, REC_FILE_HEADER });
		while (rec_set_next(&rd, &s) == 1)
			add(r, "interval-faults/sec",
			    snapshot_rate(&s, s.total.min_flt + s.total.maj_flt));
		snapshot_free(&s);
	}
	rec_set_close(&rd);
	return 0;
}

/* Rates are better higher and summarised by Hmean; latencies by mean. */
static bool is_rate(const char *name)
{
	return !strncmp(name, "faults/", 7);
}

static double summary(const struct metric *m)
{
	return is_rate(m->name) ? stats_hmean(m->v, m->n) : stats_mean(m->v, m->n);
}

static void print_text(struct run *runs, int n)
{
	int i, k;

	printf("%-24s", "");
	for (k = 0; k < n; k++)
		printf(" %26.26s", runs[k].label);
	printf("\n");
	for (i = 0; i < runs[0].nr; i++) {
		const struct metric *base = &runs[0].m[i];
		double b = summary(base);

		printf("%-5s %-18s", is_rate(base->name) ? "Hmean" : "Mean", base->name);
		for (k = 0; k < n; k++) {
			const struct metric *m = k ? metric_of(&runs[k], base->name) : base;
			double v, pct;
			bool sig;

			if (!m || !m->n) {
				printf(" %26s", "-");
				continue;
			}
			v = summary(m);
			pct = b ? (v / b - 1) * 100 : 0;
			sig = k && stats_welch_p(base->v, base->n, m->v, m->n) < SIGNIFICANT_P;
			printf(" %14.2f %c%8.2f%%%c", v, sig ? '*' : '(', pct, sig ? '*' : ')');
		}
		printf("\n");
	}
}

/* The fork tables of the PTE-batching thread: mean_rel (std_rel). */
static void print_markdown(struct run *runs, int n)
{
	int i, k;

	printf("| metric |");
	for (k = 0; k < n; k++)
		printf(" %s |", runs[k].label);
	printf("\n|---|");
	for (k = 0; k < n; k++)
		printf("---|");
	printf("\n");
	for (i = 0; i < runs[0].nr; i++) {
		const struct metric *base = &runs[0].m[i];
		double bm = stats_mean(base->v, base->n);

		printf("| %s mean_rel (std_rel) |", base->name);
		for (k = 0; k < n; k++) {
			const struct metric *m = k ? metric_of(&runs[k], base->name) : base;

			if (!m || !m->n || !bm) {
				printf(" - |");
				continue;
			}
			printf(" %.1f%% (%.1f%%) |", (stats_mean(m->v, m->n) / bm - 1) * 100,
			       stats_stddev(m->v, m->n) / bm * 100);
		}
		printf("\n");
	}
}

int compare_run(char **paths, int n, bool markdown)
{
	struct run *runs = calloc(n, sizeof(*runs));
	int i, k, ret = 0;

	if (!runs)
		return 1;
	for (k = 0; k < n && !ret; k++)
		ret = load(paths[k], &runs[k]);
	if (!ret && markdown)
		print_markdown(runs, n);
	else if (!ret)
		print_text(runs, n);
	for (k = 0; k < n; k++)
		for (i = 0; i < runs[k].nr; i++)
			free(runs[k].m[i].v);
	free(runs);
	return ret;
}
