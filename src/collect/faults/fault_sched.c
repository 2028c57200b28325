// SPDX-License-Identifier: GPL-2.0
/* Fault counts harvested at migrations, exits and a walk: see bpf/faults.bpf.c. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/types.h>

#include "fault_source.h"
#include "kernel_has.h"
#include "faults.skel.h"
#include "mmtop.h"
#include "tp_object.h"
#include "util.h"

struct sched_priv {
	struct tp_object tp;
	struct bpf_link *walk;		/* the task iterator; NULL: fault_walk_list */
	int list_fd;			/* fault_walk_list, run by BPF_PROG_TEST_RUN */
	int nr_possible;
	const struct proc_fault *cpus;	/* fault_cpus, mapped */
	size_t cpus_len;
	struct proc_faults *procs;	/* drained at the last read */
	int nr_procs, cap_procs;
	struct proc_fault_key *keys;	/* scratch for draining */
	int cap_keys;
	uint64_t procs_full;		/* proc_faults_full at the last read */
	uint64_t marks_full;		/* marks_full at the last read */
};

/* @arg: what the kernel has. */
static void *faults_open(void *arg, struct bpf_object **obj)
{
	struct faults_bpf *skel = faults_bpf__open();
	const struct kernel_has *k = arg;

	if (!skel)
		return NULL;
	bpf_map__set_max_entries(skel->maps.fault_cpus, libbpf_num_possible_cpus());
	/* Else a raw_tp program on it warns in the kernel's log: see there. */
	if (k->btf && !k->bpf_allocator)
		bpf_map__set_map_flags(skel->maps.fault_marks, 0);
	/* One walk is loaded: the task list's where the kernel has it. */
	bpf_program__set_autoload(skel->progs.fault_walk, !k->task_list_walk);
	bpf_program__set_autoload(skel->progs.fault_walk_list, k->task_list_walk);
	/* Run, not attached: its link is made by sched_open. */
	bpf_program__set_autoattach(skel->progs.fault_walk, false);
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

/* Account every task's faults up to now: 0, or -1 (errno set). */
static int sched_walk(struct sched_priv *p)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts);
	char buf[64];
	ssize_t n;
	int fd;

	if (!p->walk)
		return bpf_prog_test_run_opts(p->list_fd, &opts);
	fd = bpf_iter_create(bpf_link__fd(p->walk));
	if (fd < 0)
		return -1;
	/* The program writes nothing: one read runs the walk to its end. */
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		;
	close(fd);
	return n < 0 ? -1 : 0;
}

static void sched_close(struct fault_source *fs)
{
	struct sched_priv *p = fs->priv;

	if (!p)
		return;
	bpf_link__destroy(p->walk);
	if (p->cpus)
		munmap((void *)p->cpus, p->cpus_len);
	tp_object_close(&p->tp);
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
	p->nr_possible = libbpf_num_possible_cpus();
	if (tp_object_open(&p->tp, &faults_ops, fs->attach, fs->kernel->btf, (void *)fs->kernel, err,
			   errlen)) {
		sched_close(fs);
		return -1;
	}
	p->cpus_len = p->nr_possible * sizeof(*p->cpus);
	p->cpus = mmap(NULL, p->cpus_len, PROT_READ, MAP_SHARED,
		       bpf_map__fd(((struct faults_bpf *)p->tp.skel)->maps.fault_cpus), 0);
	if (p->cpus == MAP_FAILED) {
		p->cpus = NULL;
		snprintf(err, errlen, "mapping fault_cpus: %s", strerror(errno));
		sched_close(fs);
		return -1;
	}
	p->list_fd = bpf_program__fd(((struct faults_bpf *)p->tp.skel)->progs.fault_walk_list);
	if (p->list_fd < 0)
		p->walk = bpf_program__attach_iter(((struct faults_bpf *)p->tp.skel)->progs.fault_walk,
						   NULL);
	if (p->list_fd < 0 && !p->walk) {
		snprintf(err, errlen, "task iterator: %s", strerror(errno));
		sched_close(fs);
		return -1;
	}
	fs->probe = p->tp.btf ? PROBE_FAULTS_TP_BTF : PROBE_FAULTS_RAW_TP;
	/* Every task gets its mark now: the first interval starts here. */
	return sched_walk(p) ? (snprintf(err, errlen, "task iterator: %s", strerror(errno)),
				sched_close(fs), -1) : 0;
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
	__u32 closed = skel->bss->proc_epoch & 1;
	int cpu;

	/* A failed walk leaves the counts where they are: they come later. */
	if (sched_walk(p))
		drops[DROP_FLUSH]++;
	/* New counts go to the other epoch from now on. */
	__atomic_store_n(&skel->bss->proc_epoch, closed ^ 1, __ATOMIC_SEQ_CST);
	drain_procs(p, closed, drops);
	drops[DROP_PROC_FAULTS] += skel->bss->marks_full - p->marks_full;
	p->marks_full = skel->bss->marks_full;
	for (cpu = 0; cpu < fs->nr_cpus && cpu < p->nr_possible; cpu++) {
		if (!online[cpu])
			continue;
		cum[cpu].min_flt = __atomic_load_n(&p->cpus[cpu].min_flt, __ATOMIC_RELAXED);
		cum[cpu].maj_flt = __atomic_load_n(&p->cpus[cpu].maj_flt, __ATOMIC_RELAXED);
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

static void sched_cost(struct fault_source *fs, struct prog_cost *c)
{
	struct sched_priv *p = fs->priv;

	tp_object_cost(&p->tp, NULL, c);
}

const struct fault_source_ops fault_sched_ops = {
	.name = "sched",
	.open = sched_open,
	.read = sched_read,
	.processes = sched_processes,
	.cost = sched_cost,
	.close = sched_close,
};
