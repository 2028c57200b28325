# Recordings kept for days: the 1.0 format still reads byte for byte, the
# 2.0 one is compressed, rotated files read as one recording, time ranges,
# a full file system.
. tests/lib.sh

why=$(bpf_refused)
if [ -n "$why" ]; then
	skip "rotate: $why"
	exit 0
fi
seqs() { awk -F, '$4 == "total" { printf "%s ", $2 }' "$@"; }

# 1. A recording written by mmtop 0.1 (format 1.0) replays as it did then
#    (the fixture regenerated seven times since, when JSON mmap_lock rows
#    gained waits, and wait_p90_ns, at schema 2, when sampled became
#    exact_share and the budget's fields left intervals without one,
#    when rows gained cgroup and holder_cgroup (null in older files) and
#    intervals cgroups_na (why), when the quantiles came from the row
#    tables, after a row's own keys (the same keys and values, another
#    order), when contention rows gained wait_p90_ns, and when every key
#    of a row came from its table (the same keys and values, in the
#    table's order): nothing else changed).
"$MMTOP" replay -b -f json tests/fixtures/format-1.0.rec >"$TMP/v1.json"
check "format 1.0 fixture replays to the same JSON, byte for byte" \
	cmp -s "$TMP/v1.json" tests/fixtures/format-1.0.json
# And one of format 2.8 (every row type, exact mode, pcp on, slow events;
# 2.9 appended only a slow event's mode): what it replays to stays put
# (regenerated at schema 2, at the cgroups, at the quantiles, at the
# contention rows' p90 and when the keys came from the tables, as above).
"$MMTOP" replay -b -f json tests/fixtures/format-2.8.rec >"$TMP/v28.json"
check "format 2.8 fixture replays to the same JSON, byte for byte" \
	cmp -s "$TMP/v28.json" tests/fixtures/format-2.8.json

# 2. Rotation by time: every interval is in exactly one file, in order.
"$MMTOP" record -o "$TMP/all" --rotate 1s -d 0.25 -n 16 -f csv >"$TMP/live.csv"
rc=$?
check "record --rotate: exit 0 (got $rc)" test $rc -eq 0
n=$(ls "$TMP/all" | wc -l)
check "record --rotate 1s over 4 s: several files ($n)" test "$n" -ge 3
bad=$(ls "$TMP/all" | grep -cvE '^mmtop-[0-9]{8}-[0-9]{6}(\.[0-9]{3})?\.rec$')
check "files are named mmtop-YYYYMMDD-HHMMSS.rec ($bad other)" test "$bad" -eq 0
check "the directory is private (0700)" test "$(stat -c %a "$TMP/all")" = 700
check "the files are private (0600)" \
	test "$(stat -c %a "$TMP/all"/* | sort -u)" = 600
head -c 12 "$(ls -d "$TMP"/all/* | head -1)" | od -An -tu2 >"$TMP/version"
check "new files are format 2.0 ($(cat "$TMP/version"))" \
	sh -c "set -- \$(cat '$TMP/version'); test \"\$5\" = 2"
"$MMTOP" replay -b -f csv "$TMP/all" >"$TMP/dir.csv"
check "the directory replays as one recording: intervals 1..16 in order ($(seqs "$TMP/dir.csv"))" \
	test "$(seqs "$TMP/dir.csv")" = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 "
check "and exactly as printed live" cmp -s "$TMP/live.csv" "$TMP/dir.csv"
# Files named in any order are read in the order they were written.
"$MMTOP" replay -b -f csv $(ls -d "$TMP"/all/* | sort -r) >"$TMP/files.csv"
check "files given newest first still replay in time order" cmp -s "$TMP/dir.csv" "$TMP/files.csv"
live=$(csv_sum "$TMP/live.csv" total -1)
"$MMTOP" report -f csv "$TMP/all" >"$TMP/report.csv"
check "report of the directory sums every file ($(csv_sum "$TMP/report.csv" total -1) = $live faults)" \
	test "$(csv_sum "$TMP/report.csv" total -1)" -eq "$live"
cp -r "$TMP/all" "$TMP/junk"
echo junk >"$TMP/junk/mmtop-00000000-000000.rec"
"$MMTOP" replay -b -f csv "$TMP/junk" >"$TMP/junk.csv" 2>"$TMP/junk.err"
check "a file that is not a recording in the directory is skipped, said so, the rest read" \
	sh -c "cmp -s '$TMP/dir.csv' '$TMP/junk.csv' && grep -q 'skipped' '$TMP/junk.err'"
"$MMTOP" compare "$TMP/all" "$TMP/all" >"$TMP/compare.txt"
check "compare takes directories as recordings" grep -q 'interval-faults/sec' "$TMP/compare.txt"

# 3. --keep N: only the newest N files stay, and they hold the last intervals.
"$MMTOP" record -o "$TMP/kept" --rotate 1s --keep 2 -d 0.25 -n 16 -f csv >"$TMP/kept.csv"
check "--keep 2: two files left ($(ls "$TMP/kept" | tr '\n' ' '))" test "$(ls "$TMP/kept" | wc -l)" -eq 2
last=$("$MMTOP" replay -b -f csv "$TMP/kept" | seqs)
check "--keep 2: the newest intervals kept, ending with 16 ($last)" \
	sh -c "echo '$last' | grep -q ' 16 \$' && test '$(echo "$last" | cut -d' ' -f1)' -gt 1"

# 4. Rotation by size: no file grows much past the size.
"$MMTOP" record -o "$TMP/sized" --rotate 4K -d 0.05 -n 40
big=$(find "$TMP/sized" -size +12k | wc -l)
check "--rotate 4K: several files ($(ls "$TMP/sized" | wc -l)), none above 12K ($big)" \
	sh -c "test $(ls "$TMP/sized" | wc -l) -ge 2 && test $big -eq 0"
check "--rotate 4K: all 40 intervals read back" \
	test "$("$MMTOP" replay -b -f csv "$TMP/sized" | grep -c ',total,')" -eq 40

# 5. --begin/--end pick intervals by time (here: the 5th to the 10th).
"$MMTOP" replay -b -f json "$TMP/all" >"$TMP/all.json"
t5=$(sed -n 5p "$TMP/all.json" | grep -o '"time_ns":[0-9]*' | cut -d: -f2)
t10=$(sed -n 10p "$TMP/all.json" | grep -o '"time_ns":[0-9]*' | cut -d: -f2)
b=$(awk -v t="$t5" 'BEGIN { printf "@%.6f", t / 1e9 - 1e-3 }')
e=$(awk -v t="$t10" 'BEGIN { printf "@%.6f", t / 1e9 + 1e-3 }')
"$MMTOP" replay -b -f csv --begin "$b" --end "$e" "$TMP/all" >"$TMP/range.csv"
check "replay --begin --end: intervals 5..10 ($(seqs "$TMP/range.csv"))" \
	test "$(seqs "$TMP/range.csv")" = "5 6 7 8 9 10 "
"$MMTOP" report -f csv --begin "$b" --end "$e" "$TMP/all" >"$TMP/range-report.csv"
check "report --begin --end sums those intervals only" \
	test "$(csv_sum "$TMP/range-report.csv" total -1)" -eq "$(csv_sum "$TMP/range.csv" total -1)"
"$MMTOP" replay -b --begin 2000-01-01 --end 2000-01-02 "$TMP/all" 2>"$TMP/none.err" >/dev/null
rc=$?
check "a range with no interval: exit 1, said so (rc $rc)" \
	sh -c "test $rc -eq 1 && grep -q 'in that time range' '$TMP/none.err'"
"$MMTOP" replay -b --begin yesterday "$TMP/all" 2>/dev/null
check "an unreadable time is a usage error" test $? -eq 2
"$MMTOP" --begin 10:00 -b -n 1 >/dev/null 2>&1
check "--begin outside replay/report is refused" test $? -eq 2

# 6. A full file system: a clear error, exit 1, and what was written reads.
mkdir "$TMP/full"
if mount -t tmpfs -o size=32k tmpfs "$TMP/full" 2>"$TMP/mount.err"; then
	head -c 20480 /dev/zero >"$TMP/full/filler"
	"$MMTOP" record -o "$TMP/full/r.rec" -d 0.05 -n 1000 2>"$TMP/full.err"
	rc=$?
	check "full disk: exit 1 (got $rc)" test $rc -eq 1
	check "full disk: said so ($(head -c 200 "$TMP/full.err"))" \
		grep -q 'recording stopped: .*No space left on device' "$TMP/full.err"
	said=$(sed -n 's/.*holds its first \([0-9]*\) intervals.*/\1/p' "$TMP/full.err")
	got=$("$MMTOP" replay -b -f csv "$TMP/full/r.rec" 2>"$TMP/full-replay.err" | grep -c ',total,')
	check "full disk: the $said intervals it kept replay ($got), no damage" \
		sh -c "test '$got' -eq '$said' && test '$got' -gt 0 && test ! -s '$TMP/full-replay.err'"
	rm -f "$TMP/full/r.rec"
	"$MMTOP" record -o "$TMP/full/rot" --rotate 4K -d 0.05 -n 1000 2>"$TMP/rot.err"
	rc=$?
	check "full disk with --rotate: exit 1 (got $rc)" test $rc -eq 1
	got=$("$MMTOP" replay -b -f csv "$TMP/full/rot" 2>"$TMP/rot-replay.err" | grep -c ',total,')
	check "full disk with --rotate: the files so far replay ($got intervals), no damage" \
		sh -c "test '$got' -gt 0 && test ! -s '$TMP/rot-replay.err'"
	umount "$TMP/full"
else
	skip "full disk: cannot mount a tmpfs here ($(cat "$TMP/mount.err"))"
fi
