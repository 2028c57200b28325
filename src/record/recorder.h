/* SPDX-License-Identifier: GPL-2.0 */
/* Writing a recording: the header, then a frame per interval. */
#ifndef MMTOP_RECORDER_H
#define MMTOP_RECORDER_H

#include <limits.h>
#include <stddef.h>
#include <sys/types.h>

#include "snapshot.h"

struct recorder {
	int fd;
	off_t good;		/* end of the last complete frame */
	unsigned long frames;
	const char *path;
	char tmp[PATH_MAX];	/* the new file until it is renamed to path */
};

/*
 * Start a recording for @path: a new file (mode 0600) beside it, under a
 * temporary name. Nothing at @path is opened or followed: whatever is
 * there (a file of another owner or mode, a symlink, a FIFO) is replaced
 * by recorder_start's rename, never written through. 0, or -1 with the
 * reason in @err (@path a directory, no such directory, no permission).
 */
int recorder_create(struct recorder *r, const char *path, char *err, size_t errlen);
/*
 * Write the file header and the HEADER frame (@header: key=value lines),
 * then rename the file to its path. 0, or -1 with @err (the file removed).
 */
int recorder_start(struct recorder *r, const char *header, char *err, size_t errlen);
/* recorder_create and recorder_start in one. */
int recorder_open(struct recorder *r, const char *path, const char *header,
		  char *err, size_t errlen);
/*
 * Append one SNAPSHOT frame with a single write. On a write error (a full
 * disk) the file is cut back to its last complete frame: -errno.
 */
int recorder_write(struct recorder *r, const struct snapshot *s);
/* Append a SAMPLE frame (text lines metric=NAME, value=NUMBER). */
int recorder_sample(struct recorder *r, const char *metric, double value);
/* Close; a recording never started leaves no file behind. */
void recorder_close(struct recorder *r);

#endif
