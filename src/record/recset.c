// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <sys/stat.h>

#include "recset.h"
#include "util.h"

/* Paths to read, directories expanded to their *.rec files. */
struct path_list {
	char **v;
	bool *listed;			/* found in a directory, not named */
	int nr, cap;
};

static int add_path(struct path_list *l, const char *dir, const char *name)
{
	char buf[PATH_MAX];

	if (l->nr == l->cap) {
		int cap = l->cap ? l->cap * 2 : 16;
		char **v = realloc(l->v, cap * sizeof(*v));
		bool *listed = v ? realloc(l->listed, cap * sizeof(*listed)) : NULL;

		if (v)
			l->v = v;
		if (!listed)
			return -ENOMEM;
		l->listed = listed;
		l->cap = cap;
	}
	l->listed[l->nr] = name != NULL;
	snprintf(buf, sizeof(buf), "%s%s%s", dir, name ? "/" : "", name ? name : "");
	l->v[l->nr] = strdup(buf);
	return l->v[l->nr++] ? 0 : -ENOMEM;
}

static int expand(struct path_list *l, const char *path, char *err, size_t errlen)
{
	struct stat st;
	struct dirent *e;
	int before = l->nr, ret = 0;
	DIR *d;

	if (stat(path, &st) || !S_ISDIR(st.st_mode))
		return add_path(l, path, NULL);	/* rec_open says what is wrong */
	d = opendir(path);
	if (!d) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	while (!ret && (e = readdir(d)))
		if (!fnmatch("*.rec", e->d_name, 0) && e->d_name[0] != '.')
			ret = add_path(l, path, e->d_name);
	closedir(d);
	if (!ret && l->nr == before) {
		snprintf(err, errlen, "%s: no recordings (*.rec) in the directory", path);
		return -1;
	}
	if (ret)
		snprintf(err, errlen, "out of memory");
	return ret ? -1 : 0;
}

static uint64_t started(const struct rec_reader *r)
{
	char buf[32];

	return strtoull(rec_header(r, "start_ns", buf, sizeof(buf)), NULL, 10);
}

static int by_start(const void *a, const void *b)
{
	uint64_t x = started(a), y = started(b);

	return x < y ? -1 : x > y;
}

int rec_set_open(struct rec_set *set, char *const *paths, int n, FILE *warn,
		 char *err, size_t errlen)
{
	struct path_list l = { 0 };
	int i, ret = 0;

	memset(set, 0, sizeof(*set));
	for (i = 0; i < n && !ret; i++)
		ret = expand(&l, paths[i], err, errlen);
	if (!ret && !(set->files = calloc(l.nr, sizeof(*set->files)))) {
		snprintf(err, errlen, "out of memory");
		ret = -1;
	}
	for (i = 0; i < l.nr && !ret; i++) {
		ret = rec_open(&set->files[set->nr], l.v[i], warn, err, errlen);
		if (!ret) {
			/* Its header kept; its bytes read again when it is read. */
			rec_release(&set->files[set->nr++]);
		} else if (ret == -1 && l.listed[i] && warn) {
			/* One bad file in a directory does not hide the others. */
			fprintf(warn, "mmtop: %s: skipped\n", err);
			ret = 0;
		}
	}
	if (!ret && !set->nr) {
		snprintf(err, errlen, "%s: no readable recording", paths[0]);
		ret = -1;
	}
	for (i = 0; i < l.nr; i++)
		free(l.v[i]);
	free(l.v);
	free(l.listed);
	if (ret) {
		rec_set_close(set);
		return ret;
	}
	/* Rotated files in the order they were written, whatever their names. */
	qsort(set->files, set->nr, sizeof(*set->files), by_start);
	return 0;
}

/* Bounds given as a time of day, on the day (UTC) of the first interval. */
static void resolve(struct rec_set *set, uint64_t first_ns)
{
	uint64_t day = first_ns - first_ns % (86400 * NSEC_PER_SEC);

	if (set->range.begin_tod)
		set->range.begin_ns += day;
	if (set->range.end_tod)
		set->range.end_ns += day;
	set->resolved = true;
}

/* The file being read, in memory; the others not. */
static struct rec_reader *current(struct rec_set *set)
{
	struct rec_reader *r = &set->files[set->cur];

	rec_reload(r);
	return r;
}

/* On to the next file, from its start (a seek may have left it anywhere). */
static void advance(struct rec_set *set)
{
	rec_release(&set->files[set->cur]);
	if (++set->cur < set->nr)
		set->files[set->cur].off = REC_FILE_HEADER;
}

int rec_set_next(struct rec_set *set, struct snapshot *s)
{
	const struct rec_range *r = &set->range;

	while (set->cur < set->nr) {
		set->last = rec_set_tell(set);
		if (rec_next(current(set), s) != 1) {
			advance(set);
			continue;
		}
		if (!set->resolved)
			resolve(set, s->wall_ns);
		if (r->begin_ns && s->wall_ns < r->begin_ns)
			continue;
		if (r->end_ns && s->wall_ns > r->end_ns) {
			set->cur = set->nr;
			break;
		}
		return 1;
	}
	return 0;
}

int rec_set_next_of(struct rec_set *set, uint32_t type, const unsigned char **p,
		    size_t *len)
{
	for (; set->cur < set->nr; advance(set))
		if (rec_next_of(current(set), type, p, len))
			return 1;
	return 0;
}

struct rec_pos rec_set_tell(const struct rec_set *set)
{
	struct rec_pos pos = { set->cur, 0 };

	if (set->cur < set->nr)
		pos.off = set->files[set->cur].off;
	return pos;
}

void rec_set_seek(struct rec_set *set, struct rec_pos pos)
{
	if (set->cur < set->nr && set->cur != pos.file)
		rec_release(&set->files[set->cur]);
	set->cur = pos.file;
	if (pos.file < set->nr)
		set->files[pos.file].off = pos.off;
}

const char *rec_set_header(const struct rec_set *set, const char *key, char *buf,
			   size_t len)
{
	if (!set->nr) {
		buf[0] = '\0';
		return buf;
	}
	return rec_header(&set->files[0], key, buf, len);
}

void rec_set_quiet(struct rec_set *set)
{
	int i;

	for (i = 0; i < set->nr; i++)
		set->files[i].warn = NULL;
}

int rec_set_open_input(struct rec_set *set, const struct rec_input *in)
{
	char err[512];
	int ret = rec_set_open(set, in->paths, in->nr_paths, stderr, err, sizeof(err));

	if (ret) {
		fprintf(stderr, "mmtop: %s\n", err);
		return ret == -2 ? 2 : 1;
	}
	set->range = in->range;
	return 0;
}

void rec_set_close(struct rec_set *set)
{
	int i;

	for (i = 0; i < set->nr; i++)
		rec_close(&set->files[i]);
	free(set->files);
	memset(set, 0, sizeof(*set));
}

void rec_set_say_empty(struct rec_set *set, const struct rec_input *in, FILE *f)
{
	const char *path = in->paths[0];
	const unsigned char *p;
	size_t len;

	if (in->range.begin_ns || in->range.end_ns) {
		fprintf(f, "mmtop: %s: no complete interval in the recording in that time range\n",
			path);
		return;
	}
	rec_set_seek(set, (struct rec_pos){ 0, REC_FILE_HEADER });
	if (rec_set_next_of(set, REC_SAMPLE, &p, &len))
		fprintf(f, "mmtop: %s: no intervals, but a workload's samples (mmtop bench "
			"--record), for mmtop compare; to record intervals of a workload: "
			"mmtop record -o FILE -- mmtop bench ...\n", path);
	else
		fprintf(f, "mmtop: %s: no complete interval in the recording\n", path);
}
