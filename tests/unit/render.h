/* SPDX-License-Identifier: GPL-2.0 */
/* Snapshots rendered by the batch sinks, for the unit tests to read. */
#ifndef MMTOP_TESTS_RENDER_H
#define MMTOP_TESTS_RENDER_H

#include <stdio.h>

#include "output.h"

/*
 * @s in @fmt twice, as two intervals (a header only once), into a string
 * the caller frees.
 */
static inline char *render(enum output_format fmt, const struct snapshot *s)
{
	struct output o;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	output_init(&o, fmt, f);
	output_snapshot(&o, s);
	output_snapshot(&o, s);
	fclose(f);
	return buf;
}

#endif
