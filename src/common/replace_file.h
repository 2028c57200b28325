/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Writing a file whole or not at all: into a new file beside it, renamed
 * over it once complete. A reader never sees half of it, and a failed
 * write (a full disk) leaves what was there before.
 */
#ifndef MMTOP_REPLACE_FILE_H
#define MMTOP_REPLACE_FILE_H

#include <stdio.h>
#include <sys/types.h>

/* @write fills the stream: 0 or -errno. */
typedef int (*replace_writer)(FILE *f, void *ctx);

/* 0, or -errno (of creating, writing, closing or renaming); @path untouched then. */
int replace_file(const char *path, mode_t mode, replace_writer write, void *ctx);

#endif
