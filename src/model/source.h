/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where sinks get snapshots from: the collector live (src/modes/live.c) or
 * a recording (src/modes/replay.c). Sinks (batch output, the viewer) only
 * see this.
 */
#ifndef MMTOP_SOURCE_H
#define MMTOP_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "snapshot.h"

struct snapshot_source {
	void *ctx;
	int (*snapshot_init)(void *ctx, struct snapshot *s);
	/* Fill @s with the interval that just ended. */
	void (*sample)(void *ctx, struct snapshot *s);
	/*
	 * Called between samples when poll_fd is readable (records arrived)
	 * and at least every 100 ms; may be NULL.
	 */
	void (*poll)(void *ctx);
	/* A descriptor that becomes readable when records arrive, or -1. */
	int (*poll_fd)(void *ctx);
	/* A short note for headers (the followed command), or "". */
	const char *(*status)(void *ctx);
	/* Nothing more to come (the followed command has exited). */
	bool (*done)(void *ctx);
	/*
	 * Live only (NULL in replay): exact mode on if off, off if on; 0, or
	 * -1 with the reason in @msg.
	 */
	int (*toggle_exact)(void *ctx, char *msg, size_t len);
	/* A sink behind the source failed (a recording hit a full disk). */
	bool (*failed)(void *ctx);
	/*
	 * Recordings only (NULL live): go to interval @i (the next sample
	 * returns it), where the next sample is, the recorded interval.
	 */
	void (*seek)(void *ctx, long i);
	long (*position)(void *ctx);
	uint64_t (*recorded_interval)(void *ctx);
};

#endif
