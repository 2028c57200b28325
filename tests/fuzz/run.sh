#!/bin/sh
# Run each libFuzzer target (build/fuzz/fuzz_NAME) for FUZZ_SECONDS from
# its seeds, tests/fuzz/corpus-NAME; a crash, leak or sanitizer report
# fails it. Prints a PASS or FAIL line each, with the runs and the
# coverage reached. New inputs go to FUZZ_KEEP/corpus-NAME when set (make
# fuzz), else to a directory removed at the end (make test).
cd "$(dirname "$0")/../.." || exit 1
seconds=${FUZZ_SECONDS:-20}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0

for bin in build/fuzz/fuzz_*; do
	name=${bin##*/fuzz_}
	seeds=tests/fuzz/corpus-$name
	out=${FUZZ_KEEP:+$FUZZ_KEEP/corpus-$name}
	out=${out:-$work/corpus-$name}
	mkdir -p "$out"
	if [ ! -x "$bin" ] || [ ! -d "$seeds" ]; then
		echo "FAIL fuzz $name: $bin or its seeds $seeds missing"
		status=1
		continue
	fi
	# -timeout: an input that takes 10 s is a hang, and fails.
	"$bin" -max_total_time="$seconds" -timeout=10 -print_final_stats=1 \
		"$out" "$seeds" >"$work/$name.log" 2>&1
	rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$name.log")
	cov=$(grep -o 'cov: [0-9]*' "$work/$name.log" | tail -n 1)
	if [ $rc -eq 0 ]; then
		echo "PASS fuzz $name: ${runs:-?} runs in ${seconds} s, $cov, no crash or report"
	else
		echo "FAIL fuzz $name: exit $rc after ${runs:-?} runs; its report:"
		grep -A20 -m1 'ERROR\|runtime error\|deadly signal\|timeout' "$work/$name.log"
		status=1
	fi
done
exit $status
