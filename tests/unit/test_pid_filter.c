// SPDX-License-Identifier: GPL-2.0
/*
 * The process filter: -p lists, and a command's tree growing by its forks
 * and by /proc, losing its processes as they exit.
 */
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/wait.h>

#include "pid_filter.h"
#include "unit.h"

static void lists_and_forks(void)
{
	struct pid_filter all = { 0 }, list = { 0 }, tree = { .tree = true };

	CHECK(pid_filter_has(&all, 42) && pid_filter_has(NULL, 42),
	      "an empty filter (or none) lets every process through");
	pid_filter_add(&list, 10);
	CHECK(pid_filter_has(&list, 10) && !pid_filter_has(&list, 11), "-p: the listed pid only");
	CHECK(pid_filter_fork(&list, 10, 11) == 0 && !pid_filter_has(&list, 11),
	      "-p: a listed process's child is not added");
	pid_filter_add(&tree, 100);
	CHECK(pid_filter_fork(&tree, 100, 101) == 1 && pid_filter_has(&tree, 101),
	      "tree: a child of the tree joins it");
	CHECK(pid_filter_fork(&tree, 101, 102) == 1 && pid_filter_has(&tree, 102),
	      "tree: and so does its own child");
	CHECK(pid_filter_fork(&tree, 100, 101) == 0 && tree.nr == 3,
	      "tree: a child already in it is not added twice (%d pids)", tree.nr);
	CHECK(pid_filter_fork(&tree, 200, 201) == 0 && !pid_filter_has(&tree, 201),
	      "tree: another process's child stays out");
	pid_filter_free(&list);
	pid_filter_free(&tree);
}

/* Past the first table: every pid in once, none other, each listed once. */
static void many(void)
{
	struct pid_filter f = { 0 };
	int pid, at = 0, listed = 0, in = 0, out = 0, i;

	for (i = 1; i <= 5000; i++)
		pid_filter_add(&f, i * 7);
	for (i = 1; i <= 5000; i++) {
		in += pid_filter_has(&f, i * 7);
		out += pid_filter_has(&f, i * 7 + 1);
	}
	while ((pid = pid_filter_next(&f, &at)))
		listed += pid % 7 == 0;
	CHECK(in == 5000 && out == 0 && listed == 5000 && f.nr == 5000,
	      "5000 pids: %d found, %d others let through, %d listed", in, out, listed);
	pid_filter_free(&f);
}

/* A child that waits on @hold; its own child too if @grand; 0 in the child. */
static pid_t start_child(int hold[2], int ready[2], bool grand)
{
	pid_t pid = fork();
	char c;

	if (pid)
		return pid;
	close(hold[1]);
	if (grand && !fork()) {
		if (write(ready[1], "g", 1) != 1 || read(hold[0], &c, 1) < 0)
			_exit(1);
		_exit(0);
	}
	if (write(ready[1], "c", 1) != 1 || read(hold[0], &c, 1) < 0)
		_exit(1);
	while (wait(NULL) > 0)
		;
	_exit(0);
}

/* The tree takes in live descendants from /proc, and lets go of the exited. */
static void live_tree(void)
{
	struct pid_filter f = { .tree = true };
	int hold[2], ready[2], status;
	pid_t child, gone;
	int got = 0;
	char c;

	if (pipe(hold) || pipe(ready))
		return;
	pid_filter_add(&f, getpid());
	child = start_child(hold, ready, true);
	/* Both the child and the grandchild are there once each wrote. */
	while (got < 2 && read(ready[0], &c, 1) == 1)
		got++;
	pid_filter_refresh(&f);
	CHECK(pid_filter_has(&f, child) && f.nr == 3 && !pid_filter_has(&f, 1),
	      "refresh: a child and its child join the tree (%d pids), init does not", f.nr);
	/* Both exit: the child reaps the grandchild before it goes. */
	close(hold[1]);
	waitpid(child, &status, 0);
	pid_filter_refresh(&f);
	CHECK(pid_filter_has(&f, child), "an exited child stays for one refresh (its last rows)");
	pid_filter_refresh(&f);
	CHECK(!pid_filter_has(&f, child) && pid_filter_has(&f, getpid()),
	      "and is gone after the next one (its pid may go to anyone)");

	gone = fork();
	if (!gone)
		_exit(0);
	waitpid(gone, &status, 0);
	pid_filter_fork(&f, getpid(), gone);
	pid_filter_refresh(&f);
	CHECK(pid_filter_fork(&f, getpid(), gone) == 1,
	      "a pid noted exited, forked again in the tree, is a new member");
	pid_filter_refresh(&f);
	CHECK(pid_filter_has(&f, gone), "and stays past the refresh that drops the exited");
	pid_filter_free(&f);
}

int main(void)
{
	lists_and_forks();
	many();
	live_tree();
	UNIT_EXIT();
}
