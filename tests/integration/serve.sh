# mmtop serve over HTTP: formats, bad and slow clients, stopping; textfile
# output replaced whole. Real Prometheus scrapes it in prometheus.sh.
. tests/lib.sh

why=$(bpf_refused)
if [ -n "$why" ]; then
	skip "serve: $why"
	exit 0
fi
sh scripts/deps.sh prometheus python3-prometheus-client curl >/dev/null || exit 1
PY=/usr/bin/python3

# An OpenMetrics parser that is not ours: the Python client's.
om_valid() { # om_valid FILE
	$PY -c 'import sys
from prometheus_client.openmetrics.parser import text_string_to_metric_families as parse
n = len(list(parse(open(sys.argv[1]).read())))
sys.exit(0 if n > 10 else 1)' "$1"
}

# Exact mode: every family documented has series, an idle machine's
# uncontended acquisitions among them (the default set's are of waits).
check "serve: first interval served" start_serve "$TMP/serve.err" -d 0.2 --exact
ids=$(prog_ids_of "$SERVE_PID")
check "serve: BPF programs loaded ($(echo $ids | wc -w))" test -n "$ids"

curl -sf -D "$TMP/h004" "$URL" >"$TMP/m004"
check "default: text format 0.0.4" grep -qi '^content-type: text/plain; version=0.0.4' "$TMP/h004"
promtool check metrics <"$TMP/m004" >"$TMP/promtool" 2>&1
rc=$?
check "promtool check metrics accepts it (rc $rc: $(head -c 300 "$TMP/promtool"))" test $rc -eq 0
check "every family has HELP and TYPE" awk '
	/^# HELP / { h[$3] = 1 } /^# TYPE / { t[$3] = 1 }
	!/^#/ { n = $1; sub(/\{.*/, "", n); b = n; sub(/_(bucket|sum|count)$/, "", b)
		if (!((n in h && n in t) || (b in h && b in t))) bad++ }
	END { exit bad > 0 }' "$TMP/m004"

curl -sf -D "$TMP/hom" -H 'Accept: application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5' \
	"$URL" >"$TMP/mom"
check "Accept openmetrics: OpenMetrics 1.0" grep -qi '^content-type: application/openmetrics-text; version=1.0.0' "$TMP/hom"
check "openmetrics: ends with # EOF" test "$(tail -n 1 "$TMP/mom")" = "# EOF"
check "openmetrics: the Python client's parser accepts it" om_valid "$TMP/mom"
for f in mmtop_page_faults_total mmtop_vma_lock_fallbacks_total mmtop_mmap_lock_acquisitions_total \
	mmtop_mmap_lock_wait_seconds_bucket mmtop_mmap_lock_hold_seconds_count \
	mmtop_lock_contention_wait_seconds_total mmtop_lock_contentions_total mmtop_forks_total \
	mmtop_fork_latency_seconds_bucket mmtop_dropped_events_total mmtop_build_info \
	mmtop_scrape_duration_seconds; do
	grep -q "^$f[{ ]" "$TMP/m004" || missing="$missing $f"
done
check "the documented families are there (missing:${missing:-none})" test -z "$missing"

code() { curl -s -o /dev/null -w '%{http_code}' "$@"; }
check "GET /nope: 404" test "$(code "${URL%/metrics}/nope")" = 404
check "POST /metrics: 405" test "$(code -X POST -d x "$URL")" = 405
check "405 names the allowed methods" sh -c "curl -s -D - -o /dev/null -X DELETE '$URL' | grep -qi '^allow: GET, HEAD'"
check "HEAD /metrics: 200" test "$(code -I "$URL")" = 200

# Garbage, oversized and half-sent requests, then slow readers and many
# scrapers: collection goes on and good scrapes are answered meanwhile.
addr=${URL#http://}
addr=${addr%/metrics}
$PY - "${addr%:*}" "${addr##*:}" <<'EOF' >"$TMP/bad" 2>&1
import socket, sys
host, port = sys.argv[1], int(sys.argv[2])
def conn():
    s = socket.create_connection((host, port), timeout=5)
    return s
for req in [b"\x00\xff\xfe garbage\r\n\r\n", b"GET /metrics HTTP/9.9\r\n\r\n",
            b"GET " + b"A" * 100000 + b" HTTP/1.1\r\n\r\n",
            b"GET /metrics HTTP/1.1\r\nHost: x\r\nX: " + b"y" * 200000 + b"\r\n\r\n",
            b"GET /metrics HTTP/1.1\r\n"]:
    s = conn()
    try:
        s.sendall(req)
        s.shutdown(socket.SHUT_WR)
        s.recv(100)
    except OSError:
        pass
    s.close()
EOF
check "garbage requests: mmtop still running" kill -0 "$SERVE_PID"
check "garbage requests: still serving" test "$(code "$URL")" = 200

# 20 clients that send half a request and wait; 5 that ask 50 times and
# never read. Held open while we scrape and watch the interval count.
$PY - "${addr%:*}" "${addr##*:}" "$TMP/held" <<'EOF' &
import socket, sys, time
host, port, flag = sys.argv[1], int(sys.argv[2]), sys.argv[3]
held = []
for i in range(20):
    s = socket.create_connection((host, port))
    s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n")
    held.append(s)
for i in range(5):
    s = socket.create_connection((host, port))
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n" * 50)
    held.append(s)
open(flag, "w").close()
time.sleep(6)
EOF
slow=$!
i=0
while [ ! -e "$TMP/held" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
n0=$(scrape_value "$URL" mmtop_intervals_total)
ok=0
for j in 1 2 3 4 5 6 7 8; do
	(for k in 1 2 3 4 5 6 7 8 9 10; do code "$URL"; echo; done) >"$TMP/par.$j" &
done
wait_for_scrapers() { for j in 1 2 3 4 5 6 7 8; do [ "$(grep -c '^200$' "$TMP/par.$j")" -eq 10 ] || return 1; done; }
i=0
while ! wait_for_scrapers && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
check "8 concurrent scrapers x 10 with 25 slow clients held: all 200" wait_for_scrapers
n1=$n0
i=0
while [ "${n1:-0}" -lt $((n0 + 3)) ] && [ $i -lt 50 ]; do
	sleep 0.1
	n1=$(scrape_value "$URL" mmtop_intervals_total)
	i=$((i + 1))
done
check "collection goes on under slow clients ($n0 -> $n1 intervals)" test "${n1:-0}" -ge $((n0 + 3))
kill "$slow" 2>/dev/null
wait "$slow" 2>/dev/null

# 100 clients that send half a request and wait: a scrape is answered
# while they are all still held, not once a timeout has freed a place.
$PY - "${addr%:*}" "${addr##*:}" "$TMP/held100" "$TMP/scraped" <<'EOF' &
import os, socket, sys, time
host, port, flag, done = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
held = []
for i in range(100):
    s = socket.create_connection((host, port))
    s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n")
    held.append(s)
open(flag, "w").close()
while not os.path.exists(done):
    time.sleep(0.01)
open_now = 0
for s in held:
    s.setblocking(False)
    try:
        open_now += s.recv(1) != b""
    except BlockingIOError:
        open_now += 1
    except OSError:
        pass
open(done + ".held", "w").write("%d\n" % open_now)
EOF
held=$!
i=0
while [ ! -e "$TMP/held100" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
got=$(code "$URL")
touch "$TMP/scraped"
wait "$held"
check "100 idle clients: a scrape answered ($got) while all of them are held ($(cat "$TMP/scraped.held") of 100)" \
	test "$got" = 200 -a "$(cat "$TMP/scraped.held")" -eq 100

# Slow clients by the hundred from the scraper's own address, each sending
# a header byte every 2 s and connecting again when let go (a slowloris):
# once they hold every place, each of 20 scrapes is answered within 1 s
# (before serve_room.c, 300 of them kept 11 of 20 from an answer in 10 s).
cat >"$TMP/loris.py" <<'EOF'
import os, socket, sys, time
host, port, n, stop = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
def dial():
    s = socket.socket()
    s.setblocking(False)
    try:
        s.connect((host, port))
    except OSError:
        pass
    return s
socks = [dial() for i in range(n)]
while not os.path.exists(stop):
    for i, s in enumerate(socks):
        try:
            s.send(b"G")
        except BlockingIOError:
            pass
        except OSError:
            s.close()
            socks[i] = dial()
    time.sleep(2)
EOF
port=${addr##*:}
for n in 300 1000; do
	rm -f "$TMP/loris.stop"
	$PY "$TMP/loris.py" "${addr%:*}" "$port" $n "$TMP/loris.stop" &
	loris=$!
	i=0
	while [ "$(ss -Htn state established "( sport = :$port )" | wc -l)" -lt 256 ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	held=$(ss -Htn state established "( sport = :$port )" | wc -l)
	fast=0 slowest=0
	for j in $(seq 20); do
		# shellcheck disable=SC2046
		set -- $(curl -s -o /dev/null -m 10 -w '%{http_code} %{time_total}' "$URL")
		[ "$1" = 200 ] && awk -v t="$2" 'BEGIN { exit !(t <= 1) }' && fast=$((fast + 1))
		slowest=$(awk -v a="$slowest" -v b="${2:-10}" 'BEGIN { print (b > a ? b : a) }')
	done
	touch "$TMP/loris.stop"
	wait "$loris"
	check "$n slowloris clients ($held connections held): $fast of 20 scrapes answered within 1 s (slowest ${slowest}s)" \
		test "$fast" -eq 20 -a "$held" -ge 256
done

# A second server on the same port: a clear error before any BPF work.
"$MMTOP" serve --listen "$addr" 2>"$TMP/busy.err"
rc=$?
check "busy port: exit 1 (got $rc)" test $rc -eq 1
check "busy port: the address is named ($(cat "$TMP/busy.err"))" grep -q "cannot listen on $addr" "$TMP/busy.err"
"$MMTOP" serve --listen nonsense 2>"$TMP/spec.err"
rc=$?
check "a listen address without a port: a usage error, exit 2 (got $rc)" test $rc -eq 2
check "a listen address without a port: said why" grep -q 'expected ADDR:PORT' "$TMP/spec.err"
for port in 65536 99999 -1 1x; do
	"$MMTOP" serve --listen "127.0.0.1:$port" 2>"$TMP/port.err"
	rc=$?
	check "--listen port $port: refused, exit 2 (got $rc: $(head -1 "$TMP/port.err"))" \
		sh -c "test $rc -eq 2 && grep -q 'the port must be 0-65535' '$TMP/port.err'"
done

kill -TERM "$SERVE_PID"
wait "$SERVE_PID"
rc=$?
check "SIGTERM: exit 0 (got $rc)" test $rc -eq 0
check "SIGTERM: its BPF programs gone" progs_gone "$ids"
start_serve "$TMP/serve2.err" -d 0.2 >/dev/null
kill -INT "$SERVE_PID"
wait "$SERVE_PID"
rc=$?
check "SIGINT: exit 0 (got $rc)" test $rc -eq 0

# -o FILE: each interval replaces the file whole. A reader racing the
# writer must only ever see complete expositions.
for fmt in openmetrics prometheus; do
	"$MMTOP" -b -d 0.05 -n 40 -f $fmt -o "$TMP/m.$fmt" &
	pid=$!
	$PY - "$TMP/m.$fmt" $pid >"$TMP/race.$fmt" <<'EOF'
import os, sys
path, pid = sys.argv[1], int(sys.argv[2])
reads = bad = 0
def alive():
    try:
        os.kill(pid, 0)
        return True
    except OSError:
        return False
while alive():
    try:
        t = open(path).read()
    except FileNotFoundError:
        continue
    reads += 1
    last = t.rstrip("\n").split("\n")[-1]
    if not last.startswith("mmtop_scrape_duration_seconds") and last != "# EOF":
        bad += 1
    elif t.count("# HELP mmtop_build") != 1:
        bad += 1
print(reads, bad)
EOF
	wait $pid
	rc=$?
	set -- $(cat "$TMP/race.$fmt")
	check "-o $fmt: 40 intervals written (rc $rc)" test $rc -eq 0
	check "-o $fmt: $1 racing reads saw no partial file ($2 bad)" test "${1:-0}" -gt 0 -a "${2:-1}" -eq 0
	check "-o $fmt: no temporary file left" test "$(ls "$TMP" | grep -c "^m\.$fmt\.")" -eq 0
	check "-o $fmt: counters cumulative (40 intervals)" \
		grep -q '^mmtop_intervals_total 40$' "$TMP/m.$fmt"
done
check "-o prometheus: promtool accepts the textfile" sh -c "promtool check metrics <'$TMP/m.prometheus'"
check "-o openmetrics: the Python client's parser accepts the file" om_valid "$TMP/m.openmetrics"
"$MMTOP" -b -n 3 -d 0.1 -f openmetrics >"$TMP/stream.om"
check "openmetrics stream: one complete exposition per interval" \
	test "$(grep -c '^# EOF$' "$TMP/stream.om")" -eq 3
awk '/^# EOF$/ { n++; next } { print > (dir "/part." n) }' dir="$TMP" "$TMP/stream.om"
for n in 0 1 2; do echo "# EOF" >>"$TMP/part.$n"; done
check "openmetrics stream: each exposition parses alone" \
	sh -c "for n in 0 1 2; do $PY -c 'import sys
from prometheus_client.openmetrics.parser import text_string_to_metric_families as p
list(p(open(sys.argv[1]).read()))' '$TMP'/part.\$n || exit 1; done"
check "openmetrics stream: intervals counted 1, 2, 3" \
	test "$(grep '^mmtop_intervals_total' "$TMP/stream.om" | awk '{ printf "%s", $2 }')" = 123
