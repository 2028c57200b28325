/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Lock signals (bpf/locks.bpf.c): mmap_lock waits, holds and call sites,
 * lock contention by class, and slow events, turned into snapshot rows.
 */
#ifndef MMTOP_LOCK_SOURCE_H
#define MMTOP_LOCK_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pid_filter.h"
#include "kernel_has.h"
#include "snapshot.h"
#include "tp_object.h"

struct ksyms_loader;

struct lock_source_opts {
	bool mmap_lock;		/* the mmap_lock tracepoint programs */
	bool contention;	/* the lock:contention_* programs */
	bool fork;		/* the fork cost programs */
	bool raw_addresses;	/* call-site addresses into the rows */
	bool spin_waits;	/* waits from start_locking: a third program */
	bool vma_waits;		/* the VMA-sleep check on sched_switch (6.15+) */
	uint64_t slow_ns;
	enum tp_flavour attach;
	struct pid_filter *pids;	/* read at every sample; NULL: all; a
					 * tree grows by the forks read */
	const char *cgroup;	/* --cgroup: only this subtree's tasks; NULL: all */
	int nr_nodes;		/* NUMA nodes, for the lock address table */
	const struct kernel_has *kernel;	/* what it has, while opening */
	struct ksyms_loader *ksyms;	/* /proc/kallsyms, begun by the caller */
};

struct lock_source;

/*
 * NULL with the reason in @err. A program the kernel refuses leaves off
 * only the families that need it: each such family's reason (the program
 * and the verifier's message) goes to @refused[family], indexed by enum
 * probe_family, and the rest runs.
 */
struct lock_source *lock_source_open(const struct lock_source_opts *opts,
				     int nr_cpus, char (*refused)[SNAPSHOT_NA_LEN],
				     char *err, size_t errlen);
/*
 * Exact mode on (@on) or off: attach or detach the programs run per
 * mmap_lock acquisition (and, with --vma-waits, per context switch). 0, or
 * -1 with the reason (off). Only at the user's request: each attach and
 * detach patches the kernel's text at every inlined mmap_lock call.
 */
int lock_source_exact(struct lock_source *ls, bool on, char *err, size_t errlen);
bool lock_source_exact_on(const struct lock_source *ls);
/* Add the programs' runs and run time (only exact mode's: @exact). */
void lock_source_cost(struct lock_source *ls, bool exact, struct prog_cost *c);
/* Bitmask of 1 << enum probe_id for what is attached. */
uint32_t lock_source_probes(const struct lock_source *ls);
/* The program at kernel_clone's entry as it opened (kernel_has's, or its fallback). */
enum clone_hook lock_source_clone_hook(const struct lock_source *ls);
/* How contended locks are classified (empty with contention off). */
void lock_source_describe(const struct lock_source *ls, char *buf, size_t len);
/* Take slow-event records off their ring now (cheap). */
void lock_source_poll(struct lock_source *ls);
/* Readable when slow-event records are waiting (a ring a quarter full:
 * fork records have a reader thread of their own). */
int lock_source_fd(const struct lock_source *ls);
/* Add this interval's rows and per-CPU fallbacks to @s; drops to @drops. */
void lock_source_read(struct lock_source *ls, struct snapshot *s,
		      uint64_t *drops);
void lock_source_close(struct lock_source *ls);

#endif
