// SPDX-License-Identifier: GPL-2.0
/*
 * pft: the page-fault scalability test of mmtests. N threads write one byte
 * to every page of fresh anonymous memory, one fault per page (THP is
 * refused with MADV_NOHUGEPAGE unless --thp), either in one shared VMA (all
 * threads in one mm_struct's VMA: the per-VMA lock's worst case) or in one
 * VMA per thread. faults/sec = pages / wall time of the parallel phase;
 * faults/cpu = pages / CPU time (user+system) of all workers.
 */
#include <errno.h>
#include <stddef.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include "bench.h"
#include "samples.h"
#include "util.h"


#define PFT_MAX_COUNTS 16

struct pft_opts {
	unsigned int counts[PFT_MAX_COUNTS];	/* thread counts to run, in order */
	int nr_counts;
	unsigned int threads;		/* the one being run */
	uint64_t size;			/* bytes per thread */
	bool per_thread_vma;
	bool thp;
	unsigned int repeat;
	struct bench_cpus cpus;
	struct bench_record rec;
};

struct pft_worker {
	pthread_t thread;
	pthread_barrier_t *start;
	char *base;
	uint64_t len;
	int cpu;			/* -1: not pinned */
	uint64_t cpu_ns;		/* CPU time spent touching */
};

static void *pft_touch(void *arg)
{
	struct pft_worker *w = arg;
	long page = sysconf(_SC_PAGESIZE);
	uint64_t t0;
	char *p;

	bench_pin(w->cpu);
	pthread_barrier_wait(w->start);
	t0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	for (p = w->base; p < w->base + w->len; p += page)
		*(volatile char *)p = 1;
	w->cpu_ns = clock_ns(CLOCK_THREAD_CPUTIME_ID) - t0;
	return NULL;
}

static char *pft_map(const struct pft_opts *o, uint64_t len)
{
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	madvise(p, len, o->thp ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
	return p;
}

/*
 * Repetition @rep; fills wall and CPU time of the parallel phase. Its
 * thread i runs on the CPU after thread i's of the repetition before,
 * round robin: a repetition's rate is set by its CPUs (here 86000-97000
 * faults a second on one, 63000-79000 on the other, a thread each), so
 * repetitions left on one CPU vary less than runs do, and compare marked
 * A/A pairs of one thread 18 times in 40 (as bench fork's iterations).
 */
static int pft_once(const struct pft_opts *o, unsigned int rep, struct pft_worker *w,
		    uint64_t *wall_ns, uint64_t *cpu_ns)
{
	pthread_barrier_t start;
	char *shared = NULL;
	unsigned int i, started = 0;
	uint64_t t0;
	int err = 0;

	if (!o->per_thread_vma && !(shared = pft_map(o, o->size * o->threads)))
		return -errno;
	pthread_barrier_init(&start, NULL, o->threads + 1);
	for (i = 0; i < o->threads; i++) {
		w[i].start = &start;
		w[i].len = o->size;
		w[i].cpu = o->cpus.n ? o->cpus.cpu[(rep + i) % o->cpus.n] : -1;
		w[i].base = shared ? shared + i * o->size : pft_map(o, o->size);
		if (!w[i].base) {
			err = -errno;
			break;
		}
	}
	for (i = 0; !err && i < o->threads; i++, started++)
		err = -pthread_create(&w[i].thread, NULL, pft_touch, &w[i]);
	if (err) {
		/* Workers wait at the barrier forever: nothing to clean up but exit. */
		fprintf(stderr, "mmtop bench pft: %s\n", strerror(-err));
		exit(1);
	}
	pthread_barrier_wait(&start);
	t0 = clock_ns(CLOCK_MONOTONIC);
	*cpu_ns = 0;
	for (i = 0; i < started; i++) {
		pthread_join(w[i].thread, NULL);
		*cpu_ns += w[i].cpu_ns;
	}
	*wall_ns = clock_ns(CLOCK_MONOTONIC) - t0;
	pthread_barrier_destroy(&start);
	for (i = 0; !shared && i < o->threads; i++)
		munmap(w[i].base, o->size);
	if (shared)
		munmap(shared, o->size * o->threads);
	return 0;
}

/* The samples mmtests' pft reports: faults/sec-N and faults/cpu-N. */
static void pft_record(struct bench_record *rec, unsigned int threads, unsigned int i,
		       double per_sec, double per_cpu)
{
	char metric[64];

	snprintf(metric, sizeof(metric), "faults/sec-%u", threads);
	bench_record_sample(rec, i, metric, per_sec);
	snprintf(metric, sizeof(metric), "faults/cpu-%u", threads);
	bench_record_sample(rec, i, metric, per_cpu);
}

static int pft_run(const struct pft_opts *o, struct bench_record *rec)
{
	struct pft_worker *w = calloc(o->threads, sizeof(*w));
	uint64_t pages = o->size / sysconf(_SC_PAGESIZE) * o->threads;
	unsigned int r;

	if (!w)
		return 1;
	printf("# pft: pid %d, %u thread%s, %llu KiB each, %s, %s pages, cpus ",
	       getpid(), o->threads, o->threads == 1 ? "" : "s",
	       (unsigned long long)o->size >> 10,
	       o->per_thread_vma ? "one VMA per thread" : "one shared VMA",
	       o->thp ? "THP allowed" : "4K (MADV_NOHUGEPAGE)");
	bench_print_cpus(&o->cpus);
	printf("\n");
	printf("%4s %8s %10s %10s %10s %14s %14s\n", "rep", "threads", "pages",
	       "wall_s", "cpu_s", "faults/sec", "faults/cpu");
	for (r = 0; r < rec->warmup + o->repeat; r++) {
		uint64_t wall = 0, cpu = 0;
		int err = pft_once(o, r, w, &wall, &cpu);
		char rep[16];

		if (err) {
			fprintf(stderr, "mmtop bench pft: mmap: %s\n", strerror(-err));
			free(w);
			return 1;
		}
		bench_iteration_name(rec, r, rep, sizeof(rep));
		printf("%4s %8u %10llu %10.6f %10.6f %14.2f %14.2f\n", rep, o->threads,
		       (unsigned long long)pages, wall / 1e9, cpu / 1e9,
		       wall ? pages * 1e9 / wall : 0, cpu ? pages * 1e9 / cpu : 0);
		fflush(stdout);
		pft_record(rec, o->threads, r, wall ? pages * 1e9 / wall : 0,
			   cpu ? pages * 1e9 / cpu : 0);
	}
	free(w);
	return 0;
}

/* "2" or "1,2,4": the thread counts to run one after the other. */
static int pft_counts(const char *s, void *opts)
{
	struct pft_opts *o = opts;
	char buf[128], *tok, *save;

	if (strlen(s) >= sizeof(buf))
		return -1;
	strcpy(buf, s);
	o->nr_counts = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		unsigned int n;

		if (parse_uint(tok, &n) || !n || o->nr_counts == PFT_MAX_COUNTS)
			return -1;
		o->counts[o->nr_counts++] = n;
	}
	return o->nr_counts ? 0 : -1;
}

/* --vma shared|per-thread */
static int pft_vma(const char *arg, void *per_thread)
{
	*(bool *)per_thread = !strcmp(arg, "per-thread");
	return *(bool *)per_thread || !strcmp(arg, "shared") ? 0 : -1;
}

#define AT(field) offsetof(struct pft_opts, field)
const struct bench_opt bench_pft_opts[] = {
	{ "threads", 't', "N[,N...]", BENCH_CALL, 0, pft_counts,
	  "worker threads; a list runs each (default 1)" },
	{ "size", 's', "SIZE", BENCH_SIZE, AT(size), NULL,
	  "memory per thread, e.g. 64M, 1G (default 128M)" },
	{ "vma", 0, "shared|per-thread", BENCH_CALL, AT(per_thread_vma), pft_vma,
	  "one VMA for all threads (default) or one each" },
	{ "cpu", 0, "LIST", BENCH_CPUS, AT(cpus), NULL,
	  "pin threads round robin to CPUs, e.g. 0 or 0-1" },
	{ "repeat", 'r', "N", BENCH_COUNT, AT(repeat), NULL, "repetitions (default 1)" },
	{ "warmup", 0, "N", BENCH_CALL, AT(rec.warmup), bench_parse_warmup,
	  "repetitions first, shown as w1, recorded as\nwarmup:faults/..., not counted (1 by default\nwith --record, else 0)" },
	{ "thp", 0, NULL, BENCH_FLAG, AT(thp), NULL, "allow transparent huge pages (default: 4K only)" },
	{ "record", 0, "FILE", BENCH_RECORD, AT(rec), NULL,
	  "each repetition's faults/sec-N and faults/cpu-N as\nsamples in a recording, for compare" },
	{ "label", 0, "NAME", BENCH_STR, AT(rec.label), NULL,
	  "the recording's name in compare (default: kernel)" },
	{ "iterations", 0, "N", BENCH_COUNT, AT(repeat), NULL, "as -r" },
	{ NULL },
};

int bench_pft(int argc, char **argv)
{
	struct pft_opts o = { .counts = { 1 }, .nr_counts = 1, .size = 128ULL << 20,
			      .repeat = 1, .rec = BENCH_RECORD_INIT };
	int i, ret = bench_parse(bench_pft_opts, &o, argc, argv);

	if (ret)
		return ret;
	for (i = 0; i < o.nr_counts && !ret; i++) {
		o.threads = o.counts[i];
		ret = pft_run(&o, &o.rec);
	}
	bench_record_close(&o.rec);
	return ret;
}
