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
