// SPDX-License-Identifier: GPL-2.0
/* Interval values from cumulative BPF counters (src/collect/growth.c). */
#include <string.h>

#include "growth.h"
#include "unit.h"

static void test_grow(void)
{
	CHECK(grow(10, 4) == 6, "growth of a counter");
	CHECK(grow(4, 10) == 0, "a counter that went back (key re-created) grows by 0");
}

static void test_hist(void)
{
	__u64 now[SNAPSHOT_HIST_BUCKETS] = { 0 }, before[SNAPSHOT_HIST_BUCKETS] = { 0 };
	struct hist row = { { 0 } }, delta;

	now[3] = 7, before[3] = 5;
	now[9] = 2, before[9] = 4;	/* went back: 0, not a wrap */
	row.bucket[3] = 1;
	hist_add_growth(&row, &delta, now, before);
	CHECK(delta.bucket[3] == 2 && delta.bucket[9] == 0 && delta.bucket[0] == 0,
	      "histogram growth per bucket");
	CHECK(row.bucket[3] == 3, "added to the row's histogram");
}

static void test_interval_max(void)
{
	struct hist h = { { 0 } };
	bool bound;

	CHECK(interval_max(900, 500, &h, &bound, 900) == 900 && !bound,
	      "a new cumulative maximum is exact");
	CHECK(interval_max(500, 500, &h, &bound, 0) == 0 && !bound, "nothing this interval: 0, exactly");
	h.bucket[6] = 3;	/* waits in [64, 128) */
	CHECK(interval_max(500, 500, &h, &bound, 300) == 127 && bound,
	      "an old maximum: the top of the highest bucket filled, a bound");
	CHECK(interval_max(100, 100, &h, &bound, 300) == 100 && bound,
	      "never above the cumulative maximum");
	CHECK(interval_max(500, 500, &h, &bound, 90) == 90 && bound, "never above the interval's total");
	memset(&h, 0, sizeof(h));
	h.bucket[0] = 1;
	CHECK(interval_max(500, 500, &h, &bound, 1) == 1, "bucket 0: at most 1 ns");
	h.bucket[SNAPSHOT_HIST_BUCKETS - 1] = 1;
	CHECK(interval_max(5000000000ULL, 5000000000ULL, &h, &bound, 6000000000ULL) ==
	      (2ULL << 31) - 1, "the last bucket's top");
}

int main(void)
{
	test_grow();
	test_hist();
	test_interval_max();
	UNIT_EXIT();
}
