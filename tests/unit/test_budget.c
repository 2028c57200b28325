// SPDX-License-Identifier: GPL-2.0
#include <math.h>

#include "budget.h"
#include "unit.h"

#define MS 1000000ULL

/* One interval of 1 s with 1 s of the work's CPU: a budget of 10 ms (the slack a floor). */
static struct budget_plan plan(struct budget_state *st, uint64_t prog_ns, uint64_t runs,
			       double window, double hooked)
{
	const struct budget_in in = {
		.budget = 0.01, .prog_ns = prog_ns, .runs = runs, .window = window,
		.hooked = hooked, .busy_ns = 1000 * MS, .interval_ns = 1000 * MS,
	};
	struct budget_plan p;

	budget_plan(st, &in, &p);
	return p;
}

int main(void)
{
	struct budget_state st = { 0 };
	struct budget_plan p;
	double saved;
	int i;

	p = plan(&st, 0, 0, 1, 1);
	CHECK(p.fraction == 1 && !p.detached && !p.over, "nothing run: the whole interval next");
	p = plan(&st, 5 * MS, 10000, 1, 1);
	CHECK(p.fraction == 1 && !p.detached, "5.4 ms of 10 whole: exact, attached");
	/* Over 1% of the work, under 1% and the idle machine's slack: not exact. */
	st = (struct budget_state){ 0 };
	p = plan(&st, 10 * MS, 10000, 1, 1);
	CHECK(!p.detached && p.fraction < 1,
	      "10.4 ms of 10 whole: a window, the slack a floor and not more (%.4f)", p.fraction);
	/* 10000 runs of 2 us whole, and 0.4 ms of entries: partial. */
	st = (struct budget_state){ 0 };
	p = plan(&st, 20 * MS, 10000, 1, 1);
	CHECK(!p.detached && fabs(p.fraction - (10 - 0.4) / 20) < 1e-9,
	      "20 ms whole, the entries first: a window of 9.6/20 (%.4f)", p.fraction);
	/* In the window 2 us a run, outside it 0.2 us: learnt from a partial interval. */
	p = plan(&st, (uint64_t)(5000 * 2000 + 5000 * 200), 10000, 0.5, 1);
	CHECK(fabs(st.out_ns - 200) < 1e-6, "a run outside the window: 200 ns (%.1f)", st.out_ns);
	{
		/* A window throttled at 6% with 9000 of the 10000 runs in it. */
		struct budget_state th = st;
		struct budget_plan tp;
		const struct budget_in in = {
			.budget = 0.01, .prog_ns = 9000 * 2000 + 1000 * 200, .runs = 10000,
			.window = 0.06, .hooked = 1, .throttled = true,
			.busy_ns = 1000 * MS, .interval_ns = 1000 * MS,
		};

		budget_plan(&th, &in, &tp);
		CHECK(th.out_ns == st.out_ns,
		      "a throttled window's runs are not in proportion to it: nothing learnt outside it (%.1f)",
		      th.out_ns);
	}
	CHECK(!p.detached && fabs(p.fraction - (10 - 2.4) / 18) < 1e-9,
	      "the runs outside it paid first (%.4f)", p.fraction);
	/* 300000 runs at 100 ns, 60 ns outside: entries alone 30 ms, over 10. */
	st = (struct budget_state){ 0 };
	p = plan(&st, 30 * MS, 300000, 1, 1);
	CHECK(p.detached && p.fraction == 0 && !p.over,
	      "entries over the budget: detached, no window until it is saved up");
	saved = st.credit;
	p = plan(&st, 0, 0, 0, 0);
	CHECK(p.detached && st.credit > saved, "an interval with no window saves (%.0f > %.0f)",
	      st.credit, saved);
	for (i = 0; i < 10 && p.fraction == 0; i++)
		p = plan(&st, 0, 0, 0, 0);
	CHECK(p.fraction >= BUDGET_MIN_FRACTION && p.detached && !p.over,
	      "then a window, when the saved budget pays an attach and a detach (%d more)", i);
	CHECK(fabs(p.window_cost - p.fraction * 300000 * (BUDGET_FLOOR_NS + 100)) < 1,
	      "its cost: the window's runs, entries included (%.0f)", p.window_cost);
	/*
	 * The cycle measured: 5 ms of mmtop's an attach or a detach, and at
	 * most 3 ms of the other CPUs' each; a window spent.
	 */
	{
		const struct budget_in in = {
			.budget = 0.01, .prog_ns = 3 * MS, .runs = 30000, .window = 0.1,
			.hooked = 0.1, .hook_ns = 10 * MS, .hook_others_ns = 6 * MS,
			.hook_ops = 2, .busy_ns = 1000 * MS, .interval_ns = 1000 * MS,
		};

		budget_plan(&st, &in, &p);
		CHECK(st.cycle_ns == 16 * MS,
		      "a cycle: an attach and a detach, the other CPUs' time included (%.0f)",
		      st.cycle_ns);
		CHECK(p.detached, "still detached: the window's runs are as many as before");
	}
	{
		/* Throttled attached: 40 ns an entry, 10 outside the window. */
		const struct budget_plan th = { .gated_run_ns = 50 };

		CHECK(!budget_detach_now(&th, 0.01, 50000, 1e9),
		      "a loop of forks, 50000 runs a second of a busy CPU: 2.5 ms of 10, stays attached");
		CHECK(budget_detach_now(&th, 0.01, 600000, 1e9),
		      "churn, 600000 runs a second of a busy CPU: 30 ms of 10, detached");
		CHECK(!budget_detach_now(&th, 0.01, 600000, 4e9),
		      "the same of four busy CPUs: 30 ms of 40, stays attached");
		CHECK(!budget_detach_now(&th, 0.01, 150000, 0),
		      "busy read as none (ticks): a CPU, 7.5 ms of 10, stays attached");
		CHECK(budget_detach_now(&th, 0.01, 250000, 0),
		      "busy read as none: 12.5 ms of 10, detached");
	}
	/* A cycle that no saving can pay: the smallest window, over. */
	st = (struct budget_state){ .cycle_ns = 200 * MS };
	p = plan(&st, 30 * MS, 300000, 1, 1);
	for (i = 0; i < BUDGET_SAVE_INTERVALS + 1 && !p.over; i++)
		p = plan(&st, 0, 0, 0, 0);
	CHECK(p.over && p.fraction == BUDGET_MIN_FRACTION,
	      "a cycle dearer than all it may save: the smallest window, over budget");
	/* The work calms down: back to attached, whole. */
	p = plan(&st, 100000, 1000, 0.5, 0.5);
	CHECK(!p.detached && p.fraction == 1, "a quiet window: attached again, the whole interval");
	{
		struct budget_state idle = { 0 };
		const struct budget_in in = {
			.budget = 0.01, .prog_ns = 20000, .runs = 100, .window = 1, .hooked = 1,
			.busy_ns = 5 * MS, .interval_ns = 1000 * MS,
		};

		budget_plan(&idle, &in, &p);
		CHECK(p.fraction == 1 && !p.over, "an idle machine: 100 us a second of programs whole is no cost");
	}
	{
		/* A trip period's budget of a busy CPU, twice, and the slack. */
		double period = 1 << 22, allowed = (2 * 0.01 + BUDGET_BURST_SLACK) * period;
		struct budget_state fresh = { 0 }, quiet = { .in_ns = 160, .runs = 1000 };
		struct budget_state churn = { .in_ns = 160, .runs = 2e6, .detached = true };
		const struct budget_in in = { .budget = 0.01, .interval_ns = 1000 * MS };

		CHECK(fabs(budget_trip_runs(&fresh, &in) -
			   (allowed / (BUDGET_RUN_GUESS_NS + BUDGET_FLOOR_NS) + 1)) < 1,
		      "the trip before a run's cost is known: the guess (%llu)",
		      (unsigned long long)budget_trip_runs(&fresh, &in));
		CHECK(fabs(budget_trip_runs(&quiet, &in) - (allowed / 200 + 1)) < 1,
		      "a quiet machine: the budget's share of a CPU, %llu runs in 4 ms",
		      (unsigned long long)budget_trip_runs(&quiet, &in));
		/* 2e6 runs a second of 200 ns: the window spends 40% of a CPU. */
		CHECK(fabs(budget_trip_runs(&churn, &in) - ((2 * 0.4 + BUDGET_BURST_SLACK) * period / 200 + 1)) < 1,
		      "a window planned at churn's rate trips at twice it (%llu)",
		      (unsigned long long)budget_trip_runs(&churn, &in));
		budget_plan(&quiet, &(struct budget_in){ .budget = 0.01, .interval_ns = 1000 * MS,
							 .busy_ns = 1000 * MS }, &p);
		CHECK(p.trip_runs == budget_trip_runs(&quiet, &(struct budget_in){ .budget = 0.01,
			.interval_ns = 1000 * MS }), "the plan carries the trip");
	}
	UNIT_EXIT();
}
