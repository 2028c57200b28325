/* SPDX-License-Identifier: GPL-2.0 */
/*
 * VMA write-lock waits on 6.15+ (--vma-waits, exact mode): D-state sleeps
 * of tasks holding their own mmap_lock for write.
 */
#ifndef MMTOP_BPF_VMA_SLEEP_H
#define MMTOP_BPF_VMA_SLEEP_H

/*
 * VMA write-lock waits on kernels whose VMA lock is a reference count
 * (6.15+): __vma_start_write() sleeps in D state, with no lock tracepoint.
 * A task that holds its own mmap_lock for write and goes to sleep
 * uninterruptibly is timed until it runs again; the stack taken as it goes
 * (sched_switch runs on the outgoing task) says where it slept, so user
 * space can tell __vma_start_write from, say, I/O under the lock.
 */
#define TASK_UNINTERRUPTIBLE	0x2

struct write_sleep {
	__u64 start_ns;
	__u64 stack;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, __u32);
	__type(value, struct write_sleep);
} write_sleeps SEC(".maps");

__s64 nr_write_sleeps;

struct switch_info {
	__u64 prev_mm;
	__u32 prev_tid;
	__u32 prev_state;
	__u32 next_tid;
	__u32 next_tgid;
};

static __always_inline void sleep_begins(void *ctx, const struct switch_info *i)
{
	/* sched_switch runs on the outgoing task: current is prev. */
	struct task_locks *l = bpf_task_storage_get(&lock_tasks, bpf_get_current_task_btf(), 0, 0);
	struct task_lock *t = l ? find_slot(l, i->prev_mm, false) : NULL;
	struct write_sleep w;

	if (!t || !t->acquired_ns || !t->write || t->foreign || !slot_current(t))
		return;
	w.start_ns = bpf_ktime_get_ns();
	w.stack = stack_of(ctx, return_addrs_hash(ctx, CONT_SITE_RETS, HOOK_SWITCH),
			   current_syscall());
	if (!bpf_map_update_elem(&write_sleeps, &i->prev_tid, &w, BPF_NOEXIST)) {
		__sync_fetch_and_add(&nr_write_sleeps, 1);
		return;
	}
	/* Its last sleep ended unseen (exact mode ended): this one replaces it. */
	if (bpf_map_update_elem(&write_sleeps, &i->prev_tid, &w, BPF_EXIST))
		drop(BPF_DROP_CONT_TASK);
}

static __always_inline void sleep_ends(const struct switch_info *i)
{
	struct write_sleep *w = bpf_map_lookup_elem(&write_sleeps, &i->next_tid);
	static const struct cont_stats none;
	struct cont_key key = {};
	struct cont_stats *s;
	__u64 wait;

	if (!w)
		return;
	wait = bpf_ktime_get_ns() - w->start_ns;
	key.stack = w->stack;
	key.tgid = i->next_tgid;
	key.cls = CONT_STACK;
	key.flags = CONT_F_SLEEP;
	s = get_or_create(&cont_stats, &key, &none, BPF_DROP_CONT_STATS);
	if (s)
		wait_add(s, wait);
	bpf_map_delete_elem(&write_sleeps, &i->next_tid);
	__sync_fetch_and_add(&nr_write_sleeps, -1);
}

static __always_inline void on_switch(void *ctx, const struct switch_info *i)
{
	if (i->prev_state & TASK_UNINTERRUPTIBLE)
		sleep_begins(ctx, i);
	if (nr_write_sleeps > 0)
		sleep_ends(i);
}

/* sched_switch(preempt, prev, next, prev_state) */
static __always_inline int vma_sleep_fn(__u64 *ctx, bool typed)
{
	struct task_struct *prev = TP_ARG(ctx, 1, struct task_struct);
	struct task_struct *next = TP_ARG(ctx, 2, struct task_struct);
	unsigned int prev_state = ctx[3];
	struct switch_info i;

	/*
	 * The common case: no D-state sleep begins or ends. (A global count
	 * of write holders would spare the lookup for D-state sleeps, but
	 * every write acquisition would then bounce its cache line.)
	 */
	if (!(prev_state & TASK_UNINTERRUPTIBLE) && nr_write_sleeps <= 0)
		return 0;
	/* Around a turn of exact mode only sleeps already timed end. */
	if (!exact_on())
		prev_state = 0;
	i.prev_mm = (__u64)TP_FIELD(typed, prev, mm);
	i.prev_tid = TP_FIELD(typed, prev, pid);
	i.prev_state = prev_state;
	i.next_tid = TP_FIELD(typed, next, pid);
	i.next_tgid = TP_FIELD(typed, next, tgid);
	on_switch(ctx, &i);
	return 0;
}

TP_PAIR(sched_switch, contention_vma_sleep, vma_sleep_fn)

#endif
