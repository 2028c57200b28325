/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The model: one interval of mmtop's numbers as plain C data. The collector
 * (and later replay) produces snapshots; every sink (batch output, the
 * viewer, the recorder) consumes them. No libbpf or curses types here.
 */
#ifndef MMTOP_SNAPSHOT_H
#define MMTOP_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/*
 * The values of these enums are written into recordings (recfile.c): they
 * never change; a new one takes the next number, before __COUNT.
 */

/* Signals the collector can have on; a snapshot says which ones were. */
enum probe_id {
	PROBE_FAULTS_TP_BTF = 0,	/* fault counts via tp_btf/sched_switch */
	PROBE_FAULTS_RAW_TP = 1,	/* fault counts via raw_tp/sched_switch */
	PROBE_FAULTS_PERF = 2,	/* fault counts via perf software counters */
	PROBE_MMAP_LOCK_TP_BTF = 3,	/* mmap_lock waits/holds via tp_btf */
	PROBE_MMAP_LOCK_RAW_TP = 4,	/* mmap_lock waits/holds via raw_tp */
	PROBE_CONTENTION_TP_BTF = 5,	/* lock:contention_* via tp_btf */
	PROBE_CONTENTION_RAW_TP = 6,	/* lock:contention_* via raw_tp */
	PROBE_FORK_TP_BTF = 7,	/* fork cost via tp_btf */
	PROBE_FORK_RAW_TP = 8,	/* fork cost via raw_tp */
	PROBE_PCP_TP_BTF = 9,	/* PCP refills/drains via tp_btf */
	PROBE_PCP_RAW_TP = 10,	/* PCP refills/drains via raw_tp */
	PROBE__COUNT
};

/* Probe families: what --disable-probe names, and what can be n/a. */
enum probe_family {
	FAMILY_FAULTS = 0,
	FAMILY_MMAP_LOCK = 1,
	FAMILY_CONTENTION = 2,
	FAMILY_FORK = 3,
	FAMILY_PCP = 4,		/* opt-in: fires per page */
	FAMILY__COUNT
};

/* Things the collector lost or could not read; cumulative since start. */
enum drop_kind {
	DROP_FLUSH = 0,		/* the fault walk failed: counts arrive later */
	DROP_READ = 1,		/* a counter or map read failed: the interval misses it */
	DROP_PROC_FAULTS = 2,	/* fault maps full: a task's or process's faults lost */
	DROP_MMAP_LOCK_TASK = 3,	/* per-task lock state: no slot free */
	DROP_MMAP_LOCK_STATS = 4,	/* aggregation map full */
	DROP_MMAP_LOCK_STACK = 5,	/* kernel stack not taken: call site unknown */
	DROP_MMAP_LOCK_EVENTS = 6,	/* slow-event ring buffer full */
	DROP_CONT_TASK = 7,		/* per-task contention state map full */
	DROP_CONT_STATS = 8,	/* contention aggregation map full */
	DROP_CONT_NESTED = 9,	/* spin wait nested in another: not timed */
	DROP_FORK_TASK = 10,		/* fork start map full: a fork not timed */
	DROP_FORK_EVENTS = 11,	/* fork ring buffer full: a fork record lost */
	DROP_BLAME_HOLDERS = 12,	/* per-mm holder map full: a wait not attributed */
	DROP_BLAME_STATS = 13,	/* blame aggregation map full */
	DROP__COUNT
};

/* Which kernel path took the lock; see callsite.c for the rules. */
enum callsite {
	CALLSITE_FAULT = 0,		/* fault fell back to mmap_lock */
	CALLSITE_FAULT_ANON = 1,	/* VMA-locked fault setting up anon_vma */
	CALLSITE_MMAP = 2,
	CALLSITE_MUNMAP = 3,
	CALLSITE_MREMAP = 4,
	CALLSITE_MPROTECT = 5,
	CALLSITE_MADVISE = 6,
	CALLSITE_BRK = 7,
	CALLSITE_FORK = 8,
	CALLSITE_EXIT = 9,
	CALLSITE_EXEC = 10,
	CALLSITE_GUP = 11,
	CALLSITE_PROC = 12,
	CALLSITE_OTHER = 13,		/* see the row's symbol */
	CALLSITE_UNKNOWN = 14,	/* no stack */
	CALLSITE__COUNT
};

/* What a contended lock was (lock:contention_begin/end). */
enum cont_class {
	CONT_CLASS_OWN_MMAP = 0,	/* the waiting task's own mmap_lock */
	CONT_CLASS_OTHER_MMAP = 1,	/* another process's mmap_lock */
	CONT_CLASS_ZONE = 2,	/* zone->lock */
	CONT_CLASS_PCP = 3,		/* per_cpu_pages->lock */
	CONT_CLASS_VMA_WRITE = 4,	/* VMA write lock (rwsem kernels, 6.4-6.14) */
	CONT_CLASS_OTHER = 5,	/* see the row's caller */
	CONT_CLASS__COUNT
};

#define SNAPSHOT_HIST_BUCKETS 32
#define SNAPSHOT_COMM_LEN 16
#define SNAPSHOT_SYMBOL_LEN 64
#define SNAPSHOT_NA_LEN 256
/*
 * A cgroup (v2) path under the cgroup2 mount ("/" the root; "": none, or
 * a recording before 2.10); a longer one keeps its end, after "...".
 */
#define SNAPSHOT_CGROUP_LEN 192
/* Why the rows of a recording name no cgroup. */
#define CGROUPS_NOT_RECORDED "recorded before format 2.10"

/* log2 histogram of nanoseconds: bucket i counts [2^i, 2^(i+1)) ns. */
struct hist {
	uint64_t bucket[SNAPSHOT_HIST_BUCKETS];
};

/* mmap_lock of one process, from one call site, in one mode. */
struct lock_row {
	int pid;
	char comm[SNAPSHOT_COMM_LEN];
	bool write;
	bool foreign;			/* another process's mm (or a new child's) */
	enum callsite site;
	char symbol[SNAPSHOT_SYMBOL_LEN];	/* first non-plumbing frame */
	uint64_t site_addr;		/* its address; 0 unless --raw-addresses */
	uint64_t acquired;
	uint64_t failed;
	uint64_t holds;			/* acquisitions released */
	uint64_t wait_ns, hold_ns;	/* sums */
	uint64_t wait_max_ns, hold_max_ns;
	/* The maximum is a bound, not a wait seen: see interval_max(). */
	bool wait_max_bound, hold_max_bound;
	struct hist wait, hold;
	char cgroup[SNAPSHOT_CGROUP_LEN];	/* where it was as it took or waited */
};

/*
 * mmap_lock waits of one process from one call site, attributed to the
 * holder whose release let each wait through: the last to release the
 * lock after the wait began (for a read, the last writer).
 */
struct blame_row {
	int pid;
	char comm[SNAPSHOT_COMM_LEN];
	enum callsite site;
	char symbol[SNAPSHOT_SYMBOL_LEN];
	bool write;
	int holder_pid;			/* another process's when != pid; 0: none seen */
	char holder_comm[SNAPSHOT_COMM_LEN];
	enum callsite holder_site;
	char holder_symbol[SNAPSHOT_SYMBOL_LEN];
	bool holder_write;
	uint64_t count;
	uint64_t wait_ns, wait_max_ns;
	bool wait_max_bound;
	/* Where each was as the wait began (the waiter: as it ended); holder's "" if none seen. */
	char cgroup[SNAPSHOT_CGROUP_LEN];
	char holder_cgroup[SNAPSHOT_CGROUP_LEN];
};

/* Per-VMA lock outcome of one process. */
struct vma_row {
	int pid;
	char comm[SNAPSHOT_COMM_LEN];
	int64_t faults;			/* from /proc/PID/stat; -1: unknown */
	uint64_t fallbacks;		/* fault took mmap_lock (lock_mm_and_find_vma) */
	uint64_t anon;			/* VMA-locked fault took it for anon_vma */
};

/* Contended waits for one class of lock, from one caller. */
struct cont_row {
	enum cont_class cls;
	bool by_address;		/* classified by lock address, not stack */
	int pid;			/* mmap_lock classes; 0 for the others */
	char comm[SNAPSHOT_COMM_LEN];
	char caller[SNAPSHOT_SYMBOL_LEN];	/* first frame past the lock code */
	uint64_t site_addr;		/* its address; 0 unless --raw-addresses */
	char type[16];			/* spinlock, rwlock, rwsem, mutex, ... */
	char mode[8];			/* read or write; - for exclusive locks */
	uint64_t count;
	uint64_t wait_ns, wait_max_ns;
	bool wait_max_bound;
	struct hist wait;
};

/* One fork of a new mm (fork, vfork, clone or clone3 without CLONE_VM). */
struct fork_row {
	uint64_t wall_ns;
	int pid, tid, child;
	char comm[SNAPSHOT_COMM_LEN];
	char syscall[8];
	uint64_t latency_ns;		/* kernel_clone, or in exact mode dup_mmap's
					 * lock request (fork_method says which)
					 * -> sched_process_fork; 0: not timed */
	uint64_t dup_hold_ns;		/* parent's mmap_lock write hold (dup_mmap);
					 * exact mode only, else 0 */
	int64_t anon_kb, file_kb, shmem_kb;	/* parent RSS at fork time */
	int64_t thp_kb;			/* parent AnonHugePages; -1 unknown */
	uint32_t stalled;		/* siblings' mmap_lock acquisitions meanwhile */
};

/* Forks of an interval, summed; latencies of the timed ones. */
struct fork_agg {
	uint64_t count;
	uint64_t timed;
	uint64_t latency_ns, latency_max_ns;
	struct hist latency;
	/* Cost per MiB of parent RSS, parents mostly 4K- or THP-backed. */
	uint64_t ns_4k, kb_4k, ns_thp, kb_thp;
};

/* A wait or hold above the --slow threshold. */
struct slow_event {
	uint64_t wall_ns;
	int pid, tid, cpu;
	char comm[SNAPSHOT_COMM_LEN];
	bool contention;		/* a contended wait, not an mmap_lock event */
	enum cont_class cls;		/* for contention */
	bool write;
	bool foreign;
	enum callsite site;
	char symbol[SNAPSHOT_SYMBOL_LEN];
	uint64_t site_addr;		/* 0 unless --raw-addresses */
	uint64_t wait_ns;
	uint64_t hold_ns;		/* 0: a slow wait */
	/* read or write; - for a lock without modes (2.9; made from write for older recordings) */
	char mode[8];
	/* A slow mmap_lock wait: whom it waited behind (holder_pid 0: nobody seen). */
	int holder_pid;
	char holder_comm[SNAPSHOT_COMM_LEN];
	enum callsite holder_site;
	char holder_symbol[SNAPSHOT_SYMBOL_LEN];
	bool holder_write;
	/* A slow mmap_lock event: as blame_row's (2.10; "" before). */
	char cgroup[SNAPSHOT_CGROUP_LEN];
	char holder_cgroup[SNAPSHOT_CGROUP_LEN];
};

struct fault_counts {
	uint64_t min_flt;
	uint64_t maj_flt;
};

/* PCP list traffic: refills from and drains to the buddy allocator. */
struct pcp_counts {
	uint64_t refills, refill_pages;
	uint64_t drains, drain_pages;
	uint64_t buddy_pages;		/* taken under zone->lock, no list */
};

/* One zone's PCP traffic in the interval, all CPUs. */
struct zone_row {
	int node;
	char name[16];			/* DMA, DMA32, Normal, ...; ? if undecoded */
	struct pcp_counts pcp;
};

struct cpu_sample {
	bool online;
	int node;
	struct fault_counts faults;	/* during the interval */
	uint64_t fallbacks;		/* as in struct vma_row */
	uint64_t anon;
	struct pcp_counts pcp;		/* lists of this CPU, all zones */
};

struct node_sample {
	int nr_online;			/* CPUs of the node online at the end */
	struct fault_counts faults;
	uint64_t fallbacks;
	uint64_t anon;
	struct pcp_counts pcp;		/* zones of this node */
};

/* A growable array of rows owned by the snapshot. */
#define SNAPSHOT_ARRAY(type, name) \
	struct { type *v; int nr, cap; } name

struct snapshot {
	uint64_t seq;			/* 1 for the first interval */
	uint64_t wall_ns;		/* CLOCK_REALTIME at the end of the interval */
	uint64_t interval_ns;		/* measured length of the interval */
	uint32_t probes;		/* bitmask of 1 << enum probe_id */
	int nr_cpus;			/* possible CPUs */
	int nr_nodes;
	struct cpu_sample *cpus;
	struct node_sample *nodes;
	struct fault_counts total;
	uint64_t fallbacks, anon;	/* totals */
	uint64_t drops[DROP__COUNT];
	/* Why a family is off ("" when on): --disable-probe, or the error. */
	char na[FAMILY__COUNT][SNAPSHOT_NA_LEN];
	uint64_t slow_ns;		/* --slow threshold */
	/*
	 * The share of the interval, in parts per million, that exact mode
	 * was on: the programs run per mmap_lock acquisition attached
	 * (SAMPLE_EXACT: all of it; 0: the default set, whose mmap_lock rows
	 * hold waits alone). Between, the user turned it on or off within the
	 * interval, and the acquisition figures are of that part, never
	 * scaled. Recordings of mmtop 0.1's --budget hold the share of its
	 * sampling window: their figures were estimates, scaled to the
	 * interval (budget_ppm says so), or with throttled, what the window
	 * saw.
	 */
	uint32_t exact_ppm;
	uint32_t budget_ppm;		/* old recordings: their --budget; else 0 */
	bool over_budget;		/* old recordings: the smallest window cost more */
	bool throttled;			/* old recordings: a window closed early */
	/*
	 * mmtop's BPF programs in the interval, by the kernel's run-time
	 * statistics (bpf_measured: they were on), and the CPU the machine's
	 * work used (mmtop's own left out; 0: not known).
	 */
	bool bpf_measured;
	uint64_t bpf_runs, bpf_ns, busy_ns;
	/*
	 * The kernel memory mmtop's BPF maps held at the interval's end, by
	 * the kernel's own account (fdinfo memlock); 0: not known (replay).
	 */
	uint64_t bpf_map_bytes;
	/*
	 * Exact mode turned on or off in the interval (0: not): the CPU mmtop
	 * took to attach or detach its programs, plus, on each other online
	 * CPU, at most as long as that lasted (the kernel patches its text
	 * under IPIs to every CPU).
	 */
	uint64_t attach_ns;
	SNAPSHOT_ARRAY(struct lock_row, locks);
	SNAPSHOT_ARRAY(struct vma_row, vmas);
	SNAPSHOT_ARRAY(struct slow_event, events);
	SNAPSHOT_ARRAY(struct cont_row, conts);
	SNAPSHOT_ARRAY(struct fork_row, forks);
	SNAPSHOT_ARRAY(struct zone_row, zones);
	SNAPSHOT_ARRAY(struct blame_row, blame);
	/* How pages are put in zones: the page->flags layout used. */
	char pcp_method[SNAPSHOT_NA_LEN];
	/* How contended locks are told apart: address table or stacks. */
	char cont_method[SNAPSHOT_NA_LEN];
	/*
	 * How a fork parent's THP-backed memory is found, how forks are
	 * timed, why sibling stalls are n/a: three reasons, so twice the room.
	 */
	char fork_method[2 * SNAPSHOT_NA_LEN];
	/* Why the VMA-lock outcome is n/a though mmap_lock runs ("": it is
	 * not): the kernel has no per-VMA locks. See snapshot_vma_na(). */
	char vma_na[SNAPSHOT_NA_LEN];
	/* Why the default set sees no mmap_lock waits though exact mode
	 * can ("": it sees them): a kernel without lock:contention_begin
	 * (5.11-5.18). */
	char waits_na[SNAPSHOT_NA_LEN];
	/* Whom the default set blames an mmap_lock wait on, and how ("":
	 * not said: a recording older than 2.8, or mmap_lock off). */
	char holders[SNAPSHOT_NA_LEN];
	/* Why the rows name no cgroup ("": they do): a host without a
	 * cgroup2 mount, or a recording before 2.10. */
	char cgroups_na[SNAPSHOT_NA_LEN];
};

#define SAMPLE_EXACT 1000000u

/*
 * Why a per-acquisition figure (acquisitions, holds, the VMA-lock
 * outcome) is absent: the default set traces waits only.
 */
#define EXACT_MODE_ONLY "per acquisition: exact mode (--exact, or x in the viewer)"
/* Why the VMA-lock outcome is absent on a kernel without one: every fault took mmap_lock. */
#define NO_VMA_LOCKS "kernel without per-VMA locks"

/* Append a zeroed row to a SNAPSHOT_ARRAY; NULL when out of memory. */
#define snapshot_push(arr) \
	((arr)->nr < (arr)->cap || !snapshot_grow((void **)&(arr)->v, \
	 &(arr)->cap, sizeof(*(arr)->v)) ? \
	 memset(&(arr)->v[(arr)->nr++], 0, sizeof(*(arr)->v)) : NULL)
int snapshot_grow(void **v, int *cap, size_t size);
/* Deep copy into @dst, initialised for the same CPUs and nodes. */
int snapshot_copy(struct snapshot *dst, const struct snapshot *src);
/* Empty the row arrays (keeping their memory) before a new interval. */
void snapshot_clear_rows(struct snapshot *s);

int snapshot_init(struct snapshot *s, int nr_cpus, int nr_nodes);
void snapshot_free(struct snapshot *s);
/* Recompute per-node sums and the total from the per-CPU samples. */
void snapshot_sum(struct snapshot *s);
/* Events per second over the snapshot's interval. */
double snapshot_rate(const struct snapshot *s, uint64_t count);
uint64_t snapshot_drops(const struct snapshot *s);

const char *probe_name(enum probe_id id);
/* Active probe names joined by @sep, each wrapped in @quote. */
void probe_list(const struct snapshot *s, char *buf, size_t len,
		const char *sep, const char *quote);
const char *drop_name(enum drop_kind kind);
const char *family_name(enum probe_family f);
const char *callsite_name(enum callsite c);
const char *cont_class_name(enum cont_class c);
/*
 * Whether two mmap_lock rows are one row: same process, mode, own or
 * foreign mm and call site (sites classed other by their symbol). Rows of
 * one interval, merged intervals and the viewer's zoom all use this.
 */
bool lock_row_same(const struct lock_row *a, const struct lock_row *b);
/*
 * The waits of a row: its wait histogram past bucket 0. A wait took the
 * slow path, microseconds at least; bucket 0, under 2 ns, held only the
 * acquisitions that did not wait, in recordings before mmtop 0.2.
 */
uint64_t lock_row_waits(const struct lock_row *r);
/*
 * Sorts @n pointers to rows by the uint64_t at @offset in each, largest
 * first: every sink lists waits, blame pairs and forks that way
 * (ROWS_SORT_DESC names the field).
 */
void rows_sort_desc(const void **rows, size_t n, size_t offset);
#define ROWS_SORT_DESC(rows, n, type, field) \
	rows_sort_desc((const void **)(rows), (n), offsetof(type, field))
/* A slow event's mode: read, write, or - (a mutex, a spin lock; 2.9 on). */
/* Whether two blame rows are of the same pair (waiter and holder). */
bool blame_same(const struct blame_row *a, const struct blame_row *b);
/*
 * The holder of a blame row: its own process, another, or none seen (a
 * wait that began as the lock changed hands; its symbol BLAME_NONE_SEEN).
 */
enum blame_holder { BLAME_OWN, BLAME_FOREIGN, BLAME_NONE, BLAME__COUNT };
#define BLAME_NONE_SEEN "none seen (changing hands)"
enum blame_holder blame_holder_of(const struct blame_row *b);
extern const char *const blame_holder_names[BLAME__COUNT];
/*
 * Whether a wait of process @pid waited behind another process, @holder_pid
 * (0: nobody seen): the one test of blame rows and slow events both.
 */
bool holder_foreign(int pid, int holder_pid);
/* Whether the holder of a blame row is another process. */
bool blame_foreign(const struct blame_row *b);
/* Its holder's pid in words, into @buf: "-" where none was seen. */
const char *blame_holder_pid(const struct blame_row *b, char *buf, size_t len);
/* "mprotect", or for call sites classed other the symbol itself. */
const char *callsite_label(enum callsite site, const char *symbol);
/* Whether two call sites are one: same class and label. */
bool callsite_same(enum callsite a, const char *sym_a, enum callsite b, const char *sym_b);
void pcp_add(struct pcp_counts *sum, const struct pcp_counts *p);
/* Sum the interval's forks. */
void fork_agg(const struct snapshot *s, struct fork_agg *a);
/*
 * Why no fork of @s was timed, from its fork method ("forks timed in
 * exact mode only, ..."), for the sinks that would show none.
 */
const char *fork_untimed_why(const struct snapshot *s);
/* How fork_method says that forks' sibling stalls were not counted. */
#define FORK_STALLS_NA "sibling stalls n/a"
/* Whether @s's forks count their siblings' stalls (see FORK_STALLS_NA). */
bool fork_stalls_counted(const struct snapshot *s);
/* A fork's syscall: "-" where it was not timed (its start not seen). */
const char *fork_syscall(const struct fork_row *f);
/* Whether a fork was timed: its start was seen (see latency_ns). */
static inline bool fork_timed(const struct fork_row *f)
{
	return f->latency_ns != 0;
}
/* One line: how mmap_lock figures were taken (exact, or the share sampled). */
void snapshot_sampling_text(const struct snapshot *s, char *buf, size_t len);
/* One line: what mmtop's BPF programs cost in the interval. */
void snapshot_cost_text(const struct snapshot *s, char *buf, size_t len);
/*
 * Whether @s's acquisition figures cover part of the interval only: an
 * old recording's sampling window (estimates), or exact mode turned on or
 * off within it.
 */
static inline bool snapshot_sampled(const struct snapshot *s)
{
	return s->exact_ppm && s->exact_ppm < SAMPLE_EXACT;
}
/* Whether @s's acquisition figures are estimates: a recording of --budget. */
static inline bool snapshot_estimates(const struct snapshot *s)
{
	return snapshot_sampled(s) && s->budget_ppm && !s->throttled;
}
/* Whether @s counted acquisitions at all (exact mode, for some of it). */
static inline bool snapshot_acquisitions(const struct snapshot *s)
{
	return s->exact_ppm != 0;
}
/* Add @s's forks to @a. */
void fork_agg_add(struct fork_agg *a, const struct snapshot *s);
/*
 * A parent counts as THP-backed when at least half its anon RSS is; its
 * backing is unknown when it was gone before it could be looked at.
 */
const char *fork_backing(const struct fork_row *f);	/* "4k", "thp", "?" */
/*
 * The share of faults served under the VMA lock: 1 - (fallbacks + anon) /
 * faults, 0 at worst; -1 without faults.
 */
double vma_ok(uint64_t faults, uint64_t fallbacks, uint64_t anon);
/*
 * Why the VMA-lock outcome (fallbacks, anon, VMA-OK) is n/a: the mmap_lock
 * family's reason, or the kernel's lack of per-VMA locks; NULL if known.
 */
const char *snapshot_vma_na(const struct snapshot *s);
/* Nanoseconds of fork per MiB of parent RSS; 0 without RSS. */
double fork_cost_per_mib(uint64_t ns, uint64_t kb);
void hist_add(struct hist *sum, const struct hist *h);
/* Value below which fraction @q (0..1) of the histogram lies, capped at @max. */
uint64_t hist_quantile(const struct hist *h, double q, uint64_t max);
/*
 * Keep in @max the larger of it and @v, and in @bound whether the one kept
 * is only an upper bound (the top of the bucket that holds the largest
 * wait) rather than a wait seen; a wait seen wins a tie.
 */
void max_keep(uint64_t *max, bool *bound, uint64_t v, bool v_bound);
/* A maximum for people: "1.20ms", or "<=134.22ms" when it is a bound. */
const char *format_max(uint64_t ns, bool bound, char *buf, size_t len);

#endif
