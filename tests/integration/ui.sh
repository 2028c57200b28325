# The viewer end to end, through a real terminal (tmux): header, CPUs, a
# pinned workload's fault rate, help, views, filter, resize, quit, and
# following a command.
. tests/lib.sh

why=$(bpf_refused)
if [ -n "$why" ]; then
	skip "viewer: $why"
	exit 0
fi
if ! command -v tmux >/dev/null; then
	fail "viewer: tmux (installed by scripts/deps.sh) is missing"
	exit 0
fi
S=mmtop-test-$$
export TMUX_TMPDIR="$TMP"
trap 'tmux kill-server 2>/dev/null; rm -rf "$TMP"' EXIT
# One tmux server for every session: killing one must not end the server
# while the next starts ("server exited unexpectedly").
tmux new-session -d -s keep "sleep 600"

screen() { tmux capture-pane -p -t "$S"; }
# wait_for TEXT [SECONDS]: until the screen shows TEXT.
wait_for() {
	i=0
	while ! screen | grep -q -- "$1"; do
		[ $i -ge $((${2:-10} * 10)) ] && return 1
		sleep 0.1
		i=$((i + 1))
	done
}
key() { tmux send-keys -t "$S" "$@"; sleep 0.4; }
# behind_sorted desc|asc: the zoom's "waited behind" list holds two or
# more holders, their totals in that order.
behind_sorted() {
	screen | sed -n '/^waited behind/,/^[^ ]/p' | grep '^  ' |
		sed 's/.* total \([0-9.]*\)\([a-z]*\) .*/\1 \2/' |
		awk -v dir="$1" '{ v = $1 * ($2 == "ns" ? 1 : $2 == "us" ? 1e3 : $2 == "ms" ? 1e6 : 1e9)
			if (n++ && (dir == "desc" ? v > p : v < p)) bad = 1; p = v }
			END { exit !(n >= 2 && !bad) }'
}

set -- $(online_cpus)
shift $(($# - 1))
k=$1
# --exact: the Blame view's live check counts a wait's holder from its
# release, with its call site (the default set's x turns it on and off:
# below).
tmux new-session -d -s "$S" -x 120 -y 40 "$MMTOP --exact; echo EXIT=\$?; sleep 600"
check "starts and shows the header" wait_for "interval 1.00s  LIVE"
check "first interval arrives" wait_for "probes: faults:"
taskset -c "$k" "$MMTOP" bench pft -s 512M -r 4 --cpu "$k" >/dev/null &
load=$!
# The pinned CPU's rate: the third field of its bar line ("  1 [|||] 57.9k").
rate_of() {
	screen | awk -v k="$k" '$1 == k && $2 ~ /^\[/ { for (i = 3; i <= NF; i++) if ($i ~ /^[0-9.]+k?$/) { print $i; exit } }'
}
busy() {
	awk -v r="$(rate_of)" 'BEGIN { if (r ~ /k$/) r = r * 1000; exit !(r + 0 > 1000) }'
}
i=0
while ! busy && [ $i -lt 60 ]; do sleep 0.1; i=$((i + 1)); done
screen >"$TMP/overview"
check "both CPUs have a bar" sh -c "grep -q '^  0 \[' '$TMP/overview' && grep -q '^  $k \[' '$TMP/overview'"
check "pinned CPU $k shows a fault rate over 1000/s ($(rate_of))" busy
wait $load

key '?'
check "? shows the help" wait_for "Keys" 2
check "help: long texts wrap, not cut (Shift-Tab: previous)" wait_for "Shift-Tab: previous" 1
check "help: the drops by kind" wait_for "Drops since start (the header's drops): " 1
check "help: run from the tree, it points at the columns' page there (man -l)" \
	wait_for "drops: man -l $(cd "$(dirname "$MMTOP")" && pwd)/man/mmtop-metrics.7" 1
key x
for v in "2:REFILL/s" "3:HOLD-p50" "4:CLASS" "5:since start" "6:newest first" \
	"7:by the holder they waited behind" "8:VMA-OK%" "1:CPU  faults/s"; do
	key "${v%%:*}"
	check "key ${v%%:*} switches to its view (${v#*:})" wait_for "${v#*:}" 2
done
# Blame live: a /proc reader of a churn process shows up as its holder.
key 7
"$MMTOP" bench churn -t 1 -n 100000 --proc-reader >/dev/null &
load=$!
check "Blame view: the churn process's waits behind the /proc reader, live" \
	wait_for "churn-reader" 10
kill $load
wait $load 2>/dev/null
key 3
key / m m t o p Enter
check "/ filters, shown in the header" wait_for "filter: mmtop" 2
key Escape
check "Esc clears the filter" sh -c "tmux capture-pane -p -t '$S' >'$TMP/esc' && grep -q LIVE '$TMP/esc' && ! grep -q 'filter: mmtop' '$TMP/esc'"
tmux resize-window -t "$S" -x 60 -y 20
check "60x20: the too-small message" wait_for "terminal too small: 60x20" 3
tmux resize-window -t "$S" -x 120 -y 40
check "120x40 again: the view is back" wait_for "LIVE" 3
key q
check "q exits with status 0, back at the shell" wait_for "EXIT=0" 3
tmux kill-session -t "$S"

# Following a command: the header names it, its exit is shown, the view
# stays until q, and a summary goes to stdout.
tmux new-session -d -s "$S" -x 120 -y 40 \
	"$MMTOP -- sh -c 'sleep 2; exec $MMTOP bench pft -s 64M'; echo EXIT=\$?; sleep 600"
check "-- COMMAND: header follows it" wait_for "following" 10
check "-- COMMAND: its exit is shown, the view stays" wait_for "exited with status 0" 15
key q
check "-- COMMAND: q exits 0" wait_for "EXIT=0" 3
screen >"$TMP/out"
check "-- COMMAND: a summary on the terminal" grep -q "^mmtop summary: .* exited with status 0" "$TMP/out"
sed -n '/^mmtop summary:/,$p' "$TMP/out" >"$TMP/summary"
check "-- COMMAND: the summary's tables line up ($(python3 tests/tools/text_aligned.py <"$TMP/summary" | head -n 1))" \
	sh -c "python3 tests/tools/text_aligned.py <'$TMP/summary' >/dev/null"
check "-- COMMAND: the summary counts its faults (64 MiB: >= 16384; saw: $(grep -E '^(faults|mmtop summary)' "$TMP/out" | tr -s ' \n' '  '))" \
	awk '$1 == "faults" { gsub(",", "", $2); ok = $2 >= 16384 } END { exit !ok }' "$TMP/out"
# The command's own output is kept in a file named on exit, not lost.
kept=$(sed -n "s/^sh's output ([0-9]* bytes): \(.*\)\$/\1/p" "$TMP/out")
check "-- COMMAND: its output kept in a file named on exit (${kept:-none named})" \
	sh -c "test -n '$kept' && grep -q '^# pft: pid' '$kept' && grep -q 'faults/sec' '$kept'"
rm -f "$kept"
tmux kill-session -t "$S"

# NO_COLOR: no colour escapes, only attributes.
tmux new-session -d -s "$S" -x 120 -y 40 "NO_COLOR=1 $MMTOP; sleep 600"
check "NO_COLOR: the viewer starts" wait_for "probes:" 10
check "NO_COLOR: no colour codes on screen" \
	sh -c "! tmux capture-pane -e -p -t '$S' | grep -q '\[4[0-7]m\|\[3[0-7]m'"
tmux kill-session -t "$S"

# Replay in the viewer: REPLAY, a position, and t/T/j/[/] moving it.
"$MMTOP" record -o "$TMP/ui.rec" -d 0.3 -n 8 >/dev/null
tmux new-session -d -s "$S" -x 120 -y 40 "$MMTOP replay '$TMP/ui.rec'; echo EXIT=\$?; sleep 600"
check "replay: REPLAY and the position in the header" wait_for "REPLAY  interval [0-9]/8" 5
key ' '
key j 1 . 2 Enter
check "replay: j 1.2 jumps to the 5th interval (+1.2s)" wait_for "interval 5/8  +1.2s" 2
key T
check "replay: T steps back" wait_for "interval 4/8" 2
key t
key t
check "replay: t steps forward" wait_for "interval 6/8" 2
key ']'
check "replay: ] plays faster" wait_for "PAUSED 2x" 2
key q
check "replay: q exits 0" wait_for "EXIT=0" 3
tmux kill-session -t "$S"

# Seeking rebuilds the view: the Forks log holds each recorded fork once,
# however often the replay steps back and forth.
# (The workload forks a second in: the first intervals have none. Its 7
# forks: the iteration's own process, then the 6 it times.)
"$MMTOP" record -o "$TMP/forks.rec" -d 0.3 -- sh -c 'sleep 1; exec "$0" bench fork -s 8M -n 6' \
	"$MMTOP" >/dev/null
tmux new-session -d -s "$S" -x 120 -y 40 "$MMTOP replay '$TMP/forks.rec'; echo EXIT=\$?; sleep 600"
check "replay: REPLAY shown" wait_for "REPLAY" 5
key ' '
key 5
key j 9 9 Enter
check "replay: at the end, the 7 recorded forks" wait_for "7 forks since start" 3
key T
key t
key T
key t
check "replay: stepping back and forth keeps them 7, once each" wait_for "7 forks since start" 3
key j 0 Enter
check "replay: a jump to the start: none yet" wait_for "0 forks since start" 3
key q
tmux kill-session -t "$S"

# Totals since start (a): a workload of a tenth of a second is gone from
# the next interval's view, and stays in the totals, zoom included.
# --exact: the interval views are of what every acquisition did (the
# default set's rows are of waits alone).
tmux new-session -d -s "$S" -x 160 -y 40 "$MMTOP -d 0.3 --exact; echo EXIT=\$?; sleep 600"
check "totals: the viewer starts" wait_for "probes:" 10
key 3
"$MMTOP" bench churn -n 2000 --fork 20 >"$TMP/short.out"
spid=$(pid_of "$TMP/short.out")
key / $spid Enter
check "totals: the short workload's rows are gone from the interval's view" \
	wait_for "no rows match the filter" 5
key a
check "totals: the header says TOTALS" wait_for "LIVE  TOTALS [0-9.]*s" 3
check "totals: the exited workload's rows are back (pid $spid)" wait_for "^ *$spid mmtop  *brk  *write" 3
key Enter
check "totals: Enter zooms into the exited process's row" wait_for "^pid $spid .*(Esc or B: back)" 3
key b
key Escape
key 5
n=$(screen | sed -n 's/^since start: \([0-9]*\) forks.*/\1/p')
check "totals: the Forks view counts the 20 forks since start (${n:-none})" test "${n:-0}" -ge 20
key a
check "totals: a again, back to the interval" sh -c "! tmux capture-pane -p -t '$S' | grep -q TOTALS"
key q
tmux kill-session -t "$S"

# Columns by the terminal's width: one recording replayed at 80, 120 and
# 220 columns, at its last interval, in totals. A number is shown whole or
# not at all: each one on a narrow screen is on the same row at 220.
"$MMTOP" record -o "$TMP/cols.rec" -d 0.3 --exact -- \
	"$MMTOP" bench churn -t 1 -n 3000 --fork 20 --proc-reader 2>"$TMP/cols.out"
for w in 80 120 220; do
	S=cols$w
	tmux new-session -d -s "$S" -x $w -y 40 "$MMTOP replay '$TMP/cols.rec'; sleep 600"
	wait_for "REPLAY" 5
	key j 9 9 9 Enter
	key a
done
for v in 3 4 5 6 7 8; do
	for w in 80 120 220; do
		S=cols$w
		key $v
		screen >"$TMP/cols.$v.$w"
	done
done
# cut NARROW WIDE: "rows numbers-not-in-the-wide-row" over the table rows.
cut() {
	awk 'NR == FNR { wide[FNR] = " " $0 " "; next }
		/[0-9]/ && FNR > 5 { rows++
			for (i = 1; i <= NF; i++)
				if ($i ~ /^[0-9][0-9.]*[a-zA-Z%]*$/ && index(wide[FNR], " " $i " ") == 0) bad++ }
		END { print rows + 0, bad + 0 }' "$2" "$1"
}
for v in 3 4 5 6 7 8; do
	for w in 80 120; do
		set -- $(cut "$TMP/cols.$v.$w" "$TMP/cols.$v.220")
		check "columns at $w: view $v, no number cut ($2 of the numbers on $1 rows are not whole)" \
			test "$1" -gt 0 -a "$2" -eq 0
	done
done
check "columns at 220: text widens, the Locks view's class whole (own-mmap_lock)" \
	grep -q '^own-mmap_lock ' "$TMP/cols.4.220"
check "columns at 80: columns that do not fit are hidden behind >" \
	sh -c "grep -q 'COUNT.*>\$' '$TMP/cols.4.80'"
S=cols220
key 1
# Its top three by wait: which of churn's waits behind the reader rank
# there varies from run to run (faults behind fork, brk behind the
# reader), the reader's own wait behind churn's writers or churn's behind
# it always does: one of them, marked foreign (*).
check "Overview: who blocks whom, the /proc reader among the top pairs, waiting or holding" \
	wait_for "churn-reader .* waited .* behind  *[0-9]*\\* \\|waited .* behind  *[0-9]*\\* churn-reader" 2
cpid=$(pid_of "$TMP/cols.out")
pages=$(count_of pages "$TMP/cols.out")
faults=$(awk -v p="$cpid" '$1 == p { print $3 }' "$TMP/cols.8.220")
check "VMA view: the churn process's row, its faults at least the $pages pages it touched (${faults:-none})" \
	test "${faults:-0}" -ge "${pages:-1}"
key 3
check "sort mark: the mmap_lock view is sorted on TIME, largest first" wait_for "[↓v]TIME" 2
key '>'
check "sort mark: > moves it to WAIT-p50" wait_for "[↓v]WAIT-p50" 2
key r
check "sort mark: r reverses it" wait_for "[↑^]WAIT-p50" 2
for w in 80 120 220; do tmux kill-session -t cols$w; done

# Pause freezes the view only: forks that come while paused are kept and
# shown when it ends.
tmux new-session -d -s "$S" -x 120 -y 40 "$MMTOP -d 0.3; echo EXIT=\$?; sleep 600"
check "pause: the viewer starts" wait_for "probes:" 10
key 5
key ' '
"$MMTOP" bench fork -s 8M -n 4 >"$TMP/paused.out"
fpid=$(pid_of "$TMP/paused.out")
check "pause: PAUSED, intervals held" wait_for "PAUSED ([0-9]* held)" 3
check "pause: the frozen view does not show them" sh -c "! tmux capture-pane -p -t '$S' | grep -q ' $fpid '"
key ' '
check "pause: after it, the forks of pid $fpid are shown" wait_for " $fpid " 3
key q
tmux kill-session -t "$S"

# Blame in replay: the pairs recorded are shown again.
"$MMTOP" record -o "$TMP/blame.rec" -d 0.5 --exact -- "$MMTOP" bench churn -t 1 -n 3000 --proc-reader >/dev/null
tmux new-session -d -s "$S" -x 120 -y 40 "$MMTOP replay '$TMP/blame.rec'; echo EXIT=\$?; sleep 600"
check "replay: REPLAY shown" wait_for "REPLAY" 5
key 7
check "replay: the Blame view shows the recorded /proc reader" wait_for "churn-reader" 10
# The reader's zoom lists the churn's sites it waited behind, sorted as
# the Blame view is: TOTAL, largest first, and r there reverses both.
key a
key 3
key / c h u r n - r e a d e r Enter
key Enter
check "replay zoom: the holders waited behind, largest total first" behind_sorted desc
key Escape
key 7
key r
key 3
key Enter
check "replay zoom: r in the Blame view reverses them" behind_sorted asc
# g: grouped by cgroup. The churn and its reader ran in this test's cgroup.
# Its last part, which a narrow column keeps ("/" itself, for the root).
own=$(sed -n 's/^0:://p' /proc/self/cgroup)
part=${own##*/}
[ -n "$part" ] || part=" / "
key Escape
key Escape
key 7
key g
check "g: the Blame view sums the waits by cgroup pair" wait_for "HOLDER CGROUP" 2
check "g: the pair of the test's cgroup ($own) is there" sh -c "tmux capture-pane -p -t '$S' | grep -qF -- '$part'"
tmux resize-window -t "$S" -x 80 -y 24
check "g at 80x24: the pair table fits, its last column (ROWS) shown" wait_for " ROWS" 3
tmux resize-window -t "$S" -x 120 -y 40
key 3
check "g: the mmap_lock view shows each row's cgroup" wait_for "CGROUP" 2
key g
i=0
while screen | grep -q CGROUP && [ $i -lt 20 ]; do sleep 0.1; i=$((i + 1)); done
check "g again: back to the processes" sh -c "! tmux capture-pane -p -t '$S' | grep -q CGROUP"
key q
tmux kill-session -t "$S"

# A recording of mmtop 0.1's --budget (a paced churn, windows of 30% of
# each interval: tests/fixtures/format-2.6-sampled.rec) replayed says it
# was sampled, in the header and by a ~ before the estimated columns'
# titles (an exact one has neither).
tmux new-session -d -s "$S" -x 160 -y 40 "$MMTOP replay tests/fixtures/format-2.6-sampled.rec; sleep 600"
check "sampled: the header says the share sampled" wait_for "mmap_lock ~[0-9.]*% sampled" 5
key a
key 3
check "sampled: the mmap_lock view marks its estimates (~ACQ)" wait_for "~ACQ" 3
key 7
key g
check "g on a recording before 2.10: its cgroups are said to be missing" \
	wait_for "by cgroup: n/a (recorded before format 2.10)" 2
key q
tmux kill-session -t "$S"
tmux new-session -d -s "$S" -x 160 -y 40 "$MMTOP replay '$TMP/blame.rec'; sleep 600"
key a
key 3
check "exact: the header says so, no ~ before ACQ" \
	sh -c "sleep 1; tmux capture-pane -p -t '$S' >'$TMP/exact.txt'; grep -q 'mmap_lock exact' '$TMP/exact.txt' && grep -q ' ACQ' '$TMP/exact.txt' && ! grep -q '~ACQ' '$TMP/exact.txt'"
key q
tmux kill-session -t "$S"

# Before the first interval the header names no mode (it said "exact",
# with exact mode off): a 30-s interval keeps it pending.
tmux new-session -d -s "$S" -x 160 -y 40 "$MMTOP -d 30; sleep 600"
check "first interval pending: the header says so" wait_for "mmap_lock: first interval pending" 10
check "first interval pending: no mode named" sh -c "! tmux capture-pane -p -t '$S' | grep -q 'mmap_lock exact\|mmap_lock waits'"
key q
tmux kill-session -t "$S"

# The default set, and x: exact mode on and off live. Off, the header says
# so and the mmap_lock view's acquisition columns are "-"; x attaches the
# per-acquisition programs (mmtop holds more links), the header says
# exact with what mmtop's programs cost, the rows count acquisitions; x
# again detaches them: the links are the ones it started with.
tmux new-session -d -s "$S" -x 160 -y 40 "$MMTOP -d 0.3; sleep 600"
check "default set: the header says waits, x for exact" wait_for "mmap_lock waits (x: exact)" 10
viewer=$(pgrep -P "$(tmux display-message -p -t "$S" '#{pane_pid}')" -x mmtop)
before=$(links_of "$viewer")
key 3
"$MMTOP" bench churn -t 1 -n 1000 --chunk 64K --paced --fork 10 >"$TMP/x.out"
key a
check "default set: the churn's fault waits shown, ACQ '-'" wait_for "^ *$(pid_of "$TMP/x.out") mmtop  *fault  *read  *own  *- " 3
# Its zoom says what it holds: waits, not 0 acquired and 0 released.
key Enter
check "default set, zoom: waits counted, acquisitions and holds said to be exact mode's" \
	wait_for "wait: [0-9]* waits, total .*acquisitions and holds: exact mode only" 3
check "default set, zoom: no acquisition or hold drawn as 0" \
	sh -c "! tmux capture-pane -p -t '$S' | grep -q '0 acquired\|0 released\|acq 0 '"
key Escape
# Its forks: timed where the kernel lets the default set hook kernel_clone;
# where not (this VM), the Forks view says why, newest first.
key 5
if "$MMTOP" probe 2>/dev/null | grep -q "forks timed in exact mode only"; then
	check "default set, Forks view: untimed forks say why" \
		wait_for "latency and cost not measured (forks timed in exact mode only" 3
	check "default set, Forks view: newest first, not worst" wait_for "below, newest first" 1
else
	check "default set, Forks view: the forks timed" wait_for "latency mean [0-9.]*[mu]s" 3
fi
key 3
key a
key x
check "x: the header says exact, with mmtop's BPF share" wait_for "mmap_lock exact.*mmtop bpf [0-9.]*%" 5
during=$(links_of "$viewer")
"$MMTOP" bench churn -t 1 -n 300 >"$TMP/x2.out"
check "x: acquisitions counted" wait_for "^ *$(pid_of "$TMP/x2.out") mmtop  *[a-z]*  *write  *own  *[0-9]" 3
key x
check "x again: the header says waits" wait_for "mmap_lock waits (x: exact)" 5
after=$(links_of "$viewer")
check "x: links added while exact ($before -> $during), the same ones after ($after)" \
	sh -c "test -n '$before' && test '$(echo $during | wc -w)' -gt '$(echo $before | wc -w)' && test '$before' = '$after'"
key q
tmux kill-session -t "$S"
