// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "map_walk.h"

/* Keys that did not grow are checked after this many reads only. */
#define IDLE_READS 2

static int bpf_next_key(void *map, const void *key, void *next)
{
	return bpf_map_get_next_key(bpf_map__fd(map), key, next) ? -1 : 0;
}

static int bpf_lookup(void *map, const void *key, void *values)
{
	return bpf_map_lookup_elem(bpf_map__fd(map), key, values) ? -1 : 0;
}

static int bpf_delete(void *map, const void *key)
{
	return bpf_map_delete_elem(bpf_map__fd(map), key) ? -1 : 0;
}

static int bpf_take(void *map, const void *key, void *value)
{
	return bpf_map_lookup_and_delete_elem(bpf_map__fd(map), key, value) ? -1 : 0;
}

static bool process_alive(uint32_t tgid)
{
	return !kill(tgid, 0) || errno != ESRCH;
}

static int bpf_batch(void *map, const void *in, void *out, void *keys, void *values,
		     uint32_t *count)
{
	return bpf_map_lookup_batch(bpf_map__fd(map), (void *)in, out, keys, values, count,
				    NULL) ? -1 : 0;
}

const struct map_reader map_reader_bpf = {
	.next_key = bpf_next_key,
	.lookup = bpf_lookup,
	.delete = bpf_delete,
	.take = bpf_take,
	.alive = process_alive,
	.batch = bpf_batch,
};

int map_walk_init(struct map_walk *w, const struct map_reader *reader, size_t value_size)
{
	w->reader = reader;
	w->keys = calloc(MAP_WALK_BATCH, MAP_WALK_MAX_KEY);
	w->values = calloc(MAP_WALK_BATCH, value_size);
	return w->keys && w->values ? 0 : -1;
}

static uint32_t tgid_of(const struct map_walk_spec *spec, const void *key)
{
	uint32_t tgid;

	if (!spec->tgid_off)
		return 0;
	memcpy(&tgid, (const char *)key + spec->tgid_off, sizeof(tgid));
	return tgid;
}

/* Keep @key (@size bytes) for after the walk. */
static void keep_key(struct walk_keys *l, const void *key, size_t size)
{
	if (l->nr == l->cap &&
	    snapshot_grow((void **)&l->keys, &l->cap, MAP_WALK_MAX_KEY))
		return;
	memcpy(l->keys + l->nr++ * MAP_WALK_MAX_KEY, key, size);
}

/* A key of a process that is gone, or none, its growth in @grew. */
static bool process_gone(struct map_walk *w, uint32_t tgid, const struct walk_prev *prev,
			 bool grew)
{
	return tgid && (grew || prev->idle >= IDLE_READS) && !w->reader->alive(tgid);
}

/*
 * A key of a process that is gone: its values are final once read, so it
 * goes now; a storm of short-lived processes must not fill the map. Keys
 * that did not grow are looked at after IDLE_READS reads only, to spare a
 * kill() per idle key and read. A key idle for MAP_WALK_EVICT_READS reads is taken
 * out.
 */
static void doom_if_done(struct map_walk *w, const struct map_walk_spec *spec,
			 struct walk_prev *prev, const void *key, bool grew)
{
	uint32_t tgid = tgid_of(spec, key);

	prev->idle = grew ? 0 : prev->idle + 1;
	if (process_gone(w, tgid, prev, grew)) {
		if (!w->gone.nr || w->gone.v[w->gone.nr - 1] != tgid) {
			uint32_t *g = snapshot_push(&w->gone);

			if (g)
				*g = tgid;
		}
		keep_key(&w->doomed, key, spec->key_size);
	} else if (prev->idle >= MAP_WALK_EVICT_READS && w->reader->take && !w->no_take) {
		keep_key(&w->idle, key, spec->key_size);
	}
}

/* After the walk: a deleted key would restart the key order. */
static void forget_doomed(struct map_walk *w, const struct map_walk_spec *spec)
{
	int i;

	for (i = 0; i < w->doomed.nr; i++) {
		const char *key = w->doomed.keys + i * MAP_WALK_MAX_KEY;

		w->reader->delete(spec->map, key);
		delta_forget(spec->prev, key);
	}
	w->doomed.nr = 0;
}

/* Whether errno says the kernel cannot take a key out of a hash map. */
static bool cannot_take(void)
{
	return errno == EINVAL || errno == EOPNOTSUPP || errno == 524 /* ENOTSUPP */;
}

/*
 * Idle keys out: each read and deleted in one step, and what it grew since
 * the walk read it (an event in between) given to @visit, so that nothing
 * is lost. One thing can be: an event whose program had already found
 * the row and adds to it as it goes (nanoseconds, on a row idle for
 * MAP_WALK_EVICT_READS reads).
 */
static void take_idle(struct map_walk *w, const struct map_walk_spec *spec,
		      map_visit_fn visit, void *ctx)
{
	int i;

	for (i = 0; i < w->idle.nr && !w->no_take; i++) {
		const char *key = w->idle.keys + i * MAP_WALK_MAX_KEY;
		struct walk_prev *prev;

		if (w->reader->take(spec->map, key, w->values)) {
			w->no_take = cannot_take();
			if (w->no_take)
				break;
		} else if ((prev = delta_prev(spec->prev, key))) {
			visit(ctx, key, w->values, prev);
		}
		delta_forget(spec->prev, key);
	}
	w->idle.nr = 0;
}

/* One key and its value, read. */
static void visit_key(struct map_walk *w, const struct map_walk_spec *spec,
		      const void *key, const void *value, map_visit_fn visit, void *ctx,
		      uint64_t *drops)
{
	struct walk_prev *prev = delta_prev(spec->prev, key);
	bool grew;

	if (!prev) {
		drops[DROP_READ]++;
		return;
	}
	grew = visit(ctx, key, value, prev);
	doom_if_done(w, spec, prev, key, grew);
}

/*
 * The map in batches; -1 if the kernel cannot (before 5.6) and nothing
 * was read. A batch that fails later loses the rest of this read.
 */
static int walk_batches(struct map_walk *w, const struct map_walk_spec *spec,
			map_visit_fn visit, void *ctx, uint64_t *drops)
{
	char pos[MAP_WALK_POS] = { 0 };
	bool first = true, end = false;
	uint32_t n, i;

	while (!end) {
		n = MAP_WALK_BATCH;
		if (w->reader->batch(spec->map, first ? NULL : pos, pos, w->keys, w->values, &n)) {
			if (errno != ENOENT) {
				if (first)
					return -1;
				drops[DROP_READ]++;
			}
			end = true;
		}
		first = false;
		for (i = 0; i < n; i++)
			visit_key(w, spec, (char *)w->keys + i * spec->key_size,
				  (char *)w->values + i * spec->value_size, visit, ctx, drops);
	}
	return 0;
}

static void walk_keys(struct map_walk *w, const struct map_walk_spec *spec,
		      map_visit_fn visit, void *ctx, uint64_t *drops)
{
	char key[MAP_WALK_MAX_KEY], next[MAP_WALK_MAX_KEY];
	bool first = true;

	while (!w->reader->next_key(spec->map, first ? NULL : key, next)) {
		first = false;
		memcpy(key, next, spec->key_size);
		if (w->reader->lookup(spec->map, key, w->values)) {
			drops[DROP_READ]++;
			continue;
		}
		visit_key(w, spec, key, w->values, visit, ctx, drops);
	}
}

void map_walk_run(struct map_walk *w, const struct map_walk_spec *spec,
		  map_visit_fn visit, void *ctx, uint64_t *drops)
{
	if (!w->reader->batch || walk_batches(w, spec, visit, ctx, drops))
		walk_keys(w, spec, visit, ctx, drops);
	forget_doomed(w, spec);
	take_idle(w, spec, visit, ctx);
}

void map_walk_free(struct map_walk *w)
{
	free(w->keys);
	free(w->values);
	free(w->doomed.keys);
	free(w->idle.keys);
	free(w->gone.v);
	memset(w, 0, sizeof(*w));
}
