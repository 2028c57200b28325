// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "proc.h"
#include "util.h"

int proc_read_comm(int pid, char *buf, size_t len)
{
	char path[64];
	int err;

	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	err = read_small_file(path, buf, len);
	if (!err)
		buf[strcspn(buf, "\n")] = '\0';
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
