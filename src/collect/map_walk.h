/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Walking a cumulative BPF map once per interval: each key's values are
 * read and handed, with the key's previous values (a delta table), to a
 * visitor that reports the growth. Keys of processes that are gone are
 * deleted once read, in the kernel and in the table, so that the maps
 * hold live processes however many come and go; keys that stopped
 * growing are taken out (read and deleted at once, what they grew
 * meanwhile counted), so that they hold what is active.
 *
 * The map is read through struct map_reader: libbpf in mmtop, an
 * in-memory fake in the unit tests. Its values are one per key (the rows
 * maps are shared by the CPUs), read in batches where the kernel can
 * (5.6+): a few system calls a map, not two a key.
 */
#ifndef MMTOP_MAP_WALK_H
#define MMTOP_MAP_WALK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "delta_table.h"
#include "snapshot.h"

struct map_reader {
	/* The key after @key (NULL: the first) into @next; 0, or -1 at the end. */
	int (*next_key)(void *map, const void *key, void *next);
	/* @key's value into @value; 0 or -1. */
	int (*lookup)(void *map, const void *key, void *value);
	int (*delete)(void *map, const void *key);
	/*
	 * @key's value into @value and the key deleted, in one step; 0, or
	 * -1 with errno (EINVAL, ENOTSUPP or EOPNOTSUPP: the kernel cannot,
	 * before 5.14). NULL: cannot.
	 */
	int (*take)(void *map, const void *key, void *value);
	/* Whether process @tgid still exists. */
	bool (*alive)(uint32_t tgid);
	/*
	 * Up to *@count keys and their values, from position @in (NULL: the
	 * start), into @keys and @values, packed; the next position into
	 * @out (MAP_WALK_POS bytes). 0; or -1 with errno ENOENT at the end,
	 * *@count still read; else -1 and the walk goes key by key. NULL:
	 * always key by key.
	 */
	int (*batch)(void *map, const void *in, void *out, void *keys, void *values,
		     uint32_t *count);
};

extern const struct map_reader map_reader_bpf;	/* map: a struct bpf_map * */

/* Every value kept in the delta table starts with this. */
struct walk_prev {
	uint32_t idle;		/* reads in a row without growth */
	uint32_t pad;
};

#define MAP_WALK_MAX_KEY 48

/*
 * Keys that did not grow for this many reads in a row are taken out: rows
 * of kernel-wide keys (a spin lock's call chain in a softirq, over any
 * stack) and of live but idle processes piled up otherwise, each read at
 * every interval: under 50 short-lived processes a second, 559 rows after
 * ten minutes, and the read's CPU half as much again as at first. The
 * next event of a key taken out makes its row again. A minute at the
 * default interval.
 */
#define MAP_WALK_EVICT_READS 60
/* Keys read by one batch, and the size of a batch's position. */
#define MAP_WALK_BATCH 256
#define MAP_WALK_POS 8

/* Keys kept for after a walk (a key deleted mid-walk restarts its order). */
struct walk_keys {
	char *keys;		/* MAP_WALK_MAX_KEY bytes each */
	int nr, cap;
};

struct map_walk {
	const struct map_reader *reader;
	/* Buffers for MAP_WALK_BATCH keys and values (one of each without batch). */
	void *keys;
	void *values;
	/* Once the walk is over: keys to delete, and idle keys to take out. */
	struct walk_keys doomed, idle;
	bool no_take;		/* the kernel cannot take a key out */
	/* Processes found gone, until map_walk_forget_gone(). */
	SNAPSHOT_ARRAY(uint32_t, gone);
};

/*
 * What to walk: @key_size bytes per key, its tgid at @tgid_off (0: none),
 * @value_size per value.
 */
struct map_walk_spec {
	void *map;
	struct delta_table *prev;
	size_t key_size, tgid_off, value_size;
};

/* The buffers of @w for values of at most @value_size bytes; -1 if no memory. */
int map_walk_init(struct map_walk *w, const struct map_reader *reader, size_t value_size);

/*
 * @visit gets each key, its values (w->values) and its previous values
 * (updated by it); it returns whether anything grew. A read that fails
 * counts in drops[DROP_READ].
 */
typedef bool (*map_visit_fn)(void *ctx, const void *key, const void *values,
			     struct walk_prev *prev);

void map_walk_run(struct map_walk *w, const struct map_walk_spec *spec,
		  map_visit_fn visit, void *ctx, uint64_t *drops);
void map_walk_free(struct map_walk *w);

#endif
