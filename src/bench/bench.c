// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>

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

int bench_record_open(struct bench_record *b, int argc, char **argv)
{
	char header[1024], host[256] = "?", err[512], workload[256] = "";
	struct utsname u = { 0 };
	size_t n = 0;
	int i;

	if (!b->path)
		return 0;
	/* The workload's own command line, for whoever compares. */
	for (i = 0; i < argc && n < sizeof(workload); i++)
		n += snprintf(workload + n, sizeof(workload) - n, "%s%s", i ? " " : "", argv[i]);
	gethostname(host, sizeof(host) - 1);
	uname(&u);
	snprintf(header, sizeof(header),
		 "mmtop_version=%s\nkernel=%s\nhost=%s\nlabel=%s\nworkload=%s\n",
		 MMTOP_VERSION, u.release, host, b->label ? b->label : u.release, workload);
	if (recorder_open(&b->rec, b->path, header, err, sizeof(err))) {
		fprintf(stderr, "mmtop bench: cannot record: %s\n", err);
		return -1;
	}
	b->on = true;
	return 0;
}

void bench_record_sample(struct bench_record *b, const char *metric, double value)
{
	int err;

	if (!b->on)
		return;
	err = recorder_sample(&b->rec, metric, value);
	if (err) {
		fprintf(stderr, "mmtop bench: recording stopped: %s: %s\n", b->path, strerror(-err));
		bench_record_close(b);
	}
}

void bench_record_close(struct bench_record *b)
{
	if (b->on)
		recorder_close(&b->rec);
	b->on = false;
}

const char *bench_workload(size_t i)
{
	return i < ARRAY_SIZE(workloads) ? workloads[i].name : NULL;
}

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
