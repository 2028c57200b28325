# Lock contention by class: the zone/pcp address table against the kernel's
# own zone list, and contention on a process's own mmap_lock.
. tests/lib.sh

why=$(bpf_refused)
if [ -n "$why" ]; then
	skip "contention: $why"
	exit 0
fi

check_address_table

# Writers and forks against faulting siblings: their waits are on the
# process's own mmap_lock, told apart by address. Paced, so that the
# writers run while the sibling faults.
start_mmtop_csv "$TMP/c.csv" -d 0.5
"$MMTOP" bench churn -t 1 -n 1000 --chunk 64K --paced --fork 10 >"$TMP/churn.out"
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

# A lock without modes: two writers and a reader of one pipe wait for its
# mutex (anon_pipe_write, pipe_write before 6.15). Their slow waits say
# "-", as the pipe's contention rows do; before format 2.9 they said read.
start_mmtop_csv "$TMP/p.csv" -d 0.5 --slow 20us
(dd if=/dev/zero bs=1M count=2000 status=none & dd if=/dev/zero bs=1M count=2000 status=none &
	wait) | cat >/dev/null
stop_mmtop
modes=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["kind"] == "event" && $c["symbol"] ~ /pipe_(read|write)$/ { print $c["mode"] }' "$TMP/p.csv" |
	sort | uniq -c | tr -s ' ' | tr '\n' ';')
check "pipe mutex: its slow waits have no mode ($modes)" \
	sh -c "echo '$modes' | grep -q ' -;' && ! echo '$modes' | grep -q -E 'read|write'"

# VMA write-lock waits: a writer flipping the protection of a VMA that a
# sibling keeps faulting huge pages into waits for the faults in flight.
if bpftool btf dump file /sys/kernel/btf/vmlinux | grep -q "'vm_refcnt'"; then
	# A program on every context switch: a mode of its own.
	check "VMA write waits are off by default, and say how to watch them" \
		sh -c "echo '$method' | grep -q 'VMA write waits: off (--vma-waits: a program on every context switch)'"
	"$MMTOP" -b -n 1 -d 0.2 --vma-waits --format json >"$TMP/vw.json"
	check "--vma-waits: VMA write waits are watched as D-state sleeps" \
		grep -q 'VMA write waits: D-state sleeps of mmap_lock write holders' "$TMP/vw.json"
	# Paced, each of the 300 flips lands inside a huge-page fault
	# (295 of 300 waited, measured apart from mmtop); unpaced, 1 to 278
	# of 3000 did, so a quarter is far from both.
	# Every flip's sleep: the sleep is timed from a write hold the
	# per-acquisition programs saw (--exact: not only in windows).
	start_mmtop_csv "$TMP/v.csv" -d 0.5 --vma-waits --exact
	"$MMTOP" bench churn --shared-vma --paced --chunk 16M -t 1 -n 300 >"$TMP/v.out"
	stop_mmtop
	pid=$(pid_of "$TMP/v.out")
	n=$(csv_sum_where "$TMP/v.csv" acquired "\$c[\"kind\"] == \"contention\" && \$c[\"pid\"] == $pid && \$c[\"site\"] == \"vma-write\" && \$c[\"type\"] == \"d-sleep\" && \$c[\"symbol\"] == \"__vma_start_write\"")
	wait_ns=$(csv_sum_where "$TMP/v.csv" wait_total_ns "\$c[\"kind\"] == \"contention\" && \$c[\"pid\"] == $pid && \$c[\"site\"] == \"vma-write\"")
	check "shared-VMA churn: most of 300 paced flips waited in __vma_start_write ($n waits, ${wait_ns}ns)" \
		test "$n" -ge 75 -a "$n" -le 300 -a "$wait_ns" -gt 0
else
	check "VMA write waits on rwsem kernels come from contention" \
		sh -c "echo '$method' | grep -q 'VMA write waits: \(rwsem contention\|n/a\)'"
fi
