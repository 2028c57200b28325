// SPDX-License-Identifier: GPL-2.0
/* Many intervals as one (src/model/merge.c), as `mmtop report` uses it. */
#include <string.h>

#include "merge.h"
#include "unit.h"

static struct lock_row *lock(struct snapshot *s, int pid, enum callsite site,
			     const char *symbol, uint64_t acquired, uint64_t wait_max)
{
	struct lock_row *r = snapshot_push(&s->locks);

	memset(r, 0, sizeof(*r));
	r->pid = pid;
	r->site = site;
	snprintf(r->symbol, sizeof(r->symbol), "%s", symbol);
	r->acquired = acquired;
	r->wait_max_ns = wait_max;
	r->wait.bucket[4] = acquired;
	return r;
}

static void one_interval(struct snapshot *s, uint64_t seq, uint64_t faults)
{
	snapshot_init(s, 2, 1);
	s->seq = seq;
	s->interval_ns = 500000000;
	s->cpus[1].faults.min_flt = faults;
	s->drops[DROP_READ] = seq;	/* cumulative, as the collector keeps them */
}

int main(void)
{
	struct snapshot sum, a, b;
	struct vma_row *v;

	snapshot_init(&sum, 2, 1);
	one_interval(&a, 1, 100);
	one_interval(&b, 2, 50);
	lock(&a, 7, CALLSITE_MUNMAP, "__vm_munmap", 10, 300);
	/* The same site reached through another function: the same row. */
	lock(&b, 7, CALLSITE_MUNMAP, "do_vmi_munmap", 5, 900);
	/* Sites classed other are told apart by their symbol. */
	lock(&a, 7, CALLSITE_OTHER, "ksys_foo", 1, 1);
	lock(&b, 7, CALLSITE_OTHER, "ksys_bar", 2, 2);
	v = snapshot_push(&a.vmas);
	*v = (struct vma_row){ .pid = 7, .faults = 40, .fallbacks = 1 };
	v = snapshot_push(&b.vmas);
	*v = (struct vma_row){ .pid = 7, .faults = -1, .fallbacks = 2 };

	CHECK(!snapshot_merge(&sum, &a) && !snapshot_merge(&sum, &b), "two intervals merge");
	CHECK(sum.cpus[1].faults.min_flt == 150 && sum.total.min_flt == 150 &&
	      sum.interval_ns == 1000000000, "counts and time add up; totals rebuilt");
	CHECK(sum.drops[DROP_READ] == 2, "cumulative drop counters: the last interval's");
	CHECK(sum.locks.nr == 3, "one munmap row, two rows of other sites (%d rows)", sum.locks.nr);
	CHECK(sum.locks.v[0].acquired == 15 && sum.locks.v[0].wait_max_ns == 900 &&
	      sum.locks.v[0].wait.bucket[4] == 15, "a merged row: counts add, max of maxima, histograms add");
	CHECK(sum.vmas.nr == 1 && sum.vmas.v[0].faults == -1 && sum.vmas.v[0].fallbacks == 3,
	      "VMA rows: an unknown fault count stays unknown, fallbacks add");
	snapshot_free(&b);
	one_interval(&b, 3, 0);
	b.nr_cpus = 4;
	CHECK(snapshot_merge(&sum, &b) != 0, "an interval of another machine shape is refused");
	b.nr_cpus = 2;
	snapshot_free(&a);
	snapshot_free(&b);
	snapshot_free(&sum);
	UNIT_EXIT();
}
