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
};

/* Start the recording if --record was given; the header names @argv. */
int bench_record_open(struct bench_record *b, int argc, char **argv);
void bench_record_sample(struct bench_record *b, const char *metric, double value);
void bench_record_close(struct bench_record *b);

/* Workload @i's name (pft, churn, ...); NULL past the last. */
const char *bench_workload(size_t i);
/* argv[0] is the workload name. Exit status: 0, 1 on failure, 2 on usage. */
int bench_main(int argc, char **argv);
int bench_pft(int argc, char **argv);
int bench_churn(int argc, char **argv);
int bench_fork(int argc, char **argv);
int bench_pcp(int argc, char **argv);

#endif
