// SPDX-License-Identifier: GPL-2.0
/*
 * Command line -> command. The options are src/modes/options.c's table,
 * the commands src/modes/commands.c's; without a command, the viewer (or
 * batch mode) runs here.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/libbpf.h>

#include "caps.h"
#include "cli.h"
#include "live.h"
#include "metrics.h"
#include "stop.h"
#include "util.h"

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

/* What the options given together say, whatever the command. */
static int check_together(const struct live_opts *o, const char *cmd)
{
	bool metrics = o->batch && (o->batch_opts.format == OUTPUT_OPENMETRICS ||
				    o->batch_opts.format == OUTPUT_PROMETHEUS);

	if (!cmd && cli_refused(o, CLI_LIVE, NULL))
		return 2;
	if (!cmd && (o->given['T'] || o->given['I']) && !metrics)
		return usage_error("--%s is for serve, and for batch mode's openmetrics and prometheus formats",
				   o->given['T'] ? "top" : "pid-label");
	if (o->given['x'] && o->given['Y'])
		return usage_error("--exact and --exact-every: one or the other");
	if (o->command && !o->command[0])
		return usage_error("-- needs a command");
	if (o->user.set && !o->command)
		return usage_error("--user is for -- COMMAND");
	return -1;
}

static int run(int argc, char **argv)
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
	int ret = cli_parse(argc, argv, &o, CLI_LIVE, true);

	if (ret >= 0)
		return ret;
	cmd = cli_command(argc, argv, &o);
	ret = check_together(&o, cmd);
	if (ret >= 0)
		return ret;
	verbose = o.verbose;
	libbpf_set_print(libbpf_print);
	if (cmd) {
		ret = cli_run_command(cmd, argc - optind, argv + optind, &o);
		verbose = o.verbose;
		if (ret >= 0)
			return ret;
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

/*
 * What went to standard output reached it: help or a table written to a
 * full disk fails, as coreutils' do. A reader that went away (EPIPE,
 * `| head`) ends the output, not in error.
 */
static int stdout_written(int ret)
{
	int err = fflush(stdout) ? errno : 0;

	if ((!err && !ferror(stdout)) || err == EPIPE)
		return ret;
	/* An earlier write failed, its errno long gone: say only that. */
	fprintf(stderr, "mmtop: writing standard output: %s\n", err ? strerror(err) : "failed");
	return ret ? ret : 1;
}

int main(int argc, char **argv)
{
	return stdout_written(run(argc, argv));
}
