// SPDX-License-Identifier: GPL-2.0
/*
 * --format openmetrics and prometheus: every interval adds to totals since
 * start, and each interval is written as one complete exposition (the same
 * families `mmtop serve` offers), OpenMetrics 1.0 ending in "# EOF", or
 * text format 0.0.4. With -o FILE each interval replaces the file, for a
 * node_exporter textfile collector (which reads 0.0.4).
 */
#include <errno.h>
#include <stdlib.h>
#include <time.h>

#include <sys/utsname.h>

#include "exposition.h"
#include "metrics.h"
#include "output_common.h"
#include "util.h"

int write_metrics(struct output *o, const struct snapshot *s)
{
	uint64_t start = clock_ns(CLOCK_MONOTONIC);
	struct utsname u = { 0 };

	if (!o->metrics) {
		o->metrics = malloc(sizeof(*o->metrics));
		if (!o->metrics ||
		    metrics_init(o->metrics, o->top, o->pid_label, o->cgroup_depth)) {
			free(o->metrics);
			o->metrics = NULL;
			return -ENOMEM;
		}
	}
	if (metrics_add(o->metrics, s))
		return -ENOMEM;
	uname(&u);
	expo_write(o->f, o->metrics, o->format == OUTPUT_OPENMETRICS ? EXPO_OPENMETRICS :
		   EXPO_PROMETHEUS, u.release, start);
	return 0;
}
