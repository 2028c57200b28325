#!/bin/sh
# Install the Debian packages mmtop needs to build and test, only those
# missing, so repeated `make` calls cost one dpkg query and no network.
# Extra package names on the command line are installed too (make fuzz).
set -eu

pkgs="clang llvm libbpf-dev bpftool libelf-dev zlib1g-dev libncurses-dev \
libnuma-dev libmicrohttpd-dev pkg-config linux-perf python3 util-linux tmux curl $*"

missing=""
for p in $pkgs; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed"; then
		missing="$missing $p"
	fi
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "mmtop: missing build dependencies:$missing" >&2
	echo "mmtop: run as root (or with sudo) so they can be installed" >&2
	exit 1
fi
echo "mmtop: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
