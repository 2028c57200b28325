// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>

#include "merge.h"
#include "metrics.h"
#include "recset.h"
#include "report.h"
#include "stats.h"

/* Per-CPU faults/s of every interval, kept for the statistics. */
struct rates {
	double *v;		/* [interval][cpu] */
	size_t n, cap;
	int nr_cpus;
};

static int keep_rates(struct rates *r, const struct snapshot *s)
{
	int cpu;

	if ((r->n + 1) * r->nr_cpus > r->cap) {
		size_t cap = r->cap ? r->cap * 2 : (size_t)64 * r->nr_cpus;
		double *v = realloc(r->v, cap * sizeof(*v));

		if (!v)
			return -1;
		r->v = v;
		r->cap = cap;
	}
	for (cpu = 0; cpu < r->nr_cpus; cpu++)
		r->v[r->n * r->nr_cpus + cpu] =
			snapshot_rate(s, s->cpus[cpu].faults.min_flt + s->cpus[cpu].faults.maj_flt);
	r->n++;
	return 0;
}

static void print_rates(const struct rates *r)
{
	double *col = malloc(r->n * sizeof(*col)), max;
	size_t i;
	int cpu;

	if (!col)
		return;
	printf("per-CPU faults/s over %zu intervals\n  CPU        mean       Hmean         max\n", r->n);
	for (cpu = 0; cpu < r->nr_cpus; cpu++) {
		for (i = 0, max = 0; i < r->n; i++) {
			col[i] = r->v[i * r->nr_cpus + cpu];
			max = col[i] > max ? col[i] : max;
		}
		/* Idle intervals make a harmonic mean 0: it says so. */
		printf("%5d %11.1f %11.1f %11.1f\n", cpu, stats_mean(col, r->n),
		       stats_hmean(col, r->n), max);
	}
	free(col);
}

int report_run(const struct report_opts *o)
{
	struct snapshot s = { 0 }, sum = { 0 };
	struct rates rates = { 0 };
	struct rec_set rd;
	struct output out;
	char err[512];
	int ret = rec_set_open(&rd, o->paths, o->nr_paths, stderr, err, sizeof(err));

	if (ret) {
		fprintf(stderr, "mmtop: %s\n", err);
		return ret == -2 ? 2 : 1;
	}
	rd.range = o->range;
	while (rec_set_next(&rd, &s) == 1) {
		if (!sum.cpus && snapshot_init(&sum, s.nr_cpus, s.nr_nodes))
			break;
		rates.nr_cpus = s.nr_cpus;
		if (snapshot_merge(&sum, &s) || keep_rates(&rates, &s))
			break;
	}
	if (!rates.n) {
		fprintf(stderr, "mmtop: %s: no complete interval in the recording%s\n",
			o->paths[0], o->range.begin_ns || o->range.end_ns ? " in that time range" : "");
		ret = 1;
	} else {
		output_init(&out, o->format, stdout);
		out.top = METRICS_TOP_DEFAULT;
		ret = output_snapshot(&out, &sum) ? 1 : 0;
		output_close(&out);
		if (o->format == OUTPUT_TEXT)
			print_rates(&rates);
	}
	snapshot_free(&s);
	snapshot_free(&sum);
	free(rates.v);
	rec_set_close(&rd);
	return ret;
}
