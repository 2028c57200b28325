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
	char err[512], raw[128];
	size_t len;
	int ret = rec_set_open(&rd, &path, 1, stderr, err, sizeof(err));

	if (ret) {
		fprintf(stderr, "mmtop: %s\n", err);
		return ret == -2 ? 2 : 1;
	}
	/* Labels come from files: printed as one safe line of text. */
	rec_set_header(&rd, "label", raw, sizeof(raw));
	text_safe(raw[0] ? raw : path, r->label, sizeof(r->label));
	while (rec_set_next_of(&rd, REC_SAMPLE, &p, &len))
		parse_sample(r, p, len);
	if (!r->nr) {
		rec_set_seek(&rd, (struct rec_pos){ 0, REC_FILE_HEADER });
		while (rec_set_next(&rd, &s) == 1)
			run_add(r, "interval-faults/sec",
				snapshot_rate(&s, s.total.min_flt + s.total.maj_flt));
		snapshot_free(&s);
	}
	rec_set_close(&rd);
	return 0;
}

static void print_text(const struct run *runs, int n)
{
	int i, k;

	printf("%-24s", "");
	for (k = 0; k < n; k++)
		printf(" %26.26s", runs[k].label);
	printf("\n");
	for (i = 0; i < runs[0].nr; i++) {
		const struct metric *base = &runs[0].m[i];

		printf("%-5s %-18s", metric_summary_name(base), base->name);
		for (k = 0; k < n; k++) {
			const struct metric *m = run_find(&runs[k], base->name);
			bool sig = m && k && metric_significant(base, m);

			if (!m)
				printf(" %26s", "-");
			else
				printf(" %14.2f %c%8.2f%%%c", metric_summary(m), sig ? '*' : '(',
				       metric_change_pct(base, m), sig ? '*' : ')');
		}
		printf("\n");
	}
}

/* The fork tables of the PTE-batching thread: mean_rel (std_rel). */
static void print_markdown(const struct run *runs, int n)
{
	double mean_rel, std_rel;
	int i, k;

	printf("| metric |");
	for (k = 0; k < n; k++)
		printf(" %s |", runs[k].label);
	printf("\n|---|");
	for (k = 0; k < n; k++)
		printf("---|");
	printf("\n");
	for (i = 0; i < runs[0].nr; i++) {
		const struct metric *base = &runs[0].m[i];

		printf("| %s mean_rel (std_rel) |", base->name);
		for (k = 0; k < n; k++) {
			const struct metric *m = run_find(&runs[k], base->name);

			if (m && metric_rel(base, m, &mean_rel, &std_rel))
				printf(" %.1f%% (%.1f%%) |", mean_rel, std_rel);
			else
				printf(" - |");
		}
		printf("\n");
	}
}

struct page {
	const struct run *runs;
	int n;
	char *const *paths;
};

static int write_page(FILE *f, void *ctx)
{
	const struct page *p = ctx;

	return html_compare_write(f, p->runs, p->n, p->paths);
}

/* -o FILE (0600, as report's page), or stdout. */
static int print_html(const struct run *runs, int n, char **paths, const char *output)
{
	struct page p = { runs, n, paths };
	int err = output ? replace_file(output, 0600, write_page, &p) : write_page(stdout, &p);

	if (err)
		fprintf(stderr, "mmtop: writing %s: %s\n", output ? output : "the page",
			strerror(-err));
	return err ? 1 : 0;
}

int compare_run(char **paths, int n, enum compare_format format, const char *output)
{
	struct run *runs = calloc(n, sizeof(*runs));
	int k, ret = 0;

	if (!runs)
		return 1;
	for (k = 0; k < n && !ret; k++)
		ret = load(paths[k], &runs[k]);
	if (!ret && format == COMPARE_MARKDOWN)
		print_markdown(runs, n);
	else if (!ret && format == COMPARE_HTML)
		ret = print_html(runs, n, paths, output);
	else if (!ret)
		print_text(runs, n);
	for (k = 0; k < n; k++)
		run_free(&runs[k]);
	free(runs);
	return ret;
}
