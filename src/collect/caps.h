/* SPDX-License-Identifier: GPL-2.0 */
/* The capabilities mmtop needs, checked up front so errors name them. */
#ifndef MMTOP_CAPS_H
#define MMTOP_CAPS_H

#include <stdbool.h>
#include <stddef.h>

bool cap_effective(int cap);
/*
 * CAP_BPF and CAP_PERFMON (loading tracing programs, system-wide perf
 * counters). Returns 0, or -1 with the missing ones named in @msg.
 */
int caps_check_tracing(char *msg, size_t len);

#endif
