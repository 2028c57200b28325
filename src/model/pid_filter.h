/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The processes to show (-p, or a command's process tree). Owned by the
 * caller of the collector, which may change it between samples; a tree
 * also grows in the collector, by the forks it reads (a child that starts
 * and ends within an interval is gone before /proc is looked at).
 */
#ifndef MMTOP_PID_FILTER_H
#define MMTOP_PID_FILTER_H

#include <stdbool.h>

struct pid_filter {
	int *pids;
	int nr, cap;
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
/* Add every live descendant of the processes already in @f (from /proc). */
void pid_filter_add_descendants(struct pid_filter *f);
void pid_filter_free(struct pid_filter *f);

#endif
