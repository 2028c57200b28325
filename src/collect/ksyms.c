// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ksyms.h"

static int by_addr(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
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
 * The hexadecimal number @s begins with, in @v: the character after it,
 * or NULL if none. By hand: strtoull's generality was a fifth of the
 * read.
 */
static char *hex_prefix(char *s, uint64_t *v)
{
	char *p = s;
	uint64_t x = 0;

	for (;; p++) {
		unsigned int c = (unsigned char)*p;

		if (c - '0' < 10)
			x = x << 4 | (c - '0');
		else if ((c | 0x20) - 'a' < 6)
			x = x << 4 | ((c | 0x20) - 'a' + 10);
		else
			break;
	}
	*v = x;
	return p == s ? NULL : p;
}

/*
 * A text symbol's line, "ADDR t NAME[\t[MODULE]]": its name (cut at the
 * first blank, in @line) and address; NULL for any other line. By hand,
 * not sscanf: mmtop's start reads some 150,000 of them.
 */
static const char *text_symbol(char *line, uint64_t *addr)
{
	char *p = hex_prefix(line, addr), *name;

	if (!p || p[0] != ' ' || (p[1] != 't' && p[1] != 'T') || p[2] != ' ')
		return NULL;
	name = p + 3;
	name[strcspn(name, " \t\n")] = '\0';
	return *name ? name : NULL;
}

static const char *const data_names[KSYMS_NR_DATA] = KSYMS_DATA;

/* A data symbol's line, "ADDR d NAME": kept if KSYMS_DATA names it. */
static void data_symbol(struct ksyms *k, char *line)
{
	uint64_t addr;
	char *p = hex_prefix(line, &addr), *name;
	int i;

	if (!p || p[0] != ' ' || !p[1] || !strchr("dDbBrR", p[1]) || p[2] != ' ')
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

/*
 * All of file @path, in one block with a NUL after it (@len bytes
 * before); NULL with errno set on error. Large reads: the kernel formats
 * /proc/kallsyms as it is read, a read's worth at a time.
 */
static char *read_whole(const char *path, size_t *len)
{
	size_t cap = 1 << 22, n = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC), err;
	char *buf = malloc(cap + 1), *p;
	ssize_t r;

	if (fd < 0 || !buf)
		goto fail;
	for (;;) {
		if (n == cap) {
			p = realloc(buf, 2 * cap + 1);
			if (!p)
				goto fail;
			buf = p;
			cap *= 2;
		}
		r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			goto fail;
		if (!r)
			break;
		n += r;
	}
	close(fd);
	buf[n] = '\0';
	*len = n;
	return buf;
fail:
	err = errno;
	if (fd >= 0)
		close(fd);
	free(buf);
	errno = err;
	return NULL;
}

/*
 * Sort the table by address. The kernel lists its own symbols in order,
 * then those of modules and programs, which are not: those few are
 * sorted and merged in from the end, not the whole table sorted again.
 */
static int sort_syms(struct ksyms *k)
{
	int i, a, b, out, m;
	struct ksym *tail;

	for (i = 1; i < k->nr && k->syms[i - 1].addr <= k->syms[i].addr; i++)
		;
	if (i >= k->nr)
		return 0;
	m = k->nr - i;
	tail = malloc(m * sizeof(*tail));
	if (!tail)
		return -ENOMEM;
	memcpy(tail, k->syms + i, m * sizeof(*tail));
	qsort(tail, m, sizeof(*tail), by_addr);
	for (a = i - 1, b = m - 1, out = k->nr - 1; b >= 0; out--)
		k->syms[out] = a >= 0 && k->syms[a].addr > tail[b].addr ? k->syms[a--] : tail[b--];
	free(tail);
	return 0;
}

/*
 * Each text symbol's name is moved down to the front of the file's own
 * block, which then holds the names alone: a line is longer than its
 * name, so the names never overtake the line being read.
 */
int ksyms_load(struct ksyms *k, const char *path)
{
	size_t len, n;
	char *buf, *line, *eol, *w, *p;
	int sym_cap = 0, i, nonzero = 0;

	memset(k, 0, sizeof(*k));
	buf = read_whole(path, &len);
	if (!buf)
		return -errno;
	for (line = w = buf; line < buf + len; line = eol + 1) {
		const char *name;
		uint64_t addr;

		eol = memchr(line, '\n', buf + len - line);
		if (!eol)
			eol = buf + len;
		*eol = '\0';
		name = text_symbol(line, &addr);
		if (!name) {
			data_symbol(k, line);
			continue;
		}
		nonzero += addr != 0;
		if (name[0] == '_' && !strcmp(name, "_stext"))
			k->text_lo = addr;
		else if (name[0] == '_' && !strcmp(name, "_etext"))
			k->text_hi = addr;
		if (add_sym(k, &sym_cap, addr, w - buf)) {
			free(buf);
			ksyms_free(k);
			return -ENOMEM;
		}
		n = strlen(name) + 1;
		memmove(w, name, n);
		w += n;
	}
	if (!nonzero) {
		/* kptr_restrict hides addresses from this reader. */
		free(buf);
		ksyms_free(k);
		return -ENODATA;
	}
	p = realloc(buf, w - buf);
	k->names = p ? p : buf;
	for (i = 0; i < k->nr; i++)
		k->syms[i].name = k->names + (uintptr_t)k->syms[i].name;
	if (sort_syms(k)) {
		ksyms_free(k);
		return -ENOMEM;
	}
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
