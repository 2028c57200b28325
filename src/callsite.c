// SPDX-License-Identifier: GPL-2.0
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "callsite.h"
#include "util.h"

struct rule {
	enum callsite site;
	const char *pattern;	/* a function name; "name*" matches a prefix */
};

/*
 * Tried in this order against every frame of the stack: the first rule
 * that matches any frame wins, so exec's own mmap calls count as exec and
 * a /proc reader's GUP as /proc.
 */
static const struct rule rules[] = {
	{ CALLSITE_FAULT, "lock_mm_and_find_vma" },
	{ CALLSITE_FAULT_ANON, "__vmf_anon_prepare" },
	{ CALLSITE_FORK, "dup_mmap" },
	{ CALLSITE_EXEC, "bprm_execve" },
	{ CALLSITE_EXEC, "begin_new_exec" },
	{ CALLSITE_EXEC, "do_execveat_common*" },
	{ CALLSITE_EXIT, "exit_mmap" },
	{ CALLSITE_EXIT, "__mmput" },
	{ CALLSITE_EXIT, "acct_collect" },
	{ CALLSITE_PROC, "proc_*" },
	{ CALLSITE_PROC, "m_start" },
	{ CALLSITE_PROC, "show_smap*" },
	{ CALLSITE_PROC, "pagemap_read" },
	{ CALLSITE_PROC, "procfs_*" },
	{ CALLSITE_GUP, "get_user_pages*" },
	{ CALLSITE_GUP, "pin_user_pages*" },
	{ CALLSITE_GUP, "__get_user_pages*" },
	{ CALLSITE_GUP, "__access_remote_vm" },
	{ CALLSITE_GUP, "access_remote_vm" },
	{ CALLSITE_GUP, "process_vm_rw*" },
	{ CALLSITE_MMAP, "vm_mmap_pgoff" },
	{ CALLSITE_MMAP, "ksys_mmap_pgoff" },
	{ CALLSITE_MUNMAP, "__vm_munmap" },
	{ CALLSITE_MUNMAP, "vm_munmap" },
	{ CALLSITE_MREMAP, "__do_sys_mremap" },
	{ CALLSITE_MREMAP, "do_mremap" },
	{ CALLSITE_MPROTECT, "do_mprotect_pkey" },
	{ CALLSITE_MADVISE, "do_madvise" },
	{ CALLSITE_MADVISE, "madvise_lock" },
	{ CALLSITE_BRK, "__do_sys_brk" },
};

/* Frames of the tracing and locking machinery, never a call site. */
static const char *const plumbing[] = {
	"bpf_*", "__bpf_*", "__traceiter_*", "__probestub_*", "trace_*",
	"__mmap_lock_do_trace_*", "mmap_read_*", "mmap_write_*", "down_*",
	"up_*", "__down_*", "rwsem_*",
};

static bool matches(const char *name, const char *pattern)
{
	size_t n = strlen(pattern);

	if (pattern[n - 1] == '*')
		return !strncmp(name, pattern, n - 1);
	return !strcmp(name, pattern);
}

static bool is_plumbing(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(plumbing); i++)
		if (matches(name, plumbing[i]))
			return true;
	return false;
}

enum callsite callsite_classify(const struct ksyms *k, const uint64_t *ips,
				int n, char *symbol, size_t len)
{
	const char *names[64];
	size_t r;
	int i, nr = 0;

	symbol[0] = '\0';
	for (i = 0; i < n && ips[i] && nr < (int)ARRAY_SIZE(names); i++) {
		const char *name = ksyms_name(k, ips[i]);

		if (!name)
			continue;
		names[nr++] = name;
		if (!symbol[0] && !is_plumbing(name))
			snprintf(symbol, len, "%s", name);
	}
	if (!nr)
		return CALLSITE_UNKNOWN;
	for (r = 0; r < ARRAY_SIZE(rules); r++)
		for (i = 0; i < nr; i++)
			if (matches(names[i], rules[r].pattern))
				return rules[r].site;
	return CALLSITE_OTHER;
}
