// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "follow.h"
#include "priority.h"

int follow_user_parse(const char *name, struct follow_user *u)
{
	struct passwd *pw = getpwnam(name);
	char *end;
	unsigned long id;

	if (!pw && *name) {
		id = strtoul(name, &end, 10);
		if (!*end)
			pw = getpwuid(id);
	}
	if (!pw)
		return -1;
	u->set = true;
	u->uid = pw->pw_uid;
	u->gid = pw->pw_gid;
	snprintf(u->name, sizeof(u->name), "%s", pw->pw_name);
	snprintf(u->home, sizeof(u->home), "%s", pw->pw_dir);
	return 0;
}

/* In the child: become @u, groups first (after setuid they cannot change). */
static int become(const struct follow_user *u)
{
	if (initgroups(u->name, u->gid) || setgid(u->gid) || setuid(u->uid))
		return -1;
	setenv("HOME", u->home, 1);
	setenv("USER", u->name, 1);
	setenv("LOGNAME", u->name, 1);
	return 0;
}

int follow_start(struct follow *f, char **argv, int out_fd, const struct follow_user *user,
		 struct pid_filter *filter)
{
	int err_pipe[2], err = 0;
	ssize_t n;

	memset(f, 0, sizeof(*f));
	snprintf(f->name, sizeof(f->name), "%s", argv[0]);
	f->filter = filter;
	/* The exec error, if any, comes back through a close-on-exec pipe. */
	if (pipe2(err_pipe, O_CLOEXEC))
		return -errno;
	f->pid = fork();
	if (f->pid < 0) {
		err = -errno;
		close(err_pipe[0]);
		close(err_pipe[1]);
		return err;
	}
	if (!f->pid) {
		int null = open("/dev/null", O_RDONLY);

		/* Nothing of mmtop's (BPF objects, files, nice) reaches it. */
		close_range(STDERR_FILENO + 1, ~0U, CLOSE_RANGE_CLOEXEC);
		priority_caller();
		signal(SIGPIPE, SIG_DFL);
		dup2(null, STDIN_FILENO);
		dup2(out_fd, STDOUT_FILENO);
		dup2(out_fd, STDERR_FILENO);
		if (!user->set || !become(user))
			execvp(argv[0], argv);
		err = errno;
		n = write(err_pipe[1], &err, sizeof(err));
		(void)n;
		_exit(127);
	}
	close(err_pipe[1]);
	n = read(err_pipe[0], &err, sizeof(err));
	close(err_pipe[0]);
	if (n == sizeof(err)) {
		waitpid(f->pid, NULL, 0);
		return -err;
	}
	f->running = true;
	pid_filter_add(filter, f->pid);
	follow_update(f);
	return 0;
}

void follow_update(struct follow *f)
{
	if (f->running && waitpid(f->pid, &f->status, WNOHANG) == f->pid)
		f->running = false;
	pid_filter_refresh(f->filter);
	if (f->running)
		snprintf(f->note, sizeof(f->note), "following %s (pid %d)", f->name, f->pid);
	else if (WIFEXITED(f->status))
		snprintf(f->note, sizeof(f->note), "%s exited with status %d", f->name,
			 WEXITSTATUS(f->status));
	else
		snprintf(f->note, sizeof(f->note), "%s killed by signal %d", f->name,
			 WTERMSIG(f->status));
}

int follow_exit_status(struct follow *f)
{
	follow_update(f);
	if (f->running)
		return 0;
	return WIFEXITED(f->status) ? WEXITSTATUS(f->status) : 128 + WTERMSIG(f->status);
}
