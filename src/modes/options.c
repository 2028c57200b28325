// SPDX-License-Identifier: GPL-2.0
/*
 * Every option of mmtop's commands, once: its names, argument, the
 * commands that take it, what it sets and its help. getopt's tables, the
 * help's Options sections and the refusal of an option a command does not
 * take are made from cli_options[] (bench's workloads parse their own).
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cgroup_names.h"
#include "cli.h"
#include "metrics.h"
#include "serve.h"
#include "util.h"

#define LIVE (1u << CLI_LIVE)
#define RECORD (1u << CLI_RECORD)
#define SERVE (1u << CLI_SERVE)
#define REPLAY (1u << CLI_REPLAY)
#define REPORT (1u << CLI_REPORT)
#define TRACING (LIVE | RECORD | SERVE)	/* the modes that load BPF */
#define EVERY (~0u)

int usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "mmtop: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'mmtop --help'.\n");
	return 2;
}

/* Each setter: -1 to go on, else the exit status (a usage error said). */
typedef int (*set_fn)(struct live_opts *o, const char *arg);

static int set_batch(struct live_opts *o, const char *arg)
{
	(void)arg;
	o->batch = o->print = true;
	return -1;
}

static int set_no_color(struct live_opts *o, const char *arg)
{
	(void)arg;
	o->color = false;
	return -1;
}

static int set_delay(struct live_opts *o, const char *arg)
{
	if (parse_duration(arg, &o->batch_opts.interval_ns))
		return usage_error("-d '%s' is not a number of seconds (e.g. 1, 0.5, 250ms)", arg);
	if (o->batch_opts.interval_ns < 10000000)
		return usage_error("-d '%s': the interval must be at least 0.01 s", arg);
	return -1;
}

static int set_iterations(struct live_opts *o, const char *arg)
{
	if (parse_uint(arg, &o->batch_opts.count) || !o->batch_opts.count)
		return usage_error("invalid count '%s'", arg);
	return -1;
}

static int set_format(struct live_opts *o, const char *arg)
{
	if (output_format_parse(arg, &o->batch_opts.format))
		return usage_error("unknown format '%s'; one of: " OUTPUT_FORMAT_WORDS, arg);
	o->print = true;
	return -1;
}

static int set_fault_source(struct live_opts *o, const char *arg)
{
	if (fault_source_parse(arg, &o->collect.faults))
		return usage_error("unknown fault source '%s' (auto, sched, perf)", arg);
	return -1;
}

/* As the man page promises: a filter for a few processes of interest. */
#define PIDS_MAX 64

/*
 * "123,456" -> the PID filter; an empty item ("1,,2") is an error. A PID
 * that does not exist (yet) is kept, with a warning: it may appear.
 */
static int set_pids(struct live_opts *o, const char *arg)
{
	char buf[PIDS_MAX * 8], *tok, *rest = buf;
	const char *c;
	int n = 1;

	for (c = arg; *c; c++)
		n += *c == ',';
	if (n > PIDS_MAX)
		return usage_error("-p: at most %d PIDs", PIDS_MAX);
	if (!*arg || strlen(arg) >= sizeof(buf))
		goto invalid;
	strcpy(buf, arg);
	while ((tok = strsep(&rest, ","))) {
		unsigned int pid;

		if (parse_uint(tok, &pid) || !pid || pid_filter_add(&o->pids, pid))
			goto invalid;
		if (kill(pid, 0) && errno == ESRCH)
			fprintf(stderr, "mmtop: warning: no process %u (yet)\n", pid);
	}
	return -1;
invalid:
	return usage_error("invalid PID list '%.64s%s'", arg, strlen(arg) > 64 ? "..." : "");
}

/* --cgroup: a subtree that is there, said now rather than as the families open. */
static int set_cgroup(struct live_opts *o, const char *arg)
{
	struct cgroup_names c;
	char err[PATH_MAX + 128];

	if (cgroup_names_init(&c, arg, err, sizeof(err)))
		return usage_error("%s", err);
	cgroup_names_free(&c);
	o->collect.cgroup = arg;
	return -1;
}

static int set_user(struct live_opts *o, const char *arg)
{
	if (follow_user_parse(arg, &o->user))
		return usage_error("--user: no such user '%s'", arg);
	return -1;
}

static int set_slow(struct live_opts *o, const char *arg)
{
	if (parse_duration(arg, &o->collect.slow_ns))
		return usage_error("invalid duration '%s'", arg);
	return -1;
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

static int set_disable_probe(struct live_opts *o, const char *arg)
{
	if (set_family(arg, &o->collect.disabled))
		return usage_error("unknown probe family '%s' (faults, mmap_lock, contention, fork, pcp)", arg);
	return -1;
}

static int set_enable_probe(struct live_opts *o, const char *arg)
{
	if (set_family(arg, &o->collect.enabled))
		return usage_error("unknown probe family '%s' (pcp)", arg);
	return -1;
}

static int set_attach(struct live_opts *o, const char *arg)
{
	if (tp_flavour_parse(arg, &o->collect.attach))
		return usage_error("unknown attach mode '%s' (auto, tp_btf, raw_tp)", arg);
	return -1;
}

static int set_top(struct live_opts *o, const char *arg)
{
	unsigned int top;

	if (parse_uint(arg, &top) || top > 10000)
		return usage_error("invalid --top '%s' (0 to 10000)", arg);
	o->batch_opts.top = top;
	return -1;
}

/* Deep enough for a pod's container under kubepods (5 levels), bounded. */
#define CGROUP_DEPTH_MAX 16

static int set_cgroup_label(struct live_opts *o, const char *arg)
{
	unsigned int depth;

	if (parse_uint(arg, &depth) || !depth || depth > CGROUP_DEPTH_MAX)
		return usage_error("invalid --cgroup-label '%s' (1 to %d)", arg, CGROUP_DEPTH_MAX);
	o->batch_opts.cgroup_depth = depth;
	return -1;
}

static int set_duration(struct live_opts *o, const char *arg)
{
	if (parse_duration(arg, &o->duration_ns) || !o->duration_ns)
		return usage_error("invalid duration '%s'", arg);
	return -1;
}

static int set_rotate(struct live_opts *o, const char *arg)
{
	if (rotation_parse(arg, &o->rotate))
		return usage_error("invalid --rotate '%s' (a duration of 1s or more, e.g. 1h; or a size of 4K, 4096 bytes, or more, in k or K, M or G, e.g. 100M: 1m is a minute)", arg);
	o->rotating = true;
	return -1;
}

static int set_keep(struct live_opts *o, const char *arg)
{
	if (parse_uint(arg, &o->rotate.keep) || !o->rotate.keep)
		return usage_error("invalid --keep '%s' (1 or more)", arg);
	return -1;
}

static int bad_time(const char *arg)
{
	return usage_error("invalid time '%s' (YYYY-MM-DDTHH:MM[:SS], UTC, or @SECONDS)", arg);
}

static int set_begin(struct live_opts *o, const char *arg)
{
	return parse_time(arg, &o->range.begin_ns, &o->range.begin_tod) ? bad_time(arg) : -1;
}

static int set_end(struct live_opts *o, const char *arg)
{
	return parse_time(arg, &o->range.end_ns, &o->range.end_tod) ? bad_time(arg) : -1;
}

static int set_exact_every(struct live_opts *o, const char *arg)
{
	if (parse_uint(arg, &o->collect.exact_every) || o->collect.exact_every < 2)
		return usage_error("invalid --exact-every '%s' (2 or more intervals)", arg);
	return -1;
}


/*
 * The options, in the help's order. code: getopt's value, the short
 * option's letter where short is set (else a letter no short option
 * has). What it does: set(), or, without, it sets the bool or the string
 * at @at in struct live_opts (FLAG, STRING), or nothing but o->given
 * (report's --html; cli_parse does -h and -V). label: the help's, where it
 * is not "  -c, --name ARG". help: its lines after the label's column. An
 * entry without a name is a line of help alone.
 */
enum set_kind { SET_NONE, SET_FLAG, SET_STRING };

#define OPT(long_name, letter, is_short, argument, its_modes)			\
	.name = long_name, .code = letter, .short_too = is_short, .arg = argument,	\
	.modes = its_modes
#define FLAG(field) .kind = SET_FLAG, .at = offsetof(struct live_opts, field)
#define STRING(field) .kind = SET_STRING, .at = offsetof(struct live_opts, field)

static const struct cli_option {
	const char *name;
	int code;
	bool short_too;
	const char *arg;
	unsigned int modes;
	set_fn set;
	const char *label;
	const char *help;
	enum set_kind kind;
	size_t at;
} cli_options[] = {
	{ OPT("batch", 'b', true, NULL, LIVE | RECORD | REPLAY), .set = set_batch, .help =
	  "batch mode: print one block per interval (the\n"
	  "default when stdout is not a terminal)" },
	{ OPT("no-color", 'C', false, NULL, LIVE | REPLAY), .set = set_no_color, .help =
	  "no colours in the viewer (also: NO_COLOR set)" },
	{ OPT("delay", 'd', true, "SECONDS", TRACING | REPLAY), .set = set_delay, .help =
	  "interval between updates (default 1; 0.5, 250ms)" },
	{ OPT("iterations", 'n', true, "COUNT", TRACING | REPLAY), .set = set_iterations, .help =
	  "stop after COUNT intervals, the viewer too (as\n"
	  "top -n; default: run until interrupted)" },
	{ OPT("format", 'f', true, "FORMAT", LIVE | RECORD | REPLAY | REPORT), .set = set_format, .help =
	  "batch output format, one of:\n" OUTPUT_FORMAT_WORDS },
	{ OPT("fault-source", 'F', false, "SOURCE", TRACING), .set = set_fault_source, .help =
	  "per-CPU fault counts from: auto (default), sched\n"
	  "(kernel per-task counters, added up at migrations,\n"
	  "exits and once an interval) or perf (software\n"
	  "counters)" },
	{ OPT("pid", 'p', true, "PID[,PID...]", TRACING), .set = set_pids, .help =
	  "show only these processes' lock, VMA-lock and\n"
	  "slow-event rows" },
	{ OPT("cgroup", 'G', true, "PATH", TRACING), .help =
	  "show only the mmap_lock, blame and slow-event rows\n"
	  "of tasks in this cgroup (v2) or below it: a path\n"
	  "under the cgroup2 mount, or from its root", .set = set_cgroup },
	{ OPT(NULL, 0, false, NULL, LIVE | RECORD), .label = "  -- COMMAND [ARGS]", .help =
	  "start COMMAND and follow its process tree (as -p);\n"
	  "batch mode ends when it exits; it runs with\n"
	  "mmtop's privileges unless --user is given" },
	{ OPT("user", 'u', false, "USER", LIVE | RECORD), .set = set_user, .help =
	  "run COMMAND as USER (name or uid): its uid, gid,\n"
	  "groups, HOME, USER and LOGNAME, as sudo -u does" },
	{ OPT("slow", 'S', false, "DURATION", TRACING), .set = set_slow, .help =
	  "log mmap_lock waits and holds at least this long\n"
	  "(default 1ms)" },
	{ OPT("disable-probe", 'D', false, "FAMILY", TRACING), .set = set_disable_probe, .help =
	  "leave a probe family off (repeatable): faults,\n"
	  "mmap_lock, contention, fork or pcp; its programs\n"
	  "are not loaded and its cells show n/a" },
	{ OPT("enable-probe", 'E', false, "FAMILY", TRACING), .set = set_enable_probe, .help =
	  "turn an opt-in family on: pcp (PCP refills and\n"
	  "drains; its events fire once per page)" },
	{ OPT("attach", 'A', false, "MODE", TRACING), .set = set_attach, .help =
	  "tracepoint programs: auto (tp_btf where it attaches,\n"
	  "else raw_tp, per tracepoint),\n"
	  "tp_btf or raw_tp" },
	{ OPT("output", 'o', true, "FILE", LIVE | RECORD | REPLAY | REPORT), .help =
	  "record: the recording to write (mode 0600);\n"
	  "batch: each interval replaces FILE whole (a\n"
	  "temporary file renamed), e.g. for a textfile\n"
	  "collector; report, compare --html: the page", STRING(output) },
	{ OPT("html", 'H', false, NULL, REPORT), .help =
	  "report, compare: a self-contained HTML page of\n"
	  "plots (to -o FILE, mode 0600, or stdout)" },
	{ OPT("listen", 'l', false, "ADDR:PORT", SERVE), .help =
	  "serve: where to listen (default\n"
	  SERVE_LISTEN_DEFAULT "; port 0 picks a free one)", STRING(listen) },
	{ OPT("top", 'T', false, "N", LIVE | SERVE), .set = set_top, .help =
	  "serve, openmetrics: per-process series for the N\n"
	  "busiest commands, the rest as comm=\"other\"\n"
	  "(default 10)" },
	{ OPT("pid-label", 'I', false, NULL, LIVE | SERVE), .help =
	  "serve, openmetrics: per-process series keyed by\n"
	  "pid and comm (default: by comm, a stable set)", FLAG(batch_opts.pid_label) },
	{ OPT("cgroup-label", 'J', false, "DEPTH", LIVE | SERVE), .set = set_cgroup_label, .help =
	  "serve, openmetrics: blame waits by the waiter's\n"
	  "and the holder's cgroup too, cut to DEPTH levels,\n"
	  "for the first N pairs (--top), the rest as \"other\"" },
	{ OPT("duration", 'U', false, "DURATION", TRACING), .set = set_duration, .help =
	  "stop after this long (e.g. 30s, 5m)" },
	{ OPT("label", 'L', false, "LABEL", RECORD), .help =
	  "record: a name for the run (default: kernel)", STRING(label) },
	{ OPT("rotate", 'R', false, "DURATION|SIZE", RECORD), .set = set_rotate, .help =
	  "record: -o is a directory of files named\n"
	  "mmtop-YYYYMMDD-HHMMSS.rec, a new one every\n"
	  "DURATION (e.g. 1h) or SIZE (e.g. 100M; capitals)" },
	{ OPT("keep", 'K', false, "N", RECORD), .set = set_keep, .help =
	  "record --rotate: keep the newest N files" },
	{ OPT("begin", 'B', false, "TIME", REPLAY | REPORT), .set = set_begin, .label = "      --begin TIME, --end TIME", .help =
	  "replay, report: only intervals in this range;\n"
	  "TIME in UTC: 2026-11-30T14:05[:09], 14:05, @SECS" },
	{ OPT("end", 'e', false, "TIME", REPLAY | REPORT), .set = set_end },
	{ OPT("raw-addresses", 'X', false, NULL, TRACING), .help =
	  "kernel addresses of call sites in JSON, CSV and\n"
	  "recordings (by default: symbol names only)", FLAG(collect.raw_addresses) },
	{ OPT("exact", 'x', false, NULL, TRACING), .help =
	  "exact mode: every mmap_lock acquisition traced,\n"
	  "for acquisitions and holds per call site, the\n"
	  "VMA-lock outcome and dup_mmap's hold (two\n"
	  "programs on every acquisition: mmap churn runs\n"
	  "at 0.7-0.8 of its speed); the viewer's x turns\n"
	  "it on and off. Default: waits, forks and faults\n"
	  "alone, programs on rare events only", FLAG(collect.exact) },
	{ OPT("exact-every", 'Y', false, "N", TRACING), .set = set_exact_every, .help =
	  "one interval in N in exact mode (N >= 2), each\n"
	  "marked with its share: record and serve sample\n"
	  "acquisitions over time at that cost" },
	{ OPT("spin-waits", 'W', false, NULL, TRACING), .help =
	  "exact mode: mmap_lock waits from the request, a\n"
	  "writer's optimistic spin included (a third\n"
	  "program on every acquisition; default: from the\n"
	  "slow path)", FLAG(collect.spin_waits) },
	{ OPT("vma-waits", 'w', false, NULL, TRACING), .help =
	  "exact mode: VMA write-lock waits on 6.15+ kernels\n"
	  "(D-state sleeps of write holders): a program on\n"
	  "every context switch (default: off)", FLAG(collect.vma_waits) },
	{ OPT("verbose", 'v', true, NULL, EVERY), .help = "show libbpf's messages", FLAG(verbose) },
	{ OPT("help", 'h', true, NULL, EVERY), .help = "show this help" },
	{ OPT("version", 'V', true, NULL, EVERY), .help = "show the version" },
};

#define NR_OPTIONS ARRAY_SIZE(cli_options)

static const struct cli_option *option_of(int code)
{
	size_t i;

	for (i = 0; i < NR_OPTIONS; i++)
		if (cli_options[i].name && cli_options[i].code == code)
			return &cli_options[i];
	return NULL;
}

/* The help's column where an option's text starts. */
#define HELP_COLUMN 28

static void print_option(FILE *f, const struct cli_option *c)
{
	const char *line = c->help, *end;
	char label[64];
	int n;

	if (c->label)
		n = snprintf(label, sizeof(label), "%s", c->label);
	else
		n = snprintf(label, sizeof(label), "  %c%c%c --%s%s%s",
			     c->short_too ? '-' : ' ', c->short_too ? c->code : ' ',
			     c->short_too ? ',' : ' ', c->name, c->arg ? " " : "",
			     c->arg ? c->arg : "");
	/* A label too long for the column has its text on the lines below. */
	fprintf(f, "%s%*s", label, n < HELP_COLUMN ? HELP_COLUMN - n : 0, "");
	if (n >= HELP_COLUMN)
		fprintf(f, "\n%*s", HELP_COLUMN, "");
	for (; (end = strchr(line, '\n')); line = end + 1)
		fprintf(f, "%.*s\n%*s", (int)(end - line), line, HELP_COLUMN, "");
	fprintf(f, "%s\n", line);
}

void cli_print_options(FILE *f, enum cli_mode mode)
{
	size_t i;

	for (i = 0; i < NR_OPTIONS; i++)
		if (cli_options[i].help && (cli_options[i].modes & 1u << mode))
			print_option(f, &cli_options[i]);
}

bool cli_refused(const struct live_opts *o, enum cli_mode mode, const char *cmd)
{
	size_t i;

	for (i = 0; i < NR_OPTIONS; i++) {
		const struct cli_option *c = &cli_options[i];

		if (!c->name || !o->given[c->code] || (c->modes & 1u << mode))
			continue;
		if (cmd)
			usage_error("mmtop %s does not take --%s", cmd, c->name);
		else
			usage_error("--%s is for a subcommand (see --help)", c->name);
		return true;
	}
	return false;
}

/* getopt's tables, from cli_options: "+" first to stop at the first operand. */
static void getopt_tables(struct option *longopts, char *shortopts, bool first)
{
	size_t i, n = 0, s = 0;

	if (first)
		shortopts[s++] = '+';
	for (i = 0; i < NR_OPTIONS; i++) {
		const struct cli_option *c = &cli_options[i];

		if (!c->name)
			continue;
		longopts[n++] = (struct option){ c->name, c->arg ? required_argument : no_argument,
						 NULL, c->code };
		if (!c->short_too)
			continue;
		shortopts[s++] = c->code;
		if (c->arg)
			shortopts[s++] = ':';
	}
	longopts[n] = (struct option){ 0 };
	shortopts[s] = '\0';
}

int cli_parse(int argc, char **argv, struct live_opts *o, enum cli_mode mode, bool first)
{
	struct option longopts[NR_OPTIONS + 1];
	char shortopts[2 * NR_OPTIONS + 2];
	const struct cli_option *c;
	int opt, ret;

	getopt_tables(longopts, shortopts, first);
	while ((opt = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		c = option_of(opt);
		if (!c) {
			/* getopt has named the option and what is wrong with it. */
			fprintf(stderr, "Try 'mmtop --help'.\n");
			return 2;
		}
		o->given[opt] = true;
		if (opt == 'h') {
			cli_print_help(first ? CLI__COUNT : mode);
			return 0;
		}
		if (opt == 'V') {
			printf("mmtop %s\n", MMTOP_VERSION);
			return 0;
		}
		if (c->kind == SET_FLAG)
			*(bool *)((char *)o + c->at) = true;
		else if (c->kind == SET_STRING)
			*(const char **)((char *)o + c->at) = optarg;
		ret = c->set ? c->set(o, optarg) : -1;
		if (ret >= 0)
			return ret;
	}
	return -1;
}
