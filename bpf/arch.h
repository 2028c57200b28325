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
 * Page tables, for fork_thp_walk: 4 levels of 512 entries (4K pages; user
 * space checks the kernel has them), an entry either pointing to the next
 * level's table or, at the PUD and PMD levels, mapping a block (a huge
 * page) itself. PT_ADDR is the physical address an entry holds;
 * USER_PGD_ENTRIES, how much of the top level maps user space.
 */
#if defined(__TARGET_ARCH_x86)
#define SYSCALL_NR(regs)	((regs)->orig_ax)
#define PT_PRESENT		(1ULL << 0)
#define PT_PSE			(1ULL << 7)	/* a huge page */
#define PT_TABLE(e)		(((e) & (PT_PRESENT | PT_PSE)) == PT_PRESENT)
#define PT_BLOCK(e)		(((e) & (PT_PRESENT | PT_PSE)) == (PT_PRESENT | PT_PSE))
#define PT_ADDR(e)		((e) & 0x000ffffffffff000ULL)
#define USER_PGD_ENTRIES	256		/* the lower half */
#elif defined(__TARGET_ARCH_arm64)
#define SYSCALL_NR(regs)	((regs)->syscallno)
/* Descriptor bits 1:0: 3 a table, 1 a block, 0 or 2 invalid. */
#define PT_TABLE(e)		(((e) & 3) == 3)
#define PT_BLOCK(e)		(((e) & 3) == 1)
#define PT_ADDR(e)		((e) & 0x0000fffffffff000ULL)
#define USER_PGD_ENTRIES	512		/* TTBR0's table: all user */
#else
#error "mmtop's BPF programs know x86 and arm64 (bpf/arch.h)"
#endif

#endif
