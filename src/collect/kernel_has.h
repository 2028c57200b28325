/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What this kernel has, read from its BTF, never from its version: the
 * tracepoints mmtop uses (each one's btf_trace_<name> prototype: whether
 * it is there, its arguments, and in words what is missing where it is
 * not) and the BPF helpers and allocator it may lack. One table of
 * tracepoints: `mmtop probe` lists it, the families leave out the
 * programs of tracepoints the kernel lacks, and their n/a names what is
 * missing.
 */
#ifndef MMTOP_KERNEL_HAS_H
#define MMTOP_KERNEL_HAS_H

#include <stdbool.h>
#include <stddef.h>

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

/* Whether BPF helper @id ("BPF_FUNC_loop") is in @btf's enum bpf_func_id. */
bool kernel_has_helper(const struct btf *btf, const char *id);
/*
 * Whether BPF has its own allocator (6.1+): before, a hash map that
 * allocates as it goes makes the verifier warn in the kernel's log (a
 * WARN_ONCE backtrace) when a raw_tp program uses it.
 */
bool kernel_has_bpf_allocator(const struct btf *btf);

#endif
