#!/bin/sh
# Install the Debian packages mmtop needs to build and test, only those
# missing, so repeated calls cost one dpkg query and no network. Extra
# package names on the command line are installed too (make fuzz, tests).
# --check: only say which build dependencies are missing (plain `make`,
# which never installs anything), exit 1 if any. --cross arm64: a cross
# build's too (make ARCH=arm64).
set -eu

build="clang llvm libbpf-dev bpftool libelf-dev zlib1g-dev libncurses-dev \
libnuma-dev libmicrohttpd-dev pkg-config"
tests="linux-perf python3 util-linux tmux curl strace chromium fonts-dejavu-core \
qemu-system-x86 busybox-static cpio libclang-rt-dev"
# A cross build for arm64: the compiler and arm64's own -dev packages
# (multiarch, next to the host's), and qemu to boot it. On an x86_64 host
# the tests need them (the kernel matrix builds for arm64 and boots it).
cross_arm64="gcc-aarch64-linux-gnu libc6-dev:arm64 libbpf-dev:arm64 \
libelf-dev:arm64 zlib1g-dev:arm64 libncurses-dev:arm64 libnuma-dev:arm64 \
libmicrohttpd-dev:arm64"
[ "$(uname -m)" = x86_64 ] && tests="$tests qemu-system-arm $cross_arm64"

check=false
while [ $# -gt 0 ]; do
	case $1 in
	--check) check=true ;;
	--cross) [ "$2" = arm64 ] && build="$build $cross_arm64"; shift ;;
	*) break ;;
	esac
	shift
done

missing_of() {
	for p in "$@"; do
		if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed"; then
			printf ' %s' "$p"
		fi
	done
}

if $check; then
	command -v dpkg-query >/dev/null || exit 0	# not Debian: the compiler will say
	# shellcheck disable=SC2086
	missing=$(missing_of $build)
	[ -z "$missing" ] && exit 0
	echo "mmtop: missing build dependencies:$missing" >&2
	echo "mmtop: 'make deps' (as root, with the same ARCH) installs them" >&2
	exit 1
fi

# shellcheck disable=SC2086
missing=$(missing_of $build $tests "$@")
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "mmtop: missing packages:$missing" >&2
	echo "mmtop: run as root (or with sudo) so they can be installed" >&2
	exit 1
fi
echo "mmtop: installing$missing"
export DEBIAN_FRONTEND=noninteractive
case $missing in
*:arm64*) dpkg --print-foreign-architectures | grep -qx arm64 ||
	dpkg --add-architecture arm64 ;;
esac
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
