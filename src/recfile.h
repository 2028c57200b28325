/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The recording file format (mmtop(8), FILE FORMAT):
 *
 *   "MMTOPREC" u16 major u16 minor u32 zero		(16 bytes)
 *   frames: u32 type, u32 length, payload[length], u32 crc32
 *           (the CRC covers type, length and payload)
 *
 * All integers little-endian. The first frame is a HEADER (text lines
 * key=value); then one SNAPSHOT frame per interval. Unknown frame types
 * are skipped; a newer major version is refused.
 */
#ifndef MMTOP_RECFILE_H
#define MMTOP_RECFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "snapshot.h"

#define REC_MAGIC "MMTOPREC"
#define REC_MAJOR 1
#define REC_MINOR 0
#define REC_FILE_HEADER 16
#define REC_FRAME_OVERHEAD 12		/* type, length, crc */
#define REC_MAX_FRAME (64u << 20)	/* larger lengths are corruption */

enum rec_frame_type {
	REC_HEADER = 1,
	REC_SNAPSHOT = 2,
	REC_SAMPLE = 3,		/* a workload's own result: metric=, value= lines */
};

/* A growable byte buffer for building payloads. */
struct rec_buf {
	unsigned char *data;
	size_t len, cap;
	bool failed;			/* out of memory somewhere */
};

void rec_buf_free(struct rec_buf *b);
/* Serialise @s into @b (appending). */
void rec_put_snapshot(struct rec_buf *b, const struct snapshot *s);
/*
 * Parse a SNAPSHOT payload into @s, initialised for its CPUs and nodes by
 * this call (free it with snapshot_free). -1 if the payload is malformed.
 */
int rec_get_snapshot(const unsigned char *p, size_t len, struct snapshot *s);
/* The whole frame for @type and @payload. */
void rec_put_frame(struct rec_buf *out, uint32_t type, const struct rec_buf *payload);

#endif
