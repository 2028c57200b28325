// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "row_fields.h"
#include "snapshot.h"
#include "util.h"

static const char *const probe_names[PROBE__COUNT] = {
	[PROBE_FAULTS_TP_BTF] = "faults:tp_btf",
	[PROBE_FAULTS_RAW_TP] = "faults:raw_tp",
	[PROBE_FAULTS_PERF] = "faults:perf",
	[PROBE_MMAP_LOCK_TP_BTF] = "mmap_lock:tp_btf",
	[PROBE_MMAP_LOCK_RAW_TP] = "mmap_lock:raw_tp",
	[PROBE_CONTENTION_TP_BTF] = "contention:tp_btf",
	[PROBE_CONTENTION_RAW_TP] = "contention:raw_tp",
	[PROBE_FORK_TP_BTF] = "fork:tp_btf",
	[PROBE_FORK_RAW_TP] = "fork:raw_tp",
	[PROBE_PCP_TP_BTF] = "pcp:tp_btf",
	[PROBE_PCP_RAW_TP] = "pcp:raw_tp",
};

static const char *const family_names[FAMILY__COUNT] = {
	[FAMILY_FAULTS] = "faults",
	[FAMILY_MMAP_LOCK] = "mmap_lock",
	[FAMILY_CONTENTION] = "contention",
	[FAMILY_FORK] = "fork",
	[FAMILY_PCP] = "pcp",
};

static const char *const cont_class_names[CONT_CLASS__COUNT] = {
	[CONT_CLASS_OWN_MMAP] = "own-mmap_lock",
	[CONT_CLASS_OTHER_MMAP] = "other-mmap_lock",
	[CONT_CLASS_ZONE] = "zone",
	[CONT_CLASS_PCP] = "pcp",
	[CONT_CLASS_VMA_WRITE] = "vma-write",
	[CONT_CLASS_OTHER] = "other",
};

static const char *const callsite_names[CALLSITE__COUNT] = {
	[CALLSITE_FAULT] = "fault",
	[CALLSITE_FAULT_ANON] = "fault-anon",
	[CALLSITE_MMAP] = "mmap",
	[CALLSITE_MUNMAP] = "munmap",
	[CALLSITE_MREMAP] = "mremap",
	[CALLSITE_MPROTECT] = "mprotect",
	[CALLSITE_MADVISE] = "madvise",
	[CALLSITE_BRK] = "brk",
	[CALLSITE_FORK] = "fork",
	[CALLSITE_EXIT] = "exit",
	[CALLSITE_EXEC] = "exec",
	[CALLSITE_GUP] = "gup",
	[CALLSITE_PROC] = "proc",
	[CALLSITE_OTHER] = "other",
	[CALLSITE_UNKNOWN] = "unknown",
};

static const char *const drop_names[DROP__COUNT] = {
	[DROP_FLUSH] = "flush",
	[DROP_READ] = "read",
	[DROP_PROC_FAULTS] = "proc_faults",
	[DROP_MMAP_LOCK_TASK] = "mmap_lock_task",
	[DROP_MMAP_LOCK_STATS] = "mmap_lock_stats",
	[DROP_MMAP_LOCK_STACK] = "mmap_lock_stack",
	[DROP_MMAP_LOCK_EVENTS] = "mmap_lock_events",
	[DROP_CONT_TASK] = "contention_task",
	[DROP_CONT_STATS] = "contention_stats",
	[DROP_CONT_NESTED] = "contention_nested",
	[DROP_FORK_TASK] = "fork_task",
	[DROP_FORK_EVENTS] = "fork_events",
	[DROP_BLAME_HOLDERS] = "blame_holders",
	[DROP_BLAME_STATS] = "blame_stats",
};

int snapshot_init(struct snapshot *s, int nr_cpus, int nr_nodes)
{
	memset(s, 0, sizeof(*s));
	s->cpus = calloc(nr_cpus, sizeof(*s->cpus));
	s->nodes = calloc(nr_nodes, sizeof(*s->nodes));
	if (!s->cpus || !s->nodes) {
		snapshot_free(s);
		return -ENOMEM;
	}
	s->nr_cpus = nr_cpus;
	s->nr_nodes = nr_nodes;
	/* Until the collector says otherwise (and in recordings before 2.5). */
	s->exact_ppm = SAMPLE_EXACT;
	return 0;
}

void snapshot_free(struct snapshot *s)
{
	int i;

	free(s->cpus);
	free(s->nodes);
	for (i = 0; i < ROWS__COUNT; i++)
		free(snapshot_rows(s, &row_types[i])->v);
	memset(s, 0, sizeof(*s));
}

int snapshot_grow(void **v, int *cap, size_t size)
{
	int ncap = *cap ? *cap * 2 : 16;
	void *p = realloc(*v, ncap * size);

	if (!p)
		return -ENOMEM;
	*v = p;
	*cap = ncap;
	return 0;
}

void snapshot_clear_rows(struct snapshot *s)
{
	int i;

	for (i = 0; i < ROWS__COUNT; i++)
		snapshot_rows(s, &row_types[i])->nr = 0;
}

static void add_faults(struct fault_counts *sum, const struct fault_counts *f)
{
	sum->min_flt += f->min_flt;
	sum->maj_flt += f->maj_flt;
}

void pcp_add(struct pcp_counts *sum, const struct pcp_counts *p)
{
	sum->refills += p->refills;
	sum->refill_pages += p->refill_pages;
	sum->drains += p->drains;
	sum->drain_pages += p->drain_pages;
	sum->buddy_pages += p->buddy_pages;
}

void snapshot_sum(struct snapshot *s)
{
	int i;

	memset(s->nodes, 0, s->nr_nodes * sizeof(*s->nodes));
	memset(&s->total, 0, sizeof(s->total));
	for (i = 0; i < s->nr_cpus; i++) {
		const struct cpu_sample *c = &s->cpus[i];
		struct node_sample *n = &s->nodes[c->node];

		n->nr_online += c->online;
		add_faults(&n->faults, &c->faults);
		add_faults(&s->total, &c->faults);
		n->fallbacks += c->fallbacks;
		n->anon += c->anon;
	}
	/* PCP traffic belongs to the node of the zone, not of the CPU. */
	for (i = 0; i < s->zones.nr; i++)
		if (s->zones.v[i].node >= 0 && s->zones.v[i].node < s->nr_nodes)
			pcp_add(&s->nodes[s->zones.v[i].node].pcp, &s->zones.v[i].pcp);
	s->fallbacks = s->anon = 0;
	for (i = 0; i < s->nr_nodes; i++) {
		s->fallbacks += s->nodes[i].fallbacks;
		s->anon += s->nodes[i].anon;
	}
}

double snapshot_rate(const struct snapshot *s, uint64_t count)
{
	if (!s->interval_ns)
		return 0;
	return (double)count * NSEC_PER_SEC / s->interval_ns;
}

uint64_t snapshot_drops(const struct snapshot *s)
{
	uint64_t sum = 0;
	int i;

	for (i = 0; i < DROP__COUNT; i++)
		sum += s->drops[i];
	return sum;
}

const char *probe_name(enum probe_id id)
{
	return id < PROBE__COUNT ? probe_names[id] : "?";
}

const char *drop_name(enum drop_kind kind)
{
	return kind < DROP__COUNT ? drop_names[kind] : "?";
}

const char *family_name(enum probe_family f)
{
	return f < FAMILY__COUNT ? family_names[f] : "?";
}

const char *callsite_name(enum callsite c)
{
	return c < CALLSITE__COUNT ? callsite_names[c] : "?";
}

uint64_t lock_row_waits(const struct lock_row *r)
{
	uint64_t n = 0;
	int i;

	for (i = 1; i < SNAPSHOT_HIST_BUCKETS; i++)
		n += r->wait.bucket[i];
	return n;
}

const char *callsite_label(enum callsite site, const char *symbol)
{
	return (site == CALLSITE_OTHER || site == CALLSITE_UNKNOWN) && symbol[0] ?
	       symbol : callsite_name(site);
}

const char *cont_class_name(enum cont_class c)
{
	return c < CONT_CLASS__COUNT ? cont_class_names[c] : "?";
}

void hist_add(struct hist *sum, const struct hist *h)
{
	int i;

	for (i = 0; i < SNAPSHOT_HIST_BUCKETS; i++)
		sum->bucket[i] += h->bucket[i];
}

void max_keep(uint64_t *max, bool *bound, uint64_t v, bool v_bound)
{
	if (v > *max || (v == *max && !v_bound)) {
		*max = v;
		*bound = v_bound;
	}
}

const char *format_max(uint64_t ns, bool bound, char *buf, size_t len)
{
	char b[16];

	snprintf(buf, len, "%s%s", bound ? "<=" : "", format_ns(ns, b, sizeof(b)));
	return buf;
}

uint64_t hist_quantile(const struct hist *h, double q, uint64_t max)
{
	uint64_t total = 0, seen = 0;
	double rank;
	int i;

	for (i = 0; i < SNAPSHOT_HIST_BUCKETS; i++)
		total += h->bucket[i];
	if (!total)
		return 0;
	rank = q * total;
	for (i = 0; i < SNAPSHOT_HIST_BUCKETS; i++) {
		uint64_t n = h->bucket[i];
		double lo = i ? (double)(1ULL << i) : 0, hi = (double)(2ULL << i);
		uint64_t v;

		if (!n || seen + n < rank) {
			seen += n;
			continue;
		}
		/* 0-1 ns: the request did not wait (the fast path), not 1 ns. */
		if (!i)
			return 0;
		/* Linear within the bucket: the best a log2 histogram can do. */
		v = lo + (hi - lo) * (rank - seen) / n;
		return v < max ? v : max;
	}
	return max;
}

/* Copy one growable array; @cap keeps @dst's memory when large enough. */
/* The rows of @src into @dst, @keep's memory (dst's own) holding them. */
static int copy_rows(struct row_array *dst, const struct row_array *keep,
		     const struct row_array *src, size_t size)
{
	*dst = *keep;
	while (dst->cap < src->nr)
		if (snapshot_grow(&dst->v, &dst->cap, size))
			return -ENOMEM;
	if (src->nr)
		memcpy(dst->v, src->v, src->nr * size);
	dst->nr = src->nr;
	return 0;
}

int snapshot_copy(struct snapshot *dst, const struct snapshot *src)
{
	struct snapshot keep = *dst;
	int i, err = 0;

	if (dst->nr_cpus != src->nr_cpus || dst->nr_nodes != src->nr_nodes)
		return -EINVAL;
	*dst = *src;
	/* Scalars copied; arrays get dst's own memory back, then the rows. */
	dst->cpus = keep.cpus;
	dst->nodes = keep.nodes;
	memcpy(dst->cpus, src->cpus, src->nr_cpus * sizeof(*src->cpus));
	memcpy(dst->nodes, src->nodes, src->nr_nodes * sizeof(*src->nodes));
	for (i = 0; i < ROWS__COUNT; i++) {
		const struct row_type *t = &row_types[i];

		/* After a failure, dst's own memory back all the same. */
		if (err)
			*snapshot_rows(dst, t) = *snapshot_rows(&keep, t);
		else
			err = copy_rows(snapshot_rows(dst, t), snapshot_rows(&keep, t),
					snapshot_rows_const(src, t), t->size);
	}
	return err;
}

bool callsite_same(enum callsite a, const char *sym_a, enum callsite b,
		      const char *sym_b)
{
	return a == b && !strcmp(callsite_label(a, sym_a), callsite_label(b, sym_b));
}

static int by_u64_desc(const void *a, const void *b, void *offset)
{
	uint64_t x = *(const uint64_t *)((const char *)*(const void *const *)a + (size_t)offset);
	uint64_t y = *(const uint64_t *)((const char *)*(const void *const *)b + (size_t)offset);

	return x < y ? 1 : x > y ? -1 : 0;
}

void rows_sort_desc(const void **rows, size_t n, size_t offset)
{
	qsort_r(rows, n, sizeof(*rows), by_u64_desc, (void *)offset);
}

bool lock_row_same(const struct lock_row *a, const struct lock_row *b)
{
	return a->pid == b->pid && a->write == b->write && a->foreign == b->foreign &&
	       callsite_same(a->site, a->symbol, b->site, b->symbol) &&
	       !strcmp(a->cgroup, b->cgroup);
}

const char *snapshot_vma_na(const struct snapshot *s)
{
	if (s->na[FAMILY_MMAP_LOCK][0])
		return s->na[FAMILY_MMAP_LOCK];
	return s->vma_na[0] ? s->vma_na : NULL;
}

double vma_ok(uint64_t faults, uint64_t fallbacks, uint64_t anon)
{
	if (!faults)
		return -1;
	if (fallbacks + anon >= faults)
		return 0;
	return 1.0 - (double)(fallbacks + anon) / faults;
}

bool blame_same(const struct blame_row *a, const struct blame_row *b)
{
	return a->pid == b->pid && a->write == b->write &&
	       a->holder_pid == b->holder_pid && a->holder_write == b->holder_write &&
	       callsite_same(a->site, a->symbol, b->site, b->symbol) &&
	       callsite_same(a->holder_site, a->holder_symbol, b->holder_site, b->holder_symbol) &&
	       !strcmp(a->cgroup, b->cgroup) && !strcmp(a->holder_cgroup, b->holder_cgroup);
}

const char *const blame_holder_names[BLAME__COUNT] = { "own", "foreign", "none" };

bool holder_foreign(int pid, int holder_pid)
{
	return holder_pid && holder_pid != pid;
}

enum blame_holder blame_holder_of(const struct blame_row *b)
{
	if (!b->holder_pid)
		return BLAME_NONE;
	return blame_foreign(b) ? BLAME_FOREIGN : BLAME_OWN;
}

bool blame_foreign(const struct blame_row *b)
{
	return holder_foreign(b->pid, b->holder_pid);
}

const char *blame_holder_pid(const struct blame_row *b, char *buf, size_t len)
{
	if (blame_holder_of(b) == BLAME_NONE)
		return "-";
	snprintf(buf, len, "%d", b->holder_pid);
	return buf;
}

const char *fork_backing(const struct fork_row *f)
{
	if (f->thp_kb < 0)
		return "?";
	return f->thp_kb > 0 && f->thp_kb * 2 >= f->anon_kb ? "thp" : "4k";
}

double fork_cost_per_mib(uint64_t ns, uint64_t kb)
{
	return kb ? (double)ns * 1024 / kb : 0;
}

static int log2_bucket(uint64_t v)
{
	int b = 0;

	while (v >>= 1)
		b++;
	return b < SNAPSHOT_HIST_BUCKETS ? b : SNAPSHOT_HIST_BUCKETS - 1;
}

void snapshot_sampling_text(const struct snapshot *s, char *buf, size_t len)
{
	if (!snapshot_acquisitions(s) && s->waits_na[0])
		snprintf(buf, len, "mmap_lock: no waits in the default set (%.*s); waits, acquisitions and holds %s",
			 (int)(len / 2), s->waits_na, EXACT_MODE_ONLY);
	else if (!snapshot_acquisitions(s))
		snprintf(buf, len, "mmap_lock: waits (the default set); acquisitions, holds and the VMA-lock outcome %s",
			 EXACT_MODE_ONLY);
	else if (!snapshot_sampled(s))
		snprintf(buf, len, "mmap_lock: every acquisition traced (exact)%s",
			 s->budget_ppm ? ", within the budget" : "");
	else if (s->throttled)
		snprintf(buf, len, "mmap_lock: throttled after %.1f%% of the interval (a recording of mmtop 0.1's budget): acquisition figures are of that part, not scaled",
			 s->exact_ppm / 1e4);
	else if (s->budget_ppm)
		snprintf(buf, len, "mmap_lock: sampled %.1f%% of the interval, acquisition figures scaled (~ estimates, a recording of mmtop 0.1's budget)%s",
			 s->exact_ppm / 1e4, s->over_budget ? "; over budget at the smallest window" : "");
	else
		snprintf(buf, len, "mmap_lock: exact mode for %.1f%% of the interval: acquisition figures are of that part, not scaled",
			 s->exact_ppm / 1e4);
}

void snapshot_cost_text(const struct snapshot *s, char *buf, size_t len)
{
	char t[16], busy[16];

	format_ns(s->bpf_ns, t, sizeof(t));
	format_ns(s->busy_ns, busy, sizeof(busy));
	if (!s->bpf_measured)
		snprintf(buf, len, "mmtop BPF cost not measured (the kernel refused BPF run-time statistics)");
	else if (!s->busy_ns)
		snprintf(buf, len, "mmtop BPF %s in %" PRIu64 " runs", t, s->bpf_runs);
	else
		snprintf(buf, len, "mmtop BPF %s in %" PRIu64 " runs, %.2f%% of %s CPU in use",
			 t, s->bpf_runs, 100.0 * s->bpf_ns / s->busy_ns, busy);
	if (s->budget_ppm)
		snprintf(buf + strlen(buf), len - strlen(buf), " (budget %.4g%%)",
			 s->budget_ppm / 1e4);
	if (s->bpf_map_bytes)
		snprintf(buf + strlen(buf), len - strlen(buf), "; its maps hold %.1f MiB",
			 s->bpf_map_bytes / 1048576.0);
	if (s->attach_ns) {
		format_ns(s->attach_ns, t, sizeof(t));
		snprintf(buf + strlen(buf), len - strlen(buf),
			 "; exact mode on/off %s (at most, other CPUs included)", t);
	}
}

const char *fork_untimed_why(const struct snapshot *s)
{
	const char *why = strstr(s->fork_method, "forks timed");

	return why ? why : s->fork_method[0] ? s->fork_method : "no fork was timed";
}

bool fork_stalls_counted(const struct snapshot *s)
{
	return !strstr(s->fork_method, FORK_STALLS_NA);
}

const char *fork_syscall(const struct fork_row *f)
{
	return f->syscall[0] ? f->syscall : "-";
}

void fork_agg(const struct snapshot *s, struct fork_agg *a)
{
	memset(a, 0, sizeof(*a));
	fork_agg_add(a, s);
}

void fork_agg_add(struct fork_agg *a, const struct snapshot *s)
{
	int i;

	for (i = 0; i < s->forks.nr; i++) {
		const struct fork_row *f = &s->forks.v[i];
		uint64_t kb = f->anon_kb + f->file_kb + f->shmem_kb;

		a->count++;
		/* Its start came while the programs were detached: counted, not timed. */
		if (!fork_timed(f))
			continue;
		a->timed++;
		a->latency_ns += f->latency_ns;
		if (f->latency_ns > a->latency_max_ns)
			a->latency_max_ns = f->latency_ns;
		a->latency.bucket[log2_bucket(f->latency_ns)]++;
		if (!strcmp(fork_backing(f), "thp")) {
			a->ns_thp += f->latency_ns;
			a->kb_thp += kb;
		} else if (!strcmp(fork_backing(f), "4k")) {
			a->ns_4k += f->latency_ns;
			a->kb_4k += kb;
		}
	}
}

void probe_list(const struct snapshot *s, char *buf, size_t len,
		const char *sep, const char *quote)
{
	size_t n = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < PROBE__COUNT && n < len; i++) {
		if (!(s->probes & (1u << i)))
			continue;
		n += snprintf(buf + n, len - n, "%s%s%s%s", n ? sep : "", quote,
			      probe_name(i), quote);
	}
}
