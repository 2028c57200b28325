// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ksyms.h"

static int by_addr(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Append @name to the names block; returns its offset. */
static long add_name(struct ksyms *k, size_t *len, size_t *cap, const char *name)
{
	size_t n = strlen(name) + 1;
	long off = *len;

	if (*len + n > *cap) {
		size_t ncap = (*cap ? *cap * 2 : 1 << 20) + n;
		char *p = realloc(k->names, ncap);

		if (!p)
			return -1;
		k->names = p;
		*cap = ncap;
	}
	memcpy(k->names + *len, name, n);
	*len += n;
	return off;
}

static int add_sym(struct ksyms *k, int *cap, uint64_t addr, long name_off)
{
	if (k->nr == *cap) {
		int ncap = *cap ? *cap * 2 : 65536;
		struct ksym *p = realloc(k->syms, ncap * sizeof(*p));

		if (!p)
			return -1;
		k->syms = p;
		*cap = ncap;
	}
	k->syms[k->nr].addr = addr;
	/* An offset until the block stops moving; see ksyms_load(). */
	k->syms[k->nr++].name = (char *)(uintptr_t)name_off;
	return 0;
}

/*
 * A text symbol's line, "ADDR t NAME[\t[MODULE]]": its name (cut at the
 * first blank, in @line) and address; NULL for any other line. By hand,
 * not sscanf: mmtop's start reads some 150,000 of them.
 */
static const char *text_symbol(char *line, uint64_t *addr)
{
	char *p, *name;

	*addr = strtoull(line, &p, 16);
	if (p == line || p[0] != ' ' || (p[1] != 't' && p[1] != 'T') || p[2] != ' ')
		return NULL;
	name = p + 3;
	name[strcspn(name, " \t\n")] = '\0';
	return *name ? name : NULL;
}

static const char *const data_names[KSYMS_NR_DATA] = KSYMS_DATA;

/* A data symbol's line, "ADDR d NAME": kept if KSYMS_DATA names it. */
static void data_symbol(struct ksyms *k, char *line)
{
	char *p, *name;
	uint64_t addr = strtoull(line, &p, 16);
	int i;

	if (p == line || p[0] != ' ' || !p[1] || !strchr("dDbBrR", p[1]) || p[2] != ' ')
		return;
	name = p + 3;
	name[strcspn(name, " \t\n")] = '\0';
	for (i = 0; i < KSYMS_NR_DATA; i++)
		if (!strcmp(name, data_names[i]))
			k->data[i] = addr;
}

bool ksyms_in_text(const struct ksyms *k, uint64_t addr)
{
	return !k->text_hi || (addr >= k->text_lo && addr < k->text_hi);
}

uint64_t ksyms_data(const struct ksyms *k, const char *name)
{
	int i;

	for (i = 0; i < KSYMS_NR_DATA; i++)
		if (!strcmp(name, data_names[i]))
			return k->data[i];
	return 0;
}

int ksyms_load(struct ksyms *k, const char *path)
{
	FILE *f = fopen(path, "re");
	size_t len = 0, cap = 0;
	int sym_cap = 0, i, nonzero = 0;
	char line[512];

	memset(k, 0, sizeof(*k));
	if (!f)
		return -errno;
	/* Fewer, larger reads: the kernel formats the file as it is read. */
	setvbuf(f, NULL, _IOFBF, 1 << 16);
	while (fgets(line, sizeof(line), f)) {
		const char *name;
		uint64_t addr;
		long off;

		name = text_symbol(line, &addr);
		if (!name) {
			data_symbol(k, line);
			continue;
		}
		nonzero += addr != 0;
		if (!strcmp(name, "_stext"))
			k->text_lo = addr;
		else if (!strcmp(name, "_etext"))
			k->text_hi = addr;
		off = add_name(k, &len, &cap, name);
		if (off < 0 || add_sym(k, &sym_cap, addr, off)) {
			fclose(f);
			ksyms_free(k);
			return -ENOMEM;
		}
	}
	fclose(f);
	if (!nonzero) {
		/* kptr_restrict hides addresses from this reader. */
		ksyms_free(k);
		return -ENODATA;
	}
	for (i = 0; i < k->nr; i++)
		k->syms[i].name = k->names + (uintptr_t)k->syms[i].name;
	/* The kernel lists its symbols by address: sorted unless a module's are not. */
	for (i = 1; i < k->nr && k->syms[i - 1].addr <= k->syms[i].addr; i++)
		;
	if (i < k->nr)
		qsort(k->syms, k->nr, sizeof(*k->syms), by_addr);
	return 0;
}

static void *load_thread(void *arg)
{
	struct ksyms_loader *l = arg;

	l->ret = ksyms_load(&l->k, l->path);
	return NULL;
}

void ksyms_load_begin(struct ksyms_loader *l, const char *path)
{
	sigset_t all, old;

	memset(l, 0, sizeof(*l));
	l->path = path;
	/* Signals stay the main thread's. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	l->running = !pthread_create(&l->thread, NULL, load_thread, l);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	l->begun = true;
}

int ksyms_load_end(struct ksyms_loader *l, struct ksyms *k)
{
	int ret;

	if (l->running)
		pthread_join(l->thread, NULL);
	else
		l->ret = ksyms_load(&l->k, l->path);
	ret = l->ret;
	*k = l->k;
	memset(l, 0, sizeof(*l));
	return ret;
}

void ksyms_free(struct ksyms *k)
{
	free(k->syms);
	free(k->names);
	memset(k, 0, sizeof(*k));
}

const char *ksyms_name(const struct ksyms *k, uint64_t addr)
{
	int lo = 0, hi = k->nr - 1;

	if (!k->nr || addr < k->syms[0].addr)
		return NULL;
	while (lo < hi) {
		int mid = lo + (hi - lo + 1) / 2;

		if (k->syms[mid].addr <= addr)
			lo = mid;
		else
			hi = mid - 1;
	}
	return k->syms[lo].name;
}

static int ksyms_index(const struct ksyms *k, const char *name)
{
	int i;

	for (i = 0; i < k->nr; i++)
		if (!strcmp(k->syms[i].name, name))
			return i;
	return -1;
}

uint64_t ksyms_addr(const struct ksyms *k, const char *name)
{
	int i = ksyms_index(k, name);

	return i < 0 ? 0 : k->syms[i].addr;
}

uint64_t ksyms_end(const struct ksyms *k, const char *name)
{
	int i = ksyms_index(k, name), j;

	if (i < 0)
		return 0;
	for (j = i + 1; j < k->nr; j++)
		if (k->syms[j].addr > k->syms[i].addr)
			return k->syms[j].addr;
	return 0;
}
