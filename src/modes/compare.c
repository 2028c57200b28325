// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "html_compare.h"
#include "recfile.h"
#include "recset.h"
#include "replace_file.h"
#include "samples.h"
#include "util.h"

/* SAMPLE frames: "metric=NAME\nvalue=NUMBER\n". */
static void parse_sample(struct run *r, const unsigned char *p, size_t len)
{
	char text[512], name[64] = "", *line, *save;
	double value = 0;
	bool have = false;

	snprintf(text, sizeof(text), "%.*s", (int)(len < sizeof(text) - 1 ? len : sizeof(text) - 1), p);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, "metric=", 7))
			snprintf(name, sizeof(name), "%s", line + 7);
		else if (!strncmp(line, "value=", 6))
			have = sscanf(line + 6, "%lf", &value) == 1;
	}
	if (name[0] && have)
		run_add(r, name, value);
}

/* How an interval of @r traced mmap_lock, added to the run's. */
static void note_sampling(struct run *r, const struct snapshot *s, double *sampled_ns,
			  double *all_ns)
{
	r->intervals++;
	r->budget_ppm = s->budget_ppm;
	*sampled_ns += (double)s->interval_ns * s->sample_ppm / SAMPLE_EXACT;
	*all_ns += s->interval_ns;
}

/*
 * A recording's samples; a monitoring recording (no samples) gives one
 * interval-faults/sec sample per interval instead (a mean: idle
 * intervals are zero).
 */
static int load(char *path, struct run *r)
{
	struct snapshot s = { 0 };
	struct rec_set rd;
	const unsigned char *p;
	char err[512], raw[256], params[256];
	double sampled_ns = 0, all_ns = 0;
	size_t len;
	int ret = rec_set_open(&rd, &path, 1, stderr, err, sizeof(err));

	if (ret) {
		fprintf(stderr, "mmtop: %s\n", err);
		return ret == -2 ? 2 : 1;
	}
	/* Labels come from files: printed as one safe line of text. */
	rec_set_header(&rd, "label", raw, sizeof(raw));
	text_safe(raw[0] ? raw : path, r->label, sizeof(r->label));
	text_safe(rec_set_header(&rd, "kernel", raw, sizeof(raw)), r->kernel, sizeof(r->kernel));
	text_safe(rec_set_header(&rd, "host", raw, sizeof(raw)), r->host, sizeof(r->host));
	workload_params(rec_set_header(&rd, "workload", raw, sizeof(raw)), params,
			sizeof(params));
	text_safe(params, r->workload, sizeof(r->workload));
	while (rec_set_next_of(&rd, REC_SAMPLE, &p, &len))
		parse_sample(r, p, len);
	rec_set_seek(&rd, (struct rec_pos){ 0, REC_FILE_HEADER });
	while (rec_set_next(&rd, &s) == 1) {
		/* A monitoring recording (no samples): its intervals' faults. */
		if (!r->nr || !strcmp(r->m[0].name, "interval-faults/sec"))
			run_add(r, "interval-faults/sec",
				snapshot_rate(&s, s.total.min_flt + s.total.maj_flt));
		note_sampling(r, &s, &sampled_ns, &all_ns);
	}
	snapshot_free(&s);
	r->sampled = all_ns ? sampled_ns / all_ns : 1;
	rec_set_close(&rd);
	return 0;
}

/*
 * What each run is: its kernel, host and workload, one line each with
 * @prefix; then a warning line if the workloads differ.
 */
static void print_runs(const struct comparison *c, const char *prefix)
{
	int k;

	for (k = 0; k < c->n; k++) {
		const struct run *r = &c->runs[k];

		char sampling[96];

		run_sampling_text(r, sampling, sizeof(sampling));
		printf("%s%s%s: kernel %s, host %s, %s%s%s%s\n", prefix, r->label,
		       k ? "" : " (base)", r->kernel[0] ? r->kernel : "?",
		       r->host[0] ? r->host : "?", r->workload[0] ? "workload " : "",
		       r->workload[0] ? r->workload : "a recording of monitoring",
		       sampling[0] ? "; " : "", sampling);
	}
	if (c->workloads_differ)
		printf("%s%s\n", prefix, COMPARISON_UNLIKE);
	if (c->sampling_differs)
		printf("%swarning: %s\n", prefix, COMPARISON_SAMPLING);
}

/* A markdown table's head: @first, then a column per recording. */
static void markdown_head(const struct comparison *c, const char *first)
{
	int k;

	printf("\n| %s |", first);
	for (k = 0; k < c->n; k++)
		printf(" %s |", c->runs[k].label);
	printf("\n|---|");
	for (k = 0; k < c->n; k++)
		printf("---|");
	printf("\n");
}

/* Each thread count's rate over 1 thread's, per recording, if any. */
static void print_scaling(const struct comparison *c, bool markdown)
{
	double r;
	int i, k;

	if (!comparison_scales(c))
		return;
	if (markdown)
		markdown_head(c, "scaling (Hmean over 1 thread's)");
	else
		printf("# scaling: each thread count's Hmean over 1 thread's\n");
	for (i = 0; i < c->nr; i++) {
		if (!comparison_row_scales(c, i))
			continue;
		printf(markdown ? "| %s |" : "Ratio %-26s", c->names[i]);
		for (k = 0; k < c->n; k++) {
			if (!comparison_scaling(c, k, i, &r))
				printf(markdown ? " - |" : " %26s", "-");
			else
				printf(markdown ? " %.2f |" : " %26.2f", r);
		}
		printf("\n");
	}
}

static void print_text(const struct comparison *c)
{
	char note[160];
	int i, k;

	print_runs(c, "# ");
	printf("%-32s", "");
	for (k = 0; k < c->n; k++)
		printf(" %26.26s", c->runs[k].label);
	printf("\n");
	for (i = 0; i < c->nr; i++) {
		const struct metric *base = comparison_get(c, 0, i);

		printf("%-5s %-26s", comparison_summary_name(c, i), c->names[i]);
		for (k = 0; k < c->n; k++) {
			const struct metric *m = comparison_get(c, k, i);
			bool sig = m && base && k && metric_significant(base, m);

			if (!m)
				printf(" %26s", "missing");
			else if (!base)
				printf(" %14.2f %11s", metric_summary(m), "(no base)");
			else
				printf(" %14.2f %c%8.2f%%%c", metric_summary(m), sig ? '*' : '(',
				       metric_change_pct(base, m), sig ? '*' : ')');
		}
		printf("\n");
	}
	comparison_marks_note(c, note, sizeof(note));
	printf("# %s\n", note);
	print_scaling(c, false);
}

/* The fork tables of the PTE-batching thread: mean_rel (std_rel). */
static void print_markdown(const struct comparison *c)
{
	double mean_rel, std_rel;
	int i, k;

	print_runs(c, "> ");
	markdown_head(c, "metric");
	for (i = 0; i < c->nr; i++) {
		const struct metric *base = comparison_get(c, 0, i);

		printf("| %s mean_rel (std_rel) |", c->names[i]);
		for (k = 0; k < c->n; k++) {
			const struct metric *m = comparison_get(c, k, i);

			if (!m)
				printf(" missing |");
			else if (base && metric_rel(base, m, &mean_rel, &std_rel))
				printf(" %.1f%% (%.1f%%) |", mean_rel, std_rel);
			else
				printf(" no base |");
		}
		printf("\n");
	}
	print_scaling(c, true);
}

/* On stderr: what each run lacks, and runs of different workloads. */
static void warn(const struct comparison *c)
{
	int i, k, missing;

	for (k = 0; k < c->n; k++) {
		missing = 0;
		for (i = 0; i < c->nr; i++) {
			if (comparison_get(c, k, i))
				continue;
			fprintf(stderr, "%s%s", missing++ ? ", " : "mmtop: compare: ", c->names[i]);
		}
		if (missing)
			fprintf(stderr, ": missing from %s\n", c->runs[k].label);
	}
	if (c->workloads_differ)
		fprintf(stderr, "mmtop: compare: %s\n", COMPARISON_UNLIKE);
	if (c->sampling_differs)
		fprintf(stderr, "mmtop: compare: %s\n", COMPARISON_SAMPLING);
}

struct page {
	const struct comparison *c;
	char *const *paths;
};

static int write_page(FILE *f, void *ctx)
{
	const struct page *p = ctx;

	return html_compare_write(f, p->c, p->paths);
}

/* -o FILE (0600, as report's page), or stdout. */
static int print_html(const struct comparison *c, char **paths, const char *output)
{
	struct page p = { c, paths };
	int err = output ? replace_file(output, 0600, write_page, &p) : write_page(stdout, &p);

	if (err)
		fprintf(stderr, "mmtop: writing %s: %s\n", output ? output : "the page",
			strerror(-err));
	return err ? 1 : 0;
}

int compare_run(char **paths, int n, enum compare_format format, const char *output)
{
	struct run *runs = calloc(n, sizeof(*runs));
	struct comparison c = { 0 };
	int k, ret = 0;

	if (!runs)
		return 1;
	for (k = 0; k < n && !ret; k++)
		ret = load(paths[k], &runs[k]);
	if (!ret && comparison_init(&c, runs, n)) {
		fprintf(stderr, "mmtop: compare: out of memory\n");
		ret = 1;
	}
	if (!ret)
		warn(&c);
	if (!ret && format == COMPARE_MARKDOWN)
		print_markdown(&c);
	else if (!ret && format == COMPARE_HTML)
		ret = print_html(&c, paths, output);
	else if (!ret)
		print_text(&c);
	comparison_free(&c);
	for (k = 0; k < n; k++)
		run_free(&runs[k]);
	free(runs);
	return ret;
}
