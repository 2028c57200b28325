// SPDX-License-Identifier: GPL-2.0
/* The process filter: -p lists, and a command's tree growing by its forks. */
#include "pid_filter.h"
#include "unit.h"

int main(void)
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
	UNIT_EXIT();
}
