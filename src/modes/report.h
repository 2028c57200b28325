/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `mmtop report FILE`: a recording summed into one interval (the batch
 * sinks print it), and for text the per-CPU fault rate over its intervals:
 * mean, harmonic mean, maximum. With --html, a page of plots over time
 * that holds the text report too.
 */
#ifndef MMTOP_REPORT_H
#define MMTOP_REPORT_H

#include "output.h"
#include "recset.h"

struct report_opts {
	struct rec_input in;
	enum output_format format;
	bool html;			/* --html */
	const char *output;		/* -o FILE for the page; NULL: stdout */
};

/* Exit status: 0, 1 (unreadable or empty), 2 (a newer format). */
int report_run(const struct report_opts *o);

#endif
