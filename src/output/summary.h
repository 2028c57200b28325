/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A one-screen summary of a followed run (-p or -- COMMAND), printed when
 * the viewer exits: totals over every interval seen.
 */
#ifndef MMTOP_SUMMARY_H
#define MMTOP_SUMMARY_H

#include <stdio.h>

#include "snapshot.h"

struct site_total {
	uint64_t acquired, wait_ns, hold_ns, wait_max_ns, hold_max_ns;
	bool wait_max_bound, hold_max_bound;
};

struct summary {
	uint64_t intervals, ns;
	int64_t faults;			/* of the followed processes; -1 unknown */
	uint64_t fallbacks, anon;
	uint64_t outcome_na;		/* intervals whose VMA-lock outcome was n/a */
	struct site_total sites[CALLSITE__COUNT][2];	/* [site][write] */
	uint64_t cont_count[CONT_CLASS__COUNT], cont_wait_ns[CONT_CLASS__COUNT];
	uint64_t events;
	uint64_t drops;
};

void summary_add(struct summary *sum, const struct snapshot *s);
void summary_print(const struct summary *sum, FILE *f, const char *what);

#endif
