// SPDX-License-Identifier: GPL-2.0
/*
 * Every item is checked by loading and attaching a program (or opening a
 * counter) for real, then closing it: a BTF id alone does not prove that
 * attaching works (fentry is known to fail with EPERM on some kernels that
 * have the BTF).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/utsname.h>

#include <linux/capability.h>

#include "caps.h"
#include "fault_source.h"
#include "kernel_has.h"
#include "collect.h"
#include "perf_counter.h"
#include "probe.h"
#include "prog_probe.h"
#include "topology.h"
#include "util.h"

__attribute__((format(printf, 4, 5)))
static void item(FILE *f, const char *name, bool ok, const char *fmt, ...)
{
	char detail[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(detail, sizeof(detail), fmt, ap);
	va_end(ap);
	fprintf(f, "%-48s %-3s %s\n", name, ok ? "yes" : "no", detail);
}

/* "struct mm_struct *", "bool", ... for an argument in a BTF prototype. */
static void type_str(const struct btf *btf, __u32 id, char *buf, size_t len)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	const char *name;

	while (t && (btf_is_const(t) || btf_is_volatile(t)))
		t = btf__type_by_id(btf, t->type);
	if (!t || btf_is_void(t)) {
		snprintf(buf, len, "void");
		return;
	}
	if (btf_is_ptr(t)) {
		type_str(btf, t->type, buf, len);
		strncat(buf, " *", len - strlen(buf) - 1);
		return;
	}
	name = btf__name_by_offset(btf, t->name_off);
	snprintf(buf, len, "%s%s", btf_is_struct(t) ? "struct " :
		 btf_is_union(t) ? "union " : btf_is_enum(t) ? "enum " : "",
		 name && *name ? name : "?");
}

/* The arguments of prototype @proto_id of @btf: "struct page *, unsigned int". */
static void tp_args(const struct btf *btf, int proto_id, char *buf, size_t len)
{
	const struct btf_type *t = btf__type_by_id(btf, proto_id);
	const struct btf_param *p = btf_params(t);
	size_t n = 0;
	int i;

	buf[0] = '\0';
	for (i = 1; i < btf_vlen(t) && n < len; i++) {
		char arg[96];

		type_str(btf, p[i].type, arg, sizeof(arg));
		n += snprintf(buf + n, len - n, "%s%s", i > 1 ? ", " : "", arg);
	}
}

/* mmap_lock events lost their memcg_path argument in 6.14. */
static const char *layout_note(const struct kernel_tp *tp, int nargs)
{
	int new_args = !strcmp(tp->name, "mmap_lock_acquire_returned") ? 3 : 2;

	if (strcmp(tp->group, "mmap_lock"))
		return "";
	return nargs == new_args ? " [6.14+ layout: no memcg_path]" :
	       " [pre-6.14 layout: with memcg_path]";
}

static bool probe_tracepoint(FILE *f, const struct btf *btf,
			     const struct kernel_tp *tp)
{
	char label[96], args[256] = "", how[128];
	const char *stage;
	int id, proto, nargs = kernel_tp_nargs(btf, tp->name, &proto), err = -ENOENT;

	snprintf(label, sizeof(label), "tracepoint %s:%s", tp->group, tp->name);
	id = prog_probe_tp_btf_id(btf, tp->name);
	if (nargs >= 0) {
		tp_args(btf, proto, args, sizeof(args));
		err = prog_probe_btf_attach(BPF_TRACE_RAW_TP, id, &stage);
		snprintf(how, sizeof(how), "tp_btf");
	}
	if (err) {
		/* raw_tp needs no BTF; it is the fallback for tp_btf. */
		char btf_why[64];

		snprintf(btf_why, sizeof(btf_why), id > 0 ? "tp_btf %s: %s; " :
			 "%s%s", id > 0 ? stage : "", id > 0 ? strerror(-err) : "");
		err = prog_probe_raw_tp(tp->name, &stage);
		snprintf(how, sizeof(how), "%sraw_tp", btf_why);
	}
	if (err) {
		char missing[96] = "";

		if (btf && nargs < 0)
			kernel_tp_missing(tp->name, missing, sizeof(missing));
		item(f, label, false, "%s%s%s %s: %s", missing, *missing ? "; " : "", how, stage,
		     strerror(-err));
		return false;
	}
	item(f, label, true, "%s attached; args (%s)%s", how,
	     nargs >= 0 ? args : "unknown without BTF", layout_note(tp, nargs));
	return true;
}

static bool probe_fentry(FILE *f, const struct btf *btf)
{
	const char *fn = "handle_mm_fault", *stage = "find";
	int id = btf ? btf__find_by_name_kind(btf, fn, BTF_KIND_FUNC) : -ENOENT;
	int err = id > 0 ? prog_probe_btf_attach(BPF_TRACE_FENTRY, id, &stage) : -ENOENT;

	if (err) {
		item(f, "program type fentry", false, "%s on %s: %s (optional: forks are then timed from a kprobe, else in exact mode only)",
		     stage, fn, strerror(-err));
		return false;
	}
	item(f, "program type fentry", true, "attached to %s", fn);
	return true;
}

/* Attach a BPF program of @type to a perf event opened from @attr. */
static int try_perf_bpf(struct perf_event_attr *attr, enum bpf_prog_type type,
			const char **stage)
{
	int fd, pfd, err = 0;

	*stage = "perf_event_open";
	pfd = syscall(SYS_perf_event_open, attr, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
	if (pfd < 0)
		return -errno;
	*stage = "load";
	fd = prog_probe_load(type, 0, 0);
	if (fd < 0) {
		close(pfd);
		return fd;
	}
	*stage = "attach";
	if (ioctl(pfd, PERF_EVENT_IOC_SET_BPF, fd))
		err = -errno;
	close(fd);
	close(pfd);
	return err;
}

static bool probe_kprobe(FILE *f)
{
	struct perf_event_attr attr = { .size = sizeof(attr) };
	const char *stage;
	char buf[32];
	int err;

	if (read_small_file("/sys/bus/event_source/devices/kprobe/type", buf,
			    sizeof(buf))) {
		item(f, "program type kprobe", false,
		     "no kprobe PMU: kernel built without CONFIG_KPROBES (optional: forks are timed from fentry)");
		return false;
	}
	attr.type = atoi(buf);
	attr.config1 = (__u64)(unsigned long)"handle_mm_fault";
	err = try_perf_bpf(&attr, BPF_PROG_TYPE_KPROBE, &stage);
	item(f, "program type kprobe", !err, err ? "%s: %s (optional: forks are timed from fentry)" : "%s%s",
	     err ? stage : "attached to handle_mm_fault", err ? strerror(-err) : "");
	return !err;
}

static const char *tracefs_dir(void)
{
	static const char *const dirs[] = {
		"/sys/kernel/tracing", "/sys/kernel/debug/tracing",
	};
	char path[128];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(dirs); i++) {
		snprintf(path, sizeof(path), "%s/events", dirs[i]);
		if (!access(path, R_OK))
			return dirs[i];
	}
	return NULL;
}

static bool probe_classic_tracepoint(FILE *f)
{
	struct perf_event_attr attr = { .size = sizeof(attr),
					.type = PERF_TYPE_TRACEPOINT,
					.sample_period = 1 };
	const char *dir = tracefs_dir(), *stage;
	char path[160], buf[32];
	int err;

	if (!dir) {
		item(f, "program type tracepoint", false,
		     "tracefs not mounted (mount -t tracefs nodev /sys/kernel/tracing); tp_btf and raw_tp need none");
		return false;
	}
	snprintf(path, sizeof(path), "%s/events/sched/sched_switch/id", dir);
	err = read_small_file(path, buf, sizeof(buf));
	if (err) {
		item(f, "program type tracepoint", false, "%s: %s", path, strerror(-err));
		return false;
	}
	attr.config = atoi(buf);
	err = try_perf_bpf(&attr, BPF_PROG_TYPE_TRACEPOINT, &stage);
	item(f, "program type tracepoint", !err, err ? "%s: %s" : "%s%s",
	     err ? stage : "attached to sched:sched_switch via ", err ? strerror(-err) : dir);
	return !err;
}

static bool probe_ringbuf(FILE *f)
{
	int fd = bpf_map_create(BPF_MAP_TYPE_RINGBUF, NULL, 0, 0,
				sysconf(_SC_PAGESIZE) * 16, NULL);

	item(f, "BPF ring buffer", fd >= 0, fd >= 0 ? "map created" : "%s",
	     strerror(errno));
	if (fd >= 0)
		close(fd);
	return fd >= 0;
}

static bool probe_test_run_on_cpu(FILE *f)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts, .flags = BPF_F_TEST_RUN_ON_CPU,
		    .cpu = 0);
	int fd = prog_probe_load(BPF_PROG_TYPE_RAW_TRACEPOINT, 0, 0), err;

	err = fd < 0 ? fd : bpf_prog_test_run_opts(fd, &opts) ? -errno : 0;
	if (fd >= 0)
		close(fd);
	item(f, "BPF_PROG_TEST_RUN on a chosen CPU", !err, err ? "%s" :
	     "raw_tp program run on CPU 0 (used for the zone and pcp lock address table)",
	     strerror(-err));
	return !err;
}

static bool probe_perf_faults(FILE *f)
{
	int fd = perf_sw_open(PERF_COUNT_SW_PAGE_FAULTS_MIN, 0);

	item(f, "perf software fault counters", fd >= 0, fd >= 0 ?
	     "page-faults-min opened on CPU 0 in counting mode" :
	     "perf_event_open: %s", strerror(-fd));
	if (fd >= 0)
		close(fd);
	return fd >= 0;
}

static void probe_topology(FILE *f)
{
	struct topology t;
	bool *online;
	int i, n = 0, err = topology_load(&t);

	if (err) {
		item(f, "CPUs", false, "%s", strerror(-err));
		return;
	}
	online = calloc(t.nr_cpus, sizeof(*online));
	if (online && !topology_online(&t, online))
		for (i = 0; i < t.nr_cpus; i++)
			n += online[i];
	item(f, "CPUs", n > 0, "%d possible, %d online", t.nr_cpus, n);
	if (t.numa)
		item(f, "NUMA nodes (libnuma)", true, "%d node%s", t.nr_nodes,
		     t.nr_nodes == 1 ? "" : "s");
	else
		item(f, "NUMA nodes (libnuma)", false,
		     "no NUMA support: all CPUs shown as node 0");
	free(online);
	topology_free(&t);
}

/* The families found by opening the collector as the live view does. */
static const char *const family_items[FAMILY__COUNT] = {
	[FAMILY_FAULTS] = "default: per-CPU fault counts",
	[FAMILY_MMAP_LOCK] = "default: mmap_lock waits, call sites, blame",
	[FAMILY_CONTENTION] = "default: lock contention classes",
	[FAMILY_FORK] = "default: fork cost",
	[FAMILY_PCP] = "opt-in: PCP refills and drains",
};

/* The probe names of @family active in @s, space separated. */
static void family_probes(const struct snapshot *s, enum probe_family family,
			  char *buf, size_t len)
{
	static const enum probe_family of[PROBE__COUNT] = {
		[PROBE_FAULTS_TP_BTF] = FAMILY_FAULTS, [PROBE_FAULTS_RAW_TP] = FAMILY_FAULTS,
		[PROBE_FAULTS_PERF] = FAMILY_FAULTS,
		[PROBE_MMAP_LOCK_TP_BTF] = FAMILY_MMAP_LOCK,
		[PROBE_MMAP_LOCK_RAW_TP] = FAMILY_MMAP_LOCK,
		[PROBE_CONTENTION_TP_BTF] = FAMILY_CONTENTION,
		[PROBE_CONTENTION_RAW_TP] = FAMILY_CONTENTION,
		[PROBE_FORK_TP_BTF] = FAMILY_FORK, [PROBE_FORK_RAW_TP] = FAMILY_FORK,
		[PROBE_PCP_TP_BTF] = FAMILY_PCP, [PROBE_PCP_RAW_TP] = FAMILY_PCP,
	};
	size_t n = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < PROBE__COUNT && n < len; i++)
		if (s->probes & (1u << i) && of[i] == family)
			n += snprintf(buf + n, len - n, "%s%s", n ? " " : "", probe_name(i));
}

/*
 * Exact mode, turned on and off once (here, not while anything is
 * watched: each patches the kernel's text at every mmap_lock call).
 */
static void probe_exact(FILE *f, struct collector *c)
{
	const char *what = "exact mode (--exact, x): acquisitions, holds";
	char why[256];

	if (collector_set_exact(c, true, why, sizeof(why))) {
		item(f, what, false, "%s (optional: the default set runs)", why);
		return;
	}
	collector_set_exact(c, false, why, sizeof(why));
	item(f, what, true, "mmap_lock_acquire_returned and _released attach");
}

/*
 * Open the collector with every family, the opt-in ones too, take one
 * short interval, and report each family. The default set can run when
 * every default family can; with fault counts alone it runs in part, and
 * @na lists what is missing.
 */
static bool probe_families(FILE *f, const struct kernel_has *k, char *na, size_t nalen)
{
	struct collector_opts o = {
		.faults = FAULT_SOURCE_AUTO, .attach = TP_AUTO,
		.enabled = 1u << FAMILY_PCP, .slow_ns = NSEC_PER_SEC, .kernel = k,
	};
	struct collector c;
	struct snapshot s;
	char msg[512] = "", names[128];
	int i, ret = collector_open(&c, &o, msg, sizeof(msg));

	if (ret < 0 || collector_snapshot_init(&c, &s)) {
		item(f, family_items[FAMILY_FAULTS], false, "%s", msg);
		collector_close(&c);
		return false;
	}
	collector_sample(&c, &s);
	for (i = 0; i < FAMILY__COUNT; i++) {
		if (s.na[i][0]) {
			item(f, family_items[i], false, "%s", s.na[i]);
			continue;
		}
		family_probes(&s, i, names, sizeof(names));
		if (i == FAMILY_CONTENTION)
			item(f, family_items[i], true, "%s; classified by %s", names, s.cont_method);
		else if (i == FAMILY_PCP)
			item(f, family_items[i], true, "%s; %s", names, s.pcp_method);
		else if (i == FAMILY_FORK)
			item(f, family_items[i], true, "%s; parent backing from %s", names,
			     s.fork_method);
		else if (i == FAMILY_MMAP_LOCK && s.waits_na[0])
			item(f, family_items[i], true, "%s; waits in exact mode only (%s)", names,
			     s.waits_na);
		else if (i == FAMILY_MMAP_LOCK)
			item(f, family_items[i], true, "%s; a wait's holder: %s", names, s.holders);
		else
			item(f, family_items[i], true, "%s", names);
	}
	probe_exact(f, &c);
	item(f, "kernel memory of mmtop's maps", s.bpf_map_bytes > 0,
	     "%.1f MiB with every family above (the kernel's account: fdinfo memlock), %d possible CPUs",
	     s.bpf_map_bytes / 1048576.0, libbpf_num_possible_cpus());
	if (ret > 0)
		item(f, "fallbacks taken", true, "%s", msg);
	na[0] = '\0';
	for (i = 0; i < FAMILY__COUNT; i++)
		if (i != FAMILY_PCP && s.na[i][0])
			snprintf(na + strlen(na), nalen - strlen(na), "%s%s",
				 na[0] ? ", " : "", family_name(i));
	i = !s.na[FAMILY_FAULTS][0];
	snapshot_free(&s);
	collector_close(&c);
	return i;
}

static int silent_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

void probe_kernel_features(char *buf, size_t len)
{
	libbpf_print_fn_t old = libbpf_set_print(silent_print);
	struct btf *btf = btf__load_vmlinux_btf();
	struct kernel_has k;

	kernel_has_read(&k, btf, true);
	kernel_has_features(&k, true, buf, len);
	btf__free(btf);
	libbpf_set_print(old);
}

int probe_run(FILE *f)
{
	struct kernel_has k;
	struct btf *btf;
	struct utsname u;
	char msg[256], na[128] = "";
	bool caps, syslog, ok;
	size_t i;
	libbpf_print_fn_t old = libbpf_set_print(silent_print);

	uname(&u);
	item(f, "kernel", true, "%s %s", u.sysname, u.release);
	caps = !caps_check_tracing(msg, sizeof(msg));
	item(f, "capabilities CAP_BPF, CAP_PERFMON", caps, caps ? "effective" : "%s", msg);
	syslog = cap_effective(CAP_SYSLOG);
	item(f, "capability CAP_SYSLOG", syslog, syslog ? "effective" :
	     "missing: /proc/kallsyms hides addresses, so mmap_lock, contention and fork (call sites) cannot run");
	btf = btf__load_vmlinux_btf();
	if (btf)
		item(f, "BTF /sys/kernel/btf/vmlinux", true, "loaded (%u types)",
		     btf__type_cnt(btf));
	else
		item(f, "BTF /sys/kernel/btf/vmlinux", false,
		     "%s: kernel needs CONFIG_DEBUG_INFO_BTF=y", strerror(errno));
	for (i = 0; i < nr_kernel_tps; i++)
		probe_tracepoint(f, btf, &kernel_tps[i]);
	kernel_has_read(&k, btf, true);
	kernel_has_print(f, &k);
	probe_fentry(f, btf);
	probe_kprobe(f);
	probe_classic_tracepoint(f);
	probe_ringbuf(f);
	probe_test_run_on_cpu(f);
	probe_perf_faults(f);
	probe_topology(f);
	ok = caps && probe_families(f, &k, na, sizeof(na));
	btf__free(btf);
	libbpf_set_print(old);
	if (ok && na[0])
		fprintf(f, "default probe set: can run in part (n/a: %s)\n", na);
	else
		fprintf(f, "default probe set: %s\n", ok ? "can run" : "cannot run");
	return ok && !na[0] ? 0 : 1;
}
