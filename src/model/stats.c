// SPDX-License-Identifier: GPL-2.0
#include <math.h>

#include "stats.h"

double stats_mean(const double *v, size_t n)
{
	double sum = 0;
	size_t i;

	for (i = 0; i < n; i++)
		sum += v[i];
	return n ? sum / n : 0;
}

double stats_hmean(const double *v, size_t n)
{
	double inv = 0;
	size_t i, used = 0;

	for (i = 0; i < n; i++) {
		if (v[i] <= 0)
			continue;
		inv += 1 / v[i];
		used++;
	}
	return used ? used / inv : 0;
}

double stats_stddev(const double *v, size_t n)
{
	double m = stats_mean(v, n), sq = 0;
	size_t i;

	if (n < 2)
		return 0;
	for (i = 0; i < n; i++)
		sq += (v[i] - m) * (v[i] - m);
	return sqrt(sq / (n - 1));
}

/* The continued fraction of the incomplete beta function (Lentz). */
static double beta_cf(double a, double b, double x)
{
	const double tiny = 1e-300, eps = 1e-14;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;
	int m;

	d = fabs(d) < tiny ? tiny : d;
	d = 1 / d;
	h = d;
	for (m = 1; m <= 300; m++) {
		double m2 = 2.0 * m, num, delta;

		num = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
		d = 1 + num * d;
		d = fabs(d) < tiny ? tiny : d;
		c = 1 + num / c;
		c = fabs(c) < tiny ? tiny : c;
		d = 1 / d;
		h *= d * c;
		num = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
		d = 1 + num * d;
		d = fabs(d) < tiny ? tiny : d;
		c = 1 + num / c;
		c = fabs(c) < tiny ? tiny : c;
		d = 1 / d;
		delta = d * c;
		h *= delta;
		if (fabs(delta - 1) < eps)
			break;
	}
	return h;
}

double stats_ibeta(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	/* The fraction converges fast on this side; use the symmetry otherwise. */
	if (x < (a + 1) / (a + b + 2))
		return front * beta_cf(a, b, x) / a;
	return 1 - front * beta_cf(b, a, 1 - x) / b;
}

double stats_welch_p(const double *a, size_t na, const double *b, size_t nb)
{
	double va, vb, se2, t, df;

	if (na < 2 || nb < 2)
		return 1;
	va = stats_stddev(a, na);
	vb = stats_stddev(b, nb);
	va *= va;
	vb *= vb;
	se2 = va / na + vb / nb;
	if (se2 <= 0)
		return stats_mean(a, na) == stats_mean(b, nb) ? 1 : 0;
	t = (stats_mean(a, na) - stats_mean(b, nb)) / sqrt(se2);
	df = se2 * se2 / (va * va / ((double)na * na * (na - 1)) +
			  vb * vb / ((double)nb * nb * (nb - 1)));
	/* P(|T| > |t|) for Student's t with df degrees of freedom. */
	return stats_ibeta(df / 2, 0.5, df / (df + t * t));
}
