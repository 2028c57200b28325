#!/bin/sh
# debian-pkg.sh PACKAGE[:ARCH][@SUITE]: unpack a Debian package into a
# cache, never installing it, and print the directory it is in. A kernel
# metapackage (linux-image-cloud-amd64) stands for the kernel it names
# today, so that Debian's updates move along; :ARCH is another
# architecture's package; @SUITE (bullseye, sid) one of another Debian
# release, found through an apt state of its own in the cache (its own
# sources list, lists and status), which leaves the machine's apt alone.
# A kernel whose image is in a package of its own (sid splits
# linux-image-X into linux-binary-X and its modules) is unpacked from it.
# The cache is $MMTOP_KERNEL_CACHE (default /var/cache/mmtop/kernels).
# Used by the kernel matrix (tests/vm/vm.sh) and by cross builds, which
# take their vmlinux.h from the target's kernel package.
set -eu
cache=${MMTOP_KERNEL_CACHE:-/var/cache/mmtop/kernels}
want=${1%@*}
suite=
case $1 in *@*) suite=${1##*@} ;; esac

# apt's options for SUITE: a sources list, lists and an empty status of
# its own under the cache; none for the machine's own suites.
apt_opts=
if [ -n "$suite" ]; then
	state=$cache/apt/$suite
	apt_opts="-o Dir::Etc::SourceList=$state/sources.list -o Dir::Etc::SourceParts=/nonexistent
		-o Dir::State=$state -o Dir::State::Lists=$state/lists
		-o Dir::State::status=$state/status -o Dir::Cache=$state/cache"
	mkdir -p "$state/lists/partial" "$state/cache/archives/partial"
	[ -e "$state/status" ] || : >"$state/status"
	echo "deb [arch=amd64,arm64] http://deb.debian.org/debian $suite main" >"$state/sources.list"
fi
apt_cache() { apt-cache $apt_opts "$@"; }

# A suite's lists are refreshed once a day, so that its metapackage
# follows the suite; the machine's when apt does not know the package.
update() { apt-get $apt_opts update -qq >/dev/null 2>&1 || true; }
if [ -n "$suite" ] && [ -z "$(find "$state/lists" -name '*Packages*' -mtime -1 2>/dev/null)" ]; then
	update
fi
known() { apt_cache show "$1" >/dev/null 2>&1; }
known "$want" || update
known "$want" || { echo "debian-pkg: apt knows no package $1" >&2; exit 1; }

# The package a kernel's image is in: a metapackage's kernel
# (linux-image-N), and that kernel's linux-binary-N where it has one.
resolve() {
	apt_cache depends "$1" 2>/dev/null |
		awk -v p="$1" '$1 == "Depends:" && $2 ~ /^linux-(image|binary)-[0-9]/ { d = $2; exit }
			END { print d ? d : p }'
}
pkg=$(resolve "$want")
case $pkg in linux-image-[0-9]*) pkg=$(resolve "$pkg") ;; esac
dir=$cache/$(echo "$pkg" | tr : _)
if [ ! -e "$dir/.unpacked" ]; then
	dl=$(mktemp -d "${TMPDIR:-/tmp}/debian-pkg.XXXXXX")
	trap 'rm -rf "$dl"' EXIT
	(cd "$dl" && apt-get $apt_opts download -q "$pkg" >/dev/null 2>&1) ||
		{ echo "debian-pkg: apt-get download $pkg${suite:+ from $suite} failed" >&2; exit 1; }
	mkdir -p "$cache"
	rm -rf "$dir"
	dpkg-deb -x "$dl"/*.deb "$dir"
	touch "$dir/.unpacked"
fi
echo "$dir"
