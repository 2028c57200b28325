/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An interval's values from cumulative ones: BPF maps only ever add, so
 * each interval reports what grew since the previous read.
 */
#ifndef MMTOP_GROWTH_H
#define MMTOP_GROWTH_H

#include <stdint.h>
#include <linux/types.h>

#include "snapshot.h"

/* @now - @before; 0 if the counter went back (a key deleted and re-created). */
uint64_t grow(uint64_t now, uint64_t before);
/* A log2 histogram's growth into @delta, added to @row too. */
void hist_add_growth(struct hist *row, struct hist *delta, const __u64 *now,
		     const __u64 *before);
/*
 * The interval's maximum from cumulative maxima: exact when the maximum
 * grew (@max > @prev_max); else bounded by the top of the highest bucket
 * of the interval's histogram @h, by @max, and by the interval's @total,
 * and *@bound says so.
 */
uint64_t interval_max(uint64_t max, uint64_t prev_max, const struct hist *h, bool *bound,
		      uint64_t total);

#endif
