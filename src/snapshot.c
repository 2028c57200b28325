// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "snapshot.h"
#include "util.h"

static const char *const probe_names[PROBE__COUNT] = {
	[PROBE_FAULTS_TP_BTF] = "faults:tp_btf",
	[PROBE_FAULTS_RAW_TP] = "faults:raw_tp",
	[PROBE_FAULTS_PERF] = "faults:perf",
};

static const char *const drop_names[DROP__COUNT] = {
	[DROP_FLUSH] = "flush",
	[DROP_READ] = "read",
};

int snapshot_init(struct snapshot *s, int nr_cpus, int nr_nodes)
{
	memset(s, 0, sizeof(*s));
	s->cpus = calloc(nr_cpus, sizeof(*s->cpus));
	s->nodes = calloc(nr_nodes, sizeof(*s->nodes));
	if (!s->cpus || !s->nodes) {
		snapshot_free(s);
		return -ENOMEM;
	}
	s->nr_cpus = nr_cpus;
	s->nr_nodes = nr_nodes;
	return 0;
}

void snapshot_free(struct snapshot *s)
{
	free(s->cpus);
	free(s->nodes);
	s->cpus = NULL;
	s->nodes = NULL;
}

static void add_faults(struct fault_counts *sum, const struct fault_counts *f)
{
	sum->min_flt += f->min_flt;
	sum->maj_flt += f->maj_flt;
}

void snapshot_sum(struct snapshot *s)
{
	int i;

	memset(s->nodes, 0, s->nr_nodes * sizeof(*s->nodes));
	memset(&s->total, 0, sizeof(s->total));
	for (i = 0; i < s->nr_cpus; i++) {
		const struct cpu_sample *c = &s->cpus[i];
		struct node_sample *n = &s->nodes[c->node];

		n->nr_online += c->online;
		add_faults(&n->faults, &c->faults);
		add_faults(&s->total, &c->faults);
	}
}

double snapshot_rate(const struct snapshot *s, uint64_t count)
{
	if (!s->interval_ns)
		return 0;
	return (double)count * NSEC_PER_SEC / s->interval_ns;
}

uint64_t snapshot_drops(const struct snapshot *s)
{
	uint64_t sum = 0;
	int i;

	for (i = 0; i < DROP__COUNT; i++)
		sum += s->drops[i];
	return sum;
}

const char *probe_name(enum probe_id id)
{
	return id < PROBE__COUNT ? probe_names[id] : "?";
}

const char *drop_name(enum drop_kind kind)
{
	return kind < DROP__COUNT ? drop_names[kind] : "?";
}
