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
		/* Printable ASCII needs nothing: written as one run. */
		if (*s >= 0x20 && *s < 0x7f && *s != '"' && *s != '\\') {
			for (n = 1; s[n] >= 0x20 && s[n] < 0x7f && s[n] != '"' && s[n] != '\\'; n++)
				;
			fwrite(s, 1, n, f);
		} else if (plain && (*s == '"' || *s == '\\'))
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

/* A histogram's buckets, as an array. */
static void json_hist(FILE *f, const struct hist *h)
{
	int i;

	fputc('[', f);
	for (i = 0; i < SNAPSHOT_HIST_BUCKETS; i++)
		fprintf(f, "%s%" PRIu64, i ? "," : "", h->bucket[i]);
	fputc(']', f);
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
	fputs(",\"latency_hist\":", f);
	json_hist(f, &a.latency);
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

/* A zone's pcp counts: an object, as a CPU's. */
static void json_zone_pcp(FILE *f, const struct snapshot *s, const void *row)
{
	json_pcp(f, s, &((const struct zone_row *)row)->pcp);
}

/* Field @x of @row as its key and value; nothing where the row has none. */
static void json_field(FILE *f, const struct snapshot *s, const struct row_field *x,
		       const void *row, bool *first)
{
	char buf[64];
	const char *text = NULL;
	enum out_value v = field_out_value(x, row, s, buf, sizeof(buf), &text);

	if (v == VAL_ABSENT)
		return;
	fputs(*first ? "\"" : ",\"", f);
	fputs(field_key(x), f);
	fputs("\":", f);
	*first = false;
	switch (v) {
	case VAL_NULL:
		fputs("null", f);
		break;
	case VAL_STRING:
		json_str(f, text);
		break;
	case VAL_FLAG:
		fputs(text[0] == '1' ? "true" : "false", f);
		break;
	case VAL_HIST:
		json_hist(f, field_hist(x, row));
		break;
	default:
		fputs(text, f);
	}
}

/*
 * ,"KEY":[...] of the rows of type @id, each an object of the fields its
 * table marks for JSON, then what @more adds (NULL: nothing).
 */
static void json_rows(FILE *f, const struct snapshot *s, const char *key, enum row_type_id id,
		      void (*more)(FILE *f, const struct snapshot *s, const void *row))
{
	const struct row_type *t = &row_types[id];
	const struct row_array *a = snapshot_rows_const(s, t);
	int i;

	fprintf(f, ",\"%s\":[", key);
	for (i = 0; i < a->nr; i++) {
		const void *row = (const char *)a->v + i * t->size;
		bool first = true;
		unsigned int j;

		fputs(i ? ",{" : "{", f);
		for (j = 0; j < row_out_nr(t); j++)
			if (row_out_field(t, j)->out & OUT_JSON)
				json_field(f, s, row_out_field(t, j), row, &first);
		if (more)
			more(f, s, row);
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
	json_rows(f, s, "zones", ROWS_ZONE, json_zone_pcp);
	fprintf(f, ",\"pcp_method\":");
	json_str(f, s->pcp_method);
	json_rows(f, s, "mmap_lock", ROWS_LOCK, NULL);
	/* Why the VMA-lock outcome is n/a though mmap_lock runs; null: not. */
	json_said(f, "vma_lock_na", s->vma_na);
	/* Why the default set sees no mmap_lock waits; null: it sees them. */
	json_said(f, "mmap_lock_waits_na", s->waits_na);
	/* Whom the default set blames a wait on; null: not said (before 2.8). */
	json_said(f, "mmap_lock_holders", s->holders);
	/* Why the rows name no cgroup; null: they do. */
	json_said(f, "cgroups_na", s->cgroups_na);
	json_rows(f, s, "vma_lock", ROWS_VMA, NULL);
	fprintf(f, ",\"fork_method\":");
	json_str(f, s->fork_method);
	json_rows(f, s, "blame", ROWS_BLAME, NULL);
	fprintf(f, ",\"contention_method\":");
	json_str(f, s->cont_method);
	json_rows(f, s, "contention", ROWS_CONT, NULL);
	fputc(',', f);
	json_fork_summary(f, s);
	json_rows(f, s, "forks", ROWS_FORK, NULL);
	json_rows(f, s, "slow_events", ROWS_EVENT, NULL);
	fprintf(f, "}\n");
}
