/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The manifest of bpf/locks.bpf.c: every program once, keyed on the
 * skeleton's program, with the families that use it, those that need it,
 * whether it is exact mode's, what else it needs, and what is lost
 * without it (refused by the kernel, or its tracepoint missing: one rule,
 * lock_source.c's prog_lost()). Its tracepoint or hook is its section.
 */
#ifndef MMTOP_LOCK_PROGS_H
#define MMTOP_LOCK_PROGS_H

#include <stdbool.h>
#include <stddef.h>

#include "kernel_has.h"
#include "snapshot.h"

/* The lock families, as the bits of a program's families and needs. */
#define MMAP (1u << FAMILY_MMAP_LOCK)
#define CONT (1u << FAMILY_CONTENTION)
#define FORK (1u << FAMILY_FORK)

struct locks_bpf;
struct bpf_program;

/* What a program needs beyond its families: an option. */
enum prog_option { OPT_NONE, OPT_SPIN_WAITS, OPT_VMA_WAITS };

/* What is lost without the program. */
enum prog_loss {
	LOSS_FAMILIES,	/* the families that need it; the others do without */
	LOSS_WALK,	/* the fork backing's page-table walk: the backing is n/a */
	LOSS_RELEASE,	/* the holders at release: the rwsem's owner names them */
	LOSS_CLONE,	/* forks timed at kernel_clone: exact mode times them */
	LOSS_EXACT,	/* exact mode, for good: the default set runs */
};

struct lock_prog {
	const char *name;		/* its raw_tp flavour, if any: name_raw */
	size_t prog, raw;		/* offsets in struct locks_bpf (raw 0: none) */
	unsigned int families;		/* 1 << FAMILY_*: loaded while one is on */
	unsigned int needs;		/* of those, the ones n/a without it */
	bool exact;			/* attached only while exact mode is on */
	bool task_storage;		/* keeps lock_tasks, cont_tasks */
	enum prog_option option;
	enum clone_hook clone;		/* kernel_clone's: the hook it is */
	enum prog_loss loss;
};

extern const struct lock_prog lock_progs[];
extern const unsigned int nr_lock_progs;

/* The entry of @prog in @skel; NULL if the manifest lacks it. */
const struct lock_prog *lock_prog_of(const struct locks_bpf *skel,
				     const struct bpf_program *prog);
/* The entry of a program named @name (either flavour); NULL if none. */
const struct lock_prog *lock_prog_named(const char *name);
/* Whether program @name is exact mode's (for tp_object_hook, _cost). */
bool lock_prog_exact(const char *name);

#endif
