/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What this kernel has, read from its BTF, never from its version: the
 * tracepoints mmtop uses (each one's btf_trace_<name> prototype: whether
 * it is there, its arguments, and in words what is missing where it is
 * not), the layouts that differ between kernels, and the BPF helpers and
 * allocator it may lack. One table of tracepoints: `mmtop probe` lists
 * it, the families leave out the programs of tracepoints the kernel
 * lacks, and their n/a names what is missing. One struct of decisions
 * (struct kernel_has), made once as the collector opens: every family
 * reads it, and `mmtop probe` prints it.
 */
#ifndef MMTOP_KERNEL_HAS_H
#define MMTOP_KERNEL_HAS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct btf;

struct kernel_tp {
	const char *group;
	const char *name;
	const char *since;	/* the first kernel that has it, in words */
};

extern const struct kernel_tp kernel_tps[];
extern const size_t nr_kernel_tps;

/*
 * The number of arguments tracepoint @name has in @btf (its private data
 * not counted), or -1 where the kernel has no such tracepoint; its
 * prototype's BTF id in *@proto_id when @proto_id is not NULL.
 */
int kernel_tp_nargs(const struct btf *btf, const char *name, int *proto_id);
/* "no tracepoint lock:contention_begin (Linux 5.19+)", into @buf. */
void kernel_tp_missing(const char *name, char *buf, size_t len);


/* The kernel's VMA lock. */
enum vma_lock {
	VMA_LOCK_UNKNOWN,	/* no BTF */
	VMA_LOCK_NONE,		/* before 6.4, or without CONFIG_PER_VMA_LOCK */
	VMA_LOCK_RWSEM,		/* vm_lock, 6.4-6.14: its write waits are contention */
	VMA_LOCK_REFCNT,	/* vm_refcnt, 6.15+: writers sleep, no lock tracepoint */
};

#define KERNEL_TPS_MAX 32

/*
 * A fork's latency starts at kernel_clone()'s entry: an fentry program
 * there, else a kprobe (arm64 before 6.4 has no fentry trampolines), else
 * none (forks are timed in exact mode only).
 */
enum clone_hook { CLONE_NONE, CLONE_FENTRY, CLONE_KPROBE };

/* How forks are timed without a hook, and how to turn that on. */
#define FORKS_EXACT_ONLY \
	"forks timed in exact mode only (--exact, or x in the viewer), from dup_mmap's lock"

struct kernel_has {
	const struct btf *btf;		/* while the collector opens; NULL: none */
	int tp_nargs[KERNEL_TPS_MAX];	/* kernel_tps[i]'s arguments; -1: lacking */
	enum vma_lock vma_lock;
	bool mmap_lock_memcg_path;	/* mmap_lock events carry memcg_path (before 6.14) */
	bool pcp_refill_arg;		/* mm_page_alloc_zone_locked says if a refill (5.13+) */
	int nodes_shift;		/* page->flags: MAX_NUMNODES' bits; -1 unknown */
	int zones_shift;		/* and the zone's */
	bool bpf_loop;			/* the helper (5.17+): the fork backing's walk */
	/*
	 * BPF's own allocator (6.1+): before, a hash map that allocates as it
	 * goes makes the verifier warn in the kernel's log (a WARN_ONCE
	 * backtrace) when a raw_tp program uses it.
	 */
	bool bpf_allocator;
	/*
	 * The open-coded task iterator (6.7+): the fault walk is one program
	 * run over the task list, not a task iterator's step a task.
	 */
	bool task_list_walk;
	enum clone_hook clone_hook;	/* how a program runs at kernel_clone's entry */
	bool kprobes;			/* a kprobe there: where fentry will not attach */
	char clone_how[224];		/* where a fork's latency starts, or why not there */
};

/*
 * Decide what the kernel of @btf (NULL: none) has, into @k; whether
 * kernel_clone takes fentry only if @forks (the fork family is on).
 */
void kernel_has_read(struct kernel_has *k, const struct btf *btf, bool forks);
/* The number of arguments of tracepoint @name, one of kernel_tps; -1 lacking. */
int kernel_has_tp(const struct kernel_has *k, const char *name);
/*
 * The decisions a recording keeps (kernel_features.h), as its header's
 * value, into @buf; @forks as given to kernel_has_read().
 */
void kernel_has_features(const struct kernel_has *k, bool forks, char *buf, size_t len);
/* The decisions beyond the tracepoints, a line each, for `mmtop probe`. */
void kernel_has_print(FILE *f, const struct kernel_has *k);

#endif
