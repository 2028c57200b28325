# A real Prometheus server scrapes `mmtop serve` every second; PromQL over
# its HTTP API must agree with workloads of known effect: pages faulted on
# CPU 1, and the workload's own fork() times. The fleet kit in contrib/ is
# checked with it: the rules pass promtool's checks and unit tests, and
# every recording rule and every query of the Grafana dashboard returns
# data from this scrape once the workloads have run.
. tests/lib.sh

why=$(bpf_refused)
if [ -n "$why" ]; then
	skip "prometheus: $why"
	exit 0
fi
[ "$(online_cpus)" = "0 1 " ] || [ -n "$(online_cpus | grep -w 1)" ] || {
	skip "prometheus: CPU 1 is offline"
	exit 0
}
sh scripts/deps.sh prometheus curl >/dev/null || exit 1
PY=/usr/bin/python3

RULES=contrib/prometheus/mmtop.rules.yml
check "contrib: promtool check rules $RULES" promtool check rules "$RULES"
check "contrib: promtool test rules (known rates in, recorded values and alerts out)" \
	sh -c "cd contrib/prometheus && promtool test rules mmtop.rules.test.yml"

# mmtop, Prometheus and this script on CPU 0; the workloads alone on CPU 1.
# PCP on: the dashboard draws it.
taskset -cp 0 $$ >/dev/null
# --exact: the blame series below count waits behind a /proc reader by
# its call site (proc), which is exact mode's.
start_serve "$TMP/serve.err" -d 0.5 --exact --enable-probe pcp || { fail "mmtop serve did not start: $(cat "$TMP/serve.err")"; exit 1; }
target=${URL#http://}
target=${target%/metrics}
pport=$($PY -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat >"$TMP/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
  evaluation_interval: 1s
rule_files:
  - $(pwd)/$RULES
scrape_configs:
  - job_name: mmtop
    static_configs:
      - targets: ['$target']
EOF
prometheus --config.file="$TMP/prometheus.yml" --storage.tsdb.path="$TMP/data" \
	--web.listen-address="127.0.0.1:$pport" --log.level=warn >"$TMP/prometheus.log" 2>&1 &
prom=$!
trap 'kill $prom $SERVE_PID 2>/dev/null; wait $prom $SERVE_PID 2>/dev/null; rm -rf "$TMP"' EXIT

# promql.py wait EXPR MIN: until EXPR's value is at least MIN (60 s at most);
# prints the evaluation time. promql.py at TIME EXPR: EXPR's value at TIME.
# promql.py run OUT CMD...: CMD (stdout to OUT) between two scrapes, and
# prints their timestamps. The first holds an interval that ended after
# promql.py started, and was stored before CMD began, so mmtop had
# answered it: it holds nothing of CMD (a scrape's timestamp is when it
# began, and mmtop may answer late). The last holds mmtop's first interval
# that ended after CMD, so all of CMD. What the window counts happened
# while promql.py ran. One process, spawning by vfork: no
# fork of this test falls in the window.
cat >"$TMP/promql.py" <<'EOF'
import json, subprocess, sys, time, urllib.parse, urllib.request
base = "http://127.0.0.1:%s/api/v1/query" % sys.argv[1]
LAST = "mmtop_last_interval_timestamp_seconds"
def query(expr, at):
    url = base + "?" + urllib.parse.urlencode({"query": expr, "time": "%.3f" % at})
    try:
        with urllib.request.urlopen(url, timeout=5) as r:
            res = json.load(r)["data"]["result"]
    except (OSError, ValueError, KeyError):
        return None
    return float(res[0]["value"][1]) if res else None
def wait(expr, least):
    """The first time at which EXPR is at least LEAST (60 s at most)."""
    end = time.time() + 60
    while time.time() < end:
        now = time.time()
        v = query(expr, now)
        if v is not None and v >= least:
            return now
        time.sleep(0.1)
    sys.exit(1)
def scrape(at):
    return query("timestamp(%s)" % LAST, at)
if sys.argv[2] == "wait":
    print("%.3f" % wait(sys.argv[3], float(sys.argv[4])))
    sys.exit(0)
if sys.argv[2] == "run":
    first = scrape(wait(LAST, time.time()))
    with open(sys.argv[3], "w") as out:
        subprocess.run(sys.argv[4:], stdout=out, check=True)
    print("%.3f %.3f" % (first, scrape(wait(LAST, time.time()))))
    sys.exit(0)
v = query(sys.argv[4], float(sys.argv[3]))
print("none" if v is None else repr(v))
EOF
promql() { $PY "$TMP/promql.py" "$pport" "$@"; }
# The window between the scrapes FROM and TO, as "RANGE END": increase()
# over it has a sample at each end, so Prometheus extrapolates by 1 ms at
# most (0.05% of it). The range is 1 ms longer than the span between the
# two scrapes: with exactly the span, the first scrape sits on the range's
# edge and is in or out by a rounding.
scrape_window() { # scrape_window FROM TO
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%dms %.3f\n", (b - a) * 1000 + 1.5, b }'
}

check "Prometheus scrapes mmtop (up == 1)" promql wait 'up{job="mmtop"}' 1 >/dev/null
n=$(promql at "$(date +%s.%N)" 'scrape_samples_scraped{job="mmtop"}')
check "Prometheus parsed the exposition ($n samples)" awk -v n="$n" 'BEGIN { exit !(n + 0 > 50) }'

# Faults: 256 MiB touched by one thread on CPU 1 is 65536 minor faults.
# Whatever else runs on CPU 1 meanwhile faults too: perf stat counts CPU 1
# for as long as promql.py runs, a span that holds the window. The window's
# count lies between the workload's pages and perf's count; perf's event
# leaves out the faults taken for get_user_pages() (exec's argument pages),
# a few per exec: 1% above it is allowed, no more.
perf stat -a -C 1 -x, -e minor-faults -o "$TMP/perf" -- \
	$PY "$TMP/promql.py" "$pport" run "$TMP/pft.out" \
	taskset -c 1 "$MMTOP" bench pft -s 256M --cpu 1 >"$TMP/window"
set -- $(cat "$TMP/window")
check "Prometheus holds the interval after the workload" test -n "$2"
pages=$(awk '$1 == 1 { print $3 }' "$TMP/pft.out")
seen=$(awk -F, '$3 == "minor-faults" { print $1 }' "$TMP/perf")
sel='mmtop_page_faults_total{cpu="1",type="minor"}'
set -- $(scrape_window "$1" "$2")
inc=$(promql at "$2" "increase(${sel}[$1])")
check "PromQL: increase() of minor faults on CPU 1 over the workload ($inc, $1) from its $pages pages to perf's $seen + 1%" \
	awk -v n="${inc%.*}" -v lo="$pages" -v hi="$seen" 'BEGIN { exit !(n >= lo && n <= hi * 1.01) }'

# Forks: the median of the fork latency histogram lies within the
# workload's own forks. mmtop's window (dup_mmap's lock request to
# sched_process_fork) lies inside each fork() and leaves out a fixed part
# (copy_process before dup_mmap, waking the child, the return: 80-150 us
# here): at least 75% of the fastest fork() of a 4K-backed parent of 64 MiB
# or more, as fork.sh checks; 128 MiB here. histogram_quantile() places
# the median by linear interpolation inside the bucket that holds it, so
# it can stray from the forks themselves by up to that bucket's width:
# the bounds are widened by one bucket (a ratio of 2^(1/4)), no more.
set -- $(promql run "$TMP/fork.out" taskset -c 1 "$MMTOP" bench fork -s 128M -n 40)
window=$(scrape_window "$1" "$2")
set -- $(awk '$1 ~ /^[0-9]+$/ { print $5, $6 }' "$TMP/fork.out")
min=$1 max=$2
set -- $window
q=$(promql at "$2" "histogram_quantile(0.5, sum by (le) (increase(mmtop_fork_latency_seconds_bucket{backing=\"4k\"}[$1])))")
forks=$(promql at "$2" "increase(mmtop_forks_total[$1])")
check "PromQL: fork count over the window ($forks) at least the workload's 40" \
	awk -v n="$forks" 'BEGIN { exit !(n + 0 >= 40) }'
check "PromQL: median fork latency ${q}s within 75% of the workload's fastest ${min} us and its slowest ${max} us (one bucket's width)" \
	awk -v q="$q" -v lo="$min" -v hi="$max" -v r=1.189207 \
	'BEGIN { exit !(q * 1e6 >= lo * 0.75 / r && q * 1e6 <= hi * r) }'

# The fleet kit against this scrape: a /proc reader's hold of a churning
# process's mmap_lock gives the foreign-holder blame series; then every
# recording rule and every dashboard query (its $instance all, its rate
# window the whole test) must return a finite value.
set -- $(promql run "$TMP/churn.out" taskset -c 1 "$MMTOP" bench churn -t 1 -n 3000 --proc-reader)
at=$2
foreign=$(promql at "$at" 'sum(mmtop_mmap_lock_blame_waits_total{holder="foreign",holder_site="proc"})')
check "blame series: waits behind the foreign /proc reader, labelled holder=\"foreign\" ($foreign)" \
	awk -v n="$foreign" 'BEGIN { exit !(n + 0 > 0) }'
cat >"$TMP/kit.py" <<'EOF'
import json, re, sys, urllib.parse, urllib.request, math
port, at, rules, dash = sys.argv[1:5]
def values(expr):
    url = "http://127.0.0.1:%s/api/v1/query?%s" % (port, urllib.parse.urlencode({"query": expr, "time": at}))
    with urllib.request.urlopen(url, timeout=5) as r:
        res = json.load(r)["data"]["result"]
    return [float(x["value"][1]) for x in res if not math.isnan(float(x["value"][1]))]
exprs = [("rule " + m, m) for m in re.findall(r"^\s*- record: (\S+)", open(rules).read(), re.M)]
for p in json.load(open(dash))["panels"]:
    for t in p["targets"]:
        e = t["expr"].replace("$__rate_interval", "5m").replace('=~"$instance"', '=~".*"')
        exprs.append(("panel '%s' %s" % (p["title"], t["refId"]), e))
for name, e in exprs:
    v = values(e)
    print("%s\t%d" % (name, len(v)))
EOF
# A series born in the churn has a rate once scraped three times, and the
# rules evaluated on it after that.
at=$(promql wait 'min(count_over_time(mmtop_mmap_lock_blame_wait_seconds_total{holder="foreign"}[5m])) >= 3 and on() count(mmtop:mmap_lock_blame_wait_seconds:rate1m{holder="foreign"})' 1)
$PY "$TMP/kit.py" "$pport" "$at" "$RULES" contrib/grafana/mmtop.json >"$TMP/kit.out" 2>&1
check "contrib: the rules and the dashboard's queries evaluated ($(wc -l <"$TMP/kit.out") expressions)" \
	test "$(wc -l <"$TMP/kit.out")" -ge 16
while IFS="$(printf '\t')" read -r name n; do
	check "contrib: $name returns data from the scrape ($n series)" test "${n:-0}" -gt 0
done <"$TMP/kit.out"
