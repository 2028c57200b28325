/* SPDX-License-Identifier: GPL-2.0 */
/* `mmtop -- COMMAND`: start a command and follow its process tree. */
#ifndef MMTOP_FOLLOW_H
#define MMTOP_FOLLOW_H

#include <stdbool.h>
#include <sys/types.h>

#include "pid_filter.h"

/* --user: whom the command runs as (as sudo -u: its uid, groups, HOME). */
struct follow_user {
	bool set;
	uid_t uid;
	gid_t gid;
	char name[64];
	char home[256];
};

/* Look @name up (a user name, or a number); -1 if there is no such user. */
int follow_user_parse(const char *name, struct follow_user *u);

struct follow {
	pid_t pid;
	bool running;
	int status;			/* wait status once it has exited */
	char name[64];
	char note[128];			/* for the header */
	struct pid_filter *filter;
};

/*
 * Start @argv with stdin from /dev/null and stdout/stderr sent to @out_fd
 * (/dev/null under the viewer), as @user if set; its tree goes into
 * @filter. 0 or -errno (of the exec, or of dropping privileges).
 */
int follow_start(struct follow *f, char **argv, int out_fd, const struct follow_user *user,
		 struct pid_filter *filter);
/* Reap it if it exited, add new descendants to the filter. */
void follow_update(struct follow *f);
/*
 * mmtop's exit status for the command, as perf stat and time give it: its
 * own, 128 + N if signal N killed it, 0 while it still runs.
 */
int follow_exit_status(struct follow *f);

#endif
