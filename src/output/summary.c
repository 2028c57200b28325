// SPDX-License-Identifier: GPL-2.0
#include <inttypes.h>
#include <string.h>

#include "summary.h"
#include "text_table.h"
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

static const struct text_col site_cols[] = {
	TEXT_WORD("mmap_lock", 12), TEXT_WORD("mode", 5), TEXT_NUM("acquired", 10),
	TEXT_NUM("wait", 10), TEXT_NUM("wait-max", 10), TEXT_NUM("hold", 10),
	TEXT_NUM("hold-max", 10),
};

static const struct text_col class_cols[] = {
	TEXT_WORD("contention", 16), TEXT_NUM("waits", 10), TEXT_NUM("total", 10),
};

void summary_print(const struct summary *sum, FILE *f, const char *what)
{
	static const struct text_table sites = TEXT_TABLE(2, site_cols);
	static const struct text_table classes = TEXT_TABLE(2, class_cols);
	char a[16];
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
	text_header(f, &sites);
	for (site = 0; site < CALLSITE__COUNT; site++)
		for (w = 0; w < 2; w++) {
			const struct site_total *t = &sum->sites[site][w];
			struct text_row r;

			if (!t->acquired)
				continue;
			r = text_row_begin(f, &sites);
			text_cell(&r, "%s", callsite_name(site));
			text_cell(&r, "%s", w ? "write" : "read");
			text_cell(&r, "%" PRIu64, t->acquired);
			text_cell(&r, "%s", format_ns(t->wait_ns, a, sizeof(a)));
			text_cell(&r, "%s", format_max(t->wait_max_ns, t->wait_max_bound, a, sizeof(a)));
			text_cell(&r, "%s", format_ns(t->hold_ns, a, sizeof(a)));
			text_cell(&r, "%s", format_max(t->hold_max_ns, t->hold_max_bound, a, sizeof(a)));
			text_row_end(&r);
		}
	text_header(f, &classes);
	for (site = 0; site < CONT_CLASS__COUNT; site++) {
		struct text_row r;

		if (!sum->cont_count[site])
			continue;
		r = text_row_begin(f, &classes);
		text_cell(&r, "%s", cont_class_name(site));
		text_cell(&r, "%" PRIu64, sum->cont_count[site]);
		text_cell(&r, "%s", format_ns(sum->cont_wait_ns[site], a, sizeof(a)));
		text_row_end(&r);
	}
	fprintf(f, " slow events %" PRIu64 ", drops %" PRIu64 "\n", sum->events, sum->drops);
}
