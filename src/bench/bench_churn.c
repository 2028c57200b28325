// SPDX-License-Identifier: GPL-2.0
/*
 * churn: mmap_lock writers against faulting threads of the same process.
 * Fault threads map a fresh chunk over the last one and touch every page,
 * over and over (fresh VMAs: no anon_vma yet, so faults reach for
 * mmap_lock), while one churn thread makes a known number of mmap,
 * mprotect, mremap, munmap and brk calls (and, with --fork, forks). Every
 * such call made by any thread is counted and printed, so a tracer's
 * per-call-site counts can be checked against it. --paced makes each round
 * and each fork wait until a fault thread has mapped a fresh chunk since
 * the last one, on CPUs apart, so the writers run while faults are in
 * flight (a test of waits needs the overlap, not the odds of it), and
 * each call of a round wait until the faults it held up are through;
 * unpaced, the churn thread runs flat out. --proc-reader adds a second
 * process that reads /proc/PID/smaps of this one in a loop, as monitoring
 * agents do: it takes this process's mmap_lock from outside.
 */
#include <errno.h>
#include <stddef.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <signal.h>
#include <sched.h>
#include <time.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "bench.h"
#include "fork_backing.h"
#include "util.h"

/* --paced: longer than any scheduling delay, short of a hung test. */
#define PACE_TIMEOUT_NS (10 * NSEC_PER_SEC)

enum churn_call {
	C_MMAP, C_MUNMAP, C_MPROTECT, C_MREMAP, C_BRK, C_FORK, C_MADVISE, C__COUNT
};

static const char *const call_names[C__COUNT] = {
	"mmap", "munmap", "mprotect", "mremap", "brk", "fork", "madvise",
};

struct churn_opts {
	unsigned int threads;	/* fault threads */
	unsigned int writers;	/* churn threads, each making ops rounds */
	unsigned int ops;	/* churn iterations */
	unsigned int forks;
	uint64_t chunk;
	bool shared_vma;
	bool proc_reader;
	bool paced;
};

struct churn {
	const struct churn_opts *o;
	atomic_ullong calls[C__COUNT];
	atomic_ullong pages;
	atomic_ullong laps;	/* fresh chunks mapped (or refills begun) */
	atomic_ullong laps_faulted;	/* fresh chunks whose first fault is done */
	unsigned long long laps_seen;
	atomic_ullong pass_ns;	/* --shared-vma: when the last pass began */
	atomic_ullong fault_ns;	/* and how long its first fault took */
	atomic_bool stop;
	long page;
	char *shared;		/* --shared-vma: chunk per thread, then a guard page */
	size_t shared_len;
	atomic_uint next_thread;	/* fault threads started */
	struct bench_cpus apart;	/* --paced: the churn thread's CPU, then theirs */
};

static void *counted_mmap(struct churn *c, void *addr, size_t len, int prot,
			  int flags)
{
	void *p = mmap(addr, len, prot, MAP_PRIVATE | MAP_ANONYMOUS | flags, -1, 0);

	atomic_fetch_add(&c->calls[C_MMAP], 1);
	return p == MAP_FAILED ? NULL : p;
}

static void counted_munmap(struct churn *c, void *p, size_t len)
{
	munmap(p, len);
	atomic_fetch_add(&c->calls[C_MUNMAP], 1);
}

/*
 * --shared-vma: fault this thread's part of the one shared VMA (THP where
 * the kernel gives it: each fault then zeroes 2 MiB under the VMA lock),
 * then zap it with MADV_DONTNEED, over and over. Each pass times its first
 * fault, for --paced (see wait_lap()).
 */
static void shared_faults(struct churn *c, char *part)
{
	while (!atomic_load(&c->stop)) {
		uint64_t start = clock_ns(CLOCK_MONOTONIC);
		char *q;

		atomic_store(&c->pass_ns, start);
		atomic_fetch_add(&c->laps, 1);
		*(volatile char *)part = 1;
		atomic_store(&c->fault_ns, clock_ns(CLOCK_MONOTONIC) - start);
		for (q = part + c->page; q < part + c->o->chunk; q += c->page)
			*(volatile char *)q = 1;
		atomic_fetch_add(&c->pages, c->o->chunk / c->page);
		madvise(part, c->o->chunk, MADV_DONTNEED);
		atomic_fetch_add(&c->calls[C_MADVISE], 1);
	}
}

/*
 * Each lap maps a fresh chunk over the last one (MAP_FIXED unmaps it) in a
 * slot between two PROT_NONE guard pages. A fresh VMA next to an anonymous
 * neighbour with the same flags would merge into it and share its
 * anon_vma, and its faults would never reach for mmap_lock: whether a
 * neighbour is there depends on where the address space layout put the
 * chunk, so without the guards some runs saw a few fallbacks in thousands
 * of laps. The slot stays reserved, so no other mapping takes it between
 * laps.
 */
static void chunk_faults(struct churn *c)
{
	size_t len = c->o->chunk;
	char *guarded = counted_mmap(c, NULL, len + 2 * c->page, PROT_NONE, 0);
	char *slot, *q;

	if (!guarded)
		return;
	slot = guarded + c->page;
	while (!atomic_load(&c->stop)) {
		if (!counted_mmap(c, slot, len, PROT_READ | PROT_WRITE, MAP_FIXED))
			break;
		atomic_fetch_add(&c->laps, 1);
		*(volatile char *)slot = 1;
		atomic_fetch_add(&c->laps_faulted, 1);
		for (q = slot + c->page; q < slot + len; q += c->page)
			*(volatile char *)q = 1;
		atomic_fetch_add(&c->pages, len / c->page);
	}
	counted_munmap(c, guarded, len + 2 * c->page);
}

static void *fault_thread(void *arg)
{
	struct churn *c = arg;
	unsigned int id = atomic_fetch_add(&c->next_thread, 1);

	if (c->apart.n > 1)
		bench_pin(c->apart.cpu[1 + id % (c->apart.n - 1)]);
	if (c->shared)
		shared_faults(c, c->shared + id * c->o->chunk);
	else
		chunk_faults(c);
	return NULL;
}

/*
 * --shared-vma --paced: a flip at a pass's first store was over before the
 * fault took the VMA lock (296 flips in 300 here, where the fault took
 * 50-90 us); 5 us in, 292 in 300 waited for it. So the flip waits, from
 * the pass's start, half as long as the last pass's first fault took.
 */
static void mid_fault(struct churn *c)
{
	uint64_t at = atomic_load(&c->pass_ns) + atomic_load(&c->fault_ns) / 2;

	while (clock_ns(CLOCK_MONOTONIC) < at)
		;
}

/*
 * --paced: wait until @count is past @seen. Yielding, not sleeping: on
 * one CPU the fault thread must run; on two, a wake-up would be slower
 * than the lap. A fault thread that stops making progress is an error,
 * not a hang.
 */
static int pace_on(atomic_ullong *count, unsigned long long seen)
{
	uint64_t deadline = clock_ns(CLOCK_MONOTONIC) + PACE_TIMEOUT_NS;
	unsigned int spins = 0;

	while (atomic_load(count) <= seen) {
		if (++spins % 1024 == 0 && clock_ns(CLOCK_MONOTONIC) > deadline) {
			fprintf(stderr, "mmtop bench churn: no fault thread made progress in %d s\n",
				(int)(PACE_TIMEOUT_NS / NSEC_PER_SEC));
			return -1;
		}
		sched_yield();
	}
	return 0;
}

/*
 * --paced: wait until a fault thread begins a lap the churn thread has not
 * seen, i.e. is about to fault a fresh chunk.
 */
static int wait_lap(struct churn *c)
{
	if (!c->o->paced)
		return 0;
	if (pace_on(&c->laps, c->laps_seen))
		return -1;
	c->laps_seen = atomic_load(&c->laps);
	if (c->shared)
		mid_fault(c);
	return 0;
}

/*
 * --paced: after each call of a round, wait until every lap begun has had
 * its first fault (the one that needs mmap_lock: a fresh VMA has no
 * anon_vma yet), so that a fault which waited behind that call is let
 * through by its release. Without it the churn thread took the lock again
 * for its next call before the woken fault thread ran, the more so the
 * slower the wake-up, and exact mode named that later call: 0.5-2.6
 * points of the shares by call here, 12.4 in a CI run on a slow host.
 */
static int settle(struct churn *c)
{
	unsigned long long begun = atomic_load(&c->laps);

	return c->o->paced && !c->shared && begun ?
	       pace_on(&c->laps_faulted, begun - 1) : 0;
}

/*
 * --paced: the churn thread on one CPU, the fault threads on the others.
 * Sharing a CPU, the churn thread's writes and forks ran while the fault
 * thread it yielded to was off the CPU: 0 of 100 paced forks stalled it,
 * where on CPUs of their own all 100 did.
 */
static void pin_apart(struct churn *c)
{
	if (!c->o->paced)
		return;
	bench_allowed_cpus(&c->apart);
	if (c->apart.n > 1)
		bench_pin(c->apart.cpu[0]);
}

/* Fork once (paced, as a fault thread begins a chunk); -1 on a pace timeout. */
static int churn_fork(struct churn *c)
{
	pid_t pid;

	if (wait_lap(c))
		return -1;
	pid = fork();
	if (pid == 0)
		_exit(0);
	if (pid > 0) {
		waitpid(pid, NULL, 0);
		atomic_fetch_add(&c->calls[C_FORK], 1);
	}
	return 0;
}

static long counted_brk(struct churn *c, long addr)
{
	atomic_fetch_add(&c->calls[C_BRK], 1);
	return syscall(SYS_brk, addr);
}

/*
 * --shared-vma: flip the protection of the shared VMA's last page. Each
 * flip splits or merges the VMA, write-locking the VMA the fault threads
 * are faulting in: on 6.15+ it waits, in D state, for faults in flight.
 */
static void flip_shared(struct churn *c, unsigned int round)
{
	mprotect(c->shared + c->shared_len - c->page, c->page,
		 round % 2 ? PROT_READ | PROT_WRITE : PROT_READ);
	atomic_fetch_add(&c->calls[C_MPROTECT], 1);
}

/*
 * One round of writers: each call takes mmap_lock for write once; -1 on a
 * pace timeout (the round is made whole all the same).
 */
static int churn_round(struct churn *c, long brk_base, unsigned int round)
{
	size_t len = 16 * c->page;
	char *p, *q;
	int err;

	if (c->shared) {
		flip_shared(c, round);
		return 0;
	}
	p = counted_mmap(c, NULL, len, PROT_READ | PROT_WRITE, 0);
	err = settle(c);
	if (p) {
		mprotect(p, len, PROT_READ);
		atomic_fetch_add(&c->calls[C_MPROTECT], 1);
		err |= settle(c);
		q = mremap(p, len, 2 * len, MREMAP_MAYMOVE);
		atomic_fetch_add(&c->calls[C_MREMAP], 1);
		err |= settle(c);
		if (q != MAP_FAILED)
			counted_munmap(c, q, 2 * len);
		else
			counted_munmap(c, p, len);
		err |= settle(c);
	}
	counted_brk(c, brk_base + len);
	err |= settle(c);
	counted_brk(c, brk_base);
	return err | settle(c);
}

struct writer {
	struct churn *c;
	long brk_base;
};

/* --writers: a churn thread more, unpaced, its rounds at once. */
static void *writer_thread(void *arg)
{
	struct writer *w = arg;
	unsigned int i;

	for (i = 0; i < w->c->o->ops; i++)
		churn_round(w->c, w->brk_base, i);
	return NULL;
}

/*
 * --proc-reader: a child named churn-reader reads /proc/PID/smaps of @pid
 * until killed, counting its reads in @reads (shared memory).
 */
static pid_t start_proc_reader(pid_t pid, atomic_ullong *reads)
{
	char path[64], buf[65536];
	pid_t child = fork();

	if (child)
		return child;
	prctl(PR_SET_NAME, "churn-reader");
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	snprintf(path, sizeof(path), "/proc/%d/smaps", pid);
	for (;;) {
		FILE *f = fopen(path, "re");

		if (!f)
			_exit(0);
		while (fread(buf, 1, sizeof(buf), f) > 0)
			;
		fclose(f);
		atomic_fetch_add(reads, 1);
	}
}

static void stop_proc_reader(pid_t child, atomic_ullong *reads)
{
	if (child <= 0)
		return;
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	printf("%-10s %10llu\n", "proc-reads", (unsigned long long)atomic_load(reads));
	printf("%-10s %10d\n", "reader", child);
}

/*
 * --shared-vma: a part per fault thread, then the page flip_shared()
 * flips, in one VMA that starts on a THP boundary, so that each fault of a
 * part (of whole THPs) maps a huge page. Unaligned, a part's head took 4K
 * faults of a microsecond, too short for a flip to find one in flight:
 * 1 to 9 of 300 paced flips waited for a fault.
 */
static int map_shared(struct churn *c)
{
	size_t huge = thp_pmd_size();
	size_t len = c->o->chunk * c->o->threads + c->page;
	char *p = counted_mmap(c, NULL, len + huge, PROT_READ | PROT_WRITE, 0);
	char *base;

	if (!p)
		return -1;
	base = (char *)(((uintptr_t)p + huge - 1) & ~(uintptr_t)(huge - 1));
	if (base > p)
		counted_munmap(c, p, base - p);
	if (base + len < p + len + huge)
		counted_munmap(c, base + len, p + huge - base);
	c->shared = base;
	c->shared_len = len;
	madvise(base, len, MADV_HUGEPAGE);
	atomic_fetch_add(&c->calls[C_MADVISE], 1);
	return 0;
}

static int churn_run(const struct churn_opts *o)
{
	struct churn c = { .o = o, .page = sysconf(_SC_PAGESIZE) };
	pthread_t *threads = calloc(o->threads + o->writers, sizeof(*threads));
	struct writer w = { .c = &c };
	unsigned int i, started = 0, forks_every;
	atomic_ullong *reads = NULL;
	pid_t reader = 0;
	uint64_t cpu_ns;
	long brk_base;
	int err = 0;

	if (!threads)
		return 1;
	if (o->proc_reader) {
		reads = mmap(NULL, sizeof(*reads), PROT_READ | PROT_WRITE,
			     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		if (reads == MAP_FAILED) {
			perror("mmtop bench churn: mmap");
			return 1;
		}
		atomic_init(reads, 0);
	}
	printf("# churn: pid %d, %u fault thread%s, %llu KiB chunks%s, %u writer%s of %u %srounds, %u forks\n",
	       getpid(), o->threads, o->threads == 1 ? "" : "s",
	       (unsigned long long)o->chunk >> 10,
	       o->shared_vma ? " in one shared VMA" : "", o->writers,
	       o->writers == 1 ? "" : "s", o->ops, o->paced ? "paced " : "", o->forks);
	fflush(stdout);
	brk_base = counted_brk(&c, 0);
	if (o->shared_vma && map_shared(&c)) {
		perror("mmtop bench churn: mmap");
		return 1;
	}
	/* Forked before the threads start: a single-threaded fork. */
	if (o->proc_reader) {
		fflush(stdout);
		reader = start_proc_reader(getpid(), reads);
		if (reader < 0)
			perror("mmtop bench churn: fork");
	}
	/* After the reader's fork: it runs where the scheduler puts it. */
	pin_apart(&c);
	for (i = 0; i < o->threads; i++, started++)
		if (pthread_create(&threads[i], NULL, fault_thread, &c))
			break;
	/* The writers beyond this thread: they end by themselves. */
	w.brk_base = brk_base;
	for (i = 1; i < o->writers; i++, started++)
		if (pthread_create(&threads[started], NULL, writer_thread, &w))
			break;
	forks_every = o->forks ? (o->ops + o->forks - 1) / o->forks : 0;
	cpu_ns = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	for (i = 0; i < o->ops && !err; i++) {
		err = wait_lap(&c);
		if (!err)
			err = churn_round(&c, brk_base, i);
		if (!err && forks_every && i % forks_every == 0 &&
		    atomic_load(&c.calls[C_FORK]) < o->forks)
			err = churn_fork(&c);
	}
	while (!err && atomic_load(&c.calls[C_FORK]) < o->forks)
		err = churn_fork(&c);
	cpu_ns = clock_ns(CLOCK_THREAD_CPUTIME_ID) - cpu_ns;
	atomic_store(&c.stop, true);
	for (i = 0; i < started; i++)
		pthread_join(threads[i], NULL);
	free(threads);
	printf("%-10s %10s\n", "call", "count");
	for (i = 0; i < C__COUNT; i++)
		printf("%-10s %10llu\n", call_names[i],
		       (unsigned long long)atomic_load(&c.calls[i]));
	printf("%-10s %10llu\n", "pages", (unsigned long long)atomic_load(&c.pages));
	printf("%-10s %10llu\n", "cpu-ns", (unsigned long long)cpu_ns);
	stop_proc_reader(reader, reads);
	return err ? 1 : 0;
}

#define AT(field) offsetof(struct churn_opts, field)
const struct bench_opt bench_churn_opts[] = {
	{ "threads", 't', "N", BENCH_UINT, AT(threads), NULL,
	  "fault threads (default 1; 0: the churn thread\nalone, not with --paced or --shared-vma)" },
	{ "rounds", 'n', "N", BENCH_COUNT, AT(ops), NULL,
	  "rounds of mmap, mprotect, mremap, munmap and two\nbrk calls (default 2000)" },
	{ "writers", 0, "N", BENCH_COUNT, AT(writers), NULL,
	  "churn threads, each making the rounds (default 1;\nbeyond one, unpaced)" },
	{ "chunk", 0, "SIZE", BENCH_SIZE, AT(chunk), NULL,
	  "mapping each fault thread maps afresh, then\ntouches (default 1M)" },
	{ "fork", 0, "N", BENCH_UINT, AT(forks), NULL, "also fork N times (child exits at once)" },
	{ "shared-vma", 0, NULL, BENCH_FLAG, AT(shared_vma), NULL,
	  "fault threads fault (THP) in one shared VMA whose\nlast page the churn thread mprotects back and forth" },
	{ "paced", 0, NULL, BENCH_FLAG, AT(paced), NULL,
	  "each round and fork waits until a fault thread maps\na fresh chunk: writers run while faults are in flight" },
	{ "proc-reader", 0, NULL, BENCH_FLAG, AT(proc_reader), NULL,
	  "a second process reads /proc/PID/smaps of this one\nin a loop, holding its mmap_lock from outside" },
	{ NULL },
};

int bench_churn(int argc, char **argv)
{
	struct churn_opts o = { .threads = 1, .writers = 1, .ops = 2000, .chunk = 1 << 20 };
	int ret = bench_parse(bench_churn_opts, &o, argc, argv);

	if (ret)
		return ret;
	/* Paced rounds wait for a fault thread's laps; one shared VMA is theirs. */
	if (!o.threads && (o.paced || o.shared_vma)) {
		fprintf(stderr, "mmtop bench churn: --paced and --shared-vma need a fault thread\n");
		return 2;
	}
	/* The other writers run unpaced, their chunks of their own. */
	if (o.writers > 1 && (o.paced || o.shared_vma)) {
		fprintf(stderr, "mmtop bench churn: --writers is for unpaced rounds without --shared-vma\n");
		return 2;
	}
	return churn_run(&o);
}
