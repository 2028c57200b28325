/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The processes to show (-p, or a command's process tree). Owned by the
 * caller of the collector, which may change it between samples.
 */
#ifndef MMTOP_PID_FILTER_H
#define MMTOP_PID_FILTER_H

#include <stdbool.h>

struct pid_filter {
	int *pids;
	int nr, cap;
	bool active;		/* false: every process */
};

bool pid_filter_has(const struct pid_filter *f, int pid);
int pid_filter_add(struct pid_filter *f, int pid);
/* Add every live descendant of the processes already in @f (from /proc). */
void pid_filter_add_descendants(struct pid_filter *f);
void pid_filter_free(struct pid_filter *f);

#endif
