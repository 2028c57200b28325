# Lock contention by class: the zone/pcp address table against the kernel's
# own zone list, and contention on a process's own mmap_lock.
. tests/lib.sh

why=$(bpf_refused)
if [ -n "$why" ]; then
	skip "contention: $why"
	exit 0
fi
pid_of() { sed -n 's/^# [a-z]*: pid \([0-9]*\),.*/\1/p' "$1"; }

# The address table holds one lock per populated zone, and one pcp lock per
# populated zone and online CPU.
"$MMTOP" -b -n 1 -d 0.2 --format json >"$TMP/one.json"
zones=$(awk '$1 == "managed" && $2 > 0' /proc/zoneinfo | wc -l)
cpus=$(online_cpus | wc -w)
method=$(sed -n 's/.*"contention_method":"\([^"]*\)".*/\1/p' "$TMP/one.json")
check "address table: $zones zone locks, $((zones * cpus)) pcp locks (mmtop: $method)" \
	test "$method" = "address table ($zones zone locks, $((zones * cpus)) pcp locks); mmap_lock by mm; else stack"

# Writers and forks against faulting siblings: their waits are on the
# process's own mmap_lock, told apart by address.
start_mmtop_csv "$TMP/c.csv" -d 0.5
"$MMTOP" bench churn -t 1 -n 1000 --fork 10 >"$TMP/churn.out"
stop_mmtop
pid=$(pid_of "$TMP/churn.out")
own=$(csv_sum_where "$TMP/c.csv" acquired "\$c[\"kind\"] == \"contention\" && \$c[\"pid\"] == $pid && \$c[\"site\"] == \"own-mmap_lock\" && \$c[\"classified_by\"] == \"address\"")
check "churn: contended waits on its own mmap_lock ($own > 0)" test "$own" -gt 0
bad=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["kind"] == "contention" && $c["site"] ~ /mmap_lock/ && $c["type"] != "rwsem"' "$TMP/c.csv" | wc -l)
check "mmap_lock contention rows are all rwsem waits ($bad others)" test "$bad" -eq 0
zone=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["kind"] == "contention" && $c["site"] == "zone" && $c["classified_by"] == "address" { print $c["symbol"] }' "$TMP/c.csv" | sort -u)
stray=$(echo "$zone" | grep -v -E '^$|rmqueue|free_pcppages_bulk|free_one_page|__free_pages_ok|highatomic|isolate|page_off_buddy|drain_pages|compact' | wc -l)
check "zone locks found by address are taken by the page allocator (callers: $(echo $zone))" \
	test "$stray" -eq 0
start_mmtop_csv "$TMP/off.csv" -d 0.3 --disable-probe contention
stop_mmtop
rows=$(awk -F, 'NR > 1 && $4 == "contention"' "$TMP/off.csv" | wc -l)
check "--disable-probe contention: no contention rows ($rows)" test "$rows" -eq 0
check "--disable-probe contention: mmap_lock still on" grep -q ';mmap_lock:' "$TMP/off.csv"
