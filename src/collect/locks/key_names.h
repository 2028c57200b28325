/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the lock maps' keys name: a stack key as a call site (classified
 * once from its stored stack, then cached), a tgid as a process name.
 */
#ifndef MMTOP_KEY_NAMES_H
#define MMTOP_KEY_NAMES_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/types.h>

#include "ksyms.h"
#include "snapshot.h"

#define SITES_MAX 8192		/* lock_stacks' size, set at open */

struct site {
	uint64_t stack;			/* 0: free slot */
	unsigned long named;		/* the read that last named it */
	enum callsite site;		/* as an mmap_lock call site */
	char symbol[SNAPSHOT_SYMBOL_LEN];
	uint64_t addr;			/* of symbol's frame */
	enum cont_class cont;		/* as a contended lock's caller */
	char caller[SNAPSHOT_SYMBOL_LEN];
	uint64_t caller_addr;
};

struct site_cache {
	struct site *slots;		/* open addressing, 2 * SITES_MAX */
	const struct ksyms *ksyms;
	struct bpf_map *stacks;		/* stack key -> struct lock_stack */
	__u64 *bpf_keys;		/* BPF's site_keys[SITE_CACHE] */
	unsigned long reads;		/* sites_forget_idle() calls */
	bool raw_addresses;		/* keep the frames' addresses */
};

int site_cache_init(struct site_cache *c, const struct ksyms *ksyms, bool raw_addresses);
void site_cache_free(struct site_cache *c);
/* The site of stack key @stack; an unknown site if it cannot be read. */
const struct site *site_of(struct site_cache *c, uint64_t stack);
/*
 * Once a read, after the rows and events: the sites no row or event has
 * named for MAP_WALK_EVICT_READS reads, forgotten (by a scan every sixth
 * of that, so up to a sixth late) here and in BPF (their
 * stacks out of lock_stacks, their keys out of BPF's cache), so that
 * lock_stacks holds the sites in use, not every site ever seen. A site
 * that comes back is stored again by its next wait. Returns how many.
 */
int sites_forget_idle(struct site_cache *c);
/*
 * The site of a holder's stack key @stack: where the default set names a
 * holder from the rwsem's owner (stack 0), its site is not known, and the
 * symbol says what the holder is (@hint, enum holder_hint): a writer, the
 * last reader in, or none seen.
 */
const struct site *holder_site_of(struct site_cache *c, uint64_t stack, unsigned int hint);
/* Kernel-side class, or the stack's where the kernel could not tell. */
enum cont_class cont_class_of(__u32 bpf_cls, const struct site *site, bool *by_address);
/* @pid's name from @comms (kept by BPF for processes gone), else /proc, else "?". */
void comm_of(struct bpf_map *comms, int pid, char *comm);

#endif
