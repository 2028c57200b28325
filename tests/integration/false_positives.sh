# compare's false-positive rate: A/A pairs of the built-in workloads must
# be marked significant no more often than the rate compare names under
# its table, within what chance allows: a count chance reaches less than
# once in a thousand fails. Each side of a pair is a directory of RUNS
# runs of one command, one repetition each, the two sides' runs
# interleaved in time, as mmtop(8) tells users to compare small
# differences: each sample is then a run, and what differs from one run
# to the next (what ran before, where its memory came from, a slow spell
# of the machine) is in the samples the t-test sees. Samples of one run
# share it: 5 repetitions per run, one run a side, marked 16-22 of 80.
. tests/lib.sh

PAIRS=20
RUNS=5
# run SIDE PAIR RUN: one run of each workload into the side's directory.
run() {
	d=$TMP/$1$2
	mkdir -p "$d/pft" "$d/fork"
	"$MMTOP" bench pft -s 8M -r 1 --record "$d/pft/$3.rec" --label "$1" >/dev/null &&
		"$MMTOP" bench fork -s 8M -n 4 --iterations 1 --record "$d/fork/$3.rec" \
			--label "$1" >/dev/null || fail "A/A: bench run $1 $2 $3 failed"
}
p=1
while [ $p -le $PAIRS ]; do
	r=1
	while [ $r -le $RUNS ]; do
		run a $p $r
		run b $p $r
		r=$((r + 1))
	done
	p=$((p + 1))
done

# marks WORKLOAD: "MARKED TESTED RATE" summed over its PAIRS pairs, from
# the line compare prints under its table.
marks() {
	p=1
	while [ $p -le $PAIRS ]; do
		"$MMTOP" compare "$TMP/a$p/$1" "$TMP/b$p/$1" 2>/dev/null
		p=$((p + 1))
	done | sed -n 's/^# \* p < \([0-9.]*\) .*; \([0-9]*\) of \([0-9]*\) marked here$/\2 \3 \1/p' |
		awk '{ m += $1; t += $2; p = $3; n++ } END { print m + 0, t + 0, p, n + 0 }'
}

# The least count k with P(X >= k) < 0.001 for X ~ Binomial(n, p).
limit() {
	awk -v n="$1" -v p="$2" 'BEGIN {
		q = (1 - p) ^ n; cdf = 0
		for (k = 0; k <= n; k++) {
			cdf += q
			if (1 - cdf < 0.001) { print k + 1; exit }
			q *= (n - k) / (k + 1) * p / (1 - p)
		}
		print n + 1
	}'
}

# Each workload's pairs: each note counts the 4 metrics it could test.
all_marked=0 all_tested=0 counts=""
# pft: faults/sec-1 and faults/cpu-1; fork: its three backings (4k,
# thp-pte, thp); and each one's warm-up, a sample per run too.
for w in pft:4 fork:6; do
	n=${w#*:} w=${w%:*}
	set -- $(marks $w)
	marked=${1:-0} tested=${2:-0} rate=${3:-0} notes=${4:-0}
	check "A/A $w: every pair's note counts $n tested metrics ($tested in $notes notes)" \
		test "$notes" -eq $PAIRS -a "$tested" -eq $((n * PAIRS))
	all_marked=$((all_marked + marked)) all_tested=$((all_tested + tested))
	counts="$counts $w $marked of $tested,"
done
# Pooled: the bound is on all the built-in workloads' pairs.
lim=$(limit "$all_tested" "$rate")
check "A/A:$counts $all_marked of $all_tested unchanged metrics marked significant (nominal rate $rate: fewer than $lim)" \
	test "$all_tested" -gt 0 -a "$all_marked" -lt "$lim"
