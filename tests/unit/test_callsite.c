// SPDX-License-Identifier: GPL-2.0
/* The call-site table against stacks as this kernel produces them. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "callsite.h"
#include "unit.h"
#include "util.h"

/* A fake symbol table: function i spans [0x1000 * (i + 1), +0x1000). */
static const char *const names[] = {
	"__bpf_trace_mmap_lock_acquire_returned", "__mmap_lock_do_trace_acquire_returned",
	"lock_mm_and_find_vma", "do_user_addr_fault", "exc_page_fault",
	"__vmf_anon_prepare", "do_anonymous_page", "dup_mmap", "copy_process",
	"vm_mmap_pgoff", "elf_load", "load_elf_binary", "bprm_execve",
	"__vm_munmap", "do_mprotect_pkey", "__do_sys_brk", "exit_mmap",
	"zap_something", "do_syscall_64", "mmap_read_lock_killable",
	"acct_collect", "do_exit", "queued_spin_lock_slowpath", "_raw_spin_lock",
	"rmqueue_bulk", "drain_pages_zone", "some_driver_fn", "free_pcppages_bulk",
	"__arm64_sys_mprotect", "__arm64_sys_brk", "invoke_syscall", "sys_brk_helper",
	"up_read", "m_stop", "seq_read_iter", "do_page_fault", "el0_da",
};

static struct ksyms fake(struct ksym *syms)
{
	struct ksyms k = { .syms = syms, .nr = ARRAY_SIZE(names) };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		syms[i].addr = 0x1000 * (i + 1);
		syms[i].name = (char *)names[i];
	}
	return k;
}

static uint64_t at(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(names[i], name))
			return 0x1000 * (i + 1) + 0x42;
	return 0;
}

static enum callsite classify(const struct ksyms *k, const char *const *frames,
			      char *sym)
{
	uint64_t ips[16] = { 0 }, addr;
	int n;

	for (n = 0; frames[n]; n++)
		ips[n] = at(frames[n]);
	return callsite_classify(k, ips, 16, sym, SNAPSHOT_SYMBOL_LEN, &addr);
}

#define STACK(...) ((const char *const[]){ __VA_ARGS__, NULL })

/* A contended lock's class from its caller: the first frame past the locking. */
static enum cont_class cont(const struct ksyms *k, const char *const *frames, char *caller)
{
	uint64_t ips[16] = { 0 }, addr;
	int n;

	for (n = 0; frames[n]; n++)
		ips[n] = at(frames[n]);
	return contention_classify(k, ips, 16, caller, SNAPSHOT_SYMBOL_LEN, &addr);
}

static void test_contention(const struct ksyms *k)
{
	char caller[SNAPSHOT_SYMBOL_LEN];

	CHECK(cont(k, STACK("queued_spin_lock_slowpath", "_raw_spin_lock", "rmqueue_bulk",
			    "do_syscall_64"), caller) == CONT_CLASS_ZONE &&
	      !strcmp(caller, "rmqueue_bulk"), "zone->lock taken by rmqueue_bulk: zone");
	CHECK(cont(k, STACK("_raw_spin_lock", "free_pcppages_bulk"), caller) == CONT_CLASS_ZONE,
	      "free_pcppages_bulk: zone");
	CHECK(cont(k, STACK("_raw_spin_lock", "drain_pages_zone"), caller) == CONT_CLASS_PCP,
	      "drain_pages_zone: pcp");
	CHECK(cont(k, STACK("_raw_spin_lock", "some_driver_fn", "rmqueue_bulk"), caller) ==
	      CONT_CLASS_OTHER && !strcmp(caller, "some_driver_fn"),
	      "only the caller decides: a driver's lock above rmqueue_bulk is other");
	CHECK(cont(k, STACK("queued_spin_lock_slowpath", "_raw_spin_lock"), caller) ==
	      CONT_CLASS_OTHER && !caller[0], "nothing past the locking: other, no caller");
}

/* /proc/kallsyms as the kernel writes it: text symbols kept, the rest not. */
static void test_kallsyms(void)
{
	static const char text[] =
		"ffffffff81000000 T _stext\n"
		"ffffffff81000010 t short_fn\n"
		"ffffffff82000000 D some_data\n"
		"ffffffff82000040 D page_offset_base\n"
		"ffffffff81000020 W weak_fn\n"
		"ffffffffc0001000 t mod_fn\t[some_module]\n"
		"garbage line\n"
		"\n"
		"ffffffff81000030 T\n"
		"ffffffff81ffffff T _etext\n";
	char path[] = "/tmp/mmtop-kallsyms-XXXXXX";
	int fd = mkstemp(path);
	struct ksyms k;

	CHECK(fd >= 0 && write(fd, text, sizeof(text) - 1) == sizeof(text) - 1,
	      "kallsyms fixture written");
	close(fd);
	CHECK(!ksyms_load(&k, path) && k.nr == 4, "4 text symbols of 10 lines (%d)", k.nr);
	CHECK(ksyms_addr(&k, "_stext") == 0xffffffff81000000ull &&
	      ksyms_addr(&k, "_etext") == 0xffffffff81ffffffull, "_stext and _etext found");
	CHECK(ksyms_name(&k, 0xffffffffc0001004ull) &&
	      !strcmp(ksyms_name(&k, 0xffffffffc0001004ull), "mod_fn"),
	      "a module's function is named without its module");
	CHECK(!ksyms_addr(&k, "some_data") && !ksyms_addr(&k, "weak_fn"),
	      "data and weak symbols left out");
	CHECK(ksyms_data(&k, "page_offset_base") == 0xffffffff82000040ull &&
	      !ksyms_data(&k, "memstart_addr") && !ksyms_data(&k, "some_data"),
	      "the data symbols kept (KSYMS_DATA) found; an unlisted one 0");
	CHECK(ksyms_end(&k, "short_fn") == 0xffffffff81ffffffull &&
	      !ksyms_end(&k, "mod_fn") && !ksyms_end(&k, "no_fn"),
	      "a function ends at the next text symbol (0: the last, or unknown)");
	ksyms_free(&k);
	unlink(path);
}

/*
 * A stack taken in BPF begins in the program, past the kernel's text and
 * past every symbol read: it would take the last symbol's name (el0_da
 * here), not be left out.
 */
static void test_program_frames(struct ksyms k)
{
	uint64_t ips[16] = { 0x1000 * (ARRAY_SIZE(names) + 8), at("lock_mm_and_find_vma"),
			     at("do_user_addr_fault"), at("exc_page_fault") }, addr;
	char sym[SNAPSHOT_SYMBOL_LEN];

	k.text_lo = 0x1000;
	k.text_hi = 0x1000 * (ARRAY_SIZE(names) + 1);
	CHECK(callsite_classify(&k, ips, 16, sym, sizeof(sym), &addr) == CALLSITE_FAULT &&
	      !strcmp(sym, "lock_mm_and_find_vma") && addr == ips[1],
	      "a BPF program's own frame, outside the text, is not the call site");
	ips[2] = ips[0];
	CHECK(callsite_classify(&k, ips, 16, sym, sizeof(sym), &addr) == CALLSITE_FAULT &&
	      !strcmp(sym, "lock_mm_and_find_vma"),
	      "only the frames before the text are left out");
}

int main(void)
{
	struct ksym syms[ARRAY_SIZE(names)];
	struct ksyms k = fake(syms);
	char sym[SNAPSHOT_SYMBOL_LEN];

	test_program_frames(k);
	CHECK(classify(&k, STACK("__bpf_trace_mmap_lock_acquire_returned",
				 "__mmap_lock_do_trace_acquire_returned",
				 "lock_mm_and_find_vma", "do_user_addr_fault",
				 "exc_page_fault"), sym) == CALLSITE_FAULT &&
	      !strcmp(sym, "lock_mm_and_find_vma"),
	      "lock_mm_and_find_vma <- exc_page_fault is a fault fallback, tracing frames skipped");
	CHECK(classify(&k, STACK("up_read", "do_user_addr_fault", "exc_page_fault"), sym) ==
	      CALLSITE_FAULT && !strcmp(sym, "do_user_addr_fault"),
	      "a fault's release (a holder named at contended_release): fault, x86");
	CHECK(classify(&k, STACK("up_read", "do_page_fault", "el0_da"), sym) == CALLSITE_FAULT &&
	      !strcmp(sym, "do_page_fault"), "a fault's release: fault, arm64");
	CHECK(classify(&k, STACK("up_read", "m_stop", "seq_read_iter"), sym) == CALLSITE_PROC &&
	      !strcmp(sym, "m_stop"), "a /proc/PID/smaps reader's release (m_stop): proc");
	CHECK(classify(&k, STACK("__mmap_lock_do_trace_acquire_returned",
				 "__vmf_anon_prepare", "do_anonymous_page"), sym) ==
	      CALLSITE_FAULT_ANON, "__vmf_anon_prepare is fault-anon");
	CHECK(classify(&k, STACK("dup_mmap", "copy_process"), sym) == CALLSITE_FORK,
	      "dup_mmap <- copy_process is fork");
	CHECK(classify(&k, STACK("vm_mmap_pgoff", "do_syscall_64"), sym) == CALLSITE_MMAP,
	      "vm_mmap_pgoff is mmap");
	CHECK(classify(&k, STACK("vm_mmap_pgoff", "elf_load", "load_elf_binary",
				 "bprm_execve"), sym) == CALLSITE_EXEC,
	      "exec's own mmap counts as exec");
	CHECK(classify(&k, STACK("__vm_munmap"), sym) == CALLSITE_MUNMAP, "__vm_munmap is munmap");
	CHECK(classify(&k, STACK("do_mprotect_pkey"), sym) == CALLSITE_MPROTECT, "mprotect");
	CHECK(classify(&k, STACK("__do_sys_brk"), sym) == CALLSITE_BRK, "brk");
	CHECK(classify(&k, STACK("__arm64_sys_mprotect", "invoke_syscall"), sym) ==
	      CALLSITE_MPROTECT, "mprotect inlined into its arm64 entry is mprotect");
	CHECK(classify(&k, STACK("__arm64_sys_brk", "invoke_syscall"), sym) == CALLSITE_BRK,
	      "brk inlined into its arm64 entry is brk");
	CHECK(classify(&k, STACK("sys_brk_helper"), sym) == CALLSITE_OTHER,
	      "a suffix pattern matches the name's end only");
	CHECK(classify(&k, STACK("exit_mmap"), sym) == CALLSITE_EXIT, "exit_mmap is exit");
	CHECK(classify(&k, STACK("acct_collect", "do_exit"), sym) == CALLSITE_EXIT,
	      "acct_collect <- do_exit is exit");
	CHECK(classify(&k, STACK("mmap_read_lock_killable", "zap_something",
				 "do_syscall_64"), sym) == CALLSITE_OTHER &&
	      !strcmp(sym, "zap_something"), "other shows the first meaningful symbol");
	CHECK(classify(&k, STACK("nonexistent"), sym) == CALLSITE_UNKNOWN,
	      "unresolvable stack is unknown");
	CHECK(ksyms_name(&k, at("do_exit") + 0x10) && !strcmp(ksyms_name(&k, at("do_exit")), "do_exit"),
	      "address inside a function resolves to it");
	CHECK(ksyms_name(&k, 0x10) == NULL, "address below every symbol resolves to nothing");
	test_contention(&k);
	test_kallsyms();
	UNIT_EXIT();
}
