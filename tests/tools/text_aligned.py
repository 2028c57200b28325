#!/usr/bin/env python3
"""Checks that every value of mmtop's text tables sits under its header.

Reads text output on stdin. A table is a header line (its first word one
of HEADS) and the lines after it that begin with two blanks. In each row,
under each header word, the value either starts where the word starts
(words) or ends where it ends (numbers), with a blank beside it. Prints
the tables and rows checked, and each value that is not under its header;
exits 1 if there is one, or if no table was found.
"""
import re
import sys

HEADS = {"CPU", "NODE", "PID", "CLASS", "TIME", "mmap_lock", "contention"}


def words(line):
    return [(m.start(), m.end(), m.group()) for m in re.finditer(r"\S+", line)]


def under(row, start, end):
    pad = row + " "
    left = pad[start] != " " and (start == 0 or pad[start - 1] == " ")
    right = end <= len(row) and pad[end - 1] != " " and pad[end] == " "
    return left or right


def main():
    bad, tables, rows = [], 0, 0
    header = None
    for n, line in enumerate(sys.stdin.read().splitlines(), 1):
        w = words(line)
        if w and w[0][2] in HEADS and len(w) >= 3:
            header, tables = w, tables + 1
            continue
        if header is None or not line.startswith("  ") or not line.strip():
            header = None
            continue
        rows += 1
        for start, end, name in header:
            if not under(line, start, end):
                bad.append("line %d: %r not under %r:\n  %s" % (n, line[start:end], name, line))
    print("%d tables, %d rows" % (tables, rows))
    for b in bad[:10]:
        print(b)
    return 1 if bad or not tables else 0


sys.exit(main())
