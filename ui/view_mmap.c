// SPDX-License-Identifier: GPL-2.0
/*
 * mmap_lock: per process and call site. Enter zooms into a row: its wait
 * and hold histograms, whom its waits waited behind, the process's other
 * call sites, its per-VMA lock outcome.
 */
#include <curses.h>
#include <stdlib.h>
#include <string.h>

#include "draw.h"
#include "table.h"
#include "util.h"
#include "views.h"

/*
 * The view's columns: fields of the mmap_lock rows (row_types.c). The
 * acquisitions and holds are "-" where exact mode was off: the default
 * set counts waits alone.
 */
static const char *const shown[] = {
	"pid", "comm", "site", "write", "foreign", "acquired", "failed", "time_ns",
	"wait_p50_ns", "wait_p99_ns", "wait_max_ns", "hold_p50_ns", "hold_p99_ns", "hold_max_ns",
};

/* Grouped by cgroup (g): the first column, before the others. */
static const struct ui_column cgroup_col = { "CGROUP", 24, TABLE_PATH };

enum { COL_ACQ = 5, COL_FAIL, COL_TIME };

static struct field_cols fc = FIELD_COLS(ROWS_LOCK, shown);

/* A blame row of the zoomed row's waits: same process, mode and site. */
static bool behind_zoom(const struct blame_row *b, const void *arg)
{
	const struct lock_row *z = arg;

	return b->pid == z->pid && b->write == z->write &&
	       callsite_same(b->site, b->symbol, z->site, z->symbol);
}

/*
 * The holders the zoomed row's waits waited behind, sorted as the Blame
 * view is (TOTAL, its default, largest first); returns lines drawn.
 */
static int draw_behind(const struct snapshot *s, const struct ui_state *st, int y, int h)
{
	struct ui_table t;
	int i, line = 0;
	char w[16], m[16], pid[12];

	blame_table(&t, s, behind_zoom, &st->zoom);
	table_sort_like(&t, &st->tables[VIEW_BLAME]);
	if (t.nr_shown)
		draw_text(y + line++, 0, COLS, C_TITLE, "waited behind (* another process)");
	for (i = 0; i < t.nr_shown && line < h; i++) {
		const struct blame_row *b = &s->blame.v[t.ids[t.order[i]]];

		draw_text(y + line++, 2, COLS - 2, C_NORMAL,
			  "%-7s%s %-16s %-20.20s %-5s %8lu waits  total %-9s max %s",
			  blame_holder_pid(b, pid, sizeof(pid)), blame_foreign(b) ? "*" : " ", b->holder_comm,
			  callsite_label(b->holder_site, b->holder_symbol),
			  b->holder_write ? "write" : "read", (unsigned long)b->count,
			  format_ns(b->wait_ns, w, sizeof(w)), format_max(b->wait_max_ns, b->wait_max_bound, m, sizeof(m)));
	}
	table_free(&t);
	return line;
}

/*
 * The zoomed row's counts: acquisitions and holds are exact mode's; in
 * the default set its waits alone, and what x turns on.
 */
static void draw_counts(const struct snapshot *s, const struct lock_row *r, int y, int half)
{
	char b[16], p90[16];

	format_ns(hist_quantile(&r->wait, 0.9, r->wait_max_ns), p90, sizeof(p90));
	if (!snapshot_acquisitions(s)) {
		draw_text(y, 0, half, C_NORMAL, "wait: %lu waits, total %s, p90 %s",
			  (unsigned long)lock_row_waits(r), format_ns(r->wait_ns, b, sizeof(b)), p90);
		draw_text(y, half + 2, half, C_DIM,
			  "acquisitions and holds: exact mode only (x)");
		return;
	}
	draw_text(y, 0, half, C_NORMAL, "wait: %lu acquired, %lu failed, total %s, p90 %s",
		  (unsigned long)r->acquired, (unsigned long)r->failed,
		  format_ns(r->wait_ns, b, sizeof(b)), p90);
	draw_text(y, half + 2, half, C_NORMAL, "hold: %lu released, total %s",
		  (unsigned long)r->holds, format_ns(r->hold_ns, b, sizeof(b)));
}

/*
 * The process's call sites, sorted as the view is (the same cells: TIME,
 * the default, largest first); returns lines drawn.
 */
static int draw_sites(const struct snapshot *s, const struct ui_state *st, int pid, int y,
		      int h)
{
	bool acq = snapshot_acquisitions(s);
	struct ui_table t;
	struct ui_cell *c;
	int i, line = 0;

	table_init(&t, field_cols(&fc)->cols, fc.nr, COL_TIME);
	for (i = 0; i < s->locks.nr; i++)
		if (s->locks.v[i].pid == pid && (c = table_row(&t, i)))
			field_cells(c, &fc, &s->locks.v[i], s);
	table_sort_like(&t, &st->tables[VIEW_MMAP]);
	draw_text(y + line++, 0, COLS, C_TITLE, "call sites of pid %d", pid);
	for (i = 0; i < t.nr_shown && line < h; i++) {
		const struct lock_row *o = &s->locks.v[t.ids[t.order[i]]];
		char a[24] = "-", w[16], hd[16] = "-";

		if (acq) {
			snprintf(a, sizeof(a), "%lu", (unsigned long)o->acquired);
			format_ns(o->hold_ns, hd, sizeof(hd));
		}
		draw_text(y + line++, 2, COLS - 2, lock_row_same(o, &st->zoom) ? C_HIGH : C_NORMAL,
			  "%-20.20s %-5s %-5s acq %-8s wait %-9s hold %s",
			  callsite_label(o->site, o->symbol), o->write ? "write" : "read",
			  o->foreign ? "other" : "own", a,
			  format_ns(o->wait_ns, w, sizeof(w)), hd);
	}
	table_free(&t);
	return line;
}

static void draw_zoom(struct ui_state *st, int y, int h)
{
	const struct snapshot *s = ui_snapshot(st);
	const struct lock_row *r = NULL;
	int i, line = 0, half = (COLS - 2) / 2;

	for (i = 0; i < s->locks.nr && !r; i++)
		if (lock_row_same(&s->locks.v[i], &st->zoom))
			r = &s->locks.v[i];
	draw_text(y + line++, 0, COLS, C_TITLE, "pid %d  %s  %s  %s mm   (Esc or B: back)",
		  st->zoom.pid, callsite_label(st->zoom.site, st->zoom.symbol),
		  st->zoom.write ? "write" : "read", st->zoom.foreign ? "other" : "own");
	if (!r) {
		draw_text(y + line, 2, COLS - 2, C_DIM, "no %s from this call site %s",
			  snapshot_acquisitions(s) ? "acquisitions" : "waits", ui_span(st));
		return;
	}
	draw_counts(s, r, y + line++, half);
	i = draw_hist(y + line, 0, half, h / 2, &r->wait);
	/* Holds are exact mode's: no empty histogram beside the waits. */
	if (snapshot_acquisitions(s) && draw_hist(y + line, half + 2, half, h / 2, &r->hold) > i)
		i = draw_hist(y + line, half + 2, half, h / 2, &r->hold);
	line += i + 1;
	line += draw_behind(s, st, y + line, h / 4);
	for (i = 0; i < s->vmas.nr; i++) {
		const struct vma_row *v = &s->vmas.v[i];

		if (v->pid != r->pid)
			continue;
		if (v->faults > 0)
			draw_text(y + line++, 0, COLS, C_NORMAL,
				  "per-VMA lock: %ld faults, %lu fell back, %lu anon_vma: %.1f%% served under the VMA lock",
				  (long)v->faults, (unsigned long)v->fallbacks,
				  (unsigned long)v->anon,
				  100.0 * vma_ok(v->faults, v->fallbacks, v->anon));
		else
			draw_text(y + line++, 0, COLS, C_NORMAL, "per-VMA lock: %lu fell back, %lu anon_vma",
				  (unsigned long)v->fallbacks, (unsigned long)v->anon);
	}
	draw_sites(s, st, r->pid, y + line, h - line);
}

/* The cgroups of a snapshot's rows, sorted: grouped by cgroup (g), rows go by its place. */
struct ranks {
	const char **v;
	int nr;
};

static int by_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int cgroup_ranks(struct ranks *r, const struct snapshot *s)
{
	int i, n = 0;

	r->v = malloc((s->locks.nr + 1) * sizeof(*r->v));
	if (!r->v)
		return -1;
	for (i = 0; i < s->locks.nr; i++)
		r->v[i] = s->locks.v[i].cgroup;
	qsort(r->v, s->locks.nr, sizeof(*r->v), by_name);
	for (i = 0; i < s->locks.nr; i++)
		if (!n || strcmp(r->v[n - 1], r->v[i]))
			r->v[n++] = r->v[i];
	r->nr = n;
	return 0;
}

static int rank_of(const struct ranks *r, const char *cgroup)
{
	const char **at = bsearch(&cgroup, r->v, r->nr, sizeof(*r->v), by_name);

	return at ? (int)(at - r->v) : 0;
}

static void mmap_draw(struct ui_state *st, int y, int h)
{
	const struct snapshot *s = ui_snapshot(st);
	struct table_state *ts = &st->tables[VIEW_MMAP];
	struct ui_column grouped[ROW_TABLE_COLS_MAX + 1];
	int i, at = st->by_cgroup;	/* grouped: CGROUP first */
	struct ranks ranks = {};
	struct ui_table t;

	if (family_na(st, FAMILY_MMAP_LOCK)[0]) {
		draw_text(y, 0, COLS, C_DIM, "mmap_lock: n/a (%s)", family_na(st, FAMILY_MMAP_LOCK));
		return;
	}
	if (st->zoomed) {
		draw_zoom(st, y, h);
		return;
	}
	field_cols(&fc);
	if (at) {
		grouped[0] = cgroup_col;
		memcpy(grouped + 1, fc.cols, fc.nr * sizeof(*fc.cols));
		if (cgroup_ranks(&ranks, s)) {
			draw_text(y, 0, COLS, C_DIM, "mmap_lock: out of memory");
			return;
		}
	}
	table_init(&t, at ? grouped : fc.cols, fc.nr + at, COL_TIME + at);
	t.sampled_cols = (1u << COL_ACQ | 1u << COL_FAIL | 1u << COL_TIME) << at;
	for (i = 0; i < s->locks.nr; i++) {
		const struct lock_row *r = &s->locks.v[i];
		struct ui_cell *c = table_row_in(&t, i, at ? rank_of(&ranks, r->cgroup) : 0);

		if (!c)
			break;
		field_cells(c + at, &fc, r, s);
		if (at)
			cell_set(&c[0], 0, "%s", r->cgroup[0] ? r->cgroup : "-");
	}
	free(ranks.v);
	table_show(&t, ts, st, y, h);
}

static void mmap_enter(struct ui_state *st)
{
	int id = st->tables[VIEW_MMAP].selected_id;
	const struct lock_row *r;

	if (id < 0 || id >= ui_snapshot(st)->locks.nr)
		return;
	r = &ui_snapshot(st)->locks.v[id];
	st->zoom = *r;
	st->zoomed = true;
}

const struct view_ops view_mmap = {
	.name = "mmap_lock",
	.draw = mmap_draw,
	.enter = mmap_enter,
};
