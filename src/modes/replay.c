// SPDX-License-Identifier: GPL-2.0
/*
 * A recording as a snapshot source. The frames are indexed once at the
 * start (damage is reported then, once), so the viewer can step back and
 * forth and jump.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader.h"
#include "replay.h"
#include "ui.h"
#include "util.h"

struct replay {
	struct rec_set r;
	struct rec_pos *index;		/* where each readable interval is */
	long nr, pos;			/* pos: the next interval to show */
	struct snapshot frame;
	uint64_t interval_ns;		/* as recorded */
	char status[96];
};

static int build_index(struct replay *p)
{
	long cap = 0;

	for (;;) {
		if (rec_set_next(&p->r, &p->frame) != 1)
			break;
		if (p->nr == cap) {
			struct rec_pos *n = realloc(p->index, (cap = cap ? cap * 2 : 256) * sizeof(*n));

			if (!n)
				return -1;
			p->index = n;
		}
		p->index[p->nr++] = p->r.last;
	}
	rec_set_quiet(&p->r);	/* damage reported once, while indexing */
	/* Seeking ignores the range: every indexed interval is inside it. */
	p->r.range = (struct rec_range){ 0 };
	return 0;
}

/* Interval @i into p->frame. */
static bool load(struct replay *p, long i)
{
	rec_set_seek(&p->r, p->index[i]);
	return rec_set_next(&p->r, &p->frame) == 1;
}

static int replay_snapshot_init(void *ctx, struct snapshot *s)
{
	struct replay *p = ctx;

	return snapshot_init(s, p->frame.nr_cpus, p->frame.nr_nodes);
}

static void replay_sample(void *ctx, struct snapshot *s)
{
	struct replay *p = ctx;

	if (p->pos >= p->nr || !load(p, p->pos))
		return;
	p->pos++;
	snapshot_copy(s, &p->frame);
}

static const char *replay_status(void *ctx)
{
	struct replay *p = ctx;

	snprintf(p->status, sizeof(p->status), "interval %ld/%ld  +%.1fs%s", p->pos, p->nr,
		 p->pos ? (p->pos - 1) * (double)p->interval_ns / 1e9 : 0,
		 p->pos >= p->nr ? "  (end)" : "");
	return p->status;
}

static bool replay_done(void *ctx)
{
	struct replay *p = ctx;

	return p->pos >= p->nr;
}

static void replay_seek(void *ctx, long interval)
{
	struct replay *p = ctx;

	p->pos = interval < 0 ? 0 : interval > p->nr - 1 ? p->nr - 1 : interval;
}

static long replay_position(void *ctx)
{
	struct replay *p = ctx;

	return p->pos;
}

static uint64_t replay_interval(void *ctx)
{
	struct replay *p = ctx;

	return p->interval_ns;
}

int replay_run(const struct replay_opts *o)
{
	struct replay p;
	struct snapshot_source src = {
		.ctx = &p, .snapshot_init = replay_snapshot_init,
		.sample = replay_sample, .status = replay_status,
		.done = replay_done, .seek = replay_seek,
		.position = replay_position, .recorded_interval = replay_interval,
	};
	struct batch_opts bo = o->batch_opts;
	char buf[32];
	int ret;

	memset(&p, 0, sizeof(p));
	ret = rec_set_open_input(&p.r, &o->in);
	if (ret)
		return ret;
	if (build_index(&p) || !p.nr || !load(&p, 0)) {
		rec_set_say_empty(&p.r, &o->in, stderr);
		ret = 1;
		goto out;
	}
	p.interval_ns = strtoull(rec_set_header(&p.r, "interval_ns", buf, sizeof(buf)), NULL, 10);
	if (!p.interval_ns)
		p.interval_ns = p.frame.interval_ns ? p.frame.interval_ns : NSEC_PER_SEC;
	if (!bo.interval_ns)
		bo.interval_ns = p.interval_ns;
	if (o->batch) {
		bo.no_wait = true;	/* as fast as it reads */
		ret = batch_run(&bo, &src);
	} else {
		struct ui_opts uo = { .interval_ns = bo.interval_ns, .color = o->color,
				      .mode = "REPLAY" };

		ret = ui_run(&uo, &src);
	}
out:
	snapshot_free(&p.frame);
	free(p.index);
	rec_set_close(&p.r);
	return ret;
}
