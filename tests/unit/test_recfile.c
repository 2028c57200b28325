// SPDX-License-Identifier: GPL-2.0
/*
 * The recording payload: a snapshot with every kind of row survives the
 * trip to bytes and back, and damaged payloads are refused, not trusted.
 */
#include <stdlib.h>
#include <string.h>

#include "output.h"
#include "recfile.h"
#include "render.h"
#include "unit.h"
#include "util.h"

static void fill(struct snapshot *s)
{
	snapshot_init(s, 3, 2);
	s->seq = 7;
	s->wall_ns = 1700000000ULL * NSEC_PER_SEC;
	s->interval_ns = NSEC_PER_SEC / 2;
	s->slow_ns = 1000000;
	s->probes = 0x1f;
	s->exact_ppm = 33333;
	s->budget_ppm = 10000;
	s->throttled = true;
	s->bpf_measured = true;
	s->bpf_runs = 1234;
	s->bpf_ns = 56789;
	s->busy_ns = 987654321;
	s->attach_ns = 4321000;
	s->drops[DROP_READ] = 3;
	snprintf(s->na[FAMILY_PCP], sizeof(s->na[0]), "opt-in");
	snprintf(s->cont_method, sizeof(s->cont_method), "address table");
	s->cpus[0] = (struct cpu_sample){ .online = true, .faults = { 100, 2 }, .fallbacks = 4 };
	s->cpus[1] = (struct cpu_sample){ .online = true, .node = 1, .faults = { 50, 0 }, .anon = 1 };
	s->cpus[2] = (struct cpu_sample){ .node = 1 };
	*(struct lock_row *)snapshot_push(&s->locks) = (struct lock_row){
		.pid = 42, .comm = "a,\"b\"", .write = true, .site = CALLSITE_OTHER,
		.symbol = "zap", .acquired = 9, .wait_ns = 99, .wait_max_ns = 15,
		.wait_max_bound = true, .wait = { { [3] = 9 } }, .cgroup = "/system.slice/a" };
	*(struct vma_row *)snapshot_push(&s->vmas) = (struct vma_row){
		.pid = 42, .comm = "w", .faults = -1, .fallbacks = 2 };
	*(struct slow_event *)snapshot_push(&s->events) = (struct slow_event){
		.wall_ns = 5, .pid = 1, .tid = 2, .cpu = 1, .comm = "e", .contention = true,
		.cls = CONT_CLASS_PCP, .symbol = "drain_pages_zone", .wait_ns = 2000000,
		.mode = "-" };
	*(struct slow_event *)snapshot_push(&s->events) = (struct slow_event){
		.wall_ns = 6, .pid = 42, .tid = 44, .comm = "f", .site = CALLSITE_FAULT,
		.wait_ns = 3000000, .holder_pid = 7, .holder_comm = "reader",
		.holder_site = CALLSITE_PROC, .holder_symbol = "m_start", .cgroup = "/a",
		.holder_cgroup = "/b", .mode = "read" };
	*(struct blame_row *)snapshot_push(&s->blame) = (struct blame_row){
		.pid = 42, .comm = "f", .site = CALLSITE_FAULT, .holder_pid = 42,
		.holder_comm = "f", .holder_site = CALLSITE_MPROTECT, .holder_write = true,
		.count = 5, .wait_ns = 5000, .wait_max_ns = 2000, .wait_max_bound = true,
		.cgroup = "/a", .holder_cgroup = "/b" };
	snprintf(s->fork_method, sizeof(s->fork_method), "page tables");
	snprintf(s->vma_na, sizeof(s->vma_na), "kernel without per-VMA locks");
	snprintf(s->waits_na, sizeof(s->waits_na), "no tracepoint lock:contention_begin (Linux 5.19+)");
	snprintf(s->holders, sizeof(s->holders), "the holder whose release let it through");
	*(struct cont_row *)snapshot_push(&s->conts) = (struct cont_row){
		.cls = CONT_CLASS_ZONE, .by_address = true, .caller = "rmqueue_bulk",
		.type = "spinlock", .mode = "-", .count = 3, .wait_ns = 300, .wait_max_ns = 255,
		.wait_max_bound = true };
	*(struct fork_row *)snapshot_push(&s->forks) = (struct fork_row){
		.wall_ns = 9, .pid = 42, .tid = 42, .child = 43, .comm = "f",
		.syscall = "clone", .latency_ns = 1000, .anon_kb = 65536, .thp_kb = -1 };
	*(struct zone_row *)snapshot_push(&s->zones) = (struct zone_row){
		.node = 1, .name = "Normal", .pcp = { 1, 63, 2, 126, 0 } };
	snapshot_sum(s);
}

/* 1.x payloads (fixed-width integers), 2.1 ones (varints), 2.2 (sized rows). */
static void compressed(const struct rec_buf *raw);

/* The first slow event of JSON @z, as its own string (freed by the caller). */
static char *first_event(const char *z)
{
	const char *p = strstr(z, "\"slow_events\":[{"), *end = p ? strstr(p, "},{") : NULL;

	return end ? strndup(p, end - p) : strdup("");
}

static void round_trip(bool varint, bool sized)
{
	const char *enc = sized ? "sized rows" : varint ? "varint" : "fixed";
	unsigned int layout = (varint ? REC_VARINT : 0) | REC_EXTRAS |
			      (sized ? REC_SIZED_ROWS : 0) | REC_VMA_NA | REC_SAMPLING | REC_ATTACH |
			      REC_WAITS_NA | REC_HOLDERS | REC_CGROUPS;
	struct snapshot s, back;
	struct rec_buf b = { .varint = varint, .sized_rows = sized };
	char *a, *z, *e;
	size_t i;
	int refused = 0, accepted = 0;
	bool parsed;

	fill(&s);
	/* Whether a maximum is a bound needs sized rows (2.4 appended it). */
	if (!sized) {
		s.locks.v[0].wait_max_bound = s.blame.v[0].wait_max_bound =
			s.conts.v[0].wait_max_bound = false;
		/* Appended in 2.9: before, read back from whether it wrote. */
		snprintf(s.events.v[0].mode, sizeof(s.events.v[0].mode), "read");
		/* Appended in 2.10. */
		s.locks.v[0].cgroup[0] = s.blame.v[0].cgroup[0] = s.blame.v[0].holder_cgroup[0] = '\0';
		s.events.v[1].cgroup[0] = s.events.v[1].holder_cgroup[0] = '\0';
	}
	rec_put_snapshot(&b, &s);
	CHECK(!b.failed && b.len > 0, "%s: a snapshot serialises (%zu bytes)", enc, b.len);
	CHECK(!rec_get_snapshot(b.data, b.len, layout, &back), "%s: and parses back", enc);
	a = render(OUTPUT_JSON, &s);
	z = render(OUTPUT_JSON, &back);
	CHECK(!strcmp(a, z), "%s: identical as JSON, every kind of row included", enc);
	CHECK(!sized || (strstr(z, "\"wait_max_ns\":15,") &&
			 strstr(z, "\"wait_max_bound\":true,\"hold_max_bound\":false")),
	      "%s: a maximum that is a bound read back as one (2.4)", enc);
	CHECK(strstr(z, "\"exact_share\":0.033333,\"budget\":0.010000,\"over_budget\":false,"
			"\"throttled\":true,\"bpf_runs\":1234,\"bpf_ns\":56789,\"busy_ns\":987654321"),
	      "%s: the sampled share, budget, throttle and BPF cost read back (2.5)", enc);
	CHECK(strstr(z, "\"busy_ns\":987654321,\"attach_ns\":4321000,"),
	      "%s: the attaches' and detaches' cost read back (2.6)", enc);
	CHECK(strstr(z, "\"mmap_lock_waits_na\":\"no tracepoint lock:contention_begin (Linux 5.19+)\""),
	      "%s: why the default set sees no waits read back (2.7)", enc);
	CHECK(strstr(z, "\"mmap_lock_holders\":\"the holder whose release let it through\""),
	      "%s: whom the default set blames read back (2.8)", enc);
	e = first_event(z);
	CHECK(strstr(e, "\"class\":\"pcp\"") && strstr(e, "\"caller\":\"drain_pages_zone\"") &&
	      strstr(e, sized ? "\"mode\":\"-\"" : "\"mode\":\"read\""),
	      "%s: a slow wait on a lock without modes reads back as - (2.9; read before)", enc);
	free(e);
	CHECK(!sized || (strstr(z, "\"wait_p90_ns\":15,") &&
			 strstr(z, ",\"cgroup\":\"/system.slice/a\"") &&
			 strstr(strstr(z, "\"slow_events\""), "\"cgroup\":\"/a\",\"holder_cgroup\":\"/b\"") &&
			 strstr(z, "\"wait_max_bound\":true,\"cgroup\":\"/a\",\"holder_cgroup\":\"/b\"")),
	      "%s: each side's cgroup reads back in lock, blame and event rows (2.10)", enc);
	CHECK(sized || (strstr(z, "\"cgroup\":null,\"holder_cgroup\":null") && !strstr(z, "\"/a\"")),
	      "%s: rows without the cgroups say null, not \"\" (before 2.10)", enc);

	CHECK(back.nodes[1].pcp.refill_pages == 63 && back.total.min_flt == 150,
	      "%s: node and total sums are rebuilt", enc);
	free(a);
	free(z);
	snapshot_free(&back);
	/* A 2.2 reader stops before what 2.3 appended. */
	CHECK(!rec_get_snapshot(b.data, b.len,
				layout & ~(REC_VMA_NA | REC_SAMPLING | REC_ATTACH | REC_WAITS_NA |
					   REC_HOLDERS | REC_CGROUPS),
				&back) &&
	      !back.vma_na[0] && back.forks.nr == 1,
	      "%s: a reader without the VMA-lock n/a reads the rest", enc);
	snapshot_free(&back);
	/* A 2.4 reader stops before what 2.5 appended: exact, as it was. */
	CHECK(!rec_get_snapshot(b.data, b.len, layout & ~(REC_SAMPLING | REC_ATTACH | REC_WAITS_NA | REC_HOLDERS | REC_CGROUPS),
				&back) &&
	      back.exact_ppm == SAMPLE_EXACT && !back.bpf_ns && back.vma_na[0] == s.vma_na[0],
	      "%s: a reader without the sampled share reads the interval as exact", enc);
	snapshot_free(&back);
	/* A 2.5 reader stops before what 2.6 appended. */
	CHECK(!rec_get_snapshot(b.data, b.len, layout & ~(REC_ATTACH | REC_WAITS_NA | REC_HOLDERS | REC_CGROUPS), &back) &&
	      back.bpf_ns == s.bpf_ns && !back.attach_ns,
	      "%s: a reader without the attaches' cost reads the rest", enc);
	snapshot_free(&back);
	/* A 2.6 reader stops before what 2.7 appended. */
	CHECK(!rec_get_snapshot(b.data, b.len, layout & ~(REC_WAITS_NA | REC_HOLDERS | REC_CGROUPS), &back) &&
	      back.attach_ns == s.attach_ns && !back.waits_na[0],
	      "%s: a reader without the default set's waits n/a reads the rest", enc);
	snapshot_free(&back);
	/* A 2.7 reader stops before what 2.8 appended. */
	CHECK(!rec_get_snapshot(b.data, b.len, layout & ~(REC_HOLDERS | REC_CGROUPS), &back) &&
	      !strcmp(back.waits_na, s.waits_na) && !back.holders[0],
	      "%s: a reader without whom the default set blames reads the rest", enc);
	snapshot_free(&back);
	/* A 2.9 reader stops before what 2.10 appended: its rows name no cgroup, and say why. */
	CHECK(!rec_get_snapshot(b.data, b.len, layout & ~REC_CGROUPS, &back) &&
	      !strcmp(back.holders, s.holders) &&
	      !strcmp(back.cgroups_na, "recorded before format 2.10"),
	      "%s: a reader without the cgroups' n/a says they were not recorded", enc);
	snapshot_free(&back);

	CHECK(rec_get_snapshot(b.data, 10, layout, &back) < 0, "%s: a truncated payload is refused", enc);
	for (i = 0; i < b.len; i++) {
		unsigned char keep = b.data[i];

		b.data[i] ^= 0xff;
		if (rec_get_snapshot(b.data, b.len, layout, &back) < 0) {
			refused++;
		} else {
			accepted++;
			snapshot_free(&back);
		}
		b.data[i] = keep;
	}
	/* Reaching here is the proof of no crash (ASan in make test SANITIZE=1). */
	parsed = !rec_get_snapshot(b.data, b.len, layout, &back);
	CHECK(refused > 0 && parsed,
	      "%s: single-byte corruptions: %d refused, %d read as other values; restored, it parses",
	      enc, refused, accepted);
	if (parsed)
		snapshot_free(&back);
	for (i = 0; i < b.len; i++)
		if (!rec_get_snapshot(b.data, i, layout, &back))
			snapshot_free(&back), refused = -1;
	CHECK(refused >= 0, "%s: every truncation of the payload is refused", enc);
	if (varint)
		compressed(&b);
	rec_buf_free(&b);
	snapshot_free(&s);
}

/* SNAPSHOT_Z payloads: deflated, inflated back exactly; damage refused. */
static void compressed(const struct rec_buf *raw)
{
	struct rec_buf z = { 0 }, back = { 0 };
	size_t i;
	int bad = 0;

	rec_deflate(&z, raw);
	CHECK(!z.failed && z.len < raw->len, "deflated: %zu -> %zu bytes", raw->len, z.len);
	CHECK(!rec_inflate(z.data, z.len, &back) && back.len == raw->len &&
	      !memcmp(back.data, raw->data, raw->len), "inflates to the same bytes");
	for (i = 0; i < z.len; i++)
		bad += !rec_inflate(z.data, i, &back);
	CHECK(!bad, "every truncation of the compressed payload is refused (%d read)", bad);
	z.data[1] ^= 0x40;	/* the declared length no longer matches */
	CHECK(rec_inflate(z.data, z.len, &back) < 0, "a wrong declared length is refused");
	rec_buf_free(&z);
	rec_buf_free(&back);
}

/* A hand-made fixed-width payload: one CPU, one node, one zone row. */
static size_t put_le(unsigned char *p, size_t at, uint64_t v, int bytes)
{
	int i;

	for (i = 0; i < bytes; i++)
		p[at + i] = v >> (8 * i);
	return at + bytes;
}

static size_t one_zone(unsigned char *p, int row_bytes, bool extra_field)
{
	size_t at = 0, row;
	int i;

	for (i = 0; i < 4; i++)			/* seq, wall, interval, slow */
		at = put_le(p, at, 1, 8);
	at = put_le(p, at, 0, 4);		/* probes */
	at = put_le(p, at, 1, 4);		/* CPUs */
	at = put_le(p, at, 1, 4);		/* nodes */
	at = put_le(p, at, 0, 4);		/* drop counters */
	at = put_le(p, at, 0, 4);		/* n/a strings */
	at = put_le(p, at, 0, 4);		/* cont_method "" */
	at = put_le(p, at, 0, 4);		/* pcp_method "" */
	at = put_le(p, at, 1, 1);		/* CPU 0 online */
	at = put_le(p, at, 0, 4);
	for (i = 0; i < 9; i++)			/* faults, fallbacks, anon, pcp */
		at = put_le(p, at, 0, 8);
	at = put_le(p, at, 1, 4);		/* one zone row */
	row = at;
	at = put_le(p, at, 0, 4);		/* its length, below */
	at = put_le(p, at, 0, 4);		/* node 0 */
	at = put_le(p, at, 6, 4);
	memcpy(p + at, "Normal", 6);
	at += 6;
	for (i = 0; i < 5 && row_bytes > 14; i++)	/* pcp counts 1..5 */
		at = put_le(p, at, i + 1, 8);
	if (extra_field)
		at = put_le(p, at, 0xdeadbeef, 8);
	put_le(p, row, at - row - 4, 4);
	for (i = 0; i < 5; i++)			/* no other rows */
		at = put_le(p, at, 0, 4);
	at = put_le(p, at, 0, 4);		/* no blame rows */
	at = put_le(p, at, 0, 4);		/* fork_method "" */
	return put_le(p, at, 0, 4);		/* no holders */
}

static void sized_rows(void)
{
	unsigned char p[1024];
	struct snapshot s;
	size_t n;

	n = one_zone(p, 54, true);
	CHECK(!rec_get_snapshot(p, n, REC_EXTRAS | REC_SIZED_ROWS, &s) && s.zones.nr == 1 &&
	      s.zones.v[0].pcp.refills == 1 && s.zones.v[0].pcp.buddy_pages == 5,
	      "a row with a field this reader does not know: read, the field skipped");
	if (!s.zones.nr)
		return;
	snapshot_free(&s);
	n = one_zone(p, 14, false);
	CHECK(!rec_get_snapshot(p, n, REC_EXTRAS | REC_SIZED_ROWS, &s) && s.zones.nr == 1 &&
	      !strcmp(s.zones.v[0].name, "Normal") && s.zones.v[0].pcp.refills == 0,
	      "a row without the fields an older writer did not have: they read as 0");
	snapshot_free(&s);
	/* The name's length (42 bytes from the end: "Normal", 8 counts) past the row. */
	p[n - 42] ^= 0x40;
	CHECK(rec_get_snapshot(p, n, REC_EXTRAS | REC_SIZED_ROWS, &s) < 0 ||
	      (snapshot_free(&s), 0), "a field cut by its row's end is refused");
	CHECK(rec_layout_of(1, 0) == 0 && rec_layout_of(2, 0) == REC_VARINT &&
	      rec_layout_of(2, 1) == (REC_VARINT | REC_EXTRAS) &&
	      rec_layout_of(2, 2) == (REC_VARINT | REC_EXTRAS | REC_SIZED_ROWS) &&
	      rec_layout_of(2, 3) == (REC_VARINT | REC_EXTRAS | REC_SIZED_ROWS | REC_VMA_NA) &&
	      rec_layout_of(2, 4) == (REC_VARINT | REC_EXTRAS | REC_SIZED_ROWS | REC_VMA_NA) &&
	      rec_layout_of(2, 5) == (REC_VARINT | REC_EXTRAS | REC_SIZED_ROWS | REC_VMA_NA |
				      REC_SAMPLING) &&
	      rec_layout_of(2, 6) == (REC_VARINT | REC_EXTRAS | REC_SIZED_ROWS | REC_VMA_NA |
				      REC_SAMPLING | REC_ATTACH) &&
	      rec_layout_of(2, 7) == (REC_VARINT | REC_EXTRAS | REC_SIZED_ROWS | REC_VMA_NA |
				      REC_SAMPLING | REC_ATTACH | REC_WAITS_NA) &&
	      rec_layout_of(2, 8) == (REC_VARINT | REC_EXTRAS | REC_SIZED_ROWS | REC_VMA_NA |
				      REC_SAMPLING | REC_ATTACH | REC_WAITS_NA | REC_HOLDERS) &&
	      rec_layout_of(2, 9) == rec_layout_of(2, 8) &&
	      rec_layout_of(2, 10) == (rec_layout_of(2, 8) | REC_CGROUPS),
	      "layouts by version: 1.0, 2.0, 2.1, 2.2, 2.3, 2.4, 2.5, 2.6, 2.7, 2.8, "
	      "2.9 (a row's appendage: the layout of 2.8), 2.10");
}

int main(void)
{
	round_trip(false, false);
	round_trip(true, false);
	round_trip(true, true);
	sized_rows();
	UNIT_EXIT();
}
