// SPDX-License-Identifier: GPL-2.0
/*
 * The cumulative map walk (src/collect/map_walk.c) over an in-memory map:
 * growth reaches the visitor, keys of processes that are gone are deleted
 * once read (idle ones after a grace of reads), only after the walk, and
 * forgotten by the delta table too; keys idle for MAP_WALK_EVICT_READS
 * reads are taken out, what they grew meanwhile counted; read key by key
 * and in batches alike.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "map_walk.h"
#include "unit.h"

#define NR_KEYS 8
/* A key's value: two counters, summed by the visitor. */
#define NR_COUNTERS 2

struct fake_key {
	uint64_t stack;
	uint32_t tgid;
	uint32_t pad;
};

struct fake_map {
	struct {
		struct fake_key key;
		uint64_t v[NR_COUNTERS];
		bool present, unreadable;
	} e[NR_KEYS];
	bool ended;			/* next_key returned the end */
	int deletes_mid_walk;
	int alive_calls[64];
	bool dead[64];
};

static struct fake_map *the_map;

static int find(struct fake_map *m, const void *key)
{
	int i;

	for (i = 0; i < NR_KEYS; i++)
		if (m->e[i].present && !memcmp(&m->e[i].key, key, sizeof(struct fake_key)))
			return i;
	return -1;
}

static int fake_next_key(void *map, const void *key, void *next)
{
	struct fake_map *m = map;
	int i = key ? find(m, key) + 1 : 0;	/* a key gone: from the start, as BPF does */

	m->ended = false;
	for (; i < NR_KEYS; i++)
		if (m->e[i].present) {
			memcpy(next, &m->e[i].key, sizeof(struct fake_key));
			return 0;
		}
	m->ended = true;
	return -1;
}

static int fake_lookup(void *map, const void *key, void *values)
{
	int i = find(map, key);

	if (i < 0 || the_map->e[i].unreadable)
		return -1;
	memcpy(values, the_map->e[i].v, sizeof(the_map->e[i].v));
	return 0;
}

static int fake_delete(void *map, const void *key)
{
	struct fake_map *m = map;
	int i = find(m, key);

	if (!m->ended)
		m->deletes_mid_walk++;
	if (i < 0)
		return -1;
	m->e[i].present = false;
	return 0;
}

/* Read and delete; growth @take_growth added first (an event between). */
static uint64_t take_growth;
static int take_errno;

static int fake_take(void *map, const void *key, void *values)
{
	struct fake_map *m = map;
	int i = find(m, key);

	if (take_errno) {
		errno = take_errno;
		return -1;
	}
	if (i < 0) {
		errno = ENOENT;
		return -1;
	}
	m->e[i].v[0] += take_growth;
	memcpy(values, m->e[i].v, sizeof(m->e[i].v));
	m->e[i].present = false;
	return 0;
}

static bool fake_alive(uint32_t tgid)
{
	the_map->alive_calls[tgid]++;
	return !the_map->dead[tgid];
}

static const struct map_reader fake_reader = {
	fake_next_key, fake_lookup, fake_delete, fake_take, fake_alive, NULL,
};

/* Batches of at most 3 keys, so that a walk takes several; positions are slots. */
static int fake_batch(void *map, const void *in, void *out, void *keys, void *values,
		      uint32_t *count)
{
	struct fake_map *m = map;
	uint32_t i = in ? *(const uint32_t *)in : 0, n = 0;

	m->ended = false;
	for (; i < NR_KEYS && n < *count && n < 3; i++) {
		if (!m->e[i].present)
			continue;
		memcpy((char *)keys + n * sizeof(struct fake_key), &m->e[i].key,
		       sizeof(struct fake_key));
		memcpy((char *)values + n * sizeof(m->e[i].v), m->e[i].v, sizeof(m->e[i].v));
		n++;
	}
	*count = n;
	*(uint32_t *)out = i;
	if (i < NR_KEYS)
		return 0;
	m->ended = true;
	errno = ENOENT;
	return -1;
}

static const struct map_reader fake_batch_reader = {
	fake_next_key, fake_lookup, fake_delete, fake_take, fake_alive, fake_batch,
};

struct fake_prev {
	struct walk_prev head;
	uint64_t sum;
};

struct seen {
	uint64_t growth[64];		/* by tgid */
	int visits;
};

static bool visit(void *ctx, const void *k, const void *values, struct walk_prev *prev)
{
	const struct fake_key *key = k;
	const uint64_t *v = values;
	struct fake_prev *p = (struct fake_prev *)prev;
	struct seen *seen = ctx;
	uint64_t sum = v[0] + v[1];

	seen->visits++;
	if (sum == p->sum)
		return false;
	seen->growth[key->tgid] += sum - p->sum;
	p->sum = sum;
	return true;
}

static void put(struct fake_map *m, int i, uint32_t tgid, uint64_t a, uint64_t b)
{
	m->e[i].key = (struct fake_key){ .stack = 0x1000 + i, .tgid = tgid };
	m->e[i].v[0] = a;
	m->e[i].v[1] = b;
	m->e[i].present = true;
}

/* Tombstones and growth: values survive rehashing, forgotten keys start over. */
static void test_delta_table(void)
{
	struct delta_table t;
	struct fake_key k = { 0 };
	uint64_t *v;
	int i, kept = 0, fresh = 0;

	delta_table_init(&t, sizeof(k), sizeof(uint64_t));
	for (i = 0; i < 5000; i++) {
		k.stack = i;
		v = delta_prev(&t, &k);
		if (v)
			*v = i + 1;
	}
	for (i = 0; i < 5000; i += 2) {
		k.stack = i;
		delta_forget(&t, &k);
	}
	for (i = 5000; i < 9000; i++) {	/* grows again over the tombstones */
		k.stack = i;
		v = delta_prev(&t, &k);
		if (v)
			*v = i + 1;
	}
	for (i = 0; i < 9000; i++) {
		k.stack = i;
		v = delta_prev(&t, &k);
		kept += v && *v == (uint64_t)i + 1;
		fresh += v && *v == 0;
	}
	CHECK(kept == 6500 && fresh == 2500,
	      "delta table: 6500 values kept through growth, 2500 forgotten keys back at 0 (%d, %d)",
	      kept, fresh);
	delta_table_free(&t);
}

/*
 * After a burst the table shrinks to its live keys: 10,000 keys gone,
 * then a churn of short-lived ones, a few live at a time.
 */
static void test_delta_shrinks(void)
{
	struct delta_table t;
	struct fake_key k = { 0 };
	size_t peak;
	uint64_t *v;
	int i, kept = 0;

	delta_table_init(&t, sizeof(k), sizeof(uint64_t));
	for (i = 0; i < 10000; i++) {
		k.stack = i;
		delta_prev(&t, &k);
	}
	peak = t.cap;
	for (i = 0; i < 10000; i++) {
		k.stack = i;
		delta_forget(&t, &k);
	}
	for (i = 0; i < 50; i++) {	/* 50 long-lived keys */
		k.stack = 1000000 + i;
		v = delta_prev(&t, &k);
		if (v)
			*v = i + 1;
	}
	for (i = 10000; i < 40000; i++) {	/* short-lived ones, 10 live at a time */
		k.stack = i;
		delta_prev(&t, &k);
		k.stack = i - 10;
		delta_forget(&t, &k);
	}
	for (i = 0; i < 50; i++) {
		k.stack = 1000000 + i;
		v = delta_prev(&t, &k);
		kept += v && *v == (uint64_t)i + 1;
	}
	CHECK(peak >= 16384 && t.cap <= 256 && kept == 50,
	      "delta table: %zu slots at 10,000 keys, %zu once 60 are live, their values kept (%d of 50)",
	      peak, t.cap, kept);
	delta_table_free(&t);
}

/*
 * Keys idle for MAP_WALK_EVICT_READS reads: taken out (process 10's grows
 * each read and stays), an event between the read and the take counted;
 * where the kernel cannot take, left in the map.
 */
static void test_idle(struct map_walk *w, const struct map_walk_spec *spec,
		      struct fake_map *m, const char *how)
{
	uint64_t drops[DROP__COUNT] = { 0 };
	struct seen seen = { .visits = 0 };
	int i;

	m->e[2].unreadable = false;
	m->e[2].v[0]++;		/* grows once more, then idles */
	m->e[5].v[0]++;
	for (i = 0; i < MAP_WALK_EVICT_READS; i++) {
		m->e[0].v[0]++;
		map_walk_run(w, spec, visit, &seen, drops);
	}
	CHECK(m->e[2].present && m->e[5].present,
	      "%s: keys idle for %d reads stay", how, MAP_WALK_EVICT_READS - 1);
	take_growth = 3;
	m->e[0].v[0]++;
	memset(&seen, 0, sizeof(seen));
	map_walk_run(w, spec, visit, &seen, drops);
	take_growth = 0;
	CHECK(!m->e[2].present && !m->e[5].present && m->e[0].present,
	      "%s: keys idle for %d reads taken out, the growing one kept", how,
	      MAP_WALK_EVICT_READS);
	CHECK(seen.growth[0] == 3 && seen.growth[50] == 3 && seen.growth[10] == 1,
	      "%s: what they grew between the read and the take counted (%llu, %llu)", how,
	      (unsigned long long)seen.growth[0], (unsigned long long)seen.growth[50]);
	put(m, 2, 0, 5, 0);
	memset(&seen, 0, sizeof(seen));
	map_walk_run(w, spec, visit, &seen, drops);
	CHECK(seen.growth[0] == 5, "%s: a key made again counts from 0 (%llu)", how,
	      (unsigned long long)seen.growth[0]);
	take_errno = 524;	/* ENOTSUPP: before 5.14 */
	for (i = 0; i < MAP_WALK_EVICT_READS; i++)
		map_walk_run(w, spec, visit, &seen, drops);
	take_errno = 0;
	CHECK(m->e[2].present && w->no_take,
	      "%s: where the kernel cannot take keys out, they stay", how);
}

/* The walks over one map, read by @reader, @how: "key by key" or "in batches". */
static void test_walks(const struct map_reader *reader, const char *how)
{
	static struct fake_map m;
	uint64_t drops[DROP__COUNT] = { 0 };
	struct map_walk w = { 0 };
	struct delta_table t;
	struct map_walk_spec spec = {
		.map = &m, .prev = &t, .key_size = sizeof(struct fake_key),
		.tgid_off = offsetof(struct fake_key, tgid), .value_size = sizeof(m.e[0].v),
	};
	struct seen seen = { .visits = 0 };
	struct fake_prev *p;

	memset(&m, 0, sizeof(m));
	the_map = &m;
	if (map_walk_init(&w, reader, sizeof(m.e[0].v))) {
		CHECK(0, "%s: buffers", how);
		return;
	}
	delta_table_init(&t, sizeof(struct fake_key), sizeof(struct fake_prev));
	put(&m, 0, 10, 3, 4);		/* live */
	put(&m, 1, 20, 1, 1);		/* gone, grew: deleted at once */
	put(&m, 2, 0, 5, 0);		/* no process (kernel-wide key) */
	put(&m, 3, 40, 2, 2);		/* live now, gone and idle later */
	put(&m, 5, 50, 1, 0);		/* past the first batch */
	m.dead[20] = true;

	map_walk_run(&w, &spec, visit, &seen, drops);
	CHECK(seen.visits == 5 && seen.growth[10] == 7 && seen.growth[20] == 2 &&
	      seen.growth[0] == 5 && seen.growth[40] == 4 && seen.growth[50] == 1,
	      "%s, first read: every key's values grew from 0 (%d visits)", how, seen.visits);
	CHECK(!m.e[1].present && m.e[0].present && m.e[2].present && m.e[3].present,
	      "%s: the gone process's key is deleted from the map once read", how);
	CHECK(m.deletes_mid_walk == 0, "%s: deleted after the walk, not during it", how);
	CHECK(w.gone.nr == 1 && w.gone.v[0] == 20, "%s: the gone process is listed once", how);
	CHECK(m.alive_calls[0] == 0, "%s: a key without a process is never checked", how);
	p = delta_prev(&t, &m.e[1].key);
	CHECK(p && p->sum == 0, "%s: and forgotten by the delta table (its slot comes back zeroed)",
	      how);

	/* Process 40 goes; its key stops growing. */
	m.dead[40] = true;
	m.e[0].v[1] += 6;
	memset(&seen, 0, sizeof(seen));
	w.gone.nr = 0;
	map_walk_run(&w, &spec, visit, &seen, drops);
	CHECK(seen.growth[10] == 6 && seen.growth[40] == 0,
	      "%s, second read: growth only where it grew", how);
	CHECK(m.e[3].present && m.alive_calls[40] == 1,
	      "%s: an idle key is not checked before its second idle read (%d checks)", how,
	      m.alive_calls[40]);
	map_walk_run(&w, &spec, visit, &seen, drops);
	CHECK(!m.e[3].present && m.alive_calls[40] == 2 && w.gone.nr == 1 && w.gone.v[0] == 40,
	      "%s: idle twice and gone: deleted", how);
	CHECK(m.alive_calls[10] == 2, "%s: a live key is checked each read it grew, not when idle (%d)",
	      how, m.alive_calls[10]);

	/* Key by key, a key that cannot be read counts as a drop; the walk goes on. */
	if (!reader->batch) {
		m.e[2].unreadable = true;
		m.e[0].v[0] += 1;
		memset(&seen, 0, sizeof(seen));
		map_walk_run(&w, &spec, visit, &seen, drops);
		CHECK(drops[DROP_READ] == 1 && seen.growth[10] == 1,
		      "%s: an unreadable key: one read drop, the rest read", how);
	} else {
		CHECK(drops[DROP_READ] == 0, "%s: no read drops (%llu)", how,
		      (unsigned long long)drops[DROP_READ]);
	}
	test_idle(&w, &spec, &m, how);
	delta_table_free(&t);
	map_walk_free(&w);
}

int main(void)
{
	test_walks(&fake_reader, "key by key");
	test_walks(&fake_batch_reader, "in batches");
	test_delta_table();
	test_delta_shrinks();
	UNIT_EXIT();
}
