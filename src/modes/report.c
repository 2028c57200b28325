// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "html_report.h"
#include "merge.h"
#include "metrics.h"
#include "recset.h"
#include "replace_file.h"
#include "report.h"
#include "stats.h"
#include "text_table.h"

/* Per-CPU faults/s of every interval, kept for the statistics. */
struct rates {
	double *v;		/* [interval][cpu] */
	size_t n, cap;
	int nr_cpus;
};

static int keep_rates(struct rates *r, const struct snapshot *s)
{
	int cpu;

	if ((r->n + 1) * r->nr_cpus > r->cap) {
		size_t cap = r->cap ? r->cap * 2 : (size_t)64 * r->nr_cpus;
		double *v = realloc(r->v, cap * sizeof(*v));

		if (!v)
			return -1;
		r->v = v;
		r->cap = cap;
	}
	for (cpu = 0; cpu < r->nr_cpus; cpu++)
		r->v[r->n * r->nr_cpus + cpu] =
			snapshot_rate(s, s->cpus[cpu].faults.min_flt + s->cpus[cpu].faults.maj_flt);
	r->n++;
	return 0;
}

static const struct text_col rate_cols[] = {
	TEXT_NUM("CPU", 5), TEXT_NUM("mean", 11), TEXT_NUM("Hmean", 11), TEXT_NUM("max", 11),
	TEXT_NUM("no-faults", 10),
};

static void print_rates(const struct rates *r, FILE *f)
{
	static const struct text_table rates = TEXT_TABLE(0, rate_cols);
	double *col = malloc(r->n * sizeof(*col)), max;
	size_t i;
	int cpu;

	if (!col)
		return;
	fprintf(f, "per-CPU faults/s over %zu intervals (Hmean: of those with faults)\n", r->n);
	text_header(f, &rates);
	for (cpu = 0; cpu < r->nr_cpus; cpu++) {
		struct text_row row = text_row_begin(f, &rates);
		size_t none = 0;

		for (i = 0, max = 0; i < r->n; i++) {
			col[i] = r->v[i * r->nr_cpus + cpu];
			max = col[i] > max ? col[i] : max;
			none += col[i] <= 0;
		}
		text_cell(&row, "%d", cpu);
		text_cell(&row, "%.1f", none == r->n ? 0.0 : stats_mean(col, r->n));
		if (none == r->n)
			text_cell(&row, "-");
		else
			text_cell(&row, "%.1f", stats_hmean(col, r->n));
		text_cell(&row, "%.1f", max);
		text_cell(&row, "%zu", none);
		text_row_end(&row);
	}
	free(col);
}

/* The text report: the sum as batch mode prints it, then the rates. */
static int print_text(FILE *f, const struct snapshot *sum, const struct rates *rates)
{
	struct output out;
	int ret;

	output_init(&out, OUTPUT_TEXT, f);
	ret = output_snapshot(&out, sum);
	output_close(&out);
	if (!ret)
		print_rates(rates, f);
	return ret;
}

struct page {
	struct html_report *html;
	const struct snapshot *sum;
	struct html_report_info info;
};

static int write_page(FILE *f, void *ctx)
{
	struct page *p = ctx;

	return html_report_write(p->html, f, p->sum, &p->info);
}

/* The page into -o FILE (0600, as recordings: it names processes), or stdout. */
static int html_page(const struct report_opts *o, struct rec_set *rd, struct html_report *html,
		     const struct snapshot *sum, const struct rates *rates)
{
	char label[128], kernel[128], host[256], source[512], *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	struct page p = { html, sum, { label, kernel, host, source, "" } };
	int i, n = 0, ret;

	if (!mem || print_text(mem, sum, rates) || fclose(mem)) {
		free(text);
		return -ENOMEM;
	}
	p.info.summary = text;
	rec_set_header(rd, "label", label, sizeof(label));
	rec_set_header(rd, "kernel", kernel, sizeof(kernel));
	rec_set_header(rd, "host", host, sizeof(host));
	for (i = 0, source[0] = '\0'; i < o->in.nr_paths && n < (int)sizeof(source); i++)
		n += snprintf(source + n, sizeof(source) - n, "%s%s", i ? " " : "", o->in.paths[i]);
	ret = o->output ? replace_file(o->output, 0600, write_page, &p) : write_page(stdout, &p);
	free(text);
	return ret;
}

static int report_out(const struct report_opts *o, struct rec_set *rd, struct html_report *html,
		      const struct snapshot *sum, const struct rates *rates)
{
	struct output out;
	int ret;

	if (html) {
		ret = html_page(o, rd, html, sum, rates);
		if (ret)
			fprintf(stderr, "mmtop: writing %s: %s\n", o->output ? o->output : "the page",
				strerror(-ret));
		return ret ? 1 : 0;
	}
	if (o->format == OUTPUT_TEXT)
		return print_text(stdout, sum, rates) ? 1 : 0;
	output_init(&out, o->format, stdout);
	out.top = METRICS_TOP_DEFAULT;
	ret = output_snapshot(&out, sum) ? 1 : 0;
	output_close(&out);
	return ret;
}

int report_run(const struct report_opts *o)
{
	struct snapshot s = { 0 }, sum = { 0 };
	struct rates rates = { 0 };
	struct html_report *html = NULL;
	struct rec_set rd;
	int ret = rec_set_open_input(&rd, &o->in);

	if (ret)
		return ret;
	if (o->html && !(html = html_report_new()))
		goto out_of_memory;
	while (rec_set_next(&rd, &s) == 1) {
		if (!sum.cpus && snapshot_init(&sum, s.nr_cpus, s.nr_nodes))
			goto out_of_memory;
		rates.nr_cpus = s.nr_cpus;
		if (snapshot_merge(&sum, &s) || keep_rates(&rates, &s) ||
		    (html && html_report_add(html, &s)))
			goto out_of_memory;
	}
	if (!rates.n) {
		rec_set_say_empty(&rd, &o->in, stderr);
		ret = 1;
	} else {
		ret = report_out(o, &rd, html, &sum, &rates);
	}
	goto out;
out_of_memory:
	fprintf(stderr, "mmtop: out of memory reading %s\n", o->in.paths[0]);
	ret = 1;
out:
	html_report_free(html);
	snapshot_free(&s);
	snapshot_free(&sum);
	free(rates.v);
	rec_set_close(&rd);
	return ret;
}
