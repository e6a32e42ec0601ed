// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * CMocka tests of the promotion rate limiter (lib/limiter.c): the shared
 * self-test vectors, then long simulated runs, randomized bound checks and
 * concurrent consumers for the token bucket and both window variants.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <tierpol/tierpol.h>
#include "selftest/limiter.h"

static void st_report(struct tp_st *st, bool ok, const char *name, int line)
{
	(void)st;
	if (!ok)
		print_error("selftest/limiter.h:%d: FAILED: %s\n", line, name);
}

static void test_selftest_vectors(void **state)
{
	struct tp_st st = { .suite = "limiter", .report = st_report };

	(void)state;
	assert_int_equal(tp_st_limiter(&st), 0);
	assert_int_equal(st.failed, 0);
	assert_true(st.run >= 80);
}

static struct tp_limiter_cfg mkcfg(u32 variant, u32 tps, u64 rate, u64 burst)
{
	struct tp_limiter_cfg c = {
		.variant = variant, .tps = tps, .rate = rate, .burst = burst,
	};
	return c;
}

/* xorshift64*: reproducible, independent of libc's random() */
static u64 rng_state = 88172645463325252ULL;

static u64 rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 2685821657736338717ULL;
}

static u64 rnd_range(u64 lo, u64 hi)	/* inclusive */
{
	return lo + rnd() % (hi - lo + 1);
}

/*
 * floor(a * b / c), and whether it fits 64 bits: a 128-bit schoolbook
 * product and binary long division. A reference independent of the
 * library's arithmetic that also builds for i386 (no __int128).
 */
static u64 muldiv(u64 a, u64 b, u64 c, bool *fits)
{
	u64 hi = 0, lo = 0, q = 0, r = 0, n;
	bool top;
	int i;

	for (i = 63; i >= 0; i--) {
		hi = hi << 1 | lo >> 63;
		lo <<= 1;
		if (b >> i & 1) {
			n = lo + a;
			hi += n < lo;
			lo = n;
		}
	}
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

/* floor(rate * ticks / tps) */
static u64 refill(u64 rate, u64 ticks, u32 tps)
{
	bool fits;
	u64 r = muldiv(rate, ticks, tps, &fits);

	assert_true(fits);
	return r;
}

/* ---- configuration ------------------------------------------------------- */

static void test_init_rejects_untouched(void **state)
{
	static const struct {
		struct tp_limiter_cfg c;
		int ret;
	} rows[] = {
		{ { .variant = 3, .tps = 1000 }, -EINVAL },
		{ { .variant = 0, .tps = 0 }, -EINVAL },
		{ { .variant = 2, .tps = TP_TPS_MAX + 1 }, -EINVAL },
		{ { .tps = 1000, .rate = TP_RATE_MAX + 1 }, -ERANGE },
		{ { .tps = 1000, .burst = TP_RATE_MAX + 1 }, -ERANGE },
		{ { .variant = 1, .tps = 1000, .rate = ~0ULL }, -ERANGE },
	};
	struct tp_limiter_cfg good = mkcfg(0, 1000, 100, 0);
	struct tp_limiter l, copy;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		memset(&l, 0xc3, sizeof(l));
		memcpy(&copy, &l, sizeof(l));
		assert_int_equal(tp_limiter_init(&l, &rows[i].c, 0),
				 rows[i].ret);
		assert_memory_equal(&l, &copy, sizeof(l));
		assert_int_equal(tp_limiter_init(&l, &good, 0), 0);
		assert_true(tp_limiter_consume(&l, 40, 0));
		memcpy(&copy, &l, sizeof(l));
		assert_int_equal(tp_limiter_tune(&l, &rows[i].c, 1),
				 rows[i].ret);
		assert_memory_equal(&l, &copy, sizeof(l));
	}
	assert_int_equal(tp_limiter_init(NULL, &good, 0), -EINVAL);
	assert_int_equal(tp_limiter_init(&l, NULL, 0), -EINVAL);
	assert_memory_equal(&l, &copy, sizeof(l));
	assert_int_equal(tp_limiter_tune(NULL, &good, 0), -EINVAL);
	assert_int_equal(tp_limiter_tune(&l, NULL, 0), -EINVAL);
	assert_memory_equal(&l, &copy, sizeof(l));
}

static void test_mbps_to_pages(void **state)
{
	u32 shift, k;
	u64 mbps, want;

	(void)state;
	assert_int_equal(tp_mbps_to_pages(65536, 12), 1ULL << 24);
	assert_int_equal(tp_mbps_to_pages(1ULL << 24, 12), 1ULL << 32);
	/* mainline's unsigned int MB_TO_PAGES() at 2^24 MB/s */
	assert_int_equal((unsigned int)(1U << 24) << (20 - 12), 0);
	assert_int_equal(tp_mbps_to_pages(65536, 14), 1ULL << 22);
	assert_int_equal(tp_mbps_to_pages(65536, 16), 1ULL << 20);
	assert_int_equal(tp_mbps_to_pages(65536, 21), 1ULL << 15);
	assert_int_equal(tp_mbps_to_pages(~0ULL, 12), ~0ULL);
	/* every shift against a 128-bit reference */
	for (shift = 0; shift < 64; shift++) {
		for (k = 0; k < 2000; k++) {
			mbps = rnd() >> (rnd() % 64);
			if (shift <= 20) {
				want = mbps << (20 - shift);
				/* bits shifted out: saturated */
				if (want >> (20 - shift) != mbps)
					want = ~0ULL;
			} else {
				want = mbps >> (shift - 20);
			}
			assert_int_equal(tp_mbps_to_pages(mbps, shift), want);
		}
	}
}

/* ---- token bucket -------------------------------------------------------- */

static void test_bucket_starts_full(void **state)
{
	static const u64 bursts[] = { 1, 2, 3, 10, 511, 512, 1000, 65536 };
	struct tp_limiter l;
	struct tp_limiter_cfg c;
	size_t i;
	u64 n;

	(void)state;
	for (i = 0; i < sizeof(bursts) / sizeof(bursts[0]); i++) {
		c = mkcfg(TP_LIMITER_BUCKET, 1000, 100, bursts[i]);
		assert_int_equal(tp_limiter_init(&l, &c, 77), 0);
		for (n = 0; tp_limiter_consume(&l, 1, 77); n++)
			assert_true(n <= bursts[i]);
		assert_int_equal(n, bursts[i]);
	}
	/* burst 0: one second of the rate */
	c = mkcfg(TP_LIMITER_BUCKET, 1000, 300, 0);
	assert_int_equal(tp_limiter_init(&l, &c, 0), 0);
	for (n = 0; tp_limiter_consume(&l, 1, 0); n++)
		;
	assert_int_equal(n, 300);
}

/*
 * A greedy consumer over @secs seconds of simulated time. Each step drains
 * the bucket: the admitted total must stay within one page of
 * burst + rate * t at every step. With random gaps of up to a second the
 * capacity must be at least rate + 1, or the cap would (rightly) drop the
 * fraction of a page left over from the previous step.
 */
static void greedy_run(u32 tps, u64 rate, u64 burst, u64 t0, u64 secs,
		       u64 maxgap, bool one_by_one)
{
	struct tp_limiter_cfg c = mkcfg(TP_LIMITER_BUCKET, tps, rate, burst);
	struct tp_limiter l;
	u64 now = t0, end = t0 + secs * tps, got = 0, want, avail;

	if (!burst)
		burst = rate;
	assert_int_equal(tp_limiter_init(&l, &c, t0), 0);
	for (;;) {
		if (one_by_one) {
			while (tp_limiter_consume(&l, 1, now))
				got++;
		} else {
			avail = tp_limiter_available(&l, now);
			assert_true(tp_limiter_consume(&l, avail, now));
			assert_false(tp_limiter_consume(&l, 1, now));
			got += avail;
		}
		want = burst + refill(rate, now - t0, tps);
		assert_true(got <= want);
		assert_true(got + 1 >= want);
		if (now == end)
			break;
		now += maxgap == 1 ? 1 : rnd_range(1, maxgap);
		if (now - t0 > secs * tps)
			now = end;
	}
	assert_int_equal(got, burst + refill(rate, secs * tps, tps));
}

static void test_refill_1pps(void **state)
{
	(void)state;
	greedy_run(1000, 1, 0, 0, 1000, 1, true);
	greedy_run(1000, 1, 2, (1ULL << 32) - 500000, 1000, 1000, true);
}

static void test_refill_3pps(void **state)
{
	(void)state;
	greedy_run(1000, 3, 0, 5, 1000, 1, true);
	greedy_run(1000, 3, 4, ~0ULL - 400000, 1000, 1000, true);
	greedy_run(TP_TPS_MAX, 3, 4, 0, 1000, TP_TPS_MAX, true);
}

static void test_refill_2p24_ns_and_hz(void **state)
{
	u64 r = 1ULL << 24;

	(void)state;
	/* 65536 MB/s of 4 KiB pages on a ns clock and on HZ=250 jiffies */
	greedy_run(1000000000, r, r + 1, 0, 1000, 1000000000, false);
	greedy_run(1000000000, r, 0, ~0ULL - 1000000000000ULL, 1000, 7000000,
		   false);
	greedy_run(250, r, 0, 0, 1000, 1, false);
	greedy_run(250, r, r + 1, (1ULL << 32) - 1000, 1000, 250, false);
	/* the largest rate; gaps short of a second fill at most rate - 1 */
	greedy_run(1000000000, TP_RATE_MAX, 0, 3, 1000, 999000000, false);
}

static void test_n_over_burst_never(void **state)
{
	struct tp_limiter l;
	struct tp_limiter_cfg c;
	u64 burst, now = 0;
	int run, k;

	(void)state;
	for (run = 0; run < 200; run++) {
		burst = rnd_range(1, 1 << 20);
		c = mkcfg(TP_LIMITER_BUCKET, 1000, rnd_range(1, 1 << 24),
			  burst);
		assert_int_equal(tp_limiter_init(&l, &c, now), 0);
		for (k = 0; k < 50; k++) {
			now += rnd() >> rnd_range(20, 63);
			assert_false(tp_limiter_consume(&l, burst + 1 +
							(rnd() >> 40), now));
			assert_true(tp_limiter_consume(&l, 0, now));
		}
		/* after a long idle time the burst itself fits */
		now += 1ULL << 40;
		assert_true(tp_limiter_consume(&l, burst, now));
		assert_false(tp_limiter_consume(&l, 1, now));
		assert_true(tp_limiter_consume(&l, 0, now));
	}
}

static void test_rate_zero_refuses(void **state)
{
	static const u32 variants[] = {
		TP_LIMITER_BUCKET, TP_LIMITER_WINDOW_SEED,
		TP_LIMITER_WINDOW_MAINLINE,
	};
	struct tp_limiter l;
	struct tp_limiter_cfg c;
	size_t i;
	u64 now;

	(void)state;
	for (i = 0; i < 3; i++) {
		c = mkcfg(variants[i], 1000, 0, 50);
		assert_int_equal(tp_limiter_init(&l, &c, 0), 0);
		/* over many windows, every opener included */
		for (now = 0; now < 100000; now += rnd_range(1, 3000)) {
			assert_false(tp_limiter_consume(&l, rnd_range(1, 512),
							now));
			assert_true(tp_limiter_consume(&l, 0, now));
			assert_int_equal(tp_limiter_available(&l, now), 0);
		}
	}
}

static void test_thp_512(void **state)
{
	struct tp_limiter l;
	struct tp_limiter_cfg c = mkcfg(TP_LIMITER_BUCKET, 1000, 1024, 511);
	u64 now;

	(void)state;
	assert_int_equal(tp_limiter_init(&l, &c, 0), 0);
	for (now = 0; now < 100000; now += 997)
		assert_false(tp_limiter_consume(&l, 512, now));
	/* 512: admitted when full, again after 0.5 s at 1024/s */
	c.burst = 512;
	assert_int_equal(tp_limiter_init(&l, &c, 0), 0);
	assert_true(tp_limiter_consume(&l, 512, 0));
	assert_false(tp_limiter_consume(&l, 512, 499));
	assert_false(tp_limiter_consume(&l, 1, 0));
	assert_true(tp_limiter_consume(&l, 512, 500));
	assert_false(tp_limiter_consume(&l, 1, 500));
	assert_true(tp_limiter_consume(&l, 1, 501));
}

/* ---- the bound, over sliding intervals ----------------------------------- */

#define BOUND_N		2500

struct adm {
	u64 t;
	u64 n;
};

static void test_sliding_interval_bound(void **state)
{
	static struct adm a[BOUND_N];
	struct tp_limiter l;
	struct tp_limiter_cfg c;
	u64 now, sum, rate, burst, tot, t0;
	u32 tps;
	int run, i, j, na;

	(void)state;
	for (run = 0; run < 40; run++) {
		tps = (u32)rnd_range(1, 1000000);
		rate = rnd_range(1, 100000);
		burst = rnd_range(1, 5000);
		t0 = rnd();
		c = mkcfg(TP_LIMITER_BUCKET, tps, rate, burst);
		assert_int_equal(tp_limiter_init(&l, &c, t0), 0);
		now = t0;
		na = 0;
		tot = 0;
		for (i = 0; i < 20 * BOUND_N && na < BOUND_N; i++) {
			u64 n = rnd_range(1, burst < 600 ? burst : 600);

			now += rnd_range(0, tps / 100 + 1);
			if (tp_limiter_consume(&l, n, now)) {
				a[na].t = now;
				a[na].n = n;
				na++;
				tot += n;
			}
		}
		assert_true(na > 10);
		/* every interval [a_i, a_j]; and [t0, a_j] from the start */
		for (i = 0; i < na; i++) {
			sum = 0;
			for (j = i; j < na; j++) {
				sum += a[j].n;
				/*
				 * sum <= burst + rate * dt / tps, without a
				 * division (< 2^41 and < 2^47 here)
				 */
				if (sum > burst &&
				    (sum - burst) * tps >
				    rate * (a[j].t - a[i].t))
					fail_msg("run %d: %llu in [%d, %d]",
						 run,
						 (unsigned long long)sum, i,
						 j);
			}
		}
		assert_true(tot <= burst + refill(rate, now - t0, tps));
	}
}

/* ---- stale state, out-of-order callers, the extremes --------------------- */

static void test_stale_after_huge_gap(void **state)
{
	/* 2^24/s on a ms clock: 2^21 units a tick, 2^43 ticks wrap */
	struct tp_limiter_cfg c = mkcfg(TP_LIMITER_BUCKET, 1000, 1ULL << 24,
					1000);
	struct tp_limiter l;
	u64 t0 = 42, gap;
	int k;

	(void)state;
	for (k = 0; k < 2000; k++) {
		/* idle gaps above 2^63 units, short of aliasing within 1 s */
		gap = rnd_range((1ULL << 42) + 1, (1ULL << 43) - 1001);
		assert_int_equal(tp_limiter_init(&l, &c, t0), 0);
		assert_true(tp_limiter_consume(&l, 1000, t0));
		assert_false(tp_limiter_consume(&l, 1, t0));
		assert_int_equal(tp_limiter_available(&l, t0 + gap), 1000);
		assert_true(tp_limiter_consume(&l, 1000, t0 + gap));
		assert_false(tp_limiter_consume(&l, 1, t0 + gap));
		t0 = rnd();
	}
}

static void test_out_of_order_not_stale(void **state)
{
	struct tp_limiter l;
	struct tp_limiter_cfg c;
	u64 t0, back;
	u32 tps;
	int k;

	(void)state;
	for (k = 0; k < 5000; k++) {
		tps = (u32)rnd_range(1, TP_TPS_MAX);
		c = mkcfg(TP_LIMITER_BUCKET, tps, rnd_range(1, TP_RATE_MAX),
			  rnd_range(1, TP_RATE_MAX));
		t0 = rnd();
		assert_int_equal(tp_limiter_init(&l, &c, t0), 0);
		assert_true(tp_limiter_consume(&l, c.burst, t0));
		/* a caller less than 1 s behind sees an empty bucket */
		back = rnd_range(1, tps - 1 ? tps - 1 : 1);
		if (back >= tps)
			continue;
		assert_false(tp_limiter_consume(&l, 1, t0 - back));
		assert_false(tp_limiter_consume(&l, rnd_range(1, c.burst),
						t0 - back));
		assert_int_equal(tp_limiter_available(&l, t0 - back), 0);
		/* and took nothing from the future */
		assert_int_equal(tp_limiter_available(&l, t0 + tps),
				 refill(c.rate, tps, tps) < c.burst ?
				 c.rate : c.burst);
	}
}

/*
 * Callers whose clocks disagree by up to a second, at the largest rates,
 * bursts and tick rates: the bound holds over the interval that contains
 * every caller's now.
 */
static void test_jitter_bound_extremes(void **state)
{
	struct tp_limiter l;
	struct tp_limiter_cfg c;
	u64 base, now, lo, hi, tot, n;
	u32 tps;
	int run, k;

	(void)state;
	for (run = 0; run < 400; run++) {
		tps = (u32)(run & 1 ? TP_TPS_MAX - rnd_range(0, 1000) :
				      rnd_range(1, TP_TPS_MAX));
		c = mkcfg(TP_LIMITER_BUCKET, tps,
			  TP_RATE_MAX - rnd_range(0, run & 2 ? 0 : 1000),
			  TP_RATE_MAX - rnd_range(0, run & 4 ? 0 : 1000));
		base = rnd();
		assert_int_equal(tp_limiter_init(&l, &c, base), 0);
		lo = base;
		hi = base;
		tot = 0;
		for (k = 0; k < 300; k++) {
			base += rnd_range(0, tps / 4);
			now = base - rnd_range(0, tps - 1);
			if ((s64)(now - lo) < 0)
				lo = now;
			if ((s64)(now - hi) > 0)
				hi = now;
			n = rnd() >> rnd_range(30, 63);
			if (!n)
				n = 1;
			if (tp_limiter_consume(&l, n, now))
				tot += n;
		}
		assert_true(tot <= c.burst + refill(c.rate, hi - lo, tps));
	}
}

/* ---- tune, available ----------------------------------------------------- */

static void test_tune_preserves_debt(void **state)
{
	struct tp_limiter l;
	struct tp_limiter_cfg c = mkcfg(TP_LIMITER_BUCKET, 1000, 1000, 0);
	u64 now = 5000;
	int k;

	(void)state;
	assert_int_equal(tp_limiter_init(&l, &c, now), 0);
	/* drain, then retune over and over: no free refill */
	assert_true(tp_limiter_consume(&l, 1000, now));
	for (k = 0; k < 100; k++) {
		assert_int_equal(tp_limiter_tune(&l, &c, now), 0);
		assert_false(tp_limiter_consume(&l, 1, now));
	}
	/* half a second later: 500 pages owed no more */
	now += 500;
	assert_int_equal(tp_limiter_tune(&l, &c, now), 0);
	assert_int_equal(tp_limiter_available(&l, now), 500);
	/* a 4x rate: the remaining 500-page debt is repaid 4x faster */
	c.rate = 4000;
	c.burst = 1000;
	assert_int_equal(tp_limiter_tune(&l, &c, now), 0);
	assert_int_equal(tp_limiter_available(&l, now), 500);
	assert_int_equal(tp_limiter_available(&l, now + 125), 1000);
	/* rate 0 has no capacity, so no debt; back at 1000/s: full */
	assert_true(tp_limiter_consume(&l, 1000, now + 125));
	c.rate = 0;
	assert_int_equal(tp_limiter_tune(&l, &c, now + 125), 0);
	assert_false(tp_limiter_consume(&l, 1, now + 10000));
	c.rate = 1000;
	assert_int_equal(tp_limiter_tune(&l, &c, now + 10000), 0);
	assert_true(tp_limiter_consume(&l, 1000, now + 10000));
}

/* A retune with the same settings never grants pages, and costs < 1. */
static void test_tune_never_grants(void **state)
{
	struct tp_limiter l;
	struct tp_limiter_cfg c;
	u64 now, a, b;
	int run, k;

	(void)state;
	for (run = 0; run < 2000; run++) {
		c = mkcfg(TP_LIMITER_BUCKET, (u32)rnd_range(1, 1000000),
			  rnd_range(1, 1 << 20), rnd_range(0, 1 << 20));
		now = rnd();
		assert_int_equal(tp_limiter_init(&l, &c, now), 0);
		for (k = 0; k < 20; k++) {
			tp_limiter_consume(&l, rnd_range(1, 1 << 20), now);
			now += rnd_range(0, c.tps / 2);
			a = tp_limiter_available(&l, now);
			assert_int_equal(tp_limiter_tune(&l, &c, now), 0);
			b = tp_limiter_available(&l, now);
			assert_true(b <= a);
			assert_true(b + 1 >= a);
		}
	}
}

static void test_available_matches_consume(void **state)
{
	struct tp_limiter l;
	struct tp_limiter_cfg c;
	u64 now, a;
	int run, k;

	(void)state;
	for (run = 0; run < 300; run++) {
		c = mkcfg((u32)(run % 3), (u32)rnd_range(1, 1000000),
			  rnd_range(0, 1 << 20), rnd_range(0, 1 << 20));
		now = rnd();
		assert_int_equal(tp_limiter_init(&l, &c, now), 0);
		for (k = 0; k < 200; k++) {
			now += rnd_range(0, c.tps / 3);
			a = tp_limiter_available(&l, now);
			if (c.variant == TP_LIMITER_BUCKET) {
				/* exactly what a single request can take */
				assert_false(tp_limiter_consume(&l, a + 1,
								now));
				if (rnd() & 1)
					a = rnd_range(0, a);
				assert_true(tp_limiter_consume(&l, a, now));
			} else {
				assert_true(a <= c.rate);
				tp_limiter_consume(&l, rnd_range(1, 100), now);
			}
		}
	}
}

/* ---- the window variants ------------------------------------------------- */

static void test_window_limit_th_page(void **state)
{
	struct tp_limiter l;
	struct tp_limiter_cfg c;
	u64 limit, n;

	(void)state;
	for (limit = 1; limit < 3000; limit = limit * 3 + 1) {
		c = mkcfg(TP_LIMITER_WINDOW_SEED, 1000, limit, 0);
		assert_int_equal(tp_limiter_init(&l, &c, 0), 0);
		for (n = 0; tp_limiter_consume(&l, 1, 10); n++)
			;
		assert_int_equal(n, limit);	/* the limit-th admitted */
		c.variant = TP_LIMITER_WINDOW_MAINLINE;
		assert_int_equal(tp_limiter_init(&l, &c, 0), 0);
		for (n = 0; tp_limiter_consume(&l, 1, 10); n++)
			;
		/* the limit-th refused */
		assert_int_equal(n, limit - 1);
	}
}

static void test_window_rolls_strictly(void **state)
{
	struct tp_limiter l;
	struct tp_limiter_cfg c = mkcfg(TP_LIMITER_WINDOW_MAINLINE, 250, 10, 0);
	u64 start = 1000;
	int w;

	(void)state;
	assert_int_equal(tp_limiter_init(&l, &c, start), 0);
	assert_true(tp_limiter_consume(&l, 9, start));
	for (w = 0; w < 50; w++) {
		/* refused through start + tps inclusive */
		assert_false(tp_limiter_consume(&l, 1, start + 1));
		assert_false(tp_limiter_consume(&l, 1, start + 250));
		/* start + tps + 1: a new window, opened by this request */
		start += 251;
		assert_true(tp_limiter_consume(&l, 500, start));
		assert_true(tp_limiter_consume(&l, 9, start + 100));
	}
}

/* An independent model of the documented window semantics. */
struct wmodel {
	u64 start, count, base, limit;
	u32 tps;
	bool seed;
};

static bool wmodel_consume(struct wmodel *m, u64 n, u64 now)
{
	u64 used;

	if (!n)
		return true;
	m->count += n;
	if ((s64)(now - m->start) > (s64)m->tps) {
		m->start = now;
		m->base = m->count;
	}
	used = m->count - m->base;
	if (!m->limit)
		return false;
	return m->seed ? used <= m->limit : used < m->limit;
}

static void test_window_random_bound(void **state)
{
	struct tp_limiter l;
	struct tp_limiter_cfg c;
	struct wmodel m;
	u64 now, n, nmax, in_win, opened, t0, tot;
	int run, k;
	bool got;

	(void)state;
	for (run = 0; run < 200; run++) {
		c = mkcfg(run & 1 ? TP_LIMITER_WINDOW_SEED :
				    TP_LIMITER_WINDOW_MAINLINE,
			  (u32)rnd_range(1, 100000), rnd_range(1, 5000), 0);
		nmax = rnd_range(1, 600);
		t0 = rnd();
		assert_int_equal(tp_limiter_init(&l, &c, t0), 0);
		m = (struct wmodel){ .start = t0, .limit = c.rate,
				     .tps = c.tps, .seed = run & 1 };
		now = t0;
		in_win = 0;
		opened = t0;
		tot = 0;
		for (k = 0; k < 5000; k++) {
			now += rnd_range(0, c.tps / 20 + 1);
			n = rnd_range(1, nmax);
			got = tp_limiter_consume(&l, n, now);
			assert_int_equal(got, wmodel_consume(&m, n, now));
			if (m.start != opened) {
				opened = m.start;
				in_win = 0;
			}
			if (got) {
				in_win += n;
				tot += n;
			}
			assert_true(in_win <= c.rate + nmax);
		}
		/* over T seconds: (T + 2) * (limit + n_max), T rounded up */
		assert_true(tot <= ((now - t0) / c.tps + 3) * (c.rate + nmax));
	}
}

/* ---- concurrency --------------------------------------------------------- */

/*
 * Four consumers share one limiter and a simulated clock that advances one
 * tick when every thread has made its @per_thread requests at the current
 * tick (a barrier), so callers never disagree by more than the jitter of
 * up to 2 ticks each adds to its now (out of order, well under a second).
 */
#define CONC_THREADS	4

struct conc {
	struct tp_limiter l;
	pthread_barrier_t bar;
	u64 t0;
	u64 ticks;
	u32 per_thread;
	u32 nmax;
	u64 admitted[CONC_THREADS];
};

static struct conc cc;

static void *conc_worker(void *arg)
{
	int id = (int)(intptr_t)arg;
	u64 tick, now, n, x = 0x9e3779b97f4a7c15ULL * (id + 1);
	u32 k;

	for (tick = 0; tick < cc.ticks; tick++) {
		for (k = 0; k < cc.per_thread; k++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			n = 1 + x % cc.nmax;
			now = cc.t0 + tick - (x >> 40) % 3;
			if (tp_limiter_consume(&cc.l, n, now))
				cc.admitted[id] += n;
		}
		pthread_barrier_wait(&cc.bar);
	}
	return NULL;
}

/* Returns the pages admitted; every now was in [t0 - 2, t0 + ticks - 1]. */
static u64 conc_run(const struct tp_limiter_cfg *c, u64 ticks, u32 per_thread,
		    u32 nmax)
{
	pthread_t th[CONC_THREADS];
	u64 tot = 0;
	int i;

	memset(&cc.admitted, 0, sizeof(cc.admitted));
	cc.t0 = (1ULL << 32) - ticks / 2;	/* across 2^32 as well */
	cc.ticks = ticks;
	cc.per_thread = per_thread;
	cc.nmax = nmax;
	/* init 2 ticks early: the full bucket belongs to the interval */
	assert_int_equal(tp_limiter_init(&cc.l, c, cc.t0 - 2), 0);
	assert_int_equal(pthread_barrier_init(&cc.bar, NULL, CONC_THREADS), 0);
	for (i = 0; i < CONC_THREADS; i++)
		assert_int_equal(pthread_create(&th[i], NULL, conc_worker,
						(void *)(intptr_t)i), 0);
	for (i = 0; i < CONC_THREADS; i++) {
		pthread_join(th[i], NULL);
		tot += cc.admitted[i];
	}
	pthread_barrier_destroy(&cc.bar);
	return tot;
}

static void test_concurrent_bucket(void **state)
{
	/* 20000 pages/s = 20 a tick; demand 64 requests of 1..4 a tick */
	struct tp_limiter_cfg c = mkcfg(TP_LIMITER_BUCKET, 1000, 20000, 500);
	u64 ticks = 5000, tot, supply;

	(void)state;
	tot = conc_run(&c, ticks, 16, 4);
	/* the interval holding every now: [t0 - 2, t0 + ticks - 1] */
	supply = refill(c.rate, ticks + 1, c.tps);
	assert_true(tot <= c.burst + supply);
	assert_true(tot * 100 >= supply * 99);
}

static void test_concurrent_window(void **state)
{
	/* 1000 pages/s, 100 ticks/s; demand 80 requests of 1..4 a tick */
	struct tp_limiter_cfg c = mkcfg(TP_LIMITER_WINDOW_SEED, 100, 1000, 0);
	u64 ticks = 2000, secs = (ticks + 1 + 99) / 100, tot;
	int v;

	(void)state;
	for (v = 0; v < 2; v++) {
		c.variant = v ? TP_LIMITER_WINDOW_MAINLINE :
				TP_LIMITER_WINDOW_SEED;
		tot = conc_run(&c, ticks, 20, 4);
		/* the documented bound over T seconds */
		assert_true(tot <= (secs + 2) * (c.rate + 4));
		/*
		 * Saturated: windows of 101 ticks, each admitting about the
		 * limit (an opener caught between its cmpxchg and its base
		 * store costs at most one tick's requests).
		 */
		assert_true(tot >= (secs - 2) * (c.rate - 80 * 4));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_selftest_vectors),
		cmocka_unit_test(test_init_rejects_untouched),
		cmocka_unit_test(test_mbps_to_pages),
		cmocka_unit_test(test_bucket_starts_full),
		cmocka_unit_test(test_refill_1pps),
		cmocka_unit_test(test_refill_3pps),
		cmocka_unit_test(test_refill_2p24_ns_and_hz),
		cmocka_unit_test(test_n_over_burst_never),
		cmocka_unit_test(test_rate_zero_refuses),
		cmocka_unit_test(test_thp_512),
		cmocka_unit_test(test_sliding_interval_bound),
		cmocka_unit_test(test_stale_after_huge_gap),
		cmocka_unit_test(test_out_of_order_not_stale),
		cmocka_unit_test(test_jitter_bound_extremes),
		cmocka_unit_test(test_tune_preserves_debt),
		cmocka_unit_test(test_tune_never_grants),
		cmocka_unit_test(test_available_matches_consume),
		cmocka_unit_test(test_window_limit_th_page),
		cmocka_unit_test(test_window_rolls_strictly),
		cmocka_unit_test(test_window_random_bound),
		cmocka_unit_test(test_concurrent_bucket),
		cmocka_unit_test(test_concurrent_window),
	};

	return cmocka_run_group_tests_name("limiter", tests, NULL, NULL);
}
