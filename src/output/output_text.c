// SPDX-License-Identifier: GPL-2.0
/* Text: for people reading a terminal or a log. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cgroup_pairs.h"
#include "output_common.h"
#include "row_fields.h"
#include "text_table.h"

#include "util.h"

/*
 * A string of the snapshot (a process name, or anything read from a
 * recording) fit for one line of a terminal: see text_safe. Each call
 * has its own buffer, for up to eight in one fprintf.
 */
static const char *safe(const char *s)
{
	static char ring[8][4 * SNAPSHOT_NA_LEN + 1];
	static unsigned int next;

	return text_safe(s, ring[next++ % 8], sizeof(ring[0]));
}

#define TEXT_LOCK_ROWS 20

static void percent(char *buf, size_t len, double ratio)
{
	if (ratio < 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.1f", ratio * 100);
}

static bool lock_na(const struct snapshot *s)
{
	return s->na[FAMILY_MMAP_LOCK][0];
}

/* The fault columns, then the VMA-lock columns, of the CPU and node tables. */
#define FAULT_COLS							\
	TEXT_NUM("MINFLT/s", 11), TEXT_NUM("MAJFLT/s", 10),		\
	TEXT_NUM("MINFLT", 10), TEXT_NUM("MAJFLT", 9),			\
	TEXT_NUM("FALLBACK", 9), TEXT_NUM("ANON", 7), TEXT_NUM("VMA-OK%", 7)

static const struct text_col cpu_cols[] = {
	TEXT_NUM("CPU", 5), TEXT_NUM("NODE", 4), TEXT_WORD("STATE", 7), FAULT_COLS,
};
static const struct text_col node_cols[] = {
	TEXT_NUM("NODE", 5), TEXT_NUM("CPUS", 4), TEXT_WORD("", 7), FAULT_COLS,
};

/* Fault cells, then the VMA-lock cells (n/a: snapshot_vma_na()). */
static void fault_cells(struct text_row *r, const struct snapshot *s,
			const struct fault_counts *fc, uint64_t fallbacks, uint64_t anon)
{
	char ok[16];
	int i;

	if (s->na[FAMILY_FAULTS][0]) {
		for (i = 0; i < 4; i++)
			text_cell(r, "n/a");
	} else {
		text_cell(r, "%.1f", snapshot_rate(s, fc->min_flt));
		text_cell(r, "%.1f", snapshot_rate(s, fc->maj_flt));
		text_cell(r, "%" PRIu64, fc->min_flt);
		text_cell(r, "%" PRIu64, fc->maj_flt);
	}
	if (snapshot_vma_na(s)) {
		for (i = 0; i < 3; i++)
			text_cell(r, "n/a");
	} else {
		percent(ok, sizeof(ok), s->na[FAMILY_FAULTS][0] ? -1 :
			vma_ok(fc->min_flt + fc->maj_flt, fallbacks, anon));
		text_cell(r, "%" PRIu64, fallbacks);
		text_cell(r, "%" PRIu64, anon);
		text_cell(r, "%s", ok);
	}
	text_row_end(r);
}

static void write_header(FILE *f, const struct snapshot *s)
{
	char when[32], probes[256], ok[16], line[256], cost[160];
	int i;

	format_clock(s->wall_ns, when, sizeof(when));
	probe_list(s, probes, sizeof(probes), ",", "");
	if (snapshot_vma_na(s))
		snprintf(ok, sizeof(ok), "n/a");
	else
		percent(ok, sizeof(ok),
			vma_ok(s->total.min_flt + s->total.maj_flt, s->fallbacks, s->anon));
	fprintf(f, "%s  interval %.3fs  faults/s %.1f (minor %.1f, major %.1f)  vma-lock ok %s%s  drops %" PRIu64 "  probes %s\n",
		when, s->interval_ns / 1e9,
		snapshot_rate(s, s->total.min_flt + s->total.maj_flt),
		snapshot_rate(s, s->total.min_flt),
		snapshot_rate(s, s->total.maj_flt), ok, snapshot_vma_na(s) ? "" : "%",
		snapshot_drops(s),
		probes[0] ? probes : "none");
	for (i = 0; i < FAMILY__COUNT; i++)
		if (s->na[i][0])
			fprintf(f, "  %s: n/a (%s)\n", family_name(i), safe(s->na[i]));
	snapshot_sampling_text(s, line, sizeof(line));
	snapshot_cost_text(s, cost, sizeof(cost));
	fprintf(f, "  %s; %s\n", line, cost);
	if (s->vma_na[0] && !s->na[FAMILY_MMAP_LOCK][0])
		fprintf(f, "  vma-lock: n/a (%s)\n", safe(s->vma_na));
}

static void write_cpus(FILE *f, const struct snapshot *s)
{
	static const struct text_table cpus = TEXT_TABLE(0, cpu_cols);
	static const struct text_table nodes = TEXT_TABLE(0, node_cols);
	struct text_row r;
	int i;

	text_header(f, &cpus);
	for (i = 0; i < s->nr_cpus; i++) {
		const struct cpu_sample *c = &s->cpus[i];

		r = text_row_begin(f, &cpus);
		text_cell(&r, "%d", i);
		text_cell(&r, "%d", c->node);
		text_cell(&r, "%s", c->online ? "online" : "offline");
		fault_cells(&r, s, &c->faults, c->fallbacks, c->anon);
	}
	text_header(f, &nodes);
	for (i = 0; i < s->nr_nodes; i++) {
		const struct node_sample *n = &s->nodes[i];

		r = text_row_begin(f, &nodes);
		text_cell(&r, "%d", i);
		text_cell(&r, "%d", n->nr_online);
		text_cell(&r, "%s", "");
		fault_cells(&r, s, &n->faults, n->fallbacks, n->anon);
	}
}

#define PCP_COLS							\
	TEXT_NUM("REFILL/s", 9), TEXT_NUM("R_PAGES", 9), TEXT_NUM("DRAIN/s", 9),	\
	TEXT_NUM("D_PAGES", 9), TEXT_NUM("BUDDY", 9)

static const struct text_col pcp_cpu_cols[] = { TEXT_NUM("CPU", 5), PCP_COLS };
static const struct text_col pcp_zone_cols[] = {
	TEXT_NUM("NODE", 5), TEXT_WORD("ZONE", 8), PCP_COLS,
};

static void pcp_cells(struct text_row *r, const struct snapshot *s, const struct pcp_counts *p)
{
	text_cell(r, "%.1f", snapshot_rate(s, p->refills));
	text_cell(r, "%" PRIu64, p->refill_pages);
	text_cell(r, "%.1f", snapshot_rate(s, p->drains));
	text_cell(r, "%" PRIu64, p->drain_pages);
	text_cell(r, "%" PRIu64, p->buddy_pages);
	text_row_end(r);
}

/* Each CPU's lists, then each zone's buddy traffic. */
static void write_pcp(FILE *f, const struct snapshot *s)
{
	static const struct text_table cpus = TEXT_TABLE(0, pcp_cpu_cols);
	static const struct text_table zones = TEXT_TABLE(0, pcp_zone_cols);
	struct text_row r;
	int i;

	if (s->na[FAMILY_PCP][0])
		return;
	fprintf(f, " PCP lists; %s\n", safe(s->pcp_method));
	text_header(f, &cpus);
	for (i = 0; i < s->nr_cpus; i++) {
		r = text_row_begin(f, &cpus);
		text_cell(&r, "%d", i);
		pcp_cells(&r, s, &s->cpus[i].pcp);
	}
	if (!s->zones.nr)
		return;
	text_header(f, &zones);
	for (i = 0; i < s->zones.nr; i++) {
		r = text_row_begin(f, &zones);
		text_cell(&r, "%d", s->zones.v[i].node);
		text_cell(&r, "%s", safe(s->zones.v[i].name));
		pcp_cells(&r, s, &s->zones.v[i].pcp);
	}
}

static int by_time_spent(const void *a, const void *b)
{
	const struct lock_row *x = *(struct lock_row *const *)a;
	const struct lock_row *y = *(struct lock_row *const *)b;
	uint64_t tx = x->wait_ns + x->hold_ns, ty = y->wait_ns + y->hold_ns;

	return tx < ty ? 1 : tx > ty ? -1 : 0;
}

/*
 * A table of row type @t's fields, as the field table titles and shows
 * them: the columns are the table's choice (@names).
 */
struct field_table {
	struct text_table t;
	struct text_col cols[ROW_TABLE_COLS_MAX];
	const struct row_field *fields[ROW_TABLE_COLS_MAX];
};

static void field_table_init(struct field_table *ft, int indent, const struct row_type *t,
			     const char *const *names, int n)
{
	int i;

	row_fields_pick(t, names, n, ft->fields);
	for (i = 0; i < n; i++) {
		const struct row_field *f = ft->fields[i];

		ft->cols[i] = (struct text_col){ .name = f->title, .width = f->width,
						 .left = field_words(f), .cut = f->show == SHOW_CUT };
	}
	ft->t = (struct text_table){ .indent = indent, .nr = n, .cols = ft->cols };
}

static void field_row(FILE *f, const struct field_table *ft, const void *row,
		      const struct snapshot *s)
{
	struct text_row r = text_row_begin(f, &ft->t);
	char b[160];
	double key;
	int i;

	for (i = 0; i < ft->t.nr; i++)
		text_cell(&r, "%s", safe(field_shown(ft->fields[i], row, s, b, sizeof(b), &key)));
	text_row_end(&r);
}

#define FIELD_TABLE(ft, indent, type, names)				\
	field_table_init(ft, indent, &row_types[type], names, sizeof(names) / sizeof(*(names)))

static void write_locks(FILE *f, const struct snapshot *s)
{
	/* "-" where exact mode was off: the default set counts waits alone. */
	static const char *const shown[] = {
		"pid", "comm", "site", "write", "foreign", "acquired", "failed", "waits",
		"wait_p50_ns", "wait_p99_ns", "wait_max_ns", "hold_p50_ns", "hold_p99_ns",
		"hold_max_ns",
	};
	struct field_table locks;
	const struct lock_row **rows;
	int i, n = s->locks.nr;

	if (lock_na(s))
		return;
	fprintf(f, " mmap_lock: %d row%s%s\n", n, n == 1 ? "" : "s",
		n > TEXT_LOCK_ROWS ? ", the 20 with most wait+hold time" : "");
	if (!n)
		return;
	rows = malloc(n * sizeof(*rows));
	if (!rows)
		return;
	for (i = 0; i < n; i++)
		rows[i] = &s->locks.v[i];
	qsort(rows, n, sizeof(*rows), by_time_spent);
	FIELD_TABLE(&locks, 0, ROWS_LOCK, shown);
	text_header(f, &locks.t);
	for (i = 0; i < n && i < TEXT_LOCK_ROWS; i++)
		field_row(f, &locks, rows[i], s);
	free(rows);
}

/* A process's faults; its outcome "-" where n/a (exact mode's). */
static void write_vmas(FILE *f, const struct snapshot *s)
{
	static const char *const shown[] = {
		"pid", "comm", "faults", "fallbacks", "anon", "vma_ok",
	};
	struct field_table vmas;
	int i;

	if (!s->vmas.nr)
		return;
	fprintf(f, " VMA lock per process%s\n",
		snapshot_vma_na(s) ? " (the outcome n/a: see vma-lock above)" : "");
	FIELD_TABLE(&vmas, 0, ROWS_VMA, shown);
	text_header(f, &vmas.t);
	for (i = 0; i < s->vmas.nr; i++)
		field_row(f, &vmas, &s->vmas.v[i], s);
}

/* Who waited behind whom; "*" marks a holder in another process. */
static void write_blame(FILE *f, const struct snapshot *s)
{
	static const char *const shown[] = {
		"pid", "comm", "site", "write", "holder_pid", "holder_comm", "holder_site",
		"holder_write", "count", "wait_ns", "wait_max_ns",
	};
	struct field_table blame;
	const struct blame_row **rows;
	int i, n = s->blame.nr;

	if (lock_na(s) || !n || !(rows = malloc(n * sizeof(*rows))))
		return;
	for (i = 0; i < n; i++)
		rows[i] = &s->blame.v[i];
	ROWS_SORT_DESC(rows, n, struct blame_row, wait_ns);
	fprintf(f, " mmap_lock waits by holder: %d row%s%s\n", n, n == 1 ? "" : "s",
		n > TEXT_LOCK_ROWS ? ", the 20 with most wait" : "");
	if (s->holders[0] && !snapshot_acquisitions(s))
		fprintf(f, " a wait's holder: %s\n", s->holders);
	FIELD_TABLE(&blame, 0, ROWS_BLAME, shown);
	text_header(f, &blame.t);
	for (i = 0; i < n && i < TEXT_LOCK_ROWS; i++)
		field_row(f, &blame, rows[i], s);
	free(rows);
}

static const struct text_col cgroup_cols[] = {
	TEXT_CUT("CGROUP", 30), TEXT_WORD("<-", 2), TEXT_CUT("HOLDER CGROUP", 30),
	TEXT_NUM("COUNT", 8), TEXT_NUM("TOTAL", 8), TEXT_NUM("max", 10),
};

/* The same waits by the waiter's cgroup and the holder's ("-": nobody seen). */
static void write_cgroup_pairs(FILE *f, const struct snapshot *s)
{
	static const struct text_table table = TEXT_TABLE(0, cgroup_cols);
	struct cgroup_pair *v;
	int i, n = lock_na(s) ? 0 : cgroup_pairs_of(s, &v);
	char b[16];

	if (!n && s->blame.nr && s->cgroups_na[0])
		fprintf(f, " mmap_lock waits by cgroup: n/a (%s)\n", s->cgroups_na);
	if (n <= 0)
		return;
	fprintf(f, " mmap_lock waits by cgroup: %d pair%s%s\n", n, n == 1 ? "" : "s",
		n > TEXT_LOCK_ROWS ? ", the 20 with most wait" : "");
	text_header(f, &table);
	for (i = 0; i < n && i < TEXT_LOCK_ROWS; i++) {
		struct text_row r = text_row_begin(f, &table);

		text_cell(&r, "%s", safe(v[i].cgroup));
		text_cell(&r, "<-");
		text_cell(&r, "%s", v[i].holder_cgroup[0] ? safe(v[i].holder_cgroup) : "-");
		text_cell(&r, "%" PRIu64, v[i].count);
		text_cell(&r, "%s", format_ns(v[i].wait_ns, b, 16));
		text_cell(&r, "%s", format_max(v[i].wait_max_ns, v[i].wait_max_bound, b, 16));
		text_row_end(&r);
	}
	free(v);
}

static void write_conts(FILE *f, const struct snapshot *s)
{
	static const char *const shown[] = {
		"cls", "by_address", "pid", "comm", "caller", "type", "mode", "count",
		"wait_ns", "wait_p50_ns", "wait_p90_ns", "wait_p99_ns", "wait_max_ns",
	};
	struct field_table conts;
	const struct cont_row **rows;
	int i, n = s->conts.nr;

	if (s->na[FAMILY_CONTENTION][0])
		return;
	fprintf(f, " lock contention: %d row%s%s; classified by %s\n", n,
		n == 1 ? "" : "s", n > TEXT_LOCK_ROWS ? ", the 20 with most wait" : "",
		safe(s->cont_method));
	if (!n || !(rows = malloc(n * sizeof(*rows))))
		return;
	for (i = 0; i < n; i++)
		rows[i] = &s->conts.v[i];
	ROWS_SORT_DESC(rows, n, struct cont_row, wait_ns);
	FIELD_TABLE(&conts, 2, ROWS_CONT, shown);
	text_header(f, &conts.t);
	for (i = 0; i < n && i < TEXT_LOCK_ROWS; i++)
		field_row(f, &conts, rows[i], s);
	free(rows);
}

static void write_forks(FILE *f, const struct snapshot *s)
{
	static const char *const shown[] = {
		"pid", "comm", "child", "syscall", "latency_ns", "anon_kb", "file_kb", "thp_kb",
		"backing", "cost_ns_per_mib", "dup_hold_ns", "stalled",
	};
	struct field_table forks;
	const struct fork_row **rows;
	struct fork_agg a;
	char b[4][16];
	int i;

	if (s->na[FAMILY_FORK][0] || !s->forks.nr)
		return;
	fork_agg(s, &a);
	if (!a.timed)
		fprintf(f, " forks: %" PRIu64 " (%.1f/s), latency and cost not measured (%s)\n",
			a.count, snapshot_rate(s, a.count), safe(fork_untimed_why(s)));
	else
		fprintf(f, " forks: %" PRIu64 " (%.1f/s), latency mean %s max %s, cost per MiB of parent RSS: 4K-backed %s, THP-backed %s\n",
			a.count, snapshot_rate(s, a.count),
			format_ns(a.latency_ns / a.timed, b[0], 16),
			format_ns(a.latency_max_ns, b[1], 16),
			a.kb_4k ? format_ns(fork_cost_per_mib(a.ns_4k, a.kb_4k), b[2], 16) : "-",
			a.kb_thp ? format_ns(fork_cost_per_mib(a.ns_thp, a.kb_thp), b[3], 16) : "-");
	rows = malloc(s->forks.nr * sizeof(*rows));
	if (!rows)
		return;
	for (i = 0; i < s->forks.nr; i++)
		rows[i] = &s->forks.v[i];
	ROWS_SORT_DESC(rows, s->forks.nr, struct fork_row, latency_ns);
	FIELD_TABLE(&forks, 0, ROWS_FORK, shown);
	text_header(f, &forks.t);
	for (i = 0; i < s->forks.nr && i < TEXT_LOCK_ROWS; i++)
		field_row(f, &forks, rows[i], s);
	free(rows);
}

static void write_events(FILE *f, const struct snapshot *s)
{
	static const char *const shown[] = {
		"wall_ns", "pid", "tid", "cpu", "comm", "lock_name", "what", "mode", "foreign",
		"wait_ns", "hold_ns", "behind",
	};
	struct field_table events;
	char b[16];
	int i;

	if (!s->events.nr)
		return;
	fprintf(f, " slow lock waits and holds (>= %s)\n", format_ns(s->slow_ns, b, 16));
	FIELD_TABLE(&events, 2, ROWS_EVENT, shown);
	text_header(f, &events.t);
	for (i = 0; i < s->events.nr; i++)
		field_row(f, &events, &s->events.v[i], s);
}

void write_text(FILE *f, const struct snapshot *s)
{
	write_header(f, s);
	write_cpus(f, s);
	write_pcp(f, s);
	write_locks(f, s);
	write_vmas(f, s);
	write_blame(f, s);
	write_cgroup_pairs(f, s);
	write_conts(f, s);
	write_forks(f, s);
	write_events(f, s);
	fputc('\n', f);
}
