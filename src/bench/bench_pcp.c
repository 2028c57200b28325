// SPDX-License-Identifier: GPL-2.0
/*
 * pcp: traffic through the per-CPU page lists. Two pinned threads: each
 * round the allocator maps and touches SIZE of fresh memory (allocations
 * on its CPU), then the freer unmaps it (frees, on its CPU, of pages
 * allocated on the other). On two CPUs the allocator's list only empties
 * (PCP refills) and the freer's only fills (PCP drains); on one CPU the
 * frees mostly refill the list for the next round. Prints the pages each
 * thread allocated and freed.
 */
#include <stddef.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include "bench.h"
#include "util.h"

#define PCP_MAX_CPUS 1024

struct pcp_opts {
	uint64_t size;
	unsigned int rounds;
	int cpus[2];			/* thread 0 and 1; the same CPU twice is fine */
};

struct pcp_run {
	const struct pcp_opts *o;
	pthread_barrier_t barrier;
	char *region;
	uint64_t allocated[2], freed[2];	/* pages, by thread */
	long page;
};

struct worker {
	struct pcp_run *run;
	int id;
};

/* Thread 0 allocates, thread 1 frees. */
static void *worker(void *arg)
{
	struct worker *w = arg;
	struct pcp_run *r = w->run;
	uint64_t pages = r->o->size / r->page;
	unsigned int i;

	bench_pin(r->o->cpus[w->id]);
	for (i = 0; i < r->o->rounds; i++) {
		if (w->id == 0) {
			char *p = mmap(NULL, r->o->size, PROT_READ | PROT_WRITE,
				       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

			r->region = p == MAP_FAILED ? NULL : p;
			if (r->region) {
				madvise(p, r->o->size, MADV_NOHUGEPAGE);
				memset(p, 1, r->o->size);
				r->allocated[0] += pages;
			}
		}
		pthread_barrier_wait(&r->barrier);
		if (w->id == 1 && r->region) {
			munmap(r->region, r->o->size);
			r->freed[1] += pages;
		}
		pthread_barrier_wait(&r->barrier);
	}
	return NULL;
}

static int pcp_run(const struct pcp_opts *o)
{
	struct pcp_run r = { .o = o, .page = sysconf(_SC_PAGESIZE) };
	struct worker w[2] = { { &r, 0 }, { &r, 1 } };
	pthread_t t[2];
	int i;

	pthread_barrier_init(&r.barrier, NULL, 2);
	printf("# pcp: pid %d, allocator on cpu %d, freer on cpu %d, %llu KiB per round, %u rounds\n",
	       getpid(), o->cpus[0], o->cpus[1], (unsigned long long)o->size >> 10, o->rounds);
	fflush(stdout);
	for (i = 0; i < 2; i++)
		if (pthread_create(&t[i], NULL, worker, &w[i])) {
			perror("mmtop bench pcp: pthread_create");
			return 1;
		}
	for (i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	printf("%6s %10s %10s %10s\n", "thread", "cpu", "allocated", "freed");
	for (i = 0; i < 2; i++)
		printf("%6d %10d %10llu %10llu\n", i, o->cpus[i],
		       (unsigned long long)r.allocated[i], (unsigned long long)r.freed[i]);
	pthread_barrier_destroy(&r.barrier);
	return 0;
}

static int pcp_cpus(const char *s, void *opts)
{
	struct pcp_opts *o = opts;
	bool set[PCP_MAX_CPUS] = { false };
	int i, n = 0;

	if (parse_cpu_list(s, set, PCP_MAX_CPUS) <= 0)
		return -1;
	for (i = 0; i < PCP_MAX_CPUS && n < 2; i++)
		if (set[i])
			o->cpus[n++] = i;
	if (n == 1)
		o->cpus[1] = o->cpus[0];
	return 0;
}

#define AT(field) offsetof(struct pcp_opts, field)
const struct bench_opt bench_pcp_opts[] = {
	{ "size", 's', "SIZE", BENCH_SIZE, AT(size), NULL,
	  "memory each thread maps and touches per round\n(default 32M)" },
	{ "rounds", 'r', "N", BENCH_COUNT, AT(rounds), NULL, "rounds (default 8)" },
	{ "cpu", 0, "A[,B]", BENCH_CALL, 0, pcp_cpus, "the two threads' CPUs (default 0,1)" },
	{ NULL },
};

int bench_pcp(int argc, char **argv)
{
	struct pcp_opts o = { .size = 32ULL << 20, .rounds = 8, .cpus = { 0, 1 } };
	int ret;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		o.cpus[1] = 0;
	ret = bench_parse(bench_pcp_opts, &o, argc, argv);
	return ret ? ret : pcp_run(&o);
}
