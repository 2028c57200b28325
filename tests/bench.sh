#!/bin/sh
# make bench: mmtop's overhead, measured side by side in one run.
#  1. pft (2 threads, one shared VMA) alternately without and with `mmtop -b`
#     running, PAIRS pairs per probe set; prints the median ratio of
#     faults/sec (with / without). Target for the default set: >= 0.99.
#     Rows: none (two untraced runs: the machine's noise floor), default
#     (every default family), pcp (default plus the opt-in per-page PCP
#     probes), and the two fault sources alone (the candidates).
#  2. mmtop's own CPU time per interval at -d 1 and its RSS, in batch mode,
#     with the viewer open (in a detached tmux pane, 120x40), and as the
#     exporter (`mmtop serve`): per interval, per scrape, and together at
#     Prometheus' default 15 s scrape interval.
#  3. Recording size per 1-s interval, idle and under `mmtop bench churn`
#     with forks, and what that makes a day.
# Figures are printed, never asserted: this machine is shared and noisy.
cd "$(dirname "$0")/.." || exit 1
MMTOP=./mmtop
PAIRS=${PAIRS:-10}
SIZE=${SIZE:-512M}
REPEAT=${REPEAT:-3}
TMP=$(mktemp -d)
# Background jobs of a script ignore SIGINT: an interrupted bench must stop
# its watcher, its load and its tmux server itself.
watch='' load=''
cleanup() {
	kill $watch $load 2>/dev/null
	[ -n "${TMUX_TMPDIR:-}" ] && tmux kill-server 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

median() {
	sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2];
		else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# Median faults/sec and faults/cpu of REPEAT repetitions in one process.
# faults/cpu divides by the workers' CPU time, which leaves out time the
# hypervisor stole: on a shared machine it is the steadier of the two.
pft_rate() {
	out=$("$MMTOP" bench pft -t 2 -s "$SIZE" -r "$REPEAT")
	echo "$(echo "$out" | awk '$1 ~ /^[0-9]+$/ { print $6 }' | median)" \
	     "$(echo "$out" | awk '$1 ~ /^[0-9]+$/ { print $7 }' | median)"
}

# mmtop's arguments for each probe set.
set_args() {
	case $1 in
	default) echo "" ;;
	pcp) echo "--enable-probe pcp" ;;
	sched) echo "--fault-source sched --disable-probe mmap_lock --disable-probe contention" ;;
	perf) echo "--fault-source perf --disable-probe mmap_lock --disable-probe contention" ;;
	esac
}

# faults/sec with `mmtop -b` watching with probe set SET; "none" runs pft
# alone.
traced_rate() { # traced_rate SET
	[ "$1" = none ] && { pft_rate; return; }
	# shellcheck disable=SC2046
	"$MMTOP" -b -d 1 $(set_args "$1") >/dev/null 2>&1 &
	watch=$!
	sleep 0.5	# attached and past its baseline
	pft_rate
	kill $watch
	wait $watch 2>/dev/null
}


echo "pft: 2 threads x $SIZE, one shared VMA, median of $REPEAT repetitions per run,"
echo "     $PAIRS pairs per probe set, order alternating"
pft_rate >/dev/null	# warm-up: the first touches of guest memory are slow
printf "%-8s %12s %12s %8s %8s %8s   %8s %8s %8s\n" set untraced/s traced/s \
	"sec:med" min max "cpu:med" min max
for src in none default pcp sched perf; do
	: >"$TMP/pairs"
	i=0
	while [ $i -lt "$PAIRS" ]; do
		if [ $((i % 2)) -eq 0 ]; then
			b=$(pft_rate); t=$(traced_rate $src)
		else
			t=$(traced_rate $src); b=$(pft_rate)
		fi
		echo "$b $t" >>"$TMP/pairs"
		i=$((i + 1))
	done
	# columns: base/s base/cpu traced/s traced/cpu
	awk '{ print $3 / $1 }' "$TMP/pairs" >"$TMP/sec"
	awk '{ print $4 / $2 }' "$TMP/pairs" >"$TMP/cpu"
	printf "%-8s %12.0f %12.0f %8.4f %8.4f %8.4f   %8.4f %8.4f %8.4f\n" "$src" \
		"$(awk '{ print $1 }' "$TMP/pairs" | median)" \
		"$(awk '{ print $3 }' "$TMP/pairs" | median)" \
		"$(median <"$TMP/sec")" "$(sort -g "$TMP/sec" | head -1)" \
		"$(sort -g "$TMP/sec" | tail -1)" \
		"$(median <"$TMP/cpu")" "$(sort -g "$TMP/cpu" | head -1)" \
		"$(sort -g "$TMP/cpu" | tail -1)"
done

# mmtop's own cost: CPU time on the clock of the scheduler (schedstat, in
# ns) over N intervals while one pft process keeps faulting, counted from
# its first interval (start-up excluded), and its memory: peak (start-up
# included, when libbpf parses the kernel's BTF) and at the end.
N=${INTERVALS:-10}
"$MMTOP" -b -d 1 >"$TMP/own" &
watch=$!
while [ ! -s "$TMP/own" ]; do sleep 0.1; done
"$MMTOP" bench pft -t 2 -s "$SIZE" -r 100000 >/dev/null &
load=$!
cpu0=$(cut -d' ' -f1 /proc/$watch/schedstat)
sleep "$N"
cpu1=$(cut -d' ' -f1 /proc/$watch/schedstat)
hwm=$(awk '/^VmHWM/ { print $2 }' /proc/$watch/status)
rss=$(awk '/^VmRSS/ { print $2 }' /proc/$watch/status)
kill $watch $load
wait $load 2>/dev/null
awk -v c=$((cpu1 - cpu0)) -v n="$N" -v h="$hwm" -v r="$rss" 'BEGIN {
	printf "mmtop -b -d 1 (default set) under pft load: %.3f ms CPU per interval (%.3f%% of one core, target <= 1%%)\n",
		c / n / 1e6, c / n / 1e7
	printf "mmtop memory: RSS %.1f MiB, peak %.1f MiB (target < 32)\n", r / 1024, h / 1024 }'

# The exporter's own cost: collection per interval as above; per scrape,
# the time it takes to render the exposition (mmtop_scrape_duration_seconds,
# single-threaded and CPU-bound, mean of SCRAPES scrapes); the two together
# at one scrape every 15 s.
SCRAPES=${SCRAPES:-50}
"$MMTOP" serve --listen 127.0.0.1:0 -d 1 2>"$TMP/serve.err" &
watch=$!
url=
until [ -n "$url" ] && curl -sf "$url" | grep -q '^mmtop_intervals_total [1-9]'; do
	sleep 0.1
	url=$(sed -n 's|^mmtop: serving \(http://.*\)$|\1|p' "$TMP/serve.err")
done
"$MMTOP" bench pft -t 2 -s "$SIZE" -r 100000 >/dev/null &
load=$!
cpu0=$(cut -d' ' -f1 /proc/$watch/schedstat)
sleep "$N"
cpu1=$(cut -d' ' -f1 /proc/$watch/schedstat)
i=0
while [ $i -lt "$SCRAPES" ]; do
	curl -sf -o "$TMP/scrape" "$url"
	awk '$1 == "mmtop_scrape_duration_seconds" { print $2 }' "$TMP/scrape" >>"$TMP/render"
	i=$((i + 1))
done
rss=$(awk '/^VmRSS/ { print $2 }' /proc/$watch/status)
kill $watch $load
wait $load 2>/dev/null
series=$(grep -vc '^#' "$TMP/scrape")
awk -v c=$((cpu1 - cpu0)) -v n="$N" -v s="$(awk '{ s += $1 } END { print s / NR * 1e9 }' "$TMP/render")" \
    -v r="$rss" -v series="$series" -v b="$(wc -c <"$TMP/scrape")" 'BEGIN {
	per_int = c / n; per_scrape = s
	printf "mmtop serve -d 1 under pft load: %.3f ms CPU per interval, %.3f ms per scrape to render (%d series, %d bytes)\n",
		per_int / 1e6, per_scrape / 1e6, series, b
	printf "mmtop serve at one scrape every 15 s: %.3f%% of one core (target <= 1%%), RSS %.1f MiB\n",
		(per_int + per_scrape / 15) / 1e7, r / 1024 }'

# The viewer's own cost: the same, with mmtop drawing in a tmux pane.
if command -v tmux >/dev/null; then
	export TMUX_TMPDIR="$TMP"
	tmux new-session -d -s bench -x 120 -y 40 "$MMTOP -d 1"
	watch=$(tmux list-panes -t bench -F '#{pane_pid}')
	until tmux capture-pane -p -t bench | grep -q "probes: faults"; do sleep 0.1; done
	"$MMTOP" bench pft -t 2 -s "$SIZE" -r 100000 >/dev/null &
	load=$!
	cpu0=$(cut -d' ' -f1 /proc/$watch/schedstat)
	sleep "$N"
	cpu1=$(cut -d' ' -f1 /proc/$watch/schedstat)
	rss=$(awk '/^VmRSS/ { print $2 }' /proc/$watch/status)
	kill $load
	wait $load 2>/dev/null
	tmux kill-server
	awk -v c=$((cpu1 - cpu0)) -v n="$N" -v r="$rss" 'BEGIN {
		printf "mmtop viewer at -d 1 under pft load: %.3f ms CPU per interval (%.3f%% of one core, target <= 1%%), RSS %.1f MiB\n",
			c / n / 1e6, c / n / 1e7, r / 1024 }'
fi

# Recording size: bytes per interval past the file and header frames.
rec_size() { # rec_size FILE INTERVALS
	hdr=$(od -An -tu4 -j 20 -N 4 "$1" | tr -d ' ')
	awk -v s="$(stat -c %s "$1")" -v h="$hdr" -v n="$2" 'BEGIN { printf "%.0f", (s - 16 - 12 - h) / n }'
}
"$MMTOP" record -o "$TMP/idle.rec" -d 1 -n "$N"
(while :; do "$MMTOP" bench churn -n 3000 --fork 20 >/dev/null; done) &
load=$!
"$MMTOP" record -o "$TMP/busy.rec" -d 1 -n "$N"
kill $load
wait $load 2>/dev/null
idle=$(rec_size "$TMP/idle.rec" "$N")
busy=$(rec_size "$TMP/busy.rec" "$N")
awk -v i="$idle" -v b="$busy" 'BEGIN {
	printf "recording (format 2.0) at -d 1: idle %d bytes/interval (%.1f MB/day), under bench churn with forks %d bytes/interval (%.1f MB/day)\n",
		i, i * 86400 / 1e6, b, b * 86400 / 1e6 }'
