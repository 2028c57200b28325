# mmtop's own cost in a guest, against its possible CPUs (run by
# tests/vm/machine.sh, and alone by make bench in guests of 2 and of many
# CPUs): its CPU time an interval and its peak RSS over 10 intervals of the
# default set, as a # line; a check that it ran them.
. tests/lib.sh

possible=$(awk -F- '{ print $NF + 1 }' /sys/devices/system/cpu/possible)
time -f "%U %S %M" -o "$TMP/time" "$MMTOP" -b -n 10 -d 0.2 -f json >"$TMP/cost.json" 2>&1
rc=$?
n=$(grep -c '"seq"' "$TMP/cost.json")
check "mmtop ran 10 intervals with $possible possible CPUs (exit $rc, $n intervals)" \
	test "$rc" -eq 0 -a "$n" -eq 10
read -r user sys rss <"$TMP/time"
echo "# mmtop's own cost, $possible possible CPUs: $(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.1f", (u + s) * 1000 / 10 }') ms CPU an interval, peak RSS $((rss / 1024)) MiB"
