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
#include <stdint.h>
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
	/*
	 * From the recording's header, "" where it has none; the workload's
	 * command line as workload_params() leaves it.
	 */
	char kernel[128], host[128], workload[256];
	/* What the kernel had (kernel_features.h); "" in an older recording. */
	char kernel_has[512];
	/*
	 * How its intervals traced mmap_lock (none recorded: intervals 0):
	 * the share of the time exact mode was on (0: the default set) and,
	 * in a recording of mmtop 0.1, its budget (0: none).
	 */
	int intervals;
	uint32_t budget_ppm;
	double sampled;
	struct metric m[RUN_MAX_METRICS];
	int nr;
};

/* A warm-up repetition's metric: its name after this (bench pft --warmup). */
#define METRIC_WARMUP "warmup:"

#define COMPARISON_SAMPLING \
	"the recordings traced mmap_lock differently (the default set, exact mode, a budget of mmtop 0.1): mmtop cost their workloads differently"

/* How @r's intervals traced mmap_lock, in words ("" if it has none). */
void run_sampling_text(const struct run *r, char *buf, size_t len);

#define COMPARISON_UNLIKE \
	"the workloads differ (besides --record and --label): the changes compare unlike runs"

/*
 * What a comparison of runs shows: every metric of every run, once, the
 * first run's in its order and then each new one of the others. A metric
 * a run lacks is shown missing, never dropped.
 */
struct comparison {
	const struct run *runs;
	int n;
	const char **names;
	int nr;
	/* The runs' workload_params() differ. */
	bool workloads_differ;
	/* Their intervals were traced differently (see run_sampling_text()). */
	bool sampling_differs;
};

/*
 * A workload's command line without the recording's path and label, which
 * differ on every run: what two runs must share to compare like for like.
 */
void workload_params(const char *workload, char *out, size_t len);

int comparison_init(struct comparison *c, const struct run *runs, int n);
/*
 * Whether the runs' kernels differ in feature @f (enum kernel_feature);
 * if so, in @buf: "per-VMA lock: 6.1 none (...); 6.12 an rwsem (vm_lock)",
 * a run whose recording does not say read as unknown.
 */
bool comparison_kernel_line(const struct comparison *c, int f, char *buf, size_t len);
void comparison_free(struct comparison *c);
/* Metric @i of run @k, or NULL where that run lacks it. */
const struct metric *comparison_get(const struct comparison *c, int k, int i);
/* "Hmean" or "Mean", for metric @i. */
const char *comparison_summary_name(const struct comparison *c, int i);
/*
 * Scaling within run @k: for metric @i, a rate at N threads (faults/sec-N,
 * N > 1; not a warm-up's), its Hmean over the same rate's at 1 thread in
 * the same run. false where it is no such rate or the run lacks either.
 */
bool comparison_scaling(const struct comparison *c, int k, int i, double *ratio);
/*
 * What the significance marks mean, for the line under a table with marks:
 * the test, the share of unchanged metrics chance alone marks, and how many
 * of the comparisons that could be tested (two samples or more each side)
 * are marked. In @buf (160 bytes suffice).
 */
void comparison_marks_note(const struct comparison *c, char *buf, size_t len);
/* Whether any run has a scaling ratio for metric @i. */
bool comparison_row_scales(const struct comparison *c, int i);
/* Whether any run has a scaling ratio for any metric. */
bool comparison_scales(const struct comparison *c);

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
/*
 * Change of the summary against the base's, in percent ("-9.51%"), into
 * @buf: "from 0" where the base's is 0 and this one's is not.
 */
const char *metric_change(const struct metric *base, const struct metric *m, char *buf,
			  size_t len);
/*
 * As the fork PTE-batching results were published, into @buf: "mean_rel%
 * (std_rel%)", mean_rel = mean / base mean - 1 and std_rel = stddev /
 * base mean; "from 0" where the base's mean is 0 and this one's is not
 * (both 0: no change).
 */
const char *metric_rel(const struct metric *base, const struct metric *m, char *buf,
		       size_t len);

#endif
