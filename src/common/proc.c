// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>

#include "proc.h"
#include "util.h"

int proc_read_comm(int pid, char *buf, size_t len)
{
	char path[64];
	size_t n;
	int err;

	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	err = read_small_file(path, buf, len);
	/*
	 * The kernel ends the name with one newline; a name may hold others
	 * (prctl(PR_SET_NAME) takes any byte), which are kept.
	 */
	n = err ? 0 : strlen(buf);
	if (n && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	return err;
}

int64_t proc_anon_huge_kb(int pid)
{
	char path[64], line[128];
	long long kb = -1;
	FILE *f;

	if (pid)
		snprintf(path, sizeof(path), "/proc/%d/smaps_rollup", pid);
	else
		snprintf(path, sizeof(path), "/proc/self/smaps_rollup");
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "AnonHugePages: %lld kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

int proc_busy_ns(uint64_t *ns)
{
	unsigned long long v[8] = {};
	FILE *f = fopen("/proc/stat", "re");
	int n;

	if (!f)
		return -errno;
	n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1],
		   &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
	fclose(f);
	if (n < 7)
		return -EINVAL;
	/* Not idle (v[3]) nor iowait (v[4]); guest time is in user's. */
	*ns = (v[0] + v[1] + v[2] + v[5] + v[6] + v[7]) *
	      (NSEC_PER_SEC / sysconf(_SC_CLK_TCK));
	return 0;
}

uint64_t proc_self_cpu_ns(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru))
		return 0;
	return (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * NSEC_PER_SEC +
	       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000ULL;
}
