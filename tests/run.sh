#!/bin/sh
# Run every test: unit binaries (build/tests/test_*) and integration scripts
# (tests/integration/*.sh). Each prints lines starting with PASS, FAIL or
# SKIP; a program that exits non-zero without a FAIL line counts as a failure.
cd "$(dirname "$0")/.." || exit 1

pass=0 fail=0 skip=0
log=$(mktemp)
skips=$(mktemp)
trap 'rm -f "$log" "$skips"' EXIT

run_one() {
	name=$1
	shift
	echo "== $name"
	start=$(date +%s)
	"$@" >"$log" 2>&1
	rc=$?
	cat "$log"
	echo "# $name: $(($(date +%s) - start)) s"
	grep '^SKIP' "$log" >>"$skips"
	p=$(grep -c '^PASS' "$log")
	f=$(grep -c '^FAIL' "$log")
	s=$(grep -c '^SKIP' "$log")
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "FAIL $name: exited with status $rc"
		f=1
	fi
	pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + s))
}

for t in build/tests/test_*; do
	[ -x "$t" ] && run_one "$(basename "$t")" "$t"
done
for t in tests/integration/*.sh; do
	run_one "$(basename "$t" .sh)" sh "$t"
done

echo
if [ "$skip" -gt 0 ]; then
	echo "skipped:"
	sed 's/^SKIP /  /' "$skips"
fi
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
