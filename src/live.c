// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "follow.h"
#include "live.h"
#include "summary.h"
#include "ui.h"

struct live {
	struct collector c;
	struct follow follow;
	bool following;
	struct summary sum;
};

static int live_snapshot_init(void *ctx, struct snapshot *s)
{
	struct live *l = ctx;

	return collector_snapshot_init(&l->c, s);
}

static void live_sample(void *ctx, struct snapshot *s)
{
	struct live *l = ctx;

	/* The tree first, so this interval's new children are in the filter. */
	if (l->following)
		follow_update(&l->follow);
	collector_sample(&l->c, s);
	summary_add(&l->sum, s);
}

static void live_poll(void *ctx)
{
	struct live *l = ctx;

	collector_poll(&l->c);
}

static int live_poll_fd(void *ctx)
{
	struct live *l = ctx;

	return collector_poll_fd(&l->c);
}

static const char *live_status(void *ctx)
{
	struct live *l = ctx;

	return l->following ? l->follow.note : "";
}

static bool live_done(void *ctx)
{
	struct live *l = ctx;

	return l->following && !l->follow.running;
}

static int start_command(struct live *l, struct live_opts *o)
{
	/* Under the viewer the command must not write over the screen. */
	int out = o->batch ? STDERR_FILENO : open("/dev/null", O_WRONLY | O_CLOEXEC);
	int err = follow_start(&l->follow, o->command, out, &o->pids);

	if (!o->batch && out >= 0)
		close(out);
	if (err) {
		fprintf(stderr, "mmtop: cannot run %s: %s\n", o->command[0], strerror(-err));
		return -1;
	}
	l->following = true;
	return 0;
}

int live_run(struct live_opts *o)
{
	struct snapshot_source src = {
		.snapshot_init = live_snapshot_init, .sample = live_sample,
		.poll = live_poll, .poll_fd = live_poll_fd,
		.status = live_status, .done = live_done,
	};
	struct ui_opts uo = { o->batch_opts.interval_ns, o->color, "LIVE" };
	struct live l;
	char msg[512] = "";
	int ret;

	memset(&l, 0, sizeof(l));
	src.ctx = &l;
	/* A closed pipe shows up as EPIPE from the write instead. */
	signal(SIGPIPE, SIG_IGN);
	o->collect.pids = o->pids.active || o->command ? &o->pids : NULL;
	ret = collector_open(&l.c, &o->collect, msg, sizeof(msg));
	if (ret < 0) {
		fprintf(stderr, "mmtop: %s\n", msg);
		collector_close(&l.c);
		return 1;
	}
	if (ret > 0)
		fprintf(stderr, "mmtop: warning: %s\n", msg);
	/* Started after the collector: nothing it does is missed. */
	if (o->command && start_command(&l, o)) {
		collector_close(&l.c);
		return 1;
	}
	ret = o->batch ? batch_run(&o->batch_opts, &src) : ui_run(&uo, &src);
	if (!o->batch && (l.following || o->pids.active))
		summary_print(&l.sum, stdout, l.following ? l.follow.note : "followed processes");
	collector_close(&l.c);
	return ret;
}
