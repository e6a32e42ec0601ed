/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * tp_seam.h - the only place in tierpol that knows its environment
 *
 * Every lib/ source file includes this header and nothing else (besides the
 * public tierpol headers). In the kernel the names below map to the kernel's
 * own primitives; in userspace they map to the compiler's freestanding
 * headers and __atomic builtins, so the library needs no libc at all.
 *
 * Memory model used by the library:
 *  - tp_read_once()/tp_write_once(): single plain accesses to a native word
 *    or a u64 that the compiler must not tear, fuse or invent (READ_ONCE /
 *    WRITE_ONCE). On 32-bit targets a u64 access may tear; the library only
 *    uses them on u64 fields that a sequence count protects.
 *  - tp_atomic64_*(): u64 fields shared between concurrent callers that must
 *    be read and updated atomically on every target, 32-bit included.
 *  - tp_smp_rmb()/tp_smp_wmb(): the read and write barriers of a sequence
 *    count (smp_rmb/smp_wmb; acquire/release fences in userspace).
 */
#ifndef _TIERPOL_SEAM_H
#define _TIERPOL_SEAM_H

#include <tierpol/types.h>

#ifdef __KERNEL__

#include <linux/atomic.h>
#include <linux/bits.h>
#include <linux/bug.h>
#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/math64.h>
#include <linux/mmdebug.h>
#include <asm/barrier.h>

#define tp_read_once(x)		READ_ONCE(x)
#define tp_write_once(x, v)	WRITE_ONCE(x, v)
/* Orders the sequence count against the data it protects (readers). */
#define tp_smp_rmb()		smp_rmb()
/* Orders the sequence count against the data it protects (the writer). */
#define tp_smp_wmb()		smp_wmb()

/*
 * A u64 handled through atomic64_t: atomic on 32-bit kernels too (cmpxchg8b
 * on x86-32, the hashed-lock fallback where the architecture has nothing).
 */
static inline u64 tp_atomic64_read(const u64 *p)
{
	return (u64)atomic64_read((const atomic64_t *)p);
}

static inline void tp_atomic64_set(u64 *p, u64 v)
{
	atomic64_set((atomic64_t *)p, (s64)v);
}

/* Returns true and updates @p when *@p == @old. */
static inline bool tp_atomic64_cmpxchg(u64 *p, u64 old, u64 new)
{
	return atomic64_cmpxchg((atomic64_t *)p, (s64)old, (s64)new) ==
	       (s64)old;
}

/* On failure stores the current value in *@old and returns false. */
static inline bool tp_atomic64_try_cmpxchg(u64 *p, u64 *old, u64 new)
{
	return atomic64_try_cmpxchg((atomic64_t *)p, (s64 *)old, (s64)new);
}

static inline u64 tp_atomic64_add_return(u64 *p, u64 n)
{
	return (u64)atomic64_add_return((s64)n, (atomic64_t *)p);
}

static inline u32 tp_atomic32_xchg(u32 *p, u32 v)
{
	return xchg(p, v);
}

static inline u64 tp_div64_u64(u64 a, u64 b)
{
	return div64_u64(a, b);
}

/* Caller contract checks: WARN_ON_ONCE() when CONFIG_DEBUG_VM is set. */
#define TP_ASSERT(cond)		VM_WARN_ON_ONCE(!(cond))

#else /* userspace, freestanding */

#define tp_read_once(x)		__atomic_load_n(&(x), __ATOMIC_RELAXED)
#define tp_write_once(x, v)	__atomic_store_n(&(x), (v), __ATOMIC_RELAXED)
/* Sequence-count read side: an acquire fence (smp_rmb). */
#define tp_smp_rmb()		__atomic_thread_fence(__ATOMIC_ACQUIRE)
/* Sequence-count write side: a release fence (smp_wmb). */
#define tp_smp_wmb()		__atomic_thread_fence(__ATOMIC_RELEASE)

/*
 * The public structures declare these fields aligned_u64. Going through an
 * 8-byte aligned member tells the compiler so, and i386 (which aligns a
 * plain u64 to 4) gets real 8-byte atomics instead of a libatomic call.
 */
struct tp_a64 {
	aligned_u64 v;
};

static inline u64 tp_atomic64_read(const u64 *p)
{
	return __atomic_load_n(&((const struct tp_a64 *)p)->v,
			       __ATOMIC_RELAXED);
}

static inline void tp_atomic64_set(u64 *p, u64 v)
{
	__atomic_store_n(&((struct tp_a64 *)p)->v, v, __ATOMIC_RELAXED);
}

static inline bool tp_atomic64_cmpxchg(u64 *p, u64 old, u64 new)
{
	return __atomic_compare_exchange_n(&((struct tp_a64 *)p)->v, &old, new,
					   false, __ATOMIC_SEQ_CST,
					   __ATOMIC_RELAXED);
}

static inline bool tp_atomic64_try_cmpxchg(u64 *p, u64 *old, u64 new)
{
	return __atomic_compare_exchange_n(&((struct tp_a64 *)p)->v, old, new,
					   false, __ATOMIC_SEQ_CST,
					   __ATOMIC_RELAXED);
}

static inline u64 tp_atomic64_add_return(u64 *p, u64 n)
{
	return __atomic_add_fetch(&((struct tp_a64 *)p)->v, n,
				  __ATOMIC_RELAXED);
}

static inline u32 tp_atomic32_xchg(u32 *p, u32 v)
{
	return __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST);
}

/*
 * 64-by-64 division without libgcc: 64-bit targets divide natively; 32-bit
 * targets use binary long division (init and tuning paths only, never a
 * per-fault path).
 */
static inline u64 tp_div64_u64(u64 a, u64 b)
{
#if defined(__SIZEOF_LONG__) && __SIZEOF_LONG__ >= 8
	return a / b;
#else
	u64 q = 0, r = 0;
	int i;

	for (i = 63; i >= 0; i--) {
		r = (r << 1) | ((a >> i) & 1);
		if (r >= b) {
			r -= b;
			q |= 1ULL << i;
		}
	}
	return q;
#endif
}

/*
 * Caller contract checks. Debug builds (TP_DEBUG) trap; release builds
 * compile them away, as the kernel does without CONFIG_DEBUG_VM.
 */
#ifdef TP_DEBUG
#define TP_ASSERT(cond)	do { if (!(cond)) __builtin_trap(); } while (0)
#else
#define TP_ASSERT(cond)	do { } while (0)
#endif

/* Linux errno values, for a userspace without <errno.h>. */
#ifndef ENOENT
#define ENOENT		2
#endif
#ifndef EBUSY
#define EBUSY		16
#endif
#ifndef EINVAL
#define EINVAL		22
#endif
#ifndef ERANGE
#define ERANGE		34
#endif

#endif /* __KERNEL__ */

/* Helpers common to both environments. */

/* Compile-time check: fails to build unless @cond holds. */
#define TP_COMPILE_ASSERT(cond)	((void)sizeof(char[1 - 2 * !(cond)]))

#define TP_U64_MAX	(~0ULL)

#ifndef BIT_ULL
#define BIT_ULL(nr)	(1ULL << (nr))
#endif

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

/*
 * floor(x * num / den) without intermediate overflow for any x (the kernel's
 * mult_frac()), saturating at TP_U64_MAX. @den must not be 0. Slow path.
 */
static inline u64 tp_mul_frac(u64 x, u64 num, u64 den)
{
	u64 q = tp_div64_u64(x, den);
	u64 r = x - q * den;

	return tp_add_sat(tp_mul_sat(q, num),
			  tp_div64_u64(tp_mul_sat(r, num), den));
}

/* Is @x a power of two (and not zero)? */
static inline bool tp_is_pow2(u64 x)
{
	return x && !(x & (x - 1));
}

#endif /* _TIERPOL_SEAM_H */
