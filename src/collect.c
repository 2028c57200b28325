// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collect.h"
#include "util.h"

static void read_sources(struct collector *c)
{
	if (topology_online(&c->topo, c->online)) {
		/* Without the online mask, assume what we had is still up. */
		c->drops[DROP_READ]++;
	}
	c->faults.ops->read(&c->faults, c->online, c->cum, c->drops);
}

int collector_open(struct collector *c, const struct collector_opts *opts,
		   char *msg, size_t msglen)
{
	int nr, ret;

	memset(c, 0, sizeof(*c));
	ret = topology_load(&c->topo);
	if (ret) {
		snprintf(msg, msglen, "reading CPU topology: %s", strerror(-ret));
		return -1;
	}
	nr = c->topo.nr_cpus;
	c->online = calloc(nr, sizeof(*c->online));
	c->cum = calloc(nr, sizeof(*c->cum));
	c->prev = calloc(nr, sizeof(*c->prev));
	if (!c->online || !c->cum || !c->prev) {
		snprintf(msg, msglen, "out of memory");
		return -1;
	}
	ret = fault_source_open(&c->faults, opts->faults, nr, msg, msglen);
	if (ret < 0)
		return -1;
	read_sources(c);
	memcpy(c->prev, c->cum, nr * sizeof(*c->prev));
	c->last_ns = clock_ns(CLOCK_MONOTONIC);
	return ret;
}

int collector_snapshot_init(const struct collector *c, struct snapshot *s)
{
	return snapshot_init(s, c->topo.nr_cpus, c->topo.nr_nodes);
}

static uint64_t delta(uint64_t now, uint64_t before)
{
	return now >= before ? now - before : 0;
}

void collector_sample(struct collector *c, struct snapshot *s)
{
	uint64_t now;
	int cpu;

	read_sources(c);
	now = clock_ns(CLOCK_MONOTONIC);
	s->seq = ++c->seq;
	s->wall_ns = clock_ns(CLOCK_REALTIME);
	s->interval_ns = now - c->last_ns;
	s->probes = 1u << c->faults.probe;
	c->last_ns = now;
	for (cpu = 0; cpu < c->topo.nr_cpus; cpu++) {
		struct cpu_sample *cs = &s->cpus[cpu];

		cs->online = c->online[cpu];
		cs->node = c->topo.cpu_node[cpu];
		memset(&cs->faults, 0, sizeof(cs->faults));
		if (!cs->online)
			continue;
		cs->faults.min_flt = delta(c->cum[cpu].min_flt, c->prev[cpu].min_flt);
		cs->faults.maj_flt = delta(c->cum[cpu].maj_flt, c->prev[cpu].maj_flt);
		c->prev[cpu] = c->cum[cpu];
	}
	memcpy(s->drops, c->drops, sizeof(s->drops));
	snapshot_sum(s);
}

void collector_close(struct collector *c)
{
	if (c->faults.ops)
		c->faults.ops->close(&c->faults);
	free(c->online);
	free(c->cum);
	free(c->prev);
	topology_free(&c->topo);
	memset(c, 0, sizeof(*c));
}
