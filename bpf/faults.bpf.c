// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU page-fault counts without a program on the fault path: see
 * struct fault_slot and struct fault_mark. fault_switch runs at every
 * context switch; fault_flush is run by user space on each CPU
 * (BPF_PROG_TEST_RUN with BPF_F_TEST_RUN_ON_CPU) at the end of every
 * interval, so a task that has been running for the whole interval is
 * accounted up to that moment.
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

/*
 * How far each task's faults have been accounted. A span cannot rely on the
 * switch that began it: some switches never reach the tracepoint (seen on
 * this kind of machine for every switch away from one process's threads),
 * and the task switched in after such a switch would lose its whole span.
 */
struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct fault_mark);
} fault_marks SEC(".maps");

/*
 * The lock families' sched_switch program (the VMA-sleep check), put here
 * by user space when both run: called at the end of fault_switch, so that
 * a context switch enters BPF once, not twice (each entry costs about as
 * much as the work of either program). Empty: nothing is called.
 */
struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} switch_next SEC(".maps");

/* Set by user space; see struct proc_fault_key. */
volatile __u32 proc_epoch;
/* Set by user space before attach: tasks started later fault from 0. */
volatile __u64 attach_ns;
/* Processes whose faults could not be recorded: proc_faults was full. */
__u64 proc_faults_full;
/* Accountings put off: no task storage (the faults come at the next one). */
__u64 marks_busy;

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
 * Where a task seen for the first time starts (@now: its counts now): at
 * the switch that brought it here if that was seen, at 0 if it started
 * after attach, else now (its faults before that are not known).
 */
static __always_inline void mark_first(struct fault_mark *m, const struct fault_slot *slot,
				       struct task_struct *cur, const struct fault_mark *now)
{
	m->seen = 1;
	if (slot->task == (__u64)cur) {
		m->min_flt = slot->task_min_flt;
		m->maj_flt = slot->task_maj_flt;
	} else if (cur->start_time < attach_ns) {
		m->min_flt = now->min_flt;
		m->maj_flt = now->maj_flt;
	}
}

/*
 * Account the current task's faults since its mark to this CPU, and note
 * which task runs here next (@next; the current one for a flush). Runs in
 * the outgoing task's context (sched_switch fires before the switch; the
 * flush runs on the task it interrupts).
 */
static __always_inline int fault_account(__u64 next, __u64 next_min_flt, __u64 next_maj_flt)
{
	struct task_struct *cur = bpf_get_current_task_btf();
	__u32 zero = 0;
	struct fault_slot *slot = bpf_map_lookup_elem(&fault_slots, &zero);
	struct fault_mark now = { cur->min_flt, cur->maj_flt, 1 }, *m;
	__u64 min_flt, maj_flt;

	if (!slot)
		return 0;
	m = bpf_task_storage_get(&fault_marks, cur, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (m) {
		if (!m->seen)
			mark_first(m, slot, cur, &now);
		min_flt = now.min_flt - m->min_flt;
		maj_flt = now.maj_flt - m->maj_flt;
		m->min_flt += min_flt;
		m->maj_flt += maj_flt;
		slot->min_flt += min_flt;
		slot->maj_flt += maj_flt;
		/* Most spans fault nothing: no map access for them. */
		if (min_flt | maj_flt)
			proc_account(min_flt, maj_flt);
	} else {
		__sync_fetch_and_add(&marks_busy, 1);
	}
	slot->task = next;
	slot->task_min_flt = next_min_flt;
	slot->task_maj_flt = next_maj_flt;
	return 0;
}

/* sched_switch(preempt, prev, next, prev_state): prev is current. */
static __always_inline int fault_switch_fn(__u64 *ctx, bool typed)
{
	struct task_struct *next = TP_ARG(ctx, 2, struct task_struct);

	fault_account((__u64)next, TP_FIELD(typed, next, min_flt),
		      TP_FIELD(typed, next, maj_flt));
	bpf_tail_call(ctx, &switch_next, 0);
	return 0;
}

TP_PAIR(sched_switch, fault_switch, fault_switch_fn)

SEC("raw_tp")
int fault_flush(void *ctx)
{
	struct task_struct *cur = bpf_get_current_task_btf();

	return fault_account((__u64)cur, cur->min_flt, cur->maj_flt);
}
