/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Call sites: the kernel stack of a lock event as a key for user space,
 * from return addresses read above the tracepoint's arguments (the full
 * stack is unwound once per key).
 */
#ifndef MMTOP_BPF_LOCK_SITES_H
#define MMTOP_BPF_LOCK_SITES_H

/*
 * The task's syscall number: -1 (or an error code) outside a syscall, and
 * where the kernel has no bpf_task_pt_regs() (before 5.15: the verifier
 * drops the call as dead code).
 */
static __always_inline long current_syscall(void)
{
	struct pt_regs *regs;

	if (!bpf_core_enum_value_exists(enum bpf_func_id, BPF_FUNC_task_pt_regs))
		return -1;
	regs = (struct pt_regs *)bpf_task_pt_regs(bpf_get_current_task_btf());
	return SYSCALL_NR(regs);
}

/* Where pt_regs lie in every task's kernel stack; 0 until found. */
static __u64 regs_in_stack;

#define PF_KTHREAD 0x00200000	/* task->flags: a kernel thread, in no syscall */

struct task_stack_flags {
	__u64 stack;
	__u32 usage;
	__u32 flags;
};

/* @task's stack and flags: one read where only usage lies between them. */
static __always_inline void task_stack_flags(struct task_struct *task,
					     struct task_stack_flags *s)
{
	__u64 at = bpf_core_field_offset(struct task_struct, stack);

	if (bpf_core_field_offset(struct task_struct, flags) == at + 12) {
		bpf_probe_read_kernel(s, sizeof(*s), (void *)task + at);
		return;
	}
	s->stack = (__u64)BPF_CORE_READ(task, stack);
	s->flags = BPF_CORE_READ(task, flags);
}

/*
 * The syscall @task, another task, is in: -1 if none (a kernel thread's
 * pt_regs hold no syscall), or where the kernel has no bpf_task_pt_regs().
 * Its pt_regs lie as far into its stack as the current task's do into its
 * own (THREAD_SIZE and the padding above them are the kernel's constants).
 * Probe reads: @task may have exited since it was seen.
 */
static __always_inline long task_syscall(struct task_struct *task)
{
	__u64 at = READ_ONCE(regs_in_stack);
	struct task_stack_flags s;
	struct task_struct *cur;
	struct pt_regs *regs;

	if (!bpf_core_enum_value_exists(enum bpf_func_id, BPF_FUNC_task_pt_regs))
		return -1;
	if (!at) {
		cur = bpf_get_current_task_btf();
		regs = (struct pt_regs *)bpf_task_pt_regs(cur);
		/* No arithmetic on a typed pointer: its value read as a number. */
		bpf_probe_read_kernel(&at, sizeof(at), &regs);
		at -= (__u64)BPF_CORE_READ(cur, stack);
		WRITE_ONCE(regs_in_stack, at);
	}
	task_stack_flags(task, &s);
	if (!s.stack || (s.flags & PF_KTHREAD))
		return -1;
	return syscall_at(s.stack + at);
}

#define FNV_OFFSET 0xcbf29ce484222325ULL

static __always_inline __u64 fnv1a(__u64 h, __u64 v)
{
	return (h ^ v) * 0x100000001b3ULL;
}

/*
 * The tracepoint's arguments' address, on the stack, as a number: a cast,
 * which the verifier lets a program loaded with CAP_PERFMON pass to a helper
 * (addr_of() costs a helper call, on every acquisition) as long as what is
 * added to it is bounded. find_step() adds its unbounded index: there, and
 * only there, the search takes the address by addr_of().
 */
static __always_inline __u64 ctx_addr(void *ctx)
{
	return (__u64)ctx;
}

/* A pointer's value as a plain number, for address arithmetic. */
static __always_inline __u64 addr_of(const void *p)
{
	__u64 a = 0;

	bpf_probe_read_kernel(&a, sizeof(a), &p);
	return a;
}

/*
 * Return addresses taken into a site's key by return_addrs_hash():
 * contention needs several, past the lock's slow path and its entry point
 * (each address more is a map lookup more, on every event). An
 * mmap_lock site needs one, past the tracing glue (see site_hash()); only
 * where the glue is not known are the first two taken, the hook's and the
 * call into it.
 */
#define MMAP_SITE_RETS 2
#define CONT_SITE_RETS 5

/*
 * Kernel text, from /proc/kallsyms (0: unknown), and how far above the
 * tracepoint's arguments the stack is searched for return addresses.
 */
const volatile __u64 text_lo;
const volatile __u64 text_hi;
#define SCAN_WORDS 64

/* 1 if @a lies in kernel text, else 0; without a branch (see below). */
/* 1 if @a lies in [@lo, @hi), else 0; without a branch (see text_bit()). */
static __always_inline __u64 in_range(__u64 a, __u64 lo, __u64 hi)
{
	__u64 d = a - lo, range = hi - lo;

	/* d < range, both below 2^63: d - range is negative. */
	return ((d - range) >> 63) & ~(d >> 63) & 1;
}

static __always_inline __u64 text_bit(__u64 a)
{
	return in_range(a, text_lo, text_hi);
}

/*
 * A walk this CPU made: where it found each return address (at), where it
 * looked for it (from: realigned() took it a word away), and the hash of
 * what it found. A later wait whose words hash the same there walked the
 * same frames by the same distances, while none was learnt since (gen,
 * ret_gen's then): its hash is the memo's, with no distance looked up.
 * Those lookups were most of a spin wait's walk: ret_cache's lines, one a
 * frame, gone cold between waits under a workload that streams through
 * memory (perf: the four loads, 167 of the walk's 190 samples). A memo is
 * half a line: four are two or three lines, hot or cold together.
 */
#define WALK_MEMOS 4

struct walk_memo {
	__u64 hash;
	__u32 gen;		/* 0: being written, or empty */
	__u8 at[CONT_SITE_RETS];
	__u8 from[CONT_SITE_RETS];
	__u8 frames;
	__u8 want;
	__u8 n;
};

/*
 * Return addresses found without unwinding: bpf_get_stack() costs about
 * 2 us even for a few frames (35 us in this project's VM), too much for
 * every mmap_lock acquisition or every wait. The tracepoint's arguments
 * (@ctx) sit in the frame of the BPF runner; above them on the stack are
 * the return addresses into the function that fired the tracepoint, its
 * caller, and so on, each a fixed number of words above the last (a
 * function's frame at a call site has one size). Between them lie stale
 * words, left by earlier, deeper calls, some of them text addresses: the
 * first five text words, taken as a wait's key, came out different from
 * one wait at a site to the next (53 of 74 waits under churn took a full
 * stack). So the distances are learnt (ret_frames): a wait whose walk
 * meets a return address it has no distance for takes the full stack,
 * once, and each of its return addresses found above the arguments gets
 * the distance to its caller's; later waits read those words alone.
 */
struct stack_words {
	__u64 w[SCAN_WORDS];	/* the words above the arguments */
	__u64 first;		/* where the walk began, plus 1; 0: no walk */
	__u32 hook;		/* whose arguments (enum site_hook) */
	__u32 n;		/* how many were read: the rest are zero */
	struct walk_memo memo[WALK_MEMOS];
	__u32 memo_next;	/* the one a new walk replaces */
};

/*
 * The hooks whose call sites are found by return_addrs_hash(). Above each
 * one's arguments the first return address lies at one place (the same
 * glue calls every program of a tracepoint): where, plus 1, once a full
 * stack has shown it to be one (learn_frames()); 0: searched for.
 */
enum site_hook { HOOK_CONT_BEGIN, HOOK_RELEASE, HOOK_SWITCH, HOOK_MMAP, SITE_HOOKS };

__u64 first_ret[SITE_HOOKS];

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct stack_words);
} scan_scratch SEC(".maps");

/*
 * A return address -> the words from its slot to its caller's. LRU: spin
 * locks taken in interrupts sit on whatever stack they interrupted, and
 * taught a new address now and then without end (0.6 a second under 50
 * short-lived processes a second); the least used make room. A hot
 * address is answered by ret_cache in front and is learnt again, one
 * unwind, if it ever leaves both.
 */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 8192);
	__type(key, __u64);
	__type(value, __u32);
} ret_frames SEC(".maps");

/*
 * ret_frames' entries as a wait finds them, by their return address's low
 * bits: an array read where a hash lookup costs tens of ns a frame. Each
 * slot one word, the address's low 56 bits and the distance (below 256),
 * written and read whole: kernel text's top 8 bits are all set.
 */
#define RET_CACHE 4096
#define RET_LOW(a) ((a) & ((1ULL << 56) - 1))

__u64 ret_cache[RET_CACHE];

static __always_inline __u64 *ret_slot(__u64 ret)
{
	return &ret_cache[(ret ^ (ret >> 12)) & (RET_CACHE - 1)];
}

static __always_inline void ret_cache_put(__u64 ret, __u32 words)
{
	WRITE_ONCE(*ret_slot(ret), RET_LOW(ret) << 8 | (words & 0xff));
}

/* One more at each distance learnt: the walks memos hold are older. */
__u32 ret_gen = 1;

/*
 * The words from return address @ret's slot to its caller's, plus 1; 0 if
 * not learnt. Inline in walk_words(), which the verifier walks once: as a
 * function of its own, a call at each frame cost a spin lock's wait some
 * 90 ns in all here (kernel returns through a return thunk).
 */
static __always_inline __u64 ret_words(__u64 ret)
{
	__u64 seen = READ_ONCE(*ret_slot(ret));
	__u32 *d;

	if (seen >> 8 == RET_LOW(ret))
		return (seen & 0xff) + 1;
	d = bpf_map_lookup_elem(&ret_frames, &ret);
	if (!d)
		return 0;
	ret_cache_put(ret, *d);
	return (*d & 0xff) + 1;
}

/* bpf_loop step: word @i of the scratch; the first text word ends it. */
static long first_text_step(__u64 i, void *data)
{
	struct stack_words *sw;
	__u32 zero = 0;

	sw = bpf_map_lookup_elem(&scan_scratch, &zero);
	if (!sw || i >= SCAN_WORDS)
		return 1;
	if (!text_bit(sw->w[i]))
		return 0;
	*(__u64 *)data = i + 1;
	return 1;
}

/*
 * The words above @ctx into @sw: SCAN_WORDS, or where they would cross the
 * top of the stack (an interrupt's, or a task's a few frames deep: 300 of
 * a contended churn's 20,000 waits), half or a quarter of them, the rest
 * zero, in one read where all can be read. False if none could be.
 */
static __always_inline bool read_words(void *ctx, struct stack_words *sw)
{
	const __u32 quarter = SCAN_WORDS / 4;

	sw->n = SCAN_WORDS;
	if (!bpf_probe_read_kernel(sw->w, sizeof(sw->w), ctx))
		return true;
	/* A read that fails zeroes what it was to fill: a quarter, then the next. */
	if (bpf_probe_read_kernel(sw->w, quarter * 8, ctx))
		return false;
	sw->n = quarter;
	if (!bpf_probe_read_kernel(&sw->w[quarter], quarter * 8,
				   (void *)(ctx_addr(ctx) + quarter * 8)))
		sw->n = quarter * 2;
	return true;
}

/*
 * The words above @ctx, @hook's arguments, into @sw, and where the first
 * return address is, plus 1 (0: none, or unreadable): where it was found
 * before, else the first text word. The search is a loop the verifier
 * walks once: unrolled, it was walked again on every path to it (over its
 * million instructions).
 */
static __always_inline __u64 first_text_word(void *ctx, struct stack_words *sw,
					     enum site_hook hook)
{
	__u64 first = READ_ONCE(first_ret[hook & (SITE_HOOKS - 1)]);

	sw->first = 0;
	sw->hook = hook;
	if (!text_hi || !read_words(ctx, sw))
		return 0;
	if (!first || first > SCAN_WORDS || !text_bit(sw->w[(first - 1) & (SCAN_WORDS - 1)])) {
		first = 0;
		bpf_loop(SCAN_WORDS, first_text_step, &first, 0);
	}
	sw->first = first;
	/* Read back: one state after either way, for the verifier. */
	return READ_ONCE(sw->first);
}

/*
 * Where the return address expected at word @at of @sw is: there, or a
 * word above or below. A function that realigns its stack (an over-aligned
 * local: rwsem_down_write_slowpath) has a frame a word longer or shorter
 * with its caller's alignment, and its caller's return address lies a
 * word away from where it was learnt (600 of a contended churn's 20,000
 * waits took a full stack for it). Without branches: with them, the
 * verifier walked each of the three ways at every frame.
 */
static __always_inline __u64 realigned(const struct stack_words *sw, __u64 at)
{
	__u64 here = text_bit(sw->w[at & (SCAN_WORDS - 1)]);
	/* at + 1 < n and at > 0, as 1 or 0: both below 2^63. */
	__u64 up = text_bit(sw->w[(at + 1) & (SCAN_WORDS - 1)]) & ((at + 1 - sw->n) >> 63);
	__u64 down = text_bit(sw->w[(at - 1) & (SCAN_WORDS - 1)]) & ((at | -at) >> 63);

	return at + (~here & up & 1) - (~here & ~up & down & 1);
}

/*
 * @m's hash if the words in @sw hash as they did where it found them, for
 * a walk as it made (from the same word, as far, over as many words read,
 * no distance learnt since); 0 if not.
 */
static __always_inline __u64 memo_hash(const struct stack_words *sw,
				       const struct walk_memo *m, int want, __u32 gen)
{
	__u64 h = FNV_OFFSET;
	int i;

	if (READ_ONCE(m->gen) != gen || m->want != want || m->n != sw->n ||
	    m->at[0] + 1 != sw->first)
		return 0;
#pragma unroll
	for (i = 0; i < CONT_SITE_RETS; i++) {
		if (i >= m->frames)
			break;
		if (m->from[i] != m->at[i] && realigned(sw, m->from[i]) != m->at[i])
			return 0;
		h = fnv1a(h, sw->w[m->at[i] & (SCAN_WORDS - 1)]);
	}
	return h == m->hash ? h : 0;
}

/*
 * The walk just made, into the memo it replaces: marked empty while it is
 * written, as a program on this CPU that interrupts the writing (an irq's
 * wait) must not take half of it.
 */
static __always_inline void memo_put(struct stack_words *sw, const struct walk_memo *walk,
				     __u32 gen)
{
	struct walk_memo *m = &sw->memo[sw->memo_next++ & (WALK_MEMOS - 1)];

	WRITE_ONCE(m->gen, 0);
	barrier();
	__builtin_memcpy(m, walk, sizeof(*m));
	barrier();
	WRITE_ONCE(m->gen, gen);
}

/*
 * A hash of the first @want return addresses above @ctx, walked by their
 * learnt distances (fewer where the walk leaves the words read: the same
 * at every wait at a site); 0 if the stack was not read or a distance is
 * not yet known (the words stay in the scratch for learn_frames()).
 */
/*
 * The walk of return_addrs_hash() over the words in scan_scratch, from
 * where the first return address is. A global function, verified once:
 * inlined, the verifier walked it again for every way into it, and each
 * of its ends on every way out (contention_begin: 154,949 instructions
 * walked, most of mmtop's start-up). A walk this CPU made before, over
 * the same words, is its memo's hash (memo_hash()); a walk made becomes
 * a memo.
 */
__noinline __u64 walk_words(int want)
{
	__u32 gen = READ_ONCE(ret_gen);
	struct walk_memo walk = { .want = want };
	__u64 h, at, ret, next;
	struct stack_words *sw;
	__u32 zero = 0;
	int i;

	sw = bpf_map_lookup_elem(&scan_scratch, &zero);
	if (!sw || !sw->first)
		return 0;
	for (i = 0; i < WALK_MEMOS; i++) {
		h = memo_hash(sw, &sw->memo[i], want, gen);
		if (h) {
			sw->first = 0;
			return h;
		}
	}
	h = FNV_OFFSET;
	at = sw->first - 1;
	walk.n = sw->n;
#pragma unroll
	for (i = 0; i < CONT_SITE_RETS; i++) {
		if (i >= want)
			break;
		barrier_var(at);
		/* The caller's is above the words read: the walk ends. */
		if (at >= sw->n)
			break;
		walk.from[i] = at;
		at = realigned(sw, at);
		ret = sw->w[at & (SCAN_WORDS - 1)];
		if (!text_bit(ret))
			return 0;
		h = fnv1a(h, ret);
		walk.at[i] = at;
		walk.frames = i + 1;
		if (i + 1 >= want)
			break;
		next = ret_words(ret);
		if (!next)
			return 0;
		at += next - 1;
	}
	sw->first = 0;		/* nothing to learn */
	if (walk.frames) {
		walk.hash = h;
		memo_put(sw, &walk, gen);
	}
	return h;
}

static __always_inline __u64 return_addrs_hash(void *ctx, __s64 want, enum site_hook hook)
{
	struct stack_words *sw;
	__u32 zero = 0;

	sw = bpf_map_lookup_elem(&scan_scratch, &zero);
	if (!sw || !first_text_word(ctx, sw, hook))
		return 0;
	return walk_words(want);
}

/* Learning: the frame of ips[j] was found at word @at. */
struct frame_learn {
	__u64 at;
	__u32 j;
};

/*
 * ips[@j]'s caller's return address is @words above its own (@flags:
 * BPF_ANY, or BPF_NOEXIST to keep a distance already learnt). The cache
 * too: a distance relearnt in the map alone left the old one in the
 * cache, and every later wait at the site failed its walk and took a
 * full stack (262 of a contended churn's 7,000 waits).
 */
static __always_inline void learn_frame(const struct lock_stack *st, __u32 j,
					__u32 words, __u64 flags)
{
	__u64 ret = st->ips[j & (MMTOP_STACK_DEPTH - 1)];

	if (bpf_map_update_elem(&ret_frames, &ret, &words, flags))
		return;
	ret_cache_put(ret, words);
	__sync_fetch_and_add(&ret_gen, 1);
}

/* bpf_loop step: is ips[@j] the first return address's? 1 ends it. */
static long find_first_frame(__u64 j, void *data)
{
	struct frame_learn *l = data;
	struct stack_words *sw;
	struct lock_stack *st;
	__u64 at = l->at;
	__u32 zero = 0;

	sw = bpf_map_lookup_elem(&scan_scratch, &zero);
	st = bpf_map_lookup_elem(&stack_scratch, &zero);
	if (!sw || !st || j >= MMTOP_STACK_DEPTH || at >= SCAN_WORDS)
		return 1;
	if (st->ips[j & (MMTOP_STACK_DEPTH - 1)] != sw->w[at & (SCAN_WORDS - 1)])
		return 0;
	l->j = j;
	return 1;
}

/* bpf_loop step: word @i, if it is the caller's, is ips[j + 1]'s slot. */
static long learn_step(__u64 i, void *data)
{
	struct frame_learn *l = data;
	struct stack_words *sw;
	struct lock_stack *st;
	__u32 zero = 0, j = l->j;

	sw = bpf_map_lookup_elem(&scan_scratch, &zero);
	st = bpf_map_lookup_elem(&stack_scratch, &zero);
	if (!sw || !st || i >= SCAN_WORDS || j >= MMTOP_STACK_DEPTH - 1)
		return 1;
	if (i <= l->at || sw->w[i & (SCAN_WORDS - 1)] !=
			  st->ips[(j + 1) & (MMTOP_STACK_DEPTH - 1)])
		return 0;
	learn_frame(st, j, i - l->at, BPF_ANY);
	l->j++;
	l->at = i;
	return 0;
}

/*
 * The last return address found has a caller above the words read: until
 * its real distance is learnt, one that leads past any words read, where
 * a walk ends. Not the distance to the end of these words: from a frame
 * lower on another stack it led into the middle of the frame above, and
 * every walk through it failed.
 */
static __always_inline void learn_beyond(const struct frame_learn *l)
{
	struct lock_stack *st;
	__u32 zero = 0, j = l->j;

	st = bpf_map_lookup_elem(&stack_scratch, &zero);
	if (!st || j >= MMTOP_STACK_DEPTH - 1 || l->at >= SCAN_WORDS ||
	    !st->ips[(j + 1) & (MMTOP_STACK_DEPTH - 1)])
		return;
	learn_frame(st, j, SCAN_WORDS, BPF_NOEXIST);
}

/*
 * After a walk of return_addrs_hash() that failed, in the same program
 * run: with the full stack in stack_scratch (@taken), the distances
 * between the return addresses of both; the walk's words forgotten.
 */
static __always_inline void learn_frames(bool taken)
{
	struct frame_learn l = { .j = MMTOP_STACK_DEPTH };
	struct stack_words *sw;
	__u32 zero = 0;

	sw = bpf_map_lookup_elem(&scan_scratch, &zero);
	if (!sw || !sw->first)
		return;
	l.at = sw->first - 1;
	sw->first = 0;
	if (!taken)
		return;
	bpf_loop(MMTOP_STACK_DEPTH, find_first_frame, &l, 0);
	if (l.j >= MMTOP_STACK_DEPTH)
		return;
	/* A return address: where the next wait at this hook reads first. */
	WRITE_ONCE(first_ret[sw->hook & (SITE_HOOKS - 1)], l.at + 1);
	bpf_loop(SCAN_WORDS, learn_step, &l, 0);
	learn_beyond(&l);
}

/*
 * The tracing glue between the function that took an mmap_lock and this
 * program, from /proc/kallsyms (hook_hi 0: unknown, and sites are found
 * by return_addrs_hash()): the trace hook
 * (__mmap_lock_do_trace_acquire_returned), whose return address is on the
 * stack on some paths and not on others (where it is left by a jump), and
 * the tracepoint's iterator (__traceiter_*), whose is there while another
 * program is on the tracepoint too (a second tracer). An acquisition's site
 * is the first return address above the program that is neither: the call
 * in the function that took the lock. Taking the first two text addresses
 * instead named the glue alone, the same at every site, whenever a second
 * tracer was on.
 */
const volatile __u64 hook_lo;
const volatile __u64 hook_hi;
const volatile __u64 iter_lo;
const volatile __u64 iter_hi;

/*
 * Where to read for the site's return address: the word, above the
 * tracepoint's arguments, one below where it was last found, plus 1 (0:
 * not yet found). The frames below it are the same at every acquisition
 * but for the hook's return address, missing where the hook is reached by
 * a jump (the fault path): the site is there or one word lower, until a
 * tracer comes or goes, and is read there, two words, not searched for.
 * An eight-word window, with the arguments' address from addr_of(), cost
 * some 85 ns per acquisition more (bpf_stats under bench churn: median 540
 * against 454 ns, 15 alternating runs each).
 */
__u64 site_window;

#define WINDOW_WORDS 2
#define WINDOW_BELOW 1	/* the hook's return address, absent after a jump */

struct site_find {
	__u64 at;		/* the arguments' address */
	__u64 site;
	__u64 site_at;
};

/* 1 if @a is a return address into the function that took the lock. */
static __always_inline __u64 site_bit(__u64 a)
{
	__u64 glue = (__u64)(a - hook_lo < hook_hi - hook_lo) |
		     (__u64)(a - iter_lo < iter_hi - iter_lo);

	return text_bit(a) & ~glue & 1;
}

/* bpf_loop step: word @i above the arguments; 1 ends the search. */
static long find_step(__u64 i, void *data)
{
	struct site_find *f = data;
	__u64 w;

	if (bpf_probe_read_kernel(&w, sizeof(w), (void *)(f->at + i * 8)))
		return 1;
	if (!site_bit(w))
		return 0;
	f->site = w;
	f->site_at = i;
	return 1;
}

/* Search the stack for the site, word by word; 0 if not found. */
static __always_inline __u64 find_site(void *ctx)
{
	struct site_find f = { .at = addr_of(ctx) };

	bpf_loop(SCAN_WORDS, find_step, &f, 0);
	if (!f.site)
		return 0;
	WRITE_ONCE(site_window, (f.site_at > WINDOW_BELOW ? f.site_at - WINDOW_BELOW : 0) + 1);
	return f.site;
}

/* The site in the window, as find_step() takes it: the lower word if it is one. */
static __always_inline __u64 window_site(const __u64 *w)
{
	if (site_bit(w[0]))
		return w[0];
	return site_bit(w[1]) ? w[1] : 0;
}

/*
 * The site of an mmap_lock acquisition, as a hash of its return address
 * (that address in @site; 0 where the glue is not known).
 */
static __always_inline __u64 site_hash(void *ctx, __u64 *site_ret)
{
	__u64 at = READ_ONCE(site_window) - 1, w[WINDOW_WORDS], site = 0;

	if (!hook_hi)
		return return_addrs_hash(ctx, MMAP_SITE_RETS, HOOK_MMAP);
	/*
	 * The bound is checked on the very register that is added to the
	 * context pointer: clang would otherwise test at and add a copy of
	 * site_window, whose bounds the verifiers before 6.18 do not carry
	 * over ("math between ctx pointer and register with unbounded min
	 * value"). 0, not yet found, wraps above the bound.
	 */
	barrier_var(at);
	if (at < SCAN_WORDS &&
	    !bpf_probe_read_kernel(w, sizeof(w), (void *)(ctx_addr(ctx) + at * 8)))
		site = window_site(w);
	if (!site)
		site = find_site(ctx);
	*site_ret = site;
	return site ? fnv1a(FNV_OFFSET, site) : 0;
}

/*
 * The functions whose mmap_lock acquisitions are page faults' (the
 * per-VMA lock's misses; callsite.c's fault rules), from /proc/kallsyms:
 * [fault_lo, fault_hi) each, 0 if the kernel lacks it; bit i of
 * fault_anon set if function i prepares an anonymous fault.
 */
const volatile __u64 fault_lo[FAULT_FUNCS];
const volatile __u64 fault_hi[FAULT_FUNCS];
const volatile __u32 fault_anon;

/*
 * 1 + enum fault_lock if return address @site is in a fault's function,
 * else 0. Without a branch: on every acquisition, each would double what
 * the verifier walks after it.
 */
static __always_inline __u32 fault_of(__u64 site)
{
	__u64 r = 0, in;
	int i;

#pragma unroll
	for (i = 0; i < FAULT_FUNCS; i++) {
		in = in_range(site, fault_lo[i], fault_hi[i]);
		r |= in * (1 + ((fault_anon >> i) & 1));
	}
	return r;
}

/*
 * Frames of a full stack taken into its key: the program's own and the
 * tracing glue's (three or four), the lock's slow path and entry, and the
 * callers past them, as many as a learnt walk takes (CONT_SITE_RETS).
 * The deeper frames are left out: a spin lock taken in an interrupt or a
 * softirq sits on whatever stack it interrupted, and keyed by all 16
 * frames each such wait made a key of its own. Under 50 short-lived
 * processes a second, rows and stored stacks then grew by 2-3 a second
 * without end (74 rows in 40 s, 59 of them seen once: rcu_core's wake-ups
 * over random stacks), and each interval read them all.
 */
#define KEY_FRAMES 10

/* The current kernel stack, in @st, and a hash of its innermost frames; 0 if not taken. */
static __always_inline __u64 full_stack_hash(void *ctx, struct lock_stack *st)
{
	__u64 h = FNV_OFFSET;
	int i;

	if (bpf_get_stack(ctx, st->ips, sizeof(st->ips), 0) <= 0)
		return 0;
	/* bpf_get_stack() zeroes what it did not fill. */
#pragma unroll
	for (i = 0; i < KEY_FRAMES; i++)
		h = fnv1a(h, st->ips[i]);
	return h;
}

/*
 * The call site of the current lock operation, as a key for user space: @h,
 * a hash of its innermost return addresses (site_hash() or
 * return_addrs_hash(); 0: none found), with @syscall, the one the task is
 * in (exec's mmap calls and mmap(2) share their innermost frames). The full
 * stack of the first event with a key is stored under it, once; without
 * return addresses, the key is the full stack's hash. 0 if lost.
 */
static __always_inline __u64 stack_of(void *ctx, __u64 h, long syscall)
{
	__u64 full, *seen = NULL;
	__u32 zero = 0;
	struct lock_stack *st;

	if (h) {
		h = fnv1a(h, syscall) | 1;	/* never 0 */
		seen = &site_keys[h & (SITE_CACHE - 1)];
		if (READ_ONCE(*seen) == h)
			return h;
		if (bpf_map_lookup_elem(&lock_stacks, &h)) {
			WRITE_ONCE(*seen, h);
			return h;
		}
	}
	st = bpf_map_lookup_elem(&stack_scratch, &zero);
	full = st ? full_stack_hash(ctx, st) : 0;
	learn_frames(full != 0);
	if (!full) {
		drop(BPF_DROP_STACK);
		return 0;
	}
	if (!h)
		h = full | 1;
	if (bpf_map_update_elem(&lock_stacks, &h, st, BPF_NOEXIST) &&
	    !bpf_map_lookup_elem(&lock_stacks, &h))
		drop(BPF_DROP_STACK);
	else if (seen)
		WRITE_ONCE(*seen, h);
	return h;
}

#endif
