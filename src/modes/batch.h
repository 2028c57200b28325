/* SPDX-License-Identifier: GPL-2.0 */
/* The batch loop: a snapshot source -> one output sink, once per interval. */
#ifndef MMTOP_BATCH_H
#define MMTOP_BATCH_H

#include <stdbool.h>
#include <stdint.h>

#include "output.h"
#include "source.h"

struct batch_opts {
	uint64_t interval_ns;
	unsigned int count;		/* intervals to print; 0 = until stopped */
	enum output_format format;
	bool quiet;			/* no output (recording only) */
	const char *path;		/* -o FILE: replaced each interval, or NULL */
	int top;			/* openmetrics: per-process series kept */
	bool pid_label;			/* ... keyed by pid and comm, not comm */
	int cgroup_depth;		/* ... and blame waits by cgroup pair, cut to
					 * this many levels; 0: not */
	/* Instead of printing: hand each interval to a sink (mmtop serve). */
	int (*sink)(void *ctx, const struct snapshot *s);
	void *sink_ctx;
	bool no_wait;			/* replay: no sleeping between intervals */
};

/* Exit status: 0 (done, or stopped by SIGINT/SIGTERM/SIGHUP), 1 on error. */
int batch_run(const struct batch_opts *opts, const struct snapshot_source *src);

#endif
