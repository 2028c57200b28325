// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <string.h>

#include "merge.h"

static int merge_lock(struct snapshot *sum, const struct lock_row *r)
{
	struct lock_row *t = NULL;
	int i;

	for (i = 0; i < sum->locks.nr && !t; i++) {
		struct lock_row *c = &sum->locks.v[i];

		if (lock_row_same(c, r))
			t = c;
	}
	if (!t) {
		t = snapshot_push(&sum->locks);
		if (!t)
			return -ENOMEM;
		*t = *r;
		return 0;
	}
	t->acquired += r->acquired;
	t->failed += r->failed;
	t->holds += r->holds;
	t->wait_ns += r->wait_ns;
	t->hold_ns += r->hold_ns;
	max_keep(&t->wait_max_ns, &t->wait_max_bound, r->wait_max_ns, r->wait_max_bound);
	max_keep(&t->hold_max_ns, &t->hold_max_bound, r->hold_max_ns, r->hold_max_bound);
	hist_add(&t->wait, &r->wait);
	hist_add(&t->hold, &r->hold);
	return 0;
}

static int merge_cont(struct snapshot *sum, const struct cont_row *r)
{
	struct cont_row *t = NULL;
	int i;

	for (i = 0; i < sum->conts.nr && !t; i++) {
		struct cont_row *c = &sum->conts.v[i];

		if (c->cls == r->cls && c->by_address == r->by_address && c->pid == r->pid &&
		    !strcmp(c->caller, r->caller) && !strcmp(c->type, r->type) &&
		    !strcmp(c->mode, r->mode))
			t = c;
	}
	if (!t) {
		t = snapshot_push(&sum->conts);
		if (!t)
			return -ENOMEM;
		*t = *r;
		return 0;
	}
	t->count += r->count;
	t->wait_ns += r->wait_ns;
	max_keep(&t->wait_max_ns, &t->wait_max_bound, r->wait_max_ns, r->wait_max_bound);
	hist_add(&t->wait, &r->wait);
	return 0;
}

static int merge_blame(struct snapshot *sum, const struct blame_row *r)
{
	struct blame_row *t = NULL;
	int i;

	for (i = 0; i < sum->blame.nr && !t; i++)
		if (blame_same(&sum->blame.v[i], r))
			t = &sum->blame.v[i];
	if (!t) {
		t = snapshot_push(&sum->blame);
		if (!t)
			return -ENOMEM;
		*t = *r;
		return 0;
	}
	t->count += r->count;
	t->wait_ns += r->wait_ns;
	max_keep(&t->wait_max_ns, &t->wait_max_bound, r->wait_max_ns, r->wait_max_bound);
	return 0;
}

static int merge_vma(struct snapshot *sum, const struct vma_row *v)
{
	struct vma_row *t = NULL;
	int i;

	for (i = 0; i < sum->vmas.nr && !t; i++)
		if (sum->vmas.v[i].pid == v->pid)
			t = &sum->vmas.v[i];
	if (!t) {
		t = snapshot_push(&sum->vmas);
		if (!t)
			return -ENOMEM;
		*t = *v;
		return 0;
	}
	t->faults = t->faults < 0 || v->faults < 0 ? -1 : t->faults + v->faults;
	t->fallbacks += v->fallbacks;
	t->anon += v->anon;
	return 0;
}

static int merge_zone(struct snapshot *sum, const struct zone_row *z)
{
	struct zone_row *t = NULL;
	int i;

	for (i = 0; i < sum->zones.nr && !t; i++)
		if (sum->zones.v[i].node == z->node && !strcmp(sum->zones.v[i].name, z->name))
			t = &sum->zones.v[i];
	if (!t) {
		t = snapshot_push(&sum->zones);
		if (!t)
			return -ENOMEM;
		*t = *z;
		return 0;
	}
	pcp_add(&t->pcp, &z->pcp);
	return 0;
}

/* Rows kept one by one: events and forks. */
static int append_rows(struct snapshot *sum, const struct snapshot *s)
{
	int i;

	for (i = 0; i < s->events.nr; i++) {
		struct slow_event *e = snapshot_push(&sum->events);

		if (!e)
			return -ENOMEM;
		*e = s->events.v[i];
	}
	for (i = 0; i < s->forks.nr; i++) {
		struct fork_row *f = snapshot_push(&sum->forks);

		if (!f)
			return -ENOMEM;
		*f = s->forks.v[i];
	}
	return 0;
}

int snapshot_merge(struct snapshot *sum, const struct snapshot *s)
{
	int i, err = 0;

	if (sum->nr_cpus != s->nr_cpus || sum->nr_nodes != s->nr_nodes)
		return -EINVAL;
	sum->seq = s->seq;
	sum->wall_ns = s->wall_ns;
	/* The share sampled, over the time merged. */
	if (sum->interval_ns + s->interval_ns)
		sum->sample_ppm = ((double)sum->sample_ppm * sum->interval_ns +
				   (double)s->sample_ppm * s->interval_ns) /
				  (sum->interval_ns + s->interval_ns) + 0.5;
	sum->budget_ppm = s->budget_ppm;
	sum->over_budget |= s->over_budget;
	sum->throttled |= s->throttled;
	sum->bpf_measured = s->bpf_measured;
	sum->bpf_runs += s->bpf_runs;
	sum->bpf_ns += s->bpf_ns;
	sum->busy_ns += s->busy_ns;
	sum->attach_ns += s->attach_ns;
	sum->interval_ns += s->interval_ns;
	sum->slow_ns = s->slow_ns;
	sum->probes |= s->probes;
	memcpy(sum->drops, s->drops, sizeof(sum->drops));	/* cumulative */
	memcpy(sum->na, s->na, sizeof(sum->na));
	memcpy(sum->cont_method, s->cont_method, sizeof(sum->cont_method));
	memcpy(sum->fork_method, s->fork_method, sizeof(sum->fork_method));
	memcpy(sum->vma_na, s->vma_na, sizeof(sum->vma_na));
	memcpy(sum->waits_na, s->waits_na, sizeof(sum->waits_na));
	memcpy(sum->holders, s->holders, sizeof(sum->holders));
	memcpy(sum->pcp_method, s->pcp_method, sizeof(sum->pcp_method));
	for (i = 0; i < s->nr_cpus; i++) {
		struct cpu_sample *t = &sum->cpus[i];
		const struct cpu_sample *c = &s->cpus[i];

		t->online = c->online;
		t->node = c->node;
		t->faults.min_flt += c->faults.min_flt;
		t->faults.maj_flt += c->faults.maj_flt;
		t->fallbacks += c->fallbacks;
		t->anon += c->anon;
		pcp_add(&t->pcp, &c->pcp);
	}
	for (i = 0; i < s->locks.nr && !err; i++)
		err = merge_lock(sum, &s->locks.v[i]);
	for (i = 0; i < s->conts.nr && !err; i++)
		err = merge_cont(sum, &s->conts.v[i]);
	for (i = 0; i < s->blame.nr && !err; i++)
		err = merge_blame(sum, &s->blame.v[i]);
	for (i = 0; i < s->vmas.nr && !err; i++)
		err = merge_vma(sum, &s->vmas.v[i]);
	for (i = 0; i < s->zones.nr && !err; i++)
		err = merge_zone(sum, &s->zones.v[i]);
	if (!err)
		err = append_rows(sum, s);
	snapshot_sum(sum);
	return err;
}
