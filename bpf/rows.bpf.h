/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A row's counters, one copy shared by every CPU (see ROWS_MAP): the adds
 * a wait, a hold or a fork makes to them. Shared with make bench's timed
 * floor (bpf/floor.bpf.c), whose one row costs what these cost.
 */
#ifndef MMTOP_BPF_ROWS_H
#define MMTOP_BPF_ROWS_H

/* @v more in a shared row's counter. */
static __always_inline void row_add(__u64 *c, __u64 v)
{
	__sync_fetch_and_add(c, v);
}

/*
 * A shared row's maximum raised to @v. A failed swap is another CPU's
 * raise in between: tried again once, as two in a row, on one row, are
 * beyond any wait rate. No loop: each of its ways the verifier walks.
 */
static __always_inline void row_max(__u64 *m, __u64 v)
{
	__u64 seen = READ_ONCE(*m), was;

	if (v <= seen)
		return;
	was = __sync_val_compare_and_swap(m, seen, v);
	if (was != seen && v > was)
		__sync_val_compare_and_swap(m, was, v);
}

static __always_inline __u32 log2_bucket(__u64 v)
{
	__u32 r = 0, shift;

	shift = (v > 0xFFFFFFFF) << 5; v >>= shift; r |= shift;
	shift = (v > 0xFFFF) << 4; v >>= shift; r |= shift;
	shift = (v > 0xFF) << 3; v >>= shift; r |= shift;
	shift = (v > 0xF) << 2; v >>= shift; r |= shift;
	shift = (v > 0x3) << 1; v >>= shift; r |= shift;
	r |= (v >> 1);
	return r < MMTOP_HIST_BUCKETS ? r : MMTOP_HIST_BUCKETS - 1;
}

/* One more of @v ns in histogram @hist. */
static __always_inline void hist_add(__u64 *hist, __u64 v)
{
	row_add(&hist[log2_bucket(v)], 1);
}

/* One more wait of @wait ns in @s. */
static __always_inline void wait_add(struct cont_stats *s, __u64 wait)
{
	row_add(&s->count, 1);
	row_add(&s->wait_ns, wait);
	row_max(&s->wait_max_ns, wait);
	hist_add(s->wait_hist, wait);
}

#endif
