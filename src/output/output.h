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

/*
 * The batch formats, each once: its enum and its -f word. prometheus is
 * the text format 0.0.4, as textfile collectors read.
 */
#define OUTPUT_FORMATS(X)						\
	X(OUTPUT_TEXT, "text") X(OUTPUT_CSV, "csv") X(OUTPUT_JSON, "json")	\
	X(OUTPUT_OPENMETRICS, "openmetrics") X(OUTPUT_PROMETHEUS, "prometheus")

#define OUTPUT_FORMAT_ENUM(e, word) e,
enum output_format { OUTPUT_FORMATS(OUTPUT_FORMAT_ENUM) };

/* The -f words, for help and errors: "text csv json ... ". */
#define OUTPUT_FORMAT_WORD(e, word) word " "
#define OUTPUT_FORMAT_WORDS OUTPUT_FORMATS(OUTPUT_FORMAT_WORD)

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
	int cgroup_depth;	/* ... and blame waits by cgroup pair: levels */
	struct metrics *metrics;	/* openmetrics: totals since start */
};

int output_format_parse(const char *s, enum output_format *fmt);
void output_init(struct output *o, enum output_format fmt, FILE *f);
/* Write one interval and flush; -errno on a write error (e.g. EPIPE, ENOSPC). */
int output_snapshot(struct output *o, const struct snapshot *s);
void output_close(struct output *o);

#endif
