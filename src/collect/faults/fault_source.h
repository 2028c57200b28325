/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where per-CPU page-fault counts come from. Two exact sources:
 *  - sched: the kernel's per-task counters harvested at migrations, exits
 *    and a per-interval task walk (bpf/faults.bpf.c): nothing runs per
 *    fault or per context switch;
 *  - perf: software counters (page-faults-min/maj), one pair per CPU.
 * Both report monotonic cumulative counts per CPU; the collector takes
 * deltas.
 */
#ifndef MMTOP_FAULT_SOURCE_H
#define MMTOP_FAULT_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel_has.h"
#include "snapshot.h"
#include "tp_object.h"

enum fault_source_kind {
	FAULT_SOURCE_AUTO,	/* sched if it loads, else perf */
	FAULT_SOURCE_SCHED,
	FAULT_SOURCE_PERF,
};

/* Faults of one process during the last interval. */
struct proc_faults {
	int pid;
	struct fault_counts faults;
};

struct fault_source {
	const struct fault_source_ops *ops;
	enum probe_id probe;	/* which mechanism is active */
	int nr_cpus;
	enum tp_flavour attach;	/* for sched */
	const struct kernel_has *kernel;	/* for sched: what it has, while opening */
	void *priv;
};

struct fault_source_ops {
	const char *name;
	int (*open)(struct fault_source *fs, char *err, size_t errlen);
	/*
	 * Fill cum[cpu] for every CPU with online[cpu] set; clear online[cpu]
	 * for a CPU that turned out to be offline. Failures that lose or
	 * delay counts are added to drops[].
	 */
	void (*read)(struct fault_source *fs, bool *online,
		     struct fault_counts *cum, uint64_t *drops);
	/*
	 * Per-process faults of the interval that the last read() closed:
	 * every process that faulted, exited ones included. NULL where the
	 * source has no per-process counts (perf).
	 */
	const struct proc_faults *(*processes)(struct fault_source *fs, int *nr);
	/* Add its programs' runs and run time; NULL: it has none (perf). */
	void (*cost)(struct fault_source *fs, struct prog_cost *c);
	void (*close)(struct fault_source *fs);
};

extern const struct fault_source_ops fault_sched_ops;
extern const struct fault_source_ops fault_perf_ops;

int fault_source_parse(const char *s, enum fault_source_kind *kind);
/*
 * Open the requested source (for AUTO: sched, then perf). Returns 0, or 1
 * when AUTO fell back to perf (err then says why), or -1 (err says why).
 */
int fault_source_open(struct fault_source *fs, enum fault_source_kind kind,
		      enum tp_flavour attach, const struct kernel_has *kernel, int nr_cpus,
		      char *err, size_t errlen);

#endif
