// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "batch.h"
#include "util.h"

static volatile sig_atomic_t stop_signal;

static void on_stop(int sig)
{
	stop_signal = sig;
}

/* No SA_RESTART: the signal must cut the interval sleep short. */
static void catch_stop_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

/* Sleep until @deadline_ns (CLOCK_MONOTONIC); false if a stop signal came. */
static bool sleep_until(uint64_t deadline_ns)
{
	struct timespec ts = {
		.tv_sec = deadline_ns / NSEC_PER_SEC,
		.tv_nsec = deadline_ns % NSEC_PER_SEC,
	};

	while (!stop_signal) {
		int err = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);

		if (!err)
			return true;
		if (err != EINTR)
			return false;
	}
	return false;
}

static int emit(const struct snapshot_source *src, struct snapshot *s,
		struct output *out)
{
	int err;

	src->sample(src->ctx, s);
	err = output_snapshot(out, s);
	if (err == -EPIPE)
		return 1;	/* reader went away (e.g. `| head`): done */
	if (err) {
		fprintf(stderr, "mmtop: writing output: %s\n", strerror(-err));
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

	catch_stop_signals();
	if (src->snapshot_init(src->ctx, &s)) {
		fprintf(stderr, "mmtop: out of memory\n");
		return 1;
	}
	output_init(&out, opts->format, stdout);
	deadline = clock_ns(CLOCK_MONOTONIC);
	for (n = 0; !ret && (!opts->count || n < opts->count); n++) {
		deadline += opts->interval_ns;
		if (!sleep_until(deadline))
			break;
		ret = emit(src, &s, &out);
		if (src->done && src->done(src->ctx))
			break;
	}
	snapshot_free(&s);
	return ret < 0 ? 1 : 0;
}
