// SPDX-License-Identifier: GPL-2.0
/*
 * Lock signals, in one object so that they share state. The default set
 * runs on rare events only: waits (contention_begin/end), forks, exits.
 *  - mmap_lock waits: every wait, keyed by (process, kernel stack, mode,
 *    own/other mm), timed contention_begin -> contention_end, blamed on
 *    the rwsem's owner as it began.
 *  - exact mode (attached at the user's request only): every acquisition
 *    counted, with its wait (contention_begin -> acquire_returned) and
 *    hold (acquire_returned -> released), blamed on the holder whose
 *    release let it through. Two programs run per acquisition: a wait
 *    exists only where a request takes the rwsem's slow path, which
 *    fires contention_begin, so start_locking, which fires on every
 *    request, is hooked only with spin_waits (--spin-waits): what the slow
 *    path leaves out is a writer's optimistic spin, before
 *    contention_begin (see the man page). The stack is taken once per
 *    acquisition; user space turns it into a call site.
 *  - lock contention (lock:contention_begin/end) by class: the task's own
 *    mmap_lock, another mm's (one whose release the blame records keep),
 *    zone and pcp locks (an address table collected at start), else by
 *    stack in user space.
 *  - VMA write-lock waits on 6.15+: D-state sleeps of write holders.
 * Waits or holds above slow_ns also go to a ring buffer.
 *
 * mmap_lock argument layouts: from 6.14 (mm, write[, success]); before, a
 * memcg_path string sat between mm and write. memcg_path_arg is set before
 * load.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "mmtop.h"
#include "arch.h"
#include "tp_pair.h"
#include "core_fixes.bpf.h"

char LICENSE[] SEC("license") = "GPL";

const volatile bool memcg_path_arg = false;
const volatile __u64 slow_ns = 1000000;
/* The families on. */
const volatile bool stats_on = true;	/* mmap_lock waits, holds, sites */
const volatile bool fork_on = true;	/* fork cost */
const volatile bool cont_on = true;	/* lock contention by class */
/* mmap_lock waits from the request (start_locking), spins included. */
const volatile bool spin_waits = false;

struct task_lock {
	__u64 start_ns;		/* contention_begin; 0 if it did not wait */
	__u64 acquired_ns;	/* acquire_returned; 0 while waiting */
	__u64 wait_ns;
	__u64 stack;
	__u16 write;
	__u16 foreign;
	/* Whom the wait waited behind (holder_tgid 0: nobody seen). */
	__u32 holder_tgid;
	__u64 holder_stack;
	__u16 holder_write;
	__u16 holder_hint;	/* the holder is the last reader in (default set) */
	__u32 start_writer;	/* tid of the writer holding it as the wait began */
	__u64 seq;		/* exact_seq when the slot was filled */
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

/*
 * Rows, sized by user space. Preallocated: a map that allocates as keys
 * appear fails under a burst of new keys (per-CPU memory cannot be had in
 * a tracepoint), which is exactly when a storm of short-lived processes
 * makes them.
 */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, 1);		/* set by user space */
	__type(key, struct lock_key);
	__type(value, struct lock_stats);
} lock_stats SEC(".maps");

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
 * Keys this CPU knows lock_stacks holds, by their low bits: a hot site's
 * key is found here, not by a hash lookup (stacks are never deleted).
 */
#define SITE_CACHE 256

struct site_cache {
	__u64 key[SITE_CACHE];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct site_cache);
} site_cache SEC(".maps");

#define LOCK_EVENTS_SIZE (256 * 1024)

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, LOCK_EVENTS_SIZE);
} lock_events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, BPF_DROP__COUNT);
	__type(key, __u32);
	__type(value, __u64);
} lock_drops SEC(".maps");

/* One load or store, as written: records other CPUs read while they change. */
#define READ_ONCE(x) (*(volatile typeof(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile typeof(x) *)&(x) = (v))

static __always_inline void drop(__u32 kind)
{
	__u64 *n = bpf_map_lookup_elem(&lock_drops, &kind);

	if (n)
		(*n)++;
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

static __always_inline __u32 log2_bucket(__u64 v)
{
	__u32 r = 0, shift;

	shift = (v > 0xFFFFFFFF) << 5; v >>= shift; r |= shift;
	shift = (v > 0xFFFF) << 4; v >>= shift; r |= shift;
	shift = (v > 0xFF) << 3; v >>= shift; r |= shift;
	shift = (v > 0xF) << 2; v >>= shift; r |= shift;
	shift = (v > 0x3) << 1; v >>= shift; r |= shift;
	r |= (v >> 1);
	return r < MMTOP_HIST_BUCKETS ? r : MMTOP_HIST_BUCKETS - 1;
}

/* One more wait of @wait ns in @s. */
static __always_inline void wait_add(struct cont_stats *s, __u64 wait)
{
	s->count++;
	s->wait_ns += wait;
	if (wait > s->wait_max_ns)
		s->wait_max_ns = wait;
	s->wait_hist[log2_bucket(wait)]++;
}

/* The value of @key in per-CPU hash @map, created zeroed if missing. */
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

static __always_inline struct lock_stats *stats_of(__u32 tgid,
						   const struct task_lock *t)
{
	struct lock_key key = {
		.stack = t->stack, .tgid = tgid,
		.write = t->write, .foreign = t->foreign,
	};
	static const struct lock_stats zero;
	struct lock_stats *s = bpf_map_lookup_elem(&lock_stats, &key);
	char comm[MMTOP_COMM_LEN];

	if (s)
		return s;
	/* A new row: remember the process's name while it is alive. */
	bpf_get_current_comm(comm, sizeof(comm));
	bpf_map_update_elem(&lock_comms, &tgid, comm, BPF_ANY);
	return get_or_create(&lock_stats, &key, &zero, BPF_DROP_STATS_FULL);
}

struct event_info {
	__u64 stack;
	__u64 wait_ns;
	__u64 hold_ns;
	__u64 holder_stack;
	__u32 holder_tgid;
	__u8 kind;
	__u8 write;
	__u8 foreign;
	__u8 cls;
	__u8 holder_write;
	__u8 holder_hint;
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
	e->holder_write = i->holder_write;
	e->holder_hint = i->holder_hint;
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	bpf_ringbuf_submit(e, ring_wakeup(&lock_events, LOCK_EVENTS_SIZE));
}

static __always_inline void slow_event(__u64 now, const struct task_lock *t,
				       __u64 hold_ns)
{
	struct event_info i = {
		.stack = t->stack, .wait_ns = t->wait_ns, .hold_ns = hold_ns,
		.kind = LOCK_KIND_MMAP_LOCK, .write = t->write,
		.foreign = t->foreign,
	};

	/* A slow wait says whom it waited behind. */
	if (!hold_ns) {
		i.holder_tgid = t->holder_tgid;
		i.holder_stack = t->holder_stack;
		i.holder_write = t->holder_write;
		i.holder_hint = t->holder_hint;
	}
	emit_event(now, &i);
}

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
 * Kept for mms seen released; LRU, so that a dead mm's entry gives way (a
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
};

struct mm_releases {
	struct release any;
	struct release writer;
	__u64 busy;		/* a release is being written */
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 16384);
	__type(key, __u64);
	__type(value, struct mm_releases);
} mm_releases SEC(".maps");

/* Waits by (waiter, holder) pair; sized as lock_stats. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, 1);		/* set by user space */
	__type(key, struct blame_key);
	__type(value, struct cont_stats);
} blame_stats SEC(".maps");

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
	WRITE_ONCE(r->ns, now);
}

/* @t's hold of @mm ends now. */
static __always_inline void note_release(__u64 mm, __u64 now, const struct task_lock *t)
{
	static const struct mm_releases none;
	struct mm_releases *h = bpf_map_lookup_elem(&mm_releases, &mm);
	__u64 id = bpf_get_current_pid_tgid();

	if (!h) {
		bpf_map_update_elem(&mm_releases, &mm, &none, BPF_NOEXIST);
		h = bpf_map_lookup_elem(&mm_releases, &mm);
		if (!h) {
			drop(BPF_DROP_HOLDERS);
			return;
		}
	}
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
}

/* A wait that waited behind a holder ends: add it to that pair's row. */
static __always_inline void blame(const struct task_lock *t, __u32 tgid)
{
	struct blame_key key = {
		.stack = t->stack, .tgid = tgid,
		.holder_tgid = t->holder_tgid, .holder_stack = t->holder_stack,
		.write = t->write, .holder_write = t->holder_write,
		.holder_hint = t->holder_hint,
	};
	static const struct cont_stats none;
	struct cont_stats *s;

	if (!t->holder_tgid)
		return;
	s = get_or_create(&blame_stats, &key, &none, BPF_DROP_BLAME);
	if (s)
		wait_add(s, t->wait_ns);
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
		s->acquired++;
		s->wait_ns += t->wait_ns;
		if (t->wait_ns > s->wait_max_ns)
			s->wait_max_ns = t->wait_ns;
		/* The histogram is of waits, as the default set's. */
		if (t->wait_ns)
			s->wait_hist[log2_bucket(t->wait_ns)]++;
		s->holds++;
		s->hold_ns += hold;
		if (hold > s->hold_max_ns)
			s->hold_max_ns = hold;
		s->hold_hist[log2_bucket(hold)]++;
	}
	if (hold >= slow_ns)
		slow_event(now, t, hold);
}

/* The task's syscall number: -1 (or an error code) outside a syscall. */
static __always_inline long current_syscall(void)
{
	struct pt_regs *regs = (struct pt_regs *)bpf_task_pt_regs(bpf_get_current_task_btf());

	return SYSCALL_NR(regs);
}

#define FNV_OFFSET 0xcbf29ce484222325ULL

static __always_inline __u64 fnv1a(__u64 h, __u64 v)
{
	return (h ^ v) * 0x100000001b3ULL;
}

/*
 * The tracepoint's arguments' address, on the stack, as a number: a cast,
 * which the verifier lets a program loaded with CAP_PERFMON pass to a helper
 * (addr_of() costs a helper call, on every acquisition) as long as what is
 * added to it is bounded. find_step() adds its unbounded index: there, and
 * only there, the search takes the address by addr_of().
 */
static __always_inline __u64 ctx_addr(void *ctx)
{
	return (__u64)ctx;
}

/* A pointer's value as a plain number, for address arithmetic. */
static __always_inline __u64 addr_of(const void *p)
{
	__u64 a = 0;

	bpf_probe_read_kernel(&a, sizeof(a), &p);
	return a;
}

/*
 * Return addresses taken into a site's key by return_addrs_hash():
 * contention needs several, past the lock's slow path and its entry point
 * (each address more is a map lookup more, on every event). An
 * mmap_lock site needs one, past the tracing glue (see site_hash()); only
 * where the glue is not known are the first two taken, the hook's and the
 * call into it.
 */
#define MMAP_SITE_RETS 2
#define CONT_SITE_RETS 5

/*
 * Kernel text, from /proc/kallsyms (0: unknown), and how far above the
 * tracepoint's arguments the stack is searched for return addresses.
 */
const volatile __u64 text_lo;
const volatile __u64 text_hi;
#define SCAN_WORDS 64

/* 1 if @a lies in kernel text, else 0; without a branch (see below). */
static __always_inline __u64 text_bit(__u64 a)
{
	__u64 d = a - text_lo, range = text_hi - text_lo;

	/* d < range, both below 2^63: d - range is negative. */
	return ((d - range) >> 63) & ~(d >> 63) & 1;
}

/*
 * Return addresses found without unwinding: bpf_get_stack() costs about
 * 2 us even for a few frames (35 us in this project's VM), too much for
 * every mmap_lock acquisition or every wait. The tracepoint's arguments
 * (@ctx) sit in the frame of the BPF runner; above them on the stack are
 * the return addresses into the function that fired the tracepoint, its
 * caller, and so on, each a fixed number of words above the last (a
 * function's frame at a call site has one size). Between them lie stale
 * words, left by earlier, deeper calls, some of them text addresses: the
 * first five text words, taken as a wait's key, came out different from
 * one wait at a site to the next (53 of 74 waits under churn took a full
 * stack). So the distances are learnt (ret_frames): a wait whose walk
 * meets a return address it has no distance for takes the full stack,
 * once, and each of its return addresses found above the arguments gets
 * the distance to its caller's; later waits read those words alone.
 */
struct stack_words {
	__u64 w[SCAN_WORDS];	/* the words above the arguments */
	__u64 first;		/* where the walk began, plus 1; 0: no walk */
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct stack_words);
} scan_scratch SEC(".maps");

/* A return address -> the words from its slot to its caller's. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 8192);
	__type(key, __u64);
	__type(value, __u32);
} ret_frames SEC(".maps");

/* bpf_loop step: word @i of the scratch; the first text word ends it. */
static long first_text_step(__u64 i, void *data)
{
	struct stack_words *sw;
	__u32 zero = 0;

	sw = bpf_map_lookup_elem(&scan_scratch, &zero);
	if (!sw || i >= SCAN_WORDS)
		return 1;
	if (!text_bit(sw->w[i]))
		return 0;
	*(__u64 *)data = i + 1;
	return 1;
}

/*
 * The words above @ctx into @sw, and where the first text word is, plus 1
 * (0: none, or unreadable). A loop the verifier walks once: unrolled, it
 * was walked again on every path to it (over its million instructions).
 */
static __always_inline __u64 first_text_word(void *ctx, struct stack_words *sw)
{
	__u64 first = 0;

	sw->first = 0;
	if (!text_hi || bpf_probe_read_kernel(sw->w, sizeof(sw->w), ctx))
		return 0;
	bpf_loop(SCAN_WORDS, first_text_step, &first, 0);
	sw->first = first;
	return first;
}

/*
 * A hash of the first @want return addresses above @ctx, walked by their
 * learnt distances (fewer where the walk leaves the words read: the same
 * at every wait at a site); 0 if the stack was not read or a distance is
 * not yet known (the words stay in the scratch for learn_frames()).
 */
static __always_inline __u64 return_addrs_hash(void *ctx, __s64 want)
{
	__u64 h = FNV_OFFSET, at, ret;
	struct stack_words *sw;
	__u32 zero = 0, *next;
	int i;

	sw = bpf_map_lookup_elem(&scan_scratch, &zero);
	if (!sw || !first_text_word(ctx, sw))
		return 0;
	at = sw->first - 1;
#pragma unroll
	for (i = 0; i < CONT_SITE_RETS; i++) {
		if (i >= want)
			break;
		barrier_var(at);
		/* The caller's is above the words read: the walk ends. */
		if (at >= SCAN_WORDS)
			break;
		ret = sw->w[at & (SCAN_WORDS - 1)];
		if (!text_bit(ret))
			return 0;
		h = fnv1a(h, ret);
		if (i + 1 >= want)
			break;
		next = bpf_map_lookup_elem(&ret_frames, &ret);
		if (!next)
			return 0;
		at += *next;
	}
	sw->first = 0;		/* nothing to learn */
	return h;
}

/* Learning: the frame of ips[j] was found at word @at. */
struct frame_learn {
	__u64 at;
	__u32 j;
};

/* ips[@j]'s caller's return address is @words above its own. */
static __always_inline void learn_frame(const struct lock_stack *st, __u32 j, __u32 words)
{
	__u64 ret = st->ips[j & (MMTOP_STACK_DEPTH - 1)];

	bpf_map_update_elem(&ret_frames, &ret, &words, BPF_ANY);
}

/* bpf_loop step: is ips[@j] the first return address's? 1 ends it. */
static long find_first_frame(__u64 j, void *data)
{
	struct frame_learn *l = data;
	struct stack_words *sw;
	struct lock_stack *st;
	__u64 at = l->at;
	__u32 zero = 0;

	sw = bpf_map_lookup_elem(&scan_scratch, &zero);
	st = bpf_map_lookup_elem(&stack_scratch, &zero);
	if (!sw || !st || j >= MMTOP_STACK_DEPTH || at >= SCAN_WORDS)
		return 1;
	if (st->ips[j & (MMTOP_STACK_DEPTH - 1)] != sw->w[at & (SCAN_WORDS - 1)])
		return 0;
	l->j = j;
	return 1;
}

/* bpf_loop step: word @i, if it is the caller's, is ips[j + 1]'s slot. */
static long learn_step(__u64 i, void *data)
{
	struct frame_learn *l = data;
	struct stack_words *sw;
	struct lock_stack *st;
	__u32 zero = 0, j = l->j;

	sw = bpf_map_lookup_elem(&scan_scratch, &zero);
	st = bpf_map_lookup_elem(&stack_scratch, &zero);
	if (!sw || !st || i >= SCAN_WORDS || j >= MMTOP_STACK_DEPTH - 1)
		return 1;
	if (i <= l->at || sw->w[i & (SCAN_WORDS - 1)] !=
			  st->ips[(j + 1) & (MMTOP_STACK_DEPTH - 1)])
		return 0;
	learn_frame(st, j, i - l->at);
	l->j++;
	l->at = i;
	return 0;
}

/*
 * The last return address found has a caller above the words read: its
 * distance leads past them, where a walk ends.
 */
static __always_inline void learn_beyond(const struct frame_learn *l)
{
	struct lock_stack *st;
	__u32 zero = 0, j = l->j;

	st = bpf_map_lookup_elem(&stack_scratch, &zero);
	if (!st || j >= MMTOP_STACK_DEPTH - 1 || l->at >= SCAN_WORDS ||
	    !st->ips[(j + 1) & (MMTOP_STACK_DEPTH - 1)])
		return;
	learn_frame(st, j, SCAN_WORDS - l->at);
}

/*
 * After a walk of return_addrs_hash() that failed, in the same program
 * run: with the full stack in stack_scratch (@taken), the distances
 * between the return addresses of both; the walk's words forgotten.
 */
static __always_inline void learn_frames(bool taken)
{
	struct frame_learn l = { .j = MMTOP_STACK_DEPTH };
	struct stack_words *sw;
	__u32 zero = 0;

	sw = bpf_map_lookup_elem(&scan_scratch, &zero);
	if (!sw || !sw->first)
		return;
	l.at = sw->first - 1;
	sw->first = 0;
	if (!taken)
		return;
	bpf_loop(MMTOP_STACK_DEPTH, find_first_frame, &l, 0);
	if (l.j >= MMTOP_STACK_DEPTH)
		return;
	bpf_loop(SCAN_WORDS, learn_step, &l, 0);
	learn_beyond(&l);
}

/*
 * The tracing glue between the function that took an mmap_lock and this
 * program, from /proc/kallsyms (hook_hi 0: unknown, and sites are found
 * by return_addrs_hash()): the trace hook
 * (__mmap_lock_do_trace_acquire_returned), whose return address is on the
 * stack on some paths and not on others (where it is left by a jump), and
 * the tracepoint's iterator (__traceiter_*), whose is there while another
 * program is on the tracepoint too (a second tracer). An acquisition's site
 * is the first return address above the program that is neither: the call
 * in the function that took the lock. Taking the first two text addresses
 * instead named the glue alone, the same at every site, whenever a second
 * tracer was on.
 */
const volatile __u64 hook_lo;
const volatile __u64 hook_hi;
const volatile __u64 iter_lo;
const volatile __u64 iter_hi;

/*
 * Where to read for the site's return address: the word, above the
 * tracepoint's arguments, one below where it was last found, plus 1 (0:
 * not yet found). The frames below it are the same at every acquisition
 * but for the hook's return address, missing where the hook is reached by
 * a jump (the fault path): the site is there or one word lower, until a
 * tracer comes or goes, and is read there, two words, not searched for.
 * An eight-word window, with the arguments' address from addr_of(), cost
 * some 85 ns per acquisition more (bpf_stats under bench churn: median 540
 * against 454 ns, 15 alternating runs each).
 */
__u64 site_window;

#define WINDOW_WORDS 2
#define WINDOW_BELOW 1	/* the hook's return address, absent after a jump */

struct site_find {
	__u64 at;		/* the arguments' address */
	__u64 site;
	__u64 site_at;
};

/* 1 if @a is a return address into the function that took the lock. */
static __always_inline __u64 site_bit(__u64 a)
{
	__u64 glue = (__u64)(a - hook_lo < hook_hi - hook_lo) |
		     (__u64)(a - iter_lo < iter_hi - iter_lo);

	return text_bit(a) & ~glue & 1;
}

/* bpf_loop step: word @i above the arguments; 1 ends the search. */
static long find_step(__u64 i, void *data)
{
	struct site_find *f = data;
	__u64 w;

	if (bpf_probe_read_kernel(&w, sizeof(w), (void *)(f->at + i * 8)))
		return 1;
	if (!site_bit(w))
		return 0;
	f->site = w;
	f->site_at = i;
	return 1;
}

/* Search the stack for the site, word by word; 0 if not found. */
static __always_inline __u64 find_site(void *ctx)
{
	struct site_find f = { .at = addr_of(ctx) };

	bpf_loop(SCAN_WORDS, find_step, &f, 0);
	if (!f.site)
		return 0;
	WRITE_ONCE(site_window, (f.site_at > WINDOW_BELOW ? f.site_at - WINDOW_BELOW : 0) + 1);
	return f.site;
}

/* The site in the window, as find_step() takes it: the lower word if it is one. */
static __always_inline __u64 window_site(const __u64 *w)
{
	if (site_bit(w[0]))
		return w[0];
	return site_bit(w[1]) ? w[1] : 0;
}

/* The site of an mmap_lock acquisition, as a hash of its return address. */
static __always_inline __u64 site_hash(void *ctx)
{
	__u64 at = READ_ONCE(site_window) - 1, w[WINDOW_WORDS], site = 0;

	if (!hook_hi)
		return return_addrs_hash(ctx, MMAP_SITE_RETS);
	/*
	 * The bound is checked on the very register that is added to the
	 * context pointer: clang would otherwise test at and add a copy of
	 * site_window, whose bounds the verifiers before 6.18 do not carry
	 * over ("math between ctx pointer and register with unbounded min
	 * value"). 0, not yet found, wraps above the bound.
	 */
	barrier_var(at);
	if (at < SCAN_WORDS &&
	    !bpf_probe_read_kernel(w, sizeof(w), (void *)(ctx_addr(ctx) + at * 8)))
		site = window_site(w);
	if (!site)
		site = find_site(ctx);
	return site ? fnv1a(FNV_OFFSET, site) : 0;
}

/* A hash of the whole current kernel stack, in @st; 0 if not taken. */
static __always_inline __u64 full_stack_hash(void *ctx, struct lock_stack *st)
{
	__u64 h = FNV_OFFSET;
	int i;

	if (bpf_get_stack(ctx, st->ips, sizeof(st->ips), 0) <= 0)
		return 0;
	/* bpf_get_stack() zeroes what it did not fill. */
#pragma unroll
	for (i = 0; i < MMTOP_STACK_DEPTH; i++)
		h = fnv1a(h, st->ips[i]);
	return h;
}

/*
 * The call site of the current lock operation, as a key for user space: @h,
 * a hash of its innermost return addresses (site_hash() or
 * return_addrs_hash(); 0: none found), with @syscall, the one the task is
 * in (exec's mmap calls and mmap(2) share their innermost frames). The full
 * stack of the first event with a key is stored under it, once; without
 * return addresses, the key is the full stack's hash. 0 if lost.
 */
static __always_inline __u64 stack_of(void *ctx, __u64 h, long syscall)
{
	__u64 full, *seen = NULL;
	__u32 zero = 0;
	struct lock_stack *st;
	struct site_cache *c;

	if (h) {
		h = fnv1a(h, syscall) | 1;	/* never 0 */
		c = bpf_map_lookup_elem(&site_cache, &zero);
		/*
		 * Indexed only once checked: the verifiers before 6.18 refuse
		 * arithmetic on a pointer that may be NULL.
		 */
		if (c) {
			seen = &c->key[h & (SITE_CACHE - 1)];
			if (*seen == h)
				return h;
		}
		if (bpf_map_lookup_elem(&lock_stacks, &h)) {
			if (seen)
				*seen = h;
			return h;
		}
	}
	st = bpf_map_lookup_elem(&stack_scratch, &zero);
	full = st ? full_stack_hash(ctx, st) : 0;
	learn_frames(full != 0);
	if (!full) {
		drop(BPF_DROP_STACK);
		return 0;
	}
	if (!h)
		h = full | 1;
	if (bpf_map_update_elem(&lock_stacks, &h, st, BPF_NOEXIST) &&
	    !bpf_map_lookup_elem(&lock_stacks, &h))
		drop(BPF_DROP_STACK);
	else if (seen)
		*seen = h;
	return h;
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
 * The tid of the writer that owns the rwsem (@owner, read only when the
 * count says a writer holds it: a request that waits anyway); 0 if none.
 */
static __always_inline __u32 writer_of(__u64 owner)
{
	if (!owner || (owner & RWSEM_READER_OWNED))
		return 0;
	return BPF_CORE_READ((struct task_struct *)(owner & ~RWSEM_OWNER_FLAGS), pid);
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
	__u64 stack;

	if (fork_on && own_write)
		fork_lock_acquired(mm, now, id);
	if (!stats_on)
		return;
	/* First: the verifier then walks it with one state, not one per path. */
	stack = stack_of(ctx, site_hash(ctx), id);
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
	t->wait_ns = t->start_ns ? now - t->start_ns : 0;
	t->write = write;
	t->holder_tgid = 0;
	/* dup_mmap() locks the child's mm too; /proc readers lock others'. */
	t->foreign = mm != own_mm;
	if (!success) {
		s = stats_of(bpf_get_current_pid_tgid() >> 32, t);
		if (s)
			s->failed++;
		free_slot(l, t);
		return;
	}
	if (t->wait_ns >= BLAME_MIN_WAIT_NS) {
		note_holder(mm, t);
		blame(t, bpf_get_current_pid_tgid() >> 32);
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

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, __u32);
	__type(value, struct cont_wait);
} cont_tasks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, 4096);
	__type(key, struct cont_key);
	__type(value, struct cont_stats);
} cont_stats SEC(".maps");

/* Zone and pcp lock addresses -> enum cont_class; see lock_addrs_collect. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 8192);
	__type(key, __u64);
	__type(value, __u32);
} lock_addrs SEC(".maps");

/*
 * The mm whose mmap_lock @lock is, if it is one: the current task's own,
 * or another process's (a /proc reader's, remote GUP's): an mm whose
 * owner task (memcg's mm->owner) points back to it, or one whose release
 * blame has recorded; 0 if neither (another lock). Probe reads: @lock may
 * be any rwsem, and what precedes it anything; a wait is rare.
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
	cls = bpf_map_lookup_elem(&lock_addrs, &lock);
	return cls ? *cls : CONT_STACK;
}

/* What the rwsem of an mmap_lock wait showed as it began (probe reads). */
struct rwsem_seen {
	__u64 count;
	__u64 owner;
};

static __always_inline void rwsem_look(__u64 lock, struct rwsem_seen *r)
{
	struct rw_semaphore *sem = (struct rw_semaphore *)lock;

	r->count = BPF_CORE_READ(sem, count.counter);
	r->owner = BPF_CORE_READ(sem, owner.counter);
}

/*
 * The default set's blame, as perf lock contention --lock-owner reads it:
 * whom a wait beginning on @r waits behind. A writer holding the lock is
 * its owner, exactly; a lock read-held names only the last reader in, a
 * hint (the kernel does not clear it as readers leave). The holder's name
 * is kept for user space, as a waiter's is.
 */
static __always_inline void owner_holder(struct cont_wait *w, const struct rwsem_seen *r)
{
	struct task_struct *task = (struct task_struct *)(r->owner & ~RWSEM_OWNER_FLAGS);
	bool reader = r->owner & RWSEM_READER_OWNED;
	char comm[MMTOP_COMM_LEN];
	__u32 tgid;

	if (!task)
		return;
	if (r->count & RWSEM_WRITER_LOCKED ? reader : !reader || !(r->count & RWSEM_READERS_MASK))
		return;
	if ((__u32)BPF_CORE_READ(task, pid) == (__u32)bpf_get_current_pid_tgid())
		return;
	tgid = BPF_CORE_READ(task, tgid);
	w->holder_tgid = tgid;
	w->holder_write = !reader;
	w->holder_hint = reader;
	if (bpf_map_lookup_elem(&lock_comms, &tgid))
		return;
	BPF_CORE_READ_STR_INTO(&comm, task, comm);
	bpf_map_update_elem(&lock_comms, &tgid, comm, BPF_NOEXIST);
}

/*
 * The record of a wait beginning now: the contention family's, and the
 * default set's for an mmap_lock wait (@mm; @r its rwsem).
 */
static __always_inline void cont_wait_begins(void *ctx, __u64 lock, __u32 flags,
					     __u64 mm, __u64 own_mm, __u64 now,
					     const struct rwsem_seen *r)
{
	__u32 zero = 0, tid = (__u32)bpf_get_current_pid_tgid();
	struct cont_wait *w, fresh = {};

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
		w = bpf_map_lookup_elem(&cont_tasks, &tid);
		/* A mutex's wait begins twice: spinning, then sleeping. */
		if (w && w->lock == lock)
			return;
		w = &fresh;
	}
	w->lock = lock;
	w->start_ns = now;
	w->flags = flags;
	w->stack = stack_of(ctx, return_addrs_hash(ctx, CONT_SITE_RETS), current_syscall());
	w->cls = cont_classify(lock, mm, own_mm, &w->tgid);
	w->mmap = mm && stats_on && !exact_on();
	if (w->mmap) {
		w->foreign = mm != own_mm;
		owner_holder(w, r);
	}
	if (w == &fresh && bpf_map_update_elem(&cont_tasks, &tid, w, BPF_ANY))
		drop(BPF_DROP_CONT_TASK);
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
		rwsem_look(lock, &r);
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
 * The default set: an mmap_lock wait of @wait ns ends now, in its row
 * (its process, call site, mode, own or other mm), its holder's blame row,
 * and a slow event if it was one.
 */
static __always_inline void mmap_wait_ends(const struct cont_wait *w, __u64 wait,
					   __u64 now)
{
	struct task_lock t = {
		.stack = w->stack, .wait_ns = wait,
		.write = !!(w->flags & LCB_F_WRITE), .foreign = w->foreign,
		.holder_tgid = w->holder_tgid, .holder_write = w->holder_write,
		.holder_hint = w->holder_hint,
	};
	struct lock_stats *s = stats_of(w->tgid, &t);

	if (s) {
		s->wait_ns += wait;
		if (wait > s->wait_max_ns)
			s->wait_max_ns = wait;
		s->wait_hist[log2_bucket(wait)]++;
	}
	blame(&t, w->tgid);
	if (wait >= slow_ns)
		slow_event(now, &t, 0);
}

static __always_inline void on_cont_end(__u64 lock)
{
	__u32 zero = 0, tid = (__u32)bpf_get_current_pid_tgid();
	struct cont_wait *w = bpf_map_lookup_elem(&cont_spin, &zero);
	static const struct cont_stats none;
	struct cont_key key = {};
	struct cont_stats *s;
	bool spin = w && w->lock == lock;
	__u64 now = bpf_ktime_get_ns(), wait;

	if (!spin) {
		w = bpf_map_lookup_elem(&cont_tasks, &tid);
		if (!w || w->lock != lock)
			return;
	}
	wait = now - w->start_ns;
	if (w->mmap)
		mmap_wait_ends(w, wait, now);
	key.stack = w->stack;
	key.tgid = w->tgid;
	key.cls = w->cls;
	key.flags = w->flags;
	s = cont_on ? get_or_create(&cont_stats, &key, &none, BPF_DROP_CONT_STATS) : NULL;
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
		};

		emit_event(now, &i);
	}
	if (spin)
		w->lock = 0;
	else
		bpf_map_delete_elem(&cont_tasks, &tid);
}

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
	w.stack = stack_of(ctx, return_addrs_hash(ctx, CONT_SITE_RETS), current_syscall());
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

TP_PAIR(sched_switch, contention_vma_sleep, vma_sleep_fn)
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
 * (task_newtask comes at its end). One program per fork, loaded only where
 * the kernel lets fentry attach (user space probes it); elsewhere forks
 * are timed in exact mode only, from dup_mmap()'s lock.
 */
SEC("fentry/kernel_clone")
int BPF_PROG(fork_clone, struct kernel_clone_args *args)
{
	__u64 mm = (__u64)bpf_get_current_task_btf()->mm;

	if (!(args->flags & FORK_CLONE_VM) && mm)
		fork_begins(current_syscall(), mm, bpf_ktime_get_ns(), 0);
	return 0;
}
TP_PAIR(sched_process_fork, fork_sched_fork, fork_sched_fork_fn)

/*
 * The parent's PMD-mapped (huge) memory, for a fork record's 4K/THP
 * backing, read without its mmap_lock and outside its fork: user space
 * runs this program (BPF_PROG_TEST_RUN) for each fork record it drains,
 * in its own context, with the mm and its identity (mm_ident()) from the
 * record. The walk reads the user part of the page tables down to the
 * PMDs (4 levels, bpf/arch.h): PMDs that map a block are huge mappings.
 * Page tables are reached through the direct map, whose base user space
 * found at start (fork_direct_map_find below) and wrote in direct_map.
 * Tables freed meanwhile read as garbage, never fault:
 * bpf_probe_read_kernel. The result lands in thp_walk.
 */
__u64 direct_map;	/* page_offset_base, once found; 0: unknown */

#define PT_ENTRIES 512
#define MAX_PMD_TABLES 4096		/* 4 TiB of address space */

struct pt_page {
	__u64 e[PT_ENTRIES];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 2);		/* a PUD table, a PMD table */
	__type(key, __u32);
	__type(value, struct pt_page);
} pt_scratch SEC(".maps");

struct thp_walk_result thp_walk;

/*
 * The walk's counters live in a map value, not on the stack: the verifier
 * tracks stack scalars exactly and would walk every count of the loops.
 */
struct walk_state {
	__u64 pgd;
	__s64 huge;
	__u32 tables;
	__u32 truncated;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct walk_state);
} walk_states SEC(".maps");

struct walk_ctx {
	struct pt_page *pud, *pmd;
	struct walk_state *st;
};

/* The page-table page an entry points to, read whole into @into. */
static __always_inline bool read_table(__u64 entry, struct pt_page *into)
{
	return !bpf_probe_read_kernel(into, sizeof(*into),
				      (void *)(direct_map + PT_ADDR(entry)));
}

static long count_huge(__u32 i, void *data)
{
	struct walk_ctx *w = data;
	__u64 e;

	if (i >= PT_ENTRIES)
		return 1;
	e = w->pmd->e[i];
	if (PT_BLOCK(e))
		w->st->huge++;
	return 0;
}

static long walk_pud(__u32 i, void *data)
{
	struct walk_ctx *w = data;
	__u64 e;

	if (i >= PT_ENTRIES)
		return 1;
	e = w->pud->e[i];
	/* Not present, or a 1 GiB page (hugetlb, DAX): no PMD table. */
	if (!PT_TABLE(e))
		return 0;
	if (++w->st->tables > MAX_PMD_TABLES) {
		w->st->truncated = 1;
		return 1;
	}
	if (read_table(e, w->pmd))
		bpf_loop(PT_ENTRIES, count_huge, w, 0);
	return 0;
}

static long walk_pgd(__u32 i, void *data)
{
	struct walk_ctx *w = data;
	__u64 e = 0;

	bpf_probe_read_kernel(&e, sizeof(e), (void *)(w->st->pgd + i * sizeof(e)));
	if (PT_TABLE(e) && read_table(e, w->pud))
		bpf_loop(PT_ENTRIES, walk_pud, w, 0);
	return w->st->truncated ? 1 : 0;
}

/*
 * @mm is still the parent's, with its page tables: the same identity (its
 * memory was not reused), and users left (exit_mmap() frees the tables
 * once the last is gone: a walk then reads freed pages as "no huge PMD").
 */
static __always_inline bool mm_live(struct mm_struct *mm, __u32 ident)
{
	return mm_ident(mm) == ident &&
	       BPF_CORE_READ(mm, mm_users.counter) > 0;
}

/* ctx: the mm and its identity, as the fork record carried them. */
SEC("raw_tp")
int fork_thp_walk(__u64 *ctx)
{
	struct mm_struct *mm = (struct mm_struct *)ctx[0];
	__u32 zero = 0, one = 1;
	struct walk_ctx w;

	thp_walk.huge_pmds = -1;
	w.pud = bpf_map_lookup_elem(&pt_scratch, &zero);
	w.pmd = bpf_map_lookup_elem(&pt_scratch, &one);
	w.st = bpf_map_lookup_elem(&walk_states, &zero);
	if (!direct_map || !w.pud || !w.pmd || !w.st)
		return 0;
	if (!mm_live(mm, ctx[1]))
		return 0;
	w.st->pgd = (__u64)BPF_CORE_READ(mm, pgd);
	w.st->huge = 0;
	w.st->tables = 0;
	w.st->truncated = 0;
	if (!w.st->pgd)
		return 0;
	bpf_loop(USER_PGD_ENTRIES, walk_pgd, &w, 0);
	/* Torn down meanwhile: what was read may be freed pages. */
	if (!mm_live(mm, ctx[1]))
		return 0;
	thp_walk.huge_pmds = w.st->huge;
	thp_walk.pmd_tables = w.st->tables;
	thp_walk.truncated = w.st->truncated;
	return 0;
}

/*
 * The direct map's base, found once at start: data symbols such as
 * page_offset_base are not in /proc/kallsyms, so user space writes a random
 * 16-byte mark into a page of its own, looks up its frame number in
 * /proc/self/pagemap, and this program tries the bases KASLR can choose
 * (1 GiB steps) in increasing order until the mark shows at base + frame *
 * page size. Lower candidates land below the direct map, where nothing is
 * mapped: no read ever reaches the vmalloc or ioremap areas above it.
 * ctx: frame, mark[2], first candidate, candidates to try.
 */
struct find_ctx {
	__u64 offset, mark0, mark1, base;
};

static long try_base(__u32 i, void *data)
{
	struct find_ctx *f = data;
	__u64 at = f->base + (__u64)i * (1ULL << 30) + f->offset, v[2] = {};

	if (bpf_probe_read_kernel(v, sizeof(v), (void *)at) ||
	    v[0] != f->mark0 || v[1] != f->mark1)
		return 0;
	direct_map = f->base + (__u64)i * (1ULL << 30);
	return 1;
}

SEC("raw_tp")
int fork_direct_map_find(__u64 *ctx)
{
	struct find_ctx f = {
		.offset = ctx[0] << 12, .mark0 = ctx[1], .mark1 = ctx[2],
		.base = ctx[3],
	};

	direct_map = 0;
	bpf_loop(ctx[4], try_base, &f, 0);
	return 0;
}
