// SPDX-License-Identifier: GPL-2.0
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "exposition.h"
#include "util.h"

/* The q value of one media range ("type/sub;a=b;q=0.5"), 1 without one. */
static double media_q(const char *p, const char *end)
{
	const char *q;

	for (q = p; q < end; q++) {
		if (*q != ';')
			continue;
		while (q + 1 < end && q[1] == ' ')
			q++;
		if (end - q > 2 && !strncasecmp(q + 1, "q=", 2))
			return strtod(q + 3, NULL);
	}
	return 1;
}

static bool media_is(const char *p, const char *end, const char *type)
{
	size_t n = strlen(type);

	return (size_t)(end - p) >= n && !strncasecmp(p, type, n) &&
	       (p + n == end || p[n] == ';' || p[n] == ' ');
}

enum expo_format expo_negotiate(const char *accept)
{
	double om = 0, text = 0;
	const char *p = accept;

	while (p && *p) {
		const char *end = strchr(p, ',');
		double q;

		end = end ? end : p + strlen(p);
		while (p < end && *p == ' ')
			p++;
		q = media_q(p, end);
		if (media_is(p, end, "application/openmetrics-text"))
			om = q > om ? q : om;
		else if (media_is(p, end, "text/plain") || media_is(p, end, "text/*") ||
			 media_is(p, end, "*/*"))
			text = q > text ? q : text;
		p = *end ? end + 1 : end;
	}
	return om > 0 && om >= text ? EXPO_OPENMETRICS : EXPO_PROMETHEUS;
}

const char *expo_content_type(enum expo_format fmt)
{
	return fmt == EXPO_OPENMETRICS ?
	       "application/openmetrics-text; version=1.0.0; charset=utf-8" :
	       "text/plain; version=0.0.4; charset=utf-8";
}

struct expo {
	FILE *f;
	bool om;
};

/*
 * A label value: valid UTF-8, with \\, \" and \n escaped as both formats
 * want; other control bytes and bytes that are not UTF-8 become the four
 * characters \xNN, so no value can break a line or the parser.
 */
static void label_value(FILE *f, const char *v)
{
	unsigned int cp;
	bool plain;
	int n, i;

	for (; (n = text_char(v, &plain, &cp)); v += n) {
		if (plain && (*v == '\\' || *v == '"'))
			fprintf(f, "\\%c", *v);
		else if (plain)
			fwrite(v, 1, n, f);
		else if (*v == '\n')
			fputs("\\n", f);
		else
			for (i = 0; i < n; i++)
				fprintf(f, "\\\\x%02x", (unsigned char)v[i]);
	}
}

/* name{k="v",...} value: labels as key, value pairs ending with NULL. */
static void sample(struct expo *e, const char *name, const char *value, ...)
{
	const char *key;
	bool first = true;
	va_list ap;

	fputs(name, e->f);
	va_start(ap, value);
	while ((key = va_arg(ap, const char *))) {
		fprintf(e->f, "%s%s=\"", first ? "{" : ",", key);
		label_value(e->f, va_arg(ap, const char *));
		fputc('"', e->f);
		first = false;
	}
	va_end(ap);
	fprintf(e->f, "%s %s\n", first ? "" : "}", value);
}

/* HELP and TYPE; 0.0.4 names a counter family by its _total samples. */
static void family(struct expo *e, const char *name, const char *type, const char *help)
{
	const char *sfx = !e->om && !strcmp(type, "counter") ? "_total" : "";

	fprintf(e->f, "# HELP %s%s %s\n# TYPE %s%s %s\n", name, sfx, help, name, sfx, type);
}

/* A family of one sample, without labels. */
static void single(struct expo *e, const char *name, const char *type, const char *help,
		   const char *value)
{
	char sample_name[96];

	family(e, name, type, help);
	snprintf(sample_name, sizeof(sample_name), "%s%s", name,
		 strcmp(type, "counter") ? "" : "_total");
	sample(e, sample_name, value, NULL);
}

static const char *u64(char *buf, uint64_t v)
{
	sprintf(buf, "%" PRIu64, v);
	return buf;
}

static const char *secs(char *buf, uint64_t ns)
{
	sprintf(buf, "%.9f", ns / 1e9);
	return buf;
}

static const char *num(char *buf, int v)
{
	sprintf(buf, "%d", v);
	return buf;
}

static void build_info(struct expo *e, const char *kernel)
{
	const char *name = e->om ? "mmtop_build" : "mmtop_build_info";

	family(e, name, e->om ? "info" : "gauge",
	       "mmtop's version and the kernel it runs on; the value is 1.");
	sample(e, "mmtop_build_info", "1", "version", MMTOP_VERSION, "kernel", kernel, NULL);
}

static void state(struct expo *e, const struct metrics *m)
{
	char v[32];
	int i;

	single(e, "mmtop_intervals", "counter", "Intervals collected since mmtop started.",
	       u64(v, m->intervals));
	sprintf(v, "%.6f", m->last_wall_ns / 1e9);
	single(e, "mmtop_last_interval_timestamp_seconds", "gauge",
	       "When the last collected interval ended (Unix time).", v);
	family(e, "mmtop_probe_enabled", "gauge",
	       "1 if the probe family is on, 0 if disabled or unavailable.");
	for (i = 0; i < FAMILY__COUNT; i++)
		sample(e, "mmtop_probe_enabled", m->family_on[i] ? "1" : "0",
		       "family", family_name(i), NULL);
}

static void cpu_counter(struct expo *e, const struct metrics *m, const char *name,
			const char *help, size_t off)
{
	char v[32], cpu[16], sample_name[96];
	int i;

	family(e, name, "counter", help);
	snprintf(sample_name, sizeof(sample_name), "%s_total", name);
	for (i = 0; i < m->nr_cpus; i++)
		sample(e, sample_name, u64(v, *(uint64_t *)((char *)&m->cpus[i] + off)),
		       "cpu", num(cpu, i), NULL);
}

static void faults(struct expo *e, const struct metrics *m)
{
	char v[32], cpu[16], node[16];
	int i, t;

	if (!m->family_on[FAMILY_FAULTS])
		return;
	family(e, "mmtop_page_faults", "counter", "Page faults, by CPU, its NUMA node and type.");
	for (i = 0; i < m->nr_cpus; i++)
		for (t = 0; t < 2; t++)
			sample(e, "mmtop_page_faults_total",
			       u64(v, t ? m->cpus[i].major : m->cpus[i].minor),
			       "cpu", num(cpu, i), "node", num(node, m->cpus[i].node),
			       "type", t ? "major" : "minor", NULL);
}

/* The BPF log2 buckets as cumulative le buckets: every octave, 1 us to 2 s. */
#define LOCK_LE_MIN_LOG2 10
#define LOCK_LE_MAX_LOG2 31

static void lock_hist(struct expo *e, const char *name, const struct metric_lock *l,
		      const struct hist *h, uint64_t sum_ns)
{
	const char *mode = l->write ? "write" : "read";
	char v[32], le[32], bucket[96], other[96];
	uint64_t cum = 0;
	int i, k = 0;

	snprintf(bucket, sizeof(bucket), "%s_bucket", name);
	for (i = LOCK_LE_MIN_LOG2; i <= LOCK_LE_MAX_LOG2; i++) {
		/* le = 2^i ns holds log2 buckets 0 .. i-1. */
		for (; k < i; k++)
			cum += h->bucket[k];
		sprintf(le, "%.9g", (double)(1ULL << i) / 1e9);
		sample(e, bucket, u64(v, cum), "site", l->site, "mode", mode, "le", le, NULL);
	}
	for (; k < SNAPSHOT_HIST_BUCKETS; k++)
		cum += h->bucket[k];
	sample(e, bucket, u64(v, cum), "site", l->site, "mode", mode, "le", "+Inf", NULL);
	snprintf(other, sizeof(other), "%s_sum", name);
	sample(e, other, secs(v, sum_ns), "site", l->site, "mode", mode, NULL);
	snprintf(other, sizeof(other), "%s_count", name);
	sample(e, other, u64(v, cum), "site", l->site, "mode", mode, NULL);
}

static void locks(struct expo *e, const struct metrics *m)
{
	char v[32];
	int i;

	if (!m->family_on[FAMILY_MMAP_LOCK])
		return;
	if (m->vma_on) {
		cpu_counter(e, m, "mmtop_vma_lock_fallbacks",
			    "Page faults that fell back from the per-VMA lock to mmap_lock, by CPU. Exact mode's: grows only while mmtop_exact_ratio is above 0.",
			    offsetof(struct metric_cpu, fallbacks));
		cpu_counter(e, m, "mmtop_vma_lock_anon_vma",
			    "VMA-locked page faults that took mmap_lock to set up an anon_vma, by CPU. Exact mode's: grows only while mmtop_exact_ratio is above 0.",
			    offsetof(struct metric_cpu, anon));
	}
	family(e, "mmtop_mmap_lock_acquisitions", "counter",
	       "mmap_lock acquisitions, by the kernel call site that took it and mode. Exact mode's: grows only while mmtop_exact_ratio is above 0.");
	for (i = 0; i < m->nr_locks; i++)
		sample(e, "mmtop_mmap_lock_acquisitions_total", u64(v, m->locks[i].acquired),
		       "site", m->locks[i].site, "mode", m->locks[i].write ? "write" : "read", NULL);
	family(e, "mmtop_mmap_lock_failed_acquisitions", "counter",
	       "mmap_lock trylocks and killable waits that failed, by call site and mode. Exact mode's: grows only while mmtop_exact_ratio is above 0.");
	for (i = 0; i < m->nr_locks; i++)
		sample(e, "mmtop_mmap_lock_failed_acquisitions_total", u64(v, m->locks[i].failed),
		       "site", m->locks[i].site, "mode", m->locks[i].write ? "write" : "read", NULL);
	family(e, "mmtop_mmap_lock_wait_seconds", "histogram",
	       "mmap_lock waits (the rwsem's slow path), by call site and mode: to contention_end, in exact mode to the acquisition.");
	for (i = 0; i < m->nr_locks; i++)
		lock_hist(e, "mmtop_mmap_lock_wait_seconds", &m->locks[i], &m->locks[i].wait,
			  m->locks[i].wait_ns);
	family(e, "mmtop_mmap_lock_hold_seconds", "histogram",
	       "Time mmap_lock was held, by call site and mode. Exact mode's: grows only while mmtop_exact_ratio is above 0.");
	for (i = 0; i < m->nr_locks; i++)
		lock_hist(e, "mmtop_mmap_lock_hold_seconds", &m->locks[i], &m->locks[i].hold,
			  m->locks[i].hold_ns);
}

static void proc_family(struct expo *e, const struct metrics *m, const char *name,
			const char *help, size_t off, bool ns)
{
	char v[32], pid[16], sample_name[96];
	int i;

	family(e, name, "counter", help);
	snprintf(sample_name, sizeof(sample_name), "%s_total", name);
	for (i = 0; i <= m->nr_procs; i++) {
		const struct metric_proc *p = i < m->nr_procs ? &m->procs[i] : &m->other;
		uint64_t x = *(const uint64_t *)((const char *)p + off);

		if (m->by_pid)
			sample(e, sample_name, ns ? secs(v, x) : u64(v, x),
			       "pid", p->pid ? num(pid, p->pid) : "", "comm", p->comm, NULL);
		else
			sample(e, sample_name, ns ? secs(v, x) : u64(v, x), "comm", p->comm, NULL);
	}
}

static void procs(struct expo *e, const struct metrics *m)
{
	if (!m->family_on[FAMILY_MMAP_LOCK])
		return;
	proc_family(e, m, "mmtop_process_mmap_lock_acquisitions",
		    "mmap_lock acquisitions of the busiest commands (--top; by pid with --pid-label); the rest as comm=\"other\". Exact mode's: grows only while mmtop_exact_ratio is above 0.",
		    offsetof(struct metric_proc, acquired), false);
	proc_family(e, m, "mmtop_process_mmap_lock_wait_seconds",
		    "Time the busiest commands (--top; by pid with --pid-label) waited for mmap_lock; the rest as comm=\"other\".",
		    offsetof(struct metric_proc, wait_ns), true);
	proc_family(e, m, "mmtop_process_mmap_lock_hold_seconds",
		    "Time the busiest commands (--top; by pid with --pid-label) held mmap_lock; the rest as comm=\"other\". Exact mode's: grows only while mmtop_exact_ratio is above 0.",
		    offsetof(struct metric_proc, hold_ns), true);
	if (m->vma_on)
		proc_family(e, m, "mmtop_process_vma_lock_fallbacks",
			    "Faults of the busiest commands (--top; by pid with --pid-label) that took mmap_lock; the rest as comm=\"other\". Exact mode's: grows only while mmtop_exact_ratio is above 0.",
			    offsetof(struct metric_proc, fallbacks), false);
}

static void conts(struct expo *e, const struct metrics *m)
{
	char v[32];
	int i;

	if (!m->family_on[FAMILY_CONTENTION])
		return;
	family(e, "mmtop_lock_contentions", "counter",
	       "Contended lock waits (lock:contention_begin), by class of lock.");
	for (i = 0; i < CONT_CLASS__COUNT; i++)
		sample(e, "mmtop_lock_contentions_total", u64(v, m->cont_count[i]),
		       "class", cont_class_name(i), NULL);
	family(e, "mmtop_lock_contention_wait_seconds", "counter",
	       "Time spent in contended lock waits, by class of lock.");
	for (i = 0; i < CONT_CLASS__COUNT; i++)
		sample(e, "mmtop_lock_contention_wait_seconds_total", secs(v, m->cont_wait_ns[i]),
		       "class", cont_class_name(i), NULL);
}

static const char *const mode_names[2] = { "read", "write" };

/*
 * One family of the blame pairs seen so far (site, mode and holder kind
 * bound the series): the count, or the wait in seconds.
 */
static void blame_family(struct expo *e, const struct metrics *m, const char *name,
			 bool seconds)
{
	const struct metric_blame *b = &m->blame[0][0][0][0][0];
	size_t i, n = sizeof(m->blame) / sizeof(*b);
	char v[32];

	/* The array in order: [waiter site][mode][holder site][mode][holder]. */
	for (i = 0; i < n; i++) {
		size_t f = i % BLAME__COUNT, rest = i / BLAME__COUNT;
		size_t hm = rest % 2, h = rest / 2 % CALLSITE__COUNT;
		size_t wm = rest / (2 * CALLSITE__COUNT) % 2, w = rest / (4 * CALLSITE__COUNT);

		if (b[i].count)
			sample(e, name, seconds ? secs(v, b[i].wait_ns) : u64(v, b[i].count),
			       "waiter_site", callsite_name(w), "waiter_mode", mode_names[wm],
			       "holder_site", callsite_name(h), "holder_mode", mode_names[hm],
			       "holder", blame_holder_names[f], NULL);
	}
}

/* One cgroup pair's sample of @name (the count, or the wait in seconds). */
static void cgroup_sample(struct expo *e, const char *name, const struct metric_cgroup_pair *p,
			  bool seconds)
{
	char v[32];

	sample(e, name, seconds ? secs(v, p->wait_ns) : u64(v, p->count), "cgroup", p->cgroup,
	       "holder_cgroup", p->holder_cgroup[0] ? p->holder_cgroup : "none", NULL);
}

/* --cgroup-label: the blame waits by the waiter's cgroup and the holder's. */
static void cgroup_family(struct expo *e, const struct metrics *m, const char *name,
			  bool seconds)
{
	int i;

	for (i = 0; i < m->nr_cgroups; i++)
		cgroup_sample(e, name, &m->cgroups[i], seconds);
	if (m->cgroup_other.count)
		cgroup_sample(e, name, &m->cgroup_other, seconds);
}

/*
 * Two families of the same labels, the waits and their time (@fill writes
 * the samples of either: the count, or the seconds).
 */
static void waits_and_seconds(struct expo *e, const struct metrics *m, const char *waits,
			      const char *seconds, const char *help,
			      void (*fill)(struct expo *e, const struct metrics *m,
					   const char *name, bool seconds))
{
	char total[96];

	family(e, waits, "counter", help);
	snprintf(total, sizeof(total), "%s_total", waits);
	fill(e, m, total, false);
	family(e, seconds, "counter", "Time in those waits, by the same labels.");
	snprintf(total, sizeof(total), "%s_total", seconds);
	fill(e, m, total, true);
}

static void blame(struct expo *e, const struct metrics *m)
{
	if (!m->family_on[FAMILY_MMAP_LOCK])
		return;
	waits_and_seconds(e, m, "mmtop_mmap_lock_blame_waits", "mmtop_mmap_lock_blame_wait_seconds",
			  "mmap_lock waits that began behind a holder, by the waiter's and the holder's call site and mode, and whether the holder is the waiter's own process, another (foreign) or none seen (none: the wait began as the lock changed hands): the holder whose release let it through (where the kernel has lock:contended_release, and in exact mode), else the rwsem's owner as the wait began (a writer's site the syscall it was in).",
			  blame_family);
	if (m->cgroup_depth)
		waits_and_seconds(e, m, "mmtop_mmap_lock_cgroup_waits",
				  "mmtop_mmap_lock_cgroup_wait_seconds",
				  "The same waits by the waiter's cgroup (v2) and the holder's (none: nobody seen), as each was when the wait began, cut to --cgroup-label's depth; the first --top pairs seen, the rest as other.",
				  cgroup_family);
}

static const char *const backing_names[BACKING__COUNT] = { "4k", "thp", "unknown" };

static void fork_hist(struct expo *e, const struct metric_fork *f, const char *backing)
{
	char v[32], le[32];
	uint64_t cum = 0;
	int i;

	for (i = 0; i < FORK_BUCKETS; i++) {
		cum += f->bucket[i];
		sprintf(le, "%.9g", fork_bucket_le(i));
		sample(e, "mmtop_fork_latency_seconds_bucket", u64(v, cum),
		       "backing", backing, "le", le, NULL);
	}
	sample(e, "mmtop_fork_latency_seconds_bucket", u64(v, f->count),
	       "backing", backing, "le", "+Inf", NULL);
	sample(e, "mmtop_fork_latency_seconds_sum", secs(v, f->sum_ns), "backing", backing, NULL);
	sample(e, "mmtop_fork_latency_seconds_count", u64(v, f->count), "backing", backing, NULL);
}

static void forks(struct expo *e, const struct metrics *m)
{
	uint64_t n = 0;
	char v[32];
	int i;

	if (!m->family_on[FAMILY_FORK])
		return;
	for (i = 0; i < BACKING__COUNT; i++)
		n += m->forks[i].count;
	n += m->forks_untimed;
	single(e, "mmtop_forks", "counter", "Forks of a new mm (fork, vfork, clone without CLONE_VM).",
	       u64(v, n));
	family(e, "mmtop_fork_latency_seconds", "histogram",
	       "Fork latency, by the parent's backing: 4k, thp (half its anon RSS or more), unknown; of the forks timed (from kernel_clone where fentry or a kprobe attaches, else in exact mode).");
	for (i = 0; i < BACKING__COUNT; i++)
		if (i != BACKING_UNKNOWN || m->forks[i].count)
			fork_hist(e, &m->forks[i], backing_names[i]);
}

static void pcp(struct expo *e, const struct metrics *m)
{
	char v[32], cpu[16];
	int i;

	if (!m->family_on[FAMILY_PCP])
		return;
	family(e, "mmtop_pcp_pages", "counter",
	       "Pages moved between a CPU's PCP lists and the buddy allocator.");
	for (i = 0; i < m->nr_cpus; i++) {
		sample(e, "mmtop_pcp_pages_total", u64(v, m->cpus[i].pcp_refill_pages),
		       "cpu", num(cpu, i), "kind", "refill", NULL);
		sample(e, "mmtop_pcp_pages_total", u64(v, m->cpus[i].pcp_drain_pages),
		       "cpu", num(cpu, i), "kind", "drain", NULL);
	}
}

static void drops(struct expo *e, const struct metrics *m)
{
	char v[32];
	int i;

	family(e, "mmtop_dropped_events", "counter",
	       "Records or counts the collector lost, by reason.");
	for (i = 0; i < DROP__COUNT; i++)
		sample(e, "mmtop_dropped_events_total", u64(v, m->drops[i]),
		       "reason", drop_name(i), NULL);
}

/* What mmtop costs, and how much of each interval it traced. */
static void observer(struct expo *e, const struct metrics *m)
{
	char v[32];

	sprintf(v, "%.6f", m->exact_ppm / 1e6);
	single(e, "mmtop_exact_ratio", "gauge",
	       "Share of the last interval exact mode was on, the programs run per mmap_lock acquisition attached (1: every acquisition traced; 0: the default set, waits alone).",
	       v);
	single(e, "mmtop_attach_seconds", "counter",
	       "CPU time turning exact mode on and off cost: mmtop's own, plus at most as long as each lasted on every other online CPU (the kernel patches its text under IPIs to each).",
	       secs(v, m->attach_ns));
	if (m->bpf_map_bytes)
		single(e, "mmtop_bpf_map_bytes", "gauge",
		       "Kernel memory mmtop's BPF maps hold, by the kernel's own account (fdinfo memlock).",
		       u64(v, m->bpf_map_bytes));
	/* Not measured (the kernel's BPF statistics off): no series. */
	if (!m->bpf_measured)
		return;
	single(e, "mmtop_bpf_seconds", "counter",
	       "CPU time mmtop's BPF programs ran (the kernel's BPF statistics; the hooks' own entry not included).",
	       secs(v, m->bpf_ns));
	single(e, "mmtop_bpf_runs", "counter", "Runs of mmtop's BPF programs.",
	       u64(v, m->bpf_runs));
	single(e, "mmtop_work_cpu_seconds", "counter",
	       "CPU time the machine's work used (/proc/stat, busy; mmtop's own left out): mmtop_bpf_seconds_total over it is mmtop's share.",
	       secs(v, m->busy_ns));
}

void expo_write(FILE *f, const struct metrics *m, enum expo_format fmt,
		const char *kernel, uint64_t start_ns)
{
	struct expo e = { f, fmt == EXPO_OPENMETRICS };
	char v[32];

	build_info(&e, kernel);
	state(&e, m);
	faults(&e, m);
	locks(&e, m);
	procs(&e, m);
	blame(&e, m);
	conts(&e, m);
	forks(&e, m);
	pcp(&e, m);
	drops(&e, m);
	observer(&e, m);
	family(&e, "mmtop_scrape_duration_seconds", "gauge",
	       "Time mmtop took to build this exposition.");
	sprintf(v, "%.6f", (clock_ns(CLOCK_MONOTONIC) - start_ns) / 1e9);
	sample(&e, "mmtop_scrape_duration_seconds", v, NULL);
	if (e.om)
		fputs("# EOF\n", f);
}
