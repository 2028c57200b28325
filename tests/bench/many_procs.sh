# make bench, many processes: MANY (10,000) live processes that each
# waited on their own mmap_lock (tests/tools/waiters.c), then stay idle,
# under `mmtop -b -d 1`. Once all are alive, over INTERVALS intervals:
# the rows mmtop's row maps hold (rows_held, at the first and the last),
# its drops (cumulative), its
# CPU time per interval and its RSS, the first half against the second:
# none may grow. Figures only.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
WAITERS=build/tests/tools/waiters
MANY=${MANY:-10000}
N=${INTERVALS:-10}
watch='' waiters=''
cleanup() {
	exec 9>&-
	kill $watch $waiters 2>/dev/null
	wait 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Lines mmtop has printed: 0 until it has made its output file.
lines() { cat "$TMP/many.json" 2>/dev/null | wc -l; }
# more_than N: wait until mmtop has printed more than N intervals; exit if it died.
more_than() {
	while [ "$(lines)" -le "$1" ]; do
		kill -0 $watch 2>/dev/null || { echo "many processes: mmtop exited: $(cat "$TMP/many.err")"; exit 1; }
		sleep 0.05
	done
}

"$MMTOP" -b -d 1 -f json >"$TMP/many.json" 2>"$TMP/many.err" &
watch=$!
more_than 0
# The waiters end when their stdin closes: fd 9 holds it open.
mkfifo "$TMP/hold"
t0=$(date +%s)
"$WAITERS" "$MANY" <"$TMP/hold" >"$TMP/waiters.out" &
waiters=$!
exec 9>"$TMP/hold"
until [ -s "$TMP/waiters.out" ]; do
	kill -0 $waiters 2>/dev/null || { echo "many processes: waiters failed"; exit 1; }
	sleep 0.2
done
ready=$(($(date +%s) - t0))
# One sample (mmtop's CPU ns, RSS KiB) as each interval is printed; the
# rows its maps hold (a dump of each: seconds) before and after.
held0=$(rows_held $watch)
at=$(lines)
: >"$TMP/samples"
while [ "$(($(lines) - at))" -lt "$N" ]; do
	more_than "$(lines)"
	echo "$(cut -d' ' -f1 /proc/$watch/schedstat) $(rss_of $watch)" >>"$TMP/samples"
done
held1=$(rows_held $watch)
alive=$(pgrep -c -P $waiters)
python3 - "$TMP/many.json" "$TMP/samples" "$at" "$MANY" "$alive" "$ready" "$(cat "$TMP/waiters.out")" \
	"$held0" "$held1" <<'EOF'
import json, sys
path, samples, at, many, alive, ready, said, held0, held1 = sys.argv[1:10]
snaps = [json.loads(l) for l in open(path)][int(at):]
cpu = [tuple(map(int, l.split())) for l in open(samples)]
rows = [int(held0.split()[0]), int(held1.split()[0])]
drops = [sum(s['drops'].values()) for s in snaps]
kinds = {k: v for k, v in snaps[-1]['drops'].items() if v}
ms = [(b[0] - a[0]) / 1e6 for a, b in zip(cpu, cpu[1:])]
rss = [c[1] for c in cpu]
def halves(v):
    h = len(v) // 2
    return sum(v[:h]) / max(h, 1), sum(v[h:]) / max(len(v) - h, 1)
print("many processes: %s live (%s: %s), all alive %s s after start" % (alive, many, said, ready))
print("  drops by kind: %s" % (", ".join("%s %d" % kv for kv in kinds.items()) or "none"))
print("  rows held           at the first interval %d, after the last %d: %s" %
      (rows[0], rows[1], "GREW" if rows[1] > rows[0] * 1.1 else "flat"))
for name, v, fmt in (("drops since start", drops, "%.0f"),
                     ("CPU ms an interval", ms, "%.3f"), ("RSS KiB", rss, "%.0f")):
    a, b = halves(v)
    grew = b > a * 1.1 and b - a > (1 if name != "RSS KiB" else 1024)
    print(("  %-19s first half " + fmt + ", second half " + fmt + ": %s") %
          (name, a, b, "GREW" if grew else "flat"))
EOF
