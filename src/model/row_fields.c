// SPDX-License-Identifier: GPL-2.0
/*
 * The functions over the row types' field tables (row_types.c): a row's
 * place in the snapshot, the merge of two rows, a field's value, and how
 * the tables, JSON and CSV show it.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "row_fields.h"
#include "util.h"

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
		if (f->derive)
			return f->derive(row);
		if (f->size && f->of != FIELD_STR)
			return field_value(&(struct row_field){ .kind = f->of, .off = f->off }, row);
		return 0;
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

const struct row_field *row_field_named(const struct row_type *t, const char *name)
{
	unsigned int i;

	for (i = 0; i < t->fields.nr; i++)
		if (!strcmp(t->fields.v[i].name, name))
			return &t->fields.v[i];
	return NULL;
}

void row_fields_pick(const struct row_type *t, const char *const *names, int n,
		     const struct row_field **out)
{
	int i;

	if (n > ROW_TABLE_COLS_MAX) {
		fprintf(stderr, "mmtop: a table of %s rows has over %d columns\n", t->name,
			ROW_TABLE_COLS_MAX);
		abort();
	}
	for (i = 0; i < n; i++) {
		out[i] = names[i] ? row_field_named(t, names[i]) : NULL;
		if (names[i] && (!out[i] || !out[i]->title)) {
			fprintf(stderr, "mmtop: %s rows have no shown field %s\n", t->name, names[i]);
			abort();
		}
	}
}

/* A number as its column shows it (a time, a maximum, a count). */
static const char *number_shown(const struct row_field *f, const void *row, uint64_t v,
				char *buf, size_t len)
{
	switch (f->show) {
	case SHOW_NS:
		return format_ns(v, buf, len);
	case SHOW_WAIT:
		return v ? format_ns(v, buf, len) : "-";
	case SHOW_MAX:
		return v ? format_max(v, *(const bool *)((const char *)row + f->bound_off), buf, len) : "-";
	case SHOW_MIB:
		snprintf(buf, len, "%.1f", (int64_t)v / 1024.0);
		return buf;
	case SHOW_CLOCK:
		return format_clock(v, buf, len);
	default:
		snprintf(buf, len, "%" PRIu64, v);
		return buf;
	}
}

/* A real number as its column shows it: a share as a percentage, or a time. */
static const char *real_shown(const struct row_field *f, double v, char *buf, size_t len)
{
	if (f->show == SHOW_PERCENT)
		snprintf(buf, len, "%.1f", v * 100);
	else if (f->show == SHOW_NS)
		format_ns(v, buf, len);
	else
		snprintf(buf, len, "%.*f", f->decimals, v);
	return buf;
}

/* Whether the row has field @f, and interval @s knows it. */
static bool field_known(const struct row_field *f, const void *row, const struct snapshot *s)
{
	return (!f->present || f->present(s, row)) && (!f->known || f->known(s, row));
}

const char *field_shown(const struct row_field *f, const void *row, const struct snapshot *s,
			char *buf, size_t len, double *key)
{
	uint64_t v;

	*key = 0;
	if (!field_known(f, row, s))
		return f->unknown ? f->unknown : "-";
	if (f->real) {
		*key = f->real(row);
		return real_shown(f, *key, buf, len);
	}
	if (f->text) {
		if (!field_words(f) && f->kind != FIELD_DERIVED)
			*key = field_value(f, row);
		return f->text(row, buf, len);
	}
	if (f->kind == FIELD_STR)
		return (const char *)row + f->off;
	v = field_value(f, row);
	if (f->words[0])
		return f->words[!!v];
	if (f->kind == FIELD_CLASS)
		return cont_class_name(v);
	if (f->kind == FIELD_SITE)
		return f->sym_off ? callsite_label(v, (const char *)row + f->sym_off) :
				    callsite_name(v);
	*key = v;
	return number_shown(f, row, v, buf, len);
}

/*
 * @v in decimal, at the end of @buf: the outputs write every number of
 * every row, and printf's format parsing was most of their time.
 */
static const char *decimal(uint64_t v, char *buf, size_t len)
{
	char *p = buf + len;

	*--p = '\0';
	do
		*--p = '0' + v % 10;
	while ((v /= 10) && p > buf);
	return p;
}

/* A number (or a flag's words) as the outputs write it (enum field_fmt). */
static enum out_value number_value(const struct row_field *f, uint64_t v, char *buf,
				   size_t len, const char **text)
{
	*text = buf;
	if (f->words[0]) {
		*text = f->words[!!v];
		return VAL_STRING;
	}
	switch (f->fmt) {
	case FMT_ADDR:
		if (!v)
			return VAL_ABSENT;
		snprintf(buf, len, "0x%" PRIx64, v);
		return VAL_STRING;
	case FMT_UTC:
		format_utc(v, buf, len);
		return VAL_STRING;
	case FMT_FLAG:
		*text = v ? "1" : "0";
		return VAL_FLAG;
	case FMT_US:
		v /= 1000;
		break;
	default:
		break;
	}
	*text = decimal(v, buf, len);
	return VAL_NUMBER;
}

/* A stored member of kind @kind at @f's place, as the outputs write it. */
static enum out_value stored_value(const struct row_field *f, enum field_kind kind,
				   const void *row, char *buf, size_t len, const char **text)
{
	const char *p = (const char *)row + f->off;
	uint64_t v = field_value(&(struct row_field){ .kind = kind, .off = f->off }, row);

	switch (kind) {
	case FIELD_HIST:
		return VAL_HIST;
	case FIELD_STR:
		*text = p;
		return f->fmt == FMT_SAID && !*p ? VAL_NULL : VAL_STRING;
	case FIELD_SITE:
		*text = callsite_name(v);
		return VAL_STRING;
	case FIELD_CLASS:
		*text = cont_class_name(v);
		return VAL_STRING;
	case FIELD_BOOL:
		if (!f->words[0]) {
			*text = v ? "1" : "0";
			return VAL_FLAG;
		}
		break;
	default:
		break;
	}
	return number_value(f, v, buf, len, text);
}

enum out_value field_out_value(const struct row_field *f, const void *row,
			       const struct snapshot *s, char *buf, size_t len,
			       const char **text)
{
	if (f->present && !f->present(s, row))
		return VAL_ABSENT;
	if (f->known && !f->known(s, row))
		return VAL_NULL;
	if (f->kind != FIELD_DERIVED)
		return stored_value(f, f->kind, row, buf, len, text);
	if (f->size)
		return stored_value(f, f->of, row, buf, len, text);
	if (f->real) {
		snprintf(buf, len, "%.*f", f->decimals, f->real(row));
		*text = buf;
		return VAL_NUMBER;
	}
	if (f->text) {
		*text = f->text(row, buf, len);
		return VAL_STRING;
	}
	return number_value(f, field_value(f, row), buf, len, text);
}
