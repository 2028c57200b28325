# Booting other kernels under qemu to run mmtop on them (sourced by
# tests/integration/kernels.sh). A kernel comes from Debian's package,
# downloaded and unpacked into a cache, never installed as this machine's
# kernel; the guest's root is an initramfs of busybox, ./mmtop with the
# libraries it links, and the tests it runs. One build of mmtop serves
# every kernel (CO-RE).

# vm_kernel PACKAGE: the kernel image of a Debian kernel package (or the
# one a metapackage names today; PACKAGE as scripts/debian-pkg.sh takes
# it), unpacked into the cache if missing: boot/vmlinuz-RELEASE, or
# usr/lib/modules/RELEASE/vmlinuz where the package is sid's
# linux-binary; false, with the reason on stderr, if it cannot be had.
vm_kernel() {
	dir=$(sh scripts/debian-pkg.sh "$1") || return 1
	ls "$dir"/boot/vmlinuz-* "$dir"/usr/lib/modules/*/vmlinuz 2>/dev/null | head -n 1
}

# vm_release KERNEL: the release of a kernel image vm_kernel found.
vm_release() {
	case $1 in
	*/vmlinuz) basename "$(dirname "$1")" ;;
	*) basename "$1" | sed 's/^vmlinuz-//' ;;
	esac
}

# vm_arch BINARY: an executable's architecture as qemu names it.
vm_arch() {
	case $(readelf -h "$1" | awk '/Machine:/ { print $2 }') in
	AArch64) echo aarch64 ;;
	*) echo x86_64 ;;
	esac
}

# vm_libs BINARY: the shared libraries BINARY loads, one path a line: the
# NEEDED entries of its dynamic section and theirs, from its
# architecture's folders (ldd would run it: a cross build cannot be), and
# its loader.
vm_libs() {
	bin=$1 arch=$(vm_arch "$1")
	todo=$1 seen=
	while [ -n "$todo" ]; do
		set -- $todo
		f=$1
		shift
		todo=$*
		for n in $(readelf -d "$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
			case " $seen " in *" $n "*) continue ;; esac
			seen="$seen $n"
			lib=$(ls "/lib/$arch-linux-gnu/$n" "/usr/lib/$arch-linux-gnu/$n" 2>/dev/null | head -n 1)
			[ -n "$lib" ] || { echo "vm_libs: $n of $f not found" >&2; return 1; }
			echo "$lib"
			todo="$todo $lib"
		done
	done
	readelf -l "$bin" | sed -n 's/.*program interpreter: \(.*\)\]/\1/p'
}

# vm_busybox ARCH: a static busybox for the guest: the host's, or for
# another architecture Debian's busybox-static of it, unpacked.
vm_busybox() {
	if [ "$1" = "$(uname -m)" ]; then
		echo /bin/busybox
		return
	fi
	dir=$(sh scripts/debian-pkg.sh "busybox-static:$(echo "$1" | sed 's/aarch64/arm64/; s/x86_64/amd64/')") &&
		echo "$dir/bin/busybox"
}

# vm_initramfs OUT MMTOP FILE...: a gzipped cpio of busybox (as /bin/*),
# the guest's /init (tests/vm/init.sh), the binary MMTOP at /mmtop/mmtop
# and each FILE at /mmtop/FILE (paths relative to the project's top),
# with MMTOP's libraries, all of MMTOP's architecture.
vm_initramfs() {
	out=$1 bin=$2
	shift 2
	root=$(mktemp -d)
	busybox=$(vm_busybox "$(vm_arch "$bin")") &&
	libs=$(vm_libs "$bin") || { rm -rf "$root"; return 1; }
	mkdir -p "$root/bin" "$root/mmtop" "$root/proc" "$root/sys" "$root/dev" "$root/tmp"
	cp "$busybox" "$root/bin/busybox"
	cp tests/vm/init.sh "$root/init"
	chmod 0755 "$root/init"
	cp "$bin" "$root/mmtop/mmtop"
	for f in "$@"; do
		mkdir -p "$root/mmtop/$(dirname "$f")"
		cp "$f" "$root/mmtop/$f"
	done
	for lib in $libs; do
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
	(cd "$root" && find . | cpio -o -H newc 2>/dev/null) | gzip -1 >"$out"
	rc=$?
	rm -rf "$root"
	return $rc
}

# vm_boot ARCH ACCEL KERNEL INITRD SECONDS ARGS: boot a kernel of ARCH
# (x86_64, aarch64) with accelerator ACCEL (kvm or tcg), print the console
# (the guest's output); poweroff, SECONDS, or VM_SILENCE seconds without a
# byte on the console (a hang the kernel did not see) ends it. ARGS go on
# the kernel's command line; the guest's init exports those of the form
# NAME=VALUE. VM_SMP (qemu's -smp), VM_MEM (MiB) and VM_QEMU (more of
# qemu's options: -numa nodes) shape the machine: 2 CPUs, 1536 MiB and 1
# node by default.
#
# TCG runs single-threaded: multi-threaded, x86 6.12 died about once in 3
# boots of an int3 Oops as a tracepoint was attached (a stale translation
# of the code text_poke had just patched), and arm64 6.1 once went silent
# as exact mode attached under the load of the other lane. arm64 emulates
# every feature QEMU has (-cpu max) but with the cheap implementation-
# defined pointer authentication (pauth-impdef), not the slow QARMA.
# A hang explains itself and ends the guest at once: warnings and
# backtraces reach the console (loglevel 5), and a soft lockup or a task
# blocked for a minute panics it (panic=-1: out at once, -no-reboot).
VM_CMDLINE="quiet loglevel=5 softlockup_panic=1 hung_task_panic=1 hung_task_timeout_secs=60 panic=-1"
VM_SILENCE=${VM_SILENCE:-240}
vm_boot() {
	arch=$1 accel=$2 kernel=$3 initrd=$4 secs=$5
	shift 5
	case $arch in
	aarch64)
		set -- qemu-system-aarch64 -M virt -cpu max,pauth-impdef=on \
			-append "console=ttyAMA0 $VM_CMDLINE $*" ;;
	*)
		set -- qemu-system-x86_64 -M q35 -append "console=ttyS0 $VM_CMDLINE $*" ;;
	esac
	set -- "$@" -accel "$accel$([ "$accel" = tcg ] && echo ,thread=single)"
	console=$(mktemp)
	timeout "$secs" "$@" -smp "${VM_SMP:-2}" ${VM_QEMU:-} -m "${VM_MEM:-1536}" -nographic \
		-no-reboot -kernel "$kernel" -initrd "$initrd" </dev/null >"$console" 2>&1 &
	guest=$!
	# The console's watchdog: a byte a VM_SILENCE seconds, or the end.
	seen=0 quiet=0
	while kill -0 $guest 2>/dev/null; do
		sleep 2
		size=$(wc -c <"$console")
		if [ "$size" -ne "$seen" ]; then
			seen=$size quiet=0
		else
			quiet=$((quiet + 2))
		fi
		if [ $quiet -ge "$VM_SILENCE" ]; then
			pkill -P $guest 2>/dev/null
			kill $guest 2>/dev/null
			break
		fi
	done
	wait $guest
	tr -d '\r' <"$console"
	rm -f "$console"
	[ $quiet -lt "$VM_SILENCE" ] || echo "mmtop-vm: the console was silent for $quiet s: stopped"
}

# The machines the seeds measured, in small: VM_MACHINE_CPUS CPUs on two
# NUMA nodes (a socket each, their caches apart; half the memory each) of
# VM_MACHINE_KERNEL. TCG runs a guest's CPUs one at a time: 64 boot and
# run tests/vm/cost.sh in 32-40 s here (7 boots of 7), 128 in 94-128 s;
# 240 did not finish booting in 4 minutes. Once, in an earlier round, a
# 64-CPU boot crashed in ACPI's bus scan (a general protection fault in
# __kmalloc_node's cmpxchg16b: the emulation, not mmtop): the matrix then
# boots it again (RETRY). The views at 256 CPUs are checked from a
# synthesized recording (tests/integration/many_cpus.sh).
VM_MACHINE_KERNEL=linux-image-6.12-cloud-amd64
VM_MACHINE_CPUS=64

# vm_two_nodes CPUS: VM_SMP, VM_MEM and VM_QEMU for such a guest of CPUS.
vm_two_nodes() {
	half=$(($1 / 2))
	VM_SMP=$1,sockets=2,cores=$half VM_MEM=2048
	VM_QEMU="-object memory-backend-ram,id=m0,size=1024M
		-object memory-backend-ram,id=m1,size=1024M
		-numa node,nodeid=0,cpus=0-$((half - 1)),memdev=m0
		-numa node,nodeid=1,cpus=$half-$(($1 - 1)),memdev=m1"
}

# vm_kvm: whether KVM runs a guest here: /dev/kvm, and a smoke boot of
# the first kernel KERNEL and INITRD that powers off by itself within 60 s
# (nested KVM fails at random on some hosts: the guest hangs).
vm_kvm() { # vm_kvm KERNEL INITRD
	[ -w /dev/kvm ] || return 1
	VM_SILENCE=30 vm_boot x86_64 kvm "$1" "$2" 60 CHECKS=smoke | grep -q 'mmtop-vm: end 0'
}
