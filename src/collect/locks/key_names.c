// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <bpf/libbpf.h>

#include "callsite.h"
#include "key_names.h"
#include "map_walk.h"
#include "mmtop.h"
#include "proc.h"
#include "util.h"

int site_cache_init(struct site_cache *c, const struct ksyms *ksyms, bool raw_addresses)
{
	c->slots = calloc(2 * SITES_MAX, sizeof(*c->slots));
	c->ksyms = ksyms;
	c->raw_addresses = raw_addresses;
	return c->slots ? 0 : -1;
}

void site_cache_free(struct site_cache *c)
{
	free(c->slots);
	c->slots = NULL;
}

const struct site *site_of(struct site_cache *c, uint64_t stack)
{
	static const struct site unknown = {
		.site = CALLSITE_UNKNOWN, .cont = CONT_CLASS_OTHER,
	};
	const size_t mask = 2 * SITES_MAX - 1;
	struct lock_stack st;
	struct site *s;
	size_t i;

	if (!stack)
		return &unknown;
	for (i = stack & mask; c->slots[i].stack; i = (i + 1) & mask)
		if (c->slots[i].stack == stack) {
			c->slots[i].named = c->reads;
			return &c->slots[i];
		}
	/* Not cached: a failed read is tried again at the next naming. */
	if (!SITE_IS_SYSCALL(stack) &&
	    (!c->stacks ||
	     bpf_map__lookup_elem(c->stacks, &stack, sizeof(stack), &st, sizeof(st), 0)))
		return &unknown;
	/*
	 * Never full: the BPF map holds at most SITES_MAX stacks, and a
	 * holder's syscall key (SYSCALL_SITE) is one of some 460 syscalls.
	 */
	s = &c->slots[i];
	s->stack = stack;
	s->named = c->reads;
	if (SITE_IS_SYSCALL(stack)) {
		s->site = callsite_of_syscall(SITE_SYSCALL(stack), s->symbol, sizeof(s->symbol));
		s->cont = CONT_CLASS_OTHER;
		s->caller[0] = '\0';
		s->addr = s->caller_addr = 0;
		return s;
	}
	s->site = callsite_classify(c->ksyms, (uint64_t *)st.ips, MMTOP_STACK_DEPTH,
				    s->symbol, sizeof(s->symbol), &s->addr);
	s->cont = contention_classify(c->ksyms, (uint64_t *)st.ips, MMTOP_STACK_DEPTH,
				      s->caller, sizeof(s->caller), &s->caller_addr);
	if (!c->raw_addresses)
		s->addr = s->caller_addr = 0;
	return s;
}

/*
 * Slot @i emptied in the open addressing: the entries after it, up to a
 * free slot, that would no longer be found from their home move back into
 * it (deletion by backward shift: no tombstones to clean).
 */
static void slot_free(struct site_cache *c, size_t i)
{
	const size_t mask = 2 * SITES_MAX - 1;
	size_t j = i, home;

	for (;;) {
		j = (j + 1) & mask;
		if (!c->slots[j].stack)
			break;
		home = c->slots[j].stack & mask;
		/* Found from home only if it lies cyclically in (i, j]. */
		if (i <= j ? home > i && home <= j : home > i || home <= j)
			continue;
		c->slots[i] = c->slots[j];
		i = j;
	}
	c->slots[i].stack = 0;
}

/*
 * @stack's stored stack taken out of lock_stacks, then its key out of
 * BPF's cache, in that order: a wait in between finds the key cached and
 * stores nothing, but the next one after the clear stores it again. A
 * wait that finds the slot before the clear counts in a row whose stack
 * is not stored until its key's next wait (a site idle for a minute that
 * comes back within microseconds of its eviction).
 */
static void forget_stack(struct site_cache *c, uint64_t stack)
{
	__u64 seen = stack;

	if (c->stacks)
		bpf_map__delete_elem(c->stacks, &stack, sizeof(stack), 0);
	if (c->bpf_keys)
		__atomic_compare_exchange_n(&c->bpf_keys[stack & (SITE_CACHE - 1)], &seen, 0,
					    false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
}

#define SITES_SCAN (MAP_WALK_EVICT_READS / 6)

int sites_forget_idle(struct site_cache *c)
{
	const size_t n = 2 * SITES_MAX;
	size_t i = 0;
	int forgotten = 0;

	/*
	 * The scan touches every slot of the table (some 2.8 MB, the largest
	 * share of a read's CPU under process churn): once every SITES_SCAN
	 * reads, so a site is forgotten at most a sixth late.
	 */
	if (++c->reads % SITES_SCAN)
		return 0;
	while (i < n) {
		struct site *s = &c->slots[i];

		if (!s->stack || c->reads - s->named < MAP_WALK_EVICT_READS) {
			i++;
			continue;
		}
		forget_stack(c, s->stack);
		slot_free(c, i);
		forgotten++;
		/* Slot i now holds what moved back, if anything: look again. */
	}
	return forgotten;
}

const struct site *holder_site_of(struct site_cache *c, uint64_t stack, unsigned int hint)
{
	static const struct site holders[] = {
		[HOLDER_EXACT] = {
			.site = CALLSITE_UNKNOWN, .symbol = "writer in no syscall",
		},
		[HOLDER_LAST_READER] = {
			.site = CALLSITE_UNKNOWN, .symbol = "last reader in (a hint)",
		},
		[HOLDER_NONE_SEEN] = {
			.site = CALLSITE_UNKNOWN, .symbol = BLAME_NONE_SEEN,
		},
	};

	if (stack)
		return site_of(c, stack);
	return &holders[hint < ARRAY_SIZE(holders) ? hint : HOLDER_NONE_SEEN];
}

enum cont_class cont_class_of(__u32 bpf_cls, const struct site *site, bool *by_address)
{
	static const enum cont_class map[] = {
		[CONT_OWN_MMAP] = CONT_CLASS_OWN_MMAP,
		[CONT_OTHER_MMAP] = CONT_CLASS_OTHER_MMAP,
		[CONT_ZONE] = CONT_CLASS_ZONE,
		[CONT_PCP] = CONT_CLASS_PCP,
	};

	*by_address = bpf_cls != CONT_STACK;
	if (bpf_cls != CONT_STACK && bpf_cls < ARRAY_SIZE(map))
		return map[bpf_cls];
	return site->cont;
}

void comm_of(struct bpf_map *comms, int pid, char *comm)
{
	__u32 key = pid;

	if (!bpf_map__lookup_elem(comms, &key, sizeof(key), comm, SNAPSHOT_COMM_LEN, 0))
		return;
	if (proc_read_comm(pid, comm, SNAPSHOT_COMM_LEN))
		snprintf(comm, SNAPSHOT_COMM_LEN, "?");
}
