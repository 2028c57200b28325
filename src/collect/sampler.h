/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The sampling window (--budget): the lock source's per-acquisition and
 * per-switch programs count only while it is open, for a share of each
 * interval in up to SAMPLER_SLOTS pieces at random offsets, opened and
 * closed by a thread of the collector's. The share comes from the budget
 * (budget.h), planned at each interval's end from what the last one
 * cost; an open window that costs far more than that is closed early.
 */
#ifndef MMTOP_SAMPLER_H
#define MMTOP_SAMPLER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lock_source.h"

struct sampler;

/*
 * Start with the window open; NULL with the reason. @budget: the share of
 * the machine's busy CPU above which an open window is throttled (0:
 * never).
 */
struct sampler *sampler_start(struct lock_source *ls, double budget, char *err,
			      size_t errlen);
/*
 * An interval ends: how long the window was open since the last cut;
 * @whole (if not NULL): open all that time; @throttled (if not NULL): a
 * window was closed early, over budget. A window still open stays open.
 */
uint64_t sampler_cut(struct sampler *sm, bool *whole, bool *throttled);
/*
 * Plan the next interval, expected @interval_ns long: open for the share
 * @fraction of it (1: all of it, from now).
 */
void sampler_plan(struct sampler *sm, double fraction, uint64_t interval_ns);
void sampler_stop(struct sampler *sm);

#endif
