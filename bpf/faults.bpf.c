// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU page-fault counts with nothing on the fault path and nothing per
 * context switch: the kernel counts each task's faults (min_flt, maj_flt),
 * and a task's faults between two of its migrations all happen on one CPU.
 * So the growth of a task's counters since it was last accounted is added
 * to its CPU when it leaves that CPU (sched_migrate_task), when it exits
 * (sched_process_exit), and for every task once per interval (fault_walk, a
 * task iterator user space runs in its own context). Migrations and exits
 * are rare next to switches; the walk costs mmtop's CPU, not the
 * workload's.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "mmtop.h"
#include "tp_pair.h"
#include "core_fixes.bpf.h"
#include "once.bpf.h"

char LICENSE[] SEC("license") = "GPL";

/*
 * Faults accounted to each CPU, indexed by CPU: others' are added to.
 * Mapped into user space, which reads it in place: no system call per CPU.
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 1);		/* set by user space: possible CPUs */
	__type(key, __u32);
	__type(value, struct proc_fault);
} fault_cpus SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, struct proc_fault_key);
	__type(value, struct proc_fault);
} proc_faults SEC(".maps");

/*
 * How far each task's faults have been accounted, by tid. A hash, not task
 * storage: the migrating task is not the current one, and a raw_tp program
 * has no typed pointer to it. Exits delete; tasks seen grow it by one each.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 131072);
	__type(key, __u32);
	__type(value, struct fault_mark);
} fault_marks SEC(".maps");

/*
 * The tasks whose mark is being moved, by tid: a migration, an exit and
 * the walk may meet on one task, and each growth is taken once. The entry
 * made with BPF_NOEXIST is the lock (5.10's BPF has no compare-and-swap);
 * a task found busy is left as it is, its growth kept for the next.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, __u32);
	__type(value, __u8);
} fault_busy SEC(".maps");

/* Set by user space; see struct proc_fault_key. */
volatile __u32 proc_epoch;
/* Set by user space before attach: tasks started later fault from 0. */
volatile __u64 attach_ns;
/* Processes whose faults could not be recorded: proc_faults was full. */
__u64 proc_faults_full;
/* Tasks with no mark (fault_marks full): their faults are not counted. */
__u64 marks_full;

/* Add faults to process @tgid. */
static __always_inline void proc_account(__u32 tgid, __u64 min_flt, __u64 maj_flt)
{
	struct proc_fault_key key = { .tgid = tgid, .epoch = proc_epoch & 1 };
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
 * The mark of task @tid: created where it starts for a task seen for the
 * first time (0 if it started after attach, else now: its earlier faults
 * are not known); NULL if the map is full.
 */
static __always_inline struct fault_mark *mark_of(__u32 tid, __u64 start_time,
						  __u64 min_flt, __u64 maj_flt)
{
	struct fault_mark *m = bpf_map_lookup_elem(&fault_marks, &tid);
	struct fault_mark init = {};

	if (m)
		return m;
	if (start_time < attach_ns) {
		init.min_flt = min_flt;
		init.maj_flt = maj_flt;
	}
	bpf_map_update_elem(&fault_marks, &tid, &init, BPF_NOEXIST);
	m = bpf_map_lookup_elem(&fault_marks, &tid);
	if (!m)
		__sync_fetch_and_add(&marks_full, 1);
	return m;
}

struct task_faults {
	__u64 start_time;
	__u64 min_flt;
	__u64 maj_flt;
	__u32 tid;
	__u32 tgid;
	__u32 cpu;		/* where the faults since the mark were taken */
};

/* Account @t's faults since its mark to its CPU and its process. */
static __always_inline void account(const struct task_faults *t)
{
	struct fault_mark *m = mark_of(t->tid, t->start_time, t->min_flt, t->maj_flt);
	struct proc_fault *c;
	__u64 min_flt, maj_flt;
	__u32 cpu = t->cpu;
	__u8 busy = 1;

	if (!m)
		return;
	/*
	 * Nothing to add since the mark, as for most tasks at a walk (they
	 * slept): no lock taken. Read unlocked, a mark being moved reads as
	 * before or after the move, and either way no growth is lost. The
	 * lock's insert and delete were half of a walk's cost (mmtop-cost(7)).
	 */
	if (t->min_flt <= READ_ONCE(m->min_flt) && t->maj_flt <= READ_ONCE(m->maj_flt))
		return;
	if (bpf_map_update_elem(&fault_busy, &t->tid, &busy, BPF_NOEXIST))
		return;
	/* Counts only grow: a mark past them was moved by a later reading. */
	min_flt = t->min_flt > m->min_flt ? t->min_flt - m->min_flt : 0;
	maj_flt = t->maj_flt > m->maj_flt ? t->maj_flt - m->maj_flt : 0;
	m->min_flt += min_flt;
	m->maj_flt += maj_flt;
	bpf_map_delete_elem(&fault_busy, &t->tid);
	if (!(min_flt | maj_flt))
		return;
	c = bpf_map_lookup_elem(&fault_cpus, &cpu);
	if (c) {
		__sync_fetch_and_add(&c->min_flt, min_flt);
		__sync_fetch_and_add(&c->maj_flt, maj_flt);
	}
	proc_account(t->tgid, min_flt, maj_flt);
}

#define TASK_FAULTS(typed, p, on_cpu) ((struct task_faults){		\
	.start_time = TP_FIELD(typed, p, start_time),			\
	.min_flt = TP_FIELD(typed, p, min_flt),				\
	.maj_flt = TP_FIELD(typed, p, maj_flt),				\
	.tid = TP_FIELD(typed, p, pid),					\
	.tgid = TP_FIELD(typed, p, tgid),				\
	.cpu = (on_cpu),						\
})

/*
 * sched_migrate_task(p, dest_cpu): @p is not running (a running task is
 * stopped first), and its CPU is still the one it leaves.
 */
static __always_inline int fault_migrate_fn(__u64 *ctx, bool typed)
{
	struct task_struct *p = TP_ARG(ctx, 0, struct task_struct);
	struct task_faults t = TASK_FAULTS(typed, p, task_cpu_of(p));

	account(&t);
	return 0;
}

/* sched_process_exit(task[, group_dead]): current, after its last fault. */
static __always_inline int fault_exit_fn(__u64 *ctx, bool typed)
{
	struct task_struct *p = TP_ARG(ctx, 0, struct task_struct);
	struct task_faults t = TASK_FAULTS(typed, p, bpf_get_smp_processor_id());

	account(&t);
	bpf_map_delete_elem(&fault_marks, &t.tid);
	return 0;
}

TP_PAIR(sched_migrate_task, fault_migrate, fault_migrate_fn)
TP_PAIR(sched_process_exit, fault_exit, fault_exit_fn)

/*
 * Every task, once per interval, run by user space: a task's faults since
 * its mark were taken on the CPU it is on (or last ran on). Kernel threads
 * take no user faults and get no mark.
 */
static __always_inline void walk_task(struct task_struct *p)
{
	struct task_faults t;

	if (!p || !p->mm)
		return;
	t = TASK_FAULTS(true, p, task_cpu_of(p));
	account(&t);
}

/* The walk as a task iterator (5.8+): a pid lookup and a seq_file step a task. */
SEC("iter/task")
int fault_walk(struct bpf_iter__task *ctx)
{
	walk_task(ctx->task);
	return 0;
}

/*
 * The walk as one run over the task list (the open-coded task iterator,
 * 6.7+): a task costs a pointer chase, so the kernel's threads, some 7 a
 * CPU, no longer make the walk grow with the machine (mmtop-cost(7)).
 * Weak: where the kernel lacks them, this program is not loaded.
 */
extern int bpf_iter_task_new(struct bpf_iter_task___mmtop *it, struct task_struct *task,
			     unsigned int flags) __weak __ksym;
extern struct task_struct *bpf_iter_task_next(struct bpf_iter_task___mmtop *it) __weak __ksym;
extern void bpf_iter_task_destroy(struct bpf_iter_task___mmtop *it) __weak __ksym;

SEC("raw_tp")
int fault_walk_list(void *ctx)
{
	struct bpf_iter_task___mmtop it;
	struct task_struct *p;

	bpf_iter_task_new(&it, NULL, TASK_ITER_ALL_THREADS);
	while ((p = bpf_iter_task_next(&it)))
		walk_task(p);
	bpf_iter_task_destroy(&it);
	return 0;
}
