// SPDX-License-Identifier: GPL-2.0
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>

#include "callsite.h"
#include "util.h"

struct rule {
	enum callsite site;
	/* a function name; "name*" matches a prefix, "*name" a suffix */
	const char *pattern;
};

/*
 * Tried in this order against every frame of the stack: the first rule
 * that matches any frame wins, so exec's own mmap calls count as exec and
 * a /proc reader's GUP as /proc. A syscall whose body the compiler may
 * inline into its entry also matches that entry, whatever the
 * architecture calls it ("*_sys_brk": __do_sys_brk on x86, only
 * __arm64_sys_brk on arm64).
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
	{ CALLSITE_EXIT, "exit_mm" },
	{ CALLSITE_EXIT, "do_exit" },
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
	{ CALLSITE_MREMAP, "*_sys_mremap" },
	{ CALLSITE_MREMAP, "do_mremap" },
	{ CALLSITE_MPROTECT, "do_mprotect_pkey" },
	{ CALLSITE_MPROTECT, "*_sys_mprotect" },
	{ CALLSITE_MADVISE, "do_madvise" },
	{ CALLSITE_MADVISE, "madvise_lock" },
	{ CALLSITE_BRK, "*_sys_brk" },
	/*
	 * Where a lock is let go, for a holder named at its release
	 * (contended_release): a fault's, and a seq_file /proc reader's.
	 * Last: a wait or an acquisition in a fault matches the rules above.
	 */
	{ CALLSITE_PROC, "m_stop" },
	{ CALLSITE_FAULT, "do_user_addr_fault" },	/* x86 */
	{ CALLSITE_FAULT, "do_page_fault" },		/* arm64 */
};

/*
 * Contention stacks: the first frame past the lock code took the lock;
 * the class comes from it alone (any deeper frame may hold other locks).
 */
static const struct {
	enum cont_class cls;
	const char *pattern;
} cont_rules[] = {
	{ CONT_CLASS_ZONE, "rmqueue_bulk" },
	{ CONT_CLASS_ZONE, "__rmqueue_pcplist" },	/* rmqueue_bulk inlined */
	{ CONT_CLASS_ZONE, "rmqueue_buddy" },
	{ CONT_CLASS_ZONE, "free_pcppages_bulk" },
	{ CONT_CLASS_ZONE, "free_one_page" },
	{ CONT_CLASS_ZONE, "__free_pages_ok" },
	{ CONT_CLASS_ZONE, "reserve_highatomic_pageblock" },
	{ CONT_CLASS_ZONE, "unreserve_highatomic_pageblock" },
	{ CONT_CLASS_ZONE, "isolate_freepages_block" },
	{ CONT_CLASS_ZONE, "take_page_off_buddy" },
	{ CONT_CLASS_PCP, "drain_pages_zone" },
	{ CONT_CLASS_PCP, "drain_zone_pages" },
	{ CONT_CLASS_PCP, "decay_pcp_high" },
	{ CONT_CLASS_PCP, "rmqueue_pcplist" },
	{ CONT_CLASS_PCP, "free_frozen_pages" },
	{ CONT_CLASS_PCP, "free_unref_folios" },
	{ CONT_CLASS_VMA_WRITE, "vma_start_write" },
	{ CONT_CLASS_VMA_WRITE, "__vma_start_write" },
};

/* Frames of the tracing and locking machinery, never a call site. */
static const char *const plumbing[] = {
	"bpf_*", "__bpf_*", "__traceiter_*", "__probestub_*", "trace_*",
	"__mmap_lock_do_trace_*", "mmap_read_*", "mmap_write_*", "down_*",
	"up_*", "__down_*", "rwsem_*", "__rwsem_*", "queued_*",
	"native_queued_*", "__pv_queued_*", "pv_queued_*", "_raw_*",
	"__raw_*", "do_raw_*", "mutex_*", "__mutex_*", "rt_mutex_*",
	"__rt_mutex_*", "percpu_down_*", "__percpu_down_*", "osq_*",
	"schedule*", "__schedule", "io_schedule*", "rcuwait_*",
};

const char *callsite_fault_func(int i, enum callsite *site)
{
	size_t r;

	for (r = 0; r < ARRAY_SIZE(rules); r++) {
		if (rules[r].site != CALLSITE_FAULT && rules[r].site != CALLSITE_FAULT_ANON)
			continue;
		if (i-- == 0) {
			*site = rules[r].site;
			return rules[r].pattern;
		}
	}
	return NULL;
}

static bool matches(const char *name, const char *pattern)
{
	size_t n = strlen(pattern), len;

	if (pattern[n - 1] == '*')
		return !strncmp(name, pattern, n - 1);
	if (pattern[0] == '*') {
		len = strlen(name);
		return len >= n - 1 && !strcmp(name + len - (n - 1), pattern + 1);
	}
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

/*
 * Resolve @ips into @names; the first frame past the machinery goes to
 * @symbol. Returns the number of names. A stack taken in BPF begins in
 * the program itself, JIT-compiled outside the kernel's text and loaded
 * after the symbols were read: such a frame would take the name of
 * whatever symbol lies below it (_einittext, when no module or earlier
 * program does), so the frames before the first in the kernel's text are
 * left out.
 */
static int frames(const struct ksyms *k, const uint64_t *ips, int n,
		  const char **names, int max, char *symbol, size_t len,
		  uint64_t *addr)
{
	int i, nr = 0;

	symbol[0] = '\0';
	*addr = 0;
	for (i = 0; i < n && ips[i] && nr < max; i++) {
		const char *name = ksyms_name(k, ips[i]);

		if (!name || (!nr && !ksyms_in_text(k, ips[i])))
			continue;
		names[nr++] = name;
		if (!symbol[0] && !is_plumbing(name)) {
			snprintf(symbol, len, "%s", name);
			*addr = ips[i];
		}
	}
	return nr;
}

enum cont_class contention_classify(const struct ksyms *k, const uint64_t *ips,
				    int n, char *caller, size_t len, uint64_t *addr)
{
	const char *names[64];
	size_t r;

	frames(k, ips, n, names, ARRAY_SIZE(names), caller, len, addr);
	for (r = 0; caller[0] && r < ARRAY_SIZE(cont_rules); r++)
		if (matches(caller, cont_rules[r].pattern))
			return cont_rules[r].cls;
	return CONT_CLASS_OTHER;
}

enum callsite callsite_classify(const struct ksyms *k, const uint64_t *ips,
				int n, char *symbol, size_t len, uint64_t *addr)
{
	const char *names[64];
	size_t r;
	int i, nr = frames(k, ips, n, names, ARRAY_SIZE(names), symbol, len, addr);

	if (!nr)
		return CALLSITE_UNKNOWN;
	for (r = 0; r < ARRAY_SIZE(rules); r++)
		for (i = 0; i < nr; i++)
			if (matches(names[i], rules[r].pattern))
				return rules[r].site;
	return CALLSITE_OTHER;
}

/*
 * The syscalls that take an mmap_lock for write by name, this
 * architecture's numbers (the BPF side reads them from pt_regs): the
 * call sites the stack rules give the same paths, and names for others.
 */
static const struct {
	long nr;
	enum callsite site;
	const char *name;
} syscalls[] = {
	{ SYS_mmap, CALLSITE_MMAP, "mmap" },
	{ SYS_munmap, CALLSITE_MUNMAP, "munmap" },
	{ SYS_mremap, CALLSITE_MREMAP, "mremap" },
	{ SYS_mprotect, CALLSITE_MPROTECT, "mprotect" },
	{ SYS_pkey_mprotect, CALLSITE_MPROTECT, "pkey_mprotect" },
	{ SYS_madvise, CALLSITE_MADVISE, "madvise" },
	{ SYS_process_madvise, CALLSITE_MADVISE, "process_madvise" },
	{ SYS_brk, CALLSITE_BRK, "brk" },
#ifdef SYS_fork
	{ SYS_fork, CALLSITE_FORK, "fork" },
	{ SYS_vfork, CALLSITE_FORK, "vfork" },
#endif
	{ SYS_clone, CALLSITE_FORK, "clone" },
	{ SYS_clone3, CALLSITE_FORK, "clone3" },
	{ SYS_execve, CALLSITE_EXEC, "execve" },
	{ SYS_execveat, CALLSITE_EXEC, "execveat" },
	{ SYS_exit, CALLSITE_EXIT, "exit" },
	{ SYS_exit_group, CALLSITE_EXIT, "exit_group" },
	{ SYS_mlock, CALLSITE_OTHER, "mlock" },
	{ SYS_mlock2, CALLSITE_OTHER, "mlock2" },
	{ SYS_munlock, CALLSITE_OTHER, "munlock" },
	{ SYS_mlockall, CALLSITE_OTHER, "mlockall" },
	{ SYS_munlockall, CALLSITE_OTHER, "munlockall" },
	{ SYS_mbind, CALLSITE_OTHER, "mbind" },
	{ SYS_shmat, CALLSITE_OTHER, "shmat" },
	{ SYS_shmdt, CALLSITE_OTHER, "shmdt" },
	{ SYS_remap_file_pages, CALLSITE_OTHER, "remap_file_pages" },
	{ SYS_prctl, CALLSITE_OTHER, "prctl" },
	{ SYS_ioctl, CALLSITE_OTHER, "ioctl" },
};

static int syscall_index(long nr)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(syscalls); i++)
		if (syscalls[i].nr == nr)
			return i;
	return -1;
}

const char *syscall_name(long nr)
{
	int i = syscall_index(nr);

	return i < 0 ? NULL : syscalls[i].name;
}

enum callsite callsite_of_syscall(long nr, char *symbol, size_t len)
{
	int i = syscall_index(nr);

	if (i < 0) {
		snprintf(symbol, len, "syscall %ld", nr);
		return CALLSITE_OTHER;
	}
	snprintf(symbol, len, "sys_%s", syscalls[i].name);
	return syscalls[i].site;
}
