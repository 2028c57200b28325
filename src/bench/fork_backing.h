/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A fork parent's memory in the backing asked for, and proof that it got
 * it: the PTE-batching measurements compare order-0 pages, order-9 folios
 * mapped by PTEs (what fork batches) and PMD-mapped THP (one PMD copied
 * either way).
 */
#ifndef MMTOP_FORK_BACKING_H
#define MMTOP_FORK_BACKING_H

#include <stddef.h>
#include <stdint.h>

enum fork_backing { BACKING_4K, BACKING_THP_PTE, BACKING_THP, BACKINGS };

/* "4k", "thp-pte", "thp": --backing's words. */
const char *backing_name(enum fork_backing b);
/* The recording's metric: fork-4k-us, fork-thp-pte-us, fork-thp-us. */
const char *backing_metric(enum fork_backing b);
/*
 * The name a parent of backing @b runs under (fork-4k, fork-thp-pte,
 * fork-thp), so that mmtop's fork rows say which backing they forked.
 */
const char *backing_comm(enum fork_backing b);
/* The backing of a parent named @comm; BACKINGS if not a bench fork parent. */
enum fork_backing backing_of_comm(const char *comm);
/* --backing's value into the enum fork_backing @b; -1 if unknown. */
int backing_parse(const char *arg, void *b);

/*
 * @size bytes, THP-aligned, populated in backing @b; NULL (said why on
 * stderr) if the kernel could not give them or did not give that backing.
 * A line on stdout says what the memory got.
 */
char *backing_map(enum fork_backing b, size_t size);

/* The size of a PMD-mapped THP; 2 MiB where sysfs does not say. */
size_t thp_pmd_size(void);

#endif
