# Process names are chosen by any user: processes named with control
# characters, escape sequences, newlines, CRs, quotes, commas, bytes that
# are not UTF-8 and Unicode's bidi override and zero-width space take mmap_lock while mmtop prints every format. Each
# output must stay valid and one row per line, and name them faithfully.
# Their uncontended mmap_lock acquisitions are rows in exact mode (the
# default set has rows for waits alone): mmtop runs with --exact.
. tests/lib.sh

why=$(bpf_refused)
if [ -n "$why" ]; then
	skip "hostile names: $why"
	exit 0
fi
sh scripts/deps.sh python3-prometheus-client >/dev/null 2>&1 || exit 1
PY=/usr/bin/python3

# Eight processes, each naming itself (prctl PR_SET_NAME) and mapping and
# unmapping memory until $TMP/stop exists; each prints its pid once named
# and mapping, in one write(2): print() may split the number from its
# newline, and two workers' lines then interleave into one.
cat >"$TMP/hostile.py" <<'EOF'
import ctypes, mmap, os, sys, time
names = [b"\x1b]0;pwned\x07", b"\x1b[2J", b"new\nline", b"\r", b"\xff\xfe",
         b'q"b\\c,d', b"\x7f\x01\xc2\x9b", b"ab\xe2\x80\xaecd\xe2\x80\x8b"]
libc = ctypes.CDLL(None)
for name in names:
    if os.fork() == 0:
        libc.prctl(15, ctypes.c_char_p(name), 0, 0, 0)
        n = 0
        while not os.path.exists(sys.argv[1]):
            m = mmap.mmap(-1, 1 << 20)
            m[0] = 1
            m.close()
            n += 1
            if n == 20:
                os.write(1, b"%d\n" % os.getpid())
            time.sleep(0.001)
        os._exit(0)
for name in names:
    os.wait()
EOF
: >"$TMP/pids"
$PY "$TMP/hostile.py" "$TMP/stop" >>"$TMP/pids" &
workers=$!
i=0
while [ "$(grep -cx '[0-9][0-9]*' "$TMP/pids")" -lt 8 ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
check "eight hostile-named processes running, one pid per line" \
	test "$(grep -cx '[0-9][0-9]*' "$TMP/pids")" -eq 8 -a "$(wc -l <"$TMP/pids")" -eq 8
for fmt in json csv text openmetrics; do
	"$MMTOP" -b --exact -d 0.3 -n 4 -f $fmt >"$TMP/out.$fmt"
done
# The viewer's mmap_lock view in a real terminal (tmux), wide enough that
# no column narrows (160 columns).
S=mmtop-hostile-$$
export TMUX_TMPDIR="$TMP"
tmux new-session -d -s "$S" -x 160 -y 50 "$MMTOP --exact -d 0.3; sleep 600"
screen_shows "$S" "probes: faults" 10
tmux send-keys -t "$S" 3
screen_shows "$S" 'pwned' 5
tmux capture-pane -p -t "$S" >"$TMP/screen"
title=$(tmux display-message -p -t "$S" '#{pane_title}')
tmux kill-server
touch "$TMP/stop"
wait $workers
check "viewer: the escape sequences are shown, not obeyed (title '$title')" \
	sh -c "test '$title' != pwned && grep -q 'x1b]0;pwned' '$TMP/screen'"
# The name column is 16 wide: on every row, hostile or not, the call site
# starts right under SITE, after a blank.
set -- $(awk '/ PID COMM / { p = index($0, "SITE") }
	p && $1 ~ /^[0-9]+$/ { rows++; if (substr($0, p - 1, 1) != " " || substr($0, p, 1) == " ") bad++ }
	END { print rows + 0, bad + 0 }' "$TMP/screen")
check "viewer: names stay in their column ($2 of $1 rows pushed the next one)" \
	test "$1" -ge 8 -a "$2" -eq 0

pids=$(tr '\n' ' ' <"$TMP/pids")
$PY - "$TMP/out.json" $pids <<'EOF' >"$TMP/json.check"
import json, sys
want = {"\x1b]0;pwned\x07", "\x1b[2J", "new\nline", "\r", "\\xff\\xfe", 'q"b\\c,d', "\x7f\x01\x9b",
        "ab\u202ecd\u200b"}
pids = set(int(p) for p in sys.argv[2:])
seen = {}
for line in open(sys.argv[1], "rb"):
    obj = json.loads(line.decode("utf-8", errors="strict"))
    for row in obj.get("mmap_lock", []):
        if row["pid"] in pids:
            seen[row["pid"]] = row["comm"]
print(len(seen), sorted(set(seen.values()) - want))
EOF
# All eight have rows (each takes mmap_lock thousands of times a second),
# and every name shown is exact.
set -- $(cat "$TMP/json.check")
check "json: every line valid UTF-8 JSON, the names read back exactly ($(cat "$TMP/json.check"))" \
	sh -c "test '$1' -eq 8 && test '$2' = '[]'"
$PY - "$TMP/out.csv" $pids <<'EOF' >"$TMP/csv.check"
import csv, io, sys
text = open(sys.argv[1], "rb").read().decode("utf-8", errors="strict")
rows = list(csv.reader(io.StringIO(text, newline="")))
width = len(rows[0])
bad = sum(1 for r in rows if len(r) != width)
col = rows[0].index("pid")
pids = set(sys.argv[2:])
print(bad, len(set(r[col] for r in rows[1:] if r[col] in pids)))
EOF
set -- $(cat "$TMP/csv.check")
check "csv: valid UTF-8, every row as wide as the header, the named pids there ($(cat "$TMP/csv.check"))" \
	test "${1:-1}" -eq 0 -a "${2:-0}" -eq 8
ctl=$(tr -d '\n' <"$TMP/out.text" | LC_ALL=C tr -d '\040-\176\200-\377' | wc -c)
check "text: no control byte but the line ends ($ctl)" test "$ctl" -eq 0
# U+202E (right-to-left override) and U+200B (zero-width space) as they
# are would reorder or hide what follows: escaped in every output.
raw=$(cat "$TMP/out.text" "$TMP/out.csv" "$TMP/out.openmetrics" "$TMP/out.json" "$TMP/screen" |
	grep -c "$(printf '\342\200\256\|\342\200\213')")
esc=$(grep -c 'ab\\xe2\\x80\\xaecd' "$TMP/out.text")
check "bidi override and zero-width space: never printed raw ($raw lines), escaped as bytes in text ($esc lines)" \
	test "$raw" -eq 0 -a "$esc" -gt 0
check "text: valid UTF-8" $PY -c 'import sys; open(sys.argv[1], "rb").read().decode("utf-8")' "$TMP/out.text"
rows=0
for pid in $pids; do
	grep -qE "^ *$pid " "$TMP/out.text" && rows=$((rows + 1))
done
check "text: each named process on a row of its own starting with its pid ($rows of 8)" test $rows -eq 8
check "openmetrics: every exposition parses" $PY -c 'import sys
from prometheus_client.openmetrics.parser import text_string_to_metric_families as p
for part in open(sys.argv[1], encoding="utf-8").read().split("# EOF\n")[:-1]:
    list(p(part + "# EOF\n"))' "$TMP/out.openmetrics"
