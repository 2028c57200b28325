// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <time.h>

#include "output.h"
#include "util.h"

int output_format_parse(const char *s, enum output_format *fmt)
{
	if (!strcmp(s, "text"))
		*fmt = OUTPUT_TEXT;
	else if (!strcmp(s, "csv"))
		*fmt = OUTPUT_CSV;
	else if (!strcmp(s, "json"))
		*fmt = OUTPUT_JSON;
	else
		return -1;
	return 0;
}

void output_init(struct output *o, enum output_format fmt, FILE *f)
{
	memset(o, 0, sizeof(*o));
	o->format = fmt;
	o->f = f;
}

/* ISO 8601 UTC with milliseconds: machine formats. */
static void format_utc(uint64_t ns, char *buf, size_t len)
{
	time_t sec = ns / NSEC_PER_SEC;
	struct tm tm;
	size_t n;

	gmtime_r(&sec, &tm);
	n = strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + n, len - n, ".%03uZ",
		 (unsigned int)(ns % NSEC_PER_SEC / 1000000));
}

static void probe_list(const struct snapshot *s, char *buf, size_t len,
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

static void text_faults(FILE *f, const struct snapshot *s,
			const struct fault_counts *fc)
{
	fprintf(f, " %11.1f %10.1f %10" PRIu64 " %9" PRIu64 "\n",
		snapshot_rate(s, fc->min_flt), snapshot_rate(s, fc->maj_flt),
		fc->min_flt, fc->maj_flt);
}

static void write_text(FILE *f, const struct snapshot *s)
{
	char when[32], probes[256];
	time_t sec = s->wall_ns / NSEC_PER_SEC;
	struct tm tm;
	int i;

	localtime_r(&sec, &tm);
	strftime(when, sizeof(when), "%H:%M:%S", &tm);
	probe_list(s, probes, sizeof(probes), ",", "");
	fprintf(f, "%s.%03u  interval %.3fs  faults/s %.1f (minor %.1f, major %.1f)  drops %" PRIu64 "  probes %s\n",
		when, (unsigned int)(s->wall_ns % NSEC_PER_SEC / 1000000),
		s->interval_ns / 1e9,
		snapshot_rate(s, s->total.min_flt + s->total.maj_flt),
		snapshot_rate(s, s->total.min_flt),
		snapshot_rate(s, s->total.maj_flt), snapshot_drops(s), probes);
	fprintf(f, "  CPU NODE STATE      MINFLT/s   MAJFLT/s     MINFLT    MAJFLT\n");
	for (i = 0; i < s->nr_cpus; i++) {
		const struct cpu_sample *c = &s->cpus[i];

		fprintf(f, "%5d %4d %-7s", i, c->node, c->online ? "online" : "offline");
		text_faults(f, s, &c->faults);
	}
	fprintf(f, " NODE CPUS              MINFLT/s   MAJFLT/s     MINFLT    MAJFLT\n");
	for (i = 0; i < s->nr_nodes; i++) {
		fprintf(f, "%5d %4d %7s", i, s->nodes[i].nr_online, "");
		text_faults(f, s, &s->nodes[i].faults);
	}
	fputc('\n', f);
}

/* Columns every row shares: when, and what was collected. */
struct csv_common {
	char when[32];
	char probes[256];
};

static void csv_row(FILE *f, const struct snapshot *s,
		    const struct csv_common *c, const char *kind, int id,
		    int node, int online, const struct fault_counts *fc)
{
	fprintf(f, "%s,%" PRIu64 ",%.6f,%s,%d,%d,%d,%" PRIu64 ",%" PRIu64 ",%.3f,%.3f,%" PRIu64 ",%s\n",
		c->when, s->seq, s->interval_ns / 1e9, kind, id, node, online,
		fc->min_flt, fc->maj_flt, snapshot_rate(s, fc->min_flt),
		snapshot_rate(s, fc->maj_flt), snapshot_drops(s), c->probes);
}

static void write_csv(struct output *o, const struct snapshot *s)
{
	struct csv_common c;
	int i;

	if (!o->header_done) {
		fprintf(o->f, "time,seq,interval_s,kind,id,node,online,minflt,majflt,minflt_per_s,majflt_per_s,drops,probes\n");
		o->header_done = true;
	}
	format_utc(s->wall_ns, c.when, sizeof(c.when));
	probe_list(s, c.probes, sizeof(c.probes), ";", "");
	csv_row(o->f, s, &c, "total", -1, -1, -1, &s->total);
	for (i = 0; i < s->nr_cpus; i++)
		csv_row(o->f, s, &c, "cpu", i, s->cpus[i].node,
			s->cpus[i].online, &s->cpus[i].faults);
	for (i = 0; i < s->nr_nodes; i++)
		csv_row(o->f, s, &c, "node", i, i, s->nodes[i].nr_online,
			&s->nodes[i].faults);
}

static void json_faults(FILE *f, const struct snapshot *s,
			const struct fault_counts *fc)
{
	fprintf(f, "\"minflt\":%" PRIu64 ",\"majflt\":%" PRIu64 ",\"minflt_per_s\":%.3f,\"majflt_per_s\":%.3f",
		fc->min_flt, fc->maj_flt, snapshot_rate(s, fc->min_flt),
		snapshot_rate(s, fc->maj_flt));
}

static void write_json(FILE *f, const struct snapshot *s)
{
	char when[32], probes[256];
	int i;

	format_utc(s->wall_ns, when, sizeof(when));
	probe_list(s, probes, sizeof(probes), ",", "\"");
	fprintf(f, "{\"time\":\"%s\",\"time_ns\":%" PRIu64 ",\"seq\":%" PRIu64 ",\"interval_s\":%.6f,\"probes\":[%s],\"drops\":{",
		when, s->wall_ns, s->seq, s->interval_ns / 1e9, probes);
	for (i = 0; i < DROP__COUNT; i++)
		fprintf(f, "%s\"%s\":%" PRIu64, i ? "," : "", drop_name(i), s->drops[i]);
	fprintf(f, "},\"total\":{");
	json_faults(f, s, &s->total);
	fprintf(f, "},\"cpus\":[");
	for (i = 0; i < s->nr_cpus; i++) {
		fprintf(f, "%s{\"cpu\":%d,\"node\":%d,\"online\":%s,", i ? "," : "",
			i, s->cpus[i].node, s->cpus[i].online ? "true" : "false");
		json_faults(f, s, &s->cpus[i].faults);
		fputc('}', f);
	}
	fprintf(f, "],\"nodes\":[");
	for (i = 0; i < s->nr_nodes; i++) {
		fprintf(f, "%s{\"node\":%d,\"cpus_online\":%d,", i ? "," : "", i,
			s->nodes[i].nr_online);
		json_faults(f, s, &s->nodes[i].faults);
		fputc('}', f);
	}
	fprintf(f, "]}\n");
}

int output_snapshot(struct output *o, const struct snapshot *s)
{
	switch (o->format) {
	case OUTPUT_TEXT:
		write_text(o->f, s);
		break;
	case OUTPUT_CSV:
		write_csv(o, s);
		break;
	case OUTPUT_JSON:
		write_json(o->f, s);
		break;
	}
	if (fflush(o->f) || ferror(o->f))
		return errno ? -errno : -EIO;
	return 0;
}
