#!/usr/bin/env python3
"""Seeds for fuzz_snapshot from recordings: the largest snapshot payload of
each recording given, inflated, after the layout byte fuzz_snapshot.c reads
(the version, past REC_MINOR for 1.x; the top bit for fixed-width integers,
as in a SNAPSHOT frame). Written to DIR as <recording>.snap.

    seed_snapshots.py DIR RECORDING...
"""
import os
import re
import struct
import sys
import zlib

HEADER = 16
SNAPSHOT, SNAPSHOT_Z = 2, 4


def rec_minor():
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, '../../src/record/recfile.h')) as f:
        return int(re.search(r'#define REC_MINOR (\d+)', f.read()).group(1))


def payloads(data):
    """(frame type, payload) of each snapshot frame."""
    off = HEADER
    while off + 12 <= len(data):
        kind, length = struct.unpack_from('<II', data, off)
        body = data[off + 8:off + 8 + length]
        off += 12 + length
        if kind == SNAPSHOT:
            yield kind, body
        elif kind == SNAPSHOT_Z:
            yield kind, zlib.decompress(body[4:])


def main():
    out, recs = sys.argv[1], sys.argv[2:]
    newest = rec_minor()
    for path in recs:
        data = open(path, 'rb').read()
        major, minor = struct.unpack_from('<HH', data, 8)
        version = minor if major == 2 else newest + 1
        kind, body = max(payloads(data), key=lambda p: len(p[1]))
        # 1.x integers are fixed-width: its layout has no varint to clear.
        fixed = 0x80 if kind == SNAPSHOT and major == 2 else 0
        name = os.path.basename(path) + '.snap'
        with open(os.path.join(out, name), 'wb') as f:
            f.write(bytes([version | fixed]) + body)
        print(f'{name}: {major}.{minor}, {len(body)} bytes')


main()
