// SPDX-License-Identifier: GPL-2.0
/* libFuzzer target: any bytes as a recording, read to the end. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct snapshot s = { 0 };
	struct rec_reader r;
	char err[256];

	if (rec_open_buffer(&r, data, size, NULL, err, sizeof(err)))
		return 0;
	while (rec_next(&r, &s) == 1)
		;
	snapshot_free(&s);
	rec_close(&r);
	return 0;
}
