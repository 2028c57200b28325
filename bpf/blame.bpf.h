/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Blame: each mm's last releases, written in exact mode by every release
 * and in the default set by each contended one (lock:contended_release,
 * where the kernel has it: bpf/holders.bpf.h), and the (waiter, holder)
 * rows both modes fill (the default set's holder is otherwise the rwsem's
 * owner: bpf/contention.bpf.h).
 */
#ifndef MMTOP_BPF_BLAME_H
#define MMTOP_BPF_BLAME_H

/*
 * Blame: a wait is attributed to the holder whose release let it through,
 * the last to release the mm's mmap_lock after the wait began: for a
 * write, any holder (readers and writers both keep a writer out; when the
 * last of them leaves the lock is its); for a read, the last writer (a
 * reader waits only for writers, holding or queued before it; readers
 * granted with it leave meanwhile and blocked it not). Each mm keeps its
 * last release of either kind that waiters were queued behind (see
 * on_released), written by the releasing task alone: a
 * release that finds another CPU's in progress leaves the record to it.
 * Kept for mms seen released, 4096 at once; LRU, so that a dead or quiet
 * mm's entry gives way (a
 * record older than the wait, as any of a freed mm's is, names nobody,
 * unless it is the release of the writer that held the lock when the wait
 * began: the released tracepoint runs before the lock is let go, so a wait
 * that begins while a writer's release is being traced finds the record
 * already written, and waits behind that writer all the same).
 */
struct release {
	__u64 ns;		/* when; written last */
	__u64 stack;
	__u64 id;		/* tgid << 32 | tid */
	__u64 write;
	__u64 cgroup;
};

struct mm_releases {
	struct release any;
	struct release writer;
	__u64 busy;		/* a release is being written */
	/*
	 * The default set's: the writer a wait last saw hold the lock (its
	 * tid; 0 once it let go), which tells its downgrade from a reader's
	 * release (contended_release.bpf.h).
	 */
	__u32 writer_seen;
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 4096);
	__type(key, __u64);
	__type(value, struct mm_releases);
} mm_releases SEC(".maps");

/* Waits by (waiter, holder) pair; sized as lock_stats. */
ROWS_MAP(blame_stats, struct blame_key, struct cont_stats);

/*
 * Shorter waits are the lock's fast path and the tracepoints' own time:
 * nobody was in the way, and they are not looked up.
 */
#define BLAME_MIN_WAIT_NS 1000

static __always_inline void write_release(struct release *r, __u64 now, __u64 id,
					  const struct task_lock *t)
{
	r->stack = t->stack;
	r->id = id;
	r->write = t->write;
	r->cgroup = t->cgroup;
	WRITE_ONCE(r->ns, now);
}

/* @mm's release records, made if it has none; NULL (a drop) if full. */
static __always_inline struct mm_releases *releases_of(__u64 mm)
{
	static const struct mm_releases none;
	struct mm_releases *h = bpf_map_lookup_elem(&mm_releases, &mm);

	if (h)
		return h;
	bpf_map_update_elem(&mm_releases, &mm, &none, BPF_NOEXIST);
	h = bpf_map_lookup_elem(&mm_releases, &mm);
	if (!h)
		drop(BPF_DROP_HOLDERS);
	return h;
}

/* @t's hold of @mm ends now. */
static __always_inline void note_release(__u64 mm, __u64 now, const struct task_lock *t)
{
	struct mm_releases *h = releases_of(mm);
	__u64 id = bpf_get_current_pid_tgid();

	if (!h)
		return;
	if (h->busy || __sync_val_compare_and_swap(&h->busy, 0, 1))
		return;
	write_release(&h->any, now, id, t);
	if (t->write)
		write_release(&h->writer, now, id, t);
	WRITE_ONCE(h->busy, 0);
}

/*
 * @t waited from start_ns: whom it waited behind, from @mm's last release
 * of the kind that could hold it back. A record changed while it was read
 * (another release in progress, or one finished in between) names nobody.
 */
static __always_inline void note_holder(__u64 mm, struct task_lock *t)
{
	struct mm_releases *h = bpf_map_lookup_elem(&mm_releases, &mm);
	struct release *r, seen;

	if (!h)
		return;
	r = t->write ? &h->any : &h->writer;
	seen.ns = READ_ONCE(r->ns);
	if (READ_ONCE(h->busy))
		return;
	seen.stack = r->stack;
	seen.id = r->id;
	seen.write = r->write;
	seen.cgroup = r->cgroup;
	if (READ_ONCE(h->busy) || READ_ONCE(r->ns) != seen.ns ||
	    (__u32)seen.id == (__u32)bpf_get_current_pid_tgid())
		return;
	/*
	 * A record older than the wait is its holder's only if that writer
	 * still held the lock as the wait began, or if no writer did: then
	 * the holder let go between the waiter's queueing (which set the
	 * waiters bit, so its release was recorded) and the wait's trace.
	 * Refusing those left up to a quarter of a paced churn's fault waits
	 * unblamed, one in four runs.
	 */
	if (seen.ns < t->start_ns && t->start_writer &&
	    (__u32)seen.id != t->start_writer)
		return;
	t->holder_tgid = seen.id >> 32;
	t->holder_stack = seen.stack;
	t->holder_write = seen.write;
	t->holder_cgroup = seen.cgroup;
}

/*
 * A wait of process @tgid ends: add it to its (waiter, holder) row, the
 * row of no holder seen if it has none, so that the rows account for
 * every wait. @waits: the default set's, its mmap_lock row's too.
 */
static __always_inline void blame(const struct task_lock *t, __u32 tgid, bool waits)
{
	struct blame_key key = {
		.stack = t->stack, .tgid = tgid,
		.holder_tgid = t->holder_tgid, .holder_stack = t->holder_stack,
		.write = t->write, .holder_write = t->holder_write,
		.holder_hint = t->holder_tgid ? t->holder_hint : HOLDER_NONE_SEEN,
		.foreign = t->foreign, .waits = waits,
		.cgroup = t->cgroup,
		.holder_cgroup = t->holder_tgid ? t->holder_cgroup : 0,
	};
	static const struct cont_stats none;
	struct cont_stats *s = bpf_map_lookup_elem(&blame_stats, &key);

	if (!s) {
		keep_name(tgid);
		s = get_or_create(&blame_stats, &key, &none, BPF_DROP_BLAME);
	}
	if (s)
		wait_add(s, t->wait_ns);
}

#endif
