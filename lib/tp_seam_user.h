/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * tp_seam_user.h - the userspace branch of tp_seam.h (never built in the
 * kernel: kbuild never reads it, and make kstyle does not check it)
 */
#ifndef TP_SEAM_USER_H
#define TP_SEAM_USER_H

/* offsetof() (a freestanding header: no libc behind it). */
#include <stddef.h>

#define TP_NOINLINE		__attribute__((__noinline__))
#define TP_COLD			__attribute__((__cold__))
#define TP_ALWAYS_INLINE	inline __attribute__((__always_inline__))

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t s32;
typedef int64_t s64;

#if defined(__SANITIZE_THREAD__)
#define TP_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define TP_TSAN 1
#endif
#endif

/*
 * A relaxed atomic access for words up to the native size; a volatile one
 * for a uint64_t on a 32-bit target, where a relaxed 64-bit atomic would be
 * a libatomic call: those are only made inside a validated read section
 * (see above), where a torn value is detected and retried.
 */
#define tp_read_once(x)							\
	__builtin_choose_expr(sizeof(x) <= sizeof(long),		\
		__atomic_load_n(&(x), __ATOMIC_RELAXED),		\
		(*(const volatile __typeof__(x) *)&(x)))
#define tp_write_once(x, v)						\
	__builtin_choose_expr(sizeof(x) <= sizeof(long),		\
		__atomic_store_n(&(x), (v), __ATOMIC_RELAXED),		\
		(void)(*(volatile __typeof__(x) *)&(x) = (v)))

static inline u64 tp_atomic64_read(const struct tp_atomic64 *p)
{
	return __atomic_load_n(&p->v, __ATOMIC_RELAXED);
}

static inline u64 tp_atomic64_read_acquire(const struct tp_atomic64 *p)
{
	return __atomic_load_n(&p->v, __ATOMIC_ACQUIRE);
}

static inline void tp_atomic64_set(struct tp_atomic64 *p, u64 v)
{
	__atomic_store_n(&p->v, v, __ATOMIC_RELAXED);
}

static inline void tp_atomic64_set_release(struct tp_atomic64 *p, u64 v)
{
	__atomic_store_n(&p->v, v, __ATOMIC_RELEASE);
}

static inline bool tp_atomic64_try_cmpxchg(struct tp_atomic64 *p, u64 *old,
					   u64 new)
{
	return __atomic_compare_exchange_n(&p->v, old, new, false,
					   __ATOMIC_SEQ_CST, __ATOMIC_RELAXED);
}

static inline void tp_atomic64_add(struct tp_atomic64 *p, u64 n)
{
	__atomic_fetch_add(&p->v, n, __ATOMIC_RELAXED);
}

static inline u64 tp_local64_read(const struct tp_local64 *p)
{
	return __atomic_load_n(&p->v, __ATOMIC_RELAXED);
}

/*
 * The kernel's local64_add(): one instruction on x86-64 (no lock prefix:
 * only the owning thread writes, and a signal handler on that thread cannot
 * split it); a relaxed atomic elsewhere, and under ThreadSanitizer, which
 * cannot see into an asm statement.
 */
static inline void tp_local64_add(struct tp_local64 *p, u64 n)
{
#if defined(__x86_64__) && !defined(TP_TSAN)
	__asm__ __volatile__("addq %1, %0" : "+m" (p->v) : "r" (n));
#else
	__atomic_fetch_add(&p->v, n, __ATOMIC_RELAXED);
#endif
}

/*
 * The kernel's local64_xchg(): one instruction on x86-64 (xchg, locked by
 * the CPU anyway), so a signal handler on the thread sees the counter
 * before or after it, never between.
 */
static inline u64 tp_local64_xchg(struct tp_local64 *p, u64 v)
{
	return __atomic_exchange_n(&p->v, v, __ATOMIC_RELAXED);
}

/*
 * The kernel's local64_set(): one store, never torn (32-bit targets
 * included). An exchange whose value is dropped is not one: clang 14
 * lowers it on i386 to a call of libatomic's __atomic_store.
 */
static inline void tp_local64_set(struct tp_local64 *p, u64 v)
{
	__atomic_store_n(&p->v, v, __ATOMIC_RELAXED);
}

static inline void tp_latch_init(struct tp_latch *l)
{
	l->seq = 0;
}

/*
 * One step of the latch writer (raw_write_seqcount_latch()): the data
 * written before it is ordered before the flip, the flip before the data
 * written after it.
 */
static inline void tp_latch_flip(struct tp_latch *l)
{
	__atomic_thread_fence(__ATOMIC_RELEASE);
	__atomic_store_n(&l->seq, l->seq + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
}

static inline unsigned int tp_latch_begin(const struct tp_latch *l)
{
	unsigned int seq = __atomic_load_n(&l->seq, __ATOMIC_RELAXED);

	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return seq;
}

#ifdef TP_FAULT_INJECT
/*
 * Test builds only (make coverage and check-debug compile lib/ with
 * -DTP_FAULT_INJECT; the release library, the kernel's and make
 * freestanding's objects never): a test program that defines this counter
 * makes the next that many latch reads see a tune in flight, so that the
 * paths that fail closed when the settings keep changing run on demand, not
 * only when a race happens to reach them. The library defines nothing: in a
 * program that does not define it the address is NULL and reads are as
 * without the option. Single-threaded use only.
 */
extern unsigned int tp_inject_latch_retry __attribute__((__weak__));
#endif

static inline bool tp_latch_retry(const struct tp_latch *l, unsigned int seq)
{
#ifdef TP_FAULT_INJECT
	if (&tp_inject_latch_retry && tp_inject_latch_retry) {
		tp_inject_latch_retry--;
		return true;
	}
#endif
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return __atomic_load_n(&l->seq, __ATOMIC_RELAXED) != seq;
}

static inline void tp_seq_init(struct tp_seqcount *s)
{
	s->seq = 0;
}

static inline void tp_seq_write_begin(struct tp_seqcount *s)
{
	__atomic_store_n(&s->seq, s->seq + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
}

static inline void tp_seq_write_end(struct tp_seqcount *s)
{
	__atomic_thread_fence(__ATOMIC_RELEASE);
	__atomic_store_n(&s->seq, s->seq + 1, __ATOMIC_RELAXED);
}

static inline unsigned int tp_seq_read_begin(const struct tp_seqcount *s)
{
	unsigned int seq = __atomic_load_n(&s->seq, __ATOMIC_RELAXED);

	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return seq;
}

static inline bool tp_seq_read_retry(const struct tp_seqcount *s,
				     unsigned int seq)
{
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return __atomic_load_n(&s->seq, __ATOMIC_RELAXED) != seq;
}

static inline u32 tp_xchg32(u32 *p, u32 v)
{
	return __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST);
}

static inline bool tp_cmpxchg32(u32 *p, u32 *old, u32 new)
{
	return __atomic_compare_exchange_n(p, old, new, false,
					   __ATOMIC_SEQ_CST, __ATOMIC_RELAXED);
}

/*
 * 64-by-64 division without libgcc: 64-bit targets divide natively; 32-bit
 * targets use binary long division (init, tune and once-per-period paths
 * only, never a per-fault path).
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
#define ENOENT		2
#define E2BIG		7
#define EBUSY		16
#define EINVAL		22
#define ERANGE		34

#ifndef BIT_ULL
#define BIT_ULL(nr)	(1ULL << (nr))
#endif


#endif /* TP_SEAM_USER_H */
