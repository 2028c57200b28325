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

/* Each workload's options, a section each, for mmtop --help and bench --help. */
const char bench_usage[] =
"PFT options (mmtop bench pft):\n"
"  -t, --threads N[,N...]    worker threads; a list runs each (default 1)\n"
"  -s, --size SIZE           memory per thread, e.g. 64M, 1G (default 128M)\n"
"      --vma shared|per-thread\n"
"                            one VMA for all threads (default) or one each\n"
"      --cpu LIST            pin threads round robin to CPUs, e.g. 0 or 0-1\n"
"  -r, --repeat N            repetitions (default 1)\n"
"      --warmup N            repetitions first, shown as w1, recorded as\n"
"                            warmup:faults/..., not counted (1 by default\n"
"                            with --record, else 0)\n"
"      --thp                 allow transparent huge pages (default: 4K only)\n"
"      --record FILE         each repetition's faults/sec-N and faults/cpu-N as\n"
"                            samples in a recording, for compare\n"
"      --label NAME          the recording's name in compare (default: kernel)\n"
"      --iterations N        as -r\n"
"\n"
"CHURN options (mmtop bench churn):\n"
"  -t, --threads N           fault threads (default 1; 0: the churn thread\n"
"                            alone, not with --paced or --shared-vma)\n"
"  -n, --rounds N            rounds of mmap, mprotect, mremap, munmap and two\n"
"                            brk calls (default 2000)\n"
"      --writers N           churn threads, each making the rounds (default 1;\n"
"                            beyond one, unpaced)\n"
"      --chunk SIZE          mapping each fault thread maps afresh, then\n"
"                            touches (default 1M)\n"
"      --fork N              also fork N times (child exits at once)\n"
"      --shared-vma          fault threads fault (THP) in one shared VMA whose\n"
"                            last page the churn thread mprotects back and forth\n"
"      --paced               each round and fork waits until a fault thread maps\n"
"                            a fresh chunk: writers run while faults are in flight\n"
"      --proc-reader         a second process reads /proc/PID/smaps of this one\n"
"                            in a loop, holding its mmap_lock from outside\n"
"\n"
"FORK options (mmtop bench fork):\n"
"  -s, --size SIZE           populated anonymous memory (default 256M)\n"
"  -n, --forks N             forks to time (default 20)\n"
"      --thp                 back it with THP (MADV_HUGEPAGE); default 4K\n"
"      --each                a line per fork: fork, the child's pid, its time\n"
"                            in us\n"
"      --cpu LIST            rounds' CPUs, round robin (default: all allowed)\n"
"      --iterations N        rounds of FORKS forks, each in a process of its\n"
"                            own (default 1)\n"
"      --warmup N            rounds first, shown as w1, recorded as\n"
"                            warmup:fork-..., not counted (1 by default\n"
"                            with --record, else 0)\n"
"      --record FILE         each round's mean as a sample in a recording, for\n"
"                            compare; 4K and THP both unless --thp\n"
"      --label NAME          the recording's name in compare (default: kernel)\n"
"\n"
"PCP options (mmtop bench pcp):\n"
"  -s, --size SIZE           memory each thread maps and touches per round\n"
"                            (default 32M)\n"
"  -r, --rounds N            rounds (default 8)\n"
"      --cpu A[,B]           the two threads' CPUs (default 0,1)\n"
"\n"
"Every workload (mmtop bench WORKLOAD):\n"
"      --duration DURATION   run it again until this long has passed (e.g.\n"
"                            10s), so a short one can be watched; not for\n"
"                            recordings\n";

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

int bench_main(int argc, char **argv)
{
	double secs = take_duration(&argc, argv);
	size_t i;

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
