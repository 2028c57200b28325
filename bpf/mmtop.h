/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Structures shared by the BPF programs and user space. Only fixed-width
 * types: both sides compile this header.
 */
#ifndef MMTOP_BPF_MMTOP_H
#define MMTOP_BPF_MMTOP_H

/* Per task (bpf/faults.bpf.c): its faults accounted so far. */
struct fault_mark {
	__u64 min_flt;
	__u64 maj_flt;
};

/*
 * Per-process fault counts, accounted with the per-CPU ones. Keyed by the
 * interval's epoch: user space runs the walk, flips proc_epoch and drains
 * the old epoch's keys (a program that read the epoch just before the flip
 * and writes after the drain leaves a key drained two reads later).
 */
struct proc_fault_key {
	__u32 tgid;
	__u32 epoch;		/* proc_epoch & 1 when written */
};

struct proc_fault {
	__u64 min_flt;
	__u64 maj_flt;
};

/* log2 histograms of nanoseconds: bucket i holds [2^i, 2^(i+1)) ns. */
#define MMTOP_HIST_BUCKETS 32
/* Kernel frames kept per call-site stack. */
#define MMTOP_STACK_DEPTH 16
#define MMTOP_COMM_LEN 16

/*
 * One aggregation row: a process taking mmap_lock from one kernel stack.
 * The default set's waits have rows of their own (waits), which are also
 * the contention family's rows of the mmap_lock classes (one map update a
 * wait, not two; lock_rows.c makes both).
 */
struct lock_key {
	__u64 stack;		/* hash of the kernel stack; 0: not taken */
	__u32 tgid;
	__u8 write;		/* 1: taken for write */
	__u8 foreign;		/* 1: another mm than the task's own */
	__u8 pad[2];
	__u64 cgroup;		/* the task's cgroup (v2 id) as it took or waited */
};

/* A kernel stack, innermost frame first, zero-padded. */
struct lock_stack {
	__u64 ips[MMTOP_STACK_DEPTH];
};

struct lock_stats {
	__u64 acquired;		/* successful acquisitions */
	__u64 failed;		/* trylock failed or killable wait interrupted */
	__u64 wait_ns;		/* start_locking -> acquire_returned */
	__u64 wait_max_ns;
	__u64 holds;		/* acquisitions released */
	__u64 hold_ns;		/* acquire_returned -> released */
	__u64 hold_max_ns;
	__u64 wait_hist[MMTOP_HIST_BUCKETS];
	__u64 hold_hist[MMTOP_HIST_BUCKETS];
};

enum lock_kind {
	LOCK_KIND_MMAP_LOCK = 1,	/* from the mmap_lock tracepoints */
	LOCK_KIND_CONTENTION,		/* from lock:contention_begin/end */
};

/*
 * What a contended lock is, as far as the kernel side can tell: the
 * task's own mmap_lock, a mmap_lock another mm's (the task is waiting for
 * it through the mmap_lock tracepoints), or an address from the table of
 * zone and pcp locks. CONT_STACK: user space decides from the stack.
 */
enum bpf_cont_class {
	CONT_STACK,
	CONT_OWN_MMAP,
	CONT_OTHER_MMAP,
	CONT_ZONE,
	CONT_PCP,
};

/* Contention rows: class, kernel stack, lock flavour (LCB_F_* flags). */
struct cont_key {
	__u64 stack;
	__u32 tgid;		/* for the mmap_lock classes; else 0 */
	__u16 cls;		/* enum bpf_cont_class */
	__u16 flags;		/* contention_begin's LCB_F_*, or CONT_F_SLEEP */
};

/* contention_begin's flags (include/trace/events/lock.h; macros, not in BTF). */
#define LCB_F_SPIN	(1U << 0)
#define LCB_F_READ	(1U << 1)
#define LCB_F_WRITE	(1U << 2)
#define LCB_F_RT	(1U << 3)
#define LCB_F_PERCPU	(1U << 4)
#define LCB_F_MUTEX	(1U << 5)
/* Not a kernel flag: a D-state sleep of a VMA write-lock waiter. */
#define CONT_F_SLEEP	(1U << 15)

struct cont_stats {
	__u64 count;
	__u64 wait_ns;
	__u64 wait_max_ns;
	__u64 wait_hist[MMTOP_HIST_BUCKETS];
};

/*
 * Who an mmap_lock wait waited behind. By default, the rwsem's owner as
 * the wait began: a writer exactly, for a read-held lock the last reader
 * in (a hint). In exact mode, the holder whose release let it through.
 * Keys start with stack and tgid like the others (user space's map walk
 * reads them so).
 */
/*
 * A holder's call site known by its syscall alone (the default set reads
 * a writer's as a wait begins, where no release names it): an even key,
 * where a stored stack's (stack_of()) is odd.
 */
#define SYSCALL_SITE(nr)	(((__u64)(nr) + 1) << 1)
#define SITE_IS_SYSCALL(key)	((key) && !((key) & 1))
#define SITE_SYSCALL(key)	((long)((key) >> 1) - 1)

struct blame_key {
	__u64 stack;		/* the waiter's call site */
	__u32 tgid;		/* the waiter's process */
	__u32 holder_tgid;
	__u64 holder_stack;	/* the holder's call site; 0: not known */
	__u8 write;		/* the waiter's mode */
	__u8 holder_write;
	__u8 holder_hint;	/* enum holder_hint */
	__u8 foreign;		/* the waiter's: 1, another mm than its own */
	/*
	 * 1: the default set's, whose waits are its mmap_lock rows' too (user
	 * space sums them by process, site, mode, mm and cgroup): one row
	 * updated per wait, not two.
	 */
	__u8 waits;
	__u8 pad[3];
	__u64 cgroup;		/* the waiter's cgroup (v2 id) as it waited */
	__u64 holder_cgroup;	/* the holder's as the wait saw it; 0: none seen */
};

/*
 * What a blame row's holder is: the holder exactly (a writer owning the
 * lock, or the release that let the wait through), the last reader in
 * (readers may have left), or nobody seen: a wait that began as the lock
 * changed hands (its owner cleared by a writer letting go, or naming the
 * waiter itself, the last reader in, while a writer queued or stole the
 * lock), kept so that every wait is in a row.
 */
enum holder_hint {
	HOLDER_EXACT,
	HOLDER_LAST_READER,
	HOLDER_NONE_SEEN,
};

/* Ring-buffer record for a wait or hold above the slow threshold. */
struct lock_event {
	__u64 ts_ns;		/* CLOCK_MONOTONIC (bpf_ktime_get_ns) */
	__u64 wait_ns;
	__u64 hold_ns;		/* 0: the event is a slow wait */
	__u32 pid;
	__u32 tid;
	__u32 cpu;
	__u32 pad0;
	__u64 stack;
	__u8 kind;		/* enum lock_kind */
	__u8 write;
	__u8 foreign;
	__u8 cls;		/* enum bpf_cont_class, for LOCK_KIND_CONTENTION */
	__u8 holder_write;	/* slow mmap_lock waits: whom they waited behind */
	__u8 holder_hint;	/* as blame_key's */
	__u8 lock_flags;	/* contention_begin's LCB_F_*, for LOCK_KIND_CONTENTION */
	__u8 pad;
	__u32 holder_tgid;	/* 0: no holder seen */
	__u32 pad1;
	__u64 holder_stack;
	__u64 cgroup;		/* as blame_key's */
	__u64 holder_cgroup;
	char comm[MMTOP_COMM_LEN];
};

/* One fork/clone of a new mm (not CLONE_VM), sent through fork_events. */
struct fork_event {
	__u64 ts_ns;		/* CLOCK_MONOTONIC at the end */
	__u64 latency_ns;	/* kernel_clone (fentry), else dup_mmap's lock request -> sched_process_fork */
	__u64 dup_hold_ns;	/* exact mode: dup_mmap()'s write hold; 0: not seen */
	__s64 rss_file;		/* pages, from the mm counters at fork time */
	__s64 rss_anon;
	__s64 rss_shmem;
	__u32 pid;
	__u32 tid;
	__u32 child;
	__u32 stalled;		/* siblings' mmap_lock acquisitions begun meanwhile */
	__u32 syscall;		/* syscall number */
	__u32 mm_ident;		/* the parent mm's identity (core_fixes.bpf.h): for the backing walk */
	/*
	 * 1: a new process whose memory was not copied (vfork, posix_spawn,
	 * CLONE_VM): only pid and child are set, for following a process
	 * tree (spawns_on); not a fork of memory, and not shown.
	 */
	__u32 spawn;
	__u64 mm;
	char comm[MMTOP_COMM_LEN];
};

/*
 * A parent with less anonymous and shmem memory than one PMD (2 MiB on
 * x86_64) cannot have it PMD-mapped: its fork is 4K-backed without a walk
 * of its page tables, and its record need not be read while it lives.
 */
#define FORK_WALK_MIN_PAGES 512

/*
 * A parent's page-table walk serves its forks within this of it: BPF
 * wakes the reader for a parent's first fork in it, user space reuses the
 * walk for the rest (thp_walk.c).
 */
#define FORK_WALK_REUSE_NS 1000000000ULL

/* What fork_thp_walk found in a parent's page tables. */
struct thp_walk_result {
	__s64 huge_pmds;	/* present PMDs mapping 2 MiB; -1: not walked */
	__u32 pmd_tables;
	__u32 truncated;	/* stopped at MAX_PMD_TABLES */
};

/*
 * NUMA nodes and zones the BPF tables have room for (zone and pcp lock
 * addresses, PCP counts); a page of a node beyond is counted as undecoded.
 */
#define MMTOP_MAX_NODES 64
#define MMTOP_MAX_ZONES 8

/*
 * PCP traffic per CPU and zone (bpf/pcp.bpf.c). Zones are indexed
 * node * MMTOP_MAX_ZONES + zone; the last slot takes pages whose zone
 * could not be decoded.
 */
#define PCP_SLOTS (MMTOP_MAX_NODES * MMTOP_MAX_ZONES + 1)

struct pcp_stats {
	__u64 refills;		/* rmqueue_bulk calls: bursts of refill pages */
	__u64 refill_pages;
	__u64 drains;		/* free_pcppages_bulk calls: bursts of drained pages */
	__u64 drain_pages;
	__u64 buddy_pages;	/* taken under zone->lock bypassing the lists */
};

/*
 * Exact mode: mmap_lock acquisitions of page faults, per CPU (the per-VMA
 * lock's misses), by the function that took the lock: a fault's
 * (FAULT_LOCK_FAULT) or an anonymous fault's preparation
 * (FAULT_LOCK_ANON). At most FAULT_FUNCS such functions.
 */
enum fault_lock { FAULT_LOCK_FAULT, FAULT_LOCK_ANON };
#define FAULT_FUNCS 4

struct fault_locks {
	__u64 acquired[2];	/* by enum fault_lock */
};

/* The steps of a wait make bench can leave out (MMTOP_BENCH_SKIP). */
enum bench_skip {
	SKIP_OWNER = 1 << 0,	/* the rwsem's owner and the holder's name */
	SKIP_SITE = 1 << 1,	/* the waiter's call site */
	SKIP_ROWS = 1 << 2,	/* the rows, blame and contention, at the end */
	SKIP_SLOT = 1 << 3,	/* the wait's record (and so all of the above) */
};

/* Slots of the cache of named processes (bpf/lock_common.bpf.h). */
#define NAMED_SLOTS 1024
/* Slots of the cache of stored stacks' keys (bpf/lock_common.bpf.h). */
#define SITE_CACHE 256

/* What the BPF side could not record. */
enum bpf_drop {
	BPF_DROP_TASK_FULL,	/* per-task lock state: no slot, or no storage */
	BPF_DROP_STATS_FULL,	/* aggregation map full */
	BPF_DROP_STACK,		/* stack not taken or not stored */
	BPF_DROP_RINGBUF,	/* slow-event ring buffer full */
	BPF_DROP_CONT_TASK,	/* per-task contention state map full */
	BPF_DROP_CONT_STATS,	/* contention aggregation map full */
	BPF_DROP_CONT_NESTED,	/* spin contention nested in spin contention */
	BPF_DROP_FORK_TASK,	/* fork start map full */
	BPF_DROP_FORK_EVENTS,	/* fork ring buffer full */
	BPF_DROP_HOLDERS,	/* per-mm release record: no room (blame) */
	BPF_DROP_BLAME,		/* blame aggregation map full */
	BPF_DROP__COUNT
};

#endif
