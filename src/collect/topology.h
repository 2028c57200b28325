/* SPDX-License-Identifier: GPL-2.0 */
/* CPUs and NUMA nodes of the running machine. */
#ifndef MMTOP_TOPOLOGY_H
#define MMTOP_TOPOLOGY_H

#include <stdbool.h>

struct topology {
	int nr_cpus;	/* possible CPUs: ids are 0..nr_cpus-1 */
	int nr_nodes;	/* node ids are 0..nr_nodes-1 */
	int *cpu_node;	/* node of each possible CPU (0 without NUMA) */
	bool numa;	/* libnuma says the kernel has NUMA support */
};

int topology_load(struct topology *t);
void topology_free(struct topology *t);
/* Fill online[0..nr_cpus-1] from /sys/devices/system/cpu/online; -errno on error. */
int topology_online(const struct topology *t, bool *online);

#endif
