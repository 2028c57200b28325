/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading a recording, whatever state it is in: a torn last frame is
 * dropped with one warning; a damaged frame in the middle is reported
 * (offset, reason) and skipped by finding the next valid frame; unknown
 * frame types are skipped; a newer major version is refused.
 */
#ifndef MMTOP_READER_H
#define MMTOP_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "recfile.h"
#include "snapshot.h"

struct rec_reader {
	const unsigned char *map;	/* the file's bytes, read into memory */
	bool owned;			/* map is ours to free */
	char path[4096];		/* "" for a buffer */
	size_t size, off;
	unsigned int major, minor;
	char header[4096];		/* the HEADER frame's text */
	FILE *warn;			/* where damage is reported */
	unsigned long damaged;		/* frames reported */
	uint64_t last_seq;		/* the last interval read in order */
	size_t last_at;			/* its frame's offset; 0: none yet */
	struct rec_buf inflated;	/* the last SNAPSHOT_Z frame, inflated */
};

/*
 * 0; -1 with @err (unreadable, not a recording); -2 for a newer major.
 * The file is read, not mapped: a recording cut short while it is read
 * (a rotated file deleted, a file truncated) cannot crash the reader.
 */
int rec_open(struct rec_reader *r, const char *path, FILE *warn, char *err,
	     size_t errlen);
/*
 * Free the file's bytes but keep the header, and read them again (as the
 * file is now) before the next read: many files are opened, one is held.
 */
void rec_release(struct rec_reader *r);
int rec_reload(struct rec_reader *r);
/* The same over bytes in memory (kept by the caller until rec_close). */
int rec_open_buffer(struct rec_reader *r, const unsigned char *data, size_t size,
		    FILE *warn, char *err, size_t errlen);
/* The next snapshot: 1, or 0 at the end. @s: zeroed or a previous one. */
int rec_next(struct rec_reader *r, struct snapshot *s);
/*
 * The next frame of @type: 1 with its payload in *@p, *@len; 0 at the end.
 * Damage is handled as for rec_next.
 */
int rec_next_of(struct rec_reader *r, uint32_t type, const unsigned char **p,
		size_t *len);
void rec_close(struct rec_reader *r);
/* The value of @key in the header, or "". */
const char *rec_header(const struct rec_reader *r, const char *key, char *buf,
		       size_t len);

#endif
