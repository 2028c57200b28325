// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <time.h>

#include "util.h"

uint64_t clock_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

uint64_t wall_of_mono_ns(uint64_t mono_ns)
{
	return mono_ns + clock_ns(CLOCK_REALTIME) - clock_ns(CLOCK_MONOTONIC);
}

struct unit {
	const char *suffix;
	double mult;
};

/* Number with an optional suffix from @units; the empty suffix must be listed. */
static int parse_scaled(const char *s, const struct unit *units, size_t n,
			double *out)
{
	char *end;
	double v;
	size_t i;

	if (!s || !*s || isspace((unsigned char)*s) || *s == '-')
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || !isfinite(v) || v < 0)
		return -1;
	for (i = 0; i < n; i++) {
		if (strcasecmp(end, units[i].suffix) == 0) {
			*out = v * units[i].mult;
			return 0;
		}
	}
	return -1;
}

int parse_duration(const char *s, uint64_t *ns)
{
	static const struct unit units[] = {
		{ "", 1e9 }, { "s", 1e9 }, { "ms", 1e6 }, { "us", 1e3 },
		{ "ns", 1 }, { "m", 60e9 }, { "h", 3600e9 }, { "d", 86400e9 },
	};
	double v;

	if (parse_scaled(s, units, ARRAY_SIZE(units), &v) || v >= 1e18)
		return -1;
	*ns = (uint64_t)v;
	return 0;
}

int parse_size(const char *s, uint64_t *bytes)
{
	static const struct unit units[] = {
		{ "", 1 }, { "k", 1ULL << 10 }, { "m", 1ULL << 20 },
		{ "g", 1ULL << 30 }, { "kib", 1ULL << 10 }, { "mib", 1ULL << 20 },
		{ "gib", 1ULL << 30 },
	};
	double v;

	if (parse_scaled(s, units, ARRAY_SIZE(units), &v) || v >= 1e18)
		return -1;
	*bytes = (uint64_t)v;
	return 0;
}

int parse_uint(const char *s, unsigned int *out)
{
	char *end;
	unsigned long v;

	if (!s || !isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v > INT_MAX)
		return -1;
	*out = v;
	return 0;
}

int realloc_in(void *pp, size_t n, size_t size)
{
	void *old, *p;

	memcpy(&old, pp, sizeof(old));
	p = realloc(old, n * size);
	if (!p)
		return -1;
	memcpy(pp, &p, sizeof(p));
	return 0;
}

int parse_name(const char *s, const char *const *names, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (names[i] && !strcmp(s, names[i]))
			return i;
	return -1;
}

int parse_cpu_list(const char *s, bool *set, int n)
{
	int count = 0;

	while (*s && *s != '\n') {
		char *end;
		long lo, hi;

		if (!isdigit((unsigned char)*s))
			return -1;
		lo = hi = strtol(s, &end, 10);
		if (*end == '-') {
			if (!isdigit((unsigned char)end[1]))
				return -1;
			hi = strtol(end + 1, &end, 10);
		}
		if (lo > hi || hi >= n)
			return -1;
		for (; lo <= hi; lo++, count++)
			set[lo] = true;
		if (*end == ',')
			end++;
		else if (*end && *end != '\n')
			return -1;
		s = end;
	}
	return count;
}

int read_small_file(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	if (n < 0) {
		n = -errno;
		close(fd);
		return n;
	}
	close(fd);
	buf[n] = '\0';
	return 0;
}

const char *errno_text(int err)
{
	return err == 524 ? "not supported by this kernel" : strerror(err);
}

const char *format_ns(uint64_t ns, char *buf, size_t len)
{
	if (ns < 1000)
		snprintf(buf, len, "%" PRIu64 "ns", ns);
	else if (ns < 1000000)
		snprintf(buf, len, "%.1fus", ns / 1e3);
	else if (ns < NSEC_PER_SEC)
		snprintf(buf, len, "%.2fms", ns / 1e6);
	else
		snprintf(buf, len, "%.2fs", ns / 1e9);
	return buf;
}

int utf8_char_len(const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	int n, i;

	if (s[0] < 0x80)
		return s[0] ? 1 : 0;
	if (s[0] < 0xc2 || s[0] > 0xf4)
		return 0;	/* continuation byte, overlong lead, beyond U+10FFFF */
	n = s[0] < 0xe0 ? 2 : s[0] < 0xf0 ? 3 : 4;
	for (i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	/* Overlong 3- and 4-byte forms, UTF-16 surrogates, above U+10FFFF. */
	if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] > 0x9f) ||
	    (s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] > 0x8f))
		return 0;
	return n;
}

int parse_time(const char *s, uint64_t *ns, bool *tod)
{
	static const char *const dates[] = {
		"%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M",
		"%Y-%m-%d %H:%M", "%Y-%m-%d",
	};
	static const char *const times[] = { "%H:%M:%S", "%H:%M" };
	struct tm tm;
	const char *end;
	size_t i;

	*tod = false;
	if (s[0] == '@') {
		double v;
		char *e;

		errno = 0;
		v = strtod(s + 1, &e);
		if (errno || e == s + 1 || *e || v < 0 || v > 1e10)
			return -1;
		*ns = v * 1e9;
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(dates) + ARRAY_SIZE(times); i++) {
		bool date = i < ARRAY_SIZE(dates);

		memset(&tm, 0, sizeof(tm));
		end = strptime(s, date ? dates[i] : times[i - ARRAY_SIZE(dates)], &tm);
		if (!end || (*end && strcmp(end, "Z")))
			continue;
		if (!date) {
			*tod = true;
			*ns = (uint64_t)(tm.tm_hour * 3600 + tm.tm_min * 60 + tm.tm_sec) * NSEC_PER_SEC;
			return 0;
		}
		*ns = (uint64_t)timegm(&tm) * NSEC_PER_SEC;
		return 0;
	}
	return -1;
}

/*
 * Unicode format characters that reorder or hide text: bidi embeddings,
 * overrides and isolates, marks and zero-width characters. Printed as they
 * are, a process name holding U+202E reverses the rest of the line, its
 * columns included; they are escaped as control characters are.
 */
static bool format_char(unsigned int cp)
{
	return cp == 0x061c || cp == 0x180e || (cp >= 0x200b && cp <= 0x200f) ||
	       (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2060 && cp <= 0x2064) ||
	       (cp >= 0x2066 && cp <= 0x2069) || cp == 0xfeff;
}

/* The code point of the well-formed @n-byte character at @u (n <= 3). */
static unsigned int code_point(const unsigned char *u, int n)
{
	if (n == 2)
		return (u[0] & 0x1f) << 6 | (u[1] & 0x3f);
	if (n == 3)
		return (u[0] & 0x0f) << 12 | (u[1] & 0x3f) << 6 | (u[2] & 0x3f);
	return u[0];
}

int text_char(const char *s, bool *plain, unsigned int *cp)
{
	const unsigned char *u = (const unsigned char *)s;
	int n = utf8_char_len(s);

	*plain = false;
	*cp = u[0];
	if (!u[0])
		return 0;
	if (!n)
		return 1;			/* not UTF-8: the byte alone */
	if (n == 2 && u[0] == 0xc2 && u[1] < 0xa0) {
		*cp = u[1];			/* C1 control, U+0080..U+009F */
		return 2;
	}
	if (n <= 3 && format_char(code_point(u, n))) {
		*cp = code_point(u, n);
		return n;
	}
	*plain = u[0] >= 0x20 && u[0] != 0x7f;
	return n;
}

const char *text_safe(const char *s, char *buf, size_t len)
{
	size_t out = 0;

	while (*s) {
		unsigned int cp;
		bool plain;
		int n = text_char(s, &plain, &cp), i;

		if (plain) {
			if (out + n >= len)
				break;
			memcpy(buf + out, s, n);
			out += n;
		} else {
			if (out + 4 * n >= len)
				break;
			for (i = 0; i < n; i++)
				out += sprintf(buf + out, "\\x%02x", (unsigned char)s[i]);
		}
		s += n;
	}
	buf[out] = '\0';
	return buf;
}

const char *format_clock(uint64_t ns, char *buf, size_t len)
{
	time_t sec = ns / NSEC_PER_SEC;
	struct tm tm;
	size_t n;

	localtime_r(&sec, &tm);
	n = strftime(buf, len, "%H:%M:%S", &tm);
	snprintf(buf + n, len - n, ".%03u", (unsigned int)(ns % NSEC_PER_SEC / 1000000));
	return buf;
}

void format_utc(uint64_t ns, char *buf, size_t len)
{
	time_t sec = ns / NSEC_PER_SEC;
	struct tm tm;
	size_t n;

	gmtime_r(&sec, &tm);
	n = strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + n, len - n, ".%03uZ",
		 (unsigned int)(ns % NSEC_PER_SEC / 1000000));
}

/*
 * The next tick on the grid of @interval from @deadline; after a stall
 * (tracing loaded, the machine starved) the ticks missed are skipped, so
 * the late interval is one long one, not followed by a burst of short,
 * nearly empty ones.
 */
uint64_t next_tick(uint64_t deadline, uint64_t interval)
{
	uint64_t now = clock_ns(CLOCK_MONOTONIC);

	deadline += interval;
	if (now > deadline)
		deadline += (now - deadline) / interval * interval + interval;
	return deadline;
}

bool env_list_has(const char *var, const char *name)
{
	const char *list = getenv(var), *at;
	size_t n = strlen(name);

	for (at = list; at && (at = strstr(at, name)); at += n)
		if ((at == list || at[-1] == ',') && (!at[n] || at[n] == ','))
			return true;
	return false;
}
