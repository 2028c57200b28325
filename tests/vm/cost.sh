# mmtop's own cost in a guest, against its possible CPUs (run by
# tests/vm/machine.sh, and alone by make bench in guests of 2 and of many
# CPUs): its CPU time an interval and its peak RSS over 10 intervals of the
# default set, as a # line; a check that it ran them.
#
# The CPU time is time's (busybox's here); the peak RSS is the kernel's
# VmHWM of mmtop itself, read while it runs: busybox's time printed four
# times that (112 MiB against VmHWM's 28 in a 6.12 guest), as if
# ru_maxrss, in KiB, were in 4 KiB pages.
. tests/lib.sh

possible=$(awk -F- '{ print $NF + 1 }' /sys/devices/system/cpu/possible)
time -f "%U %S" -o "$TMP/time" "$MMTOP" -b -n 10 -d 0.2 -f json >"$TMP/cost.json" 2>&1 &
timer=$!
# The mmtop below @timer (time, or a subshell running it): its VmHWM.
hwm_below() {
	awk -v top="$1" 'FNR == 1 { split($0, f, ") "); split(f[2], g, " ");
			pid = FILENAME; sub("/proc/", "", pid); sub("/stat", "", pid);
			ppid[pid] = g[2]; comm[pid] = substr(f[1], index(f[1], "(") + 1) }
		END { for (p in ppid)
			if (comm[p] == "mmtop" && (ppid[p] == top || ppid[ppid[p]] == top))
				print p }' /proc/[0-9]*/stat 2>/dev/null |
	while read -r p; do awk '/^VmHWM/ { print $2 }' /proc/$p/status 2>/dev/null; done
}
hwm=0
while kill -0 $timer 2>/dev/null; do
	now=$(hwm_below $timer | head -n 1)
	[ "${now:-0}" -gt "$hwm" ] && hwm=$now
	sleep 0.05
done
wait $timer
rc=$?
n=$(grep -c '"seq"' "$TMP/cost.json")
check "mmtop ran 10 intervals with $possible possible CPUs (exit $rc, $n intervals)" \
	test "$rc" -eq 0 -a "$n" -eq 10
check "its peak RSS was read while it ran ($hwm KiB)" test "$hwm" -gt 0
read -r user sys <"$TMP/time"
echo "# mmtop's own cost, $possible possible CPUs: $(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.1f", (u + s) * 1000 / 10 }') ms CPU an interval, peak RSS $((hwm / 1024)) MiB"
