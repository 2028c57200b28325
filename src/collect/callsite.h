/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Call sites: which kernel path took a lock, from its kernel stack. The
 * classification rules are one table in callsite.c (documented in
 * mmtop-families(7), CALL SITES).
 */
#ifndef MMTOP_CALLSITE_H
#define MMTOP_CALLSITE_H

#include <stddef.h>
#include <stdint.h>

#include "ksyms.h"
#include "snapshot.h"

/*
 * Classify the stack @ips[0..n-1] (innermost first). @symbol receives the
 * first frame that is not tracing or locking plumbing ("" if none), @addr
 * its return address (0 if none).
 */
enum callsite callsite_classify(const struct ksyms *k, const uint64_t *ips,
				int n, char *symbol, size_t len, uint64_t *addr);

/*
 * For a contended lock: the first frame past the lock code goes to
 * @caller, and the class it implies (zone, pcp, vma-write, else other).
 */
enum cont_class contention_classify(const struct ksyms *k, const uint64_t *ips,
				    int n, char *caller, size_t len, uint64_t *addr);

/*
 * The @i-th function whose mmap_lock acquisitions are a page fault's, by
 * the rules (no pattern), its class in @site (CALLSITE_FAULT or
 * CALLSITE_FAULT_ANON); NULL past the last.
 */
const char *callsite_fault_func(int i, enum callsite *site);

/*
 * A holder known by the syscall @nr it is in: the call site of that
 * syscall's path (CALLSITE_OTHER if it has none), "sys_NAME" (or
 * "syscall NR") in @symbol.
 */
enum callsite callsite_of_syscall(long nr, char *symbol, size_t len);

/* The name of syscall @nr if callsite_of_syscall() knows it, else NULL. */
const char *syscall_name(long nr);

#endif
