// SPDX-License-Identifier: GPL-2.0
/* compare's model: every metric of every run once, and like for like. */
#include <stdio.h>
#include <string.h>

#include "kernel_features.h"
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
	/* What the kernels had: a line per feature they differ in, unknown where a recording does not say. */
	{
		static struct run k[2];
		const char *a[KFEAT__COUNT] = { "none", "no", "fentry", "" };
		const char *b[KFEAT__COUNT] = { "rwsem", "no", "fentry", "" };
		char line[512], tok[32];

		snprintf(k[0].label, sizeof(k[0].label), "6.1");
		snprintf(k[1].label, sizeof(k[1].label), "6.12");
		kernel_features_put(a, k[0].kernel_has, sizeof(k[0].kernel_has));
		kernel_features_put(b, k[1].kernel_has, sizeof(k[1].kernel_has));
		kernel_features_get(k[1].kernel_has, KFEAT_LACKING, tok, sizeof(tok));
		CHECK(!strcmp(tok, "-"), "nothing lacking written as - (%s)", tok);
		CHECK(!comparison_init(&c, k, 2), "comparison of two kernels made");
		CHECK(comparison_kernel_line(&c, KFEAT_VMA_LOCK, line, sizeof(line)) &&
		      !strcmp(line, "per-VMA lock: 6.1 none (before 6.4, or without CONFIG_PER_VMA_LOCK); 6.12 an rwsem (vm_lock)"),
		      "the VMA lock differs, in words (%s)", line);
		CHECK(!comparison_kernel_line(&c, KFEAT_FORK_HOOK, line, sizeof(line)),
		      "the fork hook alike: no line");
		k[0].kernel_has[0] = '\0';
		CHECK(comparison_kernel_line(&c, KFEAT_FORK_HOOK, line, sizeof(line)) &&
		      strstr(line, "6.1 unknown (its recording does not say); 6.12 kernel_clone (fentry)"),
		      "an older recording: unknown (%s)", line);
		comparison_free(&c);
	}
	/* A change from a base of 0 is no percentage. */
	{
		static struct run z[2];
		char change[32];

		run_add(&z[0], "interval-vma-lock-served-%", 0);
		run_add(&z[1], "interval-vma-lock-served-%", 98);
		CHECK(!strcmp(metric_change(&z[0].m[0], &z[1].m[0], change, sizeof(change)), "from 0"),
		      "from a base of 0: said so (%s)", change);
		CHECK(!strcmp(metric_change(&z[0].m[0], &z[0].m[0], change, sizeof(change)), "0.00%"),
		      "0 against 0: no change (%s)", change);
		CHECK(!strcmp(metric_rel(&z[0].m[0], &z[1].m[0], change, sizeof(change)), "from 0"),
		      "mean_rel from a base of 0: said so, as the text does (%s)", change);
		CHECK(!strcmp(metric_rel(&z[0].m[0], &z[0].m[0], change, sizeof(change)), "0.0% (0.0%)"),
		      "mean_rel of 0 against 0: no change (%s)", change);
		CHECK(!strcmp(metric_rel(&z[1].m[0], &z[1].m[0], change, sizeof(change)), "0.0% (0.0%)"),
		      "mean_rel against itself: no change (%s)", change);
		run_free(&z[0]);
		run_free(&z[1]);
	}
	UNIT_EXIT();
}
