// SPDX-License-Identifier: GPL-2.0
#include <linux/types.h>

#include "budget.h"
#include "mmtop.h"

/* What the interval showed of the programs' rates. */
static void learn(struct budget_state *st, const struct budget_in *in)
{
	double in_share;

	/*
	 * Detached, attached for a window only: a window's runs (the runs
	 * of a detach that followed it count, which errs towards cost).
	 */
	if (in->hooked > 0 && (!st->detached || in->window > 0))
		st->runs = in->runs / in->hooked;
	if (in->hook_ops)
		st->cycle_ns = 2.0 * (in->hook_ns + in->hook_others_ns) / in->hook_ops;
	/* A few runs' cost is the cold caches'. */
	if (in->runs < BUDGET_LEARN_RUNS)
		return;
	/*
	 * Detached or whole, every run counted was in a window (and so it is
	 * taken to be before what a run in it costs is known).
	 */
	if (st->detached || in->window >= in->hooked || !st->in_ns) {
		st->in_ns = (double)in->prog_ns / in->runs;
		return;
	}
	/*
	 * Attached throughout, runs in the window in proportion to it; not
	 * in a throttled one, which closed on a burst (a loop of forks': 6% of
	 * the interval with most of its runs, whose cost then came out as the
	 * runs' outside it).
	 */
	if (in->throttled)
		return;
	in_share = in->hooked > 0 ? in->window / in->hooked : 0;
	st->out_ns = (in->prog_ns - in->runs * in_share * st->in_ns) /
		     (in->runs * (1 - in_share));
	if (st->out_ns < 0)
		st->out_ns = 0;
}

/* Detached: save the budget up, and spend it on a window when it pays for one. */
static void plan_detached(struct budget_state *st, const struct budget_in *in,
			  double allowed, struct budget_plan *plan)
{
	double spent = in->prog_ns + (double)in->runs * BUDGET_FLOOR_NS + in->hook_ns +
		       in->hook_others_ns;
	double cycle = st->cycle_ns ? st->cycle_ns : BUDGET_CYCLE_GUESS_NS;
	double per = st->runs * (BUDGET_FLOOR_NS + st->in_ns);
	double cap = BUDGET_SAVE_INTERVALS * allowed;
	double f;

	/* What the last interval cost came out of what was saved (or is the first). */
	st->credit = st->detached ? st->credit + allowed - spent : allowed;
	if (st->credit > cap)
		st->credit = cap;
	st->detached = true;
	plan->detached = true;
	f = per > 0 ? (st->credit - cycle) / per : 1;
	if (f < BUDGET_MIN_FRACTION && st->credit >= cap) {
		plan->over = true;
		f = BUDGET_MIN_FRACTION;
	} else if (f < BUDGET_MIN_FRACTION) {
		f = 0;
	}
	plan->fraction = f < 1 ? f : 1;
	plan->window_cost = plan->fraction * per;
}

uint64_t budget_trip_runs(const struct budget_state *st, const struct budget_in *in)
{
	double period = (double)(1ULL << MMTOP_TRIP_PERIOD_SHIFT);
	double run_ns = (st->in_ns ? st->in_ns : BUDGET_RUN_GUESS_NS) + BUDGET_FLOOR_NS;
	double rate = in->budget, window_rate = 0;

	if (in->interval_ns)
		window_rate = st->runs * run_ns / in->interval_ns;
	if (window_rate > rate)
		rate = window_rate;
	return ((2 * rate + BUDGET_BURST_SLACK) * period) / run_ns + 1;
}

static void plan_window(struct budget_state *st, const struct budget_in *in,
			struct budget_plan *plan)
{
	double floor = (double)BUDGET_SLACK_NS_PER_S * in->interval_ns / 1e9;
	double allowed = in->budget * in->busy_ns;
	double entries, more, f;

	if (allowed < floor)
		allowed = floor;

	learn(st, in);
	*plan = (struct budget_plan){ .fraction = 1 };
	/* Attached throughout: every run's entry, and what the window adds. */
	entries = st->runs * (BUDGET_FLOOR_NS + st->out_ns);
	more = st->runs * (st->in_ns - st->out_ns);
	if (entries + more <= allowed) {
		st->detached = false;
		return;
	}
	f = more > 0 ? (allowed - entries) / more : 0;
	if (f >= BUDGET_MIN_FRACTION) {
		st->detached = false;
		plan->fraction = f;
		return;
	}
	plan_detached(st, in, allowed, plan);
}

void budget_plan(struct budget_state *st, const struct budget_in *in,
		 struct budget_plan *plan)
{
	plan_window(st, in, plan);
	plan->trip_runs = budget_trip_runs(st, in);
	plan->gated_run_ns = BUDGET_FLOOR_NS + st->out_ns;
}

bool budget_detach_now(const struct budget_plan *plan, double budget, double runs_per_s,
		       double busy_per_s)
{
	/* A CPU at least: the runs that tripped the window kept one busy. */
	if (busy_per_s < 1e9)
		busy_per_s = 1e9;
	return runs_per_s * plan->gated_run_ns > budget * busy_per_s;
}
