// SPDX-License-Identifier: GPL-2.0
#include "budget.h"

double budget_fraction(const struct budget_in *in, bool *over)
{
	double allowed = in->budget * in->busy_ns +
			 (double)BUDGET_SLACK_NS_PER_S * in->interval_ns / 1e9;
	double floor = (double)in->runs * BUDGET_FLOOR_NS;
	double f;

	*over = floor > allowed;
	if (*over)
		return BUDGET_MIN_FRACTION;
	/* Nothing learnt of the window's cost: all of it (the throttle guards). */
	if (in->window <= 0 || !in->prog_ns)
		return 1;
	/* What a whole interval's window would cost beyond the entries. */
	f = (allowed - floor) / (in->prog_ns / in->window);
	if (f >= 1)
		return 1;
	if (f < BUDGET_MIN_FRACTION) {
		*over = true;
		return BUDGET_MIN_FRACTION;
	}
	return f;
}
