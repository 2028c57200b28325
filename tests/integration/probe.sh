# mmtop probe: one line per item; what it claims matches the kernel's BTF.
. tests/lib.sh

why=$(bpf_refused)
"$MMTOP" probe >"$TMP/probe" 2>&1
rc=$?
cat "$TMP/probe"
# Every tracepoint a program of mmtop's attaches to is in its table
# (kernel_has.c): a family leaves out a program whose tracepoint it does
# not find there.
for o in build/*.bpf.o; do
	[ "$o" = build/floor.bpf.o ] || readelf -SW "$o"
done | grep -oE '(tp_btf|raw_tp)/[a-z_0-9]+' | sed 's|.*/||' | sort -u >"$TMP/tps"
check "the programs attach to tracepoints ($(wc -l <"$TMP/tps"))" test "$(wc -l <"$TMP/tps")" -ge 10
for tp in $(cat "$TMP/tps"); do
	check "tracepoint $tp is in the table probe lists" grep -q "^tracepoint [a-z_]*:$tp " "$TMP/probe"
done
# And nothing else: the table is the programs' tracepoints, no more.
extra=$(sed -n 's/^tracepoint [a-z_]*:\([a-z_0-9]*\) .*/\1/p' "$TMP/probe" | grep -vxF -f "$TMP/tps" | tr '\n' ' ')
check "probe lists no tracepoint that no program attaches to (${extra:-none})" test -z "$extra"
# make bench's floor (bpf/floor.bpf.c) hooks exactly the programs' tracepoints.
readelf -SW build/floor.bpf.o | grep -oE 'tp_btf/[a-z_0-9]+' | sed 's|.*/||' | sort -u >"$TMP/floor"
check "the floor hooks the programs' tracepoints, no more, no fewer (differ: $(comm -3 "$TMP/tps" "$TMP/floor" | tr -d '\t' | tr '\n' ' '))" \
	cmp -s "$TMP/tps" "$TMP/floor"
if [ -n "$why" ]; then
	check "probe without BPF: exit 1 (got $rc)" test "$rc" -eq 1
	skip "probe: $why"
	exit 0
fi
check "probe exits 0 when the default set can run (got $rc)" test "$rc" -eq 0
check "probe says the default set can run" grep -q "^default probe set: can run" "$TMP/probe"

bpftool btf dump file /sys/kernel/btf/vmlinux >"$TMP/btf" 2>/dev/null
# Each as BTF has it: attached where it is there.
for tp in $(sed -n 's/^tracepoint \([a-z_]*:[a-z_0-9]*\) .*/\1/p' "$TMP/probe"); do
	line=$(grep "^tracepoint $tp " "$TMP/probe")
	if grep -q "TYPEDEF 'btf_trace_${tp#*:}'" "$TMP/btf"; then
		case $line in
		*" yes tp_btf attached"*) pass "$tp: in BTF and attached" ;;
		*) fail "$tp: in BTF but probe says: $line" ;;
		esac
	else
		case $line in
		*" no "*|*" yes "*raw_tp*) pass "$tp: not in BTF, probe says: $line" ;;
		*) fail "$tp: not in BTF, probe says: $line" ;;
		esac
	fi
done

# mmap_lock_start_locking lost memcg_path in 6.14: 3 prototype entries, not 4.
id=$(grep "TYPEDEF 'btf_trace_mmap_lock_start_locking'" "$TMP/btf" | sed -E 's/.*type_id=([0-9]+).*/\1/')
if [ -n "$id" ]; then
	proto=$(awk -v id="[$id]" '$1 == id { print $4 }' "$TMP/btf" | sed 's/type_id=//')
	vlen=$(awk -v id="[$proto]" '$1 == id { print $NF }' "$TMP/btf" | sed 's/vlen=//')
	want="pre-6.14 layout"
	[ "$vlen" = 3 ] && want="6.14+ layout"
	check "mmap_lock layout reported as '$want' (prototype has $vlen entries)" \
		grep -q "mmap_lock_start_locking .*$want" "$TMP/probe"
fi
for item in "program type fentry" "program type kprobe" "program type tracepoint" \
	    "BPF ring buffer" "perf software fault counters" "CPUs" "NUMA nodes" \
	    "BTF /sys/kernel/btf/vmlinux" "default: per-CPU fault counts" "default: fork cost" "opt-in: PCP refills and drains"; do
	check "probe reports '$item' with yes/no and a reason" \
		grep -Eq "^$item .* (yes|no) +[^ ]" "$TMP/probe"
done
online=$(online_cpus | wc -w)
check "probe counts $online online CPUs" grep -q "^CPUs .* $online online" "$TMP/probe"
