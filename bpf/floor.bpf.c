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
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

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
