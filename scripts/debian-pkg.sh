#!/bin/sh
# debian-pkg.sh PACKAGE: unpack a Debian package into a cache, never
# installing it, and print the directory it is in. A kernel metapackage
# (linux-image-cloud-amd64) stands for the kernel it names today, so that
# Debian's updates move along; PACKAGE:ARCH is another architecture's.
# The cache is $MMTOP_KERNEL_CACHE (default /var/cache/mmtop/kernels).
# Used by the kernel matrix (tests/vm/vm.sh) and by cross builds, which
# take their vmlinux.h from the target's kernel package.
set -eu
cache=${MMTOP_KERNEL_CACHE:-/var/cache/mmtop/kernels}

# The kernel a metapackage depends on; the package itself otherwise.
resolve() {
	apt-cache depends "$1" 2>/dev/null |
		awk -v p="$1" '$1 == "Depends:" && $2 ~ /^linux-image-[0-9]/ { d = $2; exit }
			END { print d ? d : p }'
}

known() { apt-cache show "$1" >/dev/null 2>&1; }

known "$1" || apt-get update -qq >/dev/null 2>&1 || true
known "$1" || { echo "debian-pkg: apt knows no package $1" >&2; exit 1; }
pkg=$(resolve "$1")
dir=$cache/$(echo "$pkg" | tr : _)
if [ ! -e "$dir/.unpacked" ]; then
	dl=$(mktemp -d "${TMPDIR:-/tmp}/debian-pkg.XXXXXX")
	trap 'rm -rf "$dl"' EXIT
	(cd "$dl" && apt-get download -q "$pkg" >/dev/null 2>&1) ||
		{ echo "debian-pkg: apt-get download $pkg failed" >&2; exit 1; }
	mkdir -p "$cache"
	rm -rf "$dir"
	dpkg-deb -x "$dl"/*.deb "$dir"
	touch "$dir/.unpacked"
fi
echo "$dir"
