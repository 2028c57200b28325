/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The lock source's state, shared with the files that turn its maps into
 * rows (lock_rows.c, cont_rows.c, blame_rows.c) and with thp_walk.c. They
 * call only leaf modules (map_walk, growth, key_names), never back into
 * lock_source.c.
 */
#ifndef MMTOP_LOCK_SOURCE_IMPL_H
#define MMTOP_LOCK_SOURCE_IMPL_H

#include <linux/types.h>
#include <pthread.h>
#include <stdbool.h>

#include "cgroup_names.h"
#include "delta_table.h"
#include "growth.h"
#include "key_names.h"
#include "ksyms.h"
#include "lock_source.h"
#include "map_walk.h"
#include "mmtop.h"		/* before the skeleton: its globals use these types */
#include "locks.skel.h"

/* Previous cumulative values, kept in the delta tables. */
struct lock_prev {
	struct walk_prev head;
	struct lock_stats sum;
};

struct cont_prev {
	struct walk_prev head;
	struct cont_stats sum;
};

/* Whom the default set blames a wait on (bpf/holders.bpf.h). */
#define RELEASE_HOLDERS "the holder whose release let it through (lock:contended_release)"
#define OWNER_HOLDERS "the rwsem's owner as it began: a writer exactly, at the syscall it was in; a read-held lock's last reader in as a hint"

/*
 * Page-table walks for fork records (thp_walk.c): a parent forking again
 * within a second reuses its last walk, and at most WALKS_PER_SEC walks
 * run a second, so that a fork storm cannot stall the collector.
 */
#define WALK_CACHE 64
struct thp_walks {
	struct {
		uint64_t mm, when_ns;
		uint32_t mm_ident;
		int64_t kb;
	} cache[WALK_CACHE];
	uint64_t window_ns;		/* start of the current second */
	unsigned int in_window;		/* walks in it */
};

/*
 * Fork records' ring and the thread that reads it (fork_reader.c); lock
 * serialises the ring's consumption and ls->forks.
 */
struct fork_reader {
	struct ring_buffer *rb;
	pthread_t thread;
	pthread_mutex_t lock;
	int stop_fd;			/* eventfd that ends the thread */
	bool running;
};

/*
 * The lock rows of the snapshot being built, by key (slot: row + 1, 0
 * free): with thousands of processes, finding a row must not be a scan.
 */
struct row_index {
	int *slot;
	unsigned int cap;		/* a power of two, or 0 */
};

/* A new process of a followed tree, from its birth (fork_event.spawn). */
struct spawn {
	int parent, child;
};

struct lock_source {
	struct tp_object tp;
	struct locks_bpf *skel;
	struct ring_buffer *rb;
	struct ksyms ksyms;
	struct site_cache sites;
	struct cgroup_names cgroups;	/* the rows' and events' cgroups; --cgroup */
	struct delta_table lock_prev;	/* lock_key -> lock_stats + per-CPU acquired */
	struct delta_table cont_prev;	/* cont_key -> cont_stats */
	struct row_index lock_index;	/* of the snapshot's lock rows */
	struct delta_table blame_prev;	/* blame_key -> cont_stats */
	struct map_walk walk;
	SNAPSHOT_ARRAY(uint32_t, gone_last);	/* found gone by the last read */
	int nr_possible, nr_cpus;
	/* Exact mode's fault acquisitions per possible CPU: now and as last read. */
	struct fault_locks *fault_now, *fault_prev;
	/*
	 * Records taken off the ring buffers since the last read, moved
	 * into the snapshot at the read: slow events by lock_source_poll,
	 * forks by the fork reader (under fr.lock) as they come, so that a
	 * fork's parent is still there to be looked at.
	 */
	SNAPSHOT_ARRAY(struct slow_event, events);
	SNAPSHOT_ARRAY(struct fork_row, forks);
	SNAPSHOT_ARRAY(struct spawn, spawns);	/* also by the fork reader */
	struct fork_reader fr;
	struct lock_source_opts opts;
	int nr_zone_locks, nr_pcp_locks;	/* in the address table */
	enum vma_lock vma_lock;		/* the kernel's, from BTF */
	const char *vma_waits;		/* how VMA write-lock waits are seen */
	const char *thp_method;		/* how a fork parent's THP is found */
	char thp_how[64];		/* thp_method, when the walk is found */
	char fork_timing[224];		/* where a fork's latency starts */
	enum clone_hook clone_hook;	/* the program there, as attached */
	/* The backing walk's programs refused by the kernel: why ("": not). */
	char walk_refused[SNAPSHOT_NA_LEN];
	/* Exact mode's programs refused by the kernel: why ("": not). */
	char exact_refused[SNAPSHOT_NA_LEN];
	/* Why forks' sibling stalls are not counted ("": they are). */
	char stalls_na[160];
	/* Why the default set sees no mmap_lock waits ("": it sees them). */
	char waits_na[128];
	/* Whom the default set blames a wait on (snapshot.holders). */
	char holders[SNAPSHOT_NA_LEN];
	struct thp_walks walks;
};

/* What the rows' map visitors get: the source and the snapshot being built. */
struct rows_ctx {
	struct lock_source *ls;
	struct snapshot *s;
};

/*
 * One map of rows into @s: each key of @key_type (its tgid filtered by
 * -p) given to @visit with its previous values in @prev.
 */
#define rows_walk(ls, s, map, prev, key_type, value_type, visit, drops)		\
	map_walk_run(&(ls)->walk,							\
		     &(struct map_walk_spec){ (map), (prev), sizeof(key_type),		\
					      offsetof(key_type, tgid),			\
					      sizeof(value_type) },			\
		     (visit), &(struct rows_ctx){ (ls), (s) }, (drops))
/*
 * The default set's mmap_lock waits of one blame row, keyed as their lock
 * row @k, since @before: into that lock row (lock_rows.c) and the
 * contention row of their mmap_lock class (cont_rows.c), which BPF does
 * not count apart (a wait updates one row in the kernel).
 */
void lock_rows_add_waits(struct lock_source *ls, struct snapshot *s, const struct lock_key *k,
			 const struct cont_stats *now, const struct cont_stats *before);
void cont_rows_add_waits(struct lock_source *ls, struct snapshot *s, const struct lock_key *k,
			 const struct cont_stats *now, const struct cont_stats *before);
/* A contended lock's mode from its LCB_F_* flags: read, write, or - (a mutex, a spin lock). */
const char *lock_mode(__u32 flags);
/*
 * What a wait-statistics key added since @before, into a row's @count,
 * @wait_ns and maximum (@max_ns, @max_bound), and its histogram @hist.
 */
void cont_stats_add(const struct cont_stats *now, const struct cont_stats *before,
		    struct hist *hist, uint64_t *count, uint64_t *wait_ns, uint64_t *max_ns,
		    bool *max_bound);

/*
 * The fork reader: started once the object is loaded; drained into @s by
 * the collector at each read (records of processes the filter keeps).
 */
int fork_reader_start(struct lock_source *ls);
void fork_reader_drain(struct lock_source *ls, struct snapshot *s);
void fork_reader_stop(struct lock_source *ls);

/* Find the direct map once; then a fork parent's huge kB, -1 if unknown. */
void thp_walk_init(struct lock_source *ls);
/* @fork_ns: the fork's CLOCK_MONOTONIC time (the record's ts_ns). */
int64_t thp_walk_kb(struct lock_source *ls, uint64_t mm, uint32_t mm_ident, uint64_t fork_ns);

void lock_rows_read(struct lock_source *ls, struct snapshot *s, uint64_t *drops);
void cont_rows_read(struct lock_source *ls, struct snapshot *s, uint64_t *drops);
void blame_rows_read(struct lock_source *ls, struct snapshot *s, uint64_t *drops);

#endif
