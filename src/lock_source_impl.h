/* SPDX-License-Identifier: GPL-2.0 */
/* Internals shared by lock_source.c, lock_rows.c and cont_rows.c. */
#ifndef MMTOP_LOCK_SOURCE_IMPL_H
#define MMTOP_LOCK_SOURCE_IMPL_H

#include <linux/types.h>

#include "delta_table.h"
#include "ksyms.h"
#include "lock_source.h"
#include "locks.skel.h"
#include "mmtop.h"

#define SITES_MAX 8192		/* lock_stacks max_entries */

/* What a stored kernel stack means; classified once, then cached. */
struct site {
	uint64_t stack;			/* 0: free slot */
	enum callsite site;		/* as an mmap_lock call site */
	char symbol[SNAPSHOT_SYMBOL_LEN];
	enum cont_class cont;		/* as a contended lock's caller */
	char caller[SNAPSHOT_SYMBOL_LEN];
};

/* Previous cumulative values, kept in the delta tables. */
struct lock_prev {
	struct lock_stats sum;		/* over CPUs */
	__u32 idle;			/* reads in a row without growth */
	__u32 pad;
	__u64 cpu_acquired[];		/* per CPU */
};

struct cont_prev {
	struct cont_stats sum;
	__u32 idle;
	__u32 pad;
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
	void *percpu;			/* map lookup buffer */
	int nr_possible, nr_cpus;
	struct snapshot *cur;		/* for the ring-buffer callback */
	struct lock_source_opts opts;
	struct doomed doomed;
	int nr_zone_locks, nr_pcp_locks;	/* in the address table */
	const char *vma_waits;		/* how VMA write-lock waits are seen */
};

const struct site *site_of(struct lock_source *ls, uint64_t stack);
void comm_of(struct lock_source *ls, int pid, char *comm);
bool pid_wanted(const struct lock_source *ls, int pid);
uint64_t grow(uint64_t now, uint64_t before);
enum cont_class cont_class_of(__u32 bpf_cls, const struct site *site,
			      bool *by_address);
/* Interval max from cumulative maxima, the interval's histogram and sum. */
uint64_t interval_max(uint64_t max, uint64_t prev_max, const struct hist *h,
		      uint64_t total);

/*
 * A key that has not grown for a while and whose process is gone is
 * deleted (in the kernel and here), so that maps hold live processes:
 * call with each idle key, then forget_doomed() after the map walk.
 */
void doom_if_gone(struct lock_source *ls, __u32 *idle, __u32 tgid,
		  const void *key, size_t key_size);
void forget_doomed(struct lock_source *ls, struct bpf_map *map,
		   struct delta_table *t, size_t key_size);

void lock_rows_read(struct lock_source *ls, struct snapshot *s, uint64_t *drops);
void cont_rows_read(struct lock_source *ls, struct snapshot *s, uint64_t *drops);

#endif
