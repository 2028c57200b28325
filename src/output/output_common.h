/* SPDX-License-Identifier: GPL-2.0 */
/* Helpers shared by the text, CSV and JSON sinks (output_*.c). */
#ifndef MMTOP_OUTPUT_COMMON_H
#define MMTOP_OUTPUT_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "output.h"
#include "snapshot.h"

void write_text(FILE *f, const struct snapshot *s);
void write_csv(struct output *o, const struct snapshot *s);
void write_json(FILE *f, const struct snapshot *s);
/* Adds the interval to the totals and writes them; -ENOMEM. */
int write_metrics(struct output *o, const struct snapshot *s);


#endif
