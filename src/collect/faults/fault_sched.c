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
#include "util.h"

struct sched_priv {
	struct tp_object tp;
	struct fault_slot *slots;	/* one per possible CPU */
	int nr_slots;
	struct proc_faults *procs;	/* drained at the last read */
	int nr_procs, cap_procs;
	struct proc_fault_key *keys;	/* scratch for draining */
	int cap_keys;
	uint64_t procs_full;		/* proc_faults_full at the last read */
	uint64_t marks_busy;		/* marks_busy at the last read */
};

static void *faults_open(void *arg, struct bpf_object **obj)
{
	struct faults_bpf *skel = faults_bpf__open();

	(void)arg;
	if (skel)
		*obj = skel->obj;
	return skel;
}

/* Loaded means not attached yet: tasks started from now on fault from 0. */
static int faults_load(void *skel)
{
	struct faults_bpf *f = skel;
	int err = faults_bpf__load(f);

	if (!err)
		f->bss->attach_ns = clock_ns(CLOCK_MONOTONIC);
	return err;
}

static void faults_destroy(void *skel)
{
	faults_bpf__destroy(skel);
}

static const struct tp_object_ops faults_ops = {
	.open = faults_open,
	.load = faults_load,
	.destroy = faults_destroy,
};

static void sched_close(struct fault_source *fs)
{
	struct sched_priv *p = fs->priv;

	if (!p)
		return;
	tp_object_close(&p->tp);
	free(p->slots);
	free(p->procs);
	free(p->keys);
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
	if (!p->slots || tp_object_open(&p->tp, &faults_ops, fs->attach, fs->btf, NULL, err, errlen)) {
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

/* Keys of epoch @epoch into p->keys; their number, or -1 out of memory. */
static int collect_keys(struct sched_priv *p, int fd, __u32 epoch)
{
	struct proc_fault_key prev, key;
	bool first = true;
	int n = 0;

	while (!bpf_map_get_next_key(fd, first ? NULL : &prev, &key)) {
		first = false;
		prev = key;
		if (key.epoch != epoch)
			continue;
		if (n == p->cap_keys &&
		    snapshot_grow((void **)&p->keys, &p->cap_keys, sizeof(*p->keys)))
			return -1;
		p->keys[n++] = key;
	}
	return n;
}

/*
 * Move the closed epoch's per-process counts to p->procs. After the flip
 * and the flush on every CPU no program writes that epoch any more, so
 * reading and deleting its keys races with nothing.
 */
static void drain_procs(struct sched_priv *p, __u32 epoch, uint64_t *drops)
{
	struct faults_bpf *skel = p->tp.skel;
	int fd = bpf_map__fd(skel->maps.proc_faults), i, n;

	p->nr_procs = 0;
	n = collect_keys(p, fd, epoch);
	if (n < 0) {
		drops[DROP_READ]++;
		return;
	}
	for (i = 0; i < n; i++) {
		struct proc_fault v;
		struct proc_faults *pf;

		if (bpf_map_lookup_elem(fd, &p->keys[i], &v)) {
			drops[DROP_READ]++;
			continue;
		}
		bpf_map_delete_elem(fd, &p->keys[i]);
		if (p->nr_procs == p->cap_procs &&
		    snapshot_grow((void **)&p->procs, &p->cap_procs, sizeof(*p->procs))) {
			drops[DROP_READ]++;
			continue;
		}
		pf = &p->procs[p->nr_procs++];
		pf->pid = p->keys[i].tgid;
		pf->faults.min_flt = v.min_flt;
		pf->faults.maj_flt = v.maj_flt;
	}
	drops[DROP_PROC_FAULTS] += skel->bss->proc_faults_full - p->procs_full;
	p->procs_full = skel->bss->proc_faults_full;
}

static void sched_read(struct fault_source *fs, bool *online,
		       struct fault_counts *cum, uint64_t *drops)
{
	struct sched_priv *p = fs->priv;
	struct faults_bpf *skel = p->tp.skel;
	__u32 zero = 0, closed = skel->bss->proc_epoch & 1;
	int cpu;

	/* New spans go to the other epoch from now on. */
	__atomic_store_n(&skel->bss->proc_epoch, closed ^ 1, __ATOMIC_SEQ_CST);

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
	drain_procs(p, closed, drops);
	/* Like a failed flush, an accounting put off arrives later. */
	drops[DROP_FLUSH] += skel->bss->marks_busy - p->marks_busy;
	p->marks_busy = skel->bss->marks_busy;
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

/*
 * Never NULL: that means the source has no per-process counts. Before any
 * process has faulted there is nothing drained, which is 0 faults each.
 */
static const struct proc_faults *sched_processes(struct fault_source *fs, int *nr)
{
	static const struct proc_faults none[1];
	struct sched_priv *p = fs->priv;

	*nr = p->nr_procs;
	return p->procs ? p->procs : none;
}

/* A tail call from fault_switch: see switch_next in bpf/faults.bpf.c. */
static int sched_chain_switch(struct fault_source *fs, int prog_fd)
{
	struct sched_priv *p = fs->priv;
	struct faults_bpf *skel = p->tp.skel;
	__u32 zero = 0;

	if (bpf_map__update_elem(skel->maps.switch_next, &zero, sizeof(zero),
				 &prog_fd, sizeof(prog_fd), BPF_ANY))
		return -errno;
	return 0;
}

const struct fault_source_ops fault_sched_ops = {
	.name = "sched",
	.open = sched_open,
	.read = sched_read,
	.processes = sched_processes,
	.chain_switch = sched_chain_switch,
	.close = sched_close,
};
