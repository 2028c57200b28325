/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel layouts that differ between the kernels mmtop runs on, decided at
 * load time from the running kernel's BTF (CO-RE), never from its version:
 * each variant is a ___flavour struct that libbpf matches by its name
 * without the suffix, and the one the kernel has is chosen with
 * bpf_core_field_exists() / bpf_core_type_exists(). The branch not taken
 * is dead code the verifier never sees, so a relocation that cannot
 * resolve on this kernel costs nothing. Declared here, not taken from
 * vmlinux.h, so that the programs build against any kernel's header (the
 * build machine's, or another architecture's).
 *
 * The other layout choices are made in user space from the same BTF: the
 * mmap_lock tracepoints' memcg_path argument (before 6.14; the
 * btf_trace_* prototype's argument count) and the VMA lock (none before
 * 6.4, an rwsem vm_lock until 6.14, vm_refcnt from 6.15).
 */
#ifndef MMTOP_BPF_CORE_FIXES_H
#define MMTOP_BPF_CORE_FIXES_H

#include <bpf/bpf_core_read.h>

/* 6.15+: every mm has an id of its own (mm_id, for folio mapcounts). */
struct mm_struct___mm_id {
	unsigned int mm_id;
} __attribute__((preserve_access_index));

/* The mm's owner task (CONFIG_MEMCG): set afresh for every new mm. */
struct mm_struct___owner {
	struct task_struct *owner;
	pgd_t *pgd;
} __attribute__((preserve_access_index));

/*
 * An identity of @mm for as long as it lives, so that a later look at the
 * same address can tell a reused mm_struct from it: mm_id where the kernel
 * has one (6.15+); before, the page-table root and the owner task,
 * both new for every mm (a reused mm_struct gets a fresh pgd page and its
 * own owner; either alone could come back: pgd pages are reused LIFO, and
 * owners are task_structs).
 */
static __always_inline __u32 mm_ident(void *mm)
{
	struct mm_struct___owner *o = mm;
	__u64 h;

	if (bpf_core_field_exists(((struct mm_struct___mm_id *)mm)->mm_id))
		return BPF_CORE_READ((struct mm_struct___mm_id *)mm, mm_id);
	h = (__u64)BPF_CORE_READ(o, pgd) >> 12;
	if (bpf_core_field_exists(o->owner))
		h ^= (__u64)BPF_CORE_READ(o, owner) >> 6;
	return (__u32)(h ^ (h >> 32));
}

/*
 * The mm counters (MM_FILEPAGES, MM_ANONPAGES, MM_SWAPENTS, MM_SHMEMPAGES):
 * percpu_counters from 6.2 (count: the value less per-CPU drift), before
 * that an array of atomic_long_t in struct mm_rss_stat.
 */
struct percpu_counter___rss {
	__s64 count;
} __attribute__((preserve_access_index));

struct mm_struct___rss_new {
	struct percpu_counter___rss rss_stat[4];
} __attribute__((preserve_access_index));

struct mm_rss_stat___old {
	atomic_long_t count[4];
} __attribute__((preserve_access_index));

struct mm_struct___rss_old {
	struct mm_rss_stat___old rss_stat;
} __attribute__((preserve_access_index));

/*
 * Constant indices, one read each: an index computed at run time would
 * step by the size of the local ___flavour struct, not the kernel's.
 */
#define MM_RSS_OLD(o, rss, i) ((rss)[i] = BPF_CORE_READ(o, rss_stat.count[i].counter))
#define MM_RSS_NEW(n, rss, i) ((rss)[i] = BPF_CORE_READ(n, rss_stat[i].count))

static __always_inline void mm_rss(void *mm, __s64 *rss)
{
	struct mm_struct___rss_new *n = mm;
	struct mm_struct___rss_old *o = mm;

	if (bpf_core_type_exists(struct mm_rss_stat___old)) {
		MM_RSS_OLD(o, rss, 0);
		MM_RSS_OLD(o, rss, 1);
		MM_RSS_OLD(o, rss, 2);
		MM_RSS_OLD(o, rss, 3);
		return;
	}
	MM_RSS_NEW(n, rss, 0);
	MM_RSS_NEW(n, rss, 1);
	MM_RSS_NEW(n, rss, 2);
	MM_RSS_NEW(n, rss, 3);
}

/*
 * The CPU a task runs on or last ran on: in thread_info (5.16+, with
 * THREAD_INFO_IN_TASK, as x86 and arm64 have), before in the task.
 */
struct thread_info___cpu {
	__u32 cpu;
} __attribute__((preserve_access_index));

struct task_struct___cpu_new {
	struct thread_info___cpu thread_info;
} __attribute__((preserve_access_index));

struct task_struct___cpu_old {
	unsigned int cpu;
} __attribute__((preserve_access_index));

static __always_inline __u32 task_cpu_of(void *task)
{
	struct task_struct___cpu_new *n = task;

	if (bpf_core_field_exists(n->thread_info.cpu))
		return BPF_CORE_READ(n, thread_info.cpu);
	return BPF_CORE_READ((struct task_struct___cpu_old *)task, cpu);
}

/*
 * The open-coded task iterator (6.7+; kernel/bpf/task_iter.c): its state,
 * opaque (the kernel's struct bpf_iter_task), and its flag for every
 * thread of every process; for a vmlinux.h made from an older kernel
 * (the arm64 build's, 6.1). The kfuncs' arguments are matched by kind,
 * not by name, so the flavoured name binds to the kernel's.
 */
struct bpf_iter_task___mmtop {
	__u64 __opaque[3];
} __attribute__((aligned(8)));

#define TASK_ITER_ALL_THREADS 1

#endif
