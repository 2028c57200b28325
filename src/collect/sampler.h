/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The sampling window (--budget): the lock source's per-acquisition and
 * per-switch programs count only while it is open, for a share of each
 * interval at random offsets, opened and closed by a thread of the
 * collector's. The share, and whether the programs stay attached outside
 * the window, come from the budget (budget.h), planned at each interval's
 * end from what the last one cost; an open window that costs far more
 * than planned is closed early.
 */
#ifndef MMTOP_SAMPLER_H
#define MMTOP_SAMPLER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "budget.h"
#include "lock_source.h"

struct sampler;

/*
 * Start with the window open; NULL with the reason. @budget: the share of
 * the machine's busy CPU above which an open window is throttled (0:
 * never).
 */
struct sampler *sampler_start(struct lock_source *ls, double budget, char *err,
			      size_t errlen);

/* What the sampler did since the last cut. */
struct sampler_cut {
	uint64_t window_ns;	/* how long the window was open */
	uint64_t hooked_ns;	/* how long the programs were attached */
	uint64_t hook_ns;	/* CPU spent attaching and detaching them */
	uint64_t hook_wall_ns;	/* and the time that took */
	unsigned int hook_ops;	/* attaches and detaches */
	bool whole;		/* the window open all that time */
	bool throttled;		/* a window closed early, over budget */
};

/* An interval ends: what it saw. A window still open stays open. */
void sampler_cut(struct sampler *sm, struct sampler_cut *cut);
/* Plan the next interval, expected @interval_ns long. */
void sampler_plan(struct sampler *sm, const struct budget_plan *plan,
		  uint64_t interval_ns);
void sampler_stop(struct sampler *sm);

#endif
