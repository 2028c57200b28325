/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How much of each interval the per-acquisition programs may count (the
 * sampling window), and whether they stay attached outside it, so that
 * what they cost stays within --budget of the CPU the machine's work used.
 * Pure arithmetic: the sampler applies it.
 */
#ifndef MMTOP_BUDGET_H
#define MMTOP_BUDGET_H

#include <stdbool.h>
#include <stdint.h>

/*
 * The hook's own entry per program run, which bpf_stats does not count
 * (it times the program only): what every run pays while the programs are
 * attached, in the window or not (outside it they return at once).
 */
#define BUDGET_FLOOR_NS 40

/* --budget's default, in ppm of the work's CPU: 1%. */
#define BUDGET_DEFAULT_PPM 10000

/* The smallest window: below it an interval's estimate is mostly noise. */
#define BUDGET_MIN_FRACTION 0.005

/*
 * What counts as no cost at all, per second of the interval (0.1% of one
 * CPU): on an idle machine 1% of its little work is a few microseconds,
 * less than the programs take for its housekeeping (about 120 us a second
 * here, gated runs included). A floor, not an addition: on work that the
 * budget pays for, its 1% is all (added, the slack let a loop of forks,
 * a quarter of a CPU, run exact at 1.05% of its CPU).
 */
#define BUDGET_SLACK_NS_PER_S 1000000ULL

/*
 * Detached, an attach and a detach before the first was measured: each
 * patches every inlined mmap_lock call in the kernel's text (here, a VM,
 * about 30 ms of mmtop's CPU each way; far less on bare metal).
 */
#define BUDGET_CYCLE_GUESS_NS 30000000ULL

/*
 * What a burst may cost whatever the work, as a share of one CPU, before
 * an open window is closed early (the trip, the sampler's checks): mmtop's
 * own start, its first mmaps on cold caches, costs about 130 us.
 */
#define BUDGET_BURST_SLACK 0.005

/* A run in the window, before its cost was learnt. */
#define BUDGET_RUN_GUESS_NS 250

/* The runs from which a program's cost per run is learnt. */
#define BUDGET_LEARN_RUNS 1000

/* Detached, a window saves up for at most this many intervals' budget. */
#define BUDGET_SAVE_INTERVALS 8

struct budget_in {
	double budget;		/* mmtop's share of the work's CPU, e.g. 0.01 */
	uint64_t interval_ns;
	uint64_t prog_ns;	/* the sampled programs' run time in the interval */
	uint64_t runs;		/* and their runs, in the window or not */
	double window;		/* the share of the interval the window was open */
	double hooked;		/* the share they were attached (runs paid entries) */
	uint64_t hook_ns;	/* CPU spent attaching and detaching them */
	/*
	 * At most what the other CPUs lost to it: the kernel patches its
	 * text under IPIs to each, while the attach or detach lasts (here,
	 * a VM: a churn on the other CPU lost 24-59 ms of its CPU a cycle,
	 * make bench, where this bound came to 84-100 ms).
	 */
	uint64_t hook_others_ns;
	unsigned int hook_ops;	/* attaches and detaches, each one */
	bool throttled;		/* a window closed early: a burst was in it */
	uint64_t busy_ns;	/* CPU the machine's work used in the interval */
};

/*
 * What the plan learns and keeps from one interval to the next, each from
 * the last interval that showed it. A run outside the window still runs
 * the program, to its first tests (and a fork's dup_mmap() lock is timed
 * there too): it costs less than one in the window.
 */
struct budget_state {
	double runs;		/* runs in an interval attached throughout */
	double in_ns;		/* ns of program per run in the window */
	double out_ns;		/* and outside it (attached, gate closed) */
	double cycle_ns;	/* an attach and a detach, CPU (0: not seen) */
	double credit;		/* detached: budget saved for the next window */
	bool detached;		/* the interval being planned for */
};

struct budget_plan {
	double fraction;	/* the next window's share of an interval, [0, 1] */
	bool detached;		/* the programs detached outside the window */
	bool over;		/* the budget cannot be kept: the smallest window */
	double window_cost;	/* detached: what the window's programs may cost */
	uint64_t trip_runs;	/* see budget_trip_runs() */
	double gated_run_ns;	/* a run outside the window, its entry included */
};

/*
 * The next interval's window. While the hooks' entries and the whole
 * interval's window fit, the whole interval (nothing seen costs nothing,
 * and exact). While the entries fit, the programs stay attached and the
 * window is the share of the interval whose programs fit in the rest.
 * Else the programs are attached for the window only, and the window
 * waits (fraction 0, no window) until the budget saved pays for an attach
 * and a detach (measured) and at least the smallest window; never below
 * BUDGET_MIN_FRACTION once BUDGET_SAVE_INTERVALS' budget is saved (over).
 */
void budget_plan(struct budget_state *st, const struct budget_in *in,
		 struct budget_plan *plan);

/*
 * A window throttled while the programs are attached outside it: whether
 * to detach them now, the test budget_plan() makes at the interval's end
 * (the runs with the gate closed against what the budget allows) made at
 * once, on @runs_per_s and the machine's @busy_per_s (CPU ns a second, a
 * CPU at least) measured since. mmap churn's runs that return at once
 * cost 3-4% of its CPU; a loop of forks trips in bursts, its runs cost a
 * tenth of the budget or less, and detached its forks would go untimed.
 */
bool budget_detach_now(const struct budget_plan *plan, double budget, double runs_per_s,
		       double busy_per_s);

/*
 * The trip (bpf/locks.bpf.c): the runs one CPU may make in the window in
 * a trip period before it closes at once. Twice what the budget allows of
 * a CPU kept busy, or twice the rate @st expects in the window where that
 * is more, plus BUDGET_BURST_SLACK: no work is within the budget past it,
 * and a burst pays for a millisecond, not until the sampler's next check.
 */
uint64_t budget_trip_runs(const struct budget_state *st, const struct budget_in *in);

#endif
