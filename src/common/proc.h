/* SPDX-License-Identifier: GPL-2.0 */
/* Per-process facts from /proc. */
#ifndef MMTOP_PROC_H
#define MMTOP_PROC_H

#include <stddef.h>
#include <stdint.h>

/* AnonHugePages of @pid (0: this process) in kB; -1 if it is gone. */
int64_t proc_anon_huge_kb(int pid);
/* The process's comm into @buf; -errno if it is gone. */
int proc_read_comm(int pid, char *buf, size_t len);

#endif
