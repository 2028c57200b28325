// SPDX-License-Identifier: GPL-2.0
/* CPUs: per CPU and per node, faults and the per-VMA lock outcome. */
#include <curses.h>

#include "draw.h"
#include "table.h"
#include "views.h"

static const struct ui_column cols[] = {
	{ "CPU", 6, true }, { "NODE", 4, false }, { "STATE", 7, true },
	{ "MINFLT/s", 10, false }, { "MAJFLT/s", 9, false },
	{ "FALLBK/s", 9, false }, { "ANON/s", 7, false }, { "VMA-OK%", 7, false },
	{ "REFILL/s", 9, false }, { "DRAIN/s", 9, false },
};

enum { COL_MINFLT = 3 };

static void fill(const struct ui_state *st, struct ui_cell *c, const char *name,
		 int node, const char *state, const struct fault_counts *f,
		 uint64_t fallbacks, uint64_t anon, const struct pcp_counts *p)
{
	const struct snapshot *s = ui_snapshot(st);
	bool faults = !family_na(st, FAMILY_FAULTS)[0];
	bool vma = !snapshot_vma_na(s);
	uint64_t all = f->min_flt + f->maj_flt;

	cell_set(&c[0], 0, "%s", name);
	cell_set(&c[1], node, "%d", node);
	cell_set(&c[2], 0, "%s", state);
	if (faults) {
		cell_set(&c[3], snapshot_rate(s, f->min_flt), "%.1f", snapshot_rate(s, f->min_flt));
		cell_set(&c[4], snapshot_rate(s, f->maj_flt), "%.1f", snapshot_rate(s, f->maj_flt));
	} else {
		cell_set(&c[3], -1, "n/a");
		cell_set(&c[4], -1, "n/a");
	}
	if (vma) {
		double ok = all ? 100.0 * vma_ok(all, fallbacks, anon) : -1;

		cell_set(&c[5], fallbacks, "%.1f", snapshot_rate(s, fallbacks));
		cell_set(&c[6], anon, "%.1f", snapshot_rate(s, anon));
		if (ok < 0 || !faults)
			cell_set(&c[7], -1, "-");
		else
			cell_set(&c[7], ok, "%.1f", ok < 0 ? 0 : ok);
	} else {
		cell_set(&c[5], -1, "n/a");
		cell_set(&c[6], -1, "n/a");
		cell_set(&c[7], -1, "n/a");
	}
	if (family_na(st, FAMILY_PCP)[0]) {
		cell_set(&c[8], -1, "n/a");
		cell_set(&c[9], -1, "n/a");
	} else {
		cell_set(&c[8], snapshot_rate(s, p->refills), "%.1f", snapshot_rate(s, p->refills));
		cell_set(&c[9], snapshot_rate(s, p->drains), "%.1f", snapshot_rate(s, p->drains));
	}
}

static void cpus_draw(struct ui_state *st, int y, int h)
{
	const struct snapshot *s = ui_snapshot(st);
	struct table_state *ts = &st->tables[VIEW_CPUS];
	struct ui_table t;
	char name[16];
	int i;

	table_init(&t, cols, sizeof(cols) / sizeof(cols[0]), COL_MINFLT);
	t.sampled_cols = 1u << 5 | 1u << 6 | 1u << 7;	/* FALLBK/s, ANON/s, VMA-OK% */
	for (i = 0; i < s->nr_cpus; i++) {
		struct ui_cell *c = table_row_in(&t, i, 1);

		if (!c)
			break;
		snprintf(name, sizeof(name), "cpu%d", i);
		fill(st, c, name, s->cpus[i].node, s->cpus[i].online ? "online" : "offline",
		     &s->cpus[i].faults, s->cpus[i].fallbacks, s->cpus[i].anon,
		     &s->cpus[i].pcp);
	}
	for (i = 0; i < s->nr_nodes; i++) {
		/*
		 * Aggregates: above the CPU rows, whatever the sort, so that a
		 * machine of hundreds of CPUs keeps them on the screen.
		 */
		struct ui_cell *c = table_row_in(&t, s->nr_cpus + i, 0);

		if (!c)
			break;
		snprintf(name, sizeof(name), "node%d", i);
		fill(st, c, name, i, "node", &s->nodes[i].faults, s->nodes[i].fallbacks,
		     s->nodes[i].anon, &s->nodes[i].pcp);
	}
	table_finish(&t, ts, st);
	table_draw(&t, ts, y, h - 1);
	if (family_na(st, FAMILY_PCP)[0])
		draw_text(y + h - 1, 0, COLS, C_DIM, "REFILL/s, DRAIN/s (PCP lists): n/a (%s)",
			  family_na(st, FAMILY_PCP));
	else
		draw_text(y + h - 1, 0, COLS, C_DIM, "REFILL/s, DRAIN/s: PCP list refills and drains; %s",
			  ui_snapshot(st)->pcp_method);
	table_free(&t);
}

const struct view_ops view_cpus = {
	.name = "CPUs",
	.draw = cpus_draw,
};
