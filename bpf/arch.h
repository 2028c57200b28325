/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What differs between architectures on the BPF side: the syscall numbers
 * of the calls that fork, by name from the target's own <asm/unistd.h>
 * (the Makefile adds its include folder), and where pt_regs keeps the
 * syscall number (a plain load: bpf_task_pt_regs() returns a typed
 * pointer). The Makefile sets __TARGET_ARCH_<arch>.
 */
#ifndef MMTOP_BPF_ARCH_H
#define MMTOP_BPF_ARCH_H

#include <asm/unistd.h>

/* The generic syscall table (arm64) has no fork or vfork: libc clones. */
#ifdef __NR_fork
#define NR_FORK		__NR_fork
#define NR_VFORK	__NR_vfork
#else
#define NR_FORK		-1
#define NR_VFORK	-1
#endif
#define NR_CLONE	__NR_clone
#define NR_CLONE3	__NR_clone3

/*
 * Page tables, for fork_thp_walk: 4 or 5 levels of 512 entries (4K pages;
 * user space checks the kernel has them, and finds how many levels it
 * walks, fork_pt_levels_find), an entry either pointing to the next
 * level's table or, at the PUD and PMD levels, mapping a block (a huge
 * page) itself; a page at the last level. PT_ADDR is the physical address
 * an entry holds; USER_TOP_ENTRIES(levels), how much of the top level
 * maps user space.
 */
#if defined(__TARGET_ARCH_x86)
#define SYSCALL_NR(regs)	((regs)->orig_ax)
/*
 * The syscall another task is in, from its pt_regs at @regs; -1 if none.
 * A fault keeps its error code where a syscall keeps its number, but only
 * a syscall leaves -ENOSYS in ax (the entry's, until it returns).
 */
static __always_inline long syscall_at(__u64 regs)
{
	/* ax, cx, dx, si, di, orig_ax: one read, in the ptrace ABI's order. */
	long w[6] = {};

	bpf_probe_read_kernel(w, sizeof(w),
			      (void *)(regs + bpf_core_field_offset(struct pt_regs, ax)));
	return w[0] == -38 ? w[5] : -1;	/* -ENOSYS */
}
#define PT_PRESENT		(1ULL << 0)
#define PT_PSE			(1ULL << 7)	/* a huge page */
#define PT_TABLE(e)		(((e) & (PT_PRESENT | PT_PSE)) == PT_PRESENT)
#define PT_BLOCK(e)		(((e) & (PT_PRESENT | PT_PSE)) == (PT_PRESENT | PT_PSE))
#define PT_PAGE(e)		((e) & PT_PRESENT)
#define PT_ADDR(e)		((e) & 0x000ffffffffff000ULL)
/* The lower half, in 4 levels (la57 off) as in 5. */
#define USER_TOP_ENTRIES(levels)	256
#elif defined(__TARGET_ARCH_arm64)
#define SYSCALL_NR(regs)	((regs)->syscallno)
/* The syscall another task is in, from its pt_regs at @regs; -1 (NO_SYSCALL) if none. */
static __always_inline long syscall_at(__u64 regs)
{
	int nr = -1;

	bpf_probe_read_kernel(&nr, sizeof(nr),
			      (void *)(regs + bpf_core_field_offset(struct pt_regs, syscallno)));
	return nr;
}
/* Descriptor bits 1:0: 3 a table (a page at the last level), 1 a block. */
#define PT_TABLE(e)		(((e) & 3) == 3)
#define PT_BLOCK(e)		(((e) & 3) == 1)
#define PT_PAGE(e)		(((e) & 3) == 3)
/*
 * Output address bits 49:12, the same with LPA2 (52-bit addresses, whose
 * bits 51:50 sit in 9:8, the shareability bits without it: left out).
 */
#define PT_ADDR(e)		((e) & 0x0003fffffffff000ULL)
/*
 * TTBR0's table is all user: 512 entries in 4 levels (48 bits); in 5
 * (LPA2's 52 bits) its top level has 16.
 */
#define USER_TOP_ENTRIES(levels)	((levels) == 5 ? 16 : 512)
#else
#error "mmtop's BPF programs know x86 and arm64 (bpf/arch.h)"
#endif

#endif
