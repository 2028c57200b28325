// SPDX-License-Identifier: GPL-2.0
/* Statistics against values computed independently. */
#include <math.h>

#include "stats.h"
#include "unit.h"

static int near(double a, double b, double tol)
{
	return fabs(a - b) <= tol;
}

int main(void)
{
	const double r[] = { 1, 2, 4 };
	const double a[] = { 19.8, 20.4, 19.6, 17.8, 18.5, 18.9, 18.3, 18.9, 19.5, 22.0 };
	const double b[] = { 28.2, 26.6, 20.1, 23.3, 25.2, 22.1, 17.7, 27.6, 20.6, 13.7,
			     23.2, 17.5, 20.6, 18.0, 23.9, 21.6, 24.3, 20.4, 24.0, 13.2 };
	const double same[] = { 5, 5, 5 };

	CHECK(near(stats_mean(r, 3), 7.0 / 3, 1e-12), "mean");
	CHECK(near(stats_hmean(r, 3), 3 / 1.75, 1e-12), "harmonic mean 1,2,4 = 12/7");
	{
		const double z[] = { 1, 0, 2, 4 }, none[] = { 0, 0 };

		CHECK(near(stats_hmean(z, 4), 3 / 1.75, 1e-12),
		      "harmonic mean of 1,0,2,4 leaves the 0 out: 12/7");
		CHECK(stats_hmean(none, 2) == 0, "harmonic mean of zeros alone: 0");
	}
	CHECK(near(stats_stddev(r, 3), 1.5275252316519468, 1e-12), "sample stddev");
	/*
	 * Welch: t = -2.2192, df = 24.496; p = 0.035972 by numerical
	 * integration of the t density (a check independent of the
	 * incomplete beta function used here).
	 */
	CHECK(near(stats_welch_p(a, 10, b, 20), 0.035972, 1e-5),
	      "Welch's t-test p (%.6f vs 0.035972)", stats_welch_p(a, 10, b, 20));
	CHECK(near(stats_welch_p(a, 10, a, 10), 1.0, 1e-9), "identical samples: p = 1");
	CHECK(stats_welch_p(same, 3, same, 3) == 1, "no variance, same mean: p = 1");
	CHECK(stats_welch_p(r, 1, r, 3) == 1, "one sample is not a test");
	CHECK(near(stats_ibeta(2, 3, 0.4), 0.5248, 1e-4), "incomplete beta I_0.4(2,3)");
	UNIT_EXIT();
}
