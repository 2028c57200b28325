/* SPDX-License-Identifier: GPL-2.0 */
/* PCP refills and drains per CPU and zone (bpf/pcp.bpf.c). Opt-in. */
#ifndef MMTOP_PCP_SOURCE_H
#define MMTOP_PCP_SOURCE_H

#include <stddef.h>

#include "kernel_has.h"
#include "snapshot.h"
#include "tp_object.h"

struct pcp_source;

/* NULL with the reason in @err. */
struct pcp_source *pcp_source_open(enum tp_flavour attach, const struct kernel_has *k,
				   int nr_cpus, char *err, size_t errlen);
enum probe_id pcp_source_probe(const struct pcp_source *ps);
/* Per-CPU counts into s->cpus[].pcp, zone rows, the method line. */
void pcp_source_read(struct pcp_source *ps, struct snapshot *s, uint64_t *drops);
/* Add its programs' runs and run time. */
void pcp_source_cost(struct pcp_source *ps, struct prog_cost *c);
void pcp_source_close(struct pcp_source *ps);

#endif
