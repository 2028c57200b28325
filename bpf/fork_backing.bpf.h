/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fork family's backing: a parent's PMD-mapped memory, from a walk of
 * its page tables that user space runs after each fork record.
 */
#ifndef MMTOP_BPF_FORK_BACKING_H
#define MMTOP_BPF_FORK_BACKING_H

/*
 * The parent's PMD-mapped (huge) memory, for a fork record's 4K/THP
 * backing, read without its mmap_lock and outside its fork: user space
 * runs this program (BPF_PROG_TEST_RUN) for each fork record it drains,
 * in its own context, with the mm and its identity (mm_ident()) from the
 * record. The walk reads the user part of the page tables down to the
 * PMDs (4 or 5 levels, bpf/arch.h): PMDs that map a block are huge
 * mappings. Page tables are reached through the direct map, whose base
 * user space found at start (fork_direct_map_find below) and wrote in
 * direct_map; the levels, found then too (fork_pt_levels_find), in
 * pt_levels.
 * Tables freed meanwhile read as garbage, never fault:
 * bpf_probe_read_kernel. The result lands in thp_walk.
 */
__u64 direct_map;	/* page_offset_base, once found; 0: unknown */
__u32 pt_levels;	/* 4 or 5, once found */

#define PT_ENTRIES 512
#define MAX_PMD_TABLES 4096		/* 4 TiB of address space */

struct pt_page {
	__u64 e[PT_ENTRIES];
};

/*
 * Not per CPU: the walks run one at a time, from user space's fork reader
 * (BPF_PROG_TEST_RUN), as thp_walk's result already assumes.
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 3);		/* a P4D table, a PUD table, a PMD table */
	__type(key, __u32);
	__type(value, struct pt_page);
} pt_scratch SEC(".maps");

struct thp_walk_result thp_walk;

/*
 * The walk's counters live in a map value, not on the stack: the verifier
 * tracks stack scalars exactly and would walk every count of the loops.
 */
struct walk_state {
	__u64 pgd;
	__s64 huge;
	__u32 tables;
	__u32 truncated;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct walk_state);
} walk_states SEC(".maps");

struct walk_ctx {
	struct pt_page *p4d, *pud, *pmd;
	struct walk_state *st;
};

/* The page-table page an entry points to, read whole into @into. */
static __always_inline bool read_table(__u64 entry, struct pt_page *into)
{
	return !bpf_probe_read_kernel(into, sizeof(*into),
				      (void *)(direct_map + PT_ADDR(entry)));
}

static long count_huge(__u32 i, void *data)
{
	struct walk_ctx *w = data;
	__u64 e;

	if (i >= PT_ENTRIES)
		return 1;
	e = w->pmd->e[i];
	if (PT_BLOCK(e))
		w->st->huge++;
	return 0;
}

static long walk_pud(__u32 i, void *data)
{
	struct walk_ctx *w = data;
	__u64 e;

	if (i >= PT_ENTRIES)
		return 1;
	e = w->pud->e[i];
	/* Not present, or a 1 GiB page (hugetlb, DAX): no PMD table. */
	if (!PT_TABLE(e))
		return 0;
	if (++w->st->tables > MAX_PMD_TABLES) {
		w->st->truncated = 1;
		return 1;
	}
	if (read_table(e, w->pmd))
		bpf_loop(PT_ENTRIES, count_huge, w, 0);
	return 0;
}

/* An entry of the level above the PUDs: a PGD's in 4 levels, a P4D's in 5. */
static __always_inline void walk_above_pud(__u64 e, struct walk_ctx *w)
{
	if (PT_TABLE(e) && read_table(e, w->pud))
		bpf_loop(PT_ENTRIES, walk_pud, w, 0);
}

static long walk_p4d(__u32 i, void *data)
{
	struct walk_ctx *w = data;

	if (i >= PT_ENTRIES)
		return 1;
	walk_above_pud(w->p4d->e[i], w);
	return w->st->truncated ? 1 : 0;
}

static long walk_pgd(__u32 i, void *data)
{
	struct walk_ctx *w = data;
	__u64 e = 0;

	bpf_probe_read_kernel(&e, sizeof(e), (void *)(w->st->pgd + i * sizeof(e)));
	if (pt_levels != 5)
		walk_above_pud(e, w);
	else if (PT_TABLE(e) && read_table(e, w->p4d))
		bpf_loop(PT_ENTRIES, walk_p4d, w, 0);
	return w->st->truncated ? 1 : 0;
}

/*
 * @mm is still the parent's, with its page tables: the same identity (its
 * memory was not reused), and users left (exit_mmap() frees the tables
 * once the last is gone: a walk then reads freed pages as "no huge PMD").
 */
static __always_inline bool mm_live(struct mm_struct *mm, __u32 ident)
{
	return mm_ident(mm) == ident &&
	       BPF_CORE_READ(mm, mm_users.counter) > 0;
}

/* ctx: the mm and its identity, as the fork record carried them. */
SEC("raw_tp")
int fork_thp_walk(__u64 *ctx)
{
	struct mm_struct *mm = (struct mm_struct *)ctx[0];
	__u32 zero = 0, one = 1, two = 2;
	struct walk_ctx w;

	thp_walk.huge_pmds = -1;
	w.p4d = bpf_map_lookup_elem(&pt_scratch, &zero);
	w.pud = bpf_map_lookup_elem(&pt_scratch, &one);
	w.pmd = bpf_map_lookup_elem(&pt_scratch, &two);
	w.st = bpf_map_lookup_elem(&walk_states, &zero);
	if (!direct_map || !pt_levels || !w.p4d || !w.pud || !w.pmd || !w.st)
		return 0;
	if (!mm_live(mm, ctx[1]))
		return 0;
	w.st->pgd = (__u64)BPF_CORE_READ(mm, pgd);
	w.st->huge = 0;
	w.st->tables = 0;
	w.st->truncated = 0;
	if (!w.st->pgd)
		return 0;
	bpf_loop(USER_TOP_ENTRIES(pt_levels), walk_pgd, &w, 0);
	/* Torn down meanwhile: what was read may be freed pages. */
	if (!mm_live(mm, ctx[1]))
		return 0;
	thp_walk.huge_pmds = w.st->huge;
	thp_walk.pmd_tables = w.st->tables;
	thp_walk.truncated = w.st->truncated;
	return 0;
}

/*
 * The direct map's base, found once at start: data symbols such as
 * page_offset_base are not in /proc/kallsyms, so user space writes a random
 * 16-byte mark into a page of its own, looks up its frame number in
 * /proc/self/pagemap, and this program tries the bases KASLR can choose
 * (1 GiB steps) in increasing order until the mark shows at base + frame *
 * page size. Lower candidates land below the direct map, where nothing is
 * mapped: no read ever reaches the vmalloc or ioremap areas above it.
 * ctx: frame, mark[2], first candidate, candidates to try.
 */
struct find_ctx {
	__u64 offset, mark0, mark1, base;
};

static long try_base(__u32 i, void *data)
{
	struct find_ctx *f = data;
	__u64 at = f->base + (__u64)i * (1ULL << 30) + f->offset, v[2] = {};

	if (bpf_probe_read_kernel(v, sizeof(v), (void *)at) ||
	    v[0] != f->mark0 || v[1] != f->mark1)
		return 0;
	direct_map = f->base + (__u64)i * (1ULL << 30);
	return 1;
}

SEC("raw_tp")
int fork_direct_map_find(__u64 *ctx)
{
	struct find_ctx f = {
		.offset = ctx[0] << 12, .mark0 = ctx[1], .mark1 = ctx[2],
		.base = ctx[3],
	};

	direct_map = 0;
	bpf_loop(ctx[4], try_base, &f, 0);
	return 0;
}

/*
 * How many levels the kernel's page tables have, found once the direct
 * map is: the count (4 or 5) that walks user space's own page at @ctx[0]
 * (its address in this task, mmtop's own) to its frame @ctx[1]; the other
 * count reads other entries, and a table an entry does not point to ends
 * it. 0 if neither does.
 */
static __always_inline __u64 frame_at(__u64 addr, int levels)
{
	struct task_struct *task = (struct task_struct *)bpf_get_current_task();
	__u64 table = (__u64)BPF_CORE_READ(task, mm, pgd), e = 0;
	int l;

#pragma unroll
	for (l = 4; l >= 0; l--) {
		if (l >= levels)
			continue;
		e = 0;
		if (bpf_probe_read_kernel(&e, sizeof(e),
					  (void *)(table + ((addr >> (12 + 9 * l)) & (PT_ENTRIES - 1)) *
						   sizeof(e))))
			return 0;
		if (!l)
			break;
		if (!PT_TABLE(e))
			return 0;
		table = direct_map + PT_ADDR(e);
	}
	return PT_PAGE(e) ? PT_ADDR(e) >> 12 : 0;
}

SEC("raw_tp")
int fork_pt_levels_find(__u64 *ctx)
{
	pt_levels = 0;
	if (!direct_map)
		return 0;
	if (frame_at(ctx[0], 4) == ctx[1])
		pt_levels = 4;
	else if (frame_at(ctx[0], 5) == ctx[1])
		pt_levels = 5;
	return 0;
}

/*
 * A kernel variable's value (ctx: its address, from /proc/kallsyms where
 * the kernel lists data: page_offset_base, memstart_addr), into peeked.
 */
__u64 peeked;

SEC("raw_tp")
int fork_kernel_peek(__u64 *ctx)
{
	peeked = 0;
	bpf_probe_read_kernel(&peeked, sizeof(peeked), (void *)ctx[0]);
	return 0;
}

#endif
