// SPDX-License-Identifier: GPL-2.0
/*
 * PCP (per-CPU page list) refills and drains, from the per-page events
 * kmem:mm_page_alloc_zone_locked (pages taken from the buddy allocator
 * under zone->lock; percpu_refill set inside rmqueue_bulk) and
 * kmem:mm_page_pcpu_drain (pages given back inside free_pcppages_bulk).
 * Both fire once per page with zone->lock held and interrupts off, so one
 * refill or drain is a burst of events on one CPU: a new burst starts when
 * the zone changes or more than burst_gap_ns passed since the last page.
 * These fire per page: the family is opt-in.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "mmtop.h"
#include "tp_pair.h"

char LICENSE[] SEC("license") = "GPL";

/* page->flags layout, worked out by user space from BTF. */
const volatile __u32 node_shift = 54;
const volatile __u32 zone_shift = 51;
const volatile __u64 node_mask = 1023;
const volatile __u64 zone_mask = 7;
const volatile __u64 burst_gap_ns = 5000;
/*
 * Whether mm_page_alloc_zone_locked has its percpu_refill argument (5.13+,
 * from BTF). Before, an order-0 page taken under zone->lock is a refill's:
 * every order-0 allocation goes through the per-CPU lists (rmqueue()).
 */
const volatile bool refill_arg = true;

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, PCP_SLOTS);
	__type(key, __u32);
	__type(value, struct pcp_stats);
} pcp_stats SEC(".maps");

/* The current burst on this CPU, one for refills and one for drains. */
struct burst {
	__u64 last_ns;
	__u32 slot;
	__u32 pad;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, struct burst);
} bursts SEC(".maps");

/* The node and zone of @page from its flags. */
static __always_inline __u32 slot_of(__u64 page)
{
	__u64 flags = 0;
	__u32 node, zone;

	bpf_probe_read_kernel(&flags, sizeof(flags), (void *)page);
	node = (flags >> node_shift) & node_mask;
	zone = (flags >> zone_shift) & zone_mask;
	if (node >= MMTOP_MAX_NODES || zone >= MMTOP_MAX_ZONES)
		return PCP_SLOTS - 1;
	return node * MMTOP_MAX_ZONES + zone;
}

/* True when this page starts a new burst of kind @kind (0 refill, 1 drain). */
static __always_inline bool new_burst(__u32 kind, __u32 slot)
{
	struct burst *b = bpf_map_lookup_elem(&bursts, &kind);
	__u64 now = bpf_ktime_get_ns();
	bool fresh;

	if (!b)
		return true;
	fresh = b->slot != slot || now - b->last_ns > burst_gap_ns;
	b->last_ns = now;
	b->slot = slot;
	return fresh;
}

static __always_inline void on_alloc(__u64 page, __u32 order, bool refill)
{
	__u32 slot = slot_of(page);
	struct pcp_stats *s = bpf_map_lookup_elem(&pcp_stats, &slot);

	if (!s)
		return;
	if (!refill) {
		s->buddy_pages += 1ULL << order;
		return;
	}
	if (new_burst(0, slot))
		s->refills++;
	s->refill_pages += 1ULL << order;
}

static __always_inline void on_drain(__u64 page, __u32 order)
{
	__u32 slot = slot_of(page);
	struct pcp_stats *s = bpf_map_lookup_elem(&pcp_stats, &slot);

	if (!s)
		return;
	if (new_burst(1, slot))
		s->drains++;
	s->drain_pages += 1ULL << order;
}

/* mm_page_alloc_zone_locked(page, order, migratetype[, percpu_refill]) */
static __always_inline int pcp_alloc_fn(__u64 *ctx, bool typed)
{
	__u32 order = ctx[1];

	on_alloc(ctx[0], order, refill_arg ? (int)ctx[3] : order == 0);
	return 0;
}

/* mm_page_pcpu_drain(page, order, migratetype) */
static __always_inline int pcp_drain_fn(__u64 *ctx, bool typed)
{
	on_drain(ctx[0], (unsigned int)ctx[1]);
	return 0;
}

TP_PAIR(mm_page_alloc_zone_locked, pcp_alloc, pcp_alloc_fn)
TP_PAIR(mm_page_pcpu_drain, pcp_drain, pcp_drain_fn)
