/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The mmap_lock family's exact mode: every acquisition, its wait and hold,
 * per task in task-local storage, from the programs on mmap_lock's own
 * tracepoints, attached only while exact mode is on.
 */
#ifndef MMTOP_BPF_MMAP_LOCK_H
#define MMTOP_BPF_MMAP_LOCK_H

/*
 * A task's pending or held mmap_locks, two at most at once (its own mm's
 * and the child's in dup_mmap, or another process's for a /proc reader or
 * remote GUP), each with its mm: matched by mm, not by the task's current
 * mm, which exec and exit change while a lock is held. In task-local
 * storage: no hashing, no bucket lock on the hot path.
 */
struct task_locks {
	struct task_lock slot[2];
	__u64 mm[2];			/* 0: the slot is free */
};

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct task_locks);
} lock_tasks SEC(".maps");

/*
 * Whether slot @i of @l may be claimed: unused, or left by an earlier turn
 * of exact mode (its release was not seen: held across its end, or the mm
 * is gone).
 */
static __always_inline bool slot_claimable(const struct task_locks *l, int i)
{
	return !l->mm[i] || l->slot[i].seq != exact_seq;
}

/* The slot of @mm in @l, claimed when @create; NULL if none (or both busy). */
static __always_inline struct task_lock *find_slot(struct task_locks *l, __u64 mm,
						   bool create)
{
	if (l->mm[0] == mm)
		return &l->slot[0];
	if (l->mm[1] == mm)
		return &l->slot[1];
	if (!create)
		return NULL;
	if (slot_claimable(l, 0)) {
		l->mm[0] = mm;
		l->slot[0].seq = 0;	/* stale: its claimer starts it afresh */
		return &l->slot[0];
	}
	if (slot_claimable(l, 1)) {
		l->mm[1] = mm;
		l->slot[1].seq = 0;
		return &l->slot[1];
	}
	return NULL;
}

/* The current task's slot for @mm; created when @create. */
static __always_inline struct task_lock *slot_of(struct task_locks **locks,
						 __u64 mm, bool create)
{
	struct task_locks *l;

	l = bpf_task_storage_get(&lock_tasks, bpf_get_current_task_btf(), 0,
				 create ? BPF_LOCAL_STORAGE_GET_F_CREATE : 0);
	*locks = l;
	return l ? find_slot(l, mm, create) : NULL;
}

static __always_inline void free_slot(struct task_locks *l, struct task_lock *t)
{
	__builtin_memset(t, 0, sizeof(*t));
	if (t == &l->slot[0])
		l->mm[0] = 0;
	else
		l->mm[1] = 0;
}

/* Per CPU: the fault's per-VMA lock misses are shown per CPU and node. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct fault_locks);
} fault_locks SEC(".maps");

/* An acquisition by a fault, @t, counted on this CPU. */
static __always_inline void fault_lock_count(const struct task_lock *t)
{
	__u32 zero = 0;
	struct fault_locks *f;

	if (!t->fault)
		return;
	f = bpf_map_lookup_elem(&fault_locks, &zero);
	if (!f)
		return;
	/* Constant indices: the verifier would want a bound on a variable one. */
	if (t->fault == 1 + FAULT_LOCK_FAULT)
		f->acquired[FAULT_LOCK_FAULT]++;
	else
		f->acquired[FAULT_LOCK_ANON]++;
}

/*
 * The hold of @t ends now: the acquisition, its wait and its hold go to
 * the row it was acquired from, with one lookup (an acquisition is
 * counted when it is released).
 */
static __always_inline void end_hold(__u64 now, const struct task_lock *t)
{
	__u64 hold = now - t->acquired_ns;
	struct lock_stats *s = stats_of(bpf_get_current_pid_tgid() >> 32, t);

	if (s) {
		row_add(&s->acquired, 1);
		row_add(&s->wait_ns, t->wait_ns);
		row_max(&s->wait_max_ns, t->wait_ns);
		/* The histogram is of waits, as the default set's. */
		if (t->wait_ns)
			hist_add(s->wait_hist, t->wait_ns);
		row_add(&s->holds, 1);
		row_add(&s->hold_ns, hold);
		row_max(&s->hold_max_ns, hold);
		hist_add(s->hold_hist, hold);
	}
	fault_lock_count(t);
	if (hold >= slow_ns)
		slow_event(now, t, hold);
}

/*
 * Exact mode: the current task's request for @mm's mmap_lock begins to
 * wait at @now, behind @writer (0: no writer held it): its acquisition
 * counts the wait from here, and blames that writer if its release is
 * being traced.
 */
static __always_inline void wait_begins(__u64 mm, bool write, __u64 now, __u32 writer)
{
	struct task_locks *l;
	struct task_lock *t;

	t = slot_of(&l, mm, true);
	if (!t) {
		drop(BPF_DROP_TASK_FULL);
		return;
	}
	__builtin_memset(t, 0, sizeof(*t));
	t->write = write;
	t->start_writer = writer;
	t->start_ns = now;
	t->seq = exact_seq;
}

/*
 * Whether this request may wait: if not, it takes the fast path, waits
 * nothing and needs no clock (some tens of ns with the TSC, several times
 * that with a paravirtual clock). A holder arriving between this look and
 * the request itself makes a wait counted as 0: a window of a few
 * instructions, against the holds it would wait for.
 */
static __always_inline bool may_wait(__u64 count, bool write)
{
	return write ? count != 0 : (count & ~RWSEM_READERS_MASK) != 0;
}

static __always_inline void on_acquired(void *ctx, __u64 mm, __u64 own_mm,
					bool write, bool success)
{
	__u64 now = bpf_ktime_get_ns();
	struct task_locks *l;
	struct task_lock *t;
	struct lock_stats *s;
	bool own_write = success && write && mm == own_mm;
	/* Read once: in the site's key, and a write in a fork is dup_mmap's. */
	long id = stats_on || own_write ? current_syscall() : -1;
	__u64 stack, site = 0;

	if (fork_on && own_write)
		fork_lock_acquired(mm, now, id);
	if (!stats_on)
		return;
	/* First: the verifier then walks it with one state, not one per path. */
	stack = stack_of(ctx, site_hash(ctx, &site), id);
	/* Created if new: a request that did not wait has none yet. */
	t = slot_of(&l, mm, true);
	if (!t || !l) {
		drop(BPF_DROP_TASK_FULL);
		return;
	}
	if (!slot_current(t)) {
		__builtin_memset(t, 0, sizeof(*t));
		t->seq = exact_seq;
	}
	/* mmap_write_downgrade(): the write hold ends, a read hold begins. */
	if (t->acquired_ns) {
		end_hold(now, t);
		note_release(mm, now, t);
		t->start_ns = 0;
	}
	t->stack = stack;
	t->cgroup = bpf_get_current_cgroup_id();
	t->fault = fault_of(site);
	t->wait_ns = t->start_ns ? now - t->start_ns : 0;
	t->write = write;
	t->holder_tgid = 0;
	/* dup_mmap() locks the child's mm too; /proc readers lock others'. */
	t->foreign = mm != own_mm;
	if (!success) {
		s = stats_of(bpf_get_current_pid_tgid() >> 32, t);
		if (s)
			row_add(&s->failed, 1);
		free_slot(l, t);
		return;
	}
	if (t->wait_ns >= BLAME_MIN_WAIT_NS) {
		note_holder(mm, t);
		blame(t, bpf_get_current_pid_tgid() >> 32, false);
	}
	if (t->wait_ns >= slow_ns)
		slow_event(now, t, 0);
	t->acquired_ns = now;
}

/*
 * A release lets through only the waiters queued behind it, and a queued
 * waiter sets the rwsem's waiters bit before its contention_begin: a
 * release that finds the bit clear has nobody to be blamed by, and its
 * record is not written (one map lookup and an atomic less on the common
 * path). The bit is read last, so that a waiter queueing while the release
 * is traced is seen (it would find the record older than its wait). With
 * spin_waits a wait begins at the request, before it queues: every release
 * is noted.
 */
#define RWSEM_FLAG_WAITERS 2ULL

static __always_inline void on_released(struct mm_struct *mmp, bool typed)
{
	__u64 now = bpf_ktime_get_ns(), mm = (__u64)mmp;
	struct task_locks *l;
	struct task_lock *t;

	if (fork_on && nr_forking > 0)
		fork_lock_released(mm, now);
	if (!stats_on)
		return;
	t = slot_of(&l, mm, false);
	/* Taken before exact mode began, or released by another task. */
	if (!t || !l || !t->acquired_ns)
		return;
	/* Taken in an earlier turn of exact mode: its hold is not known. */
	if (!slot_current(t)) {
		free_slot(l, t);
		return;
	}
	end_hold(now, t);
	if (spin_waits || (TP_FIELD(typed, mmp, mmap_lock.count.counter) & RWSEM_FLAG_WAITERS))
		note_release(mm, now, t);
	free_slot(l, t);
}

/*
 * Both flavours see the arguments as an array of u64; memcg_path_arg is
 * constant at load time, so the verifier only walks one layout. The loads
 * are asm with constant offsets: plain C lets clang merge the two branches
 * into one load from a computed context offset, which the verifier refuses.
 */
#define ctx_u64(ctx, off) ({						\
	__u64 __v;							\
	asm volatile("%0 = *(u64 *)(%1 + " #off ")" : "=r"(__v) : "r"(ctx)); \
	__v;								\
})
#define arg_write(args) \
	((bool)(memcg_path_arg ? ctx_u64(args, 16) : ctx_u64(args, 8)))
#define arg_success(args) \
	((bool)(memcg_path_arg ? ctx_u64(args, 24) : ctx_u64(args, 16)))

/*
 * The exact-mode programs below are attached only while exact mode is on;
 * the test of exact_seq covers the moments around an attach or a detach.
 */

/*
 * mmap_lock_start_locking(mm, [memcg_path,] write), with spin_waits only:
 * every request, so that a wait counts from the request, a writer's
 * optimistic spin included.
 */
static __always_inline int mmap_lock_start_fn(__u64 *ctx, bool typed)
{
	struct mm_struct *mm = TP_ARG(ctx, 0, struct mm_struct);
	__u64 count, owner = 0;
	bool write = arg_write(ctx);

	if (!exact_on() || !stats_on)
		return 0;
	count = TP_FIELD(typed, mm, mmap_lock.count.counter);
	/* A request that cannot wait has nothing to pass on, as a trylock. */
	if (!may_wait(count, write))
		return 0;
	if (count & RWSEM_WRITER_LOCKED)
		owner = TP_FIELD(typed, mm, mmap_lock.owner.counter);
	wait_begins(ctx[0], write, bpf_ktime_get_ns(), writer_of(owner));
	return 0;
}

/* mmap_lock_acquire_returned(mm, [memcg_path,] write, success) */
static __always_inline int mmap_lock_acquired_fn(__u64 *ctx, bool typed)
{
	if (exact_on())
		on_acquired(ctx, ctx[0], TP_CURRENT_MM(typed), arg_write(ctx),
			    arg_success(ctx));
	return 0;
}

/* mmap_lock_released(mm, [memcg_path,] write) */
static __always_inline int mmap_lock_released_fn(__u64 *ctx, bool typed)
{
	if (exact_on())
		on_released(TP_ARG(ctx, 0, struct mm_struct), typed);
	return 0;
}

TP_PAIR(mmap_lock_start_locking, mmap_lock_start, mmap_lock_start_fn)
TP_PAIR(mmap_lock_acquire_returned, mmap_lock_acquired, mmap_lock_acquired_fn)
TP_PAIR(mmap_lock_released, mmap_lock_released, mmap_lock_released_fn)

#endif
