/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Samples of runs, for compare: each recording a run, each metric the
 * values its workload reported (one per iteration). Rates (faults/...)
 * are summarised by the harmonic mean, latencies by the mean, and a run
 * differs significantly from the base when Welch's t-test gives p < 0.10.
 */
#ifndef MMTOP_SAMPLES_H
#define MMTOP_SAMPLES_H

#include <stdbool.h>
#include <stddef.h>

#define RUN_MAX_METRICS 256
#define SIGNIFICANT_P 0.10

struct metric {
	char name[64];
	double *v;
	size_t n, cap;
};

struct run {
	char label[128];
	struct metric m[RUN_MAX_METRICS];
	int nr;
};

/* Add a sample of metric @name (created on first use). 0, or -1. */
int run_add(struct run *r, const char *name, double v);
/* The metric of that name with samples, or NULL. */
const struct metric *run_find(const struct run *r, const char *name);
void run_free(struct run *r);

bool metric_is_rate(const char *name);
/* Hmean for rates, mean otherwise. */
double metric_summary(const struct metric *m);
/* "Hmean" or "Mean". */
const char *metric_summary_name(const struct metric *m);
/* Whether @m differs from @base significantly (Welch's p < SIGNIFICANT_P). */
bool metric_significant(const struct metric *base, const struct metric *m);
/* Change of the summary against the base's, in percent (0 for a base of 0). */
double metric_change_pct(const struct metric *base, const struct metric *m);
/*
 * As the fork PTE-batching results were published: mean_rel = mean / base
 * mean - 1 and std_rel = stddev / base mean, in percent. false for a base
 * mean of 0.
 */
bool metric_rel(const struct metric *base, const struct metric *m, double *mean_rel,
		double *std_rel);

#endif
