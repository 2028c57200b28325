/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Recording for days: `mmtop record -o DIR --rotate DURATION|SIZE --keep N`
 * writes mmtop-YYYYMMDD-HHMMSS.rec files (UTC, when each starts) into DIR,
 * each a complete recording with its own header, starts the next one after
 * the interval that reached the limit (no interval is lost or split) and
 * deletes the oldest files beyond N.
 */
#ifndef MMTOP_ROTATION_H
#define MMTOP_ROTATION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct rotation {
	const char *dir;
	uint64_t every_ns;		/* start a new file this often, or 0 */
	uint64_t max_bytes;		/* or when a file reaches this size, or 0 */
	unsigned int keep;		/* files kept, 0: all */
};

/* "1h", "30m", "1d" (a duration) or "100M", "1G", "512K" (a size); -1 if neither. */
int rotation_parse(const char *arg, struct rotation *r);
/* Create DIR (0700) if missing; -errno. */
int rotation_prepare(const struct rotation *r);
/* A name in DIR for a file starting at @wall_ns that does not exist yet. */
int rotation_path(const struct rotation *r, uint64_t wall_ns, char *path, size_t len);
/* Whether the file opened at @opened_ns, now @size bytes, is full. */
bool rotation_due(const struct rotation *r, uint64_t opened_ns, uint64_t now_ns,
		  uint64_t size);
/* Delete the oldest mmtop-*.rec files of DIR beyond keep. */
void rotation_prune(const struct rotation *r);

#endif
