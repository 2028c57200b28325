// SPDX-License-Identifier: GPL-2.0
/*
 * The views on a virtual screen: synthetic snapshots are drawn into an
 * ncurses screen whose output goes to /dev/null, and the text is read back
 * from ncurses' own copy of the screen. No kernel involved.
 */
#include <curses.h>
#include <stdio.h>
#include <stdarg.h>
#include <string.h>

#include "keys.h"
#include "ui_state.h"
#include "unit.h"
#include "util.h"
#include "views.h"

static char screen_text[64 * 1024];

/* The whole screen as lines of text. */
static const char *screen(void)
{
	char line[512];
	size_t n = 0;
	int y;

	for (y = 0; y < LINES && n + COLS + 2 < sizeof(screen_text); y++) {
		mvinnstr(y, 0, line, COLS < 511 ? COLS : 511);
		n += snprintf(screen_text + n, sizeof(screen_text) - n, "%s\n", line);
	}
	return screen_text;
}

/* Both texts are on @out, @a first. */
static bool before(const char *out, const char *a, const char *b)
{
	const char *pa = strstr(out, a), *pb = strstr(out, b);

	return pa && pb && pa < pb;
}

/* The screen line holding @text, or "". */
static const char *line_with(const char *text, char *buf, size_t len)
{
	const char *p = strstr(screen(), text), *b, *e;

	buf[0] = '\0';
	if (!p)
		return buf;
	for (b = p; b > screen_text && b[-1] != '\n'; b--)
		;
	e = strchr(p, '\n');
	snprintf(buf, len, "%.*s", (int)(e - b), b);
	return buf;
}

/* Each of the NULL-terminated texts on @line, in this order. */
static bool in_order(const char *line, ...)
{
	const char *p = line, *t;
	va_list ap;
	bool ok = true;

	va_start(ap, line);
	while (ok && (t = va_arg(ap, const char *))) {
		p = strstr(p, t);
		ok = p != NULL;
		if (ok)
			p += strlen(t);
	}
	va_end(ap);
	return ok;
}

static void fill(struct snapshot *s)
{
	struct lock_row *r;
	struct cont_row *c;
	struct slow_event *e;
	struct vma_row *v;
	struct fork_row *f;

	s->seq = 1;
	s->wall_ns = 1700000000ULL * NSEC_PER_SEC;
	s->interval_ns = NSEC_PER_SEC;
	s->slow_ns = 1000000;
	s->probes = 1u << PROBE_FAULTS_TP_BTF | 1u << PROBE_MMAP_LOCK_TP_BTF;
	s->cpus[0] = (struct cpu_sample){ .online = true, .faults = { 1000, 0 },
					  .fallbacks = 10, .anon = 2 };
	s->cpus[1] = (struct cpu_sample){ .online = true, .faults = { 12, 0 } };
	r = snapshot_push(&s->locks);
	*r = (struct lock_row){ .pid = 4242, .comm = "churner", .write = true,
				.site = CALLSITE_MPROTECT, .acquired = 2000, .holds = 2000,
				.wait_ns = 900000, .wait_max_ns = 30000,
				.hold_ns = 5000000, .hold_max_ns = 131071, .hold_max_bound = true };
	r->wait.bucket[9] = 1990;
	r->wait.bucket[14] = 10;
	r->hold.bucket[11] = 2000;
	r = snapshot_push(&s->locks);
	*r = (struct lock_row){ .pid = 77, .comm = "bystander", .site = CALLSITE_FAULT,
				.acquired = 3, .holds = 3, .wait_ns = 900, .hold_ns = 3000,
				.wait_max_ns = 400, .hold_max_ns = 1100 };
	r->wait.bucket[8] = 3;
	r->hold.bucket[9] = 3;
	v = snapshot_push(&s->vmas);
	*v = (struct vma_row){ .pid = 4242, .comm = "churner", .faults = 1000,
			       .fallbacks = 10, .anon = 2 };
	c = snapshot_push(&s->conts);
	*c = (struct cont_row){ .cls = CONT_CLASS_ZONE, .by_address = true,
				.caller = "rmqueue_bulk", .type = "spinlock", .mode = "-",
				.count = 5, .wait_ns = 50000, .wait_max_ns = 20000 };
	f = snapshot_push(&s->forks);
	*f = (struct fork_row){ .wall_ns = s->wall_ns, .pid = 4242, .tid = 4242, .child = 5000,
				.comm = "churner", .syscall = "clone", .latency_ns = 125000,
				.dup_hold_ns = 100000, .anon_kb = 65536, .thp_kb = 65536 };
	e = snapshot_push(&s->events);
	*e = (struct slow_event){ .wall_ns = s->wall_ns, .pid = 4242, .tid = 4243,
				  .comm = "churner", .write = true,
				  .site = CALLSITE_MUNMAP, .hold_ns = 2500000 };
	snprintf(s->na[FAMILY_PCP], sizeof(s->na[0]), "opt-in");
	snprintf(s->cont_method, sizeof(s->cont_method), "address table (3 zone locks)");
	snapshot_sum(s);
}

static void test_views(struct ui_state *st)
{
	const char *out;
	char line[512];

	ui_draw(st);
	out = screen();
	CHECK(strstr(out, "mmtop") && strstr(out, "LIVE") && strstr(out, "interval 1.00s"),
	      "header: name, mode, interval");
	CHECK(strstr(out, "faults/s 1012.0") != NULL, "header: total fault rate");
	CHECK(strstr(out, "vma-lock ok 98.8%") != NULL, "header: VMA-lock ratio from the totals");
	CHECK(strstr(out, "  0 [") && strstr(out, "  1 ["), "overview: a bar for each CPU");
	CHECK(strstr(out, "churner") && strstr(out, "mprotect"), "overview: top mmap_lock row");
	CHECK(strstr(out, "rmqueue_bulk") != NULL, "overview: top contention row");
	CHECK(strstr(out, "q quit") != NULL, "key hint bar");

	ui_key(st, '2');
	ui_draw(st);
	out = screen();
	CHECK(strstr(out, "cpu0") && strstr(out, "1000.0") && strstr(out, "n/a"),
	      "CPUs view: rates, and n/a for PCP columns not collected");

	ui_key(st, '3');
	ui_draw(st);
	out = screen();
	CHECK(in_order(line_with("4242", line, sizeof(line)), "churner", "mprotect", "write", "own",
		       "2000", NULL), "mmap_lock view: the row (%s)", line);
	/* The hold columns whole: a maximum's is 10 wide, "<=134.22ms". */
	resize_term(40, 160);
	ui_draw(st);
	CHECK(in_order(line_with("4242", line, sizeof(line)), "30.0us", "<=131.1us", NULL),
	      "mmap_lock view: a max seen as is, one that is a bucket's bound as <= (%s)", line);
	resize_term(40, 120);
	ui_draw(st);
	out = screen();
	CHECK(before(out, "4242", "   77 bystander"),
	      "mmap_lock view: hottest (most time) first");
	ui_key(st, 'r');
	ui_draw(st);
	out = screen();
	CHECK(before(out, "bystander", "churner"), "r reverses the sort");
	ui_key(st, 'r');
	ui_draw(st);	/* as the screen loop does after every key */
	ui_key(st, '\n');
	ui_draw(st);
	out = screen();
	CHECK(strstr(out, "pid 4242  mprotect  write") && strstr(out, "2000 acquired") &&
	      strstr(out, "98.8% served under the VMA lock"), "Enter zooms: totals and VMA-lock outcome");
	CHECK(strstr(out, "512ns-1.0us") != NULL, "zoom: wait histogram buckets");
	CHECK(strstr(out, "total 900.0us, p90 975ns") != NULL, "zoom: the waits' p90");
	ui_key(st, 27);
	ui_draw(st);
	CHECK(!strstr(screen(), "acquired,"), "Esc leaves the zoom");

	ui_key(st, '/');
	ui_key(st, 'b');
	ui_key(st, 'y');
	ui_key(st, '\n');
	ui_draw(st);
	out = screen();
	CHECK(strstr(out, "filter: by") && strstr(out, "bystander") && !strstr(out, "churner "),
	      "/ filters rows and the header shows it");
	ui_key(st, 27);

	ui_key(st, '4');
	ui_draw(st);
	CHECK(in_order(line_with("rmqueue_b", line, sizeof(line)), "zone", "addr", "rmqueue_b", NULL),
	      "Locks view: classified rows (%s)", line);
	ui_key(st, '5');
	ui_draw(st);
	CHECK(strstr(screen(), "this interval: 1 forks") && strstr(screen(), "4K -, THP 2.0us") &&
	      strstr(screen(), "   4242 churner"), "Forks view: aggregates and the fork");
	ui_key(st, '6');
	ui_draw(st);
	CHECK(strstr(screen(), "munmap") && strstr(screen(), "2.50ms"), "Events view: the slow event");
	ui_key(st, '?');
	ui_draw(st);
	CHECK(strstr(screen(), "Keys") && strstr(screen(), "zoom into"), "? shows the help");
	ui_key(st, 'x');
	CHECK(!st->help, "any key closes the help");
	CHECK(ui_key(st, '+') == KEY_INTERVAL && st->interval_ns == 2 * NSEC_PER_SEC,
	      "+ lengthens the interval");
	CHECK(ui_key(st, 'q') == KEY_QUIT, "q quits");
}

static void test_na(struct ui_state *st, struct snapshot *s)
{
	snprintf(s->na[FAMILY_MMAP_LOCK], sizeof(s->na[0]), "disabled by --disable-probe");
	ui_state_push(st, s);
	st->view = VIEW_MMAP;
	ui_draw(st);
	CHECK(strstr(screen(), "mmap_lock: n/a (disabled by --disable-probe)") != NULL,
	      "a family that is off says so instead of showing zeros");
}

/*
 * Node rows are aggregates: above the CPU rows in either sort order, so
 * that a machine of hundreds of CPUs keeps them on the screen.
 */
static void test_cpu_groups(struct ui_state *st)
{
	struct snapshot s;
	const char *out;

	snapshot_init(&s, 2, 1);
	fill(&s);
	ui_state_push(st, &s);
	snapshot_free(&s);
	st->view = VIEW_CPUS;
	ui_draw(st);
	out = screen();
	CHECK(before(out, "node0", "cpu0") && before(out, "node0", "cpu1"),
	      "CPUs view: node rows above the CPU rows");
	ui_key(st, 'r');
	ui_draw(st);
	out = screen();
	CHECK(before(out, "cpu1", "cpu0") && before(out, "node0", "cpu1"),
	      "reversed: the CPUs reverse, the node row stays above");
	ui_key(st, 'r');
	CHECK(strstr(out, "FALLBK/s") && strstr(out, "ANON/s"), "per-second columns say so");
}

/* At 80 columns: names narrow so the numbers stay; the rest scrolls. */
static void test_narrow(struct ui_state *st)
{
	struct snapshot s;
	char line[512];
	int i;

	snapshot_init(&s, 2, 1);
	fill(&s);
	ui_state_push(st, &s);
	resize_term(24, 80);
	st->view = VIEW_MMAP;
	ui_draw(st);
	CHECK(strstr(line_with("churner", line, sizeof(line)), "2000") != NULL,
	      "80x24 mmap_lock view: the name and the count on one line (%s)", line);
	CHECK(line_with("ACQ", line, sizeof(line))[79] == '>', "titles end with > : columns hidden");
	CHECK(!strstr(screen(), "HOLD-p50"), "the hold columns do not fit");
	for (i = 0; i < 4; i++)
		ui_key(st, KEY_RIGHT);
	ui_draw(st);
	CHECK(strstr(screen(), "HOLD-p50") && strstr(line_with("COMM", line, sizeof(line)), "<") &&
	      strstr(line_with("churner", line, sizeof(line)), "5.90ms"),
	      "Right scrolls behind PID and COMM: the hold columns come in, < marks the hidden ones");
	for (i = 0; i < 20; i++)
		ui_key(st, KEY_LEFT);
	st->view = VIEW_LOCKS;
	ui_draw(st);
	CHECK(strstr(line_with("CLASS", line, sizeof(line)), "COUNT") &&
	      strstr(line, "TOTAL"), "80x24 Locks view: COUNT and TOTAL on screen (%s)", line);
	resize_term(40, 160);
	st->view = VIEW_MMAP;
	ui_key(st, KEY_RIGHT);
	ui_draw(st);
	CHECK(strstr(line_with("ACQ", line, sizeof(line)), "SITE") && !strchr(line, '<') &&
	      !strchr(line, '>'), "wide enough: nothing scrolls, whatever the arrows");
	snapshot_free(&s);
}

/*
 * At 80 columns the call site narrows before the process name, and the
 * cut one ends in +: two processes whose names differ late stay apart.
 */
static void test_names_first(const struct snapshot *shape)
{
	static const char sym[] = "a_very_long_kernel_function_name_here";
	struct ui_state st;
	struct snapshot s;
	char line[512];

	snapshot_init(&s, shape->nr_cpus, shape->nr_nodes);
	s.seq = 1;
	s.interval_ns = NSEC_PER_SEC;
	*(struct lock_row *)snapshot_push(&s.locks) = (struct lock_row){
		.pid = 9, .comm = "stress-ng-mmap", .site = CALLSITE_OTHER, .wait_ns = 5000,
		.wait = { { [12] = 1 } } };
	snprintf(s.locks.v[0].symbol, sizeof(s.locks.v[0].symbol), "%s", sym);
	ui_state_init(&st, &s);
	st.mode = "LIVE";
	ui_state_push(&st, &s);
	resize_term(24, 80);
	st.view = VIEW_MMAP;
	ui_draw(&st);
	line_with("stress-ng-mmap", line, sizeof(line));
	CHECK(strstr(line, "stress-ng-mmap ") && !strstr(line, sym) && strstr(line, "a_very_+"),
	      "80 columns: the name whole, the call site cut and marked + (%s)", line);
	resize_term(40, 120);
	ui_state_free(&st);
	snapshot_free(&s);
}

/* The zoom lists the process's call sites in the view's order, as it changes. */
static void test_zoom_order(const struct snapshot *shape)
{
	struct ui_state st;
	struct snapshot s;

	snapshot_init(&s, shape->nr_cpus, shape->nr_nodes);
	s.seq = 1;
	s.interval_ns = NSEC_PER_SEC;
	*(struct lock_row *)snapshot_push(&s.locks) = (struct lock_row){
		.pid = 5, .comm = "zoomed", .site = CALLSITE_MMAP, .wait_ns = 100000,
		.wait = { { [16] = 1 } } };
	*(struct lock_row *)snapshot_push(&s.locks) = (struct lock_row){
		.pid = 5, .comm = "zoomed", .site = CALLSITE_MUNMAP, .write = true,
		.wait_ns = 900000, .wait = { { [19] = 1 } } };
	ui_state_init(&st, &s);
	st.mode = "LIVE";
	ui_state_push(&st, &s);
	st.view = VIEW_MMAP;
	ui_draw(&st);
	ui_key(&st, '\n');
	ui_draw(&st);
	CHECK(before(screen(), "munmap               write", "mmap                 read"),
	      "zoom: call sites by the view's sort, TIME, the most first");
	ui_key(&st, 27);
	st.tables[VIEW_MMAP].sort_col = 2;	/* SITE: alphabetical */
	ui_draw(&st);
	ui_key(&st, '\n');
	ui_draw(&st);
	CHECK(before(screen(), "mmap                 read", "munmap               write"),
	      "zoom: sorted on SITE in the view, the call sites alphabetical");
	ui_state_free(&st);
	snapshot_free(&s);
}

/* A line holding only a cell's end: a cell wrapped past the right edge. */
static bool wrapped_cell(const char *text)
{
	const char *line;

	for (line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		const char *p = line + strspn(line, " ");

		if (!strncmp(p, "n/a", 3) && p[3 + strspn(p + 3, " ")] == '\n')
			return true;
	}
	return false;
}

/* Events newest first, by time, not by the text of the time. */
static void test_events_order(struct ui_state *st, struct snapshot *s)
{
	struct slow_event *e;
	const char *older, *newer;

	snapshot_clear_rows(s);
	e = snapshot_push(&s->events);
	*e = (struct slow_event){ .wall_ns = 1700000001ULL * NSEC_PER_SEC, .pid = 1,
				  .comm = "a", .site = CALLSITE_OTHER, .symbol = "older_sym",
				  .wait_ns = 2000000 };
	e = snapshot_push(&s->events);
	*e = (struct slow_event){ .wall_ns = 1700000002ULL * NSEC_PER_SEC, .pid = 2,
				  .comm = "b", .site = CALLSITE_OTHER, .symbol = "newer_sym",
				  .wait_ns = 2000000 };
	ui_state_push(st, s);
	st->view = VIEW_EVENTS;
	ui_draw(st);
	older = strstr(screen(), "older_sym");
	newer = strstr(screen(), "newer_sym");
	CHECK(older && newer && newer < older, "Events view: newest first");
}

/*
 * Forks counted but not timed (the default set without a kernel_clone
 * hook): the reason, no latency to sort by, newest first.
 */
static void test_forks_untimed(const struct snapshot *shape)
{
	struct ui_state st;
	struct snapshot s;
	struct fork_row *f;

	snapshot_init(&s, shape->nr_cpus, shape->nr_nodes);
	s.wall_ns = shape->wall_ns;
	s.interval_ns = NSEC_PER_SEC;
	snprintf(s.fork_method, sizeof(s.fork_method), "page tables; forks timed in exact "
		 "mode only (no kprobes)");
	f = snapshot_push(&s.forks);
	*f = (struct fork_row){ .wall_ns = s.wall_ns, .pid = 77, .child = 78, .comm = "older",
				.anon_kb = 1024 };
	f = snapshot_push(&s.forks);
	*f = (struct fork_row){ .wall_ns = s.wall_ns + NSEC_PER_SEC, .pid = 77, .child = 79,
				.comm = "newer", .anon_kb = 1024 };
	ui_state_init(&st, &s);
	st.mode = "LIVE";
	ui_state_push(&st, &s);
	st.view = VIEW_FORKS;
	ui_draw(&st);
	CHECK(strstr(screen(), "latency and cost not measured (forks timed in exact mode only") &&
	      strstr(screen(), "newest first") && !strstr(screen(), "worst first") &&
	      strstr(screen(), "newer") < strstr(screen(), "older") &&
	      strstr(screen(), "     79 -                -"),
	      "Forks view, none timed: the reason, newest first, no ? for the syscall");
	ui_state_free(&st);
	snapshot_free(&s);
}

/* Whether @line holds @item whole, or nothing of it (its first word absent). */
static bool whole_or_none(const char *line, const char *item)
{
	char first[32];

	snprintf(first, sizeof(first), "%.*s", (int)strcspn(item, " "), item);
	return strstr(line, item) || !strstr(line, first);
}

/*
 * At 80x24 the header keeps the mode, the status, the drops, exact or not
 * and mmtop's cost, and drops whole what does not fit.
 */
static void test_header_80(struct ui_state *st, struct snapshot *s)
{
	char top[128], figures[128];

	resize_term(24, 80);
	snprintf(st->host, sizeof(st->host), "a-build-host-with-a-long-name");
	snprintf(st->kernel, sizeof(st->kernel), "6.12.118+deb12-cloud-amd64");
	snprintf(st->status, sizeof(st->status), "following sh (pid 4242)");
	s->drops[DROP_MMAP_LOCK_STATS] = 8604;
	s->bpf_measured = true;
	s->bpf_ns = 1600000;
	s->busy_ns = 1000000000;
	s->bpf_map_bytes = 15075768;
	ui_state_push(st, s);
	st->view = VIEW_OVERVIEW;
	ui_draw(st);
	mvinnstr(0, 0, top, 80);
	mvinnstr(1, 0, figures, 80);
	CHECK(strstr(top, "mmtop") && strstr(top, "LIVE") && strstr(top, "following sh (pid 4242)") &&
	      strstr(figures, "drops 8604") && strstr(figures, "mmap_lock exact") &&
	      strstr(figures, "mmtop bpf 0.16%") &&
	      whole_or_none(top, "Linux 6.12.118+deb12-cloud-amd64") &&
	      whole_or_none(top, "a-build-host-with-a-long-name") &&
	      whole_or_none(figures, "maps 14.4M") &&
	      whole_or_none(figures, "(minor 1012.0, major 0.0)"),
	      "80x24 header: mode, status, drops, exact, mmtop's cost; the rest whole or not at all "
	      "(%s|%s)", top, figures);
	s->drops[DROP_MMAP_LOCK_STATS] = 0;
	s->bpf_measured = false;
	s->bpf_map_bytes = 0;
	st->status[0] = '\0';
	resize_term(40, 120);
}

/* The help lists the drops behind the header's total, by kind. */
static void test_help_drops(struct ui_state *st, struct snapshot *s)
{
	s->drops[DROP_MMAP_LOCK_EVENTS] = 508;
	s->drops[DROP_BLAME_STATS] = 3;
	ui_state_push(st, s);
	ui_key(st, '?');
	ui_draw(st);
	CHECK(strstr(screen(), "Drops since start (the header's drops): mmap_lock_events 508, "
		      "blame_stats 3") != NULL, "help: drops by kind");
	ui_key(st, 'x');
	memset(s->drops, 0, sizeof(s->drops));
}

static void test_keys(struct ui_state *st)
{
	st->view = 0;
	ui_key(st, KEY_BTAB);
	CHECK(st->view == VIEW__COUNT - 1, "Shift-Tab goes to the previous view (wraps)");
	ui_key(st, '\t');
	CHECK(st->view == 0, "Tab goes to the next");
	CHECK(ui_key(st, KEY_F(10)) == KEY_QUIT, "F10 quits, as in htop");
}

/* Totals since start: what an interval showed stays after it. */
static void test_totals(const struct snapshot *shape)
{
	struct snapshot s, empty;
	struct ui_state st;
	struct fork_agg a;
	const struct lock_row *r;

	snapshot_init(&s, shape->nr_cpus, shape->nr_nodes);
	snapshot_init(&empty, shape->nr_cpus, shape->nr_nodes);
	fill(&s);
	empty.seq = 2;
	empty.wall_ns = s.wall_ns + NSEC_PER_SEC;
	empty.interval_ns = NSEC_PER_SEC;
	ui_state_init(&st, &s);
	ui_state_push(&st, &s);
	ui_state_push(&st, &empty);
	ui_state_push(&st, &s);
	ui_state_push(&st, &empty);
	CHECK(ui_snapshot(&st) == &st.shown && !st.shown.locks.nr,
	      "totals off: the views draw the last interval (no rows)");
	ui_key(&st, 'a');
	r = st.total.locks.nr ? &ui_snapshot(&st)->locks.v[0] : NULL;
	CHECK(st.cumulative && r && r->pid == 4242 && r->acquired == 4000,
	      "a: the views draw the totals, the churner's row twice over (%lu)",
	      r ? (unsigned long)r->acquired : 0UL);
	CHECK(ui_snapshot(&st)->interval_ns == 4 * NSEC_PER_SEC &&
	      st.total_from_ns == s.wall_ns - NSEC_PER_SEC && !strcmp(ui_span(&st), "since start"),
	      "totals span the four intervals, from the first one's start");
	ui_fork_agg(&st, &a);
	CHECK(a.count == 2 && !st.total.forks.nr && !st.total.events.nr,
	      "totals: 2 forks summed, no fork or event rows kept in them");
	ui_state_reset(&st);
	CHECK(!st.total.locks.nr && !st.fork_total.count && !st.total_from_ns,
	      "reset (a replay's seek): the totals start again");
	ui_key(&st, 'a');
	CHECK(!st.cumulative, "a again: back to the interval");
	ui_state_free(&st);
	snapshot_free(&s);
	snapshot_free(&empty);
}

/*
 * Totals of hours of short-lived processes stay bounded: past
 * UI_TOTAL_ROWS rows of a kind they start again, and say when and why.
 */
static void test_totals_bounded(const struct snapshot *shape)
{
	struct snapshot s;
	struct ui_state st;
	int i, k, pid = 1000;
	bool restarted = false, bounded = true;

	snapshot_init(&s, shape->nr_cpus, shape->nr_nodes);
	ui_state_init(&st, &s);
	for (i = 0; i < 6; i++) {
		snapshot_clear_rows(&s);
		s.seq = i + 1;
		s.wall_ns = (1700000000ULL + i) * NSEC_PER_SEC;
		s.interval_ns = NSEC_PER_SEC;
		for (k = 0; k < 1000; k++)
			*(struct lock_row *)snapshot_push(&s.locks) =
				(struct lock_row){ .pid = pid++, .comm = "short", .acquired = 1 };
		ui_state_push(&st, &s);
		bounded &= st.total.locks.nr <= UI_TOTAL_ROWS;
		restarted |= st.total.locks.nr == 1000 && i > 0;
	}
	CHECK(bounded && restarted && st.total.interval_ns < 6 * NSEC_PER_SEC &&
	      strstr(st.total_why, "totals restarted at ") &&
	      strstr(st.total_why, ": over 4096 mmap_lock rows"),
	      "6000 processes' rows: the totals start again past %d rows, and say why (%d rows, %s)",
	      UI_TOTAL_ROWS, st.total.locks.nr, st.total_why);
	st.cumulative = true;
	st.mode = "LIVE";
	ui_draw(&st);
	CHECK(!strncmp(ui_span(&st), "since ", 6) && strcmp(ui_span(&st), "since start") &&
	      strstr(screen(), st.total_why),
	      "totals restarted: the views say since when (%s), the header why", ui_span(&st));
	ui_state_free(&st);
	snapshot_free(&s);
}

int main(void)
{
	FILE *out = fopen("/dev/null", "w"), *in = fopen("/dev/null", "r");
	struct snapshot s;
	struct ui_state st;

	if (!newterm("xterm", out, in)) {
		printf("FAIL no xterm terminfo for the virtual screen\n");
		return 1;
	}
	resize_term(40, 120);
	snapshot_init(&s, 2, 1);
	fill(&s);
	ui_state_init(&st, &s);
	st.interval_ns = NSEC_PER_SEC;
	st.mode = "LIVE";
	ui_state_push(&st, &s);
	test_views(&st);
	test_na(&st, &s);
	test_keys(&st);
	test_help_drops(&st, &s);
	test_header_80(&st, &s);
	test_events_order(&st, &s);
	test_cpu_groups(&st);
	test_narrow(&st);
	test_totals(&s);
	test_forks_untimed(&s);
	test_names_first(&s);
	test_zoom_order(&s);
	test_totals_bounded(&s);
	resize_term(24, 80);
	st.view = VIEW_CPUS;
	ui_draw(&st);
	CHECK(!wrapped_cell(screen()),
	      "80x24 CPUs view: a column that does not fit is not drawn, not wrapped onto the next line");
	resize_term(20, 60);
	ui_draw(&st);
	CHECK(strstr(screen(), "terminal too small: 60x20, mmtop needs 80x24") != NULL,
	      "below 80x24: the too-small message");
	resize_term(40, 120);
	ui_draw(&st);
	CHECK(strstr(screen(), "q quit") != NULL, "back to 120x40: the view again");
	endwin();
	ui_state_free(&st);
	snapshot_free(&s);
	UNIT_EXIT();
}
