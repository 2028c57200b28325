// SPDX-License-Identifier: GPL-2.0
/*
 * The screen loop: wait for a key until the interval ends (at most 100 ms
 * without one, so the clock and a resize are seen), take the interval from
 * the source, redraw. The terminal is restored on every way out: q,
 * SIGINT/SIGTERM/SIGHUP, a fatal error, and a crash.
 */
#include <curses.h>
#include <errno.h>
#include <limits.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>

#include "stop.h"

#include "draw.h"
#include "keys.h"
#include "ui.h"
#include "ui_state.h"
#include "util.h"
#include "views.h"

#define INPUT_WAIT_MS 100

static bool screen_active;

static void restore_terminal(void)
{
	if (screen_active) {
		endwin();
		screen_active = false;
	}
}

/* A crash or Ctrl-\\ (SIGQUIT): give the terminal back, then die of the same signal. */
static void on_crash(int sig)
{
	restore_terminal();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void catch_signals(void)
{
	static const int crashes[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGQUIT };
	struct sigaction sa;
	size_t i;

	stop_signals_catch();
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_crash;
	for (i = 0; i < ARRAY_SIZE(crashes); i++)
		sigaction(crashes[i], &sa, NULL);
	atexit(restore_terminal);
}

static int start_screen(bool color)
{
	setlocale(LC_ALL, "");
	/* Esc alone must not wait a second for a sequence to follow. */
	if (!getenv("ESCDELAY"))
		set_escdelay(25);
	/* newterm, unlike initscr, reports a terminal it cannot drive. */
	if (!newterm(NULL, stdout, stdin))
		return -1;
	screen_active = true;
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	curs_set(0);
	draw_init_colors(color);
	return 0;
}

/*
 * How to read the page of the columns, mmtop-metrics(7): the page beside
 * the binary, when it runs from a build tree (man finds nothing before
 * make install), else man.
 */
static void find_man(char *buf, size_t len)
{
	char exe[PATH_MAX], page[PATH_MAX + 32], *slash;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	snprintf(buf, len, "man 7 mmtop-metrics");
	if (n <= 0)
		return;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return;
	*slash = '\0';
	snprintf(page, sizeof(page), "%s/man/mmtop-metrics.7", exe);
	if (!access(page, R_OK) && strlen(page) + 8 < len)
		snprintf(buf, len, "man -l %s", page);
}

static void identify(struct ui_state *st)
{
	struct utsname u;

	if (gethostname(st->host, sizeof(st->host)))
		snprintf(st->host, sizeof(st->host), "?");
	if (!uname(&u))
		snprintf(st->kernel, sizeof(st->kernel), "%s", u.release);
	find_man(st->man, sizeof(st->man));
}

/* Milliseconds until @deadline_ns, capped so input and resizes stay live. */
static int wait_ms(uint64_t deadline_ns)
{
	uint64_t now = clock_ns(CLOCK_MONOTONIC);

	if (now >= deadline_ns)
		return 0;
	return (deadline_ns - now) / 1000000 > INPUT_WAIT_MS ? INPUT_WAIT_MS :
	       (int)((deadline_ns - now) / 1000000);
}

/*
 * Wait for a key, records from the source (handed over at once: a fork's
 * parent may not live long) or @ms to pass. A resize interrupts the wait.
 */
static void wait_input(const struct snapshot_source *src, int ms)
{
	struct pollfd pfd[2] = {
		{ .fd = STDIN_FILENO, .events = POLLIN },
		{ .fd = src->poll_fd ? src->poll_fd(src->ctx) : -1, .events = POLLIN },
	};
	uint64_t until = clock_ns(CLOCK_MONOTONIC) + (uint64_t)ms * 1000000;

	for (;;) {
		int left = wait_ms(until);

		if (poll(pfd, 2, left) <= 0 || pfd[0].revents || !left || !src->poll)
			break;
		src->poll(src->ctx);
	}
	timeout(0);
}

/*
 * Replay: show interval @i now (t, T, j), whatever the pause. The view's
 * state is rebuilt as if played up to @i: the history and the event and
 * fork logs hold the intervals before it, in order, once each.
 */
static void show(struct ui_state *st, const struct snapshot_source *src,
		 struct snapshot *latest, long i)
{
	long from;

	src->seek(src->ctx, i);
	i = src->position(src->ctx);
	from = i >= UI_HISTORY ? i - UI_HISTORY + 1 : 0;
	ui_state_reset(st);
	st->logs_from = from;
	for (src->seek(src->ctx, from); src->position(src->ctx) <= i; ) {
		long at = src->position(src->ctx);

		src->sample(src->ctx, latest);
		if (src->position(src->ctx) == at)
			break;		/* unreadable: nothing more to show */
		ui_state_push(st, latest);
	}
	snprintf(st->status, sizeof(st->status), "%s", src->status(src->ctx));
}

/* Replay plays at the recorded interval over the speed. */
static uint64_t play_interval(const struct ui_state *st,
			      const struct snapshot_source *src)
{
	if (!st->replay)
		return st->interval_ns;
	return src->recorded_interval(src->ctx) / st->speed;
}

static int run(struct ui_state *st, const struct snapshot_source *src,
	       struct snapshot *latest, unsigned int count)
{
	uint64_t deadline = clock_ns(CLOCK_MONOTONIC) + st->interval_ns;
	unsigned int sampled = 0;
	bool dirty = true;

	while (!stop_requested()) {
		int ch;

		if (dirty)
			ui_draw(st);
		dirty = false;
		wait_input(src, wait_ms(deadline));
		ch = getch();
		if (ch != ERR) {
			switch (ui_key(st, ch == '\r' ? '\n' : ch)) {
			case KEY_QUIT:
				return 0;
			case KEY_INTERVAL:
				st->interval_ns = play_interval(st, src);
				deadline = clock_ns(CLOCK_MONOTONIC) + st->interval_ns;
				break;
			case KEY_STEP_FWD:
				show(st, src, latest, src->position(src->ctx));
				break;
			case KEY_STEP_BACK:
				show(st, src, latest, src->position(src->ctx) - 2);
				break;
			case KEY_JUMP:
				show(st, src, latest, st->jump_s * 1e9 /
				     src->recorded_interval(src->ctx));
				break;
			case KEY_COLOR:
				draw_set_color(st->color);
				break;
			case KEY_EXACT:
				/* A refusal's reason shows until the next interval. */
				if (src->toggle_exact)
					src->toggle_exact(src->ctx, st->status, sizeof(st->status));
				break;
			default:
				break;
			}
			dirty = true;
		}
		if (clock_ns(CLOCK_MONOTONIC) < deadline)
			continue;
		/*
		 * Live data is collected even when paused (only the view
		 * freezes); a paused replay stays where it is.
		 */
		if ((!src->done || !src->done(src->ctx)) && !(st->replay && st->paused)) {
			src->sample(src->ctx, latest);
			ui_state_hold(st, latest);
			/* As top -n: the last interval shown, then out. */
			if (count && ++sampled >= count) {
				ui_draw(st);
				return 0;
			}
		}
		snprintf(st->status, sizeof(st->status), "%s", src->status(src->ctx));
		deadline = next_tick(deadline, st->interval_ns);
		dirty = true;
	}
	return 0;
}

int ui_run(const struct ui_opts *opts, const struct snapshot_source *src)
{
	struct snapshot latest;
	struct ui_state st;
	int ret;

	if (src->snapshot_init(src->ctx, &latest) || ui_state_init(&st, &latest)) {
		fprintf(stderr, "mmtop: out of memory\n");
		return 1;
	}
	st.interval_ns = opts->interval_ns;
	st.replay = src->seek != NULL;
	st.speed = 1;
	st.color = opts->color;
	st.mode = opts->mode;
	identify(&st);
	catch_signals();
	if (start_screen(opts->color)) {
		fprintf(stderr, "mmtop: cannot start the terminal (TERM=%s)\n",
			getenv("TERM") ? getenv("TERM") : "");
		ret = 1;
	} else {
		ret = run(&st, src, &latest, opts->count);
	}
	restore_terminal();
	ui_state_free(&st);
	snapshot_free(&latest);
	return ret;
}
