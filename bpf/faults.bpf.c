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
#include "tp_pair.h"

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct fault_slot);
} fault_slots SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, struct proc_fault_key);
	__type(value, struct proc_fault);
} proc_faults SEC(".maps");

/* Set by user space; see struct proc_fault_key. */
volatile __u32 proc_epoch;
/* Processes whose faults could not be recorded: proc_faults was full. */
__u64 proc_faults_full;

struct task_flt {
	__u64 task;
	__u64 min_flt;
	__u64 maj_flt;
};

/* Add a span's faults to the current process (the outgoing task's). */
static __always_inline void proc_account(__u64 min_flt, __u64 maj_flt)
{
	struct proc_fault_key key = {
		.tgid = bpf_get_current_pid_tgid() >> 32,
		.epoch = proc_epoch & 1,
	};
	struct proc_fault *pf = bpf_map_lookup_elem(&proc_faults, &key);
	struct proc_fault init = { min_flt, maj_flt };

	if (!pf) {
		if (!bpf_map_update_elem(&proc_faults, &key, &init, BPF_NOEXIST))
			return;
		/* Lost a race with another CPU, or the map is full. */
		pf = bpf_map_lookup_elem(&proc_faults, &key);
		if (!pf) {
			__sync_fetch_and_add(&proc_faults_full, 1);
			return;
		}
	}
	__sync_fetch_and_add(&pf->min_flt, min_flt);
	__sync_fetch_and_add(&pf->maj_flt, maj_flt);
}

/*
 * Close the outgoing task's span on this CPU and open one for the next.
 * Runs in the outgoing task's context (sched_switch fires before the
 * switch; the flush runs on the task it interrupts).
 */
static __always_inline int fault_account(const struct task_flt *prev,
					 const struct task_flt *next)
{
	__u32 zero = 0;
	struct fault_slot *slot = bpf_map_lookup_elem(&fault_slots, &zero);
	__u64 min_flt, maj_flt;

	if (!slot)
		return 0;
	/* A mismatch only happens once, right after attach: nothing to add. */
	if (slot->task == prev->task) {
		min_flt = prev->min_flt - slot->task_min_flt;
		maj_flt = prev->maj_flt - slot->task_maj_flt;
		slot->min_flt += min_flt;
		slot->maj_flt += maj_flt;
		/* Most spans fault nothing: no map access for them. */
		if (min_flt | maj_flt)
			proc_account(min_flt, maj_flt);
	}
	slot->task = next->task;
	slot->task_min_flt = next->min_flt;
	slot->task_maj_flt = next->maj_flt;
	return 0;
}

/* sched_switch(preempt, prev, next, prev_state) */
static __always_inline int fault_switch_fn(__u64 *ctx, bool typed)
{
	struct task_struct *prev = TP_ARG(ctx, 1, struct task_struct);
	struct task_struct *next = TP_ARG(ctx, 2, struct task_struct);
	struct task_flt p = { (__u64)prev, TP_FIELD(typed, prev, min_flt),
			      TP_FIELD(typed, prev, maj_flt) };
	struct task_flt n = { (__u64)next, TP_FIELD(typed, next, min_flt),
			      TP_FIELD(typed, next, maj_flt) };

	return fault_account(&p, &n);
}

TP_PAIR(sched_switch, fault_switch, fault_switch_fn)

SEC("raw_tp")
int fault_flush(void *ctx)
{
	struct task_struct *cur = (struct task_struct *)bpf_get_current_task();
	struct task_flt c = { (__u64)cur, BPF_CORE_READ(cur, min_flt),
			      BPF_CORE_READ(cur, maj_flt) };

	return fault_account(&c, &c);
}
