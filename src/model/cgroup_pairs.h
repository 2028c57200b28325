/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Who blocks whom by container: a snapshot's blame rows summed by the
 * waiter's cgroup and the holder's, as the viewer's Blame view (g), the
 * text output and the report show them.
 */
#ifndef MMTOP_CGROUP_PAIRS_H
#define MMTOP_CGROUP_PAIRS_H

#include <stdbool.h>
#include <stdint.h>

#include "snapshot.h"

struct cgroup_pair {
	const char *cgroup;		/* the waiter's: the row's string */
	const char *holder_cgroup;	/* "": nobody seen */
	uint64_t count, wait_ns, wait_max_ns;
	bool wait_max_bound;
	int rows;			/* blame rows summed */
};

/*
 * The pairs of @s's blame rows, most wait first, into *@out (free it):
 * their number; 0 with none, or with a recording before 2.10 (no row
 * names a cgroup); -1 out of memory.
 */
int cgroup_pairs_of(const struct snapshot *s, struct cgroup_pair **out);

#endif
