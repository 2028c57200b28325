/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cgroup (v2) ids, as BPF reads them (bpf_get_current_cgroup_id(), a
 * task's cgroups->dfl_cgrp->kn->id), named by their path under the
 * cgroup2 mount: the id is the directory's inode number there. The tree
 * is walked when an id is not known, at most once a read, and the names
 * kept are those of the tree as last walked, of the cgroups that left it
 * then, and of the ids named since.
 */
#ifndef MMTOP_CGROUP_NAMES_H
#define MMTOP_CGROUP_NAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cgroup_name {
	uint64_t id;		/* 0: a free slot */
	char *path;		/* "/" for the root; NULL: not in the tree */
	bool named;		/* since the last walk */
	bool in_tree;		/* at the last walk */
};

struct cgroup_names {
	char *mount;		/* the cgroup2 mount; NULL: none */
	struct cgroup_name *v;	/* open addressing, at most half full */
	unsigned int cap, nr;
	bool walked;		/* in this read */
	/* --cgroup: only tasks of this subtree (a path as named); NULL: all. */
	char *subtree;
};

/*
 * Find the cgroup2 mount and, for --cgroup @subtree (a path under it, or
 * the mount's path of it; NULL: all), check that it is there. 0, or -1
 * with the reason in @err.
 */
/* Why ids have no names on a host without a cgroup2 mount. */
#define CGROUPS_NO_MOUNT "no cgroup2 file system is mounted (cgroup v1 alone)"

int cgroup_names_init(struct cgroup_names *c, const char *subtree, char *err, size_t errlen);
void cgroup_names_free(struct cgroup_names *c);
/* A new read begins: an unknown id may walk the tree again. */
void cgroup_names_read(struct cgroup_names *c);
/*
 * The path of cgroup @id into @buf (its last @len - 1 bytes, "..." first,
 * where it is longer): "/" the root, "(gone N)" for an id no longer in
 * the tree; "" for 0 (none), and without a cgroup2 mount
 * (CGROUPS_NO_MOUNT says why).
 */
void cgroup_name_of(struct cgroup_names *c, uint64_t id, char *buf, size_t len);
/* Whether cgroup @id is in --cgroup's subtree (always, without one). */
bool cgroup_wanted(struct cgroup_names *c, uint64_t id);

#endif
