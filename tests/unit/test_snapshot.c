// SPDX-License-Identifier: GPL-2.0
#include <math.h>

#include "snapshot.h"
#include "unit.h"
#include "util.h"

int main(void)
{
	struct snapshot s;

	CHECK(!snapshot_init(&s, 4, 2), "snapshot for 4 CPUs, 2 nodes");
	s.interval_ns = NSEC_PER_SEC / 2;
	s.cpus[0] = (struct cpu_sample){ true, 0, { 100, 1 } };
	s.cpus[1] = (struct cpu_sample){ true, 0, { 50, 0 } };
	s.cpus[2] = (struct cpu_sample){ true, 1, { 7, 2 } };
	s.cpus[3] = (struct cpu_sample){ false, 1, { 0, 0 } };
	snapshot_sum(&s);
	CHECK(s.nodes[0].faults.min_flt == 150 && s.nodes[0].faults.maj_flt == 1,
	      "node 0 sums its CPUs");
	CHECK(s.nodes[1].faults.min_flt == 7 && s.nodes[1].nr_online == 1,
	      "node 1 sums its CPUs and counts online ones");
	CHECK(s.total.min_flt == 157 && s.total.maj_flt == 3, "totals");
	CHECK(fabs(snapshot_rate(&s, 157) - 314.0) < 1e-9, "rate over a 0.5 s interval");
	s.interval_ns = 0;
	CHECK(snapshot_rate(&s, 157) == 0, "no rate without an interval");
	snapshot_sum(&s);
	CHECK(s.total.min_flt == 157, "summing twice does not double count");
	s.drops[DROP_FLUSH] = 2;
	s.drops[DROP_READ] = 3;
	CHECK(snapshot_drops(&s) == 5, "drops add up");
	snapshot_free(&s);
	UNIT_EXIT();
}
