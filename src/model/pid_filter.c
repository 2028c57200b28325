// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pid_filter.h"
#include "util.h"

bool pid_filter_has(const struct pid_filter *f, int pid)
{
	int i;

	if (!f || !f->active)
		return true;
	for (i = 0; i < f->nr; i++)
		if (f->pids[i] == pid)
			return true;
	return false;
}

int pid_filter_add(struct pid_filter *f, int pid)
{
	f->active = true;
	if (pid_filter_has(f, pid))
		return 0;
	if (f->nr == f->cap) {
		int cap = f->cap ? f->cap * 2 : 16;
		int *p = realloc(f->pids, cap * sizeof(*p));

		if (!p)
			return -1;
		f->pids = p;
		f->cap = cap;
	}
	f->pids[f->nr++] = pid;
	return 0;
}

int pid_filter_fork(struct pid_filter *f, int parent, int child)
{
	if (!f || !f->tree || !pid_filter_has(f, parent) || pid_filter_has(f, child))
		return 0;
	return pid_filter_add(f, child) ? -1 : 1;
}

static int parent_of(int pid)
{
	char path[64], buf[512], *p;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	if (read_small_file(path, buf, sizeof(buf)))
		return -1;
	p = strrchr(buf, ')');
	return p ? atoi(p + 4) : -1;	/* ") S PPID" */
}

void pid_filter_add_descendants(struct pid_filter *f)
{
	bool added = true;

	/* New children can only hang below known ones: repeat until stable. */
	while (added) {
		DIR *d = opendir("/proc");
		struct dirent *e;

		added = false;
		if (!d)
			return;
		while ((e = readdir(d))) {
			int pid;

			if (!isdigit((unsigned char)e->d_name[0]))
				continue;
			pid = atoi(e->d_name);
			if (!pid_filter_has(f, pid) && pid_filter_has(f, parent_of(pid))) {
				pid_filter_add(f, pid);
				added = true;
			}
		}
		closedir(d);
	}
}

void pid_filter_free(struct pid_filter *f)
{
	free(f->pids);
	memset(f, 0, sizeof(*f));
}
