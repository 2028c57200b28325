// SPDX-License-Identifier: GPL-2.0
/* cgroup v2 ids named by their paths: see cgroup_names.h. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgroup_names.h"

/* The first cgroup2 mount in /proc/self/mountinfo, or NULL. */
static char *cgroup2_mount(void)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[4096], point[PATH_MAX], *dash, *found = NULL;

	if (!f)
		return NULL;
	while (!found && fgets(line, sizeof(line), f)) {
		dash = strstr(line, " - ");
		if (!dash || strncmp(dash + 3, "cgroup2 ", 8))
			continue;
		if (sscanf(line, "%*s %*s %*s %*s %4095s", point) == 1)
			found = strdup(point);
	}
	fclose(f);
	return found;
}

static unsigned int slot_of(uint64_t id, unsigned int cap)
{
	return (id * 0x9e3779b97f4a7c15ULL) >> 32 & (cap - 1);
}

static struct cgroup_name *find(const struct cgroup_names *c, uint64_t id)
{
	unsigned int i;

	if (!c->cap)
		return NULL;
	for (i = slot_of(id, c->cap); c->v[i].id; i = (i + 1) & (c->cap - 1))
		if (c->v[i].id == id)
			return &c->v[i];
	return NULL;
}

/* Take @path (owned) as @id's name; -1 out of memory (@path freed). */
static int put(struct cgroup_names *c, uint64_t id, char *path, bool named, bool in_tree)
{
	struct cgroup_name *e = find(c, id);
	unsigned int i;

	if (e) {
		free(e->path);
		e->path = path;
		e->named |= named;
		return 0;
	}
	if (2 * (c->nr + 1) > c->cap) {
		struct cgroup_names bigger = { .cap = c->cap ? 2 * c->cap : 256 };

		bigger.v = calloc(bigger.cap, sizeof(*bigger.v));
		if (!bigger.v) {
			free(path);
			return -1;
		}
		for (i = 0; i < c->cap; i++)
			if (c->v[i].id)
				put(&bigger, c->v[i].id, c->v[i].path, c->v[i].named,
				    c->v[i].in_tree);
		free(c->v);
		c->v = bigger.v;
		c->cap = bigger.cap;
	}
	for (i = slot_of(id, c->cap); c->v[i].id; i = (i + 1) & (c->cap - 1))
		;
	c->v[i] = (struct cgroup_name){ .id = id, .path = path, .named = named,
					.in_tree = in_tree };
	c->nr++;
	return 0;
}

/* The directories under @fd (@path, @len bytes of it), into @c. */
static void walk_dir(struct cgroup_names *c, int fd, char *path, size_t len)
{
	DIR *d = fdopendir(fd);
	struct dirent *e;
	struct stat st;
	int sub;

	if (!d) {
		close(fd);
		return;
	}
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);

		if (e->d_type != DT_DIR || !strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (len + 1 + n >= PATH_MAX)
			continue;
		sub = openat(dirfd(d), e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub < 0)
			continue;
		snprintf(path + len, PATH_MAX - len, "/%s", e->d_name);
		if (fstat(sub, &st) || put(c, st.st_ino, strdup(path), false, true)) {
			close(sub);
			continue;
		}
		walk_dir(c, sub, path, len + 1 + n);
	}
	closedir(d);
}

/*
 * The tree as it is now, and, with their last names, the ids that have
 * left it since the last walk or were named since (rows of waits before
 * a removal name them still).
 */
static void walk(struct cgroup_names *c)
{
	struct cgroup_names now = {};
	char path[PATH_MAX] = "";
	struct stat st;
	unsigned int i;
	int fd;

	c->walked = true;
	fd = open(c->mount, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return;
	if (fstat(fd, &st) || put(&now, st.st_ino, strdup("/"), false, true)) {
		close(fd);
		return;
	}
	walk_dir(&now, fd, path, 0);
	for (i = 0; i < c->cap; i++) {
		struct cgroup_name *old = &c->v[i];

		if (old->id && old->path && (old->named || old->in_tree) && !find(&now, old->id)) {
			put(&now, old->id, old->path, false, false);
			old->path = NULL;
		}
		if (old->id)
			free(old->path);
	}
	free(c->v);
	c->v = now.v;
	c->cap = now.cap;
	c->nr = now.nr;
}

/* @id's full path, walking the tree once a read if it is not known; NULL if not found. */
static const char *path_of(struct cgroup_names *c, uint64_t id)
{
	struct cgroup_name *e = find(c, id);

	if ((!e || !e->path) && !c->walked) {
		walk(c);
		e = find(c, id);
	}
	/* Not in the tree: said so until the next read walks it again. */
	if (!e && !put(c, id, NULL, true, false))
		e = find(c, id);
	if (!e)
		return NULL;
	e->named = true;
	return e->path;
}

void cgroup_name_of(struct cgroup_names *c, uint64_t id, char *buf, size_t len)
{
	const char *path;
	size_t n;

	if (!id || !c->mount) {
		buf[0] = 0;
		return;
	}
	path = path_of(c, id);
	if (!path) {
		snprintf(buf, len, "(gone %" PRIu64 ")", id);
		return;
	}
	n = strlen(path);
	if (n < len)
		memcpy(buf, path, n + 1);
	else
		snprintf(buf, len, "...%s", path + n - (len - 4));
}

/* Whether @path is @subtree or below it. */
static bool below(const char *path, const char *subtree)
{
	size_t n = strlen(subtree);

	if (!strcmp(subtree, "/"))
		return true;
	return !strncmp(path, subtree, n) && (path[n] == '/' || !path[n]);
}

bool cgroup_wanted(struct cgroup_names *c, uint64_t id)
{
	const char *path;

	if (!c->subtree)
		return true;
	path = id ? path_of(c, id) : NULL;
	return path && below(path, c->subtree);
}

/* @arg as a path from the mount's root: "/a/b", without a trailing slash. */
static char *subtree_of(const char *mount, const char *arg)
{
	size_t m = strlen(mount), n;
	char *s;

	if (!strncmp(arg, mount, m) && (arg[m] == '/' || !arg[m]))
		arg += m;
	while (*arg == '/')
		arg++;
	if (asprintf(&s, "/%s", arg) < 0)
		return NULL;
	n = strlen(s);
	while (n > 1 && s[n - 1] == '/')
		s[--n] = 0;
	return s;
}

int cgroup_names_init(struct cgroup_names *c, const char *subtree, char *err, size_t errlen)
{
	char dir[PATH_MAX];
	struct stat st;

	*c = (struct cgroup_names){ .mount = cgroup2_mount() };
	if (!subtree)
		return 0;
	if (!c->mount) {
		snprintf(err, errlen, "--cgroup %s: %s", subtree, CGROUPS_NO_MOUNT);
		return -1;
	}
	c->subtree = subtree_of(c->mount, subtree);
	if (!c->subtree) {
		snprintf(err, errlen, "--cgroup: out of memory");
		return -1;
	}
	snprintf(dir, sizeof(dir), "%s%s", c->mount, c->subtree);
	if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "--cgroup %s: no such cgroup (%s)", subtree, dir);
		return -1;
	}
	return 0;
}

void cgroup_names_read(struct cgroup_names *c)
{
	c->walked = false;
}

void cgroup_names_free(struct cgroup_names *c)
{
	unsigned int i;

	for (i = 0; i < c->cap; i++)
		free(c->v[i].path);
	free(c->v);
	free(c->mount);
	free(c->subtree);
	*c = (struct cgroup_names){};
}
