/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Helpers of the CMocka suites (userspace only): a reproducible generator
 * and exact 128-bit reference arithmetic that needs no __int128, so the
 * suites build for i386 too, and is independent of the library's own.
 * Include after <cmocka.h> and a selftest header (for the u64 names).
 */
#ifndef TP_TEST_UTIL_H
#define TP_TEST_UTIL_H

/*
 * xorshift64*: reproducible, independent of libc's random(). A suite may
 * define TP_TEST_RNG_SEED before including this to keep its own sequence.
 */
#ifndef TP_TEST_RNG_SEED
#define TP_TEST_RNG_SEED	88172645463325252ULL
#endif
static u64 rng_state = TP_TEST_RNG_SEED;

static inline u64 rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 2685821657736338717ULL;
}

/*
 * The node memory test_algos.c's and test_histogram.c's decisions see:
 * free pages above the promo watermark (struct tp_node_mem's initialiser).
 */
#define TP_TEST_MEM_FULL {						\
	.free = 60000, .wmark_min = 16384, .wmark_low = 20480,		\
	.wmark_high = 25600, .wmark_promo = 30720, .present = 1 << 22,	\
}

/* Uniform enough in [@lo, @hi], inclusive; any bounds. */
static inline u64 rnd_range(u64 lo, u64 hi)
{
	u64 span = hi - lo + 1;

	return span ? lo + rnd() % span : rnd();
}

/* The 128-bit product a * b as two words, by shifts and adds. */
static inline void mul128(u64 a, u64 b, u64 *hi, u64 *lo)
{
	u64 n;
	int i;

	*hi = 0;
	*lo = 0;
	for (i = 63; i >= 0; i--) {
		*hi = *hi << 1 | *lo >> 63;
		*lo <<= 1;
		if (b >> i & 1) {
			n = *lo + a;
			*hi += n < *lo;
			*lo = n;
		}
	}
}

/* floor(a * b / c), and whether it fits 64 bits: binary long division. */
static inline u64 muldiv(u64 a, u64 b, u64 c, bool *fits)
{
	u64 hi, lo, q = 0, r = 0;
	bool top;
	int i;

	mul128(a, b, &hi, &lo);
	*fits = true;
	for (i = 127; i >= 0; i--) {
		top = r >> 63;
		r = r << 1 | ((i >= 64 ? hi >> (i - 64) : lo >> i) & 1);
		if (top || r >= c) {
			r -= c;
			if (i >= 64)
				*fits = false;
			else
				q |= 1ULL << i;
		}
	}
	return q;
}

/* floor(a * b / c), which must fit 64 bits. */
static inline u64 muldiv_fit(u64 a, u64 b, u64 c)
{
	bool fits;
	u64 r = muldiv(a, b, c, &fits);

	assert_true(fits);
	return r;
}

/* Is a * b > c * d? Exactly, in 128 bits. */
static inline bool mul_gt(u64 a, u64 b, u64 c, u64 d)
{
	u64 h1, l1, h2, l2;

	if (!__builtin_mul_overflow(a, b, &l1) &&
	    !__builtin_mul_overflow(c, d, &l2))
		return l1 > l2;
	mul128(a, b, &h1, &l1);
	mul128(c, d, &h2, &l2);
	return h1 != h2 ? h1 > h2 : l1 > l2;
}

#endif /* TP_TEST_UTIL_H */
