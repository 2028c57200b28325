// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <bpf/libbpf.h>

#include "callsite.h"
#include "key_names.h"
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
		if (c->slots[i].stack == stack)
			return &c->slots[i];
	if (bpf_map__lookup_elem(c->stacks, &stack, sizeof(stack), &st, sizeof(st), 0))
		return &unknown;
	/* Never full: the BPF map holds at most SITES_MAX stacks. */
	s = &c->slots[i];
	s->stack = stack;
	s->site = callsite_classify(c->ksyms, (uint64_t *)st.ips, MMTOP_STACK_DEPTH,
				    s->symbol, sizeof(s->symbol), &s->addr);
	s->cont = contention_classify(c->ksyms, (uint64_t *)st.ips, MMTOP_STACK_DEPTH,
				      s->caller, sizeof(s->caller), &s->caller_addr);
	if (!c->raw_addresses)
		s->addr = s->caller_addr = 0;
	return s;
}

const struct site *holder_site_of(struct site_cache *c, uint64_t stack, unsigned int hint)
{
	static const struct site holders[] = {
		[HOLDER_EXACT] = {
			.site = CALLSITE_UNKNOWN, .symbol = "writer (site: exact mode)",
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
