// SPDX-License-Identifier: GPL-2.0
#include "growth.h"

uint64_t grow(uint64_t now, uint64_t before)
{
	return now >= before ? now - before : 0;
}

void hist_add_growth(struct hist *row, struct hist *delta, const __u64 *now,
		     const __u64 *before)
{
	int i;

	for (i = 0; i < SNAPSHOT_HIST_BUCKETS; i++) {
		delta->bucket[i] = grow(now[i], before[i]);
		row->bucket[i] += delta->bucket[i];
	}
}

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

uint64_t interval_max(uint64_t max, uint64_t prev_max, const struct hist *h, bool *bound,
		      uint64_t total)
{
	uint64_t m = 0;
	int i;

	*bound = false;
	if (max > prev_max)
		return max;
	/* No single wait exceeds the interval's sum of them either. */
	for (i = SNAPSHOT_HIST_BUCKETS - 1; i >= 0 && !m; i--)
		if (h->bucket[i])
			m = min_u64(min_u64((2ULL << i) - 1, max), total);
	/* 0: no wait at all, exactly. */
	*bound = m != 0;
	return m;
}
