// SPDX-License-Identifier: GPL-2.0
/*
 * waiters N [MIB]: start N processes that each wait on their own
 * mmap_lock, then stay alive, idle; print "ready N, W of them waited" once
 * all have, and end them when stdin closes. make bench's many processes
 * (tests/bench/many_procs.sh), and the live rows of its many-CPU guests
 * (tests/vm/cost.sh).
 *
 * A process's wait: a thread calls mincore() (a read of mmap_lock) in a
 * loop while the process forks its populated self (dup_mmap holds the
 * lock for write while it copies the page tables), until the thread has
 * slept: readers do not spin on a writer, so a mincore() that meets a
 * fork queues, a wait. "ready" says how many did. The parent is MIB
 * (32) MiB: its fork must last long enough for the reader to queue, and
 * under emulation (TCG) 1 MiB does.
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>

static long parent_bytes = 32 << 20;
/* Forks until the reader has queued behind one (mincore does not sleep else). */
#define FORKS_MAX 64

static atomic_bool started, blocked, stop;

/* The thread's voluntary switches: it slept. */
static long slept(void)
{
	struct rusage u;

	return getrusage(RUSAGE_THREAD, &u) ? 0 : u.ru_nvcsw;
}

/* mincore() until stopped; blocked once it has slept (on mmap_lock). */
static void *reader(void *page)
{
	long before = slept();
	unsigned char vec;

	atomic_store(&started, true);
	while (!atomic_load(&stop)) {
		mincore(page, 1, &vec);
		if (!atomic_load(&blocked) && slept() > before)
			atomic_store(&blocked, true);
	}
	return NULL;
}

/*
 * One process's wait, with one of the tokens of @tokens, then idle until
 * @hold's write end closes.
 */
static int child(const int *tokens, int ready, int hold)
{
	long pagesz = sysconf(_SC_PAGESIZE);
	pthread_t t;
	char *p, c = 1;
	int i;

	if (read(tokens[0], &c, 1) != 1)
		return 1;
	p = mmap(NULL, parent_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 1;
	for (i = 0; i < parent_bytes; i += pagesz)
		p[i] = 1;
	if (pthread_create(&t, NULL, reader, p))
		return 1;
	while (!atomic_load(&started))
		sched_yield();
	for (i = 0; i < FORKS_MAX && !atomic_load(&blocked); i++) {
		pid_t pid = fork();

		if (pid == 0)
			_exit(0);
		waitpid(pid, NULL, 0);
	}
	atomic_store(&stop, true);
	pthread_join(t, NULL);
	munmap(p, parent_bytes);
	c = atomic_load(&blocked);
	if (write(tokens[1], &c, 1) != 1 || write(ready, &c, 1) != 1)
		return 1;
	while (read(hold, &c, 1) > 0)
		;
	return 0;
}

int main(int argc, char **argv)
{
	int tokens[2], ready[2], hold[2];
	long n, i, got = 0, waited = 0, at_once;
	char buf[4096];
	ssize_t r;

	if (argc < 2 || argc > 3 || (n = atol(argv[1])) <= 0 ||
	    (argc == 3 && (parent_bytes = atol(argv[2]) << 20) <= 0)) {
		fprintf(stderr, "usage: waiters N [MIB]\n");
		return 2;
	}
	/*
	 * Processes at their wait at once: one per two online CPUs, so that
	 * each one's reader runs while it forks; and their memory, not N's,
	 * is what is held.
	 */
	at_once = sysconf(_SC_NPROCESSORS_ONLN) / 2;
	if (at_once < 1)
		at_once = 1;
	memset(buf, 0, sizeof(buf));
	if (pipe(tokens) || pipe(ready) || pipe(hold) || at_once > (long)sizeof(buf) ||
	    write(tokens[1], buf, at_once) != at_once)
		return 1;
	for (i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			perror("waiters: fork");
			return 1;
		}
		if (pid == 0) {
			close(ready[0]);
			close(hold[1]);
			_exit(child(tokens, ready[1], hold[0]));
		}
	}
	close(ready[1]);
	close(hold[0]);
	while (got < n && (r = read(ready[0], buf, sizeof(buf))) > 0)
		for (i = 0; i < r; i++)
			waited += buf[i], got++;
	printf("ready %ld, %ld of them waited\n", got, waited);
	fflush(stdout);
	while (read(0, buf, sizeof(buf)) > 0)
		;
	close(hold[1]);
	while (wait(NULL) > 0)
		;
	return 0;
}
