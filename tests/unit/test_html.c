// SPDX-License-Identifier: GPL-2.0
/* The HTML pages' pieces: escaping, tick units, time buckets and gaps. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "html.h"
#include "plot.h"
#include "timeline.h"
#include "unit.h"

/* What a writer puts in a stream, as a string (the caller frees it). */
#define CAPTURE(buf, len, call)						\
	do {								\
		FILE *f_ = open_memstream(&(buf), &(len));		\
		call;							\
		fclose(f_);						\
	} while (0)

static void test_escape(void)
{
	char *out = NULL;
	size_t len;

	CAPTURE(out, len, html_text(f_, "<i id=pwn>&'\"x</i>"));
	CHECK(!strcmp(out, "&lt;i id=pwn&gt;&amp;&#39;&quot;x&lt;/i&gt;"), "markup escaped: %s", out);
	free(out);
	CAPTURE(out, len, html_text(f_, "a\x1b[31m\xff\xc3\xa9\n"));
	CHECK(!strcmp(out, "a\\x1b[31m\\xff\xc3\xa9\\x0a"),
	      "control bytes and non-UTF-8 as \\xNN, UTF-8 kept: %s", out);
	free(out);
	CAPTURE(out, len, html_pre(f_, "a<b\nc\n"));
	CHECK(strstr(out, "a&lt;b\nc\n") != NULL, "preformatted text keeps its newlines");
	free(out);
}

static void test_units(void)
{
	char b[32];

	CHECK(!strcmp(plot_format(UNIT_PER_S, 1234567, b, sizeof(b)), "1.23M/s"), "1.23M/s: %s", b);
	CHECK(!strcmp(plot_format(UNIT_NS, 1500, b, sizeof(b)), "1.5us"), "1.5us: %s", b);
	CHECK(!strcmp(plot_format(UNIT_NS_PER_S, 25e6, b, sizeof(b)), "25ms/s"), "25ms/s: %s", b);
	CHECK(!strcmp(plot_format(UNIT_LOG2_NS, 10, b, sizeof(b)), "1.02us"), "bucket 10: %s", b);
	CHECK(!strcmp(plot_format(UNIT_LOG2_NS, 0, b, sizeof(b)), "0"), "bucket 0 holds 0: %s", b);
	CHECK(!strcmp(plot_format(UNIT_TIME, 1796083200 + 3723, b, sizeof(b)), "01:02:03"),
	      "time in UTC: %s", b);
	CHECK(!strcmp(plot_format(UNIT_MIB, 2048, b, sizeof(b)), "2GiB"), "2GiB: %s", b);
}

/* @n intervals of 1 s, a spike of @spike at @at, none in [gap, gap + len). */
static int day(struct timeline *tl, int n, int at, double spike, int gap, int len)
{
	int i;

	if (timeline_init(tl, 1))
		return -1;
	for (i = 0; i < n; i++) {
		if (i >= gap && i < gap + len)
			continue;
		if (timeline_add(tl, i, i + 1))
			return -1;
		timeline_set(tl, 0, i == at ? spike : 10 + i % 7);
	}
	return timeline_bucket(tl);
}

static void test_buckets(void)
{
	struct timeline tl;
	char *out = NULL;
	size_t len;
	const int series = 0;
	struct tl_plot tp = { .id = "t", .title = "t", .y_label = "y", .unit = UNIT_COUNT,
			      .series = &series, .nr = 1 };
	int hover = 0, gaps = 0;
	char *p;

	CHECK(!day(&tl, 86400, 50000, 1e6, 30000, 3600), "a day of intervals kept");
	CHECK(tl.n == 86400 - 3600, "every written interval is there (%zu)", tl.n);
	CHECK(tl.nr_buckets == TIMELINE_BUCKETS, "bucketed to %d", tl.nr_buckets);
	CHECK(timeline_gaps(&tl) == 1, "one gap");
	CHECK(tl.s[0].max == 1e6, "the spike is the series' maximum");
	CAPTURE(out, len, timeline_plot(f_, &tl, &tp));
	for (p = out; (p = strstr(p, "<rect x=")); p++)
		hover++;
	for (p = out; (p = strstr(p, "class=\"gap\"")); p++)
		gaps++;
	/* 800 buckets of 108 s: the 3600-s gap empties 33 or 34 of them. */
	CHECK(hover >= 766 && hover <= 767, "a hover mark per bucket with data (%d)", hover);
	CHECK(gaps == 1, "the gap shaded once (%d)", gaps);
	CHECK(strstr(out, ": 10-1M") != NULL, "the spike's bucket says min-max: 10-1M");
	free(out);
	timeline_free(&tl);

	CHECK(!day(&tl, 30, -1, 0, 10, 1), "30 intervals, one missing");
	CAPTURE(out, len, timeline_plot(f_, &tl, &tp));
	for (hover = 0, p = out; (p = strstr(p, "<rect x=")); p++)
		hover++;
	CHECK(hover == 29, "few intervals: a hover mark each (%d)", hover);
	/* The line is cut at the gap: a second move (M) after the first. */
	p = strstr(out, "class=\"line s0\" d=\"M");
	CHECK(p && strchr(p + 20, 'M') && strchr(p + 20, 'M') < strchr(p, '/'),
	      "the line does not cross the gap");
	free(out);
	timeline_free(&tl);
}

int main(void)
{
	test_escape();
	test_units();
	test_buckets();
	UNIT_EXIT();
}
