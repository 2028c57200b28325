/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The recording file format (mmtop-recording(5)):
 *
 *   "MMTOPREC" u16 major u16 minor u32 zero		(16 bytes)
 *   frames: u32 type, u32 length, payload[length], u32 crc32
 *           (the CRC covers type, length and payload)
 *
 * All integers little-endian. The first frame is a HEADER (text lines
 * key=value); then one snapshot frame per interval: SNAPSHOT_Z (2.0: the
 * SNAPSHOT payload deflated on its own, so each frame still decodes alone)
 * or SNAPSHOT (1.x). Unknown frame types are skipped; a newer major version
 * is refused. Versioning: a new frame type or fields appended to a payload
 * bump the minor (older readers skip or ignore them); anything an older
 * reader would misread bumps the major.
 */
#ifndef MMTOP_RECFILE_H
#define MMTOP_RECFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "snapshot.h"

#define REC_MAGIC "MMTOPREC"
#define REC_MAJOR 2
#define REC_MINOR 10	/* 2.1: blame rows, slow waits' holders; 2.2: sized rows;
			 * 2.3: why the VMA-lock outcome is n/a; 2.4: whether
			 * a maximum is a bound (appended to lock, contention
			 * and blame rows); 2.5: the interval's sampled share,
			 * budget and mmtop's BPF cost (appended); 2.6: what
			 * the sampler's attaches and detaches cost (appended);
			 * 2.7: why the default set sees no mmap_lock waits
			 * (appended); 2.8: whom it blames them on (appended);
			 * 2.9: a slow event's lock mode (appended to it);
			 * 2.10: the cgroups of lock rows, blame rows and
			 * slow events, each side (appended to them), and
			 * why they are absent (appended) */
#define REC_FILE_HEADER 16
#define REC_FRAME_OVERHEAD 12		/* type, length, crc */
#define REC_MAX_FRAME (64u << 20)	/* larger lengths are corruption */

enum rec_frame_type {
	REC_HEADER = 1,
	REC_SNAPSHOT = 2,
	REC_SAMPLE = 3,		/* a workload's own result: metric=, value= lines */
	REC_SNAPSHOT_Z = 4,	/* u32 SNAPSHOT payload length, zlib stream of it */
};

/* A growable byte buffer for building payloads. */
struct rec_buf {
	unsigned char *data;
	size_t len, cap;
	bool failed;			/* out of memory somewhere */
	/*
	 * Integers as LEB128 varints (2.0 snapshots: most counts are small,
	 * most histogram buckets 0) instead of fixed 4 and 8 bytes (1.x).
	 */
	bool varint;
	/* Each row prefixed by its length, u32 (2.2): fields can be appended. */
	bool sized_rows;
};

/* How a snapshot payload is laid out, from the file's version. */
enum rec_layout {
	REC_VARINT = 1,		/* 2.0: integers as varints */
	REC_EXTRAS = 2,		/* 2.1: blame rows, fork method, holders appended */
	REC_SIZED_ROWS = 4,	/* 2.2: every row prefixed by its length */
	REC_VMA_NA = 8,		/* 2.3: the VMA-lock outcome's n/a, appended */
	REC_SAMPLING = 16,	/* 2.5: sampled share, budget, BPF cost, appended */
	REC_ATTACH = 32,	/* 2.6: the attaches' and detaches' cost, appended */
	REC_WAITS_NA = 64,	/* 2.7: why the default set has no waits, appended */
	REC_HOLDERS = 128,	/* 2.8: whom the default set blames, appended */
	REC_CGROUPS = 256,	/* 2.10: rows' cgroups; why none, appended */
};

unsigned int rec_layout_of(unsigned int major, unsigned int minor);

void rec_buf_free(struct rec_buf *b);
/* Serialise @s into @b (appending). */
void rec_put_snapshot(struct rec_buf *b, const struct snapshot *s);
/*
 * Parse a SNAPSHOT payload laid out as @layout (enum rec_layout bits, from
 * the file's version) into @s, initialised for its CPUs and nodes by this
 * call (free it with snapshot_free). A sized row shorter than this reader
 * expects (an older writer) reads its missing fields as 0; a longer one
 * (a newer writer) has the rest skipped. -1 if the payload is malformed
 * or cut short.
 */
int rec_get_snapshot(const unsigned char *p, size_t len, unsigned int layout,
		     struct snapshot *s);
/* @raw as a SNAPSHOT_Z payload, appended to @out. */
void rec_deflate(struct rec_buf *out, const struct rec_buf *raw);
/* A SNAPSHOT_Z payload inflated into @out (replacing it); -1 if malformed. */
int rec_inflate(const unsigned char *p, size_t len, struct rec_buf *out);
/* The whole frame for @type and @payload. */
void rec_put_frame(struct rec_buf *out, uint32_t type, const struct rec_buf *payload);

#endif
