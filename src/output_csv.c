// SPDX-License-Identifier: GPL-2.0
/*
 * CSV: one header row; then per interval rows of kind total, cpu, node,
 * mmap_lock, vma and event, all with the same columns (cells that do not
 * apply to a kind, or whose probe is off, are empty).
 */
#include <inttypes.h>
#include <string.h>

#include "output_common.h"
#include "util.h"

static const char header[] =
	"time,seq,interval_s,kind,id,node,online,"
	"minflt,majflt,minflt_per_s,majflt_per_s,drops,probes,"
	"fallbacks,anon,vma_ok,"
	"pid,comm,site,symbol,mode,mm,"
	"acquired,failed,holds,wait_total_ns,wait_p50_ns,wait_p99_ns,wait_max_ns,"
	"hold_total_ns,hold_p50_ns,hold_p99_ns,hold_max_ns,"
	"faults,event_time,tid,wait_ns,hold_ns,lock,type,classified_by\n";

#define LOCK_COLS 6		/* pid .. mm */
#define STATS_COLS 11		/* acquired .. hold_max_ns */
#define EVENT_COLS 4		/* event_time .. hold_ns */
#define LOCK_INFO_COLS 3	/* lock .. classified_by */

struct row_common {
	char when[32];
	char probes[256];
};

static void empties(FILE *f, int n)
{
	while (n-- > 0)
		fputc(',', f);
}

/* A string cell, quoted when it holds a comma, quote or newline. */
static void csv_str(FILE *f, const char *s)
{
	fputc(',', f);
	if (!strpbrk(s, ",\"\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* time .. online, then the fault, drops and probes cells. */
static void prefix(FILE *f, const struct snapshot *s, const struct row_common *c,
		   const char *kind, int id, int node, int online,
		   const struct fault_counts *fc)
{
	fprintf(f, "%s,%" PRIu64 ",%.6f,%s,%d,%d,%d", c->when, s->seq,
		s->interval_ns / 1e9, kind, id, node, online);
	if (fc && !s->na[FAMILY_FAULTS][0])
		fprintf(f, ",%" PRIu64 ",%" PRIu64 ",%.3f,%.3f", fc->min_flt,
			fc->maj_flt, snapshot_rate(s, fc->min_flt),
			snapshot_rate(s, fc->maj_flt));
	else
		empties(f, 4);
	fprintf(f, ",%" PRIu64 ",%s", snapshot_drops(s), c->probes);
}

static void vma_cells(FILE *f, const struct snapshot *s, uint64_t faults,
		      uint64_t fallbacks, uint64_t anon, bool faults_known)
{
	double ok = vma_ok(faults, fallbacks, anon);

	if (s->na[FAMILY_MMAP_LOCK][0]) {
		empties(f, 3);
		return;
	}
	fprintf(f, ",%" PRIu64 ",%" PRIu64 ",", fallbacks, anon);
	if (faults_known && ok >= 0)
		fprintf(f, "%.6f", ok);
}

static void fault_row(FILE *f, const struct snapshot *s, const struct row_common *c,
		      const char *kind, int id, int node, int online,
		      const struct fault_counts *fc, uint64_t fallbacks, uint64_t anon)
{
	prefix(f, s, c, kind, id, node, online, fc);
	vma_cells(f, s, fc->min_flt + fc->maj_flt, fallbacks, anon,
		  !s->na[FAMILY_FAULTS][0]);
	empties(f, LOCK_COLS + STATS_COLS + 1 + EVENT_COLS + LOCK_INFO_COLS);
	fputc('\n', f);
}

/* pid .. mm; @mm is NULL for contention, which has no mm. */
static void who_mode(FILE *f, int pid, const char *comm, const char *site,
		     const char *symbol, const char *mode, const char *mm)
{
	fprintf(f, ",%d", pid);
	csv_str(f, comm);
	fprintf(f, ",%s", site);
	csv_str(f, symbol);
	fprintf(f, ",%s,%s", mode, mm ? mm : "");
}

static void who(FILE *f, int pid, const char *comm, const char *site,
		const char *symbol, bool write, const char *mm)
{
	who_mode(f, pid, comm, site, symbol, write ? "write" : "read", mm);
}

static const char *mm_of(bool foreign)
{
	return foreign ? "other" : "own";
}

/* The eleven wait and hold columns; no hold for contention. */
static void stats_cells(FILE *f, uint64_t acquired, uint64_t failed,
			uint64_t holds, uint64_t wait_ns, const struct hist *wait,
			uint64_t wait_max, uint64_t hold_ns, const struct hist *hold,
			uint64_t hold_max)
{
	fprintf(f, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64,
		acquired, failed, holds, wait_ns, hist_quantile(wait, 0.5, wait_max),
		hist_quantile(wait, 0.99, wait_max), wait_max);
	if (hold)
		fprintf(f, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64, hold_ns,
			hist_quantile(hold, 0.5, hold_max),
			hist_quantile(hold, 0.99, hold_max), hold_max);
	else
		empties(f, 4);
}

static void lock_row(FILE *f, const struct snapshot *s, const struct row_common *c,
		     const struct lock_row *r)
{
	prefix(f, s, c, "mmap_lock", -1, -1, -1, NULL);
	empties(f, 3);
	who(f, r->pid, r->comm, callsite_name(r->site), r->symbol, r->write,
	    mm_of(r->foreign));
	stats_cells(f, r->acquired, r->failed, r->holds, r->wait_ns, &r->wait,
		    r->wait_max_ns, r->hold_ns, &r->hold, r->hold_max_ns);
	empties(f, 1 + EVENT_COLS);
	fputs(",mmap_lock,rwsem,stack\n", f);
}

static void vma_row(FILE *f, const struct snapshot *s, const struct row_common *c,
		    const struct vma_row *v)
{
	prefix(f, s, c, "vma", -1, -1, -1, NULL);
	vma_cells(f, s, v->faults < 0 ? 0 : v->faults, v->fallbacks, v->anon,
		  v->faults >= 0);
	fprintf(f, ",%d", v->pid);
	csv_str(f, v->comm);
	empties(f, LOCK_COLS - 2 + STATS_COLS);
	if (v->faults >= 0)
		fprintf(f, ",%" PRId64, v->faults);
	else
		empties(f, 1);
	empties(f, EVENT_COLS + LOCK_INFO_COLS);
	fputc('\n', f);
}

static void event_row(FILE *f, const struct snapshot *s, const struct row_common *c,
		      const struct slow_event *e)
{
	char when[32];

	format_utc(e->wall_ns, when, sizeof(when));
	prefix(f, s, c, "event", e->cpu, -1, -1, NULL);
	empties(f, 3);
	if (e->contention)
		who(f, e->pid, e->comm, cont_class_name(e->cls), e->symbol, e->write, NULL);
	else
		who(f, e->pid, e->comm, callsite_name(e->site), e->symbol, e->write,
		    mm_of(e->foreign));
	empties(f, STATS_COLS + 1);
	fprintf(f, ",%s,%d,%" PRIu64 ",%" PRIu64 ",%s,,\n", when, e->tid, e->wait_ns,
		e->hold_ns, e->contention ? "contention" : "mmap_lock");
}

static void cont_row(FILE *f, const struct snapshot *s, const struct row_common *c,
		     const struct cont_row *r)
{
	prefix(f, s, c, "contention", -1, -1, -1, NULL);
	empties(f, 3);
	who_mode(f, r->pid, r->comm, cont_class_name(r->cls), r->caller, r->mode, NULL);
	stats_cells(f, r->count, 0, 0, r->wait_ns, &r->wait, r->wait_max_ns, 0,
		    NULL, 0);
	empties(f, 1 + EVENT_COLS);
	fprintf(f, ",contention,%s,%s\n", r->type, r->by_address ? "address" : "stack");
}

void write_csv(struct output *o, const struct snapshot *s)
{
	struct row_common c;
	FILE *f = o->f;
	int i;

	if (!o->header_done) {
		fputs(header, f);
		o->header_done = true;
	}
	format_utc(s->wall_ns, c.when, sizeof(c.when));
	probe_list(s, c.probes, sizeof(c.probes), ";", "");
	fault_row(f, s, &c, "total", -1, -1, -1, &s->total, s->fallbacks, s->anon);
	for (i = 0; i < s->nr_cpus; i++)
		fault_row(f, s, &c, "cpu", i, s->cpus[i].node, s->cpus[i].online,
			  &s->cpus[i].faults, s->cpus[i].fallbacks, s->cpus[i].anon);
	for (i = 0; i < s->nr_nodes; i++)
		fault_row(f, s, &c, "node", i, i, s->nodes[i].nr_online,
			  &s->nodes[i].faults, s->nodes[i].fallbacks, s->nodes[i].anon);
	for (i = 0; i < s->locks.nr; i++)
		lock_row(f, s, &c, &s->locks.v[i]);
	for (i = 0; i < s->vmas.nr; i++)
		vma_row(f, s, &c, &s->vmas.v[i]);
	for (i = 0; i < s->conts.nr; i++)
		cont_row(f, s, &c, &s->conts.v[i]);
	for (i = 0; i < s->events.nr; i++)
		event_row(f, s, &c, &s->events.v[i]);
}
