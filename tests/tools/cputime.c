// SPDX-License-Identifier: GPL-2.0
/*
 * cputime FILE COMMAND [ARG...]: run COMMAND and append to FILE the CPU
 * time it used, user + system, in seconds, with its children that it
 * waited for (wait4's rusage). make bench compares a workload's CPU time
 * traced and untraced: unlike its wall time, that does not move when a
 * neighbour takes the CPU, and it holds what the BPF programs cost the
 * workload, which run in its context. Exits with COMMAND's status.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/wait.h>

static double seconds(struct timeval tv)
{
	return tv.tv_sec + tv.tv_usec / 1e6;
}

int main(int argc, char **argv)
{
	struct rusage ru;
	int status;
	FILE *out;
	pid_t pid;

	if (argc < 3) {
		fprintf(stderr, "usage: cputime FILE COMMAND [ARG...]\n");
		return 2;
	}
	pid = fork();
	if (pid < 0) {
		perror("cputime: fork");
		return 2;
	}
	if (!pid) {
		execvp(argv[2], argv + 2);
		fprintf(stderr, "cputime: %s: %s\n", argv[2], strerror(errno));
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) < 0) {
		perror("cputime: wait4");
		return 2;
	}
	out = fopen(argv[1], "a");
	if (!out || fprintf(out, "%.6f\n", seconds(ru.ru_utime) + seconds(ru.ru_stime)) < 0 ||
	    fclose(out)) {
		fprintf(stderr, "cputime: %s: %s\n", argv[1], strerror(errno));
		return 2;
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
