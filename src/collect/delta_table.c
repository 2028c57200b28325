// SPDX-License-Identifier: GPL-2.0
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "delta_table.h"

enum { SLOT_FREE, SLOT_USED, SLOT_GONE };	/* first byte of a slot */

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

		if (s[0] == SLOT_FREE ||
		    (s[0] == SLOT_USED && !memcmp(s + 8, key, t->key_size)))
			return s;
	}
}

#define MIN_CAP 256

/*
 * Rehash without the forgotten slots, into the least power of two that
 * holds the live keys at most half full: larger as keys come, smaller
 * once they have gone. After a burst (10,000 processes, say) the table
 * would else keep its size, and the keys that come after it, spread
 * over all of it, would make every page of it resident in turn.
 */
static int rehash(struct delta_table *t)
{
	struct delta_table old = *t;
	size_t i, live = 0;

	for (i = 0; i < old.cap; i++)
		live += slot(&old, i)[0] == SLOT_USED;
	for (t->cap = MIN_CAP; (live + 1) * 2 > t->cap; t->cap *= 2)
		;
	t->slots = calloc(t->cap, t->slot_size);
	if (!t->slots) {
		*t = old;
		return -1;
	}
	t->used = live;
	for (i = 0; i < old.cap; i++) {
		char *s = slot(&old, i);

		if (s[0] == SLOT_USED)
			memcpy(find(t, s + 8), s, t->slot_size);
	}
	free(old.slots);
	return 0;
}

void *delta_prev(struct delta_table *t, const void *key)
{
	char *s;

	/* Linear probing stays short up to three quarters full. */
	if ((t->used + 1) * 4 > t->cap * 3 && rehash(t))
		return NULL;
	s = find(t, key);
	if (s[0] == SLOT_FREE) {
		s[0] = SLOT_USED;
		memcpy(s + 8, key, t->key_size);
		t->used++;
	}
	return s + 8 + t->key_size;
}

void delta_forget(struct delta_table *t, const void *key)
{
	char *s;

	if (!t->cap)
		return;
	s = find(t, key);
	/* Still counted in used: probes must keep walking past it. */
	if (s[0] == SLOT_USED)
		s[0] = SLOT_GONE;
}
