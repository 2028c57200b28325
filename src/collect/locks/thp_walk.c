// SPDX-License-Identifier: GPL-2.0
/*
 * A fork parent's huge (PMD-mapped) memory, for the record's 4K/THP
 * backing, without taking its mmap_lock: the BPF program fork_thp_walk
 * reads its page tables through the direct map, run from here for each
 * fork record. The direct map's base is found once, at start, by
 * fork_direct_map_find (see bpf/locks.bpf.c).
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

/* x86_64, 4-level paging: where KASLR may put the direct map. */
#define DIRECT_MAP_LOWEST 0xffff888000000000ULL
#define DIRECT_MAP_END 0xfffffe0000000000ULL	/* the CPU entry area */
#define HUGE_PMD_KB 2048

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
	uint64_t *page;

	if (five_level_paging())
		return "n/a (5-level paging)";
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
	args[3] = DIRECT_MAP_LOWEST;
	args[4] = (DIRECT_MAP_END - DIRECT_MAP_LOWEST) >> 30;
	if (args[0])
		bpf_prog_test_run_opts(fd, &opts);
	munmap(page, sysconf(_SC_PAGESIZE));
	if (!args[0])
		return "n/a (page frames hidden from /proc/self/pagemap)";
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
