// SPDX-License-Identifier: GPL-2.0
/*
 * A recording with known contents, written through mmtop's own recorder:
 * for the HTML report's tests (a known spike, a known gap, a hostile
 * process name) and for make bench (a day of 1-s intervals).
 *
 *   synth_rec FILE INTERVALS [SPIKE_AT GAP_AT GAP_LEN]
 *
 * Two CPUs on one node (SYNTH_CPUS and SYNTH_NODES in the environment:
 * more, each node a run of CPUs), 1-s intervals from 2026-12-01T00:00:00Z.
 * Every interval: CPU 0 takes 1000 + (i % 100) faults, CPU 1 takes 2000,
 * each further CPU c takes c faults but the last, 50000; four
 * mmap_lock rows (fault read, mmap write, munmap write, mprotect write) of
 * 10 acquisitions each, 1 us of wait and 2 us of hold per acquisition;
 * a contention row and two blame rows (one holder another process, named
 * "<i id=pwn>&'\"", which must show as text). Every 60th interval a fork
 * of a 64 MiB parent (THP-backed every other time). Interval SPIKE_AT has
 * 1,000,000 faults on CPU 1. The GAP_LEN intervals from GAP_AT are not
 * written: the recording has a gap of GAP_LEN seconds there.
 */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "recorder.h"
#include "snapshot.h"

#define START_NS 1796083200000000000ULL	/* 2026-12-01T00:00:00Z */
#define SEC 1000000000ULL
#define HOSTILE "<i id=pwn>&'\""

static const enum callsite sites[] = {
	CALLSITE_FAULT, CALLSITE_MMAP, CALLSITE_MUNMAP, CALLSITE_MPROTECT,
};

static void add_locks(struct snapshot *s)
{
	size_t i;

	for (i = 0; i < sizeof(sites) / sizeof(sites[0]); i++) {
		struct lock_row *r = snapshot_push(&s->locks);

		if (!r)
			return;
		r->pid = 100;
		strcpy(r->comm, "worker");
		r->site = sites[i];
		r->write = sites[i] != CALLSITE_FAULT;
		r->acquired = r->holds = 10;
		r->wait_ns = 10000;
		r->hold_ns = 20000;
		r->wait_max_ns = 1000;
		r->hold_max_ns = 2000;
		r->wait.bucket[9] = 10;		/* 512-1023 ns */
		r->hold.bucket[10] = 10;
	}
}

static void add_blame(struct snapshot *s)
{
	struct blame_row *b = snapshot_push(&s->blame);

	if (b) {
		*b = (struct blame_row){ .pid = 100, .site = CALLSITE_FAULT, .holder_pid = 100,
					 .holder_site = CALLSITE_MMAP, .holder_write = true,
					 .count = 10, .wait_ns = 10000, .wait_max_ns = 1000 };
		strcpy(b->comm, "worker");
		strcpy(b->holder_comm, "worker");
	}
	b = snapshot_push(&s->blame);
	if (b) {
		*b = (struct blame_row){ .pid = 100, .site = CALLSITE_FAULT, .holder_pid = 200,
					 .holder_site = CALLSITE_PROC, .count = 1, .wait_ns = 5000,
					 .wait_max_ns = 5000 };
		strcpy(b->comm, "worker");
		strcpy(b->holder_comm, HOSTILE);
	}
}

static void add_fork(struct snapshot *s, unsigned long i)
{
	struct fork_row *f = snapshot_push(&s->forks);
	bool thp = i / 60 % 2;

	if (!f)
		return;
	*f = (struct fork_row){ .wall_ns = s->wall_ns, .pid = 100, .tid = 100, .child = 1000 + i,
				.latency_ns = thp ? 200000 : 1000000, .dup_hold_ns = thp ? 150000 : 900000,
				.anon_kb = 65536, .thp_kb = thp ? 65536 : 0, .stalled = 2 };
	strcpy(f->comm, "worker");
	strcpy(f->syscall, "fork");
}

static int node_of(const struct snapshot *s, int cpu)
{
	return cpu * s->nr_nodes / s->nr_cpus;
}

static void fill(struct snapshot *s, unsigned long i, unsigned long spike)
{
	struct cont_row *cr;
	int c;

	snapshot_clear_rows(s);
	s->seq = i + 1;
	s->wall_ns = START_NS + (i + 1) * SEC;
	s->interval_ns = SEC;
	s->probes = 1u << PROBE_FAULTS_TP_BTF | 1u << PROBE_MMAP_LOCK_TP_BTF |
		    1u << PROBE_CONTENTION_TP_BTF | 1u << PROBE_FORK_TP_BTF;
	s->cpus[0] = (struct cpu_sample){ .online = true, .faults.min_flt = 1000 + i % 100,
					  .fallbacks = 10 };
	s->cpus[1] = (struct cpu_sample){ .online = true, .faults.min_flt = i == spike ? 1000000 : 2000 };
	for (c = 2; c < s->nr_cpus; c++)
		s->cpus[c] = (struct cpu_sample){ .online = true,
			.faults.min_flt = c == s->nr_cpus - 1 ? 50000 : c };
	for (c = 0; c < s->nr_cpus; c++)
		s->cpus[c].node = node_of(s, c);
	snapshot_sum(s);
	add_locks(s);
	add_blame(s);
	cr = snapshot_push(&s->conts);
	if (cr) {
		*cr = (struct cont_row){ .cls = CONT_CLASS_OWN_MMAP, .pid = 100, .count = 3,
					 .wait_ns = 3000, .wait_max_ns = 1500 };
		strcpy(cr->comm, "worker");
		strcpy(cr->type, "rwsem");
		strcpy(cr->mode, "read");
	}
	if (i % 60 == 59)
		add_fork(s, i);
}

/* The header: the machine's CPUs and nodes, each node a run of CPUs. */
static void header_of(char *buf, size_t len, int cpus, int nodes)
{
	size_t n = snprintf(buf, len, "mmtop_version=synthetic\nkernel=synthetic\nhost=synth\n"
			    "label=synthetic day\ncpus=%d\nnodes=%d\nnode_map=", cpus, nodes);
	int c;

	for (c = 0; c < cpus && n < len; c++)
		n += snprintf(buf + n, len - n, "%s%d", c ? "," : "", c * nodes / cpus);
	if (n < len)
		snprintf(buf + n, len - n, "\n");
}

static int env_int(const char *name, int def)
{
	const char *v = getenv(name);

	return v && atoi(v) > 0 ? atoi(v) : def;
}

int main(int argc, char **argv)
{
	unsigned long n, i, spike = -1UL, gap_at = -1UL, gap_len = 0;
	struct recorder rec;
	struct snapshot s;
	char err[512], header[4096];
	int cpus = env_int("SYNTH_CPUS", 2), nodes = env_int("SYNTH_NODES", 1);

	if (argc != 3 && argc != 6) {
		fprintf(stderr, "usage: synth_rec FILE INTERVALS [SPIKE_AT GAP_AT GAP_LEN]\n");
		return 2;
	}
	/* zlib's state per frame: keep the heap instead of a brk pair each time. */
	mallopt(M_TRIM_THRESHOLD, 64 << 20);
	mallopt(M_TOP_PAD, 16 << 20);
	n = strtoul(argv[2], NULL, 10);
	if (argc == 6) {
		spike = strtoul(argv[3], NULL, 10);
		gap_at = strtoul(argv[4], NULL, 10);
		gap_len = strtoul(argv[5], NULL, 10);
	}
	header_of(header, sizeof(header), cpus, nodes);
	if (snapshot_init(&s, cpus, nodes) || recorder_open(&rec, argv[1], header, err, sizeof(err))) {
		fprintf(stderr, "synth_rec: %s\n", err);
		return 1;
	}
	for (i = 0; i < n; i++) {
		if (i >= gap_at && i < gap_at + gap_len)
			continue;
		fill(&s, i, spike);
		if (recorder_write(&rec, &s)) {
			fprintf(stderr, "synth_rec: writing %s failed\n", argv[1]);
			return 1;
		}
	}
	recorder_close(&rec);
	snapshot_free(&s);
	return 0;
}
