/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The exporter's model: snapshots added up into counters that only grow,
 * with a bounded set of label values, as Prometheus wants them. `mmtop
 * serve` and the openmetrics batch output feed every interval in and write
 * the totals out (exposition.c). No HTTP, no file I/O here.
 *
 * Per-process series exist only for the top N commands by activity, keyed
 * by comm: a busy host starts thousands of processes, and a series per pid
 * would be a new series in the server for each (two scrapes 4 s apart
 * shared 1 of 11 pid series). All processes of one comm add up into its
 * series, kept for good; the rest is summed under comm="other". With
 * by_pid (--pid-label) they are keyed by pid and comm instead: a process
 * keeps its series while it lives. A key that joins starts from zero (what
 * it did before stays in "other"), so no counter ever goes down.
 *
 * With cgroup_depth (--cgroup-label DEPTH), the blame waits have series
 * by the waiter's cgroup and the holder's as well, each cut to its first
 * DEPTH levels (a service, not each of its containers): the first top
 * pairs seen keep theirs, the later ones add up under "other", for the
 * same reasons.
 */
#ifndef MMTOP_METRICS_H
#define MMTOP_METRICS_H

#include <stdbool.h>
#include <stdint.h>

#include "snapshot.h"

#define METRICS_TOP_DEFAULT 10

/* Fork latency buckets: quarter octaves, 2^14 ns (16 us) to 2^33 ns (8.6 s). */
#define FORK_BUCKET_MIN_LOG2 14
#define FORK_BUCKET_MAX_LOG2 33
#define FORK_BUCKETS ((FORK_BUCKET_MAX_LOG2 - FORK_BUCKET_MIN_LOG2) * 4 + 1)

enum fork_backing_kind { BACKING_4K, BACKING_THP, BACKING_UNKNOWN, BACKING__COUNT };

/* mmap_lock of all processes, by call site and mode. */
struct metric_lock {
	char site[SNAPSHOT_SYMBOL_LEN];
	bool write;
	uint64_t acquired, failed;
	uint64_t wait_ns, hold_ns;
	struct hist wait, hold;
};

/* One command's (or process's, or "other"'s) share, since it got its series. */
struct metric_proc {
	int pid;			/* by_pid only; 0 for "other" */
	char comm[SNAPSHOT_COMM_LEN];
	uint64_t acquired, wait_ns, hold_ns, fallbacks;
};

/*
 * Waits behind a holder, by [waiter's site][waiter writes][holder's site]
 * [holder writes][enum blame_holder].
 */
struct metric_blame {
	uint64_t count, wait_ns;
};

/* Blame waits of one pair of cgroups (by_cgroup), or "other"'s. */
struct metric_cgroup_pair {
	char cgroup[SNAPSHOT_CGROUP_LEN];
	char holder_cgroup[SNAPSHOT_CGROUP_LEN];	/* "": nobody seen */
	uint64_t count, wait_ns;
};

struct metric_fork {
	uint64_t count, sum_ns;
	/* Not cumulative: [i] up to fork_bucket_le(i); the last, above all. */
	uint64_t bucket[FORK_BUCKETS + 1];
};

struct metric_cpu {
	int node;
	uint64_t minor, major, fallbacks, anon;
	uint64_t pcp_refill_pages, pcp_drain_pages;
};

struct metrics {
	int top;			/* per-process series kept */
	bool by_pid;			/* keyed by pid and comm, not comm alone */
	uint64_t intervals;
	uint64_t last_wall_ns;
	int nr_cpus;
	struct metric_cpu *cpus;
	struct metric_lock *locks;
	int nr_locks, cap_locks;
	uint64_t cont_count[CONT_CLASS__COUNT], cont_wait_ns[CONT_CLASS__COUNT];
	/* mmap_lock waits that waited behind a holder: see struct metric_blame. */
	struct metric_blame blame[CALLSITE__COUNT][2][CALLSITE__COUNT][2][BLAME__COUNT];
	struct metric_fork forks[BACKING__COUNT];	/* timed forks */
	uint64_t forks_untimed;		/* while the programs were detached */
	uint32_t exact_ppm;		/* the last interval's (snapshot.exact_ppm) */
	bool bpf_measured;		/* the last interval's (snapshot.bpf_measured) */
	uint64_t bpf_runs, bpf_ns, busy_ns;	/* since start */
	uint64_t bpf_map_bytes;			/* the last interval's; 0: not known */
	uint64_t attach_ns;		/* since start (snapshot.attach_ns) */
	uint64_t drops[DROP__COUNT];
	bool family_on[FAMILY__COUNT];
	bool vma_on;			/* the VMA-lock outcome is known */
	struct metric_proc *procs;	/* [top], the first nr_procs used */
	int nr_procs;
	struct metric_proc other;
	int cgroup_depth;		/* blame waits by cgroup pair too; 0: not */
	struct metric_cgroup_pair *cgroups;	/* [top], the first nr_cgroups used */
	int nr_cgroups;
	struct metric_cgroup_pair cgroup_other;
};

int metrics_init(struct metrics *m, int top, bool by_pid, int cgroup_depth);
/* @path cut to its first @depth levels ("/a/b/c", 2: "/a/b"), into @out. */
void cgroup_cut(const char *path, int depth, char *out, size_t len);
void metrics_free(struct metrics *m);
/* Add one interval; -ENOMEM when a new row found no memory (it is lost). */
int metrics_add(struct metrics *m, const struct snapshot *s);
/* Upper bound in seconds of fork latency bucket @i. */
double fork_bucket_le(int i);
/* Fork bucket holding @ns; FORK_BUCKETS for above the last bound. */
int fork_bucket_of(uint64_t ns);
/*
 * Whether process @pid still runs; a hook so tests can retire processes.
 * The default asks kill(pid, 0): no lock of the process is taken.
 */
extern bool (*metrics_pid_alive)(int pid);

#endif
