/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `mmtop compare BASE OTHER...`: recordings side by side, mmtests-style:
 * per metric the Hmean (rates) or mean (latencies) of each recording's
 * samples, the change against the first, and * where Welch's t-test
 * gives p < 0.10; or, as markdown, mean_rel (std_rel) tables.
 */
#ifndef MMTOP_COMPARE_H
#define MMTOP_COMPARE_H

#include <stdbool.h>

/* Exit status: 0, 1 (a recording unreadable), 2 (a newer format). */
int compare_run(char **paths, int n, bool markdown);

#endif
