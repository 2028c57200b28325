// SPDX-License-Identifier: GPL-2.0
/*
 * The site table's forgetting (src/collect/locks/key_names.c): sites no
 * row named for MAP_WALK_EVICT_READS reads leave the table and BPF's key
 * cache; the rest stay findable, whatever shared their probe run (the
 * table is open addressing; removal shifts entries back).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

#include "key_names.h"
#include "map_walk.h"
#include "mmtop.h"
#include "unit.h"

#define MASK (2 * SITES_MAX - 1)

/* Key @n of a run of keys all at home slot @home (the table's last, to wrap). */
static uint64_t key_at(size_t home, int n)
{
	return (uint64_t)(n + 1) * (2 * SITES_MAX) + home;
}

/* Puts @key in the table as site_of() would, named at the current read. */
static void put(struct site_cache *c, uint64_t key)
{
	size_t i;

	for (i = key & MASK; c->slots[i].stack; i = (i + 1) & MASK)
		;
	c->slots[i].stack = key;
	c->slots[i].named = c->reads;
	snprintf(c->slots[i].symbol, sizeof(c->slots[i].symbol), "site-%llu",
		 (unsigned long long)key);
}

static bool found(struct site_cache *c, uint64_t key)
{
	char want[32];

	snprintf(want, sizeof(want), "site-%llu", (unsigned long long)key);
	return !strcmp(site_of(c, key)->symbol, want);
}

/*
 * A holder known by its syscall (an even key, BPF's SYSCALL_SITE): named
 * from this architecture's syscall numbers, no stored stack looked up
 * (the table has no map), and cached as any site.
 */
static void test_syscall_sites(struct site_cache *c)
{
	const struct site *s = site_of(c, SYSCALL_SITE(SYS_mprotect));
	const struct site *h;

	CHECK(s->site == CALLSITE_MPROTECT && !strcmp(s->symbol, "sys_mprotect"),
	      "a writer in mprotect(2): site mprotect, symbol sys_mprotect (%s)", s->symbol);
	CHECK(site_of(c, SYSCALL_SITE(SYS_mprotect)) == s, "named once, then found in the table");
	s = site_of(c, SYSCALL_SITE(SYS_clone));
	CHECK(s->site == CALLSITE_FORK && !strcmp(s->symbol, "sys_clone"), "clone(2): fork");
	s = site_of(c, SYSCALL_SITE(SYS_mlock));
	CHECK(s->site == CALLSITE_OTHER && !strcmp(s->symbol, "sys_mlock"),
	      "mlock(2): site other, by name (%s)", s->symbol);
	s = site_of(c, SYSCALL_SITE(4000));
	CHECK(s->site == CALLSITE_OTHER && !strcmp(s->symbol, "syscall 4000"),
	      "a syscall without a name: other, by number (%s)", s->symbol);
	CHECK(SITE_IS_SYSCALL(SYSCALL_SITE(0)) && SITE_SYSCALL(SYSCALL_SITE(0)) == 0 &&
	      !SITE_IS_SYSCALL(0) && !SITE_IS_SYSCALL(0x1235),
	      "syscall 0 has a key; 0 and a stack's key (odd) are not syscalls");
	h = holder_site_of(c, 0, HOLDER_EXACT);
	CHECK(h->site == CALLSITE_UNKNOWN && !strcmp(h->symbol, "writer in no syscall"),
	      "a writer without a syscall: unknown (%s)", h->symbol);
	h = holder_site_of(c, SYSCALL_SITE(SYS_munmap), HOLDER_EXACT);
	CHECK(h->site == CALLSITE_MUNMAP, "a writer in munmap(2): munmap");
}

int main(void)
{
	struct site_cache c = { 0 };
	__u64 bpf_keys[SITE_CACHE] = { 0 };
	size_t home = MASK;	/* a run that wraps past the table's end */
	int i, forgotten = 0, n = 0;
	bool all = true, none = true;

	CHECK(!site_cache_init(&c, NULL, false), "a site table");
	c.bpf_keys = bpf_keys;
	/* Six keys on one probe run; the even ones go idle. */
	for (i = 0; i < 6; i++)
		put(&c, key_at(home, i));
	/* BPF's cache: its slot for them holds a named one; another an idle one. */
	bpf_keys[key_at(home, 3) & (SITE_CACHE - 1)] = key_at(home, 3);
	put(&c, key_at(5, 0));
	bpf_keys[key_at(5, 0) & (SITE_CACHE - 1)] = key_at(5, 0);
	for (n = 0; n < MAP_WALK_EVICT_READS + 1; n++) {
		for (i = 1; i < 6; i += 2)
			all &= found(&c, key_at(home, i));
		forgotten += sites_forget_idle(&c);
	}
	for (i = 0; i < 6; i += 2)
		none &= !found(&c, key_at(home, i));
	CHECK(forgotten == 4 && none && !found(&c, key_at(5, 0)),
	      "the 4 idle sites are forgotten (%d), and not found", forgotten);
	CHECK(all && found(&c, key_at(home, 1)) && found(&c, key_at(home, 3)) &&
	      found(&c, key_at(home, 5)),
	      "the 3 named each read stay findable, across the table's end");
	CHECK(!bpf_keys[key_at(5, 0) & (SITE_CACHE - 1)] &&
	      bpf_keys[key_at(home, 3) & (SITE_CACHE - 1)] == key_at(home, 3),
	      "BPF's cache loses a forgotten key, and keeps a named one in a slot the forgotten shared");
	for (n = 0; n < MAP_WALK_EVICT_READS - 1; n++)
		sites_forget_idle(&c);
	CHECK(found(&c, key_at(home, 1)), "a site named %d reads ago is kept", MAP_WALK_EVICT_READS - 1);
	test_syscall_sites(&c);
	site_cache_free(&c);
	UNIT_EXIT();
}
