// SPDX-License-Identifier: GPL-2.0
#include <curses.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "keys.h"
#include "util.h"
#include "views.h"

const struct key_help key_help[] = {
	{ "q F10", "quit" },
	{ "? h F1", "this help (any key closes it)" },
	{ "1-7 Tab", "views: 1 Overview, 2 CPUs, 3 mmap_lock, 4 Locks, 5 Forks, 6 Events, 7 Blame; Tab: next, Shift-Tab: previous" },
	{ "Space", "pause: data keeps being collected, the view freezes" },
	{ "< >", "sort on the previous/next column" },
	{ "r", "reverse the sort" },
	{ "/", "filter rows by text (Enter applies, Esc cancels)" },
	{ "Esc", "clear the filter; leave a zoom" },
	{ "Enter", "zoom into the selected mmap_lock row" },
	{ "B", "back from a zoom" },
	{ "Up Down PgUp PgDn Home End", "move the selection, scroll" },
	{ "+ -", "longer/shorter interval" },
	{ "c", "colours on/off" },
	{ "t T", "replay: one interval forward/back" },
	{ "j", "replay: jump to an offset in seconds" },
	{ "[ ]", "replay: slower/faster (0.25x to 16x)" },
};
const int nr_key_help = sizeof(key_help) / sizeof(key_help[0]);

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
	/* The table clamps the column at its last one. */
	case '<': ts->sort_col = ts->sort_col > 0 ? ts->sort_col - 1 : 0; break;
	case '>': ts->sort_col++; break;
	case 'r': ts->reverse = !ts->reverse; break;
	default: return KEY_NONE;
	}
	return KEY_REDRAW;
}

enum key_result ui_key(struct ui_state *st, int ch)
{
	if (st->editing)
		return edit_line(st, ch);
	if (st->help) {
		st->help = false;
		return ch == 'q' ? KEY_QUIT : KEY_REDRAW;
	}
	switch (ch) {
	case 'q': case KEY_F(10):
		return KEY_QUIT;
	case '?': case 'h': case KEY_F(1):
		st->help = true;
		return KEY_REDRAW;
	case '1': case '2': case '3': case '4': case '5': case '6': case '7':
		st->view = ch - '1';
		st->zoomed = false;
		return KEY_REDRAW;
	case '\t': case KEY_BTAB:
		st->view = (st->view + (ch == KEY_BTAB ? VIEW__COUNT - 1 : 1)) % VIEW__COUNT;
		st->zoomed = false;
		return KEY_REDRAW;
	case ' ':
		st->paused = !st->paused;
		return KEY_REDRAW;
	case '/':
		st->editing = true;
		memcpy(st->edit, st->filter, sizeof(st->edit));
		return KEY_REDRAW;
	case 27:
		if (st->zoomed)
			st->zoomed = false;
		else
			st->filter[0] = '\0';
		return KEY_REDRAW;
	case 'B': case 'b':
		st->zoomed = false;
		return KEY_REDRAW;
	case '\n': case KEY_ENTER:
		if (view_of(st->view)->enter)
			view_of(st->view)->enter(st);
		return KEY_REDRAW;
	case '+':
		return change_interval(st, 1);
	case '-':
		return change_interval(st, -1);
	case 'c':
		st->color = !st->color;
		return KEY_COLOR;
	case KEY_RESIZE:
		return KEY_REDRAW;
	}
	if (st->replay)
		switch (ch) {
		case 't':
			return KEY_STEP_FWD;
		case 'T':
			return KEY_STEP_BACK;
		case 'j':
			st->editing = st->jumping = true;
			st->edit[0] = '\0';
			return KEY_REDRAW;
		case '[':
			st->speed = st->speed > 0.25 ? st->speed / 2 : st->speed;
			return KEY_INTERVAL;
		case ']':
			st->speed = st->speed < 16 ? st->speed * 2 : st->speed;
			return KEY_INTERVAL;
		}
	return table_key(st, ch);
}
