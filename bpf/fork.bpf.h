/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fork family: each fork of a new mm, from kernel_clone() (fentry, where
 * the kernel allows it) or, in exact mode, dup_mmap()'s lock to
 * sched_process_fork; its parent's size, the siblings it stalled and, in
 * exact mode, dup_mmap()'s write hold. Per fork only.
 */
#ifndef MMTOP_BPF_FORK_H
#define MMTOP_BPF_FORK_H

/*
 * Forks in flight, from kernel_clone() (fork_clone; without it, in exact
 * mode, from dup_mmap()'s lock request) to sched_process_fork: their
 * start, the siblings that waited for the parent's mmap_lock meanwhile
 * and, in exact mode, the parent's mmap_lock write hold (dup_mmap's).
 */
struct fork_start {
	__u64 start_ns;
	__u64 mm;

	__u64 hold_ns;
	__u64 hold_start_ns;	/* the parent's mmap_lock held for write since */
	__u32 stalled;
	__u32 syscall;
	/* Filled at sched_process_fork, and sent. */
	__u32 child;
	__u32 mm_ident;
	__s64 rss[4];
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, __u32);		/* forking tid */
	__type(value, struct fork_start);
} fork_starts SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, __u64);		/* mm being forked */
	__type(value, __u32);		/* by this tid */
} forking_mms SEC(".maps");

/* 2,000 records: a second of a fork storm. */
#define FORK_EVENTS_SIZE (256 * 1024)

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, FORK_EVENTS_SIZE);
} fork_events SEC(".maps");

/* While no fork is in flight the mmap_lock programs skip the lookups. */
__s64 nr_forking;

/* The fork of the current task, if its mm is @mm. */
static __always_inline struct fork_start *my_fork(__u64 mm)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct fork_start *f = bpf_map_lookup_elem(&fork_starts, &tid);

	return f && f->mm == mm ? f : NULL;
}

static __always_inline void fork_lock_released(__u64 mm, __u64 now)
{
	struct fork_start *f = my_fork(mm);

	if (f && f->hold_start_ns) {
		f->hold_ns += now - f->hold_start_ns;
		f->hold_start_ns = 0;
	}
}

/* A sibling began to wait for the mmap_lock of an mm being forked. */
static __always_inline void fork_stall(__u64 mm, __u64 start_ns)
{
	__u32 *tid = bpf_map_lookup_elem(&forking_mms, &mm);
	struct fork_start *f;

	if (!tid || *tid == (__u32)bpf_get_current_pid_tgid())
		return;
	f = bpf_map_lookup_elem(&fork_starts, tid);
	if (f && start_ns >= f->start_ns)
		__sync_fetch_and_add(&f->stalled, 1);
}

static __always_inline bool is_fork(long id)
{
	return id == NR_CLONE || id == NR_FORK || id == NR_VFORK || id == NR_CLONE3;
}

/*
 * The current task's fork of @mm begins at @start, in syscall @id; its
 * dup_mmap() write hold, if it already holds the lock, since @held.
 */
static __always_inline void fork_begins(long id, __u64 mm, __u64 start, __u64 held)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct fork_start f = {
		.start_ns = start, .mm = mm, .syscall = id, .hold_start_ns = held,
	};

	if (bpf_map_update_elem(&fork_starts, &tid, &f, BPF_ANY)) {
		drop(BPF_DROP_FORK_TASK);
		return;
	}
	if (!bpf_map_update_elem(&forking_mms, &mm, &tid, BPF_NOEXIST))
		__sync_fetch_and_add(&nr_forking, 1);
}

/*
 * Exact mode: the current task took its own mm's mmap_lock for write at
 * @now, in syscall @id. In a fork in flight (timed from kernel_clone, or
 * from this request's wait), the first such is dup_mmap()'s: its hold
 * begins (copy_process() takes no other write lock of it before). Else,
 * in a fork syscall, the fork begins here (no fentry: see fork_clone).
 * A fork with a hold already is an earlier one that failed after dup_mmap.
 */
static __always_inline void fork_lock_acquired(__u64 mm, __u64 now, long id)
{
	struct fork_start *f = nr_forking > 0 ? my_fork(mm) : NULL;

	if (f && !f->hold_ns && !f->hold_start_ns) {
		f->hold_start_ns = now;
		return;
	}
	if (is_fork(id))
		fork_begins(id, mm, now, now);
}

/*
 * Exact mode: the current task's write request for its own @mm waits from
 * @now. In a fork syscall with no fork in flight (no fentry), it is
 * dup_mmap()'s, and the fork begins.
 */
static __always_inline void fork_wait_begins(__u64 mm, __u64 now)
{
	long id = current_syscall();

	if (is_fork(id) && !(nr_forking > 0 && my_fork(mm)))
		fork_begins(id, mm, now, 0);
}

/* The mm is copied (or shared): siblings no longer wait on this fork. */
static __always_inline void fork_copied(struct fork_start *f)
{
	if (!bpf_map_delete_elem(&forking_mms, &f->mm))
		__sync_fetch_and_add(&nr_forking, -1);
}

/*
 * The parent whose record last woke the reader, and when. User space walks
 * a parent once and reuses the walk for its forks within a second
 * (FORK_WALK_REUSE_NS): only the first record of a parent in a second needs the
 * reader at once. A forced wake-up is not free: its interrupt lands inside
 * this program (17-28 us a fork under bpf_stats, against 1.5-1.9 us).
 */
__u64 woke_mm;
__u64 woke_ns;

static __always_inline __u64 fork_wakeup(const struct fork_start *f, __u64 now)
{
	/* Too small for a PMD: 4K-backed, no walk (see FORK_WALK_MIN_PAGES). */
	if (f->rss[1] + f->rss[3] < FORK_WALK_MIN_PAGES ||
	    (READ_ONCE(woke_mm) == f->mm && now - READ_ONCE(woke_ns) < FORK_WALK_REUSE_NS))
		return ring_wakeup(&fork_events, FORK_EVENTS_SIZE);
	WRITE_ONCE(woke_mm, f->mm);
	WRITE_ONCE(woke_ns, now);
	return BPF_RB_FORCE_WAKEUP;
}

static __always_inline void fork_send(const struct fork_start *f, __u32 tid, __u64 now)
{
	struct fork_event *e = bpf_ringbuf_reserve(&fork_events, sizeof(*e), 0);

	if (!e) {
		drop(BPF_DROP_FORK_EVENTS);
		return;
	}
	e->ts_ns = now;
	/* 0: its start was not seen (the programs detached). */
	e->latency_ns = f->start_ns ? now - f->start_ns : 0;
	e->dup_hold_ns = f->hold_ns;
	e->rss_file = f->rss[0];
	e->rss_anon = f->rss[1];
	e->rss_shmem = f->rss[3];
	e->pid = bpf_get_current_pid_tgid() >> 32;
	e->tid = tid;
	e->child = f->child;
	e->stalled = f->stalled;
	e->syscall = f->syscall;
	e->mm = f->mm;
	e->mm_ident = f->mm_ident;
	e->spawn = 0;
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	/*
	 * A parent that may hold huge pages has its page tables walked by
	 * user space, which must come while they are there: woken at once,
	 * by force, for its first fork in a second (fork_wakeup()). The
	 * default wake-up is adaptive: it comes only when the reader has
	 * caught up, and the records of smaller parents before this one (a
	 * storm of them is the common case) wait unread for the end of the
	 * interval like slow events; so did the big parent's, which had
	 * exited when it was read (its backing then unknown).
	 */
	bpf_ringbuf_submit(e, fork_wakeup(f, now));
}

struct fork_info {
	__u64 parent_mm;
	__u64 child_mm;
	__u32 child;
	bool process;		/* a new process, not a thread */
};

/* Set when user space follows a process tree (-- COMMAND). */
const volatile bool spawns_on = false;

/*
 * A new process that no fork record will announce (its memory not copied:
 * vfork, posix_spawn): one record with its
 * parent, so that a followed tree grows by it even if it is gone within
 * the interval.
 */
static __always_inline void spawn_send(const struct fork_info *i)
{
	struct fork_event *e;

	if (!spawns_on || !i->process || !i->child_mm)
		return;
	e = bpf_ringbuf_reserve(&fork_events, sizeof(*e), 0);
	if (!e) {
		drop(BPF_DROP_FORK_EVENTS);
		return;
	}
	__builtin_memset(e, 0, sizeof(*e));
	e->pid = bpf_get_current_pid_tgid() >> 32;
	e->child = i->child;
	e->spawn = 1;
	bpf_ringbuf_submit(e, ring_wakeup(&fork_events, FORK_EVENTS_SIZE));
}

static __always_inline void fork_done(const struct fork_info *i, struct mm_struct *mm)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct fork_start *f = bpf_map_lookup_elem(&fork_starts, &tid);
	struct fork_start unseen = { .mm = i->parent_mm };

	if (f)
		fork_copied(f);
	/* A thread (CLONE_VM) or no mm copied: not a fork of memory. */
	if (!i->child_mm || i->child_mm == i->parent_mm) {
		if (f)
			bpf_map_delete_elem(&fork_starts, &tid);
		spawn_send(i);
		return;
	}
	/*
	 * Its start not seen (no fentry and exact mode off, or fork_starts
	 * full): counted, with its size and backing, not timed.
	 */
	if (!f)
		f = &unseen;
	f->child = i->child;
	f->mm_ident = mm_ident(mm);
	mm_rss(mm, f->rss);
	fork_send(f, tid, bpf_ktime_get_ns());
	bpf_map_delete_elem(&fork_starts, &tid);
}

/*
 * A fork that failed after dup_mmap began (out of memory, out of PIDs)
 * never reaches sched_process_fork: forget it when its task exits (a
 * task that forks again replaces it sooner).
 */
static __always_inline void fork_task_exits(void)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct fork_start *f = bpf_map_lookup_elem(&fork_starts, &tid);

	if (!f)
		return;
	fork_copied(f);
	bpf_map_delete_elem(&fork_starts, &tid);
}

/* sched_process_exit(task[, group_dead]) */
static __always_inline int fork_task_exit_fn(__u64 *ctx, bool typed)
{
	fork_task_exits();
	return 0;
}

/* sched_process_fork(parent, child) */
static __always_inline int fork_sched_fork_fn(__u64 *ctx, bool typed)
{
	struct task_struct *parent = TP_ARG(ctx, 0, struct task_struct);
	struct task_struct *child = TP_ARG(ctx, 1, struct task_struct);
	struct mm_struct *mm = TP_FIELD(typed, parent, mm);
	struct fork_info i = {
		.parent_mm = (__u64)mm,
		.child_mm = (__u64)TP_FIELD(typed, child, mm),
		.child = TP_FIELD(typed, child, pid),
		/* Read only where a spawn may be sent: every clone comes here. */
		.process = spawns_on &&
			   TP_FIELD(typed, child, pid) == TP_FIELD(typed, child, tgid),
	};

	fork_done(&i, mm);
	return 0;
}

TP_PAIR(sched_process_exit, fork_task_exit, fork_task_exit_fn)

/* Not in BTF: a macro of include/uapi/linux/sched.h. */
#define FORK_CLONE_VM 0x00000100ULL

/*
 * A fork begins: kernel_clone() is every fork's, vfork's and clone's way
 * in (5.10+), and no tracepoint fires before copy_process() copies the mm
 * (task_newtask comes at its end). One program per fork: fork_clone where
 * the kernel lets fentry attach (user space probes it), else
 * fork_clone_kprobe where it makes kprobes (arm64 before 6.4); elsewhere
 * forks are timed in exact mode only, from dup_mmap()'s lock.
 */
static __always_inline void clone_begins(__u64 flags)
{
	/* bpf_get_current_task_btf() came in 5.11: one read a fork. */
	__u64 mm = (__u64)BPF_CORE_READ((struct task_struct *)bpf_get_current_task(), mm);

	if (!(flags & FORK_CLONE_VM) && mm)
		fork_begins(current_syscall(), mm, bpf_ktime_get_ns(), 0);
}

SEC("fentry/kernel_clone")
int BPF_PROG(fork_clone, struct kernel_clone_args *args)
{
	clone_begins(args->flags);
	return 0;
}

SEC("kprobe/kernel_clone")
int BPF_KPROBE(fork_clone_kprobe, struct kernel_clone_args *args)
{
	clone_begins(BPF_CORE_READ(args, flags));
	return 0;
}
TP_PAIR(sched_process_fork, fork_sched_fork, fork_sched_fork_fn)

#endif
