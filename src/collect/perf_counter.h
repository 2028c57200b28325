/* SPDX-License-Identifier: GPL-2.0 */
/* Counting-mode perf software events, system wide on one CPU. */
#ifndef MMTOP_PERF_COUNTER_H
#define MMTOP_PERF_COUNTER_H

#include <stdint.h>

/* perf_event_open(PERF_TYPE_SOFTWARE, @config, pid -1, @cpu); -errno on error. */
int perf_sw_open(uint64_t config, int cpu);
/* Current count of @fd, or -errno. */
int perf_sw_read(int fd, uint64_t *count);

#endif
