// SPDX-License-Identifier: GPL-2.0
/*
 * A fork parent's huge (PMD-mapped) memory, for the record's 4K/THP
 * backing, without taking its mmap_lock: the BPF program fork_thp_walk
 * reads its page tables through the direct map, run from here for each
 * fork record. The direct map's base and the tables' levels are found
 * once, at start, by fork_direct_map_find and fork_pt_levels_find (see
 * bpf/fork_backing.bpf.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "lock_source_impl.h"
#include "util.h"

#define HUGE_PMD_KB 2048
#define GIB (1ULL << 30)

/*
 * Where the direct map may start, for fork_direct_map_find to try in 1 GiB
 * steps (its base is 1 GiB aligned on both): ranges tried in order, the
 * kernel's own variable first where /proc/kallsyms lists data (Debian's
 * x86 kernels, arm64 from 7.x: CONFIG_KALLSYMS_ALL); or why this kernel's
 * page tables are not a layout fork_thp_walk knows (bpf/arch.h).
 */
struct direct_map_range {
	uint64_t first, count;
};

#define MAX_RANGES 3

/* Kernel variable @name's value, read by fork_kernel_peek; false if unlisted. */
static bool kernel_var(struct lock_source *ls, const char *name, uint64_t *value)
{
	uint64_t args[1] = { ksyms_data(&ls->ksyms, name) };
	LIBBPF_OPTS(bpf_test_run_opts, opts, .ctx_in = args, .ctx_size_in = sizeof(args));

	if (!args[0] || bpf_prog_test_run_opts(bpf_program__fd(ls->skel->progs.fork_kernel_peek),
					       &opts))
		return false;
	*value = ls->skel->bss->peeked;
	return true;
}

#if defined(__x86_64__)
/* 4-level paging: KASLR puts the direct map between these. */
#define DIRECT_MAP_LOWEST 0xffff888000000000ULL
#define DIRECT_MAP_END 0xfffffe0000000000ULL	/* the CPU entry area */

static bool five_level_paging(void)
{
	char line[4096];
	bool la57 = false;
	FILE *f = fopen("/proc/cpuinfo", "re");

	if (!f)
		return true;	/* cannot tell: do not guess */
	while (!la57 && fgets(line, sizeof(line), f))
		la57 = !strncmp(line, "flags", 5) && strstr(line, " la57");
	fclose(f);
	return la57;
}

/* With 5-level paging (la57) KASLR's range is too wide to search. */
static int direct_map_ranges(struct lock_source *ls, uint64_t phys,
			     struct direct_map_range *r, const char **why)
{
	uint64_t base;
	int n = 0;

	(void)phys;
	if (kernel_var(ls, "page_offset_base", &base))
		r[n++] = (struct direct_map_range){ base, 1 };
	if (!five_level_paging())
		r[n++] = (struct direct_map_range){
			DIRECT_MAP_LOWEST, (DIRECT_MAP_END - DIRECT_MAP_LOWEST) / GIB };
	if (!n)
		*why = "n/a (5-level paging, and /proc/kallsyms lists no page_offset_base)";
	return n;
}
#elif defined(__aarch64__)
/*
 * 4K pages: the linear map maps physical address p at p - memstart_addr +
 * PAGE_OFFSET, PAGE_OFFSET the start of the kernel's configured virtual
 * address size (52 bits with LPA2, else 48), memstart 1 GiB aligned and
 * moved down by KASLR. Without memstart_addr, 48 bits: [PAGE_OFFSET,
 * PAGE_END), the first base that puts the page in it the lowest to try.
 */
#define PAGE_OFFSET_52 0xfff0000000000000ULL
#define PAGE_OFFSET_48 0xffff000000000000ULL
#define PAGE_END_48 0xffff800000000000ULL

/* The user address space is 48 bits: no wider hint is honoured. */
static bool va_48_bits(void)
{
	void *hint = (void *)(1ULL << 50), *p;
	int local;
	bool wide;

	p = mmap(hint, sysconf(_SC_PAGESIZE), PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return false;
	wide = (uintptr_t)p >> 48;
	munmap(p, sysconf(_SC_PAGESIZE));
	return !wide && (uintptr_t)&local >> 47;
}

static int direct_map_ranges(struct lock_source *ls, uint64_t phys,
			     struct direct_map_range *r, const char **why)
{
	uint64_t memstart;
	int n = 0;

	if (sysconf(_SC_PAGESIZE) != 4096) {
		*why = "n/a (pages larger than 4K)";
		return 0;
	}
	/*
	 * 52 bits first: on a 48-bit kernel that base is below all it maps
	 * (the read faults, harmless); the other order would read, on a
	 * 52-bit kernel, where vmalloc and ioremap live.
	 */
	if (kernel_var(ls, "memstart_addr", &memstart)) {
		r[n++] = (struct direct_map_range){ PAGE_OFFSET_52 - memstart, 1 };
		r[n++] = (struct direct_map_range){ PAGE_OFFSET_48 - memstart, 1 };
	}
	if (va_48_bits())
		r[n++] = (struct direct_map_range){
			PAGE_OFFSET_48 - phys / GIB * GIB, (PAGE_END_48 - PAGE_OFFSET_48) / GIB };
	if (!n)
		*why = "n/a (virtual addresses wider than 48 bits, and /proc/kallsyms lists no memstart_addr)";
	return n;
}
#else
static int direct_map_ranges(struct lock_source *ls, uint64_t phys,
			     struct direct_map_range *r, const char **why)
{
	(void)ls, (void)phys, (void)r;
	*why = "n/a (the page-table walk knows x86_64 and arm64)";
	return 0;
}
#endif

/* The frame number of the page at @addr of this process; 0 if hidden. */
static uint64_t frame_of(void *addr)
{
	long page = sysconf(_SC_PAGESIZE);
	uint64_t e = 0;
	int fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	if (pread(fd, &e, sizeof(e), (uintptr_t)addr / page * sizeof(e)) != sizeof(e))
		e = 0;
	close(fd);
	/* Bit 63: present; bits 0-54: the frame (0 without CAP_SYS_ADMIN). */
	return e >> 63 ? e & ((1ULL << 55) - 1) : 0;
}

/* Try @r's bases for the page holding @mark at @frame. */
static bool try_bases(struct lock_source *ls, uint64_t frame, const uint64_t *mark,
		      const struct direct_map_range *r)
{
	uint64_t args[5] = { frame, mark[0], mark[1], r->first, r->count };
	LIBBPF_OPTS(bpf_test_run_opts, opts, .ctx_in = args, .ctx_size_in = sizeof(args));

	bpf_prog_test_run_opts(bpf_program__fd(ls->skel->progs.fork_direct_map_find), &opts);
	return ls->skel->bss->direct_map;
}

/* How many levels walk @page (at @frame) through the kernel's page tables. */
static uint32_t find_levels(struct lock_source *ls, void *page, uint64_t frame)
{
	uint64_t args[2] = { (uintptr_t)page, frame };
	LIBBPF_OPTS(bpf_test_run_opts, opts, .ctx_in = args, .ctx_size_in = sizeof(args));

	if (bpf_prog_test_run_opts(bpf_program__fd(ls->skel->progs.fork_pt_levels_find), &opts))
		return 0;
	return ls->skel->bss->pt_levels;
}

/*
 * The direct map, then the page tables' levels, each checked against a
 * page of mmtop's own: a random mark found through the direct map at the
 * page's frame, and that frame reached from the page's address.
 */
static const char *find_page_tables(struct lock_source *ls)
{
	struct direct_map_range r[MAX_RANGES];
	const char *why = NULL;
	uint64_t mark[2], frame, *page;
	uint32_t levels = 0;
	int i, n = 0;

	page = mmap(NULL, sysconf(_SC_PAGESIZE), PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (page == MAP_FAILED)
		return "n/a (out of memory)";
	/*
	 * Never waiting for the kernel's random pool: soon after boot it is
	 * not ready, and the wait was 2.2 s of a start in a fresh guest. The
	 * clock's mark is as unlikely to lie anywhere else.
	 */
	if (getrandom(mark, sizeof(mark), GRND_NONBLOCK) != sizeof(mark))
		mark[0] = clock_ns(CLOCK_MONOTONIC), mark[1] = ~mark[0] ^ getpid();
	memcpy(page, mark, sizeof(mark));
	frame = frame_of(page);
	if (!frame)
		why = "n/a (page frames hidden from /proc/self/pagemap)";
	else
		n = direct_map_ranges(ls, frame * sysconf(_SC_PAGESIZE), r, &why);
	for (i = 0; i < n && !try_bases(ls, frame, mark, &r[i]); i++)
		;
	if (n && !ls->skel->bss->direct_map)
		why = "n/a (direct map not found)";
	else if (n)
		levels = find_levels(ls, page, frame);
	munmap(page, sysconf(_SC_PAGESIZE));
	if (why)
		return why;
	if (!levels) {
		ls->skel->bss->direct_map = 0;	/* no walk */
		return "n/a (page tables of neither 4 nor 5 levels)";
	}
	snprintf(ls->thp_how, sizeof(ls->thp_how), "page tables (PMD-mapped; %u levels)", levels);
	return ls->thp_how;
}

void thp_walk_init(struct lock_source *ls)
{
	ls->thp_method = find_page_tables(ls);
}

static int64_t walk(struct lock_source *ls, uint64_t mm, uint32_t mm_ident)
{
	int fd = bpf_program__fd(ls->skel->progs.fork_thp_walk);
	uint64_t args[2] = { mm, mm_ident };
	LIBBPF_OPTS(bpf_test_run_opts, opts, .ctx_in = args, .ctx_size_in = sizeof(args));
	const struct thp_walk_result *r = &ls->skel->bss->thp_walk;

	if (bpf_prog_test_run_opts(fd, &opts) || r->huge_pmds < 0 || r->truncated)
		return -1;
	return r->huge_pmds * HUGE_PMD_KB;
}

#define WALKS_PER_SEC 100

/* A walk serves the parent's forks within FORK_WALK_REUSE_NS of it, either way. */
static bool reusable(uint64_t walk_ns, uint64_t fork_ns)
{
	return (walk_ns > fork_ns ? walk_ns - fork_ns : fork_ns - walk_ns) < FORK_WALK_REUSE_NS;
}

int64_t thp_walk_kb(struct lock_source *ls, uint64_t mm, uint32_t mm_ident, uint64_t fork_ns)
{
	struct thp_walks *w = &ls->walks;
	uint64_t now = clock_ns(CLOCK_MONOTONIC);
	__typeof__(w->cache[0]) *c = &w->cache[(mm_ident ^ (mm >> 6)) % WALK_CACHE];

	if (!ls->skel->bss->direct_map)
		return -1;
	/*
	 * By the fork's time, not the read's: BPF wakes the reader only for
	 * a parent's first fork in a second, and the rest are read with the
	 * interval, maybe after the parent has gone.
	 */
	if (c->mm == mm && c->mm_ident == mm_ident && reusable(c->when_ns, fork_ns))
		return c->kb;
	if (now - w->window_ns >= NSEC_PER_SEC) {
		w->window_ns = now;
		w->in_window = 0;
	}
	/* Over budget: the backing shows as unknown. */
	if (w->in_window++ >= WALKS_PER_SEC)
		return -1;
	c->mm = mm;
	c->mm_ident = mm_ident;
	c->when_ns = now;
	c->kb = walk(ls, mm, mm_ident);
	return c->kb;
}
