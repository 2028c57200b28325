# PCP refills and drains against a workload pinned to known CPUs.
. tests/lib.sh

why=$(bpf_refused)
if [ -n "$why" ]; then
	skip "pcp: $why"
	exit 0
fi
set -- $(online_cpus)
if [ $# -lt 2 ]; then
	skip "pcp: need two online CPUs, have $#"
	exit 0
fi
first=$1
shift $(($# - 1))
last=$1
sum() { # sum FILE COLUMN KIND ID
	csv_sum_where "$1" "$2" "\$c[\"kind\"] == \"$3\" && \$c[\"id\"] == $4"
}

# Both threads on one CPU: the refills are that CPU's (the frees mostly
# feed its list back, so drains there are not certain). pcp_round is
# more than a list holds, whatever earlier frees left in it.
start_mmtop_csv "$TMP/one.csv" -d 0.5 --enable-probe pcp
"$MMTOP" bench pcp --cpu "$last" -s "$(pcp_round)" -r 2 >"$TMP/one.out"
stop_mmtop
here=$(sum "$TMP/one.csv" pcp_refill_pages cpu "$last")
there=$(sum "$TMP/one.csv" pcp_refill_pages cpu "$first")
check "one CPU: refills on CPU $last ($here pages), far fewer on CPU $first ($there)" \
	test "$here" -gt 0 -a "$there" -lt $((here / 10 + 64))
refill=$(sum "$TMP/one.csv" pcp_refill_pages cpu "$last")
refills=$(sum "$TMP/one.csv" pcp_refills cpu "$last")
check "one CPU: refills are bursts of pages ($refills refills for $refill pages)" \
	test "$refills" -gt 0 -a "$refills" -lt "$refill"
zones=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["kind"] == "zone" { print $c["zone"] }' "$TMP/one.csv" | sort -u | tr '\n' ' ')
populated=$(awk '/^Node/ { z = $4 } $1 == "managed" && $2 > 0 { print z }' /proc/zoneinfo | tr '\n' ' ')
bad=0
for z in $zones; do
	case " $populated " in *" $z "*) ;; *) bad=1 ;; esac
done
check "pages land in populated zones only (zones: $zones; populated: $populated)" test "$bad" -eq 0

# Allocator on one CPU, freer on the other: one list only empties, the
# other only fills. mmtop and this script (its processes free pages when
# they exit) stay off the allocator's CPU.
taskset -cp "$last" $$ >/dev/null
# Pages on a CPU's lists, all zones (/proc/zoneinfo, "cpu: N" then "count:").
listed() { awk -v cpu="$1" '$1 == "cpu:" { c = $2 } $1 == "count:" && c == cpu { s += $2 } END { print s + 0 }' /proc/zoneinfo; }
start_mmtop_csv "$TMP/two.csv" -d 0.5 --enable-probe pcp
first0=$(listed "$first") last0=$(listed "$last")
"$MMTOP" bench pcp --cpu "$first,$last" >"$TMP/two.out"
first1=$(listed "$first") last1=$(listed "$last")
stop_mmtop
alloc=$(awk '$1 == 0 { print $3 }' "$TMP/two.out")
freed=$(awk '$1 == 1 { print $4 }' "$TMP/two.out")
refill=$(sum "$TMP/two.csv" pcp_refill_pages cpu "$first")
drain=$(sum "$TMP/two.csv" pcp_drain_pages cpu "$last")
# What a CPU's lists held at the start serves allocations without a refill,
# and what they hold at the end was freed without a drain: the lists are
# auto-tuned up to tens of thousands of pages (15,000-19,000 at rest here,
# a quarter of the run). Every page is accounted one way or the other, but
# for the pages this script and mmtop take and free meanwhile.
served=$((refill + first0 - first1))
check "allocator's CPU $first: refills ($refill) and its lists' shrinking ($first0 to $first1) cover 90% of its $alloc pages" \
	test "$refill" -gt 0 -a "$served" -ge $((alloc * 9 / 10))
kept=$((drain + last1 - last0))
check "freer's CPU $last: drains ($drain) and its lists' growth ($last0 to $last1) cover 90% of its $freed pages" \
	test "$drain" -gt 0 -a "$kept" -ge $((freed * 9 / 10))
# The freer's list drains again and again; the allocator's only when
# something else empties a whole list (reclaim's or compaction's
# drain_all_pages, the high mark's decay), which the kernel does in chunks
# of a few thousand pages (one compact_memory made 22 drains on one CPU
# here): counting drains flaked (15 against a bound of 13, 1 run in 13).
# Pages give a bound that holds whatever empties it: the allocator's CPU
# drains what its lists held at the start and a few strays, never the
# pages the other CPU frees.
drained=$(sum "$TMP/two.csv" pcp_drain_pages cpu "$first")
check "the allocator's CPU $first drained at most what its lists held ($drained pages against $first0 + a tenth of the $freed freed)" \
	test "$drained" -le $((first0 + freed / 10))

# Off by default: it fires once per page.
start_mmtop_csv "$TMP/off.csv" -d 0.3
stop_mmtop
check "pcp is opt-in: intervals, and no pcp probe in them without --enable-probe pcp" \
	sh -c "grep -q ',total,' '$TMP/off.csv' && ! grep -q ';pcp:' '$TMP/off.csv'"
