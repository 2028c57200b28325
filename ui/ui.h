/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The interactive viewer. It draws snapshots and nothing else: where they
 * come from (the collector live, later a recording) is the source's
 * business, so the views never see libbpf.
 */
#ifndef MMTOP_UI_H
#define MMTOP_UI_H

#include <stdbool.h>
#include <stdint.h>

#include "source.h"

struct ui_opts {
	uint64_t interval_ns;
	bool color;
	const char *mode;		/* LIVE */
	unsigned int count;		/* -n, --duration: intervals, then quit; 0: no end */
};

/*
 * Run until q or SIGINT/SIGTERM/SIGHUP; the terminal is restored on every
 * way out. Returns the exit status: 0, or 1 with the reason on stderr.
 */
int ui_run(const struct ui_opts *opts, const struct snapshot_source *src);

#endif
