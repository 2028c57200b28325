// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/stat.h>

#include "recfile.h"
#include "recorder.h"

/* All of @len, or -errno (a short write is retried, an error is not). */
static int write_all(int fd, const void *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		p = (const char *)p + n;
		len -= n;
	}
	return 0;
}

static int append(struct recorder *r, uint32_t type, const struct rec_buf *payload)
{
	struct rec_buf frame = { 0 };
	int err;

	rec_put_frame(&frame, type, payload);
	err = frame.failed ? -ENOMEM : write_all(r->fd, frame.data, frame.len);
	if (!err) {
		r->good += frame.len;
	} else if (ftruncate(r->fd, r->good)) {
		/* The reader drops a torn tail anyway. */
	}
	rec_buf_free(&frame);
	return err;
}

int recorder_create(struct recorder *r, const char *path, char *err, size_t errlen)
{
	struct stat st;

	memset(r, 0, sizeof(*r));
	r->fd = -1;
	r->path = path;
	if (!lstat(path, &st) && S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s: %s", path, strerror(EISDIR));
		return -1;
	}
	if (snprintf(r->tmp, sizeof(r->tmp), "%s.XXXXXX", path) >= (int)sizeof(r->tmp)) {
		snprintf(err, errlen, "%s: %s", path, strerror(ENAMETOOLONG));
		return -1;
	}
	r->fd = mkostemp(r->tmp, O_CLOEXEC);	/* 0600, O_EXCL */
	if (r->fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		r->tmp[0] = '\0';
		return -1;
	}
	return 0;
}

int recorder_start(struct recorder *r, const char *header, char *err, size_t errlen)
{
	unsigned char start[REC_FILE_HEADER] = REC_MAGIC;
	struct rec_buf text = { .data = (unsigned char *)header, .len = strlen(header) };
	int ret;

	start[8] = REC_MAJOR;
	start[10] = REC_MINOR;
	ret = write_all(r->fd, start, sizeof(start));
	if (!ret) {
		r->good = sizeof(start);
		ret = append(r, REC_HEADER, &text);
	}
	if (!ret && rename(r->tmp, r->path))
		ret = -errno;
	if (ret) {
		/* Not even a header (a full disk): no file rather than a bad one. */
		snprintf(err, errlen, "%s: %s", r->path, strerror(-ret));
		recorder_close(r);
		return -1;
	}
	r->tmp[0] = '\0';
	return 0;
}

int recorder_open(struct recorder *r, const char *path, const char *header,
		  char *err, size_t errlen)
{
	if (recorder_create(r, path, err, errlen))
		return -1;
	return recorder_start(r, header, err, errlen);
}

int recorder_write(struct recorder *r, const struct snapshot *s)
{
	struct rec_buf payload = { .varint = true, .sized_rows = true }, z = { 0 };
	int err;

	rec_put_snapshot(&payload, s);
	rec_deflate(&z, &payload);
	err = z.failed ? -ENOMEM : append(r, REC_SNAPSHOT_Z, &z);
	rec_buf_free(&payload);
	rec_buf_free(&z);
	if (!err)
		r->frames++;
	return err;
}

int recorder_sample(struct recorder *r, const char *metric, double value)
{
	char text[256];
	struct rec_buf payload = { .data = (unsigned char *)text };

	payload.len = snprintf(text, sizeof(text), "metric=%s\nvalue=%.17g\n", metric, value);
	return append(r, REC_SAMPLE, &payload);
}

void recorder_close(struct recorder *r)
{
	if (r->fd >= 0)
		close(r->fd);
	r->fd = -1;
	if (r->tmp[0])
		unlink(r->tmp);
	r->tmp[0] = '\0';
}
