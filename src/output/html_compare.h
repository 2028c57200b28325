/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `mmtop compare --html`: the comparison's tables (Hmean or mean with the
 * change and its significance; mean_rel and std_rel) and, per metric,
 * every recording's samples drawn side by side (points, quartile box,
 * summary), so a reader sees what a significance mark stands on; first,
 * what each recording is (kernel, host, workload), and a warning when the
 * workloads differ.
 */
#ifndef MMTOP_HTML_COMPARE_H
#define MMTOP_HTML_COMPARE_H

#include <stdio.h>

#include "samples.h"

/* Its first run is the base; @paths: the recordings given. 0 or -errno. */
int html_compare_write(FILE *f, const struct comparison *c, char *const *paths);

#endif
