/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How much of each interval the per-acquisition programs may count (the
 * sampling window), so that what they cost stays within --budget of the
 * CPU the machine's work used. Pure arithmetic: the sampler applies it.
 */
#ifndef MMTOP_BUDGET_H
#define MMTOP_BUDGET_H

#include <stdbool.h>
#include <stdint.h>

/*
 * The hook's own entry per program run, which bpf_stats does not count
 * (it times the program only): what every run pays, in the window or not
 * (the programs stay attached and return at once outside it).
 */
#define BUDGET_FLOOR_NS 40

/* The smallest window: below it an interval's estimate is mostly noise. */
#define BUDGET_MIN_FRACTION 0.005

/*
 * What counts as no cost at all, per second of the interval (0.1% of one
 * CPU): on an idle machine 1% of its little work is a few microseconds,
 * less than the programs take for its housekeeping (about 120 us a second
 * here, gated runs included).
 */
#define BUDGET_SLACK_NS_PER_S 1000000ULL

struct budget_in {
	double budget;		/* mmtop's share of the work's CPU, e.g. 0.01 */
	uint64_t interval_ns;
	uint64_t prog_ns;	/* the sampled programs' run time in the interval */
	uint64_t runs;		/* and their runs, in the window or not */
	double window;		/* the share of the interval the window was open */
	uint64_t busy_ns;	/* CPU the machine's work used in the interval */
};

/*
 * The next window's share of an interval, in (0, 1]. Every run pays the
 * hook's entry (BUDGET_FLOOR_NS); the programs' own time grows with the
 * window: the share that keeps both within the budget, the whole interval
 * while that is all of it (nothing seen costs nothing), never below
 * BUDGET_MIN_FRACTION (*over set: the budget cannot be kept).
 */
double budget_fraction(const struct budget_in *in, bool *over);

#endif
