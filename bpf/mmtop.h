/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Structures shared by the BPF programs and user space. Only fixed-width
 * types: both sides compile this header.
 */
#ifndef MMTOP_BPF_MMTOP_H
#define MMTOP_BPF_MMTOP_H

/*
 * Per-CPU page-fault accounting from the kernel's own per-task counters
 * (task_struct.min_flt/maj_flt, which mm_account_fault() maintains anyway).
 * A task cannot migrate while it runs, so every fault it takes between being
 * switched in and being switched out happened on this CPU: at each switch
 * the growth of the outgoing task's counters is added to the CPU's totals.
 * Nothing runs per fault.
 */
struct fault_slot {
	__u64 task;		/* task running here since the last switch/flush */
	__u64 task_min_flt;	/* its min_flt at that point */
	__u64 task_maj_flt;	/* its maj_flt at that point */
	__u64 min_flt;		/* minor faults accounted to this CPU */
	__u64 maj_flt;		/* major faults accounted to this CPU */
};

#endif
