# Booting other kernels under qemu to run mmtop on them (sourced by
# tests/integration/kernels.sh). A kernel comes from Debian's package,
# downloaded and unpacked into a cache, never installed as this machine's
# kernel; the guest's root is an initramfs of busybox, ./mmtop with the
# libraries it links, and the tests it runs. One build of mmtop serves
# every kernel (CO-RE).
VM_CACHE=${MMTOP_KERNEL_CACHE:-/var/cache/mmtop/kernels}

# The package a metapackage (linux-image-cloud-amd64) resolves to today,
# so that Debian's updates move the matrix along with them.
vm_resolve() { # vm_resolve METAPACKAGE
	apt-cache depends "$1" 2>/dev/null | awk '$1 == "Depends:" && $2 ~ /^linux-image-/ { print $2; exit }'
}

# vm_kernel METAPACKAGE: the path of the newest kernel image the
# metapackage names, downloaded and unpacked into the cache if missing;
# false, with the reason on stderr, if it cannot be had.
vm_kernel() {
	pkg=$(vm_resolve "$1")
	if [ -z "$pkg" ]; then
		apt-get update -qq >/dev/null 2>&1
		pkg=$(vm_resolve "$1")
	fi
	[ -n "$pkg" ] || { echo "apt knows no package $1" >&2; return 1; }
	dir=$VM_CACHE/$pkg
	if [ ! -e "$dir/.unpacked" ]; then
		mkdir -p "$VM_CACHE/download" &&
		(cd "$VM_CACHE/download" && rm -f ./*.deb && apt-get download -q "$pkg" >/dev/null 2>&1) &&
		rm -rf "$dir" && dpkg-deb -x "$VM_CACHE"/download/*.deb "$dir" &&
		touch "$dir/.unpacked" ||
		{ echo "apt-get download $pkg failed" >&2; return 1; }
		rm -f "$VM_CACHE"/download/*.deb
	fi
	ls "$dir"/boot/vmlinuz-* 2>/dev/null | head -n 1
}

# The shared libraries BINARY loads, and its loader, one path a line.
vm_libs() { # vm_libs BINARY
	ldd "$1" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }'
}

# vm_initramfs OUT FILE...: a gzipped cpio of busybox (as /bin/*), the
# guest's /init (tests/vm/init.sh) and each FILE at /mmtop/FILE (relative
# paths, from the project's top), with the libraries of the executables.
vm_initramfs() {
	out=$1
	shift
	root=$(mktemp -d)
	mkdir -p "$root/bin" "$root/mmtop" "$root/proc" "$root/sys" "$root/dev" "$root/tmp"
	cp /bin/busybox "$root/bin/busybox"
	cp tests/vm/init.sh "$root/init"
	chmod 0755 "$root/init"
	for f in "$@"; do
		mkdir -p "$root/mmtop/$(dirname "$f")"
		cp "$f" "$root/mmtop/$f"
		[ -x "$f" ] || continue
		for lib in $(vm_libs "$f"); do
			mkdir -p "$root$(dirname "$lib")"
			cp -L "$lib" "$root$lib"
		done
	done
	(cd "$root" && find . | cpio -o -H newc 2>/dev/null) | gzip -1 >"$out"
	rc=$?
	rm -rf "$root"
	return $rc
}

# vm_boot ACCEL KERNEL INITRD SECONDS ARGS: boot with accelerator ACCEL
# (kvm or tcg), print the console (the guest's output); poweroff or
# SECONDS ends it. ARGS go on the kernel's command line; the guest's init
# exports those of the form NAME=VALUE.
vm_boot() {
	accel=$1 kernel=$2 initrd=$3 secs=$4
	shift 4
	timeout "$secs" qemu-system-x86_64 -M q35 -accel "$accel$([ "$accel" = tcg ] && echo ,thread=single)" -smp 2 -m 1536 \
		-nographic -no-reboot -kernel "$kernel" -initrd "$initrd" \
		-append "console=ttyS0 quiet loglevel=3 panic=-1 $*" </dev/null 2>&1 | tr -d '\r'
}
