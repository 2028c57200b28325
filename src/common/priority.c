// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdbool.h>
#include <sys/resource.h>

#include "priority.h"

#define START_NICE -20

static int started_nice;
static bool raised;

void priority_raise(void)
{
	errno = 0;
	started_nice = getpriority(PRIO_PROCESS, 0);
	if (errno)
		return;
	raised = !setpriority(PRIO_PROCESS, 0, START_NICE);
}

/* On Linux the nice of PRIO_PROCESS 0 is the calling thread's alone. */
void priority_caller(void)
{
	if (raised)
		setpriority(PRIO_PROCESS, 0, started_nice);
}
