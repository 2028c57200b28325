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

# 5.11-5.18: the mmap_lock events, no contention_begin/end.
export MMTOP_TEST_LACKS=contention_begin,contention_end
"$MMTOP" probe >"$TMP/probe" 2>&1
why="no tracepoint lock:contention_begin (Linux 5.19+)"
check "no contention_begin: probe's summary names mmap_lock and contention n/a" \
	grep -qx 'default probe set: can run in part (n/a: mmap_lock, contention)' "$TMP/probe"
for line in "default: mmap_lock waits" "default: lock contention"; do
	check "no contention_begin: '$line' says '$why'" \
		sh -c "grep '^$line' '$TMP/probe' | grep -qF ' no  $why'"
done
check "no contention_begin: fork runs, its sibling stalls n/a ($why)" \
	sh -c "grep '^default: fork cost  *yes ' '$TMP/probe' | grep -qF 'sibling stalls n/a ($why)'"
start_mmtop_csv "$TMP/f.csv" -d 0.5
"$MMTOP" bench churn -t 1 -n 200 --chunk 64K --fork 10 >"$TMP/churn"
stop_mmtop
pid=$(pid_of "$TMP/churn")
n=$(col "$TMP/f.csv" "\$c[\"kind\"] == \"fork\" && \$c[\"pid\"] == $pid" child | wc -l)
rows=$(col "$TMP/f.csv" "\$c[\"kind\"] == \"mmap_lock\" || \$c[\"kind\"] == \"contention\"" pid | wc -l)
check "no contention_begin: churn's 10 forks counted ($n), no mmap_lock or contention rows ($rows)" \
	test "$n" -eq 10 -a "$rows" -eq 0
check "no contention_begin: the CSV's probes name faults and fork alone" \
	grep -q ',faults:tp_btf;fork:tp_btf,' "$TMP/f.csv"

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
