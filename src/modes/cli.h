/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The command line: the commands (commands.c) and every option of theirs,
 * each described once (options.c): getopt, each command's --help, the
 * refusal of an option a command does not take and the bash completion
 * (which reads each command's --help) all come from those two tables.
 */
#ifndef MMTOP_CLI_H
#define MMTOP_CLI_H

#include <stdio.h>

#include "live.h"

/*
 * The commands that take options from the table; CLI__COUNT: one that
 * takes none of them (compare, probe, bench: their own, or none), or, for
 * --help, all of mmtop.
 */
enum cli_mode {
	CLI_LIVE,		/* the viewer, or batch mode: no command */
	CLI_RECORD,
	CLI_SERVE,
	CLI_REPLAY,
	CLI_REPORT,
	CLI__COUNT,
};

/* "mmtop: MESSAGE" and the hint, on stderr; returns 2, the usage status. */
int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Parse @mode's options into @o: -1 to go on, else the exit status (an
 * error said, or --help or --version done). Without a command yet
 * (@first), parsing stops at the first operand, the command's name;
 * after it, options and operands mix. An option @mode does not take is a
 * usage error that names it.
 */
int cli_parse(int argc, char **argv, struct live_opts *o, enum cli_mode mode, bool first);

/* The Options section's lines of the options @mode takes. */
void cli_print_options(FILE *f, enum cli_mode mode);

/* What each command says in --help (CLI__COUNT: mmtop --help), from commands.c. */
void cli_print_help(enum cli_mode mode);

/*
 * The command after the options just parsed (argv[optind]), or NULL; after
 * "--", the command line to follow, in o->command.
 */
const char *cli_command(int argc, char **argv, struct live_opts *o);

/*
 * Command @cmd, @argv from its name on: the exit status, or -1 for record
 * and serve, which go on into live_run() with @o set.
 */
int cli_run_command(const char *cmd, int argc, char **argv, struct live_opts *o);

/* Whether an option @mode does not take was given: said, naming it and @cmd. */
bool cli_refused(const struct live_opts *o, enum cli_mode mode, const char *cmd);

#endif
