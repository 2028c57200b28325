// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "fork_backing.h"
#include "html_compare.h"
#include "kernel_features.h"
#include "recfile.h"
#include "recset.h"
#include "replace_file.h"
#include "samples.h"
#include "text_table.h"
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
	*sampled_ns += (double)s->interval_ns * s->exact_ppm / SAMPLE_EXACT;
	*all_ns += s->interval_ns;
}

/* @ns of time in @s, as ms per second of the interval. */
static double ms_per_s(const struct snapshot *s, uint64_t ns)
{
	return s->interval_ns ? (double)ns / 1e6 / (s->interval_ns / 1e9) : 0;
}

/*
 * Why faults scale or not, beside their rates: the share of the faults
 * the per-VMA lock served (0 on a kernel without one; where it has one,
 * exact mode's: the default set does not see a fault that did not wait)
 * and the mmap_lock waits per 1000 faults (@waits, where they are
 * collected). No sample from an interval without faults.
 */
static void add_fault_why(struct run *r, const struct snapshot *s, uint64_t waits)
{
	uint64_t faults = s->total.min_flt + s->total.maj_flt, vf = 0, fell = 0, anon = 0;
	int i;

	if (!faults || s->na[FAMILY_MMAP_LOCK][0])
		return;
	if (!s->waits_na[0])
		run_add(r, "interval-mmap_lock-waits-per-1000-faults", 1000.0 * waits / faults);
	for (i = 0; i < s->vmas.nr; i++) {
		vf += s->vmas.v[i].faults > 0 ? s->vmas.v[i].faults : 0;
		fell += s->vmas.v[i].fallbacks;
		anon += s->vmas.v[i].anon;
	}
	if (!strcmp(s->vma_na, NO_VMA_LOCKS))
		run_add(r, "interval-vma-lock-served-%", 0);
	else if (!s->vma_na[0] && vf)
		run_add(r, "interval-vma-lock-served-%", 100 * vma_ok(vf, fell, anon));
}

/*
 * Why a bench fork parent's forks cost what they did, by its backing
 * (its name says which: backing_comm()): the cost per MiB of its RSS
 * where timed, dup_mmap's write hold (exact mode's), and the siblings'
 * stalls where counted; e.g. fork-thp-pte-dup-hold-us.
 */
static void add_fork_why(struct run *r, const struct snapshot *s, const struct fork_row *f)
{
	enum fork_backing b = backing_of_comm(f->comm);
	char name[64];

	if (b == BACKINGS)
		return;
	if (fork_timed(f)) {
		snprintf(name, sizeof(name), "%s-ns-per-mib", backing_comm(b));
		run_add(r, name, fork_cost_per_mib(f->latency_ns, f->anon_kb + f->file_kb + f->shmem_kb));
	}
	if (f->dup_hold_ns) {
		snprintf(name, sizeof(name), "%s-dup-hold-us", backing_comm(b));
		run_add(r, name, f->dup_hold_ns / 1e3);
	}
	if (fork_stalls_counted(s)) {
		snprintf(name, sizeof(name), "%s-sibling-stalls", backing_comm(b));
		run_add(r, name, f->stalled);
	}
}

/*
 * A monitoring recording's interval @s: a sample of each figure its
 * families collected there (interval-*, means: idle intervals are zero),
 * none of those they did not (off, or exact mode's in the default set;
 * the waits behind another cgroup where the rows name none: cgroups_na),
 * and one fork-latency-us sample per fork timed.
 */
static void add_interval(struct run *r, const struct snapshot *s)
{
	uint64_t waits = 0, wait_ns = 0, acquired = 0, hold_ns = 0, foreign_ns = 0, cross_ns = 0;
	uint64_t cls_ns[CONT_CLASS__COUNT] = { 0 };
	int i;

	run_add(r, "interval-faults/sec", snapshot_rate(s, s->total.min_flt + s->total.maj_flt));
	for (i = 0; i < s->locks.nr; i++) {
		waits += lock_row_waits(&s->locks.v[i]);
		wait_ns += s->locks.v[i].wait_ns;
		acquired += s->locks.v[i].acquired;
		hold_ns += s->locks.v[i].hold_ns;
	}
	for (i = 0; i < s->blame.nr; i++) {
		const struct blame_row *b = &s->blame.v[i];

		if (blame_foreign(b))
			foreign_ns += b->wait_ns;
		if (b->holder_cgroup[0] && strcmp(b->holder_cgroup, b->cgroup))
			cross_ns += b->wait_ns;
	}
	if (!s->na[FAMILY_MMAP_LOCK][0] && !s->waits_na[0]) {
		run_add(r, "interval-mmap_lock-waits/s", snapshot_rate(s, waits));
		run_add(r, "interval-mmap_lock-wait-ms/s", ms_per_s(s, wait_ns));
		run_add(r, "interval-mmap_lock-foreign-wait-ms/s", ms_per_s(s, foreign_ns));
		if (!s->cgroups_na[0])
			run_add(r, "interval-mmap_lock-other-cgroup-wait-ms/s", ms_per_s(s, cross_ns));
	}
	add_fault_why(r, s, waits);
	if (!s->na[FAMILY_MMAP_LOCK][0] && snapshot_acquisitions(s)) {
		run_add(r, "interval-mmap_lock-acquisitions/s", snapshot_rate(s, acquired));
		run_add(r, "interval-mmap_lock-hold-ms/s", ms_per_s(s, hold_ns));
	}
	if (!s->na[FAMILY_CONTENTION][0]) {
		for (i = 0; i < s->conts.nr; i++)
			cls_ns[s->conts.v[i].cls] += s->conts.v[i].wait_ns;
		run_add(r, "interval-zone-lock-wait-ms/s", ms_per_s(s, cls_ns[CONT_CLASS_ZONE]));
		run_add(r, "interval-pcp-lock-wait-ms/s", ms_per_s(s, cls_ns[CONT_CLASS_PCP]));
	}
	if (!s->na[FAMILY_PCP][0]) {
		struct pcp_counts pcp = { 0 };

		for (i = 0; i < s->nr_cpus; i++)
			pcp_add(&pcp, &s->cpus[i].pcp);
		run_add(r, "interval-pcp-refills/s", snapshot_rate(s, pcp.refills));
		run_add(r, "interval-pcp-drains/s", snapshot_rate(s, pcp.drains));
	}
	if (s->na[FAMILY_FORK][0])
		return;
	run_add(r, "interval-forks/s", snapshot_rate(s, s->forks.nr));
	for (i = 0; i < s->forks.nr; i++) {
		if (fork_timed(&s->forks.v[i]))
			run_add(r, "fork-latency-us", s->forks.v[i].latency_ns / 1e3);
		add_fork_why(r, s, &s->forks.v[i]);
	}
}

/*
 * A recording's samples; a monitoring recording (no samples) gives a
 * sample of each of its families' figures per interval instead
 * (add_interval()).
 */
static int load(char *path, struct run *r)
{
	struct snapshot s = { 0 };
	struct rec_set rd;
	const unsigned char *p;
	char err[512], raw[256], params[256], has[512];
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
	text_safe(rec_set_header(&rd, KERNEL_FEATURES_KEY, has, sizeof(has)), r->kernel_has,
		  sizeof(r->kernel_has));
	workload_params(rec_set_header(&rd, "workload", raw, sizeof(raw)), params,
			sizeof(params));
	text_safe(params, r->workload, sizeof(r->workload));
	while (rec_set_next_of(&rd, REC_SAMPLE, &p, &len))
		parse_sample(r, p, len);
	rec_set_seek(&rd, (struct rec_pos){ 0, REC_FILE_HEADER });
	while (rec_set_next(&rd, &s) == 1) {
		/*
		 * A monitoring recording's intervals: their figures, beside
		 * a bench's samples where a directory holds both.
		 */
		add_interval(r, &s);
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
	char line[1024];
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
	for (k = 0; k < KFEAT__COUNT; k++)
		if (comparison_kernel_line(c, k, line, sizeof(line)))
			printf("%skernels differ: %s\n", prefix, line);
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

/*
 * The text table's columns: the summary's name, the metric's (as wide as
 * the longest), then one a recording, headed by its label; NULL out of
 * memory. One layout for the header and the rows (text_table.h).
 */
static struct text_col *text_cols(const struct comparison *c)
{
	struct text_col *cols = calloc(c->n + 2, sizeof(*cols));
	int i, k, width = 26;

	if (!cols)
		return NULL;
	for (i = 0; i < c->nr; i++)
		if ((int)strlen(c->names[i]) > width)
			width = strlen(c->names[i]);
	cols[0] = (struct text_col)TEXT_WORD("", 5);
	cols[1] = (struct text_col)TEXT_WORD("", width);
	for (k = 0; k < c->n; k++)
		cols[k + 2] = (struct text_col)TEXT_NUM(c->runs[k].label, 26);
	return cols;
}

/* Each thread count's rate over 1 thread's, per recording, if any. */
static void print_scaling(const struct comparison *c, const struct text_table *t)
{
	double r = 0;
	int i, k;

	if (!comparison_scales(c))
		return;
	if (!t)
		markdown_head(c, "scaling (Hmean over 1 thread's)");
	else
		printf("# scaling: each thread count's Hmean over 1 thread's\n");
	for (i = 0; i < c->nr; i++) {
		struct text_row row;

		if (!comparison_row_scales(c, i))
			continue;
		if (!t) {
			printf("| %s |", c->names[i]);
			for (k = 0; k < c->n; k++) {
				bool known = comparison_scaling(c, k, i, &r);

				printf(known ? " %.2f |" : " - |", r);
			}
			printf("\n");
			continue;
		}
		row = text_row_begin(stdout, t);
		text_cell(&row, "Ratio");
		text_cell(&row, "%s", c->names[i]);
		for (k = 0; k < c->n; k++) {
			bool known = comparison_scaling(c, k, i, &r);

			text_cell(&row, known ? "%.2f" : "-", r);
		}
		text_row_end(&row);
	}
}

static void print_text(const struct comparison *c)
{
	struct text_col *cols = text_cols(c);
	struct text_table t = { .nr = c->n + 2, .cols = cols };
	char note[160], change[32];
	int i, k;

	if (!cols)
		return;
	print_runs(c, "# ");
	text_header(stdout, &t);
	for (i = 0; i < c->nr; i++) {
		const struct metric *base = comparison_get(c, 0, i);
		struct text_row row = text_row_begin(stdout, &t);

		text_cell(&row, "%s", comparison_summary_name(c, i));
		text_cell(&row, "%s", c->names[i]);
		for (k = 0; k < c->n; k++) {
			const struct metric *m = comparison_get(c, k, i);
			bool sig = m && base && k && metric_significant(base, m);

			if (!m)
				text_cell(&row, "missing");
			else if (!base)
				text_cell(&row, "%14.2f %11s", metric_summary(m), "(no base)");
			else
				text_cell(&row, "%14.2f %c%9s%c", metric_summary(m), sig ? '*' : '(',
					  metric_change(base, m, change, sizeof(change)), sig ? '*' : ')');
		}
		text_row_end(&row);
	}
	comparison_marks_note(c, note, sizeof(note));
	printf("# %s\n", note);
	print_scaling(c, &t);
	free(cols);
}

/* The fork tables of the PTE-batching thread: mean_rel (std_rel). */
static void print_markdown(const struct comparison *c)
{
	char rel[48];
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
			else if (base)
				printf(" %s |", metric_rel(base, m, rel, sizeof(rel)));
			else
				printf(" no base |");
		}
		printf("\n");
	}
	print_scaling(c, NULL);
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
