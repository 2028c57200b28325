#!/bin/sh
# make bench: mmtop's overhead, measured side by side in one run.
#  1. A matrix: six kinds of work, each run with `mmtop -b` watching
#     (PAIRS times) between two runs without (see pair_ratios), for the
#     default probe set (programs on rare events only), --exact ("exact"), each probe family alone, "none" (two untraced
#     runs: the machine's noise floor, an A/A row) and "hooks" (empty
#     programs on the default set's tracepoints, bpf/floor.bpf.c: the cost
#     of being hooked at all, below which no work in mmtop's programs can
#     go). Two tables: in the first each cell is the median ratio of
#     throughput with / without (wall time); in the second the ratio of
#     the work's own CPU time (user + system, wait4's rusage,
#     tests/tools/cputime.c; for churn, the churn thread's) without / with,
#     for the same operations. A
#     neighbour stealing the CPU moves the first, not the second, and the
#     programs run in the work's context, so the second holds their cost.
#     Beside each median, its 95% confidence interval (distribution-free:
#     two order statistics of the ratios; min-max below 9).
#     Here a work's CPU time for the same operations varies by 5-10% from
#     one run to the next (the host's neighbours), and no shorter or longer
#     run changes that, so the A/A row's median strays a per cent or two
#     from 1 in 24 runs: a ratio alone cannot show 0.99. The verdict line says, per work, whether the default
#     set's interval lies above 0.98 (its cost is below 2%, shown), below
#     it (a cost the model figure misses), or across it (noise: the model
#     figure decides), and the p of a Mann-Whitney test that its ratios
#     and the A/A row's are one distribution (small: a difference noise
#     does not explain). Target for the default set: the median >= 0.98,
#     as far as the A/A row's noise allows.
#     The work:
#       faults    mmtop bench pft, 2 threads, one VMA (faults/s)
#       syscalls  perf bench syscall basic: getppid in a loop (ops/s)
#       ctxsw     perf bench sched pipe: two tasks ping-pong (ops/s)
#       churn     mmtop bench churn -t 0: mmap, mprotect, mremap, munmap,
#                 brk, the churn thread alone on the last CPU (rounds/s)
#       fork      mmtop bench fork of a 32 MiB 4K-backed parent (forks/s)
#       forkthp   the same, THP-backed: less than half the CPU a fork
#                 (0.11 s for 40 here, against 0.24 s), the same programs
#     Also: the time from mmtop's start to its first interval; free of
#     the machine's noise, the BPF program runs per mmap_lock call of a
#     one-thread churn (bpf_stats), default set and exact mode; what
#     turning exact mode on and off once (--exact-every) costs a churn on
#     the other CPU beyond the programs' own run time, against mmtop's own
#     bound of it; each of the default set's programs' cost per run under
#     each work; and the model figure for the default set and --exact: the
#     programs' time and the hooks' entries over the work's untraced CPU
#     time.
#  2. mmtop's own CPU time per interval at -d 1 and its RSS, in batch mode,
#     with 2000 more processes alive, with 10,000 alive that each waited
#     on their mmap_lock (rows held, drops, CPU and RSS, first half of the
#     intervals against the second), with the viewer open (in a detached
#     tmux pane, 120x40), and as the exporter (`mmtop serve`): per interval,
#     per scrape, and together at Prometheus' default 15 s scrape interval;
#     and against the possible CPUs (start-up, CPU an interval, idle and
#     with GUEST_LIVE (1000) more processes whose rows mmtop holds, RSS,
#     the maps' kernel memory), in guests of 2, 64 and 128 CPUs
#     (tests/vm/vm.sh).
#  3. Recording size per 1-s interval, idle and under `mmtop bench churn`
#     with forks, and what that makes a day; `mmtop report --html` of a day
#     of 1-s intervals: time to write, size, time to load in Chromium.
#  4. The soak: an hour (SOAK_MINUTES) of tests/integration/soak.sh's
#     process churn under `mmtop -b -d 0.2`, its CPU per interval, RSS,
#     open files and rows sampled each 30 s, the first ten minutes against
#     the last ten (flat within 10%; CPU per 1000 of the workload's own).
# Figures are printed, never asserted: this machine is shared and noisy.
# QUICK=1: 3 traced runs a row (and 3 rounds of the cycle), the default
# set, the hooks and the A/A row only; a 3-minute soak.
# PAIRS (traced runs of the rows none, default and exact; 24),
# FAMILY_PAIRS (of the other rows; 5), SETS and WORKS choose the
# matrix's runs, rows and columns; CYCLE_ROUNDS (5), the cycle's rounds.
cd "$(dirname "$0")/.." || exit 1
MMTOP=./mmtop
FLOOR=build/tests/floor
CPUTIME=build/tests/tools/cputime
if [ -n "${QUICK:-}" ]; then
	PAIRS=${PAIRS:-3} FAMILY_PAIRS=${FAMILY_PAIRS:-3} SETS=${SETS:-"none hooks default exact"}
	CYCLE_ROUNDS=${CYCLE_ROUNDS:-3}
fi
PAIRS=${PAIRS:-24}
FAMILY_PAIRS=${FAMILY_PAIRS:-5}
SETS=${SETS:-"none hooks default exact faults mmap_lock contention fork pcp"}
SIZE=${SIZE:-256M}
TMP=$(mktemp -d)
# Background jobs of a script ignore SIGINT: an interrupted bench must stop
# its watcher, its load and its tmux server itself.
watch='' load='' crowd=''
cleanup() {
	kill $watch $load 2>/dev/null
	[ -n "$crowd" ] && kill $crowd 2>/dev/null
	[ -n "${TMUX_TMPDIR:-}" ] && tmux kill-server 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# median: the median of the numbers on stdin (median_ci below, its first).
median() { median_ci | awk '{ print $1 }'; }

WORKS=${WORKS:-"faults syscalls ctxsw churn fork forkthp"}
# Each prints one throughput figure, higher is better, for a fixed number
# of operations, and appends its CPU time to $TMP/cpu.
# Each work runs with its address space's layout fixed (setarch -R, no
# ASLR): where the kernel puts a process's stack, heap and mappings moves
# its CPU time run to run through cache and TLB aliasing (churn's spread
# from one run to the next halved without it, 0.155 to 0.083 here).
NORAND="setarch -R"
cpu() { $NORAND "$CPUTIME" "$TMP/cpu" "$@"; }
work_faults() { cpu "$MMTOP" bench pft -t 2 -s "$SIZE" | awk '$1 ~ /^[0-9]+$/ { print $6 }'; }
work_syscalls() { cpu perf bench syscall basic -l 1000000 2>/dev/null | awk '/ops\/sec/ { print $1 }'; }
work_ctxsw() { cpu perf bench sched pipe -l 50000 2>/dev/null | awk '/ops\/sec/ { print $1 }'; }
# The churn thread alone, on one CPU: with a fault thread beside it, the
# two hand mmap_lock back and forth at rates no ratio survives (spread
# over two CPUs, 25 to 111 ms for the same 2000 rounds; on one, the churn
# thread's CPU time took one of two values 2.6 times apart, and the A/A
# row spanned 0.41-2.42). Its CPU time is the churn thread's (cpu-ns).
churn_rounds() { # churn_rounds N: N rounds
	t0=$(date +%s%N)
	$NORAND taskset -c "$(nproc --ignore=1)" "$MMTOP" bench churn -t 0 -n "$1" |
		awk '$1 == "cpu-ns" { printf "%.6f\n", $2 / 1e9 }' >"$TMP/cpu"
	t1=$(date +%s%N)
	awk -v d=$((t1 - t0)) -v n="$1" 'BEGIN { printf "%.1f\n", n / (d / 1e9) }'
}
work_churn() { churn_rounds 20000; }
work_fork() { cpu "$MMTOP" bench fork -s 32M -n 40 "$@" | awk '$1 ~ /^[0-9]+$/ { printf "%.1f\n", 1e6 / $3 }'; }
work_forkthp() { work_fork --backing thp; }

# mmtop's arguments for each probe set: a family alone has the others off.
set_args() {
	all="faults mmap_lock contention fork"
	case $1 in
	default) ;;
	exact) echo "--exact" ;;
	pcp) echo "--enable-probe pcp" ;;
	*) for f in $all; do [ "$f" = "$1" ] || printf -- '--disable-probe %s ' "$f"; done ;;
	esac
}

# watch_start SET FILE: mmtop -b -d 1 -f csv with SET's options, in the
# background ($watch, its output $TMP/watch.csv), from when its first
# interval is out; its start-up (the time to that line, less the
# interval) appended to FILE as "start MS".
watch_start() {
	t0=$(date +%s%N)
	# shellcheck disable=SC2046
	"$MMTOP" -b -d 1 -f csv $(set_args "$1") >"$TMP/watch.csv" 2>/dev/null &
	watch=$!
	until grep -q ',total,' "$TMP/watch.csv" 2>/dev/null; do
		kill -0 $watch 2>/dev/null || { echo "mmtop $(set_args "$1") exited before its first interval" >&2; exit 1; }
		sleep 0.01
	done
	echo "start $(( ($(date +%s%N) - t0) / 1000000 - 1000 ))" >>"$2"
}

# run_all SET FILE: every workload once, appending "work throughput cpu";
# with mmtop watching unless SET is "" (untraced).
run_all() {
	if [ "$1" = hooks ]; then
		"$FLOOR" faults mmap_lock contention fork >"$TMP/watch.csv" 2>/dev/null &
		watch=$!
		until grep -q '^ready' "$TMP/watch.csv" 2>/dev/null; do sleep 0.02; done
	elif [ -n "$1" ]; then
		watch_start "$1" "$TMP/start"
	fi
	for w in $WORKS; do
		: >"$TMP/cpu"
		v=$(work_$w)
		echo "$w $v $(cat "$TMP/cpu")" >>"$2"
	done
	if [ -n "$1" ]; then
		kill $watch
		wait $watch 2>/dev/null
		watch=''
		quiet
	fi
}

# busy: "busy idle" jiffies of all CPUs so far (/proc/stat).
busy() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8, $5 + $6 }' /proc/stat; }
# quiet: wait, at most 5 s, for a 0.1-s window with the CPUs less than a
# quarter busy. When mmtop exits the kernel frees its maps and programs
# and unhooks its tracepoints for 0.2-0.3 s here, on any CPU: the run
# after it paid for that (a churn right after took 11% more CPU).
quiet() {
	n=0
	was=$(busy)
	while [ $n -lt 50 ]; do
		sleep 0.1
		now=$(busy)
		echo "$was $now" | awk '{ b = $3 - $1; i = $4 - $2; exit !(b + i > 0 && 4 * b < b + i) }' &&
			return
		was=$now
		n=$((n + 1))
	done
}

# The rows the target is for get PAIRS traced runs; the others, FAMILY_PAIRS.
pairs_of() {
	case $1 in
	none|default|exact) echo "$PAIRS" ;;
	*) echo "$FAMILY_PAIRS" ;;
	esac
}

# median_ci: "median lo hi" of the numbers on stdin, lo-hi the 95%
# confidence interval of the median: the k-th smallest and k-th largest,
# k the largest rank with P(Binomial(n, 1/2) < k) <= 2.5%.
median_ci() {
	sort -g | awk '{ v[NR] = $1 } END {
		if (!NR) exit
		k = 1; p = 0.5 ^ NR; c = p
		for (i = 1; i < NR / 2; i++) {
			p *= (NR - i + 1) / i
			if (c + p > 0.025)
				break
			c += p; k = i + 1
		}
		m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		print m, v[k], v[NR + 1 - k] }'
}

# cells FILE COLUMN: the row of ratio COLUMN (2 wall, 3 cpu) of "work
# wall cpu" lines, a median [95% interval] per work.
cells() {
	for w in $WORKS; do
		awk -v w="$w" -v c="$2" '$1 == w && $c != "" { print $c }' "$1" |
			median_ci >"$TMP/ci"
		printf " %20s" "$(awk '{ printf "%.3f [%.2f-%.2f]", $1, $2, $3 }' "$TMP/ci")"
	done
	echo
}

# mann_whitney: the two-sided p of a Mann-Whitney U test that the numbers
# labelled a and b ("label value" lines on stdin) come from one
# distribution (normal approximation, ties ranked at their mean).
mann_whitney() {
	sort -g -k2 | awk '{ l[NR] = $1; v[NR] = $2 } END {
		for (i = 1; i <= NR; i = j) {
			for (j = i; j <= NR && v[j] == v[i]; j++)
				;
			for (k = i; k < j; k++)
				r[k] = (i + j - 1) / 2
		}
		for (i = 1; i <= NR; i++)
			if (l[i] == "a") { na++; ra += r[i] } else nb++
		if (!na || !nb) { print 1; exit }
		u = ra - na * (na + 1) / 2; mu = na * nb / 2
		sd = sqrt(na * nb * (na + nb + 1) / 12)
		z = (u > mu ? u - mu - 0.5 : mu - u - 0.5) / sd
		if (z < 0) z = 0
		# 2 (1 - Phi(z)) = erfc(z / sqrt(2)), Abramowitz and Stegun 7.1.26
		x = z / sqrt(2); t = 1 / (1 + 0.3275911 * x)
		q = 1.421413741 + t * (-1.453152027 + t * 1.061405429)
		print t * (0.254829592 + t * (-0.284496736 + t * q)) * exp(-x * x) }'
}

# verdict SET_FILE AA_FILE: per work, where the CPU ratios' interval of
# SET_FILE lies against 0.98, and the p that its ratios and the A/A row's
# (AA_FILE) are one distribution.
verdict() {
	printf "%-10s" "verdict"
	for w in $WORKS; do
		p=$({ awk -v w="$w" '$1 == w && $3 != "" { print "a", $3 }' "$1"
			awk -v w="$w" '$1 == w && $3 != "" { print "b", $3 }' "$2"; } | mann_whitney)
		awk -v w="$w" '$1 == w && $3 != "" { print $3 }' "$1" | median_ci |
			awk -v p="$p" '{ if ($2 >= 0.98) v = ">= 0.98"; else if ($3 < 0.98) v = "BELOW"
				else v = "noise"; printf " %20s", sprintf("%s, A/A p=%.2f", v, p) }
				END { if (!NR) printf " %20s", "-" }'
	done
	echo
}

header() {
	printf "%-10s" set
	for w in $WORKS; do printf " %20s" "$w"; done
	echo
}

# pair_ratios SET N: N runs of run_all with SET watching (none: untraced
# too, the A/A row), each between two untraced runs (U T U T ... U, N + 1
# untraced): "work wall cpu" ratios of each traced run against the
# geometric mean of its two untraced neighbours in $TMP/ratios, the
# untraced runs' lines added to $TMP/untraced. Against both neighbours a
# drift of the host's over the three runs cancels: the ratios' spread
# here was 15-25% smaller than against one neighbour. (Neighbouring
# ratios share an untraced run, so the median's interval is a little
# narrower than it should be.)
pair_ratios() {
	traced=$1
	[ "$1" = none ] && traced=''
	: >"$TMP/ratios"
	: >"$TMP/before"
	run_all '' "$TMP/before"
	cat "$TMP/before" >>"$TMP/untraced"
	i=0
	while [ $i -lt "$2" ]; do
		: >"$TMP/traced"
		: >"$TMP/after"
		run_all "$traced" "$TMP/traced"
		run_all '' "$TMP/after"
		cat "$TMP/after" >>"$TMP/untraced"
		awk 'FILENAME == ARGV[1] { b[$1] = $2; c[$1] = $3; next }
			FILENAME == ARGV[2] { a[$1] = $2; d[$1] = $3; next }
			b[$1] > 0 && a[$1] > 0 { printf "%s %s %s\n", $1, $2 / sqrt(b[$1] * a[$1]),
				($3 > 0 ? sqrt(c[$1] * d[$1]) / $3 : "") }' \
			"$TMP/before" "$TMP/after" "$TMP/traced" >>"$TMP/ratios"
		mv "$TMP/after" "$TMP/before"
		i=$((i + 1))
	done
}

echo "matrix: traced/untraced throughput (wall time), median [95% interval] of $PAIRS traced runs ($FAMILY_PAIRS for a family alone or the hooks), each against its untraced neighbours"
work_faults >/dev/null	# warm-up: the first touches of guest memory are slow
header
: >"$TMP/start"
: >"$TMP/cpu_rows"
: >"$TMP/untraced"
for set in $SETS; do
	pair_ratios "$set" "$(pairs_of "$set")"
	printf "%-10s" "$set"
	cells "$TMP/ratios" 2
	{ printf "%-10s" "$set"; cells "$TMP/ratios" 3; } >>"$TMP/cpu_rows"
	cp "$TMP/ratios" "$TMP/ratios_$set"
done
echo "matrix: untraced/traced CPU time of the work (user + system) for the same operations, median [95% interval]"
header
cat "$TMP/cpu_rows"
[ -f "$TMP/ratios_default" ] && [ -f "$TMP/ratios_none" ] &&
	verdict "$TMP/ratios_default" "$TMP/ratios_none"
awk '{ print $2 }' "$TMP/start" | median >"$TMP/startmed"
[ -s "$TMP/start" ] && printf "start-up (to the first interval, less the interval): median %s ms, max %s ms (%d starts; target 500)\n" \
	"$(cat "$TMP/startmed")" "$(awk '{ print $2 }' "$TMP/start" | sort -g | tail -1)" \
	"$(wc -l <"$TMP/start")"

# Start-up as #55 states it: the default set, on an idle machine, ten
# starts, each after the last one's exit has settled (quiet).
: >"$TMP/idle_start"
for i in 1 2 3 4 5 6 7 8 9 10; do
	quiet
	watch_start default "$TMP/idle_start"
	kill $watch
	wait $watch 2>/dev/null
done
watch=''
quiet
printf "start-up, default set, idle (to the first interval, less the interval): median %s ms, max %s ms (10 starts; target 250)\n" \
	"$(awk '{ print $2 }' "$TMP/idle_start" | median)" \
	"$(awk '{ print $2 }' "$TMP/idle_start" | sort -g | tail -1)"

# Program runs per mmap_lock call, free of the machine's noise: a churn of
# 20000 rounds alone (120001 calls: mmap, mprotect, mremap, munmap, two
# brk), with mmtop watching, by the kernel's statistics (mmtop's JSON
# bpf_runs over the run). The default set runs nothing per acquisition
# (target: at most 0.01 a call); exact mode runs two per acquisition.
runs_per_call() { # runs_per_call ARGS: "runs calls" with mmtop ARGS watching
	"$MMTOP" -b -f json -d 0.5 "$@" -- sh -c '"$0" bench churn -t 0 -n 20000 >"$1"' \
		"$MMTOP" "$TMP/rpc.out" >"$TMP/rpc.json" 2>/dev/null
	echo "$(grep -o '"bpf_runs":[0-9]*' "$TMP/rpc.json" | awk -F: '{ s += $2 } END { print s + 0 }')" \
		"$(awk '$1 ~ /^(mmap|munmap|mprotect|mremap|brk)$/ { s += $2 } END { print s + 0 }' "$TMP/rpc.out")"
}
for set in default exact; do
	# shellcheck disable=SC2046
	runs_per_call $(set_args $set) | awk -v s="$set" '{
		printf "program runs per uncontended mmap_lock call (one-thread churn), %s: %.4f (%d runs, %d calls)%s\n",
			s, $2 ? $1 / $2 : 0, $1, $2, s == "default" ? "; target <= 0.01" : "" }'
done

# What a cycle (exact mode on, then off: the kernel patches every inlined
# mmap_lock call twice) costs a work on another CPU, which the programs'
# run-time statistics miss. A churn of 100000 rounds on the last CPU
# alone, and beside mmtop with --exact-every 2 at 0.1-s intervals (a cycle
# every other interval), alternating CYCLE_ROUNDS times. Per cycle: the
# churn's added CPU time less the programs' own run time in the exact
# intervals (bpf_ns: the churn's acquisitions, while attached), against
# mmtop's own bound of a cycle (attach_ns: its CPU, and the other CPUs'
# for as long as it took).
CYCLE_ROUNDS=${CYCLE_ROUNDS:-5}
# cycle_sum FILE FROM TO: "cycles attach_ns bpf_ns" of mmtop's JSON lines
# FROM to TO: its intervals that paid a cycle, what they counted of it and
# what its programs ran in them.
cycle_sum() {
	sed -n "$2,$3p" "$1" | awk '{ a = $0; sub(/.*"attach_ns":/, "", a); a += 0
		b = $0; sub(/.*"bpf_ns":/, "", b); b += 0
		if (a > 0) { n++; s += a; p += b } } END { print n + 0, s + 0, p + 0 }'
}
long_churn() { churn_rounds 100000 >/dev/null && cat "$TMP/cpu"; }
# cycles_beside: "churn_cpu_s cycles attach_ns bpf_ns" with mmtop cycling.
cycles_beside() {
	"$MMTOP" -b -d 0.1 -f json --exact-every 2 >"$TMP/cycle.json" 2>/dev/null &
	watch=$!
	until grep -q '"seq":2,' "$TMP/cycle.json" 2>/dev/null; do sleep 0.02; done
	n0=$(wc -l <"$TMP/cycle.json")
	c=$(long_churn)
	n1=$(wc -l <"$TMP/cycle.json")
	kill $watch
	wait $watch 2>/dev/null
	watch=''
	echo "$c $(cycle_sum "$TMP/cycle.json" $((n0 + 1)) "$n1")"
}
: >"$TMP/cycles"
i=0
while [ $i -lt "$CYCLE_ROUNDS" ]; do
	if [ $((i % 2)) -eq 0 ]; then
		echo "$(long_churn) $(cycles_beside)"
	else
		b=$(cycles_beside)
		echo "$(long_churn) $b"
	fi >>"$TMP/cycles"
	i=$((i + 1))
done
awk '$3 > 0 { print (($2 - $1) * 1e9 - $5) / $3 / 1e6 }' "$TMP/cycles" | sort -g >"$TMP/per_cycle"
awk '$3 > 0 { print $4 / $3 / 1e6 }' "$TMP/cycles" >"$TMP/bound"
printf "a cycle (exact mode on and off), to a churn on the other CPU, beyond the programs' run: %.1f ms of its CPU, median (%.1f-%.1f) of %d; mmtop's bound (attach_ns): %.1f ms\n" \
	"$(median <"$TMP/per_cycle")" "$(head -1 "$TMP/per_cycle")" "$(tail -1 "$TMP/per_cycle")" \
	"$(wc -l <"$TMP/per_cycle")" "$(median <"$TMP/bound")"

# Per program: what each of the default set's programs costs per run, by
# the kernel's own accounting (kernel.bpf_stats_enabled, which adds some
# ns per run of its own), under each work run once; and their sum against
# the work's wall time. Steadier than the ratios: no untraced twin.
# The only program per context switch is --vma-waits' VMA-sleep check (6.15+).
# own_stats PID: "id run_time_ns run_cnt" of each BPF program PID holds
# (another mmtop on the machine has programs of the same names).
own_stats() {
	for fd in $(ls -l "/proc/$1/fd" 2>/dev/null | awk '/bpf-prog/ { print $9 }'); do
		awk '/^prog_id/ { i = $2 } /^run_time_ns/ { t = $2 } /^run_cnt/ { c = $2 }
			END { print i, t, c }' "/proc/$1/fdinfo/$fd"
	done
}
prog_stats() { # prog_stats PID: "name run_time_ns run_cnt" of each program PID holds
	own_stats "$1" >"$TMP/own"
	bpftool prog show 2>/dev/null | awk 'NR == FNR { t[$1] = $2; c[$1] = $3; next }
		/ name / { id = $1; sub(":", "", id)
			for (i = 1; i < NF; i++) if ($i == "name") n = $(i + 1)
			if (id in c) print n, t[id], c[id] }' "$TMP/own" -
}
# per_program READY CMD...: with CMD watching (ready once its output
# matches READY), each work once: "work name ns (runs) ..." per line.
per_program() {
	ready=$1
	shift
	"$@" >"$TMP/watch.csv" 2>/dev/null &
	watch=$!
	until grep -q "$ready" "$TMP/watch.csv" 2>/dev/null; do sleep 0.02; done
	for w in $WORKS; do
		prog_stats $watch >"$TMP/p0"
		t0=$(date +%s%N)
		"work_$w" >/dev/null
		t1=$(date +%s%N)
		prog_stats $watch >"$TMP/p1"
		awk -v w="$w" -v wall=$(((t1 - t0) / 1000)) \
			'NR == FNR { t[$1] = $2; c[$1] = $3; next }
			$3 > c[$1] { n = $3 - c[$1]; d = $2 - t[$1]; sum += d
				line = line sprintf(" %s %.0f (%d)", $1, d / n, n) }
			END { printf "%-9s%s; %.1f ms in programs in a %.1f ms run\n", w, line, sum / 1e6, wall / 1e3 }' \
			"$TMP/p0" "$TMP/p1"
	done
	kill $watch
	wait $watch 2>/dev/null
	watch=''
}
# per_unit FILE WORK ACQ REL: ns per acquisition (ACQ's runs and REL's,
# per run of REL) or, without REL, per run of ACQ, from per_program lines.
per_unit() {
	awk -v w="$2" -v a="$3" -v r="$4" '$1 == w { for (i = 2; i < NF; i++) {
			if ($i == a) { an = $(i + 2); gsub(/[()]/, "", an); at = $(i + 1) * an }
			if ($i == r) { rn = $(i + 2); gsub(/[()]/, "", rn); rt = $(i + 1) * rn } } }
		END { if (r == "") printf "%.0f", at / an; else printf "%.0f", (at + rt) / rn }' "$1"
}
stats_was=$(sysctl -n kernel.bpf_stats_enabled 2>/dev/null)
if [ -n "$stats_was" ] && sysctl -qw kernel.bpf_stats_enabled=1 2>/dev/null; then
	echo "per program (default set, kernel.bpf_stats_enabled): ns per run (runs) during one run of each work"
	per_program ',total,' "$MMTOP" -b -d 1 -f csv
	# bpf_stats charges a program its own clock reads and the call: the
	# floor's empty programs on the same tracepoints, under the same works.
	echo "the same, empty programs on the same tracepoints (make bench's floor)"
	per_program '^ready' "$FLOOR" faults mmap_lock contention fork exact
	# Per acquisition and per switch, mmtop's and the floor's alternating,
	# 5 times: one run of a work is at the mercy of a neighbour's burst.
	works=$WORKS
	WORKS="churn ctxsw"
	: >"$TMP/units"
	for i in 1 2 3 4 5; do
		per_program ',total,' "$MMTOP" -b -d 1 -f csv --exact --vma-waits >"$TMP/pm"
		per_program '^ready' "$FLOOR" faults mmap_lock contention fork exact vmawaits >"$TMP/pf"
		echo "$(per_unit "$TMP/pm" churn mmap_lock_acquired mmap_lock_released)" \
			"$(per_unit "$TMP/pf" churn floor_exact_acquired floor_exact_released)" \
			"$(per_unit "$TMP/pm" ctxsw contention_vma_sleep)" \
			"$(per_unit "$TMP/pf" ctxsw floor_vmawaits_switch)" >>"$TMP/units"
	done
	WORKS=$works
	# spread FILE: "median (min-max)" of its numbers
	spread() {
		printf "%s (%s-%s)" "$(median <"$1")" "$(sort -g "$1" | head -1)" "$(sort -g "$1" | tail -1)"
	}
	unit_line() { # unit_line WHAT COLUMN TARGET: COLUMN mmtop's, the next the floor's
		awk -v c="$2" '{ print $c }' "$TMP/units" >"$TMP/all"
		awk -v c="$2" '{ print $(c + 1) }' "$TMP/units" >"$TMP/empty"
		awk -v c="$2" '{ print $c - $(c + 1) }' "$TMP/units" >"$TMP/net"
		echo "$1, ns, median (min-max) of 5: $(spread "$TMP/all") in all," \
			"$(spread "$TMP/empty") empty, $(spread "$TMP/net") net (target $3)"
	}
	unit_line "per mmap_lock acquisition (churn)" 1 250
	unit_line "per context switch (ctxsw, --vma-waits)" 3 80
	# The model figure: what mmtop's programs add to a work, over the work's
	# own untraced CPU time (the matrix's median): their time (bpf_stats)
	# and the hooks' entries (runs x the floor's empty programs' ns per run
	# under the same work), for the default set and --exact. Nothing is
	# attached or detached while either runs.
	echo "model: CPU added by the programs over the work's untraced CPU time ((programs' ns + runs x empty ns per run) / untraced ns)"
	per_program '^ready' "$FLOOR" faults mmap_lock contention fork exact >"$TMP/pf"
	header
	for set in default exact; do
		# shellcheck disable=SC2046
		per_program '"seq":1,' "$MMTOP" -b -d 1 -f json $(set_args $set) >"$TMP/pm"
		printf "%-10s" "$set"
		for w in $WORKS; do
			awk -v w="$w" '$1 == w' "$TMP/untraced" | awk '{ print $3 }' | median >"$TMP/ucpu"
			awk -v w="$w" -v u="$(cat "$TMP/ucpu")" 'FNR == 1 { file++ }
				$1 == w { for (i = 2; i < NF; i++) if ($(i + 1) ~ /^\([0-9]+\)/) {
						n = $(i + 1); gsub(/[();]/, "", n)
						if (file == 1) { fns += $i * n; fn += n } else { ns += $i * n; runs += n } } }
				END { floor = fn ? fns / fn : 0
					if (u > 0) printf " %20s", sprintf("%.2f%%", 100 * (ns + runs * floor) / (u * 1e9))
					else printf " %20s", "-" }' "$TMP/pf" "$TMP/pm"
		done
		echo
	done
	sysctl -qw kernel.bpf_stats_enabled="$stats_was"
fi

# The price of a wait: a contended churn (two writers, a fault thread that
# maps its chunks afresh, and a /proc reader holding the process's
# mmap_lock from outside: the writers queue behind it and each other,
# thousands of waits), watched by each of: the floor (empty programs on
# contention_begin and _end: the cost of being called, and bpf_stats' own
# clock reads), the timed floor (the least that times each wait exactly:
# its start in the task's storage, its length into one shared row, as
# mmtop's rows take it; what this machine charges for timing a wait at
# all), the default set with a step of its wait left out
# (MMTOP_BENCH_SKIP: what each step costs is the difference to the whole),
# the default set, and exact mode. Per set, by the kernel's statistics of
# the watcher's own programs (another mmtop may run): ns per program run,
# runs, and their time over the work's CPU time (user + system, the /proc
# reader included); and the work's CPU time untraced over traced, each
# traced run against its two untraced neighbours, with the A/A row
# ("none"). Medians of WAIT_PAIRS runs, each the watcher's second churn
# (see wait_watched: the first learns the frames, once). Target for the
# default set: 500 ns a run, 2% of the work's CPU.
WAIT_PAIRS=${WAIT_PAIRS:-7}
contended() {
	cpu "$MMTOP" bench churn -t 1 --writers 2 --proc-reader -n 20000 >/dev/null
}
# own_delta BEFORE AFTER: "ns runs" the programs of two own_stats added.
own_delta() {
	awk 'NR == FNR { t[$1] = $2; c[$1] = $3; next }
		{ ns += $2 - t[$1]; runs += $3 - c[$1] } END { print ns, runs }' "$1" "$2"
}
# wait_watched SET: one contended run under SET, "ns runs cpu_s" appended
# to $TMP/wait_SET (cpu_s alone for none: untraced). The watcher's first
# churn is a warm-up: the first wait through each stack frame and at each
# call site takes a full unwind, once for as long as mmtop runs (about 75
# here, some 2 ms); its "ns runs" go to $TMP/warm_SET, and the run after
# it is the one measured, the cost of a wait from then on.
wait_watched() {
	skip='' ready=',total,'
	case $1 in
	none) : >"$TMP/cpu"; contended; cat "$TMP/cpu" >>"$TMP/wait_none"; return ;;
	floor) set -- floor "$FLOOR" contention mmap_lock; ready='^ready' ;;
	timed) set -- timed "$FLOOR" timed; ready='^ready' ;;
	exact) set -- exact "$MMTOP" -b -d 1 -f csv --exact ;;
	default) set -- default "$MMTOP" -b -d 1 -f csv ;;
	*) skip=${1#-}; set -- "$1" "$MMTOP" -b -d 1 -f csv ;;
	esac
	name=$1
	shift
	MMTOP_BENCH_SKIP=$skip "$@" >"$TMP/watch.csv" 2>/dev/null &
	watch=$!
	until grep -q "$ready" "$TMP/watch.csv" 2>/dev/null; do sleep 0.02; done
	own_stats $watch >"$TMP/w0"
	contended
	own_stats $watch >"$TMP/s0"
	own_delta "$TMP/w0" "$TMP/s0" >>"$TMP/warm_$name"
	quiet
	: >"$TMP/cpu"
	contended
	own_stats $watch >"$TMP/s1"
	kill $watch
	wait $watch 2>/dev/null
	watch=''
	quiet
	# The untraced run before it, by its line: the one after is the next.
	echo "$(own_delta "$TMP/s0" "$TMP/s1") $(cat "$TMP/cpu") $(wc -l <"$TMP/wait_none")" \
		>>"$TMP/wait_$name"
}
WAIT_SETS=${WAIT_SETS:-"floor timed -owner -site -rows -slot default exact"}
stats_was=$(sysctl -n kernel.bpf_stats_enabled 2>/dev/null)
if [ -n "$stats_was" ] && sysctl -qw kernel.bpf_stats_enabled=1 2>/dev/null; then
	for set in none $WAIT_SETS; do : >"$TMP/wait_$set"; : >"$TMP/warm_$set"; done
	i=0
	while [ $i -lt "$WAIT_PAIRS" ]; do
		for set in $WAIT_SETS; do
			wait_watched none
			wait_watched "$set"
		done
		i=$((i + 1))
	done
	wait_watched none
	sysctl -qw kernel.bpf_stats_enabled="$stats_was"
	untraced=$(awk '{ print $1 }' "$TMP/wait_none" | median)
	echo "the price of a wait: contended churn (bench churn -t 1 --writers 2 --proc-reader), median of $WAIT_PAIRS runs each (untraced: $untraced s CPU)"
	printf "%-16s %12s %10s %14s %22s\n" set "ns a run" runs "share of CPU" "CPU untraced/traced"
	# The A/A row: each untraced run against its neighbours'.
	awk '{ v[NR] = $1 } END { for (i = 2; i < NR; i++) print sqrt(v[i - 1] * v[i + 1]) / v[i] }' \
		"$TMP/wait_none" | median_ci >"$TMP/ci"
	printf "%-16s %12s %10s %14s %22s\n" "none (A/A)" - - - \
		"$(awk '{ printf "%.3f [%.2f-%.2f]", $1, $2, $3 }' "$TMP/ci")"
	for set in $WAIT_SETS; do
		case $set in -*) label="default ${set}" ;; *) label=$set ;; esac
		ns=$(awk '$2 > 0 { print $1 / $2 }' "$TMP/wait_$set" | median)
		runs=$(awk '{ print $2 }' "$TMP/wait_$set" | median)
		share=$(awk '$3 > 0 { print 100 * $1 / ($3 * 1e9) }' "$TMP/wait_$set" | median)
		# Against the geometric mean of its two untraced neighbours.
		awk 'NR == FNR { u[NR] = $1; next }
			$3 > 0 && u[$4] > 0 && u[$4 + 1] > 0 { print sqrt(u[$4] * u[$4 + 1]) / $3 }' \
			"$TMP/wait_none" "$TMP/wait_$set" | median_ci >"$TMP/ci"
		printf "%-16s %12.0f %10.0f %13.2f%% %22s\n" "$label" "${ns:-0}" "${runs:-0}" "${share:-0}" \
			"$(awk '{ printf "%.3f [%.2f-%.2f]", $1, $2, $3 }' "$TMP/ci")"
	done
	echo "(a step's cost: the default set's ns a run less the row without it; target for the default set: 500 ns a run, 2% of the work's CPU)"
	# The warm-up: what learning the frames added, once, over a run's cost.
	awk '$2 > 0 { print $1 / $2 }' "$TMP/warm_default" | median >"$TMP/wns"
	ns=$(awk '$2 > 0 { print $1 / $2 }' "$TMP/wait_default" | median)
	echo "the default set's first churn (a full unwind at each new frame and site, once): $(awk '{ printf "%.0f", $1 }' "$TMP/wns") ns a run, $(awk -v n="${ns:-0}" '$2 > 0 { print ($1 - n * $2) / 1e6 }' "$TMP/warm_default" | median | awk '{ printf "%.2f", $1 }') ms more than at the measured run's rate"
	# What the default set knows of a wait beyond its length, priced.
	timed=$(awk '$2 > 0 { print $1 / $2 }' "$TMP/wait_timed" 2>/dev/null | median)
	[ -n "$timed" ] && echo "timing each wait alone (timed) costs $(printf %.0f "$timed") ns a run here; the default set's site, class, holder and row add $(awk -v d="${ns:-0}" -v t="$timed" 'BEGIN { printf "%.0f", d - t }') ns a run to it"
fi

# mmtop's own cost: CPU time on the clock of the scheduler (schedstat, in
# ns) over N intervals while one pft process keeps faulting, counted from
# its first interval (start-up excluded), and its memory: peak (start-up
# included, when libbpf parses the kernel's BTF) and at the end.
N=${INTERVALS:-10}
# under_load PID: PID's CPU ns over N s of that load, its peak and last RSS
# (KiB), into $TMP/load ($load is this shell's, for cleanup()).
under_load() {
	"$MMTOP" bench pft -t 2 -s "$SIZE" -r 100000 >/dev/null &
	load=$!
	cpu0=$(cut -d' ' -f1 /proc/"$1"/schedstat)
	sleep "$N"
	cpu1=$(cut -d' ' -f1 /proc/"$1"/schedstat)
	echo $((cpu1 - cpu0)) "$(awk '/^VmHWM/ { print $2 }' /proc/"$1"/status)" \
		"$(awk '/^VmRSS/ { print $2 }' /proc/"$1"/status)" >"$TMP/load"
	kill $load
	wait $load 2>/dev/null
	load=''
}
# batch_cost: `mmtop -b -d 1` under that load; prints its CPU ns over the N
# intervals, peak and last RSS (KiB), and ms from start to first interval.
batch_cost() {
	: >"$TMP/own"
	t0=$(date +%s%N)
	"$MMTOP" -b -d 1 >>"$TMP/own" &
	watch=$!
	while [ ! -s "$TMP/own" ]; do sleep 0.02; done
	first=$(( ($(date +%s%N) - t0) / 1000000 ))
	under_load $watch
	echo "$(cat "$TMP/load")" "$first"
	kill $watch
	watch=''
}
# shellcheck disable=SC2046
set -- $(batch_cost)
awk -v c="$1" -v n="$N" -v h="$2" -v r="$3" 'BEGIN {
	printf "mmtop -b -d 1 (default set) under pft load: %.3f ms CPU per interval (%.3f%% of one core, target <= 1%%)\n",
		c / n / 1e6, c / n / 1e7
	printf "mmtop memory: RSS %.1f MiB, peak %.1f MiB (target < 32)\n", r / 1024, h / 1024 }'

# The same with 2000 more processes alive (sleeping): user space must not
# grow badly with the process count.
i=0
while [ $i -lt 2000 ]; do
	sleep 600 &
	crowd="$crowd $!"
	i=$((i + 1))
done
# shellcheck disable=SC2046
set -- $(batch_cost)
# shellcheck disable=SC2086
kill $crowd 2>/dev/null
crowd=''
awk -v c="$1" -v n="$N" -v h="$2" -v f="$4" 'BEGIN {
	printf "mmtop -b -d 1 with 2000 more processes: %.3f ms CPU per interval (%.3f%% of one core), peak RSS %.1f MiB, start-up %d ms (first interval less the interval)\n",
		c / n / 1e6, c / n / 1e7, h / 1024, f - 1000 }'

# 10,000 live processes that each waited on their own mmap_lock, idle
# (tests/bench/many_procs.sh): nothing of mmtop's grows across intervals.
MMTOP=$MMTOP INTERVALS=$N sh tests/bench/many_procs.sh

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
under_load $watch
i=0
while [ $i -lt "$SCRAPES" ]; do
	curl -sf -o "$TMP/scrape" "$url"
	awk '$1 == "mmtop_scrape_duration_seconds" { print $2 }' "$TMP/scrape" >>"$TMP/render"
	i=$((i + 1))
done
rss=$(awk '/^VmRSS/ { print $2 }' /proc/$watch/status)
kill $watch
series=$(grep -vc '^#' "$TMP/scrape")
awk -v c="$(cut -d' ' -f1 "$TMP/load")" -v n="$N" -v s="$(awk '{ s += $1 } END { print s / NR * 1e9 }' "$TMP/render")" \
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
	under_load "$watch"
	# shellcheck disable=SC2046
	set -- $(cat "$TMP/load")
	tmux kill-server
	awk -v c="$1" -v n="$N" -v r="$3" 'BEGIN {
		printf "mmtop viewer at -d 1 under pft load: %.3f ms CPU per interval (%.3f%% of one core, target <= 1%%), RSS %.1f MiB\n",
			c / n / 1e6, c / n / 1e7, r / 1024 }'
fi

# mmtop's own cost against the machine's possible CPUs: tests/vm/cost.sh
# in guests of one kernel under TCG, of 2 CPUs and of two nodes of
# GUEST_CPUS (64 and 128: single-threaded TCG boots them here; 240 took
# minutes). Emulated CPU time is slower than this machine's: the ratio
# to the 2-CPU guest is the figure; memory is real. Target: flat (start-up
# and CPU an interval within 1.2x at 64 CPUs; the maps 16 MiB at most).
GUEST_CPUS=${GUEST_CPUS:-"64 128"}
GUEST_LIVE=${GUEST_LIVE:-1000}
if [ "$(uname -m)" = x86_64 ] && command -v qemu-system-x86_64 >/dev/null; then
	. tests/vm/vm.sh
	kernel=$(vm_kernel $VM_MACHINE_KERNEL 2>"$TMP/err")
	if [ -n "$kernel" ] &&
	   vm_initramfs "$TMP/initrd.gz" "$MMTOP" tests/lib.sh tests/vm/cost.sh \
		build/tests/tools/waiters 2>"$TMP/err"; then
		: >"$TMP/cost"
		for cpus in 2 $GUEST_CPUS; do
			VM_SMP='' VM_MEM='' VM_QEMU=''
			[ "$cpus" = 2 ] || vm_two_nodes "$cpus"
			vm_boot x86_64 tcg "$kernel" "$TMP/initrd.gz" 900 CHECKS=tests/vm/cost.sh \
				LIVE="$GUEST_LIVE" | grep "^# mmtop's own cost" | paste -d' ' - - >>"$TMP/cost"
		done
		VM_SMP='' VM_MEM='' VM_QEMU=''
		echo "own cost against possible CPUs ($(vm_release "$kernel"), TCG guests; x: against 2 CPUs, in units of the guest's yardstick loop (tests/vm/cost.sh): its CPU time for CPU times, its wall time for the start-up (wall: the start-up's plain ratio); live: with $GUEST_LIVE more processes whose rows mmtop holds, at -d 1)"
		printf "%6s %28s %22s %24s %14s %20s\n" CPUs start-up "CPU an interval" "live: CPU an interval" "peak RSS" "maps (kernel)"
		sed 's/[,:]/ /g' "$TMP/cost" | awk '{
			for (i = 2; i < NF; i++) {
				if ($(i + 1) == "possible" && !cpus) cpus = $i
				else if ($i == "start-up") st = $(i + 1)
				else if ($(i + 1) == "ms" && $(i + 2) == "CPU") ms = $i
				else if ($(i + 1) == "us" && $(i + 2) == "CPU") live = $i / 1000
				else if ($i == "RSS") rss = $(i + 1)
				else if ($i == "maps") b = $(i + 1)
				else if ($i == "ref" && $(i + 1) == "wall") refwall = $(i + 2)
				else if ($i == "ref" && !ref) ref = $(i + 1)
			}
			if (NR == 1) { st1 = st / refwall; stw1 = st; ms1 = ms / ref; rss1 = rss; b1 = b; live1 = live / ref }
			printf "%6d %10d ms x%.2f (wall x%.2f) %13.2f ms x%.2f %15.2f ms x%.2f %7d MiB x%.2f %11.2f MiB x%.3f\n",
				cpus, st, st / refwall / st1, st / stw1, ms, ms / ref / ms1, live, live / ref / live1,
				rss, rss / rss1, b / 1048576, b / b1
			cpus = ref = 0 }'
		echo "(live: mmap_lock rows of $(sed 's/.*mmap_lock rows of \([0-9]*\) processes.*/\1/' "$TMP/cost" | tr '\n' ' ')processes)"
	else
		echo "own cost against possible CPUs: no guest ($(cat "$TMP/err"))"
	fi
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
	printf "recording (format 2.9) at -d 1: idle %d bytes/interval (%.1f MB/day), under bench churn with forks %d bytes/interval (%.1f MB/day)\n",
		i, i * 86400 / 1e6, b, b * 86400 / 1e6 }'

# The HTML report of a day of 1-s intervals (tests/tools/synth_rec.c, with
# a spike and an hour's gap): the time to write it, its size, and the time
# headless Chromium takes from navigation to its load event.
build/tests/tools/synth_rec "$TMP/day.rec" 86400 50000 30000 3600
t0=$(date +%s%N)
"$MMTOP" report --html -o "$TMP/day.html" "$TMP/day.rec"
t1=$(date +%s%N)
shown=$(python3 tests/browser.py "$TMP/day.html" | sed -n 's/^load_ms=//p')
awk -v d=$((t1 - t0)) -v s="$(stat -c %s "$TMP/day.html")" -v l="$shown" 'BEGIN {
	printf "report --html of a day of 1-s intervals: written in %.2f s, %.2f MB, loaded by Chromium in %d ms (targets: 5 s, 5 MB, 2 s)\n",
		d / 1e9, s / 1e6, l }'

# Under hostile load: ten unprivileged processes, each a fault thread
# against mmap, mprotect, mremap, munmap and brk, forking every few ms.
# mmtop must keep time: its first interval soon after start, every later one
# on time; and lose no record.
HOSTILE=${HOSTILE:-10}
as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
crowd=''
i=0
while [ $i -lt "$HOSTILE" ]; do
	as_nobody sh -c 'while :; do "$0" bench churn -t 1 -n 2000 --fork 100 >/dev/null; done' \
		"$(readlink -f "$MMTOP")" &
	crowd="$crowd $!"
	i=$((i + 1))
done
sleep 1	# let the load build up
t0=$(date +%s%N)
# Each line stamped as it arrives by a reader that keeps up: a shell's read
# takes a pipe a byte at a time, and the lines here are megabytes.
"$MMTOP" -b -d 1 -n "$N" -f json |
	perl -MTime::HiRes=time -ne 'printf "%d %s", time * 1e9, $_' >"$TMP/hostile" 2>&1
# shellcheck disable=SC2086
kill $crowd 2>/dev/null
pkill -u 65534 -f "bench churn" 2>/dev/null
crowd=''
awk -v t0="$t0" '{ t[NR] = $1 } /"drops":/ { d = $0; sub(/.*"drops":\{/, "", d); sub(/\}.*/, "", d) }
	/"forks":\[/ { n += gsub(/"syscall":/, "&") }
	END {
		lo = 1e18; hi = 0
		for (i = 2; i <= NR; i++) { g = (t[i] - t[i - 1]) / 1e9; if (g < lo) lo = g; if (g > hi) hi = g }
		printf "hostile load (%d unprivileged churn+fork loops): start-up %.0f ms (first interval less the interval; target 1500), then every %.2f-%.2f s (%d intervals), %d fork records; drops at the end: %s\n",
			'"$HOSTILE"', (t[1] - t0) / 1e6 - 1000, lo, hi, NR, n, d }' "$TMP/hostile"

# A fork storm: 5000 forks (fork+exit of a small process) as fast as they
# go, watched with the default map sizes: every fork recorded, nothing lost.
"$MMTOP" -b -d 1 -f json >"$TMP/storm.json" 2>&1 &
watch=$!
until grep -q '"seq":1,' "$TMP/storm.json" 2>/dev/null; do sleep 0.05; done
t0=$(date +%s%N)
"$MMTOP" bench fork -s 1M -n 5000 >"$TMP/storm.out"
t1=$(date +%s%N)
sleep 2.2	# two more intervals: the last forks' records are out
kill -INT $watch
wait $watch 2>/dev/null
watch=''
pid=$(sed -n 's/^# fork: pid \([0-9]*\),.*/\1/p' "$TMP/storm.out")
got=$(grep -o "\"pid\":$pid,\"tid\":$pid,\"comm\":\"fork-4k\",\"child\"" "$TMP/storm.json" | wc -l)
drops=$(tail -n 1 "$TMP/storm.json" | sed 's/.*"drops":{\([^}]*\)}.*/\1/')
printf "fork storm: 5000 forks in %.1f s, %d fork records; drops: %s\n" \
	"$(awk -v d=$((t1 - t0)) 'BEGIN { print d / 1e9 }')" "$got" "$drops"

# 4. The soak (its verdicts are lines of the table, not a test's result).
echo
echo "== soak: $([ -n "${QUICK:-}" ] && echo 3 || echo "${SOAK_MINUTES:-60}") minutes of 50 short-lived processes a second under mmtop -b -d 0.2"
if [ -n "${QUICK:-}" ]; then
	SOAK_MINUTES=3 SPAWN=build/tests/tools/spawn sh tests/integration/soak.sh
else
	SOAK_MINUTES=${SOAK_MINUTES:-60} SOAK_WINDOW=10 SOAK_CPU="1.1 0" \
		SPAWN=build/tests/tools/spawn sh tests/integration/soak.sh
fi | sed 's/^PASS /flat: /; s/^FAIL /GREW: /; s/^# soak: //'
