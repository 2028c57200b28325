// SPDX-License-Identifier: GPL-2.0
/*
 * contention_begin serves all three lock families (an mmap_lock wait
 * begins there, a fork's sibling stalls are waits), contention_end the
 * default set's mmap_lock waits (mmap_lock does without them: its waits
 * are then exact mode's, from the request), contended_release their
 * holders; the mmap_lock programs serve fork cost too (dup_mmap's hold).
 */
#include <string.h>

#include "lock_progs.h"
#include "lock_source_impl.h"

/* A program of one flavour, and one of a TP_PAIR (name and name_raw). */
#define ONE(id) .name = #id, .prog = offsetof(struct locks_bpf, progs.id)
#define PAIR(id) ONE(id), .raw = offsetof(struct locks_bpf, progs.id##_raw)

const struct lock_prog lock_progs[] = {
	{ PAIR(contended_release), .families = MMAP, .loss = LOSS_RELEASE },
	{ PAIR(contention_begin), .families = MMAP | CONT | FORK, .needs = CONT,
	  .task_storage = true },
	{ PAIR(contention_end), .families = MMAP | CONT, .needs = CONT, .task_storage = true },
	{ PAIR(contention_vma_sleep), .families = CONT, .needs = CONT, .exact = true,
	  .task_storage = true, .option = OPT_VMA_WAITS },
	{ ONE(lock_addrs_collect), .families = CONT, .needs = CONT },
	{ PAIR(mmap_lock_start), .families = MMAP | FORK, .exact = true, .task_storage = true,
	  .option = OPT_SPIN_WAITS, .loss = LOSS_EXACT },
	{ PAIR(mmap_lock_acquired), .families = MMAP | FORK, .exact = true,
	  .task_storage = true, .loss = LOSS_EXACT },
	{ PAIR(mmap_lock_released), .families = MMAP | FORK, .exact = true,
	  .task_storage = true, .loss = LOSS_EXACT },
	{ PAIR(fork_task_exit), .families = FORK, .needs = FORK },
	{ PAIR(fork_sched_fork), .families = FORK, .needs = FORK },
	{ ONE(fork_clone), .families = FORK, .clone = CLONE_FENTRY, .loss = LOSS_CLONE },
	{ ONE(fork_clone_kprobe), .families = FORK, .clone = CLONE_KPROBE, .loss = LOSS_CLONE },
	{ ONE(fork_thp_walk), .families = FORK, .loss = LOSS_WALK },
	{ ONE(fork_direct_map_find), .families = FORK, .loss = LOSS_WALK },
	{ ONE(fork_pt_levels_find), .families = FORK, .loss = LOSS_WALK },
	{ ONE(fork_kernel_peek), .families = FORK, .loss = LOSS_WALK },
};

const unsigned int nr_lock_progs = sizeof(lock_progs) / sizeof(lock_progs[0]);

static const struct bpf_program *skel_prog(const struct locks_bpf *skel, size_t off)
{
	return *(struct bpf_program *const *)((const char *)skel + off);
}

const struct lock_prog *lock_prog_of(const struct locks_bpf *skel,
				     const struct bpf_program *prog)
{
	unsigned int i;

	for (i = 0; i < nr_lock_progs; i++)
		if (skel_prog(skel, lock_progs[i].prog) == prog ||
		    (lock_progs[i].raw && skel_prog(skel, lock_progs[i].raw) == prog))
			return &lock_progs[i];
	return NULL;
}

const struct lock_prog *lock_prog_named(const char *name)
{
	unsigned int i;
	size_t n;

	for (i = 0; i < nr_lock_progs; i++) {
		n = strlen(lock_progs[i].name);
		if (!strncmp(name, lock_progs[i].name, n) &&
		    (!name[n] || (lock_progs[i].raw && !strcmp(name + n, "_raw"))))
			return &lock_progs[i];
	}
	return NULL;
}

bool lock_prog_exact(const char *name)
{
	const struct lock_prog *p = lock_prog_named(name);

	return p && p->exact;
}
