// SPDX-License-Identifier: GPL-2.0
/*
 * Fork records, read by a thread of their own at the nice mmtop was started
 * with. A record of a parent that may hold huge pages wakes it at once (its
 * page tables must be walked while it lives), and that wake-up lands right
 * after the parent's fork(): at nice -20, where the collector samples, it
 * would take the CPU from the forking workload inside the call that mmtop
 * times. The collector takes the records at the end of each interval.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/eventfd.h>
#include <bpf/libbpf.h>

#include "callsite.h"
#include "lock_source_impl.h"
#include "priority.h"
#include "util.h"

/* Under fr->lock: ring_buffer__consume() runs only with it held. */
static int on_fork(void *ctx, void *data, size_t size)
{
	struct lock_source *ls = ctx;
	const struct fork_event *e = data;
	long page_kb = sysconf(_SC_PAGESIZE) / 1024;
	struct fork_row *f;

	if (size < sizeof(*e))
		return 0;
	if (e->spawn) {
		struct spawn *sp = snapshot_push(&ls->spawns);

		if (sp)
			*sp = (struct spawn){ e->pid, e->child };
		return 0;
	}
	f = snapshot_push(&ls->forks);
	if (!f)
		return 0;
	f->wall_ns = wall_of_mono_ns(e->ts_ns);
	f->pid = e->pid;
	f->tid = e->tid;
	f->child = e->child;
	comm_copy(f->comm, e->comm);
	/* Known from the fork's start: none where it was not timed. */
	snprintf(f->syscall, sizeof(f->syscall), "%s",
		 e->latency_ns ? syscall_name(e->syscall) ?: "?" : "");
	f->latency_ns = e->latency_ns;
	f->dup_hold_ns = e->dup_hold_ns;
	/* percpu_counter drift can leave a counter slightly negative. */
	f->anon_kb = e->rss_anon > 0 ? e->rss_anon * page_kb : 0;
	f->file_kb = e->rss_file > 0 ? e->rss_file * page_kb : 0;
	f->shmem_kb = e->rss_shmem > 0 ? e->rss_shmem * page_kb : 0;
	/* Walked as the record arrives (at once: BPF woke us), while the
	 * parent is alive; a parent too small for a PMD is 4K-backed. */
	f->thp_kb = e->rss_anon + e->rss_shmem < FORK_WALK_MIN_PAGES ? 0 :
		    thp_walk_kb(ls, e->mm, e->mm_ident, e->ts_ns);
	f->stalled = e->stalled;
	return 0;
}

static void consume(struct lock_source *ls)
{
	pthread_mutex_lock(&ls->fr.lock);
	ring_buffer__consume(ls->fr.rb);
	pthread_mutex_unlock(&ls->fr.lock);
}

static void *fork_thread(void *arg)
{
	struct lock_source *ls = arg;
	struct pollfd p[2] = {
		{ .fd = ring_buffer__epoll_fd(ls->fr.rb), .events = POLLIN },
		{ .fd = ls->fr.stop_fd, .events = POLLIN },
	};

	priority_caller();
	for (;;) {
		if (poll(p, 2, -1) < 0 && errno != EINTR)
			break;
		if (p[1].revents)
			break;
		if (p[0].revents)
			consume(ls);
	}
	return NULL;
}

int fork_reader_start(struct lock_source *ls)
{
	struct fork_reader *fr = &ls->fr;
	sigset_t all, old;
	int err;

	fr->stop_fd = -1;
	pthread_mutex_init(&fr->lock, NULL);
	fr->rb = ring_buffer__new(bpf_map__fd(ls->skel->maps.fork_events), on_fork, ls, NULL);
	if (!fr->rb)
		return -errno;
	fr->stop_fd = eventfd(0, EFD_CLOEXEC);
	if (fr->stop_fd < 0)
		return -errno;
	/* Signals are the main thread's to take. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	err = pthread_create(&fr->thread, NULL, fork_thread, ls);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err) {
		close(fr->stop_fd);
		fr->stop_fd = -1;
		return -err;
	}
	pthread_setname_np(fr->thread, "mmtop-forks");
	fr->running = true;
	return 0;
}

/*
 * A followed tree grows by the new processes read (forks and spawns, kept
 * apart): until no more join, as a child's own children may come first.
 */
static void grow_tree(struct lock_source *ls)
{
	bool grew = true;
	int i;

	while (grew) {
		grew = false;
		for (i = 0; i < ls->spawns.nr; i++)
			grew |= pid_filter_fork(ls->opts.pids, ls->spawns.v[i].parent,
						ls->spawns.v[i].child) > 0;
		for (i = 0; i < ls->forks.nr; i++)
			grew |= pid_filter_fork(ls->opts.pids, ls->forks.v[i].pid,
						ls->forks.v[i].child) > 0;
	}
	ls->spawns.nr = 0;
}

void fork_reader_drain(struct lock_source *ls, struct snapshot *s)
{
	int i;

	if (!ls->fr.rb)
		return;
	pthread_mutex_lock(&ls->fr.lock);
	ring_buffer__consume(ls->fr.rb);
	grow_tree(ls);
	for (i = 0; i < ls->forks.nr; i++) {
		const struct fork_row *r = &ls->forks.v[i];
		struct fork_row *f;

		if (!pid_filter_has(ls->opts.pids, r->pid))
			continue;
		f = snapshot_push(&s->forks);
		if (f)
			*f = *r;
	}
	ls->forks.nr = 0;
	pthread_mutex_unlock(&ls->fr.lock);
}

void fork_reader_stop(struct lock_source *ls)
{
	struct fork_reader *fr = &ls->fr;
	uint64_t one = 1;

	if (!fr->rb)
		return;
	if (fr->running && write(fr->stop_fd, &one, sizeof(one)) == sizeof(one))
		pthread_join(fr->thread, NULL);
	fr->running = false;
	if (fr->stop_fd >= 0)
		close(fr->stop_fd);
	fr->stop_fd = -1;
	ring_buffer__free(fr->rb);
	fr->rb = NULL;
	pthread_mutex_destroy(&fr->lock);
}
