// SPDX-License-Identifier: GPL-2.0
/* Blame rows: mmap_lock waits by (waiter, holder) pair, from blame_stats. */
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "lock_source_impl.h"

static struct blame_row *row_of(struct lock_source *ls, struct snapshot *s,
				const struct blame_key *key)
{
	const struct site *w = site_of(ls, key->stack);
	const struct site *h = site_of(ls, key->holder_stack);
	struct blame_row want = {
		.pid = key->tgid, .site = w->site, .write = key->write,
		.holder_pid = key->holder_tgid, .holder_site = h->site,
		.holder_write = key->holder_write,
	}, *r;
	int i;

	memcpy(want.symbol, w->symbol, sizeof(want.symbol));
	memcpy(want.holder_symbol, h->symbol, sizeof(want.holder_symbol));
	for (i = 0; i < s->blame.nr; i++)
		if (blame_same(&s->blame.v[i], &want))
			return &s->blame.v[i];
	r = snapshot_push(&s->blame);
	if (!r)
		return NULL;
	*r = want;
	comm_of(ls, r->pid, r->comm);
	comm_of(ls, r->holder_pid, r->holder_comm);
	return r;
}

static bool visit(struct lock_source *ls, struct snapshot *s, const void *k,
		  void *prev)
{
	const struct blame_key *key = k;
	struct cont_prev *p = prev;
	struct cont_stats sum;
	struct blame_row *r;
	struct hist wait, all = {};
	uint64_t m;

	cont_stats_sum(ls, &sum);
	if (sum.count == p->sum.count)
		return false;
	/* -p: the rows of the waiting process. */
	if (pid_wanted(ls, key->tgid) && (r = row_of(ls, s, key))) {
		hist_add_growth(&all, &wait, sum.wait_hist, p->sum.wait_hist);
		r->count += grow(sum.count, p->sum.count);
		r->wait_ns += grow(sum.wait_ns, p->sum.wait_ns);
		m = interval_max(sum.wait_max_ns, p->sum.wait_max_ns, &wait,
				 grow(sum.wait_ns, p->sum.wait_ns));
		if (m > r->wait_max_ns)
			r->wait_max_ns = m;
	}
	p->sum = sum;
	return true;
}

void blame_rows_read(struct lock_source *ls, struct snapshot *s, uint64_t *drops)
{
	walk_cumulative(ls, s, drops, ls->skel->maps.blame_stats, &ls->blame_prev,
			sizeof(struct blame_key), visit);
}
