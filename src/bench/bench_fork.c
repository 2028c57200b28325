// SPDX-License-Identifier: GPL-2.0
/*
 * fork: the cost of fork() for a parent with SIZE of populated anonymous
 * memory, backed by 4K pages (MADV_NOHUGEPAGE) or by THP (MADV_HUGEPAGE),
 * as in the PTE-batching measurements: the parent times each fork() call
 * itself; the child exits at once.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <signal.h>

#include "bench.h"
#include "proc.h"
#include "util.h"

struct fork_opts {
	uint64_t size;
	unsigned int forks;
	unsigned int iterations;	/* of FORKS forks each */
	bool thp;
	bool each;	/* a line per fork: its child and time */
};

static bool thp_possible(void)
{
	char buf[128];

	return !read_small_file("/sys/kernel/mm/transparent_hugepage/enabled", buf,
				sizeof(buf)) && !strstr(buf, "[never]");
}

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

/* One iteration: @forks forks timed; their mean, stddev, min, max in us. */
static int time_forks(const struct fork_opts *o, double *mean, double *sd,
		      double *min, double *max)
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
		*min = !i || us < *min ? us : *min;
		*max = !i || us > *max ? us : *max;
	}
	close(go[0]);
	close(go[1]);
	*mean = sum / forks;
	*sd = forks > 1 ? sqrt(fmax(0, sq - forks * *mean * *mean) / (forks - 1)) : 0;
	return 0;
}

static int fork_run(const struct fork_opts *o, struct bench_record *rec)
{
	const char *metric = o->thp ? "fork-thp-us" : "fork-4k-us";
	double mean, sd, min = 0, max = 0;
	unsigned int i;
	char *p;

	if (o->thp && !thp_possible())
		printf("# THP unavailable (transparent_hugepage is never): 4K pages\n");
	p = mmap(NULL, o->size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("mmtop bench fork: mmap");
		return 1;
	}
	madvise(p, o->size, o->thp ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
	memset(p, 1, o->size);
	printf("# fork: pid %d, %llu KiB populated, %s, AnonHugePages %lld kB, %u forks x %u\n",
	       getpid(), (unsigned long long)o->size >> 10,
	       o->thp ? "THP (MADV_HUGEPAGE)" : "4K pages (MADV_NOHUGEPAGE)",
	       (long long)proc_anon_huge_kb(0), o->forks, o->iterations);
	printf("%8s %12s %12s %12s %12s %14s\n", "forks", "mean_us", "stddev_us",
	       "min_us", "max_us", "us_per_MiB");
	fflush(stdout);
	for (i = 0; i < o->iterations; i++) {
		if (time_forks(o, &mean, &sd, &min, &max))
			return 1;
		printf("%8u %12.1f %12.1f %12.1f %12.1f %14.3f\n", o->forks, mean, sd,
		       min, max, mean * (1 << 20) / o->size);
		fflush(stdout);
		bench_record_sample(rec, metric, mean);
	}
	munmap(p, o->size);
	return 0;
}

static int fork_usage(FILE *f, int status)
{
	fprintf(f, "usage: mmtop bench fork [-s SIZE] [-n FORKS] [--thp] [--each] [--iterations N] [--record FILE [--label NAME]]\n");
	return status;
}

int bench_fork(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "size", required_argument, NULL, 's' },
		{ "forks", required_argument, NULL, 'n' },
		{ "thp", no_argument, NULL, 'H' },
		{ "each", no_argument, NULL, 'E' },
		{ "iterations", required_argument, NULL, 'i' },
		{ "record", required_argument, NULL, 'R' },
		{ "label", required_argument, NULL, 'L' },
		{ NULL, 0, NULL, 0 },
	};
	struct fork_opts o = { .size = 256ULL << 20, .forks = 20, .iterations = 1 };
	struct bench_record rec = { 0 };
	bool thp_only = false;
	int opt, ret;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "s:n:", longopts, NULL)) != -1) {
		bool bad = false;

		switch (opt) {
		case 's':
			bad = parse_size(optarg, &o.size) || o.size < 4096;
			break;
		case 'n':
			bad = parse_uint(optarg, &o.forks) || !o.forks;
			break;
		case 'H':
			thp_only = true;
			break;
		case 'E':
			o.each = true;
			break;
		case 'i':
			bad = parse_uint(optarg, &o.iterations) || !o.iterations;
			break;
		case 'R':
			rec.path = optarg;
			break;
		case 'L':
			rec.label = optarg;
			break;
		default:
			return fork_usage(stderr, 2);
		}
		if (bad) {
			fprintf(stderr, "mmtop bench fork: invalid value '%s'\n", optarg);
			return fork_usage(stderr, 2);
		}
	}
	if (optind < argc)
		return fork_usage(stderr, 2);
	if (bench_record_open(&rec, argc, argv))
		return 1;
	/* A recording for compare holds both backings, as the seeds did. */
	o.thp = thp_only;
	ret = fork_run(&o, &rec);
	if (!ret && rec.on && !thp_only) {
		o.thp = true;
		ret = fork_run(&o, &rec);
	}
	bench_record_close(&rec);
	return ret;
}
