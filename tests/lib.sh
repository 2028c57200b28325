# Helpers for tests/integration/*.sh (sourced). Results are lines starting
# with PASS, FAIL or SKIP, counted by tests/run.sh.
MMTOP=${MMTOP:-./mmtop}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

pass() { echo "PASS $*"; }
fail() { echo "FAIL $*"; }
skip() { echo "SKIP $*"; }
check() { # check DESCRIPTION COMMAND...
	desc=$1
	shift
	if "$@"; then pass "$desc"; else fail "$desc"; fi
}

# Why the kernel refuses BPF tracing, or nothing if it accepts it. Asked of
# bpftool, not of mmtop, so a broken mmtop probe cannot turn into a skip.
bpf_refused() {
	[ "$(id -u)" -eq 0 ] || { echo "not root"; return; }
	bpftool feature probe kernel 2>/dev/null |
		grep -q "program_type raw_tracepoint is available" ||
		echo "kernel refuses BPF raw_tracepoint programs (bpftool feature probe)"
}

# The rest of a test needs BPF: skipped, saying why, where the kernel refuses it.
need_bpf() { # need_bpf WHAT
	why=$(bpf_refused)
	[ -z "$why" ] && return 0
	skip "$1: $why"
	exit 0
}

# mmtop's option for MODE: nothing for the default set, --exact for exact.
mode_args() { [ "$1" = exact ] && echo --exact; }

# The BPF programs process PID holds (its program and link fds, whose
# fdinfo names the program), as ids, one a line: its own only, so that
# another mmtop on the machine counts for nothing.
prog_ids_of() { # prog_ids_of PID
	cat /proc/"$1"/fdinfo/* 2>/dev/null | awk '$1 == "prog_id:" { print $2 }' | sort -un
}

# The BPF links process PID holds, as ids (its fdinfo), on one line.
links_of() { # links_of PID
	cat /proc/"$1"/fdinfo/* 2>/dev/null | awk '$1 == "link_id:" { print $2 }' | sort -n | tr '\n' ' '
}

loaded_prog_ids() { bpftool prog show 2>/dev/null | sed -n 's/^\([0-9]*\): .*/\1/p'; }

# Wait (up to 2 s: the kernel frees programs after an RCU grace period)
# until none of the programs IDS (as prog_ids_of printed them) is loaded;
# true if so.
progs_gone() { # progs_gone IDS
	i=0
	while loaded_prog_ids | grep -qxF "$1" && [ $i -lt 20 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	! loaded_prog_ids | grep -qxF "$1"
}

# mmtop's programs (every run loads the fault_* ones) that no process
# holds, left behind, one id a line; as progs_gone, waits up to 2 s for
# them to go. Another mmtop's programs are its own, held.
orphan_progs() {
	i=0
	while [ $i -lt 20 ]; do
		held=$(cat /proc/[0-9]*/fdinfo/* 2>/dev/null | awk '$1 == "prog_id:" { print $2 }')
		left=$(bpftool prog show 2>/dev/null | sed -n 's/^\([0-9]*\): .* name fault_.*/\1/p' |
			grep -vxF "${held:-none}")
		[ -z "$left" ] && return
		sleep 0.1
		i=$((i + 1))
	done
	echo "$left"
}

# Online CPU ids, space separated.
online_cpus() {
	awk -F, '{ for (i = 1; i <= NF; i++) { n = split($i, r, "-");
		lo = r[1]; hi = n > 1 ? r[2] : r[1];
		for (c = lo; c <= hi; c++) printf "%d ", c } }' \
		/sys/devices/system/cpu/online
}

# maps_held [MIB WHY]: the kernel memory of the default set's BPF maps
# (JSON bpf_map_bytes of one interval), checked against the 16 MiB
# mmtop(8)'s COST promises at any CPU count (or MIB, WHY), and printed as
# "# maps: RELEASE POSSIBLE_CPUS BYTES" for kernels.sh, which compares CPU
# counts.
maps_held() {
	cap=${1:-16} why=${2:-}
	possible=$(awk -F- '{ print $NF + 1 }' /sys/devices/system/cpu/possible)
	"$MMTOP" -b -n 1 -d 0.2 -f json >"$TMP/maps.json" 2>&1
	bytes=$(sed -n 's/.*"bpf_map_bytes":\([0-9]*\).*/\1/p' "$TMP/maps.json" | head -n 1)
	check "the default set's BPF maps hold at most $cap MiB at $possible possible CPUs (${bytes:-none} bytes)${why:+: $why}" \
		test "${bytes:-0}" -gt 0 -a "${bytes:-0}" -le $((cap << 20))
	echo "# maps: $(uname -r) $possible ${bytes:-0}"
}

# Sum of column minflt (8) of the CSV rows of one kind and id.
csv_sum() { # csv_sum FILE KIND ID
	awk -F, -v k="$2" -v id="$3" '$4 == k && $5 == id { s += $8 } END { print s + 0 }' "$1"
}

# within PCT A B: |A - B| <= PCT% of B
within() {
	awk -v p="$1" -v a="$2" -v b="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= b * p / 100) }'
}

# The count a `mmtop bench` workload printed on its line NAME ("mmap 326").
count_of() { awk -v k="$1" '$1 == k { print $2 }' "$2"; }

# col FILE CONDITION COLUMN: the column's values of the CSV rows meeting
# the awk CONDITION (columns by header name, as c["name"]).
col() {
	awk -F, -v want="$3" "NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next } $2 { print \$c[want] }" "$1"
}

# check_call_sites NAME CSV OUT SLACK: each write acquisition of the churn
# workload whose output is OUT lands in its call's row of mmtop's CSV,
# within 5% + SLACK (the C runtime's own calls) of the calls it counted.
# Sets pid (the workload's) and own (the awk condition of its rows).
check_call_sites() {
	pid=$(pid_of "$3")
	own="\$c[\"kind\"] == \"mmap_lock\" && \$c[\"pid\"] == $pid && \$c[\"mm\"] == \"own\""
	for call in mmap munmap mprotect mremap brk; do
		want=$(count_of $call "$3")
		got=$(csv_sum_where "$2" acquired "$own && \$c[\"site\"] == \"$call\" && \$c[\"mode\"] == \"write\"")
		check "$1: $call write acquisitions $got for $want calls (within 5% + $4)" \
			awk -v g="$got" -v w="$want" -v s="$4" 'BEGIN { exit !(g >= w && g <= w * 1.05 + s) }'
	done
}

# check_address_table: mmtop's zone and pcp lock table holds one lock per
# populated zone of /proc/zoneinfo, and one pcp lock per such zone and
# online CPU. Sets method, mmtop's whole description of its classes.
check_address_table() {
	"$MMTOP" -b -n 1 -d 0.2 --format json >"$TMP/table.json"
	zones=$(awk '$1 == "managed" && $2 > 0' /proc/zoneinfo | wc -l)
	cpus=$(online_cpus | wc -w)
	method=$(sed -n 's/.*"contention_method":"\([^"]*\)".*/\1/p' "$TMP/table.json")
	check "address table: $zones zone locks, $((zones * cpus)) pcp locks (mmtop: $method)" \
		test "${method%%;*}" = "address table ($zones zone locks, $((zones * cpus)) pcp locks)"
}

# The pid a `mmtop bench` workload prints in its first line.
pid_of() { sed -n 's/^# [a-z]*: pid \([0-9]*\),.*/\1/p' "$1"; }

# csv_sum_where FILE COLUMN CONDITION: sum of COLUMN over rows for which the
# awk CONDITION holds; columns are addressed by header name as c["name"].
# pcp_round: a bench pcp round's size, more than any per-CPU page list may
# hold: twice the largest high_max in /proc/zoneinfo (the kernel tunes a
# list's high up to it under heavy allocation, since 6.7: here 288 MiB,
# which served 128 MiB rounds with no refill at all), at least 128M.
pcp_round() {
	awk '$1 == "high_max:" && $2 > m { m = $2 }
		END { mb = int(m * 4096 * 2 / 1048576) + 1; print (mb < 128 ? 128 : mb) "M" }' /proc/zoneinfo
}

csv_sum_where() {
	awk -F, -v col="$2" "NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next }
		$3 { s += \$c[col] } END { printf \"%d\\n\", s }" "$1"
}

# csv_max_where FILE COLUMN CONDITION
csv_max_where() {
	awk -F, -v col="$2" "NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next }
		$3 && \$c[col] + 0 > m { m = \$c[col] + 0 } END { printf \"%d\\n\", m }" "$1"
}

# Start `mmtop -b --format csv ARGS` into FILE and wait until its first
# interval is out (BPF loaded, baseline taken). Sets MMTOP_PID.
start_mmtop_csv() { # start_mmtop_csv FILE ARGS...
	out=$1
	shift
	# Emptied here: the redirection below empties it only in the child,
	# after the wait may have seen an earlier run's intervals.
	: >"$out"
	"$MMTOP" -b --format csv "$@" >"$out" 2>"$out.err" &
	MMTOP_PID=$! MMTOP_OUT=$out
	i=0
	while ! grep -q ',total,' "$out" 2>/dev/null; do
		if [ $i -ge 100 ] || ! kill -0 $MMTOP_PID 2>/dev/null; then
			fail "mmtop $* printed no interval within 10 s: $(cat "$out.err")"
			return 1
		fi
		sleep 0.1
		i=$((i + 1))
	done
}

# Start `mmtop serve --listen 127.0.0.1:0 ARGS` and wait until it serves
# its first interval. Sets SERVE_PID and URL (its /metrics); false if it
# did not within 10 s.
start_serve() { # start_serve ERRFILE ARGS...
	err=$1
	shift
	"$MMTOP" serve --listen 127.0.0.1:0 "$@" 2>"$err" &
	SERVE_PID=$!
	i=0
	while [ $i -lt 100 ]; do
		URL=$(sed -n 's|^mmtop: serving \(http://.*\)$|\1|p' "$err")
		[ -n "$URL" ] && curl -sf "$URL" | grep -q '^mmtop_intervals_total [1-9]' && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# Wait until tmux session SESSION's screen shows TEXT (a grep pattern);
# false after SECONDS (default 10).
screen_shows() { # screen_shows SESSION TEXT [SECONDS]
	i=0
	until tmux capture-pane -p -t "$1" | grep -q -- "$2"; do
		[ $i -ge $((${3:-10} * 10)) ] && return 1
		sleep 0.1
		i=$((i + 1))
	done
}

# The value of one sample (name and labels as printed) at URL, or nothing.
scrape_value() { # scrape_value URL SAMPLE
	curl -sf "$1" | awk -v s="$2" '$1 == s { print $2 }'
}

# watched NAME WORKLOAD...: `mmtop bench WORKLOAD` under `mmtop -b -d 0.5`
# (and $WATCH_OPTS), its output in $TMP/NAME.out, mmtop's CSV in
# $TMP/NAME.csv; sets PID to the workload's pid. A workload that fails is
# a failed check.
watched() {
	name=$1
	shift
	# shellcheck disable=SC2086
	start_mmtop_csv "$TMP/$name.csv" -d 0.5 ${WATCH_OPTS:-}
	"$MMTOP" bench "$@" >"$TMP/$name.out"
	check "$name: mmtop bench $1 exits 0" test $? -eq 0
	stop_mmtop
	PID=$(pid_of "$TMP/$name.out")
}

# Wait (10 s at most) until a line of CSV file FILE meets awk condition COND.
wait_csv() { # wait_csv FILE COND
	i=0
	while ! awk -F, "$2 { f = 1 } END { exit !f }" "$1" && [ $i -lt 200 ]; do
		sleep 0.05
		i=$((i + 1))
	done
}

# Wait until mmtop has printed an interval that began after now (so what
# ran before is all in its output: a stop drops the interval under way),
# then stop it; returns its status. 30 s at most: 5 s were once too few
# (a guest under TCG, the host's two CPUs shared with the other lane and
# a build), and churn's last rounds were left out of its counts.
stop_mmtop() {
	n=$(grep -c ',total,' "$MMTOP_OUT")
	i=0
	while [ "$(grep -c ',total,' "$MMTOP_OUT")" -lt $((n + 2)) ] && [ $i -lt 600 ] &&
	      kill -0 "$MMTOP_PID" 2>/dev/null; do
		sleep 0.05
		i=$((i + 1))
	done
	[ $i -lt 600 ] || echo "# stop_mmtop: no two more intervals in 30 s; stopped anyway"
	kill -INT "$MMTOP_PID"
	wait "$MMTOP_PID"
}

# A recording of samples of metric faults/sec-1, written byte by byte here
# (the file format of mmtop(8)), for known answers from compare.
samples_rec() { # samples_rec FILE LABEL VALUE...
	python3 - "$@" <<'PY'
import struct, sys, zlib
path, label, values = sys.argv[1], sys.argv[2], sys.argv[3:]
def frame(kind, payload):
    head = struct.pack("<II", kind, len(payload)) + payload
    return head + struct.pack("<I", zlib.crc32(head))
out = b"MMTOPREC" + struct.pack("<HHI", 1, 0, 0)
out += frame(1, ("label=%s\n" % label).encode())
for v in values:
    out += frame(3, ("metric=faults/sec-1\nvalue=%s\n" % v).encode())
open(path, "wb").write(out)
PY
}

# rows_held PID: "rows stacks": the keys of the row maps PID holds, and of
# its stored stacks.
rows_held() {
	for fd in /proc/"$1"/fdinfo/*; do
		sed -n 's/^map_id:[[:space:]]*//p' "$fd" 2>/dev/null
	done | sort -u | while read -r id; do
		name=$(bpftool map show id "$id" 2>/dev/null | awk 'NR == 1 { print $4 }')
		case $name in
		lock_stats | blame_stats | cont_stats | lock_stacks)
			echo "$name $(bpftool map dump id "$id" | grep -c '"key"')" ;;
		esac
	done | awk '$1 == "lock_stacks" { st += $2; next } { s += $2 } END { print s + 0, st + 0 }'
}

# cgroup2_mount: where the cgroup2 hierarchy is mounted (mounted under
# $TMP if nowhere: the caller unmounts it); false if it cannot be.
cgroup2_mount() {
	m=$(awk '$9 == "cgroup2" { print $5; exit }' /proc/self/mountinfo)
	if [ -z "$m" ]; then
		m=$TMP/cgroup2
		mkdir -p "$m" && mount -t cgroup2 none "$m" || return 1
	fi
	echo "$m"
}

# cgroup_pair_churn MOUNT A B [SECONDS]: a two-writer churn in cgroup A
# and a reader of its /proc/PID/smaps in B, in the background, each side
# blocking the other in turn. Sets CHURN and READER (their pids).
cgroup_pair_churn() {
	sh -c "echo \$\$ >'$1$2/cgroup.procs' && exec '$MMTOP' bench churn -t 1 --writers 2 -n 20000 --duration ${4:-4}s" \
		>/dev/null &
	CHURN=$!
	sh -c "echo \$\$ >'$1$3/cgroup.procs' && while kill -0 $CHURN 2>/dev/null; do cat /proc/$CHURN/smaps >/dev/null 2>&1; done" &
	READER=$!
}

# rss_of PID: its resident memory, in KiB.
rss_of() { awk '$1 == "VmRSS:" { print $2 }' /proc/"$1"/status; }
