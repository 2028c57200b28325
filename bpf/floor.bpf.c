// SPDX-License-Identifier: GPL-2.0
/*
 * Not loaded by mmtop: make bench's floor. Empty programs on the
 * tracepoints mmtop's families hook, one per mmtop program, so that the
 * bench can tell the cost of being hooked at all (the tracepoint's call
 * into BPF) from the cost of what mmtop's programs do. Named
 * floor_<family>_*, exact mode's programs floor_exact_*; as in mmtop the
 * mmap_lock family also takes contention_begin and _end (its waits), and
 * fork contention_begin (the siblings a fork stalls). probe.sh checks
 * that these are the tracepoints of mmtop's programs.
 *
 * And the timed floor (floor_timed_*): the least that times every lock
 * wait exactly, what the price of a wait is measured against. Its start
 * in the task's storage at contention_begin; at contention_end its
 * length, into one shared row as mmtop's rows take it (wait_add()). What
 * the default set costs beyond it is what it knows of a wait besides its
 * length: the call site, the lock's class, the holder, which row.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include "mmtop.h"
#include "once.bpf.h"
#include "rows.bpf.h"

char LICENSE[] SEC("license") = "GPL";

#define EMPTY(tp, name)							\
SEC("tp_btf/" #tp)							\
int floor_##name(void *ctx)						\
{									\
	return 0;							\
}

EMPTY(sched_migrate_task, faults_migrate)
EMPTY(sched_process_exit, faults_exit)
EMPTY(sched_switch, vmawaits_switch)	/* mmtop --vma-waits */
EMPTY(mmap_lock_start_locking, spinwaits_start)	/* mmtop --exact --spin-waits */
EMPTY(mmap_lock_acquire_returned, exact_acquired)
EMPTY(mmap_lock_released, exact_released)
EMPTY(contention_begin, contention_begin)
EMPTY(contention_end, contention_end)
EMPTY(contended_release, mmap_lock_release)	/* where the kernel has it */
EMPTY(sched_process_exit, fork_task_exit)
EMPTY(sched_process_fork, fork_sched_fork)
EMPTY(mm_page_alloc_zone_locked, pcp_alloc)
EMPTY(mm_page_pcpu_drain, pcp_drain)

struct timed_wait {
	__u64 lock;	/* 0: none */
	__u64 start_ns;
};

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct timed_wait);
} timed_waits SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct cont_stats);
} timed_row SEC(".maps");

SEC("tp_btf/contention_begin")
int floor_timed_begin(__u64 *ctx)
{
	struct timed_wait *w;

	w = bpf_task_storage_get(&timed_waits, bpf_get_current_task_btf(), 0,
				 BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (w) {
		w->lock = ctx[0];
		w->start_ns = bpf_ktime_get_ns();
	}
	return 0;
}

SEC("tp_btf/contention_end")
int floor_timed_end(__u64 *ctx)
{
	struct timed_wait *w;
	struct cont_stats *s;
	__u32 zero = 0;

	w = bpf_task_storage_get(&timed_waits, bpf_get_current_task_btf(), 0, 0);
	if (!w || w->lock != ctx[0])
		return 0;
	w->lock = 0;
	s = bpf_map_lookup_elem(&timed_row, &zero);
	if (s)
		wait_add(s, bpf_ktime_get_ns() - w->start_ns);
	return 0;
}
