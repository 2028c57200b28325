// SPDX-License-Identifier: GPL-2.0
/*
 * A fork parent's huge (PMD-mapped) memory, for the record's 4K/THP
 * backing, without taking its mmap_lock: the BPF program fork_thp_walk
 * reads its page tables through the direct map, run from here for each
 * fork record. The direct map's base is found once, at start, by
 * fork_direct_map_find (see bpf/fork_backing.bpf.h).
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
 * steps (its base is 1 GiB aligned on both): NULL, or why this kernel's
 * page tables are not the layout fork_thp_walk knows (bpf/arch.h).
 */
struct direct_map_range {
	uint64_t first, count;
};

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

static const char *direct_map_range(uint64_t phys, struct direct_map_range *r)
{
	(void)phys;
	if (five_level_paging())
		return "n/a (5-level paging)";
	r->first = DIRECT_MAP_LOWEST;
	r->count = (DIRECT_MAP_END - DIRECT_MAP_LOWEST) / GIB;
	return NULL;
}
#elif defined(__aarch64__)
/*
 * 4K pages, 48-bit virtual addresses (4 levels): the linear map spans
 * [PAGE_OFFSET, PAGE_END) and maps physical address p at p - memstart +
 * PAGE_OFFSET, memstart 1 GiB aligned and moved down by KASLR. The first
 * base that puts @phys in the span is the lowest to try.
 */
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

static const char *direct_map_range(uint64_t phys, struct direct_map_range *r)
{
	if (sysconf(_SC_PAGESIZE) != 4096)
		return "n/a (pages larger than 4K)";
	if (!va_48_bits())
		return "n/a (virtual addresses not 48 bits)";
	r->first = PAGE_OFFSET_48 - phys / GIB * GIB;
	r->count = (PAGE_END_48 - PAGE_OFFSET_48) / GIB;
	return NULL;
}
#else
static const char *direct_map_range(uint64_t phys, struct direct_map_range *r)
{
	(void)phys, (void)r;
	return "n/a (the page-table walk knows x86_64 and arm64)";
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

static const char *find_direct_map(struct lock_source *ls)
{
	int fd = bpf_program__fd(ls->skel->progs.fork_direct_map_find);
	uint64_t mark[2], args[5];
	LIBBPF_OPTS(bpf_test_run_opts, opts, .ctx_in = args, .ctx_size_in = sizeof(args));
	struct direct_map_range r = { 0, 0 };
	const char *why;
	uint64_t *page;

	page = mmap(NULL, sysconf(_SC_PAGESIZE), PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (page == MAP_FAILED)
		return "n/a (out of memory)";
	if (getrandom(mark, sizeof(mark), 0) != sizeof(mark))
		mark[0] = clock_ns(CLOCK_MONOTONIC), mark[1] = ~mark[0] ^ getpid();
	memcpy(page, mark, sizeof(mark));
	args[0] = frame_of(page);
	args[1] = mark[0];
	args[2] = mark[1];
	why = args[0] ? direct_map_range(args[0] * sysconf(_SC_PAGESIZE), &r) :
			"n/a (page frames hidden from /proc/self/pagemap)";
	args[3] = r.first;
	args[4] = r.count;
	if (!why)
		bpf_prog_test_run_opts(fd, &opts);
	munmap(page, sysconf(_SC_PAGESIZE));
	if (why)
		return why;
	return ls->skel->bss->direct_map ? "page tables (PMD-mapped)" :
	       "n/a (direct map not found)";
}

void thp_walk_init(struct lock_source *ls)
{
	ls->thp_method = find_direct_map(ls);
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
