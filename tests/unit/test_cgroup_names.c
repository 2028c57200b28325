// SPDX-License-Identifier: GPL-2.0
/*
 * cgroup ids named by their paths: a directory tree stands for the
 * cgroup2 mount (an id is a directory's inode number). A cgroup made
 * after the first walk is found by the next read's; one removed keeps
 * the name it was given; one never seen is said to be gone; long paths
 * keep their end; --cgroup's subtree admits what is below it alone.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgroup_names.h"
#include "unit.h"

/* tmpfs: a removed directory's inode number is not given to the next, as in cgroupfs. */
static char root[] = "/dev/shm/mmtop-cgroup-XXXXXX";

static uint64_t id_of(const char *rel)
{
	char path[512];
	struct stat st;

	snprintf(path, sizeof(path), "%s%s", root, rel);
	return stat(path, &st) ? 0 : st.st_ino;
}

static void dir(const char *rel)
{
	char path[512];

	snprintf(path, sizeof(path), "%s%s", root, rel);
	mkdir(path, 0755);
}

static void undir(const char *rel)
{
	char path[512];

	snprintf(path, sizeof(path), "%s%s", root, rel);
	rmdir(path);
}

static const char *name(struct cgroup_names *c, uint64_t id)
{
	static char buf[32];

	cgroup_name_of(c, id, buf, sizeof(buf));
	return buf;
}

int main(void)
{
	struct cgroup_names c = {};
	uint64_t a, ab, late, gone;
	char err[256];

	if (!mkdtemp(root))
		return 1;
	dir("/a");
	dir("/a/b");
	dir("/a-much-longer-name-of-a-container.scope");
	dir("/ab");
	a = id_of("/a");
	ab = id_of("/a/b");
	c.mount = strdup(root);
	cgroup_names_read(&c);
	CHECK(!strcmp(name(&c, id_of("")), "/"), "the mount's root is /");
	CHECK(!strcmp(name(&c, ab), "/a/b"), "a cgroup is named by its path (%s)", name(&c, ab));
	CHECK(!strcmp(name(&c, id_of("/a-much-longer-name-of-a-container.scope")),
		      "...er-name-of-a-container.scope"),
	      "a long path keeps its end (%s)", name(&c, id_of("/a-much-longer-name-of-a-container.scope")));
	CHECK(!name(&c, 0)[0], "id 0 (nobody) is no name");
	dir("/late");
	late = id_of("/late");
	CHECK(!strncmp(name(&c, late), "(gone ", 6), "within a read that walked, a new id is not found");
	cgroup_names_read(&c);
	CHECK(!strcmp(name(&c, late), "/late"), "the next read walks again and finds it");
	undir("/a/b");
	dir("/c");
	cgroup_names_read(&c);
	CHECK(!strcmp(name(&c, id_of("/c")), "/c") && !strcmp(name(&c, ab), "/a/b"),
	      "a removed cgroup keeps its name after the walk that finds it gone");
	dir("/e");
	cgroup_names_read(&c);
	CHECK(!strcmp(name(&c, id_of("/e")), "/e") && !strcmp(name(&c, ab), "/a/b"),
	      "and after the next, named since");
	dir("/gone");
	gone = id_of("/gone");
	undir("/gone");
	cgroup_names_read(&c);
	CHECK(!strncmp(name(&c, gone), "(gone ", 6),
	      "one removed before it was named is gone (%s)", name(&c, gone));
	cgroup_names_free(&c);

	c.mount = strdup(root);
	c.subtree = strdup("/a");
	cgroup_names_read(&c);
	CHECK(cgroup_wanted(&c, a) && !cgroup_wanted(&c, id_of("/ab")) &&
	      !cgroup_wanted(&c, id_of("")) && !cgroup_wanted(&c, 0),
	      "--cgroup /a admits /a, not /ab, the root or nobody");
	dir("/a/d");
	cgroup_names_read(&c);
	CHECK(cgroup_wanted(&c, id_of("/a/d")), "and a cgroup made below it since");
	cgroup_names_free(&c);
	CHECK(cgroup_names_init(&c, "/surely/not/a/cgroup", err, sizeof(err)) &&
	      (strstr(err, "no such cgroup") || strstr(err, "no cgroup2")),
	      "--cgroup of no cgroup is refused: %s", err);
	cgroup_names_free(&c);

	undir("/a/d");
	undir("/a");
	undir("/ab");
	undir("/c");
	undir("/e");
	undir("/late");
	undir("/a-much-longer-name-of-a-container.scope");
	rmdir(root);
	UNIT_EXIT();
}
