// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <string.h>

#include "merge.h"
#include "row_fields.h"

/*
 * Add the rows of type @t of @s to @sum: into the row of @sum they are one
 * with, else appended (rows kept one by one are always appended).
 */
static int merge_rows(struct snapshot *sum, const struct snapshot *s, const struct row_type *t)
{
	struct row_array *to = snapshot_rows(sum, t);
	const struct row_array *from = snapshot_rows_const(s, t);
	int i, j;

	for (i = 0; i < from->nr; i++) {
		const char *r = (const char *)from->v + i * t->size;
		char *m = NULL;

		for (j = 0; t->same && j < to->nr && !m; j++)
			if (t->same((char *)to->v + j * t->size, r))
				m = (char *)to->v + j * t->size;
		if (m) {
			row_merge(t, m, r);
			continue;
		}
		m = row_push(to, t);
		if (!m)
			return -ENOMEM;
		memcpy(m, r, t->size);
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
		sum->exact_ppm = ((double)sum->exact_ppm * sum->interval_ns +
				   (double)s->exact_ppm * s->interval_ns) /
				  (sum->interval_ns + s->interval_ns) + 0.5;
	sum->budget_ppm = s->budget_ppm;
	sum->over_budget |= s->over_budget;
	sum->throttled |= s->throttled;
	sum->bpf_measured = s->bpf_measured;
	sum->bpf_runs += s->bpf_runs;
	sum->bpf_ns += s->bpf_ns;
	sum->busy_ns += s->busy_ns;
	/* The most the maps held over the intervals merged. */
	if (s->bpf_map_bytes > sum->bpf_map_bytes)
		sum->bpf_map_bytes = s->bpf_map_bytes;
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
	memcpy(sum->cgroups_na, s->cgroups_na, sizeof(sum->cgroups_na));
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
	for (i = 0; i < ROWS__COUNT && !err; i++)
		err = merge_rows(sum, s, &row_types[i]);
	snapshot_sum(sum);
	return err;
}
