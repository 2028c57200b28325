// SPDX-License-Identifier: GPL-2.0
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>

#include "proc.h"
#include "rotation.h"
#include "unit.h"
#include "util.h"

static void test_duration(void)
{
	uint64_t ns = 0;

	CHECK(!parse_duration("1", &ns) && ns == NSEC_PER_SEC, "duration 1 = 1 s");
	CHECK(!parse_duration("0.5", &ns) && ns == NSEC_PER_SEC / 2, "duration 0.5");
	CHECK(!parse_duration("250ms", &ns) && ns == 250000000, "duration 250ms");
	CHECK(!parse_duration("2s", &ns) && ns == 2 * NSEC_PER_SEC, "duration 2s");
	CHECK(!parse_duration("1m", &ns) && ns == 60 * NSEC_PER_SEC, "duration 1m");
	CHECK(!parse_duration("100us", &ns) && ns == 100000, "duration 100us");
	CHECK(parse_duration("", &ns), "empty duration refused");
	CHECK(parse_duration("-1", &ns), "negative duration refused");
	CHECK(parse_duration("1x", &ns), "unknown unit refused");
	CHECK(parse_duration("nan", &ns), "nan refused");
}

static void test_size(void)
{
	uint64_t b = 0;

	CHECK(!parse_size("4096", &b) && b == 4096, "size 4096");
	CHECK(!parse_size("64M", &b) && b == 64ULL << 20, "size 64M");
	CHECK(!parse_size("1G", &b) && b == 1ULL << 30, "size 1G");
	CHECK(!parse_size("2KiB", &b) && b == 2048, "size 2KiB");
	CHECK(parse_size("12Q", &b), "unknown size unit refused");
}

/* --rotate: a size ends in a size's unit, any other a duration. */
static void test_rotation(void)
{
	struct rotation r = { 0 };

	CHECK(!rotation_parse("50k", &r) && r.max_bytes == 50 << 10, "--rotate 50k: 50 KiB");
	CHECK(!rotation_parse("4K", &r) && r.max_bytes == 4096, "--rotate 4K: the least size");
	CHECK(!rotation_parse("4095", &r) && r.every_ns == 4095 * NSEC_PER_SEC,
	      "--rotate 4095: no unit, a duration in seconds");
	CHECK(rotation_parse("3K", &r), "--rotate 3K: under the least size");
	CHECK(!rotation_parse("1m", &r) && r.every_ns == 60 * NSEC_PER_SEC, "--rotate 1m: a minute");
}

/* A name holding a newline is read whole: only the kernel's last one goes. */
static void test_comm(void)
{
	char comm[16];

	prctl(PR_SET_NAME, "a\nb", 0, 0, 0);
	CHECK(!proc_read_comm(getpid(), comm, sizeof(comm)) && !strcmp(comm, "a\nb"),
	      "a comm with a newline read whole, not cut at it");
}

static void test_uint(void)
{
	unsigned int v = 0;

	CHECK(!parse_uint("42", &v) && v == 42, "uint 42");
	CHECK(parse_uint("4x", &v), "trailing junk refused");
	CHECK(parse_uint("-3", &v), "negative refused");
	CHECK(parse_uint("99999999999", &v), "overflow refused");
}

static void test_cpu_list(void)
{
	bool set[16];

	memset(set, 0, sizeof(set));
	CHECK(parse_cpu_list("0-3,8,10-11\n", set, 16) == 7 && set[0] && set[3] &&
	      !set[4] && set[8] && set[11] && !set[12], "cpulist 0-3,8,10-11");
	memset(set, 0, sizeof(set));
	CHECK(parse_cpu_list("1", set, 16) == 1 && set[1] && !set[0], "cpulist 1");
	CHECK(parse_cpu_list("3-1", set, 16) < 0, "reversed range refused");
	CHECK(parse_cpu_list("16", set, 16) < 0, "id beyond the array refused");
	CHECK(parse_cpu_list("1,,2", set, 16) < 0, "empty element refused");
	CHECK(parse_cpu_list("1-", set, 16) < 0, "open range refused");
}

/* After a stall the ticks missed are skipped: one long interval, no burst. */
static void test_next_tick(void)
{
	const uint64_t ms = 1000000, now = clock_ns(CLOCK_MONOTONIC);
	uint64_t t = next_tick(now, 500 * ms);

	CHECK(t == now + 500 * ms, "on time: the next tick one interval on");
	t = next_tick(now - 1750 * ms, 500 * ms);
	CHECK(t > now && t - now <= 500 * ms && (t - (now - 1750 * ms)) % (500 * ms) == 0,
	      "3.5 intervals late: the next tick is the first one still ahead, on the grid");
}

/* What would reorder or hide text is escaped; other UTF-8 is kept. */
static void test_text_safe(void)
{
	char buf[128];
	unsigned int cp;
	bool plain;

	text_safe("ab\xe2\x80\xae" "cd\xe2\x80\x8b" "e\xef\xbb\xbf" "caf\xc3\xa9", buf, sizeof(buf));
	CHECK(!strcmp(buf, "ab\\xe2\\x80\\xaecd\\xe2\\x80\\x8be\\xef\\xbb\\xbfcaf\xc3\xa9"),
	      "U+202E, U+200B and U+FEFF escaped, an accented letter kept: %s", buf);
	CHECK(text_char("\xe2\x81\xa6", &plain, &cp) == 3 && !plain && cp == 0x2066,
	      "a bidi isolate (U+2066) is a format character, its code point given");
	CHECK(text_char("\xe2\x82\xac", &plain, &cp) == 3 && plain,
	      "the euro sign (U+20AC) is plain text");
}

int main(void)
{
	test_text_safe();
	test_next_tick();
	test_duration();
	test_size();
	test_rotation();
	test_comm();
	test_uint();
	test_cpu_list();
	UNIT_EXIT();
}
