/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The snapshot's row types described once: for each, its fields in the
 * order a recording holds them (each field's kind, where it lives in the
 * row, how merging two intervals combines it, its JSON key and CSV column
 * and how they write it, and its column in text output and the viewer)
 * and what makes two rows one. The recording's writer and reader, the
 * merge of intervals, every key of a row in JSON and every cell of it in
 * CSV, and the cells of the tables that name them are driven from these
 * tables: a field is added here (and in the lists of the tables that show
 * it, and the man page).
 */
#ifndef MMTOP_ROW_FIELDS_H
#define MMTOP_ROW_FIELDS_H

#include <stddef.h>
#include <stdint.h>

#include "snapshot.h"

enum field_kind {
	FIELD_BOOL,		/* bool, one byte */
	FIELD_U32,		/* int or uint32_t, 32 bits */
	FIELD_U64,		/* uint64_t or int64_t */
	FIELD_STR,		/* char[size], its length then its bytes */
	FIELD_HIST,		/* struct hist: its buckets */
	FIELD_SITE,		/* enum callsite; read back in range */
	FIELD_CLASS,		/* enum cont_class; read back in range */
	FIELD_DERIVED,		/* not stored: from the row (derive, real, text, of) */
};

/* The outputs that show a field by its key (a JSON key, a CSV column). */
enum field_out {
	OUT_JSON = 1,
	OUT_CSV = 2,
};

/* How JSON and CSV write a field's value, beyond what its kind says. */
enum field_fmt {
	FMT_KIND,		/* by kind: a number, a string, a flag, a name */
	FMT_SAID,		/* a string; null (CSV: empty) where it is empty */
	FMT_ADDR,		/* an address, 0x...; left out where 0 */
	FMT_UTC,		/* a wall time in ns as UTC, ISO 8601 */
	FMT_US,			/* a time in ns, in us */
	FMT_FLAG,		/* a derived number as a flag (true/false; CSV 1/0) */
};

/*
 * How text output and the viewer show a field, in a column of its title:
 * which they show, and in what order, is each table's choice.
 */
enum field_show {
	SHOW_NONE,		/* not shown there */
	SHOW_COUNT,		/* a number */
	SHOW_NS,		/* a time in ns: 1.20ms */
	SHOW_WAIT,		/* a time, - where 0 (a quantile where none waited) */
	SHOW_MAX,		/* a maximum: a time, <= where a bucket's bound, - if 0 */
	SHOW_PERCENT,		/* a real ratio as a percentage: 99.5 */
	SHOW_MIB,		/* KiB as MiB: 12.5 */
	SHOW_CLOCK,		/* a wall time in ns as the local time, to the ms */
	/* Words from here on: left-aligned (field_words()). */
	SHOW_WORD,		/* a word */
	SHOW_NAME,		/* a process name: never narrowed in the viewer */
	SHOW_CUT,		/* text cut to its width where it must be */
};

enum field_merge {
	MERGE_KEEP,		/* the first row's: a key, or a name */
	MERGE_SUM,
	MERGE_MAX,		/* with its bound flag, at bound_off */
	MERGE_KNOWN_SUM,	/* int64_t, -1 unknown: the sum if both known */
};

struct row_field {
	const char *name;
	enum field_kind kind;
	unsigned short off;
	unsigned short size;
	enum field_merge merge;
	unsigned short bound_off;	/* MERGE_MAX: its bool bound */
	unsigned short sym_off;		/* FIELD_SITE: its symbol, shown for "other" */
	/*
	 * Appended to sized rows (2.4: bounds, 2.9: a slow event's mode):
	 * rows that are not sized (1.x, 2.0) neither write nor read it; a row
	 * that ends before it reads 0.
	 */
	bool appended;
	unsigned char out;		/* enum field_out */
	/* Its JSON key and CSV column (NULL: its name), and CSV's if other. */
	const char *key;
	const char *col;
	unsigned char fmt;		/* enum field_fmt */
	/*
	 * Whether @row has it at all (NULL: every row): where not, JSON
	 * leaves its key out and CSV its cell empty.
	 */
	bool (*present)(const struct snapshot *s, const void *row);
	/*
	 * FIELD_DERIVED: a number, a real number (to @decimals), words
	 * (text, or the same words[] in every row), or, where it has a size,
	 * the stored member at off, of kind @of, given again.
	 */
	uint64_t (*derive)(const void *row);
	double (*real)(const void *row);
	unsigned char decimals;
	unsigned char of;		/* enum field_kind */
	/*
	 * Whether interval @s knows it in @row (NULL: always); else null in
	 * JSON, empty in CSV, and @unknown (NULL: -) in text and the viewer.
	 */
	bool (*known)(const struct snapshot *s, const void *row);
	const char *unknown;
	/* Its column in text and the viewer: title, width, how it shows. */
	const char *title;
	unsigned char width;
	unsigned char show;		/* enum field_show */
	/*
	 * Words from the row, shown for it (a derived field's, or a name's),
	 * in @buf if they are made; a number's column still sorts on its value.
	 */
	const char *(*text)(const void *row, char *buf, size_t len);
	const char *words[2];		/* a flag's, for false and for true */
};

struct row_fields {
	const struct row_field *v;
	unsigned int nr;
};

/* A row type: its fields, its place in the snapshot, what makes rows one. */
struct row_type {
	const char *name;
	size_t size;
	size_t array_off;		/* its SNAPSHOT_ARRAY in struct snapshot */
	struct row_fields fields;
	/* Fields recorded apart (2.1's slow-wait holders), shown as the rest. */
	const struct row_fields *apart;
	/* Whether two rows are one (merged); NULL: rows kept one by one. */
	bool (*same)(const void *a, const void *b);
};

enum row_type_id {
	ROWS_ZONE, ROWS_LOCK, ROWS_VMA, ROWS_EVENT, ROWS_CONT, ROWS_FORK, ROWS_BLAME,
	ROWS__COUNT
};

extern const struct row_type row_types[ROWS__COUNT];
/* A slow wait's holder: the fields of struct slow_event that 2.1 appended. */
extern const struct row_fields event_holder_fields;

/* The rows of type @t in @s, as an untyped SNAPSHOT_ARRAY. */
struct row_array {
	void *v;
	int nr, cap;
};
struct row_array *snapshot_rows(struct snapshot *s, const struct row_type *t);
const struct row_array *snapshot_rows_const(const struct snapshot *s, const struct row_type *t);

/* Append a zeroed row of type @t to @a; NULL when out of memory. */
void *row_push(struct row_array *a, const struct row_type *t);
/* Add row @src to @dst, field by field. */
void row_merge(const struct row_type *t, void *dst, const void *src);
/* A number field's value in @row: FIELD_BOOL, FIELD_U32, FIELD_U64 or derived. */
uint64_t field_value(const struct row_field *f, const void *row);
/*
 * The fields the outputs show of rows of type @t, @i from 0 to
 * row_out_nr(): its own, then those recorded apart.
 */
static inline unsigned int row_out_nr(const struct row_type *t)
{
	return t->fields.nr + (t->apart ? t->apart->nr : 0);
}

static inline const struct row_field *row_out_field(const struct row_type *t, unsigned int i)
{
	return i < t->fields.nr ? &t->fields.v[i] : &t->apart->v[i - t->fields.nr];
}
/* The field of @t named @name; NULL if it has none. */
const struct row_field *row_field_named(const struct row_type *t, const char *name);
/* The most fields a table of text output or the viewer shows. */
#define ROW_TABLE_COLS_MAX 16
/*
 * The fields of @t named @names (@n of them, at most ROW_TABLE_COLS_MAX)
 * into @out, for a table's columns: a NULL name is a column of the
 * table's own (NULL in @out); a name @t lacks is the table's bug, and
 * aborts.
 */
void row_fields_pick(const struct row_type *t, const char *const *names, int n,
		     const struct row_field **out);
/* Whether @f's column holds words (left-aligned), not a number. */
static inline bool field_words(const struct row_field *f)
{
	return f->show >= SHOW_WORD;
}
/* The key of @f in JSON, and its column in CSV. */
static inline const char *field_key(const struct row_field *f)
{
	return f->key ? f->key : f->name;
}

static inline const char *field_csv_col(const struct row_field *f)
{
	return f->col ? f->col : field_key(f);
}

/* What field @f of a row is in JSON and CSV (field_out_value()). */
enum out_value {
	VAL_ABSENT,		/* no key, an empty cell: the row has none */
	VAL_NULL,		/* null, an empty cell: not known */
	VAL_NUMBER,		/* a number, as written */
	VAL_STRING,		/* a string, quoted as the format quotes */
	VAL_FLAG,		/* true or false ("1" or "0" as written) */
	VAL_HIST,		/* a histogram's buckets (field_hist()) */
};

/*
 * Field @f of @row in interval @s, as JSON and CSV write it: what it is,
 * and its text in *@text (in @buf, or the row's own).
 */
enum out_value field_out_value(const struct row_field *f, const void *row,
			       const struct snapshot *s, char *buf, size_t len,
			       const char **text);
static inline const struct hist *field_hist(const struct row_field *f, const void *row)
{
	return (const struct hist *)((const char *)row + f->off);
}
/*
 * Field @f of @row as text output and the viewer show it, in @buf (- where
 * interval @s does not know it); its sort key in *@key (0 for words).
 */
const char *field_shown(const struct row_field *f, const void *row, const struct snapshot *s,
			char *buf, size_t len, double *key);

#endif
