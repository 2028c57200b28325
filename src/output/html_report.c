// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cgroup_pairs.h"
#include "html.h"
#include "html_report.h"
#include "plot.h"
#include "timeline.h"
#include "util.h"

#define TOP_CPUS PLOT_COLOURS
#define TOP_SITES 6		/* call site and mode pairs drawn */
#define TOP_BLAME 15		/* waiter -> holder pairs listed */
#define FORK_POINTS 3000	/* forks drawn at most: the slowest, then a sample */
#define FORK_SLOWEST 500
#define LOCK_KEYS (CALLSITE__COUNT * 2)	/* site * 2 + write */

/* Where each kind of series starts in the timeline. */
struct layout {
	int cpu, node, vma, acq, wait, hold, cont, pcp_refill, pcp_drain, forks, drops, nr;
};

struct html_report {
	struct timeline tl;
	struct layout at;
	int nr_cpus, nr_nodes;
	uint64_t last_drops;
	unsigned long off[FAMILY__COUNT];	/* intervals a family was off */
	char why_off[FAMILY__COUNT][SNAPSHOT_NA_LEN];
	/* Intervals with faults whose VMA-lock outcome was n/a (exact mode's), and why. */
	unsigned long vma_na, vma_known;
	char why_vma_na[SNAPSHOT_NA_LEN];
};

static const uint32_t family_probes[FAMILY__COUNT] = {
	[FAMILY_FAULTS] = 1u << PROBE_FAULTS_TP_BTF | 1u << PROBE_FAULTS_RAW_TP |
			  1u << PROBE_FAULTS_PERF,
	[FAMILY_MMAP_LOCK] = 1u << PROBE_MMAP_LOCK_TP_BTF | 1u << PROBE_MMAP_LOCK_RAW_TP,
	[FAMILY_CONTENTION] = 1u << PROBE_CONTENTION_TP_BTF | 1u << PROBE_CONTENTION_RAW_TP,
	[FAMILY_FORK] = 1u << PROBE_FORK_TP_BTF | 1u << PROBE_FORK_RAW_TP,
	[FAMILY_PCP] = 1u << PROBE_PCP_TP_BTF | 1u << PROBE_PCP_RAW_TP,
};

struct html_report *html_report_new(void)
{
	return calloc(1, sizeof(struct html_report));
}

void html_report_free(struct html_report *r)
{
	if (!r)
		return;
	timeline_free(&r->tl);
	free(r);
}

static const char *lock_key_name(int k, char *buf, size_t len)
{
	snprintf(buf, len, "%s %s", callsite_name(k / 2), k % 2 ? "write" : "read");
	return buf;
}

static int start(struct html_report *r, const struct snapshot *s)
{
	struct layout *a = &r->at;
	char name[TIMELINE_NAME_LEN];
	int i;

	r->nr_cpus = s->nr_cpus;
	r->nr_nodes = s->nr_nodes;
	a->cpu = 0;
	a->node = a->cpu + s->nr_cpus;
	a->vma = a->node + s->nr_nodes;
	a->acq = a->vma + 1;
	a->wait = a->acq + LOCK_KEYS;
	a->hold = a->wait + LOCK_KEYS;
	a->cont = a->hold + LOCK_KEYS;
	a->pcp_refill = a->cont + CONT_CLASS__COUNT;
	a->pcp_drain = a->pcp_refill + 1;
	a->forks = a->pcp_drain + 1;
	a->drops = a->forks + 1;
	a->nr = a->drops + 1;
	if (timeline_init(&r->tl, a->nr))
		return -1;
	for (i = 0; i < s->nr_cpus; i++) {
		snprintf(name, sizeof(name), "CPU %d", i);
		timeline_name(&r->tl, a->cpu + i, name);
	}
	for (i = 0; i < s->nr_nodes; i++) {
		snprintf(name, sizeof(name), "node %d", i);
		timeline_name(&r->tl, a->node + i, name);
	}
	timeline_name(&r->tl, a->vma, "served under the VMA lock");
	for (i = 0; i < LOCK_KEYS; i++) {
		lock_key_name(i, name, sizeof(name));
		timeline_name(&r->tl, a->acq + i, name);
		timeline_name(&r->tl, a->wait + i, name);
		timeline_name(&r->tl, a->hold + i, name);
	}
	for (i = 0; i < CONT_CLASS__COUNT; i++)
		timeline_name(&r->tl, a->cont + i, cont_class_name(i));
	timeline_name(&r->tl, a->pcp_refill, "pages refilled");
	timeline_name(&r->tl, a->pcp_drain, "pages drained");
	timeline_name(&r->tl, a->forks, "forks");
	timeline_name(&r->tl, a->drops, "drops");
	return 0;
}

static void add_faults(struct html_report *r, const struct snapshot *s)
{
	uint64_t faults = s->total.min_flt + s->total.maj_flt;
	int i;

	for (i = 0; i < r->nr_cpus && i < s->nr_cpus; i++)
		timeline_set(&r->tl, r->at.cpu + i,
			     snapshot_rate(s, s->cpus[i].faults.min_flt + s->cpus[i].faults.maj_flt));
	for (i = 0; i < r->nr_nodes && i < s->nr_nodes; i++)
		timeline_set(&r->tl, r->at.node + i,
			     snapshot_rate(s, s->nodes[i].faults.min_flt + s->nodes[i].faults.maj_flt));
	/* No faults, or no outcome (no per-VMA locks): a gap in that line. */
	timeline_set(&r->tl, r->at.vma, faults && !snapshot_vma_na(s) ?
		     vma_ok(faults, s->fallbacks, s->anon) * 100 : NAN);
	if (faults && snapshot_vma_na(s)) {
		r->vma_na++;
		snprintf(r->why_vma_na, sizeof(r->why_vma_na), "%s", snapshot_vma_na(s));
	} else if (faults) {
		r->vma_known++;
	}
}

static void add_locks(struct html_report *r, const struct snapshot *s)
{
	int i;

	for (i = 0; i < s->locks.nr; i++) {
		const struct lock_row *l = &s->locks.v[i];
		int k = l->site * 2 + l->write;

		if (l->site >= CALLSITE__COUNT)
			continue;
		timeline_add_to(&r->tl, r->at.acq + k, snapshot_rate(s, l->acquired));
		timeline_add_to(&r->tl, r->at.wait + k, snapshot_rate(s, l->wait_ns));
		timeline_add_to(&r->tl, r->at.hold + k, snapshot_rate(s, l->hold_ns));
	}
	for (i = 0; i < s->conts.nr; i++)
		if (s->conts.v[i].cls < CONT_CLASS__COUNT)
			timeline_add_to(&r->tl, r->at.cont + s->conts.v[i].cls,
					snapshot_rate(s, s->conts.v[i].wait_ns));
}

static void add_pcp_forks_drops(struct html_report *r, const struct snapshot *s)
{
	uint64_t refill = 0, drain = 0, drops = snapshot_drops(s);
	int i;

	for (i = 0; i < s->nr_cpus; i++) {
		refill += s->cpus[i].pcp.refill_pages;
		drain += s->cpus[i].pcp.drain_pages;
	}
	if (s->probes & family_probes[FAMILY_PCP]) {
		timeline_set(&r->tl, r->at.pcp_refill, snapshot_rate(s, refill));
		timeline_set(&r->tl, r->at.pcp_drain, snapshot_rate(s, drain));
	}
	timeline_set(&r->tl, r->at.forks, snapshot_rate(s, s->forks.nr));
	/* Drops count from the recorder's start: a new recorder starts over. */
	timeline_set(&r->tl, r->at.drops, (double)(drops >= r->last_drops ?
						    drops - r->last_drops : drops));
	r->last_drops = drops;
}

int html_report_add(struct html_report *r, const struct snapshot *s)
{
	double end = s->wall_ns / 1e9;
	int f;

	if (!r->tl.s && start(r, s))
		return -1;
	if (timeline_add(&r->tl, end - s->interval_ns / 1e9, end))
		return -1;
	for (f = 0; f < FAMILY__COUNT; f++)
		if (!(s->probes & family_probes[f])) {
			r->off[f]++;
			snprintf(r->why_off[f], sizeof(r->why_off[f]), "%s", s->na[f]);
		}
	add_faults(r, s);
	add_locks(r, s);
	add_pcp_forks_drops(r, s);
	return r->tl.failed ? -1 : 0;
}

/* A family that was off for some intervals says so above its plots. */
static void family_note(FILE *f, const struct html_report *r, enum probe_family fam)
{
	char text[SNAPSHOT_NA_LEN + 128];

	if (!r->off[fam])
		return;
	snprintf(text, sizeof(text), "%s was not recorded in %lu of %zu intervals%s%s.",
		 family_name(fam), r->off[fam], r->tl.n, r->why_off[fam][0] ? ": " : "",
		 r->why_off[fam]);
	html_note(f, text);
}

/*
 * Intervals of the default set (waits only) or in part exact, or of an
 * old recording's budget: said, once, under the plots.
 */
static void sampling_note(FILE *f, const struct snapshot *sum)
{
	char text[200];

	if (!snapshot_estimates(sum)) {
		if (snapshot_sampled(sum) || !snapshot_acquisitions(sum)) {
			snapshot_sampling_text(sum, text, sizeof(text));
			html_note(f, text);
		}
		return;
	}
	snprintf(text, sizeof(text), "Sampled (mmtop 0.1's budget, %.4g%%): the per-acquisition programs counted %.1f%% "
		 "of the time; acquisitions, holds, waits, blame and the VMA-lock outcome are "
		 "estimates, scaled from those windows.", sum->budget_ppm / 1e4, sum->exact_ppm / 1e4);
	html_note(f, text);
}

/* Series indices [base, base + n) ordered by their sums, largest first; the non-zero count. */
static int rank(const struct timeline *tl, int base, int n, int *out)
{
	int i, j, k = 0;

	for (i = 0; i < n; i++) {
		if (!(tl->s[base + i].sum > 0))
			continue;
		for (j = k++; j > 0 && tl->s[out[j - 1]].sum < tl->s[base + i].sum; j--)
			out[j] = out[j - 1];
		out[j] = base + i;
	}
	return k;
}

/* The busiest CPUs (at most TOP_CPUS), in CPU order; their count. */
static int busy_cpus(const struct html_report *r, int *cpus)
{
	int *all = malloc(r->nr_cpus * sizeof(*all)), n, i, j;

	if (!all)
		return 0;
	n = rank(&r->tl, r->at.cpu, r->nr_cpus, all);
	n = n < TOP_CPUS ? n : TOP_CPUS;
	for (i = 0; i < n; i++) {
		for (j = i; j > 0 && cpus[j - 1] > all[i]; j--)
			cpus[j] = cpus[j - 1];
		cpus[j] = all[i];
	}
	free(all);
	return n;
}

/*
 * The share of faults served under the per-VMA lock: where no interval
 * with faults had the outcome (exact mode's), the reason in its place,
 * not an empty plot; where some had not, how many, under it.
 */
static void vma_plot(FILE *f, const struct html_report *r)
{
	struct tl_plot tp = {
		.id = "vma-share", .title = "Faults served under the per-VMA lock",
		.what = "(the rest took mmap_lock: fallback or anon_vma set-up; no line where "
			"there were no faults)",
		.unit = UNIT_PCT, .y_label = "share of faults", .series = &r->at.vma, .nr = 1,
	};
	char text[SNAPSHOT_NA_LEN + 160];

	if (r->vma_na && !r->vma_known) {
		snprintf(text, sizeof(text), "Faults served under the per-VMA lock: not measured in "
			 "these intervals (%s).", r->why_vma_na);
		html_note(f, text);
		return;
	}
	timeline_plot(f, &r->tl, &tp);
	if (!r->vma_na)
		return;
	snprintf(text, sizeof(text), "The per-VMA lock's share was not measured in %lu of %zu "
		 "intervals (%s): no line there.", r->vma_na, r->tl.n, r->why_vma_na);
	html_note(f, text);
}

static void fault_plots(FILE *f, const struct html_report *r)
{
	int cpus[TOP_CPUS], nodes[PLOT_COLOURS], n = busy_cpus(r, cpus), i;
	char what[128];
	struct tl_plot tp = {
		.id = "faults-cpu", .title = "Page faults per CPU", .what = what,
		.unit = UNIT_PER_S, .y_label = "faults/s", .series = cpus, .nr = n,
	};

	html_section(f, "faults", "Page faults");
	family_note(f, r, FAMILY_FAULTS);
	snprintf(what, sizeof(what), n < r->nr_cpus ? "(minor and major; the %d busiest of %d CPUs)" :
		 "(minor and major)", n, r->nr_cpus);
	if (!n) {	/* no fault at all: an empty plot of CPU 0 says so */
		cpus[0] = r->at.cpu;
		tp.nr = 1;
	}
	timeline_plot(f, &r->tl, &tp);
	for (i = 0; i < r->nr_nodes && i < PLOT_COLOURS; i++)
		nodes[i] = r->at.node + i;
	tp = (struct tl_plot){
		.id = "faults-node", .title = "Page faults per NUMA node", .unit = UNIT_PER_S,
		.y_label = "faults/s", .series = nodes, .nr = i,
	};
	timeline_plot(f, &r->tl, &tp);
	vma_plot(f, r);
	html_section_end(f);
}

/* The call site and mode pairs with most wait + hold, for every lock plot. */
static int top_sites(const struct html_report *r, int *keys)
{
	double score[LOCK_KEYS];
	int k, j, n = 0;

	for (k = 0; k < LOCK_KEYS; k++) {
		score[k] = r->tl.s[r->at.wait + k].sum + r->tl.s[r->at.hold + k].sum;
		/* Acquired (exact mode), or waited (the default set's rows). */
		if (!(r->tl.s[r->at.acq + k].sum > 0) && !(r->tl.s[r->at.wait + k].sum > 0))
			continue;
		for (j = n++; j > 0 && score[keys[j - 1]] < score[k]; j--)
			keys[j] = keys[j - 1];
		keys[j] = k;
	}
	return n < TOP_SITES ? n : TOP_SITES;
}

/* Acquisitions and holds: exact mode's; waits alone where it was never on. */
static void lock_time_plots(FILE *f, const struct html_report *r, const int *keys, int n,
			    bool acquisitions)
{
	static const struct { const char *id, *title, *label; enum plot_unit unit; } kinds[] = {
		{ "lock-acq", "mmap_lock acquisitions", "acquisitions/s", UNIT_PER_S },
		{ "lock-wait", "mmap_lock wait", "wait per second", UNIT_NS_PER_S },
		{ "lock-hold", "mmap_lock hold", "hold per second", UNIT_NS_PER_S },
	};
	int base[] = { r->at.acq, r->at.wait, r->at.hold }, series[TOP_SITES], colour[TOP_SITES];
	bool dashed[TOP_SITES];
	size_t k;
	int i;

	for (i = 0; i < n; i++) {
		colour[i] = i;
		dashed[i] = !(keys[i] % 2);
	}
	for (k = 0; k < ARRAY_SIZE(kinds); k++) {
		if (!acquisitions && base[k] != r->at.wait)
			continue;
		struct tl_plot tp = {
			.id = kinds[k].id, .title = kinds[k].title, .y_label = kinds[k].label,
			.what = "(all processes; read dashed, write solid)",
			.unit = kinds[k].unit, .series = series, .nr = n,
			.dashed = dashed, .colour = colour,
		};

		for (i = 0; i < n; i++)
			series[i] = base[k] + keys[i];
		timeline_plot(f, &r->tl, &tp);
	}
}

/* One distribution (log2 buckets) per top pair, summed over processes. */
static void hist_plot(FILE *f, const struct snapshot *sum, const int *keys, int n, bool hold)
{
	struct hist h[TOP_SITES] = { 0 };
	const char *names[TOP_SITES];
	char name_buf[TOP_SITES][64], a[32], b[32];
	bool dashed[TOP_SITES];
	int i, k, lo = SNAPSHOT_HIST_BUCKETS, hi = -1;
	double max = 0;
	struct plot p = { .f = f, .id = hold ? "lock-hold-dist" : "lock-wait-dist",
			  .kind = "histogram" };

	for (i = 0; i < sum->locks.nr; i++) {
		const struct lock_row *l = &sum->locks.v[i];

		for (k = 0; k < n; k++)
			if ((int)l->site * 2 + l->write == keys[k])
				hist_add(&h[k], hold ? &l->hold : &l->wait);
	}
	for (k = 0; k < n; k++) {
		names[k] = lock_key_name(keys[k], name_buf[k], sizeof(name_buf[k]));
		dashed[k] = !(keys[k] % 2);
		for (i = 0; i < SNAPSHOT_HIST_BUCKETS; i++)
			if (h[k].bucket[i]) {
				lo = i < lo ? i : lo;
				hi = i > hi ? i : hi;
				max = fmax(max, log10((double)h[k].bucket[i]));
			}
	}
	if (hi < 0)
		return;
	p.x = (struct plot_axis){ lo - 0.5, hi + 0.5, UNIT_LOG2_NS,
				  hold ? "hold (log2 buckets: from the value shown to twice it)" :
				  "wait (log2 buckets: from the value shown to twice it)", NULL };
	p.y = (struct plot_axis){ 0, max > 0 ? max : 1, UNIT_LOG10, "acquisitions (log scale)", NULL };
	plot_begin(&p, hold ? "mmap_lock hold distribution" : "mmap_lock wait distribution",
		   "(the whole span, all processes)", names, n, dashed);
	for (k = 0; k < n; k++) {
		plot_line_begin(&p, k, dashed[k]);
		for (i = lo; i <= hi; i++)
			if (h[k].bucket[i])
				plot_line_to(&p, i, log10((double)h[k].bucket[i]),
					     i == 0 || !h[k].bucket[i - 1]);
		plot_line_end(&p);
	}
	fputs("<g class=\"hov\">", f);
	for (i = lo; i <= hi; i++) {
		plot_hover_begin(&p, i - 0.5, i + 0.5);
		fprintf(f, "%s-%s", plot_format(UNIT_LOG2_NS, i, a, sizeof(a)),
			plot_format(UNIT_LOG2_NS, i + 1, b, sizeof(b)));
		for (k = 0; k < n; k++)
			fprintf(f, "\n%s: %" PRIu64, names[k], h[k].bucket[i]);
		plot_hover_end(&p);
	}
	fputs("</g>\n", f);
	plot_end(&p);
}

static void lock_plots(FILE *f, const struct html_report *r, const struct snapshot *sum)
{
	int keys[LOCK_KEYS], n = top_sites(r, keys);

	html_section(f, "mmap-lock", "mmap_lock waits and holds by call site");
	family_note(f, r, FAMILY_MMAP_LOCK);
	sampling_note(f, sum);
	if (!n) {
		html_note(f, "No mmap_lock acquisition or wait was recorded.");
		html_section_end(f);
		return;
	}
	lock_time_plots(f, r, keys, n, snapshot_acquisitions(sum));
	hist_plot(f, sum, keys, n, false);
	if (snapshot_acquisitions(sum))
		hist_plot(f, sum, keys, n, true);
	html_section_end(f);
}

static void blame_party(FILE *f, int pid, const char *comm, enum callsite site,
			const char *symbol, bool write, bool foreign, const char *cgroup)
{
	fprintf(f, "<td class=\"t\">%d ", pid);
	html_text(f, comm);
	fputs(" <span class=\"sub\">", f);
	html_text(f, callsite_label(site, symbol));
	fprintf(f, " %s", write ? "write" : "read");
	if (cgroup[0]) {
		fputs(" in ", f);
		html_text(f, cgroup);
	}
	fprintf(f, "</span>%s</td>", foreign ? " <span class=\"foreign\">foreign</span>" : "");
}

/* The same waits by the waiter's cgroup and the holder's (none before 2.10). */
static void cgroup_table(FILE *f, const struct snapshot *sum)
{
	struct cgroup_pair *v;
	int i, n = cgroup_pairs_of(sum, &v);
	char a[32], b[32];

	if (!n && sum->blame.nr && sum->cgroups_na[0]) {
		char note[SNAPSHOT_NA_LEN + 32];

		snprintf(note, sizeof(note), "By cgroup: n/a (%s).", sum->cgroups_na);
		html_note(f, note);
	}
	if (n <= 0)
		return;
	fputs("<div class=\"wide\"><table id=\"cgroup-table\"><tr><th class=\"t\">"
	      "waiter's cgroup</th><th class=\"t\">holder's cgroup</th><th>waits</th>"
	      "<th>total wait</th><th>max</th></tr>\n", f);
	for (i = 0; i < n && i < TOP_BLAME; i++) {
		fputs("<tr><td class=\"t\">", f);
		html_text(f, v[i].cgroup);
		fputs("</td><td class=\"t\">", f);
		html_text(f, v[i].holder_cgroup[0] ? v[i].holder_cgroup : "none seen");
		fprintf(f, "</td><td>%" PRIu64 "</td><td>%s</td><td>%s</td></tr>\n", v[i].count,
			format_ns(v[i].wait_ns, a, sizeof(a)),
			format_max(v[i].wait_max_ns, v[i].wait_max_bound, b, sizeof(b)));
	}
	fputs("</table></div>\n", f);
	free(v);
}

static void blame_table(FILE *f, const struct snapshot *sum)
{
	const struct blame_row **rows = malloc(sum->blame.nr * sizeof(*rows) + 1);
	char a[32], b[32];
	int i, n = sum->blame.nr;

	html_section(f, "blame", "Who waited behind whom");
	if (!rows || !n) {
		html_note(f, rows ? "No mmap_lock wait was attributed to a holder." : "Out of memory.");
		free(rows);
		html_section_end(f);
		return;
	}
	for (i = 0; i < n; i++)
		rows[i] = &sum->blame.v[i];
	ROWS_SORT_DESC(rows, n, struct blame_row, wait_ns);
	html_note(f, "Each wait attributed to the holder whose release let it through; the pairs "
		  "with most wait time. A holder from another process (a /proc reader, GUP, "
		  "process_madvise) is marked foreign.");
	fputs("<div class=\"wide\"><table id=\"blame-table\" data-kind=\"bars\"><tr><th class=\"t\">"
	      "waiter</th><th class=\"t\">holder</th><th>waits</th><th>total wait</th>"
	      "<th>max</th><th class=\"t\"></th></tr>\n", f);
	for (i = 0; i < n && i < TOP_BLAME; i++) {
		const struct blame_row *w = rows[i];
		bool foreign = blame_foreign(w);

		fputs("<tr>", f);
		blame_party(f, w->pid, w->comm, w->site, w->symbol, w->write, false, w->cgroup);
		blame_party(f, w->holder_pid, w->holder_comm, w->holder_site, w->holder_symbol,
			    w->holder_write, foreign, w->holder_cgroup);
		fprintf(f, "<td>%" PRIu64 "</td><td>%s</td><td>%s</td>", w->count,
			format_ns(w->wait_ns, a, sizeof(a)), format_max(w->wait_max_ns, w->wait_max_bound, b, sizeof(b)));
		fprintf(f, "<td class=\"t\"><svg width=\"160\" height=\"12\"><rect class=\"bar s%d\" "
			"width=\"%.1f\" height=\"12\"><title>%s</title></rect></svg></td></tr>\n",
			foreign ? 1 : 0, 160.0 * w->wait_ns / (rows[0]->wait_ns ? rows[0]->wait_ns : 1),
			a);
	}
	fputs("</table></div>\n", f);
	free(rows);
	cgroup_table(f, sum);
	html_section_end(f);
}

/* Forks drawn: all if few, else the slowest and an even sample of the rest. */
static bool fork_drawn(const struct snapshot *sum, int i, uint64_t slow_ns)
{
	int n = sum->forks.nr, every = (n + FORK_POINTS - FORK_SLOWEST - 1) /
				      (FORK_POINTS - FORK_SLOWEST);

	return n <= FORK_POINTS || sum->forks.v[i].latency_ns >= slow_ns || i % every == 0;
}

static int by_latency_desc(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? 1 : x > y ? -1 : 0;
}

/* The FORK_SLOWEST-th largest latency (0: every fork is drawn). */
static uint64_t fork_slow_ns(const struct snapshot *sum)
{
	uint64_t *v, t;
	int i, n = sum->forks.nr;

	if (n <= FORK_POINTS || !(v = malloc(n * sizeof(*v))))
		return 0;
	for (i = 0; i < n; i++)
		v[i] = sum->forks.v[i].latency_ns;
	/* O(n log n): a day can hold millions of forks. */
	qsort(v, n, sizeof(*v), by_latency_desc);
	t = v[FORK_SLOWEST - 1];
	free(v);
	return t;
}

static double fork_mib(const struct fork_row *k)
{
	return (k->anon_kb + k->file_kb + k->shmem_kb) / 1024.0;
}

enum fork_axis { FORK_RSS, FORK_LATENCY, FORK_HOLD, FORK_STALLED };

static double fork_value(const struct fork_row *k, enum fork_axis a)
{
	switch (a) {
	case FORK_RSS:
		return fork_mib(k);
	case FORK_LATENCY:
		return k->latency_ns;
	case FORK_HOLD:
		return k->dup_hold_ns;
	case FORK_STALLED:
		break;
	}
	return k->stalled;
}

static void fork_title(const struct fork_row *k, char *buf, size_t len)
{
	char a[32], b[32], c[16];

	snprintf(buf, len, "%d %s -> %d (%s), %s parent of %.1f MiB (THP %" PRId64
		 " KiB)\nlatency %s, dup_mmap hold %s, sibling waits stalled %u",
		 k->pid, text_safe(k->comm, c, sizeof(c)), k->child, k->syscall,
		 fork_backing(k), fork_mib(k), k->thp_kb, format_ns(k->latency_ns, a, sizeof(a)),
		 format_ns(k->dup_hold_ns, b, sizeof(b)), k->stalled);
}

static void fork_scatter(FILE *f, const struct snapshot *sum, const char *id, const char *title,
			 enum fork_axis x, enum fork_axis y)
{
	static const char *const names[] = { "4K-backed parent", "THP-backed parent", "backing unknown" };
	static const struct plot_axis axes[] = {
		[FORK_RSS] = { 0, 0, UNIT_MIB, "parent RSS", NULL },
		[FORK_LATENCY] = { 0, 0, UNIT_NS, "fork latency", NULL },
		[FORK_HOLD] = { 0, 0, UNIT_NS, "dup_mmap write hold", NULL },
		[FORK_STALLED] = { 0, 0, UNIT_COUNT, "sibling waits stalled", NULL },
	};
	struct plot p = { .f = f, .id = id, .kind = "scatter", .x = axes[x], .y = axes[y],
			  .points = true };
	uint64_t slow = fork_slow_ns(sum);
	char text[256];
	int i;

	for (i = 0; i < sum->forks.nr; i++) {
		p.x.hi = fmax(p.x.hi, fork_value(&sum->forks.v[i], x));
		p.y.hi = fmax(p.y.hi, fork_value(&sum->forks.v[i], y));
	}
	plot_begin(&p, title, NULL, names, 3, NULL);
	for (i = 0; i < sum->forks.nr; i++) {
		const struct fork_row *k = &sum->forks.v[i];
		const char *backing = fork_backing(k);
		int colour = !strcmp(backing, "4k") ? 0 : !strcmp(backing, "thp") ? 1 : 2;

		if (!fork_drawn(sum, i, slow))
			continue;
		fork_title(k, text, sizeof(text));
		plot_point(&p, fork_value(k, x), fork_value(k, y), colour, colour == 1, false, text);
	}
	plot_end(&p);
}

static void fork_costs(FILE *f, const struct snapshot *sum)
{
	struct fork_agg a;
	char m[32], c4[32], ct[32];

	fork_agg(sum, &a);
	fprintf(f, "<div class=\"wide\"><table id=\"fork-cost\"><tr><th class=\"t\">forks</th>"
		"<th>mean latency</th><th>max</th><th>per MiB, 4K parents</th>"
		"<th>per MiB, THP parents</th></tr><tr><td class=\"t\">%" PRIu64 "</td>"
		"<td>%s</td>", a.count, a.timed ? format_ns(a.latency_ns / a.timed, m, sizeof(m)) : "-");
	fprintf(f, "<td>%s</td><td>%s</td><td>%s</td></tr></table></div>\n",
		a.timed ? format_ns(a.latency_max_ns, m, sizeof(m)) : "-",
		a.kb_4k ? format_ns(fork_cost_per_mib(a.ns_4k, a.kb_4k), c4, sizeof(c4)) : "-",
		a.kb_thp ? format_ns(fork_cost_per_mib(a.ns_thp, a.kb_thp), ct, sizeof(ct)) : "-");
}

/* Whether any fork recorded dup_mmap's hold (exact mode's). */
static bool fork_holds(const struct snapshot *sum)
{
	int i;

	for (i = 0; i < sum->forks.nr; i++)
		if (sum->forks.v[i].dup_hold_ns)
			return true;
	return false;
}

static void fork_plots(FILE *f, const struct html_report *r, const struct snapshot *sum)
{
	struct fork_agg a;
	char text[400];

	html_section(f, "forks", "Fork cost");
	family_note(f, r, FAMILY_FORK);
	if (!sum->forks.nr) {
		html_note(f, "No fork of a new mm was recorded.");
		html_section_end(f);
		return;
	}
	if (sum->forks.nr > FORK_POINTS) {
		snprintf(text, sizeof(text), "%d forks: the %d slowest and an even sample of the "
			 "rest are drawn (about %d); the table counts them all.", sum->forks.nr,
			 FORK_SLOWEST, FORK_POINTS);
		html_note(f, text);
	}
	fork_costs(f, sum);
	fork_agg(sum, &a);
	if (!a.timed) {
		/* No latency to plot: every point would sit at 0. */
		snprintf(text, sizeof(text), "No fork was timed, so neither latency nor cost per MiB "
			 "is shown: %s.", fork_untimed_why(sum));
		html_note(f, text);
	} else {
		fork_scatter(f, sum, "fork-latency", "Fork latency against parent RSS", FORK_RSS,
			     FORK_LATENCY);
	}
	if (!fork_holds(sum)) {
		html_note(f, "dup_mmap's write hold is exact mode's (--exact, or x in the viewer): no fork recorded it.");
		html_section_end(f);
		return;
	}
	fork_scatter(f, sum, "fork-hold", "mmap_lock write hold in dup_mmap against parent RSS",
		     FORK_RSS, FORK_HOLD);
	fork_scatter(f, sum, "fork-stall", "Sibling waits stalled against the dup_mmap hold",
		     FORK_HOLD, FORK_STALLED);
	html_section_end(f);
}

static void contention_plots(FILE *f, const struct html_report *r)
{
	int series[CONT_CLASS__COUNT], n = rank(&r->tl, r->at.cont, CONT_CLASS__COUNT, series);
	int pcp[] = { r->at.pcp_refill, r->at.pcp_drain };
	struct tl_plot tp = {
		.id = "contention", .title = "Contended lock waits by class",
		.what = "(lock:contention_begin/end)", .y_label = "wait per second",
		.unit = UNIT_NS_PER_S, .series = series, .nr = n,
	};

	html_section(f, "contention", "Lock contention and PCP lists");
	family_note(f, r, FAMILY_CONTENTION);
	if (n)
		timeline_plot(f, &r->tl, &tp);
	else
		html_note(f, "No contended wait was recorded.");
	if (!r->tl.s[r->at.pcp_refill].seen) {
		html_note(f, "PCP refills and drains were not recorded (opt-in: mmtop record "
			  "--enable-probe pcp).");
		html_section_end(f);
		return;
	}
	tp = (struct tl_plot){
		.id = "pcp", .title = "PCP list refills and drains", .what = "(all CPUs and zones)",
		.y_label = "pages/s", .unit = UNIT_PER_S, .series = pcp, .nr = 2,
	};
	timeline_plot(f, &r->tl, &tp);
	html_section_end(f);
}

static void gap_table(FILE *f, const struct timeline *tl)
{
	char a[40], b[40];
	size_t i;

	if (!timeline_gaps(tl)) {
		html_note(f, "No gaps: the intervals cover the span without a break.");
		return;
	}
	fputs("<div class=\"wide\"><table id=\"gaps\"><tr><th class=\"t\">gap from (UTC)</th>"
	      "<th class=\"t\">to</th><th>length</th></tr>\n", f);
	for (i = 1; i < tl->n; i++) {
		if (!timeline_gap_before(tl, i))
			continue;
		format_utc((uint64_t)(tl->end[i - 1] * 1e9), a, sizeof(a));
		format_utc((uint64_t)(tl->start[i] * 1e9), b, sizeof(b));
		fprintf(f, "<tr><td class=\"t\">%s</td><td class=\"t\">%s</td><td>%.1f s</td></tr>\n",
			a, b, tl->start[i] - tl->end[i - 1]);
	}
	fputs("</table></div>\n", f);
}

static void drop_plots(FILE *f, const struct html_report *r)
{
	struct tl_plot tp = {
		.id = "drops", .title = "Drops", .y_label = "per interval", .unit = UNIT_COUNT,
		.what = "(what the collector lost or could not read; mmtop-families(7), Drops)",
		.series = &r->at.drops, .nr = 1,
	};

	html_section(f, "drops", "Drops and gaps");
	timeline_plot(f, &r->tl, &tp);
	gap_table(f, &r->tl);
	html_section_end(f);
}

static void page_head(FILE *f, const struct html_report *r, const struct html_report_info *in)
{
	char title[256], sub[1024], a[40], b[40];
	double span = r->tl.end[r->tl.n - 1] - r->tl.start[0];
	int gaps;

	snprintf(title, sizeof(title), "mmtop report: %s", in->label[0] ? in->label : in->kernel);
	format_utc((uint64_t)(r->tl.start[0] * 1e9), a, sizeof(a));
	format_utc((uint64_t)(r->tl.end[r->tl.n - 1] * 1e9), b, sizeof(b));
	gaps = timeline_gaps(&r->tl);
	snprintf(sub, sizeof(sub), "%s; host %s, kernel %s; %s to %s (%.1f s), %zu intervals, "
		 "%d gap%s", in->source, in->host[0] ? in->host : "?",
		 in->kernel[0] ? in->kernel : "?", a, b, span, r->tl.n, gaps, gaps == 1 ? "" : "s");
	html_page_begin(f, title, sub);
	fputs("<nav><a href=\"#faults\">faults</a><a href=\"#mmap-lock\">mmap_lock</a>"
	      "<a href=\"#blame\">blame</a><a href=\"#forks\">forks</a>"
	      "<a href=\"#contention\">contention</a><a href=\"#drops\">drops</a>"
	      "<a href=\"#summary\">summary</a></nav>\n", f);
	if (r->tl.n > TIMELINE_BUCKETS) {
		snprintf(sub, sizeof(sub), "%zu intervals over %d points of time: each point is "
			 "drawn from the lowest to the highest interval in it, so no spike is "
			 "lost; hover for the values.", r->tl.n, TIMELINE_BUCKETS);
		html_note(f, sub);
	}
}

int html_report_write(struct html_report *r, FILE *f, const struct snapshot *sum,
		      const struct html_report_info *in)
{
	if (!r->tl.n || timeline_bucket(&r->tl))
		return -ENOMEM;
	page_head(f, r, in);
	fault_plots(f, r);
	lock_plots(f, r, sum);
	blame_table(f, sum);
	fork_plots(f, r, sum);
	contention_plots(f, r);
	drop_plots(f, r);
	html_section(f, "summary", "Summary");
	html_note(f, "The recording summed into one interval, as mmtop report prints it.");
	html_pre(f, in->summary);
	html_section_end(f);
	return html_page_end(f);
}
