// SPDX-License-Identifier: GPL-2.0
/*
 * Snapshots to bytes and back. The reader trusts nothing: every read is
 * bounds-checked, every count is checked against the bytes left before
 * anything is allocated, and enum values out of range are mapped to safe
 * ones. Fields added later go at the end of a payload: readers ignore
 * what they do not know.
 */
#include <endian.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "crc32.h"
#include "recfile.h"
#include "row_fields.h"

/*
 * A header claiming more than the kernel allows (NR_CPUS, MAX_NUMNODES at
 * their largest) is damage, not a machine.
 */
#define KERNEL_MAX_CPUS 8192
#define KERNEL_MAX_NODES 1024

void rec_buf_free(struct rec_buf *b)
{
	free(b->data);
	memset(b, 0, sizeof(*b));
}

/* Room for @n more bytes at b->data + b->len, or NULL (b->failed). */
static unsigned char *room(struct rec_buf *b, size_t n)
{
	if (b->failed)
		return NULL;
	if (b->len + n > b->cap) {
		size_t cap = (b->cap ? b->cap * 2 : 4096) + n;
		unsigned char *d = realloc(b->data, cap);

		if (!d) {
			b->failed = true;
			return NULL;
		}
		b->data = d;
		b->cap = cap;
	}
	return b->data + b->len;
}

static void put(struct rec_buf *b, const void *p, size_t n)
{
	unsigned char *d = room(b, n);

	if (!d)
		return;
	memcpy(d, p, n);
	b->len += n;
}

static void put_varint(struct rec_buf *b, uint64_t v)
{
	unsigned char x[10];
	int n = 0;

	do {
		x[n++] = (v & 0x7f) | (v > 0x7f ? 0x80 : 0);
		v >>= 7;
	} while (v);
	put(b, x, n);
}

/* Little-endian, whatever the host. */
static void put_u64(struct rec_buf *b, uint64_t v)
{
	unsigned char x[8];
	int i;

	if (b->varint)
		return put_varint(b, v);
	for (i = 0; i < 8; i++)
		x[i] = v >> (8 * i);
	put(b, x, 8);
}

static void put_u32(struct rec_buf *b, uint32_t v)
{
	unsigned char x[4] = { v, v >> 8, v >> 16, v >> 24 };

	if (b->varint)
		return put_varint(b, v);
	put(b, x, 4);
}

static void put_u8(struct rec_buf *b, uint8_t v)
{
	put(b, &v, 1);
}

/* Where a sized row's length goes; filled in by row_close(). */
static size_t row_open(struct rec_buf *b)
{
	static const unsigned char unknown[4];
	size_t at = b->len;

	if (b->sized_rows)
		put(b, unknown, sizeof(unknown));
	return at;
}

static void row_close(struct rec_buf *b, size_t at)
{
	size_t n = b->len - at - 4;

	if (!b->sized_rows || b->failed)
		return;
	b->data[at] = n;
	b->data[at + 1] = n >> 8;
	b->data[at + 2] = n >> 16;
	b->data[at + 3] = n >> 24;
}

static void put_str(struct rec_buf *b, const char *s)
{
	size_t n = strlen(s);

	put_u32(b, n);
	put(b, s, n);
}

static void put_hist(struct rec_buf *b, const struct hist *h)
{
	int i;

	for (i = 0; i < SNAPSHOT_HIST_BUCKETS; i++)
		put_u64(b, h->bucket[i]);
}

static void put_pcp(struct rec_buf *b, const struct pcp_counts *p)
{
	put_u64(b, p->refills);
	put_u64(b, p->refill_pages);
	put_u64(b, p->drains);
	put_u64(b, p->drain_pages);
	put_u64(b, p->buddy_pages);
}

/* A row's fields, as its type's table lists them. */
static void put_fields(struct rec_buf *b, const struct row_fields *fs, const void *row)
{
	const char *r = row;
	unsigned int i;

	for (i = 0; i < fs->nr; i++) {
		const struct row_field *f = &fs->v[i];
		const void *p = r + f->off;

		/* Derived fields are computed again; appended ones need sized rows. */
		if (f->kind == FIELD_DERIVED || (f->appended && !b->sized_rows))
			continue;
		switch (f->kind) {
		case FIELD_BOOL:
			put_u8(b, *(const bool *)p);
			break;
		case FIELD_U32:
		case FIELD_SITE:
		case FIELD_CLASS:
			put_u32(b, *(const uint32_t *)p);
			break;
		case FIELD_U64:
			put_u64(b, *(const uint64_t *)p);
			break;
		case FIELD_STR:
			put_str(b, p);
			break;
		case FIELD_HIST:
			put_hist(b, p);
			break;
		case FIELD_DERIVED:
			break;
		}
	}
}

/* @nr rows of @size at @v: their count, then each one's @fields, sized (2.2). */
static void put_row_array(struct rec_buf *b, const void *v, int nr, size_t size,
			  const struct row_fields *fields)
{
	int i;

	put_u32(b, nr);
	for (i = 0; i < nr; i++) {
		size_t at = row_open(b);

		put_fields(b, fields, (const char *)v + i * size);
		row_close(b, at);
	}
}

static void put_rows_of(struct rec_buf *b, const struct snapshot *s, enum row_type_id id)
{
	const struct row_type *t = &row_types[id];
	const struct row_array *a = snapshot_rows_const(s, t);

	put_row_array(b, a->v, a->nr, t->size, &t->fields);
}

/* 2.1: appended after the 2.0 payload, so 2.0 readers stop before them. */
static void put_extras(struct rec_buf *b, const struct snapshot *s)
{
	put_rows_of(b, s, ROWS_BLAME);
	put_str(b, s->fork_method);
	/* Each slow event's holder, in the order of the events. */
	put_row_array(b, s->events.v, s->events.nr, sizeof(*s->events.v), &event_holder_fields);
}

static void put_rows(struct rec_buf *b, const struct snapshot *s)
{
	int i;

	/* The 2.0 rows, in the table's order; then 2.1's. */
	for (i = 0; i < ROWS_BLAME; i++)
		put_rows_of(b, s, i);
	put_extras(b, s);
	/* 2.3, appended: older readers stop before it. */
	put_str(b, s->vma_na);
	/* 2.5, appended. */
	put_u32(b, s->exact_ppm);
	put_u32(b, s->budget_ppm);
	put_u8(b, s->over_budget | s->throttled << 1);	/* bit 1: 2.5's spare */
	put_u8(b, s->bpf_measured);
	put_u64(b, s->bpf_runs);
	put_u64(b, s->bpf_ns);
	put_u64(b, s->busy_ns);
	/* 2.6, appended. */
	put_u64(b, s->attach_ns);
	/* 2.7, appended. */
	put_str(b, s->waits_na);
	/* 2.8, appended. */
	put_str(b, s->holders);
	/* 2.10, appended. */
	put_str(b, s->cgroups_na);
}

void rec_put_snapshot(struct rec_buf *b, const struct snapshot *s)
{
	int i;

	put_u64(b, s->seq);
	put_u64(b, s->wall_ns);
	put_u64(b, s->interval_ns);
	put_u64(b, s->slow_ns);
	put_u32(b, s->probes);
	put_u32(b, s->nr_cpus);
	put_u32(b, s->nr_nodes);
	put_u32(b, DROP__COUNT);
	for (i = 0; i < DROP__COUNT; i++)
		put_u64(b, s->drops[i]);
	put_u32(b, FAMILY__COUNT);
	for (i = 0; i < FAMILY__COUNT; i++)
		put_str(b, s->na[i]);
	put_str(b, s->cont_method);
	put_str(b, s->pcp_method);
	for (i = 0; i < s->nr_cpus; i++) {
		const struct cpu_sample *c = &s->cpus[i];

		put_u8(b, c->online);
		put_u32(b, c->node);
		put_u64(b, c->faults.min_flt);
		put_u64(b, c->faults.maj_flt);
		put_u64(b, c->fallbacks);
		put_u64(b, c->anon);
		put_pcp(b, &c->pcp);
	}
	put_rows(b, s);
}

void rec_deflate(struct rec_buf *out, const struct rec_buf *raw)
{
	uLongf n = compressBound(raw->len);
	unsigned char *d;

	put_u32(out, raw->len);
	d = room(out, n);
	if (!d || raw->failed || compress2(d, &n, raw->data, raw->len, 6) != Z_OK) {
		out->failed = true;
		return;
	}
	out->len += n;
}

int rec_inflate(const unsigned char *p, size_t len, struct rec_buf *out)
{
	uLongf n, want;

	out->len = 0;
	out->failed = false;
	if (len < 4)
		return -1;
	want = n = p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
	if (n > REC_MAX_FRAME || !room(out, n + 1))
		return -1;
	if (uncompress(out->data, &n, p + 4, len - 4) != Z_OK || n != want)
		return -1;
	out->len = n;
	return 0;
}

void rec_put_frame(struct rec_buf *out, uint32_t type, const struct rec_buf *payload)
{
	size_t start = out->len;
	uint32_t crc;

	put_u32(out, type);
	put_u32(out, payload->len);
	put(out, payload->data, payload->len);
	if (out->failed || payload->failed) {
		out->failed = true;
		return;
	}
	crc = crc32_update(0, out->data + start, out->len - start);
	put_u32(out, crc);
}

/*
 * The reading side: a cursor that fails once and stays failed. Inside a
 * sized row (@at_end_zero) reading at its very end gives zeros instead:
 * the fields a newer writer appended and an older one did not write.
 */
struct cursor {
	const unsigned char *p;
	size_t left;
	bool bad;
	bool varint;
	bool sized_rows;
	bool at_end_zero;
};

/* Nothing left to read of a row that ended before this field. */
static bool past_row_end(const struct cursor *c)
{
	return c->at_end_zero && !c->left;
}

static bool take(struct cursor *c, void *dst, size_t n)
{
	if (c->bad || n > c->left) {
		c->bad = c->bad || !past_row_end(c);
		memset(dst, 0, n);
		return false;
	}
	memcpy(dst, c->p, n);
	c->p += n;
	c->left -= n;
	return true;
}

static uint64_t get_varint(struct cursor *c)
{
	uint64_t v = 0;
	unsigned char x = 0x80;
	int shift;

	if (past_row_end(c))
		return 0;
	for (shift = 0; x & 0x80; shift += 7) {
		if (shift > 63 || !take(c, &x, 1)) {
			c->bad = true;
			return 0;
		}
		v |= (uint64_t)(x & 0x7f) << shift;
	}
	return v;
}

static uint64_t get_u64(struct cursor *c)
{
	unsigned char x[8];
	uint64_t v = 0;
	int i;

	if (c->varint)
		return get_varint(c);
	take(c, x, 8);
	for (i = 7; i >= 0; i--)
		v = v << 8 | x[i];
	return v;
}

static uint32_t get_u32(struct cursor *c)
{
	unsigned char x[4];

	if (c->varint) {
		uint64_t v = get_varint(c);

		if (v > UINT32_MAX)
			c->bad = true;
		return v;
	}
	take(c, x, 4);
	return x[0] | x[1] << 8 | x[2] << 16 | (uint32_t)x[3] << 24;
}

static uint8_t get_u8(struct cursor *c)
{
	uint8_t v;

	take(c, &v, 1);
	return v;
}

/* A string into @dst (truncated to fit, always terminated). */
static void get_str(struct cursor *c, char *dst, size_t size)
{
	uint32_t n = get_u32(c);

	dst[0] = '\0';
	if (c->bad || n > c->left) {
		c->bad = true;
		return;
	}
	memcpy(dst, c->p, n < size ? n : size - 1);
	dst[n < size ? n : size - 1] = '\0';
	c->p += n;
	c->left -= n;
}

static void get_hist(struct cursor *c, struct hist *h)
{
	int i;

	for (i = 0; i < SNAPSHOT_HIST_BUCKETS; i++)
		h->bucket[i] = get_u64(c);
}

static void get_pcp(struct cursor *c, struct pcp_counts *p)
{
	p->refills = get_u64(c);
	p->refill_pages = get_u64(c);
	p->drains = get_u64(c);
	p->drain_pages = get_u64(c);
	p->buddy_pages = get_u64(c);
}

/* A row count: each row takes at least one byte, so more is corruption. */
static int get_count(struct cursor *c)
{
	uint32_t n = get_u32(c);

	if (n > c->left) {
		c->bad = true;
		return 0;
	}
	return n;
}

/*
 * A sized row: a cursor over its bytes only, @outer moved past them. An
 * unsized one (before 2.2) is read from @outer itself.
 */
static struct cursor *row_begin(struct cursor *outer, struct cursor *row)
{
	uint32_t n;

	if (!outer->sized_rows)
		return outer;
	take(outer, &n, sizeof(n));
	n = le32toh(n);
	if (outer->bad || n > outer->left) {
		outer->bad = true;
		return outer;
	}
	*row = (struct cursor){ outer->p, n, false, outer->varint, false, true };
	outer->p += n;
	outer->left -= n;
	return row;
}

static void row_end(struct cursor *outer, const struct cursor *row)
{
	if (row->bad)
		outer->bad = true;
}

static uint32_t below(uint32_t v, uint32_t limit, uint32_t fallback)
{
	return v < limit ? v : fallback;
}

/*
 * A row's fields, as its type's table lists them. A field appended to
 * sized rows after 2.2 reads 0 where the row does not have it (an older
 * writer), and in files whose rows are not sized (before 2.2).
 */
static void get_fields(struct cursor *c, const struct row_fields *fs, void *row)
{
	char *r = row;
	unsigned int i;

	for (i = 0; i < fs->nr; i++) {
		const struct row_field *f = &fs->v[i];
		void *p = r + f->off;

		if (f->kind == FIELD_DERIVED)
			continue;
		if (f->appended && !c->at_end_zero) {
			memset(p, 0, f->size);
			continue;
		}
		switch (f->kind) {
		case FIELD_BOOL:
			*(bool *)p = get_u8(c);
			break;
		case FIELD_U32:
			*(uint32_t *)p = get_u32(c);
			break;
		case FIELD_SITE:
			*(enum callsite *)p = below(get_u32(c), CALLSITE__COUNT, CALLSITE_OTHER);
			break;
		case FIELD_CLASS:
			*(enum cont_class *)p = below(get_u32(c), CONT_CLASS__COUNT,
						      CONT_CLASS_OTHER);
			break;
		case FIELD_U64:
			*(uint64_t *)p = get_u64(c);
			break;
		case FIELD_STR:
			get_str(c, p, f->size);
			break;
		case FIELD_HIST:
			get_hist(c, p);
			break;
		case FIELD_DERIVED:
			break;
		}
	}
}

/* The rows of @t: a count, then each (sized from 2.2), appended to @s's. */
static void get_row_array(struct cursor *outer, struct snapshot *s, const struct row_type *t)
{
	struct row_array *a = snapshot_rows(s, t);
	int n = get_count(outer), i;

	for (i = 0; i < n && !outer->bad; i++) {
		struct cursor row, *c = row_begin(outer, &row);
		void *r = row_push(a, t);

		if (!r) {
			outer->bad = true;
			return;
		}
		get_fields(c, &t->fields, r);
		row_end(outer, c);
	}
}

/* What 2.1 appended: blame rows, fork method, slow waits' holders. */
static void get_extras(struct cursor *c, struct snapshot *s)
{
	int n, i;

	get_row_array(c, s, &row_types[ROWS_BLAME]);
	get_str(c, s->fork_method, sizeof(s->fork_method));
	n = get_count(c);
	for (i = 0; i < n && !c->bad; i++) {
		struct slow_event e, *to = i < s->events.nr ? &s->events.v[i] : &e;
		struct cursor row, *rc = row_begin(c, &row);

		get_fields(rc, &event_holder_fields, to);
		row_end(c, rc);
	}
}

static void get_rows(struct cursor *c, struct snapshot *s)
{
	int i;

	for (i = 0; i < ROWS_BLAME; i++)
		get_row_array(c, s, &row_types[i]);
}

/* A slow event of a recording before 2.9 knew only whether it wrote. */
static void events_moded(struct snapshot *s)
{
	int i;

	for (i = 0; i < s->events.nr; i++) {
		struct slow_event *e = &s->events.v[i];

		if (!e->mode[0])
			snprintf(e->mode, sizeof(e->mode), "%s", e->write ? "write" : "read");
	}
}

unsigned int rec_layout_of(unsigned int major, unsigned int minor)
{
	if (major < 2)
		return 0;
	if (major > 2 || minor >= 10)
		return REC_VARINT | REC_EXTRAS | REC_SIZED_ROWS | REC_VMA_NA | REC_SAMPLING |
		       REC_ATTACH | REC_WAITS_NA | REC_HOLDERS | REC_CGROUPS;
	if (minor >= 8)
		return REC_VARINT | REC_EXTRAS | REC_SIZED_ROWS | REC_VMA_NA | REC_SAMPLING |
		       REC_ATTACH | REC_WAITS_NA | REC_HOLDERS;
	if (minor == 7)
		return REC_VARINT | REC_EXTRAS | REC_SIZED_ROWS | REC_VMA_NA | REC_SAMPLING |
		       REC_ATTACH | REC_WAITS_NA;
	if (minor == 6)
		return REC_VARINT | REC_EXTRAS | REC_SIZED_ROWS | REC_VMA_NA | REC_SAMPLING |
		       REC_ATTACH;
	if (minor == 5)
		return REC_VARINT | REC_EXTRAS | REC_SIZED_ROWS | REC_VMA_NA | REC_SAMPLING;
	if (minor >= 3)
		return REC_VARINT | REC_EXTRAS | REC_SIZED_ROWS | REC_VMA_NA;
	if (minor == 2)
		return REC_VARINT | REC_EXTRAS | REC_SIZED_ROWS;
	return REC_VARINT | (minor >= 1 ? REC_EXTRAS : 0);
}

int rec_get_snapshot(const unsigned char *p, size_t len, unsigned int layout,
		     struct snapshot *s)
{
	struct cursor c = { p, len, false, layout & REC_VARINT, layout & REC_SIZED_ROWS, false };
	uint64_t seq = get_u64(&c), wall = get_u64(&c), interval = get_u64(&c);
	uint64_t slow = get_u64(&c);
	uint32_t probes = get_u32(&c), cpus = get_u32(&c), nodes = get_u32(&c), n, i;
	uint8_t flags;

	if (c.bad || !cpus || cpus > KERNEL_MAX_CPUS || !nodes || nodes > KERNEL_MAX_NODES ||
	    snapshot_init(s, cpus, nodes))
		return -1;
	s->seq = seq;
	s->wall_ns = wall;
	s->interval_ns = interval;
	s->slow_ns = slow;
	s->probes = probes;
	n = get_u32(&c);
	for (i = 0; i < n && !c.bad; i++) {
		uint64_t v = get_u64(&c);

		if (i < DROP__COUNT)
			s->drops[i] = v;
	}
	n = get_u32(&c);
	for (i = 0; i < n && !c.bad; i++) {
		char na[SNAPSHOT_NA_LEN];

		get_str(&c, na, sizeof(na));
		if (i < FAMILY__COUNT)
			memcpy(s->na[i], na, sizeof(na));
	}
	get_str(&c, s->cont_method, sizeof(s->cont_method));
	get_str(&c, s->pcp_method, sizeof(s->pcp_method));
	for (i = 0; i < cpus && !c.bad; i++) {
		struct cpu_sample *cs = &s->cpus[i];

		cs->online = get_u8(&c);
		cs->node = below(get_u32(&c), nodes, 0);
		cs->faults.min_flt = get_u64(&c);
		cs->faults.maj_flt = get_u64(&c);
		cs->fallbacks = get_u64(&c);
		cs->anon = get_u64(&c);
		get_pcp(&c, &cs->pcp);
	}
	get_rows(&c, s);
	if (layout & REC_EXTRAS)
		get_extras(&c, s);
	if (layout & REC_VMA_NA)
		get_str(&c, s->vma_na, sizeof(s->vma_na));
	if (layout & REC_SAMPLING) {
		s->exact_ppm = below(get_u32(&c), SAMPLE_EXACT + 1, SAMPLE_EXACT);
		s->budget_ppm = below(get_u32(&c), SAMPLE_EXACT + 1, 0);
		flags = get_u8(&c);
		s->over_budget = flags & 1;
		s->throttled = flags >> 1 & 1;
		s->bpf_measured = get_u8(&c);
		s->bpf_runs = get_u64(&c);
		s->bpf_ns = get_u64(&c);
		s->busy_ns = get_u64(&c);
	}
	if (layout & REC_ATTACH)
		s->attach_ns = get_u64(&c);
	if (layout & REC_WAITS_NA)
		get_str(&c, s->waits_na, sizeof(s->waits_na));
	if (layout & REC_HOLDERS)
		get_str(&c, s->holders, sizeof(s->holders));
	if (layout & REC_CGROUPS)
		get_str(&c, s->cgroups_na, sizeof(s->cgroups_na));
	else
		snprintf(s->cgroups_na, sizeof(s->cgroups_na), "%s", CGROUPS_NOT_RECORDED);
	if (c.bad) {
		snapshot_free(s);
		return -1;
	}
	events_moded(s);
	/* Nodes and totals are sums of what was read. */
	snapshot_sum(s);
	return 0;
}
