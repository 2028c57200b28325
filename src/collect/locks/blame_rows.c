// SPDX-License-Identifier: GPL-2.0
/* Blame rows: mmap_lock waits by (waiter, holder) pair, from blame_stats. */
#include <stddef.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "lock_source_impl.h"

static struct blame_row *row_of(struct lock_source *ls, struct snapshot *s,
				const struct blame_key *key)
{
	const struct site *w = site_of(&ls->sites, key->stack);
	const struct site *h = holder_site_of(&ls->sites, key->holder_stack, key->holder_hint);
	struct blame_row want = {
		.pid = key->tgid, .site = w->site, .write = key->write,
		.holder_pid = key->holder_tgid, .holder_site = h->site,
		.holder_write = key->holder_write,
	}, *r;
	int i;

	memcpy(want.symbol, w->symbol, sizeof(want.symbol));
	memcpy(want.holder_symbol, h->symbol, sizeof(want.holder_symbol));
	cgroup_name_of(&ls->cgroups, key->cgroup, want.cgroup, sizeof(want.cgroup));
	cgroup_name_of(&ls->cgroups, key->holder_cgroup, want.holder_cgroup,
		       sizeof(want.holder_cgroup));
	for (i = 0; i < s->blame.nr; i++)
		if (blame_same(&s->blame.v[i], &want))
			return &s->blame.v[i];
	r = snapshot_push(&s->blame);
	if (!r)
		return NULL;
	*r = want;
	comm_of(ls->skel->maps.lock_comms, r->pid, r->comm);
	if (r->holder_pid)
		comm_of(ls->skel->maps.lock_comms, r->holder_pid, r->holder_comm);
	else
		snprintf(r->holder_comm, sizeof(r->holder_comm), "-");
	return r;
}

static bool visit(void *ctx, const void *k, const void *values, struct walk_prev *prev)
{
	struct lock_source *ls = ((struct rows_ctx *)ctx)->ls;
	struct snapshot *s = ((struct rows_ctx *)ctx)->s;
	const struct blame_key *key = k;
	struct cont_prev *p = (struct cont_prev *)prev;
	const struct cont_stats *now = values;
	struct blame_row *r;
	struct hist all = {};	/* a blame row keeps no histogram */

	if (now->count == p->sum.count)
		return false;
	/* -p, --cgroup: the rows of the waiting process. */
	if (pid_filter_has(ls->opts.pids, key->tgid) && cgroup_wanted(&ls->cgroups, key->cgroup)) {
		r = row_of(ls, s, key);
		if (r)
			cont_stats_add(now, &p->sum, &all, &r->count, &r->wait_ns,
				       &r->wait_max_ns, &r->wait_max_bound);
		if (key->waits)
			lock_rows_add_waits(ls, s, &(struct lock_key){
				.stack = key->stack, .tgid = key->tgid, .write = key->write,
				.foreign = key->foreign, .cgroup = key->cgroup,
			}, now, &p->sum);
	}
	p->sum = *now;
	return true;
}

void blame_rows_read(struct lock_source *ls, struct snapshot *s, uint64_t *drops)
{
	rows_walk(ls, s, ls->skel->maps.blame_stats, &ls->blame_prev, struct blame_key,
		  struct cont_stats, visit, drops);
}
