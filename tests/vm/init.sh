#!/bin/busybox sh
# The guest's /init (tests/vm/vm.sh): mount what mmtop reads, run the
# kernel matrix's checks, power off. The kernel passes the command line's
# NAME=VALUE words (VMA_LOCKS) as environment. Lines between the markers
# are the checks' output; the host reads them from the console.
/bin/busybox --install -s /bin
export PATH=/bin HOME=/tmp TMPDIR=/tmp
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mount -t tracefs nodev /sys/kernel/tracing
mount -t bpf bpf /sys/fs/bpf
cd /mmtop || poweroff -f
echo "mmtop-vm: begin $(uname -r)"
MMTOP=/mmtop/mmtop sh tests/vm/checks.sh
echo "mmtop-vm: end $?"
poweroff -f
