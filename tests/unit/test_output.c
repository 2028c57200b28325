// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "output.h"
#include "render.h"
#include "unit.h"
#include "util.h"

static void fill(struct snapshot *s)
{
	struct lock_row *r;
	struct vma_row *v;
	struct slow_event *e;
	struct cont_row *c;

	snapshot_init(s, 2, 1);
	s->seq = 3;
	s->wall_ns = 1700000000ULL * NSEC_PER_SEC + 123000000;
	s->interval_ns = NSEC_PER_SEC;
	s->slow_ns = 1000000;
	s->probes = 1u << PROBE_FAULTS_TP_BTF | 1u << PROBE_MMAP_LOCK_TP_BTF;
	s->cpus[0] = (struct cpu_sample){ .online = true, .faults = { 1000, 2 },
					  .fallbacks = 4, .anon = 1 };
	s->cpus[1] = (struct cpu_sample){ .online = false };
	s->drops[DROP_READ] = 1;
	r = snapshot_push(&s->locks);
	*r = (struct lock_row){ .pid = 42, .comm = "a,\"b\"", .write = true,
				.site = CALLSITE_MUNMAP, .symbol = "__vm_munmap",
				.acquired = 10, .holds = 10, .wait_ns = 5000,
				.wait_max_ns = 2000, .hold_ns = 100000,
				.hold_max_ns = 30000, .cgroup = "/system.slice/a,b" };
	r->wait.bucket[9] = 10;
	r->hold.bucket[13] = 10;
	v = snapshot_push(&s->vmas);
	*v = (struct vma_row){ .pid = 42, .comm = "w", .faults = 100, .fallbacks = 3, .anon = 2 };
	v = snapshot_push(&s->vmas);
	*v = (struct vma_row){ .pid = 43, .comm = "=1+2", .faults = -1, .fallbacks = 1 };
	v = snapshot_push(&s->vmas);
	*v = (struct vma_row){ .pid = 44, .comm = "idle" };
	e = snapshot_push(&s->events);
	*e = (struct slow_event){ .wall_ns = s->wall_ns, .pid = 42, .tid = 44, .cpu = 1,
				  .comm = "w", .site = CALLSITE_OTHER, .symbol = "zap_foo",
				  .wait_ns = 1500000, .mode = "read" };
	c = snapshot_push(&s->conts);
	*c = (struct cont_row){ .cls = CONT_CLASS_ZONE, .by_address = true,
				.caller = "rmqueue_bulk", .type = "spinlock", .mode = "-",
				.count = 7, .wait_ns = 70000, .wait_max_ns = 20000 };
	c->wait.bucket[13] = 7;
	snprintf(s->cont_method, sizeof(s->cont_method), "address table");
	snapshot_sum(s);
}

/* Fields of one CSV line, honouring double quotes. */
static int fields(const char *line)
{
	bool quoted = false;
	int n = 1;

	for (; *line && (*line != '\n' || quoted); line++) {
		if (*line == '"')
			quoted = !quoted;
		n += *line == ',' && !quoted;
	}
	return n;
}

static const char *next_line(const char *p)
{
	bool quoted = false;

	for (; *p && (*p != '\n' || quoted); p++)
		quoted ^= *p == '"';
	return *p ? p + 1 : NULL;
}

static void test_csv(const struct snapshot *s)
{
	char *out = render(OUTPUT_CSV, s);
	const char *line;
	int header = fields(out), rows = 0, bad = 0, headers = 0;

	for (line = out; line && *line; line = next_line(line)) {
		headers += !strncmp(line, "time,", 5);
		rows++;
		bad += fields(line) != header;
	}
	CHECK(headers == 1, "CSV has exactly one header row over two intervals");
	CHECK(rows == 1 + 2 * (1 + 2 + 1 + 1 + 3 + 1 + 1),
	      "CSV: total, 2 CPU, node, lock, 3 VMA, contention and event rows per interval");
	CHECK(!bad, "every CSV row has the header's %d columns", header);
	CHECK(strstr(out, "2023-11-14T22:13:20.123Z,3,1.000000,cpu,0,0,1,1000,2,1000.000,2.000,1,faults:tp_btf;mmap_lock:tp_btf,4,1,0.995010,") != NULL,
	      "CSV CPU row: counts, rates, drops, probes, VMA-lock outcome");
	CHECK(strstr(out, ",cpu,1,0,0,0,0,") != NULL, "CSV marks an offline CPU");
	CHECK(strstr(out, ",waits,wait_p90_ns,cgroup,holder_cgroup,schema\n") &&
	      strstr(out, ",10,972,\"/system.slice/a,b\",,2\n"),
	      "CSV: the p90 wait and the cgroups (the table's fields) before schema, filled on "
	      "the lock row, a comma quoted");
	CHECK(strstr(out, ",42,\"a,\"\"b\"\"\",munmap,__vm_munmap,write,own,10,0,10,5000,") != NULL,
	      "CSV lock row quotes a comm with a comma and quotes");
	CHECK(strstr(out, ",vma,-1,-1,-1,,,,,1,faults:tp_btf;mmap_lock:tp_btf,1,0,,43,'=1+2,") != NULL,
	      "CSV VMA row with unknown faults leaves them and the ratio empty; "
	      "a name that a spreadsheet would take for a formula gets a leading '");
	CHECK(strstr(out, ",event,1,") && strstr(out, ",zap_foo,read,own,") &&
	      strstr(out, ",44,1500000,0,mmap_lock,"), "CSV event row");
	CHECK(strstr(out, ",contention,-1,-1,-1,") &&
	      strstr(out, ",0,,zone,rmqueue_bulk,-,,7,,,70000,") &&
	      strstr(out, ",contention,spinlock,address,"), "CSV contention row");
	free(out);
}

static void test_json(const struct snapshot *s)
{
	char *out = render(OUTPUT_JSON, s), *p;
	int depth = 0, lines = 0, unbalanced = 0;
	bool in_str = false;

	for (p = out; *p; p++) {
		if (*p == '\\' && in_str) {
			p++;
			continue;
		}
		in_str ^= *p == '"';
		if (in_str)
			continue;
		depth += (*p == '{' || *p == '[') - (*p == '}' || *p == ']');
		if (*p == '\n') {
			lines++;
			unbalanced += depth != 0;
		}
	}
	CHECK(lines == 2 && !unbalanced, "JSON: one balanced object per line");
	CHECK(strstr(out, "\"cpus\":[{\"cpu\":0,\"node\":0,\"online\":true,\"minflt\":1000,\"majflt\":2") != NULL,
	      "JSON CPU object");
	CHECK(strstr(out, "\"probes\":[\"faults:tp_btf\",\"mmap_lock:tp_btf\"]") != NULL,
	      "JSON lists active probes");
	CHECK(strstr(out, "\"drops\":{\"flush\":0,\"read\":1,") != NULL, "JSON names every drop counter");
	CHECK(strstr(out, "\"comm\":\"a,\\\"b\\\"\"") != NULL, "JSON escapes quotes in comm");
	CHECK(strstr(out, "\"wait_p50_ns\":768,") != NULL, "JSON lock row has quantiles");
	CHECK(strstr(out, "\"waits\":10,\"wait_p50_ns\":768,\"wait_p90_ns\":972,\"wait_p99_ns\":1018,"
			  "\"hold_p50_ns\":12288,\"hold_p99_ns\":16302,\"cgroup\":\"/system.slice/a,b\"}"),
	      "JSON lock row ends with the table's fields: its quantiles and its cgroup");
	p = strstr(out, "\"slow_events\":[{");
	CHECK(p && strstr(p, "\"cgroup\":null,\"holder_cgroup\":null,"),
	      "JSON slow event without cgroups says null for both");
	CHECK(strstr(out, "\"contention\":[{\"class\":\"zone\",\"classified_by\":\"address\",\"pid\":0,") != NULL,
	      "JSON contention row");
	CHECK(strstr(out, "\"wait_p50_ns\":12288,\"wait_p90_ns\":15564,\"wait_p99_ns\":16302}],") != NULL,
	      "JSON contention row ends with its quantiles, p90 among them (the table's fields)");
	CHECK(strstr(out, "{\"pid\":43,\"comm\":\"=1+2\",\"faults\":null,\"fallbacks\":1,\"anon\":0,\"vma_ok\":null}") != NULL,
	      "JSON VMA row with unknown faults");
	free(out);
}

static void test_text(struct snapshot *s)
{
	char *out = render(OUTPUT_TEXT, s);

	CHECK(strstr(out, "faults/s 1002.0 (minor 1000.0, major 2.0)  vma-lock ok 99.5%  drops 1  probes faults:tp_btf,mmap_lock:tp_btf") != NULL,
	      "text header line: rates, VMA-lock ratio, drops, probes");
	CHECK(strstr(out, "offline") != NULL, "text marks an offline CPU");
	CHECK(strstr(out, "munmap               write own         10") != NULL, "text lock row");
	CHECK(strstr(out, "zap_foo") != NULL, "an 'other' call site shows its symbol");
	CHECK(strstr(out, "lock contention: 1 row; classified by address table") &&
	      strstr(out, "zone            address       0 -                rmqueue_bulk             spinlock     -            7"),
	      "text contention row");
	CHECK(strstr(out, "     42 w                       100         3        2    95.0\n") &&
	      strstr(out, "     43 =1+2                      ?         1        0     n/a\n") &&
	      strstr(out, "     44 idle                      0         0        0     n/a\n"),
	      "text VMA rows: the outcome; n/a for a process gone (? faults) or without faults");
	free(out);
	snprintf(s->na[FAMILY_MMAP_LOCK], sizeof(s->na[0]), "disabled by --disable-probe");
	out = render(OUTPUT_TEXT, s);
	CHECK(strstr(out, "mmap_lock: n/a (disabled by --disable-probe)") != NULL,
	      "text says why a family is off");
	CHECK(strstr(out, "n/a     n/a     n/a") != NULL, "text VMA-lock cells n/a");
	free(out);
	s->na[FAMILY_MMAP_LOCK][0] = '\0';
}

/* A kernel without per-VMA locks: mmap_lock runs, the VMA-lock outcome is
 * n/a in every format, with the reason. */
/* Forks counted, none timed: the text says why, not "mean -". */
static void test_forks_untimed(struct snapshot *s)
{
	struct fork_row *f = snapshot_push(&s->forks);
	char *out;

	if (!f)
		return;
	*f = (struct fork_row){ .pid = 42, .child = 43, .comm = "f", .anon_kb = 1024, .thp_kb = -1 };
	snprintf(s->fork_method, sizeof(s->fork_method), "page tables; forks timed in exact "
		 "mode only, from dup_mmap's lock (no kprobes)");
	out = render(OUTPUT_TEXT, s);
	CHECK(strstr(out, "latency and cost not measured (forks timed in exact mode only, from "
			  "dup_mmap's lock (no kprobes))") && !strstr(out, "latency mean") &&
	      strstr(out, "     43 -       "),
	      "text: forks not timed say why, and no syscall");
	free(out);
	s->forks.nr = 0;
	s->fork_method[0] = '\0';
}

static void test_no_vma_locks(struct snapshot *s)
{
	char *out;

	snprintf(s->vma_na, sizeof(s->vma_na), "kernel without per-VMA locks");
	out = render(OUTPUT_TEXT, s);
	CHECK(strstr(out, "vma-lock ok n/a  drops") && strstr(out, "vma-lock: n/a (kernel without per-VMA locks)") &&
	      strstr(out, "n/a     n/a     n/a") &&
	      strstr(out, "VMA lock per process (the outcome n/a") && strstr(out, " -        -     n/a\n") &&
	      strstr(out, "munmap               write own         10"),
	      "text: VMA-lock outcome n/a with the reason, the processes' faults and mmap_lock rows kept");
	free(out);
	out = render(OUTPUT_JSON, s);
	CHECK(strstr(out, "\"vma_lock_na\":\"kernel without per-VMA locks\"") &&
	      strstr(out, "\"fallbacks\":null,\"anon\":null,\"vma_ok\":null") &&
	      !strstr(out, "\"fallbacks\":0"), "JSON: vma_lock_na, VMA-lock fields null");
	free(out);
	out = render(OUTPUT_CSV, s);
	CHECK(strstr(out, ",cpu,0,0,1,1000,2,") && !strstr(out, ",99.5"),
	      "CSV: no VMA-lock cells");
	free(out);
	s->vma_na[0] = '\0';
	out = render(OUTPUT_JSON, s);
	CHECK(strstr(out, "\"vma_lock_na\":null") != NULL, "JSON: vma_lock_na null where known");
	free(out);
}

/* The default set: the holds' quantiles are not known, their neighbours are. */
static void test_default_set(struct snapshot *s)
{
	uint32_t exact = s->exact_ppm;
	char *out;

	s->exact_ppm = 0;
	out = render(OUTPUT_JSON, s);
	CHECK(strstr(out, "\"wait_p99_ns\":1018,\"hold_p50_ns\":null,\"hold_p99_ns\":null,") != NULL,
	      "JSON, default set: the holds' quantiles null, the waits' kept");
	free(out);
	out = render(OUTPUT_CSV, s);
	CHECK(strstr(out, ",own,,,,5000,768,1018,2000,,,,,") != NULL,
	      "CSV, default set: the acquisition and hold cells empty, the waits' quantiles in "
	      "their columns");
	free(out);
	s->exact_ppm = exact;
}

static void test_full_disk(const struct snapshot *s)
{
	struct output o;
	FILE *f = fopen("/dev/full", "w");

	if (!f) {
		printf("SKIP full-disk output: /dev/full missing\n");
		return;
	}
	output_init(&o, OUTPUT_JSON, f);
	CHECK(output_snapshot(&o, s) == -ENOSPC, "a full disk is reported as ENOSPC");
	fclose(f);
}

int main(void)
{
	struct snapshot s;
	enum output_format fmt;

	fill(&s);
	test_csv(&s);
	test_json(&s);
	test_text(&s);
	test_forks_untimed(&s);
	test_no_vma_locks(&s);
	test_default_set(&s);
	test_full_disk(&s);
	CHECK(!output_format_parse("csv", &fmt) && fmt == OUTPUT_CSV, "format csv parses");
	CHECK(output_format_parse("xml", &fmt) < 0, "unknown format refused");
	snapshot_free(&s);
	UNIT_EXIT();
}
