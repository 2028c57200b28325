// SPDX-License-Identifier: GPL-2.0
/*
 * OpenMetrics text exposition of one snapshot (an interval, or a whole
 * recording merged): gauges of what happened in it, counters for what is
 * cumulative, "# EOF" at the end, for a node_exporter textfile collector.
 */
#include <inttypes.h>
#include <string.h>

#include "output_common.h"
#include "util.h"

static void family(FILE *f, const char *name, const char *type, const char *help)
{
	fprintf(f, "# TYPE %s %s\n# HELP %s %s\n", name, type, name, help);
}

/* A label value, escaped as the format wants. */
static void label(FILE *f, const char *key, const char *value, bool first)
{
	fprintf(f, "%s%s=\"", first ? "" : ",", key);
	for (; *value; value++) {
		if (*value == '\\' || *value == '"')
			fputc('\\', f);
		if (*value == '\n')
			fputs("\\n", f);
		else
			fputc(*value, f);
	}
	fputc('"', f);
}

static void cpu_faults(FILE *f, const struct snapshot *s)
{
	int i;

	family(f, "mmtop_page_faults", "gauge", "Page faults in the interval.");
	for (i = 0; i < s->nr_cpus; i++) {
		fprintf(f, "mmtop_page_faults{cpu=\"%d\",type=\"minor\"} %" PRIu64 "\n", i,
			s->cpus[i].faults.min_flt);
		fprintf(f, "mmtop_page_faults{cpu=\"%d\",type=\"major\"} %" PRIu64 "\n", i,
			s->cpus[i].faults.maj_flt);
	}
	if (s->na[FAMILY_MMAP_LOCK][0])
		return;
	family(f, "mmtop_faults_taking_mmap_lock", "gauge",
	       "Faults that took mmap_lock: fell back (fallback) or set up anon_vma (anon_vma).");
	for (i = 0; i < s->nr_cpus; i++) {
		fprintf(f, "mmtop_faults_taking_mmap_lock{cpu=\"%d\",kind=\"fallback\"} %" PRIu64 "\n",
			i, s->cpus[i].fallbacks);
		fprintf(f, "mmtop_faults_taking_mmap_lock{cpu=\"%d\",kind=\"anon_vma\"} %" PRIu64 "\n",
			i, s->cpus[i].anon);
	}
}

static void lock_labels(FILE *f, const struct lock_row *r)
{
	char pid[16];

	snprintf(pid, sizeof(pid), "%d", r->pid);
	fputc('{', f);
	label(f, "pid", pid, true);
	label(f, "comm", r->comm, false);
	label(f, "site", callsite_label(r->site, r->symbol), false);
	label(f, "mode", r->write ? "write" : "read", false);
	label(f, "mm", r->foreign ? "other" : "own", false);
	fputc('}', f);
}

static void locks(FILE *f, const struct snapshot *s)
{
	int i;

	if (s->na[FAMILY_MMAP_LOCK][0])
		return;
	family(f, "mmtop_mmap_lock_acquisitions", "gauge", "mmap_lock acquisitions.");
	for (i = 0; i < s->locks.nr; i++) {
		fputs("mmtop_mmap_lock_acquisitions", f);
		lock_labels(f, &s->locks.v[i]);
		fprintf(f, " %" PRIu64 "\n", s->locks.v[i].acquired);
	}
	family(f, "mmtop_mmap_lock_wait_seconds", "gauge", "Time spent waiting for mmap_lock.");
	for (i = 0; i < s->locks.nr; i++) {
		fputs("mmtop_mmap_lock_wait_seconds", f);
		lock_labels(f, &s->locks.v[i]);
		fprintf(f, " %.9f\n", s->locks.v[i].wait_ns / 1e9);
	}
	family(f, "mmtop_mmap_lock_hold_seconds", "gauge", "Time mmap_lock was held.");
	for (i = 0; i < s->locks.nr; i++) {
		fputs("mmtop_mmap_lock_hold_seconds", f);
		lock_labels(f, &s->locks.v[i]);
		fprintf(f, " %.9f\n", s->locks.v[i].hold_ns / 1e9);
	}
}

static void conts(FILE *f, const struct snapshot *s)
{
	int i, pass;

	if (s->na[FAMILY_CONTENTION][0])
		return;
	for (pass = 0; pass < 2; pass++) {
		family(f, pass ? "mmtop_lock_contention_wait_seconds" : "mmtop_lock_contention_waits",
		       "gauge", pass ? "Time spent in contended lock waits." : "Contended lock waits.");
		for (i = 0; i < s->conts.nr; i++) {
			const struct cont_row *r = &s->conts.v[i];

			fputs(pass ? "mmtop_lock_contention_wait_seconds{" : "mmtop_lock_contention_waits{", f);
			label(f, "class", cont_class_name(r->cls), true);
			label(f, "caller", r->caller, false);
			label(f, "type", r->type, false);
			fputc('}', f);
			if (pass)
				fprintf(f, " %.9f\n", r->wait_ns / 1e9);
			else
				fprintf(f, " %" PRIu64 "\n", r->count);
		}
	}
}

static void forks(FILE *f, const struct snapshot *s)
{
	struct fork_agg a;

	if (s->na[FAMILY_FORK][0])
		return;
	fork_agg(s, &a);
	family(f, "mmtop_forks", "gauge", "Forks of a new mm.");
	fprintf(f, "mmtop_forks %" PRIu64 "\n", a.count);
	family(f, "mmtop_fork_seconds_per_mib", "gauge",
	       "Fork latency per MiB of parent RSS, by the parent's backing.");
	fprintf(f, "mmtop_fork_seconds_per_mib{backing=\"4k\"} %.9f\n",
		fork_cost_per_mib(a.ns_4k, a.kb_4k) / 1e9);
	fprintf(f, "mmtop_fork_seconds_per_mib{backing=\"thp\"} %.9f\n",
		fork_cost_per_mib(a.ns_thp, a.kb_thp) / 1e9);
}

static void pcp(FILE *f, const struct snapshot *s)
{
	int i;

	if (s->na[FAMILY_PCP][0])
		return;
	family(f, "mmtop_pcp_pages", "gauge", "Pages moved between PCP lists and the buddy allocator.");
	for (i = 0; i < s->nr_cpus; i++) {
		fprintf(f, "mmtop_pcp_pages{cpu=\"%d\",kind=\"refill\"} %" PRIu64 "\n", i,
			s->cpus[i].pcp.refill_pages);
		fprintf(f, "mmtop_pcp_pages{cpu=\"%d\",kind=\"drain\"} %" PRIu64 "\n", i,
			s->cpus[i].pcp.drain_pages);
	}
}

void write_openmetrics(FILE *f, const struct snapshot *s)
{
	int i;

	family(f, "mmtop_interval_seconds", "gauge", "Length of the interval described.");
	fprintf(f, "mmtop_interval_seconds %.6f\n", s->interval_ns / 1e9);
	cpu_faults(f, s);
	locks(f, s);
	conts(f, s);
	forks(f, s);
	pcp(f, s);
	family(f, "mmtop_dropped", "counter", "Records or counts the collector lost, since it started.");
	for (i = 0; i < DROP__COUNT; i++)
		fprintf(f, "mmtop_dropped_total{kind=\"%s\"} %" PRIu64 "\n", drop_name(i), s->drops[i]);
	fputs("# EOF\n", f);
}
