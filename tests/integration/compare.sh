# compare: the seed tables from recordings of the built-in workloads.
. tests/lib.sh

# Workload recordings need no BPF: these run everywhere.
"$MMTOP" bench pft -t 1,2 -s 16M -r 4 --record "$TMP/a.rec" --label base >"$TMP/a.out"
"$MMTOP" bench pft -t 1,2 -s 16M -r 4 --record "$TMP/b.rec" --label other >"$TMP/b.out"
"$MMTOP" compare "$TMP/a.rec" "$TMP/b.rec" >"$TMP/cmp.txt"
check "compare exits 0" test $? -eq 0
check "compare labels its columns" grep -q "base *other" "$TMP/cmp.txt"
# What the kernel had, kept in each recording as probe decided it:
# compare names what differs between the kernels above its table, and
# nothing where they are one kernel. MMTOP_TEST_LACKS stands in for an
# older kernel (5.11-5.18: no lock:contention_begin or _end).
check "one kernel: no kernel difference named" sh -c "! grep -q 'kernels differ' '$TMP/cmp.txt'"
MMTOP_TEST_LACKS=contention_begin,contention_end \
	"$MMTOP" bench pft -t 1 -s 16M -r 2 --record "$TMP/lacks.rec" --label lacks >/dev/null
"$MMTOP" compare "$TMP/a.rec" "$TMP/lacks.rec" >"$TMP/lacks.txt" 2>/dev/null
check "kernels differ: the tracepoints each lacks, alone ($(grep 'kernels differ' "$TMP/lacks.txt"))" sh -c \
	"test \$(grep -c '^# kernels differ: ' '$TMP/lacks.txt') -eq 1 &&
	 grep -q '^# kernels differ: tracepoints lacking: base [^;]*; lacks contention_begin,contention_end' '$TMP/lacks.txt' &&
	 ! grep '^# kernels differ' '$TMP/lacks.txt' | cut -d';' -f1 | grep -q contention_begin"
"$MMTOP" compare --html -o "$TMP/lacks.html" "$TMP/a.rec" "$TMP/lacks.rec" 2>/dev/null
check "kernels differ: said on the HTML page too" grep -q "Kernels differ: tracepoints lacking: base" "$TMP/lacks.html"
# A recording of before mmtop kept it compares, its side unknown; this
# side's VMA lock is what probe says.
vma=$("$MMTOP" probe 2>/dev/null | sed -n 's/^kernel: VMA lock //p')
"$MMTOP" compare "$TMP/a.rec" tests/fixtures/format-2.8.rec >"$TMP/old.txt" 2>/dev/null
check "an older recording: its kernel unknown, this one's VMA lock as probe says ($vma)" \
	grep -qF "# kernels differ: per-VMA lock: base $vma; 6.18.44-fc-v1272 unknown (its recording does not say)" "$TMP/old.txt"
for m in faults/sec-1 faults/cpu-1 faults/sec-2 faults/cpu-2; do
	check "compare has a Hmean row for $m" grep -q "^Hmean $m " "$TMP/cmp.txt"
done
# The Hmean of the workload's own faults/sec for 2 threads, from its output.
want=$(awk '$2 == 2 && $1 ~ /^[0-9]+$/ { inv += 1 / $6; n++ } END { printf "%.2f", n / inv }' "$TMP/a.out")
got=$(awk '$1 == "Hmean" && $2 == "faults/sec-2" { print $3 }' "$TMP/cmp.txt")
check "Hmean faults/sec-2 of the base is the Hmean of its samples ($got = $want)" \
	awk -v g="$got" -v w="$want" 'BEGIN { d = g - w; exit !(d < 0.02 && d > -0.02) }'
# Scaling within a recording: the Hmean at 2 threads over that at 1.
want=$(awk '$1 == "Hmean" && $2 == "faults/sec-1" { one = $3 }
	$1 == "Hmean" && $2 == "faults/sec-2" { two = $3 }
	END { if (one) printf "%.2f", two / one }' "$TMP/cmp.txt")
got=$(awk '$1 == "Ratio" && $2 == "faults/sec-2" { print $3 }' "$TMP/cmp.txt")
check "scaling: faults/sec-2 over faults/sec-1 of the base ($got, from its Hmeans $want)" \
	awk -v g="${got:-0}" -v w="${want:-1}" 'BEGIN { d = g - w; exit !(g > 0 && d < 0.015 && d > -0.015) }'
# A recording's first repetition warms up: printed as w1, recorded as a
# metric of its own, counted in no other (the Hmean above is of 1-4).
warm=$(awk '$1 == "w1" && $2 == 1 { printf "%.2f", $6 }' "$TMP/a.out")
got=$(awk '$1 == "Hmean" && $2 == "warmup:faults/sec-1" { print $3 }' "$TMP/cmp.txt")
check "warm-up: w1 printed, its faults/sec recorded apart ($got, printed $warm)" \
	test -n "$warm" -a "$got" = "$warm"
check "warm-up: none without --record (a run touches its memory once)" \
	sh -c "! '$MMTOP' bench pft -s 4M | grep -q '^ *w1 '"
for cmd in "replay -b" report; do
	# shellcheck disable=SC2086
	"$MMTOP" $cmd "$TMP/a.rec" >/dev/null 2>"$TMP/empty.err"
	rc=$?
	check "$cmd of a bench recording: exit 1, saying it is for compare ($(cat "$TMP/empty.err"))" \
		sh -c "test $rc -eq 1 && grep -q 'samples (mmtop bench --record), for mmtop compare' '$TMP/empty.err'"
done
check "same workload, another label: no warning" sh -c "! grep -q 'workloads differ' '$TMP/cmp.txt'"

# Every metric of every recording (the union): what one lacks is marked
# and named on stderr. The header names each one's kernel, host and
# workload, and warns when the workloads differ.
"$MMTOP" bench pft -t 1 -s 16M -r 2 --record "$TMP/t1.rec" --label one >/dev/null
"$MMTOP" bench pft -t 2 -s 16M -r 2 --record "$TMP/t2.rec" --label two >/dev/null
"$MMTOP" compare "$TMP/t1.rec" "$TMP/t2.rec" >"$TMP/u.txt" 2>"$TMP/u.err"
check "union: exits 0 ($?)" test $? -eq 0
rows=$(grep -c '^Hmean \(warmup:\)*faults/[a-z]*-[12] ' "$TMP/u.txt")
check "union: the 8 metrics of the two recordings (4 and their warm-ups) all shown ($rows rows)" \
	test "$rows" -eq 8
check "union: a metric one recording lacks is marked missing there" \
	sh -c "grep -q '^Hmean faults/sec-2 *missing *[0-9.]* *(no base)\$' '$TMP/u.txt' &&
		grep -q '^Hmean faults/sec-1 .* missing\$' '$TMP/u.txt'"
check "union: stderr names what each lacks ($(head -n 2 "$TMP/u.err" | tr '\n' ' '))" \
	sh -c "grep -qx 'mmtop: compare: warmup:faults/sec-2, warmup:faults/cpu-2, faults/sec-2, faults/cpu-2: missing from one' '$TMP/u.err' &&
		grep -qx 'mmtop: compare: warmup:faults/sec-1, warmup:faults/cpu-1, faults/sec-1, faults/cpu-1: missing from two' '$TMP/u.err'"
check "the header names each recording's kernel, host and workload" \
	sh -c "grep -qxF '# one (base): kernel $(uname -r), host $(hostname), workload pft -t 1 -s 16M -r 2' '$TMP/u.txt' &&
		grep -qxF '# two: kernel $(uname -r), host $(hostname), workload pft -t 2 -s 16M -r 2' '$TMP/u.txt'"
check "different workloads: a warning in the header and on stderr" \
	sh -c "grep -q '^# the workloads differ' '$TMP/u.txt' && grep -q '^mmtop: compare: the workloads differ' '$TMP/u.err'"
"$MMTOP" compare --format markdown "$TMP/t1.rec" "$TMP/t2.rec" >"$TMP/u.md" 2>/dev/null
check "markdown: the recordings named, what one lacks marked" \
	sh -c "grep -qF '> one (base): kernel $(uname -r)' '$TMP/u.md' && grep -q '^| faults/sec-2 mean_rel (std_rel) | missing | no base |' '$TMP/u.md'"
"$MMTOP" compare --html -o "$TMP/u.html" "$TMP/t1.rec" "$TMP/t2.rec" 2>/dev/null
check "html: the recordings' table, the warning, every metric plotted" \
	sh -c "grep -q 'id=\"runs-table\"' '$TMP/u.html' && grep -q 'Warning: the workloads differ' '$TMP/u.html' &&
		test \$(grep -o 'id=\"metric-[0-9]*\"' '$TMP/u.html' | sort -u | wc -l) -eq 8"
"$MMTOP" compare "$TMP/a.rec" "$TMP/a.rec" >"$TMP/self.txt"
check "a recording against itself: no change, nothing significant" \
	sh -c "! grep -v '^#' '$TMP/self.txt' | grep -q '\*' && grep -q '(    0.00%)' '$TMP/self.txt'"
check "the note under the table: the test, chance's share, 0 of 4 marked" \
	grep -qxF "# * p < 0.10 (Welch's t-test): chance alone marks 10% of unchanged metrics; 0 of 4 marked here" "$TMP/self.txt"
"$MMTOP" bench fork -s 16M -n 4 --iterations 3 --record "$TMP/f.rec" --label base >/dev/null
"$MMTOP" compare --format markdown "$TMP/f.rec" "$TMP/f.rec" >"$TMP/md.txt"
check "markdown: mean_rel (std_rel) for the three backings' forks, 4K first" \
	sh -c "grep '^| fork-' '$TMP/md.txt' | cut -d' ' -f2 | tr '\n' ' ' | grep -qx 'fork-4k-us fork-thp-pte-us fork-thp-us ' && grep -q '^| fork-4k-us mean_rel (std_rel) | 0.0% (' '$TMP/md.txt'"
cp "$TMP/a.rec" "$TMP/future.rec"
printf '\003' | dd of="$TMP/future.rec" bs=1 seek=8 conv=notrunc 2>/dev/null
"$MMTOP" compare "$TMP/a.rec" "$TMP/future.rec" >/dev/null 2>&1
check "compare refuses a newer format (exit 2)" test $? -eq 2

# A known difference: samples of 100 +- 2 against 150 +- 2.
samples_rec "$TMP/low.rec" low 100 102 98 101 99
samples_rec "$TMP/high.rec" high 150 152 148 151 149
samples_rec "$TMP/same.rec" same 101 99 100 98 102
"$MMTOP" compare "$TMP/low.rec" "$TMP/high.rec" "$TMP/same.rec" >"$TMP/known.txt"
want=$(python3 -c 'h = lambda v: len(v) / sum(1 / x for x in v); a = h([100, 102, 98, 101, 99]); b = h([150, 152, 148, 151, 149]); print("%.2f %.2f %.2f" % (a, b, (b / a - 1) * 100))')
set -- $want
check "known difference: Hmeans $1 and $2, marked significant at $3%" \
	grep -q "^Hmean faults/sec-1 *$1 (    0.00%) *$2 \* *$3%\*" "$TMP/known.txt"
check "same setting: 0.00% and no mark" grep -q "$1 (    0.00%)\$" "$TMP/known.txt"
check "the note counts the known difference alone: 1 of 2 marked" \
	grep -q "; 1 of 2 marked here\$" "$TMP/known.txt"

# Waits behind another cgroup: from format 2.10 (a fuzz seed: a churn in
# a cgroup of its own, and a reader of its smaps in the root), the mean
# of each interval's rate, as its blame rows give it; missing in 2.8.
seeds=tests/fuzz/corpus-recording
"$MMTOP" compare $seeds/churn-2.10.rec $seeds/churn-2.8.rec >"$TMP/cg.txt" 2>&1
want=$("$MMTOP" replay -b -f csv $seeds/churn-2.10.rec | awk -F, '
	NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["kind"] == "total" { len[$c["seq"]] = $c["interval_s"] }
	$c["kind"] == "blame" && $c["holder_cgroup"] != "" && $c["holder_cgroup"] != $c["cgroup"] {
		ns[$c["seq"]] += $c["wait_total_ns"] }
	END { for (q in len) { m += ns[q] / 1e6 / len[q]; n++ } printf "%.2f", m / n }')
got=$(awk '$1 == "Mean" && $2 == "interval-mmap_lock-other-cgroup-wait-ms/s" { print $3, $NF }' "$TMP/cg.txt")
check "compare: waits behind another cgroup, the mean of the intervals' rates ($got; want $want), missing before 2.10" \
	test "${got% *}" = "$want" -a "${got#* }" = missing

# Monitoring recordings: every family they hold is compared, not only the
# faults. The default set's has no acquisitions, and no fork latency where
# the kernel leaves forks untimed in it (this VM): missing, not 0.
need_bpf "compare of monitoring recordings"
for mode in default exact; do
	# shellcheck disable=SC2046
	"$MMTOP" record -o "$TMP/mon-$mode.rec" -d 0.5 $(mode_args $mode) -- \
		"$MMTOP" bench churn -t 1 -n 2000 --paced --chunk 64K --fork 10 >/dev/null 2>&1
done
"$MMTOP" compare "$TMP/mon-default.rec" "$TMP/mon-exact.rec" >"$TMP/mon.txt" 2>"$TMP/mon.err"
row() { awk -v m="$1" '$2 == m' "$TMP/mon.txt"; }
for m in interval-faults/sec interval-mmap_lock-waits/s interval-mmap_lock-wait-ms/s \
	 interval-mmap_lock-foreign-wait-ms/s interval-mmap_lock-other-cgroup-wait-ms/s \
	 interval-zone-lock-wait-ms/s \
	 interval-pcp-lock-wait-ms/s interval-forks/s; do
	check "monitoring recordings: $m compared ($(row $m | tr -s ' '))" \
		sh -c "row() { awk -v m='$m' '\$2 == m' '$TMP/mon.txt'; }; row | grep -q '^Mean ' && ! row | grep -q missing"
done
check "monitoring recordings: the churn waited and forked in both ($(row interval-forks/s | tr -s ' '))" \
	sh -c "awk '\$2 == \"interval-mmap_lock-waits/s\" && \$3 > 0 && \$6 > 0 { w = 1 }
		\$2 == \"interval-forks/s\" && \$3 > 0 && \$6 > 0 { f = 1 } END { exit !(w && f) }' '$TMP/mon.txt'"
check "monitoring recordings: acquisitions only in exact mode's, missing in the default set's ($(row interval-mmap_lock-acquisitions/s | tr -s ' '))" \
	sh -c "awk '\$2 == \"interval-mmap_lock-acquisitions/s\"' '$TMP/mon.txt' | grep -q '^Mean  *interval-mmap_lock-acquisitions/s  *missing  *[0-9.]* *(no base)'"
