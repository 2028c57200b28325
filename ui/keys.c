// SPDX-License-Identifier: GPL-2.0
#include <curses.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "keys.h"
#include "util.h"
#include "views.h"

/* The interval steps + and - move along. */
static const uint64_t steps_ms[] = { 250, 500, 1000, 2000, 3000, 5000, 10000 };

static enum key_result change_interval(struct ui_state *st, int dir)
{
	int i, n = sizeof(steps_ms) / sizeof(steps_ms[0]);
	uint64_t ms = st->interval_ns / 1000000;

	for (i = 0; i < n && steps_ms[i] < ms; i++)
		;
	/* i: the first step >= the current interval. */
	if (dir > 0)
		i = i < n && steps_ms[i] == ms ? i + 1 : i;
	else
		i = i - 1;
	if (i < 0 || i >= n)
		return KEY_NONE;
	st->interval_ns = steps_ms[i] * 1000000;
	return KEY_INTERVAL;
}

static enum key_result edit_line(struct ui_state *st, int ch)
{
	size_t n = strlen(st->edit);

	if ((ch == '\n' || ch == KEY_ENTER) && st->jumping) {
		st->editing = st->jumping = false;
		st->jump_s = atof(st->edit);
		return KEY_JUMP;
	} else if (ch == '\n' || ch == KEY_ENTER) {
		memcpy(st->filter, st->edit, sizeof(st->filter));
		st->editing = false;
	} else if (ch == 27) {
		if (!st->jumping)
			st->filter[0] = '\0';
		st->editing = st->jumping = false;
	} else if ((ch == KEY_BACKSPACE || ch == 127 || ch == 8) && n) {
		st->edit[n - 1] = '\0';
	} else if (isprint(ch) && n + 1 < sizeof(st->edit)) {
		st->edit[n] = ch;
		st->edit[n + 1] = '\0';
	}
	return KEY_REDRAW;
}

static void move_selection(struct table_state *ts, int by)
{
	ts->selected += by;
	if (ts->selected >= ts->nr_rows)
		ts->selected = ts->nr_rows - 1;
	if (ts->selected < 0)
		ts->selected = 0;
}

static enum key_result quit(struct ui_state *st, int ch)
{
	(void)st, (void)ch;
	return KEY_QUIT;
}

static enum key_result show_help(struct ui_state *st, int ch)
{
	(void)ch;
	st->help = true;
	return KEY_REDRAW;
}

static enum key_result pick_view(struct ui_state *st, int ch)
{
	if (ch == '\t' || ch == KEY_BTAB)
		st->view = (st->view + (ch == KEY_BTAB ? VIEW__COUNT - 1 : 1)) % VIEW__COUNT;
	else
		st->view = ch - '1';
	st->zoomed = false;
	return KEY_REDRAW;
}

static enum key_result pause(struct ui_state *st, int ch)
{
	(void)ch;
	st->paused = !st->paused;
	return KEY_REDRAW;
}

static enum key_result edit_filter(struct ui_state *st, int ch)
{
	(void)ch;
	st->editing = true;
	memcpy(st->edit, st->filter, sizeof(st->edit));
	return KEY_REDRAW;
}

static enum key_result escape(struct ui_state *st, int ch)
{
	(void)ch;
	if (st->zoomed)
		st->zoomed = false;
	else
		st->filter[0] = '\0';
	return KEY_REDRAW;
}

static enum key_result zoom(struct ui_state *st, int ch)
{
	(void)ch;
	if (view_of(st->view)->enter)
		view_of(st->view)->enter(st);
	return KEY_REDRAW;
}

static enum key_result unzoom(struct ui_state *st, int ch)
{
	(void)ch;
	st->zoomed = false;
	return KEY_REDRAW;
}

static enum key_result table_key(struct ui_state *st, int ch)
{
	struct table_state *ts = &st->tables[st->view];

	switch (ch) {
	case KEY_UP: move_selection(ts, -1); break;
	case KEY_DOWN: move_selection(ts, 1); break;
	case KEY_PPAGE: move_selection(ts, -ts->page); break;
	case KEY_NPAGE: move_selection(ts, ts->page); break;
	case KEY_HOME: ts->selected = 0; break;
	case KEY_END: ts->selected = ts->nr_rows - 1; break;
	/* The table clamps it, and ignores it when every column fits. */
	case KEY_LEFT: ts->left--; break;
	case KEY_RIGHT: ts->left++; break;
	}
	return KEY_REDRAW;
}

static enum key_result sort(struct ui_state *st, int ch)
{
	struct table_state *ts = &st->tables[st->view];

	if (ch == 'r')
		ts->reverse = !ts->reverse;
	else if (ch == '<')
		ts->sort_col = ts->sort_col > 0 ? ts->sort_col - 1 : 0;
	else
		ts->sort_col++;		/* the table clamps it at its last column */
	return KEY_REDRAW;
}

static enum key_result interval(struct ui_state *st, int ch)
{
	return change_interval(st, ch == '+' ? 1 : -1);
}

static enum key_result colours(struct ui_state *st, int ch)
{
	(void)ch;
	st->color = !st->color;
	return KEY_COLOR;
}

static enum key_result accumulate(struct ui_state *st, int ch)
{
	(void)ch;
	st->cumulative = !st->cumulative;
	return KEY_REDRAW;
}

static enum key_result step(struct ui_state *st, int ch)
{
	(void)st;
	return ch == 't' ? KEY_STEP_FWD : KEY_STEP_BACK;
}

static enum key_result ask_jump(struct ui_state *st, int ch)
{
	(void)ch;
	st->editing = st->jumping = true;
	st->edit[0] = '\0';
	return KEY_REDRAW;
}

static enum key_result speed(struct ui_state *st, int ch)
{
	if (ch == '[' && st->speed > 0.25)
		st->speed /= 2;
	else if (ch == ']' && st->speed < 16)
		st->speed *= 2;
	return KEY_INTERVAL;
}

static enum key_result exact(struct ui_state *st, int ch)
{
	(void)st, (void)ch;
	return KEY_EXACT;
}

/* Sorts begin again: the tables' columns change. */
static enum key_result group_by_cgroup(struct ui_state *st, int ch)
{
	(void)ch;
	st->by_cgroup = !st->by_cgroup;
	st->tables[VIEW_MMAP].sort_col = st->tables[VIEW_BLAME].sort_col = -1;
	return KEY_REDRAW;
}

static enum key_result redraw(struct ui_state *st, int ch)
{
	(void)st, (void)ch;
	return KEY_REDRAW;
}

#define KEYS(...) { __VA_ARGS__, 0 }
#define HINT(live, replay) { live, replay }

/*
 * Every key: dispatch, the help screen and the hint bar are all read from
 * here. The hint bar shows a key's hint for the mode the viewer is in.
 */
const struct key_binding key_bindings[] = {
	{ KEYS('q', KEY_F(10)), "q F10", "quit", HINT("q quit", "q quit"), KEYS_ALL, quit },
	{ KEYS('?', 'h', KEY_F(1)), "? h F1", "this help (q quits; any other key closes it)",
	  HINT("? help", "? help"), KEYS_ALL, show_help },
	{ KEYS(' '), "Space", "pause: data keeps being collected, the view freezes; replay: play/pause",
	  HINT("Space pause", "Space play/pause"), KEYS_ALL, pause },
	{ KEYS('a'), "a", "totals since start (or since a replay's jump) instead of the interval, on/off",
	  HINT("a totals", "a totals"), KEYS_ALL, accumulate },
	{ KEYS('t', 'T'), "t T", "replay: one interval forward/back", HINT(NULL, "t/T step"),
	  KEYS_REPLAY, step },
	{ KEYS('j'), "j", "replay: jump to an offset in seconds", HINT(NULL, "j jump"),
	  KEYS_REPLAY, ask_jump },
	{ KEYS('[', ']'), "[ ]", "replay: slower/faster (0.25x to 16x)", HINT(NULL, "[ ] speed"),
	  KEYS_REPLAY, speed },
	{ KEYS('1', '2', '3', '4', '5', '6', '7', '8', '\t', KEY_BTAB), "1-8 Tab",
	  "views: 1 Overview, 2 CPUs, 3 mmap_lock, 4 Locks, 5 Forks, 6 Events, 7 Blame, 8 VMA; Tab: next, Shift-Tab: previous",
	  HINT("1-8 Tab views", "1-8 views"), KEYS_ALL, pick_view },
	{ KEYS('<', '>'), "< >", "sort on the previous/next column", HINT("< > sort", "< > sort"),
	  KEYS_ALL, sort },
	{ KEYS('r'), "r", "reverse the sort", HINT("r reverse", NULL), KEYS_ALL, sort },
	{ KEYS('/'), "/", "filter rows by text (Enter applies, Esc cancels)",
	  HINT("/ filter", "/ filter"), KEYS_ALL, edit_filter },
	{ KEYS(27), "Esc", "clear the filter; leave a zoom", HINT(NULL, NULL), KEYS_ALL, escape },
	{ KEYS('\n', KEY_ENTER), "Enter", "zoom into the selected mmap_lock row",
	  HINT("Enter zoom", "Enter zoom"), KEYS_ALL, zoom },
	{ KEYS('B', 'b'), "B", "back from a zoom", HINT(NULL, NULL), KEYS_ALL, unzoom },
	{ KEYS(KEY_UP, KEY_DOWN, KEY_PPAGE, KEY_NPAGE, KEY_HOME, KEY_END),
	  "Up Dn PgUp PgDn Home End", "move the selection, scroll", HINT(NULL, NULL),
	  KEYS_ALL, table_key },
	{ KEYS(KEY_LEFT, KEY_RIGHT), "Left Right",
	  "scroll the columns sideways when they do not fit (< > on the titles)",
	  HINT(NULL, NULL), KEYS_ALL, table_key },
	{ KEYS('+', '-'), "+ -", "longer/shorter interval", HINT("+/- interval", NULL),
	  KEYS_ALL, interval },
	{ KEYS('g'), "g", "group by cgroup, on/off: mmap_lock's rows by their cgroup (a CGROUP column first), Blame's waits summed by the waiter's cgroup and the holder's",
	  HINT("g cgroups", "g cgroups"), KEYS_ALL, group_by_cgroup },
	{ KEYS('c'), "c", "colours on/off", HINT("c colours", NULL), KEYS_ALL, colours },
	{ KEYS('x'), "x", "exact mode on/off: acquisitions, holds and the VMA-lock outcome, from two programs on every mmap_lock acquisition (the header shows their cost)",
	  HINT("x exact", NULL), KEYS_LIVE, exact },
	{ KEYS(KEY_RESIZE), NULL, NULL, HINT(NULL, NULL), KEYS_ALL, redraw },
};
const int nr_key_bindings = sizeof(key_bindings) / sizeof(key_bindings[0]);

bool key_in_mode(const struct key_binding *b, bool replay)
{
	return b->modes & (replay ? KEYS_REPLAY : KEYS_LIVE);
}

static const struct key_binding *binding_of(const struct ui_state *st, int ch)
{
	int i, k;

	for (i = 0; i < nr_key_bindings; i++) {
		const struct key_binding *b = &key_bindings[i];

		if (!key_in_mode(b, st->replay))
			continue;
		for (k = 0; b->codes[k]; k++)
			if (b->codes[k] == ch)
				return b;
	}
	return NULL;
}

enum key_result ui_key(struct ui_state *st, int ch)
{
	const struct key_binding *b;

	if (st->editing)
		return edit_line(st, ch);
	if (st->help) {
		st->help = false;
		return ch == 'q' ? KEY_QUIT : KEY_REDRAW;
	}
	b = binding_of(st, ch);
	return b ? b->act(st, ch) : KEY_NONE;
}
