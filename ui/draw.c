// SPDX-License-Identifier: GPL-2.0
#include <curses.h>
#include <inttypes.h>
#include <langinfo.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "draw.h"
#include "util.h"

static bool colors_on;

void draw_init_colors(bool color)
{
	colors_on = color && has_colors();
	if (!colors_on)
		return;
	start_color();
	use_default_colors();
	init_pair(C_HEADER, COLOR_BLACK, COLOR_CYAN);
	init_pair(C_SELECTED, COLOR_BLACK, COLOR_WHITE);
	init_pair(C_LOW, COLOR_GREEN, -1);
	init_pair(C_MID, COLOR_YELLOW, -1);
	init_pair(C_HIGH, COLOR_RED, -1);
	/* The terminal's own colour, dimmed: blue is unreadable on dark backgrounds. */
	init_pair(C_DIM, -1, -1);
	init_pair(C_TAB, COLOR_BLACK, COLOR_YELLOW);
	init_pair(C_TITLE, COLOR_CYAN, -1);
}

void draw_set_color(bool color)
{
	draw_init_colors(color);
}

/* Attributes for @c: colours where wanted, else reverse/bold/dim. */
static attr_t attr_of(enum ui_color c)
{
	static const attr_t mono[C__COUNT] = {
		[C_HEADER] = A_REVERSE, [C_SELECTED] = A_REVERSE,
		[C_HIGH] = A_BOLD, [C_DIM] = A_DIM, [C_TAB] = A_REVERSE | A_BOLD,
		[C_TITLE] = A_BOLD,
	};

	if (c == C_NORMAL)
		return A_NORMAL;
	if (colors_on)
		return COLOR_PAIR(c) | (c == C_TITLE || c == C_TAB ? A_BOLD : 0) |
		       (c == C_DIM ? A_DIM : 0);
	return mono[c];
}

void draw_text(int y, int x, int width, enum ui_color c, const char *fmt, ...)
{
	char buf[512], safe[512];
	va_list ap;

	if (width <= 0 || y < 0 || y >= LINES || x >= COLS)
		return;
	/* Past the right edge curses would wrap onto the next line. */
	if (width > COLS - x)
		width = COLS - x;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	/* No control byte reaches the terminal: curses would widen it (^[). */
	text_safe(buf, safe, sizeof(safe));
	attron(attr_of(c));
	mvaddnstr(y, x, safe, width);
	attroff(attr_of(c));
}

void draw_fill(int y, enum ui_color c)
{
	attron(attr_of(c));
	mvhline(y, 0, ' ', COLS);
	attroff(attr_of(c));
}

void draw_bar(int y, int x, int width, double fraction)
{
	int n = fraction <= 0 ? 0 : fraction >= 1 ? width : (int)(fraction * width + 0.5);
	enum ui_color c = fraction < 0.5 ? C_LOW : fraction < 0.8 ? C_MID : C_HIGH;

	mvaddch(y, x, '[');
	attron(attr_of(c));
	mvhline(y, x + 1, '|', n);
	attroff(attr_of(c));
	mvhline(y, x + 1 + n, ' ', width - n);
	mvaddch(y, x + 1 + width, ']');
}

static bool utf8(void)
{
	return !strcmp(nl_langinfo(CODESET), "UTF-8");
}

void draw_sparkline(int y, int x, const double *v, int n)
{
	static const char *const blocks[] = {
		"\u2581", "\u2582", "\u2583", "\u2584", "\u2585", "\u2586", "\u2587", "\u2588",
	};
	static const char ascii[] = "_.-=+*#@";
	double max = 0;
	int i;

	for (i = 0; i < n; i++)
		if (v[i] > max)
			max = v[i];
	move(y, x);
	for (i = 0; i < n; i++) {
		int level = max > 0 && v[i] > 0 ? (int)(v[i] / max * 7 + 0.5) : 0;

		if (v[i] < 0)
			addch(' ');
		else if (utf8())
			addstr(blocks[level]);
		else
			addch(ascii[level]);
	}
}

int draw_hist(int y, int x, int width, int max_lines, const struct hist *h)
{
	uint64_t peak = 0;
	int i, lo = -1, hi = -1, line = 0;

	for (i = 0; i < SNAPSHOT_HIST_BUCKETS; i++) {
		if (!h->bucket[i])
			continue;
		if (lo < 0)
			lo = i;
		hi = i;
		if (h->bucket[i] > peak)
			peak = h->bucket[i];
	}
	if (lo < 0) {
		draw_text(y, x, width, C_DIM, "(no samples)");
		return 1;
	}
	for (i = lo; i <= hi && line < max_lines; i++, line++) {
		char a[16], b[16];

		draw_text(y + line, x, width, C_NORMAL, "%8s-%-8s %9" PRIu64 " ",
			  format_ns(i ? 1ULL << i : 0, a, sizeof(a)),
			  format_ns(2ULL << i, b, sizeof(b)), h->bucket[i]);
		draw_bar(y + line, x + 28, width - 30, (double)h->bucket[i] / peak);
	}
	return line;
}

const char *fmt_rate(double v, char *buf, size_t len)
{
	if (v < 10000)
		snprintf(buf, len, "%.1f", v);
	else if (v < 1e7)
		snprintf(buf, len, "%.1fk", v / 1e3);
	else
		snprintf(buf, len, "%.1fM", v / 1e6);
	return buf;
}

void draw_arrow(int y, int x, bool down)
{
	if (x < 0 || x >= COLS)
		return;
	attron(attr_of(C_TITLE));
	if (utf8())
		mvaddstr(y, x, down ? "\u2193" : "\u2191");
	else
		mvaddch(y, x, down ? 'v' : '^');
	attroff(attr_of(C_TITLE));
}
