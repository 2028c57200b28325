// SPDX-License-Identifier: GPL-2.0
/*
 * fork: the cost of fork() for a parent with SIZE of populated anonymous
 * memory, backed by 4K pages, by THP folios mapped by PTEs or by PMD-mapped
 * THP (fork_backing.h), as in the PTE-batching measurements: the parent
 * times each fork() call itself; the child exits at once.
 */
#include <stddef.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <signal.h>

#include "bench.h"
#include "fork_backing.h"
#include "util.h"

struct fork_opts {
	uint64_t size;
	unsigned int forks;
	unsigned int iterations;	/* of FORKS forks each */
	enum fork_backing backing;
	bool one_backing;	/* --backing: else a recording holds all three */
	bool each;	/* a line per fork: its child and time */
	struct bench_cpus cpus;	/* iterations' CPUs, round robin */
	struct bench_record rec;
};

/*
 * Time one fork() in the parent, its child in @child; -1 if it failed. The
 * child waits on
 * @go until the parent has its time: its exit (tearing down a copy of
 * SIZE) would otherwise run first on this CPU and land in the parent's
 * timing, as it would in a caller's that waits for the child at once.
 */
static int64_t time_fork(const int go[2], pid_t *child)
{
	uint64_t t0 = clock_ns(CLOCK_MONOTONIC), t1;
	pid_t pid = fork();
	char c = 0;

	if (pid == 0) {
		ssize_t n = read(go[0], &c, 1);

		_exit(n == 1 ? 0 : 1);
	}
	t1 = clock_ns(CLOCK_MONOTONIC);
	if (pid < 0)
		return -1;
	*child = pid;
	if (write(go[1], &c, 1) != 1)
		kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	return t1 - t0;
}

/* One iteration's result, from the process that ran it. */
struct fork_result {
	double mean, sd, min, max;	/* us */
	int ok;
};

/* @o->forks forks timed, into @r. */
static int time_forks(const struct fork_opts *o, struct fork_result *r)
{
	unsigned int forks = o->forks;
	double sum = 0, sq = 0;
	unsigned int i;
	int go[2];

	if (pipe(go)) {
		perror("mmtop bench fork: pipe");
		return -1;
	}
	for (i = 0; i < forks; i++) {
		pid_t child;
		int64_t ns = time_fork(go, &child);
		double us = ns / 1e3;

		if (ns < 0) {
			perror("mmtop bench fork: fork");
			close(go[0]);
			close(go[1]);
			return -1;
		}
		if (o->each)
			printf("fork %d %.1f\n", child, us);
		sum += us;
		sq += us * us;
		r->min = !i || us < r->min ? us : r->min;
		r->max = !i || us > r->max ? us : r->max;
	}
	close(go[0]);
	close(go[1]);
	r->mean = sum / forks;
	r->sd = forks > 1 ? sqrt(fmax(0, sq - forks * r->mean * r->mean) / (forks - 1)) : 0;
	return 0;
}

/*
 * An iteration, in a process of its own on @cpu: it maps and populates its
 * memory afresh and forks. What sets a fork's cost from one run to the
 * next is shared by the iterations of one process, and of one CPU (here
 * 350 us on one CPU, 650 on the other): forking one process's memory, an
 * A/A pair was marked significant 17 times in 40, and with a process per
 * iteration left where the scheduler put it, 37 in 176. Spread round robin
 * over the CPUs, every recording's samples span them alike.
 */
static void fork_worker(const struct fork_opts *o, const char *iter, int cpu, int out)
{
	struct fork_result r = { 0 };
	char *p;

	bench_pin(cpu);
	prctl(PR_SET_NAME, backing_comm(o->backing));
	p = backing_map(o->backing, o->size);
	if (p) {
		printf("# fork: pid %d, %llu KiB populated, %s, %u forks, iteration %s, cpu %d\n",
		       getpid(), (unsigned long long)o->size >> 10, backing_name(o->backing),
		       o->forks, iter, cpu);
		fflush(stdout);
		r.ok = !time_forks(o, &r);
	}
	fflush(stdout);
	_exit(write(out, &r, sizeof(r)) == sizeof(r) ? 0 : 1);
}

/* Run iteration @iter on @cpu; 0 with its result in @r. */
static int fork_iteration(const struct fork_opts *o, const char *iter, int cpu,
			  struct fork_result *r)
{
	int res[2];
	ssize_t n;
	pid_t pid;

	if (pipe(res)) {
		perror("mmtop bench fork: pipe");
		return -1;
	}
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		close(res[0]);
		fork_worker(o, iter, cpu, res[1]);
	}
	close(res[1]);
	n = pid < 0 ? -1 : read(res[0], r, sizeof(*r));
	close(res[0]);
	if (pid < 0)
		perror("mmtop bench fork: fork");
	else
		waitpid(pid, NULL, 0);
	return n == sizeof(*r) && r->ok ? 0 : -1;
}

static int fork_run(const struct fork_opts *o, struct bench_record *rec)
{
	const char *metric = backing_metric(o->backing);
	struct fork_result r;
	unsigned int i;
	char iter[16];

	printf("%4s %8s %12s %12s %12s %12s %14s\n", "iter", "forks", "mean_us",
	       "stddev_us", "min_us", "max_us", "us_per_MiB");
	for (i = 0; i < rec->warmup + o->iterations; i++) {
		bench_iteration_name(rec, i, iter, sizeof(iter));
		if (fork_iteration(o, iter, o->cpus.cpu[i % o->cpus.n], &r))
			return 1;
		printf("%4s %8u %12.1f %12.1f %12.1f %12.1f %14.3f\n", iter, o->forks,
		       r.mean, r.sd, r.min, r.max, r.mean * (1 << 20) / o->size);
		fflush(stdout);
		bench_record_sample(rec, i, metric, r.mean);
	}
	return 0;
}

#define AT(field) offsetof(struct fork_opts, field)
const struct bench_opt bench_fork_opts[] = {
	{ "size", 's', "SIZE", BENCH_SIZE, AT(size), NULL, "populated anonymous memory (default 256M)" },
	{ "forks", 'n', "N", BENCH_COUNT, AT(forks), NULL, "forks to time (default 20)" },
	{ "backing", 0, "KIND", BENCH_CALL, AT(backing), backing_parse,
	  "4k, thp-pte (THP folios mapped by PTEs) or thp\n(PMD-mapped); default 4k" },
	{ "each", 0, NULL, BENCH_FLAG, AT(each), NULL,
	  "a line per fork: fork, the child's pid, its time\nin us" },
	{ "cpu", 0, "LIST", BENCH_CPUS, AT(cpus), NULL,
	  "rounds' CPUs, round robin (default: all allowed)" },
	{ "iterations", 0, "N", BENCH_COUNT, AT(iterations), NULL,
	  "rounds of FORKS forks, each in a process of its\nown (default 1)" },
	{ "warmup", 0, "N", BENCH_CALL, AT(rec.warmup), bench_parse_warmup,
	  "rounds first, shown as w1, recorded as\nwarmup:fork-..., not counted (1 by default\nwith --record, else 0)" },
	{ "record", 0, "FILE", BENCH_RECORD, AT(rec), NULL,
	  "each round's mean as a sample in a recording, for\ncompare; all three backings unless --backing" },
	{ "label", 0, "NAME", BENCH_STR, AT(rec.label), NULL,
	  "the recording's name in compare (default: kernel)" },
	{ NULL },
};

int bench_fork(int argc, char **argv)
{
	struct fork_opts o = { .size = 256ULL << 20, .forks = 20, .iterations = 1,
			       .backing = BACKINGS, .rec = BENCH_RECORD_INIT };
	int ret = bench_parse(bench_fork_opts, &o, argc, argv);

	if (ret)
		return ret;
	o.one_backing = o.backing != BACKINGS;
	/* A recording for compare holds every backing, as the seeds did. */
	if (!o.one_backing)
		o.backing = BACKING_4K;
	do
		ret = fork_run(&o, &o.rec);
	while (!ret && o.rec.on && !o.one_backing && ++o.backing < BACKINGS);
	bench_record_close(&o.rec);
	return ret;
}
