// SPDX-License-Identifier: GPL-2.0
/*
 * The BPF side puts each page in a zone from page->flags, whose layout is
 * not in BTF: on 64-bit kernels with SPARSEMEM_VMEMMAP the top bits are
 * the node (NODES_SHIFT, from MAX_NUMNODES = the bits of nodemask_t), then
 * the zone (ZONES_SHIFT, from __MAX_NR_ZONES). The result is checked
 * against /proc/zoneinfo: pages landing outside populated zones are
 * reported, never silently merged.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <linux/types.h>

#include "mmtop.h"
#include "pcp.skel.h"
#include "kernel_has.h"
#include "pcp_source.h"
#include "util.h"

struct zone_info {
	char name[16];
	bool populated;
};

struct layout {
	unsigned int nodes_shift, zones_shift;
};

struct pcp_source {
	struct tp_object tp;
	struct pcp_bpf *skel;
	int nr_possible, nr_cpus;
	struct pcp_stats *percpu;	/* lookup buffer */
	struct pcp_stats *prev;		/* [slot][cpu] */
	struct zone_info zones[PCP_SLOTS];
	struct layout layout;
	uint64_t undecoded;		/* pages outside populated zones */
};

/* Zone names and which are populated, in zone order per node. */
static void read_zones(struct pcp_source *ps)
{
	char line[256], name[16];
	int n, node = -1, zone = -1;
	struct zone_info *z = NULL;
	long long managed;
	FILE *f = fopen("/proc/zoneinfo", "re");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "Node %d, zone %15s", &n, name) == 2) {
			zone = n == node ? zone + 1 : 0;
			node = n;
			z = node < MMTOP_MAX_NODES && zone < MMTOP_MAX_ZONES ?
			    &ps->zones[node * MMTOP_MAX_ZONES + zone] : NULL;
			if (z)
				snprintf(z->name, sizeof(z->name), "%s", name);
		} else if (z && sscanf(line, " managed %lld", &managed) == 1) {
			z->populated = managed > 0;
		}
	}
	fclose(f);
}

struct open_arg {
	const struct layout *l;
	bool refill_arg;
};

static void *skel_open(void *arg, struct bpf_object **obj)
{
	const struct open_arg *a = arg;
	struct pcp_bpf *skel = pcp_bpf__open();

	if (!skel)
		return NULL;
	skel->rodata->node_shift = 64 - a->l->nodes_shift;
	skel->rodata->zone_shift = 64 - a->l->nodes_shift - a->l->zones_shift;
	skel->rodata->node_mask = (1ULL << a->l->nodes_shift) - 1;
	skel->rodata->zone_mask = (1ULL << a->l->zones_shift) - 1;
	skel->rodata->refill_arg = a->refill_arg;
	*obj = skel->obj;
	return skel;
}

TP_OBJECT_SKEL_OPS(pcp, skel_open);

struct pcp_source *pcp_source_open(enum tp_flavour attach, const struct kernel_has *k,
				   int nr_cpus, char *err, size_t errlen)
{
	struct pcp_source *ps = calloc(1, sizeof(*ps));
	struct open_arg arg;

	if (!ps) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (k->nodes_shift < 0) {
		snprintf(err, errlen, "page->flags layout: nodemask_t not in BTF");
		free(ps);
		return NULL;
	}
	ps->layout.nodes_shift = k->nodes_shift;
	ps->layout.zones_shift = k->zones_shift;
	read_zones(ps);
	ps->nr_cpus = nr_cpus;
	ps->nr_possible = libbpf_num_possible_cpus();
	ps->percpu = calloc(ps->nr_possible, sizeof(*ps->percpu));
	ps->prev = calloc((size_t)PCP_SLOTS * ps->nr_possible, sizeof(*ps->prev));
	arg.l = &ps->layout;
	arg.refill_arg = k->pcp_refill_arg;
	if (!ps->percpu || !ps->prev ||
	    tp_object_open(&ps->tp, &pcp_ops, attach, k->btf, &arg, err, errlen)) {
		pcp_source_close(ps);
		return NULL;
	}
	ps->skel = ps->tp.skel;
	return ps;
}

enum probe_id pcp_source_probe(const struct pcp_source *ps)
{
	return ps->tp.btf ? PROBE_PCP_TP_BTF : PROBE_PCP_RAW_TP;
}

static void grow_into(struct pcp_counts *c, const struct pcp_stats *now,
		      const struct pcp_stats *before)
{
	c->refills += now->refills - before->refills;
	c->refill_pages += now->refill_pages - before->refill_pages;
	c->drains += now->drains - before->drains;
	c->drain_pages += now->drain_pages - before->drain_pages;
	c->buddy_pages += now->buddy_pages - before->buddy_pages;
}

static bool any(const struct pcp_counts *c)
{
	return c->refill_pages || c->drain_pages || c->buddy_pages;
}

/* One slot: its growth per CPU into the CPU rows, summed into a zone row. */
static void read_slot(struct pcp_source *ps, struct snapshot *s, __u32 slot)
{
	struct pcp_stats *prev = &ps->prev[(size_t)slot * ps->nr_possible];
	struct pcp_counts zone = { 0 };
	struct zone_row *z;
	int cpu;

	for (cpu = 0; cpu < ps->nr_possible; cpu++) {
		struct pcp_counts c = { 0 };

		grow_into(&c, &ps->percpu[cpu], &prev[cpu]);
		if (cpu < s->nr_cpus)
			pcp_add(&s->cpus[cpu].pcp, &c);
		pcp_add(&zone, &c);
		prev[cpu] = ps->percpu[cpu];
	}
	if (!any(&zone))
		return;
	if (slot == PCP_SLOTS - 1 || !ps->zones[slot].populated)
		ps->undecoded += zone.refill_pages + zone.drain_pages + zone.buddy_pages;
	z = snapshot_push(&s->zones);
	if (!z)
		return;
	z->node = slot < PCP_SLOTS - 1 ? (int)(slot / MMTOP_MAX_ZONES) : -1;
	snprintf(z->name, sizeof(z->name), "%s",
		 slot < PCP_SLOTS - 1 && ps->zones[slot].name[0] ? ps->zones[slot].name : "?");
	z->pcp = zone;
}

void pcp_source_read(struct pcp_source *ps, struct snapshot *s, uint64_t *drops)
{
	__u32 slot;

	for (slot = 0; slot < PCP_SLOTS; slot++) {
		if (bpf_map__lookup_elem(ps->skel->maps.pcp_stats, &slot, sizeof(slot),
					 ps->percpu, ps->nr_possible * sizeof(*ps->percpu), 0)) {
			drops[DROP_READ]++;
			continue;
		}
		read_slot(ps, s, slot);
	}
	snprintf(s->pcp_method, sizeof(s->pcp_method),
		 "zone from page->flags (NODES_SHIFT %u, ZONES_SHIFT %u): %s%llu pages outside populated zones so far",
		 ps->layout.nodes_shift, ps->layout.zones_shift,
		 ps->undecoded ? "CHECK FAILED, " : "",
		 (unsigned long long)ps->undecoded);
}

void pcp_source_cost(struct pcp_source *ps, struct prog_cost *c)
{
	tp_object_cost(&ps->tp, NULL, c);
}

void pcp_source_close(struct pcp_source *ps)
{
	if (!ps)
		return;
	tp_object_close(&ps->tp);
	free(ps->percpu);
	free(ps->prev);
	free(ps);
}
