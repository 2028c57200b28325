// SPDX-License-Identifier: GPL-2.0
/*
 * mmtop's commands: their synopses and help, and what each does with the
 * command line before it runs (the options themselves: options.c).
 */
#include <ctype.h>
#include <getopt.h>
#include <string.h>

#include "bench.h"
#include "cli.h"
#include "compare.h"
#include "probe.h"
#include "replay.h"
#include "report.h"
#include "serve.h"
#include "stop.h"
#include "util.h"

/*
 * The synopses, in the help's order: a command's name, its line (more
 * lines after a newline) and what it does, in the help's second column.
 * The bench workloads' options are their tables' (src/bench/bench.h).
 */
static const struct synopsis {
	const char *cmd, *line, *what;
} synopses[] = {
	{ "", "mmtop [OPTIONS] [-- COMMAND [ARGS]]",
	  "live view of memory-management contention" },
	{ "record", "mmtop record -o FILE [OPTIONS] [-- COMMAND]", "record snapshots to FILE" },
	{ "record", "mmtop record -o DIR --rotate DURATION|SIZE [--keep N] [OPTIONS]",
	  "record into rotated files in DIR" },
	{ "replay", "mmtop replay [-b] [-f FORMAT] [-d SECONDS] [--begin TIME] [--end TIME]\n"
		    "             FILE|DIR...", "show or print a recording" },
	{ "serve", "mmtop serve [--listen ADDR:PORT] [--top N] [OPTIONS]",
	  "Prometheus metrics over HTTP, no terminal" },
	{ "report", "mmtop report [-f FORMAT | --html [-o FILE]] [--begin TIME] [--end TIME]\n"
		    "             FILE|DIR...", "a recording summed up, or drawn" },
	{ "compare", "mmtop compare [-f text|markdown | --html [-o FILE]] BASE.rec OTHER.rec...",
	  "recordings side by side, with significance" },
	{ "probe", "mmtop probe", "what the running kernel offers" },
	{ "bench", "mmtop bench pft [PFT OPTIONS]", "page-fault workload" },
	{ "bench", "mmtop bench churn [CHURN OPTIONS]",
	  "mmap_lock writers against faulting threads" },
	{ "bench", "mmtop bench fork [FORK OPTIONS]", "fork cost of a populated parent" },
	{ "bench", "mmtop bench pcp [PCP OPTIONS]", "per-CPU page list refills and drains" },
	{ "help", "mmtop help [COMMAND]", "a command's help (its page: mmtop-COMMAND(8))" },
};

#define WHAT_COLUMN 39

static const char exit_status[] =
	"Exit status: 0 ok, 1 error, 2 usage error or missing privileges.\n";

/* The page that says it all: mmtop(8), or the command's own. */
static void print_see(const char *cmd)
{
	printf("See mmtop%s%s(8).\n", *cmd ? "-" : "", cmd);
}

/* @cmd's synopses (NULL: all), "usage:" before the first. */
static void print_synopses(const char *cmd)
{
	bool first = true;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(synopses); i++) {
		const struct synopsis *s = &synopses[i];
		const char *line = s->line, *end;
		int n;

		if (cmd && strcmp(cmd, s->cmd))
			continue;
		printf("%s", first ? "usage: " : "       ");
		first = false;
		for (; (end = strchr(line, '\n')); line = end + 1)
			printf("%.*s\n       ", (int)(end - line), line);
		n = 7 + printf("%s", line);
		/* Beside a one-line synopsis if it fits, else below. */
		if (n < WHAT_COLUMN && line == s->line)
			printf("%*s%s\n", WHAT_COLUMN - n, "", s->what);
		else
			printf("\n%*s%s\n", WHAT_COLUMN, "", s->what);
	}
}

static const char *const mode_names[CLI__COUNT] = {
	[CLI_LIVE] = "", [CLI_RECORD] = "record", [CLI_SERVE] = "serve",
	[CLI_REPLAY] = "replay", [CLI_REPORT] = "report",
};

/*
 * A command's help, or for CLI__COUNT mmtop's: every synopsis, and the
 * live view's options (each command's own: mmtop help COMMAND).
 */
void cli_print_help(enum cli_mode mode)
{
	bool all = mode == CLI__COUNT;

	print_synopses(all ? NULL : mode_names[mode]);
	printf("\nOptions:\n");
	cli_print_options(stdout, all ? CLI_LIVE : mode);
	if (all)
		printf("\nA command's options: mmtop help COMMAND.\n");
	printf("\n%s", exit_status);
	print_see(all ? "" : mode_names[mode]);
}

static bool is_help(const char *arg)
{
	return !strcmp(arg, "--help") || !strcmp(arg, "-h");
}

/*
 * bench --help, or bench WORKLOAD ... --help: the workloads' options (or
 * the one's); true if help was asked for.
 */
static bool bench_help(int argc, char **argv)
{
	const char *w;
	bool all = argc > 0 && is_help(argv[0]);
	int i, asked = all;
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
	bench_print_help(stdout, all ? NULL : argv[0]);
	printf("\n");
	print_see("bench");
	return true;
}

/* The command after the options, or NULL; "--" starts a command to follow. */
const char *cli_command(int argc, char **argv, struct live_opts *o)
{
	const char *cmd = optind < argc ? argv[optind] : NULL;

	if (optind > 1 && !strcmp(argv[optind - 1], "--")) {
		o->command = argv + optind;
		return NULL;
	}
	return cmd;
}

/* @mode's options, after its name; -1 to go on, else the exit status. */
static int command_options(int argc, char **argv, struct live_opts *o, enum cli_mode mode)
{
	int ret;

	optind = 0;	/* 0: glibc starts over, in this call's ordering mode */
	ret = cli_parse(argc, argv, o, mode, false);
	if (ret >= 0)
		return ret;
	return cli_refused(o, mode, mode_names[mode]) ? 2 : -1;
}

/* mmtop record -o FILE [OPTIONS] [-- COMMAND]: batch, quiet unless asked. */
static int record_cmd(int argc, char **argv, struct live_opts *o)
{
	int ret = command_options(argc, argv, o, CLI_RECORD);

	if (ret >= 0)
		return ret;
	if (cli_command(argc, argv, o) && !o->command)
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
static int serve_cmd(int argc, char **argv, struct live_opts *o)
{
	int ret = command_options(argc, argv, o, CLI_SERVE);
	const char *bad;

	if (ret >= 0)
		return ret;
	if (cli_command(argc, argv, o) || o->command)
		return usage_error("serve takes options only");
	if (!o->listen)
		o->listen = SERVE_LISTEN_DEFAULT;
	bad = serve_listen_invalid(o->listen);
	if (bad)
		return usage_error("--listen '%s': %s", o->listen, bad);
	o->batch = true;
	return -1;
}

/* The recording after the options, and --begin, --end. */
static struct rec_input input_of(int argc, char **argv, const struct live_opts *o)
{
	return (struct rec_input){ argv + optind, argc - optind, o->range };
}

/* mmtop replay [-b] [-f FORMAT] [-d SECONDS] FILE */
static int replay_cmd(int argc, char **argv, struct live_opts *o)
{
	struct replay_opts r;
	int ret;

	o->batch_opts.interval_ns = 0;
	ret = command_options(argc, argv, o, CLI_REPLAY);
	if (ret >= 0)
		return ret;
	if (optind >= argc)
		return usage_error("replay needs a recording (files, or a directory of rotated files)");
	if (o->output && !o->batch)
		return usage_error("-o FILE needs batch mode (-b)");
	o->batch_opts.path = o->output;
	stop_signals_catch();
	r = (struct replay_opts){
		.in = input_of(argc, argv, o), .batch = o->batch, .color = o->color,
		.batch_opts = o->batch_opts,
	};
	return replay_run(&r);
}

/* mmtop report [-f FORMAT] FILE */
static int report_cmd(int argc, char **argv, struct live_opts *o)
{
	int ret = command_options(argc, argv, o, CLI_REPORT);

	if (ret >= 0)
		return ret;
	if (optind >= argc)
		return usage_error("report needs a recording (files, or a directory of rotated files)");
	if (o->given['H'] && o->given['f'])
		return usage_error("report: --html or --format, not both");
	if (o->output && !o->given['H'])
		return usage_error("report: -o FILE is for --html");
	return report_run(&(struct report_opts){
		.in = input_of(argc, argv, o), .format = o->batch_opts.format, .html = o->given['H'], .output = o->output });
}

static const char compare_usage[] =
"Recordings side by side: each metric's mean (harmonic for rates), its\n"
"change relative to BASE and Welch's t-test p-value.\n"
"  -f, --format FORMAT       text (default) or markdown\n"
"      --html                a self-contained HTML page: the tables and each\n"
"                            metric's samples drawn per recording\n"
"  -o, --output FILE         the page's file (default: standard output)\n"
"  -h, --help                this help\n";

/*
 * mmtop compare [--format text|markdown | --html [-o FILE]] BASE.rec
 * OTHER.rec...: its own options (its formats are not batch mode's).
 */
static int compare_cmd(int argc, char **argv, struct live_opts *o)
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

	if (cli_refused(o, CLI__COUNT, "compare"))
		return 2;
	optind = 0;	/* 0: glibc starts over, in this call's ordering mode */
	while ((opt = getopt_long(argc, argv, "f:o:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'h':
			print_synopses("compare");
			fputs(compare_usage, stdout);
			print_see("compare");
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

static const char probe_usage[] =
"What the running kernel offers mmtop, a line per item (tracepoints, BPF\n"
"features, capabilities, layouts) and whether the default probe set can\n"
"run (exit 0), or only in part or not at all (exit 1).\n";

static int probe_cmd(int argc, char **argv, struct live_opts *o)
{
	if (cli_refused(o, CLI__COUNT, "probe"))
		return 2;
	if (argc > 1 && is_help(argv[1])) {
		print_synopses("probe");
		fputs(probe_usage, stdout);
		print_see("probe");
		return 0;
	}
	return argc > 1 ? usage_error("probe takes no arguments") : probe_run(stdout);
}

static int bench_cmd(int argc, char **argv, struct live_opts *o)
{
	if (cli_refused(o, CLI__COUNT, "bench"))
		return 2;
	return bench_help(argc - 1, argv + 1) ? 0 :
	       bench_main(argc - 1, argv + 1, probe_kernel_features);
}

static int help_cmd(int argc, char **argv, struct live_opts *o);

static const struct {
	const char *name;
	int (*run)(int argc, char **argv, struct live_opts *o);
} commands[] = {
	{ "record", record_cmd }, { "serve", serve_cmd }, { "replay", replay_cmd },
	{ "report", report_cmd }, { "compare", compare_cmd }, { "probe", probe_cmd },
	{ "bench", bench_cmd }, { "help", help_cmd },
};

/*
 * mmtop help [COMMAND [WORKLOAD]]: what --help prints, for all of mmtop
 * or for the command (as git help names a command's page).
 */
static int help_cmd(int argc, char **argv, struct live_opts *o)
{
	char *args[4];
	int n;

	if (cli_refused(o, CLI__COUNT, "help"))
		return 2;
	if (argc == 1) {
		cli_print_help(CLI__COUNT);
		return 0;
	}
	if (argc > 3 || !strcmp(argv[1], "help"))
		return usage_error("help takes a command (and bench's workload)");
	for (n = 0; n < argc - 1; n++)
		args[n] = argv[n + 1];
	args[n++] = "--help";
	args[n] = NULL;
	return cli_run_command(args[0], n, args, o);
}

int cli_run_command(const char *cmd, int argc, char **argv, struct live_opts *o)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(cmd, commands[i].name))
			return commands[i].run(argc, argv, o);
	return usage_error("unknown command '%s'", cmd);
}
