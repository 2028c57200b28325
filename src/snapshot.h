/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The model: one interval of mmtop's numbers as plain C data. The collector
 * (and later replay) produces snapshots; every sink (batch output, the
 * viewer, the recorder) consumes them. No libbpf or curses types here.
 */
#ifndef MMTOP_SNAPSHOT_H
#define MMTOP_SNAPSHOT_H

#include <stdbool.h>
#include <stdint.h>

/* Signals the collector can have on; a snapshot says which ones were. */
enum probe_id {
	PROBE_FAULTS_TP_BTF,	/* fault counts via tp_btf/sched_switch */
	PROBE_FAULTS_RAW_TP,	/* fault counts via raw_tp/sched_switch */
	PROBE_FAULTS_PERF,	/* fault counts via perf software counters */
	PROBE__COUNT
};

/* Things the collector lost or could not read; cumulative since start. */
enum drop_kind {
	DROP_FLUSH,	/* per-CPU flush failed: counts arrive an interval late */
	DROP_READ,	/* a counter or map read failed: the interval misses it */
	DROP__COUNT
};

struct fault_counts {
	uint64_t min_flt;
	uint64_t maj_flt;
};

struct cpu_sample {
	bool online;
	int node;
	struct fault_counts faults;	/* during the interval */
};

struct node_sample {
	int nr_online;			/* CPUs of the node online at the end */
	struct fault_counts faults;
};

struct snapshot {
	uint64_t seq;			/* 1 for the first interval */
	uint64_t wall_ns;		/* CLOCK_REALTIME at the end of the interval */
	uint64_t interval_ns;		/* measured length of the interval */
	uint32_t probes;		/* bitmask of 1 << enum probe_id */
	int nr_cpus;			/* possible CPUs */
	int nr_nodes;
	struct cpu_sample *cpus;
	struct node_sample *nodes;
	struct fault_counts total;
	uint64_t drops[DROP__COUNT];
};

int snapshot_init(struct snapshot *s, int nr_cpus, int nr_nodes);
void snapshot_free(struct snapshot *s);
/* Recompute per-node sums and the total from the per-CPU samples. */
void snapshot_sum(struct snapshot *s);
/* Events per second over the snapshot's interval. */
double snapshot_rate(const struct snapshot *s, uint64_t count);
uint64_t snapshot_drops(const struct snapshot *s);

const char *probe_name(enum probe_id id);
const char *drop_name(enum drop_kind kind);

#endif
