/* SPDX-License-Identifier: GPL-2.0 */
/* `mmtop probe`: what the running kernel offers, checked by doing it. */
#ifndef MMTOP_PROBE_H
#define MMTOP_PROBE_H

#include <stddef.h>
#include <stdio.h>

/* Print one line per item; 0 when the default probe set can run, else 1. */
int probe_run(FILE *f);
/*
 * What the running kernel has, as a recording's header keeps it
 * (kernel_features.h), into @buf: for a recording with no collector
 * (bench --record).
 */
void probe_kernel_features(char *buf, size_t len);

#endif
