// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay.h"
#include "replay_source.h"
#include "ui.h"
#include "util.h"

struct replay {
	struct rec_reader r;
	struct snapshot next;		/* read ahead: done() must know */
	bool have_next;
	unsigned long frame;
	char status[96];
};

static void read_ahead(struct replay *p)
{
	p->have_next = rec_next(&p->r, &p->next) == 1;
}

static int replay_snapshot_init(void *ctx, struct snapshot *s)
{
	struct replay *p = ctx;

	return snapshot_init(s, p->next.nr_cpus, p->next.nr_nodes);
}

static void replay_sample(void *ctx, struct snapshot *s)
{
	struct replay *p = ctx;

	if (!p->have_next)
		return;
	/* A recording's CPU count is fixed: every frame has the same shape. */
	if (snapshot_copy(s, &p->next)) {
		snapshot_free(s);
		snapshot_init(s, p->next.nr_cpus, p->next.nr_nodes);
		snapshot_copy(s, &p->next);
	}
	p->frame++;
	read_ahead(p);
}

static const char *replay_status(void *ctx)
{
	struct replay *p = ctx;

	snprintf(p->status, sizeof(p->status), "frame %lu%s", p->frame,
		 p->have_next ? "" : " (end)");
	return p->status;
}

static bool replay_done(void *ctx)
{
	struct replay *p = ctx;

	return !p->have_next;
}

int replay_run(const struct replay_opts *o)
{
	struct replay p;
	struct snapshot_source src = {
		.ctx = &p, .snapshot_init = replay_snapshot_init,
		.sample = replay_sample, .status = replay_status,
		.done = replay_done,
	};
	struct batch_opts bo = o->batch_opts;
	char err[512], buf[32];
	int ret;

	memset(&p, 0, sizeof(p));
	ret = rec_open(&p.r, o->path, stderr, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "mmtop: %s\n", err);
		return ret == -2 ? 2 : 1;
	}
	read_ahead(&p);
	if (!p.have_next) {
		fprintf(stderr, "mmtop: %s: no complete interval in the recording\n", o->path);
		rec_close(&p.r);
		return 1;
	}
	if (!bo.interval_ns)
		bo.interval_ns = strtoull(rec_header(&p.r, "interval_ns", buf, sizeof(buf)),
					  NULL, 10);
	if (!bo.interval_ns)
		bo.interval_ns = NSEC_PER_SEC;
	if (o->batch) {
		bo.no_wait = true;	/* as fast as it reads */
		ret = batch_run(&bo, &src);
	} else {
		struct ui_opts uo = { bo.interval_ns, o->color, "REPLAY" };

		ret = ui_run(&uo, &src);
	}
	snapshot_free(&p.next);
	rec_close(&p.r);
	return ret;
}
