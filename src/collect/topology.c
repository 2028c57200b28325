// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <numa.h>
#include <stdlib.h>
#include <string.h>

#include "topology.h"
#include "util.h"

#define CPU_SYSFS "/sys/devices/system/cpu/"

static int count_cpulist(const char *path)
{
	char buf[4096];
	char *p;
	int err = read_small_file(path, buf, sizeof(buf));

	if (err)
		return err;
	/* The last id of the list is the highest: possible is dense from 0. */
	p = buf + strcspn(buf, "\n");
	*p = '\0';
	p = strrchr(buf, ',');
	p = p ? p + 1 : buf;
	if (strchr(p, '-'))
		p = strchr(p, '-') + 1;
	return atoi(p) + 1;
}

int topology_load(struct topology *t)
{
	int cpu;

	memset(t, 0, sizeof(*t));
	t->nr_cpus = count_cpulist(CPU_SYSFS "possible");
	if (t->nr_cpus <= 0)
		return t->nr_cpus < 0 ? t->nr_cpus : -EINVAL;
	t->cpu_node = calloc(t->nr_cpus, sizeof(*t->cpu_node));
	if (!t->cpu_node)
		return -ENOMEM;
	t->numa = numa_available() >= 0;
	t->nr_nodes = t->numa ? numa_max_node() + 1 : 1;
	for (cpu = 0; cpu < t->nr_cpus && t->numa; cpu++) {
		int node = numa_node_of_cpu(cpu);

		t->cpu_node[cpu] = node >= 0 && node < t->nr_nodes ? node : 0;
	}
	return 0;
}

void topology_free(struct topology *t)
{
	free(t->cpu_node);
	t->cpu_node = NULL;
}

int topology_online(const struct topology *t, bool *online)
{
	char buf[4096];
	int err = read_small_file(CPU_SYSFS "online", buf, sizeof(buf));

	if (err)
		return err;
	memset(online, 0, t->nr_cpus * sizeof(*online));
	return parse_cpu_list(buf, online, t->nr_cpus) < 0 ? -EINVAL : 0;
}
