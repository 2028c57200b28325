// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <string.h>

#include "proc.h"
#include "vma_rows.h"

static struct vma_tracked *find(struct vma_tracker *vt, int pid)
{
	int i;

	for (i = 0; i < vt->nr; i++)
		if (vt->t[i].pid == pid)
			return &vt->t[i];
	return NULL;
}

/* When full, the process quiet for longest makes room. */
void vma_track(struct vma_tracker *vt, int pid, const char *comm, uint64_t seq)
{
	struct vma_tracked *t = find(vt, pid);
	int i;

	if (!t && vt->nr < VMA_TRACKED_MAX) {
		t = &vt->t[vt->nr++];
	} else if (!t) {
		t = &vt->t[0];
		for (i = 1; i < vt->nr; i++)
			if (vt->t[i].last_seq < t->last_seq)
				t = &vt->t[i];
	} else {
		if (!t->comm[0])
			snprintf(t->comm, sizeof(t->comm), "%s", comm);
		t->last_seq = seq;
		return;
	}
	t->pid = pid;
	snprintf(t->comm, sizeof(t->comm), "%s", comm);
	t->last_seq = seq;
}

static int64_t faults_of(int pid, const struct proc_faults *procs, int nr)
{
	int i;

	if (!procs)
		return -1;
	for (i = 0; i < nr; i++)
		if (procs[i].pid == pid)
			return procs[i].faults.min_flt + procs[i].faults.maj_flt;
	return 0;
}

void vma_rows_build(struct vma_tracker *vt, struct snapshot *s,
		    const struct proc_faults *procs, int nr_procs,
		    const struct pid_filter *pids)
{
	int i, j;

	for (i = 0; i < s->locks.nr; i++) {
		const struct lock_row *r = &s->locks.v[i];

		if (r->site == CALLSITE_FAULT || r->site == CALLSITE_FAULT_ANON)
			vma_track(vt, r->pid, r->comm, s->seq);
	}
	/* A process named (-p, a followed tree) that faulted: its name later. */
	for (i = 0; pids && procs && i < nr_procs; i++)
		if (procs[i].faults.min_flt + procs[i].faults.maj_flt &&
		    pid_filter_has(pids, procs[i].pid))
			vma_track(vt, procs[i].pid, "", s->seq);
	for (i = 0; i < vt->nr; i++) {
		struct vma_tracked *t = &vt->t[i];
		int64_t faults = faults_of(t->pid, procs, nr_procs);
		uint64_t fallbacks = 0, anon = 0;
		struct vma_row *v;

		for (j = 0; j < s->locks.nr; j++) {
			const struct lock_row *r = &s->locks.v[j];

			if (r->pid != t->pid)
				continue;
			if (r->site == CALLSITE_FAULT)
				fallbacks += r->acquired;
			else if (r->site == CALLSITE_FAULT_ANON)
				anon += r->acquired;
		}
		if (faults <= 0 && !fallbacks && !anon)
			continue;
		t->last_seq = s->seq;
		/* Followed by name, before any lock row named it: /proc (no lock). */
		if (!t->comm[0] && proc_read_comm(t->pid, t->comm, sizeof(t->comm)))
			snprintf(t->comm, sizeof(t->comm), "?");
		v = snapshot_push(&s->vmas);
		if (!v)
			return;
		v->pid = t->pid;
		memcpy(v->comm, t->comm, sizeof(v->comm));
		v->faults = faults;
		v->fallbacks = fallbacks;
		v->anon = anon;
	}
}
