// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "prog_probe.h"
#include "tp_object.h"
#include "util.h"

static bool has_prefix(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static void unhook(struct tp_object *o)
{
	while (o->nr_hooks > 0)
		bpf_link__destroy(o->hooks[--o->nr_hooks]);
}

static void detach(struct tp_object *o)
{
	unhook(o);
	while (o->nr_links > 0)
		bpf_link__destroy(o->links[--o->nr_links]);
	if (o->skel)
		o->ops->destroy(o->skel);
	o->skel = NULL;
}

#define TP_CHOICES 16

/* Each tracepoint's flavour, probed once per object. */
struct tp_choices {
	struct {
		char name[64];
		bool btf;
	} v[TP_CHOICES];
	int nr;
};

static bool use_btf(struct tp_choices *c, enum tp_flavour flavour,
		    const struct btf *btf, const char *tp)
{
	int i;

	if (flavour != TP_AUTO)
		return flavour == TP_BTF;
	for (i = 0; i < c->nr; i++)
		if (!strcmp(c->v[i].name, tp))
			return c->v[i].btf;
	if (c->nr == TP_CHOICES)
		return prog_probe_tp_btf(btf, tp);
	snprintf(c->v[c->nr].name, sizeof(c->v[c->nr].name), "%s", tp);
	return c->v[c->nr++].btf = prog_probe_tp_btf(btf, tp);
}

const char *tp_object_tracepoint(const struct bpf_program *prog)
{
	const char *sec = bpf_program__section_name(prog);

	if (has_prefix(sec, "tp_btf/") || has_prefix(sec, "raw_tp/"))
		return strchr(sec, '/') + 1;
	return NULL;
}

/*
 * Keep one program of each tp_btf/raw_tp pair: the typed one where the
 * kernel loads a tp_btf program for its tracepoint, else the raw one. A program
 * its object left off (a family disabled) stays off.
 */
static void choose_flavours(struct tp_object *o, struct bpf_object *obj,
			    enum tp_flavour flavour, const struct btf *btf)
{
	struct tp_choices choices = { .nr = 0 };
	struct bpf_program *prog;

	o->btf = true;
	bpf_object__for_each_program(prog, obj) {
		const char *tp = tp_object_tracepoint(prog);
		bool typed = has_prefix(bpf_program__section_name(prog), "tp_btf/"), keep;

		if (!bpf_program__autoload(prog) || !tp)
			continue;
		keep = use_btf(&choices, flavour, btf, tp) == typed;
		bpf_program__set_autoload(prog, keep);
		if (keep && !typed)
			o->btf = false;
	}
}

/* Attach @prog, its link into @links (*@nr of them): 0, or -1 with the reason. */
static int attach_into(struct bpf_link **links, int *nr, struct bpf_program *prog,
		       char *err, size_t errlen)
{
	struct bpf_link *link;

	if (*nr == TP_OBJECT_MAX_LINKS) {
		snprintf(err, errlen, "too many programs");
		return -1;
	}
	link = bpf_program__attach(prog);
	if (!link) {
		snprintf(err, errlen, "attaching %s: %s", bpf_program__name(prog),
			 errno_text(errno));
		return -1;
	}
	links[(*nr)++] = link;
	return 0;
}

int tp_object_attach(struct tp_object *o, struct bpf_program *prog, char *err,
		     size_t errlen)
{
	return attach_into(o->links, &o->nr_links, prog, err, errlen);
}

/* A loaded program with a hook to attach to (not one user space runs). */
static bool attachable(struct bpf_program *prog)
{
	return bpf_program__autoload(prog) && strchr(bpf_program__section_name(prog), '/');
}

int tp_object_hook(struct tp_object *o, bool (*want)(const char *name), bool on,
		   char *err, size_t errlen)
{
	struct bpf_program *prog;

	if (!on) {
		unhook(o);
		return 0;
	}
	if (o->nr_hooks)
		return 0;
	bpf_object__for_each_program(prog, o->obj) {
		if (!attachable(prog) || bpf_program__autoattach(prog) ||
		    !want(bpf_program__name(prog)))
			continue;
		if (attach_into(o->hooks, &o->nr_hooks, prog, err, errlen)) {
			unhook(o);
			return -1;
		}
	}
	return 0;
}

static int attach_all(struct tp_object *o, struct bpf_object *obj, char *err,
		      size_t errlen)
{
	struct bpf_program *prog;

	bpf_object__for_each_program(prog, obj) {
		if (!attachable(prog) || !bpf_program__autoattach(prog))
			continue;
		if (tp_object_attach(o, prog, err, errlen)) {
			/* Refused at attach (a kprobe, say): as at load. */
			snprintf(o->refused, sizeof(o->refused), "%s", bpf_program__name(prog));
			snprintf(o->refused_why, sizeof(o->refused_why), "%s", err);
			return -1;
		}
	}
	return 0;
}

/*
 * The verifier's message in @log: the line before "processed N insns",
 * where it stopped; else (refused before verifying) the last line.
 */
static void verifier_line(const char *log, char *out, size_t len)
{
	const char *line = log, *best = NULL, *end;

	for (; *line; line = *end ? end + 1 : end) {
		end = strchrnul(line, '\n');
		if (!strncmp(line, "processed ", 10) || !strncmp(line, "-- END PROG LOAD LOG", 20))
			break;
		if (end > line)
			best = line;
	}
	if (best)
		snprintf(out, len, "%.*s", (int)(strchrnul(best, '\n') - best), best);
}

/*
 * MMTOP_TEST_REFUSE: each program named (either flavour) is loaded as
 * sleepable, and a raw tracepoint's as a perf_event program, which no
 * kernel lets sleep: every verifier refuses it in its own words (7.x lets
 * a raw_tp program sleep). A tp_btf one is of the tracing type, which
 * older kernels (6.1) let sleep on any hook, so a refusal on every kernel
 * wants --attach raw_tp.
 */
static void test_refusals(struct bpf_object *obj)
{
	const char *list = getenv("MMTOP_TEST_REFUSE");
	struct bpf_program *prog;

	if (!list)
		return;
	bpf_object__for_each_program(prog, obj) {
		const char *name = bpf_program__name(prog), *at = list;
		size_t n;

		for (; *at; at += n + !!at[n]) {
			n = strcspn(at, ",");
			if (!n || strncmp(name, at, n) || (name[n] && strcmp(name + n, "_raw")))
				continue;
			bpf_program__set_flags(prog, bpf_program__flags(prog) | BPF_F_SLEEPABLE);
			if (bpf_program__type(prog) == BPF_PROG_TYPE_RAW_TRACEPOINT)
				bpf_program__set_type(prog, BPF_PROG_TYPE_PERF_EVENT);
		}
	}
}

/* Room for a refused program's verifier log: its last lines say why. */
#define REFUSAL_LOG_SIZE (1 << 20)

/*
 * The copy's hash and stack maps at one entry: a program's verification
 * does not depend on their size, and making them whole for each program
 * tried took 0.3 s a load here (their memory is the kernel's to clear).
 */
static void shrink_maps(struct bpf_object *obj)
{
	struct bpf_map *map;

	bpf_object__for_each_map(map, obj) {
		switch (bpf_map__type(map)) {
		case BPF_MAP_TYPE_HASH:
		case BPF_MAP_TYPE_PERCPU_HASH:
		case BPF_MAP_TYPE_LRU_HASH:
		case BPF_MAP_TYPE_LRU_PERCPU_HASH:
		case BPF_MAP_TYPE_STACK_TRACE:
			bpf_map__set_max_entries(map, 1);
			break;
		default:
			break;
		}
	}
}

/*
 * Load a fresh copy of @o's object with program @name alone: 0, or the
 * kernel refused it, noted in @o with the verifier's message (libbpf asks
 * for the log, into @log, when a load fails) or the error.
 */
static int load_alone(struct tp_object *o, void *arg, const char *name, char *log)
{
	struct bpf_program *prog, *alone = NULL;
	struct bpf_object *obj;
	void *skel = o->ops->open(arg, &obj);
	int ret;

	if (!skel)
		return 0;
	bpf_object__for_each_program(prog, obj) {
		bool me = !strcmp(bpf_program__name(prog), name);

		bpf_program__set_autoload(prog, me);
		if (me)
			alone = prog;
	}
	test_refusals(obj);
	shrink_maps(obj);
	log[0] = '\0';
	if (alone)
		bpf_program__set_log_buf(alone, log, REFUSAL_LOG_SIZE);
	ret = alone ? o->ops->load(skel) : 0;
	if (ret) {
		snprintf(o->refused, sizeof(o->refused), "%s", name);
		verifier_line(log, o->refused_why, sizeof(o->refused_why));
		if (!o->refused_why[0])
			snprintf(o->refused_why, sizeof(o->refused_why), "%s", strerror(-ret));
	}
	o->ops->destroy(skel);
	return ret;
}

/*
 * The program the kernel refused, after @o's object failed to load: each
 * program it was to load is loaded alone, in order, until one fails; none
 * does when the failure was another (a map, the object). Found so, not
 * from libbpf's messages, whose wording is its own.
 */
static void find_refused(struct tp_object *o, void *arg)
{
	char *log = malloc(REFUSAL_LOG_SIZE);
	struct bpf_program *prog;

	if (!log)
		return;
	bpf_object__for_each_program(prog, o->obj)
		if (bpf_program__autoload(prog) &&
		    load_alone(o, arg, bpf_program__name(prog), log))
			break;
	free(log);
}

int tp_flavour_parse(const char *s, enum tp_flavour *f)
{
	static const char *const names[] = {
		[TP_AUTO] = "auto", [TP_BTF] = "tp_btf", [TP_RAW] = "raw_tp",
	};
	int i = parse_name(s, names, ARRAY_SIZE(names));

	if (i >= 0)
		*f = i;
	return i < 0 ? -1 : 0;
}

int tp_object_open(struct tp_object *o, const struct tp_object_ops *ops,
		   enum tp_flavour flavour, const struct btf *btf, void *arg,
		   char *err, size_t errlen)
{
	struct bpf_object *obj = NULL;
	int ret;

	memset(o, 0, sizeof(*o));
	o->ops = ops;
	o->fixed_map_bytes = 0;
	o->fixed_map_read = false;
	o->skel = ops->open(arg, &obj);
	if (!o->skel) {
		snprintf(err, errlen, "opening BPF object: %s", strerror(errno));
		return -1;
	}
	o->obj = obj;
	choose_flavours(o, obj, flavour, btf);
	test_refusals(obj);
	ret = o->ops->load(o->skel);
	if (ret)
		find_refused(o, arg);
	if (ret && o->refused[0])
		snprintf(err, errlen, "the kernel refused %s: %s", o->refused,
			 o->refused_why[0] ? o->refused_why : strerror(-ret));
	else if (ret)
		snprintf(err, errlen, "loading (%s): %s", o->btf ? "tp_btf" : "raw_tp",
			 strerror(-ret));
	if (ret || attach_all(o, obj, err, errlen)) {
		detach(o);
		return -1;
	}
	return 0;
}

void tp_object_close(struct tp_object *o)
{
	if (o->ops)
		detach(o);
}

/*
 * The kernel memory map @fd holds, by its own account; 0 if not said. One
 * read, no stdio: every map, every interval.
 */
static uint64_t map_memlock(int fd)
{
	char path[64], buf[1024];
	const char *at;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	if (read_small_file(path, buf, sizeof(buf)) || !(at = strstr(buf, "\nmemlock:")))
		return 0;
	return strtoull(at + strlen("\nmemlock:"), NULL, 10);
}

/*
 * Whether a map's memory can change while it runs: one not preallocated
 * (BPF_F_NO_PREALLOC: hash maps so made, task storage), whose elements
 * are allocated as they come (counted since 6.4). Every other map holds
 * what it was created with.
 */
static bool map_grows(const struct bpf_map *map)
{
	return bpf_map__map_flags(map) & BPF_F_NO_PREALLOC;
}

/* The memory of @o's maps: the fixed ones' read once, the others' now. */
static uint64_t maps_memlock(struct tp_object *o)
{
	struct bpf_map *map;
	uint64_t bytes = 0;

	bpf_object__for_each_map(map, o->obj) {
		int fd = bpf_map__fd(map);

		if (fd < 0 || (o->fixed_map_read && !map_grows(map)))
			continue;
		if (map_grows(map))
			bytes += map_memlock(fd);
		else
			o->fixed_map_bytes += map_memlock(fd);
	}
	o->fixed_map_read = true;
	return bytes + o->fixed_map_bytes;
}

void tp_object_cost(struct tp_object *o, bool (*want)(const char *name),
		    struct prog_cost *c)
{
	struct bpf_program *prog;

	if (!o->skel)
		return;
	if (!want)
		c->map_bytes += maps_memlock(o);
	bpf_object__for_each_program(prog, o->obj) {
		struct bpf_prog_info info = {};
		__u32 len = sizeof(info);
		int fd = bpf_program__fd(prog);

		if (fd < 0 || (want && !want(bpf_program__name(prog))) ||
		    bpf_obj_get_info_by_fd(fd, &info, &len))
			continue;
		c->runs += info.run_cnt;
		c->ns += info.run_time_ns;
	}
}
