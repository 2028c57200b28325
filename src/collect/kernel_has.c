// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>

#include "kernel_has.h"
#include "prog_probe.h"
#include "util.h"

const struct kernel_tp kernel_tps[] = {
	{ "sched", "sched_switch", "Linux 2.6.28+" },
	{ "sched", "sched_migrate_task", "Linux 2.6.28+" },
	{ "mmap_lock", "mmap_lock_start_locking", "Linux 5.11+" },
	{ "mmap_lock", "mmap_lock_acquire_returned", "Linux 5.11+" },
	{ "mmap_lock", "mmap_lock_released", "Linux 5.11+" },
	{ "lock", "contention_begin", "Linux 5.19+" },
	{ "lock", "contention_end", "Linux 5.19+" },
	{ "lock", "contended_release", "newer than 6.18: Debian sid's 7.2 has it" },
	{ "exceptions", "page_fault_user", "x86 only" },
	{ "exceptions", "page_fault_kernel", "x86 only" },
	{ "kmem", "mm_page_alloc_zone_locked", "Linux 2.6.33+" },
	{ "kmem", "mm_page_pcpu_drain", "Linux 2.6.33+" },
	{ "sched", "sched_process_fork", "Linux 2.6.28+" },
	{ "task", "task_newtask", "Linux 3.4+" },
	{ "sched", "sched_process_exit", "Linux 2.6.28+" },
};
const size_t nr_kernel_tps = ARRAY_SIZE(kernel_tps);

/*
 * MMTOP_TEST_LACKS: tracepoints taken as missing, for tests of what an
 * older kernel gives (5.11-5.18: contention_begin,contention_end).
 */
static bool test_lacks(const char *name)
{
	const char *list = getenv("MMTOP_TEST_LACKS"), *at;
	size_t n = strlen(name);

	for (at = list; at && (at = strstr(at, name)); at += n)
		if ((at == list || at[-1] == ',') && (!at[n] || at[n] == ','))
			return true;
	return false;
}

int kernel_tp_nargs(const struct btf *btf, const char *name, int *proto_id)
{
	int id = test_lacks(name) ? -1 : prog_probe_tp_btf_id(btf, name);
	const struct btf_type *t = id > 0 ? btf__type_by_id(btf, id) : NULL;

	t = t ? btf__type_by_id(btf, t->type) : NULL;	/* pointer */
	if (t && proto_id)
		*proto_id = t->type;
	t = t ? btf__type_by_id(btf, t->type) : NULL;	/* prototype */
	/* (void *data, the tracepoint's arguments...) */
	return t && btf_is_func_proto(t) && btf_vlen(t) > 0 ? btf_vlen(t) - 1 : -1;
}

void kernel_tp_missing(const char *name, char *buf, size_t len)
{
	size_t i;

	for (i = 0; i < nr_kernel_tps; i++)
		if (!strcmp(kernel_tps[i].name, name))
			break;
	if (i == nr_kernel_tps)
		snprintf(buf, len, "no tracepoint %s", name);
	else
		snprintf(buf, len, "no tracepoint %s:%s (%s)", kernel_tps[i].group, name,
			 kernel_tps[i].since);
}

bool kernel_has_helper(const struct btf *btf, const char *id)
{
	int t = btf ? btf__find_by_name_kind(btf, "bpf_func_id", BTF_KIND_ENUM) : -1;
	const struct btf_type *e = t > 0 ? btf__type_by_id(btf, t) : NULL;
	int i;

	for (i = 0; e && i < btf_vlen(e); i++)
		if (!strcmp(btf__name_by_offset(btf, btf_enum(e)[i].name_off), id))
			return true;
	return false;
}

bool kernel_has_bpf_allocator(const struct btf *btf)
{
	return btf && btf__find_by_name_kind(btf, "bpf_mem_alloc", BTF_KIND_STRUCT) > 0;
}
