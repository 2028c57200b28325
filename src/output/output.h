/* SPDX-License-Identifier: GPL-2.0 */
/* Batch sinks: a snapshot as text, CSV or JSON lines. */
#ifndef MMTOP_OUTPUT_H
#define MMTOP_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

#include "snapshot.h"

/*
 * The version of the JSON and CSV layouts, in every JSON interval and CSV
 * row. Fields may be added without a change (JSON: anywhere; CSV: columns
 * at the end only); removing or renaming one, or changing its meaning or
 * unit, takes the next number.
 */
#define OUTPUT_SCHEMA 2

enum output_format {
	OUTPUT_TEXT,
	OUTPUT_CSV,
	OUTPUT_JSON,
	OUTPUT_OPENMETRICS,
	OUTPUT_PROMETHEUS,	/* text format 0.0.4, as textfile collectors read */
};

struct metrics;

struct output {
	enum output_format format;
	FILE *f;
	bool header_done;	/* CSV header row written */
	/*
	 * -o FILE: each interval replaces FILE whole (a temporary file in its
	 * directory, renamed), so a reader never sees half of one.
	 */
	const char *path;
	int top;		/* openmetrics: per-process series kept */
	bool pid_label;		/* ... keyed by pid and comm, not comm */
	struct metrics *metrics;	/* openmetrics: totals since start */
};

int output_format_parse(const char *s, enum output_format *fmt);
void output_init(struct output *o, enum output_format fmt, FILE *f);
/* Write one interval and flush; -errno on a write error (e.g. EPIPE, ENOSPC). */
int output_snapshot(struct output *o, const struct snapshot *s);
void output_close(struct output *o);

#endif
