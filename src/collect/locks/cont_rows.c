// SPDX-License-Identifier: GPL-2.0
/* Contention rows: the growth of each (class, stack, pid, flags) key. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "lock_source_impl.h"

/* The kind of lock, as the contention flags tell it. */
static const char *lock_type(__u32 flags)
{
	if (flags & CONT_F_SLEEP)
		return "d-sleep";
	if (flags & LCB_F_PERCPU)
		return "percpu-rwsem";
	if (flags & LCB_F_RT)
		return "rtmutex";
	if (flags & LCB_F_MUTEX)
		return "mutex";
	if (flags & LCB_F_SPIN)
		return flags & (LCB_F_READ | LCB_F_WRITE) ? "rwlock" : "spinlock";
	if (flags & (LCB_F_READ | LCB_F_WRITE))
		return "rwsem";
	return "semaphore";
}

const char *lock_mode(__u32 flags)
{
	/* A D-state sleep is watched only while mmap_lock is held for write. */
	if (flags & (LCB_F_WRITE | CONT_F_SLEEP))
		return "write";
	return flags & LCB_F_READ ? "read" : "-";
}

static struct cont_row *row_of(struct lock_source *ls, struct snapshot *s,
			       const struct cont_key *key, const struct site *site)
{
	const char *type = lock_type(key->flags), *mode = lock_mode(key->flags);
	bool by_address;
	enum cont_class cls = cont_class_of(key->cls, site, &by_address);
	struct cont_row *r;
	int i;

	for (i = 0; i < s->conts.nr; i++) {
		r = &s->conts.v[i];
		if (r->cls == cls && r->pid == (int)key->tgid && !strcmp(r->mode, mode) &&
		    r->by_address == by_address && !strcmp(r->type, type) &&
		    !strcmp(r->caller, site->caller))
			return r;
	}
	r = snapshot_push(&s->conts);
	if (!r)
		return NULL;
	r->cls = cls;
	r->by_address = by_address;
	r->pid = key->tgid;
	snprintf(r->mode, sizeof(r->mode), "%s", mode);
	snprintf(r->type, sizeof(r->type), "%s", type);
	memcpy(r->caller, site->caller, sizeof(r->caller));
	r->site_addr = site->caller_addr;
	if (r->pid)
		comm_of(ls->skel->maps.lock_comms, r->pid, r->comm);
	return r;
}

void cont_stats_add(const struct cont_stats *now, const struct cont_stats *before,
		    struct hist *hist, uint64_t *count, uint64_t *wait_ns, uint64_t *max_ns,
		    bool *max_bound)
{
	struct hist wait;
	uint64_t m;
	bool bound;

	hist_add_growth(hist, &wait, now->wait_hist, before->wait_hist);
	*count += grow(now->count, before->count);
	*wait_ns += grow(now->wait_ns, before->wait_ns);
	m = interval_max(now->wait_max_ns, before->wait_max_ns, &wait, &bound,
			 grow(now->wait_ns, before->wait_ns));
	max_keep(max_ns, max_bound, m, bound);
}

void cont_rows_add_waits(struct lock_source *ls, struct snapshot *s, const struct lock_key *k,
			 const struct cont_stats *now, const struct cont_stats *before)
{
	struct cont_key key = {
		.stack = k->stack, .tgid = k->tgid,
		.cls = k->foreign ? CONT_OTHER_MMAP : CONT_OWN_MMAP,
		.flags = k->write ? LCB_F_WRITE : LCB_F_READ,
	};
	struct cont_row *r;

	if (!ls->opts.contention)
		return;
	r = row_of(ls, s, &key, site_of(&ls->sites, key.stack));
	if (r)
		cont_stats_add(now, before, &r->wait, &r->count, &r->wait_ns, &r->wait_max_ns,
			       &r->wait_max_bound);
}

static bool visit(void *ctx, const void *k, const void *values, struct walk_prev *prev)
{
	struct lock_source *ls = ((struct rows_ctx *)ctx)->ls;
	struct snapshot *s = ((struct rows_ctx *)ctx)->s;
	const struct cont_key *key = k;
	struct cont_prev *p = (struct cont_prev *)prev;
	const struct cont_stats *now = values;
	struct cont_row *r;

	if (now->count == p->sum.count)
		return false;
	/* Rows of one process: -p applies to them. */
	if ((!key->tgid || pid_filter_has(ls->opts.pids, key->tgid)) &&
	    (r = row_of(ls, s, key, site_of(&ls->sites, key->stack))))
		cont_stats_add(now, &p->sum, &r->wait, &r->count, &r->wait_ns, &r->wait_max_ns,
			       &r->wait_max_bound);
	p->sum = *now;
	return true;
}

void cont_rows_read(struct lock_source *ls, struct snapshot *s, uint64_t *drops)
{
	rows_walk(ls, s, ls->skel->maps.cont_stats, &ls->cont_prev, struct cont_key,
		  struct cont_stats, visit, drops);
}
