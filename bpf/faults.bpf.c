// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU page-fault counts without a program on the fault path: see
 * struct fault_slot. fault_switch runs at every context switch;
 * fault_flush is run by user space on each CPU (BPF_PROG_TEST_RUN with
 * BPF_F_TEST_RUN_ON_CPU) at the end of every interval, so a task that has
 * been running for the whole interval is accounted up to that moment.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "mmtop.h"

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct fault_slot);
} fault_slots SEC(".maps");

struct task_flt {
	__u64 task;
	__u64 min_flt;
	__u64 maj_flt;
};

/* Close the outgoing task's span on this CPU and open one for the next. */
static __always_inline int fault_account(const struct task_flt *prev,
					 const struct task_flt *next)
{
	__u32 zero = 0;
	struct fault_slot *slot = bpf_map_lookup_elem(&fault_slots, &zero);

	if (!slot)
		return 0;
	/* A mismatch only happens once, right after attach: nothing to add. */
	if (slot->task == prev->task) {
		slot->min_flt += prev->min_flt - slot->task_min_flt;
		slot->maj_flt += prev->maj_flt - slot->task_maj_flt;
	}
	slot->task = next->task;
	slot->task_min_flt = next->min_flt;
	slot->task_maj_flt = next->maj_flt;
	return 0;
}

/* tp_btf gives typed pointers: plain loads, no probe_read helper calls. */
SEC("tp_btf/sched_switch")
int BPF_PROG(fault_switch, bool preempt, struct task_struct *prev,
	     struct task_struct *next)
{
	struct task_flt p = { (__u64)prev, prev->min_flt, prev->maj_flt };
	struct task_flt n = { (__u64)next, next->min_flt, next->maj_flt };

	return fault_account(&p, &n);
}

/* Fallback where tp_btf cannot attach. */
SEC("raw_tp/sched_switch")
int BPF_PROG(fault_switch_raw, bool preempt, struct task_struct *prev,
	     struct task_struct *next)
{
	struct task_flt p = { (__u64)prev, BPF_CORE_READ(prev, min_flt),
			      BPF_CORE_READ(prev, maj_flt) };
	struct task_flt n = { (__u64)next, BPF_CORE_READ(next, min_flt),
			      BPF_CORE_READ(next, maj_flt) };

	return fault_account(&p, &n);
}

SEC("raw_tp")
int fault_flush(void *ctx)
{
	struct task_struct *cur = (struct task_struct *)bpf_get_current_task();
	struct task_flt c = { (__u64)cur, BPF_CORE_READ(cur, min_flt),
			      BPF_CORE_READ(cur, maj_flt) };

	return fault_account(&c, &c);
}
