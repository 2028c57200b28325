/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The exporter's totals (metrics.h) as Prometheus text format 0.0.4 or
 * OpenMetrics 1.0 text: HELP and TYPE for every family, counters with
 * _total, base units, histograms with cumulative le buckets. Label values
 * from the kernel are made valid UTF-8 and escaped.
 */
#ifndef MMTOP_EXPOSITION_H
#define MMTOP_EXPOSITION_H

#include <stdint.h>
#include <stdio.h>

#include "metrics.h"

enum expo_format {
	EXPO_PROMETHEUS,	/* text/plain; version=0.0.4 */
	EXPO_OPENMETRICS,	/* application/openmetrics-text; version=1.0.0 */
};

/* What an HTTP Accept header asks for: OpenMetrics when it is preferred. */
enum expo_format expo_negotiate(const char *accept);
const char *expo_content_type(enum expo_format fmt);
/*
 * Write @m; @start_ns (CLOCK_MONOTONIC) is when the scrape began, for
 * mmtop_scrape_duration_seconds; @kernel goes into mmtop_build_info.
 */
void expo_write(FILE *f, const struct metrics *m, enum expo_format fmt,
		const char *kernel, uint64_t start_ns);

#endif
