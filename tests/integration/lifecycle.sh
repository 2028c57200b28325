# Stopping cleanly (SIGINT, SIGTERM, SIGHUP, a closed pipe) and CPU hotplug.
. tests/lib.sh

why=$(bpf_refused)
if [ -n "$why" ]; then
	skip "signals and hotplug: $why"
	exit 0
fi

for sig in INT TERM HUP; do
	rm -f "$TMP/out"	# the wait below must not see the last round's
	# SIGHUP at its default even under nohup (an inherited ignore is kept).
	env --default-signal=HUP "$MMTOP" -b -d 0.2 --format json >"$TMP/out" 2>"$TMP/err" &
	pid=$!
	# Stopped once its first interval is out.
	i=0
	while [ ! -s "$TMP/out" ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	ids=$(prog_ids_of $pid)
	check "SIG$sig: BPF programs loaded while running ($(echo $ids | wc -w))" test -n "$ids"
	kill -s "$sig" $pid
	wait $pid
	rc=$?
	check "SIG$sig: exit status 0 (got $rc)" test "$rc" -eq 0
	check "SIG$sig: output ends with a complete line" sh -c "tail -c1 '$TMP/out' | od -c | grep -q '\\\\n'"
	check "SIG$sig: its BPF programs gone after exit" progs_gone "$ids"
	check "SIG$sig: nothing on stderr" test ! -s "$TMP/err"
done

{ "$MMTOP" -b -d 0.1; echo $? >"$TMP/rc"; } | head -n 3 >/dev/null
rc=$(cat "$TMP/rc")
check "a closed pipe ends mmtop quietly" test "$rc" -eq 0

# CPU hotplug: a CPU going offline is shown offline, not as an error, and
# is counted again once back.
set -- $(online_cpus)
shift $(($# - 1))
cpu=$1
ctl=/sys/devices/system/cpu/cpu$cpu/online
if [ "$cpu" -eq 0 ] || [ ! -w "$ctl" ]; then
	skip "hotplug: no CPU other than 0 can be taken offline here"
	exit 0
fi
trap 'echo 1 >"$ctl"; rm -rf "$TMP"' EXIT
for src in sched perf; do
	: >"$TMP/hp.csv"
	"$MMTOP" -b -d 0.5 -n 10 --format csv --fault-source $src >"$TMP/hp.csv" 2>"$TMP/err" &
	pid=$!
	i=0
	while ! grep -q ',total,' "$TMP/hp.csv" && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	# Each step waits for the interval that shows it.
	echo 0 >"$ctl"
	wait_csv "$TMP/hp.csv" "\$4 == \"cpu\" && \$5 == $cpu && \$7 == 0"
	echo 1 >"$ctl"
	n=$(grep -c ',total,' "$TMP/hp.csv")
	wait_csv "$TMP/hp.csv" "\$4 == \"cpu\" && \$5 == $cpu && \$7 == 1 && \$2 > $n"
	taskset -c "$cpu" "$MMTOP" bench pft -s 16M --cpu "$cpu" >/dev/null
	wait $pid
	rc=$?
	check "hotplug $src: exit 0 (got $rc)" test "$rc" -eq 0
	check "hotplug $src: CPU $cpu shown offline in some interval" \
		awk -F, -v c="$cpu" '$4 == "cpu" && $5 == c && $7 == 0 { f = 1 } END { exit !f }' "$TMP/hp.csv"
	back=$n
	n=$(awk -F, -v c="$cpu" -v b="$back" '$4 == "cpu" && $5 == c && $7 == 1 && $2 > b { s += $8 } END { print s + 0 }' "$TMP/hp.csv")
	check "hotplug $src: faults counted on CPU $cpu after it came back ($n >= 4096)" test "$n" -ge 4096
	check "hotplug $src: nothing on stderr" test ! -s "$TMP/err"
done

# --disable-probe: a family's programs are not loaded at all, so a family
# left off costs nothing. The mmap_lock programs also serve fork cost (a
# fork begins at dup_mmap's lock request): they go with both families.
# progs_named PREFIX PID: how many of the programs PID holds are named so.
progs_named() {
	bpftool prog show 2>/dev/null | awk -v ids=" $(echo $(prog_ids_of "$2")) " -v p="name $1" '
		/^[0-9]+:/ { id = $1; sub(":", "", id); if (index(ids, " " id " ") && index($0, p)) n++ }
		END { print n + 0 }'
}
# disabled_run "FAMILIES" "NAME PREFIXES OFF" "NAME PREFIXES ON"
disabled_run() {
	args=
	for f in $1; do args="$args --disable-probe $f"; done
	# The wait below must not see the last run's file: the shell empties it
	# only in the child, which may not have run yet (loop run 10 of 10
	# counted no program at all, before mmtop had loaded any).
	rm -f "$TMP/dis.csv"
	# shellcheck disable=SC2086
	"$MMTOP" -b -d 0.2 -f csv $args >"$TMP/dis.csv" 2>&1 &
	pid=$!
	i=0
	while ! grep -q ',total,' "$TMP/dis.csv" && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	off=0 on=0
	for p in $2; do off=$((off + $(progs_named "$p" $pid))); done
	for p in $3; do on=$((on + $(progs_named "$p" $pid))); done
	kill -INT $pid
	wait $pid
	check "--disable-probe $1: no $2 program loaded ($off), $3 ones are ($on)$(grep -m1 'mmtop:' "$TMP/dis.csv")" \
		test "$off" -eq 0 -a "$on" -gt 0
}
# contention_begin serves mmap_lock and fork too (their waits begin there),
# contention_end the mmap_lock family's waits.
disabled_run contention "contention_vma lock_addrs" "mmap_lock_ fork_ contention_begin contention_end"
disabled_run fork fork_ "mmap_lock_ contention_"
disabled_run "mmap_lock fork" "mmap_lock_ fork_" contention_
disabled_run "mmap_lock contention" "contention_end contention_vma" "mmap_lock_ fork_ contention_begin"
disabled_run "contention fork" "contention_vma fork_" "mmap_lock_ contention_begin contention_end"

# -- COMMAND: mmtop exits with the command's status, as perf stat and time
# do (128 + N when signal N killed it), in batch mode and when recording;
# the command gets stdin, stdout and stderr and no other descriptor.
"$MMTOP" -b -d 0.2 -- sh -c 'exit 7' >/dev/null 2>&1
rc=$?
check "-- COMMAND: its exit status 7 is mmtop's (got $rc)" test $rc -eq 7
"$MMTOP" -b -d 0.2 -- sh -c 'kill -TERM $$' >/dev/null 2>&1
rc=$?
check "-- COMMAND killed by SIGTERM: mmtop exits 143 (got $rc)" test $rc -eq 143
"$MMTOP" record -o "$TMP/cmd.rec" -d 0.2 -- sh -c 'exit 3' 2>/dev/null
rc=$?
check "record -- COMMAND: its exit status 3 (got $rc)" test $rc -eq 3
"$MMTOP" record -o "$TMP/missing.rec" -d 0.2 -- ./no-such-command-here 2>"$TMP/err"
rc=$?
check "record -- a missing COMMAND: exit 1, said, no recording left ($(cat "$TMP/err"))" \
	sh -c "test $rc -eq 1 && grep -q 'cannot run ./no-such-command-here' '$TMP/err' && test ! -e '$TMP/missing.rec'"
"$MMTOP" -b -d 0.2 --user nobody -- sh -c 'echo "ids $(id -u) $(id -g) $HOME"' 2>"$TMP/ids" >/dev/null
rc=$?
nobody=$(getent passwd nobody | awk -F: '{ print $3, $4, $6 }')
check "--user nobody: COMMAND runs as nobody ($(cat "$TMP/ids"); rc $rc)" \
	grep -qx "ids $nobody" "$TMP/ids"
"$MMTOP" -b -d 0.2 --user no-such-user-here -- true 2>"$TMP/err"
rc=$?
check "--user with an unknown user: exit 2 with its name (got $rc)" \
	sh -c "test $rc -eq 2 && grep -q no-such-user-here '$TMP/err'"
"$MMTOP" -b -d 0.2 -- sh -c 'ls /proc/$$/fd' 2>"$TMP/fds" >/dev/null
check "-- COMMAND: only descriptors 0, 1 and 2 reach it ($(tr '\n' ' ' <"$TMP/fds"))" \
	test "$(tr '\n' ' ' <"$TMP/fds")" = "0 1 2 "

# mmtop collects at nice -20 (CPU load cannot hold an interval back); what
# wakes at a workload's event, the fork records' reader, and the command
# it runs, at the nice it was started with.
nice -n 3 "$MMTOP" -b -d 0.2 -- sh -c 'echo "$(nice)"; for t in /proc/$PPID/task/*; do
	echo "$(cat "$t/comm") $(cut -d" " -f19 "$t/stat")"; done' 2>"$TMP/nice" >/dev/null
got=$(tr -s '\n' ' ' <"$TMP/nice")
check "-- COMMAND at the caller's nice 3, mmtop at -20, its fork reader at 3 ($got)" \
	sh -c "head -n 1 '$TMP/nice' | grep -qx 3 && grep -qx 'mmtop -20' '$TMP/nice' &&
		grep -qx 'mmtop-forks 3' '$TMP/nice'"

# -p with a PID that has no process: a warning, and mmtop runs (it may appear).
"$MMTOP" -p 999999 -b -n 1 -d 0.1 >"$TMP/p.out" 2>"$TMP/p.err"
rc=$?
check "-p 999999: runs (rc $rc) and warns ($(cat "$TMP/p.err"))" \
	sh -c "test $rc -eq 0 && grep -q 'no process 999999' '$TMP/p.err' && test -s '$TMP/p.out'"

# A process that exits keeps its name on the rows of its last interval,
# though its older rows (idle for two reads) are cleaned up in that read.
# Exact mode: its uncontended acquisitions are rows.
: >"$TMP/names.csv"
"$MMTOP" -b --exact -d 0.3 -n 14 -f csv >"$TMP/names.csv" 2>/dev/null &
pid=$!
i=0
while ! grep -q ',total,' "$TMP/names.csv" && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
pids=
for n in 1 2 3 4 5 6; do
	python3 -c 'import mmap, time
time.sleep(0.9)
for _ in range(300):
    mmap.mmap(-1, 1 << 20).close()' &
	pids="$pids $!"
done
wait $pids
wait $pid
rows=0 unnamed=0
for p in $pids; do
	rows=$((rows + $(awk -F, -v p="$p" '$4 == "mmap_lock" && $17 == p' "$TMP/names.csv" | wc -l)))
	unnamed=$((unnamed + $(awk -F, -v p="$p" '$4 == "mmap_lock" && $17 == p && $18 == "?"' "$TMP/names.csv" | wc -l)))
done
check "exited processes: their $rows mmap_lock rows all named ($unnamed shown as ?)" \
	test "$rows" -gt 0 -a "$unnamed" -eq 0
