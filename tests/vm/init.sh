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
mount -t cgroup2 none /sys/fs/cgroup
cd /mmtop || poweroff -f
# THP on request (MADV_HUGEPAGE), whatever the kernel's default: the
# fork checks' THP-backed parent asks for it.
echo madvise >/sys/kernel/mm/transparent_hugepage/enabled
echo "mmtop-vm: begin $(uname -r)"
[ "${CHECKS:-}" = smoke ] && { echo "mmtop-vm: end 0"; poweroff -f; }

# The guest's own watchdog, for a hang the kernel does not call one (a
# livelock; a task that waits killably is no hung task): checks silent
# for GUEST_SILENCE seconds put the blocked tasks and every CPU's
# backtrace on the console, then crash the guest (panic=-1 ends it). The
# host's watchdog (vm.sh) waits longer.
echo 1 >/proc/sys/kernel/sysrq
date +%s >/tmp/alive
(
	while sleep 10; do
		[ $(($(date +%s) - $(cat /tmp/alive))) -lt "${GUEST_SILENCE:-150}" ] && continue
		echo "mmtop-vm: the checks were silent for ${GUEST_SILENCE:-150} s: blocked tasks and CPUs"
		echo w >/proc/sysrq-trigger
		echo l >/proc/sysrq-trigger
		sleep 5
		echo c >/proc/sysrq-trigger
	done
) &
{
	MMTOP=/mmtop/mmtop sh "${CHECKS:-tests/vm/checks.sh}"
	echo $? >/tmp/rc
} 2>&1 | while IFS= read -r line; do
	echo "$line"
	date +%s >/tmp/alive
done
echo "mmtop-vm: end $(cat /tmp/rc)"
poweroff -f
