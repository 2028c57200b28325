// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <unistd.h>
#include <linux/capability.h>
#include <sys/syscall.h>

#include "caps.h"

bool cap_effective(int cap)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];

	if (syscall(SYS_capget, &hdr, data))
		return false;
	return data[CAP_TO_INDEX(cap)].effective & CAP_TO_MASK(cap);
}

int caps_check_tracing(char *msg, size_t len)
{
	bool bpf = cap_effective(CAP_BPF), perfmon = cap_effective(CAP_PERFMON);

	if (bpf && perfmon)
		return 0;
	snprintf(msg, len, "missing capability %s%s%s: run as root (sudo mmtop)",
		 bpf ? "" : "CAP_BPF", !bpf && !perfmon ? " and " : "",
		 perfmon ? "" : "CAP_PERFMON");
	return -1;
}
