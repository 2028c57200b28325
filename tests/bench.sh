#!/bin/sh
# make bench: mmtop's overhead, measured side by side in one run.
#  1. pft (2 threads, one shared VMA) alternately without and with `mmtop -b`
#     running, PAIRS pairs per fault source; prints the median ratio of
#     faults/sec (with / without). Target for the default source: >= 0.99.
#     The "none" row pairs two untraced runs: the machine's noise floor.
#  2. mmtop's own CPU time per interval at -d 1 and its peak RSS.
# Figures are printed, never asserted: this machine is shared and noisy.
cd "$(dirname "$0")/.." || exit 1
MMTOP=./mmtop
PAIRS=${PAIRS:-10}
SIZE=${SIZE:-512M}
REPEAT=${REPEAT:-3}
TMP=$(mktemp -d)
trap 'kill $watch 2>/dev/null; rm -rf "$TMP"' EXIT

median() {
	sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2];
		else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# Median faults/sec of REPEAT repetitions in one process.
pft_rate() {
	"$MMTOP" bench pft -t 2 -s "$SIZE" -r "$REPEAT" | awk '$1 ~ /^[0-9]+$/ { print $6 }' | median
}

# faults/sec with `mmtop -b` watching, using fault source SOURCE; "none"
# runs pft alone, an A/A control that shows the noise floor of this machine.
traced_rate() { # traced_rate SOURCE
	[ "$1" = none ] && { pft_rate; return; }
	"$MMTOP" -b -d 1 --fault-source "$1" >/dev/null 2>&1 &
	watch=$!
	sleep 0.5	# attached and past its baseline
	pft_rate
	kill $watch
	wait $watch 2>/dev/null
}


echo "pft: 2 threads x $SIZE, one shared VMA, median of $REPEAT repetitions per run,"
echo "     $PAIRS pairs per fault source, order alternating"
pft_rate >/dev/null	# warm-up: the first touches of guest memory are slow
printf "%-8s %14s %14s %8s %8s %8s\n" source untraced/s traced/s median min max
for src in none sched perf; do
	: >"$TMP/ratios"
	: >"$TMP/base"
	: >"$TMP/traced"
	i=0
	while [ $i -lt "$PAIRS" ]; do
		if [ $((i % 2)) -eq 0 ]; then
			b=$(pft_rate); t=$(traced_rate $src)
		else
			t=$(traced_rate $src); b=$(pft_rate)
		fi
		echo "$b" >>"$TMP/base"
		echo "$t" >>"$TMP/traced"
		awk -v t="$t" -v b="$b" 'BEGIN { printf "%.4f\n", t / b }' >>"$TMP/ratios"
		i=$((i + 1))
	done
	printf "%-8s %14.0f %14.0f %8.4f %8.4f %8.4f\n" "$src" \
		"$(median <"$TMP/base")" "$(median <"$TMP/traced")" \
		"$(median <"$TMP/ratios")" "$(sort -g "$TMP/ratios" | head -1)" \
		"$(sort -g "$TMP/ratios" | tail -1)"
done

# mmtop's own cost: CPU time on the clock of the scheduler (schedstat, in
# ns) over N intervals while pft keeps faulting, and peak RSS.
N=${INTERVALS:-10}
"$MMTOP" -b -d 1 >/dev/null &
watch=$!
( end=$(($(date +%s) + N + 1)); while [ "$(date +%s)" -lt $end ]; do pft_rate >/dev/null; done ) &
load=$!
sleep 0.5
cpu0=$(cut -d' ' -f1 /proc/$watch/schedstat)
sleep "$N"
cpu1=$(cut -d' ' -f1 /proc/$watch/schedstat)
hwm=$(awk '/^VmHWM/ { print $2 }' /proc/$watch/status)
kill $watch
wait $load 2>/dev/null
awk -v c=$((cpu1 - cpu0)) -v n="$N" -v h="$hwm" 'BEGIN {
	printf "mmtop -b -d 1 under pft load: %.3f ms CPU per interval (%.3f%% of one core, target <= 1%%), peak RSS %.1f MiB (target < 32)\n",
		c / n / 1e6, c / n / 1e7, h / 1024 }'
