// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "html.h"
#include "html_compare.h"
#include "kernel_features.h"
#include "plot.h"
#include "stats.h"

#define BOX_AT -0.17		/* box left of each recording's tick, points right */
#define STRIP_AT 0.17
#define LABEL_LEN 160

/* Each recording's label on the x axis, marked when significant. */
struct axis_names {
	const char **names;
	char (*labels)[LABEL_LEN];
};

static void head_row(FILE *f, const struct comparison *c)
{
	int k;

	fputs("<tr><th class=\"t\">metric</th>", f);
	for (k = 0; k < c->n; k++) {
		fputs("<th>", f);
		html_text(f, c->runs[k].label);
		fputs("</th>", f);
	}
	fputs("</tr>\n", f);
}

/* What each recording is: its kernel, host and workload. */
static void runs_table(FILE *f, const struct comparison *c)
{
	char line[1024], note[1100];
	int k;

	fputs("<div class=\"wide\"><table id=\"runs-table\"><tr><th class=\"t\">recording</th>"
	      "<th class=\"t\">kernel</th><th class=\"t\">host</th>"
	      "<th class=\"t\">workload</th></tr>\n", f);
	for (k = 0; k < c->n; k++) {
		const struct run *r = &c->runs[k];
		const char *cells[] = { r->label, r->kernel[0] ? r->kernel : "?",
					r->host[0] ? r->host : "?",
					r->workload[0] ? r->workload : "a recording of monitoring" };
		size_t j;

		fputs("<tr>", f);
		for (j = 0; j < sizeof(cells) / sizeof(cells[0]); j++) {
			fputs("<td class=\"t\">", f);
			html_text(f, cells[j]);
			fputs(j || k ? "</td>" : " (base)</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table></div>\n", f);
	for (k = 0; k < KFEAT__COUNT; k++)
		if (comparison_kernel_line(c, k, line, sizeof(line))) {
			snprintf(note, sizeof(note), "Kernels differ: %s.", line);
			html_note(f, note);
		}
	if (c->workloads_differ)
		html_note(f, "Warning: " COMPARISON_UNLIKE ".");
	if (c->sampling_differs)
		html_note(f, "Warning: " COMPARISON_SAMPLING ".");
}

static void summary_table(FILE *f, const struct comparison *c)
{
	char note[160], change[32];
	int i, k;

	fputs("<div class=\"wide\"><table id=\"summary-table\">", f);
	head_row(f, c);
	for (i = 0; i < c->nr; i++) {
		const struct metric *base = comparison_get(c, 0, i);

		fprintf(f, "<tr><td class=\"t\">%s ", comparison_summary_name(c, i));
		html_text(f, c->names[i]);
		fputs("</td>", f);
		for (k = 0; k < c->n; k++) {
			const struct metric *m = comparison_get(c, k, i);
			bool sig = m && base && k && metric_significant(base, m);

			if (!m) {
				fputs("<td class=\"missing\">missing</td>", f);
				continue;
			}
			if (!base) {
				fprintf(f, "<td title=\"%zu samples\">%.2f (no base)</td>", m->n,
					metric_summary(m));
				continue;
			}
			fprintf(f, "<td title=\"p = %.3g (Welch), %zu samples\"%s>%.2f %c%s%c</td>",
				k ? stats_welch_p(base->v, base->n, m->v, m->n) : 1.0, m->n,
				sig ? " class=\"sig\"" : "", metric_summary(m), sig ? '*' : '(',
				metric_change(base, m, change, sizeof(change)), sig ? '*' : ')');
		}
		fputs("</tr>\n", f);
	}
	fputs("</table></div>\n", f);
	comparison_marks_note(c, note, sizeof(note));
	html_note(f, note);
}

static void rel_table(FILE *f, const struct comparison *c)
{
	char rel[48];
	int i, k;

	fputs("<div class=\"wide\"><table id=\"rel-table\">", f);
	head_row(f, c);
	for (i = 0; i < c->nr; i++) {
		const struct metric *base = comparison_get(c, 0, i);

		fputs("<tr><td class=\"t\">", f);
		html_text(f, c->names[i]);
		fputs(" mean_rel (std_rel)</td>", f);
		for (k = 0; k < c->n; k++) {
			const struct metric *m = comparison_get(c, k, i);

			if (!m)
				fputs("<td class=\"missing\">missing</td>", f);
			else if (base)
				fprintf(f, "<td>%s</td>", metric_rel(base, m, rel, sizeof(rel)));
			else
				fputs("<td>no base</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table></div>\n", f);
}

/* Each thread count's rate over 1 thread's, per recording, if any. */
static void scaling_table(FILE *f, const struct comparison *c)
{
	double r;
	int i, k;

	if (!comparison_scales(c))
		return;
	html_note(f, "Scaling: each thread count's Hmean over 1 thread's, in the same recording.");
	fputs("<div class=\"wide\"><table id=\"scaling-table\">", f);
	head_row(f, c);
	for (i = 0; i < c->nr; i++) {
		if (!comparison_row_scales(c, i))
			continue;
		fputs("<tr><td class=\"t\">", f);
		html_text(f, c->names[i]);
		fputs("</td>", f);
		for (k = 0; k < c->n; k++) {
			if (comparison_scaling(c, k, i, &r))
				fprintf(f, "<td>%.2f</td>", r);
			else
				fputs("<td>-</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table></div>\n", f);
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Minimum, quartiles and maximum (linear between order statistics). */
static int quartiles(const struct metric *m, double q[5])
{
	double *v = malloc(m->n * sizeof(*v));
	int i;

	if (!v)
		return -1;
	memcpy(v, m->v, m->n * sizeof(*v));
	qsort(v, m->n, sizeof(*v), by_value);
	for (i = 0; i < 5; i++) {
		double pos = (m->n - 1) * i / 4.0;
		size_t lo = (size_t)floor(pos), hi = (size_t)ceil(pos);

		q[i] = v[lo] + (v[hi] - v[lo]) * (pos - lo);
	}
	free(v);
	return 0;
}

static void draw_run(struct plot *p, const struct metric *base, const struct metric *m, int k,
		     const char *label)
{
	char text[256], a[32], change[32];
	double q[5];
	size_t i;

	if (!quartiles(m, q)) {
		snprintf(text, sizeof(text), "%s: min %.4g, quartiles %.4g / %.4g / %.4g, max %.4g",
			 label, q[0], q[1], q[2], q[3], q[4]);
		plot_box(p, k + BOX_AT, 0.1, q, k, text);
	}
	if (base)
		snprintf(text, sizeof(text), "%s: %s %.4g (%s%s against the base)", label,
			 metric_summary_name(m), metric_summary(m), k ? "" : "base, ",
			 metric_change(base, m, change, sizeof(change)));
	else
		snprintf(text, sizeof(text), "%s: %s %.4g (the base lacks it)", label,
			 metric_summary_name(m), metric_summary(m));
	plot_point(p, k + BOX_AT, metric_summary(m), k, true, true, text);
	for (i = 0; i < m->n; i++) {
		/* A fixed spread across the strip, so equal samples stay visible. */
		double x = k + STRIP_AT + ((double)(i * 7 % 9) - 4) * 0.025;

		snprintf(text, sizeof(text), "%s: sample %zu of %zu: %s", label, i + 1, m->n,
			 plot_format(UNIT_COUNT, m->v[i], a, sizeof(a)));
		plot_point(p, x, m->v[i], k, false, false, text);
	}
}

static void metric_plot(FILE *f, const struct comparison *c, int i, struct axis_names *an)
{
	const struct metric *base = comparison_get(c, 0, i), *m;
	char id[96], what[160];
	struct plot p = { .f = f, .kind = "strip", .height = 200 };
	bool first = true;
	int k;
	size_t j;

	snprintf(id, sizeof(id), "metric-%d", i);
	p.id = id;
	p.x = (struct plot_axis){ -0.5, c->n - 0.5, UNIT_INDEX,
				  "recording (* p < 0.10 against the first)", an->names };
	p.y = (struct plot_axis){ 0, 0, UNIT_COUNT, c->names[i], NULL };
	for (k = 0; k < c->n; k++) {
		m = comparison_get(c, k, i);
		snprintf(an->labels[k], LABEL_LEN, "%s%s", c->runs[k].label,
			 !m ? " (missing)" : base && k && metric_significant(base, m) ? " *" : "");
		an->names[k] = an->labels[k];
		for (j = 0; m && j < m->n; j++, first = false) {
			p.y.lo = first ? m->v[j] : fmin(p.y.lo, m->v[j]);
			p.y.hi = first ? m->v[j] : fmax(p.y.hi, m->v[j]);
		}
	}
	snprintf(what, sizeof(what), "(each sample a point; box: quartiles and range; square: the %s)",
		 comparison_summary_name(c, i));
	plot_begin(&p, c->names[i], what, NULL, 0, NULL);
	for (k = 0; k < c->n; k++) {
		m = comparison_get(c, k, i);
		if (m)
			draw_run(&p, base, m, k, an->labels[k]);
	}
	plot_end(&p);
}

static void page_head(FILE *f, const struct comparison *c, char *const *paths)
{
	const struct run *runs = c->runs;
	int n = c->n;
	char title[512], sub[2048];
	int k, t = 0, s = 0;

	t += snprintf(title, sizeof(title), "mmtop compare: ");
	for (k = 0; k < n && t < (int)sizeof(title); k++)
		t += snprintf(title + t, sizeof(title) - t, "%s%s", k ? " vs " : "", runs[k].label);
	s += snprintf(sub, sizeof(sub), "base %s; ", paths[0]);
	for (k = 1; k < n && s < (int)sizeof(sub); k++)
		s += snprintf(sub + s, sizeof(sub) - s, "%s%s", k > 1 ? ", " : "against ", paths[k]);
	html_page_begin(f, title, sub);
}

int html_compare_write(FILE *f, const struct comparison *c, char *const *paths)
{
	struct axis_names an = { calloc(c->n, sizeof(*an.names)),
				 calloc(c->n, sizeof(*an.labels)) };
	int i;

	if (!an.names || !an.labels) {
		free(an.names);
		free(an.labels);
		return -ENOMEM;
	}
	page_head(f, c, paths);
	html_section(f, "tables", "Summary");
	runs_table(f, c);
	html_note(f, "Per metric the harmonic mean of the samples for rates (faults/...), the "
		  "mean for latencies; in brackets the change against the first recording, "
		  "between asterisks where Welch's t-test gives p < 0.10 (hover for p).");
	summary_table(f, c);
	html_note(f, "mean_rel = mean / base mean - 1, std_rel = stddev / base mean.");
	rel_table(f, c);
	scaling_table(f, c);
	html_section_end(f);
	html_section(f, "samples", "Samples");
	for (i = 0; i < c->nr; i++)
		metric_plot(f, c, i, &an);
	html_section_end(f);
	free(an.names);
	free(an.labels);
	return html_page_end(f);
}
