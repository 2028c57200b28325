/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Lock waits (lock:contention_begin/end): the contention family's classes,
 * the default set's mmap_lock waits and their holders, and the zone and
 * pcp lock address table.
 */
#ifndef MMTOP_BPF_CONTENTION_H
#define MMTOP_BPF_CONTENTION_H

/*
 * Lock contention (lock:contention_begin/end): how long tasks wait, by
 * what the lock is. Spinning waits cannot migrate: one slot per CPU.
 * Sleeping waits (rwsem, mutex) are kept per task.
 */

/* Spinlocks and rwlocks; a mutex spins (SPIN|MUTEX) before it sleeps. */
static __always_inline bool spinning(__u32 flags)
{
	return (flags & LCB_F_SPIN) && !(flags & (LCB_F_MUTEX | LCB_F_RT));
}

struct cont_wait {
	__u64 lock;		/* 0: free */
	__u64 start_ns;
	__u64 stack;
	__u32 flags;
	__u32 cls;
	__u32 tgid;
	/* An mmap_lock wait the default set counts (exact mode times its own). */
	__u32 holder_tgid;	/* whom it waits behind; 0: nobody seen */
	__u32 start_writer;	/* tid of the writer holding it as it began */
	__u64 holder_stack;	/* the writer's syscall (SYSCALL_SITE); 0: none */
	__u64 holder_cgroup;
	__u8 mmap;
	__u8 foreign;
	__u8 holder_write;
	__u8 holder_hint;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct cont_wait);
} cont_spin SEC(".maps");

/*
 * A sleeping wait's record, in the task's own storage: found without a
 * hash or a bucket lock at either end of the wait, made once per task
 * (at its first wait) and freed with it, so that it takes no memory for
 * tasks that never wait.
 */
struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct cont_wait);
} cont_tasks SEC(".maps");

static __always_inline struct cont_wait *task_wait(bool create)
{
	return bpf_task_storage_get(&cont_tasks, bpf_get_current_task_btf(), 0,
				    create ? BPF_LOCAL_STORAGE_GET_F_CREATE : 0);
}

ROWS_MAP(cont_stats, struct cont_key, struct cont_stats);

/* Zone and pcp lock addresses -> enum cont_class; see lock_addrs_collect. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 8192);
	__type(key, __u64);
	__type(value, __u32);
} lock_addrs SEC(".maps");

/*
 * The lowest and the highest address in lock_addrs, set by user space once
 * it is built (0 and 0 until then: nothing is in it). A spin lock outside
 * them is no zone's or pcp's and is not looked up: four spin waits in
 * five of a contended churn were page-table locks, in struct page
 * (vmemmap), far from the nodes' and the per-CPU areas, and each lookup
 * cost a helper call, a hash and two lines gone cold between waits.
 */
__u64 lock_addr_lo;
__u64 lock_addr_hi;

static __always_inline bool mmap_class(__u32 cls)
{
	return cls == CONT_OWN_MMAP || cls == CONT_OTHER_MMAP;
}

static __always_inline __u32 cont_classify(__u64 lock, __u64 mm, __u64 own_mm,
					   __u32 *tgid)
{
	__u32 *cls;

	*tgid = bpf_get_current_pid_tgid() >> 32;
	if (mm)
		return mm == own_mm ? CONT_OWN_MMAP : CONT_OTHER_MMAP;
	*tgid = 0;
	if (lock < READ_ONCE(lock_addr_lo) || lock > READ_ONCE(lock_addr_hi))
		return CONT_STACK;
	cls = bpf_map_lookup_elem(&lock_addrs, &lock);
	return cls ? *cls : CONT_STACK;
}

/* @task's pid and tgid: one read where they lie side by side (every layout). */
static __always_inline void task_ids(struct task_struct *task, __u32 *pid, __u32 *tgid)
{
	__u64 at = bpf_core_field_offset(struct task_struct, pid);
	__u32 ids[2] = {};

	if (bpf_core_field_offset(struct task_struct, tgid) == at + 4) {
		bpf_probe_read_kernel(ids, sizeof(ids), (void *)task + at);
		*pid = ids[0];
		*tgid = ids[1];
		return;
	}
	*pid = BPF_CORE_READ(task, pid);
	*tgid = BPF_CORE_READ(task, tgid);
}

/*
 * The default set's blame, as perf lock contention --lock-owner reads it:
 * whom a wait beginning on @r waits behind. A writer holding the lock is
 * its owner, exactly; a lock read-held names only the last reader in, a
 * hint (the kernel does not clear it as readers leave); where the kernel
 * has contended_release, exact_holder() names the holder as the wait ends.
 * The holder's name is kept for user space, as a waiter's is.
 */
static __always_inline void owner_holder(struct cont_wait *w, __u64 mm,
					 const struct rwsem_seen *r)
{
	struct task_struct *task = (struct task_struct *)(r->owner & ~RWSEM_OWNER_FLAGS);
	bool reader = r->owner & RWSEM_READER_OWNED;
	char comm[MMTOP_COMM_LEN];
	__u32 pid, tgid;

	if (!task)
		return;
	if (r->count & RWSEM_WRITER_LOCKED ? reader : !reader || !(r->count & RWSEM_READERS_MASK))
		return;
	task_ids(task, &pid, &tgid);
	if (pid == (__u32)bpf_get_current_pid_tgid())
		return;
	if (!reader) {
		w->start_writer = pid;
		writer_seen(mm, pid);
		w->holder_stack = r->writer_site;
	}
	w->holder_tgid = tgid;
	w->holder_cgroup = task_cgroup(task);
	w->holder_write = !reader;
	w->holder_hint = reader ? HOLDER_LAST_READER : HOLDER_EXACT;
	if (named(tgid))
		return;
	BPF_CORE_READ_STR_INTO(&comm, task, comm);
	if (!bpf_map_update_elem(&lock_comms, &tgid, comm, BPF_NOEXIST))
		name_kept(tgid);
}

/*
 * The record of a wait beginning now: the contention family's, and the
 * default set's for an mmap_lock wait (@mm; @r its rwsem).
 */
static __always_inline void cont_wait_begins(void *ctx, __u64 lock, __u32 flags,
					     __u64 mm, __u64 own_mm, __u64 now,
					     const struct rwsem_seen *r)
{
	__u32 zero = 0;
	struct cont_wait *w;

	if (spinning(flags)) {
		w = bpf_map_lookup_elem(&cont_spin, &zero);
		if (!w)
			return;
		/* The same wait seen again, or one nested in it (an irq). */
		if (w->lock) {
			if (w->lock != lock)
				drop(BPF_DROP_CONT_NESTED);
			return;
		}
	} else {
		if (skipped(SKIP_SLOT))
			return;
		w = task_wait(true);
		if (!w) {
			drop(BPF_DROP_CONT_TASK);
			return;
		}
		/* A mutex's wait begins twice: spinning, then sleeping. */
		if (w->lock == lock)
			return;
		__builtin_memset(w, 0, sizeof(*w));
	}
	w->lock = lock;
	w->start_ns = now;
	w->flags = flags;
	/*
	 * The syscall tells exec's mmap_lock sites from mmap(2)'s; for any
	 * other lock it is noise (a softirq's spin lock took the syscall of
	 * whichever task it interrupted: a key each).
	 */
	w->stack = skipped(SKIP_SITE) ? 0 :
		   stack_of(ctx, return_addrs_hash(ctx, CONT_SITE_RETS, HOOK_CONT_BEGIN),
			    mm ? current_syscall() : 0);
	w->cls = cont_classify(lock, mm, own_mm, &w->tgid);
	w->mmap = mm && stats_on && !exact_on();
	if (w->mmap) {
		w->foreign = mm != own_mm;
		if (!skipped(SKIP_OWNER))
			owner_holder(w, mm, r);
	}
}

/*
 * The call site of the writer @r shows holding the lock (a release the
 * kernel traces names it instead, exact_holder()): the syscall it is in,
 * whose path is its site (mmap, munmap, mprotect, ...), as SYSCALL_SITE;
 * 0 if none. Read with the owner, before the waiter's own site: a writer
 * that let go meanwhile is found out of its syscall (returned, ax no
 * longer -ENOSYS), and 10-20% of a loaded host's waits were. Not its
 * kernel stack: a task running on another CPU has none that can be read.
 */
static __always_inline __u64 writer_syscall(const struct rwsem_seen *r)
{
	struct task_struct *task;
	long nr;

	task = r->count & RWSEM_WRITER_LOCKED ? writer_task(r->owner) : NULL;
	if (!task)
		return 0;
	nr = task_syscall(task);
	return nr >= 0 ? SYSCALL_SITE(nr) : 0;
}

/*
 * A wait begins (contention_begin): a sleeping wait for an mmap_lock (an
 * rwsem) begins with its slow path. It stalls a fork of its mm in flight;
 * exact mode times it to the acquisition (with spin_waits, from the
 * request, mmap_lock_start_fn()), the default set to contention_end.
 */
static __always_inline void on_cont_begin(void *ctx, __u64 lock, __u32 flags,
					  __u64 own_mm)
{
	__u64 now = bpf_ktime_get_ns(), mm = 0;
	struct rwsem_seen r = {};

	if (flags & (LCB_F_READ | LCB_F_WRITE))
		mm = mmap_lock_mm(lock, own_mm);
	if (mm) {
		if (!skipped(SKIP_OWNER)) {
			rwsem_look(lock, &r);
			if (stats_on && !exact_on())
				r.writer_site = writer_syscall(&r);
		}
		if (fork_on && mm == own_mm && nr_forking > 0)
			fork_stall(mm, now);
	}
	if (mm && fork_on && exact_on() && mm == own_mm && (flags & LCB_F_WRITE))
		fork_wait_begins(mm, now);
	if (mm && stats_on && exact_on() && !spin_waits)
		wait_begins(mm, flags & LCB_F_WRITE, now,
			    r.count & RWSEM_WRITER_LOCKED ? writer_of(r.owner) : 0);
	if (cont_on || (mm && stats_on && !exact_on()))
		cont_wait_begins(ctx, lock, flags, mm, own_mm, now, &r);
}

/*
 * The default set: an mmap_lock wait of @wait ns ends now, in its blame
 * row (its process, call site, mode, own or other mm, and its holder),
 * which user space sums into its mmap_lock row, and a slow event if it
 * was one.
 */
static __always_inline void mmap_wait_ends(const struct cont_wait *w, __u64 wait,
					   __u64 now)
{
	struct task_lock t = {
		.stack = w->stack, .wait_ns = wait,
		.write = !!(w->flags & LCB_F_WRITE), .foreign = w->foreign,
		.holder_tgid = w->holder_tgid, .holder_write = w->holder_write,
		.holder_hint = w->holder_hint, .holder_stack = w->holder_stack,
		.holder_cgroup = w->holder_cgroup,
		.start_ns = w->start_ns, .start_writer = w->start_writer,
		.cgroup = bpf_get_current_cgroup_id(),
	};

	exact_holder(w->lock - bpf_core_field_offset(struct mm_struct, mmap_lock), &t);
	blame(&t, w->tgid, true);
	if (wait >= slow_ns)
		slow_event(now, &t, 0);
}

static __always_inline void on_cont_end(__u64 lock)
{
	__u32 zero = 0;
	struct cont_wait *w = bpf_map_lookup_elem(&cont_spin, &zero);
	static const struct cont_stats none;
	struct cont_key key = {};
	struct cont_stats *s;
	bool spin = w && w->lock == lock;
	__u64 now = bpf_ktime_get_ns(), wait;

	if (!spin) {
		w = task_wait(false);
		if (!w || w->lock != lock)
			return;
	}
	wait = now - w->start_ns;
	if (skipped(SKIP_ROWS)) {
		w->lock = 0;
		return;
	}
	if (w->mmap)
		mmap_wait_ends(w, wait, now);
	key.stack = w->stack;
	key.tgid = w->tgid;
	key.cls = w->cls;
	key.flags = w->flags;
	/* The default set's mmap_lock wait: its lock row is this row too. */
	s = cont_on && !w->mmap ?
	    get_or_create(&cont_stats, &key, &none, BPF_DROP_CONT_STATS) : NULL;
	if (s)
		wait_add(s, wait);
	/*
	 * A slow mmap_lock wait is the mmap_lock family's event, with whom it
	 * waited behind: sent here too, every slow wait was listed twice.
	 */
	if (wait >= slow_ns && !(stats_on && mmap_class(w->cls))) {
		struct event_info i = {
			.stack = w->stack, .wait_ns = wait,
			.kind = LOCK_KIND_CONTENTION, .cls = w->cls,
			.write = !!(w->flags & LCB_F_WRITE),
			/* A mutex or spin lock has no mode: not "read". */
			.lock_flags = w->flags,
		};

		emit_event(now, &i);
	}
	w->lock = 0;
}

/* contention_begin(lock, flags) */
static __always_inline int contention_begin_fn(__u64 *ctx, bool typed)
{
	on_cont_begin(ctx, ctx[0], (__u32)ctx[1], TP_CURRENT_MM(typed));
	return 0;
}

/* contention_end(lock, ret) */
static __always_inline int contention_end_fn(__u64 *ctx, bool typed)
{
	on_cont_end(ctx[0]);
	return 0;
}

TP_PAIR(contention_begin, contention_begin, contention_begin_fn)
TP_PAIR(contention_end, contention_end, contention_end_fn)

/*
 * The zone and pcp lock address table, built once at start by running this
 * program on every CPU (BPF_PROG_TEST_RUN): data symbols such as
 * contig_page_data or node_data are not in /proc/kallsyms without
 * CONFIG_KALLSYMS_ALL, so the nodes are reached through the running task's
 * memory cgroup (mem_cgroup_per_node.lruvec.pgdat), and this CPU's per-CPU
 * offset through a per-CPU map: its element here minus its per-CPU base.
 */
const volatile __u32 nr_nodes = 1;


struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} percpu_anchor SEC(".maps");

static __always_inline __u64 read_u64(__u64 addr)
{
	__u64 v = 0;

	bpf_probe_read_kernel(&v, sizeof(v), (void *)addr);
	return v;
}

/* This CPU's per-CPU offset; false if it cannot be found. */
static __always_inline bool percpu_offset(__u64 *off)
{
	__u32 zero = 0;
	void *mine = bpf_map_lookup_elem(&percpu_anchor, &zero);
	__u64 base;

	if (!mine)
		return false;
	base = read_u64(addr_of(&percpu_anchor) +
			bpf_core_field_offset(struct bpf_array, pptrs));
	*off = addr_of(mine) - base;
	return base != 0;
}

static __always_inline void add_zone(__u64 pgdat, __u32 zid, bool pcp_ok,
				     __u64 cpu_off)
{
	__u64 zone = pgdat + bpf_core_field_offset(struct pglist_data, node_zones) +
		     zid * bpf_core_type_size(struct zone);
	__u32 zone_cls = CONT_ZONE, pcp_cls = CONT_PCP;
	__u64 lock, pcp;

	/* Only real, populated zones of this node. */
	if (read_u64(zone + bpf_core_field_offset(struct zone, zone_pgdat)) != pgdat ||
	    !read_u64(zone + bpf_core_field_offset(struct zone, managed_pages)))
		return;
	lock = zone + bpf_core_field_offset(struct zone, lock);
	bpf_map_update_elem(&lock_addrs, &lock, &zone_cls, BPF_ANY);
	pcp = read_u64(zone + bpf_core_field_offset(struct zone, per_cpu_pageset));
	if (!pcp || !pcp_ok)
		return;
	pcp += cpu_off + bpf_core_field_offset(struct per_cpu_pages, lock);
	bpf_map_update_elem(&lock_addrs, &pcp, &pcp_cls, BPF_ANY);
}

SEC("raw_tp")
int lock_addrs_collect(void *ctx)
{
	struct task_struct *task = (struct task_struct *)bpf_get_current_task();
	int memcg_id = bpf_core_enum_value(enum cgroup_subsys_id, memory_cgrp_id);
	__u32 nr_zones = bpf_core_enum_value(enum zone_type, __MAX_NR_ZONES);
	__u64 cset = addr_of(BPF_CORE_READ(task, cgroups)), memcg, cpu_off = 0;
	__u32 nid, zid;
	bool pcp_ok;

	if (!cset)
		return 0;
	memcg = read_u64(cset + bpf_core_field_offset(struct css_set, subsys) +
			 memcg_id * sizeof(void *));
	if (!memcg)
		return 0;
	memcg -= bpf_core_field_offset(struct mem_cgroup, css);
	pcp_ok = percpu_offset(&cpu_off);
	for (nid = 0; nid < MMTOP_MAX_NODES && nid < nr_nodes; nid++) {
		__u64 pn = read_u64(memcg + bpf_core_field_offset(struct mem_cgroup, nodeinfo) +
				    nid * sizeof(void *));
		__u64 pgdat;

		if (!pn)
			continue;
		pgdat = read_u64(pn + bpf_core_field_offset(struct mem_cgroup_per_node, lruvec) +
				 bpf_core_field_offset(struct lruvec, pgdat));
		for (zid = 0; pgdat && zid < MMTOP_MAX_ZONES && zid < nr_zones; zid++)
			add_zone(pgdat, zid, pcp_ok, cpu_off);
	}
	return 0;
}

#endif
