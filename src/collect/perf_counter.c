// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/syscall.h>

#include "perf_counter.h"

int perf_sw_open(uint64_t config, int cpu)
{
	struct perf_event_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = config;
	fd = syscall(SYS_perf_event_open, &attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

int perf_sw_read(int fd, uint64_t *count)
{
	ssize_t n = read(fd, count, sizeof(*count));

	if (n == sizeof(*count))
		return 0;
	return n < 0 ? -errno : -EIO;
}
