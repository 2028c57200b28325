/* SPDX-License-Identifier: GPL-2.0 */
/* Per-process and machine facts from /proc. */
#ifndef MMTOP_PROC_H
#define MMTOP_PROC_H

#include <stddef.h>
#include <stdint.h>

/* AnonHugePages of @pid (0: this process) in kB; -1 if it is gone. */
int64_t proc_anon_huge_kb(int pid);
/* The process's comm into @buf; -errno if it is gone. */
int proc_read_comm(int pid, char *buf, size_t len);

/*
 * CPU time the machine has spent busy since boot, all CPUs (/proc/stat:
 * user, nice, system, irq, softirq, steal), in ns; -errno.
 */
int proc_busy_ns(uint64_t *ns);
/* CPU time this process has used, all its threads, in ns. */
uint64_t proc_self_cpu_ns(void);

#endif
