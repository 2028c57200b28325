// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "metrics.h"
#include "output_common.h"
#include "replace_file.h"
#include "util.h"

#define OUTPUT_FORMAT_NAME(e, word) [e] = word,
static const char *const format_names[] = { OUTPUT_FORMATS(OUTPUT_FORMAT_NAME) };

int output_format_parse(const char *s, enum output_format *fmt)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(format_names); i++)
		if (!strcmp(s, format_names[i])) {
			*fmt = i;
			return 0;
		}
	return -1;
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

struct replacing {
	struct output *o;
	const struct snapshot *s;
};

static int write_file(FILE *f, void *ctx)
{
	struct replacing *r = ctx;

	r->o->f = f;
	r->o->header_done = false;
	return write_format(r->o, r->s);
}

int output_snapshot(struct output *o, const struct snapshot *s)
{
	struct replacing r = { o, s };
	int err;

	if (!o->path)
		return write_stream(o, s);
	/* Read by other users' collectors (node_exporter's textfile). */
	err = replace_file(o->path, 0644, write_file, &r);
	o->f = NULL;
	return err;
}

void output_close(struct output *o)
{
	if (o->metrics)
		metrics_free(o->metrics);
	free(o->metrics);
	o->metrics = NULL;
}
