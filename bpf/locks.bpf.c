// SPDX-License-Identifier: GPL-2.0
/*
 * The lock families, in one object so that they share state (the rows,
 * the call sites, a fork in flight, each mm's last releases), a file each:
 *  - the default set runs on rare events only: waits (contention_begin/
 *    end), forks, exits. mmap_lock waits: every wait, keyed by (process,
 *    kernel stack, mode, own/other mm), timed contention_begin ->
 *    contention_end, blamed on the rwsem's owner as it began, or where
 *    the kernel has lock:contended_release on the holder whose release
 *    let it through (holders.bpf.h); lock
 *    contention by class (the task's own mmap_lock, another mm's, zone and
 *    pcp locks from an address table collected at start, else by stack in
 *    user space): contention.bpf.h. Forks: fork.bpf.h, their backing
 *    fork_backing.bpf.h.
 *  - exact mode (attached at the user's request only): every acquisition
 *    counted, with its wait (contention_begin -> acquire_returned) and
 *    hold (acquire_returned -> released), blamed on the holder whose
 *    release let it through: mmap_lock.bpf.h, blame.bpf.h. VMA write-lock
 *    waits on 6.15+ (D-state sleeps of write holders): vma_sleep.bpf.h.
 * Shared: lock_common.bpf.h (tunables, rows, slow events, drops) and
 * lock_sites.bpf.h (call sites). Waits or holds above slow_ns also go to
 * a ring buffer. Included in the order their uses need.
 *
 * mmap_lock argument layouts: from 6.14 (mm, write[, success]); before, a
 * memcg_path string sat between mm and write. memcg_path_arg is set before
 * load.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "mmtop.h"
#include "arch.h"
#include "tp_pair.h"
#include "core_fixes.bpf.h"
#include "once.bpf.h"
#include "rows.bpf.h"

char LICENSE[] SEC("license") = "GPL";

#include "lock_common.bpf.h"
#include "lock_sites.bpf.h"
#include "fork.bpf.h"
#include "fork_backing.bpf.h"
#include "blame.bpf.h"
#include "mmap_lock.bpf.h"
#include "holders.bpf.h"
#include "contention.bpf.h"
#include "vma_sleep.bpf.h"
