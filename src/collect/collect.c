// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>

#include "collect.h"
#include "proc.h"
#include "util.h"

static void read_sources(struct collector *c)
{
	if (topology_online(&c->topo, c->online)) {
		/* Without the online mask, assume what we had is still up. */
		c->drops[DROP_READ]++;
	}
	if (c->faults.ops)
		c->faults.ops->read(&c->faults, c->online, c->cum, c->drops);
}

static void set_na(struct collector *c, enum probe_family f, const char *why)
{
	snprintf(c->na[f], sizeof(c->na[f]), "%s", why);
}

/* The CPUs online at the last read (1 at least: the one reading). */
static int online_cpus(const struct collector *c)
{
	int i, n = 0;

	for (i = 0; i < c->topo.nr_cpus; i++)
		n += c->online[i] != 0;
	return n ? n : 1;
}

/* The opt-in PCP family: off unless --enable-probe pcp. */
static int open_pcp(struct collector *c, const struct collector_opts *o,
		    const struct kernel_has *k, char *msg, size_t msglen)
{
	char err[200];

	if (!(o->enabled & (1u << FAMILY_PCP)) || (o->disabled & (1u << FAMILY_PCP))) {
		set_na(c, FAMILY_PCP, "opt-in: --enable-probe pcp (its events fire once per page)");
		return 0;
	}
	c->pcp = pcp_source_open(o->attach, k, c->topo.nr_cpus, err, sizeof(err));
	if (c->pcp)
		return 0;
	set_na(c, FAMILY_PCP, err);
	snprintf(msg, msglen, "pcp probes unavailable: %s", err);
	return 1;
}

static const enum probe_family lock_families[] = {
	FAMILY_MMAP_LOCK, FAMILY_CONTENTION, FAMILY_FORK,
};

static bool asked(const struct lock_source_opts *lo, enum probe_family f)
{
	return f == FAMILY_MMAP_LOCK ? lo->mmap_lock :
	       f == FAMILY_CONTENTION ? lo->contention : lo->fork;
}

/* The lock families asked for and not yet told why they are off: @why. */
static void lock_families_na(struct collector *c, const struct lock_source_opts *lo,
			     const char *why)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(lock_families); i++)
		if (asked(lo, lock_families[i]) && !c->na[lock_families[i]][0])
			set_na(c, lock_families[i], why);
}

/*
 * The lock families asked for that the kernel refused (the rest runs): a
 * warning in @msg naming them and the first reason; false if none.
 */
static bool lock_families_refused(struct collector *c, const struct lock_source_opts *lo,
				  char *msg, size_t msglen)
{
	const char *why = NULL;
	char names[64] = "";
	size_t i;

	for (i = 0; i < ARRAY_SIZE(lock_families); i++) {
		enum probe_family f = lock_families[i];

		if (!asked(lo, f) || !c->na[f][0])
			continue;
		snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
			 names[0] ? ", " : "", family_name(f));
		why = why ? why : c->na[f];
	}
	if (why)
		snprintf(msg, msglen, "%s unavailable: %s", names, why);
	return why;
}

/*
 * The kernel's decisions as a recording keeps them, with kernel_clone's
 * hook as the lock source opened it: an fentry program that loads may
 * still not attach, and a kprobe then takes over.
 */
static void kernel_clone_as_opened(struct collector *c, const struct kernel_has *k, bool forks)
{
	struct kernel_has opened = *k;

	opened.clone_hook = lock_source_clone_hook(c->locks);
	if (forks && opened.clone_hook != k->clone_hook)
		kernel_has_features(&opened, forks, c->kernel_has, sizeof(c->kernel_has));
}

static int open_with_kernel(struct collector *c, const struct collector_opts *o,
			 const struct kernel_has *k, char *msg, size_t msglen)
{
	struct lock_source_opts lo = {
		.mmap_lock = !(o->disabled & (1u << FAMILY_MMAP_LOCK)),
		.contention = !(o->disabled & (1u << FAMILY_CONTENTION)),
		.fork = !(o->disabled & (1u << FAMILY_FORK)),
		.raw_addresses = o->raw_addresses,
		.spin_waits = o->spin_waits,
		.vma_waits = o->vma_waits,
		.slow_ns = o->slow_ns, .attach = o->attach,
		.pids = o->pids,
		.cgroup = o->cgroup,
		.nr_nodes = c->topo.nr_nodes,
		.kernel = k,
		.ksyms = &c->ksyms,
	};
	const char *off = "disabled by --disable-probe";
	char err[200];
	int ret = 0;

	kernel_has_features(k, lo.fork, c->kernel_has, sizeof(c->kernel_has));
	if (o->disabled & (1u << FAMILY_FAULTS)) {
		set_na(c, FAMILY_FAULTS, off);
	} else {
		ret = fault_source_open(&c->faults, o->faults, o->attach, k,
					c->topo.nr_cpus, msg, msglen);
		if (ret < 0)
			return -1;
	}
	if (!lo.mmap_lock)
		set_na(c, FAMILY_MMAP_LOCK, off);
	if (!lo.contention)
		set_na(c, FAMILY_CONTENTION, off);
	if (!lo.fork)
		set_na(c, FAMILY_FORK, off);
	if (open_pcp(c, o, k, msg, msglen) > 0)
		ret = 1;
	if (!lo.mmap_lock && !lo.contention && !lo.fork)
		return ret;
	/* A family whose program the kernel refused gets its reason here. */
	c->locks = lock_source_open(&lo, c->topo.nr_cpus, c->na, err, sizeof(err));
	if (!c->locks) {
		lock_families_na(c, &lo, err);
		snprintf(msg, msglen, "lock probes unavailable: %s", err);
		return 1;
	}
	kernel_clone_as_opened(c, k, lo.fork);
	if (lock_families_refused(c, &lo, msg, msglen))
		ret = 1;
	/* Refused, --exact leaves the default set running, and says why. */
	if (o->exact && collector_set_exact(c, true, err, sizeof(err))) {
		snprintf(msg, msglen, "exact mode unavailable (the default set runs): %s", err);
		ret = 1;
	}
	return ret;
}

/*
 * Open the families. A family that cannot open is off with its reason
 * shown (n/a) and a warning in @msg; the rest keeps running. The kernel's
 * BTF is parsed once for all of them (libbpf parses its own copy to
 * load), and what the kernel has decided from it once (kernel_has.h).
 */
static int open_families(struct collector *c, const struct collector_opts *o,
			 char *msg, size_t msglen)
{
	struct btf *btf;
	struct kernel_has k;
	int ret;

	if (o->kernel)
		return open_with_kernel(c, o, o->kernel, msg, msglen);
	btf = btf__load_vmlinux_btf();
	kernel_has_read(&k, btf, !(o->disabled & (1u << FAMILY_FORK)));
	ret = open_with_kernel(c, o, &k, msg, msglen);

	btf__free(btf);
	return ret;
}

/*
 * The lock maps count from attach: read them once so that the first
 * interval starts here, like the fault counters (mmtop's own start-up
 * would otherwise land in it).
 */
static void baseline_locks(struct collector *c)
{
	struct snapshot scratch;

	if (collector_snapshot_init(c, &scratch))
		return;
	if (c->locks)
		lock_source_read(c->locks, &scratch, c->drops);
	if (c->pcp)
		pcp_source_read(c->pcp, &scratch, c->drops);
	snapshot_free(&scratch);
}

/* What mmtop's programs have run so far. */
static void read_cost(struct collector *c, struct prog_cost *all)
{
	memset(all, 0, sizeof(*all));
	if (c->faults.ops && c->faults.ops->cost)
		c->faults.ops->cost(&c->faults, all);
	if (c->pcp)
		pcp_source_cost(c->pcp, all);
	if (c->locks)
		lock_source_cost(c->locks, false, all);
}

int collector_open(struct collector *c, const struct collector_opts *opts,
		   char *msg, size_t msglen)
{
	int nr, ret, pid, at = 0;

	memset(c, 0, sizeof(*c));
	c->stats_fd = -1;
	ret = topology_load(&c->topo);
	if (ret) {
		snprintf(msg, msglen, "reading CPU topology: %s", strerror(-ret));
		return -1;
	}
	nr = c->topo.nr_cpus;
	c->online = calloc(nr, sizeof(*c->online));
	c->cum = calloc(nr, sizeof(*c->cum));
	c->prev = calloc(nr, sizeof(*c->prev));
	if (!c->online || !c->cum || !c->prev) {
		snprintf(msg, msglen, "out of memory");
		return -1;
	}
	c->slow_ns = opts->slow_ns;
	c->exact_every = opts->exact_every;
	c->pids = opts->pids;
	/*
	 * mmtop's own cost, shown. The statistics cost every program run
	 * two clock reads: the default set's programs run on rare events,
	 * exact mode's show what they cost with them.
	 */
	c->stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
	if (c->stats_fd < 0)
		c->stats_fd = -errno;
	while (opts->pids && (pid = pid_filter_next(opts->pids, &at)))
		vma_track(&c->vmas, pid, "", 0);
	/* Call sites' names load while the fault family's programs do. */
	if (~opts->disabled & (1u << FAMILY_MMAP_LOCK | 1u << FAMILY_CONTENTION | 1u << FAMILY_FORK))
		ksyms_load_begin(&c->ksyms, "/proc/kallsyms");
	ret = open_families(c, opts, msg, msglen);
	if (ret < 0)
		return -1;
	c->last_ns = clock_ns(CLOCK_MONOTONIC);
	read_sources(c);
	memcpy(c->prev, c->cum, nr * sizeof(*c->prev));
	baseline_locks(c);
	read_cost(c, &c->cost_all);
	proc_busy_ns(&c->busy_ns);
	c->self_ns = proc_self_cpu_ns();
	/* --exact's attach is start-up, not the first interval's. */
	c->toggle_ns = 0;
	if (collector_exact(c))
		c->exact_since_ns = c->last_ns;
	return ret;
}

int collector_snapshot_init(const struct collector *c, struct snapshot *s)
{
	return snapshot_init(s, c->topo.nr_cpus, c->topo.nr_nodes);
}

static void vma_rows(struct collector *c, struct snapshot *s)
{
	const struct proc_faults *procs = NULL;
	int nr = 0;

	if (c->faults.ops && c->faults.ops->processes)
		procs = c->faults.ops->processes(&c->faults, &nr);
	vma_rows_build(&c->vmas, s, procs, nr, c->pids);
}

static uint64_t delta(uint64_t now, uint64_t before)
{
	return now >= before ? now - before : 0;
}

/* mmtop's cost in the interval, and the machine's work. */
static void account_cost(struct collector *c, struct snapshot *s)
{
	uint64_t busy = c->busy_ns, self = proc_self_cpu_ns();
	struct prog_cost all;

	read_cost(c, &all);
	s->bpf_measured = c->stats_fd >= 0 || all.runs;
	s->bpf_runs = delta(all.runs, c->cost_all.runs);
	s->bpf_ns = delta(all.ns, c->cost_all.ns);
	s->bpf_map_bytes = all.map_bytes;
	proc_busy_ns(&busy);
	s->busy_ns = delta(delta(busy, c->busy_ns), delta(self, c->self_ns));
	c->cost_all = all;
	c->busy_ns = busy;
	c->self_ns = self;
}

bool collector_exact(const struct collector *c)
{
	return c->locks && lock_source_exact_on(c->locks);
}

int collector_set_exact(struct collector *c, bool on, char *msg, size_t msglen)
{
	uint64_t cpu = proc_self_cpu_ns(), t0 = clock_ns(CLOCK_MONOTONIC), wall;

	if (!c->locks) {
		snprintf(msg, msglen, "exact mode needs the mmap_lock or fork probes");
		return -1;
	}
	if (collector_exact(c) == on)
		return 0;
	if (lock_source_exact(c->locks, on, msg, msglen))
		return -1;
	wall = clock_ns(CLOCK_MONOTONIC) - t0;
	/* The other CPUs took the text patching's IPIs meanwhile, at most. */
	c->toggle_ns += delta(proc_self_cpu_ns(), cpu) + wall * (online_cpus(c) - 1);
	if (on) {
		c->exact_since_ns = t0 + wall;
	} else {
		c->exact_ns += delta(t0, c->exact_since_ns);
		c->exact_since_ns = 0;
	}
	return 0;
}

/* The share of the interval ending @now that exact mode was on, in ppm. */
static uint32_t exact_share(struct collector *c, uint64_t now, uint64_t interval_ns)
{
	uint64_t on = c->exact_ns;

	if (c->exact_since_ns) {
		on += delta(now, c->exact_since_ns);
		c->exact_since_ns = now;
	}
	c->exact_ns = 0;
	if (on >= interval_ns)
		return SAMPLE_EXACT;
	return interval_ns ? on * SAMPLE_EXACT / interval_ns : 0;
}

/*
 * --exact-every N: exact mode for the intervals N, 2N, ...: turned on as
 * the one before ends (@on), so that it covers all of it but the attach,
 * and off as it ends, before its maps are read (the detach is its cost).
 * Scheduled, never decided by what the work does.
 */
static void exact_schedule(struct collector *c, bool on)
{
	char why[200];

	if (c->exact_every && (c->seq + 1) % c->exact_every == 0)
		collector_set_exact(c, on, why, sizeof(why));
}

uint32_t collector_probes(const struct collector *c)
{
	uint32_t probes = 0;

	if (c->faults.ops)
		probes |= 1u << c->faults.probe;
	if (c->locks)
		probes |= lock_source_probes(c->locks);
	if (c->pcp)
		probes |= 1u << pcp_source_probe(c->pcp);
	return probes;
}

void collector_sample(struct collector *c, struct snapshot *s)
{
	uint64_t now;
	int cpu;

	/*
	 * The clocks first: every event before wall_ns is in this interval
	 * or an earlier one (a consumer waiting for an interval that ended
	 * after its workload gets all of the workload).
	 */
	now = clock_ns(CLOCK_MONOTONIC);
	s->wall_ns = clock_ns(CLOCK_REALTIME);
	exact_schedule(c, false);
	read_sources(c);
	s->seq = ++c->seq;
	s->interval_ns = now - c->last_ns;
	s->probes = collector_probes(c);
	memcpy(s->na, c->na, sizeof(s->na));
	s->slow_ns = c->slow_ns;
	c->last_ns = now;
	for (cpu = 0; cpu < c->topo.nr_cpus; cpu++) {
		struct cpu_sample *cs = &s->cpus[cpu];

		cs->online = c->online[cpu];
		cs->node = c->topo.cpu_node[cpu];
		memset(&cs->faults, 0, sizeof(cs->faults));
		cs->fallbacks = cs->anon = 0;
		memset(&cs->pcp, 0, sizeof(cs->pcp));
		if (!cs->online)
			continue;
		cs->faults.min_flt = delta(c->cum[cpu].min_flt, c->prev[cpu].min_flt);
		cs->faults.maj_flt = delta(c->cum[cpu].maj_flt, c->prev[cpu].maj_flt);
		c->prev[cpu] = c->cum[cpu];
	}
	snapshot_clear_rows(s);
	s->exact_ppm = exact_share(c, now, s->interval_ns);
	s->attach_ns = c->toggle_ns;
	c->toggle_ns = 0;
	if (c->locks) {
		lock_source_read(c->locks, s, c->drops);
		/* The default set's rows: the faults, the outcome n/a. */
		if (!s->vma_na[0] || !strcmp(s->vma_na, EXACT_MODE_ONLY))
			vma_rows(c, s);
	}
	if (c->pcp)
		pcp_source_read(c->pcp, s, c->drops);
	memcpy(s->drops, c->drops, sizeof(s->drops));
	account_cost(c, s);
	snapshot_sum(s);
	exact_schedule(c, true);
}

void collector_poll(struct collector *c)
{
	if (c->locks)
		lock_source_poll(c->locks);
}

int collector_poll_fd(const struct collector *c)
{
	return c->locks ? lock_source_fd(c->locks) : -1;
}

void collector_close(struct collector *c)
{
	if (c->faults.ops)
		c->faults.ops->close(&c->faults);
	lock_source_close(c->locks);
	if (c->ksyms.begun) {
		struct ksyms unused;

		if (!ksyms_load_end(&c->ksyms, &unused))
			ksyms_free(&unused);
	}
	if (c->stats_fd >= 0)
		close(c->stats_fd);
	pcp_source_close(c->pcp);
	free(c->online);
	free(c->cum);
	free(c->prev);
	topology_free(&c->topo);
	memset(c, 0, sizeof(*c));
}
