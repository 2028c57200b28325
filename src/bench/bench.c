// SPDX-License-Identifier: GPL-2.0
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>

#include "bench.h"
#include "samples.h"
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

	if (b->warmup < 0)
		b->warmup = b->path ? 1 : 0;
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

int bench_parse_cpus(const char *list, struct bench_cpus *c)
{
	bool set[BENCH_MAX_CPUS] = { false };
	int i;

	if (parse_cpu_list(list, set, BENCH_MAX_CPUS) <= 0)
		return -1;
	for (i = 0, c->n = 0; i < BENCH_MAX_CPUS; i++)
		if (set[i])
			c->cpu[c->n++] = i;
	return 0;
}

void bench_allowed_cpus(struct bench_cpus *c)
{
	cpu_set_t set;
	int i;

	c->n = 0;
	if (sched_getaffinity(0, sizeof(set), &set))
		return;
	for (i = 0; i < CPU_SETSIZE && i < BENCH_MAX_CPUS; i++)
		if (CPU_ISSET(i, &set))
			c->cpu[c->n++] = i;
}

void bench_print_cpus(const struct bench_cpus *c)
{
	int i;

	for (i = 0; i < c->n; i++)
		printf("%s%d", i ? "," : "", c->cpu[i]);
	printf("%s", c->n ? "" : "any");
}

void bench_pin(int cpu)
{
	cpu_set_t set;

	if (cpu < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

int bench_parse_warmup(const char *arg)
{
	unsigned int n;

	return parse_uint(arg, &n) || n > 100 ? -1 : (int)n;
}

void bench_iteration_name(const struct bench_record *b, unsigned int i, char *buf,
			  size_t len)
{
	bool warm = i < (unsigned int)b->warmup;

	snprintf(buf, len, warm ? "w%u" : "%u", warm ? i + 1 : i + 1 - b->warmup);
}

void bench_record_sample(struct bench_record *b, unsigned int i, const char *metric,
			 double value)
{
	char name[128];
	int err;

	if (!b->on)
		return;
	snprintf(name, sizeof(name), "%s%s", i < (unsigned int)b->warmup ? METRIC_WARMUP : "",
		 metric);
	err = recorder_sample(&b->rec, name, value);
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
