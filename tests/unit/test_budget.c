// SPDX-License-Identifier: GPL-2.0
#include <math.h>

#include "budget.h"
#include "unit.h"

#define MS 1000000ULL

static double fraction(uint64_t prog_ns, uint64_t runs, double window, uint64_t busy,
		       bool *over)
{
	const struct budget_in in = {
		.budget = 0.01, .prog_ns = prog_ns, .runs = runs, .window = window,
		.busy_ns = busy, .interval_ns = 0,
	};

	return budget_fraction(&in, over);
}

int main(void)
{
	bool over;
	double f;

	f = fraction(0, 0, 1, 1000 * MS, &over);
	CHECK(f == 1 && !over, "nothing run: the whole interval next");
	f = fraction(5 * MS, 1000, 1, 1000 * MS, &over);
	CHECK(f == 1 && !over, "0.5%% of the work's CPU with the window whole: exact");
	/* 10 ms of programs in a window of 1/30: 300 ms whole, 30% of 1 s. */
	f = fraction(10 * MS, 0, 1.0 / 30, 1000 * MS, &over);
	CHECK(fabs(f - 1.0 / 30) < 1e-9 && !over, "30%% whole: a window of 1/30 (%.4f)", f);
	f = fraction(10 * MS, 0, 1.0 / 30, 2000 * MS, &over);
	CHECK(fabs(f - 2.0 / 30) < 1e-9, "twice the CPU in use: twice the window (%.4f)", f);
	/* 100,000 runs pay 4 ms of entries: 6 ms left of the budget's 10. */
	f = fraction(10 * MS, 100000, 1.0 / 30, 1000 * MS, &over);
	CHECK(fabs(f - 0.6 / 30) < 1e-9 && !over, "the entries come off the budget first (%.4f)", f);
	f = fraction(1 * MS, 300000, 0.1, 1000 * MS, &over);
	CHECK(f == BUDGET_MIN_FRACTION && over, "entries alone over the budget: the smallest window, said");
	f = fraction(500 * MS, 0, 0.01, 1000 * MS, &over);
	CHECK(f == BUDGET_MIN_FRACTION && over, "beyond the smallest window: the budget is exceeded, said");
	f = fraction(10 * MS, 0, 0, 1000 * MS, &over);
	CHECK(f == 1 && !over, "no window last interval: the whole next one");
	{
		const struct budget_in idle = {
			.budget = 0.01, .prog_ns = 20000, .runs = 100, .window = 0.2,
			.busy_ns = 5 * MS, .interval_ns = 1000 * MS,
		};

		f = budget_fraction(&idle, &over);
		CHECK(f == 1 && !over, "an idle machine: 100 us a second of programs whole is no cost");
	}
	UNIT_EXIT();
}
