# The kernel matrix: the known-answer checks of tests/vm/checks.sh on the
# running kernel and, booted under qemu, on the kernels of Debian's
# archive that users run: Debian 11's 5.10, Debian 12's 6.1 (without
# per-VMA locks) and its 6.12 LTS, and sid's newest (7.2 as this is
# written) for x86_64; 6.1 and sid's for arm64 with the cross build (make
# ARCH=arm64). Each is the kernel its metapackage names today, so the
# matrix follows Debian's updates and sid's new kernels. One build of
# mmtop an architecture for all of them. The guests boot two at a time,
# in two lanes (the machine's two CPUs), after the running kernel's
# checks, which they would disturb. Each result line names its kernel and
# architecture.
. tests/lib.sh
. tests/vm/vm.sh

# PACKAGE[@SUITE] VMA_LOCKS LACKS LEVELS LANE AB, known answers (checks.sh): the VMA
# lock each series has (none before 6.4; the vm_lock rwsem 6.4-6.14;
# vm_refcnt from 6.15) and what it cannot have: 5.10 has no mmap_lock
# tracepoints (5.11) nor contention_begin (5.19), and no bpf_loop (5.17)
# for the fork backing's page-table walk; only sid's kernels have
# lock:contended_release, for the default set's exact holders (release);
# before 6.4 a map's fdinfo memlock is its charge, not its use (memusage).
# LEVELS, its page tables': 5 for sid's arm64 kernel (52-bit virtual
# addresses with LPA2, which qemu's CPU has), and for 6.12 on x86, booted
# on a CPU with 5-level paging (la57: qemu's -cpu max, under TCG); 4 for
# the rest. LANE
# balances the lanes' time (TCG, seconds here with the other lane busy:
# 5.10 50, 6.1 60-100, 6.12 80-100, 7.2 95-110; arm64 6.1 150, 7.2 170);
# lane 1 also boots the two-node guest of many CPUs (55). AB: ab where the
# guest also records the kernel A/B's workloads (tests/vm/ab.sh, compared
# below): Debian 12's 6.1, without per-VMA locks or fork's PTE batching,
# against its 6.12, with both.
MATRIX="linux-image-cloud-amd64@bullseye none mmap_lock,contention,backing,release,memusage 4 1 -
linux-image-cloud-amd64 none release,memusage 4 2 ab
linux-image-6.12-cloud-amd64 rwsem release 5 2 ab
linux-image-cloud-amd64@sid refcnt - 4 1 -
linux-image-cloud-arm64:arm64 none release,memusage 4 1 -
linux-image-cloud-arm64:arm64@sid refcnt - 5 2 -"

label() { sed "s/^\(PASS\|FAIL\|SKIP\) /\1 [$1] /"; }

# The running kernel: its VMA lock read from its BTF with bpftool (not
# mmtop, whose reading is under test).
why=$(bpf_refused)
if [ -n "$why" ]; then
	skip "kernel matrix on the running kernel: $why"
else
	btf=$(bpftool btf dump file /sys/kernel/btf/vmlinux 2>/dev/null)
	vma=none
	echo "$btf" | grep -q "'vm_lock' type_id" && vma=rwsem
	echo "$btf" | grep -q "'vm_refcnt' type_id" && vma=refcnt
	lacks=
	echo "$btf" | grep -q "'btf_trace_contention_begin'" || lacks=mmap_lock,contention
	echo "$btf" | grep -q "'BPF_FUNC_loop' val" || lacks="$lacks,backing"
	echo "$btf" | grep -q "'btf_trace_contended_release'" || lacks="$lacks,release"
	echo "$btf" | grep -q "'map_mem_usage' type_id" || lacks="$lacks,memusage"
	levels=4
	grep -qw la57 /proc/cpuinfo && levels=5
	VMA_LOCKS=$vma LACKS=$lacks PT_LEVELS=$levels sh tests/vm/checks.sh 2>&1 |
		label "$(uname -r)"
fi

[ "$(uname -m)" = x86_64 ] || { skip "kernel matrix: boots from an x86_64 host only"; exit 0; }

# The arm64 binary: the cross build, its result a check of its own.
make -s ARCH=arm64 >"$TMP/cross" 2>&1
check "arm64: make ARCH=arm64 builds build/arm64/mmtop ($(tail -n 3 "$TMP/cross" | tr '\n' ' '))" \
	sh -c "readelf -h build/arm64/mmtop | grep -q AArch64"

# The guest's root for ARCH (x86_64, aarch64), made once.
initrd() {
	[ -e "$TMP/initrd-$1.gz" ] && return
	bin=mmtop
	[ "$1" = aarch64 ] && bin=build/arm64/mmtop
	vm_initramfs "$TMP/initrd-$1.gz" "$bin" tests/lib.sh tests/vm/checks.sh tests/vm/cost.sh \
		tests/vm/machine.sh tests/vm/ab.sh 2>"$TMP/err"
}

# boot NAME ARCH ACCEL KERNEL ARGS...: boot a guest (VM_* as vm_boot takes
# them), print its results labelled NAME; false when it did not end its
# checks (a panic's reason and backtrace, or the watchdog's word, are then
# the console's last lines, in the failure, unless it is to be tried
# again: RETRY, and the status is 2).
boot() {
	name=$1 arch=$2 accel=$3 kernel=$4
	shift 4
	start=$(date +%s)
	vm_boot $arch $accel "$kernel" "$TMP/initrd-$arch.gz" 900 "$@" >"$TMP/console.${lane:-0}"
	echo "# [$name] $(($(date +%s) - start)) s under $accel"
	# The markers may follow the firmware's terminal resets on their line.
	sed -n '/mmtop-vm: begin/,/mmtop-vm: end/p' "$TMP/console.${lane:-0}" >"$TMP/guest.${lane:-0}"
	if ! grep -q 'mmtop-vm: end' "$TMP/guest.${lane:-0}" && [ -n "${RETRY:-}" ]; then
		echo "# [$name] did not finish under $accel: again under $RETRY"
		return 2
	fi
	grep -E '^(PASS|FAIL|SKIP|#) ' "$TMP/guest.${lane:-0}" | label "$name"
	ab_files "$TMP/guest.${lane:-0}"
	grep -q 'mmtop-vm: end 0' "$TMP/guest.${lane:-0}" && return
	fail "[$name] the guest ran its checks to the end ($accel; console's last lines: $(tail -n 40 "$TMP/console.${lane:-0}" | tr '\n' '|'))"
	return 1
}

# ab_files GUEST_OUTPUT: the A/B recordings a guest sent (tests/vm/ab.sh),
# decoded into $TMP/ab/RELEASE/ from their marked lines alone (the
# console also carries the kernel's), each checked against the sum the
# guest said: a file that came back damaged fails, named, and is left out.
ab_files() {
	rel=$(sed -n 's/.*mmtop-vm: begin \([^ ]*\).*/\1/p' "$1" | head -n 1)
	tr -d '\r' <"$1" | awk -v dir="$TMP/ab/$rel" '
		/^mmtop-ab: file / { f = dir "/" $3; d = f; sub(/\/[^\/]*$/, "", d); system("mkdir -p " d); out = f ".b64"; next }
		/^mmtop-ab: b64 / && out { print $3 > out; next }
		/^mmtop-ab: end / { close(out); print f, $3; out = "" }' |
		while read -r f sum; do
			base64 -d "$f.b64" >"$f" 2>/dev/null
			rm -f "$f.b64"
			got=$(md5sum <"$f" | cut -d' ' -f1)
			[ "$got" = "$sum" ] && continue
			fail "[$rel] A/B: ${f#"$TMP/ab/$rel/"} came back damaged on the console (md5 $got, the guest said $sum)"
			rm -f "$f"
		done
}

# One kernel of the matrix, its results labelled (its lane's output).
guest() { # guest PACKAGE VMA_LOCKS LACKS LEVELS AB
	pkg=$1 vma=$2 lacks=$3 levels=$4 ab=$5
	arch=x86_64
	case $pkg in *:arm64*) arch=aarch64 ;; esac
	kernel=$(vm_kernel "$pkg" 2>"$TMP/err.$pkg")
	if [ -z "$kernel" ]; then
		fail "[$pkg] kernel: $(cat "$TMP/err.$pkg")"
		return
	fi
	name="$(vm_release "$kernel") $arch"
	lacks=$([ "$lacks" = - ] || echo "$lacks")
	set -- VMA_LOCKS=$vma LACKS=$lacks PT_LEVELS=$levels
	[ "$ab" = ab ] && set -- "$@" AB=1
	# x86's 5 levels: la57, which TCG's -cpu max has (KVM's, the host's).
	VM_QEMU=
	if [ $arch = x86_64 ] && [ "$levels" = 5 ]; then
		VM_QEMU="-cpu max"
		name="$name, la57"
	# KVM that hangs after all (it proved itself once): TCG, said so.
	elif [ $arch = x86_64 ] && [ "$kvm" = yes ]; then
		RETRY=tcg
		boot "$name" $arch kvm "$kernel" "$@"
		[ $? -eq 2 ] || return
	fi
	RETRY=
	boot "$name" $arch tcg "$kernel" "$@"
}

# The two-node, many-CPU guest (vm.sh's VM_MACHINE_*).
machine() {
	kernel=$(vm_kernel $VM_MACHINE_KERNEL 2>"$TMP/err.machine")
	if [ -z "$kernel" ]; then
		fail "[$VM_MACHINE_KERNEL] kernel: $(cat "$TMP/err.machine")"
		return
	fi
	vm_two_nodes $VM_MACHINE_CPUS
	set -- "$(vm_release "$kernel") x86_64, $VM_MACHINE_CPUS CPUs on 2 nodes" x86_64 tcg \
		"$kernel" CHECKS=tests/vm/machine.sh NODES=2 ONLINE=$VM_MACHINE_CPUS \
		POSSIBLE=$VM_MACHINE_CPUS
	# A boot the emulation crashed (vm.sh) is tried once more.
	RETRY=tcg boot "$@"
	[ $? -eq 2 ] && RETRY= boot "$@"
}

for arch in x86_64 aarch64; do
	initrd $arch || fail "[$arch] the guest's initramfs: $(cat "$TMP/err")"
done
# Every kernel fetched before the lanes start: one apt at a time.
echo "$MATRIX" | while read -r pkg rest; do
	vm_kernel "$pkg" >/dev/null 2>&1
done
# KVM where a smoke boot proves it (nested KVM fails at random on some
# hosts), else TCG: 6.1 boots to its init in about 3 s here, arm64's in 7.
kvm=no
smoke=$(vm_kernel linux-image-cloud-amd64 2>/dev/null)
[ -n "$smoke" ] && vm_kvm "$smoke" "$TMP/initrd-x86_64.gz" && kvm=yes
echo "# KVM for x86_64 guests: $kvm"
for lane in 1 2; do
	{
		echo "$MATRIX" | while read -r pkg vma lacks levels its_lane ab; do
			[ "$its_lane" = $lane ] && guest "$pkg" "$vma" "$lacks" "$levels" "$ab"
		done
		[ $lane = 1 ] && machine
	} >"$TMP/lane.$lane" 2>&1 &
done
start=$(date +%s)
wait
cat "$TMP/lane.1" "$TMP/lane.2"
echo "# the guests: $(($(date +%s) - start)) s in two lanes"

# The many-CPU guest's maps against the 2-CPU guest of its kernel
# (maps_held's lines): the same rows, and per possible CPU only the
# scratch and spare elements mmtop(8)'s COST counts, MAPS_PER_CPU bytes at
# most.
MAPS_PER_CPU=4096
cat "$TMP/lane.1" "$TMP/lane.2" | awk -v cpus=$VM_MACHINE_CPUS '$1 == "#" && $2 == "maps:" {
		if ($4 == cpus) { many = $5; rel = $3 } else if ($4 == 2) two[$3] = $5 }
	END { if (many && two[rel]) print rel, two[rel], many }' >"$TMP/maps"
read -r rel two many <"$TMP/maps"
check "[$rel] the default set's maps at $VM_MACHINE_CPUS CPUs: $many bytes, 2 CPUs: $two, at most $MAPS_PER_CPU bytes more a CPU ($(( (${many:-0} - ${two:-0}) / ($VM_MACHINE_CPUS - 2) )))" \
	test -n "$rel" -a $(( ${many:-0} - ${two:-0} )) -le $(( ($VM_MACHINE_CPUS - 2) * MAPS_PER_CPU ))

# The kernel A/B (tests/vm/ab.sh), compared here as a user compares two
# kernels (mmtop(8), EXAMPLES): the older kernel the base. What is
# structural is checked; times under emulation are reported, not
# asserted. compare's output is kept with the test artifacts.
ART=build/test-artifacts
mkdir -p "$ART"
# values FILE METRIC: the metric's value on each side (a change's token
# carries a %; a side without it reads missing).
values() {
	awk -v m="$2" '$2 == m {
		for (i = 3; i <= NF; i++)
			if ($i ~ /^-?[0-9]+(\.[0-9]+)?$/ || $i == "missing")
				printf "%s ", $i
		exit
	}' "$1"
}
set -- $(ls "$TMP/ab" 2>/dev/null | sort -V)
check "A/B: two kernels' recordings came back from their guests ($*)" test $# -eq 2
if [ $# -eq 2 ]; then
	old=$1 new=$2
	for w in pft fork pcp; do
		"$MMTOP" compare "$TMP/ab/$old/$w" "$TMP/ab/$new/$w" >"$ART/ab-$w.txt" 2>"$TMP/ab.err"
		check "A/B $w: compare $old with $new ($(tr '\n' ' ' <"$TMP/ab.err" | head -c 300))" \
			test $? -eq 0
		"$MMTOP" compare --format markdown "$TMP/ab/$old/$w" "$TMP/ab/$new/$w" >"$ART/ab-$w.md" 2>/dev/null
		"$MMTOP" compare --html -o "$ART/ab-$w.html" "$TMP/ab/$old/$w" "$TMP/ab/$new/$w" 2>/dev/null
		check "A/B $w: compare --html says the kernels differ" \
			grep -q "Kernels differ: per-VMA lock: $old none" "$ART/ab-$w.html"
	done
	check "A/B: compare names the VMA lock each kernel has ($(grep 'per-VMA lock' "$ART/ab-pft.txt"))" \
		grep -q "^# kernels differ: per-VMA lock: $old none ([^;]*); $new an rwsem (vm_lock)$" "$ART/ab-pft.txt"
	set -- $(values "$ART/ab-pft.txt" interval-vma-lock-served-%)
	check "A/B pft: faults served under the VMA lock: none on $old (${1:-?}%), 90% or more on $new (${2:-?}%)" \
		awk -v a="${1:-x}" -v b="${2:-x}" 'BEGIN { exit !(a == "0.00" && b + 0 >= 90) }'
	set -- $(values "$ART/ab-pft.txt" interval-mmap_lock-waits-per-1000-faults)
	check "A/B pft: mmap_lock waits per 1000 faults shown on both sides ($*)" \
		sh -c "test $# -eq 2 && ! echo '$*' | grep -q missing"
	# Each fork row's why beside its time, each backing (bench fork names
	# its parents after them).
	why=$(for b in 4k thp-pte thp; do echo fork-$b-ns-per-mib fork-$b-dup-hold-us fork-$b-sibling-stalls; done)
	for m in faults/sec-1 faults/sec-2 fork-4k-us fork-thp-pte-us fork-thp-us $why \
		interval-pcp-refills/s; do
		f=$ART/ab-pft.txt
		case $m in fork-*) f=$ART/ab-fork.txt ;; interval-pcp*) f=$ART/ab-pcp.txt ;; esac
		set -- $(values "$f" "$m")
		check "A/B: $m on both kernels ($*)" sh -c "test $# -eq 2 && ! echo '$*' | grep -q missing"
	done
	# PTE batching (6.9+): a fork of THP folios mapped by PTEs over one of
	# 4K pages, each kernel; under TCG the times are the emulator's.
	set -- $(values "$ART/ab-fork.txt" fork-4k-us) $(values "$ART/ab-fork.txt" fork-thp-pte-us)
	[ $# -eq 4 ] && echo "# A/B fork, thp-pte over 4k: $old $(awk -v a="$1" -v b="$3" 'BEGIN { printf "%.2f", b / a }'), $new $(awk -v a="$2" -v b="$4" 'BEGIN { printf "%.2f", b / a }')"
	sed 's/^/# A\/B pft: /' "$ART/ab-pft.txt"
	sed 's/^/# A\/B fork: /' "$ART/ab-fork.txt"
fi
