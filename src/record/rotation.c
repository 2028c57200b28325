// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sys/stat.h>

#include "rotation.h"
#include "util.h"

int rotation_parse(const char *arg, struct rotation *r)
{
	size_t n = strlen(arg);

	/*
	 * Sizes in K (or k: no duration's unit), M, G, KiB, MiB or GiB: "1m"
	 * is a minute, "1M" a MiB.
	 */
	if (n && (strchr("kKMG", arg[n - 1]) || (n > 2 && !strcmp(arg + n - 2, "iB"))))
		return parse_size(arg, &r->max_bytes) || r->max_bytes < 4096 ? -1 : 0;
	return parse_duration(arg, &r->every_ns) || r->every_ns < NSEC_PER_SEC ? -1 : 0;
}

int rotation_prepare(const struct rotation *r)
{
	struct stat st;

	if (mkdir(r->dir, 0700) && errno != EEXIST)
		return -errno;
	if (stat(r->dir, &st))
		return -errno;
	return S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
}

int rotation_path(const struct rotation *r, uint64_t wall_ns, char *path, size_t len)
{
	time_t sec = wall_ns / NSEC_PER_SEC;
	char stamp[32];
	struct tm tm;
	int i;

	gmtime_r(&sec, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	/* Several files in one second (small sizes): a sequence number. */
	for (i = 0; i < 1000; i++) {
		int n = i ? snprintf(path, len, "%s/mmtop-%s.%03d.rec", r->dir, stamp, i) :
			    snprintf(path, len, "%s/mmtop-%s.rec", r->dir, stamp);

		if (n >= (int)len)
			return -ENAMETOOLONG;
		if (access(path, F_OK))
			return 0;
	}
	return -EEXIST;
}

bool rotation_due(const struct rotation *r, uint64_t opened_ns, uint64_t now_ns,
		  uint64_t size)
{
	return (r->every_ns && now_ns - opened_ns >= r->every_ns) ||
	       (r->max_bytes && size >= r->max_bytes);
}

struct rec_file {
	char name[256];
	struct timespec mtime;
};

/* Oldest first: by last write, then by name. */
static int by_age(const void *a, const void *b)
{
	const struct rec_file *x = a, *y = b;

	if (x->mtime.tv_sec != y->mtime.tv_sec)
		return x->mtime.tv_sec < y->mtime.tv_sec ? -1 : 1;
	if (x->mtime.tv_nsec != y->mtime.tv_nsec)
		return x->mtime.tv_nsec < y->mtime.tv_nsec ? -1 : 1;
	return strcmp(x->name, y->name);
}

void rotation_prune(const struct rotation *r)
{
	struct rec_file *files = NULL;
	size_t nr = 0, cap = 0, i;
	DIR *d = opendir(r->dir);
	struct dirent *e;

	if (!d || !r->keep) {
		if (d)
			closedir(d);
		return;
	}
	while ((e = readdir(d))) {
		struct stat st;

		if (fnmatch("mmtop-*.rec", e->d_name, 0) || strlen(e->d_name) >= 256 ||
		    fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) || !S_ISREG(st.st_mode))
			continue;
		if (nr == cap) {
			struct rec_file *n = realloc(files, (cap = cap ? cap * 2 : 64) * sizeof(*n));

			if (!n)
				break;
			files = n;
		}
		strcpy(files[nr].name, e->d_name);
		files[nr++].mtime = st.st_mtim;
	}
	if (nr > r->keep) {
		qsort(files, nr, sizeof(*files), by_age);
		for (i = 0; i < nr - r->keep; i++)
			unlinkat(dirfd(d), files[i].name, 0);
	}
	closedir(d);
	free(files);
}
