/* SPDX-License-Identifier: GPL-2.0 */
/* `mmtop bench WORKLOAD`: built-in workloads with a known kernel effect. */
#ifndef MMTOP_BENCH_H
#define MMTOP_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

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

/* The CPUs the calling thread may run on (n 0 if unknown). */
void bench_allowed_cpus(struct bench_cpus *c);
/* "0,1", or "any" when not pinned. */
void bench_print_cpus(const struct bench_cpus *c);
/* Pin the calling thread to @cpu; -1 leaves it where it may run. */
void bench_pin(int cpu);

/* --warmup's value, 0 to 100, into the int @warmup; -1 if invalid. */
int bench_parse_warmup(const char *arg, void *warmup);
/* Iteration @i (from 0, warm-ups first) as printed: "w1" or "3". */
void bench_iteration_name(const struct bench_record *b, unsigned int i, char *buf,
			  size_t len);

/* Iteration @i's value of @metric (a warm-up's as warmup:METRIC). */
void bench_record_sample(struct bench_record *b, unsigned int i, const char *metric,
			 double value);
void bench_record_close(struct bench_record *b);

/*
 * A workload's option, described once: getopt, the value's parsing, the
 * usage line, `bench --help` and so the completion come from its entry.
 */
enum bench_opt_kind {
	BENCH_FLAG,	/* bool, set */
	BENCH_UINT,	/* unsigned int */
	BENCH_COUNT,	/* unsigned int, at least 1 */
	BENCH_SIZE,	/* uint64_t bytes, "64M", at least a page */
	BENCH_STR,	/* const char *, the argument itself */
	BENCH_CPUS,	/* struct bench_cpus; not given: the allowed CPUs */
	BENCH_RECORD,	/* struct bench_record's path: opened once parsed */
	BENCH_CALL,	/* parse(arg, the value): -1 if invalid */
};

struct bench_opt {
	const char *name;	/* --name; NULL ends a table */
	char short_name;	/* -c; 0: none */
	const char *arg;	/* the argument in words ("SIZE"); NULL: a flag */
	enum bench_opt_kind kind;
	size_t at;		/* offsetof the value in the workload's options */
	int (*parse)(const char *arg, void *value);
	const char *help;	/* lines after the first start with \n */
};

extern const struct bench_opt bench_pft_opts[], bench_churn_opts[], bench_fork_opts[],
	bench_pcp_opts[];

/*
 * The options of workload argv[0] into @opts by its table @table: 0; 2
 * with the reason and the usage line on stderr; 1 if its recording
 * cannot be opened.
 */
int bench_parse(const struct bench_opt *table, void *opts, int argc, char **argv);

/* Workload @i's name (pft, churn, ...); NULL past the last. */
const char *bench_workload(size_t i);
/* The options of @workload (NULL: every workload's), a section each. */
void bench_print_help(FILE *f, const char *workload);
/* What the running kernel has, for a recording's header (kernel_features.h). */
typedef void (*bench_kernel_fn)(char *buf, size_t len);
/*
 * argv[0] is the workload name; @kernel says what the kernel has, asked
 * only for a recording. Exit status: 0, 1 on failure, 2 on usage.
 */
int bench_main(int argc, char **argv, bench_kernel_fn kernel);
int bench_pft(int argc, char **argv);
int bench_churn(int argc, char **argv);
int bench_fork(int argc, char **argv);
int bench_pcp(int argc, char **argv);

#endif
