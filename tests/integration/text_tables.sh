# The text tables of mmtop -b, replay and report: every value sits under
# its header (tests/tools/text_aligned.py), in every table they print.
. tests/lib.sh

aligned() { # aligned LABEL FILE: the check, with the checker's count
	out=$(python3 tests/tools/text_aligned.py <"$2")
	rc=$?
	check "$1: values under their headers ($(echo "$out" | head -n 1))" test "$rc" -eq 0
	[ "$rc" -eq 0 ] || echo "$out" | sed 's/^/# /'
}

# The checker itself finds a value two columns off (the contention table
# of mmtop before its tables shared one layout).
printf '  CLASS  BY   PID COMM\n  other  stack     0 -\n' >"$TMP/off.txt"
check "the checker finds a value off its header" \
	sh -c "! python3 tests/tools/text_aligned.py <'$TMP/off.txt' >/dev/null"

# Recordings with every kind of row (2.8: exact mode, pcp, slow events,
# blame; 1.0: mmtop 0.1's), replayed, and the report of one.
"$MMTOP" replay -b -f text tests/fixtures/format-2.8.rec >"$TMP/r28.txt"
aligned "replay of format 2.8" "$TMP/r28.txt"
"$MMTOP" replay -b -f text tests/fixtures/format-1.0.rec >"$TMP/r10.txt"
aligned "replay of format 1.0" "$TMP/r10.txt"
"$MMTOP" report tests/fixtures/format-2.8.rec >"$TMP/report.txt"
aligned "report of format 2.8" "$TMP/report.txt"

need_bpf "text tables of a live run"
# Live, in the default set and in exact mode, with pcp and slow events:
# a churn with forks puts rows in every table.
for mode in default exact; do
	# shellcheck disable=SC2046
	"$MMTOP" -b -d 0.5 --slow 20us --enable-probe pcp $(mode_args $mode) -- \
		"$MMTOP" bench churn -t 1 -n 3000 --fork 10 \
		>"$TMP/$mode.txt" 2>/dev/null
	aligned "mmtop -b, $mode" "$TMP/$mode.txt"
done
