// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "batch.h"
#include "stop.h"
#include "util.h"

#define POLL_MS 100

/*
 * Sleep until @deadline_ns (CLOCK_MONOTONIC), handing records to the
 * source as they arrive (and every 100 ms); false if a stop signal came.
 */
static bool sleep_until(const struct snapshot_source *src, uint64_t deadline_ns)
{
	struct pollfd pfd = { .fd = src->poll_fd ? src->poll_fd(src->ctx) : -1,
			      .events = POLLIN };

	while (!stop_requested()) {
		uint64_t now = clock_ns(CLOCK_MONOTONIC);
		int ms;

		if (now >= deadline_ns)
			return true;
		ms = (deadline_ns - now + 999999) / 1000000;
		if (poll(&pfd, 1, ms < POLL_MS ? ms : POLL_MS) < 0 && errno != EINTR)
			return false;
		if (src->poll)
			src->poll(src->ctx);
	}
	return false;
}

static int emit(const struct batch_opts *opts, const struct snapshot_source *src,
		struct snapshot *s, struct output *out)
{
	int err;

	src->sample(src->ctx, s);
	if (opts->sink)
		return opts->sink(opts->sink_ctx, s) ? -1 : 0;
	if (!out)
		return 0;
	err = output_snapshot(out, s);
	if (err == -EPIPE) {
		clearerr(out->f);	/* reader went away (e.g. `| head`): done */
		return 1;
	}
	if (err) {
		fprintf(stderr, "mmtop: writing %s: %s\n", out->path ? out->path : "output",
			strerror(-err));
		return -1;
	}
	return 0;
}

int batch_run(const struct batch_opts *opts, const struct snapshot_source *src)
{
	struct snapshot s;
	struct output out;
	uint64_t deadline;
	unsigned int n;
	int ret = 0;

	stop_signals_catch();
	if (src->snapshot_init(src->ctx, &s)) {
		fprintf(stderr, "mmtop: out of memory\n");
		return 1;
	}
	output_init(&out, opts->format, stdout);
	out.path = opts->path;
	out.top = opts->top;
	out.pid_label = opts->pid_label;
	out.cgroup_depth = opts->cgroup_depth;
	deadline = clock_ns(CLOCK_MONOTONIC);
	for (n = 0; !ret && (!opts->count || n < opts->count); n++) {
		deadline = next_tick(deadline, opts->interval_ns);
		if (stop_requested() || (!opts->no_wait && !sleep_until(src, deadline)))
			break;
		ret = emit(opts, src, &s, opts->quiet ? NULL : &out);
		if (!ret && src->failed && src->failed(src->ctx))
			ret = -1;
		if (src->done && src->done(src->ctx))
			break;
	}
	output_close(&out);
	snapshot_free(&s);
	return ret < 0 ? 1 : 0;
}
