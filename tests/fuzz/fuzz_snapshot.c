// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the snapshot parser itself, past the frame CRC that
 * keeps mutated recordings away from it. The first byte is the payload's
 * layout (enum rec_layout bits), the rest the payload. The seeds in
 * tests/fuzz/corpus-snapshot are real payloads taken from recordings.
 */
#include <stddef.h>
#include <stdint.h>

#include "recfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct snapshot s;

	if (!size)
		return 0;
	if (!rec_get_snapshot(data + 1, size - 1, data[0] & 7, &s))
		snapshot_free(&s);
	return 0;
}
