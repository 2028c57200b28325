// SPDX-License-Identifier: GPL-2.0
/* compare's model: every metric of every run once, and like for like. */
#include <string.h>

#include "samples.h"
#include "unit.h"

int main(void)
{
	static struct run runs[3];
	struct comparison c;
	char w[256];

	workload_params("pft -t 1 --record /tmp/a.rec -s 16M --label base -r 3", w, sizeof(w));
	CHECK(!strcmp(w, "pft -t 1 -s 16M -r 3"), "workload without --record and --label (%s)", w);
	workload_params("", w, sizeof(w));
	CHECK(!w[0], "no workload: empty");

	run_add(&runs[0], "faults/sec-1", 10);
	run_add(&runs[0], "faults/cpu-1", 11);
	run_add(&runs[1], "faults/sec-2", 20);
	run_add(&runs[1], "faults/sec-1", 12);
	run_add(&runs[2], "fork-4k-us", 30);
	CHECK(!comparison_init(&c, runs, 3), "comparison made");
	CHECK(c.nr == 4, "the union of the runs' metrics, each once (%d)", c.nr);
	CHECK(c.nr == 4 && !strcmp(c.names[0], "faults/sec-1") && !strcmp(c.names[1], "faults/cpu-1") &&
	      !strcmp(c.names[2], "faults/sec-2") && !strcmp(c.names[3], "fork-4k-us"),
	      "the base's first, in its order, then each new one");
	CHECK(!comparison_get(&c, 0, 2) && comparison_get(&c, 1, 2) &&
	      comparison_get(&c, 1, 2)->v[0] == 20, "a metric a run lacks is NULL there");
	CHECK(!c.workloads_differ, "no workloads: not different");
	comparison_free(&c);

	snprintf(runs[1].workload, sizeof(runs[1].workload), "pft -t 2");
	CHECK(!comparison_init(&c, runs, 2) && c.workloads_differ, "different workloads noticed");
	comparison_free(&c);
	run_free(&runs[0]);
	run_free(&runs[1]);
	run_free(&runs[2]);
	UNIT_EXIT();
}
