/* SPDX-License-Identifier: GPL-2.0 */
/* Kernel text symbols from /proc/kallsyms, for call-site names. */
#ifndef MMTOP_KSYMS_H
#define MMTOP_KSYMS_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

struct ksym {
	uint64_t addr;
	char *name;
};

/*
 * The data symbols kept (the rest of the file's are not), where the kernel
 * lists data (CONFIG_KALLSYMS_ALL): the fork backing's direct map.
 */
#define KSYMS_DATA { "page_offset_base", "memstart_addr" }
#define KSYMS_NR_DATA 2

struct ksyms {
	struct ksym *syms;	/* sorted by address */
	int nr;
	char *names;		/* one block holding every name */
	uint64_t data[KSYMS_NR_DATA];	/* KSYMS_DATA's addresses; 0: not listed */
	uint64_t text_lo, text_hi;	/* _stext, _etext; 0: not listed */
};

/* Load text symbols (and KSYMS_DATA's) from @path; -errno on error, -ENODATA if all are 0. */
int ksyms_load(struct ksyms *k, const char *path);

/*
 * ksyms_load() in a thread of its own: the kernel takes some 50 ms to
 * format /proc/kallsyms, which the start-up spends loading BPF programs
 * meanwhile. begun: until ksyms_load_end().
 */
struct ksyms_loader {
	pthread_t thread;
	const char *path;
	struct ksyms k;
	int ret;
	bool begun, running;
};

void ksyms_load_begin(struct ksyms_loader *l, const char *path);
/* Wait for it (load here if no thread started): ksyms_load()'s result, its table in @k. */
int ksyms_load_end(struct ksyms_loader *l, struct ksyms *k);
void ksyms_free(struct ksyms *k);
/* Name of the function containing @addr, or NULL. */
const char *ksyms_name(const struct ksyms *k, uint64_t addr);

/*
 * Whether @addr is in the kernel image's text; true where the table does
 * not say where that is.
 */
bool ksyms_in_text(const struct ksyms *k, uint64_t addr);

/* Address of KSYMS_DATA's data symbol @name, or 0. */
uint64_t ksyms_data(const struct ksyms *k, const char *name);

/* Address of the symbol @name, or 0. */
uint64_t ksyms_addr(const struct ksyms *k, const char *name);
/* Where the function @name ends: the next symbol's address; 0 if unknown. */
uint64_t ksyms_end(const struct ksyms *k, const char *name);

#endif
