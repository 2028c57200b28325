// SPDX-License-Identifier: GPL-2.0
/*
 * The row types' field tables (row_fields.h says what a field holds; the
 * functions that read them are row_fields.c's).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "row_fields.h"
#include "util.h"

/*
 * A field of @type: its name, kind, place and merge, then any of OUT(),
 * KEY(), FMT(), PRESENT(), KNOWN(), SHOWN(), TEXT() and WORDS(), how the
 * outputs show it.
 */
#define FIELD(type, member, kind_, merge_, ...)				\
	{ .name = #member, .kind = kind_, .off = offsetof(type, member),	\
	  .size = sizeof(((type *)0)->member), .merge = merge_, __VA_ARGS__ }
#define KEEP(type, member, kind, ...) FIELD(type, member, kind, MERGE_KEEP, __VA_ARGS__)
#define SUM(type, member, kind, ...) FIELD(type, member, kind, MERGE_SUM, __VA_ARGS__)
/* A maximum and its bound flag, merged as one (max_keep()). */
#define MAX(type, member, bound, ...)					\
	{ .name = #member, .kind = FIELD_U64, .off = offsetof(type, member),	\
	  .size = sizeof(uint64_t), .merge = MERGE_MAX,			\
	  .bound_off = offsetof(type, bound), __VA_ARGS__ }
/* A call site; the table shows @symbol where the site is "other". */
#define SITE(type, member, symbol, ...)					\
	KEEP(type, member, FIELD_SITE, .sym_off = offsetof(type, symbol), __VA_ARGS__)
/* A field appended to sized rows (2.2 on): a row that ends before it reads 0. */
#define APPENDED(type, member, kind_, ...)				\
	FIELD(type, member, kind_, MERGE_KEEP, .appended = true, __VA_ARGS__)
/* A bound flag appended in 2.4; merged with its maximum. */
#define BOUND(type, member, ...) APPENDED(type, member, FIELD_BOOL, __VA_ARGS__)
/* A figure (or words: TEXT()) computed from the row by @fn, not stored. */
#define DERIVED(name_, fn, ...)						\
	{ .name = name_, .kind = FIELD_DERIVED, .merge = MERGE_KEEP,	\
	  .derive = fn, __VA_ARGS__ }
/* A real number computed from the row by @fn, written to @decimals. */
#define REAL(name_, fn, decimals_, ...)					\
	{ .name = name_, .kind = FIELD_DERIVED, .merge = MERGE_KEEP,	\
	  .real = fn, .decimals = decimals_, __VA_ARGS__ }
/* A stored member (of kind @kind_) given again, as @name_. */
#define AGAIN(name_, type, member, kind_, ...)				\
	{ .name = name_, .kind = FIELD_DERIVED, .of = kind_,		\
	  .off = offsetof(type, member), .size = sizeof(((type *)0)->member),	\
	  .merge = MERGE_KEEP, __VA_ARGS__ }
/* The same words in every row, for the outputs that say them. */
#define SAME(name_, word, ...)						\
	{ .name = name_, .kind = FIELD_DERIVED, .merge = MERGE_KEEP,	\
	  .words = { (word), (word) }, __VA_ARGS__ }
/* The outputs that show it by its key (enum field_out)... */
#define OUT(outs) .out = (outs)
#define JSON_CSV OUT(OUT_JSON | OUT_CSV)
/* ...the key where it is not its name, and CSV's column where that differs... */
#define KEY(k) .key = (k)
#define COL(c) .col = (c)
/* ...and how they write it (enum field_fmt). */
#define FMT(f) .fmt = (f)
/* Only in the rows @fn admits: no key in JSON, an empty cell in CSV. */
#define PRESENT(fn) .present = (fn)
/* Known only where @fn says the interval has it (shown as - where not)... */
#define KNOWN(fn) .known = (fn)
/* ...or as @word. */
#define KNOWN_OR(fn, word) .known = (fn), .unknown = (word)
/* Its column in text output and the viewer (enum field_show). */
#define SHOWN(title_, width_, show_) .title = (title_), .width = (width_), .show = (show_)
/* Words from the row, shown for it (in a buffer, if made)... */
#define TEXT(fn) .text = (fn)
/* ...or a flag's word, for false and for true. */
#define WORDS(no, yes) .words = { (no), (yes) }
#define FIELDS(v) { v, sizeof(v) / sizeof(*(v)) }

/*
 * Quantile @q of a row's histogram @hist, whose largest value is @max: the
 * function that derives it, @fn.
 */
#define QUANTILE(fn, type, hist, max, q)				\
	static uint64_t fn(const void *row)				\
	{								\
		const type *r = row;					\
									\
		return hist_quantile(&r->hist, q, r->max);		\
	}

static const struct row_field zone_fields[] = {
	KEEP(struct zone_row, node, FIELD_U32, JSON_CSV),
	KEEP(struct zone_row, name, FIELD_STR, JSON_CSV, KEY("zone")),
	/* JSON's "pcp" object and CSV's pcp columns, as a CPU's (pcp_counts). */
	SUM(struct zone_row, pcp.refills, FIELD_U64),
	SUM(struct zone_row, pcp.refill_pages, FIELD_U64),
	SUM(struct zone_row, pcp.drains, FIELD_U64),
	SUM(struct zone_row, pcp.drain_pages, FIELD_U64),
	SUM(struct zone_row, pcp.buddy_pages, FIELD_U64),
};

QUANTILE(lock_wait_p50, struct lock_row, wait, wait_max_ns, 0.5)
QUANTILE(lock_wait_p90, struct lock_row, wait, wait_max_ns, 0.9)
QUANTILE(lock_wait_p99, struct lock_row, wait, wait_max_ns, 0.99)
QUANTILE(lock_hold_p50, struct lock_row, hold, hold_max_ns, 0.5)
QUANTILE(lock_hold_p99, struct lock_row, hold, hold_max_ns, 0.99)

/* Acquisitions and holds are exact mode's: the default set sees waits alone. */
static bool holds_known(const struct snapshot *s, const void *row)
{
	(void)row;
	return snapshot_acquisitions(s);
}

static uint64_t lock_waits(const void *row)
{
	return lock_row_waits(row);
}

/* Where the row's time went: waiting and holding. */
static uint64_t lock_time(const void *row)
{
	const struct lock_row *r = row;

	return r->wait_ns + r->hold_ns;
}

static const struct row_field lock_fields[] = {
	KEEP(struct lock_row, pid, FIELD_U32, JSON_CSV, SHOWN("PID", 7, SHOW_COUNT)),
	KEEP(struct lock_row, comm, FIELD_STR, JSON_CSV, SHOWN("COMM", 16, SHOW_NAME)),
	KEEP(struct lock_row, write, FIELD_BOOL, JSON_CSV, KEY("mode"),
	     SHOWN("MODE", 5, SHOW_WORD), WORDS("read", "write")),
	KEEP(struct lock_row, foreign, FIELD_BOOL, JSON_CSV, KEY("mm"),
	     SHOWN("MM", 5, SHOW_WORD), WORDS("own", "other")),
	SITE(struct lock_row, site, symbol, JSON_CSV, SHOWN("SITE", 20, SHOW_CUT)),
	KEEP(struct lock_row, symbol, FIELD_STR, JSON_CSV),
	KEEP(struct lock_row, site_addr, FIELD_U64, JSON_CSV, FMT(FMT_ADDR)),
	SUM(struct lock_row, acquired, FIELD_U64, JSON_CSV, KNOWN(holds_known),
	    SHOWN("ACQ", 8, SHOW_COUNT)),
	SUM(struct lock_row, failed, FIELD_U64, JSON_CSV, KNOWN(holds_known),
	    SHOWN("FAIL", 6, SHOW_COUNT)),
	SUM(struct lock_row, holds, FIELD_U64, JSON_CSV, KNOWN(holds_known)),
	SUM(struct lock_row, wait_ns, FIELD_U64, JSON_CSV, KEY("wait_total_ns")),
	SUM(struct lock_row, hold_ns, FIELD_U64, JSON_CSV, KEY("hold_total_ns"),
	    KNOWN(holds_known)),
	MAX(struct lock_row, wait_max_ns, wait_max_bound, JSON_CSV, SHOWN("max", 10, SHOW_MAX)),
	MAX(struct lock_row, hold_max_ns, hold_max_bound, JSON_CSV, KNOWN(holds_known),
	    SHOWN("max", 10, SHOW_MAX)),
	SUM(struct lock_row, wait, FIELD_HIST, OUT(OUT_JSON), KEY("wait_hist")),
	SUM(struct lock_row, hold, FIELD_HIST, OUT(OUT_JSON), KEY("hold_hist"),
	    KNOWN(holds_known)),
	BOUND(struct lock_row, wait_max_bound, JSON_CSV),
	BOUND(struct lock_row, hold_max_bound, JSON_CSV, KNOWN(holds_known)),
	DERIVED("time_ns", lock_time, SHOWN("TIME", 8, SHOW_NS)),
	DERIVED("waits", lock_waits, JSON_CSV, SHOWN("WAITS", 7, SHOW_COUNT)),
	DERIVED("wait_p50_ns", lock_wait_p50, JSON_CSV, SHOWN("WAIT-p50", 8, SHOW_WAIT)),
	DERIVED("wait_p90_ns", lock_wait_p90, JSON_CSV),
	DERIVED("wait_p99_ns", lock_wait_p99, JSON_CSV, SHOWN("p99", 8, SHOW_WAIT)),
	DERIVED("hold_p50_ns", lock_hold_p50, JSON_CSV, KNOWN(holds_known),
		SHOWN("HOLD-p50", 8, SHOW_NS)),
	DERIVED("hold_p99_ns", lock_hold_p99, JSON_CSV, KNOWN(holds_known),
		SHOWN("p99", 8, SHOW_NS)),
	APPENDED(struct lock_row, cgroup, FIELD_STR, JSON_CSV, FMT(FMT_SAID)),	/* 2.10 */
	/* CSV's columns that tell a row's lock from the contention rows'. */
	SAME("lock", "mmap_lock", OUT(OUT_CSV)),
	SAME("type", "rwsem", OUT(OUT_CSV)),
	SAME("classified_by", "stack", OUT(OUT_CSV)),
};

/* The faults of a process gone before /proc was read are not known. */
static bool vma_faults_known(const struct snapshot *s, const void *row)
{
	(void)s;
	return ((const struct vma_row *)row)->faults >= 0;
}

/* The VMA-lock outcome: n/a without per-VMA locks, or in the default set. */
static bool vma_outcome_known(const struct snapshot *s, const void *row)
{
	(void)row;
	return !snapshot_vma_na(s);
}

/* No share without faults: none this interval, or the process gone. */
static bool vma_ok_known(const struct snapshot *s, const void *row)
{
	return ((const struct vma_row *)row)->faults > 0 && vma_outcome_known(s, row);
}

/* The share of the faults served under the VMA lock alone. */
static double vma_ok_of(const void *row)
{
	const struct vma_row *v = row;

	return vma_ok(v->faults, v->fallbacks, v->anon);
}

static const struct row_field vma_fields[] = {
	KEEP(struct vma_row, pid, FIELD_U32, JSON_CSV, SHOWN("PID", 7, SHOW_COUNT)),
	KEEP(struct vma_row, comm, FIELD_STR, JSON_CSV, SHOWN("COMM", 16, SHOW_NAME)),
	FIELD(struct vma_row, faults, FIELD_U64, MERGE_KNOWN_SUM, JSON_CSV,
	      KNOWN_OR(vma_faults_known, "?"), SHOWN("FAULTS", 10, SHOW_COUNT)),
	SUM(struct vma_row, fallbacks, FIELD_U64, JSON_CSV, KNOWN(vma_outcome_known),
	    SHOWN("FALLBACK", 9, SHOW_COUNT)),
	SUM(struct vma_row, anon, FIELD_U64, JSON_CSV, KNOWN(vma_outcome_known),
	    SHOWN("ANON", 8, SHOW_COUNT)),
	REAL("vma_ok", vma_ok_of, 6, JSON_CSV, KNOWN_OR(vma_ok_known, "n/a"),
	     SHOWN("VMA-OK%", 7, SHOW_PERCENT)),
};

/* Which lock: a contended lock's class, or mmap_lock. */
static const char *event_lock(const void *row, char *buf, size_t len)
{
	const struct slow_event *e = row;

	(void)buf;
	(void)len;
	return e->contention ? cont_class_name(e->cls) : "mmap_lock";
}

/* Where: a contended lock's caller, or the mmap_lock call site. */
static const char *event_what(const void *row, char *buf, size_t len)
{
	const struct slow_event *e = row;

	(void)buf;
	(void)len;
	return e->contention ? e->symbol : callsite_label(e->site, e->symbol);
}

/* An mmap_lock wait's or hold's (its mm, its site, its holder)... */
static bool event_mmap(const struct snapshot *s, const void *row)
{
	(void)s;
	return !((const struct slow_event *)row)->contention;
}

/* ...a contended lock's (its class, its caller)... */
static bool event_contended(const struct snapshot *s, const void *row)
{
	return !event_mmap(s, row);
}

/* ...and an mmap_lock wait's whose holder was seen. */
static bool event_holder_seen(const struct snapshot *s, const void *row)
{
	(void)s;
	return ((const struct slow_event *)row)->holder_pid != 0;
}

/* The holder the wait was behind: pid (* another process), name, site, mode. */
static const char *event_behind(const void *row, char *buf, size_t len)
{
	const struct slow_event *e = row;

	if (!e->holder_pid)
		return "-";
	snprintf(buf, len, "%d%s %s %s %s", e->holder_pid,
		 holder_foreign(e->pid, e->holder_pid) ? "*" : "",
		 e->holder_comm, callsite_label(e->holder_site, e->holder_symbol),
		 e->holder_write ? "write" : "read");
	return buf;
}

static uint64_t event_holder_foreign(const void *row)
{
	const struct slow_event *e = row;

	return holder_foreign(e->pid, e->holder_pid);
}

static const struct row_field event_fields[] = {
	KEEP(struct slow_event, wall_ns, FIELD_U64, OUT(OUT_JSON), KEY("time_ns"),
	     SHOWN("TIME", 12, SHOW_CLOCK)),
	KEEP(struct slow_event, pid, FIELD_U32, JSON_CSV, SHOWN("PID", 7, SHOW_COUNT)),
	KEEP(struct slow_event, tid, FIELD_U32, JSON_CSV, SHOWN("TID", 7, SHOW_COUNT)),
	/* CSV's id column: the CPU of an event row. */
	KEEP(struct slow_event, cpu, FIELD_U32, JSON_CSV, COL("id"), SHOWN("CPU", 3, SHOW_COUNT)),
	KEEP(struct slow_event, comm, FIELD_STR, JSON_CSV, SHOWN("COMM", 16, SHOW_NAME)),
	KEEP(struct slow_event, contention, FIELD_BOOL, JSON_CSV, KEY("lock"),
	     WORDS("mmap_lock", "contention")),
	/* A contended lock's class: CSV's site column, as the contention rows'. */
	KEEP(struct slow_event, cls, FIELD_CLASS, JSON_CSV, KEY("class"), COL("site"),
	     PRESENT(event_contended)),
	KEEP(struct slow_event, write, FIELD_BOOL),
	KEEP(struct slow_event, foreign, FIELD_BOOL, JSON_CSV, KEY("mm"), PRESENT(event_mmap),
	     KNOWN(event_mmap), SHOWN("MM", 5, SHOW_WORD), WORDS("own", "other")),
	KEEP(struct slow_event, site, FIELD_SITE, JSON_CSV, PRESENT(event_mmap)),
	/* The mmap_lock site's symbol, or the contended lock's caller. */
	KEEP(struct slow_event, symbol, FIELD_STR, OUT(OUT_CSV)),
	AGAIN("site_symbol", struct slow_event, symbol, FIELD_STR, OUT(OUT_JSON), KEY("symbol"),
	      PRESENT(event_mmap)),
	AGAIN("caller", struct slow_event, symbol, FIELD_STR, OUT(OUT_JSON),
	      PRESENT(event_contended)),
	KEEP(struct slow_event, site_addr, FIELD_U64, JSON_CSV, FMT(FMT_ADDR)),
	KEEP(struct slow_event, wait_ns, FIELD_U64, JSON_CSV, SHOWN("WAIT", 8, SHOW_NS)),
	/* A hold is timed in exact mode alone: - in the tables for a wait. */
	KEEP(struct slow_event, hold_ns, FIELD_U64, JSON_CSV, SHOWN("HOLD", 8, SHOW_WAIT)),
	APPENDED(struct slow_event, mode, FIELD_STR, JSON_CSV,
		 SHOWN("MODE", 5, SHOW_WORD)),	/* 2.9 */
	APPENDED(struct slow_event, cgroup, FIELD_STR, JSON_CSV, FMT(FMT_SAID)),	/* 2.10 */
	APPENDED(struct slow_event, holder_cgroup, FIELD_STR, JSON_CSV, FMT(FMT_SAID)),
	AGAIN("time", struct slow_event, wall_ns, FIELD_U64, JSON_CSV, COL("event_time"),
	      FMT(FMT_UTC)),
	AGAIN("time_us", struct slow_event, wall_ns, FIELD_U64, OUT(OUT_JSON), FMT(FMT_US)),
	DERIVED("holder_foreign", event_holder_foreign, OUT(OUT_CSV), FMT(FMT_FLAG),
		PRESENT(event_holder_seen)),
	DERIVED("lock_name", NULL, TEXT(event_lock), SHOWN("LOCK", 10, SHOW_WORD)),
	DERIVED("what", NULL, TEXT(event_what), SHOWN("WHAT", 24, SHOW_CUT)),
	DERIVED("behind", NULL, TEXT(event_behind), SHOWN("BEHIND", 32, SHOW_WORD)),
};

/* An mmap_lock wait's holder: null where none was seen; none for a contended lock. */
static const struct row_field event_holder[] = {
	KEEP(struct slow_event, holder_pid, FIELD_U32, JSON_CSV, PRESENT(event_mmap),
	     KNOWN(event_holder_seen)),
	KEEP(struct slow_event, holder_comm, FIELD_STR, JSON_CSV, PRESENT(event_holder_seen)),
	KEEP(struct slow_event, holder_site, FIELD_SITE, JSON_CSV, PRESENT(event_holder_seen)),
	KEEP(struct slow_event, holder_symbol, FIELD_STR, JSON_CSV, PRESENT(event_holder_seen)),
	KEEP(struct slow_event, holder_write, FIELD_BOOL, JSON_CSV, KEY("holder_mode"),
	     PRESENT(event_holder_seen), WORDS("read", "write")),
};

const struct row_fields event_holder_fields = FIELDS(event_holder);

QUANTILE(cont_wait_p50, struct cont_row, wait, wait_max_ns, 0.5)
QUANTILE(cont_wait_p90, struct cont_row, wait, wait_max_ns, 0.9)
QUANTILE(cont_wait_p99, struct cont_row, wait, wait_max_ns, 0.99)

/* A lock's waits outside any process (softirqs): no name. */
static const char *cont_comm(const void *row, char *buf, size_t len)
{
	const struct cont_row *r = row;

	(void)buf;
	(void)len;
	return r->pid ? r->comm : "-";
}

static const char *cont_caller(const void *row, char *buf, size_t len)
{
	const struct cont_row *r = row;

	(void)buf;
	(void)len;
	return r->caller[0] ? r->caller : "?";
}

/*
 * CSV's columns are shared by every kind of row: a contention row's class
 * is in the site column, its caller in the symbol one and its count in
 * acquired.
 */
static const struct row_field cont_fields[] = {
	KEEP(struct cont_row, cls, FIELD_CLASS, JSON_CSV, KEY("class"), COL("site"),
	     SHOWN("CLASS", 15, SHOW_WORD)),
	KEEP(struct cont_row, by_address, FIELD_BOOL, JSON_CSV, KEY("classified_by"),
	     SHOWN("BY", 7, SHOW_WORD), WORDS("stack", "address")),
	KEEP(struct cont_row, pid, FIELD_U32, JSON_CSV, SHOWN("PID", 7, SHOW_COUNT)),
	KEEP(struct cont_row, comm, FIELD_STR, JSON_CSV, SHOWN("COMM", 16, SHOW_NAME),
	     TEXT(cont_comm)),
	KEEP(struct cont_row, caller, FIELD_STR, JSON_CSV, COL("symbol"),
	     SHOWN("CALLER", 24, SHOW_CUT), TEXT(cont_caller)),
	KEEP(struct cont_row, site_addr, FIELD_U64, JSON_CSV, FMT(FMT_ADDR)),
	KEEP(struct cont_row, type, FIELD_STR, JSON_CSV, SHOWN("TYPE", 12, SHOW_WORD)),
	KEEP(struct cont_row, mode, FIELD_STR, JSON_CSV, SHOWN("MODE", 5, SHOW_WORD)),
	SUM(struct cont_row, count, FIELD_U64, JSON_CSV, COL("acquired"),
	    SHOWN("COUNT", 8, SHOW_COUNT)),
	SUM(struct cont_row, wait_ns, FIELD_U64, JSON_CSV, KEY("wait_total_ns"),
	    SHOWN("TOTAL", 8, SHOW_NS)),
	MAX(struct cont_row, wait_max_ns, wait_max_bound, JSON_CSV, SHOWN("max", 10, SHOW_MAX)),
	SUM(struct cont_row, wait, FIELD_HIST, OUT(OUT_JSON), KEY("wait_hist")),
	BOUND(struct cont_row, wait_max_bound, JSON_CSV),
	DERIVED("wait_p50_ns", cont_wait_p50, JSON_CSV, SHOWN("p50", 8, SHOW_NS)),
	DERIVED("wait_p90_ns", cont_wait_p90, JSON_CSV, SHOWN("p90", 8, SHOW_NS)),
	DERIVED("wait_p99_ns", cont_wait_p99, JSON_CSV, SHOWN("p99", 8, SHOW_NS)),
	SAME("lock", "contention", OUT(OUT_CSV)),
};

static bool fork_timed_known(const struct snapshot *s, const void *row)
{
	(void)s;
	return fork_timed(row);
}

static uint64_t fork_timed_flag(const void *row)
{
	return fork_timed(row);
}

/* dup_mmap's hold: exact mode's, 0 where not seen. */
static bool dup_hold_known(const struct snapshot *s, const void *row)
{
	(void)s;
	return ((const struct fork_row *)row)->dup_hold_ns != 0;
}

/* The parent's THP is unknown where it was gone before it was looked at. */
static bool thp_known(const struct snapshot *s, const void *row)
{
	(void)s;
	return ((const struct fork_row *)row)->thp_kb >= 0;
}

static const char *fork_syscall_text(const void *row, char *buf, size_t len)
{
	(void)buf;
	(void)len;
	return fork_syscall(row);
}

static const char *fork_backing_text(const void *row, char *buf, size_t len)
{
	(void)buf;
	(void)len;
	return fork_backing(row);
}

static double fork_cost(const void *row)
{
	const struct fork_row *k = row;

	return fork_cost_per_mib(k->latency_ns, k->anon_kb + k->file_kb + k->shmem_kb);
}

static const struct row_field fork_fields[] = {
	KEEP(struct fork_row, wall_ns, FIELD_U64, OUT(OUT_JSON), KEY("time_ns"),
	     SHOWN("TIME", 12, SHOW_CLOCK)),
	KEEP(struct fork_row, pid, FIELD_U32, JSON_CSV, SHOWN("PID", 7, SHOW_COUNT)),
	KEEP(struct fork_row, tid, FIELD_U32, JSON_CSV),
	KEEP(struct fork_row, child, FIELD_U32, JSON_CSV, SHOWN("CHILD", 7, SHOW_COUNT)),
	KEEP(struct fork_row, comm, FIELD_STR, JSON_CSV, SHOWN("COMM", 16, SHOW_NAME)),
	KEEP(struct fork_row, syscall, FIELD_STR, JSON_CSV, SHOWN("SYSCALL", 7, SHOW_WORD),
	     TEXT(fork_syscall_text)),
	KEEP(struct fork_row, latency_ns, FIELD_U64, JSON_CSV, KNOWN(fork_timed_known),
	     SHOWN("LATENCY", 9, SHOW_NS)),
	KEEP(struct fork_row, dup_hold_ns, FIELD_U64, JSON_CSV, KNOWN(dup_hold_known),
	     SHOWN("DUP_HOLD", 9, SHOW_NS)),
	KEEP(struct fork_row, anon_kb, FIELD_U64, JSON_CSV, SHOWN("ANON_MB", 9, SHOW_MIB)),
	KEEP(struct fork_row, file_kb, FIELD_U64, JSON_CSV, SHOWN("FILE_MB", 7, SHOW_MIB)),
	KEEP(struct fork_row, shmem_kb, FIELD_U64, JSON_CSV),
	KEEP(struct fork_row, thp_kb, FIELD_U64, JSON_CSV, KNOWN_OR(thp_known, "?"),
	     SHOWN("THP_MB", 7, SHOW_MIB)),
	KEEP(struct fork_row, stalled, FIELD_U32, JSON_CSV, SHOWN("STALLED", 7, SHOW_COUNT)),
	DERIVED("backing", NULL, JSON_CSV, TEXT(fork_backing_text), SHOWN("BACK", 4, SHOW_WORD)),
	REAL("cost_ns_per_mib", fork_cost, 1, JSON_CSV, KNOWN(fork_timed_known),
	     SHOWN("COST/MiB", 9, SHOW_NS)),
	DERIVED("timed", fork_timed_flag, OUT(OUT_JSON), FMT(FMT_FLAG)),
	AGAIN("time", struct fork_row, wall_ns, FIELD_U64, JSON_CSV, COL("event_time"),
	      FMT(FMT_UTC)),
	AGAIN("time_us", struct fork_row, wall_ns, FIELD_U64, OUT(OUT_JSON), FMT(FMT_US)),
};

/* The holder's pid, marked * where it is another process; - for none seen. */
static const char *blame_holder(const void *row, char *buf, size_t len)
{
	const struct blame_row *b = row;
	char pid[12];

	snprintf(buf, len, "%s%s", blame_holder_pid(b, pid, sizeof(pid)),
		 blame_foreign(b) ? "*" : "");
	return buf;
}

static uint64_t blame_foreign_flag(const void *row)
{
	return blame_foreign(row);
}

/* JSON names the waiter's side waiter_; CSV counts a pair's waits in acquired. */
static const struct row_field blame_fields[] = {
	KEEP(struct blame_row, pid, FIELD_U32, JSON_CSV, KEY("waiter_pid"), COL("pid"),
	     SHOWN("PID", 7, SHOW_COUNT)),
	KEEP(struct blame_row, comm, FIELD_STR, JSON_CSV, KEY("waiter_comm"), COL("comm"),
	     SHOWN("COMM", 16, SHOW_NAME)),
	SITE(struct blame_row, site, symbol, JSON_CSV, KEY("waiter_site"), COL("site"),
	     SHOWN("SITE", 15, SHOW_CUT)),
	KEEP(struct blame_row, symbol, FIELD_STR, JSON_CSV, KEY("waiter_symbol"), COL("symbol")),
	KEEP(struct blame_row, write, FIELD_BOOL, JSON_CSV, KEY("waiter_mode"), COL("mode"),
	     SHOWN("MODE", 5, SHOW_WORD), WORDS("read", "write")),
	KEEP(struct blame_row, holder_pid, FIELD_U32, JSON_CSV, SHOWN("HOLDER", 8, SHOW_COUNT),
	     TEXT(blame_holder)),
	KEEP(struct blame_row, holder_comm, FIELD_STR, JSON_CSV, SHOWN("COMM", 16, SHOW_NAME)),
	SITE(struct blame_row, holder_site, holder_symbol, JSON_CSV,
	     SHOWN("SITE", 15, SHOW_CUT)),
	KEEP(struct blame_row, holder_symbol, FIELD_STR, JSON_CSV),
	KEEP(struct blame_row, holder_write, FIELD_BOOL, JSON_CSV, KEY("holder_mode"),
	     SHOWN("MODE", 5, SHOW_WORD), WORDS("read", "write")),
	SUM(struct blame_row, count, FIELD_U64, JSON_CSV, COL("acquired"),
	    SHOWN("COUNT", 8, SHOW_COUNT)),
	SUM(struct blame_row, wait_ns, FIELD_U64, JSON_CSV, KEY("wait_total_ns"),
	    SHOWN("TOTAL", 8, SHOW_NS)),
	MAX(struct blame_row, wait_max_ns, wait_max_bound, JSON_CSV, SHOWN("max", 10, SHOW_MAX)),
	BOUND(struct blame_row, wait_max_bound, JSON_CSV),
	APPENDED(struct blame_row, cgroup, FIELD_STR, JSON_CSV, FMT(FMT_SAID)),	/* 2.10 */
	APPENDED(struct blame_row, holder_cgroup, FIELD_STR, JSON_CSV, FMT(FMT_SAID)),
	DERIVED("holder_foreign", blame_foreign_flag, JSON_CSV, FMT(FMT_FLAG)),
	SAME("lock", "mmap_lock", OUT(OUT_CSV)),
};

static bool zone_same(const void *a, const void *b)
{
	const struct zone_row *x = a, *y = b;

	return x->node == y->node && !strcmp(x->name, y->name);
}

static bool lock_same(const void *a, const void *b)
{
	return lock_row_same(a, b);
}

static bool vma_same(const void *a, const void *b)
{
	return ((const struct vma_row *)a)->pid == ((const struct vma_row *)b)->pid;
}

static bool cont_same(const void *a, const void *b)
{
	const struct cont_row *x = a, *y = b;

	return x->cls == y->cls && x->by_address == y->by_address && x->pid == y->pid &&
	       !strcmp(x->caller, y->caller) && !strcmp(x->type, y->type) &&
	       !strcmp(x->mode, y->mode);
}

static bool blame_same_row(const void *a, const void *b)
{
	return blame_same(a, b);
}

#define ROW_TYPE(id, type, array, fields_, same_, ...)			\
	[id] = { .name = #array, .size = sizeof(type),			\
		 .array_off = offsetof(struct snapshot, array),		\
		 .fields = FIELDS(fields_), .same = same_, __VA_ARGS__ }

/* In the order a recording holds them (blame rows: 2.1's extras). */
const struct row_type row_types[ROWS__COUNT] = {
	ROW_TYPE(ROWS_ZONE, struct zone_row, zones, zone_fields, zone_same),
	ROW_TYPE(ROWS_LOCK, struct lock_row, locks, lock_fields, lock_same),
	ROW_TYPE(ROWS_VMA, struct vma_row, vmas, vma_fields, vma_same),
	ROW_TYPE(ROWS_EVENT, struct slow_event, events, event_fields, NULL,
		 .apart = &event_holder_fields),
	ROW_TYPE(ROWS_CONT, struct cont_row, conts, cont_fields, cont_same),
	ROW_TYPE(ROWS_FORK, struct fork_row, forks, fork_fields, NULL),
	ROW_TYPE(ROWS_BLAME, struct blame_row, blame, blame_fields, blame_same_row),
};
