/* SPDX-License-Identifier: GPL-2.0 */
/* Small helpers shared by every part of mmtop: clocks and argument parsing. */
#ifndef MMTOP_UTIL_H
#define MMTOP_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#define NSEC_PER_SEC 1000000000ULL
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

uint64_t clock_ns(clockid_t clock);
/* A CLOCK_MONOTONIC time (a BPF record's bpf_ktime_get_ns) on the wall clock. */
uint64_t wall_of_mono_ns(uint64_t mono_ns);
/* A task's name from a BPF record into @dst, an array: cut and terminated. */
#define comm_copy(dst, src) \
	(memcpy((dst), (src), sizeof(dst)), (dst)[sizeof(dst) - 1] = '\0')

/* "1", "0.5", "250ms", "2s", "1m", "1h", "1d", "100us" -> nanoseconds; -1 on error. */
int parse_duration(const char *s, uint64_t *ns);
/*
 * A point in time, UTC: "2026-11-30T14:05[:09][Z]" (or a space for the T),
 * "2026-11-30" (midnight), "@1796059353" (Unix seconds) -> nanoseconds
 * since the epoch; or a time of day alone, "14:05[:09]" -> nanoseconds
 * since midnight with *@tod set. -1 on error.
 */
int parse_time(const char *s, uint64_t *ns, bool *tod);
/* "4096", "64K", "64M", "1G" (binary units) -> bytes; -1 on error. */
int parse_size(const char *s, uint64_t *bytes);
/* Non-negative decimal integer that fits an int; -1 on error. */
int parse_uint(const char *s, unsigned int *out);
/*
 * Reallocate the array whose pointer is at @pp to @n elements of @size:
 * 0, or -1 with the array left as it was.
 */
int realloc_in(void *pp, size_t n, size_t size);
/* The index of @s among the @n @names; -1 if none. */
int parse_name(const char *s, const char *const *names, int n);
/*
 * Kernel cpulist syntax ("0-3,8,10-11") -> set[i] = true for listed i < n.
 * Returns the number of entries set, -1 on a syntax error or i >= n.
 */
int parse_cpu_list(const char *s, bool *set, int n);
/*
 * strerror(@err), and words for the kernel's own ENOTSUPP (524), which a
 * BPF program's attach returns where the kernel lacks what it needs.
 */
const char *errno_text(int err);
/* 850ns, 12.3us, 1.20ms, 2.50s: durations for people. */
const char *format_ns(uint64_t ns, char *buf, size_t len);
/*
 * Length (1-4) of the well-formed UTF-8 character at @s, 0 if the bytes
 * there are not one (or @s is at its NUL). Strings from the kernel, such
 * as process names, hold whatever bytes a user chose.
 */
int utf8_char_len(const char *s);
/*
 * The character at @s for a sink that must escape what is not plain text:
 * its length in bytes (0 at the end), and *@plain when it is printable
 * UTF-8 that can be written as it is. Otherwise it is a control character
 * (C0, DEL, or C1 as two bytes), a format character that reorders or hides
 * text (bidi overrides and isolates, zero-width characters), or a byte that
 * is not UTF-8, which each sink escapes its own way; *@cp is then its code
 * point (more than one byte) or byte value.
 */
int text_char(const char *s, bool *plain, unsigned int *cp);
/*
 * @s as one printable line of valid UTF-8: what is not plain text becomes
 * \xNN (per byte). Into @buf, cut at a character boundary; returns @buf.
 */
const char *text_safe(const char *s, char *buf, size_t len);
/* Read a small sysfs/procfs file into buf, NUL-terminated; -errno on error. */
int read_small_file(const char *path, char *buf, size_t len);
/* Whether environment variable @var, a comma-separated list, has @name. */
bool env_list_has(const char *var, const char *name);

/*
 * The tick after @deadline (CLOCK_MONOTONIC) on the grid of @interval,
 * skipping those already past: after a stall, one long interval.
 */
uint64_t next_tick(uint64_t deadline, uint64_t interval);
/* ISO 8601 UTC with milliseconds. */
/* Wall time @ns as the local time of day, HH:MM:SS.mmm, in @buf. */
const char *format_clock(uint64_t ns, char *buf, size_t len);
void format_utc(uint64_t ns, char *buf, size_t len);

#endif
