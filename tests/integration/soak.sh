# A cost that stays flat: mmtop -b -d 0.2 (the default set) under 50
# short-lived processes a second, each execing and mapping 1 MiB ten times
# (tests/tools/spawn), with a reader of their /proc/PID/smaps beside them,
# for SOAK_MINUTES (3 here; make bench runs 60). Every 30 s, mmtop's CPU
# time per interval, its RSS, its open files, the rows its row maps hold
# (lock_stats, blame_stats, cont_stats) and the stacks it stores
# (lock_stacks; bpftool, mmtop's own maps by their ids in its fdinfo) are
# sampled; none may grow. A row map that kept its idle rows grew by 1-3
# rows a second here, without end, and lock_stacks by 1 a second.
# CPU time is the scheduler's, in ns, of all mmtop's threads. The same
# work takes more CPU time while the host is busy (its neighbours share
# caches and cores): an hour here read 0.60 ms an interval, then 1.03 ms
# in minutes 20-25, then 0.80, with rows and stacks flat. So each sample
# also holds the CPU time the workload's processes took (reaped, by the
# spawner's cutime and cstime), a yardstick of the host's speed that
# mmtop's cost does not move (its programs take some microseconds of a
# process's milliseconds), and mmtop's CPU per 1000 of the workload's is
# what must stay flat: a cost that grows raises it, a slower host does not.
. tests/lib.sh

need_bpf "soak"
minutes=${SOAK_MINUTES:-3}
SPAWN=${SPAWN:-build/tests/tools/spawn}
[ -x "$SPAWN" ] || { fail "soak: $SPAWN is not built"; exit 1; }

# ns_of PID: the CPU time of all its threads, in ns (schedstat).
ns_of() { cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{ s += $1 } END { printf "%.0f\n", s }'; }
# reaped_of PID: the CPU time of its reaped children, in ticks.
reaped_of() { awk '{ print $16 + $17 }' /proc/"$1"/stat; }
fds_of() { ls /proc/"$1"/fd | wc -l; }

start_mmtop_csv "$TMP/soak.csv" -d 0.2 || exit 1
"$SPAWN" 50 $((minutes * 60)) &
spawner=$!
# The reader: each child's smaps, as a monitoring agent would.
( while kill -0 $spawner 2>/dev/null; do
	for p in $(pgrep -P $spawner); do cat /proc/"$p"/smaps >/dev/null 2>&1; done
	sleep 0.1
done ) &
reader=$!
hz=$(getconf CLK_TCK)
samples=$((minutes * 2))
echo "# soak: t(s) cpu-ms/interval rss-kB fds rows stacks work-cpu-ms cpu-per-1000-of-work"
before=$(ns_of "$MMTOP_PID")
work_before=$(reaped_of $spawner)
: >"$TMP/soak.samples"
i=0
while [ $i -lt $samples ] && kill -0 "$MMTOP_PID" 2>/dev/null; do
	sleep 30
	i=$((i + 1))
	now=$(ns_of "$MMTOP_PID")
	work=$(reaped_of $spawner)
	# 150 intervals of 0.2 s in 30 s.
	cost=$(awk -v t=$((now - before)) -v w=$((work - work_before)) -v hz="$hz" 'BEGIN {
		w = w * 1000 / hz
		printf "%.3f %.0f %.3f", t / 1e6 / 150, w, (w > 0 ? t / 1e3 / w : 0) }')
	before=$now work_before=$work
	set -- $cost
	echo "$((i * 30)) $1 $(rss_of "$MMTOP_PID") $(fds_of "$MMTOP_PID") $(rows_held "$MMTOP_PID") $2 $3" |
		tee -a "$TMP/soak.samples" | sed 's/^/# soak: /'
done
kill $reader 2>/dev/null
wait $spawner
stop_mmtop
check "soak: mmtop ran the $minutes minutes ($(wc -l <"$TMP/soak.samples") samples of $samples)" \
	test "$(wc -l <"$TMP/soak.samples")" -eq $samples
# The first SOAK_WINDOW minutes (1 here; make bench: 10) against the last
# as many: what a leak or a growing read shows. mmtop's CPU time per
# 1000 of the workload's (see the top), within SOAK_CPU (x1.4 here, some
# 40% beyond this machine's noise of a minute's mean); its CPU time per
# interval alone is printed beside it.
window=$((${SOAK_WINDOW:-1} * 2))
verdict() { # verdict COLUMN FACTOR SLACK: the last window's mean <= the first's x FACTOR + SLACK
	awk -v c="$1" -v f="$2" -v s="$3" -v w="$window" '
	{ v[NR] = $c } END {
		for (i = 1; i <= w; i++) { first += v[i]; last += v[NR - w + i] }
		first /= w; last /= w
		printf "%.6g -> %.6g", first, last
		exit !(NR >= 2 * w && last <= first * f + s)
	}' "$TMP/soak.samples"
}
raw=$(verdict 2 1 0)
for spec in "8 ${SOAK_CPU:-1.4 0} CPU per 1000 of the workload's (per interval: $raw ms)" "3 1.1 0 RSS (kB)" \
	    "4 1 0 open files" "5 1.5 10 rows held" "6 1.5 10 stacks stored"; do
	set -- $spec
	col=$1 factor=$2 slack=$3
	shift 3
	msg=$(verdict "$col" "$factor" "$slack")
	ok=$?
	check "soak, first $((window / 2)) minute(s) to last: $* flat ($msg; at most x$factor + $slack)" \
		test $ok -eq 0
done
