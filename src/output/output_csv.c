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
 * whose column is one above goes there (rows of different types share
 * columns); the others are appended.
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
		for (i = 0; i < row_out_nr(&row_types[t]); i++) {
			const struct row_field *f = row_out_field(&row_types[t], i);
			const char *name = field_csv_col(f);

			if ((f->out & OUT_CSV) && column_in(col_names, COL_TABLE, name) < 0 &&
			    column_in(table_cols, nr_table_cols, name) < 0 &&
			    nr_table_cols < TABLE_COLS_MAX)
				table_cols[nr_table_cols++] = name;
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

#define COLS_MAX (COL_TABLE + TABLE_COLS_MAX + 1)
/* The most fields of one row type in one column (an event's site or class). */
#define COL_FIELDS 2

/*
 * The fields of row type @t each column shows (NULL: none), made once: a
 * row's fields are written as the row reaches their columns, the first
 * that the row has.
 */
struct col_fields {
	const struct row_field *f[COLS_MAX][COL_FIELDS];
};

static const struct col_fields *field_columns(const struct row_type *t)
{
	static struct col_fields map[ROWS__COUNT];
	static bool made[ROWS__COUNT];
	unsigned int id = t - row_types, i, k;

	if (made[id])
		return &map[id];
	for (i = 0; i < row_out_nr(t); i++) {
		const struct row_field *f = row_out_field(t, i);
		int c = f->out & OUT_CSV ? table_column_of(field_csv_col(f)) : -1;

		for (k = 0; c >= 0 && k < COL_FIELDS && map[id].f[c][k]; k++)
			;
		if (c >= 0 && k < COL_FIELDS)
			map[id].f[c][k] = f;
	}
	made[id] = true;
	return &map[id];
}

/* A row being written: cells go in column order, gaps left empty. */
struct row {
	FILE *f;
	int col;		/* next column to write */
	const struct snapshot *s;	/* the interval's, for its exact share */
	const struct col_fields *fields;	/* a table's row: its fields' columns */
	const void *data;
};

static void field_cell(struct row *r, int c);

/* Move to column @c, writing first the row's fields of the columns before it. */
static void at(struct row *r, int c)
{
	while (r->col < c) {
		if (r->fields && r->fields->f[r->col][0]) {
			field_cell(r, r->col);
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

/*
 * Column @c of a table's row: the first of its fields the row has, empty
 * where the interval does not know it.
 */
static void field_cell(struct row *r, int c)
{
	const struct row_field *const *f = r->fields->f[c];
	enum out_value v = VAL_ABSENT;
	const char *text = NULL;
	char buf[64];
	int k;

	for (k = 0; k < COL_FIELDS && f[k] && v == VAL_ABSENT; k++)
		v = field_out_value(f[k], r->data, r->s, buf, sizeof(buf), &text);
	if (v == VAL_STRING) {
		str(r, c, text);
		return;
	}
	at(r, c);
	if (v == VAL_NUMBER || v == VAL_FLAG)
		fputs(text, r->f);
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

/* Column @c's cell of every row (id, node, online): a table's field may take it. */
static void common_cell(struct row *r, int c, int v)
{
	if (!r->fields || !r->fields->f[c][0])
		cell(r, c, "%d", v);
}

/* time .. online: every row has them (a table's row: of type @t, @data). */
static struct row start(FILE *f, const struct snapshot *s, const struct common *c,
			const char *kind, const struct row_type *t, const void *data,
			int id, int node, int online)
{
	struct row r = { .f = f, .s = s, .fields = t ? field_columns(t) : NULL, .data = data };

	cell(&r, COL_TIME, "%s", c->when);
	cell(&r, COL_SEQ, "%" PRIu64, s->seq);
	cell(&r, COL_INTERVAL, "%.6f", s->interval_ns / 1e9);
	cell(&r, COL_KIND, "%s", kind);
	common_cell(&r, COL_ID, id);
	common_cell(&r, COL_NODE, node);
	common_cell(&r, COL_ONLINE, online);
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

/* The total's, a CPU's or a node's row: faults, VMA-lock outcome, pcp lists. */
static void fault_row(FILE *f, const struct snapshot *s, const struct common *c,
		      const char *kind, int id, int node, int online,
		      const struct fault_counts *fc, uint64_t fallbacks, uint64_t anon,
		      const struct pcp_counts *pcp)
{
	struct row r = start(f, s, c, kind, NULL, NULL, id, node, online);
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

/* A zone's pcp counts: the CPUs' rows' columns, as JSON nests them as a CPU's. */
static void zone_pcp_cells(struct row *r, const struct snapshot *s, const void *row)
{
	pcp_cells(r, s, &((const struct zone_row *)row)->pcp);
}

/*
 * The rows of type @id, each of kind @kind: its fields, what @more adds
 * (NULL: nothing), then the end.
 */
static void table_rows(FILE *f, const struct snapshot *s, const struct common *c,
		       enum row_type_id id, const char *kind,
		       void (*more)(struct row *r, const struct snapshot *s, const void *row))
{
	const struct row_type *t = &row_types[id];
	const struct row_array *a = snapshot_rows_const(s, t);
	int i;

	for (i = 0; i < a->nr; i++) {
		const void *data = (const char *)a->v + i * t->size;
		struct row r = start(f, s, c, kind, t, data, -1, -1, -1);

		drops_probes(&r, s, c);
		if (more)
			more(&r, s, data);
		end(&r);
	}
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
	table_rows(f, s, &c, ROWS_ZONE, "zone", zone_pcp_cells);
	table_rows(f, s, &c, ROWS_LOCK, "mmap_lock", NULL);
	table_rows(f, s, &c, ROWS_VMA, "vma", NULL);
	table_rows(f, s, &c, ROWS_BLAME, "blame", NULL);
	table_rows(f, s, &c, ROWS_CONT, "contention", NULL);
	table_rows(f, s, &c, ROWS_FORK, "fork", NULL);
	table_rows(f, s, &c, ROWS_EVENT, "event", NULL);
}
