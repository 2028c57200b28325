// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the snapshot parser itself, past the frame CRC that
 * keeps mutated recordings away from it. The first byte picks the layout
 * the rest is read with: its low 7 bits the format version, 2.0 to this
 * reader's minor or (past it) 1.x, so every layout is reached; its top bit
 * fixed-width integers, as in a SNAPSHOT frame (SNAPSHOT_Z's are varints
 * from 2.0 on). The seeds in
 * tests/fuzz/corpus-snapshot are real payloads taken from recordings of
 * each version (tests/fuzz/seed_snapshots.py), that byte first.
 */
#include <stddef.h>
#include <stdint.h>

#include "recfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned int minor, layout;
	struct snapshot s;

	if (!size)
		return 0;
	minor = (data[0] & 0x7f) % (REC_MINOR + 2);
	layout = minor > REC_MINOR ? rec_layout_of(1, 0) : rec_layout_of(REC_MAJOR, minor);
	if (data[0] & 0x80)
		layout &= ~REC_VARINT;
	if (!rec_get_snapshot(data + 1, size - 1, layout, &s))
		snapshot_free(&s);
	return 0;
}
