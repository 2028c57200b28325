// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "crc32.h"
#include "recfile.h"
#include "reader.h"

static uint32_t le32(const unsigned char *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

enum frame_check {
	FRAME_OK,
	FRAME_SHORT,		/* runs past the end of the file */
	FRAME_BAD,		/* bad length or CRC */
};

static enum frame_check check(const struct rec_reader *r, size_t off)
{
	size_t left = r->size - off;
	uint32_t len;

	if (left < REC_FRAME_OVERHEAD)
		return FRAME_SHORT;
	len = le32(r->map + off + 4);
	if (len > REC_MAX_FRAME)
		return FRAME_BAD;
	if (len > left - REC_FRAME_OVERHEAD)
		return FRAME_SHORT;
	if (crc32_update(0, r->map + off, 8 + len) != le32(r->map + off + 8 + len))
		return FRAME_BAD;
	return FRAME_OK;
}

/*
 * Frame types are small numbers (new ones take the next): damaged bytes
 * rarely look like one (about 2^-24 per offset), so resync computes a CRC
 * at almost no offset and stays linear in the bytes it skips. Checking
 * every offset's claimed length instead cost a CRC of up to 64 MiB at one
 * offset in 64 of random data: 20 s for one flipped bit in 69 MB.
 */
#define REC_TYPE_MAX 255

/*
 * A crafted file can still hold a plausible type and a length that fits
 * at many offsets. The bytes a resync CRCs are bounded by a budget: one
 * largest frame, plus RESYNC_PER_BYTE for every byte skipped; a candidate
 * longer than what is left is passed over. Reading stays linear in the
 * file's size whatever it holds.
 */
#define RESYNC_PER_BYTE 64

/* The next offset after @off where a valid frame starts, or the size. */
static size_t resync(const struct rec_reader *r, size_t off)
{
	uint64_t budget = REC_MAX_FRAME + REC_FRAME_OVERHEAD;

	for (off++; off + REC_FRAME_OVERHEAD <= r->size; off++) {
		uint32_t type = le32(r->map + off);
		uint64_t cost = (uint64_t)le32(r->map + off + 4) + REC_FRAME_OVERHEAD;

		budget += RESYNC_PER_BYTE;
		if (!type || type > REC_TYPE_MAX || cost > budget || cost > r->size - off)
			continue;
		if (check(r, off) == FRAME_OK)
			return off;
		budget -= cost;
	}
	return r->size;
}

static void report(struct rec_reader *r, size_t off, const char *why, size_t next)
{
	r->damaged++;
	if (!r->warn)
		return;
	if (next < r->size)
		fprintf(r->warn, "mmtop: recording damaged at offset %zu (%s): skipped %zu bytes to the next valid frame\n",
			off, why, next - off);
	else
		fprintf(r->warn, "mmtop: recording damaged at offset %zu (%s): nothing valid after it\n",
			off, why);
}

/*
 * The next valid frame from r->off: its offset in *@at, or false at the
 * end. A frame running past the end with nothing valid after it is a torn
 * tail (a killed recorder): dropped with a warning.
 */
static bool next_frame(struct rec_reader *r, size_t *at)
{
	while (r->off < r->size) {
		enum frame_check c = check(r, r->off);
		size_t next;

		if (c == FRAME_OK) {
			*at = r->off;
			r->off += REC_FRAME_OVERHEAD + le32(r->map + r->off + 4);
			return true;
		}
		next = resync(r, r->off);
		if (c == FRAME_SHORT && next == r->size) {
			if (r->warn)
				fprintf(r->warn, "mmtop: recording ends with a torn frame at offset %zu (%zu bytes): ignored\n",
					r->off, r->size - r->off);
			r->off = r->size;
			return false;
		}
		report(r, r->off, c == FRAME_SHORT ? "length past the end" :
		       "bad length or CRC", next);
		r->off = next;
	}
	return false;
}

int rec_open_buffer(struct rec_reader *r, const unsigned char *data, size_t size,
		    FILE *warn, char *err, size_t errlen)
{
	size_t at;

	memset(r, 0, sizeof(*r));
	r->warn = warn;
	r->map = data;
	r->size = size;
	if (size < REC_FILE_HEADER || memcmp(data, REC_MAGIC, 8)) {
		snprintf(err, errlen, "not an mmtop recording (no MMTOPREC header)");
		return -1;
	}
	r->major = data[8] | data[9] << 8;
	r->minor = data[10] | data[11] << 8;
	if (r->major > REC_MAJOR) {
		snprintf(err, errlen, "recording format %u.%u is newer than this mmtop reads (%u.%u)",
			 r->major, r->minor, REC_MAJOR, REC_MINOR);
		return -2;
	}
	r->off = REC_FILE_HEADER;
	/* The header frame if it is intact; snapshots are readable without. */
	if (check(r, r->off) == FRAME_OK && le32(r->map + r->off) == REC_HEADER &&
	    next_frame(r, &at)) {
		uint32_t len = le32(r->map + at + 4);

		len = len < sizeof(r->header) - 1 ? len : sizeof(r->header) - 1;
		memcpy(r->header, r->map + at + 8, len);
	}
	return 0;
}

/*
 * The whole file into memory; -errno, -EINVAL if it is not a regular file.
 * Opened without blocking: opening a FIFO waits for a writer, in a call
 * that a stop signal (restarted, see stop.c) would not end.
 */
static int read_file(const char *path, unsigned char **data, size_t *size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), err = 0;
	unsigned char *d = NULL;
	size_t len = 0, cap;
	struct stat st;
	ssize_t n;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st))
		err = -errno;
	else if (!S_ISREG(st.st_mode))
		err = -EINVAL;
	/* Read to the end, whatever the size was: the file may be growing. */
	for (cap = err ? 0 : st.st_size + 4096; !err;) {
		if (!d || len == cap) {
			unsigned char *nd = realloc(d, cap = len == cap ? cap * 2 : cap);

			if (!nd) {
				err = -ENOMEM;
				break;
			}
			d = nd;
		}
		n = read(fd, d + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			err = n < 0 ? -errno : 0;
			break;
		}
		len += n;
	}
	close(fd);
	if (err) {
		free(d);
		return err;
	}
	*data = d;
	*size = len;
	return 0;
}

int rec_open(struct rec_reader *r, const char *path, FILE *warn, char *err,
	     size_t errlen)
{
	unsigned char *data;
	char why[256];
	size_t size;
	int ret;

	memset(r, 0, sizeof(*r));
	ret = read_file(path, &data, &size);
	if (ret) {
		snprintf(err, errlen, "%s: %s", path,
			 ret == -EINVAL ? "not a regular file" : strerror(-ret));
		return -1;
	}
	ret = rec_open_buffer(r, data, size, warn, why, sizeof(why));
	r->owned = true;
	snprintf(r->path, sizeof(r->path), "%s", path);
	if (ret) {
		snprintf(err, errlen, "%s: %s", path, why);
		rec_close(r);
	}
	return ret;
}

void rec_release(struct rec_reader *r)
{
	if (r->owned)
		free((void *)r->map);
	r->map = NULL;
	r->owned = false;
}

int rec_reload(struct rec_reader *r)
{
	unsigned char *data;
	size_t size;

	if (r->map)
		return 0;
	if (!r->path[0] || read_file(r->path, &data, &size)) {
		r->size = r->off = 0;	/* gone: nothing more to read from it */
		return -1;
	}
	r->map = data;
	r->size = size;
	r->owned = true;
	if (r->off > size)
		r->off = size;
	return 0;
}

int rec_next_of(struct rec_reader *r, uint32_t type, const unsigned char **p,
		size_t *len)
{
	size_t at;

	while (next_frame(r, &at)) {
		/* Other types: a header, samples, or a type from a newer minor. */
		if (le32(r->map + at) != type)
			continue;
		*p = r->map + at + 8;
		*len = le32(r->map + at + 4);
		return 1;
	}
	return 0;
}

/* A SNAPSHOT or SNAPSHOT_Z frame at @at into @s: 0, or -1 if malformed. */
static int get_snapshot(struct rec_reader *r, size_t at, struct snapshot *s)
{
	const unsigned char *p = r->map + at + 8;
	size_t len = le32(r->map + at + 4);
	/* Fixed-width integers in SNAPSHOT frames, varints in SNAPSHOT_Z. */
	unsigned int layout = rec_layout_of(r->major, r->minor) & ~REC_VARINT;

	if (le32(r->map + at) == REC_SNAPSHOT)
		return rec_get_snapshot(p, len, layout, s);
	if (rec_inflate(p, len, &r->inflated))
		return -1;
	return rec_get_snapshot(r->inflated.data, r->inflated.len, layout | REC_VARINT, s);
}

/*
 * Interval numbers grow along a file: one that repeats or goes back is a
 * second recording in it (two files concatenated), said where. Reading
 * again from an earlier place (a seek back) is not that.
 */
static void check_order(struct rec_reader *r, size_t at, uint64_t seq)
{
	if (r->warn && r->last_at && at > r->last_at && seq <= r->last_seq)
		fprintf(r->warn, "mmtop: %s: interval %" PRIu64 " at offset %zu comes after interval %" PRIu64 ": the recording repeats or goes back (two recordings in one file?)\n",
			r->path[0] ? r->path : "recording", seq, at, r->last_seq);
	r->last_seq = seq;
	r->last_at = at;
}

int rec_next(struct rec_reader *r, struct snapshot *s)
{
	size_t at;

	snapshot_free(s);
	while (next_frame(r, &at)) {
		uint32_t type = le32(r->map + at);

		if (type != REC_SNAPSHOT && type != REC_SNAPSHOT_Z)
			continue;
		if (!get_snapshot(r, at, s)) {
			check_order(r, at, s->seq);
			return 1;
		}
		report(r, at, "malformed snapshot", r->off);
	}
	return 0;
}

void rec_close(struct rec_reader *r)
{
	rec_release(r);
	rec_buf_free(&r->inflated);
}

const char *rec_header(const struct rec_reader *r, const char *key, char *buf,
		       size_t len)
{
	size_t klen = strlen(key);
	const char *p = r->header;

	buf[0] = '\0';
	for (; *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p)) {
		if (!strncmp(p, key, klen) && p[klen] == '=') {
			size_t n = strcspn(p + klen + 1, "\n");

			snprintf(buf, len, "%.*s", (int)n, p + klen + 1);
			break;
		}
	}
	return buf;
}
