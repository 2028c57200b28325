// SPDX-License-Identifier: GPL-2.0
/* Command line -> subcommand. */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <stdlib.h>
#include <bpf/libbpf.h>

#include "compare.h"
#include "metrics.h"
#include "live.h"
#include "replay.h"
#include "report.h"
#include "bench.h"
#include "caps.h"
#include "probe.h"
#include "serve.h"
#include "stop.h"
#include "util.h"

static const char compare_usage[] =
"usage: mmtop compare [-f text|markdown | --html [-o FILE]] BASE.rec OTHER.rec...\n"
"Recordings side by side: each metric's mean (harmonic for rates), its\n"
"change relative to BASE and Welch's t-test p-value (see mmtop(8)).\n"
"  -f, --format FORMAT       text (default) or markdown\n"
"      --html                a self-contained HTML page: the tables and each\n"
"                            metric's samples drawn per recording\n"
"  -o, --output FILE         the page's file (default: standard output)\n"
"  -h, --help                this help\n";

static const char probe_usage[] =
"usage: mmtop probe\n"
"What the running kernel offers mmtop, a line per item (tracepoints, BPF\n"
"features, capabilities, layouts) and whether the default probe set can\n"
"run (exit 0), or only in part or not at all (exit 1). See mmtop(8), probe.\n";

static const char usage_text[] =
"usage: mmtop [OPTIONS] [-- COMMAND [ARGS]]\n"
"                                       live view of memory-management contention\n"
"       mmtop record -o FILE [OPTIONS] [-- COMMAND]\n"
"                                       record snapshots to FILE\n"
"       mmtop record -o DIR --rotate DURATION|SIZE [--keep N] [OPTIONS]\n"
"                                       record into rotated files in DIR\n"
"       mmtop replay [-b] [-f FORMAT] [-d SECONDS] [--begin TIME] [--end TIME]\n"
"                    FILE|DIR...\n"
"                                       show or print a recording\n"
"       mmtop serve [--listen ADDR:PORT] [--top N] [OPTIONS]\n"
"                                       Prometheus metrics over HTTP, no terminal\n"
"       mmtop report [-f FORMAT | --html [-o FILE]] [--begin TIME] [--end TIME]\n"
"                    FILE|DIR...\n"
"                                       a recording summed up, or drawn\n"
"       mmtop compare [-f text|markdown | --html [-o FILE]] BASE.rec OTHER.rec...\n"
"                                       recordings side by side, with significance\n"
"       mmtop probe                     what the running kernel offers\n"
"       mmtop bench pft [PFT OPTIONS]   page-fault workload\n"
"       mmtop bench churn [CHURN OPTIONS]\n"
"                                       mmap_lock writers against faulting threads\n"
"       mmtop bench fork [FORK OPTIONS] fork cost of a populated parent\n"
"       mmtop bench pcp [PCP OPTIONS]   per-CPU page list refills and drains\n"
"\n"
"Options:\n"
"  -b, --batch               batch mode: print one block per interval (the\n"
"                            default when stdout is not a terminal)\n"
"      --no-color            no colours in the viewer (also: NO_COLOR set)\n"
"  -d, --delay SECONDS       interval between updates (default 1; 0.5, 250ms)\n"
"  -n, --iterations COUNT    stop after COUNT intervals, the viewer too (as\n"
"                            top -n; default: run until interrupted)\n"
"  -f, --format FORMAT       batch output format: text, csv, json,\n"
"                            openmetrics or prometheus (text format 0.0.4)\n"
"      --fault-source SOURCE per-CPU fault counts from: auto (default), sched\n"
"                            (kernel per-task counters read at context switch)\n"
"                            or perf (software counters)\n"
"  -p, --pid PID[,PID...]    show only these processes' lock, VMA-lock and\n"
"                            slow-event rows\n"
"  -- COMMAND [ARGS]         start COMMAND and follow its process tree (as -p);\n"
"                            batch mode ends when it exits; it runs with\n"
"                            mmtop's privileges unless --user is given\n"
"      --user USER           run COMMAND as USER (name or uid): its uid, gid,\n"
"                            groups, HOME, USER and LOGNAME, as sudo -u does\n"
"      --slow DURATION       log mmap_lock waits and holds at least this long\n"
"                            (default 1ms)\n"
"      --disable-probe FAMILY\n"
"                            leave a probe family off (repeatable): faults,\n"
"                            mmap_lock, contention, fork or pcp; its programs\n"
"                            are not loaded and its cells show n/a\n"
"      --enable-probe FAMILY turn an opt-in family on: pcp (PCP refills and\n"
"                            drains; its events fire once per page)\n"
"      --attach MODE         tracepoint programs: auto (tp_btf where it attaches,\n"
"                            else raw_tp, per tracepoint),\n"
"                            tp_btf or raw_tp\n"
"  -o, --output FILE         record: the recording to write (mode 0600);\n"
"                            batch: each interval replaces FILE whole (a\n"
"                            temporary file renamed), e.g. for a textfile\n"
"                            collector; report, compare --html: the page\n"
"      --html                report, compare: a self-contained HTML page of\n"
"                            plots (to -o FILE, mode 0600, or stdout)\n"
"      --listen ADDR:PORT    serve: where to listen (default\n"
"                            " SERVE_LISTEN_DEFAULT "; port 0 picks a free one)\n"
"      --top N               serve, openmetrics: per-process series for the N\n"
"                            busiest commands, the rest as comm=\"other\"\n"
"                            (default 10)\n"
"      --pid-label           serve, openmetrics: per-process series keyed by\n"
"                            pid and comm (default: by comm, a stable set)\n"
"      --duration DURATION   stop after this long (e.g. 30s, 5m)\n"
"      --label LABEL         record: a name for the run (default: kernel)\n"
"      --rotate DURATION|SIZE\n"
"                            record: -o is a directory of files named\n"
"                            mmtop-YYYYMMDD-HHMMSS.rec, a new one every\n"
"                            DURATION (e.g. 1h) or SIZE (e.g. 100M; capitals)\n"
"      --keep N              record --rotate: keep the newest N files\n"
"      --begin TIME, --end TIME\n"
"                            replay, report: only intervals in this range;\n"
"                            TIME in UTC: 2026-11-30T14:05[:09], 14:05, @SECS\n"
"      --raw-addresses       kernel addresses of call sites in JSON, CSV and\n"
"                            recordings (by default: symbol names only)\n"
"      --exact               exact mode: every mmap_lock acquisition traced,\n"
"                            for acquisitions and holds per call site, the\n"
"                            VMA-lock outcome and dup_mmap's hold (two\n"
"                            programs on every acquisition: mmap churn runs\n"
"                            at 0.7-0.8 of its speed); the viewer's x turns\n"
"                            it on and off. Default: waits, forks and faults\n"
"                            alone, programs on rare events only\n"
"      --exact-every N       one interval in N in exact mode (N >= 2), each\n"
"                            marked with its share: record and serve sample\n"
"                            acquisitions over time at that cost\n"
"      --spin-waits          exact mode: mmap_lock waits from the request, a\n"
"                            writer's optimistic spin included (a third\n"
"                            program on every acquisition; default: from the\n"
"                            slow path)\n"
"      --vma-waits           exact mode: VMA write-lock waits on 6.15+ kernels\n"
"                            (D-state sleeps of write holders): a program on\n"
"                            every context switch (default: off)\n"
"  -v, --verbose             show libbpf's messages\n"
"  -h, --help                show this help\n"
"  -V, --version             show the version\n"
"\n"
"PFT options (mmtop bench pft):\n"
"  -t, --threads N[,N...]    worker threads; a list runs each (default 1)\n"
"  -s, --size SIZE           memory per thread, e.g. 64M, 1G (default 128M)\n"
"      --vma shared|per-thread\n"
"                            one VMA for all threads (default) or one each\n"
"      --cpu LIST            pin threads round robin to CPUs, e.g. 0 or 0-1\n"
"  -r, --repeat N            repetitions (default 1)\n"
"      --warmup N            repetitions first, shown as w1, recorded as\n"
"                            warmup:faults/..., not counted (default 1 with\n"
"                            --record, else 0)\n"
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
"                            warmup:fork-..., not counted (default 1 with\n"
"                            --record, else 0)\n"
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
"                            recordings\n"
"\n"
"Exit status: 0 ok, 1 error, 2 usage error or missing privileges.\n"
"See mmtop(8).\n";

static int usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "mmtop: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'mmtop --help'.\n");
	return 2;
}

static bool verbose;

static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (!verbose || level == LIBBPF_DEBUG)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

static int need_tracing_caps(void)
{
	char msg[256];

	if (!caps_check_tracing(msg, sizeof(msg)))
		return 0;
	fprintf(stderr, "mmtop: %s\n", msg);
	return 2;
}

/*
 * "123,456" -> the PID filter; an empty item ("1,,2") is an error. A PID
 * that does not exist (yet) is kept, with a warning: it may appear.
 */
static bool is_help(const char *arg)
{
	return !strcmp(arg, "--help") || !strcmp(arg, "-h");
}

/* The part of the help from the line starting @title to the blank line after it. */
static void print_help_section(const char *title)
{
	const char *p = strstr(usage_text, title), *end;

	if (!p)
		return;
	end = strstr(p, "\n\n");
	fwrite(p, 1, end ? (size_t)(end - p) + 1 : strlen(p), stdout);
}

/*
 * bench --help, or bench WORKLOAD ... --help: the workloads' options (or
 * the one's) from the help's sections; true if help was asked for.
 */
static bool bench_help(int argc, char **argv)
{
	const char *w;
	char title[64];
	bool all = argc > 0 && is_help(argv[0]);
	int i, j, asked = all;
	size_t k;

	if (!argc)
		return false;
	for (i = 1; i < argc && !asked; i++)
		asked = is_help(argv[i]);
	for (k = 0; !all && (w = bench_workload(k)) && strcmp(argv[0], w); k++)
		;
	/* Not a workload: bench_main says so. */
	if (!asked || (!all && !w))
		return false;
	printf("usage: mmtop bench %s [OPTIONS]\n\n", all ? "WORKLOAD" : argv[0]);
	for (k = 0; (w = bench_workload(k)); k++) {
		if (!all && strcmp(argv[0], w))
			continue;
		for (j = 0; w[j]; j++)
			title[j] = toupper((unsigned char)w[j]);
		snprintf(title + j, sizeof(title) - j, " options (mmtop bench %s):", w);
		print_help_section(title);
	}
	print_help_section("Every workload (mmtop bench WORKLOAD):");
	return true;
}

/* As the man page promises: a filter for a few processes of interest. */
#define PIDS_MAX 64

/* -p: 0, -1 for a list that is not one, or -2 for more than PIDS_MAX pids. */
static int parse_pids(const char *arg, struct pid_filter *f)
{
	char buf[PIDS_MAX * 8], *tok, *rest = buf;
	const char *c;
	int n = 1;

	for (c = arg; *c; c++)
		n += *c == ',';
	if (n > PIDS_MAX)
		return -2;
	if (!*arg || strlen(arg) >= sizeof(buf))
		return -1;
	strcpy(buf, arg);
	while ((tok = strsep(&rest, ","))) {
		unsigned int pid;

		if (parse_uint(tok, &pid) || !pid || pid_filter_add(f, pid))
			return -1;
		if (kill(pid, 0) && errno == ESRCH)
			fprintf(stderr, "mmtop: warning: no process %u (yet)\n", pid);
	}
	return 0;
}

static int set_family(const char *name, uint32_t *mask)
{
	int i;

	for (i = 0; i < FAMILY__COUNT; i++) {
		if (!strcmp(name, family_name(i))) {
			*mask |= 1u << i;
			return 0;
		}
	}
	return -1;
}

static const struct option longopts[] = {
	{ "batch", no_argument, NULL, 'b' },
	{ "output", required_argument, NULL, 'o' },
	{ "duration", required_argument, NULL, 'U' },
	{ "label", required_argument, NULL, 'L' },
	{ "raw-addresses", no_argument, NULL, 'X' },
	{ "spin-waits", no_argument, NULL, 'W' },
	{ "exact", no_argument, NULL, 'x' },
	{ "exact-every", required_argument, NULL, 'Y' },
	{ "vma-waits", no_argument, NULL, 'w' },
	{ "html", no_argument, NULL, 'H' },
	{ "listen", required_argument, NULL, 'l' },
	{ "rotate", required_argument, NULL, 'R' },
	{ "keep", required_argument, NULL, 'K' },
	{ "begin", required_argument, NULL, 'B' },
	{ "end", required_argument, NULL, 'e' },
	{ "top", required_argument, NULL, 'T' },
	{ "pid-label", no_argument, NULL, 'I' },
	{ "no-color", no_argument, NULL, 'C' },
	{ "delay", required_argument, NULL, 'd' },
	{ "iterations", required_argument, NULL, 'n' },
	{ "format", required_argument, NULL, 'f' },
	{ "fault-source", required_argument, NULL, 'F' },
	{ "pid", required_argument, NULL, 'p' },
	{ "slow", required_argument, NULL, 'S' },
	{ "disable-probe", required_argument, NULL, 'D' },
	{ "enable-probe", required_argument, NULL, 'E' },
	{ "attach", required_argument, NULL, 'A' },
	{ "user", required_argument, NULL, 'u' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

/* The long name of option @code, for messages. */
static const char *option_name(int code)
{
	const struct option *l;

	for (l = longopts; l->name; l++)
		if (l->val == code)
			return l->name;
	return "?";
}

/*
 * Parse the live/batch options; returns -1 to go on, else an exit status.
 * Before the subcommand (@before_command) parsing stops at the first
 * operand, the subcommand's name; after it, options and operands mix.
 */
static void print_mode_help(const char *cmd);

/* @cmd: the subcommand whose options these are; NULL before any. */
static int parse_options(int argc, char **argv, struct live_opts *o, const char *cmd)
{
	bool before_command = !cmd;
	unsigned int top;
	int opt, ret;

	/* '+': stop at the first non-option, the subcommand. */
	while ((opt = getopt_long(argc, argv, before_command ? "+bd:n:f:p:o:vhV" :
				  "bd:n:f:p:o:vhV", longopts, NULL)) != -1) {
		if (opt > 0 && opt < (int)sizeof(o->given))
			o->given[opt] = true;
		switch (opt) {
		case 'b':
			o->batch = o->print = true;
			break;
		case 'o':
			o->output = optarg;
			break;
		case 'l':
			o->listen = optarg;
			break;
		case 'R':
			if (rotation_parse(optarg, &o->rotate))
				return usage_error("invalid --rotate '%s' (a duration of 1s or more, e.g. 1h, or a size of 4K or more, e.g. 100M)", optarg);
			o->rotating = true;
			break;
		case 'K':
			if (parse_uint(optarg, &o->rotate.keep) || !o->rotate.keep)
				return usage_error("invalid --keep '%s' (1 or more)", optarg);
			break;
		case 'B':
		case 'e':
			if (opt == 'B' ? parse_time(optarg, &o->range.begin_ns, &o->range.begin_tod) :
			    parse_time(optarg, &o->range.end_ns, &o->range.end_tod))
				return usage_error("invalid time '%s' (YYYY-MM-DDTHH:MM[:SS], UTC, or @SECONDS)", optarg);
			break;
		case 'T':
			if (parse_uint(optarg, &top) || top > 10000)
				return usage_error("invalid --top '%s' (0 to 10000)", optarg);
			o->batch_opts.top = top;
			break;
		case 'I':
			o->batch_opts.pid_label = true;
			break;
		case 'U':
			if (parse_duration(optarg, &o->duration_ns) || !o->duration_ns)
				return usage_error("invalid duration '%s'", optarg);
			break;
		case 'L':
			o->label = optarg;
			break;
		case 'X':
			o->collect.raw_addresses = true;
			break;
		case 'W':
			o->collect.spin_waits = true;
			break;
		case 'w':
			o->collect.vma_waits = true;
			break;
		case 'x':
			o->collect.exact = true;
			break;
		case 'Y':
			if (parse_uint(optarg, &o->collect.exact_every) || o->collect.exact_every < 2)
				return usage_error("invalid --exact-every '%s' (2 or more intervals)", optarg);
			break;
		case 'H':	/* report --html: o->given says it */
			break;
		case 'C':
			o->color = false;
			break;
		case 'd':
			if (parse_duration(optarg, &o->batch_opts.interval_ns))
				return usage_error("-d '%s' is not a number of seconds (e.g. 1, 0.5, 250ms)", optarg);
			if (o->batch_opts.interval_ns < 10000000)
				return usage_error("-d '%s': the interval must be at least 0.01 s", optarg);
			break;
		case 'n':
			if (parse_uint(optarg, &o->batch_opts.count) || !o->batch_opts.count)
				return usage_error("invalid count '%s'", optarg);
			break;
		case 'f':
			if (output_format_parse(optarg, &o->batch_opts.format))
				return usage_error("unknown format '%s' (text, csv, json, openmetrics, prometheus)", optarg);
			o->print = true;
			break;
		case 'F':
			if (fault_source_parse(optarg, &o->collect.faults))
				return usage_error("unknown fault source '%s' (auto, sched, perf)", optarg);
			break;
		case 'p':
			ret = parse_pids(optarg, &o->pids);
			if (ret == -2)
				return usage_error("-p: at most %d PIDs", PIDS_MAX);
			if (ret)
				return usage_error("invalid PID list '%.64s%s'", optarg,
						   strlen(optarg) > 64 ? "..." : "");
			break;
		case 'S':
			if (parse_duration(optarg, &o->collect.slow_ns))
				return usage_error("invalid duration '%s'", optarg);
			break;
		case 'D':
			if (set_family(optarg, &o->collect.disabled))
				return usage_error("unknown probe family '%s' (faults, mmap_lock, contention, fork, pcp)", optarg);
			break;
		case 'E':
			if (set_family(optarg, &o->collect.enabled))
				return usage_error("unknown probe family '%s' (pcp)", optarg);
			break;
		case 'A':
			if (tp_flavour_parse(optarg, &o->collect.attach))
				return usage_error("unknown attach mode '%s' (auto, tp_btf, raw_tp)", optarg);
			break;
		case 'u':
			if (follow_user_parse(optarg, &o->user))
				return usage_error("--user: no such user '%s'", optarg);
			break;
		case 'v':
			verbose = true;
			break;
		case 'h':
			if (cmd)
				print_mode_help(cmd);
			else
				fputs(usage_text, stdout);
			return 0;
		case 'V':
			printf("mmtop %s\n", MMTOP_VERSION);
			return 0;
		default:
			/* getopt has named the option and what is wrong with it. */
			fprintf(stderr, "Try 'mmtop --help'.\n");
			return 2;
		}
	}
	return -1;
}

/* The command after the options, or NULL; "--" starts a command to follow. */
static const char *subcommand(int argc, char **argv, struct live_opts *o)
{
	const char *cmd = optind < argc ? argv[optind] : NULL;

	if (optind > 1 && !strcmp(argv[optind - 1], "--")) {
		o->command = argv + optind;
		return NULL;
	}
	return cmd;
}

/*
 * The options each mode takes, by their short codes (longopts); -v, -h
 * and -V go everywhere. One given to a mode that does not take it is a
 * usage error, not silently nothing.
 */
static const struct { const char *cmd, *takes; } mode_options[] = {
	{ "",        "bCdnfFpSDEAuoUXWxYwTI" },		/* the viewer, batch */
	{ "record",  "bdnfFpSDEAuoUXWxYwRKL" },
	{ "serve",   "dnUFpSDEAXWxYwlTI" },
	{ "replay",  "bCdnfoBe" },
	{ "report",  "fBeoH" },
	{ "compare", "" },
	{ "probe",   "" },
	{ "bench",   "" },
};

static bool refused_option(const char *cmd, const struct live_opts *o)
{
	const char *takes = NULL;
	size_t i;
	int c;

	for (i = 0; i < ARRAY_SIZE(mode_options); i++)
		if (!strcmp(mode_options[i].cmd, cmd ? cmd : ""))
			takes = mode_options[i].takes;
	if (!takes)
		return false;		/* an unknown command: said elsewhere */
	for (c = 1; c < (int)sizeof(o->given); c++) {
		if (!o->given[c] || strchr("vhV", c) || strchr(takes, c))
			continue;
		if (cmd)
			usage_error("mmtop %s does not take --%s", cmd, option_name(c));
		else
			usage_error("--%s is for a subcommand (see --help)", option_name(c));
		return true;
	}
	return false;
}

/* The synopsis lines of @cmd, from the help's; "usage:" before the first. */
static void print_synopsis(const char *cmd)
{
	const char *line = usage_text, *end;
	char want[32];
	bool in = false, first = true;

	snprintf(want, sizeof(want), "mmtop %s", cmd);
	for (; *line && *line != '\n'; line = end + 1) {
		end = strchr(line, '\n');
		if (!end)
			return;
		/* An entry starts with "mmtop"; its description lines do not. */
		if (!strncmp(line + 7, "mmtop", 5))
			in = !strncmp(line + 7, want, strlen(want)) &&
			     strchr(" \n", line[7 + strlen(want)]);
		if (!in)
			continue;
		printf("%s%.*s\n", first ? "usage: " : "       ", (int)(end - line - 7), line + 7);
		first = false;
	}
}

/* The lines of the option named @want in the help's Options section. */
static void print_option_text(const char *want)
{
	const char *opts = strstr(usage_text, "\nOptions:\n"), *p, *end;

	for (p = opts; p && (p = strstr(p + 1, want)); ) {
		const char *line = p;

		while (line > opts && line[-1] != '\n')
			line--;
		/* The option's own line: its name in the option column. */
		if (p - line > 6 || line[0] != ' ')
			continue;
		for (end = strchr(line, '\n'); end && !strncmp(end + 1, "                            ", 28);
		     end = strchr(end + 1, '\n'))
			;
		printf("%.*s\n", end ? (int)(end - line) : (int)strlen(line), line);
		return;
	}
}

static void print_option(const char *name)
{
	char want[40];

	snprintf(want, sizeof(want), "--%s ", name);
	print_option_text(want);
}

/*
 * mmtop CMD --help: its synopsis and the options it takes (mode_options),
 * each with its text from the help.
 */
static void print_mode_help(const char *cmd)
{
	const char *takes = "";
	const struct option *l;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(mode_options); i++)
		if (!strcmp(mode_options[i].cmd, cmd))
			takes = mode_options[i].takes;
	print_synopsis(cmd);
	printf("\nOptions:\n");
	for (l = longopts; l->name; l++)
		if (strchr(takes, l->val) || strchr("vh", l->val))
			print_option(l->name);
	if (!strcmp(cmd, "record"))
		print_option_text("-- COMMAND");
	printf("\nExit status: 0 ok, 1 error, 2 usage error or missing privileges.\nSee mmtop(8).\n");
}

/* mmtop record -o FILE [OPTIONS] [-- COMMAND]: batch, quiet unless asked. */
static int record_main(int argc, char **argv, struct live_opts *o)
{
	int ret;

	optind = 0;	/* 0: glibc starts over, in this call's ordering mode */
	ret = parse_options(argc, argv, o, "record");
	if (ret >= 0)
		return ret;
	if (refused_option("record", o))
		return 2;
	if (subcommand(argc, argv, o) && !o->command)
		return usage_error("record takes options and -- COMMAND only");
	if (!o->output)
		return usage_error("record needs -o FILE (with --rotate: -o DIR)");
	o->record = o->output;
	if (o->rotating)
		o->rotate.dir = o->output;
	else if (o->rotate.keep)
		return usage_error("--keep needs --rotate");
	o->batch = true;
	o->batch_opts.quiet = !o->print;
	return -1;
}

/* mmtop serve [--listen ADDR:PORT] [--top N] [OPTIONS]: no terminal, no printing. */
static int serve_main(int argc, char **argv, struct live_opts *o)
{
	const char *bad;
	int ret;

	optind = 0;	/* 0: glibc starts over, in this call's ordering mode */
	ret = parse_options(argc, argv, o, "serve");
	if (ret >= 0)
		return ret;
	if (refused_option("serve", o))
		return 2;
	if (subcommand(argc, argv, o) || o->command)
		return usage_error("serve takes options only");
	if (!o->listen)
		o->listen = SERVE_LISTEN_DEFAULT;
	bad = serve_listen_invalid(o->listen);
	if (bad)
		return usage_error("--listen '%s': %s", o->listen, bad);
	o->batch = true;
	return -1;
}

/* mmtop replay [-b] [-f FORMAT] [-d SECONDS] FILE */
static int replay_main(int argc, char **argv, struct live_opts *o)
{
	struct replay_opts r;
	int ret;

	o->batch_opts.interval_ns = 0;
	optind = 0;	/* 0: glibc starts over, in this call's ordering mode */
	ret = parse_options(argc, argv, o, "replay");
	if (ret >= 0)
		return ret;
	if (refused_option("replay", o))
		return 2;
	if (optind >= argc)
		return usage_error("replay needs a recording (files, or a directory of rotated files)");
	if (o->output && !o->batch)
		return usage_error("-o FILE needs batch mode (-b)");
	o->batch_opts.path = o->output;
	stop_signals_catch();
	r = (struct replay_opts){
		.paths = argv + optind, .nr_paths = argc - optind, .range = o->range,
		.batch = o->batch, .color = o->color, .batch_opts = o->batch_opts,
	};
	return replay_run(&r);
}

/* mmtop report [-f FORMAT] FILE */
static int report_main(int argc, char **argv, struct live_opts *o)
{
	int ret;

	optind = 0;	/* 0: glibc starts over, in this call's ordering mode */
	ret = parse_options(argc, argv, o, "report");
	if (ret >= 0)
		return ret;
	if (refused_option("report", o))
		return 2;
	if (optind >= argc)
		return usage_error("report needs a recording (files, or a directory of rotated files)");
	if (o->given['H'] && o->given['f'])
		return usage_error("report: --html or --format, not both");
	if (o->output && !o->given['H'])
		return usage_error("report: -o FILE is for --html");
	return report_run(&(struct report_opts){
		.paths = argv + optind, .nr_paths = argc - optind, .range = o->range,
		.format = o->batch_opts.format, .html = o->given['H'], .output = o->output });
}

/* mmtop compare [--format text|markdown | --html [-o FILE]] BASE.rec OTHER.rec... */
static int compare_main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "html", no_argument, NULL, 'H' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	enum compare_format format = COMPARE_TEXT;
	const char *output = NULL;
	bool html = false;
	int opt;

	optind = 0;	/* 0: glibc starts over, in this call's ordering mode */
	while ((opt = getopt_long(argc, argv, "f:o:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'h':
			fputs(compare_usage, stdout);
			return 0;
		case 'H':
			html = true;
			break;
		case 'o':
			output = optarg;
			break;
		case 'f':
			if (strcmp(optarg, "text") && strcmp(optarg, "markdown"))
				return usage_error("compare: --format text or markdown");
			format = strcmp(optarg, "markdown") ? COMPARE_TEXT : COMPARE_MARKDOWN;
			if (html)
				return usage_error("compare: --html or --format, not both");
			break;
		default:
			return usage_error("compare: --format text or markdown, or --html [-o FILE]");
		}
	}
	if (html && format != COMPARE_TEXT)
		return usage_error("compare: --html or --format, not both");
	if (output && !html)
		return usage_error("compare: -o FILE is for --html");
	if (argc - optind < 2)
		return usage_error("compare needs a base recording and at least one other");
	return compare_run(argv + optind, argc - optind, html ? COMPARE_HTML : format, output);
}

int main(int argc, char **argv)
{
	struct live_opts o = {
		.batch_opts = { .interval_ns = NSEC_PER_SEC, .format = OUTPUT_TEXT,
				.top = METRICS_TOP_DEFAULT },
		.batch = !isatty(STDOUT_FILENO),
		.color = !getenv("NO_COLOR"),
		.collect = {
			.faults = FAULT_SOURCE_AUTO,
			.attach = TP_AUTO,
			.slow_ns = NSEC_PER_SEC / 1000,
		},
	};
	const char *cmd;
	int ret = parse_options(argc, argv, &o, NULL);

	if (ret >= 0)
		return ret;
	cmd = subcommand(argc, argv, &o);
	/* The viewer's options, or those given before compare, probe, bench. */
	if ((!cmd || !strcmp(cmd, "compare") || !strcmp(cmd, "probe") || !strcmp(cmd, "bench")) &&
	    refused_option(cmd, &o))
		return 2;
	if (!cmd && (o.given['T'] || o.given['I']) &&
	    !(o.batch && (o.batch_opts.format == OUTPUT_OPENMETRICS ||
			  o.batch_opts.format == OUTPUT_PROMETHEUS)))
		return usage_error("--%s is for serve, and for batch mode's openmetrics and prometheus formats",
				   o.given['T'] ? "top" : "pid-label");
	libbpf_set_print(libbpf_print);
	if (o.given['x'] && o.given['Y'])
		return usage_error("--exact and --exact-every: one or the other");
	if (o.command && !o.command[0])
		return usage_error("-- needs a command");
	if (o.user.set && !o.command)
		return usage_error("--user is for -- COMMAND");
	if (cmd && !strcmp(cmd, "bench"))
		return bench_help(argc - optind - 1, argv + optind + 1) ? 0 :
		       bench_main(argc - optind - 1, argv + optind + 1);
	if (cmd && !strcmp(cmd, "probe") && optind + 1 < argc && is_help(argv[optind + 1]))
		return fputs(probe_usage, stdout) < 0;
	if (cmd && !strcmp(cmd, "probe"))
		return optind + 1 < argc ? usage_error("probe takes no arguments") :
		       probe_run(stdout);
	if (cmd && !strcmp(cmd, "replay"))
		return replay_main(argc - optind, argv + optind, &o);
	if (cmd && !strcmp(cmd, "compare"))
		return compare_main(argc - optind, argv + optind);
	if (cmd && !strcmp(cmd, "report"))
		return report_main(argc - optind, argv + optind, &o);
	if (cmd && !strcmp(cmd, "record")) {
		ret = record_main(argc - optind, argv + optind, &o);
		if (ret >= 0)
			return ret;
	} else if (cmd && !strcmp(cmd, "serve")) {
		ret = serve_main(argc - optind, argv + optind, &o);
		if (ret >= 0)
			return ret;
	} else if (cmd) {
		return usage_error("unknown command '%s'", cmd);
	} else if (o.output && !o.batch) {
		return usage_error("-o FILE needs batch mode (-b) or record");
	}
	/* Before any BPF is loaded: a stop request at any stage is honoured. */
	stop_signals_catch();
	if (!o.record)
		o.batch_opts.path = o.output;
	if (o.duration_ns)
		o.batch_opts.count = (o.duration_ns + o.batch_opts.interval_ns - 1) /
				     o.batch_opts.interval_ns;
	ret = need_tracing_caps();
	if (!ret)
		ret = live_run(&o);
	pid_filter_free(&o.pids);
	return ret;
}
