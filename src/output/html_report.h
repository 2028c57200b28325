/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `mmtop report --html`: a recording as one self-contained page of plots.
 * A sink like the others: it is handed each interval's snapshot, keeps
 * what it draws over time, and writes the page from that and the
 * recording summed into one interval (the text report's numbers).
 */
#ifndef MMTOP_HTML_REPORT_H
#define MMTOP_HTML_REPORT_H

#include <stdio.h>

#include "snapshot.h"

struct html_report;

/* What the page says about the recording it shows. */
struct html_report_info {
	const char *label, *kernel, *host;	/* from the recording's header */
	const char *source;			/* the paths given */
	const char *summary;			/* the text report, shown as is */
};

struct html_report *html_report_new(void);
void html_report_free(struct html_report *r);
/* Keep one interval's values (intervals in time order). 0, or -1 (memory). */
int html_report_add(struct html_report *r, const struct snapshot *s);
/* The page, from the intervals added and their sum @sum. -errno on a write error. */
int html_report_write(struct html_report *r, FILE *f, const struct snapshot *sum,
		      const struct html_report_info *info);

#endif
