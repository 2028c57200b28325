// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgroup_pairs.h"
#include "metrics.h"

static bool pid_alive(int pid)
{
	return !kill(pid, 0) || errno != ESRCH;
}

bool (*metrics_pid_alive)(int pid) = pid_alive;

int metrics_init(struct metrics *m, int top, bool by_pid, int cgroup_depth)
{
	memset(m, 0, sizeof(*m));
	m->top = top;
	m->by_pid = by_pid;
	m->cgroup_depth = cgroup_depth;
	m->exact_ppm = SAMPLE_EXACT;
	strcpy(m->other.comm, "other");
	strcpy(m->cgroup_other.cgroup, "other");
	strcpy(m->cgroup_other.holder_cgroup, "other");
	if (top) {
		m->procs = calloc(top, sizeof(*m->procs));
		m->cgroups = cgroup_depth ? calloc(top, sizeof(*m->cgroups)) : NULL;
		if (!m->procs || (cgroup_depth && !m->cgroups))
			return -ENOMEM;
	}
	return 0;
}

void metrics_free(struct metrics *m)
{
	free(m->cpus);
	free(m->locks);
	free(m->procs);
	free(m->cgroups);
	memset(m, 0, sizeof(*m));
}

static double fork_le_ns(int i)
{
	return exp2(FORK_BUCKET_MIN_LOG2 + i / 4.0);
}

double fork_bucket_le(int i)
{
	return fork_le_ns(i) / 1e9;
}

int fork_bucket_of(uint64_t ns)
{
	int i = ns ? (int)ceil(4 * (log2((double)ns) - FORK_BUCKET_MIN_LOG2)) : 0;

	if (i < 0)
		i = 0;
	if (i > FORK_BUCKETS)
		i = FORK_BUCKETS;
	/* exp2/log2 rounding: settle on the exact bucket. */
	while (i > 0 && ns <= fork_le_ns(i - 1))
		i--;
	while (i < FORK_BUCKETS && ns > fork_le_ns(i))
		i++;
	return i;
}

static int add_cpus(struct metrics *m, const struct snapshot *s)
{
	int i;

	if (!m->cpus) {
		m->cpus = calloc(s->nr_cpus, sizeof(*m->cpus));
		if (!m->cpus)
			return -ENOMEM;
		m->nr_cpus = s->nr_cpus;
	}
	for (i = 0; i < s->nr_cpus && i < m->nr_cpus; i++) {
		const struct cpu_sample *c = &s->cpus[i];
		struct metric_cpu *t = &m->cpus[i];

		t->node = c->node;
		t->minor += c->faults.min_flt;
		t->major += c->faults.maj_flt;
		t->fallbacks += c->fallbacks;
		t->anon += c->anon;
		t->pcp_refill_pages += c->pcp.refill_pages;
		t->pcp_drain_pages += c->pcp.drain_pages;
	}
	return 0;
}

static void add_hist(struct hist *sum, const struct hist *h)
{
	int i;

	for (i = 0; i < SNAPSHOT_HIST_BUCKETS; i++)
		sum->bucket[i] += h->bucket[i];
}

static struct metric_lock *lock_slot(struct metrics *m, const char *site, bool write)
{
	struct metric_lock *t;
	int i;

	for (i = 0; i < m->nr_locks; i++)
		if (m->locks[i].write == write && !strcmp(m->locks[i].site, site))
			return &m->locks[i];
	if (m->nr_locks == m->cap_locks &&
	    snapshot_grow((void **)&m->locks, &m->cap_locks, sizeof(*m->locks)))
		return NULL;
	t = memset(&m->locks[m->nr_locks++], 0, sizeof(*t));
	snprintf(t->site, sizeof(t->site), "%s", site);
	t->write = write;
	return t;
}

static int add_locks(struct metrics *m, const struct snapshot *s)
{
	int i;

	for (i = 0; i < s->locks.nr; i++) {
		const struct lock_row *r = &s->locks.v[i];
		struct metric_lock *t = lock_slot(m, callsite_label(r->site, r->symbol), r->write);

		if (!t)
			return -ENOMEM;
		t->acquired += r->acquired;
		t->failed += r->failed;
		t->wait_ns += r->wait_ns;
		t->hold_ns += r->hold_ns;
		add_hist(&t->wait, &r->wait);
		add_hist(&t->hold, &r->hold);
	}
	return 0;
}

static void add_conts(struct metrics *m, const struct snapshot *s)
{
	int i;

	for (i = 0; i < s->conts.nr; i++) {
		m->cont_count[s->conts.v[i].cls] += s->conts.v[i].count;
		m->cont_wait_ns[s->conts.v[i].cls] += s->conts.v[i].wait_ns;
	}
}

static void add_blame(struct metrics *m, const struct snapshot *s)
{
	int i;

	for (i = 0; i < s->blame.nr; i++) {
		const struct blame_row *b = &s->blame.v[i];
		struct metric_blame *t = &m->blame[b->site][b->write][b->holder_site]
						  [b->holder_write][blame_holder_of(b)];

		t->count += b->count;
		t->wait_ns += b->wait_ns;
	}
}

void cgroup_cut(const char *path, int depth, char *out, size_t len)
{
	const char *p = path;

	/* Past the depth-th component: its end is the next "/" or the string's. */
	while (*p == '/' && depth-- > 0)
		p += 1 + strcspn(p + 1, "/");
	snprintf(out, len, "%.*s", (int)(p - path) ? (int)(p - path) : (int)strlen(path), path);
}

/*
 * The series of @p's pair, cut to the depth: its own if it has one or
 * there is room, else other's.
 */
static struct metric_cgroup_pair *cgroup_slot(struct metrics *m, const struct cgroup_pair *p)
{
	struct metric_cgroup_pair key, *t;
	int i;

	cgroup_cut(p->cgroup, m->cgroup_depth, key.cgroup, sizeof(key.cgroup));
	cgroup_cut(p->holder_cgroup, m->cgroup_depth, key.holder_cgroup, sizeof(key.holder_cgroup));
	for (i = 0; i < m->nr_cgroups; i++)
		if (!strcmp(m->cgroups[i].cgroup, key.cgroup) &&
		    !strcmp(m->cgroups[i].holder_cgroup, key.holder_cgroup))
			return &m->cgroups[i];
	if (m->nr_cgroups == m->top)
		return &m->cgroup_other;
	t = &m->cgroups[m->nr_cgroups++];
	*t = (struct metric_cgroup_pair){ .count = 0 };
	memcpy(t->cgroup, key.cgroup, sizeof(t->cgroup));
	memcpy(t->holder_cgroup, key.holder_cgroup, sizeof(t->holder_cgroup));
	return t;
}

static int add_cgroups(struct metrics *m, const struct snapshot *s)
{
	struct cgroup_pair *v;
	int i, n;

	if (!m->cgroup_depth)
		return 0;
	n = cgroup_pairs_of(s, &v);
	if (n < 0)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		struct metric_cgroup_pair *t = cgroup_slot(m, &v[i]);

		t->count += v[i].count;
		t->wait_ns += v[i].wait_ns;
	}
	free(v);
	return 0;
}

static void add_forks(struct metrics *m, const struct snapshot *s)
{
	int i;

	for (i = 0; i < s->forks.nr; i++) {
		const struct fork_row *f = &s->forks.v[i];
		const char *b = fork_backing(f);
		struct metric_fork *t = &m->forks[!strcmp(b, "thp") ? BACKING_THP :
						  !strcmp(b, "4k") ? BACKING_4K : BACKING_UNKNOWN];

		/* Counted in mmtop_forks_total; in the histogram if timed. */
		m->forks_untimed += !fork_timed(f);
		if (!fork_timed(f))
			continue;
		t->count++;
		t->sum_ns += f->latency_ns;
		t->bucket[fork_bucket_of(f->latency_ns)]++;
	}
}

/* --- per-process series --- */

/* Whether @a and @b are one series: the same pid, or (by comm) the same comm. */
static bool same_key(const struct metric_proc *a, const struct metric_proc *b)
{
	return a->pid == b->pid && (a->pid || !strcmp(a->comm, b->comm));
}

static struct metric_proc *proc_find(struct metrics *m, const struct metric_proc *key)
{
	int i;

	for (i = 0; i < m->nr_procs; i++)
		if (same_key(&m->procs[i], key))
			return &m->procs[i];
	return NULL;
}

/*
 * By pid: a process that is gone hands its totals to "other" and frees its
 * slot. A comm's series stays: another process of that name adds to it.
 */
static void retire_dead(struct metrics *m)
{
	int i = 0;

	if (!m->by_pid)
		return;
	while (i < m->nr_procs) {
		struct metric_proc *p = &m->procs[i];

		if (metrics_pid_alive(p->pid)) {
			i++;
			continue;
		}
		m->other.acquired += p->acquired;
		m->other.wait_ns += p->wait_ns;
		m->other.hold_ns += p->hold_ns;
		m->other.fallbacks += p->fallbacks;
		*p = m->procs[--m->nr_procs];
	}
}

/* One process's interval, gathered from its lock and VMA rows. */
struct proc_delta {
	struct metric_proc v;
	uint64_t score;			/* activity: mmap_lock wait, then acquisitions */
};

/* The delta of process @pid (by comm: of @comm), added to @d if new. */
static struct proc_delta *delta_of(struct proc_delta *d, int *nr, bool by_pid, int pid,
				   const char *comm)
{
	struct metric_proc key = { .pid = by_pid ? pid : 0 };
	int i;

	snprintf(key.comm, sizeof(key.comm), "%s", comm);
	/* Backwards: rows of one process are adjacent in practice. */
	for (i = *nr - 1; i >= 0; i--)
		if (same_key(&d[i].v, &key))
			return &d[i];
	memset(&d[*nr], 0, sizeof(d[*nr]));
	d[*nr].v = key;
	return &d[(*nr)++];
}

static int by_score(const void *a, const void *b)
{
	const struct proc_delta *x = a, *y = b;

	if (x->score != y->score)
		return x->score < y->score ? 1 : -1;
	return x->v.pid != y->v.pid ? x->v.pid - y->v.pid : strcmp(x->v.comm, y->v.comm);
}

static int gather(const struct snapshot *s, bool by_pid, struct proc_delta **out)
{
	struct proc_delta *d = malloc((s->locks.nr + s->vmas.nr + 1) * sizeof(*d));
	int i, nr = 0;

	if (!d)
		return -ENOMEM;
	for (i = 0; i < s->locks.nr; i++) {
		const struct lock_row *r = &s->locks.v[i];
		struct proc_delta *p;

		if (!r->pid)
			continue;
		p = delta_of(d, &nr, by_pid, r->pid, r->comm);
		p->v.acquired += r->acquired;
		p->v.wait_ns += r->wait_ns;
		p->v.hold_ns += r->hold_ns;
	}
	for (i = 0; i < s->vmas.nr; i++) {
		const struct vma_row *r = &s->vmas.v[i];

		if (r->pid)
			delta_of(d, &nr, by_pid, r->pid, r->comm)->v.fallbacks +=
				r->fallbacks + r->anon;
	}
	for (i = 0; i < nr; i++)
		d[i].score = d[i].v.wait_ns + d[i].v.acquired + d[i].v.fallbacks;
	*out = d;
	return nr;
}

static void proc_add(struct metric_proc *t, const struct metric_proc *d)
{
	t->acquired += d->acquired;
	t->wait_ns += d->wait_ns;
	t->hold_ns += d->hold_ns;
	t->fallbacks += d->fallbacks;
}

static int add_procs(struct metrics *m, const struct snapshot *s)
{
	struct proc_delta *d;
	int i, nr;

	retire_dead(m);
	nr = gather(s, m->by_pid, &d);
	if (nr < 0)
		return nr;
	qsort(d, nr, sizeof(*d), by_score);
	for (i = 0; i < nr; i++) {
		struct metric_proc *p = proc_find(m, &d[i].v);

		if (!p && d[i].score && m->nr_procs < m->top) {
			p = &m->procs[m->nr_procs++];
			*p = d[i].v;
			memset(&p->acquired, 0, sizeof(*p) - offsetof(struct metric_proc, acquired));
		}
		proc_add(p ? p : &m->other, &d[i].v);
	}
	free(d);
	return 0;
}

int metrics_add(struct metrics *m, const struct snapshot *s)
{
	int i, err;

	err = add_cpus(m, s);
	if (!err)
		err = add_locks(m, s);
	if (!err)
		err = add_procs(m, s);
	if (!err)
		err = add_cgroups(m, s);
	if (err)
		return err;
	add_conts(m, s);
	add_blame(m, s);
	add_forks(m, s);
	/* The snapshot's drop counts are already totals since start. */
	for (i = 0; i < DROP__COUNT; i++)
		if (s->drops[i] > m->drops[i])
			m->drops[i] = s->drops[i];
	for (i = 0; i < FAMILY__COUNT; i++)
		m->family_on[i] = !s->na[i][0];
	m->vma_on = !snapshot_vma_na(s);
	m->exact_ppm = s->exact_ppm;
	m->bpf_measured = s->bpf_measured;
	m->bpf_runs += s->bpf_runs;
	m->bpf_ns += s->bpf_ns;
	m->busy_ns += s->busy_ns;
	m->bpf_map_bytes = s->bpf_map_bytes;
	m->attach_ns += s->attach_ns;
	m->intervals++;
	m->last_wall_ns = s->wall_ns;
	return 0;
}
