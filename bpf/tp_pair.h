/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One handler, two programs. Each tracepoint program comes as tp_btf
 * (typed arguments: fields are plain loads, the cheapest) and as raw_tp
 * (where tp_btf cannot attach: fields are CO-RE reads); user space loads
 * one of each pair, chosen per tracepoint (src/collect/tp_object.c).
 *
 * TP_PAIR(tp, name, fn) defines programs name (tp_btf/tp) and name_raw
 * (raw_tp/tp), both calling the always-inline fn(ctx, typed) with the
 * tracepoint's arguments as an array of u64 (both flavours' contexts start
 * with it) and typed constant, so each program keeps only its own reads.
 */
#ifndef MMTOP_BPF_TP_PAIR_H
#define MMTOP_BPF_TP_PAIR_H

#define TP_PAIR(tp, name, fn)						\
SEC("tp_btf/" #tp)							\
int name(__u64 *ctx)							\
{									\
	return fn(ctx, true);						\
}									\
SEC("raw_tp/" #tp)							\
int name##_raw(struct bpf_raw_tracepoint_args *ctx)			\
{									\
	return fn(ctx->args, false);					\
}

/* Argument @i of the tracepoint, as a pointer to @type. */
#define TP_ARG(ctx, i, type) ((type *)(ctx)[i])
/* Field @f of what @p points to: a plain load when typed. */
#define TP_FIELD(typed, p, f) ((typed) ? (p)->f : BPF_CORE_READ(p, f))

/* The current task's mm, as a number. */
#define TP_CURRENT_MM(typed)						\
	((typed) ? (__u64)bpf_get_current_task_btf()->mm :		\
	 (__u64)BPF_CORE_READ((struct task_struct *)bpf_get_current_task(), mm))

#endif
