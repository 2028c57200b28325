# A cost that stays flat: mmtop -b -d 0.2 (the default set) under 50
# short-lived processes a second, each execing and mapping 1 MiB ten times
# (tests/tools/spawn), with a reader of their /proc/PID/smaps beside them,
# for SOAK_MINUTES (3 here; make bench runs 60). Every 30 s, mmtop's CPU
# time per interval, its RSS, its open files, the rows its row maps hold
# (lock_stats, blame_stats, cont_stats) and the stacks it stores
# (lock_stacks; bpftool, mmtop's own maps by their ids in its fdinfo) are
# sampled; none may grow. A row map that kept its idle rows grew by 1-3
# rows a second here, without end, and lock_stacks by 1 a second.
. tests/lib.sh

need_bpf "soak"
minutes=${SOAK_MINUTES:-3}
SPAWN=${SPAWN:-build/tests/tools/spawn}
[ -x "$SPAWN" ] || { fail "soak: $SPAWN is not built"; exit 1; }

ticks_of() { awk '{ print $14 + $15 }' /proc/"$1"/stat; }
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
echo "# soak: t(s) cpu-ms/interval rss-kB fds rows stacks"
before=$(ticks_of "$MMTOP_PID")
: >"$TMP/soak.samples"
i=0
while [ $i -lt $samples ] && kill -0 "$MMTOP_PID" 2>/dev/null; do
	sleep 30
	i=$((i + 1))
	now=$(ticks_of "$MMTOP_PID")
	# 150 intervals of 0.2 s in 30 s.
	ms=$(awk -v t=$((now - before)) -v hz="$hz" 'BEGIN { printf "%.2f", t * 1000 / hz / 150 }')
	before=$now
	echo "$((i * 30)) $ms $(rss_of "$MMTOP_PID") $(fds_of "$MMTOP_PID") $(rows_held "$MMTOP_PID")" |
		tee -a "$TMP/soak.samples" | sed 's/^/# soak: /'
done
kill $reader 2>/dev/null
wait $spawner
stop_mmtop
check "soak: mmtop ran the $minutes minutes ($(wc -l <"$TMP/soak.samples") samples of $samples)" \
	test "$(wc -l <"$TMP/soak.samples")" -eq $samples
# The first SOAK_WINDOW minutes (1 here; make bench: 10) against the last
# as many: what a leak or a growing read shows. CPU time, not wall time:
# a neighbour does not move it; within SOAK_CPU (x1.25 + 0.1 ms here,
# some 40% beyond this machine's noise of a minute's mean).
window=$((${SOAK_WINDOW:-1} * 2))
verdict() { # verdict COLUMN FACTOR SLACK: the last window's mean <= the first's x FACTOR + SLACK
	awk -v c="$1" -v f="$2" -v s="$3" -v w="$window" '
	{ v[NR] = $c } END {
		for (i = 1; i <= w; i++) { first += v[i]; last += v[NR - w + i] }
		first /= w; last /= w
		printf "%s -> %s", first, last
		exit !(NR >= 2 * w && last <= first * f + s)
	}' "$TMP/soak.samples"
}
for spec in "2 ${SOAK_CPU:-1.25 0.1} CPU per interval (ms)" "3 1.1 0 RSS (kB)" \
	    "4 1 0 open files" "5 1.5 10 rows held" "6 1.5 10 stacks stored"; do
	set -- $spec
	col=$1 factor=$2 slack=$3
	shift 3
	msg=$(verdict "$col" "$factor" "$slack")
	ok=$?
	check "soak, first $((window / 2)) minute(s) to last: $* flat ($msg; at most x$factor + $slack)" \
		test $ok -eq 0
done
