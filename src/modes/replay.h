/* SPDX-License-Identifier: GPL-2.0 */
/* `mmtop replay`: a recording as a snapshot source, for the same sinks. */
#ifndef MMTOP_REPLAY_H
#define MMTOP_REPLAY_H

#include <stdbool.h>

#include "batch.h"
#include "recset.h"

struct replay_opts {
	struct rec_input in;
	bool batch;
	bool color;
	struct batch_opts batch_opts;	/* format; interval 0: as recorded */
};

/* Exit status: 0, 1 (unreadable), 2 (a newer format). */
int replay_run(const struct replay_opts *o);

#endif
