/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The default set's holders: which lock a wait is for (an mmap_lock, and
 * whose), what its rwsem showed as the wait began (the owner: a writer
 * exactly, a reader as a hint), and, where the kernel has
 * lock:contended_release, each release that waiters were queued behind,
 * by the holder itself: the exact holder, reader or writer.
 */
#ifndef MMTOP_BPF_HOLDERS_H
#define MMTOP_BPF_HOLDERS_H

/* The contended_release program is loaded: user space found it in BTF. */
const volatile bool released_on = false;

/*
 * The mm whose mmap_lock @lock is, if it is one: the current task's own,
 * or another process's (a /proc reader's, remote GUP's): an mm whose
 * owner task (memcg's mm->owner) points back to it, or one whose release
 * blame has recorded; 0 if neither (another lock). Probe reads: @lock may
 * be any rwsem or mutex, and what precedes it anything; a wait or a
 * contended release is rare.
 */
static __always_inline __u64 mmap_lock_mm(__u64 lock, __u64 own_mm)
{
	__u64 mm = lock - bpf_core_field_offset(struct mm_struct, mmap_lock);
	struct task_struct *owner;

	if (own_mm && mm == own_mm)
		return mm;
	if (bpf_core_field_exists(struct mm_struct, owner)) {
		owner = BPF_CORE_READ((struct mm_struct *)mm, owner);
		if (owner && (__u64)BPF_CORE_READ(owner, mm) == mm)
			return mm;
	}
	return bpf_map_lookup_elem(&mm_releases, &mm) ? mm : 0;
}

/* What the rwsem of an mmap_lock showed (probe reads). */
struct rwsem_seen {
	__u64 count;
	__u64 owner;
	__u64 writer_site;	/* the default set's: see writer_syscall() */
};

static __always_inline void rwsem_look(__u64 lock, struct rwsem_seen *r)
{
	struct rw_semaphore *sem = (struct rw_semaphore *)lock;
	__u64 count = bpf_core_field_offset(struct rw_semaphore, count);

	/* Side by side (every layout since 5.3): one read, not two. */
	if (bpf_core_field_offset(struct rw_semaphore, owner) == count + 8) {
		bpf_probe_read_kernel(r, 2 * sizeof(__u64), (void *)(lock + count));
		return;
	}
	r->count = BPF_CORE_READ(sem, count.counter);
	r->owner = BPF_CORE_READ(sem, owner.counter);
}

/* A wait on @mm's lock began behind writer @tid. */
static __always_inline void writer_seen(__u64 mm, __u32 tid)
{
	struct mm_releases *h = released_on ? releases_of(mm) : NULL;

	if (h)
		WRITE_ONCE(h->writer_seen, tid);
}

/*
 * Whether the release by @tid that @r shows after it was a write's. The
 * tracepoint fires after the rwsem is let go: up_write() has cleared the
 * owner (0, unless a new holder came in meanwhile); up_read() leaves it
 * naming the last reader in, flagged; downgrade_write() makes it the
 * task's, flagged as a reader's, as the last reader in's own release
 * leaves it. Those two are told apart by the writer a wait saw hold the
 * lock: a downgrade that waiters were queued behind is of a writer that
 * some wait began behind, unless it took the lock past waiters already
 * queued and none came after (then it reads as a reader's).
 */
static __always_inline bool released_write(const struct rwsem_seen *r,
					   struct mm_releases *h, __u32 tid)
{
	struct task_struct *task = (struct task_struct *)(r->owner & ~RWSEM_OWNER_FLAGS);

	if (!task || READ_ONCE(h->writer_seen) == tid)
		return true;
	return !(r->owner & RWSEM_READER_OWNED) && (__u32)BPF_CORE_READ(task, pid) == tid;
}

/* The current task's name, kept for user space as a waiter's is. */
static __always_inline void name_holder(void)
{
	__u32 tgid = bpf_get_current_pid_tgid() >> 32;
	char comm[MMTOP_COMM_LEN];

	if (named(tgid))
		return;
	bpf_get_current_comm(comm, sizeof(comm));
	if (!bpf_map_update_elem(&lock_comms, &tgid, comm, BPF_NOEXIST))
		name_kept(tgid);
}

/*
 * contended_release(lock): a holder lets go of a lock that others wait
 * for (an rwsem: a writer, a writer's downgrade, and every reader leaving
 * while a writer waits), in its own context. For an mmap_lock it is the
 * mm's release record, as exact mode's released tracepoint writes it (and
 * exact mode, while on, writes its own, with the acquisition's site): the
 * waits it let through name it as they end (exact_holder()). Its site is
 * where it let go.
 */
static __always_inline void on_contended_release(void *ctx, __u64 lock, __u64 own_mm)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct task_lock t = {};
	struct mm_releases *h;
	struct rwsem_seen r = {};
	__u64 mm;

	if (!stats_on || exact_on())
		return;
	mm = mmap_lock_mm(lock, own_mm);
	h = mm ? releases_of(mm) : NULL;
	if (!h)
		return;
	rwsem_look(lock, &r);
	t.write = released_write(&r, h, tid);
	if (t.write && READ_ONCE(h->writer_seen) == tid)
		WRITE_ONCE(h->writer_seen, 0);
	t.stack = stack_of(ctx, return_addrs_hash(ctx, CONT_SITE_RETS, HOOK_RELEASE),
			   current_syscall());
	t.cgroup = bpf_get_current_cgroup_id();
	note_release(mm, bpf_ktime_get_ns(), &t);
	name_holder();
}

/*
 * The holder of wait @t on @mm's lock, begun at t->start_ns behind
 * t->start_writer, from the release that let it through (note_holder(),
 * exact mode's rule), in place of the owner read as it began; kept if no
 * release was recorded (a record being written, or none since).
 */
static __always_inline void exact_holder(__u64 mm, struct task_lock *t)
{
	struct task_lock seen = *t;

	if (!released_on)
		return;
	seen.holder_tgid = 0;
	note_holder(mm, &seen);
	if (!seen.holder_tgid)
		return;
	t->holder_tgid = seen.holder_tgid;
	t->holder_stack = seen.holder_stack;
	t->holder_write = seen.holder_write;
	t->holder_cgroup = seen.holder_cgroup;
	t->holder_hint = HOLDER_EXACT;
}

/* contended_release(lock) */
static __always_inline int contended_release_fn(__u64 *ctx, bool typed)
{
	on_contended_release(ctx, ctx[0], TP_CURRENT_MM(typed));
	return 0;
}

TP_PAIR(contended_release, contended_release, contended_release_fn)

#endif
