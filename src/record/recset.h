/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Several recording files read as one: the files given, or the *.rec files
 * of a directory (a rotated recording), in the order their headers say
 * they started; optionally only the intervals inside a time range.
 */
#ifndef MMTOP_RECSET_H
#define MMTOP_RECSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "reader.h"

/* --begin/--end; 0: open. A time of day alone is on the first interval's day. */
struct rec_range {
	uint64_t begin_ns, end_ns;
	bool begin_tod, end_tod;
};

/* What replay and report read: files or directories, and a time range. */
struct rec_input {
	char **paths;
	int nr_paths;
	struct rec_range range;		/* --begin, --end */
};

/* Where an interval is, for seeking back to it. */
struct rec_pos {
	int file;
	size_t off;
};

struct rec_set {
	struct rec_reader *files;
	int nr, cur;
	struct rec_range range;
	bool resolved;			/* time-of-day bounds made absolute */
	struct rec_pos last;		/* where rec_set_next's snapshot was */
};

/*
 * Open @paths (files or directories) as one recording. 0; -1 with @err;
 * -2 when one is a newer major format.
 */
int rec_set_open(struct rec_set *set, char *const *paths, int n, FILE *warn,
		 char *err, size_t errlen);
/* The next snapshot inside the range: 1, or 0 at the end. */
int rec_set_next(struct rec_set *set, struct snapshot *s);
/* The next frame of @type (any file, no range): 1, or 0 at the end. */
int rec_set_next_of(struct rec_set *set, uint32_t type, const unsigned char **p,
		    size_t *len);
/* Where the next read starts (a snapshot's: set->last after reading it). */
struct rec_pos rec_set_tell(const struct rec_set *set);
void rec_set_seek(struct rec_set *set, struct rec_pos pos);
/* The first file's header value of @key, or "". */
const char *rec_set_header(const struct rec_set *set, const char *key, char *buf,
			   size_t len);
/*
 * Say on @f why @set gave no complete interval (@path: the first named):
 * none in the time range (@ranged: one was asked for), or workload samples
 * (bench --record), which are for compare, or none at all.
 */
void rec_set_say_empty(struct rec_set *set, const struct rec_input *in, FILE *f);
/* Open @in, its range set: 0, or the exit status (1, 2) with why on stderr. */
int rec_set_open_input(struct rec_set *set, const struct rec_input *in);
void rec_set_close(struct rec_set *set);
/* Stop reporting damage (it was reported once already). */
void rec_set_quiet(struct rec_set *set);

#endif
