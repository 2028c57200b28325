# compare: the seed tables from recordings of the built-in workloads.
. tests/lib.sh

# Workload recordings need no BPF: these run everywhere.
"$MMTOP" bench pft -t 1,2 -s 16M -r 4 --record "$TMP/a.rec" --label base >"$TMP/a.out"
"$MMTOP" bench pft -t 1,2 -s 16M -r 4 --record "$TMP/b.rec" --label other >"$TMP/b.out"
"$MMTOP" compare "$TMP/a.rec" "$TMP/b.rec" >"$TMP/cmp.txt"
check "compare exits 0" test $? -eq 0
check "compare labels its columns" grep -q "base *other" "$TMP/cmp.txt"
for m in faults/sec-1 faults/cpu-1 faults/sec-2 faults/cpu-2; do
	check "compare has a Hmean row for $m" grep -q "^Hmean $m " "$TMP/cmp.txt"
done
# The Hmean of the workload's own faults/sec for 2 threads, from its output.
want=$(awk '$2 == 2 && $1 ~ /^[0-9]+$/ { inv += 1 / $6; n++ } END { printf "%.2f", n / inv }' "$TMP/a.out")
got=$(awk '$2 == "faults/sec-2" { print $3 }' "$TMP/cmp.txt")
check "Hmean faults/sec-2 of the base is the Hmean of its samples ($got = $want)" \
	awk -v g="$got" -v w="$want" 'BEGIN { d = g - w; exit !(d < 0.02 && d > -0.02) }'
"$MMTOP" compare "$TMP/a.rec" "$TMP/a.rec" >"$TMP/self.txt"
check "a recording against itself: no change, nothing significant" \
	sh -c "! grep -q '\*' '$TMP/self.txt' && grep -q '(    0.00%)' '$TMP/self.txt'"
"$MMTOP" bench fork -s 16M -n 4 --iterations 3 --record "$TMP/f.rec" --label base >/dev/null
"$MMTOP" compare --format markdown "$TMP/f.rec" "$TMP/f.rec" >"$TMP/md.txt"
check "markdown: mean_rel (std_rel) for 4K and THP forks" \
	sh -c "grep -q '^| fork-4k-us mean_rel (std_rel) | 0.0% (' '$TMP/md.txt' && grep -q '^| fork-thp-us mean_rel' '$TMP/md.txt'"
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
