// SPDX-License-Identifier: GPL-2.0
/*
 * Fault counts from perf software counters: page-faults-min and
 * page-faults-maj per CPU in counting mode. A CPU that goes offline has its
 * counters closed; when it comes back they are opened again, and the counts
 * carried over so that the cumulative values stay monotonic.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "fault_source.h"
#include "perf_counter.h"

struct perf_cpu {
	int fd_min, fd_maj;		/* -1 when closed */
	struct fault_counts base;	/* carried over from closed counters */
	struct fault_counts last;	/* last cumulative value returned */
};

static void perf_cpu_close(struct perf_cpu *pc)
{
	if (pc->fd_min >= 0)
		close(pc->fd_min);
	if (pc->fd_maj >= 0)
		close(pc->fd_maj);
	pc->fd_min = pc->fd_maj = -1;
	pc->base = pc->last;
}

static int perf_cpu_open(struct perf_cpu *pc, int cpu)
{
	pc->fd_min = perf_sw_open(PERF_COUNT_SW_PAGE_FAULTS_MIN, cpu);
	pc->fd_maj = perf_sw_open(PERF_COUNT_SW_PAGE_FAULTS_MAJ, cpu);
	if (pc->fd_min >= 0 && pc->fd_maj >= 0)
		return 0;
	return pc->fd_min < 0 ? pc->fd_min : pc->fd_maj;
}

static int perf_cpu_read(struct perf_cpu *pc)
{
	uint64_t min, maj;
	int err = perf_sw_read(pc->fd_min, &min);

	if (!err)
		err = perf_sw_read(pc->fd_maj, &maj);
	if (err)
		return err;
	pc->last.min_flt = pc->base.min_flt + min;
	pc->last.maj_flt = pc->base.maj_flt + maj;
	return 0;
}

static void perf_close(struct fault_source *fs)
{
	struct perf_cpu *cpus = fs->priv;
	int cpu;

	for (cpu = 0; cpus && cpu < fs->nr_cpus; cpu++)
		perf_cpu_close(&cpus[cpu]);
	free(cpus);
	fs->priv = NULL;
}

static int perf_open(struct fault_source *fs, char *err, size_t errlen)
{
	struct perf_cpu *cpus = calloc(fs->nr_cpus, sizeof(*cpus));
	int cpu, opened = 0, first_err = 0;

	if (!cpus) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	fs->priv = cpus;
	fs->probe = PROBE_FAULTS_PERF;
	for (cpu = 0; cpu < fs->nr_cpus; cpu++) {
		int ret = perf_cpu_open(&cpus[cpu], cpu);

		/* Offline CPUs (ENODEV) are opened when they come online. */
		if (!ret)
			opened++;
		else if (ret != -ENODEV && !first_err)
			first_err = ret;
		if (ret)
			perf_cpu_close(&cpus[cpu]);
	}
	if (opened && !first_err)
		return 0;
	snprintf(err, errlen, "perf_event_open(page-faults-min): %s",
		 strerror(first_err ? -first_err : ENODEV));
	perf_close(fs);
	return -1;
}

static void perf_read(struct fault_source *fs, bool *online,
		      struct fault_counts *cum, uint64_t *drops)
{
	struct perf_cpu *cpus = fs->priv;
	int cpu;

	for (cpu = 0; cpu < fs->nr_cpus; cpu++) {
		struct perf_cpu *pc = &cpus[cpu];

		if (!online[cpu]) {
			if (pc->fd_min >= 0) {
				/* Counts stay readable after offlining. */
				perf_cpu_read(pc);
				perf_cpu_close(pc);
			}
			continue;
		}
		if (pc->fd_min < 0 && perf_cpu_open(pc, cpu)) {
			perf_cpu_close(pc);
			online[cpu] = false;
			continue;
		}
		if (perf_cpu_read(pc))
			drops[DROP_READ]++;
		cum[cpu] = pc->last;
	}
}

const struct fault_source_ops fault_perf_ops = {
	.name = "perf",
	.open = perf_open,
	.read = perf_read,
	.close = perf_close,
};
