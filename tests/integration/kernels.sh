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

# PACKAGE[@SUITE] VMA_LOCKS LACKS LEVELS LANE, known answers (checks.sh): the VMA
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
# lane 1 also boots the two-node guest of many CPUs (55).
MATRIX="linux-image-cloud-amd64@bullseye none mmap_lock,contention,backing,release,memusage 4 1
linux-image-cloud-amd64 none release,memusage 4 2
linux-image-6.12-cloud-amd64 rwsem release 5 2
linux-image-cloud-amd64@sid refcnt - 4 1
linux-image-cloud-arm64:arm64 none release,memusage 4 1
linux-image-cloud-arm64:arm64@sid refcnt - 5 2"

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
		tests/vm/machine.sh 2>"$TMP/err"
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
	grep -q 'mmtop-vm: end 0' "$TMP/guest.${lane:-0}" && return
	fail "[$name] the guest ran its checks to the end ($accel; console's last lines: $(tail -n 40 "$TMP/console.${lane:-0}" | tr '\n' '|'))"
	return 1
}

# One kernel of the matrix, its results labelled (its lane's output).
guest() { # guest PACKAGE VMA_LOCKS LACKS LEVELS
	pkg=$1 vma=$2 lacks=$3 levels=$4
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
		echo "$MATRIX" | while read -r pkg vma lacks levels its_lane; do
			[ "$its_lane" = $lane ] && guest "$pkg" "$vma" "$lacks" "$levels"
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
