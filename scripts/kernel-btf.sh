#!/bin/sh
# kernel-btf.sh IMAGE OUT: the kernel's BTF (its .BTF section) cut out of
# a kernel image, for a cross build's vmlinux.h (Makefile: ARCH=arm64).
# Debian's arm64 vmlinuz is an uncompressed Image and holds the section
# whole: a header with the BTF magic, then the types, then the strings.
# A gzipped image is unpacked first.
set -eu
image=$1 out=$2
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
if gzip -t "$image" 2>/dev/null; then
	gzip -dc "$image" >"$tmp"
	image=$tmp
fi
# The magic 0xeB9F, version 1, flags 0, then a header length of 24, all
# little-endian (both of our targets are).
at=$(LC_ALL=C grep -obUaP '\x9f\xeb\x01\x00\x18\x00\x00\x00' "$image" | head -n 1 | cut -d: -f1)
[ -n "$at" ] || { echo "kernel-btf: no BTF in $1 (CONFIG_DEBUG_INFO_BTF off?)" >&2; exit 1; }
# shellcheck disable=SC2046
set -- $(od -An -t u4 -j $((at + 4)) -N 20 "$image")
hdr=$1 type_off=$2 type_len=$3 str_off=$4 str_len=$5
if [ "$type_off" -ne 0 ] || [ "$str_off" -ne "$type_len" ]; then
	echo "kernel-btf: the BTF header in $image is not one we know" >&2
	exit 1
fi
dd if="$image" of="$out" iflag=skip_bytes,count_bytes skip="$at" \
	count=$((hdr + str_off + str_len)) status=none
