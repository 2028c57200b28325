// SPDX-License-Identifier: GPL-2.0
/*
 * floor FAMILY...: attach bpf/floor.bpf.c's empty programs for the named
 * probe families (faults, mmap_lock, contention, fork, pcp, exact for exact
 * mode's per-acquisition programs, vmawaits for --vma-waits'
 * sched_switch program, timed for the timed floor, which times each lock
 * wait and does nothing more), print "ready", and keep them attached
 * until SIGINT or SIGTERM. make bench runs its workloads under it: the
 * cost of the hooks alone.
 */
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "floor.skel.h"

/*
 * "floor_fork_x" belongs to fork; as in mmtop, contention_begin to
 * mmap_lock and fork too (waits, the siblings a fork stalls) and
 * contention_end to mmap_lock (the default set's waits end there).
 */
static bool wanted(const char *prog, int argc, char **argv)
{
	const char *family = prog + strlen("floor_");
	int i;

	for (i = 1; i < argc; i++) {
		size_t n = strlen(argv[i]);
		bool waits = !strcmp(argv[i], "mmap_lock") || !strcmp(argv[i], "fork");

		if (!strncmp(family, argv[i], n) && family[n] == '_')
			return true;
		if (waits && !strcmp(family, "contention_begin"))
			return true;
		if (!strcmp(argv[i], "mmap_lock") && !strcmp(family, "contention_end"))
			return true;
	}
	return false;
}

/* Whether the kernel has the tracepoint @prog hooks (as mmtop, from BTF). */
static bool has_tracepoint(const struct btf *btf, const struct bpf_program *prog)
{
	const char *tp = strchr(bpf_program__section_name(prog), '/');
	char name[128];

	snprintf(name, sizeof(name), "btf_trace_%s", tp ? tp + 1 : "");
	return btf && btf__find_by_name_kind(btf, name, BTF_KIND_TYPEDEF) > 0;
}

static void on_stop(int sig)
{
	(void)sig;
}

int main(int argc, char **argv)
{
	struct floor_bpf *skel = floor_bpf__open();
	struct btf *btf = btf__load_vmlinux_btf();
	struct bpf_program *prog;
	/* The timed floor's maps only with it: task storage is 5.11+. */
	bool timed;

	if (!skel)
		return 1;
	bpf_object__for_each_program(prog, skel->obj)
		bpf_program__set_autoload(prog, wanted(bpf_program__name(prog), argc, argv) &&
					  has_tracepoint(btf, prog));
	btf__free(btf);
	timed = bpf_program__autoload(skel->progs.floor_timed_begin);
	bpf_map__set_autocreate(skel->maps.timed_waits, timed);
	bpf_map__set_autocreate(skel->maps.timed_row, timed);
	if (floor_bpf__load(skel) || floor_bpf__attach(skel)) {
		fprintf(stderr, "floor: cannot load or attach\n");
		floor_bpf__destroy(skel);
		return 1;
	}
	signal(SIGINT, on_stop);
	signal(SIGTERM, on_stop);
	printf("ready\n");
	fflush(stdout);
	pause();
	floor_bpf__destroy(skel);
	return 0;
}
