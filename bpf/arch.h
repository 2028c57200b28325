/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What differs between architectures on the BPF side: the syscall numbers
 * of the calls that fork, and where pt_regs keeps the syscall number (a
 * plain load: bpf_task_pt_regs() returns a typed pointer). The Makefile
 * sets __TARGET_ARCH_<arch> from uname -m.
 */
#ifndef MMTOP_BPF_ARCH_H
#define MMTOP_BPF_ARCH_H

#if defined(__TARGET_ARCH_x86)
#define NR_CLONE	56
#define NR_FORK		57
#define NR_VFORK	58
#define NR_CLONE3	435
#define SYSCALL_NR(regs)	((regs)->orig_ax)
#elif defined(__TARGET_ARCH_arm64)
/* The generic syscall table: no fork or vfork, libc uses clone. */
#define NR_CLONE	220
#define NR_FORK		-1
#define NR_VFORK	-1
#define NR_CLONE3	435
#define SYSCALL_NR(regs)	((regs)->syscallno)
#else
#error "mmtop's BPF programs know x86 and arm64 (bpf/arch.h)"
#endif

#endif
