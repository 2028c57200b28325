# The container on each side of a wait: a two-writer churn in cgroup a, a
# reader of its /proc/PID/smaps in cgroup b. The reader holds the churn's
# mmap_lock from outside as its writers queue, and waits behind them in
# turn: the blame rows name both directions, a waiting for b and b for a,
# in the default set. Halfway the churn is moved to cgroup c: its rows
# after the move say c, those before still a. A second mmtop, given
# --cgroup b and recording, keeps the rows of b's tasks alone, and its
# replay says the same; a third's exposition has series by cgroup pair
# (--cgroup-label). Without a cgroup2 mount, the rows say why they name
# none.
. tests/lib.sh

need_bpf "cgroups"
mnt=$(cgroup2_mount) || { fail "cgroups: cannot mount cgroup2"; exit 1; }
name=mmtop-test-$$
a=/$name-a b=/$name-b c=/$name-c
for g in $a $b $c; do
	mkdir "$mnt$g" || { fail "cgroups: mkdir $mnt$g"; exit 1; }
done
cleanup() {
	for g in $a $b $c; do rmdir "$mnt$g" 2>/dev/null; done
	[ "$mnt" = "$TMP/cgroup2" ] && umount "$mnt"
	rm -rf "$TMP"
}
trap cleanup EXIT

start_mmtop_csv "$TMP/all.csv" -d 0.5 || exit 1
all_pid=$MMTOP_PID
"$MMTOP" record -d 0.5 --cgroup "$b" -o "$TMP/b.rec" 2>"$TMP/rec.err" &
rec_pid=$!
# A third: the exposition, with the opt-in labels.
"$MMTOP" -b -d 0.5 -f prometheus --cgroup-label 1 -o "$TMP/prom.txt" 2>"$TMP/prom.err" &
prom_pid=$!

cgroup_pair_churn "$mnt" "$a" "$b" 10
churn=$CHURN

# rows_of FILE: "kind pid cgroup holder_cgroup holder_pid count" of each CSV row.
rows_of() {
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ print $c["kind"], $c["pid"], $c["cgroup"], $c["holder_cgroup"], $c["holder_pid"], $c["acquired"] }' "$1"
}
# Readiness, not a sleep: 100 waits of each kind before the move (the
# churn's behind the reader, the reader's behind the churn), then the
# churn's in c.
waits() { # waits WAITER HOLDER [PID]: blame waits of that pair so far
	rows_of "$TMP/all.csv" | awk -v w="$1" -v h="$2" -v p="${3:-0}" \
		'$1 == "blame" && $3 == w && $4 == h && (!p || $2 == p) { s += $6 } END { print s + 0 }'
}
i=0
until [ "$(waits "$a" "$b")" -ge 100 ] && [ "$(waits "$b" "$a")" -ge 100 ] || [ $i -ge 80 ]; do
	sleep 0.05
	i=$((i + 1))
done
echo $churn >"$mnt$c/cgroup.procs"
moved=$?
i=0
until [ "$(waits "$c" "$c" $churn)" -gt 0 ] || [ $i -ge 100 ]; do sleep 0.05; i=$((i + 1)); done
wait $churn
check "cgroups: the churn ran (moved from a to c: status $moved)" test $? -eq 0 -a $moved -eq 0
wait $READER
MMTOP_PID=$all_pid MMTOP_OUT=$TMP/all.csv stop_mmtop
kill -INT $rec_pid && wait $rec_pid
check "cgroups: record --cgroup $b exits 0 ($(cat "$TMP/rec.err"))" test $? -eq 0
kill -INT $prom_pid && wait $prom_pid
check "cgroups: the exposition exits 0 ($(cat "$TMP/prom.err"))" test $? -eq 0

rows_of "$TMP/all.csv" >"$TMP/all.rows"
sum() { awk "$1 { s += \$6 } END { print s + 0 }" "$TMP/all.rows"; }
ab=$(sum "\$1 == \"blame\" && \$2 == $churn && \$3 == \"$a\" && \$4 == \"$b\"")
ba=$(sum "\$1 == \"blame\" && \$3 == \"$b\" && \$4 == \"$a\" && \$5 == $churn")
cb=$(sum "\$1 == \"blame\" && \$2 == $churn && \$3 == \"$c\"")
check "cgroups: the churn in a waited behind the reader in b ($ab waits)" test "$ab" -gt 0
check "cgroups: the reader in b waited behind the churn in a ($ba waits)" test "$ba" -gt 0
check "cgroups: after the move, the churn's waits say c ($cb waits)" test "$cb" -gt 0
stray=$(awk -v p=$churn -v a="$a" -v c="$c" '($1 == "blame" || $1 == "mmap_lock") && $2 == p && $3 != a && $3 != c' "$TMP/all.rows" | wc -l)
check "cgroups: every row of the churn says a or c ($stray others)" test "$stray" -eq 0
unnamed=$(awk '$1 == "blame" && $5 > 0 && $4 == ""' "$TMP/all.rows" | wc -l)
check "cgroups: every blame row with a holder names its cgroup ($unnamed do not)" test "$unnamed" -eq 0

"$MMTOP" replay -b -f csv "$TMP/b.rec" >"$TMP/b.csv" 2>"$TMP/replay.err"
rows_of "$TMP/b.csv" >"$TMP/b.rows"
kept=$(awk -v b="$b" '($1 == "blame" || $1 == "mmap_lock") && $3 == b' "$TMP/b.rows" | wc -l)
other=$(awk -v b="$b" '($1 == "blame" || $1 == "mmap_lock" || ($1 == "event" && $3 != "")) && $3 != b' "$TMP/b.rows" | wc -l)
series=$(awk -v s="mmtop_mmap_lock_cgroup_waits_total{cgroup=\"$b\",holder_cgroup=\"$a\"}" \
	'$1 == s { print $2 }' "$TMP/prom.txt")
check "cgroups: --cgroup-label: a series of b's waits behind a (${series:-none})" test "${series:-0}" -gt 0
check "cgroups: --cgroup $b recorded b's rows ($kept) and no other's ($other)" \
	test "$kept" -gt 0 -a "$other" -eq 0
"$MMTOP" replay -b -f text "$TMP/b.rec" >"$TMP/b.txt" 2>>"$TMP/replay.err"
check "cgroups: the text output sums the waits by cgroup, b behind a" \
	grep -q "^ *$b *<- *$a " "$TMP/b.txt"
# A host of cgroup v1 alone: no cgroup2 mount (each hidden in a mount
# namespace of its own). The rows name no cgroup, and say why.
hide="for m in \$(awk '\$9 == \"cgroup2\" { print \$5 }' /proc/self/mountinfo); do umount -l \$m; done"
unshare -m --propagation private sh -c "$hide; exec '$MMTOP' -b -n 1 -d 0.3 -f json" \
	>"$TMP/v1.json" 2>"$TMP/v1.err"
check "cgroups: without a cgroup2 mount, the rows say why they name none ($(grep -o '"cgroups_na":[^,]*' "$TMP/v1.json"))" \
	grep -q '"cgroups_na":"no cgroup2 file system is mounted (cgroup v1 alone)"' "$TMP/v1.json"
unshare -m --propagation private sh -c "$hide; exec '$MMTOP' -b -n 1 --cgroup /x" >/dev/null 2>"$TMP/v1g.err"
check "cgroups: and --cgroup is refused, said ($(head -n 1 "$TMP/v1g.err"))" \
	grep -q "no cgroup2 file system is mounted" "$TMP/v1g.err"
"$MMTOP" -b -n 1 --cgroup /$name-none >/dev/null 2>"$TMP/none.err"
rc=$?
check "cgroups: --cgroup of no cgroup is refused, said ($rc: $(cat "$TMP/none.err"))" \
	sh -c "[ $rc -eq 2 ] && grep -q 'no such cgroup' '$TMP/none.err'"
