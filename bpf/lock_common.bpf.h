/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every lock family of bpf/locks.bpf.c shares: the tunables, exact
 * mode's sequence, the rows (mmap_lock, comms, stacks), slow events and
 * drops, and the rwsem's layout.
 */
#ifndef MMTOP_BPF_LOCK_COMMON_H
#define MMTOP_BPF_LOCK_COMMON_H

const volatile bool memcg_path_arg = false;
const volatile __u64 slow_ns = 1000000;
/* The families on. */
const volatile bool stats_on = true;	/* mmap_lock waits, holds, sites */
const volatile bool fork_on = true;	/* fork cost */
const volatile bool cont_on = true;	/* lock contention by class */
/* mmap_lock waits from the request (start_locking), spins included. */
const volatile bool spin_waits = false;
/*
 * make bench's breakdown of a wait's cost (MMTOP_BENCH_SKIP): the steps of
 * the default set's wait left out, enum bench_skip's bits. 0 in every
 * other run, where the verifier drops the tests as dead code.
 */
const volatile __u32 bench_skip = 0;

static __always_inline bool skipped(__u32 step)
{
	return bench_skip & step;
}

/*
 * One mmap_lock wait or hold of a task: exact mode keeps it per task from
 * request to release (mmap_lock.bpf.h), the default set builds one as a
 * wait ends (contention.bpf.h); rows, blame and slow events take it.
 */
struct task_lock {
	__u64 start_ns;		/* contention_begin; 0 if it did not wait */
	__u64 acquired_ns;	/* acquire_returned; 0 while waiting */
	__u64 wait_ns;
	__u64 stack;
	__u64 cgroup;		/* the task's, as it took or waited */
	__u16 write;
	__u16 foreign;
	/* Whom the wait waited behind (holder_tgid 0: nobody seen). */
	__u32 holder_tgid;
	__u64 holder_stack;
	__u64 holder_cgroup;
	__u16 holder_write;
	__u16 holder_hint;	/* enum holder_hint (default set) */
	__u32 start_writer;	/* tid of the writer holding it as the wait began */
	__u64 seq;		/* exact_seq when the slot was filled */
	__u32 fault;		/* exact mode: 1 + enum fault_lock, or 0 (fault_of()) */
	__u32 pad;
};

/*
 * Exact mode (--exact, or the viewer's key): the programs run per
 * mmap_lock acquisition and per context switch are attached for it alone,
 * at the user's request, never by a heuristic. Odd while they are
 * attached (user space makes it odd after the attach and even before the
 * detach), one more at each turn. A slot filled in an earlier turn is
 * stale: the release or the acquisition that would have closed it was not
 * seen.
 */
volatile __u64 exact_seq;

static __always_inline bool exact_on(void)
{
	return exact_seq & 1;
}

static __always_inline bool slot_current(const struct task_lock *t)
{
	return t->seq == exact_seq;
}

/*
 * Rows, sized by user space: one copy of each, shared by every CPU. A row
 * changes on a wait, a fork or, in exact mode, an acquisition, and CPUs
 * add to it atomically (row_add(), row_max()): per-CPU copies cost rows x
 * possible CPUs of kernel memory (1 GiB at 240 CPUs) to spare a cache line
 * that rare events hardly share. Preallocated: a map that allocates as
 * keys appear fails under a burst of new keys, which is exactly when a
 * storm of short-lived processes makes them.
 */
#define ROWS_MAP(name, key_type, value_type)					\
struct {									\
	__uint(type, BPF_MAP_TYPE_HASH);					\
	__uint(max_entries, 1);		/* set by user space */			\
	__type(key, key_type);							\
	__type(value, value_type);						\
} name SEC(".maps")

ROWS_MAP(lock_stats, struct lock_key, struct lock_stats);

/* Name of each process with a row, for processes gone before user space looks. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);		/* set by user space: as lock_stats */
	__type(key, __u32);
	__type(value, char[MMTOP_COMM_LEN]);
} lock_comms SEC(".maps");

/*
 * Stacks by a 64-bit hash of their frames. A stack-trace map would be
 * simpler, but its buckets collide (bpf_get_stackid() then fails with
 * EEXIST for a hot stack, for good); a 64-bit hash does not in practice.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);		/* set by user space: SITES_MAX */
	__type(key, __u64);
	__type(value, struct lock_stack);
} lock_stacks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct lock_stack);
} stack_scratch SEC(".maps");

/*
 * Keys lock_stacks is known to hold, by their low bits: a hot site's key
 * is found here, not by a hash lookup. Shared by the CPUs: a slot is one
 * aligned word, read and written whole. User space takes a stack no row
 * has named for a while out of lock_stacks, then clears its slot here
 * (key_names.c: sites_forget_idle()), so that its next wait stores it again.
 */
__u64 site_keys[SITE_CACHE];

#define LOCK_EVENTS_SIZE (256 * 1024)

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, LOCK_EVENTS_SIZE);
} lock_events SEC(".maps");

/* What could not be recorded, by enum bpf_drop: read by user space in place. */
__u64 lock_drops[BPF_DROP__COUNT];

static __always_inline void drop(__u32 kind)
{
	if (kind < BPF_DROP__COUNT)
		__sync_fetch_and_add(&lock_drops[kind], 1);
}

/*
 * Records wait in their ring for user space's read at the end of the
 * interval: a wake-up per record would put mmtop on a CPU once per slow
 * wait or fork, between the workload's own steps. A ring a quarter full
 * wakes it, so that none is lost.
 */
static __always_inline __u64 ring_wakeup(void *ring, __u64 size)
{
	return bpf_ringbuf_query(ring, BPF_RB_AVAIL_DATA) >= size / 4 ?
	       BPF_RB_FORCE_WAKEUP : BPF_RB_NO_WAKEUP;
}

/* The value of @key in rows map @map, created zeroed if missing. */
static __always_inline void *get_or_create(void *map, const void *key,
					   const void *zero, __u32 full)
{
	void *v = bpf_map_lookup_elem(map, key);

	if (v)
		return v;
	if (bpf_map_update_elem(map, key, zero, BPF_NOEXIST) &&
	    !bpf_map_lookup_elem(map, key)) {
		drop(full);
		return NULL;
	}
	return bpf_map_lookup_elem(map, key);
}

/*
 * Processes lock_comms is known to name, by their pid's low bits: a
 * holder seen again costs an array read, not a hash lookup. User space
 * clears a slot as it forgets the name (a pid may come back).
 */
__u32 named_tgids[NAMED_SLOTS];

static __always_inline void name_kept(__u32 tgid)
{
	WRITE_ONCE(named_tgids[tgid & (NAMED_SLOTS - 1)], tgid);
}

/* Whether lock_comms names @tgid. */
static __always_inline bool named(__u32 tgid)
{
	if (READ_ONCE(named_tgids[tgid & (NAMED_SLOTS - 1)]) == tgid)
		return true;
	if (!bpf_map_lookup_elem(&lock_comms, &tgid))
		return false;
	name_kept(tgid);
	return true;
}

/* A new row of the current process @tgid: its name, kept while it is alive. */
static __always_inline void keep_name(__u32 tgid)
{
	char comm[MMTOP_COMM_LEN];

	bpf_get_current_comm(comm, sizeof(comm));
	if (!bpf_map_update_elem(&lock_comms, &tgid, comm, BPF_ANY))
		name_kept(tgid);
}

static __always_inline struct lock_stats *stats_of(__u32 tgid, const struct task_lock *t)
{
	struct lock_key key = {
		.stack = t->stack, .tgid = tgid,
		.write = t->write, .foreign = t->foreign,
		.cgroup = t->cgroup,
	};
	static const struct lock_stats zero;
	struct lock_stats *s = bpf_map_lookup_elem(&lock_stats, &key);

	if (s)
		return s;
	keep_name(tgid);
	return get_or_create(&lock_stats, &key, &zero, BPF_DROP_STATS_FULL);
}

struct event_info {
	__u64 stack;
	__u64 wait_ns;
	__u64 hold_ns;
	__u64 holder_stack;
	__u64 cgroup;		/* the task's; 0: read it now */
	__u64 holder_cgroup;
	__u32 holder_tgid;
	__u8 kind;
	__u8 write;
	__u8 foreign;
	__u8 cls;
	__u8 holder_write;
	__u8 holder_hint;
	__u8 lock_flags;
};

static __always_inline void emit_event(__u64 now, const struct event_info *i)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct lock_event *e;

	e = bpf_ringbuf_reserve(&lock_events, sizeof(*e), 0);
	if (!e) {
		drop(BPF_DROP_RINGBUF);
		return;
	}
	e->ts_ns = now;
	e->wait_ns = i->wait_ns;
	e->hold_ns = i->hold_ns;
	e->pid = id >> 32;
	e->tid = (__u32)id;
	e->cpu = bpf_get_smp_processor_id();
	e->stack = i->stack;
	e->kind = i->kind;
	e->write = i->write;
	e->foreign = i->foreign;
	e->cls = i->cls;
	e->holder_tgid = i->holder_tgid;
	e->holder_stack = i->holder_stack;
	e->cgroup = i->cgroup ?: bpf_get_current_cgroup_id();
	e->holder_cgroup = i->holder_cgroup;
	e->holder_write = i->holder_write;
	e->holder_hint = i->holder_hint;
	e->lock_flags = i->lock_flags;
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	bpf_ringbuf_submit(e, ring_wakeup(&lock_events, LOCK_EVENTS_SIZE));
}

static __always_inline void slow_event(__u64 now, const struct task_lock *t,
				       __u64 hold_ns)
{
	struct event_info i = {
		.stack = t->stack, .wait_ns = t->wait_ns, .hold_ns = hold_ns,
		.kind = LOCK_KIND_MMAP_LOCK, .write = t->write,
		.foreign = t->foreign, .cgroup = t->cgroup,
	};

	/* A slow wait says whom it waited behind. */
	if (!hold_ns) {
		i.holder_tgid = t->holder_tgid;
		i.holder_stack = t->holder_stack;
		i.holder_cgroup = t->holder_cgroup;
		i.holder_write = t->holder_write;
		i.holder_hint = t->holder_hint;
	}
	emit_event(now, &i);
}

/*
 * The rwsem's count (kernel/locking/rwsem.c, this layout since 5.3): bit 0
 * a writer holds it, bits 1-2 waiters and hand-off, bits 8-62 the readers,
 * bit 63 a reader failed. A write takes the fast path if it is 0, a read if
 * no bit outside the readers' is set.
 */
#define RWSEM_READERS_MASK 0x7fffffffffffff00ULL
#define RWSEM_WRITER_LOCKED 1ULL

/*
 * The rwsem's owner: the task_struct, its low two bits flags; bit 0 set
 * means readers own it and the task is only the last of them to come in
 * (the kernel does not clear it as readers leave).
 */
#define RWSEM_OWNER_FLAGS 3ULL
#define RWSEM_READER_OWNED 1ULL

/*
 * The writer that owns the rwsem (@owner, read only when the count says a
 * writer holds it: a request that waits anyway), its task or its tid;
 * NULL or 0 if none.
 */
static __always_inline struct task_struct *writer_task(__u64 owner)
{
	if (owner & RWSEM_READER_OWNED)
		return NULL;
	return (struct task_struct *)(owner & ~RWSEM_OWNER_FLAGS);
}

/*
 * @task's cgroup on the default hierarchy (v2), its id as
 * bpf_get_current_cgroup_id() gives the current task's: read where a
 * holder is seen (a wait), never per acquisition.
 */
static __always_inline __u64 task_cgroup(struct task_struct *task)
{
	return BPF_CORE_READ(task, cgroups, dfl_cgrp, kn, id);
}

static __always_inline __u32 writer_of(__u64 owner)
{
	struct task_struct *task = writer_task(owner);

	return task ? BPF_CORE_READ(task, pid) : 0;
}

#endif
