// SPDX-License-Identifier: GPL-2.0
/*
 * The BPF maps are cumulative; this keeps the previous value of every
 * aggregation key and turns the growth into interval rows. Stacks are
 * classified once per stack id (ids are stable: no BPF_F_REUSE_STACKID).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpf/btf.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/types.h>

#include "callsite.h"
#include "ksyms.h"
#include "lock_source.h"
#include "mmap_lock.skel.h"
#include "mmtop.h"
#include "proc.h"
#include "util.h"

_Static_assert(MMTOP_HIST_BUCKETS == SNAPSHOT_HIST_BUCKETS, "histogram sizes");
_Static_assert(MMTOP_COMM_LEN == SNAPSHOT_COMM_LEN, "comm sizes");

#define SITES_MAX 8192		/* lock_stacks max_entries */

struct site {
	uint64_t stack;			/* 0: free slot */
	enum callsite site;
	char symbol[SNAPSHOT_SYMBOL_LEN];
};

/* Previous cumulative value of one aggregation key. */
struct prev {
	bool used;
	struct lock_key key;
	struct lock_stats sum;		/* over CPUs */
	uint64_t *cpu_acquired;		/* per CPU */
};

struct lock_source {
	struct tp_object tp;
	struct mmap_lock_bpf *skel;
	struct ring_buffer *rb;
	struct ksyms ksyms;
	struct site *sites;		/* open addressing, SITES_MAX * 2 slots */
	struct prev *prev;
	int prev_cap, prev_used;
	struct lock_stats *percpu;	/* lookup buffer, one per possible CPU */
	int nr_possible, nr_cpus;
	struct snapshot *cur;		/* for the ring-buffer callback */
	struct lock_source_opts opts;
};

struct open_arg {
	uint64_t slow_ns;
	bool memcg_path_arg;
};

static void *skel_open(void *arg, struct bpf_object **obj)
{
	const struct open_arg *a = arg;
	struct mmap_lock_bpf *skel = mmap_lock_bpf__open();

	if (!skel)
		return NULL;
	skel->rodata->slow_ns = a->slow_ns;
	skel->rodata->memcg_path_arg = a->memcg_path_arg;
	*obj = skel->obj;
	return skel;
}

static int mmap_lock_load(void *skel)
{
	return mmap_lock_bpf__load(skel);
}

static void skel_destroy(void *skel)
{
	mmap_lock_bpf__destroy(skel);
}

static const struct tp_object_ops skel_ops = {
	.open = skel_open,
	.load = mmap_lock_load,
	.destroy = skel_destroy,
};

/* Before 6.14, mmap_lock events carried memcg_path before write. */
static bool has_memcg_path_arg(void)
{
	struct btf *btf = btf__load_vmlinux_btf();
	const struct btf_type *t;
	bool old = false;
	int id;

	if (!btf)
		return false;
	id = btf__find_by_name_kind(btf, "btf_trace_mmap_lock_start_locking",
				    BTF_KIND_TYPEDEF);
	t = id > 0 ? btf__type_by_id(btf, id) : NULL;
	t = t ? btf__type_by_id(btf, t->type) : NULL;	/* pointer */
	t = t ? btf__type_by_id(btf, t->type) : NULL;	/* prototype */
	/* (void *data, mm, memcg_path, write) vs (void *data, mm, write) */
	if (t && btf_is_func_proto(t))
		old = btf_vlen(t) == 4;
	btf__free(btf);
	return old;
}

static int on_event(void *ctx, void *data, size_t size);

struct lock_source *lock_source_open(const struct lock_source_opts *opts,
				     int nr_cpus, char *err, size_t errlen)
{
	struct lock_source *ls = calloc(1, sizeof(*ls));
	struct open_arg arg = { opts->slow_ns, has_memcg_path_arg() };
	int ret;

	if (!ls) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	ls->opts = *opts;
	ls->nr_cpus = nr_cpus;
	ls->nr_possible = libbpf_num_possible_cpus();
	ls->percpu = calloc(ls->nr_possible, sizeof(*ls->percpu));
	ls->sites = calloc(2 * SITES_MAX, sizeof(*ls->sites));
	ret = ksyms_load(&ls->ksyms, "/proc/kallsyms");
	if (ret) {
		snprintf(err, errlen, "/proc/kallsyms: %s (call sites need it)",
			 strerror(-ret));
		goto fail;
	}
	if (!ls->percpu || !ls->sites || tp_object_open(&ls->tp, &skel_ops, opts->attach, &arg,
					  err, errlen))
		goto fail;
	ls->skel = ls->tp.skel;
	ls->rb = ring_buffer__new(bpf_map__fd(ls->skel->maps.lock_events),
				  on_event, ls, NULL);
	if (!ls->rb) {
		snprintf(err, errlen, "ring buffer: %s", strerror(errno));
		goto fail;
	}
	return ls;
fail:
	lock_source_close(ls);
	return NULL;
}

enum probe_id lock_source_probe(const struct lock_source *ls)
{
	return ls->tp.btf ? PROBE_MMAP_LOCK_TP_BTF : PROBE_MMAP_LOCK_RAW_TP;
}

static bool wanted(const struct lock_source *ls, int pid)
{
	int i;

	for (i = 0; i < ls->opts.nr_pids; i++)
		if (ls->opts.pids[i] == pid)
			return true;
	return ls->opts.nr_pids == 0;
}

/* The call site of a stack hash; classified once, then cached. */
static const struct site *site_of(struct lock_source *ls, uint64_t stack)
{
	static const struct site unknown = { 0, CALLSITE_UNKNOWN, "" };
	const size_t mask = 2 * SITES_MAX - 1;
	struct lock_stack st;
	struct site *s;
	size_t i;

	if (!stack)
		return &unknown;
	for (i = stack & mask; ls->sites[i].stack; i = (i + 1) & mask)
		if (ls->sites[i].stack == stack)
			return &ls->sites[i];
	if (bpf_map__lookup_elem(ls->skel->maps.lock_stacks, &stack,
				 sizeof(stack), &st, sizeof(st), 0))
		return &unknown;
	/* Never full: the BPF map holds at most SITES_MAX stacks. */
	s = &ls->sites[i];
	s->stack = stack;
	s->site = callsite_classify(&ls->ksyms, (uint64_t *)st.ips,
				    MMTOP_STACK_DEPTH, s->symbol,
				    sizeof(s->symbol));
	return s;
}

static void comm_of(struct lock_source *ls, int pid, char *comm)
{
	__u32 key = pid;

	if (!bpf_map__lookup_elem(ls->skel->maps.lock_comms, &key, sizeof(key),
				  comm, SNAPSHOT_COMM_LEN, 0))
		return;
	if (proc_read_comm(pid, comm, SNAPSHOT_COMM_LEN))
		snprintf(comm, SNAPSHOT_COMM_LEN, "?");
}

static int on_event(void *ctx, void *data, size_t size)
{
	struct lock_source *ls = ctx;
	const struct lock_event *e = data;
	struct slow_event *ev;
	const struct site *site;
	uint64_t offset;

	if (size < sizeof(*e) || !wanted(ls, e->pid))
		return 0;
	ev = snapshot_push(&ls->cur->events);
	if (!ev)
		return 0;
	offset = clock_ns(CLOCK_REALTIME) - clock_ns(CLOCK_MONOTONIC);
	site = site_of(ls, e->stack);
	ev->wall_ns = e->ts_ns + offset;
	ev->pid = e->pid;
	ev->tid = e->tid;
	ev->cpu = e->cpu;
	memcpy(ev->comm, e->comm, sizeof(ev->comm));
	ev->comm[sizeof(ev->comm) - 1] = '\0';
	ev->write = e->write;
	ev->foreign = e->foreign;
	ev->site = site->site;
	memcpy(ev->symbol, site->symbol, sizeof(ev->symbol));
	ev->wait_ns = e->wait_ns;
	ev->hold_ns = e->hold_ns;
	return 0;
}

static uint64_t key_hash(const struct lock_key *k)
{
	uint64_t h = (k->stack ^ k->tgid) * 0x9E3779B97F4A7C15ULL;

	return h ^ (k->write | k->foreign << 1) ^ (h >> 29);
}

static int prev_grow(struct lock_source *ls);

/* The previous-value slot of @key, created zeroed if new; NULL on ENOMEM. */
static struct prev *prev_of(struct lock_source *ls, const struct lock_key *key)
{
	size_t i;

	if ((ls->prev_used + 1) * 2 > ls->prev_cap && prev_grow(ls))
		return NULL;
	for (i = key_hash(key) & (ls->prev_cap - 1);; i = (i + 1) & (ls->prev_cap - 1)) {
		struct prev *p = &ls->prev[i];

		if (p->used && !memcmp(&p->key, key, sizeof(*key)))
			return p;
		if (p->used)
			continue;
		p->cpu_acquired = calloc(ls->nr_possible, sizeof(uint64_t));
		if (!p->cpu_acquired)
			return NULL;
		p->used = true;
		p->key = *key;
		ls->prev_used++;
		return p;
	}
}

static int prev_grow(struct lock_source *ls)
{
	int old_cap = ls->prev_cap, i;
	struct prev *old = ls->prev;

	ls->prev_cap = old_cap ? old_cap * 2 : 256;
	ls->prev = calloc(ls->prev_cap, sizeof(*ls->prev));
	if (!ls->prev) {
		ls->prev = old;
		ls->prev_cap = old_cap;
		return -ENOMEM;
	}
	ls->prev_used = 0;
	for (i = 0; i < old_cap; i++) {
		struct prev *p;
		size_t j;

		if (!old[i].used)
			continue;
		for (j = key_hash(&old[i].key) & (ls->prev_cap - 1); ls->prev[j].used;
		     j = (j + 1) & (ls->prev_cap - 1))
			;
		p = &ls->prev[j];
		*p = old[i];
		ls->prev_used++;
	}
	free(old);
	return 0;
}

/* The row for (pid, mode, call site) in @s, created if new. */
static struct lock_row *row_of(struct lock_source *ls, struct snapshot *s,
			       const struct lock_key *key, const struct site *site)
{
	struct lock_row *r;
	int i;

	for (i = 0; i < s->locks.nr; i++) {
		r = &s->locks.v[i];
		if (r->pid == (int)key->tgid && r->write == !!key->write &&
		    r->foreign == !!key->foreign &&
		    r->site == site->site &&
		    (site->site != CALLSITE_OTHER || !strcmp(r->symbol, site->symbol)))
			return r;
	}
	r = snapshot_push(&s->locks);
	if (!r)
		return NULL;
	r->pid = key->tgid;
	r->write = key->write;
	r->foreign = key->foreign;
	r->site = site->site;
	memcpy(r->symbol, site->symbol, sizeof(r->symbol));
	comm_of(ls, r->pid, r->comm);
	return r;
}

static uint64_t grow(uint64_t now, uint64_t before)
{
	return now >= before ? now - before : 0;
}

/*
 * The largest value in this interval: the cumulative maximum if it rose,
 * else at most the top of the highest non-empty bucket of the interval.
 */
static uint64_t interval_max(uint64_t max, uint64_t prev_max, const struct hist *h)
{
	int i;

	if (max > prev_max)
		return max;
	for (i = SNAPSHOT_HIST_BUCKETS - 1; i >= 0; i--)
		if (h->bucket[i])
			return (2ULL << i) - 1 < max ? (2ULL << i) - 1 : max;
	return 0;
}

static void add_delta(struct lock_row *r, const struct lock_stats *now,
		      const struct lock_stats *before)
{
	struct hist wait, hold;
	uint64_t m;
	int i;

	for (i = 0; i < SNAPSHOT_HIST_BUCKETS; i++) {
		wait.bucket[i] = grow(now->wait_hist[i], before->wait_hist[i]);
		hold.bucket[i] = grow(now->hold_hist[i], before->hold_hist[i]);
		r->wait.bucket[i] += wait.bucket[i];
		r->hold.bucket[i] += hold.bucket[i];
	}
	r->acquired += grow(now->acquired, before->acquired);
	r->failed += grow(now->failed, before->failed);
	r->holds += grow(now->holds, before->holds);
	r->wait_ns += grow(now->wait_ns, before->wait_ns);
	r->hold_ns += grow(now->hold_ns, before->hold_ns);
	m = interval_max(now->wait_max_ns, before->wait_max_ns, &wait);
	if (m > r->wait_max_ns)
		r->wait_max_ns = m;
	m = interval_max(now->hold_max_ns, before->hold_max_ns, &hold);
	if (m > r->hold_max_ns)
		r->hold_max_ns = m;
}

/* Sum the per-CPU values of one key into @sum. */
static void sum_cpus(const struct lock_source *ls, struct lock_stats *sum)
{
	int cpu, i;

	memset(sum, 0, sizeof(*sum));
	for (cpu = 0; cpu < ls->nr_possible; cpu++) {
		const struct lock_stats *c = &ls->percpu[cpu];

		sum->acquired += c->acquired;
		sum->failed += c->failed;
		sum->holds += c->holds;
		sum->wait_ns += c->wait_ns;
		sum->hold_ns += c->hold_ns;
		if (c->wait_max_ns > sum->wait_max_ns)
			sum->wait_max_ns = c->wait_max_ns;
		if (c->hold_max_ns > sum->hold_max_ns)
			sum->hold_max_ns = c->hold_max_ns;
		for (i = 0; i < MMTOP_HIST_BUCKETS; i++) {
			sum->wait_hist[i] += c->wait_hist[i];
			sum->hold_hist[i] += c->hold_hist[i];
		}
	}
}

/* Faults that took mmap_lock, per CPU: the per-VMA lock's misses. */
static void add_fallbacks(struct lock_source *ls, struct snapshot *s,
			  struct prev *p, enum callsite site)
{
	int cpu;

	for (cpu = 0; cpu < ls->nr_possible && cpu < s->nr_cpus; cpu++) {
		uint64_t d = grow(ls->percpu[cpu].acquired, p->cpu_acquired[cpu]);

		if (site == CALLSITE_FAULT)
			s->cpus[cpu].fallbacks += d;
		else
			s->cpus[cpu].anon += d;
		p->cpu_acquired[cpu] = ls->percpu[cpu].acquired;
	}
}

static void read_stats(struct lock_source *ls, struct snapshot *s, uint64_t *drops)
{
	struct lock_key key, next, *cur = NULL;
	int fd = bpf_map__fd(ls->skel->maps.lock_stats);

	while (!bpf_map_get_next_key(fd, cur, &next)) {
		struct lock_stats sum;
		const struct site *site;
		struct lock_row *r;
		struct prev *p;

		key = next;
		cur = &key;
		if (bpf_map_lookup_elem(fd, &key, ls->percpu)) {
			drops[DROP_READ]++;
			continue;
		}
		sum_cpus(ls, &sum);
		p = prev_of(ls, &key);
		if (!p) {
			drops[DROP_READ]++;
			continue;
		}
		if (sum.acquired == p->sum.acquired && sum.failed == p->sum.failed &&
		    sum.holds == p->sum.holds)
			continue;
		site = site_of(ls, key.stack);
		if (site->site == CALLSITE_FAULT || site->site == CALLSITE_FAULT_ANON)
			add_fallbacks(ls, s, p, site->site);
		if (wanted(ls, key.tgid) && (r = row_of(ls, s, &key, site)))
			add_delta(r, &sum, &p->sum);
		p->sum = sum;
	}
}

static void read_drops(struct lock_source *ls, uint64_t *drops)
{
	static const enum drop_kind map[BPF_DROP__COUNT] = {
		[BPF_DROP_TASK_FULL] = DROP_MMAP_LOCK_TASK,
		[BPF_DROP_STATS_FULL] = DROP_MMAP_LOCK_STATS,
		[BPF_DROP_STACK] = DROP_MMAP_LOCK_STACK,
		[BPF_DROP_RINGBUF] = DROP_MMAP_LOCK_EVENTS,
	};
	__u64 *vals = (__u64 *)ls->percpu;	/* large enough for one u64 per CPU */
	__u32 k;
	int cpu;

	for (k = 0; k < BPF_DROP__COUNT; k++) {
		if (bpf_map__lookup_elem(ls->skel->maps.lock_drops, &k, sizeof(k), vals,
					 ls->nr_possible * sizeof(__u64), 0))
			continue;
		drops[map[k]] = 0;
		for (cpu = 0; cpu < ls->nr_possible; cpu++)
			drops[map[k]] += vals[cpu];
	}
}

void lock_source_read(struct lock_source *ls, struct snapshot *s, uint64_t *drops)
{
	ls->cur = s;
	ring_buffer__consume(ls->rb);
	read_stats(ls, s, drops);
	read_drops(ls, drops);
}

void lock_source_close(struct lock_source *ls)
{
	int i;

	if (!ls)
		return;
	ring_buffer__free(ls->rb);
	tp_object_close(&ls->tp);
	for (i = 0; i < ls->prev_cap; i++)
		free(ls->prev[i].cpu_acquired);
	free(ls->prev);
	free(ls->percpu);
	free(ls->sites);
	ksyms_free(&ls->ksyms);
	free(ls);
}
