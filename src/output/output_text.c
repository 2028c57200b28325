// SPDX-License-Identifier: GPL-2.0
/* Text: for people reading a terminal or a log. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "output_common.h"

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

static void local_time(uint64_t ns, char *buf, size_t len)
{
	time_t sec = ns / NSEC_PER_SEC;
	struct tm tm;
	size_t n;

	localtime_r(&sec, &tm);
	n = strftime(buf, len, "%H:%M:%S", &tm);
	snprintf(buf + n, len - n, ".%03u", (unsigned int)(ns % NSEC_PER_SEC / 1000000));
}

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

/* Fault columns, then the VMA-lock columns (n/a: snapshot_vma_na()). */
static void fault_cols(FILE *f, const struct snapshot *s,
		       const struct fault_counts *fc, uint64_t fallbacks,
		       uint64_t anon)
{
	char ok[16];

	if (s->na[FAMILY_FAULTS][0])
		fprintf(f, " %11s %10s %10s %9s", "n/a", "n/a", "n/a", "n/a");
	else
		fprintf(f, " %11.1f %10.1f %10" PRIu64 " %9" PRIu64,
			snapshot_rate(s, fc->min_flt), snapshot_rate(s, fc->maj_flt),
			fc->min_flt, fc->maj_flt);
	if (snapshot_vma_na(s)) {
		fprintf(f, " %9s %7s %7s\n", "n/a", "n/a", "n/a");
		return;
	}
	percent(ok, sizeof(ok), s->na[FAMILY_FAULTS][0] ? -1 :
		vma_ok(fc->min_flt + fc->maj_flt, fallbacks, anon));
	fprintf(f, " %9" PRIu64 " %7" PRIu64 " %7s\n", fallbacks, anon, ok);
}

static void write_header(FILE *f, const struct snapshot *s)
{
	char when[32], probes[256], ok[16], line[256], cost[160];
	int i;

	local_time(s->wall_ns, when, sizeof(when));
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
	int i;

	fprintf(f, "  CPU NODE STATE      MINFLT/s   MAJFLT/s     MINFLT    MAJFLT  FALLBACK    ANON VMA-OK%%\n");
	for (i = 0; i < s->nr_cpus; i++) {
		const struct cpu_sample *c = &s->cpus[i];

		fprintf(f, "%5d %4d %-7s", i, c->node, c->online ? "online" : "offline");
		fault_cols(f, s, &c->faults, c->fallbacks, c->anon);
	}
	fprintf(f, " NODE CPUS              MINFLT/s   MAJFLT/s     MINFLT    MAJFLT  FALLBACK    ANON VMA-OK%%\n");
	for (i = 0; i < s->nr_nodes; i++) {
		const struct node_sample *n = &s->nodes[i];

		fprintf(f, "%5d %4d %7s", i, n->nr_online, "");
		fault_cols(f, s, &n->faults, n->fallbacks, n->anon);
	}
}

static void pcp_cols(FILE *f, const struct snapshot *s, const struct pcp_counts *p)
{
	fprintf(f, " %9.1f %9" PRIu64 " %9.1f %9" PRIu64 " %9" PRIu64 "\n",
		snapshot_rate(s, p->refills), p->refill_pages,
		snapshot_rate(s, p->drains), p->drain_pages, p->buddy_pages);
}

static void write_pcp(FILE *f, const struct snapshot *s)
{
	int i;

	if (s->na[FAMILY_PCP][0])
		return;
	fprintf(f, " PCP lists; %s\n", safe(s->pcp_method));
	fprintf(f, "  CPU       REFILL/s  R_PAGES   DRAIN/s  D_PAGES     BUDDY\n");
	for (i = 0; i < s->nr_cpus; i++) {
		fprintf(f, "%5d      ", i);
		pcp_cols(f, s, &s->cpus[i].pcp);
	}
	for (i = 0; i < s->zones.nr; i++) {
		fprintf(f, " %2d %-8.8s", s->zones.v[i].node, safe(s->zones.v[i].name));
		pcp_cols(f, s, &s->zones.v[i].pcp);
	}
}

static int by_time_spent(const void *a, const void *b)
{
	const struct lock_row *x = *(struct lock_row *const *)a;
	const struct lock_row *y = *(struct lock_row *const *)b;
	uint64_t tx = x->wait_ns + x->hold_ns, ty = y->wait_ns + y->hold_ns;

	return tx < ty ? 1 : tx > ty ? -1 : 0;
}

/* "-" where exact mode was off: the default set counts waits alone. */
static void write_lock_row(FILE *f, const struct lock_row *r, bool known)
{
	char b[8][16];

	snprintf(b[6], 16, "%" PRIu64, r->acquired);
	snprintf(b[7], 16, "%" PRIu64, r->failed);
	fprintf(f, "%7d %-16s %-20.20s %-5s %-5s %8s %6s %7" PRIu64 " %8s %8s %10s %8s %8s %10s\n",
		r->pid, safe(r->comm), safe(callsite_label(r->site, r->symbol)),
		r->write ? "write" : "read", r->foreign ? "other" : "own",
		known ? b[6] : "-", known ? b[7] : "-", lock_row_waits(r),
		format_ns(hist_quantile(&r->wait, 0.5, r->wait_max_ns), b[0], 16),
		format_ns(hist_quantile(&r->wait, 0.99, r->wait_max_ns), b[1], 16),
		format_max(r->wait_max_ns, r->wait_max_bound, b[2], 16),
		known ? format_ns(hist_quantile(&r->hold, 0.5, r->hold_max_ns), b[3], 16) : "-",
		known ? format_ns(hist_quantile(&r->hold, 0.99, r->hold_max_ns), b[4], 16) : "-",
		known ? format_max(r->hold_max_ns, r->hold_max_bound, b[5], 16) : "-");
}

static void write_locks(FILE *f, const struct snapshot *s)
{
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
	fprintf(f, "    PID COMM             SITE                 MODE  MM         ACQ   FAIL   WAITS WAIT-p50      p99        max HOLD-p50      p99        max\n");
	for (i = 0; i < n && i < TEXT_LOCK_ROWS; i++)
		write_lock_row(f, rows[i], snapshot_acquisitions(s));
	free(rows);
}

/* A process's faults; its outcome "-" where n/a (exact mode's). */
static void write_vmas(FILE *f, const struct snapshot *s)
{
	bool na = snapshot_vma_na(s);
	int i;

	if (!s->vmas.nr)
		return;
	fprintf(f, " VMA lock per process%s\n", na ? " (the outcome n/a: see vma-lock above)" : "");
	fprintf(f, "    PID COMM                 FAULTS  FALLBACK     ANON VMA-OK%%\n");
	for (i = 0; i < s->vmas.nr; i++) {
		const struct vma_row *v = &s->vmas.v[i];
		char faults[24], ok[16], fb[24], an[24];

		if (v->faults < 0)
			snprintf(faults, sizeof(faults), "n/a");
		else
			snprintf(faults, sizeof(faults), "%" PRId64, v->faults);
		if (v->faults < 0 || na)
			snprintf(ok, sizeof(ok), "n/a");
		else
			percent(ok, sizeof(ok), vma_ok(v->faults, v->fallbacks, v->anon));
		snprintf(fb, sizeof(fb), "%" PRIu64, v->fallbacks);
		snprintf(an, sizeof(an), "%" PRIu64, v->anon);
		fprintf(f, "%7d %-16s %10s %9s %8s %7s\n", v->pid, safe(v->comm), faults,
			na ? "-" : fb, na ? "-" : an, ok);
	}
}

/* Who waited behind whom; "*" marks a holder in another process. */
static void write_blame(FILE *f, const struct snapshot *s)
{
	const struct blame_row **rows;
	int i, n = s->blame.nr;
	char b[2][16], h[12];

	if (lock_na(s) || !n || !(rows = malloc(n * sizeof(*rows))))
		return;
	for (i = 0; i < n; i++)
		rows[i] = &s->blame.v[i];
	ROWS_SORT_DESC(rows, n, struct blame_row, wait_ns);
	fprintf(f, " mmap_lock waits by holder: %d row%s%s\n", n, n == 1 ? "" : "s",
		n > TEXT_LOCK_ROWS ? ", the 20 with most wait" : "");
	if (s->holders[0] && !snapshot_acquisitions(s))
		fprintf(f, " a wait's holder: %s\n", s->holders);
	fprintf(f, "    PID COMM             SITE            MODE  <-  HOLDER COMM             SITE            MODE     COUNT    TOTAL        max\n");
	for (i = 0; i < n && i < TEXT_LOCK_ROWS; i++) {
		const struct blame_row *r = rows[i];

		fprintf(f, "%7d %-16s %-15.15s %-5s <- %6s%s%-16s %-15.15s %-5s %8" PRIu64 " %8s %10s\n",
			r->pid, safe(r->comm), safe(callsite_label(r->site, r->symbol)),
			r->write ? "write" : "read", blame_holder_pid(r, h, sizeof(h)),
			blame_foreign(r) ? "*" : " ", safe(r->holder_comm),
			safe(callsite_label(r->holder_site, r->holder_symbol)),
			r->holder_write ? "write" : "read", r->count,
			format_ns(r->wait_ns, b[0], 16),
			format_max(r->wait_max_ns, r->wait_max_bound, b[1], 16));
	}
	free(rows);
}

static void write_conts(FILE *f, const struct snapshot *s)
{
	const struct cont_row **rows;
	int i, n = s->conts.nr;
	char b[4][16];

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
	fprintf(f, "  CLASS           BY      PID COMM             CALLER                   TYPE         MODE     COUNT    TOTAL      p50      p99        max\n");
	for (i = 0; i < n && i < TEXT_LOCK_ROWS; i++) {
		const struct cont_row *r = rows[i];

		fprintf(f, "  %-15s %-5s %7d %-16s %-24.24s %-12s %-5s %8" PRIu64 " %8s %8s %8s %10s\n",
			cont_class_name(r->cls), r->by_address ? "addr" : "stack",
			r->pid, r->pid ? safe(r->comm) : "-", r->caller[0] ? safe(r->caller) : "?",
			safe(r->type), safe(r->mode), r->count,
			format_ns(r->wait_ns, b[0], 16),
			format_ns(hist_quantile(&r->wait, 0.5, r->wait_max_ns), b[1], 16),
			format_ns(hist_quantile(&r->wait, 0.99, r->wait_max_ns), b[2], 16),
			format_max(r->wait_max_ns, r->wait_max_bound, b[3], 16));
	}
	free(rows);
}

static void write_forks(FILE *f, const struct snapshot *s)
{
	const struct fork_row **rows;
	struct fork_agg a;
	char b[5][16];
	int i;

	if (s->na[FAMILY_FORK][0] || !s->forks.nr)
		return;
	fork_agg(s, &a);
	fprintf(f, " forks: %" PRIu64 " (%.1f/s), latency mean %s max %s, cost per MiB of parent RSS: 4K-backed %s, THP-backed %s\n",
		a.count, snapshot_rate(s, a.count),
		a.timed ? format_ns(a.latency_ns / a.timed, b[0], 16) : "-",
		a.timed ? format_ns(a.latency_max_ns, b[1], 16) : "-",
		a.kb_4k ? format_ns(fork_cost_per_mib(a.ns_4k, a.kb_4k), b[2], 16) : "-",
		a.kb_thp ? format_ns(fork_cost_per_mib(a.ns_thp, a.kb_thp), b[3], 16) : "-");
	rows = malloc(s->forks.nr * sizeof(*rows));
	if (!rows)
		return;
	for (i = 0; i < s->forks.nr; i++)
		rows[i] = &s->forks.v[i];
	ROWS_SORT_DESC(rows, s->forks.nr, struct fork_row, latency_ns);
	fprintf(f, "    PID COMM             CHILD SYSCALL   LATENCY   ANON_MB FILE_MB  THP_MB BACK  COST/MiB  DUP_HOLD STALLED\n");
	for (i = 0; i < s->forks.nr && i < TEXT_LOCK_ROWS; i++) {
		const struct fork_row *k = rows[i];

		fprintf(f, "%7d %-16s %7d %-7s %9s %9.1f %7.1f %7s %-4s %9s %9s %7u\n",
			k->pid, safe(k->comm), k->child, safe(k->syscall),
			fork_timed(k) ? format_ns(k->latency_ns, b[0], 16) : "-",
			k->anon_kb / 1024.0,
			k->file_kb / 1024.0,
			k->thp_kb >= 0 ? (snprintf(b[4], 16, "%.1f", k->thp_kb / 1024.0), b[4]) : "?",
			fork_backing(k),
			fork_timed(k) ? format_ns(fork_cost_per_mib(k->latency_ns, k->anon_kb +
								    k->file_kb + k->shmem_kb), b[1], 16) : "-",
			k->dup_hold_ns ? format_ns(k->dup_hold_ns, b[2], 16) : "-", k->stalled);
	}
	free(rows);
}

/* "mmap_lock munmap", or "zone" for a contended wait. */
static void event_what(const struct slow_event *e, char *buf, size_t len)
{
	if (e->contention)
		snprintf(buf, len, "%s %s", cont_class_name(e->cls), e->symbol);
	else
		snprintf(buf, len, "mmap_lock %s", callsite_label(e->site, e->symbol));
}

static void write_events(FILE *f, const struct snapshot *s)
{
	char b[3][16];
	int i;

	if (!s->events.nr)
		return;
	fprintf(f, " slow lock waits and holds (>= %s)\n", format_ns(s->slow_ns, b[0], 16));
	fprintf(f, "  TIME            PID     TID CPU COMM             WHAT                           MODE  MM        WAIT     HOLD BEHIND\n");
	for (i = 0; i < s->events.nr; i++) {
		const struct slow_event *e = &s->events.v[i];
		char when[32], what[96], behind[96] = "-";

		local_time(e->wall_ns, when, sizeof(when));
		event_what(e, what, sizeof(what));
		if (e->holder_pid)
			snprintf(behind, sizeof(behind), "%d %s %s %s", e->holder_pid,
				 safe(e->holder_comm),
				 callsite_label(e->holder_site, e->holder_symbol),
				 e->holder_write ? "write" : "read");
		fprintf(f, "  %-12s %7d %7d %3d %-16s %-30.30s %-5s %-5s %8s %8s %s\n", when,
			e->pid, e->tid, e->cpu, safe(e->comm), safe(what),
			slow_event_mode(e),
			e->contention ? "-" : e->foreign ? "other" : "own",
			format_ns(e->wait_ns, b[1], 16),
			e->hold_ns ? format_ns(e->hold_ns, b[2], 16) : "-", safe(behind));
	}
}

void write_text(FILE *f, const struct snapshot *s)
{
	write_header(f, s);
	write_cpus(f, s);
	write_pcp(f, s);
	write_locks(f, s);
	write_vmas(f, s);
	write_blame(f, s);
	write_conts(f, s);
	write_forks(f, s);
	write_events(f, s);
	fputc('\n', f);
}
