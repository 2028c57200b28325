// SPDX-License-Identifier: GPL-2.0
/* mmap_lock rows: the growth of each (process, stack, mode, mm) key. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "lock_source_impl.h"

static uint64_t row_hash(const struct lock_row *r)
{
	const char *p = callsite_label(r->site, r->symbol);
	uint64_t h = 0xcbf29ce484222325ULL;

	h = (h ^ (uint32_t)r->pid) * 0x100000001b3ULL;
	h = (h ^ (r->write | r->foreign << 1 | (uint64_t)r->site << 2)) * 0x100000001b3ULL;
	for (; *p; p++)
		h = (h ^ (unsigned char)*p) * 0x100000001b3ULL;
	return h;
}

static void index_put(struct row_index *x, const struct snapshot *s, int row)
{
	unsigned int i = row_hash(&s->locks.v[row]) & (x->cap - 1);

	while (x->slot[i])
		i = (i + 1) & (x->cap - 1);
	x->slot[i] = row + 1;
}

/* Index every row of @s, in a table at least twice their number. */
static int index_build(struct row_index *x, const struct snapshot *s)
{
	unsigned int cap = x->cap ? x->cap : 1024;
	int i;

	while (cap < 2u * (s->locks.nr + 1))
		cap *= 2;
	if (cap != x->cap) {
		int *slot = calloc(cap, sizeof(*slot));

		if (!slot)
			return -1;
		free(x->slot);
		x->slot = slot;
		x->cap = cap;
	} else {
		memset(x->slot, 0, cap * sizeof(*x->slot));
	}
	for (i = 0; i < s->locks.nr; i++)
		index_put(x, s, i);
	return 0;
}

static struct lock_row *find_row(const struct row_index *x, struct snapshot *s,
				 const struct lock_row *k)
{
	unsigned int i = row_hash(k) & (x->cap - 1);

	for (; x->slot[i]; i = (i + 1) & (x->cap - 1))
		if (lock_row_same(&s->locks.v[x->slot[i] - 1], k))
			return &s->locks.v[x->slot[i] - 1];
	return NULL;
}

/* The row for (pid, mode, mm, call site) in @s, created if new. */
static struct lock_row *row_of(struct lock_source *ls, struct snapshot *s,
			       const struct lock_key *key, const struct site *site)
{
	struct row_index *x = &ls->lock_index;
	struct lock_row k = {
		.pid = key->tgid, .write = key->write, .foreign = key->foreign,
		.site = site->site,
	}, *r;

	memcpy(k.symbol, site->symbol, sizeof(k.symbol));
	cgroup_name_of(&ls->cgroups, key->cgroup, k.cgroup, sizeof(k.cgroup));
	r = find_row(x, s, &k);
	if (r)
		return r;
	r = snapshot_push(&s->locks);
	if (!r)
		return NULL;
	*r = k;
	r->site_addr = site->addr;
	comm_of(ls->skel->maps.lock_comms, r->pid, r->comm);
	/* Kept at most half full: grown (and every row put again) before. */
	if (2u * (s->locks.nr + 1) > x->cap) {
		if (index_build(x, s)) {
			s->locks.nr--;
			return NULL;
		}
	} else {
		index_put(x, s, s->locks.nr - 1);
	}
	return r;
}

static void add_delta(struct lock_row *r, const struct lock_stats *now,
		      const struct lock_stats *before)
{
	struct hist wait, hold;
	uint64_t m;
	bool bound;

	hist_add_growth(&r->wait, &wait, now->wait_hist, before->wait_hist);
	hist_add_growth(&r->hold, &hold, now->hold_hist, before->hold_hist);
	r->acquired += grow(now->acquired, before->acquired);
	r->failed += grow(now->failed, before->failed);
	r->holds += grow(now->holds, before->holds);
	r->wait_ns += grow(now->wait_ns, before->wait_ns);
	r->hold_ns += grow(now->hold_ns, before->hold_ns);
	m = interval_max(now->wait_max_ns, before->wait_max_ns, &wait, &bound,
			 grow(now->wait_ns, before->wait_ns));
	max_keep(&r->wait_max_ns, &r->wait_max_bound, m, bound);
	m = interval_max(now->hold_max_ns, before->hold_max_ns, &hold, &bound,
			 grow(now->hold_ns, before->hold_ns));
	max_keep(&r->hold_max_ns, &r->hold_max_bound, m, bound);
}

static bool visit(void *ctx, const void *k, const void *values, struct walk_prev *prev)
{
	struct lock_source *ls = ((struct rows_ctx *)ctx)->ls;
	struct snapshot *s = ((struct rows_ctx *)ctx)->s;
	const struct lock_key *key = k;
	struct lock_prev *p = (struct lock_prev *)prev;
	const struct lock_stats *now = values;
	struct lock_row *r;

	if (now->acquired == p->sum.acquired && now->failed == p->sum.failed &&
	    now->holds == p->sum.holds && now->wait_ns == p->sum.wait_ns)
		return false;
	if (pid_filter_has(ls->opts.pids, key->tgid) && cgroup_wanted(&ls->cgroups, key->cgroup) &&
	    (r = row_of(ls, s, key, site_of(&ls->sites, key->stack))))
		add_delta(r, now, &p->sum);
	p->sum = *now;
	return true;
}

void lock_rows_add_waits(struct lock_source *ls, struct snapshot *s, const struct lock_key *k,
			 const struct cont_stats *now, const struct cont_stats *before)
{
	struct lock_row *r = row_of(ls, s, k, site_of(&ls->sites, k->stack));
	uint64_t waits = 0;	/* a lock row counts its waits by its histogram */

	if (r)
		cont_stats_add(now, before, &r->wait, &waits, &r->wait_ns, &r->wait_max_ns,
			       &r->wait_max_bound);
	cont_rows_add_waits(ls, s, k, now, before);
}

/*
 * Exact mode's faults that took mmap_lock, per CPU: the per-VMA lock's
 * misses (bpf/mmap_lock.bpf.h), into each CPU's fallbacks and anon.
 */
static void fault_locks_read(struct lock_source *ls, struct snapshot *s)
{
	__u32 zero = 0;
	int cpu;

	if (bpf_map__lookup_elem(ls->skel->maps.fault_locks, &zero, sizeof(zero), ls->fault_now,
				 ls->nr_possible * sizeof(*ls->fault_now), 0))
		return;
	for (cpu = 0; cpu < ls->nr_possible && cpu < s->nr_cpus; cpu++) {
		const __u64 *now = ls->fault_now[cpu].acquired, *was = ls->fault_prev[cpu].acquired;

		s->cpus[cpu].fallbacks += grow(now[FAULT_LOCK_FAULT], was[FAULT_LOCK_FAULT]);
		s->cpus[cpu].anon += grow(now[FAULT_LOCK_ANON], was[FAULT_LOCK_ANON]);
	}
	memcpy(ls->fault_prev, ls->fault_now, ls->nr_possible * sizeof(*ls->fault_now));
}

void lock_rows_read(struct lock_source *ls, struct snapshot *s, uint64_t *drops)
{
	if (index_build(&ls->lock_index, s))
		return;
	/*
	 * Before the rows: an acquisition is added to its row, then to its
	 * CPU's count, so the CPUs' then never hold one that the rows of the
	 * same read do not (a fault's per-VMA lock miss shows in its CPU's
	 * interval or the next).
	 */
	fault_locks_read(ls, s);
	rows_walk(ls, s, ls->skel->maps.lock_stats, &ls->lock_prev, struct lock_key,
		  struct lock_stats, visit, drops);
}
