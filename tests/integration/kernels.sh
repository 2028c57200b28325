# The kernel matrix: the known-answer checks of tests/vm/checks.sh on the
# running kernel and, booted under qemu, on Debian 12's kernels: 6.1 (its
# own, without per-VMA locks) and the 6.12 LTS (backports) for x86_64, and
# 6.1 for arm64 with the cross build (make ARCH=arm64), each the newest
# its metapackage names. One build of mmtop an architecture for all of
# them. Each result line names its kernel and architecture.
. tests/lib.sh
. tests/vm/vm.sh

# PACKAGE VMA_LOCKS: the VMA lock each series has, a known answer (none
# before 6.4; the vm_lock rwsem 6.4-6.14; vm_refcnt from 6.15).
MATRIX="linux-image-cloud-amd64 none
linux-image-6.12-cloud-amd64 rwsem
linux-image-cloud-arm64:arm64 none"

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
	VMA_LOCKS=$vma sh tests/vm/checks.sh 2>&1 | label "$(uname -r)"
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
	vm_initramfs "$TMP/initrd-$1.gz" "$bin" tests/lib.sh tests/vm/checks.sh 2>"$TMP/err"
}

echo "$MATRIX" | while read -r pkg vma; do
	arch=x86_64
	case $pkg in *:arm64) arch=aarch64 ;; esac
	if ! initrd $arch; then
		fail "[$pkg] the guest's initramfs: $(cat "$TMP/err")"
		continue
	fi
	kernel=$(vm_kernel "$pkg" 2>"$TMP/err")
	if [ -z "$kernel" ]; then
		fail "[$pkg] kernel: $(cat "$TMP/err")"
		continue
	fi
	name="$(basename "$kernel" | sed 's/^vmlinuz-//') $arch"
	# KVM where it is seen to work (nested KVM does not everywhere),
	# else TCG: 6.1 boots to its init in about 3 s here, arm64's in 7.
	accel=tcg
	if [ $arch = x86_64 ] && [ -w /dev/kvm ]; then
		vm_boot $arch kvm "$kernel" "$TMP/initrd-$arch.gz" 600 "VMA_LOCKS=$vma" >"$TMP/console"
		grep -q 'mmtop-vm: begin' "$TMP/console" && accel=kvm
	fi
	[ $accel = tcg ] &&
		vm_boot $arch tcg "$kernel" "$TMP/initrd-$arch.gz" 900 "VMA_LOCKS=$vma" >"$TMP/console"
	# The markers may follow the firmware's terminal resets on their line.
	sed -n '/mmtop-vm: begin/,/mmtop-vm: end/p' "$TMP/console" >"$TMP/guest"
	grep -E '^(PASS|FAIL|SKIP|#) ' "$TMP/guest" | label "$name"
	if ! grep -q 'mmtop-vm: end 0' "$TMP/guest"; then
		# A panic's reason and backtrace (a soft lockup, a hung task) are
		# the console's last lines.
		fail "[$name] the guest ran its checks to the end ($accel; console's last lines: $(tail -n 40 "$TMP/console" | tr '\n' '|'))"
	fi
done
