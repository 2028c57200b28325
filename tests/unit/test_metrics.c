// SPDX-License-Identifier: GPL-2.0
/* The exporter's totals (metrics.c) and their exposition (exposition.c). */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "exposition.h"
#include "metrics.h"
#include "unit.h"
#include "util.h"

static void negotiation(void)
{
	CHECK(expo_negotiate(NULL) == EXPO_PROMETHEUS, "no Accept: text 0.0.4");
	CHECK(expo_negotiate("*/*") == EXPO_PROMETHEUS, "*/*: text 0.0.4");
	CHECK(expo_negotiate("application/openmetrics-text") == EXPO_OPENMETRICS,
	      "openmetrics asked: openmetrics");
	CHECK(expo_negotiate("application/openmetrics-text;version=1.0.0,application/openmetrics-text;"
			     "version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1") ==
	      EXPO_OPENMETRICS, "Prometheus' own Accept: openmetrics");
	CHECK(expo_negotiate("text/plain;version=0.0.4;q=1, application/openmetrics-text; q=0.5") ==
	      EXPO_PROMETHEUS, "text preferred by q: text");
	CHECK(expo_negotiate("application/openmetrics-text;q=0") == EXPO_PROMETHEUS,
	      "openmetrics refused with q=0: text");
	CHECK(expo_negotiate("application/openmetrics-textual") == EXPO_PROMETHEUS,
	      "a longer type is not openmetrics");
}

static void fork_buckets(void)
{
	uint64_t ns;
	int bad = 0;

	CHECK(fork_bucket_of(1) == 0, "1 ns: first bucket");
	CHECK(fork_bucket_of(1ULL << 14) == 0, "2^14 ns: first bucket (le is inclusive)");
	CHECK(fork_bucket_of((1ULL << 14) + 1) == 1, "2^14+1 ns: second bucket");
	CHECK(fork_bucket_of(1ULL << 33) == FORK_BUCKETS - 1, "2^33 ns: last bucket");
	CHECK(fork_bucket_of((1ULL << 33) + 1) == FORK_BUCKETS, "above 2^33 ns: overflow");
	for (ns = 10000; ns < (1ULL << 34); ns = ns * 1.013 + 7) {
		int i = fork_bucket_of(ns);

		if ((i > 0 && ns <= fork_bucket_le(i - 1) * 1e9) ||
		    (i < FORK_BUCKETS && ns > fork_bucket_le(i) * 1e9))
			bad++;
	}
	CHECK(!bad, "every latency lands in (le[i-1], le[i]] (%d wrong)", bad);
}

static void lock_row(struct snapshot *s, int pid, const char *comm, uint64_t wait_ns)
{
	struct lock_row *r = snapshot_push(&s->locks);

	*r = (struct lock_row){ .pid = pid, .write = true, .site = CALLSITE_MUNMAP,
				.symbol = "__vm_munmap", .acquired = 10, .holds = 10,
				.wait_ns = wait_ns, .hold_ns = 1000 };
	snprintf(r->comm, sizeof(r->comm), "%s", comm);
	r->wait.bucket[9] = 4;		/* [512, 1024) ns: under le=1.024e-06 */
	r->wait.bucket[20] = 6;		/* [1.05, 2.1) ms: under le=0.002097152 */
	r->hold.bucket[12] = 10;
}

/* Faults of @pid waiting behind an mprotect of @holder. */
static void blame_row(struct snapshot *s, int pid, int holder, uint64_t n, uint64_t ns)
{
	*(struct blame_row *)snapshot_push(&s->blame) = (struct blame_row){
		.pid = pid, .site = CALLSITE_FAULT, .holder_pid = holder,
		.holder_site = CALLSITE_MPROTECT, .holder_write = true,
		.count = n, .wait_ns = ns, .wait_max_ns = ns };
}

static void snap(struct snapshot *s, uint64_t minor)
{
	struct fork_row *f;

	snapshot_init(s, 2, 1);
	s->interval_ns = NSEC_PER_SEC;
	s->cpus[1].faults.min_flt = minor;
	f = snapshot_push(&s->forks);
	*f = (struct fork_row){ .latency_ns = 1500000, .anon_kb = 4096, .thp_kb = 0 };
}

/* The value of the sample line starting with @prefix, or -1. */
static double value_of(const char *text, const char *prefix)
{
	const char *p = text;
	size_t n = strlen(prefix);

	while (p && *p) {
		if (!strncmp(p, prefix, n) && p[n] == ' ')
			return strtod(p + n + 1, NULL);
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	return -1;
}

static char *render(const struct metrics *m, enum expo_format fmt)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	expo_write(f, m, fmt, "6.18-test", clock_ns(CLOCK_MONOTONIC));
	fclose(f);
	return buf;
}

static void cumulative(void)
{
	struct snapshot a, b;
	struct metrics m;
	char *t, *om;

	snap(&a, 100);
	lock_row(&a, 10, "w", 5000);
	blame_row(&a, 10, 11, 3, 3000);
	blame_row(&a, 11, 11, 1, 1000);
	snap(&b, 50);
	lock_row(&b, 10, "w", 7000);
	blame_row(&b, 10, 12, 2, 500000000);
	metrics_init(&m, 5, false, false);
	metrics_add(&m, &a);
	metrics_add(&m, &b);
	t = render(&m, EXPO_PROMETHEUS);
	om = render(&m, EXPO_OPENMETRICS);
	CHECK(value_of(t, "mmtop_page_faults_total{cpu=\"1\",node=\"0\",type=\"minor\"}") == 150,
	      "page faults add up over intervals");
	CHECK(value_of(t, "mmtop_mmap_lock_acquisitions_total{site=\"munmap\",mode=\"write\"}") == 20,
	      "acquisitions add up by site and mode");
	CHECK(value_of(t, "mmtop_mmap_lock_wait_seconds_bucket{site=\"munmap\",mode=\"write\",le=\"1.024e-06\"}") == 8,
	      "le=2^10 ns holds log2 buckets below it");
	CHECK(value_of(t, "mmtop_mmap_lock_wait_seconds_bucket{site=\"munmap\",mode=\"write\",le=\"0.001048576\"}") == 8,
	      "le=2^20 ns does not hold [2^20, 2^21)");
	CHECK(value_of(t, "mmtop_mmap_lock_wait_seconds_bucket{site=\"munmap\",mode=\"write\",le=\"0.002097152\"}") == 20,
	      "le=2^21 ns holds it");
	CHECK(value_of(t, "mmtop_mmap_lock_wait_seconds_bucket{site=\"munmap\",mode=\"write\",le=\"+Inf\"}") == 20 &&
	      value_of(t, "mmtop_mmap_lock_wait_seconds_count{site=\"munmap\",mode=\"write\"}") == 20,
	      "+Inf bucket and _count agree");
	CHECK(value_of(t, "mmtop_mmap_lock_wait_seconds_sum{site=\"munmap\",mode=\"write\"}") == 12e-6,
	      "_sum is the waits in seconds");
#define PAIR "{waiter_site=\"fault\",waiter_mode=\"read\",holder_site=\"mprotect\",holder_mode=\"write\","
	CHECK(value_of(t, "mmtop_mmap_lock_blame_waits_total" PAIR "holder=\"foreign\"}") == 5 &&
	      value_of(t, "mmtop_mmap_lock_blame_waits_total" PAIR "holder=\"own\"}") == 1,
	      "blame: waits add up by call sites and modes, apart by own and foreign holder");
	CHECK(value_of(t, "mmtop_mmap_lock_blame_wait_seconds_total" PAIR "holder=\"foreign\"}") == 0.500003,
	      "blame: wait seconds add up");
#undef PAIR
	CHECK(!strstr(t, "holder_site=\"munmap\""), "blame: no series for a pair never seen");
	CHECK(value_of(t, "mmtop_forks_total") == 2 &&
	      value_of(t, "mmtop_fork_latency_seconds_count{backing=\"4k\"}") == 2,
	      "forks counted, by backing");
	CHECK(strstr(t, "# TYPE mmtop_forks_total counter\n") && !strstr(t, "# EOF"),
	      "0.0.4: counter TYPE names the _total samples, no # EOF");
	CHECK(strstr(om, "# TYPE mmtop_forks counter\n") &&
	      strlen(om) > 6 && !strcmp(om + strlen(om) - 6, "# EOF\n"),
	      "openmetrics: counter family without _total, ends with # EOF");
	CHECK(strstr(om, "# TYPE mmtop_build info\nmmtop_build_info{version=") != NULL,
	      "openmetrics: build info as an info family");
	free(t);
	free(om);
	metrics_free(&m);
	snapshot_free(&a);
	snapshot_free(&b);
}

/* Valid UTF-8, no control byte but the line ends. */
static bool clean_text(const char *t)
{
	while (*t) {
		int n = utf8_char_len(t);

		if (!n || ((unsigned char)*t < 0x20 && *t != '\n') || *t == 0x7f)
			return false;
		t += n;
	}
	return true;
}

static void hostile_names(void)
{
	const char *names[] = { "\xff\xfe", "\x1b]0;pwned\x07", "a\"b\\c", "new\nline", "cr\rx",
				"\xc3\x28", "\xed\xa0\x80", "caf\xc3\xa9" };
	struct snapshot s;
	struct metrics m;
	char *t, *om;
	size_t i;

	snap(&s, 1);
	for (i = 0; i < ARRAY_SIZE(names); i++)
		lock_row(&s, 100 + i, names[i], 1000 + i);
	metrics_init(&m, ARRAY_SIZE(names), false, false);
	metrics_add(&m, &s);
	t = render(&m, EXPO_PROMETHEUS);
	om = render(&m, EXPO_OPENMETRICS);
	CHECK(clean_text(t) && clean_text(om), "hostile comms: output valid UTF-8 without control bytes");
	CHECK(strstr(t, "comm=\"a\\\"b\\\\c\"") != NULL, "quote and backslash escaped");
	CHECK(strstr(t, "comm=\"new\\nline\"") != NULL, "newline escaped as \\n");
	CHECK(strstr(t, "comm=\"\\\\xff\\\\xfe\"") != NULL, "bytes that are not UTF-8 become \\xNN");
	CHECK(strstr(t, "comm=\"caf\xc3\xa9\"") != NULL, "valid UTF-8 kept as it is");
	free(t);
	free(om);
	metrics_free(&m);
	snapshot_free(&s);
}

static int dead_pid;

static bool alive_but_dead_pid(int pid)
{
	return pid != dead_pid;
}

static uint64_t other_wait(const struct metrics *m)
{
	return m->other.wait_ns;
}

static uint64_t all_wait(const struct metrics *m)
{
	uint64_t sum = m->other.wait_ns;
	int i;

	for (i = 0; i < m->nr_procs; i++)
		sum += m->procs[i].wait_ns;
	return sum;
}

/* By comm (the default): every process of a name in one series, no pid. */
static void by_comm(void)
{
	struct snapshot s1, s2;
	struct metrics m;
	char *t;

	metrics_init(&m, 1, false, false);
	snap(&s1, 0);
	lock_row(&s1, 10, "worker", 100);
	lock_row(&s1, 11, "worker", 50);
	lock_row(&s1, 12, "quiet", 1);
	metrics_add(&m, &s1);
	snap(&s2, 0);
	lock_row(&s2, 13, "worker", 7);
	metrics_add(&m, &s2);
	t = render(&m, EXPO_PROMETHEUS);
	CHECK(value_of(t, "mmtop_process_mmap_lock_wait_seconds_total{comm=\"worker\"}") == 157e-9,
	      "by comm: three workers, two intervals, one series (%g)",
	      value_of(t, "mmtop_process_mmap_lock_wait_seconds_total{comm=\"worker\"}"));
	CHECK(value_of(t, "mmtop_process_mmap_lock_wait_seconds_total{comm=\"other\"}") == 1e-9,
	      "by comm: the rest in other");
	CHECK(!strstr(t, "pid=\""), "by comm: no pid label");
	free(t);
	metrics_free(&m);
	snapshot_free(&s1);
	snapshot_free(&s2);
}

static void top_n(void)
{
	struct snapshot s1, s2, s3;
	struct metrics m;
	uint64_t o1, o2, o3;

	metrics_pid_alive = alive_but_dead_pid;
	metrics_init(&m, 1, true, false);
	snap(&s1, 0);
	lock_row(&s1, 10, "busy", 100);
	lock_row(&s1, 11, "quiet", 50);
	metrics_add(&m, &s1);
	o1 = other_wait(&m);
	CHECK(m.nr_procs == 1 && m.procs[0].pid == 10 && m.procs[0].wait_ns == 100 && o1 == 50,
	      "top 1: the busiest gets a series, the other goes to other");
	snap(&s2, 0);
	lock_row(&s2, 10, "busy", 1);
	lock_row(&s2, 11, "quiet", 1000);
	metrics_add(&m, &s2);
	o2 = other_wait(&m);
	CHECK(m.procs[0].pid == 10 && o2 == 1050, "a process keeps its series while it lives");
	dead_pid = 10;
	snap(&s3, 0);
	lock_row(&s3, 11, "quiet", 7);
	metrics_add(&m, &s3);
	o3 = other_wait(&m);
	CHECK(m.nr_procs == 1 && m.procs[0].pid == 11 && m.procs[0].wait_ns == 7,
	      "a dead process's slot goes to the next, counting from its joining");
	CHECK(o1 <= o2 && o2 <= o3 && o3 == 1050 + 101, "other never goes down (%llu %llu %llu)",
	      (unsigned long long)o1, (unsigned long long)o2, (unsigned long long)o3);
	CHECK(all_wait(&m) == 100 + 50 + 1 + 1000 + 7, "series and other add up to every wait");
	metrics_free(&m);
	snapshot_free(&s1);
	snapshot_free(&s2);
	snapshot_free(&s3);
}

static void blame_pair(struct snapshot *s, const char *cgroup, const char *holder,
		       uint64_t count)
{
	struct blame_row *b = snapshot_push(&s->blame);

	*b = (struct blame_row){ .pid = 10, .holder_pid = holder[0] ? 11 : 0, .count = count,
				 .wait_ns = 1000 * count };
	snprintf(b->cgroup, sizeof(b->cgroup), "%s", cgroup);
	snprintf(b->holder_cgroup, sizeof(b->holder_cgroup), "%s", holder);
}

/*
 * --cgroup-label 1: the blame waits by cgroup pair cut to one level, the
 * first pairs seen keeping their series, the later ones in other; none
 * without it.
 */
static void by_cgroup(void)
{
	struct snapshot s1, s2;
	struct metrics m, plain;
	char *t;

	metrics_init(&m, 2, false, 1);
	metrics_init(&plain, 2, false, 0);
	snap(&s1, 0);
	blame_pair(&s1, "/app/web", "/agent/scraper", 3);
	blame_pair(&s1, "/app/db", "/agent", 2);
	blame_pair(&s1, "/agent", "", 1);
	metrics_add(&m, &s1);
	metrics_add(&plain, &s1);
	snap(&s2, 0);
	blame_pair(&s2, "/late", "/app", 7);
	blame_pair(&s2, "/app", "/agent/scraper/x", 1);
	metrics_add(&m, &s2);
	t = render(&m, EXPO_PROMETHEUS);
	CHECK(value_of(t, "mmtop_mmap_lock_cgroup_waits_total{cgroup=\"/app\",holder_cgroup=\"/agent\"}") == 6,
	      "by cgroup: a pair's waits of every row and interval in one series, cut to its depth");
	CHECK(value_of(t, "mmtop_mmap_lock_cgroup_waits_total{cgroup=\"/agent\",holder_cgroup=\"none\"}") == 1,
	      "by cgroup: a wait with nobody seen is holder_cgroup=\"none\"");
	CHECK(value_of(t, "mmtop_mmap_lock_cgroup_waits_total{cgroup=\"other\",holder_cgroup=\"other\"}") == 7 &&
	      value_of(t, "mmtop_mmap_lock_cgroup_wait_seconds_total{cgroup=\"other\",holder_cgroup=\"other\"}") == 7e-6,
	      "by cgroup: a pair past the first --top goes to other, waits and seconds");
	free(t);
	t = render(&plain, EXPO_PROMETHEUS);
	CHECK(!strstr(t, "cgroup"), "without --cgroup-label: no cgroup series");
	free(t);
	{
		char cut[32];
		const char *in[] = { "/a/b/c", "/", "", "/a", "(gone 5)" };
		const char *want[] = { "/a/b", "/", "", "/a", "(gone 5)" };
		int i, ok = 1;

		for (i = 0; i < 5; i++) {
			cgroup_cut(in[i], 2, cut, sizeof(cut));
			ok &= !strcmp(cut, want[i]);
		}
		CHECK(ok, "a path cut to 2 levels: /a/b/c is /a/b; /, /a and a gone id stay");
	}
	metrics_free(&m);
	metrics_free(&plain);
	snapshot_free(&s1);
	snapshot_free(&s2);
}

int main(void)
{
	negotiation();
	fork_buckets();
	cumulative();
	hostile_names();
	top_n();
	by_comm();
	by_cgroup();
	UNIT_EXIT();
}
