/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Many intervals as one: counts add up, maxima and histograms merge, rows
 * with the same key become one. `mmtop report` prints a recording this way,
 * through the same sinks as a single interval.
 */
#ifndef MMTOP_MERGE_H
#define MMTOP_MERGE_H

#include "snapshot.h"

/* Add @s to @sum (initialised for the same CPUs and nodes). */
int snapshot_merge(struct snapshot *sum, const struct snapshot *s);

#endif
