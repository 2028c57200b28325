// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <string.h>

#include "fault_source.h"
#include "util.h"

int fault_source_parse(const char *s, enum fault_source_kind *kind)
{
	static const char *const names[] = {
		[FAULT_SOURCE_AUTO] = "auto", [FAULT_SOURCE_SCHED] = "sched",
		[FAULT_SOURCE_PERF] = "perf",
	};
	int i = parse_name(s, names, ARRAY_SIZE(names));

	if (i >= 0)
		*kind = i;
	return i < 0 ? -1 : 0;
}

static int try_open(struct fault_source *fs, const struct fault_source_ops *ops,
		    const struct fault_source *how, char *err, size_t errlen)
{
	int ret;

	*fs = *how;
	fs->ops = ops;
	ret = ops->open(fs, err, errlen);
	fs->kernel = NULL;	/* the collector's, gone once it is open */
	return ret;
}

int fault_source_open(struct fault_source *fs, enum fault_source_kind kind,
		      enum tp_flavour attach, const struct kernel_has *kernel, int nr_cpus,
		      char *err, size_t errlen)
{
	const struct fault_source how = { .attach = attach, .kernel = kernel, .nr_cpus = nr_cpus };
	char sched_err[256];

	if (kind == FAULT_SOURCE_PERF)
		return try_open(fs, &fault_perf_ops, &how, err, errlen);
	if (!try_open(fs, &fault_sched_ops, &how, sched_err, sizeof(sched_err)))
		return 0;
	if (kind == FAULT_SOURCE_SCHED) {
		snprintf(err, errlen, "%s", sched_err);
		return -1;
	}
	if (!try_open(fs, &fault_perf_ops, &how, err, errlen)) {
		snprintf(err, errlen, "sched fault source unavailable (%s): using perf counters",
			 sched_err);
		return 1;
	}
	snprintf(err + strlen(err), errlen - strlen(err), "; sched: %s", sched_err);
	return -1;
}
