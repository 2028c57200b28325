# Command line: help, version, usage errors, privileges.
. tests/lib.sh

"$MMTOP" --help >"$TMP/help" 2>&1
check "--help exits 0 and shows usage" grep -q "^usage: mmtop" "$TMP/help"
check "--version prints the version" sh -c "'$MMTOP' --version | grep -Eq '^mmtop [0-9]+\.[0-9]+'"

for args in "--no-such-option" "-d" "-d 0" "-d abc" "-n 0" "--format xml" \
	    "--fault-source bogus" "frobnicate" "probe extra" "bench" "bench nope" \
	    "bench pft -t 0" "bench pft --vma diagonal" "bench pft --cpu 9999"; do
	# shellcheck disable=SC2086
	"$MMTOP" $args >"$TMP/out" 2>&1
	rc=$?
	check "'mmtop $args' is a usage error (exit 2, got $rc)" test "$rc" -eq 2
done

"$MMTOP" --bogus >/dev/null 2>"$TMP/err"
check "--bogus: one line naming it, then the hint ($(tr '\n' '|' <"$TMP/err"))" \
	sh -c "test \$(wc -l <'$TMP/err') -eq 2 && grep -q \"unrecognized option '--bogus'\" '$TMP/err' &&
		grep -qx \"Try 'mmtop --help'.\" '$TMP/err'"

# Each command takes its own options, before or after its operands; an
# option it does not take is named.
"$MMTOP" replay "$TMP/none.rec" -b 2>"$TMP/err"
check "replay FILE -b: -b is an option, not a file" sh -c "! grep -q -- \"-b: No such\" '$TMP/err' && grep -q none.rec '$TMP/err'"
for args in "replay -p 1 x.rec" "replay --enable-probe pcp x.rec" "report x.rec -p 1" \
	    "serve -b" "-p 1 probe" "--rotate 1h" "--listen :9" "record -o x.rec --top 3"; do
	# shellcheck disable=SC2086
	"$MMTOP" $args >"$TMP/out" 2>&1
	rc=$?
	check "'mmtop $args': exit 2 naming the option (got $rc: $(head -1 "$TMP/out"))" \
		sh -c "test $rc -eq 2 && grep -q -- 'does not take\\|is for a subcommand' '$TMP/out'"
done
"$MMTOP" compare -h >"$TMP/out" 2>&1
rc=$?
check "compare -h: compare's own help (rc $rc)" \
	sh -c "test $rc -eq 0 && grep -q '^usage: mmtop compare' '$TMP/out' && ! grep -q 'bench pft' '$TMP/out'"
"$MMTOP" probe --help >"$TMP/out" 2>&1
rc=$?
check "probe --help: its own help (rc $rc)" sh -c "test $rc -eq 0 && grep -q '^usage: mmtop probe' '$TMP/out'"
"$MMTOP" bench --help >"$TMP/out" 2>&1
rc=$?
check "bench --help: every workload's options (rc $rc, $(grep -c 'options (mmtop bench' "$TMP/out") sections)" \
	sh -c "test $rc -eq 0 && test \$(grep -c 'options (mmtop bench' '$TMP/out') -eq 4"
"$MMTOP" bench pft --help >"$TMP/out" 2>&1
rc=$?
check "bench pft --help: pft's options only (rc $rc)" \
	sh -c "test $rc -eq 0 && grep -q -- '--warmup N' '$TMP/out' && ! grep -q 'CHURN options' '$TMP/out'"

# record, replay, report, serve: each its synopsis and the options it
# takes (from the table that refuses the others), with their text, not
# the global help.
for spec in "record:--rotate:--listen" "replay:--begin:--html" "report:--html:--delay" \
	"serve:--listen:--rotate"; do
	IFS=: read -r cmd has hasnt <<EOF2
$spec
EOF2
	"$MMTOP" $cmd --help >"$TMP/out" 2>&1
	rc=$?
	check "$cmd --help: its own ($(head -1 "$TMP/out" | cut -c1-40)...), with $has, without $hasnt, $(wc -l <"$TMP/out") lines" \
		sh -c "test $rc -eq 0 && grep -q '^usage: mmtop $cmd ' '$TMP/out' &&
			grep -q -- '$has ' '$TMP/out' && ! grep -q -- '$hasnt ' '$TMP/out' &&
			test \$(wc -l <'$TMP/out') -lt \$(wc -l <'$TMP/help')"
done

# -p and -d: clear errors.
"$MMTOP" -p 1,,2 -b -n 1 >/dev/null 2>"$TMP/err"
rc=$?
check "-p 1,,2: a usage error (rc $rc)" sh -c "test $rc -eq 2 && grep -q \"invalid PID list '1,,2'\" '$TMP/err'"
"$MMTOP" -p "$(seq -s, 1000001 1000064)" -b -n 1 -d 0.1 >/dev/null 2>"$TMP/err"
rc=$?
check "-p with 64 PIDs runs (rc $rc)" test $rc -eq 0
"$MMTOP" -p "$(seq -s, 1000001 1000065)" -b -n 1 >/dev/null 2>"$TMP/err"
rc=$?
check "-p with 65 PIDs: a usage error naming the limit, in 2 lines (rc $rc)" \
	sh -c "test $rc -eq 2 && grep -qx 'mmtop: -p: at most 64 PIDs' '$TMP/err' && test \$(wc -l <'$TMP/err') -eq 2"
"$MMTOP" compare "$TMP/one.rec" >/dev/null 2>"$TMP/err"
rc=$?
check "compare of one recording: a usage error (rc $rc: $(head -1 "$TMP/err"))" \
	sh -c "test $rc -eq 2 && grep -q 'a base recording and at least one other' '$TMP/err'"
"$MMTOP" -d abc >/dev/null 2>"$TMP/err"
check "-d abc: says it is not a number" grep -q "'abc' is not a number of seconds" "$TMP/err"

if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null; then
	skip "privilege checks: need root and setpriv to drop capabilities"
	exit 0
fi
setpriv --reuid=65534 --regid=65534 --clear-groups "$MMTOP" -b -n 1 >"$TMP/out" 2>&1
rc=$?
check "as nobody: exit 2 (got $rc)" test "$rc" -eq 2
check "as nobody: names CAP_BPF and CAP_PERFMON" \
	grep -q "missing capability CAP_BPF and CAP_PERFMON" "$TMP/out"
setpriv --inh-caps=-perfmon --bounding-set=-perfmon "$MMTOP" -b -n 1 >"$TMP/out" 2>&1
rc=$?
check "root without CAP_PERFMON: exit 2 (got $rc)" test "$rc" -eq 2
check "root without CAP_PERFMON: names only CAP_PERFMON" \
	grep -q "missing capability CAP_PERFMON:" "$TMP/out"

setpriv --inh-caps=-syslog --bounding-set=-syslog "$MMTOP" probe >"$TMP/out" 2>&1
rc=$?
check "root without CAP_SYSLOG: probe exits 1 (got $rc)" test "$rc" -eq 1
check "root without CAP_SYSLOG: probe names it" grep -q "^capability CAP_SYSLOG  *no " "$TMP/out"
check "root without CAP_SYSLOG: probe says the default set runs only in part" \
	grep -q "^default probe set: can run in part (n/a: mmap_lock, contention, fork)" "$TMP/out"
setpriv --inh-caps=-syslog --bounding-set=-syslog "$MMTOP" -b -n 1 -d 0.1 >/dev/null 2>"$TMP/err"
check "root without CAP_SYSLOG: the warning names CAP_SYSLOG" grep -q "CAP_SYSLOG" "$TMP/err"

# bench --duration: the workload again, in one process, until it has lasted.
t0=$(date +%s%N)
"$MMTOP" bench churn -n 200 --duration 0.5s >"$TMP/dur.out"
rc=$? t1=$(date +%s%N)
passes=$(grep -c '^# --duration: pass' "$TMP/dur.out")
pids=$(sed -n 's/^# churn: pid \([0-9]*\),.*/\1/p' "$TMP/dur.out" | sort -u | wc -l)
check "bench --duration 0.5s: exit 0, ran $((passes + 1)) passes of one process ($pids pid) for $(((t1 - t0) / 1000000)) ms" \
	test "$rc" -eq 0 -a "$passes" -ge 1 -a "$pids" -eq 1 -a $((t1 - t0)) -ge 500000000
"$MMTOP" bench pft -s 4M --duration 1s --record "$TMP/dur.rec" 2>"$TMP/err"
rc=$?
check "bench --duration with --record: exit 2, no recording ($(cat "$TMP/err"))" \
	test "$rc" -eq 2 -a ! -e "$TMP/dur.rec"

# bench churn -t 0: the churn thread alone, its calls exactly the rounds'
# (and one brk that finds the break); paced rounds wait for a fault
# thread, so -t 0 --paced is refused.
"$MMTOP" bench churn -t 0 -n 50 >"$TMP/alone.out"
rc=$?
calls=$(awk '$1 == "mmap" || $1 == "munmap" || $1 == "brk" { printf "%s=%s ", $1, $2 }' "$TMP/alone.out")
check "bench churn -t 0: exit 0, 50 rounds' calls alone ($calls)" \
	test "$rc" -eq 0 -a "$calls" = "mmap=50 munmap=50 brk=101 "
"$MMTOP" bench churn -t 0 --paced -n 5 >/dev/null 2>"$TMP/err"
rc=$?
check "bench churn -t 0 --paced: exit 2 ($(head -1 "$TMP/err"))" \
	test "$rc" -eq 2 -a -s "$TMP/err"

# --top in batch mode, for the exposition formats (as the man page says).
# Exact mode: the churn's uncontended acquisitions give it series.
"$MMTOP" -b -f openmetrics --exact --top 1 -n 1 -d 0.3 -- "$MMTOP" bench churn -n 300 >"$TMP/top.om" 2>"$TMP/err"
rc=$?
procs=$(grep -o 'comm="[^"]*"' "$TMP/top.om" | grep -vx 'comm="other"' | sort -u | wc -l)
check "-b -f openmetrics --top 1: exit 0, one process's series besides other ($procs)" \
	test "$rc" -eq 0 -a "$procs" -eq 1
"$MMTOP" -b --top 5 -n 1 >/dev/null 2>"$TMP/err"
rc=$?
check "-b --top 5 with the text format: exit 2, saying where --top goes" \
	sh -c "test $rc -eq 2 && grep -q 'openmetrics and prometheus formats' '$TMP/err'"

# Standard output that cannot be written fails the command, saying so (a
# full disk: /dev/full); a reader that went away (| head) does not.
for args in "--help" "help record" "probe --help" "replay --help"; do
	# shellcheck disable=SC2086
	"$MMTOP" $args >/dev/full 2>"$TMP/err"
	rc=$?
	check "$args to a full disk: exit 1, saying so ($(cat "$TMP/err"))" \
		sh -c "test $rc -eq 1 && grep -q '^mmtop: writing standard output: No space left on device' '$TMP/err'"
done
"$MMTOP" --help 2>"$TMP/err" | head -n 1 >/dev/null
check "--help into a reader that stops: no write error ($(cat "$TMP/err"))" test ! -s "$TMP/err"
