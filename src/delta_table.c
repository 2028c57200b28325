// SPDX-License-Identifier: GPL-2.0
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "delta_table.h"

void delta_table_init(struct delta_table *t, size_t key_size, size_t val_size)
{
	memset(t, 0, sizeof(*t));
	t->key_size = key_size;
	t->val_size = val_size;
	/* Keep values 8-byte aligned: they hold u64 counters. */
	t->slot_size = (8 + key_size + val_size + 7) & ~(size_t)7;
}

void delta_table_free(struct delta_table *t)
{
	free(t->slots);
	t->slots = NULL;
	t->cap = t->used = 0;
}

static uint64_t hash(const void *key, size_t n)
{
	const unsigned char *p = key;
	uint64_t h = 0xcbf29ce484222325ULL;

	while (n--)
		h = (h ^ *p++) * 0x100000001b3ULL;
	return h;
}

static char *slot(const struct delta_table *t, size_t i)
{
	return t->slots + i * t->slot_size;
}

/* The slot holding @key, or the free slot where it would go. */
static char *find(const struct delta_table *t, const void *key)
{
	size_t i;

	for (i = hash(key, t->key_size) & (t->cap - 1);; i = (i + 1) & (t->cap - 1)) {
		char *s = slot(t, i);

		if (!s[0] || !memcmp(s + 8, key, t->key_size))
			return s;
	}
}

static int grow(struct delta_table *t)
{
	struct delta_table old = *t;
	size_t i;

	t->cap = old.cap ? old.cap * 2 : 256;
	t->slots = calloc(t->cap, t->slot_size);
	if (!t->slots) {
		*t = old;
		return -1;
	}
	for (i = 0; i < old.cap; i++) {
		char *s = slot(&old, i);

		if (s[0])
			memcpy(find(t, s + 8), s, t->slot_size);
	}
	free(old.slots);
	return 0;
}

void *delta_prev(struct delta_table *t, const void *key)
{
	char *s;

	if ((t->used + 1) * 2 > t->cap && grow(t))
		return NULL;
	s = find(t, key);
	if (!s[0]) {
		s[0] = 1;
		memcpy(s + 8, key, t->key_size);
		t->used++;
	}
	return s + 8 + t->key_size;
}
