/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The collector: owns every kernel-facing resource (BPF objects, perf
 * counters) and turns them into one struct snapshot per interval. It knows
 * nothing of how snapshots are shown or stored.
 */
#ifndef MMTOP_COLLECT_H
#define MMTOP_COLLECT_H

#include <stddef.h>

#include "fault_source.h"
#include "ksyms.h"
#include "lock_source.h"
#include "pcp_source.h"
#include "pid_filter.h"
#include "snapshot.h"
#include "topology.h"
#include "vma_rows.h"

struct collector_opts {
	enum fault_source_kind faults;
	enum tp_flavour attach;
	uint32_t disabled;		/* bitmask of 1 << enum probe_family */
	uint32_t enabled;		/* opt-in families turned on */
	uint64_t slow_ns;
	struct pid_filter *pids;	/* NULL: every process; a tree grows */
	const char *cgroup;		/* --cgroup: a subtree's tasks; NULL: all */
	bool raw_addresses;		/* call-site kernel addresses in rows */
	bool spin_waits;		/* mmap_lock waits from the request */
	bool vma_waits;			/* VMA write waits on 6.15+ (--vma-waits) */
	bool exact;			/* exact mode from the start (--exact) */
	unsigned int exact_every;	/* --exact-every: one interval in N; 0: none */
	/* What the kernel has, read by the caller (probe); NULL: read here. */
	const struct kernel_has *kernel;
};

struct collector {
	struct topology topo;
	struct fault_source faults;	/* ops NULL: family off */
	struct lock_source *locks;	/* NULL: family off */
	struct pcp_source *pcp;		/* NULL: family off (the default) */
	int stats_fd;			/* BPF run-time statistics on; -1: not */
	/* Cumulative, at the last sample: programs' runs and time, the
	 * machine's busy CPU, mmtop's. */
	struct prog_cost cost_all;
	uint64_t busy_ns, self_ns;
	/* Exact mode in the interval so far: on since (0: off), time on. */
	uint64_t exact_since_ns, exact_ns;
	uint64_t toggle_ns;		/* attach_ns of the interval so far */
	unsigned int exact_every;	/* --exact-every */
	struct pid_filter *pids;	/* as opts.pids */
	char na[FAMILY__COUNT][SNAPSHOT_NA_LEN];	/* why a family is off */
	char kernel_has[512];	/* what the kernel has, as a recording keeps it */
	struct ksyms_loader ksyms;	/* for the lock families, until they open */
	struct vma_tracker vmas;
	uint64_t slow_ns;
	bool *online;
	struct fault_counts *cum, *prev;
	uint64_t last_ns;		/* CLOCK_MONOTONIC of the last sample */
	uint64_t seq;
	uint64_t drops[DROP__COUNT];
};

/*
 * Attach everything and take the baseline. Returns 0, 1 with a warning in
 * @msg (a fallback was taken), or -1 with the reason in @msg.
 */
int collector_open(struct collector *c, const struct collector_opts *opts,
		   char *msg, size_t msglen);
/* A snapshot sized for this machine, to pass to collector_sample(). */
int collector_snapshot_init(const struct collector *c, struct snapshot *s);
/* Bitmask of 1 << enum probe_id: what is attached. */
uint32_t collector_probes(const struct collector *c);
/* Fill @s with what happened since the previous sample (or the baseline). */
void collector_sample(struct collector *c, struct snapshot *s);
/*
 * Exact mode on or off, at the user's request: 0, or -1 with the reason
 * in @msg. What the turn costs shows in the interval's attach_ns.
 */
int collector_set_exact(struct collector *c, bool on, char *msg, size_t msglen);
bool collector_exact(const struct collector *c);
/* Between samples: take notable-event records off the ring buffers. */
void collector_poll(struct collector *c);
/* Readable when notable-event records are waiting, or -1. */
int collector_poll_fd(const struct collector *c);
/* Detach and free everything; safe on a partly opened collector. */
void collector_close(struct collector *c);

#endif
