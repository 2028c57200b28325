/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `mmtop compare BASE OTHER...`: recordings side by side, mmtests-style:
 * per metric the Hmean (rates) or mean (latencies) of each recording's
 * samples, the change against the first, and * where Welch's t-test
 * gives p < 0.10; or, as markdown, mean_rel (std_rel) tables; or, as
 * HTML, both tables beside each metric's samples drawn per recording.
 */
#ifndef MMTOP_COMPARE_H
#define MMTOP_COMPARE_H

enum compare_format {
	COMPARE_TEXT,
	COMPARE_MARKDOWN,
	COMPARE_HTML,
};

/*
 * Exit status: 0, 1 (a recording unreadable, the page not written), 2 (a
 * newer format). @output: the HTML page's file, NULL for stdout.
 */
int compare_run(char **paths, int n, enum compare_format format, const char *output);

#endif
