/* SPDX-License-Identifier: GPL-2.0 */
/* Statistics for reports and comparisons: means and Welch's t-test. */
#ifndef MMTOP_STATS_H
#define MMTOP_STATS_H

#include <stddef.h>

double stats_mean(const double *v, size_t n);
/*
 * Harmonic mean: for rates (faults/sec), over the values above 0 (a 0,
 * an interval with none, would make it 0 whatever the others, as
 * mmtests leaves such out); 0 if none is.
 */
double stats_hmean(const double *v, size_t n);
/* Sample standard deviation (n - 1). */
double stats_stddev(const double *v, size_t n);
/*
 * Two-sided p-value of Welch's two-sample t-test of the means of @a and
 * @b; 1 when either has fewer than two samples or no variance at all.
 */
double stats_welch_p(const double *a, size_t na, const double *b, size_t nb);
/* Regularised incomplete beta I_x(a, b), for the t distribution. */
double stats_ibeta(double a, double b, double x);

#endif
