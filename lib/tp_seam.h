/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * tp_seam.h - the only place in tierpol's lib/ that knows its environment
 *
 * Every lib/ source file includes this header (and the public tierpol
 * headers) and nothing else. In the kernel the names below map to the
 * kernel's own primitives, so lockdep and KCSAN see them; in userspace they
 * map to the compiler's freestanding headers and __atomic builtins, so the
 * library needs no libc at all.
 *
 * The memory model, and where each primitive is used (docs/concurrency.md
 * has the whole story, object by object):
 *
 *  - tp_read_once()/tp_write_once(): single accesses the compiler must not
 *    tear, fuse or invent (READ_ONCE/WRITE_ONCE). Used on settings copies
 *    and on the scan ring, always inside a sequence-count or latch read
 *    section that is validated afterwards: a 64-bit access may tear on a
 *    32-bit target, and the validation then fails and the reader retries.
 *    The one other use is the VMA access bitmaps (vma_scan.c), racy by
 *    design as the kernel's: a torn read there is a bitmap whose halves
 *    come from two moments, each bit as a racing __set_bit() could leave
 *    it. Live state shared with a concurrent writer is read through
 *    struct tp_atomic64 only.
 *  - tp_atomic64_*(): live state shared between CPUs (atomic64_t in the
 *    kernel): atomic on every target, 32-bit included.
 *  - tp_local64_*(): per-CPU counters (local64_t in the kernel): updated by
 *    the owning CPU only, interrupt-safe on that CPU, read by any CPU.
 *  - tp_latch_*(): the settings latch, seqlock.h's latch pattern: two copies
 *    of the settings and a sequence count whose low bit says which copy is
 *    stable. Readers never wait for the writer.
 *  - tp_seq_*(): the sequence count of the single-writer scan ring.
 */
#ifndef TP_SEAM_H
#define TP_SEAM_H

#include <tierpol/types.h>

#ifdef __KERNEL__

#include <linux/bits.h>
#include <linux/bug.h>
#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/math64.h>
#include <linux/mmdebug.h>
#include <linux/preempt.h>
#include <asm/barrier.h>

#define tp_read_once(x)		READ_ONCE(x)
#define tp_write_once(x, v)	WRITE_ONCE(x, v)

static inline u64 tp_atomic64_read(const struct tp_atomic64 *p)
{
	return (u64)atomic64_read(&p->v);
}

/* Pairs with tp_atomic64_set_release(). */
static inline u64 tp_atomic64_read_acquire(const struct tp_atomic64 *p)
{
	return (u64)atomic64_read_acquire(&p->v);
}

static inline void tp_atomic64_set(struct tp_atomic64 *p, u64 v)
{
	atomic64_set(&p->v, (s64)v);
}

static inline void tp_atomic64_set_release(struct tp_atomic64 *p, u64 v)
{
	atomic64_set_release(&p->v, (s64)v);
}

/* Fully ordered; on failure stores the current value in *@old. */
static inline bool tp_atomic64_try_cmpxchg(struct tp_atomic64 *p, u64 *old,
					   u64 new)
{
	return atomic64_try_cmpxchg(&p->v, (s64 *)old, (s64)new);
}

static inline void tp_atomic64_add(struct tp_atomic64 *p, u64 n)
{
	atomic64_add((s64)n, &p->v);
}

static inline u64 tp_local64_read(const struct tp_local64 *p)
{
	return (u64)local64_read((local64_t *)&p->v);
}

static inline void tp_local64_add(struct tp_local64 *p, u64 n)
{
	local64_add((s64)n, &p->v);
}

/* Take the counter's value and leave 0, in one step (interrupt-safe). */
static inline u64 tp_local64_xchg(struct tp_local64 *p, u64 v)
{
	return (u64)local64_xchg(&p->v, (s64)v);
}

static inline void tp_local64_set(struct tp_local64 *p, u64 v)
{
	local64_set(&p->v, (s64)v);
}

static inline void tp_latch_init(struct tp_latch *l)
{
	seqcount_latch_init(&l->seq);
}

/* One step of the latch writer: flips which copy readers use. */
static inline void tp_latch_flip(struct tp_latch *l)
{
	raw_write_seqcount_latch(&l->seq);
}

static inline unsigned int tp_latch_begin(const struct tp_latch *l)
{
	return raw_read_seqcount_latch(&l->seq);
}

static inline bool tp_latch_retry(const struct tp_latch *l, unsigned int seq)
{
	/*
	 * raw_read_seqcount_latch_retry(), open-coded: 6.1 calls it
	 * read_seqcount_latch_retry(), 6.3 renamed it, 6.13 (and 6.12.y
	 * stable) brought the old name back beside the new one; the body is
	 * the same throughout.
	 */
	smp_rmb();
	return unlikely(READ_ONCE(l->seq.seqcount.sequence) != seq);
}

static inline void tp_seq_init(struct tp_seqcount *s)
{
	seqcount_init(&s->seq);
}

/* The writer cannot be preempted mid-update: readers only retry. */
static inline void tp_seq_write_begin(struct tp_seqcount *s)
{
	preempt_disable();
	write_seqcount_begin(&s->seq);
}

static inline void tp_seq_write_end(struct tp_seqcount *s)
{
	write_seqcount_end(&s->seq);
	preempt_enable();
}

/* The count as it is (odd: the writer is busy); never waits. */
static inline unsigned int tp_seq_read_begin(const struct tp_seqcount *s)
{
	return raw_read_seqcount(&s->seq);
}

static inline bool tp_seq_read_retry(const struct tp_seqcount *s,
				     unsigned int seq)
{
	return read_seqcount_retry(&s->seq, seq);
}

static inline u32 tp_xchg32(u32 *p, u32 v)
{
	return xchg(p, v);
}

/* On failure stores the current value in *@old. */
static inline bool tp_cmpxchg32(u32 *p, u32 *old, u32 new)
{
	return try_cmpxchg(p, old, new);
}

static inline u64 tp_div64_u64(u64 a, u64 b)
{
	return div64_u64(a, b);
}

/* Caller contract checks: WARN_ON_ONCE() when CONFIG_DEBUG_VM is set. */
#define TP_ASSERT(cond)		VM_WARN_ON_ONCE(!(cond))

#define TP_NOINLINE		noinline
#define TP_COLD			__cold
#define TP_ALWAYS_INLINE	__always_inline

#else /* userspace, freestanding */

#include "tp_seam_user.h"

#endif /* __KERNEL__ */

/* Helpers common to both environments. */

#ifndef likely
#define tp_likely(x)	__builtin_expect(!!(x), 1)
#define tp_unlikely(x)	__builtin_expect(!!(x), 0)
#else
#define tp_likely(x)	likely(x)
#define tp_unlikely(x)	unlikely(x)
#endif

/* Compile-time check: fails to build unless @cond holds. */
#define TP_COMPILE_ASSERT(cond)	((void)sizeof(char[1 - 2 * !(cond)]))

#define TP_U64_MAX	(~0ULL)

static inline u64 tp_min_u64(u64 a, u64 b)
{
	return a < b ? a : b;
}

static inline u64 tp_max_u64(u64 a, u64 b)
{
	return a > b ? a : b;
}

/* Wraparound-safe time comparisons on u64 ticks, as time_after64(). */
static inline s64 tp_time_diff(u64 a, u64 b)
{
	return (s64)(a - b);
}

static inline bool tp_time_after(u64 a, u64 b)
{
	return tp_time_diff(a, b) > 0;
}

static inline bool tp_time_before(u64 a, u64 b)
{
	return tp_time_diff(a, b) < 0;
}

/* a * b, saturating at TP_U64_MAX; no division. */
static inline u64 tp_mul_sat(u64 a, u64 b)
{
	u64 r;

	if (__builtin_mul_overflow(a, b, &r))
		return TP_U64_MAX;
	return r;
}

/* a + b, saturating at TP_U64_MAX. */
static inline u64 tp_add_sat(u64 a, u64 b)
{
	u64 r = a + b;

	return r < a ? TP_U64_MAX : r;
}

/* Is @x a power of two (and not zero)? */
static inline bool tp_is_pow2(u64 x)
{
	return x && !(x & (x - 1));
}

/* Index of the highest set bit of a non-zero @x (ilog2), without libgcc. */
static inline unsigned int tp_ilog2_u64(u64 x)
{
	u32 hi = (u32)(x >> 32);

	return hi ? 63 - __builtin_clz(hi) : 31 - __builtin_clz((u32)x);
}

/* Defined in lib/math.c: exact slow-path arithmetic shared by the objects. */
u64 __tp_mul_frac(u64 x, u64 num, u64 den);
u64 __tp_ms_to_ticks(u64 ms, u32 tps);
int __tp_cfg_check(const void *cfg, u32 sz, u32 known);

#endif /* TP_SEAM_H */
