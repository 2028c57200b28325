// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pid_filter.h"
#include "snapshot.h"
#include "util.h"

/*
 * A slot holds a pid, or its negative once the process was found exited
 * (still in the filter until the next refresh). Pids come mostly in
 * sequence: the low bits spread them well enough at half load.
 */
static unsigned int slot_of(const struct pid_filter *f, int pid)
{
	unsigned int mask = f->cap - 1, i = (unsigned int)pid & mask;

	while (f->slots[i] && abs(f->slots[i]) != pid)
		i = (i + 1) & mask;
	return i;
}

/* The slot's value for @pid: the pid, its negative if exited, 0 if absent. */
static int state_of(const struct pid_filter *f, int pid)
{
	return f->cap ? f->slots[slot_of(f, pid)] : 0;
}

/* Move the pids into a table of @cap slots, those exited too if @gone. */
static int rehash(struct pid_filter *f, int cap, bool gone)
{
	int *old = f->slots, old_cap = f->cap, i;

	f->slots = calloc(cap, sizeof(*f->slots));
	if (!f->slots) {
		f->slots = old;
		return -1;
	}
	f->cap = cap;
	f->nr = 0;
	for (i = 0; i < old_cap; i++) {
		if (old[i] > 0 || (gone && old[i])) {
			f->slots[slot_of(f, abs(old[i]))] = old[i];
			f->nr++;
		}
	}
	free(old);
	return 0;
}

bool pid_filter_has(const struct pid_filter *f, int pid)
{
	if (!f || !f->active)
		return true;
	return pid > 0 && state_of(f, pid);
}

int pid_filter_add(struct pid_filter *f, int pid)
{
	unsigned int i;

	f->active = true;
	if ((f->nr + 1) * 2 > f->cap && rehash(f, f->cap ? f->cap * 2 : 16, true))
		return -1;
	i = slot_of(f, pid);
	if (!f->slots[i])
		f->nr++;
	/* Found exited, and back: the pid went to a new process of the tree. */
	f->slots[i] = pid;
	return 0;
}

int pid_filter_fork(struct pid_filter *f, int parent, int child)
{
	if (!f || !f->tree || !pid_filter_has(f, parent) || state_of(f, child) > 0)
		return 0;
	return pid_filter_add(f, child) ? -1 : 1;
}

int pid_filter_next(const struct pid_filter *f, int *at)
{
	while (*at < f->cap) {
		int pid = f->slots[(*at)++];

		if (pid)
			return abs(pid);
	}
	return 0;
}

/* Mark the pids whose processes are gone (a zombie is not yet). */
static void note_exited(struct pid_filter *f)
{
	int i;

	for (i = 0; i < f->cap; i++)
		if (f->slots[i] > 0 && kill(f->slots[i], 0) && errno == ESRCH)
			f->slots[i] = -f->slots[i];
}

/* Pids whose children are still to be read (a SNAPSHOT_ARRAY's shape). */
struct pid_list {
	int *v;
	int nr, cap;
};

/* Add @child to the tree and to @todo, whose children are read next. */
static void take_child(struct pid_filter *f, struct pid_list *todo, int child)
{
	int *next;

	if (child > 0 && state_of(f, child) <= 0 && !pid_filter_add(f, child) &&
	    (next = snapshot_push(todo)))
		*next = child;
}

/* Every thread's children file of @pid (CONFIG_PROC_CHILDREN). */
static void take_children(struct pid_filter *f, struct pid_list *todo, int pid)
{
	char path[64];
	struct dirent *e;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	d = opendir(path);
	if (!d)
		return;
	while ((e = readdir(d))) {
		FILE *c;
		int child;

		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%.16s/children", pid, e->d_name);
		c = fopen(path, "re");
		if (!c)
			continue;
		while (fscanf(c, "%d", &child) == 1)
			take_child(f, todo, child);
		fclose(c);
	}
	closedir(d);
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

/*
 * Without children files: every process's parent, from its stat, until no
 * more join (a child may come before its parent in /proc).
 */
static void take_by_parent(struct pid_filter *f)
{
	bool added = true;

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
			if (state_of(f, pid) <= 0 && state_of(f, parent_of(pid)) > 0 &&
			    !pid_filter_add(f, pid))
				added = true;
		}
		closedir(d);
	}
}

/*
 * The live descendants of the tree's processes: from the processes'
 * children files, a read per thread of the tree, not per process on the
 * machine.
 */
static void take_descendants(struct pid_filter *f)
{
	struct pid_list todo = { 0 };
	int at = 0, pid, i, *next;

	if (access("/proc/thread-self/children", F_OK)) {
		take_by_parent(f);
		return;
	}
	while ((pid = pid_filter_next(f, &at)))
		if (state_of(f, pid) > 0 && (next = snapshot_push(&todo)))
			*next = pid;
	for (i = 0; i < todo.nr; i++)
		take_children(f, &todo, todo.v[i]);
	free(todo.v);
}

void pid_filter_refresh(struct pid_filter *f)
{
	if (!f->tree)
		return;
	/* Into a table of the same size: the exited leave no holes behind. */
	if (f->cap)
		rehash(f, f->cap, false);
	note_exited(f);
	take_descendants(f);
}

void pid_filter_free(struct pid_filter *f)
{
	free(f->slots);
	memset(f, 0, sizeof(*f));
}
