/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Helpers of the limiter's CMocka suites (test_limiter*.c, userspace):
 * configurations, the bucket's pricing as lib/limiter.c documents it
 * (a second holds U = tps << (48 - ilog2(tps)) units, 2^48 <= U < 2^49; a
 * page costs ceil(U / rate) units; the capacity burst x cost is at most
 * 2^61 units; a full bucket admits up to n_max = 2^61 / cost pages), and
 * the bucket's bound over every interval of a list of admissions.
 * Include after tp_test_util.h.
 */
#ifndef TP_TEST_LIMITER_H
#define TP_TEST_LIMITER_H

static inline struct tp_limiter_cfg mkcfg(u32 variant, u32 tps, u64 rate,
					  u64 burst, u32 batch)
{
	struct tp_limiter_cfg c = {
		.sz = sizeof(c), .variant = variant, .tps = tps,
		.cand_batch = batch, .rate = rate, .burst = burst,
	};
	return c;
}

#define UNITS_MAX	(1ULL << 61)

/* Units of a tick, log2: 2^48 <= tps << shift < 2^49. */
static inline u32 tick_shift(u32 tps)
{
	return 48 - (63 - __builtin_clzll(tps));
}

static inline u64 units_per_s(u32 tps)
{
	return (u64)tps << tick_shift(tps);
}

/* Ticks until @units have passed, rounded up. */
static inline u64 ticks_for(u32 tps, u64 units)
{
	u32 s = tick_shift(tps);

	return (units >> s) + !!(units & ((1ULL << s) - 1));
}

/* A burst the bucket can hold at @rate (at most 4000 s of it). */
static inline u64 rnd_burst(u64 rate)
{
	return rnd_range(0, 4000 * rate < (1 << 20) ? 4000 * rate : 1 << 20);
}

static inline u64 page_cost(u32 tps, u64 rate)
{
	u64 u = units_per_s(tps);

	return u / rate + !!(u % rate);
}

/* Does the rate divide the units of a second (no rounding at all)? */
static inline bool exact_rate(u32 tps, u64 rate)
{
	return !(units_per_s(tps) % rate);
}

/*
 * Pages refilled over @ticks, @got, against floor(rate x ticks / tps): never
 * more; exactly as many when the rate divides the units of a second; else
 * short by at most 2^-16 of it (2^-24 up to 2^24 pages a second) and a page.
 */
static inline void assert_refill(u64 got, u32 tps, u64 rate, u64 ticks)
{
	u64 want = muldiv_fit(rate, ticks, tps);

	if (got > want)
		fail_msg("%llu pages in %llu ticks: above %llu (rate %llu, tps %u)",
			 (unsigned long long)got, (unsigned long long)ticks,
			 (unsigned long long)want, (unsigned long long)rate,
			 tps);
	if (exact_rate(tps, rate))
		assert_int_equal(got, want);
	else
		assert_true(got + (want >> (rate <= (1ULL << 24) ? 24 : 16)) +
			    2 > want);
}

/* A random clock: the usual ones, or any. */
static inline u32 rnd_tps(void)
{
	static const u32 clocks[] = {
		1, 100, 250, 1000, 1024, 999999999, 1000000000, TP_TPS_MAX,
	};

	if (rnd() & 1)
		return clocks[rnd() % (sizeof(clocks) / sizeof(clocks[0]))];
	return (u32)rnd_range(1, TP_TPS_MAX);
}

/* A random rate in [1, 2^32], spread over the orders of magnitude. */
static inline u64 rnd_rate(void)
{
	u64 r = rnd_range(1, TP_RATE_MAX) >> rnd_range(0, 32);

	return r ? r : 1;
}

/* ---- the bucket's bound, over every interval ----------------------------- */

#define BOUND_N		2000

struct adm {
	u64 t;
	u64 n;
};

/*
 * Every interval [a_i, a_j] of the admissions a_0 .. a_{na - 1}: at most
 * max(burst, the largest request) + rate x (t_j - t_i) / tps pages.
 */
static inline void assert_bucket_bound(const struct adm *a, int na, u64 burst,
				u64 rate, u32 tps)
{
	u64 sum, nmax;
	int i, j;

	for (i = 0; i < na; i++) {
		sum = 0;
		nmax = burst;
		for (j = i; j < na; j++) {
			sum += a[j].n;
			if (a[j].n > nmax)
				nmax = a[j].n;
			if (sum > nmax &&
			    mul_gt(sum - nmax, tps, rate, a[j].t - a[i].t))
				fail_msg("%llu pages in [%d, %d], %llu ticks",
					 (unsigned long long)sum, i, j,
					 (unsigned long long)(a[j].t - a[i].t));
		}
	}
}

#endif /* TP_TEST_LIMITER_H */
