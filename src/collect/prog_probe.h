/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Asking the kernel what it allows by doing it: a two-instruction program
 * (return 0) loaded and attached the way mmtop's programs would be. Shared
 * by `mmtop probe` and the choice of each tracepoint's program flavour.
 */
#ifndef MMTOP_PROG_PROBE_H
#define MMTOP_PROG_PROBE_H

#include <stdbool.h>
#include <bpf/bpf.h>

struct btf;

/* A loaded return-0 program (fd), or -errno. */
int prog_probe_load(enum bpf_prog_type type, enum bpf_attach_type attach, int btf_id);
/*
 * A BTF-typed program (tp_btf: BPF_TRACE_RAW_TP, fentry) against @btf_id,
 * attached then detached: 0 or -errno, and the failing @stage.
 */
int prog_probe_btf_attach(enum bpf_attach_type attach, int btf_id, const char **stage);
/* A raw_tp program on tracepoint @name, attached then detached. */
int prog_probe_raw_tp(const char *name, const char **stage);
/* The BTF id of tracepoint @name's btf_trace_ typedef in @btf, or -errno. */
int prog_probe_tp_btf_id(const struct btf *btf, const char *name);
/*
 * Whether the kernel takes a tp_btf program for tracepoint @name
 * ("sched_switch"): loaded, never attached, so that choosing costs no
 * patching of kernel text (an attach or detach of a tracepoint nobody
 * else uses flips its static key, under an IPI to every CPU).
 */
bool prog_probe_tp_btf(const struct btf *btf, const char *name);

#endif
