// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>

#include "kernel_features.h"
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
	{ "kmem", "mm_page_alloc_zone_locked", "Linux 2.6.33+" },
	{ "kmem", "mm_page_pcpu_drain", "Linux 2.6.33+" },
	{ "sched", "sched_process_fork", "Linux 2.6.28+" },
	{ "sched", "sched_process_exit", "Linux 2.6.28+" },
};
const size_t nr_kernel_tps = ARRAY_SIZE(kernel_tps);

/*
 * MMTOP_TEST_LACKS: tracepoints taken as missing, for tests of what an
 * older kernel gives (5.11-5.18: contention_begin,contention_end).
 */
static bool test_lacks(const char *name)
{
	return env_list_has("MMTOP_TEST_LACKS", name);
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

/* Whether BPF helper @id ("BPF_FUNC_loop") is in @btf's enum bpf_func_id. */
static bool has_helper(const struct btf *btf, const char *id)
{
	int t = btf ? btf__find_by_name_kind(btf, "bpf_func_id", BTF_KIND_ENUM) : -1;
	const struct btf_type *e = t > 0 ? btf__type_by_id(btf, t) : NULL;
	int i;

	for (i = 0; e && i < btf_vlen(e); i++)
		if (!strcmp(btf__name_by_offset(btf, btf_enum(e)[i].name_off), id))
			return true;
	return false;
}

static bool has_bpf_allocator(const struct btf *btf)
{
	return btf && btf__find_by_name_kind(btf, "bpf_mem_alloc", BTF_KIND_STRUCT) > 0;
}

_Static_assert(ARRAY_SIZE(kernel_tps) <= KERNEL_TPS_MAX, "KERNEL_TPS_MAX: room for kernel_tps");

/* Which VMA lock struct vm_area_struct has: vm_refcnt, vm_lock or none. */
static enum vma_lock vma_lock_of(const struct btf *btf)
{
	enum vma_lock kind = VMA_LOCK_NONE;
	const struct btf_type *t;
	int id, i;

	if (!btf)
		return VMA_LOCK_UNKNOWN;
	id = btf__find_by_name_kind(btf, "vm_area_struct", BTF_KIND_STRUCT);
	t = id > 0 ? btf__type_by_id(btf, id) : NULL;
	for (i = 0; t && i < btf_vlen(t); i++) {
		const char *name = btf__name_by_offset(btf, btf_members(t)[i].name_off);

		if (!strcmp(name, "vm_refcnt"))
			kind = VMA_LOCK_REFCNT;
		else if (!strcmp(name, "vm_lock"))
			kind = VMA_LOCK_RWSEM;
	}
	return kind;
}

static int shift_for(long long n)
{
	int s = 0;

	while ((1LL << s) < n)
		s++;
	return s;
}

/* NODES_SHIFT and ZONES_SHIFT, the node's and zone's bits in page->flags. */
static void page_flags_of(const struct btf *btf, struct kernel_has *k)
{
	int id = btf ? btf__find_by_name_kind(btf, "nodemask_t", BTF_KIND_TYPEDEF) : -1;
	const struct btf_type *t;
	int i;

	/* A nodemask has MAX_NUMNODES bits, rounded up to longs. */
	k->nodes_shift = id > 0 ? shift_for(btf__resolve_size(btf, id) * 8) : -1;
	id = btf ? btf__find_by_name_kind(btf, "zone_type", BTF_KIND_ENUM) : -1;
	t = id > 0 ? btf__type_by_id(btf, id) : NULL;
	for (i = 0; t && i < btf_vlen(t); i++)
		if (!strcmp(btf__name_by_offset(btf, btf_enum(t)[i].name_off), "__MAX_NR_ZONES"))
			k->zones_shift = shift_for(btf_enum(t)[i].val);
}

/*
 * The kprobe PMU, through which libbpf makes a BPF program's kprobe (the
 * legacy tracefs way is for kernels before 4.17). Only looked for, no
 * kprobe made: one that fails to attach all the same is refused as the
 * fork programs open (lock_source.c), and forks go untimed with its reason.
 */
static bool has_kprobes(void)
{
	return !access("/sys/bus/event_source/devices/kprobe/type", R_OK);
}

/*
 * How forks are timed from kernel_clone(): an fentry program there where
 * the kernel loads one (some refuse fentry: EPERM), else a kprobe, else
 * not at all. Into k->clone_how, where a fork's latency starts, or why it
 * is exact mode's alone.
 *
 * Loaded, never attached: a probe's attach and detach on kernel_clone
 * took 380 ms of a start in a 2-CPU 6.12 guest (TCG), 580 at 64 CPUs.
 * A kernel that loads fentry but will not attach it (Debian's 6.1
 * arm64, ENOTSUPP: no trampoline) is found at the real attach, where
 * the kprobe takes over (lock_source.c), so k->kprobes is kept.
 */
static void clone_hook_of(const struct btf *btf, struct kernel_has *k)
{
	int id = btf ? btf__find_by_name_kind(btf, "kernel_clone", BTF_KIND_FUNC) : -ENOENT;
	int fd = id > 0 ? prog_probe_load(BPF_PROG_TYPE_TRACING, BPF_TRACE_FENTRY, id) : id;
	const char *stage = id > 0 ? "load" : "BTF";

	k->kprobes = id > 0 && has_kprobes();
	if (fd >= 0) {
		close(fd);
		k->clone_hook = CLONE_FENTRY;
		snprintf(k->clone_how, sizeof(k->clone_how), "forks timed from kernel_clone (fentry)");
		return;
	}
	if (k->kprobes) {
		k->clone_hook = CLONE_KPROBE;
		snprintf(k->clone_how, sizeof(k->clone_how),
			 "forks timed from kernel_clone (kprobe; fentry, %s: %s)", stage,
			 errno_text(-fd));
		return;
	}
	snprintf(k->clone_how, sizeof(k->clone_how),
		 FORKS_EXACT_ONLY " (fentry on kernel_clone, %s: %s%s)",
		 stage, errno_text(-fd), id > 0 ? "; no kprobes" : "");
}

void kernel_has_read(struct kernel_has *k, const struct btf *btf, bool forks)
{
	size_t i;

	memset(k, 0, sizeof(*k));
	k->btf = btf;
	for (i = 0; i < nr_kernel_tps; i++)
		k->tp_nargs[i] = btf ? kernel_tp_nargs(btf, kernel_tps[i].name, NULL) : -1;
	k->vma_lock = vma_lock_of(btf);
	/* (mm, memcg_path, write) before 6.14, (mm, write) since */
	k->mmap_lock_memcg_path = kernel_has_tp(k, "mmap_lock_start_locking") == 3;
	/* (page, order, migratetype[, percpu_refill]): the flag came in 5.13. */
	k->pcp_refill_arg = kernel_has_tp(k, "mm_page_alloc_zone_locked") >= 4;
	page_flags_of(btf, k);
	k->bpf_loop = has_helper(btf, "BPF_FUNC_loop");
	k->bpf_allocator = has_bpf_allocator(btf);
	k->task_list_walk = btf && btf__find_by_name_kind(btf, "bpf_iter_task_new", BTF_KIND_FUNC) > 0;
	/* A program to load, so only where forks are to be timed. */
	if (forks)
		clone_hook_of(btf, k);
	else
		snprintf(k->clone_how, sizeof(k->clone_how), "fork family off");
}

int kernel_has_tp(const struct kernel_has *k, const char *name)
{
	size_t i;

	for (i = 0; i < nr_kernel_tps; i++)
		if (!strcmp(kernel_tps[i].name, name))
			return k->tp_nargs[i];
	/* Every tracepoint a program attaches to is in kernel_tps (probe.sh checks). */
	return -1;
}

static const char *yes(bool b)
{
	return b ? "yes" : "no";
}

/* The VMA lock's token (kernel_features.h). */
static const char *vma_lock_token(const struct kernel_has *k)
{
	static const char *const tokens[] = {
		[VMA_LOCK_UNKNOWN] = "unknown",
		[VMA_LOCK_NONE] = "none",
		[VMA_LOCK_RWSEM] = "rwsem",
		[VMA_LOCK_REFCNT] = "refcnt",
	};

	return tokens[k->vma_lock];
}

void kernel_has_features(const struct kernel_has *k, bool forks, char *buf, size_t len)
{
	static const char *const hooks[] = {
		[CLONE_NONE] = "none", [CLONE_FENTRY] = "fentry", [CLONE_KPROBE] = "kprobe",
	};
	char lacking[512] = "";
	const char *tokens[KFEAT__COUNT];
	size_t i, n = 0;

	for (i = 0; i < nr_kernel_tps && n < sizeof(lacking); i++)
		if (k->tp_nargs[i] < 0)
			n += snprintf(lacking + n, sizeof(lacking) - n, "%s%s", n ? "," : "",
				      kernel_tps[i].name);
	tokens[KFEAT_VMA_LOCK] = vma_lock_token(k);
	tokens[KFEAT_CONTENDED_RELEASE] = kernel_has_tp(k, "contended_release") >= 0 ? "yes" : "no";
	tokens[KFEAT_FORK_HOOK] = forks ? hooks[k->clone_hook] : "off";
	tokens[KFEAT_LACKING] = lacking;
	kernel_features_put(tokens, buf, len);
}

void kernel_has_print(FILE *f, const struct kernel_has *k)
{
	fprintf(f, "kernel: VMA lock %s\n", kernel_feature_words(KFEAT_VMA_LOCK, vma_lock_token(k)));
	fprintf(f, "kernel: mmap_lock events carry memcg_path %s\n",
		yes(k->mmap_lock_memcg_path));
	fprintf(f, "kernel: mm_page_alloc_zone_locked says if a PCP refill %s\n",
		yes(k->pcp_refill_arg));
	if (k->nodes_shift < 0)
		fprintf(f, "kernel: page->flags node and zone bits unknown (nodemask_t not in BTF)\n");
	else
		fprintf(f, "kernel: page->flags node bits %d, zone bits %d\n", k->nodes_shift,
			k->zones_shift);
	fprintf(f, "kernel: helper bpf_loop %s, BPF's own allocator %s, open-coded task iterator %s\n",
		yes(k->bpf_loop), yes(k->bpf_allocator), yes(k->task_list_walk));
	/* Loaded, not attached: the fork family's line says how forks are timed. */
	if (k->clone_hook == CLONE_FENTRY)
		fprintf(f, "kernel: kernel_clone takes an fentry program (loaded; a kprobe there "
			"if it will not attach: kprobes %s)\n", yes(k->kprobes));
	else
		fprintf(f, "kernel: %s\n", k->clone_how);
}
