# A guest shaped like the machines the seeds measured (tests/integration/
# kernels.sh boots it): two NUMA nodes and many possible CPUs (qemu's
# -smp with maxcpus: hot-pluggable ones, so mmtop's per-CPU maps and
# walks have the size of a large machine, on the few CPUs TCG can run).
# Known answers from the host: NODES, ONLINE and POSSIBLE CPUs. Prints
# PASS/FAIL/SKIP lines, and mmtop's own cost there as # lines.
. tests/lib.sh

"$MMTOP" probe >"$TMP/probe" 2>&1
check "probe: $NODES NUMA nodes" grep -q "^NUMA nodes (libnuma) *yes $NODES nodes" "$TMP/probe"
cpus=$(grep '^CPUs ' "$TMP/probe" | sed 's/^CPUs *//')
check "probe: $POSSIBLE possible CPUs, $ONLINE online ($cpus)" \
	test "$cpus" = "yes $POSSIBLE possible, $ONLINE online"
check "probe: the default set runs" grep -qx "default probe set: can run" "$TMP/probe"

# pft pinned to the last CPU of node 1 touches 65536 fresh pages: node 1
# gets them, node 0 (where mmtop and this script run) far fewer.
cpu1=$(online_cpus | tr ' ' '\n' | grep -xF "$(sed 's/-/\n/; s/,/\n/g' /sys/devices/system/node/node1/cpulist)" | tail -n 1)
cpu0=$(sed 's/[-,].*//' /sys/devices/system/node/node0/cpulist)
taskset -cp "$cpu0" $$ >/dev/null
start_mmtop_csv "$TMP/f.csv" -d 0.5
taskset -c "$cpu1" "$MMTOP" bench pft -t 1 -s 256M --cpu "$cpu1" >"$TMP/pft"
stop_mmtop
got=$(csv_sum "$TMP/f.csv" node 1)
other=$(csv_sum "$TMP/f.csv" node 0)
check "faults: node 1 (CPU $cpu1) saw the workload's 65536 page faults ($got, at most 10% more)" \
	awk -v g="$got" 'BEGIN { exit !(g >= 65536 && g <= 65536 * 1.1) }'
check "faults: node 0 saw far fewer ($other < $got / 4)" test "$other" -lt $((got / 4))

# The text output's node table: both nodes, each with its CPUs.
"$MMTOP" -b -n 1 -d 0.2 >"$TMP/text" 2>&1
# The table ends at its first line that is not a node's row: the tables
# after it (mmap_lock's, by pid) also begin with numbers.
rows=$(awk '/^ NODE CPUS/ { t = 1; next } t && $1 !~ /^[0-9]+$/ { t = 0 } t { n++ } END { print n + 0 }' "$TMP/text")
check "text: the node table has $NODES rows ($rows)" test "$rows" -eq "$NODES"

# mmtop's own cost at this size (make bench compares it with 2 CPUs).
sh tests/vm/cost.sh
