/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The live modes: the collector as a snapshot source, shown by the viewer
 * or printed in batch, optionally following a command.
 */
#ifndef MMTOP_LIVE_H
#define MMTOP_LIVE_H

#include <stdbool.h>

#include "batch.h"
#include "collect.h"
#include "follow.h"
#include "pid_filter.h"
#include "recset.h"
#include "rotation.h"

struct live_opts {
	struct batch_opts batch_opts;	/* interval, count, format */
	bool batch;			/* -b, or stdout is not a terminal */
	bool color;
	struct collector_opts collect;
	struct pid_filter pids;		/* -p; a command's tree is added */
	char **command;			/* -- COMMAND ARGS, or NULL */
	struct follow_user user;	/* --user: COMMAND runs as this user */
	bool given[128];		/* options given, by short code: each mode refuses others */
	const char *output;		/* -o FILE as given */
	const char *record;		/* mmtop record -o FILE, or NULL */
	const char *listen;		/* mmtop serve: ADDR:PORT, or NULL */
	const char *label;		/* --label, for compare */
	struct rotation rotate;		/* record --rotate: dir set to -o DIR */
	bool rotating;			/* --rotate given */
	struct rec_range range;		/* replay, report: --begin, --end */
	uint64_t duration_ns;		/* --duration: stop after it */
	bool print;			/* -b or -f given: print while recording */
	bool verbose;			/* -v: libbpf's messages */
};

int live_run(struct live_opts *o);

#endif
