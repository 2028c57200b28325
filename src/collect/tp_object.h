/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Loading a BPF object whose tracepoint programs come in two flavours:
 * SEC("tp_btf/X") (typed, cheapest) and SEC("raw_tp/X") (the fallback where
 * tp_btf cannot attach). Each tracepoint is probed on its own (a tp_btf
 * program is attached to it, as libbpf-tools' probe_tp_btf does) and only
 * its chosen program is loaded: the object is loaded once. Programs in a
 * bare SEC("raw_tp") are not attached: user space runs them with
 * BPF_PROG_TEST_RUN; nor are those set not to autoattach (another program
 * calls them, or they are attached later with tp_object_attach).
 */
#ifndef MMTOP_TP_OBJECT_H
#define MMTOP_TP_OBJECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct bpf_object;
struct bpf_program;
struct bpf_link;
struct btf;

#define TP_OBJECT_MAX_LINKS 16

/* Which flavour to use: --attach. */
enum tp_flavour {
	TP_AUTO,	/* per tracepoint: tp_btf where it attaches, else raw_tp */
	TP_BTF,
	TP_RAW,
};

int tp_flavour_parse(const char *s, enum tp_flavour *f);

struct tp_object_ops {
	/* Open the skeleton, set its read-only tunables; NULL on error. */
	void *(*open)(void *arg, struct bpf_object **obj);
	/* The skeleton's load: it also maps .bss and .data into user space. */
	int (*load)(void *skel);
	void (*destroy)(void *skel);
};

/*
 * The ops of skeleton NAME_bpf opened by @open_fn, as NAME_ops: its own
 * load and destroy, for a family whose load does nothing more.
 */
#define TP_OBJECT_SKEL_OPS(name, open_fn)					\
static int name##_load(void *skel)						\
{										\
	return name##_bpf__load(skel);						\
}										\
static void name##_destroy(void *skel)						\
{										\
	name##_bpf__destroy(skel);						\
}										\
static const struct tp_object_ops name##_ops = {				\
	.open = open_fn, .load = name##_load, .destroy = name##_destroy,	\
}

struct tp_object {
	const struct tp_object_ops *ops;
	void *skel;
	struct bpf_object *obj;		/* the skeleton's */
	bool btf;			/* every attached program is tp_btf */
	struct bpf_link *links[TP_OBJECT_MAX_LINKS];
	int nr_links;
	/* The programs attached and detached by tp_object_hook(). */
	struct bpf_link *hooks[TP_OBJECT_MAX_LINKS];
	int nr_hooks;
	/*
	 * After a failed open: the program the kernel refused ("" if the
	 * failure was another) and the verifier's message, the line before
	 * its "processed N insns" (or the error where the kernel gave no log).
	 */
	char refused[64];
	char refused_why[160];
	/* The memory of the maps that never grow (preallocated), read once. */
	uint64_t fixed_map_bytes;
	bool fixed_map_read;
};

/*
 * 0, or -1 with the reason in @err (and the refused program in @o).
 * @btf: the kernel's, for probing. MMTOP_TEST_REFUSE=PROG[,PROG...] in the
 * environment makes the kernel refuse those programs (their code replaced
 * by an invalid load), for tests of what a refusal leaves running.
 */
int tp_object_open(struct tp_object *o, const struct tp_object_ops *ops,
		   enum tp_flavour flavour, const struct btf *btf, void *arg,
		   char *err, size_t errlen);
/* The tracepoint @prog attaches to (tp_btf/X, raw_tp/X: X); NULL if none. */
const char *tp_object_tracepoint(const struct bpf_program *prog);
/* Attach a loaded program of the object: 0, or -1 with the reason. */
int tp_object_attach(struct tp_object *o, struct bpf_program *prog, char *err,
		     size_t errlen);
/*
 * Attach (@on) the loaded tracepoint programs that @want accepts (by name)
 * and that were set not to autoattach, or detach them: 0, or -1 with the
 * reason (none left attached). A hook with no program attached costs
 * nothing; with one, every event pays the call into BPF.
 */
int tp_object_hook(struct tp_object *o, bool (*want)(const char *name), bool on,
		   char *err, size_t errlen);
void tp_object_close(struct tp_object *o);

/*
 * What programs have run, by the kernel's count (bpf_stats on), and the
 * kernel memory the objects' maps hold, by its own account.
 */
struct prog_cost {
	uint64_t runs;
	uint64_t ns;
	uint64_t map_bytes;
};

/*
 * Add the run count and run time of the object's loaded programs that
 * @want accepts (by name; NULL: all) to @c. Both stay 0 while the kernel's
 * BPF statistics are off. With @want NULL, its maps' memory too
 * (/proc/self/fdinfo's memlock: what the kernel charges for them), read
 * again only for the maps that can grow.
 */
void tp_object_cost(struct tp_object *o, bool (*want)(const char *name),
		    struct prog_cost *c);

#endif
