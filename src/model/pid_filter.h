/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The processes to show (-p, or a command's process tree). Owned by the
 * caller of the collector, which may change it between samples; a tree
 * also grows in the collector, by the forks it reads (a child that starts
 * and ends within an interval is gone before /proc is looked at).
 *
 * A tree loses its processes as they exit: a command may start far more
 * processes than the kernel has pids (pid_max is 32768 on a small machine),
 * and a pid kept after its exit would let whoever is given it next into
 * the tree, and make every lookup slower.
 */
#ifndef MMTOP_PID_FILTER_H
#define MMTOP_PID_FILTER_H

#include <stdbool.h>

struct pid_filter {
	int *slots;		/* open addressing; 0: free, -pid: exited */
	int nr, cap;		/* cap: a power of two */
	bool active;		/* false: every process */
	bool tree;		/* a process tree: its processes' children too */
};

bool pid_filter_has(const struct pid_filter *f, int pid);
int pid_filter_add(struct pid_filter *f, int pid);
/*
 * @parent made @child: in a tree with the parent, the child is added; 1 if
 * it was, 0 if not, -1 if out of memory.
 */
int pid_filter_fork(struct pid_filter *f, int parent, int child);
/* The pids in @f, one per call from *@at = 0 on; 0 after the last. */
int pid_filter_next(const struct pid_filter *f, int *at);
/*
 * Once per interval, before the interval's rows are read: a tree drops the
 * processes found exited at the last refresh (their last rows have been
 * read since), notes those exited now, and takes in every live descendant
 * of its processes (from /proc).
 */
void pid_filter_refresh(struct pid_filter *f);
void pid_filter_free(struct pid_filter *f);

#endif
