// SPDX-License-Identifier: GPL-2.0
/* JSON: one object per interval, on one line. */
#include <inttypes.h>
#include <string.h>

#include "output_common.h"
#include "row_fields.h"
#include "util.h"

/*
 * A JSON string that is valid UTF-8 whatever @s holds: control characters
 * (C0, DEL, C1) as \u00XX, bytes that are not UTF-8 as the text \xNN.
 */
static void json_str(FILE *f, const char *s)
{
	unsigned int cp;
	bool plain;
	int n;

	fputc('"', f);
	for (; (n = text_char(s, &plain, &cp)); s += n) {
		if (plain && (*s == '"' || *s == '\\'))
			fprintf(f, "\\%c", *s);
		else if (plain)
			fwrite(s, 1, n, f);
		else if (n > 1 || cp < 0x20 || cp == 0x7f)
			fprintf(f, "\\u%04x", cp);	/* C0, C1, format characters */
		else
			fprintf(f, "\\\\x%02x", cp);
	}
	fputc('"', f);
}

static void json_ratio(FILE *f, double r)
{
	if (r < 0)
		fputs("null", f);
	else
		fprintf(f, "%.6f", r);
}

/* The fault fields of a total, CPU or node object. */
static void json_faults(FILE *f, const struct snapshot *s,
			const struct fault_counts *fc, uint64_t fallbacks,
			uint64_t anon)
{
	if (s->na[FAMILY_FAULTS][0])
		fputs("\"minflt\":null,\"majflt\":null,\"minflt_per_s\":null,\"majflt_per_s\":null", f);
	else
		fprintf(f, "\"minflt\":%" PRIu64 ",\"majflt\":%" PRIu64 ",\"minflt_per_s\":%.3f,\"majflt_per_s\":%.3f",
			fc->min_flt, fc->maj_flt, snapshot_rate(s, fc->min_flt),
			snapshot_rate(s, fc->maj_flt));
	if (snapshot_vma_na(s)) {
		fputs(",\"fallbacks\":null,\"anon\":null,\"vma_ok\":null", f);
		return;
	}
	fprintf(f, ",\"fallbacks\":%" PRIu64 ",\"anon\":%" PRIu64 ",\"vma_ok\":",
		fallbacks, anon);
	json_ratio(f, s->na[FAMILY_FAULTS][0] ? -1 :
		   vma_ok(fc->min_flt + fc->maj_flt, fallbacks, anon));
}

static void json_pcp(FILE *f, const struct snapshot *s, const struct pcp_counts *p)
{
	if (s->na[FAMILY_PCP][0]) {
		fputs(",\"pcp\":null", f);
		return;
	}
	fprintf(f, ",\"pcp\":{\"refills\":%" PRIu64 ",\"refill_pages\":%" PRIu64
		",\"drains\":%" PRIu64 ",\"drain_pages\":%" PRIu64 ",\"buddy_pages\":%" PRIu64 "}",
		p->refills, p->refill_pages, p->drains, p->drain_pages, p->buddy_pages);
}

static void json_hist(FILE *f, const char *name, const struct hist *h)
{
	int i;

	fprintf(f, ",\"%s\":[", name);
	for (i = 0; i < SNAPSHOT_HIST_BUCKETS; i++)
		fprintf(f, "%s%" PRIu64, i ? "," : "", h->bucket[i]);
	fputc(']', f);
}

/* Only with --raw-addresses: otherwise there is none to print. */
static void json_addr(FILE *f, uint64_t addr)
{
	if (addr)
		fprintf(f, ",\"site_addr\":\"0x%" PRIx64 "\"", addr);
}

static void json_who(FILE *f, int pid, const char *comm, enum callsite site,
		     const char *symbol, bool write, bool foreign)
{
	fprintf(f, "\"pid\":%d,\"comm\":", pid);
	json_str(f, comm);
	fprintf(f, ",\"site\":\"%s\",\"symbol\":", callsite_name(site));
	json_str(f, symbol);
	fprintf(f, ",\"mode\":\"%s\",\"mm\":\"%s\"", write ? "write" : "read",
		foreign ? "other" : "own");
}

static const char *json_bool(bool b)
{
	return b ? "true" : "false";
}

/*
 * An mmap_lock row. Its acquisition figures (acquired, failed, holds and
 * the holds' times) are null where exact mode was off: the default set
 * counts waits alone. Each row's writer leaves its object open for the
 * table's fields (waits, the waits among them, first: appended in schema 1).
 */
static void json_lock(FILE *f, const struct snapshot *s, const void *row)
{
	const struct lock_row *r = row;
	bool known = snapshot_acquisitions(s);

	fputc('{', f);
	json_who(f, r->pid, r->comm, r->site, r->symbol, r->write, r->foreign);
	json_addr(f, r->site_addr);
	if (known)
		fprintf(f, ",\"acquired\":%" PRIu64 ",\"failed\":%" PRIu64 ",\"holds\":%" PRIu64,
			r->acquired, r->failed, r->holds);
	else
		fprintf(f, ",\"acquired\":null,\"failed\":null,\"holds\":null");
	fprintf(f, ",\"wait_total_ns\":%" PRIu64 ",\"wait_max_ns\":%" PRIu64,
		r->wait_ns, r->wait_max_ns);
	if (known)
		fprintf(f, ",\"hold_total_ns\":%" PRIu64 ",\"hold_max_ns\":%" PRIu64,
			r->hold_ns, r->hold_max_ns);
	else
		fprintf(f, ",\"hold_total_ns\":null,\"hold_max_ns\":null");
	fprintf(f, ",\"wait_max_bound\":%s,\"hold_max_bound\":%s", json_bool(r->wait_max_bound),
		known ? json_bool(r->hold_max_bound) : "null");
	json_hist(f, "wait_hist", &r->wait);
	if (known)
		json_hist(f, "hold_hist", &r->hold);
	else
		fprintf(f, ",\"hold_hist\":null");
}

/* A process's faults; its outcome null where it is n/a (vma_lock_na). */
static void json_vma(FILE *f, const struct snapshot *s, const void *row)
{
	const struct vma_row *v = row;
	bool outcome = !snapshot_vma_na(s);

	fprintf(f, "{\"pid\":%d,\"comm\":", v->pid);
	json_str(f, v->comm);
	if (v->faults < 0)
		fputs(",\"faults\":null", f);
	else
		fprintf(f, ",\"faults\":%" PRId64, v->faults);
	if (!outcome) {
		fputs(",\"fallbacks\":null,\"anon\":null,\"vma_ok\":null", f);
		return;
	}
	fprintf(f, ",\"fallbacks\":%" PRIu64 ",\"anon\":%" PRIu64 ",\"vma_ok\":",
		v->fallbacks, v->anon);
	json_ratio(f, v->faults < 0 ? -1 : vma_ok(v->faults, v->fallbacks, v->anon));
}

/* Whom a slow mmap_lock wait waited behind; null for holds and unseen holders. */
static void json_holder(FILE *f, const struct slow_event *e)
{
	if (!e->holder_pid) {
		fputs(",\"holder_pid\":null", f);
		return;
	}
	fprintf(f, ",\"holder_pid\":%d,\"holder_comm\":", e->holder_pid);
	json_str(f, e->holder_comm);
	fprintf(f, ",\"holder_site\":\"%s\",\"holder_symbol\":", callsite_name(e->holder_site));
	json_str(f, e->holder_symbol);
	fprintf(f, ",\"holder_mode\":\"%s\"", e->holder_write ? "write" : "read");
}

static void json_blame(FILE *f, const struct snapshot *s, const void *row)
{
	const struct blame_row *b = row;

	(void)s;
	fprintf(f, "{\"waiter_pid\":%d,\"waiter_comm\":", b->pid);
	json_str(f, b->comm);
	fprintf(f, ",\"waiter_site\":\"%s\",\"waiter_symbol\":", callsite_name(b->site));
	json_str(f, b->symbol);
	fprintf(f, ",\"waiter_mode\":\"%s\",\"holder_pid\":%d,\"holder_comm\":",
		b->write ? "write" : "read", b->holder_pid);
	json_str(f, b->holder_comm);
	fprintf(f, ",\"holder_site\":\"%s\",\"holder_symbol\":", callsite_name(b->holder_site));
	json_str(f, b->holder_symbol);
	fprintf(f, ",\"holder_mode\":\"%s\",\"holder_foreign\":%s,\"count\":%" PRIu64
		",\"wait_total_ns\":%" PRIu64 ",\"wait_max_ns\":%" PRIu64 ",\"wait_max_bound\":%s",
		b->holder_write ? "write" : "read", json_bool(blame_foreign(b)),
		b->count, b->wait_ns, b->wait_max_ns, json_bool(b->wait_max_bound));
}

static void json_event(FILE *f, const struct snapshot *s, const void *row)
{
	const struct slow_event *e = row;
	char when[32];

	(void)s;
	format_utc(e->wall_ns, when, sizeof(when));
	fprintf(f, "{\"time\":\"%s\",\"time_ns\":%" PRIu64 ",\"time_us\":%" PRIu64
		",\"tid\":%d,\"cpu\":%d,", when, e->wall_ns, e->wall_ns / 1000, e->tid, e->cpu);
	if (e->contention) {
		fprintf(f, "\"pid\":%d,\"comm\":", e->pid);
		json_str(f, e->comm);
		fprintf(f, ",\"lock\":\"contention\",\"class\":\"%s\",\"caller\":",
			cont_class_name(e->cls));
		json_str(f, e->symbol);
		fprintf(f, ",\"mode\":\"%s\"", slow_event_mode(e));
	} else {
		json_who(f, e->pid, e->comm, e->site, e->symbol, e->write, e->foreign);
		fputs(",\"lock\":\"mmap_lock\"", f);
		json_holder(f, e);
	}
	json_addr(f, e->site_addr);
	fprintf(f, ",\"wait_ns\":%" PRIu64 ",\"hold_ns\":%" PRIu64,
		e->wait_ns, e->hold_ns);
}

static void json_cont(FILE *f, const struct snapshot *s, const void *row)
{
	const struct cont_row *r = row;

	(void)s;
	fprintf(f, "{\"class\":\"%s\",\"classified_by\":\"%s\",\"pid\":%d,\"comm\":",
		cont_class_name(r->cls), r->by_address ? "address" : "stack", r->pid);
	json_str(f, r->comm);
	fputs(",\"caller\":", f);
	json_str(f, r->caller);
	json_addr(f, r->site_addr);
	fprintf(f, ",\"type\":\"%s\",\"mode\":\"%s\",\"count\":%" PRIu64
		",\"wait_total_ns\":%" PRIu64 ",\"wait_max_ns\":%" PRIu64 ",\"wait_max_bound\":%s",
		r->type, r->mode, r->count, r->wait_ns, r->wait_max_ns,
		json_bool(r->wait_max_bound));
	json_hist(f, "wait_hist", &r->wait);
}

static void json_fork(FILE *f, const struct snapshot *s, const void *row)
{
	const struct fork_row *k = row;
	uint64_t kb = k->anon_kb + k->file_kb + k->shmem_kb;
	char when[32];

	format_utc(k->wall_ns, when, sizeof(when));
	fprintf(f, "{\"time\":\"%s\",\"time_ns\":%" PRIu64 ",\"time_us\":%" PRIu64
		",\"pid\":%d,\"tid\":%d,\"comm\":", when, k->wall_ns, k->wall_ns / 1000, k->pid,
		k->tid);
	json_str(f, k->comm);
	/*
	 * Not timed (no fentry, exact mode off): latency_ns 0; dup_hold_ns 0:
	 * exact mode's, not seen.
	 */
	fprintf(f, ",\"child\":%d,\"syscall\":\"%s\",\"timed\":%s,\"latency_ns\":%" PRIu64
		",\"dup_hold_ns\":%" PRIu64 ",\"anon_kb\":%" PRId64 ",\"file_kb\":%" PRId64
		",\"shmem_kb\":%" PRId64 ",\"thp_kb\":",
		k->child, k->syscall, fork_timed(k) ? "true" : "false", k->latency_ns,
		k->dup_hold_ns, k->anon_kb, k->file_kb, k->shmem_kb);
	if (k->thp_kb >= 0)
		fprintf(f, "%" PRId64, k->thp_kb);
	else
		fputs("null", f);
	(void)s;
	fprintf(f, ",\"backing\":\"%s\",\"cost_ns_per_mib\":%.1f,\"stalled\":%u",
		fork_backing(k), fork_cost_per_mib(k->latency_ns, kb),
		k->stalled);
}

static void json_fork_summary(FILE *f, const struct snapshot *s)
{
	struct fork_agg a;

	fork_agg(s, &a);
	fprintf(f, "\"fork_summary\":{\"count\":%" PRIu64 ",\"per_s\":%.3f,\"timed\":%" PRIu64
		",\"latency_mean_ns\":%.0f,\"latency_max_ns\":%" PRIu64
		",\"cost_ns_per_mib_4k\":%.1f,\"cost_ns_per_mib_thp\":%.1f",
		a.count, snapshot_rate(s, a.count), a.timed,
		a.timed ? (double)a.latency_ns / a.timed : 0, a.latency_max_ns,
		fork_cost_per_mib(a.ns_4k, a.kb_4k), fork_cost_per_mib(a.ns_thp, a.kb_thp));
	json_hist(f, "latency_hist", &a.latency);
	fputc('}', f);
}

static void json_header(FILE *f, const struct snapshot *s)
{
	char when[32], probes[256];
	int i;

	format_utc(s->wall_ns, when, sizeof(when));
	probe_list(s, probes, sizeof(probes), ",", "\"");
	fprintf(f, "{\"schema\":%d,\"time\":\"%s\",\"time_ns\":%" PRIu64 ",\"time_us\":%" PRIu64
		",\"seq\":%" PRIu64 ",\"interval_s\":%.6f,\"probes\":[%s],\"na\":{",
		OUTPUT_SCHEMA, when, s->wall_ns, s->wall_ns / 1000, s->seq, s->interval_ns / 1e9,
		probes);
	for (i = 0; i < FAMILY__COUNT; i++) {
		fprintf(f, "%s\"%s\":", i ? "," : "", family_name(i));
		if (s->na[i][0])
			json_str(f, s->na[i]);
		else
			fputs("null", f);
	}
	fprintf(f, "},\"slow_ns\":%" PRIu64, s->slow_ns);
	/* The share of the interval the per-acquisition programs ran (1: exact). */
	fprintf(f, ",\"exact_share\":%.6f", s->exact_ppm / 1e6);
	/* A recording of mmtop 0.1's --budget: what its sampler did. */
	if (s->budget_ppm)
		fprintf(f, ",\"budget\":%.6f,\"over_budget\":%s,\"throttled\":%s",
			s->budget_ppm / 1e6, s->over_budget ? "true" : "false",
			s->throttled ? "true" : "false");
	/* null: not measured (the kernel's BPF statistics were off). */
	if (s->bpf_measured)
		fprintf(f, ",\"bpf_runs\":%" PRIu64 ",\"bpf_ns\":%" PRIu64, s->bpf_runs, s->bpf_ns);
	else
		fputs(",\"bpf_runs\":null,\"bpf_ns\":null", f);
	fprintf(f, ",\"busy_ns\":%" PRIu64 ",\"attach_ns\":%" PRIu64, s->busy_ns, s->attach_ns);
	/* null: not known (a replay: recordings do not keep it). */
	if (s->bpf_map_bytes)
		fprintf(f, ",\"bpf_map_bytes\":%" PRIu64, s->bpf_map_bytes);
	else
		fputs(",\"bpf_map_bytes\":null", f);
	fputs(",\"drops\":{", f);
	for (i = 0; i < DROP__COUNT; i++)
		fprintf(f, "%s\"%s\":%" PRIu64, i ? "," : "", drop_name(i), s->drops[i]);
	fprintf(f, "},\"total\":{");
	json_faults(f, s, &s->total, s->fallbacks, s->anon);
	fputc('}', f);
}

/* ,"KEY": and @text, or null where it is empty (nothing to say). */
static void json_said(FILE *f, const char *key, const char *text)
{
	fprintf(f, ",\"%s\":", key);
	if (text[0])
		json_str(f, text);
	else
		fputs("null", f);
}

static void json_zone(FILE *f, const struct snapshot *s, const void *row)
{
	const struct zone_row *z = row;

	fprintf(f, "{\"node\":%d,\"zone\":", z->node);
	json_str(f, z->name);
	json_pcp(f, s, &z->pcp);
}

/*
 * The fields a row's table marks for JSON, after the row's own keys (null:
 * "", or not known in interval @s).
 */
static void json_fields(FILE *f, const struct snapshot *s, const struct row_type *t,
			const void *row)
{
	unsigned int i;

	for (i = 0; i < t->fields.nr; i++) {
		const struct row_field *x = &t->fields.v[i];

		if (!(x->out & OUT_JSON))
			continue;
		if (x->known && !x->known(s, row)) {
			fprintf(f, ",\"%s\":null", x->name);
			continue;
		}
		if (x->kind == FIELD_STR) {
			json_said(f, x->name, (const char *)row + x->off);
			continue;
		}
		fprintf(f, ",\"%s\":", x->name);
		if (x->kind == FIELD_BOOL)
			fputs(json_bool(field_value(x, row)), f);
		else
			fprintf(f, "%" PRIu64, field_value(x, row));
	}
}

/*
 * ,"KEY":[...] of the rows of type @id, each an object @one opens and
 * fills, then the fields its table marks for JSON.
 */
static void json_rows(FILE *f, const struct snapshot *s, const char *key, enum row_type_id id,
		      void (*one)(FILE *f, const struct snapshot *s, const void *row))
{
	const struct row_type *t = &row_types[id];
	const struct row_array *a = snapshot_rows_const(s, t);
	int i;

	fprintf(f, ",\"%s\":[", key);
	for (i = 0; i < a->nr; i++) {
		const void *row = (const char *)a->v + i * t->size;

		fputs(i ? "," : "", f);
		one(f, s, row);
		json_fields(f, s, t, row);
		fputc('}', f);
	}
	fputc(']', f);
}

void write_json(FILE *f, const struct snapshot *s)
{
	int i;

	json_header(f, s);
	fprintf(f, ",\"cpus\":[");
	for (i = 0; i < s->nr_cpus; i++) {
		const struct cpu_sample *c = &s->cpus[i];

		fprintf(f, "%s{\"cpu\":%d,\"node\":%d,\"online\":%s,", i ? "," : "",
			i, c->node, c->online ? "true" : "false");
		json_faults(f, s, &c->faults, c->fallbacks, c->anon);
		json_pcp(f, s, &c->pcp);
		fputc('}', f);
	}
	fprintf(f, "],\"nodes\":[");
	for (i = 0; i < s->nr_nodes; i++) {
		const struct node_sample *n = &s->nodes[i];

		fprintf(f, "%s{\"node\":%d,\"cpus_online\":%d,", i ? "," : "", i,
			n->nr_online);
		json_faults(f, s, &n->faults, n->fallbacks, n->anon);
		json_pcp(f, s, &n->pcp);
		fputc('}', f);
	}
	fputc(']', f);
	json_rows(f, s, "zones", ROWS_ZONE, json_zone);
	fprintf(f, ",\"pcp_method\":");
	json_str(f, s->pcp_method);
	json_rows(f, s, "mmap_lock", ROWS_LOCK, json_lock);
	/* Why the VMA-lock outcome is n/a though mmap_lock runs; null: not. */
	json_said(f, "vma_lock_na", s->vma_na);
	/* Why the default set sees no mmap_lock waits; null: it sees them. */
	json_said(f, "mmap_lock_waits_na", s->waits_na);
	/* Whom the default set blames a wait on; null: not said (before 2.8). */
	json_said(f, "mmap_lock_holders", s->holders);
	/* Why the rows name no cgroup; null: they do. */
	json_said(f, "cgroups_na", s->cgroups_na);
	json_rows(f, s, "vma_lock", ROWS_VMA, json_vma);
	fprintf(f, ",\"fork_method\":");
	json_str(f, s->fork_method);
	json_rows(f, s, "blame", ROWS_BLAME, json_blame);
	fprintf(f, ",\"contention_method\":");
	json_str(f, s->cont_method);
	json_rows(f, s, "contention", ROWS_CONT, json_cont);
	fputc(',', f);
	json_fork_summary(f, s);
	json_rows(f, s, "forks", ROWS_FORK, json_fork);
	json_rows(f, s, "slow_events", ROWS_EVENT, json_event);
	fprintf(f, "}\n");
}
