// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"
#include "unit.h"
#include "util.h"

static void fill(struct snapshot *s)
{
	snapshot_init(s, 2, 1);
	s->seq = 3;
	s->wall_ns = 1700000000ULL * NSEC_PER_SEC + 123000000;
	s->interval_ns = NSEC_PER_SEC;
	s->probes = 1u << PROBE_FAULTS_TP_BTF;
	s->cpus[0] = (struct cpu_sample){ true, 0, { 1000, 2 } };
	s->cpus[1] = (struct cpu_sample){ false, 0, { 0, 0 } };
	s->drops[DROP_READ] = 1;
	snapshot_sum(s);
}

/* Render @s twice in @fmt into a string the caller frees. */
static char *render(enum output_format fmt, const struct snapshot *s)
{
	struct output o;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	output_init(&o, fmt, f);
	output_snapshot(&o, s);
	output_snapshot(&o, s);
	fclose(f);
	return buf;
}

static int fields(const char *line)
{
	int n = 1;

	for (; *line && *line != '\n'; line++)
		n += *line == ',';
	return n;
}

static void test_csv(const struct snapshot *s)
{
	char *out = render(OUTPUT_CSV, s), *line;
	int header = fields(out), rows = 0, bad = 0, headers = 0;

	for (line = out; line && *line; line = strchr(line, '\n'), line += !!line) {
		headers += !strncmp(line, "time,", 5);
		rows++;
		bad += fields(line) != header;
	}
	CHECK(headers == 1, "CSV has exactly one header row over two intervals");
	CHECK(rows == 1 + 2 * (1 + 2 + 1), "CSV: a total, 2 CPU and 1 node row per interval");
	CHECK(!bad, "every CSV row has the header's %d columns", header);
	CHECK(strstr(out, "2023-11-14T22:13:20.123Z,3,1.000000,cpu,0,0,1,1000,2,1000.000,2.000,1,faults:tp_btf\n") != NULL,
	      "CSV CPU row carries time, seq, counts, rates and drops");
	CHECK(strstr(out, ",cpu,1,0,0,0,0,") != NULL, "CSV marks an offline CPU");
	free(out);
}

static void test_json(const struct snapshot *s)
{
	char *out = render(OUTPUT_JSON, s), *p;
	int depth = 0, lines = 0, unbalanced = 0;

	for (p = out; *p; p++) {
		depth += (*p == '{' || *p == '[') - (*p == '}' || *p == ']');
		if (*p == '\n') {
			lines++;
			unbalanced += depth != 0;
		}
	}
	CHECK(lines == 2 && !unbalanced, "JSON: one balanced object per line");
	CHECK(strstr(out, "\"cpus\":[{\"cpu\":0,\"node\":0,\"online\":true,\"minflt\":1000,\"majflt\":2") != NULL,
	      "JSON CPU object");
	CHECK(strstr(out, "\"probes\":[\"faults:tp_btf\"]") != NULL, "JSON lists active probes");
	CHECK(strstr(out, "\"drops\":{\"flush\":0,\"read\":1}") != NULL, "JSON names every drop counter");
	free(out);
}

static void test_text(const struct snapshot *s)
{
	char *out = render(OUTPUT_TEXT, s);

	CHECK(strstr(out, "faults/s 1002.0 (minor 1000.0, major 2.0)  drops 1  probes faults:tp_btf") != NULL,
	      "text header line: rates, drops, probes");
	CHECK(strstr(out, "offline") != NULL, "text marks an offline CPU");
	free(out);
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
	test_full_disk(&s);
	CHECK(!output_format_parse("csv", &fmt) && fmt == OUTPUT_CSV, "format csv parses");
	CHECK(output_format_parse("xml", &fmt) < 0, "unknown format refused");
	snapshot_free(&s);
	UNIT_EXIT();
}
