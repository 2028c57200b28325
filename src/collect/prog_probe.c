// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "prog_probe.h"
#include "util.h"

/* r0 = 0; exit */
static const struct bpf_insn return_zero[] = {
	{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
	{ .code = BPF_JMP | BPF_EXIT },
};

int prog_probe_load(enum bpf_prog_type type, enum bpf_attach_type attach, int btf_id)
{
	LIBBPF_OPTS(bpf_prog_load_opts, opts,
		    .expected_attach_type = attach,
		    .attach_btf_id = btf_id);
	int fd = bpf_prog_load(type, NULL, "GPL", return_zero,
			       ARRAY_SIZE(return_zero), &opts);

	return fd < 0 ? -errno : fd;
}

/*
 * Attach loaded program @fd to raw tracepoint @name (NULL: the target given
 * at load time through its BTF id), detach and close it; 0 or -errno.
 */
static int attach_once(int fd, const char *name, const char **stage)
{
	int link;

	if (fd < 0)
		return fd;
	*stage = "attach";
	link = bpf_raw_tracepoint_open(name, fd);
	link = link < 0 ? -errno : link;
	if (link >= 0)
		close(link);
	close(fd);
	return link < 0 ? link : 0;
}

int prog_probe_btf_attach(enum bpf_attach_type attach, int btf_id, const char **stage)
{
	*stage = "load";
	return attach_once(prog_probe_load(BPF_PROG_TYPE_TRACING, attach, btf_id),
			   NULL, stage);
}

int prog_probe_raw_tp(const char *name, const char **stage)
{
	*stage = "load";
	return attach_once(prog_probe_load(BPF_PROG_TYPE_RAW_TRACEPOINT, 0, 0), name,
			   stage);
}

int prog_probe_tp_btf_id(const struct btf *btf, const char *name)
{
	char tname[128];

	if (!btf)
		return -ENOENT;
	snprintf(tname, sizeof(tname), "btf_trace_%s", name);
	return btf__find_by_name_kind(btf, tname, BTF_KIND_TYPEDEF);
}

bool prog_probe_tp_btf(const struct btf *btf, const char *name)
{
	int id = prog_probe_tp_btf_id(btf, name);
	int fd = id > 0 ? prog_probe_load(BPF_PROG_TYPE_TRACING, BPF_TRACE_RAW_TP, id) : -ENOENT;

	if (fd < 0)
		return false;
	close(fd);
	return true;
}
