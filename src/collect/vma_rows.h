/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-process per-VMA lock outcome: a process's faults (from the fault
 * source) against its faults that took mmap_lock (from the lock rows: exact
 * mode's; the default set's rows have the faults alone). Processes are
 * followed from the first interval they take or wait for mmap_lock from
 * the fault path, or fault while -p or -- COMMAND names them.
 */
#ifndef MMTOP_VMA_ROWS_H
#define MMTOP_VMA_ROWS_H

#include "fault_source.h"
#include "pid_filter.h"
#include "snapshot.h"

#define VMA_TRACKED_MAX 1024

struct vma_tracked {
	int pid;
	char comm[SNAPSHOT_COMM_LEN];
	uint64_t last_seq;		/* last interval with faults or fallbacks */
};

struct vma_tracker {
	struct vma_tracked t[VMA_TRACKED_MAX];
	int nr;
};

void vma_track(struct vma_tracker *vt, int pid, const char *comm, uint64_t seq);
/*
 * Fill s->vmas from s->locks and @procs (NULL: per-process faults unknown,
 * shown as -1); @pids, the filter (NULL: none), names processes to follow.
 */
void vma_rows_build(struct vma_tracker *vt, struct snapshot *s,
		    const struct proc_faults *procs, int nr_procs,
		    const struct pid_filter *pids);

#endif
