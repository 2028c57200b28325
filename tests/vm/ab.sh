# The kernel A/B (mmtop(8), EXAMPLES, "Comparing two kernels"), the
# guest's half: the workloads our users publish, recorded on this kernel
# for tests/integration/kernels.sh to compare against another's. Each
# workload's directory holds the bench's own samples (--record) and
# mmtop's recording of the run around it, read together by compare: the
# numbers and, beside them, why. The files go to the host on the console,
# in base64 between "mmtop-ab: file NAME" and "mmtop-ab: end" lines.
. tests/lib.sh

out=$TMP/ab
label=$(uname -r)
mkdir -p "$out/pft" "$out/fork" "$out/pcp"
set -- $(online_cpus)
# pft at 1 and 2 threads in one shared VMA: where the kernel has per-VMA
# locks its faults leave mmap_lock (exact mode: every fault's lock seen).
"$MMTOP" record -o "$out/pft/mon.rec" -d 0.5 --exact --label "$label" -- \
	"$MMTOP" bench pft -t 1,2 -s 16M -r 3 --vma shared --record "$out/pft/pft.rec" \
	--label "$label" >"$TMP/ab.pft" 2>&1 || fail "A/B: bench pft ($(tail -n 2 "$TMP/ab.pft" | tr '\n' ' '))"
# fork of 4K, THP-folio-by-PTE and PMD-mapped THP parents, as the
# PTE-batching series measured them.
"$MMTOP" record -o "$out/fork/mon.rec" -d 0.5 --exact --label "$label" -- \
	"$MMTOP" bench fork -s 16M -n 10 --iterations 3 --record "$out/fork/fork.rec" \
	--label "$label" >"$TMP/ab.fork" 2>&1 || fail "A/B: bench fork ($(tail -n 2 "$TMP/ab.fork" | tr '\n' ' '))"
# The page allocator: allocate on one CPU, free on the other.
"$MMTOP" record -o "$out/pcp/mon.rec" -d 0.5 --enable-probe pcp --label "$label" -- \
	"$MMTOP" bench pcp --cpu "$1,$2" -s "$(pcp_round)" -r 2 >"$TMP/ab.pcp" 2>&1 ||
	fail "A/B: bench pcp ($(tail -n 2 "$TMP/ab.pcp" | tr '\n' ' '))"
# The kernel's messages share the console: only emergencies may print
# while the files go (a warning amid them cut a recording once), each
# line marked, and each file's size and sum said, for the host to check.
printk=$(cut -f1 /proc/sys/kernel/printk)
echo 1 >/proc/sys/kernel/printk
for f in pft/mon.rec pft/pft.rec fork/mon.rec fork/fork.rec pcp/mon.rec; do
	[ -s "$out/$f" ] || continue
	echo "mmtop-ab: file $f"
	base64 "$out/$f" | sed 's/^/mmtop-ab: b64 /'
	echo "mmtop-ab: end $(md5sum <"$out/$f" | cut -d' ' -f1)"
done
echo "$printk" >/proc/sys/kernel/printk
