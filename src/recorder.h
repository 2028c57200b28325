/* SPDX-License-Identifier: GPL-2.0 */
/* Writing a recording: the header, then a frame per interval. */
#ifndef MMTOP_RECORDER_H
#define MMTOP_RECORDER_H

#include <stddef.h>
#include <sys/types.h>

#include "snapshot.h"

struct recorder {
	int fd;
	off_t good;		/* end of the last complete frame */
	unsigned long frames;
};

/*
 * Create @path (mode 0600) and write the file header and the HEADER frame
 * (@header: key=value lines). 0, or -1 with the reason in @err.
 */
int recorder_open(struct recorder *r, const char *path, const char *header,
		  char *err, size_t errlen);
/*
 * Append one SNAPSHOT frame with a single write. On a write error (a full
 * disk) the file is cut back to its last complete frame: -errno.
 */
int recorder_write(struct recorder *r, const struct snapshot *s);
/* Append a SAMPLE frame (text lines metric=NAME, value=NUMBER). */
int recorder_sample(struct recorder *r, const char *metric, double value);
void recorder_close(struct recorder *r);

#endif
