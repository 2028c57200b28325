# What mmtop gives on a kernel without some of its tracepoints, on this
# one: MMTOP_TEST_LACKS makes mmtop take the tracepoints named as missing
# from the BTF, as an older kernel's (lock:contention_begin/end before
# 5.19, the mmap_lock events before 5.11). Each family that needs one is
# n/a alone, naming it and the first kernel that has it; the rest runs.
# The kernel matrix checks the same on Debian 11's 5.10 for real.
. tests/lib.sh

why=$(bpf_refused)
if [ -n "$why" ]; then
	skip "missing tracepoints: $why"
	exit 0
fi

# 5.11-5.18: the mmap_lock events, no contention_begin/end. Contention is
# n/a; mmap_lock has no waits in the default set, and says so; exact mode
# gives them, each from the request (mmap_lock_start_locking), with the
# acquisitions, holds, blame and fork timing.
export MMTOP_TEST_LACKS=contention_begin,contention_end
"$MMTOP" probe >"$TMP/probe" 2>&1
why="no tracepoint lock:contention_begin (Linux 5.19+)"
check "no contention_begin: probe's summary names contention n/a" \
	grep -qx 'default probe set: can run in part (n/a: contention)' "$TMP/probe"
check "no contention_begin: contention says '$why'" \
	sh -c "grep '^default: lock contention' '$TMP/probe' | grep -qF ' no  $why'"
check "no contention_begin: mmap_lock runs, its waits in exact mode only ($why)" \
	sh -c "grep '^default: mmap_lock waits.*  yes ' '$TMP/probe' | grep -qF 'waits in exact mode only ($why)'"
check "no contention_begin: fork runs, its sibling stalls n/a ($why)" \
	sh -c "grep '^default: fork cost  *yes ' '$TMP/probe' | grep -qF 'sibling stalls n/a ($why)'"
churn() { # churn CSV ARGS: paced churn with 10 forks, mmtop ARGS watching
	out=$1
	shift
	start_mmtop_csv "$out" -d 0.5 "$@"
	"$MMTOP" bench churn -t 1 -n 300 --chunk 64K --paced --fork 10 >"$out.churn"
	stop_mmtop
	pid=$(pid_of "$out.churn")
}
churn "$TMP/d.csv"
n=$(col "$TMP/d.csv" "\$c[\"kind\"] == \"fork\" && \$c[\"pid\"] == $pid" child | wc -l)
rows=$(col "$TMP/d.csv" "\$c[\"kind\"] == \"mmap_lock\" || \$c[\"kind\"] == \"contention\"" pid | wc -l)
check "no contention_begin, default set: churn's 10 forks counted ($n), no mmap_lock or contention rows ($rows)" \
	test "$n" -eq 10 -a "$rows" -eq 0
check "no contention_begin: the CSV's probes name faults, mmap_lock and fork" \
	grep -q ',faults:tp_btf;mmap_lock:tp_btf;fork:tp_btf,' "$TMP/d.csv"
"$MMTOP" -b -n 1 -d 0.2 -f json >"$TMP/d.json" 2>&1
check "no contention_begin: JSON's mmap_lock_waits_na says '$why'" \
	grep -qF "\"mmap_lock_waits_na\":\"$why\"" "$TMP/d.json"
churn "$TMP/x.csv" --exact
own="\$c[\"pid\"] == $pid"
waits=$(csv_sum_where "$TMP/x.csv" waits "\$c[\"kind\"] == \"mmap_lock\" && $own && \$c[\"site\"] == \"fault\"")
calls=$(count_of mmap "$TMP/x.csv.churn")
acq=$(csv_sum_where "$TMP/x.csv" acquired "\$c[\"kind\"] == \"mmap_lock\" && $own && \$c[\"site\"] == \"mmap\"")
blamed=$(csv_sum_where "$TMP/x.csv" acquired "\$c[\"kind\"] == \"blame\" && $own && \$c[\"holder_pid\"] == $pid")
timed=$(col "$TMP/x.csv" "\$c[\"kind\"] == \"fork\" && $own" latency_ns | grep -c '[0-9]')
check "no contention_begin, exact mode: the faults' waits ($waits), mmap's acquisitions ($acq for $calls calls, within 10% + 30: the runtime's, the threads'), blamed on the writer ($blamed), 10 forks timed ($timed)" \
	awk -v w="$waits" -v b="$blamed" -v t="$timed" -v a="$acq" -v c="$calls" \
		'BEGIN { exit !(w > 0 && b > 0 && t == 10 && a >= c * 0.95 && a <= c * 1.1 + 30) }'

# Before 5.11 or without them: no mmap_lock events. Exact mode is n/a,
# naming them; the default set runs whole.
export MMTOP_TEST_LACKS=mmap_lock_start_locking,mmap_lock_acquire_returned,mmap_lock_released
"$MMTOP" probe >"$TMP/probe" 2>&1
check "no mmap_lock events: exact mode n/a, naming one (Linux 5.11+); the default set can run" \
	sh -c "grep '^exact mode' '$TMP/probe' | grep -q ' no  no tracepoint mmap_lock:mmap_lock_[a-z_]* (Linux 5.11+)' &&
		grep -qx 'default probe set: can run' '$TMP/probe'"
"$MMTOP" -b -n 1 -d 0.2 --exact >"$TMP/exact" 2>&1
check "no mmap_lock events: --exact warns why, the default set runs ($(head -n 1 "$TMP/exact"))" \
	sh -c "grep -q 'exact mode unavailable (the default set runs): no tracepoint mmap_lock:' '$TMP/exact' &&
		grep -q 'probes faults:tp_btf,mmap_lock:tp_btf,contention:tp_btf,fork:tp_btf' '$TMP/exact'"
