// SPDX-License-Identifier: GPL-2.0
/*
 * spawn RATE SECONDS: start RATE short-lived processes a second for
 * SECONDS, each mapping, touching and unmapping 1 MiB ten times (its own
 * binary run again, so each execs: exec's mmap_lock calls too), and reap
 * them. The soak's churn of processes (tests/soak.sh).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/wait.h>

#define CHILD_MAPS 10
#define CHILD_BYTES (1 << 20)

static int child(void)
{
	long page = sysconf(_SC_PAGESIZE);
	int i;

	for (i = 0; i < CHILD_MAPS; i++) {
		char *p = mmap(NULL, CHILD_BYTES, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		long off;

		if (p == MAP_FAILED)
			return 1;
		for (off = 0; off < CHILD_BYTES; off += page)
			p[off] = 1;
		munmap(p, CHILD_BYTES);
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct timespec gap;
	long rate, secs, i;

	if (argc == 2 && !strcmp(argv[1], "--child"))
		return child();
	if (argc != 3 || (rate = atol(argv[1])) <= 0 || (secs = atol(argv[2])) <= 0) {
		fprintf(stderr, "usage: spawn RATE SECONDS\n");
		return 2;
	}
	gap.tv_sec = 0;
	gap.tv_nsec = 1000000000L / rate;
	for (i = 0; i < rate * secs; i++) {
		pid_t pid = fork();

		if (pid == 0) {
			execl("/proc/self/exe", argv[0], "--child", (char *)NULL);
			_exit(127);
		}
		nanosleep(&gap, NULL);
		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
	}
	while (wait(NULL) > 0)
		;
	return 0;
}
