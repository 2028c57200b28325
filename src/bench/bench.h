/* SPDX-License-Identifier: GPL-2.0 */
/* `mmtop bench WORKLOAD`: built-in workloads with a known kernel effect. */
#ifndef MMTOP_BENCH_H
#define MMTOP_BENCH_H

#include <stdbool.h>
#include <stddef.h>

#include "recorder.h"

/*
 * --record FILE --label NAME: each iteration's own result goes into a
 * recording as a sample, for `mmtop compare`.
 */
struct bench_record {
	struct recorder rec;
	bool on;
	const char *path, *label;
	/*
	 * --warmup N: iterations run first, shown as wN and recorded as
	 * warmup:METRIC, counted in no other metric (mmtests' habit: a
	 * first run's cold caches and page allocator otherwise drag the
	 * mean and the t-test). -1 until bench_record_open() sets the
	 * default: 1 with --record, else 0.
	 */
	int warmup;
};

#define BENCH_RECORD_INIT { .warmup = -1 }

#define BENCH_MAX_CPUS 1024

/* --cpu LIST: CPUs to pin to, used round robin (n 0: not pinned). */
struct bench_cpus {
	int cpu[BENCH_MAX_CPUS];
	int n;
};

/* @list in kernel cpulist syntax into @c; -1 if invalid or empty. */
int bench_parse_cpus(const char *list, struct bench_cpus *c);
/* The CPUs the calling thread may run on. */
void bench_allowed_cpus(struct bench_cpus *c);
/* "0,1", or "any" when not pinned. */
void bench_print_cpus(const struct bench_cpus *c);
/* Pin the calling thread to @cpu; -1 leaves it where it may run. */
void bench_pin(int cpu);

/* --warmup's value: 0 to 100; -1 if invalid. */
int bench_parse_warmup(const char *arg);
/* Iteration @i (from 0, warm-ups first) as printed: "w1" or "3". */
void bench_iteration_name(const struct bench_record *b, unsigned int i, char *buf,
			  size_t len);

/* Start the recording if --record was given; the header names @argv. */
int bench_record_open(struct bench_record *b, int argc, char **argv);
/* Iteration @i's value of @metric (a warm-up's as warmup:METRIC). */
void bench_record_sample(struct bench_record *b, unsigned int i, const char *metric,
			 double value);
void bench_record_close(struct bench_record *b);

/* Workload @i's name (pft, churn, ...); NULL past the last. */
const char *bench_workload(size_t i);
extern const char bench_usage[];
/* argv[0] is the workload name. Exit status: 0, 1 on failure, 2 on usage. */
int bench_main(int argc, char **argv);
int bench_pft(int argc, char **argv);
int bench_churn(int argc, char **argv);
int bench_fork(int argc, char **argv);
int bench_pcp(int argc, char **argv);

#endif
