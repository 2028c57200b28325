/* SPDX-License-Identifier: GPL-2.0 */
/* Internals shared by lock_source.c, lock_rows.c and cont_rows.c. */
#ifndef MMTOP_LOCK_SOURCE_IMPL_H
#define MMTOP_LOCK_SOURCE_IMPL_H

#include <linux/types.h>

#include "delta_table.h"
#include "ksyms.h"
#include "lock_source.h"
#include "mmtop.h"		/* before the skeleton: its globals use these types */
#include "locks.skel.h"

#define SITES_MAX 8192		/* lock_stacks' size, set at open */

/* What a stored kernel stack means; classified once, then cached. */
struct site {
	uint64_t stack;			/* 0: free slot */
	enum callsite site;		/* as an mmap_lock call site */
	char symbol[SNAPSHOT_SYMBOL_LEN];
	uint64_t addr;			/* of symbol's frame */
	enum cont_class cont;		/* as a contended lock's caller */
	char caller[SNAPSHOT_SYMBOL_LEN];
	uint64_t caller_addr;
};

/*
 * Previous cumulative values, kept in the delta tables. Both start with
 * the idle count, as both keys start with stack and tgid: the map walk
 * below reads them through these common heads.
 */
struct prev_head {
	__u32 idle;			/* reads in a row without growth */
	__u32 pad;
};

struct key_head {
	__u64 stack;
	__u32 tgid;
};

struct lock_prev {
	struct prev_head head;
	struct lock_stats sum;		/* over CPUs */
	__u64 cpu_acquired[];		/* per CPU */
};

struct cont_prev {
	struct prev_head head;
	struct cont_stats sum;
};

/*
 * Page-table walks for fork records (thp_walk.c): a parent forking again
 * within a second reuses its last walk, and at most WALKS_PER_SEC walks
 * run a second, so that a fork storm cannot stall the collector.
 */
#define WALK_CACHE 64
struct thp_walks {
	struct {
		uint64_t mm, when_ns;
		uint32_t mm_id;
		int64_t kb;
	} cache[WALK_CACHE];
	uint64_t window_ns;		/* start of the current second */
	unsigned int in_window;		/* walks in it */
};

/*
 * The lock rows of the snapshot being built, by key (slot: row + 1, 0
 * free): with thousands of processes, finding a row must not be a scan.
 */
struct row_index {
	int *slot;
	unsigned int cap;		/* a power of two, or 0 */
};

/* Keys of dead processes to delete once a read is over. */
struct doomed {
	void *keys;
	int nr, cap;
};

struct lock_source {
	struct tp_object tp;
	struct locks_bpf *skel;
	struct ring_buffer *rb;
	struct ksyms ksyms;
	struct site *sites;		/* open addressing, 2 * SITES_MAX slots */
	struct delta_table lock_prev;	/* lock_key -> lock_stats + per-CPU acquired */
	struct delta_table cont_prev;	/* cont_key -> cont_stats */
	struct row_index lock_index;	/* of the snapshot's lock rows */
	struct delta_table blame_prev;	/* blame_key -> cont_stats */
	void *percpu;			/* map lookup buffer */
	int nr_possible, nr_cpus;
	/*
	 * Records taken off the ring buffers since the last read: polled
	 * often (lock_source_poll) so a fork's parent is still there to
	 * be looked at; moved into the snapshot at the read.
	 */
	SNAPSHOT_ARRAY(struct slow_event, events);
	SNAPSHOT_ARRAY(struct fork_row, forks);
	struct lock_source_opts opts;
	struct doomed doomed;
	/*
	 * Processes found gone during a read: their names are forgotten only
	 * once every map is read, so their last rows keep their names.
	 */
	SNAPSHOT_ARRAY(__u32, gone);
	int nr_zone_locks, nr_pcp_locks;	/* in the address table */
	const char *vma_waits;		/* how VMA write-lock waits are seen */
	const char *thp_method;		/* how a fork parent's THP is found */
	struct thp_walks walks;
};

const struct site *site_of(struct lock_source *ls, uint64_t stack);
void comm_of(struct lock_source *ls, int pid, char *comm);
bool pid_wanted(const struct lock_source *ls, int pid);
uint64_t grow(uint64_t now, uint64_t before);
/* A log2 histogram's growth into @delta, added to @row too. */
void hist_add_growth(struct hist *row, struct hist *delta, const __u64 *now,
		     const __u64 *before);
enum cont_class cont_class_of(__u32 bpf_cls, const struct site *site,
			      bool *by_address);
/* Interval max from cumulative maxima, the interval's histogram and sum. */
uint64_t interval_max(uint64_t max, uint64_t prev_max, const struct hist *h,
		      uint64_t total);

/*
 * Walk a cumulative per-CPU map: each key's per-CPU values are read into
 * ls->percpu and handed to @visit with the key's previous value, which
 * @visit updates; it returns false when nothing grew. Keys that have not
 * grown for a while and whose process is gone are deleted, in the kernel
 * and in @t, so that the maps hold live processes.
 */
typedef bool (*visit_fn)(struct lock_source *ls, struct snapshot *s,
			 const void *key, void *prev);
void walk_cumulative(struct lock_source *ls, struct snapshot *s, uint64_t *drops,
		     struct bpf_map *map, struct delta_table *t, size_t key_size,
		     visit_fn visit);

/* Sum the per-CPU values of one wait-statistics key (ls->percpu). */
void cont_stats_sum(const struct lock_source *ls, struct cont_stats *sum);

/* Find the direct map once; then a fork parent's huge kB, -1 if unknown. */
void thp_walk_init(struct lock_source *ls);
int64_t thp_walk_kb(struct lock_source *ls, uint64_t mm, uint32_t mm_id);

void lock_rows_read(struct lock_source *ls, struct snapshot *s, uint64_t *drops);
void cont_rows_read(struct lock_source *ls, struct snapshot *s, uint64_t *drops);
void blame_rows_read(struct lock_source *ls, struct snapshot *s, uint64_t *drops);

#endif
