# A program the kernel refuses takes down only what needs it. The kernel
# really refuses it (MMTOP_TEST_REFUSE loads it as sleepable, which no raw
# tracepoint program may be, on any kernel: hence --attach raw_tp): each
# n/a names the program and the verifier's own message, and the families
# left count their known answers.
. tests/lib.sh

why=$(bpf_refused)
if [ -n "$why" ]; then
	skip "refusals: $why"
	exit 0
fi
refused() { # refused FILE PROGRAM: FILE says the kernel refused PROGRAM, with its message
	grep -q "the kernel refused $2: [^\"]*sleepable" "$1"
}

# lock_addrs_collect (contention's address table): the contention family
# alone is off; mmap_lock counts churn's calls (exact mode), fork its forks.
MMTOP_TEST_REFUSE=lock_addrs_collect start_mmtop_csv "$TMP/c.csv" -d 0.5 --exact --attach raw_tp
"$MMTOP" bench churn -t 1 -n 2000 --fork 5 >"$TMP/c.out"
stop_mmtop
check "lock_addrs_collect refused: a warning says so" refused "$TMP/c.csv.err" lock_addrs_collect
check "lock_addrs_collect refused: mmap_lock and fork attached, contention not" \
	grep -q ',faults:raw_tp;mmap_lock:raw_tp;fork:raw_tp,' "$TMP/c.csv"
check_call_sites "lock_addrs_collect refused" "$TMP/c.csv" "$TMP/c.out" 30
n=$(col "$TMP/c.csv" "\$c[\"kind\"] == \"fork\" && \$c[\"pid\"] == $pid" child | wc -l)
check "lock_addrs_collect refused: churn's 5 forks recorded ($n)" test "$n" -eq 5
MMTOP_TEST_REFUSE=lock_addrs_collect "$MMTOP" -b -n 1 -d 0.2 --attach raw_tp --format json >"$TMP/c.json" 2>/dev/null
check "lock_addrs_collect refused: JSON na names it for contention only" \
	sh -c "grep -o '\"na\":{[^}]*}' '$TMP/c.json' | grep -q '\"mmap_lock\":null,\"contention\":\"the kernel refused lock_addrs_collect: [^\"]*sleepable[^\"]*\",\"fork\":null'"
MMTOP_TEST_REFUSE=lock_addrs_collect "$MMTOP" -b -n 1 -d 0.2 --attach raw_tp >"$TMP/c.txt" 2>/dev/null
check "lock_addrs_collect refused: the text header says why" \
	grep -q '^  contention: n/a (the kernel refused lock_addrs_collect: .*sleepable' "$TMP/c.txt"

# contention_end: where the default set's mmap_lock waits end too. As on
# a kernel without the tracepoint (one rule for both): contention is off,
# saying why; mmap_lock runs, its waits exact mode's; fork counts its forks.
MMTOP_TEST_REFUSE=contention_end start_mmtop_csv "$TMP/e.csv" -d 0.5 --attach raw_tp
"$MMTOP" bench fork -s 8M -n 5 >"$TMP/e.out"
stop_mmtop
pid=$(pid_of "$TMP/e.out")
check "contention_end refused: mmap_lock and fork attached, contention not" \
	grep -q ',faults:raw_tp;mmap_lock:raw_tp;fork:raw_tp,' "$TMP/e.csv"
n=$(col "$TMP/e.csv" "\$c[\"kind\"] == \"fork\" && \$c[\"pid\"] == $pid" child | wc -l)
check "contention_end refused: the 5 forks recorded ($n)" test "$n" -eq 5
check "contention_end refused: the warning names contention alone" \
	grep -q '^mmtop: warning: contention unavailable: the kernel refused contention_end_raw: .*sleepable' "$TMP/e.csv.err"
MMTOP_TEST_REFUSE=contention_end "$MMTOP" -b -n 1 -d 0.2 --attach raw_tp --format json >"$TMP/e.json" 2>/dev/null
check "contention_end refused: JSON says the default set's mmap_lock waits are n/a, and why" \
	grep -q '"mmap_lock_waits_na":"the kernel refused contention_end_raw: [^"]*sleepable' "$TMP/e.json"
MMTOP_TEST_REFUSE=contention_end "$MMTOP" probe >"$TMP/e.probe" 2>&1
check "contention_end refused: probe's mmap_lock line says its waits are exact mode's, and why" \
	grep -q '^default: mmap_lock waits.* yes .*waits in exact mode only (the kernel refused contention_end' "$TMP/e.probe"

# mmap_lock_acquired (exact mode's): exact mode alone is off, said in the
# verifier's words; the default set runs whole and counts paced churn's
# waits on its own mmap_lock (mmap_lock's rows, contention's).
MMTOP_TEST_REFUSE=mmap_lock_acquired start_mmtop_csv "$TMP/m.csv" -d 0.5 --exact --attach raw_tp
"$MMTOP" bench churn -t 1 -n 500 --chunk 64K --paced >"$TMP/m.out"
stop_mmtop
pid=$(pid_of "$TMP/m.out")
check "mmap_lock_acquired refused: every lock family attached" \
	grep -q ',faults:raw_tp;mmap_lock:raw_tp;contention:raw_tp;fork:raw_tp,' "$TMP/m.csv"
check "mmap_lock_acquired refused: --exact warns that exact mode is unavailable, and why" \
	grep -q 'exact mode unavailable (the default set runs): the kernel refused mmap_lock_acquired_raw: .*sleepable' "$TMP/m.csv.err"
n=$(csv_sum_where "$TMP/m.csv" acquired "\$c[\"kind\"] == \"contention\" && \$c[\"pid\"] == $pid && \$c[\"site\"] == \"own-mmap_lock\"")
w=$(csv_sum_where "$TMP/m.csv" waits "\$c[\"kind\"] == \"mmap_lock\" && \$c[\"pid\"] == $pid")
check "mmap_lock_acquired refused: churn's own mmap_lock waits seen ($n contention, $w mmap_lock)" \
	test "$n" -gt 0 -a "$w" -gt 0
MMTOP_TEST_REFUSE=mmap_lock_acquired "$MMTOP" probe >"$TMP/m.probe" 2>&1
check "mmap_lock_acquired refused: probe says exact mode is not, the default set can run" \
	sh -c "grep -q '^exact mode .* no  the kernel refused mmap_lock_acquired' '$TMP/m.probe' && grep -q '^default probe set: can run$' '$TMP/m.probe'"

# fork_thp_walk (a raw_tp program of either flavour): only the backing is
# unknown; every fork is recorded.
MMTOP_TEST_REFUSE=fork_thp_walk start_mmtop_csv "$TMP/f.csv" -d 0.5
"$MMTOP" bench fork -s 16M -n 10 >"$TMP/f.out"
stop_mmtop
pid=$(pid_of "$TMP/f.out")
rows="\$c[\"kind\"] == \"fork\" && \$c[\"pid\"] == $pid"
n=$(col "$TMP/f.csv" "$rows" latency_ns | wc -l)
back=$(col "$TMP/f.csv" "$rows" backing | sort -u | tr '\n' ' ')
check "fork_thp_walk refused: 10 forks recorded ($n), backing unknown ($back)" \
	test "$n" -eq 10 -a "$back" = "? "
MMTOP_TEST_REFUSE=fork_thp_walk "$MMTOP" probe >"$TMP/f.probe" 2>&1
check "fork_thp_walk refused: probe's fork line says the backing is n/a, and why" \
	sh -c "grep '^default: fork cost' '$TMP/f.probe' | grep -q ' yes fork:.*backing from n/a (the kernel refused fork_thp_walk: .*sleepable'"
check "fork_thp_walk refused: probe's summary is still can run" \
	grep -q '^default probe set: can run$' "$TMP/f.probe"
