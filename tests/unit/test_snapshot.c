// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "snapshot.h"
#include "unit.h"
#include "util.h"

static void test_rows(struct snapshot *s)
{
	struct lock_row *r = NULL;
	int i;

	for (i = 0; i < 100; i++)
		r = snapshot_push(&s->locks);
	CHECK(r && s->locks.nr == 100 && r->pid == 0, "rows grow and start zeroed");
	snapshot_clear_rows(s);
	CHECK(s->locks.nr == 0 && s->locks.cap >= 100, "clearing keeps the memory");
}

static void test_blame_holders(void)
{
	struct blame_row own = { .pid = 5, .holder_pid = 5 }, other = { .pid = 5, .holder_pid = 9 };
	struct blame_row none = { .pid = 5, .holder_symbol = BLAME_NONE_SEEN };
	char buf[12];

	CHECK(blame_holder_of(&own) == BLAME_OWN && !blame_foreign(&own), "own writer's wait");
	CHECK(blame_holder_of(&other) == BLAME_FOREIGN && blame_foreign(&other),
	      "another process's hold is foreign");
	CHECK(blame_holder_of(&none) == BLAME_NONE && !blame_foreign(&none),
	      "no holder seen: neither own nor foreign");
	CHECK(!strcmp(blame_holder_pid(&other, buf, sizeof(buf)), "9"), "a holder's pid in words");
	CHECK(!strcmp(blame_holder_pid(&none, buf, sizeof(buf)), "-"),
	      "no holder seen: \"-\", not pid 0");
}

static void test_sort_desc(void)
{
	struct fork_row f[3] = { { .latency_ns = 5 }, { .latency_ns = 1ULL << 40 }, { .latency_ns = 7 } };
	struct blame_row b[2] = { { .wait_ns = 1 }, { .wait_ns = 2 } };
	const struct fork_row *fp[3] = { &f[0], &f[1], &f[2] };
	const struct blame_row *bp[2] = { &b[0], &b[1] };

	ROWS_SORT_DESC(fp, 3, struct fork_row, latency_ns);
	CHECK(fp[0] == &f[1] && fp[1] == &f[2] && fp[2] == &f[0],
	      "rows sorted by their field, largest first (beyond 32 bits too)");
	ROWS_SORT_DESC(bp, 2, struct blame_row, wait_ns);
	CHECK(bp[0] == &b[1] && bp[1] == &b[0], "another row type, another field's place");
}

static void test_quantiles(void)
{
	struct hist h = { { 0 } };

	CHECK(hist_quantile(&h, 0.5, 0) == 0, "empty histogram: 0");
	h.bucket[10] = 100;	/* [1024, 2048) ns */
	CHECK(hist_quantile(&h, 0.5, 5000) == 1536, "p50 interpolates inside the bucket");
	CHECK(hist_quantile(&h, 0.99, 1100) == 1100, "quantiles never exceed the max");
	h.bucket[20] = 1;	/* one outlier near 1 ms */
	CHECK(hist_quantile(&h, 0.5, 2000000) < 2048, "p50 ignores the outlier");
	CHECK(hist_quantile(&h, 0.999, 2000000) >= 1 << 20, "p99.9 finds the outlier");
	CHECK(hist_quantile(&h, 1, 1500000) == 1500000, "q = 1: the max, inside the top bucket");
	CHECK(hist_quantile(&h, 1, UINT64_MAX) == 2 << 20, "q = 1 without a max: the top bucket's end");

	memset(&h, 0, sizeof(h));
	h.bucket[0] = 4;	/* waits of 0 or 1 ns */
	CHECK(hist_quantile(&h, 0, 1) == 0, "bucket 0: q = 0 is 0");
	CHECK(hist_quantile(&h, 0.5, 1) == 0, "bucket 0: p50 is 0, no wait (not 1 ns, its middle)");
	CHECK(hist_quantile(&h, 1, 1) == 0, "bucket 0: q = 1 is 0 as well");

	memset(&h, 0, sizeof(h));
	h.bucket[SNAPSHOT_HIST_BUCKETS - 1] = 3;	/* [2^31, 2^32) ns: seconds */
	CHECK(hist_quantile(&h, 0, UINT64_MAX) == 1ULL << 31, "last bucket: q = 0 is its start");
	CHECK(hist_quantile(&h, 1, UINT64_MAX) == 1ULL << 32, "last bucket: q = 1 is its end");
	CHECK(hist_quantile(&h, 1, 3000000000ULL) == 3000000000ULL, "last bucket: capped at the max");
}

int main(void)
{
	struct snapshot s;

	CHECK(!snapshot_init(&s, 4, 2), "snapshot for 4 CPUs, 2 nodes");
	s.interval_ns = NSEC_PER_SEC / 2;
	s.cpus[0] = (struct cpu_sample){ .online = true, .faults = { 100, 1 }, .fallbacks = 3 };
	s.cpus[1] = (struct cpu_sample){ .online = true, .faults = { 50, 0 }, .anon = 2 };
	s.cpus[2] = (struct cpu_sample){ .online = true, .node = 1, .faults = { 7, 2 } };
	s.cpus[3] = (struct cpu_sample){ .node = 1 };
	snapshot_sum(&s);
	CHECK(s.nodes[0].faults.min_flt == 150 && s.nodes[0].faults.maj_flt == 1,
	      "node 0 sums its CPUs");
	CHECK(s.nodes[1].faults.min_flt == 7 && s.nodes[1].nr_online == 1,
	      "node 1 sums its CPUs and counts online ones");
	CHECK(s.total.min_flt == 157 && s.total.maj_flt == 3, "totals");
	CHECK(s.nodes[0].fallbacks == 3 && s.nodes[0].anon == 2 && s.fallbacks == 3 &&
	      s.anon == 2, "fallbacks sum per node and in total");
	CHECK(fabs(snapshot_rate(&s, 157) - 314.0) < 1e-9, "rate over a 0.5 s interval");
	s.interval_ns = 0;
	CHECK(snapshot_rate(&s, 157) == 0, "no rate without an interval");
	snapshot_sum(&s);
	CHECK(s.total.min_flt == 157, "summing twice does not double count");
	s.drops[DROP_FLUSH] = 2;
	s.drops[DROP_READ] = 3;
	CHECK(snapshot_drops(&s) == 5, "drops add up");
	test_rows(&s);
	snapshot_free(&s);
	test_quantiles();
	test_blame_holders();
	test_sort_desc();
	UNIT_EXIT();
}
