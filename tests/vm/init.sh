#!/bin/busybox sh
# The guest's /init (tests/vm/vm.sh): mount what mmtop reads, run the
# kernel matrix's checks (CHECKS, tests/vm/checks.sh unless the command
# line names another), power off. The kernel passes the command line's
# NAME=VALUE words (VMA_LOCKS, LACKS, CHECKS) as environment. Lines
# between the markers are the checks' output; the host reads them from
# the console. "mmtop-vm: smoke" powers off at once (vm.sh's KVM test).
/bin/busybox --install -s /bin
export PATH=/bin HOME=/tmp TMPDIR=/tmp
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mount -t tracefs nodev /sys/kernel/tracing
mount -t bpf bpf /sys/fs/bpf
cd /mmtop || poweroff -f
echo "mmtop-vm: begin $(uname -r)"
[ "${CHECKS:-}" = smoke ] && { echo "mmtop-vm: end 0"; poweroff -f; }
MMTOP=/mmtop/mmtop sh "${CHECKS:-tests/vm/checks.sh}"
echo "mmtop-vm: end $?"
poweroff -f
