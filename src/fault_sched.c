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
#include "tp_object.h"

struct sched_priv {
	struct tp_object tp;
	struct fault_slot *slots;	/* one per possible CPU */
	int nr_slots;
};

static void *faults_open(void *arg, struct bpf_object **obj)
{
	struct faults_bpf *skel = faults_bpf__open();

	(void)arg;
	if (skel)
		*obj = skel->obj;
	return skel;
}

static void faults_destroy(void *skel)
{
	faults_bpf__destroy(skel);
}

static const struct tp_object_ops faults_ops = {
	.open = faults_open,
	.destroy = faults_destroy,
};

static void sched_close(struct fault_source *fs)
{
	struct sched_priv *p = fs->priv;

	if (!p)
		return;
	tp_object_close(&p->tp);
	free(p->slots);
	free(p);
	fs->priv = NULL;
}

static int sched_open(struct fault_source *fs, char *err, size_t errlen)
{
	struct sched_priv *p = calloc(1, sizeof(*p));

	if (!p)
		return -1;
	fs->priv = p;
	/* CO-RE relocations need it for both program flavours. */
	if (access("/sys/kernel/btf/vmlinux", R_OK)) {
		snprintf(err, errlen, "/sys/kernel/btf/vmlinux: %s: the kernel needs CONFIG_DEBUG_INFO_BTF=y",
			 strerror(errno));
		sched_close(fs);
		return -1;
	}
	p->nr_slots = libbpf_num_possible_cpus();
	p->slots = calloc(p->nr_slots, sizeof(*p->slots));
	if (!p->slots || tp_object_open(&p->tp, &faults_ops, NULL, err, errlen)) {
		sched_close(fs);
		return -1;
	}
	fs->probe = p->tp.btf ? PROBE_FAULTS_TP_BTF : PROBE_FAULTS_RAW_TP;
	return 0;
}

/* Account the task running on @cpu up to now; -ENXIO if @cpu is offline. */
static int sched_flush(struct faults_bpf *skel, int cpu)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts,
		    .flags = BPF_F_TEST_RUN_ON_CPU,
		    .cpu = cpu);
	int fd = bpf_program__fd(skel->progs.fault_flush);

	return bpf_prog_test_run_opts(fd, &opts) ? -errno : 0;
}

static void sched_read(struct fault_source *fs, bool *online,
		       struct fault_counts *cum, uint64_t *drops)
{
	struct sched_priv *p = fs->priv;
	struct faults_bpf *skel = p->tp.skel;
	__u32 zero = 0;
	int cpu;

	for (cpu = 0; cpu < fs->nr_cpus; cpu++) {
		int ret;

		if (!online[cpu])
			continue;
		ret = sched_flush(skel, cpu);
		if (ret == -ENXIO)
			online[cpu] = false;
		else if (ret)
			drops[DROP_FLUSH]++;
	}
	if (bpf_map__lookup_elem(skel->maps.fault_slots, &zero, sizeof(zero),
				 p->slots, p->nr_slots * sizeof(*p->slots), 0)) {
		drops[DROP_READ]++;
		return;
	}
	for (cpu = 0; cpu < fs->nr_cpus && cpu < p->nr_slots; cpu++) {
		cum[cpu].min_flt = p->slots[cpu].min_flt;
		cum[cpu].maj_flt = p->slots[cpu].maj_flt;
	}
}

const struct fault_source_ops fault_sched_ops = {
	.name = "sched",
	.open = sched_open,
	.read = sched_read,
	.close = sched_close,
};
