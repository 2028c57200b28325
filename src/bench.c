// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "util.h"

static const struct {
	const char *name;
	int (*run)(int argc, char **argv);
} workloads[] = {
	{ "pft", bench_pft },
	{ "churn", bench_churn },
	{ "fork", bench_fork },
	{ "pcp", bench_pcp },
};

int bench_main(int argc, char **argv)
{
	size_t i;

	for (i = 0; argc > 0 && i < ARRAY_SIZE(workloads); i++)
		if (!strcmp(argv[0], workloads[i].name))
			return workloads[i].run(argc, argv);
	fprintf(stderr, "mmtop bench: %s%s; workloads: pft, churn, fork, pcp (see mmtop --help)\n",
		argc > 0 ? "unknown workload " : "missing workload",
		argc > 0 ? argv[0] : "");
	return 2;
}
