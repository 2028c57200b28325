// SPDX-License-Identifier: GPL-2.0
#include <stdint.h>
#include <string.h>

#include "row_fields.h"

#define FIELD(type, member, kind_, merge_)				\
	{ .name = #member, .kind = kind_, .off = offsetof(type, member),	\
	  .size = sizeof(((type *)0)->member), .merge = merge_ }
#define KEEP(type, member, kind) FIELD(type, member, kind, MERGE_KEEP)
#define SUM(type, member, kind) FIELD(type, member, kind, MERGE_SUM)
/* A maximum and its bound flag, merged as one (max_keep()). */
#define MAX(type, member, bound)					\
	{ .name = #member, .kind = FIELD_U64, .off = offsetof(type, member),	\
	  .size = sizeof(uint64_t), .merge = MERGE_MAX,			\
	  .bound_off = offsetof(type, bound) }
/* A field appended to sized rows (2.2 on): a row that ends before it reads 0. */
#define APPENDED(type, member, kind_)					\
	{ .name = #member, .kind = kind_, .off = offsetof(type, member),	\
	  .size = sizeof(((type *)0)->member), .merge = MERGE_KEEP, .appended = true }
/* An appended field that the outputs @outs show by its name. */
#define APPENDED_OUT(type, member, kind_, outs)				\
	{ .name = #member, .kind = kind_, .off = offsetof(type, member),	\
	  .size = sizeof(((type *)0)->member), .merge = MERGE_KEEP, .appended = true, \
	  .out = outs }
/* A bound flag appended in 2.4; merged with its maximum. */
#define BOUND(type, member) APPENDED(type, member, FIELD_BOOL)
/* A figure computed from the row by @fn, not stored, shown in @outs. */
#define DERIVED(name_, fn, outs)					\
	{ .name = name_, .kind = FIELD_DERIVED, .merge = MERGE_KEEP,	\
	  .out = outs, .derive = fn }
/* The same, known only where @known_ says the interval has it. */
#define DERIVED_IF(name_, fn, outs, known_)				\
	{ .name = name_, .kind = FIELD_DERIVED, .merge = MERGE_KEEP,	\
	  .out = outs, .derive = fn, .known = known_ }
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
#define FIELDS(v) { v, sizeof(v) / sizeof(*(v)) }

static const struct row_field zone_fields[] = {
	KEEP(struct zone_row, node, FIELD_U32),
	KEEP(struct zone_row, name, FIELD_STR),
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

/* Holds are exact mode's: the default set sees waits alone. */
static bool holds_known(const struct snapshot *s)
{
	return snapshot_acquisitions(s);
}

static const struct row_field lock_fields[] = {
	KEEP(struct lock_row, pid, FIELD_U32),
	KEEP(struct lock_row, comm, FIELD_STR),
	KEEP(struct lock_row, write, FIELD_BOOL),
	KEEP(struct lock_row, foreign, FIELD_BOOL),
	KEEP(struct lock_row, site, FIELD_SITE),
	KEEP(struct lock_row, symbol, FIELD_STR),
	KEEP(struct lock_row, site_addr, FIELD_U64),
	SUM(struct lock_row, acquired, FIELD_U64),
	SUM(struct lock_row, failed, FIELD_U64),
	SUM(struct lock_row, holds, FIELD_U64),
	SUM(struct lock_row, wait_ns, FIELD_U64),
	SUM(struct lock_row, hold_ns, FIELD_U64),
	MAX(struct lock_row, wait_max_ns, wait_max_bound),
	MAX(struct lock_row, hold_max_ns, hold_max_bound),
	SUM(struct lock_row, wait, FIELD_HIST),
	SUM(struct lock_row, hold, FIELD_HIST),
	BOUND(struct lock_row, wait_max_bound),
	BOUND(struct lock_row, hold_max_bound),
	DERIVED("wait_p50_ns", lock_wait_p50, OUT_JSON | OUT_CSV),
	DERIVED("wait_p90_ns", lock_wait_p90, OUT_JSON | OUT_CSV),
	DERIVED("wait_p99_ns", lock_wait_p99, OUT_JSON | OUT_CSV),
	DERIVED_IF("hold_p50_ns", lock_hold_p50, OUT_JSON | OUT_CSV, holds_known),
	DERIVED_IF("hold_p99_ns", lock_hold_p99, OUT_JSON | OUT_CSV, holds_known),
	APPENDED_OUT(struct lock_row, cgroup, FIELD_STR, OUT_JSON | OUT_CSV),	/* 2.10 */
};

static const struct row_field vma_fields[] = {
	KEEP(struct vma_row, pid, FIELD_U32),
	KEEP(struct vma_row, comm, FIELD_STR),
	FIELD(struct vma_row, faults, FIELD_U64, MERGE_KNOWN_SUM),
	SUM(struct vma_row, fallbacks, FIELD_U64),
	SUM(struct vma_row, anon, FIELD_U64),
};

static const struct row_field event_fields[] = {
	KEEP(struct slow_event, wall_ns, FIELD_U64),
	KEEP(struct slow_event, pid, FIELD_U32),
	KEEP(struct slow_event, tid, FIELD_U32),
	KEEP(struct slow_event, cpu, FIELD_U32),
	KEEP(struct slow_event, comm, FIELD_STR),
	KEEP(struct slow_event, contention, FIELD_BOOL),
	KEEP(struct slow_event, cls, FIELD_CLASS),
	KEEP(struct slow_event, write, FIELD_BOOL),
	KEEP(struct slow_event, foreign, FIELD_BOOL),
	KEEP(struct slow_event, site, FIELD_SITE),
	KEEP(struct slow_event, symbol, FIELD_STR),
	KEEP(struct slow_event, site_addr, FIELD_U64),
	KEEP(struct slow_event, wait_ns, FIELD_U64),
	KEEP(struct slow_event, hold_ns, FIELD_U64),
	APPENDED(struct slow_event, mode, FIELD_STR),	/* 2.9 */
	APPENDED_OUT(struct slow_event, cgroup, FIELD_STR, OUT_JSON | OUT_CSV),	/* 2.10 */
	APPENDED_OUT(struct slow_event, holder_cgroup, FIELD_STR, OUT_JSON | OUT_CSV),
};

static const struct row_field event_holder[] = {
	KEEP(struct slow_event, holder_pid, FIELD_U32),
	KEEP(struct slow_event, holder_comm, FIELD_STR),
	KEEP(struct slow_event, holder_site, FIELD_SITE),
	KEEP(struct slow_event, holder_symbol, FIELD_STR),
	KEEP(struct slow_event, holder_write, FIELD_BOOL),
};

const struct row_fields event_holder_fields = FIELDS(event_holder);

QUANTILE(cont_wait_p50, struct cont_row, wait, wait_max_ns, 0.5)
QUANTILE(cont_wait_p99, struct cont_row, wait, wait_max_ns, 0.99)

static const struct row_field cont_fields[] = {
	KEEP(struct cont_row, cls, FIELD_CLASS),
	KEEP(struct cont_row, by_address, FIELD_BOOL),
	KEEP(struct cont_row, pid, FIELD_U32),
	KEEP(struct cont_row, comm, FIELD_STR),
	KEEP(struct cont_row, caller, FIELD_STR),
	KEEP(struct cont_row, site_addr, FIELD_U64),
	KEEP(struct cont_row, type, FIELD_STR),
	KEEP(struct cont_row, mode, FIELD_STR),
	SUM(struct cont_row, count, FIELD_U64),
	SUM(struct cont_row, wait_ns, FIELD_U64),
	MAX(struct cont_row, wait_max_ns, wait_max_bound),
	SUM(struct cont_row, wait, FIELD_HIST),
	BOUND(struct cont_row, wait_max_bound),
	DERIVED("wait_p50_ns", cont_wait_p50, OUT_JSON | OUT_CSV),
	DERIVED("wait_p99_ns", cont_wait_p99, OUT_JSON | OUT_CSV),
};

static const struct row_field fork_fields[] = {
	KEEP(struct fork_row, wall_ns, FIELD_U64),
	KEEP(struct fork_row, pid, FIELD_U32),
	KEEP(struct fork_row, tid, FIELD_U32),
	KEEP(struct fork_row, child, FIELD_U32),
	KEEP(struct fork_row, comm, FIELD_STR),
	KEEP(struct fork_row, syscall, FIELD_STR),
	KEEP(struct fork_row, latency_ns, FIELD_U64),
	KEEP(struct fork_row, dup_hold_ns, FIELD_U64),
	KEEP(struct fork_row, anon_kb, FIELD_U64),
	KEEP(struct fork_row, file_kb, FIELD_U64),
	KEEP(struct fork_row, shmem_kb, FIELD_U64),
	KEEP(struct fork_row, thp_kb, FIELD_U64),
	KEEP(struct fork_row, stalled, FIELD_U32),
};

static const struct row_field blame_fields[] = {
	KEEP(struct blame_row, pid, FIELD_U32),
	KEEP(struct blame_row, comm, FIELD_STR),
	KEEP(struct blame_row, site, FIELD_SITE),
	KEEP(struct blame_row, symbol, FIELD_STR),
	KEEP(struct blame_row, write, FIELD_BOOL),
	KEEP(struct blame_row, holder_pid, FIELD_U32),
	KEEP(struct blame_row, holder_comm, FIELD_STR),
	KEEP(struct blame_row, holder_site, FIELD_SITE),
	KEEP(struct blame_row, holder_symbol, FIELD_STR),
	KEEP(struct blame_row, holder_write, FIELD_BOOL),
	SUM(struct blame_row, count, FIELD_U64),
	SUM(struct blame_row, wait_ns, FIELD_U64),
	MAX(struct blame_row, wait_max_ns, wait_max_bound),
	BOUND(struct blame_row, wait_max_bound),
	APPENDED_OUT(struct blame_row, cgroup, FIELD_STR, OUT_JSON | OUT_CSV),	/* 2.10 */
	APPENDED_OUT(struct blame_row, holder_cgroup, FIELD_STR, OUT_JSON | OUT_CSV),
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

#define ROW_TYPE(id, type, array, fields_, same_)			\
	[id] = { .name = #array, .size = sizeof(type),			\
		 .array_off = offsetof(struct snapshot, array),		\
		 .fields = FIELDS(fields_), .same = same_ }

/* In the order a recording holds them (blame rows: 2.1's extras). */
const struct row_type row_types[ROWS__COUNT] = {
	ROW_TYPE(ROWS_ZONE, struct zone_row, zones, zone_fields, zone_same),
	ROW_TYPE(ROWS_LOCK, struct lock_row, locks, lock_fields, lock_same),
	ROW_TYPE(ROWS_VMA, struct vma_row, vmas, vma_fields, vma_same),
	ROW_TYPE(ROWS_EVENT, struct slow_event, events, event_fields, NULL),
	ROW_TYPE(ROWS_CONT, struct cont_row, conts, cont_fields, cont_same),
	ROW_TYPE(ROWS_FORK, struct fork_row, forks, fork_fields, NULL),
	ROW_TYPE(ROWS_BLAME, struct blame_row, blame, blame_fields, blame_same_row),
};

/* Every SNAPSHOT_ARRAY is laid out as struct row_array (see the Makefile). */
_Static_assert(sizeof(((struct snapshot *)0)->locks) == sizeof(struct row_array) &&
	       offsetof(struct row_array, nr) == sizeof(void *), "SNAPSHOT_ARRAY layout");

struct row_array *snapshot_rows(struct snapshot *s, const struct row_type *t)
{
	return (struct row_array *)((char *)s + t->array_off);
}

const struct row_array *snapshot_rows_const(const struct snapshot *s, const struct row_type *t)
{
	return (const struct row_array *)((const char *)s + t->array_off);
}

void *row_push(struct row_array *a, const struct row_type *t)
{
	void *row;

	if (a->nr == a->cap && snapshot_grow(&a->v, &a->cap, t->size))
		return NULL;
	row = (char *)a->v + a->nr++ * t->size;
	return memset(row, 0, t->size);
}

/* Only u64 fields and histograms are summed, and maxima are u64. */
static void merge_field(const struct row_field *f, char *dst, const char *src)
{
	uint64_t *d = (uint64_t *)(dst + f->off);
	const uint64_t *s = (const uint64_t *)(src + f->off);

	switch (f->merge) {
	case MERGE_KEEP:
		return;
	case MERGE_SUM:
		if (f->kind == FIELD_HIST)
			hist_add((struct hist *)d, (const struct hist *)s);
		else
			*d += *s;
		return;
	case MERGE_MAX:
		max_keep(d, (bool *)(dst + f->bound_off), *s, *(const bool *)(src + f->bound_off));
		return;
	case MERGE_KNOWN_SUM: {
		int64_t *known = (int64_t *)d, v = *(const int64_t *)s;

		*known = *known < 0 || v < 0 ? -1 : *known + v;
		return;
	}
	}
}

uint64_t field_value(const struct row_field *f, const void *row)
{
	const char *p = (const char *)row + f->off;

	switch (f->kind) {
	case FIELD_BOOL:
		return *(const bool *)p;
	case FIELD_U32:
	case FIELD_SITE:
	case FIELD_CLASS:
		return *(const uint32_t *)p;
	case FIELD_U64:
		return *(const uint64_t *)p;
	case FIELD_DERIVED:
		return f->derive(row);
	default:
		return 0;
	}
}

void row_merge(const struct row_type *t, void *dst, const void *src)
{
	unsigned int i;

	for (i = 0; i < t->fields.nr; i++)
		merge_field(&t->fields.v[i], dst, src);
}
