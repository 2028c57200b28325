// SPDX-License-Identifier: GPL-2.0
/*
 * A fork parent's memory in one of three backings, checked after it is
 * populated: AnonHugePages (smaps) counts what PMDs map; /proc/kpageflags,
 * reached through /proc/self/pagemap, tells pages of a THP folio from
 * order-0 pages whatever maps them.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include "bench.h"
#include "fork_backing.h"
#include "proc.h"
#include "util.h"

#define KPF_THP 22		/* include/uapi/linux/kernel-page-flags.h */
#define PM_PRESENT (1ULL << 63)
#define PM_PFN_MASK ((1ULL << 55) - 1)

/*
 * What a run must get of the backing it asked for. Not all: a THP the
 * kernel could not compact falls back to 4K pages, and the run says how
 * much did; under this it is not a run of that backing.
 */
#define BACKING_MIN_SHARE 0.9

/* Each backing's word (--backing), its recording's metric and its parent's name. */
static const struct {
	const char *name, *metric, *comm;
} backings[BACKINGS] = {
	[BACKING_4K] = { "4k", "fork-4k-us", "fork-4k" },
	[BACKING_THP_PTE] = { "thp-pte", "fork-thp-pte-us", "fork-thp-pte" },
	[BACKING_THP] = { "thp", "fork-thp-us", "fork-thp" },
};

const char *backing_name(enum fork_backing b)
{
	return backings[b].name;
}

const char *backing_metric(enum fork_backing b)
{
	return backings[b].metric;
}

const char *backing_comm(enum fork_backing b)
{
	return backings[b].comm;
}

enum fork_backing backing_of_comm(const char *comm)
{
	int b;

	for (b = 0; b < BACKINGS && strcmp(comm, backings[b].comm); b++)
		;
	return b;
}

int backing_parse(const char *arg, void *b)
{
	int i;

	for (i = 0; i < BACKINGS; i++)
		if (!strcmp(arg, backings[i].name)) {
			*(enum fork_backing *)b = i;
			return 0;
		}
	return -1;
}

size_t thp_pmd_size(void)
{
	char buf[32];
	unsigned long long v;

	if (read_small_file("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size",
			    buf, sizeof(buf)) || sscanf(buf, "%llu", &v) != 1 || !v)
		return 2 << 20;
	return v;
}

/* @len bytes' pages' frames into @pfn (0: not present or hidden); -1 if unreadable. */
static int read_frames(const char *p, size_t pages, long page, uint64_t *pfn)
{
	int fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	size_t i;
	ssize_t n;

	if (fd < 0)
		return -1;
	n = pread(fd, pfn, pages * sizeof(*pfn), (uintptr_t)p / page * sizeof(*pfn));
	close(fd);
	if (n != (ssize_t)(pages * sizeof(*pfn)))
		return -1;
	for (i = 0; i < pages; i++)
		pfn[i] = pfn[i] & PM_PRESENT ? pfn[i] & PM_PFN_MASK : 0;
	return 0;
}

/*
 * Pages of @pfn[0..pages) in a THP folio, a run of consecutive frames
 * read at once; -1 where it cannot be told (frames hidden from a process
 * without CAP_SYS_ADMIN, no kpageflags).
 */
static long count_thp_pages(const uint64_t *pfn, size_t pages)
{
	uint64_t flags[512];
	size_t i = 0, run, k;
	long thp = 0;
	int fd = open("/proc/kpageflags", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	while (i < pages && thp >= 0) {
		if (!pfn[i]) {
			thp = -1;
			break;
		}
		for (run = 1; i + run < pages && run < 512 && pfn[i + run] == pfn[i] + run; run++)
			;
		if (pread(fd, flags, run * sizeof(*flags), pfn[i] * sizeof(*flags)) !=
		    (ssize_t)(run * sizeof(*flags)))
			thp = -1;
		for (k = 0; k < run && thp >= 0; k++)
			thp += flags[k] >> KPF_THP & 1;
		i += run;
	}
	close(fd);
	return thp;
}

/* kB of @p's @size in THP folios, however mapped; -1 if it cannot be told. */
static int64_t thp_folio_kb(const char *p, size_t size)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t pages = size / page;
	uint64_t *pfn = malloc(pages * sizeof(*pfn));
	long thp = -1;

	if (pfn && !read_frames(p, pages, page, pfn))
		thp = count_thp_pages(pfn, pages);
	free(pfn);
	return thp < 0 ? -1 : (int64_t)thp * (page / 1024);
}

/*
 * Split each PMD mapping into PTEs, the folio kept whole: an mprotect of
 * one page splits the PMD (split_huge_pmd), the second puts the page's
 * protection back and the VMAs merge again. MADV_NOHUGEPAGE then keeps
 * khugepaged from collapsing them into PMD mappings again.
 */
static void map_by_ptes(char *p, size_t size)
{
	size_t huge = thp_pmd_size(), off;
	long page = sysconf(_SC_PAGESIZE);

	for (off = 0; off < size; off += huge) {
		mprotect(p + off, page, PROT_READ);
		mprotect(p + off, page, PROT_READ | PROT_WRITE);
	}
	madvise(p, size, MADV_NOHUGEPAGE);
}

/* @size bytes on a THP boundary, or NULL. */
static char *map_aligned(size_t size)
{
	size_t huge = thp_pmd_size();
	char *p = mmap(NULL, size + huge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);
	char *base;

	if (p == MAP_FAILED)
		return NULL;
	base = (char *)(((uintptr_t)p + huge - 1) & ~(uintptr_t)(huge - 1));
	if (base > p)
		munmap(p, base - p);
	munmap(base + size, p + huge - base);
	return base;
}

/* The word in brackets of THP's "enabled" (always, madvise, never). */
static const char *thp_enabled_word(void)
{
	static char buf[128];
	char *open, *close;

	if (read_small_file("/sys/kernel/mm/transparent_hugepage/enabled", buf, sizeof(buf)) ||
	    !(open = strchr(buf, '[')) || !(close = strchr(open, ']')))
		return "not configured";
	*close = '\0';
	return open + 1;
}

/*
 * Why @b was not got (NULL: it was), of @size: @pmd_kb PMD-mapped,
 * @folio_kb in THP folios.
 */
static const char *backing_missed(enum fork_backing b, size_t size, int64_t pmd_kb,
				  int64_t folio_kb)
{
	double want = BACKING_MIN_SHARE * (size >> 10);

	switch (b) {
	case BACKING_4K:
		return pmd_kb > 0 || folio_kb > 0 ? "THP pages despite MADV_NOHUGEPAGE" : NULL;
	case BACKING_THP_PTE:
		if (folio_kb < 0)
			return "THP folios cannot be told from 4K pages without CAP_SYS_ADMIN and /proc/kpageflags";
		if (pmd_kb > 0)
			return "PMD mappings left after the split";
		return folio_kb < want ? "too little of it in THP folios" : NULL;
	case BACKING_THP:
		return pmd_kb < want ? "too little of it PMD-mapped" : NULL;
	default:
		return "no such backing";
	}
}

char *backing_map(enum fork_backing b, size_t size)
{
	size_t huge = thp_pmd_size();
	int64_t pmd_kb, folio_kb;
	const char *missed;
	char *p;

	if (b != BACKING_4K && size % huge) {
		fprintf(stderr, "mmtop bench fork: --backing %s needs a size of whole %zu KiB THPs\n",
			backings[b].name, huge >> 10);
		return NULL;
	}
	p = map_aligned(size);
	if (!p) {
		perror("mmtop bench fork: mmap");
		return NULL;
	}
	madvise(p, size, b == BACKING_4K ? MADV_NOHUGEPAGE : MADV_HUGEPAGE);
	memset(p, 1, size);
	if (b == BACKING_THP_PTE)
		map_by_ptes(p, size);
	pmd_kb = proc_anon_huge_kb(0);
	folio_kb = thp_folio_kb(p, size);
	printf("# backing %s: %zu KiB, AnonHugePages %lld kB, in THP folios %lld kB%s\n",
	       backings[b].name, size >> 10, (long long)pmd_kb, (long long)folio_kb,
	       folio_kb < 0 ? " (-1: not told without CAP_SYS_ADMIN)" : "");
	missed = backing_missed(b, size, pmd_kb, folio_kb);
	if (!missed)
		return p;
	fprintf(stderr,
		"mmtop bench fork: asked for --backing %s, got %lld kB PMD-mapped and %lld kB in THP folios of %zu KiB: %s (a run needs %.0f%%; transparent_hugepage: %s)\n",
		backings[b].name, (long long)pmd_kb, (long long)folio_kb, size >> 10, missed,
		BACKING_MIN_SHARE * 100, thp_enabled_word());
	munmap(p, size);
	return NULL;
}
