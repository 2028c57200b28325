# Per-CPU fault counts against a workload with a known effect: pft pinned to
# CPU k touches N fresh 4K pages (N faults) while mmtop and perf stat, both
# pinned to another CPU, watch. Checked for each fault source.
. tests/lib.sh

why=$(bpf_refused)
if [ -n "$why" ]; then
	skip "per-CPU fault counts: $why"
	exit 0
fi
set -- $(online_cpus)
if [ $# -lt 2 ]; then
	skip "per-CPU fault counts: need two online CPUs, have $#"
	exit 0
fi
first=$1
shift $(($# - 1))
last=$1
pages=65536	# 256 MiB: other activity on the CPU stays well inside 5%

run_source() { # run_source SOURCE PROBE_REGEX WORK_CPU WATCH_CPU
	src=$1 want=$2 k=$3 w=$4 out="$TMP/$1.csv"
	# perf counts exactly while mmtop runs (perf stat exits with its
	# status); the workload starts once mmtop's first interval is out.
	# This script (its polling forks processes) stays off CPU k too.
	taskset -cp "$w" $$ >/dev/null
	: >"$out"
	taskset -c "$w" perf stat -a -A -x, -e page-faults -o "$TMP/perf" -- \
		"$MMTOP" -b -d 0.5 -n 8 --format csv --fault-source "$src" >"$out" 2>"$TMP/err" &
	perf_pid=$!
	i=0
	while ! grep -q ',total,' "$out" && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	taskset -c "$k" "$MMTOP" bench pft -t 1 -s $((pages * 4))K --cpu "$k" >"$TMP/pft"
	wait $perf_pid
	rc=$?
	check "$src: mmtop -b exits 0 (got $rc)" test "$rc" -eq 0
	check "$src: every row names the $want probe" \
		awk -F, -v w="$want" 'NR > 1 && $13 !~ w { bad = 1 } END { exit bad || NR < 2 }' "$out"
	got=$(csv_sum "$out" cpu "$k")
	other=$(csv_sum "$out" cpu "$w")
	ref=$(awk -F, -v c="CPU$k" '$1 == c { print $2 }' "$TMP/perf")
	check "$src: CPU $k saw >= $pages faults (mmtop: $got)" test "$got" -ge "$pages"
	check "$src: CPU $w saw far fewer ($other < $got / 4)" test "$other" -lt $((got / 4))
	check "$src: CPU $k agrees with perf stat within 5% (mmtop $got, perf $ref)" \
		within 5 "$got" "${ref:-0}"
	node=$(awk -F, '$4 == "node" { s += $8 } END { print s + 0 }' "$out")
	cpus=$(awk -F, '$4 == "cpu" { s += $8 } END { print s + 0 }' "$out")
	total=$(csv_sum "$out" total -1)
	check "$src: node and total rows add up to the CPU rows ($node, $total, $cpus)" \
		test "$node" -eq "$cpus" -a "$total" -eq "$cpus"
}

run_source sched '(^|;)faults:(tp_btf|raw_tp)(;|$)' "$last" "$first"
check "csv: schema is the last column, 2 on every row" \
	awk -F, 'NR == 1 { ok = $NF == "schema" } NR > 1 && $NF != "2" { bad = 1 }
		END { exit !(ok && !bad && NR > 1) }' "$TMP/sched.csv"
run_source perf '(^|;)faults:perf(;|$)' "$first" "$last"

# The sched source accounts a task's faults when it leaves a CPU and, for
# a task still there, at each interval's walk: a process touches N pages
# on CPU k, moves itself to CPU w, touches M more there and waits, alive,
# until mmtop has counted both (its exit would account them too).
taskset -cp "$first" $$ >/dev/null
n1=65536 n2=65536
mkfifo "$TMP/go"
start_mmtop_csv "$TMP/mig.csv" -d 0.3 --fault-source sched
taskset -c "$last" python3 -c '
import mmap, os, sys
def touch(pages):
    m = mmap.mmap(-1, pages * 4096)
    for i in range(0, pages * 4096, 4096):
        m[i] = 1
    return m
keep = [touch(int(sys.argv[1]))]
os.sched_setaffinity(0, {int(sys.argv[4])})
keep.append(touch(int(sys.argv[2])))
print("moved", flush=True)
open(sys.argv[3]).read()
' "$n1" "$n2" "$TMP/go" "$first" >"$TMP/moved" &
mover=$!
until grep -q moved "$TMP/moved" 2>/dev/null; do sleep 0.05; done
# Two intervals that began after the touching ended: the walk has run.
lines=$(grep -c ',total,' "$TMP/mig.csv")
until [ "$(grep -c ',total,' "$TMP/mig.csv")" -ge $((lines + 2)) ]; do sleep 0.05; done
on_k=$(csv_sum "$TMP/mig.csv" cpu "$last")
on_w=$(csv_sum "$TMP/mig.csv" cpu "$first")
echo >"$TMP/go"
wait $mover
kill $MMTOP_PID
wait $MMTOP_PID 2>/dev/null
check "migration: CPU $last, left, saw its $n1 faults ($on_k)" test "$on_k" -ge "$n1"
check "migration: none of the $n2 taken after it moved ($on_k < $n1 + $n2 / 2)" \
	test "$on_k" -lt $((n1 + n2 / 2))
check "migration: CPU $first saw the $n2 taken there, the process still running ($on_w)" \
	test "$on_w" -ge "$n2"

# JSON: every line is one valid object with the documented keys.
"$MMTOP" -b -d 0.2 -n 3 --format json >"$TMP/json"
check "json: 3 lines for -n 3" test "$(wc -l <"$TMP/json")" -eq 3
if command -v python3 >/dev/null; then
	check "json: every line parses and has time, interval_s, total, cpus, nodes, drops, probes" \
		python3 -c '
import json, sys
for line in open(sys.argv[1]):
    o = json.loads(line)
    assert {"time", "interval_s", "total", "cpus", "nodes", "drops", "probes"} <= o.keys()
    assert "faults:tp_btf" in o["probes"] or "faults:raw_tp" in o["probes"]
' "$TMP/json"
	check "json: schema 2, time_us exact (time_ns / 1000) in intervals, events and forks" \
		python3 -c '
import json, sys
n = 0
for line in open(sys.argv[1]):
    o = json.loads(line)
    assert o["schema"] == 2
    for x in [o] + o["slow_events"] + o["forks"]:
        assert x["time_us"] == x["time_ns"] // 1000
        n += 1
assert n >= 3
' "$TMP/json"
else
	fail "json: python3 (installed by scripts/deps.sh) is missing"
fi
