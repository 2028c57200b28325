// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <getopt.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>

#include "bench.h"
#include "kernel_features.h"
#include "samples.h"
#include "util.h"

static const struct {
	const char *name;
	int (*run)(int argc, char **argv);
	const struct bench_opt *opts;
} workloads[] = {
	{ "pft", bench_pft, bench_pft_opts },
	{ "churn", bench_churn, bench_churn_opts },
	{ "fork", bench_fork, bench_fork_opts },
	{ "pcp", bench_pcp, bench_pcp_opts },
};

/* bench_main's @kernel, for the recording's header. */
static bench_kernel_fn kernel_features;

/* Start the recording if --record was given; the header names @argv. */
static int bench_record_open(struct bench_record *b, int argc, char **argv)
{
	char header[1536], host[256] = "?", err[512], workload[256] = "", has[512] = "";
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
	if (kernel_features)
		kernel_features(has, sizeof(has));
	snprintf(header, sizeof(header),
		 "mmtop_version=%s\nkernel=%s\nhost=%s\nlabel=%s\nworkload=%s\n"
		 KERNEL_FEATURES_KEY "=%s\n",
		 MMTOP_VERSION, u.release, host, b->label ? b->label : u.release, workload, has);
	if (recorder_open(&b->rec, b->path, header, err, sizeof(err))) {
		fprintf(stderr, "mmtop bench: cannot record: %s\n", err);
		return -1;
	}
	b->on = true;
	return 0;
}

/* @list in kernel cpulist syntax into the bench_cpus @cpus; -1 if invalid or empty. */
static int bench_parse_cpus(const char *list, void *cpus)
{
	struct bench_cpus *c = cpus;
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

int bench_parse_warmup(const char *arg, void *warmup)
{
	unsigned int n;

	if (parse_uint(arg, &n) || n > 100)
		return -1;
	*(int *)warmup = n;
	return 0;
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

/* Beside each workload's own: --duration, taken out by bench_main. */
static const char every_workload[] =
"Every workload (mmtop bench WORKLOAD):\n"
"      --duration DURATION   run it again until this long has passed (e.g.\n"
"                            10s), so a short one can be watched; not for\n"
"                            recordings\n";

/* "  -s, --size SIZE": an option as its help and usage line show it. */
static void opt_words(const struct bench_opt *o, bool usage, char *buf, size_t len)
{
	const char *sep = o->arg ? " " : "", *arg = o->arg ? o->arg : "";

	if (usage && o->short_name)
		snprintf(buf, len, "[-%c%s%s]", o->short_name, sep, arg);
	else if (usage)
		snprintf(buf, len, "[--%s%s%s]", o->name, sep, arg);
	else if (o->short_name)
		snprintf(buf, len, "  -%c, --%s%s%s", o->short_name, o->name, sep, arg);
	else
		snprintf(buf, len, "      --%s%s%s", o->name, sep, arg);
}

#define HELP_COLUMN 28

static void print_section(FILE *f, const char *name, const struct bench_opt *table)
{
	const struct bench_opt *o;
	char words[64];
	int i;

	for (i = 0; name[i]; i++)
		fputc(toupper((unsigned char)name[i]), f);
	fprintf(f, " options (mmtop bench %s):\n", name);
	for (o = table; o->name; o++) {
		opt_words(o, false, words, sizeof(words));
		/* Too long for its column: the help starts on the next line. */
		if (strlen(words) >= HELP_COLUMN - 1)
			fprintf(f, "%s\n%*s", words, HELP_COLUMN, "");
		else
			fprintf(f, "%-*s", HELP_COLUMN, words);
		for (i = 0; o->help[i]; i++) {
			fputc(o->help[i], f);
			if (o->help[i] == '\n')
				fprintf(f, "%*s", HELP_COLUMN, "");
		}
		fputc('\n', f);
	}
	fputc('\n', f);
}

void bench_print_help(FILE *f, const char *workload)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(workloads); i++)
		if (!workload || !strcmp(workload, workloads[i].name))
			print_section(f, workloads[i].name, workloads[i].opts);
	fputs(every_workload, f);
}

static int usage_error(const struct bench_opt *table, const char *name)
{
	const struct bench_opt *o;
	char words[64];

	fprintf(stderr, "usage: mmtop bench %s", name);
	for (o = table; o->name; o++) {
		opt_words(o, true, words, sizeof(words));
		fprintf(stderr, " %s", words);
	}
	fputc('\n', stderr);
	return 2;
}

/* Option @o's argument @arg into its value, in @opts; -1 if invalid. */
static int set_value(const struct bench_opt *o, void *opts, const char *arg)
{
	void *v = (char *)opts + o->at;

	switch (o->kind) {
	case BENCH_FLAG:
		*(bool *)v = true;
		return 0;
	case BENCH_UINT:
		return parse_uint(arg, v);
	case BENCH_COUNT:
		return parse_uint(arg, v) || !*(unsigned int *)v ? -1 : 0;
	case BENCH_SIZE:
		return parse_size(arg, v) || *(uint64_t *)v < 4096 ? -1 : 0;
	case BENCH_STR:
		*(const char **)v = arg;
		return 0;
	case BENCH_CPUS:
		return bench_parse_cpus(arg, v);
	case BENCH_RECORD:
		((struct bench_record *)v)->path = arg;
		return 0;
	case BENCH_CALL:
		return o->parse(arg, v);
	}
	return -1;
}

/* After the options: the CPUs not given, the recording asked for. */
static int finish(const struct bench_opt *table, void *opts, int argc, char **argv)
{
	const struct bench_opt *o;

	for (o = table; o->name; o++) {
		void *v = (char *)opts + o->at;

		if (o->kind == BENCH_CPUS && !((struct bench_cpus *)v)->n)
			bench_allowed_cpus(v);
		if (o->kind == BENCH_RECORD && bench_record_open(v, argc, argv))
			return 1;
	}
	return 0;
}

#define BENCH_MAX_OPTS 16

int bench_parse(const struct bench_opt *table, void *opts, int argc, char **argv)
{
	struct option longopts[BENCH_MAX_OPTS + 1] = { { 0 } };
	char shorts[2 * BENCH_MAX_OPTS + 1] = "", *s = shorts;
	const char *name = argv[0];
	int i, opt;

	for (i = 0; table[i].name && i < BENCH_MAX_OPTS; i++) {
		longopts[i] = (struct option){ table[i].name,
			table[i].arg ? required_argument : no_argument, NULL, 256 + i };
		if (table[i].short_name) {
			*s++ = table[i].short_name;
			if (table[i].arg)
				*s++ = ':';
		}
	}
	/* A table too long for these arrays: said, not cut short in silence. */
	if (table[i].name) {
		fprintf(stderr, "mmtop bench %s: more than %d options in its table\n", name,
			BENCH_MAX_OPTS);
		return 2;
	}
	optind = 1;
	while ((opt = getopt_long(argc, argv, shorts, longopts, NULL)) != -1) {
		for (i = 0; opt < 256 && table[i].name && table[i].short_name != opt; i++)
			;
		if (opt >= 256)
			i = opt - 256;
		if (opt == '?' || !table[i].name)
			return usage_error(table, name);
		if (set_value(&table[i], opts, optarg)) {
			fprintf(stderr, "mmtop bench %s: invalid value '%s'\n", name, optarg);
			return usage_error(table, name);
		}
	}
	if (optind < argc)
		return usage_error(table, name);
	return finish(table, opts, argc, argv);
}

const char *bench_workload(size_t i)
{
	return i < ARRAY_SIZE(workloads) ? workloads[i].name : NULL;
}

/*
 * --duration SECS, taken out of @argv (it is for every workload): 0 if
 * absent, -1 if invalid or given with --record (a recording holds one
 * run's samples: -r and --iterations make more).
 */
static double take_duration(int *argc, char **argv)
{
	uint64_t ns = 0;
	bool record = false;
	int i, j;

	for (i = j = 0; i < *argc; i++) {
		const char *a = argv[i];

		record |= !strcmp(a, "--record") || !strncmp(a, "--record=", 9);
		if (!strncmp(a, "--duration=", 11))
			a += 11;
		else if (!strcmp(a, "--duration") && i + 1 < *argc)
			a = argv[++i];
		else if (!strcmp(a, "--duration"))
			return -1;
		else {
			argv[j++] = argv[i];
			continue;
		}
		if (parse_duration(a, &ns) || !ns)
			return -1;
	}
	*argc = j;
	return ns && record ? -1 : ns / 1e9;
}

/*
 * The workload, run again until @secs have passed (at least once), so that
 * a short one lasts long enough to be watched. In one process: its pid
 * stays the same.
 */
static int run_for(int (*run)(int, char **), int argc, char **argv, double secs)
{
	uint64_t end = clock_ns(CLOCK_MONOTONIC) + secs * 1e9;
	unsigned int pass = 1;
	int ret;

	for (;;) {
		ret = run(argc, argv);
		if (ret || clock_ns(CLOCK_MONOTONIC) >= end)
			return ret;
		printf("# --duration: pass %u\n", ++pass);
		fflush(stdout);
	}
}

int bench_main(int argc, char **argv, bench_kernel_fn kernel)
{
	double secs = take_duration(&argc, argv);
	size_t i;

	kernel_features = kernel;
	if (secs < 0) {
		fprintf(stderr, "mmtop bench: invalid --duration (a duration, e.g. 10s, without --record)\n");
		return 2;
	}
	for (i = 0; argc > 0 && i < ARRAY_SIZE(workloads); i++)
		if (!strcmp(argv[0], workloads[i].name))
			return run_for(workloads[i].run, argc, argv, secs);
	fprintf(stderr, "mmtop bench: %s%s; workloads: pft, churn, fork, pcp (see mmtop --help)\n",
		argc > 0 ? "unknown workload " : "missing workload",
		argc > 0 ? argv[0] : "");
	return 2;
}
