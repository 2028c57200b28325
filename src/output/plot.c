// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include <time.h>

#include "html.h"
#include "plot.h"

/* The viewBox: 960 wide; the drawing area inside these margins. */
#define VIEW_W 960
#define MARGIN_L 76
#define MARGIN_R 40
#define MARGIN_T 10
#define MARGIN_B 44
#define PLOT_W (VIEW_W - MARGIN_L - MARGIN_R)
#define TICKS 6

/* 1.23, 12.3, 123, then k, M, G, T. */
static const char *si(double v, const char *unit, char *buf, size_t len)
{
	static const char *const prefix[] = { "", "k", "M", "G", "T" };
	double a = fabs(v);
	int i = 0;

	while (a >= 999.5 && i < 4) {
		a /= 1000;
		v /= 1000;
		i++;
	}
	snprintf(buf, len, "%.3g%s%s", v, prefix[i], unit);
	return buf;
}

static const char *ns_text(double ns, const char *per, char *buf, size_t len)
{
	static const struct { double div; const char *unit; } units[] = {
		{ 1e9, "s" }, { 1e6, "ms" }, { 1e3, "us" }, { 1, "ns" },
	};
	size_t i;

	if (ns == 0) {
		snprintf(buf, len, "0%s", per);
		return buf;
	}
	for (i = 0; i < 3 && fabs(ns) < units[i].div; i++)
		;
	snprintf(buf, len, "%.3g%s%s", ns / units[i].div, units[i].unit, per);
	return buf;
}

const char *plot_format(enum plot_unit unit, double v, char *buf, size_t len)
{
	time_t t;
	struct tm tm;

	switch (unit) {
	case UNIT_PER_S:
		return si(v, "/s", buf, len);
	case UNIT_NS:
		return ns_text(v, "", buf, len);
	case UNIT_NS_PER_S:
		return ns_text(v, "/s", buf, len);
	case UNIT_PCT:
		snprintf(buf, len, "%.3g%%", v);
		return buf;
	case UNIT_MIB:
		if (fabs(v) >= 1024)
			snprintf(buf, len, "%.3gGiB", v / 1024);
		else
			snprintf(buf, len, "%.3gMiB", v);
		return buf;
	case UNIT_TIME:
		t = (time_t)floor(v);
		gmtime_r(&t, &tm);
		strftime(buf, len, "%H:%M:%S", &tm);
		return buf;
	case UNIT_LOG2_NS:	/* bucket 0 holds 0 and 1 ns */
		return ns_text(v < 0.5 ? 0 : ldexp(1, (int)lround(v)), "", buf, len);
	case UNIT_LOG10:
		return si(pow(10, v), "", buf, len);
	case UNIT_INDEX:
	case UNIT_COUNT:
		break;
	}
	return si(v, "", buf, len);
}

/* A round step giving about TICKS ticks over @range (1, 2, 5 x 10^k). */
static double nice_step(double range)
{
	double raw = range / TICKS, mag = pow(10, floor(log10(raw))), n = raw / mag;

	return (n < 1.5 ? 1 : n < 3 ? 2 : n < 7 ? 5 : 10) * mag;
}

/* Time steps people read: seconds, minutes, hours. */
static double time_step(double range)
{
	static const double steps[] = {
		1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200,
		10800, 21600, 43200, 86400, 172800, 604800,
	};
	size_t i;

	for (i = 0; i < sizeof(steps) / sizeof(steps[0]) - 1; i++)
		if (range / steps[i] <= TICKS + 2)
			break;
	return steps[i];
}

static double axis_step(const struct plot_axis *a)
{
	double range = a->hi - a->lo;

	if (a->unit == UNIT_TIME)
		return time_step(range);
	if (a->unit == UNIT_INDEX)
		return 1;
	if (a->unit == UNIT_LOG2_NS)
		return range > 24 ? 4 : range > 12 ? 2 : 1;
	if (a->unit == UNIT_LOG10)
		return range > 8 ? 2 : 1;
	return nice_step(range);
}

/* Value axes start at 0 and end on a tick; time and categories as given. */
static void widen(struct plot_axis *a)
{
	double step;

	if (!(a->hi > a->lo))
		a->hi = a->lo + (a->unit == UNIT_TIME ? 1 : a->unit == UNIT_PCT ? 100 : 1);
	if (a->unit == UNIT_TIME || a->unit == UNIT_INDEX || a->unit == UNIT_LOG2_NS)
		return;
	if (a->unit == UNIT_LOG10) {	/* whole decades */
		a->lo = floor(a->lo);
		a->hi = ceil(a->hi);
		return;
	}
	step = nice_step(a->hi - a->lo);
	a->lo = floor(a->lo / step) * step;
	a->hi = ceil(a->hi / step - 1e-9) * step;
}

double plot_x(const struct plot *p, double v)
{
	return MARGIN_L + (v - p->x.lo) / (p->x.hi - p->x.lo) * PLOT_W;
}

double plot_y(const struct plot *p, double v)
{
	double y = MARGIN_T + p->height - (v - p->y.lo) / (p->y.hi - p->y.lo) * p->height;

	return y < MARGIN_T ? MARGIN_T : y > MARGIN_T + p->height ? MARGIN_T + p->height : y;
}

/* Time ticks a minute or more apart: hours and minutes, the date at midnight. */
static void time_tick(double v, double step, char *buf, size_t len)
{
	time_t t = (time_t)llround(v);
	struct tm tm;

	gmtime_r(&t, &tm);
	if (step < 60)
		strftime(buf, len, "%H:%M:%S", &tm);
	else if (step >= 3600 && !tm.tm_hour && !tm.tm_min)
		strftime(buf, len, "%m-%d", &tm);
	else
		strftime(buf, len, "%H:%M", &tm);
}

static void tick_label(const struct plot_axis *a, double v, double step, char *buf, size_t len)
{
	long i = lround(v);

	if (a->unit == UNIT_TIME)
		time_tick(v, step, buf, len);
	else if (a->unit == UNIT_INDEX)
		snprintf(buf, len, "%s", i >= a->lo && i <= a->hi && a->names ? a->names[i] : "");
	else
		plot_format(a->unit, v, buf, len);
}

/* The grid lines and labelled ticks of one axis (@x: the horizontal one). */
static void ticks(struct plot *p, const struct plot_axis *a, bool x)
{
	double step = axis_step(a), v = ceil(a->lo / step - 1e-9) * step;
	int bottom = MARGIN_T + p->height;
	char buf[64];

	for (; v <= a->hi + 1e-9 * step; v += step) {
		double at;

		if (fabs(v) < 1e-9 * step)
			v = 0;	/* not -0 */
		at = x ? plot_x(p, v) : plot_y(p, v);
		if (x)
			fprintf(p->f, "<line class=\"grid\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" "
				"y2=\"%d\"/>", at, at, MARGIN_T, bottom);
		else
			fprintf(p->f, "<line class=\"grid\" x1=\"%d\" x2=\"%d\" y1=\"%.1f\" "
				"y2=\"%.1f\"/>", MARGIN_L, MARGIN_L + PLOT_W, at, at);
		tick_label(a, v, step, buf, sizeof(buf));
		fprintf(p->f, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">",
			x ? at : MARGIN_L - 6, x ? bottom + 16 : at + 4, x ? "middle" : "end");
		html_text(p->f, buf);
		fputs("</text>", p->f);
	}
}

/* The axes' names: below the plot, and turned up its left side. */
static void axis_labels(struct plot *p)
{
	fprintf(p->f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">", MARGIN_L + PLOT_W / 2,
		MARGIN_T + p->height + 36);
	html_text(p->f, p->x.label);
	fprintf(p->f, "</text>\n<text transform=\"rotate(-90)\" x=\"%d\" y=\"14\" "
		"text-anchor=\"middle\">", -(MARGIN_T + p->height / 2));
	html_text(p->f, p->y.label);
	fputs("</text>\n", p->f);
}

static void legend(FILE *f, const struct plot *p, const char *const *series, int n,
		   const bool *dashed)
{
	int i;

	if (!n)
		return;
	fputs("<ul class=\"legend\">", f);
	for (i = 0; i < n; i++) {
		if (p->points)	/* the marks' shapes: circles, squares every other */
			fprintf(f, i % 2 ? "<li><svg viewBox=\"0 0 22 10\"><rect class=\"s%d\" x=\"7\" "
				"y=\"1\" width=\"8\" height=\"8\"/></svg>" : "<li><svg viewBox=\"0 0 "
				"22 10\"><circle class=\"s%d\" cx=\"11\" cy=\"5\" r=\"4\"/></svg>",
				i % PLOT_COLOURS);
		else
			fprintf(f, "<li><svg viewBox=\"0 0 22 10\"><line class=\"line s%d%s\" "
				"x1=\"1\" x2=\"21\" y1=\"5\" y2=\"5\" stroke-width=\"3\"/></svg>",
				i % PLOT_COLOURS, dashed && dashed[i] ? " dash" : "");
		html_text(f, series[i]);
		fputs("</li>", f);
	}
	fputs("</ul>\n", f);
}

void plot_begin(struct plot *p, const char *title, const char *what,
		const char *const *series, int nr_series, const bool *dashed)
{
	if (!p->height)
		p->height = 220;
	widen(&p->x);
	widen(&p->y);
	fprintf(p->f, "<figure id=\"%s\" data-kind=\"%s\"><figcaption>", p->id, p->kind);
	html_text(p->f, title);
	if (what) {
		fputs(" <span class=\"what\">", p->f);
		html_text(p->f, what);
		fputs("</span>", p->f);
	}
	fputs("</figcaption>\n", p->f);
	legend(p->f, p, series, nr_series, dashed);
	fprintf(p->f, "<div class=\"wide\"><svg class=\"plot\" viewBox=\"0 0 %d %d\" "
		"role=\"img\">\n", VIEW_W, MARGIN_T + p->height + MARGIN_B);
	ticks(p, &p->x, true);
	ticks(p, &p->y, false);
	axis_labels(p);
}

void plot_end(struct plot *p)
{
	fprintf(p->f, "<rect class=\"frame\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>"
		"</svg></div></figure>\n", MARGIN_L, MARGIN_T, PLOT_W, p->height);
}

void plot_line_begin(struct plot *p, int colour, bool dashed)
{
	fprintf(p->f, "<path class=\"line s%d%s\" d=\"", colour % PLOT_COLOURS,
		dashed ? " dash" : "");
	p->pen = false;
}

void plot_line_to(struct plot *p, double x, double y, bool after_gap)
{
	fprintf(p->f, "%c%.1f %.1f", !p->pen || after_gap ? 'M' : 'L',
		plot_x(p, x), plot_y(p, y));
	p->pen = true;
}

void plot_line_end(struct plot *p)
{
	fputs("\"/>\n", p->f);
}

void plot_gap(struct plot *p, double x0, double x1)
{
	double a = plot_x(p, x0), b = plot_x(p, x1);

	fprintf(p->f, "<rect class=\"gap\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\">"
		"<title>no data</title></rect>\n", a, MARGIN_T, b - a > 1 ? b - a : 1, p->height);
}

void plot_hover_begin(struct plot *p, double x0, double x1)
{
	double a = plot_x(p, x0), b = plot_x(p, x1);

	fprintf(p->f, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\"><title>",
		a, MARGIN_T, b - a > 0.5 ? b - a : 0.5, p->height);
}

void plot_hover_end(struct plot *p)
{
	fputs("</title></rect>\n", p->f);
}

void plot_point(struct plot *p, double x, double y, int colour, bool square,
		bool hollow, const char *title)
{
	const char *cls = hollow ? " hollow" : "";

	if (square)
		fprintf(p->f, "<rect class=\"pt s%d%s\" x=\"%.1f\" y=\"%.1f\" width=\"7\" "
			"height=\"7\">", colour % PLOT_COLOURS, cls, plot_x(p, x) - 3.5,
			plot_y(p, y) - 3.5);
	else
		fprintf(p->f, "<circle class=\"pt s%d%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\">",
			colour % PLOT_COLOURS, cls, plot_x(p, x), plot_y(p, y));
	fputs("<title>", p->f);
	html_text(p->f, title);
	fputs(square ? "</title></rect>\n" : "</title></circle>\n", p->f);
}

void plot_bar(struct plot *p, double x0, double x1, double y, int colour,
	      const char *title)
{
	double a = plot_x(p, x0), b = plot_x(p, x1), top = plot_y(p, y);

	fprintf(p->f, "<rect class=\"bar s%d\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
		"height=\"%.1f\"><title>", colour % PLOT_COLOURS, a, top, b - a,
		plot_y(p, p->y.lo) - top);
	html_text(p->f, title);
	fputs("</title></rect>\n", p->f);
}

void plot_box(struct plot *p, double x, double half_width, const double q[5],
	      int colour, const char *title)
{
	double a = plot_x(p, x - half_width), b = plot_x(p, x + half_width), m = plot_x(p, x);
	int c = colour % PLOT_COLOURS;

	fprintf(p->f, "<g class=\"box\"><title>");
	html_text(p->f, title);
	fprintf(p->f, "</title><path class=\"line s%d\" d=\"M%.1f %.1fV%.1fM%.1f %.1fV%.1f"
		"M%.1f %.1fH%.1f", c, m, plot_y(p, q[0]), plot_y(p, q[1]), m, plot_y(p, q[3]),
		plot_y(p, q[4]), a, plot_y(p, q[2]), b);
	/* Caps at both whiskers' ends. */
	fprintf(p->f, "M%.1f %.1fH%.1fM%.1f %.1fH%.1f\"/>", m - (b - a) / 4, plot_y(p, q[0]),
		m + (b - a) / 4, m - (b - a) / 4, plot_y(p, q[4]), m + (b - a) / 4);
	fprintf(p->f, "<rect class=\"line s%d\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
		"height=\"%.1f\"/></g>\n", c, a, plot_y(p, q[3]), b - a,
		plot_y(p, q[1]) - plot_y(p, q[3]));
}
