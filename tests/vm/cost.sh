# mmtop's own cost in a guest, against its possible CPUs (run by
# tests/vm/machine.sh, and alone by make bench in guests of 2 and of many
# CPUs), the default set at -d 0.2: its start-up (from its start to its
# first interval's line, less the interval), its CPU time an interval
# after the first (the kernel's schedstat of the process, in ns), its peak
# RSS (the kernel's VmHWM of mmtop itself, read while it runs) and its
# maps' kernel memory (maps_held), as # lines; a check that it ran its
# intervals. Under single-threaded TCG a guest's CPUs take turns on one
# host thread, so a task's clock runs on while the others' turns are
# emulated: its CPU time grows with the guest's CPUs whatever it does (a
# fixed loop took 0.37-0.43 s of CPU at 2 CPUs, 0.75 s at 64). That loop,
# timed the same way, is the yardstick (ref): CPU times over it compare
# across guests. Wall time grows too, less: mmtop's parse of the
# kernel's BTF, user space alone, took 93-124 ms at 2 CPUs and 137-190 ms
# at 64; the loop's wall time (ref wall) is the start-up's yardstick.
# LIVE=N (make bench): then also its CPU time an interval while N more
# processes live that each waited on their mmap_lock (tests/tools/waiters,
# with parents of LIVE_MIB MiB, 1 by default: under TCG their forks last
# long enough), whose rows (an mmap_lock row and blame rows each) mmtop
# holds and reads every interval; at -d 1, where an idle row stays 60 s,
# longer than the N take to start here (some 40 s at 64 CPUs).
. tests/lib.sh

N=20
possible=$(awk -F- '{ print $NF + 1 }' /sys/devices/system/cpu/possible)
# Seconds since boot, in ms, and the CPU ns @pid has run.
uptime_ms() { awk '{ printf "%d", $1 * 1000 }' /proc/uptime; }
cpu_ns() { cut -d' ' -f1 "/proc/$1/schedstat" 2>/dev/null; }
hwm() { awk '/^VmHWM/ { print $2 }' "/proc/$1/status" 2>/dev/null; }

# The yardstick: 20000 rounds of the shell's arithmetic, in CPU ns and
# in wall ms.
ref0=$(cpu_ns $$) wall0=$(uptime_ms)
i=0
while [ $i -lt 20000 ]; do i=$((i + 1)); done
ref=$(($(cpu_ns $$) - ref0)) refwall=$(($(uptime_ms) - wall0))

t0=$(uptime_ms)
"$MMTOP" -b -n $N -d 0.2 -f json >"$TMP/cost.json" 2>"$TMP/cost.err" &
pid=$!
peak=0 first= cpu1=
while kill -0 $pid 2>/dev/null; do
	lines=$(grep -c '"seq"' "$TMP/cost.json")
	if [ -z "$first" ] && [ "$lines" -ge 1 ]; then
		first=$(($(uptime_ms) - t0 - 200)) cpu1=$(cpu_ns $pid) at1=$lines
	fi
	if [ -n "$cpu1" ] && [ "$lines" -ge $((N - 1)) ] && [ -z "${cpu2:-}" ]; then
		cpu2=$(cpu_ns $pid) at2=$lines
	fi
	now=$(hwm $pid)
	[ "${now:-0}" -gt "$peak" ] && peak=$now
	sleep 0.05
done
wait $pid
rc=$?
n=$(grep -c '"seq"' "$TMP/cost.json")
check "mmtop ran $N intervals with $possible possible CPUs (exit $rc, $n intervals)" \
	test "$rc" -eq 0 -a "$n" -eq $N
check "its peak RSS was read while it ran ($peak KiB)" test "$peak" -gt 0
check "its CPU time was read at two intervals (${cpu1:-none} ns at ${at1:-?}, ${cpu2:-none} at ${at2:-?})" \
	test -n "${cpu1:-}" -a -n "${cpu2:-}" -a "${at2:-0}" -gt "${at1:-0}"
per=$(awk -v a="${cpu1:-0}" -v b="${cpu2:-0}" -v n=$((${at2:-1} - ${at1:-0})) \
	'BEGIN { printf "%.2f", (n > 0) ? (b - a) / n / 1e6 : 0 }')
# Two starts more: the first after boot pays the kernel's own first
# uses (6.12 under TCG: 2.9 s at 2 CPUs, 4.6 s at 64, where the next
# two took 2.5-2.7 s and 3.8-4.2 s), so the figure is the median of
# the three.
start_ms() {
	t0=$(uptime_ms)
	"$MMTOP" -b -n 1 -d 0.2 -f json >"$TMP/start.json" 2>&1 &
	pid=$!
	while ! grep -q '"seq"' "$TMP/start.json" && kill -0 $pid 2>/dev/null; do sleep 0.05; done
	echo $(($(uptime_ms) - t0 - 200))
	wait $pid
}
starts="$first $(start_ms) $(start_ms)"
median=$(echo "$starts" | tr ' ' '\n' | sort -n | sed -n 2p)
maps_held
echo "# mmtop's own cost, $possible possible CPUs: start-up $median ms (starts: $starts), $per ms CPU an interval, peak RSS $((peak / 1024)) MiB, maps $bytes bytes, ref $ref ns, ref wall $refwall ms"

[ -n "${LIVE:-}" ] || exit 0
WAITERS=${WAITERS:-build/tests/tools/waiters}
intervals() { grep -c ',total,' "$TMP/live.csv"; }
# after N: wait until mmtop has printed more than N intervals (or died).
after() { while [ "$(intervals)" -le "$1" ] && kill -0 $pid 2>/dev/null; do sleep 0.05; done; }
"$MMTOP" -b -d 1 -f csv >"$TMP/live.csv" 2>"$TMP/live.err" &
pid=$!
after 0
mkfifo "$TMP/hold"
"$WAITERS" "$LIVE" "${LIVE_MIB:-1}" <"$TMP/hold" >"$TMP/waiters.out" &
waiters=$!
exec 9>"$TMP/hold"
while [ ! -s "$TMP/waiters.out" ] && kill -0 $waiters 2>/dev/null; do sleep 0.2; done
at=$(intervals)
after "$at"
cpu1=$(cpu_ns $pid)
after $((at + 5))
cpu2=$(cpu_ns $pid)
kill $pid
exec 9>&-
wait $waiters
# The rows held: each waiter's row, printed in the interval of its wait
# and held since (idle rows are printed no more, but read every interval).
# pids KIND: how many processes have rows of KIND.
pids() { col "$TMP/live.csv" "\$c[\"kind\"] == \"$1\"" pid | sort -u | wc -l; }
rows=$(pids mmap_lock)
blame=$(pids blame)
waited=$(sed -n 's/.*, \([0-9]*\) of them waited/\1/p' "$TMP/waiters.out")
check "with $LIVE live processes ($(cat "$TMP/waiters.out")), mmtop holds a row for each that waited (rows of $rows processes)" \
	test "$rows" -ge "${waited:-1}"
echo "# mmtop's own cost with live rows, $possible possible CPUs: $(( (${cpu2:-0} - ${cpu1:-0}) / 5000 )) us CPU an interval, mmap_lock rows of $rows processes, blame rows of $blame, ref $ref ns"
