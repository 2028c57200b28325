/* SPDX-License-Identifier: GPL-2.0 */
/* `mmtop bench WORKLOAD`: built-in workloads with a known kernel effect. */
#ifndef MMTOP_BENCH_H
#define MMTOP_BENCH_H

/* argv[0] is the workload name. Exit status: 0, 1 on failure, 2 on usage. */
int bench_main(int argc, char **argv);
int bench_pft(int argc, char **argv);
int bench_churn(int argc, char **argv);
int bench_fork(int argc, char **argv);
int bench_pcp(int argc, char **argv);

#endif
