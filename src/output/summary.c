// SPDX-License-Identifier: GPL-2.0
#include <inttypes.h>
#include <string.h>

#include "summary.h"
#include "util.h"

static void add_locks(struct summary *sum, const struct snapshot *s)
{
	int i;

	for (i = 0; i < s->locks.nr; i++) {
		const struct lock_row *r = &s->locks.v[i];
		struct site_total *t = &sum->sites[r->site][r->write];

		t->acquired += r->acquired;
		t->wait_ns += r->wait_ns;
		t->hold_ns += r->hold_ns;
		max_keep(&t->wait_max_ns, &t->wait_max_bound, r->wait_max_ns, r->wait_max_bound);
		max_keep(&t->hold_max_ns, &t->hold_max_bound, r->hold_max_ns, r->hold_max_bound);
	}
}

void summary_add(struct summary *sum, const struct snapshot *s)
{
	int i;

	sum->intervals++;
	sum->ns += s->interval_ns;
	sum->outcome_na += snapshot_vma_na(s) != NULL;
	for (i = 0; i < s->vmas.nr; i++) {
		const struct vma_row *v = &s->vmas.v[i];

		if (v->faults < 0)
			sum->faults = -1;
		else if (sum->faults >= 0)
			sum->faults += v->faults;
		sum->fallbacks += v->fallbacks;
		sum->anon += v->anon;
	}
	add_locks(sum, s);
	for (i = 0; i < s->conts.nr; i++) {
		sum->cont_count[s->conts.v[i].cls] += s->conts.v[i].count;
		sum->cont_wait_ns[s->conts.v[i].cls] += s->conts.v[i].wait_ns;
	}
	sum->events += s->events.nr;
	sum->drops = snapshot_drops(s);
}

void summary_print(const struct summary *sum, FILE *f, const char *what)
{
	char a[16], b[16], c[16], d[16];
	int site, w;

	fprintf(f, "mmtop summary: %s, %" PRIu64 " intervals, %.1fs\n", what,
		sum->intervals, sum->ns / 1e9);
	/* Took mmap_lock: where every interval counted it (exact mode). */
	if (sum->faults >= 0 && sum->outcome_na)
		fprintf(f, "  faults %" PRId64 " (the VMA-lock outcome n/a in %" PRIu64 " of the intervals)\n",
			sum->faults, sum->outcome_na);
	else if (sum->faults >= 0)
		fprintf(f, "  faults %" PRId64 ", took mmap_lock %" PRIu64 " (fallback %" PRIu64
			", anon_vma %" PRIu64 ")\n", sum->faults,
			sum->fallbacks + sum->anon, sum->fallbacks, sum->anon);
	fprintf(f, "  %-12s %-5s %10s %10s %10s %10s %10s\n", "mmap_lock", "mode",
		"acquired", "wait", "wait-max", "hold", "hold-max");
	for (site = 0; site < CALLSITE__COUNT; site++)
		for (w = 0; w < 2; w++) {
			const struct site_total *t = &sum->sites[site][w];

			if (!t->acquired)
				continue;
			fprintf(f, "  %-12s %-5s %10" PRIu64 " %10s %10s %10s %10s\n",
				callsite_name(site), w ? "write" : "read", t->acquired,
				format_ns(t->wait_ns, a, sizeof(a)),
				format_max(t->wait_max_ns, t->wait_max_bound, b, sizeof(b)),
				format_ns(t->hold_ns, c, sizeof(c)),
				format_max(t->hold_max_ns, t->hold_max_bound, d, sizeof(d)));
		}
	for (site = 0; site < CONT_CLASS__COUNT; site++)
		if (sum->cont_count[site])
			fprintf(f, "  contention %-16s %10" PRIu64 " waits, %s\n",
				cont_class_name(site), sum->cont_count[site],
				format_ns(sum->cont_wait_ns[site], a, sizeof(a)));
	fprintf(f, "  slow events %" PRIu64 ", drops %" PRIu64 "\n", sum->events, sum->drops);
}
