# The kernel matrix: the known-answer checks of tests/vm/checks.sh on the
# running kernel and, booted under qemu, on Debian 12's kernels: 6.1 (its
# own, without per-VMA locks) and the 6.12 LTS (backports), each the
# newest its metapackage names. One build of ./mmtop for all of them.
# Each result line names its kernel.
. tests/lib.sh
. tests/vm/vm.sh

# METAPACKAGE VMA_LOCKS: the VMA lock each series has, a known answer
# (none before 6.4; the vm_lock rwsem 6.4-6.14; vm_refcnt from 6.15).
MATRIX="linux-image-cloud-amd64:none linux-image-6.12-cloud-amd64:rwsem"

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

[ "$(uname -m)" = x86_64 ] || { skip "kernel matrix: boots x86_64 kernels only"; exit 0; }
vm_initramfs "$TMP/initrd.gz" mmtop tests/lib.sh tests/vm/checks.sh ||
	{ fail "kernel matrix: building the initramfs"; exit 0; }
for k in $MATRIX; do
	meta=${k%%:*}
	kernel=$(vm_kernel "$meta" 2>"$TMP/err")
	if [ -z "$kernel" ]; then
		fail "[$meta] kernel: $(cat "$TMP/err")"
		continue
	fi
	name=$(basename "$kernel" | sed 's/^vmlinuz-//')
	# KVM where it is seen to work (nested KVM does not everywhere),
	# else TCG: 6.1 boots to its init in about 3 s here.
	accel=tcg
	if [ -w /dev/kvm ]; then
		vm_boot kvm "$kernel" "$TMP/initrd.gz" 600 "VMA_LOCKS=${k#*:}" >"$TMP/console"
		grep -q 'mmtop-vm: begin' "$TMP/console" && accel=kvm
	fi
	[ $accel = tcg ] &&
		vm_boot tcg "$kernel" "$TMP/initrd.gz" 900 "VMA_LOCKS=${k#*:}" >"$TMP/console"
	# The markers may follow the firmware's terminal resets on their line.
	sed -n '/mmtop-vm: begin/,/mmtop-vm: end/p' "$TMP/console" >"$TMP/guest"
	grep -E '^(PASS|FAIL|SKIP|#) ' "$TMP/guest" | label "$name"
	if ! grep -q 'mmtop-vm: end 0' "$TMP/guest"; then
		fail "[$name] the guest ran its checks to the end ($accel; console's last lines: $(tail -n 5 "$TMP/console" | tr '\n' '|'))"
	fi
done
