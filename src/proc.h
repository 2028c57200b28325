/* SPDX-License-Identifier: GPL-2.0 */
/* Per-process facts from /proc. */
#ifndef MMTOP_PROC_H
#define MMTOP_PROC_H

#include <stddef.h>
#include <stdint.h>

/* The process's comm into @buf; -errno if it is gone. */
int proc_read_comm(int pid, char *buf, size_t len);

#endif
