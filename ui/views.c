// SPDX-License-Identifier: GPL-2.0
/* The frame around the views: header, tabs, key hints, help, filter line. */
#include <curses.h>
#include <stdarg.h>
#include <string.h>
#include <time.h>

#include "draw.h"
#include "keys.h"
#include "util.h"
#include "views.h"

#define MIN_COLS 80
#define MIN_LINES 24
#define HEADER_LINES 4

static const struct view_ops *const all_views[VIEW__COUNT] = {
	[VIEW_OVERVIEW] = &view_overview,
	[VIEW_CPUS] = &view_cpus,
	[VIEW_MMAP] = &view_mmap,
	[VIEW_LOCKS] = &view_locks,
	[VIEW_FORKS] = &view_forks,
	[VIEW_EVENTS] = &view_events,
	[VIEW_BLAME] = &view_blame,
	[VIEW_VMA] = &view_vma,
};

const struct view_ops *view_of(enum ui_view v)
{
	return all_views[v < VIEW__COUNT ? v : VIEW_OVERVIEW];
}

const char *family_na(const struct ui_state *st, enum probe_family f)
{
	return ui_snapshot(st)->na[f];
}

/*
 * A header line as items, each drawn whole or not at all: on a narrow
 * terminal the least important drop out (prio 0 is kept first), never
 * cut mid-word, and the rest keep their order.
 */
#define HEADER_ITEMS 12

struct header_line {
	char text[HEADER_ITEMS][96];
	int prio[HEADER_ITEMS];
	int nr;
};

static void __attribute__((format(printf, 3, 4)))
item(struct header_line *l, int prio, const char *fmt, ...)
{
	va_list ap;

	if (l->nr >= HEADER_ITEMS)
		return;
	va_start(ap, fmt);
	vsnprintf(l->text[l->nr], sizeof(l->text[0]), fmt, ap);
	va_end(ap);
	if (l->text[l->nr][0])
		l->prio[l->nr++] = prio;
}

/* The items of @l that fit @width, two blanks apart, at line @y. */
static void draw_items(int y, enum ui_color c, const struct header_line *l, int width)
{
	bool keep[HEADER_ITEMS] = { false };
	int prio, i, used = -1;	/* a blank before each, two after all but the last */
	char line[HEADER_ITEMS * 98] = "";
	size_t n = 0;

	for (prio = 0; prio <= 9; prio++)
		for (i = 0; i < l->nr; i++) {
			int len = strlen(l->text[i]) + 2;

			if (l->prio[i] == prio && used + len <= width) {
				keep[i] = true;
				used += len;
			}
		}
	for (i = 0; i < l->nr; i++)
		if (keep[i])
			n += snprintf(line + n, sizeof(line) - n, "%s%s", n ? "  " : " ", l->text[i]);
	draw_text(y, 0, width, c, "%s", line);
}

/*
 * The observer in plain sight: "waits" (the default set: press x for
 * exact mode), "exact", nothing yet before the first interval, or the share of the interval exact mode was on
 * (a recording of 0.1's --budget: "~3.3% sampled", its figures marked ~
 * estimates), mmtop's BPF share of the CPU in use, exact mode's turning
 * on or off included, and the kernel memory its maps hold.
 */
static void observer_items(struct header_line *l, const struct snapshot *s)
{
	/* Before the first interval nothing says which: not "exact". */
	if (!s->seq)
		item(l, 0, "mmap_lock: first interval pending");
	else if (!snapshot_acquisitions(s))
		item(l, 0, "mmap_lock waits (x: exact)");
	else if (!snapshot_sampled(s))
		item(l, 0, "mmap_lock exact");
	else if (s->throttled)
		item(l, 0, "mmap_lock throttled at %.1f%%", s->exact_ppm / 1e4);
	else if (s->budget_ppm)
		item(l, 0, "mmap_lock ~%.1f%% sampled%s", s->exact_ppm / 1e4,
		     s->over_budget ? " (over budget)" : "");
	else
		item(l, 0, "mmap_lock exact %.1f%%", s->exact_ppm / 1e4);
	if (s->bpf_measured && s->busy_ns)
		item(l, 0, "mmtop bpf %.2f%%", 100.0 * s->bpf_ns / s->busy_ns);
	if (s->attach_ns && s->busy_ns)
		item(l, 3, "+x %.2f%%", 100.0 * s->attach_ns / s->busy_ns);
	if (s->bpf_map_bytes)
		item(l, 5, "maps %.1fM", s->bpf_map_bytes / 1048576.0);
}

/*
 * Line 1: what is shown (mode, totals, status) before where it comes
 * from (host, kernel); line 2: mmtop's own state (drops, exact or not,
 * its cost) before the figures the views show in full.
 */
static void draw_header(const struct ui_state *st)
{
	const struct snapshot *s = ui_snapshot(st);
	uint64_t faults = s->total.min_flt + s->total.maj_flt;
	char when[16] = "--:--:--", rate[16], minor[16], major[16], probes[256] = "";
	char ok[16] = "n/a", speed[24] = "";
	struct header_line top = { .nr = 0 }, figures = { .nr = 0 };
	time_t sec = s->wall_ns / NSEC_PER_SEC;
	struct tm tm;
	size_t n = 0;
	int i;

	if (st->replay && st->speed != 1)
		snprintf(speed, sizeof(speed), " %gx", st->speed);
	else if (st->paused && st->nr_held)
		snprintf(speed, sizeof(speed), " (%d held)", st->nr_held);
	if (st->have_data) {
		localtime_r(&sec, &tm);
		strftime(when, sizeof(when), "%H:%M:%S", &tm);
	}
	item(&top, 0, "mmtop");
	item(&top, 6, "%s", st->host);
	item(&top, 5, "Linux %s", st->kernel);
	item(&top, 3, "%s", when);
	item(&top, 2, "interval %.2fs", st->interval_ns / 1e9);
	item(&top, 0, "%s%s", st->paused ? "PAUSED" : st->mode, speed);
	if (st->cumulative)
		item(&top, 0, "TOTALS %.1fs", s->interval_ns / 1e9);
	if (st->cumulative && st->total_why[0])
		item(&top, 1, "%s", st->total_why);
	item(&top, 1, "%s", st->status);
	draw_fill(0, C_HEADER);
	draw_items(0, C_HEADER, &top, COLS);

	if (snapshot_vma_na(s))
		snprintf(ok, sizeof(ok), "n/a");
	else if (faults)
		snprintf(ok, sizeof(ok), "%.1f%%", 100.0 * vma_ok(faults, s->fallbacks, s->anon));
	item(&figures, 1, "faults/s %s", family_na(st, FAMILY_FAULTS)[0] ? "n/a" :
	     fmt_rate(snapshot_rate(s, faults), rate, sizeof(rate)));
	if (!family_na(st, FAMILY_FAULTS)[0])
		item(&figures, 6, "(minor %s, major %s)",
		     fmt_rate(snapshot_rate(s, s->total.min_flt), minor, sizeof(minor)),
		     fmt_rate(snapshot_rate(s, s->total.maj_flt), major, sizeof(major)));
	item(&figures, 4, "vma-lock ok %s", ok);
	item(&figures, 0, "drops %lu", (unsigned long)snapshot_drops(s));
	if (st->filter[0])
		item(&figures, 0, "filter: %s", st->filter);
	observer_items(&figures, s);
	draw_items(1, C_NORMAL, &figures, COLS);

	for (i = 0; i < PROBE__COUNT && n < sizeof(probes); i++)
		if (s->probes & (1u << i))
			n += snprintf(probes + n, sizeof(probes) - n, " %s", probe_name(i));
	for (i = 0; i < FAMILY__COUNT && n < sizeof(probes); i++)
		if (s->na[i][0])
			n += snprintf(probes + n, sizeof(probes) - n, " %s:n/a", family_name(i));
	draw_text(2, 0, COLS, C_DIM, " probes:%s", st->have_data ? probes : " (first interval pending)");
}

/* The tabs, padded; on a terminal too narrow for that, without padding. */
static void draw_tabs(const struct ui_state *st)
{
	int i, x = 1, wide = 1;
	const char *fmt;

	for (i = 0; i < VIEW__COUNT; i++)
		wide += strlen(view_of(i)->name) + 5;
	fmt = wide <= COLS ? " %d %s " : "%d %s";
	for (i = 0; i < VIEW__COUNT; i++) {
		char tab[32];

		snprintf(tab, sizeof(tab), fmt, i + 1, view_of(i)->name);
		draw_text(3, x, COLS - x, i == (int)st->view ? C_TAB : C_NORMAL, "%s", tab);
		x += strlen(tab) + (wide <= COLS ? 1 : 2);
	}
}

static void draw_hints(const struct ui_state *st)
{
	char bar[256];
	size_t n = 0;
	int i, y = LINES - 1;

	draw_fill(y, C_HEADER);
	if (st->editing) {
		draw_text(y, 0, COLS, C_HEADER, " %s: %s_   (Enter: apply, Esc: cancel)",
			  st->jumping ? "jump to second" : "filter", st->edit);
		return;
	}
	/* Whole hints only: those past the right edge are left out. */
	for (i = 0; i < nr_key_bindings && n < sizeof(bar); i++) {
		const char *hint = key_bindings[i].hint[st->replay];

		if (!hint || !key_in_mode(&key_bindings[i], st->replay))
			continue;
		if (n + strlen(hint) + 2 > (size_t)COLS)
			break;
		n += snprintf(bar + n, sizeof(bar) - n, " %s ", hint);
	}
	draw_text(y, 0, COLS, C_HEADER, "%s", n ? bar : "");
}

#define HELP_KEY_COLS 24

/*
 * @text from (@y, @x), wrapped at spaces to @width columns, on lines above
 * @end; returns the lines it took.
 */
static int draw_wrapped(int y, int x, int width, int end, enum ui_color c, const char *text)
{
	int lines = 0, n;

	while (*text && y + lines < end) {
		n = strlen(text);
		if (n > width) {
			for (n = width; n > 0 && text[n] != ' '; n--)
				;
			if (!n)
				n = width;
		}
		draw_text(y + lines++, x, n, c, "%.*s", n, text);
		for (text += n; *text == ' '; text++)
			;
	}
	return lines;
}

/* The drop counters behind the header's total, by what was lost. */
static void help_drops(const struct ui_state *st, char *buf, size_t len)
{
	const struct snapshot *s = &st->shown;
	size_t n = snprintf(buf, len, "Drops since start (the header's drops): ");
	int i, shown = 0;

	for (i = 0; i < DROP__COUNT && n < len; i++)
		if (s->drops[i])
			n += snprintf(buf + n, len - n, "%s%s %lu", shown++ ? ", " : "",
				      drop_name(i), (unsigned long)s->drops[i]);
	if (!shown && n < len)
		snprintf(buf + n, len - n, "none");
}

/*
 * Every key of the mode the viewer is in, its text wrapped beside it; the
 * drops by kind; how to read the man page. What does not fit says so.
 */
static void draw_help(const struct ui_state *st)
{
	int i, y = HEADER_LINES + 1, end = LINES - 4, x = 4 + HELP_KEY_COLS + 1;
	char drops[512];

	draw_text(y++, 2, COLS - 4, C_TITLE, "Keys");
	for (i = 0; i < nr_key_bindings; i++) {
		const struct key_binding *b = &key_bindings[i];

		if (!b->keys || !key_in_mode(b, st->replay))
			continue;
		if (y >= end)
			break;
		draw_text(y, 4, HELP_KEY_COLS, C_NORMAL, "%s", b->keys);
		y += draw_wrapped(y, x, COLS - x - 1, end, C_NORMAL, b->what);
	}
	if (i < nr_key_bindings)
		draw_text(y++, 4, COLS - 6, C_DIM, "(more keys on a taller terminal, and in the man page)");
	help_drops(st, drops, sizeof(drops));
	y += draw_wrapped(y, 2, COLS - 4, LINES - 2, C_NORMAL, drops);
	draw_text(LINES - 2, 2, COLS - 4, C_DIM, "Columns, probe names and drops: %s",
		  st->man);
}

static void draw_too_small(void)
{
	char msg[96];

	snprintf(msg, sizeof(msg), "terminal too small: %dx%d, mmtop needs %dx%d",
		 COLS, LINES, MIN_COLS, MIN_LINES);
	mvaddnstr(LINES / 2, COLS > (int)strlen(msg) ? (COLS - (int)strlen(msg)) / 2 : 0,
		  msg, COLS);
}

void ui_draw(struct ui_state *st)
{
	erase();
	if (COLS < MIN_COLS || LINES < MIN_LINES) {
		draw_too_small();
	} else {
		draw_header(st);
		draw_tabs(st);
		if (st->help)
			draw_help(st);
		else if (!st->have_data)
			draw_text(HEADER_LINES + 1, 2, COLS - 4, C_DIM, "collecting the first interval...");
		else
			view_of(st->view)->draw(st, HEADER_LINES, LINES - HEADER_LINES - 1);
		draw_hints(st);
	}
	/* ncurses sends only the cells that differ from the screen. */
	refresh();
}
