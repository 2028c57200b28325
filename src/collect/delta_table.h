/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The previous cumulative value of each key of a BPF map, so that each
 * interval reports growth. Keys and values are fixed-size byte blobs.
 */
#ifndef MMTOP_DELTA_TABLE_H
#define MMTOP_DELTA_TABLE_H

#include <stddef.h>

struct delta_table {
	size_t key_size, val_size, slot_size;
	char *slots;		/* [state byte][key][value] each */
	size_t cap, used;	/* used: live keys and forgotten ones */
};

void delta_table_init(struct delta_table *t, size_t key_size, size_t val_size);
void delta_table_free(struct delta_table *t);
/* The stored value of @key, zeroed when new; NULL when out of memory. */
void *delta_prev(struct delta_table *t, const void *key);
/* Drop @key (its process is gone); its slot is reclaimed at the next rehash. */
void delta_forget(struct delta_table *t, const void *key);

#endif
