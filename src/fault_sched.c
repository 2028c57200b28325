// SPDX-License-Identifier: GPL-2.0
/* Fault counts harvested at context switch: see bpf/faults.bpf.c. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/types.h>

#include "fault_source.h"
#include "faults.skel.h"
#include "mmtop.h"

struct sched_priv {
	struct faults_bpf *skel;
	struct bpf_link *link;
	struct fault_slot *slots;	/* one per possible CPU */
};

static void sched_destroy(struct sched_priv *p)
{
	bpf_link__destroy(p->link);
	faults_bpf__destroy(p->skel);
	free(p->slots);
	free(p);
}

/* Load and attach one of the two sched_switch programs. */
static int sched_attach(struct sched_priv *p, bool btf, char *err, size_t errlen)
{
	struct bpf_program *use, *skip;
	int ret;

	p->skel = faults_bpf__open();
	if (!p->skel) {
		snprintf(err, errlen, "opening BPF object: %s", strerror(errno));
		return -1;
	}
	use = btf ? p->skel->progs.fault_switch : p->skel->progs.fault_switch_raw;
	skip = btf ? p->skel->progs.fault_switch_raw : p->skel->progs.fault_switch;
	bpf_program__set_autoload(skip, false);
	ret = faults_bpf__load(p->skel);
	if (ret) {
		snprintf(err, errlen, "loading %s: %s", bpf_program__name(use),
			 strerror(-ret));
		return -1;
	}
	p->link = bpf_program__attach(use);
	if (!p->link) {
		snprintf(err, errlen, "attaching %s: %s", bpf_program__name(use),
			 strerror(errno));
		return -1;
	}
	return 0;
}

static int sched_open(struct fault_source *fs, char *err, size_t errlen)
{
	struct sched_priv *p = calloc(1, sizeof(*p));
	char btf_err[128];

	if (!p)
		return -1;
	/* CO-RE relocations need it for both program flavours. */
	if (access("/sys/kernel/btf/vmlinux", R_OK)) {
		snprintf(err, errlen, "/sys/kernel/btf/vmlinux: %s: the kernel needs CONFIG_DEBUG_INFO_BTF=y",
			 strerror(errno));
		free(p);
		return -1;
	}
	p->slots = calloc(libbpf_num_possible_cpus(), sizeof(*p->slots));
	if (!p->slots) {
		snprintf(err, errlen, "out of memory");
		sched_destroy(p);
		return -1;
	}
	fs->probe = PROBE_FAULTS_TP_BTF;
	if (sched_attach(p, true, btf_err, sizeof(btf_err))) {
		bpf_link__destroy(p->link);
		faults_bpf__destroy(p->skel);
		p->link = NULL;
		fs->probe = PROBE_FAULTS_RAW_TP;
		if (sched_attach(p, false, err, errlen)) {
			snprintf(err + strlen(err), errlen - strlen(err),
				 "; tp_btf: %s", btf_err);
			sched_destroy(p);
			return -1;
		}
	}
	fs->priv = p;
	return 0;
}

/* Account the task running on @cpu up to now; -ENXIO if @cpu is offline. */
static int sched_flush(struct sched_priv *p, int cpu)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts,
		    .flags = BPF_F_TEST_RUN_ON_CPU,
		    .cpu = cpu);
	int fd = bpf_program__fd(p->skel->progs.fault_flush);

	return bpf_prog_test_run_opts(fd, &opts) ? -errno : 0;
}

static void sched_read(struct fault_source *fs, bool *online,
		       struct fault_counts *cum, uint64_t *drops)
{
	struct sched_priv *p = fs->priv;
	__u32 zero = 0;
	int cpu;

	for (cpu = 0; cpu < fs->nr_cpus; cpu++) {
		int ret;

		if (!online[cpu])
			continue;
		ret = sched_flush(p, cpu);
		if (ret == -ENXIO)
			online[cpu] = false;
		else if (ret)
			drops[DROP_FLUSH]++;
	}
	if (bpf_map__lookup_elem(p->skel->maps.fault_slots, &zero, sizeof(zero),
				 p->slots, libbpf_num_possible_cpus() *
				 sizeof(*p->slots), 0)) {
		drops[DROP_READ]++;
		return;
	}
	for (cpu = 0; cpu < fs->nr_cpus; cpu++) {
		cum[cpu].min_flt = p->slots[cpu].min_flt;
		cum[cpu].maj_flt = p->slots[cpu].maj_flt;
	}
}

static void sched_close(struct fault_source *fs)
{
	if (fs->priv)
		sched_destroy(fs->priv);
	fs->priv = NULL;
}

const struct fault_source_ops fault_sched_ops = {
	.name = "sched",
	.open = sched_open,
	.read = sched_read,
	.close = sched_close,
};
