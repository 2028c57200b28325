// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <bpf/libbpf.h>

#include "tp_object.h"

static bool has_prefix(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static void detach(struct tp_object *o)
{
	while (o->nr_links > 0)
		bpf_link__destroy(o->links[--o->nr_links]);
	if (o->skel)
		o->ops->destroy(o->skel);
	o->skel = NULL;
}

static int try_flavour(struct tp_object *o, void *arg, bool btf, char *err,
		       size_t errlen)
{
	struct bpf_object *obj = NULL;
	struct bpf_program *prog;
	int ret;

	o->btf = btf;
	o->skel = o->ops->open(arg, &obj);
	if (!o->skel) {
		snprintf(err, errlen, "opening BPF object: %s", strerror(errno));
		return -1;
	}
	bpf_object__for_each_program(prog, obj) {
		const char *sec = bpf_program__section_name(prog);

		/* Left off by its object (a family disabled): stays off. */
		if (!bpf_program__autoload(prog))
			continue;
		if (has_prefix(sec, "tp_btf/"))
			bpf_program__set_autoload(prog, btf);
		else if (has_prefix(sec, "raw_tp/"))
			bpf_program__set_autoload(prog, !btf);
	}
	ret = o->ops->load(o->skel);
	if (ret) {
		snprintf(err, errlen, "loading: %s", strerror(-ret));
		return -1;
	}
	bpf_object__for_each_program(prog, obj) {
		const char *sec = bpf_program__section_name(prog);
		struct bpf_link *link;

		if (!bpf_program__autoload(prog) || !strchr(sec, '/'))
			continue;
		if (o->nr_links == TP_OBJECT_MAX_LINKS) {
			snprintf(err, errlen, "too many programs");
			return -1;
		}
		link = bpf_program__attach(prog);
		if (!link) {
			snprintf(err, errlen, "attaching %s: %s",
				 bpf_program__name(prog), strerror(errno));
			return -1;
		}
		o->links[o->nr_links++] = link;
	}
	return 0;
}

int tp_flavour_parse(const char *s, enum tp_flavour *f)
{
	if (!strcmp(s, "auto"))
		*f = TP_AUTO;
	else if (!strcmp(s, "tp_btf"))
		*f = TP_BTF;
	else if (!strcmp(s, "raw_tp"))
		*f = TP_RAW;
	else
		return -1;
	return 0;
}

int tp_object_open(struct tp_object *o, const struct tp_object_ops *ops,
		   enum tp_flavour flavour, void *arg, char *err, size_t errlen)
{
	char btf_err[256];
	size_t n;

	memset(o, 0, sizeof(*o));
	o->ops = ops;
	if (flavour != TP_RAW) {
		if (!try_flavour(o, arg, true, btf_err, sizeof(btf_err)))
			return 0;
		detach(o);
		if (flavour == TP_BTF) {
			snprintf(err, errlen, "%s (tp_btf)", btf_err);
			return -1;
		}
	}
	if (!try_flavour(o, arg, false, err, errlen))
		return 0;
	if (flavour == TP_RAW) {
		detach(o);
		n = strlen(err);
		snprintf(err + n, errlen - n, " (raw_tp)");
		return -1;
	}
	detach(o);
	n = strlen(err);
	snprintf(err + n, errlen - n, " (raw_tp); %s (tp_btf)", btf_err);
	return -1;
}

void tp_object_close(struct tp_object *o)
{
	if (o->ops)
		detach(o);
}
