// SPDX-License-Identifier: GPL-2.0
/*
 * CSV: one header row; then per interval rows of kind total, cpu, node,
 * mmap_lock, vma, blame, contention, fork and event, all with the same columns
 * (cells that do not apply to a kind, or whose probe is off, are empty).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

#include "output_common.h"
#include "row_fields.h"
#include "util.h"

/*
 * The columns of every row kind, in their order, each its name in the
 * code and in the header once; then the columns of the row tables'
 * fields (table_columns()), schema last.
 */
#define CSV_COLUMNS(C)							\
	C(TIME, "time") C(SEQ, "seq") C(INTERVAL, "interval_s") C(KIND, "kind")	\
	C(ID, "id") C(NODE, "node") C(ONLINE, "online")			\
	C(MINFLT, "minflt") C(MAJFLT, "majflt") C(MINFLT_S, "minflt_per_s")	\
	C(MAJFLT_S, "majflt_per_s") C(DROPS, "drops") C(PROBES, "probes")	\
	C(FALLBACKS, "fallbacks") C(ANON, "anon") C(VMA_OK, "vma_ok")	\
	C(PID, "pid") C(COMM, "comm") C(SITE, "site") C(SYMBOL, "symbol")	\
	C(MODE, "mode") C(MM, "mm")					\
	C(ACQUIRED, "acquired") C(FAILED, "failed") C(HOLDS, "holds")	\
	C(WAIT_TOTAL, "wait_total_ns") C(WAIT_P50, "wait_p50_ns")		\
	C(WAIT_P99, "wait_p99_ns") C(WAIT_MAX, "wait_max_ns")		\
	C(HOLD_TOTAL, "hold_total_ns") C(HOLD_P50, "hold_p50_ns")		\
	C(HOLD_P99, "hold_p99_ns") C(HOLD_MAX, "hold_max_ns")		\
	C(FAULTS, "faults") C(EVENT_TIME, "event_time") C(TID, "tid")	\
	C(WAIT_NS, "wait_ns") C(HOLD_NS, "hold_ns")				\
	C(LOCK, "lock") C(TYPE, "type") C(CLASSIFIED_BY, "classified_by")	\
	C(CHILD, "child") C(SYSCALL, "syscall") C(LATENCY, "latency_ns")	\
	C(DUP_HOLD, "dup_hold_ns") C(ANON_KB, "anon_kb") C(FILE_KB, "file_kb")	\
	C(SHMEM_KB, "shmem_kb") C(THP_KB, "thp_kb") C(BACKING, "backing")	\
	C(COST, "cost_ns_per_mib") C(STALLED, "stalled")			\
	C(ZONE, "zone") C(REFILLS, "pcp_refills")				\
	C(REFILL_PAGES, "pcp_refill_pages") C(DRAINS, "pcp_drains")		\
	C(DRAIN_PAGES, "pcp_drain_pages") C(BUDDY_PAGES, "buddy_pages")	\
	C(SITE_ADDR, "site_addr")						\
	C(HOLDER_PID, "holder_pid") C(HOLDER_COMM, "holder_comm")		\
	C(HOLDER_SITE, "holder_site") C(HOLDER_SYMBOL, "holder_symbol")	\
	C(HOLDER_MODE, "holder_mode") C(HOLDER_FOREIGN, "holder_foreign")	\
	C(WAIT_MAX_BOUND, "wait_max_bound") C(HOLD_MAX_BOUND, "hold_max_bound") \
	C(EXACT_SHARE, "exact_share") C(WAITS, "waits")

#define COL_ENUM(id, name) COL_##id,
#define COL_NAME(id, name) name,

enum col { CSV_COLUMNS(COL_ENUM) COL_TABLE };

static const char *const col_names[COL_TABLE] = { CSV_COLUMNS(COL_NAME) };

/*
 * The column of name @name among @names (@nr of them), or -1.
 */
static int column_in(const char *const *names, int nr, const char *name)
{
	int j;

	for (j = 0; j < nr && strcmp(names[j], name); j++)
		;
	return j < nr ? j : -1;
}

/*
 * The columns the row tables add, in their order, each name once: a field
 * whose name is a column above goes there (rows of different types that
 * share a field name share its column); the others are appended.
 */
#define TABLE_COLS_MAX 64
static const char *table_cols[TABLE_COLS_MAX];
static int nr_table_cols = -1;

static int table_columns(void)
{
	unsigned int t, i;

	if (nr_table_cols >= 0)
		return nr_table_cols;
	nr_table_cols = 0;
	for (t = 0; t < ROWS__COUNT; t++)
		for (i = 0; i < row_types[t].fields.nr; i++) {
			const struct row_field *f = &row_types[t].fields.v[i];

			if (!(f->out & OUT_CSV) || column_in(col_names, COL_TABLE, f->name) >= 0 ||
			    column_in(table_cols, nr_table_cols, f->name) >= 0)
				continue;
			if (nr_table_cols < TABLE_COLS_MAX)
				table_cols[nr_table_cols++] = f->name;
		}
	return nr_table_cols;
}

static int table_column_of(const char *name)
{
	int j = column_in(col_names, COL_TABLE, name);

	if (j >= 0)
		return j;
	j = column_in(table_cols, table_columns(), name);
	return j < 0 ? -1 : COL_TABLE + j;
}

/* A row being written: cells go in column order, gaps left empty. */
struct row {
	FILE *f;
	int col;		/* next column to write */
	const struct snapshot *s;	/* the interval's, for its sampled share */
	const struct row_type *type;	/* a table's row: its marked fields */
	const void *data;
};

#define COLS_MAX (COL_TABLE + TABLE_COLS_MAX + 1)

/*
 * Which field of row type @t each column shows (-1: none), made once:
 * a row's fields are written as the row reaches their columns.
 */
static const signed char *field_columns(const struct row_type *t)
{
	static signed char map[ROWS__COUNT][COLS_MAX];
	static bool made[ROWS__COUNT];
	unsigned int id = t - row_types, i;

	if (made[id])
		return map[id];
	memset(map[id], -1, sizeof(map[id]));
	for (i = 0; i < t->fields.nr; i++) {
		int c = t->fields.v[i].out & OUT_CSV ? table_column_of(t->fields.v[i].name) : -1;

		if (c >= 0)
			map[id][c] = i;
	}
	made[id] = true;
	return map[id];
}

static void field_cell(struct row *r, int c, const struct row_field *f);

/* Move to column @c, writing first the row's fields of the columns before it. */
static void at(struct row *r, int c)
{
	const signed char *fields = r->type ? field_columns(r->type) : NULL;

	while (r->col < c) {
		if (fields && fields[r->col] >= 0) {
			field_cell(r, r->col, &r->type->fields.v[fields[r->col]]);
			continue;
		}
		fputc(',', r->f);
		r->col++;
	}
	if (c)
		fputc(',', r->f);
	r->col = c + 1;
}

__attribute__((format(printf, 3, 4)))
static void cell(struct row *r, int c, const char *fmt, ...)
{
	va_list ap;

	at(r, c);
	va_start(ap, fmt);
	vfprintf(r->f, fmt, ap);
	va_end(ap);
}

/*
 * Whether a spreadsheet would read cell @s as a formula: it begins with =,
 * +, - or @ (a lone -, the mark of a figure not collected, is text).
 */
static bool formula_like(const char *s)
{
	return (s[0] && strchr("=+@", s[0])) || (s[0] == '-' && s[1]);
}

/*
 * A string cell: made one printable line of valid UTF-8 (text_safe), a
 * leading ' when it would be a formula (any user names a process), and
 * quoted (RFC 4180) when it holds a comma, quote, CR or LF.
 */
static void str(struct row *r, int c, const char *raw)
{
	char safe[4 * SNAPSHOT_NA_LEN + 1];
	const char *s = text_safe(raw, safe, sizeof(safe));

	at(r, c);
	if (!strpbrk(s, ",\"\r\n")) {
		fprintf(r->f, "%s%s", formula_like(s) ? "'" : "", s);
		return;
	}
	fputs(formula_like(s) ? "\"'" : "\"", r->f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', r->f);
		fputc(*s, r->f);
	}
	fputc('"', r->f);
}

/* Field @f of the row in its column @c: empty where the interval lacks it. */
static void field_cell(struct row *r, int c, const struct row_field *f)
{
	if (f->known && !f->known(r->s, r->data)) {
		at(r, c);
		return;
	}
	if (f->kind == FIELD_STR)
		str(r, c, (const char *)r->data + f->off);
	else
		cell(r, c, "%" PRIu64, field_value(f, r->data));
}

/*
 * The share of the interval exact mode was on (1: exact; 0: the default
 * set; a recording of mmtop 0.1's budget: its window's), the table's
 * fields still to come, the schema, the last column, then the end of the
 * line.
 */
static void end(struct row *r)
{
	if (r->s)
		cell(r, COL_EXACT_SHARE, "%.6f", r->s->exact_ppm / 1e6);
	cell(r, COL_TABLE + table_columns(), "%d", OUTPUT_SCHEMA);
	fputc('\n', r->f);
}

struct common {
	char when[32];
	char probes[256];
};

/* time .. online, then drops and probes: every row has them. */
static struct row start(FILE *f, const struct snapshot *s, const struct common *c,
			const char *kind, int id, int node, int online)
{
	struct row r = { .f = f, .s = s };

	cell(&r, COL_TIME, "%s", c->when);
	cell(&r, COL_SEQ, "%" PRIu64, s->seq);
	cell(&r, COL_INTERVAL, "%.6f", s->interval_ns / 1e9);
	cell(&r, COL_KIND, "%s", kind);
	cell(&r, COL_ID, "%d", id);
	cell(&r, COL_NODE, "%d", node);
	cell(&r, COL_ONLINE, "%d", online);
	return r;
}

/* A row of a table's type (@t, @data): its marked fields end it. */
static struct row table_start(FILE *f, const struct snapshot *s, const struct common *c,
			      const struct row_type *t, const void *data, const char *kind,
			      int id, int node, int online)
{
	struct row r = start(f, s, c, kind, id, node, online);

	r.type = t;
	r.data = data;
	return r;
}

static void drops_probes(struct row *r, const struct snapshot *s, const struct common *c)
{
	cell(r, COL_DROPS, "%" PRIu64, snapshot_drops(s));
	str(r, COL_PROBES, c->probes);
}

static void vma_cells(struct row *r, const struct snapshot *s, uint64_t faults,
		      uint64_t fallbacks, uint64_t anon, bool faults_known)
{
	double ok = vma_ok(faults, fallbacks, anon);

	if (snapshot_vma_na(s))
		return;
	cell(r, COL_FALLBACKS, "%" PRIu64, fallbacks);
	cell(r, COL_ANON, "%" PRIu64, anon);
	if (faults_known && ok >= 0)
		cell(r, COL_VMA_OK, "%.6f", ok);
}

static void pcp_cells(struct row *r, const struct snapshot *s, const struct pcp_counts *p)
{
	if (s->na[FAMILY_PCP][0])
		return;
	cell(r, COL_REFILLS, "%" PRIu64, p->refills);
	cell(r, COL_REFILL_PAGES, "%" PRIu64, p->refill_pages);
	cell(r, COL_DRAINS, "%" PRIu64, p->drains);
	cell(r, COL_DRAIN_PAGES, "%" PRIu64, p->drain_pages);
	cell(r, COL_BUDDY_PAGES, "%" PRIu64, p->buddy_pages);
}

static void fault_row(FILE *f, const struct snapshot *s, const struct common *c,
		      const char *kind, int id, int node, int online,
		      const struct fault_counts *fc, uint64_t fallbacks, uint64_t anon,
		      const struct pcp_counts *pcp)
{
	struct row r = start(f, s, c, kind, id, node, online);
	bool known = !s->na[FAMILY_FAULTS][0];

	if (known) {
		cell(&r, COL_MINFLT, "%" PRIu64, fc->min_flt);
		cell(&r, COL_MAJFLT, "%" PRIu64, fc->maj_flt);
		cell(&r, COL_MINFLT_S, "%.3f", snapshot_rate(s, fc->min_flt));
		cell(&r, COL_MAJFLT_S, "%.3f", snapshot_rate(s, fc->maj_flt));
	}
	drops_probes(&r, s, c);
	vma_cells(&r, s, fc->min_flt + fc->maj_flt, fallbacks, anon, known);
	if (pcp)
		pcp_cells(&r, s, pcp);
	end(&r);
}

static void zone_row(FILE *f, const struct snapshot *s, const struct common *c,
		     const struct zone_row *z)
{
	struct row r = table_start(f, s, c, &row_types[ROWS_ZONE], z, "zone", -1, z->node, -1);

	drops_probes(&r, s, c);
	str(&r, COL_ZONE, z->name);
	pcp_cells(&r, s, &z->pcp);
	end(&r);
}

static void who(struct row *r, int pid, const char *comm, const char *site,
		const char *symbol, const char *mode, const char *mm)
{
	cell(r, COL_PID, "%d", pid);
	str(r, COL_COMM, comm);
	str(r, COL_SITE, site);
	str(r, COL_SYMBOL, symbol);
	str(r, COL_MODE, mode);
	if (mm)
		str(r, COL_MM, mm);
}

static void addr_cell(struct row *r, uint64_t addr)
{
	if (addr)
		cell(r, COL_SITE_ADDR, "0x%" PRIx64, addr);
}

static const char *mm_of(bool foreign)
{
	return foreign ? "other" : "own";
}

/* The waits' total and maximum (their quantiles: the table's fields). */
static void waits(struct row *r, uint64_t total, uint64_t max)
{
	cell(r, COL_WAIT_TOTAL, "%" PRIu64, total);
	cell(r, COL_WAIT_MAX, "%" PRIu64, max);
}

static void lock_row(FILE *f, const struct snapshot *s, const struct common *c,
		     const struct lock_row *l)
{
	struct row r = table_start(f, s, c, &row_types[ROWS_LOCK], l, "mmap_lock", -1, -1, -1);
	bool acq = snapshot_acquisitions(s);

	drops_probes(&r, s, c);
	who(&r, l->pid, l->comm, callsite_name(l->site), l->symbol,
	    l->write ? "write" : "read", mm_of(l->foreign));
	/* Empty where exact mode was off: the default set counts waits alone. */
	if (acq) {
		cell(&r, COL_ACQUIRED, "%" PRIu64, l->acquired);
		cell(&r, COL_FAILED, "%" PRIu64, l->failed);
		cell(&r, COL_HOLDS, "%" PRIu64, l->holds);
	}
	waits(&r, l->wait_ns, l->wait_max_ns);
	if (acq) {
		cell(&r, COL_HOLD_TOTAL, "%" PRIu64, l->hold_ns);
		cell(&r, COL_HOLD_MAX, "%" PRIu64, l->hold_max_ns);
	}
	cell(&r, COL_LOCK, "mmap_lock");
	cell(&r, COL_TYPE, "rwsem");
	cell(&r, COL_CLASSIFIED_BY, "stack");
	addr_cell(&r, l->site_addr);
	cell(&r, COL_WAIT_MAX_BOUND, "%d", l->wait_max_bound);
	if (acq)
		cell(&r, COL_HOLD_MAX_BOUND, "%d", l->hold_max_bound);
	end(&r);
}

static void holder(struct row *r, int pid, const char *comm, enum callsite site,
		   const char *symbol, bool write, bool foreign)
{
	cell(r, COL_HOLDER_PID, "%d", pid);
	str(r, COL_HOLDER_COMM, comm);
	str(r, COL_HOLDER_SITE, callsite_name(site));
	str(r, COL_HOLDER_SYMBOL, symbol);
	str(r, COL_HOLDER_MODE, write ? "write" : "read");
	cell(r, COL_HOLDER_FOREIGN, "%d", foreign);
}

static void blame_row(FILE *f, const struct snapshot *s, const struct common *c,
		      const struct blame_row *b)
{
	struct row r = table_start(f, s, c, &row_types[ROWS_BLAME], b, "blame", -1, -1, -1);

	drops_probes(&r, s, c);
	who(&r, b->pid, b->comm, callsite_name(b->site), b->symbol,
	    b->write ? "write" : "read", NULL);
	cell(&r, COL_ACQUIRED, "%" PRIu64, b->count);
	cell(&r, COL_WAIT_TOTAL, "%" PRIu64, b->wait_ns);
	cell(&r, COL_WAIT_MAX, "%" PRIu64, b->wait_max_ns);
	cell(&r, COL_LOCK, "mmap_lock");
	holder(&r, b->holder_pid, b->holder_comm, b->holder_site, b->holder_symbol,
	       b->holder_write, blame_foreign(b));
	cell(&r, COL_WAIT_MAX_BOUND, "%d", b->wait_max_bound);
	end(&r);
}

static void vma_row(FILE *f, const struct snapshot *s, const struct common *c,
		    const struct vma_row *v)
{
	struct row r = table_start(f, s, c, &row_types[ROWS_VMA], v, "vma", -1, -1, -1);

	drops_probes(&r, s, c);
	vma_cells(&r, s, v->faults < 0 ? 0 : v->faults, v->fallbacks, v->anon,
		  v->faults >= 0);
	cell(&r, COL_PID, "%d", v->pid);
	str(&r, COL_COMM, v->comm);
	if (v->faults >= 0)
		cell(&r, COL_FAULTS, "%" PRId64, v->faults);
	end(&r);
}

static void cont_row(FILE *f, const struct snapshot *s, const struct common *c,
		     const struct cont_row *k)
{
	struct row r = table_start(f, s, c, &row_types[ROWS_CONT], k, "contention", -1, -1, -1);

	drops_probes(&r, s, c);
	who(&r, k->pid, k->comm, cont_class_name(k->cls), k->caller, k->mode, NULL);
	cell(&r, COL_ACQUIRED, "%" PRIu64, k->count);
	waits(&r, k->wait_ns, k->wait_max_ns);
	cell(&r, COL_LOCK, "contention");
	str(&r, COL_TYPE, k->type);
	cell(&r, COL_CLASSIFIED_BY, "%s", k->by_address ? "address" : "stack");
	addr_cell(&r, k->site_addr);
	cell(&r, COL_WAIT_MAX_BOUND, "%d", k->wait_max_bound);
	end(&r);
}

static void event_row(FILE *f, const struct snapshot *s, const struct common *c,
		      const struct slow_event *e)
{
	struct row r = table_start(f, s, c, &row_types[ROWS_EVENT], e, "event", e->cpu, -1, -1);
	char when[32];

	drops_probes(&r, s, c);
	if (e->contention)
		who(&r, e->pid, e->comm, cont_class_name(e->cls), e->symbol,
		    slow_event_mode(e), NULL);
	else
		who(&r, e->pid, e->comm, callsite_name(e->site), e->symbol,
		    slow_event_mode(e), mm_of(e->foreign));
	format_utc(e->wall_ns, when, sizeof(when));
	cell(&r, COL_EVENT_TIME, "%s", when);
	cell(&r, COL_TID, "%d", e->tid);
	cell(&r, COL_WAIT_NS, "%" PRIu64, e->wait_ns);
	cell(&r, COL_HOLD_NS, "%" PRIu64, e->hold_ns);
	cell(&r, COL_LOCK, "%s", e->contention ? "contention" : "mmap_lock");
	addr_cell(&r, e->site_addr);
	if (e->holder_pid)
		holder(&r, e->holder_pid, e->holder_comm, e->holder_site,
		       e->holder_symbol, e->holder_write, e->holder_pid != e->pid);
	end(&r);
}

static void fork_row(FILE *f, const struct snapshot *s, const struct common *c,
		     const struct fork_row *k)
{
	struct row r = table_start(f, s, c, &row_types[ROWS_FORK], k, "fork", -1, -1, -1);
	uint64_t kb = k->anon_kb + k->file_kb + k->shmem_kb;
	char when[32];

	drops_probes(&r, s, c);
	cell(&r, COL_PID, "%d", k->pid);
	str(&r, COL_COMM, k->comm);
	format_utc(k->wall_ns, when, sizeof(when));
	cell(&r, COL_EVENT_TIME, "%s", when);
	cell(&r, COL_TID, "%d", k->tid);
	cell(&r, COL_CHILD, "%d", k->child);
	cell(&r, COL_SYSCALL, "%s", k->syscall);
	/* Empty where not timed, or not seen (dup_mmap's hold: exact mode's). */
	if (fork_timed(k))
		cell(&r, COL_LATENCY, "%" PRIu64, k->latency_ns);
	if (k->dup_hold_ns)
		cell(&r, COL_DUP_HOLD, "%" PRIu64, k->dup_hold_ns);
	cell(&r, COL_ANON_KB, "%" PRId64, k->anon_kb);
	cell(&r, COL_FILE_KB, "%" PRId64, k->file_kb);
	cell(&r, COL_SHMEM_KB, "%" PRId64, k->shmem_kb);
	if (k->thp_kb >= 0)
		cell(&r, COL_THP_KB, "%" PRId64, k->thp_kb);
	cell(&r, COL_BACKING, "%s", fork_backing(k));
	cell(&r, COL_COST, "%.1f", fork_cost_per_mib(k->latency_ns, kb));
	cell(&r, COL_STALLED, "%u", k->stalled);
	end(&r);
}

void write_csv(struct output *o, const struct snapshot *s)
{
	struct common c;
	FILE *f = o->f;
	int i;

	if (!o->header_done) {
		for (i = 0; i < COL_TABLE; i++)
			fprintf(f, "%s%s", i ? "," : "", col_names[i]);
		for (i = 0; i < table_columns(); i++)
			fprintf(f, ",%s", table_cols[i]);
		fputs(",schema\n", f);
		o->header_done = true;
	}
	format_utc(s->wall_ns, c.when, sizeof(c.when));
	probe_list(s, c.probes, sizeof(c.probes), ";", "");
	fault_row(f, s, &c, "total", -1, -1, -1, &s->total, s->fallbacks, s->anon, NULL);
	for (i = 0; i < s->nr_cpus; i++)
		fault_row(f, s, &c, "cpu", i, s->cpus[i].node, s->cpus[i].online,
			  &s->cpus[i].faults, s->cpus[i].fallbacks, s->cpus[i].anon,
			  &s->cpus[i].pcp);
	for (i = 0; i < s->nr_nodes; i++)
		fault_row(f, s, &c, "node", i, i, s->nodes[i].nr_online,
			  &s->nodes[i].faults, s->nodes[i].fallbacks, s->nodes[i].anon,
			  &s->nodes[i].pcp);
	for (i = 0; i < s->zones.nr; i++)
		zone_row(f, s, &c, &s->zones.v[i]);
	for (i = 0; i < s->locks.nr; i++)
		lock_row(f, s, &c, &s->locks.v[i]);
	for (i = 0; i < s->vmas.nr; i++)
		vma_row(f, s, &c, &s->vmas.v[i]);
	for (i = 0; i < s->blame.nr; i++)
		blame_row(f, s, &c, &s->blame.v[i]);
	for (i = 0; i < s->conts.nr; i++)
		cont_row(f, s, &c, &s->conts.v[i]);
	for (i = 0; i < s->forks.nr; i++)
		fork_row(f, s, &c, &s->forks.v[i]);
	for (i = 0; i < s->events.nr; i++)
		event_row(f, s, &c, &s->events.v[i]);
}
