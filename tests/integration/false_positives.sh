# compare's false-positive rate: A/A pairs of the built-in workloads (one
# command run twice) must be marked significant no more often than the
# rate compare names under its table, within what chance allows: a count
# chance reaches less than once in a thousand fails.
. tests/lib.sh

PAIRS=20
# Alternated, so that a slow spell of the machine falls on both workloads.
i=1
while [ $i -le $((2 * PAIRS)) ]; do
	"$MMTOP" bench pft -s 8M -r 5 --record "$TMP/pft$i.rec" --label "pft$i" >/dev/null &&
		"$MMTOP" bench fork -s 8M -n 4 --iterations 5 --record "$TMP/fork$i.rec" \
			--label "fork$i" >/dev/null || fail "A/A: bench run $i failed"
	i=$((i + 1))
done

# marks WORKLOAD: "MARKED TESTED RATE" summed over its PAIRS pairs, from
# the line compare prints under its table.
marks() {
	i=1
	while [ $i -le $((2 * PAIRS)) ]; do
		"$MMTOP" compare "$TMP/$1$i.rec" "$TMP/$1$((i + 1)).rec" 2>/dev/null
		i=$((i + 2))
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

# Each workload's pairs: each note counts the 2 metrics it could test.
all_marked=0 all_tested=0 counts=""
for w in pft fork; do
	set -- $(marks $w)
	marked=${1:-0} tested=${2:-0} rate=${3:-0} notes=${4:-0}
	# pft: faults/sec-1 and faults/cpu-1; fork: 4K and THP. Warm-ups have
	# one sample each and cannot be tested.
	check "A/A $w: every pair's note counts 2 tested metrics ($tested in $notes notes)" \
		test "$notes" -eq $PAIRS -a "$tested" -eq $((2 * PAIRS))
	all_marked=$((all_marked + marked)) all_tested=$((all_tested + tested))
	counts="$counts $w $marked of $tested,"
done
# Pooled: samples of one run share what differs from run to run, which a
# t-test on them cannot see (here a pft run after a fork run is marked
# about 1 time in 8); the bound is on all the built-in workloads' pairs.
# Before fork's iterations were processes of their own spread over the
# CPUs, fork alone was marked 17 times in 40.
lim=$(limit "$all_tested" "$rate")
check "A/A:$counts $all_marked of $all_tested unchanged metrics marked significant (nominal rate $rate: fewer than $lim)" \
	test "$all_tested" -gt 0 -a "$all_marked" -lt "$lim"
