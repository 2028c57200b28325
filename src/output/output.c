// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sys/stat.h>

#include "metrics.h"
#include "output_common.h"
#include "util.h"

int output_format_parse(const char *s, enum output_format *fmt)
{
	if (!strcmp(s, "text"))
		*fmt = OUTPUT_TEXT;
	else if (!strcmp(s, "csv"))
		*fmt = OUTPUT_CSV;
	else if (!strcmp(s, "json"))
		*fmt = OUTPUT_JSON;
	else if (!strcmp(s, "openmetrics"))
		*fmt = OUTPUT_OPENMETRICS;
	else if (!strcmp(s, "prometheus"))
		*fmt = OUTPUT_PROMETHEUS;
	else
		return -1;
	return 0;
}

void output_init(struct output *o, enum output_format fmt, FILE *f)
{
	memset(o, 0, sizeof(*o));
	o->format = fmt;
	o->f = f;
}

static int write_format(struct output *o, const struct snapshot *s)
{
	switch (o->format) {
	case OUTPUT_TEXT:
		write_text(o->f, s);
		break;
	case OUTPUT_CSV:
		write_csv(o, s);
		break;
	case OUTPUT_JSON:
		write_json(o->f, s);
		break;
	case OUTPUT_OPENMETRICS:
	case OUTPUT_PROMETHEUS:
		return write_metrics(o, s);
	}
	return 0;
}

static int write_stream(struct output *o, const struct snapshot *s)
{
	int err = write_format(o, s);

	if (err)
		return err;
	if (fflush(o->f) || ferror(o->f))
		return errno ? -errno : -EIO;
	return 0;
}

/* The whole interval into a new file beside @o->path, then renamed over it. */
static int write_replacing(struct output *o, const struct snapshot *s)
{
	char tmp[PATH_MAX];
	int fd, err = 0;

	if (snprintf(tmp, sizeof(tmp), "%s.XXXXXX", o->path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* Read by other users' collectors (node_exporter's textfile). */
	if (fchmod(fd, 0644) || !(o->f = fdopen(fd, "w"))) {
		err = -errno;
		close(fd);
		unlink(tmp);
		return err;
	}
	o->header_done = false;
	errno = 0;
	err = write_stream(o, s);
	if (fclose(o->f) && !err)
		err = errno ? -errno : -EIO;
	o->f = NULL;
	if (!err && rename(tmp, o->path))
		err = -errno;
	if (err)
		unlink(tmp);
	return err;
}

int output_snapshot(struct output *o, const struct snapshot *s)
{
	return o->path ? write_replacing(o, s) : write_stream(o, s);
}

void output_close(struct output *o)
{
	if (o->metrics)
		metrics_free(o->metrics);
	free(o->metrics);
	o->metrics = NULL;
}
