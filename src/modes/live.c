// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/stat.h>
#include <sys/utsname.h>

#include "follow.h"
#include "kernel_features.h"
#include "recorder.h"
#include "util.h"
#include "live.h"
#include "priority.h"
#include "summary.h"
#include "serve.h"
#include "stop.h"
#include "ui.h"

struct live {
	struct collector c;
	struct follow follow;
	bool following;
	struct summary sum;
	struct recorder rec;
	bool recording, rec_failed;
	const struct live_opts *opts;
	char rec_path[PATH_MAX];	/* the file being written */
	uint64_t rec_opened_ns;		/* CLOCK_REALTIME */
	char out_path[PATH_MAX];	/* the viewer's command's output, or "" */
};

static int open_recording(struct live *l);

/*
 * Append the interval; on a write error stop, the file valid as it is.
 * With --rotate, the next file starts after the interval that filled one.
 */
static void record(struct live *l, const struct snapshot *s)
{
	const struct rotation *rot = &l->opts->rotate;
	int err = recorder_write(&l->rec, s);

	if (!err) {
		if (rot->dir && rotation_due(rot, l->rec_opened_ns, clock_ns(CLOCK_REALTIME),
					     l->rec.good)) {
			recorder_close(&l->rec);
			l->recording = false;
			l->rec_failed = open_recording(l) != 0;
		}
		return;
	}
	fprintf(stderr, "mmtop: recording stopped: %s: %s; it holds its first %lu intervals, intact\n",
		l->rec_path, strerror(-err), l->rec.frames);
	recorder_close(&l->rec);
	l->recording = false;
	l->rec_failed = true;
}

static bool live_failed(void *ctx)
{
	struct live *l = ctx;

	return l->rec_failed;
}

/* The recording's header: what mmtop-recording(5) lists. */
static void recording_header(struct live *l, char *header, size_t len)
{
	const struct live_opts *o = l->opts;
	char host[256] = "?";
	struct utsname u = { 0 };
	size_t n;
	int i;

	gethostname(host, sizeof(host) - 1);
	uname(&u);
	n = snprintf(header, len,
		     "mmtop_version=%s\nkernel=%s\nhost=%s\nlabel=%s\ncpus=%d\nnodes=%d\nnode_map=",
		     MMTOP_VERSION, u.release, host, o->label ? o->label : u.release,
		     l->c.topo.nr_cpus, l->c.topo.nr_nodes);
	for (i = 0; i < l->c.topo.nr_cpus && n < len - 64; i++)
		n += snprintf(header + n, len - n, "%s%d", i ? "," : "",
			      l->c.topo.cpu_node[i]);
	n += snprintf(header + n, len - n,
		      "\nstart_ns=%llu\ninterval_ns=%llu\ncommand=%s\n" KERNEL_FEATURES_KEY "=%s\nprobes=",
		      (unsigned long long)l->rec_opened_ns,
		      (unsigned long long)o->batch_opts.interval_ns,
		      o->command ? o->command[0] : "", l->c.kernel_has);
	for (i = 0; i < PROBE__COUNT && n < len - 64; i++)
		if (collector_probes(&l->c) & (1u << i))
			n += snprintf(header + n, len - n, "%s ", probe_name(i));
	snprintf(header + n, len - n, "\n");
}

/* Open the recording: -o FILE, or with --rotate a new file in -o DIR. */
static int open_recording(struct live *l)
{
	const struct live_opts *o = l->opts;
	char header[4096], err[512];
	int ret = 0;

	l->rec_opened_ns = clock_ns(CLOCK_REALTIME);
	if (!o->rotate.dir)
		snprintf(l->rec_path, sizeof(l->rec_path), "%s", o->record);
	else
		ret = rotation_path(&o->rotate, l->rec_opened_ns, l->rec_path,
				    sizeof(l->rec_path));
	if (ret) {
		fprintf(stderr, "mmtop: cannot record in %s: %s\n", o->record, strerror(-ret));
		return -1;
	}
	recording_header(l, header, sizeof(header));
	if (o->rotate.dir ? recorder_open(&l->rec, l->rec_path, header, err, sizeof(err)) :
	    recorder_start(&l->rec, header, err, sizeof(err))) {
		fprintf(stderr, "mmtop: cannot record: %s\n", err);
		return -1;
	}
	l->recording = true;
	if (o->rotate.dir)
		rotation_prune(&o->rotate);
	return 0;
}

/*
 * Before any BPF is loaded, so a bad -o is found at once: the directory
 * for --rotate, else the new file under a temporary name.
 */
static int prepare_recording(struct live *l)
{
	const struct live_opts *o = l->opts;
	char msg[512];
	int err;

	if (o->rotate.dir) {
		err = rotation_prepare(&o->rotate);
		if (err)
			fprintf(stderr, "mmtop: cannot record in %s: %s\n", o->record, strerror(-err));
		return err;
	}
	if (recorder_create(&l->rec, o->record, msg, sizeof(msg))) {
		fprintf(stderr, "mmtop: cannot record: %s\n", msg);
		return -1;
	}
	return 0;
}

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
	if (l->recording)
		record(l, s);
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

static int live_toggle_exact(void *ctx, char *msg, size_t len)
{
	struct live *l = ctx;
	char why[200];

	if (!collector_set_exact(&l->c, !collector_exact(&l->c), why, sizeof(why)))
		return 0;
	snprintf(msg, len, "exact mode: %s", why);
	return -1;
}

static bool live_done(void *ctx)
{
	struct live *l = ctx;

	return l->following && !l->follow.running;
}

/*
 * Under the viewer the command must not write over the screen: its output
 * goes to a file of its own (mode 0600) in $TMPDIR, named when mmtop ends;
 * /dev/null if none can be made.
 */
static int command_output(struct live *l, const char *cmd)
{
	const char *dir = getenv("TMPDIR"), *base = strrchr(cmd, '/');
	int fd;

	snprintf(l->out_path, sizeof(l->out_path), "%s/mmtop-%s-%d.out",
		 dir && dir[0] ? dir : "/tmp", base ? base + 1 : cmd, (int)getpid());
	fd = open(l->out_path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd >= 0)
		return fd;
	l->out_path[0] = '\0';
	return open("/dev/null", O_WRONLY | O_CLOEXEC);
}

/* After the terminal is restored: where the command's output is, if any. */
static void name_command_output(const struct live *l)
{
	struct stat st;

	if (!l->out_path[0] || stat(l->out_path, &st))
		return;
	if (!st.st_size) {
		unlink(l->out_path);
		return;
	}
	printf("%s's output (%lld bytes): %s\n", l->opts->command[0],
	       (long long)st.st_size, l->out_path);
}

static int start_command(struct live *l, struct live_opts *o)
{
	int out = o->batch ? STDERR_FILENO : command_output(l, o->command[0]);
	int err = follow_start(&l->follow, o->command, out, &o->user, &o->pids);

	if (!o->batch && out >= 0)
		close(out);
	if (err) {
		fprintf(stderr, "mmtop: cannot run %s: %s\n", o->command[0], strerror(-err));
		if (l->out_path[0])
			unlink(l->out_path);
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
		.status = live_status, .done = live_done, .failed = live_failed,
		.toggle_exact = live_toggle_exact,
	};
	struct ui_opts uo = { .interval_ns = o->batch_opts.interval_ns, .color = o->color,
			      .mode = "LIVE", .count = o->batch_opts.count };
	struct serve *sv = NULL;
	struct live l;
	char msg[512] = "";
	int ret;

	/*
	 * At nice -20, so that CPU load cannot hold an interval back
	 * (priority.h). The exporter's thread, started now, keeps it:
	 * scrapes are answered on time (it runs only for them).
	 */
	priority_raise();
	/* A busy port is found before seconds of BPF loading. */
	if (o->listen && !(sv = serve_open(o->listen, o->batch_opts.top, o->batch_opts.pid_label,
						 o->batch_opts.cgroup_depth)))
		return 1;
	memset(&l, 0, sizeof(l));
	l.rec.fd = -1;
	l.opts = o;
	src.ctx = &l;
	if (o->record && prepare_recording(&l)) {
		serve_close(sv);
		return 1;
	}
	/* A closed pipe shows up as EPIPE from the write instead. */
	signal(SIGPIPE, SIG_IGN);
	o->collect.pids = o->pids.active || o->command ? &o->pids : NULL;
	/* Before the collector opens: it reads a tree's new processes. */
	o->pids.tree = o->command != NULL;
	ret = collector_open(&l.c, &o->collect, msg, sizeof(msg));
	/* Stopped while BPF was loading: a clean exit, nothing to show. */
	if (stop_requested()) {
		collector_close(&l.c);
		recorder_close(&l.rec);
		serve_close(sv);
		return 0;
	}
	if (ret < 0) {
		fprintf(stderr, "mmtop: %s\n", msg);
		collector_close(&l.c);
		recorder_close(&l.rec);
		serve_close(sv);
		return 1;
	}
	if (ret > 0)
		fprintf(stderr, "mmtop: warning: %s\n", msg);
	if ((o->record && open_recording(&l)) ||
	    /* Started after the collector: nothing it does is missed. */
	    (o->command && start_command(&l, o))) {
		collector_close(&l.c);
		recorder_close(&l.rec);
		/* A command that could not run leaves no recording of it. */
		if (l.recording)
			unlink(l.rec_path);
		serve_close(sv);
		return 1;
	}
	if (sv)
		ret = serve_run(sv, &o->batch_opts, &src);
	else
		ret = o->batch ? batch_run(&o->batch_opts, &src) : ui_run(&uo, &src);
	if (!o->batch && (l.following || o->pids.active))
		summary_print(&l.sum, stdout, l.following ? l.follow.note : "followed processes");
	if (!o->batch && l.following)
		name_command_output(&l);
	if (l.recording)
		recorder_close(&l.rec);
	collector_close(&l.c);
	serve_close(sv);
	if (ret || l.rec_failed)
		return 1;
	return l.following ? follow_exit_status(&l.follow) : 0;
}
