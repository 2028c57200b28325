// SPDX-License-Identifier: GPL-2.0
/*
 * Opening the lock object, the lock address table, stacks, slow events and
 * drops. The BPF maps are cumulative; lock_rows.c and cont_rows.c keep the
 * previous value of every key and turn the growth into interval rows.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "callsite.h"
#include "kernel_has.h"
#include "lock_progs.h"
#include "lock_source_impl.h"
#include "prog_probe.h"
#include "proc.h"
#include "util.h"

_Static_assert(MMTOP_HIST_BUCKETS == SNAPSHOT_HIST_BUCKETS, "histogram sizes");
_Static_assert(MMTOP_COMM_LEN == SNAPSHOT_COMM_LEN, "comm sizes");

struct open_arg {
	const struct lock_source_opts *opts;
	const struct kernel_has *kernel;
	const struct ksyms *ksyms;
	bool no_walk;		/* the backing walk refused: leave it out */
	bool no_exact;		/* exact mode's programs refused: likewise */
	enum clone_hook clone_hook;	/* forks timed from kernel_clone: by which program */
	bool no_release;	/* contended_release lacking or refused */
	unsigned int dropped;	/* lock_progs done without: 1 << index */
};

/*
 * Rows each aggregation map holds (lock_stats, blame_stats, cont_stats):
 * one copy of a row, shared by the CPUs, preallocated, so a map's memory
 * is rows x (key + value + the kernel's element header), whatever the CPU
 * count. In the default set rows are made by waits alone: a 5000-fork
 * storm made a few hundred. Exact mode makes one per process and call
 * site; rows of processes that are gone are deleted at each read, and a
 * full map counts its drops.
 */
#define ROWS 4096u

static void size_rows(struct locks_bpf *skel)
{
	bpf_map__set_max_entries(skel->maps.lock_stats, ROWS);
	bpf_map__set_max_entries(skel->maps.lock_comms, ROWS);
	bpf_map__set_max_entries(skel->maps.blame_stats, ROWS);
	bpf_map__set_max_entries(skel->maps.cont_stats, ROWS);
}

/*
 * The functions whose mmap_lock acquisitions are faults' (callsite.c's
 * rules), for exact mode's per-CPU count of them.
 */
static void fault_funcs(struct locks_bpf *skel, const struct ksyms *ksyms)
{
	enum callsite site;
	const char *name;
	int i, n = 0;

	for (i = 0; (name = callsite_fault_func(i, &site)) && n < FAULT_FUNCS; i++) {
		__u64 lo = ksyms_addr(ksyms, name), hi = ksyms_end(ksyms, name);

		if (!lo || hi <= lo)
			continue;
		skel->rodata->fault_lo[n] = lo;
		skel->rodata->fault_hi[n] = hi;
		if (site == CALLSITE_FAULT_ANON)
			skel->rodata->fault_anon |= 1u << n;
		n++;
	}
}

/* The tracing glue above an mmap_lock acquisition's site (bpf/lock_sites.bpf.h). */
#define MMAP_LOCK_HOOK "__mmap_lock_do_trace_acquire_returned"
#define MMAP_LOCK_ITER "__traceiter_mmap_lock_acquire_returned"

/* The families @o has on, as 1 << FAMILY_*. */
static unsigned int families_on(const struct lock_source_opts *o)
{
	return (o->mmap_lock ? MMAP : 0) | (o->contention ? CONT : 0) | (o->fork ? FORK : 0);
}

/* The families @o has on that use program @p (0: it is not loaded). */
static unsigned int families_of(const struct lock_prog *p, const struct lock_source_opts *o)
{
	if ((p->option == OPT_SPIN_WAITS && !o->spin_waits) ||
	    (p->option == OPT_VMA_WAITS && !o->vma_waits))
		return 0;
	return p->families & families_on(o);
}

/* Whether @p is lost: left out after a refusal or a missing tracepoint. */
static bool prog_gone(const struct lock_prog *p, const struct open_arg *a)
{
	switch (p->loss) {
	case LOSS_WALK:
		return a->no_walk;
	case LOSS_RELEASE:
		return a->no_release;
	case LOSS_CLONE:
		return a->clone_hook != p->clone;
	case LOSS_EXACT:
		return a->no_exact;
	case LOSS_FAMILIES:
		break;
	}
	return a->dropped & 1u << (p - lock_progs);
}

/* Whether the kernel lacks the tracepoint of @prog. */
static bool tracepoint_missing(const struct kernel_has *k, const struct bpf_program *prog)
{
	const char *tp = tp_object_tracepoint(prog);

	return tp && kernel_has_tp(k, tp) < 0;
}

/*
 * MMTOP_BENCH_SKIP: the steps of the default set's wait that make bench
 * leaves out to measure each (owner, site, rows, slot: enum bench_skip).
 */
static __u32 bench_skip(void)
{
	static const struct {
		const char *name;
		__u32 bit;
	} steps[] = {
		{ "owner", SKIP_OWNER }, { "site", SKIP_SITE },
		{ "rows", SKIP_ROWS }, { "slot", SKIP_SLOT },
	};
	__u32 skip = 0;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(steps); i++)
		if (env_list_has("MMTOP_BENCH_SKIP", steps[i].name))
			skip |= steps[i].bit;
	return skip;
}

static void *skel_open(void *arg, struct bpf_object **obj)
{
	const struct open_arg *a = arg;
	struct locks_bpf *skel = locks_bpf__open();
	struct bpf_program *prog;
	bool task_storage = false, vma_sleeps = false;

	if (!skel)
		return NULL;
	skel->rodata->slow_ns = a->opts->slow_ns;
	skel->rodata->memcg_path_arg = a->kernel->mmap_lock_memcg_path;
	skel->rodata->nr_nodes = a->opts->nr_nodes;
	skel->rodata->stats_on = a->opts->mmap_lock;
	skel->rodata->fork_on = a->opts->fork;
	skel->rodata->cont_on = a->opts->contention;
	skel->rodata->spin_waits = a->opts->spin_waits;
	skel->rodata->spawns_on = a->opts->pids && a->opts->pids->tree;
	skel->rodata->bench_skip = bench_skip();
	/* Call sites are told apart by return addresses into kernel text. */
	skel->rodata->text_lo = ksyms_addr(a->ksyms, "_stext");
	skel->rodata->text_hi = ksyms_addr(a->ksyms, "_etext");
	if (skel->rodata->text_lo >= skel->rodata->text_hi)
		skel->rodata->text_hi = 0;
	/* An mmap_lock site is the first return address past the glue. */
	skel->rodata->hook_lo = ksyms_addr(a->ksyms, MMAP_LOCK_HOOK);
	skel->rodata->hook_hi = ksyms_end(a->ksyms, MMAP_LOCK_HOOK);
	skel->rodata->iter_lo = ksyms_addr(a->ksyms, MMAP_LOCK_ITER);
	skel->rodata->iter_hi = ksyms_end(a->ksyms, MMAP_LOCK_ITER);
	if (!skel->rodata->text_hi || skel->rodata->hook_lo >= skel->rodata->hook_hi ||
	    skel->rodata->iter_lo >= skel->rodata->iter_hi)
		skel->rodata->hook_hi = 0;
	/* The site cache has room for every stack the map can hold. */
	bpf_map__set_max_entries(skel->maps.lock_stacks, SITES_MAX);
	size_rows(skel);
	fault_funcs(skel, a->ksyms);
	/*
	 * A family left off: its programs are not even loaded; nor those of
	 * tracepoints the kernel lacks. Task storage, which older kernels
	 * lack, is made only for the programs that keep it; the VMA sleeps'
	 * map only for --vma-waits.
	 */
	bpf_object__for_each_program(prog, skel->obj) {
		const struct lock_prog *p = lock_prog_of(skel, prog);
		bool load;

		if (!p) {
			fprintf(stderr, "mmtop: program %s is not in lock_progs\n",
				bpf_program__name(prog));
			locks_bpf__destroy(skel);
			return NULL;
		}
		load = families_of(p, a->opts) && !prog_gone(p, a) &&
		       !tracepoint_missing(a->kernel, prog);
		bpf_program__set_autoload(prog, load);
		task_storage |= load && p->task_storage;
		vma_sleeps |= load && p->option == OPT_VMA_WAITS;
		skel->rodata->released_on |= load && p->loss == LOSS_RELEASE;
		/* Exact mode's: attached by lock_source_exact() alone. */
		if (p->exact)
			bpf_program__set_autoattach(prog, false);
	}
	bpf_map__set_autocreate(skel->maps.lock_tasks, task_storage);
	bpf_map__set_autocreate(skel->maps.cont_tasks, task_storage);
	bpf_map__set_autocreate(skel->maps.write_sleeps, vma_sleeps);
	*obj = skel->obj;
	return skel;
}

TP_OBJECT_SKEL_OPS(locks, skel_open);

/* How VMA write-lock waits show; @on: --vma-waits. */
static const char *vma_wait_method(enum vma_lock kind, bool on)
{
	static const char *const how[] = {
		[VMA_LOCK_UNKNOWN] = "n/a (no BTF)",
		[VMA_LOCK_NONE] = "n/a (" NO_VMA_LOCKS ")",
		[VMA_LOCK_RWSEM] = "rwsem contention in vma_start_write",
		[VMA_LOCK_REFCNT] = "D-state sleeps of mmap_lock write holders",
	};

	if (kind == VMA_LOCK_REFCNT && !on)
		return "off (--vma-waits: a program on every context switch)";
	return how[kind];
}

/* Lock family @f (mmap_lock, contention, fork)'s option in @o. */
static bool *family_opt(struct lock_source_opts *o, int f)
{
	return f == FAMILY_MMAP_LOCK ? &o->mmap_lock : f == FAMILY_CONTENTION ? &o->contention :
	       &o->fork;
}

/*
 * Run the address-table collector on every CPU, then count what it found
 * and tell the programs the range its addresses lie in.
 */
static void build_addr_table(struct lock_source *ls)
{
	int fd = bpf_program__fd(ls->skel->progs.lock_addrs_collect);
	int map = bpf_map__fd(ls->skel->maps.lock_addrs), cpu;
	__u64 key, *cur = NULL, lo = UINT64_MAX, hi = 0;
	__u32 cls;

	for (cpu = 0; cpu < ls->nr_cpus; cpu++) {
		LIBBPF_OPTS(bpf_test_run_opts, opts,
			    .flags = BPF_F_TEST_RUN_ON_CPU, .cpu = cpu);

		bpf_prog_test_run_opts(fd, &opts);	/* offline CPUs fail */
	}
	while (!bpf_map_get_next_key(map, cur, &key)) {
		cur = &key;
		if (bpf_map_lookup_elem(map, &key, &cls))
			continue;
		ls->nr_zone_locks += cls == CONT_ZONE;
		ls->nr_pcp_locks += cls == CONT_PCP;
		lo = key < lo ? key : lo;
		hi = key > hi ? key : hi;
	}
	if (lo > hi)
		return;
	/*
	 * The highest first: a wait in between sees a range too large (a
	 * lookup more), never one too small.
	 */
	__atomic_store_n(&ls->skel->bss->lock_addr_hi, hi, __ATOMIC_SEQ_CST);
	__atomic_store_n(&ls->skel->bss->lock_addr_lo, lo, __ATOMIC_SEQ_CST);
}

/*
 * kernel_clone's program @p is lost (@why): the kprobe takes over from an
 * fentry program that loaded in kernel_has.c but will not attach, where
 * the kernel makes kprobes; else forks go untimed in the default set.
 */
static void clone_lost(struct lock_source *ls, struct open_arg *arg, const struct lock_prog *p,
		       const char *why)
{
	if (p->clone == CLONE_FENTRY && arg->kernel->kprobes) {
		arg->clone_hook = CLONE_KPROBE;
		snprintf(ls->fork_timing, sizeof(ls->fork_timing),
			 "forks timed from kernel_clone (kprobe; fentry, %.100s)", why);
		return;
	}
	arg->clone_hook = CLONE_NONE;
	snprintf(ls->fork_timing, sizeof(ls->fork_timing), FORKS_EXACT_ONLY " (%.100s)", why);
}

/*
 * Program @p is lost, the kernel refused it or lacks its tracepoint
 * (@why): what is lost without it goes, each in its words (@p->loss); a
 * family that only uses it does without it (a fork's sibling stalls are
 * waits: ls->stalls_na; mmap_lock without lock:contention_begin/end, on
 * 5.11-5.18, has no waits in the default set: ls->waits_na, and its
 * waits, acquisitions and holds are exact mode's, each wait from the
 * request).
 */
static void prog_lost(struct lock_source *ls, struct open_arg *arg, const struct lock_prog *p,
		      const char *why, char (*refused)[SNAPSHOT_NA_LEN])
{
	unsigned int uses = families_of(p, &ls->opts);
	int f;

	switch (p->loss) {
	case LOSS_WALK:
		arg->no_walk = true;
		snprintf(ls->walk_refused, sizeof(ls->walk_refused), "n/a (%s)", why);
		return;
	case LOSS_RELEASE:
		arg->no_release = true;
		snprintf(ls->holders, sizeof(ls->holders), "%s (%.100s)", OWNER_HOLDERS, why);
		return;
	case LOSS_CLONE:
		clone_lost(ls, arg, p, why);
		return;
	case LOSS_EXACT:
		arg->no_exact = true;
		snprintf(ls->exact_refused, sizeof(ls->exact_refused), "%s", why);
		return;
	case LOSS_FAMILIES:
		break;
	}
	arg->dropped |= 1u << (p - lock_progs);
	if ((uses & FORK) && !(p->needs & FORK))
		snprintf(ls->stalls_na, sizeof(ls->stalls_na), FORK_STALLS_NA " (%s)", why);
	if ((uses & MMAP) && !(p->needs & MMAP) && !ls->waits_na[0])
		snprintf(ls->waits_na, sizeof(ls->waits_na), "%s", why);
	for (f = 0; f < FAMILY__COUNT; f++) {
		if (!(uses & p->needs & 1u << f))
			continue;
		snprintf(refused[f], SNAPSHOT_NA_LEN, "%s", why);
		*family_opt(&ls->opts, f) = false;
	}
}

/*
 * mmap_lock without the default set's waits: exact mode's, from the
 * request (spin_waits loads mmap_lock_start), or n/a where exact mode
 * is lost too.
 */
static void settle_waits(struct lock_source *ls, const struct open_arg *arg,
			 char (*refused)[SNAPSHOT_NA_LEN])
{
	if (!ls->opts.mmap_lock || !ls->waits_na[0])
		return;
	if (arg->no_exact) {
		snprintf(refused[FAMILY_MMAP_LOCK], SNAPSHOT_NA_LEN, "%s", ls->exact_refused);
		ls->opts.mmap_lock = false;
		return;
	}
	ls->opts.spin_waits = true;
}

static bool lock_families_on(const struct lock_source *ls)
{
	return families_on(&ls->opts) != 0;
}

/*
 * What the kernel lacks, before loading: each program whose tracepoint
 * the kernel does not have is lost, naming it.
 */
static void note_missing(struct lock_source *ls, const struct kernel_has *k,
			 struct open_arg *arg, char (*refused)[SNAPSHOT_NA_LEN])
{
	struct locks_bpf *skel = locks_bpf__open();
	struct bpf_program *prog;
	char why[128];

	if (!skel || !k->btf) {
		locks_bpf__destroy(skel);
		return;
	}
	bpf_object__for_each_program(prog, skel->obj) {
		const struct lock_prog *p = lock_prog_of(skel, prog);

		if (!p || !families_of(p, &ls->opts) || !tracepoint_missing(k, prog))
			continue;
		kernel_tp_missing(tp_object_tracepoint(prog), why, sizeof(why));
		prog_lost(ls, arg, p, why, refused);
	}
	locks_bpf__destroy(skel);
	settle_waits(ls, arg, refused);
}

/*
 * Load the object. A program the kernel refuses is lost as a missing
 * tracepoint's is (prog_lost(), the verifier's words in @err), and the
 * object is loaded again without it; -1 when nothing is left, or when
 * the failure is not a refusal of one program.
 */
static int open_object(struct lock_source *ls, const struct btf *btf,
		       struct open_arg *arg, char (*refused)[SNAPSHOT_NA_LEN],
		       char *err, size_t errlen)
{
	const struct lock_prog *p;

	while (tp_object_open(&ls->tp, &locks_ops, ls->opts.attach, btf, arg, err, errlen)) {
		p = lock_prog_named(ls->tp.refused);
		if (!p || !families_of(p, &ls->opts) || prog_gone(p, arg))
			return -1;
		prog_lost(ls, arg, p, err, refused);
		settle_waits(ls, arg, refused);
		if (!lock_families_on(ls))
			return -1;
	}
	return 0;
}

static int on_event(void *ctx, void *data, size_t size);

struct lock_source *lock_source_open(const struct lock_source_opts *opts,
				     int nr_cpus, char (*refused)[SNAPSHOT_NA_LEN],
				     char *err, size_t errlen)
{
	struct lock_source *ls = calloc(1, sizeof(*ls));
	const struct kernel_has *k = opts->kernel;
	struct open_arg arg;
	int ret;

	if (!ls) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	/* Families the kernel refuses are taken off ls->opts as it opens. */
	ls->opts = *opts;
	arg = (struct open_arg){
		.opts = &ls->opts, .kernel = k, .ksyms = &ls->ksyms,
		.clone_hook = opts->fork ? k->clone_hook : CLONE_NONE,
	};
	snprintf(ls->fork_timing, sizeof(ls->fork_timing), "%s", k->clone_how);
	ls->opts.kernel = NULL;	/* the collector's, gone once it is open */
	ls->nr_cpus = nr_cpus;
	ls->nr_possible = libbpf_num_possible_cpus();
	ls->fault_now = calloc(ls->nr_possible, sizeof(*ls->fault_now));
	ls->fault_prev = calloc(ls->nr_possible, sizeof(*ls->fault_prev));
	delta_table_init(&ls->lock_prev, sizeof(struct lock_key), sizeof(struct lock_prev));
	delta_table_init(&ls->cont_prev, sizeof(struct cont_key),
			 sizeof(struct cont_prev));
	delta_table_init(&ls->blame_prev, sizeof(struct blame_key),
			 sizeof(struct cont_prev));
	ret = ksyms_load_end(opts->ksyms, &ls->ksyms);
	if (ret == -ENODATA) {
		snprintf(err, errlen, "/proc/kallsyms shows no addresses: call sites need CAP_SYSLOG (run as root)");
		goto fail;
	}
	if (ret) {
		snprintf(err, errlen, "/proc/kallsyms: %s (call sites need it)",
			 strerror(-ret));
		goto fail;
	}
	note_missing(ls, k, &arg, refused);
	/* The backing walk loops with bpf_loop() (thp_walk.c). */
	if (opts->fork && k->btf && !k->bpf_loop) {
		arg.no_walk = true;
		snprintf(ls->walk_refused, sizeof(ls->walk_refused),
			 "n/a (the page-table walk needs the bpf_loop helper, Linux 5.17+)");
	}
	if (!lock_families_on(ls)) {
		snprintf(err, errlen, "%s", refused[FAMILY_MMAP_LOCK]);
		goto fail;
	}
	if (cgroup_names_init(&ls->cgroups, opts->cgroup, err, errlen))
		goto fail;
	if (map_walk_init(&ls->walk, &map_reader_bpf, sizeof(struct lock_stats)) ||
	    !ls->fault_now || !ls->fault_prev ||
	    site_cache_init(&ls->sites, &ls->ksyms, opts->raw_addresses) ||
	    open_object(ls, k->btf, &arg, refused, err, errlen))
		goto fail;
	ls->skel = ls->tp.skel;
	ls->sites.stacks = ls->skel->maps.lock_stacks;
	ls->sites.bpf_keys = ls->skel->bss->site_keys;
	ls->rb = ring_buffer__new(bpf_map__fd(ls->skel->maps.lock_events),
				  on_event, ls, NULL);
	if (!ls->rb) {
		snprintf(err, errlen, "ring buffer: %s", strerror(errno));
		goto fail;
	}
	if (ls->opts.contention)
		build_addr_table(ls);
	ls->thp_method = "n/a (needs the fork probes)";
	if (ls->opts.fork) {
		/* Without the walk (direct_map stays 0) the backing is unknown. */
		if (ls->walk_refused[0])
			ls->thp_method = ls->walk_refused;
		else
			thp_walk_init(ls);
		ret = fork_reader_start(ls);
		if (ret) {
			snprintf(err, errlen, "fork records' reader: %s", strerror(-ret));
			goto fail;
		}
	}
	if (!ls->holders[0])
		snprintf(ls->holders, sizeof(ls->holders), "%s", RELEASE_HOLDERS);
	ls->clone_hook = arg.clone_hook;
	ls->vma_lock = k->vma_lock;
	ls->vma_waits = ls->opts.mmap_lock ? vma_wait_method(ls->vma_lock, ls->opts.vma_waits) :
			"n/a (needs the mmap_lock probes)";
	return ls;
fail:
	lock_source_close(ls);
	return NULL;
}

bool lock_source_exact_on(const struct lock_source *ls)
{
	return __atomic_load_n(&ls->skel->bss->exact_seq, __ATOMIC_SEQ_CST) & 1;
}

/*
 * The sequence turns odd once the programs are attached and even before
 * they are detached: slots filled in one turn are stale in the next.
 */
int lock_source_exact(struct lock_source *ls, bool on, char *err, size_t errlen)
{
	__u64 seq = __atomic_load_n(&ls->skel->bss->exact_seq, __ATOMIC_SEQ_CST);

	if (!ls->opts.mmap_lock && !ls->opts.fork) {
		snprintf(err, errlen, "needs the mmap_lock or fork probes");
		return -1;
	}
	if (ls->exact_refused[0]) {
		snprintf(err, errlen, "%s", ls->exact_refused);
		return -1;
	}
	if (lock_source_exact_on(ls) == on)
		return 0;
	if (on && tp_object_hook(&ls->tp, lock_prog_exact, true, err, errlen))
		return -1;
	__atomic_store_n(&ls->skel->bss->exact_seq, seq + 1, __ATOMIC_SEQ_CST);
	if (!on)
		tp_object_hook(&ls->tp, lock_prog_exact, false, err, errlen);
	return 0;
}

void lock_source_cost(struct lock_source *ls, bool exact, struct prog_cost *c)
{
	tp_object_cost(&ls->tp, exact ? lock_prog_exact : NULL, c);
}

enum clone_hook lock_source_clone_hook(const struct lock_source *ls)
{
	return ls->clone_hook;
}

uint32_t lock_source_probes(const struct lock_source *ls)
{
	uint32_t p = 0;

	if (ls->opts.mmap_lock)
		p |= 1u << (ls->tp.btf ? PROBE_MMAP_LOCK_TP_BTF : PROBE_MMAP_LOCK_RAW_TP);
	if (ls->opts.contention)
		p |= 1u << (ls->tp.btf ? PROBE_CONTENTION_TP_BTF : PROBE_CONTENTION_RAW_TP);
	if (ls->opts.fork)
		p |= 1u << (ls->tp.btf ? PROBE_FORK_TP_BTF : PROBE_FORK_RAW_TP);
	return p;
}

_Static_assert(sizeof(struct lock_key) <= MAP_WALK_MAX_KEY &&
	       sizeof(struct cont_key) <= MAP_WALK_MAX_KEY &&
	       sizeof(struct blame_key) <= MAP_WALK_MAX_KEY, "map keys");

static int on_event(void *ctx, void *data, size_t size)
{
	struct lock_source *ls = ctx;
	const struct lock_event *e = data;
	const struct site *site;
	struct slow_event *ev;
	bool by_address;

	if (size < sizeof(*e) || !cgroup_wanted(&ls->cgroups, e->cgroup))
		return 0;
	ev = snapshot_push(&ls->events);
	if (!ev)
		return 0;
	site = site_of(&ls->sites, e->stack);
	ev->wall_ns = wall_of_mono_ns(e->ts_ns);
	ev->pid = e->pid;
	ev->tid = e->tid;
	ev->cpu = e->cpu;
	comm_copy(ev->comm, e->comm);
	cgroup_name_of(&ls->cgroups, e->cgroup, ev->cgroup, sizeof(ev->cgroup));
	ev->write = e->write;
	ev->foreign = e->foreign;
	ev->wait_ns = e->wait_ns;
	ev->hold_ns = e->hold_ns;
	ev->contention = e->kind == LOCK_KIND_CONTENTION;
	snprintf(ev->mode, sizeof(ev->mode), "%s",
		 ev->contention ? lock_mode(e->lock_flags) : e->write ? "write" : "read");
	if (ev->contention) {
		ev->cls = cont_class_of(e->cls, site, &by_address);
		memcpy(ev->symbol, site->caller, sizeof(ev->symbol));
		ev->site_addr = site->caller_addr;
	} else {
		ev->site = site->site;
		memcpy(ev->symbol, site->symbol, sizeof(ev->symbol));
		ev->site_addr = site->addr;
	}
	if (e->holder_tgid) {
		site = holder_site_of(&ls->sites, e->holder_stack, e->holder_hint);
		ev->holder_pid = e->holder_tgid;
		comm_of(ls->skel->maps.lock_comms, ev->holder_pid, ev->holder_comm);
		ev->holder_site = site->site;
		memcpy(ev->holder_symbol, site->symbol, sizeof(ev->holder_symbol));
		ev->holder_write = e->holder_write;
		cgroup_name_of(&ls->cgroups, e->holder_cgroup, ev->holder_cgroup,
			       sizeof(ev->holder_cgroup));
	}
	return 0;
}

static void read_drops(struct lock_source *ls, uint64_t *drops)
{
	static const enum drop_kind map[BPF_DROP__COUNT] = {
		[BPF_DROP_TASK_FULL] = DROP_MMAP_LOCK_TASK,
		[BPF_DROP_STATS_FULL] = DROP_MMAP_LOCK_STATS,
		[BPF_DROP_STACK] = DROP_MMAP_LOCK_STACK,
		[BPF_DROP_RINGBUF] = DROP_MMAP_LOCK_EVENTS,
		[BPF_DROP_CONT_TASK] = DROP_CONT_TASK,
		[BPF_DROP_CONT_STATS] = DROP_CONT_STATS,
		[BPF_DROP_CONT_NESTED] = DROP_CONT_NESTED,
		[BPF_DROP_FORK_TASK] = DROP_FORK_TASK,
		[BPF_DROP_FORK_EVENTS] = DROP_FORK_EVENTS,
		[BPF_DROP_HOLDERS] = DROP_BLAME_HOLDERS,
		[BPF_DROP_BLAME] = DROP_BLAME_STATS,
	};
	__u32 k;

	for (k = 0; k < BPF_DROP__COUNT; k++)
		drops[map[k]] = __atomic_load_n(&ls->skel->bss->lock_drops[k], __ATOMIC_RELAXED);
}

void lock_source_describe(const struct lock_source *ls, char *buf, size_t len)
{
	char table[96];

	if (!ls->opts.contention) {
		buf[0] = '\0';
		return;
	}
	if (ls->nr_zone_locks)
		snprintf(table, sizeof(table), "address table (%d zone locks, %d pcp locks)",
			 ls->nr_zone_locks, ls->nr_pcp_locks);
	else
		snprintf(table, sizeof(table), "stack (no address table: memory cgroup not reachable)");
	snprintf(buf, len, "%s; mmap_lock by mm; else stack; VMA write waits: %s",
		 table, ls->vma_waits);
}

void lock_source_poll(struct lock_source *ls)
{
	ring_buffer__consume(ls->rb);
}

int lock_source_fd(const struct lock_source *ls)
{
	return ring_buffer__epoll_fd(ls->rb);
}

/* After the forks: a process tree's new children are in the filter. */
static void move_events(struct lock_source *ls, struct snapshot *s)
{
	int i;

	for (i = 0; i < ls->events.nr; i++) {
		struct slow_event *e;

		if (!pid_filter_has(ls->opts.pids, ls->events.v[i].pid))
			continue;
		e = snapshot_push(&s->events);
		if (e)
			*e = ls->events.v[i];
	}
	ls->events.nr = 0;
}

/* The name gone, then its slot in BPF's cache of named processes. */
static void forget_name(struct lock_source *ls, uint32_t tgid)
{
	__u32 *slot = &ls->skel->bss->named_tgids[tgid & (NAMED_SLOTS - 1)], was = tgid;

	bpf_map__delete_elem(ls->skel->maps.lock_comms, &tgid, sizeof(tgid), 0);
	__atomic_compare_exchange_n(slot, &was, 0, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
}

/*
 * The names of processes found gone go one read later, so that their last
 * rows in every map keep their names: a row whose process was alive when
 * the walk checked it, before the process was found gone further on, may
 * grow once more by what the process did between the read and its exit
 * (exit_mmap takes mmap_lock), and show in the next read. Forgotten at
 * once, such a row was named '?', now and then.
 */
static void forget_gone(struct lock_source *ls)
{
	int i;

	for (i = 0; i < ls->gone_last.nr; i++)
		forget_name(ls, ls->gone_last.v[i]);
	ls->gone_last.nr = 0;
	for (i = 0; i < ls->walk.gone.nr; i++) {
		uint32_t *g = snapshot_push(&ls->gone_last);

		if (g)
			*g = ls->walk.gone.v[i];
		else
			forget_name(ls, ls->walk.gone.v[i]);
	}
	ls->walk.gone.nr = 0;
}

void lock_source_read(struct lock_source *ls, struct snapshot *s, uint64_t *drops)
{
	int n;

	cgroup_names_read(&ls->cgroups);
	lock_source_poll(ls);
	/* Forks first: the filter grows by them (see pid_filter.h). */
	fork_reader_drain(ls, s);
	move_events(ls, s);
	if (ls->opts.mmap_lock) {
		lock_rows_read(ls, s, drops);
		blame_rows_read(ls, s, drops);
	}
	if (ls->opts.contention)
		cont_rows_read(ls, s, drops);
	forget_gone(ls);
	sites_forget_idle(&ls->sites);
	read_drops(ls, drops);
	lock_source_describe(ls, s->cont_method, sizeof(s->cont_method));
	/*
	 * Every fault takes mmap_lock: there is no outcome to show. Where
	 * there is, it is counted per acquisition: exact mode's.
	 */
	snprintf(s->vma_na, sizeof(s->vma_na), "%s",
		 ls->vma_lock == VMA_LOCK_NONE ? NO_VMA_LOCKS :
		 !lock_source_exact_on(ls) ? EXACT_MODE_ONLY : "");
	if (ls->opts.mmap_lock) {
		snprintf(s->waits_na, sizeof(s->waits_na), "%s", ls->waits_na);
		snprintf(s->holders, sizeof(s->holders), "%s", ls->holders);
		snprintf(s->cgroups_na, sizeof(s->cgroups_na), "%s",
			 ls->cgroups.mount ? "" : CGROUPS_NO_MOUNT);
	}
	n = snprintf(s->fork_method, sizeof(s->fork_method), "%s; %s", ls->thp_method,
		     ls->fork_timing);
	if (ls->stalls_na[0] && n > 0 && (size_t)n < sizeof(s->fork_method))
		snprintf(s->fork_method + n, sizeof(s->fork_method) - n, "; %s", ls->stalls_na);
}

void lock_source_close(struct lock_source *ls)
{
	if (!ls)
		return;
	fork_reader_stop(ls);
	ring_buffer__free(ls->rb);
	tp_object_close(&ls->tp);
	delta_table_free(&ls->lock_prev);
	delta_table_free(&ls->cont_prev);
	delta_table_free(&ls->blame_prev);
	free(ls->lock_index.slot);
	free(ls->fault_now);
	free(ls->fault_prev);
	map_walk_free(&ls->walk);
	free(ls->gone_last.v);
	site_cache_free(&ls->sites);
	cgroup_names_free(&ls->cgroups);
	free(ls->events.v);
	free(ls->forks.v);
	free(ls->spawns.v);
	ksyms_free(&ls->ksyms);
	free(ls);
}
