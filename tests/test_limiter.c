// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * CMocka tests of the promotion rate limiter (lib/limiter.c): the shared
 * self-test vectors, then long simulated runs, randomized bound checks,
 * tunes, and the regressions of issue 12 that one thread can show (calls
 * that read the settings before a tune, simulated by running them on the
 * settings copies saved before it). The threaded tests are in
 * test_limiter_mt.c.
 *
 * The bucket's pricing, as lib/limiter.c documents it: a second holds
 * U = tps << (48 - ilog2(tps)) units (2^48 <= U < 2^49), a page costs
 * ceil(U / rate) units, the capacity burst x cost must be at most 2^61
 * units, and a full bucket admits up to n_max = 2^61 / cost pages.
 */
#include <errno.h>
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
#include "tp_test_util.h"

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
	assert_true(st.run >= 140);
}

static struct tp_limiter_cfg mkcfg(u32 variant, u32 tps, u64 rate, u64 burst)
{
	struct tp_limiter_cfg c = {
		.sz = sizeof(c), .variant = variant, .tps = tps, .rate = rate,
		.burst = burst,
	};
	return c;
}

/* ---- the documented pricing ---------------------------------------------- */

#define UNITS_MAX	(1ULL << 61)

/* Units of a tick, log2: 2^48 <= tps << shift < 2^49. */
static u32 tick_shift(u32 tps)
{
	return 48 - (63 - __builtin_clzll(tps));
}

static u64 units_per_s(u32 tps)
{
	return (u64)tps << tick_shift(tps);
}

/* Ticks until @units have passed, rounded up. */
static u64 ticks_for(u32 tps, u64 units)
{
	u32 s = tick_shift(tps);

	return (units >> s) + !!(units & ((1ULL << s) - 1));
}

/* A burst the bucket can hold at @rate (at most 4000 s of it). */
static u64 rnd_burst(u64 rate)
{
	return rnd_range(0, 4000 * rate < (1 << 20) ? 4000 * rate : 1 << 20);
}

static u64 page_cost(u32 tps, u64 rate)
{
	u64 u = units_per_s(tps);

	return u / rate + !!(u % rate);
}

/* Does the rate divide the units of a second (no rounding at all)? */
static bool exact_rate(u32 tps, u64 rate)
{
	return !(units_per_s(tps) % rate);
}

/*
 * Pages refilled over @ticks, @got, against floor(rate x ticks / tps): never
 * more; exactly as many when the rate divides the units of a second; else
 * short by at most 2^-16 of it (2^-24 up to 2^24 pages a second) and a page.
 */
static void assert_refill(u64 got, u32 tps, u64 rate, u64 ticks)
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

/* ---- configuration ------------------------------------------------------- */

static void test_init_rejects_untouched(void **state)
{
	static const struct {
		struct tp_limiter_cfg c;
		int ret;
	} rows[] = {
		{ { .sz = 0, .tps = 1000, .rate = 1 }, -EINVAL },
		{ { .sz = 31, .tps = 1000, .rate = 1 }, -EINVAL },
		{ { .sz = 4097, .tps = 1000, .rate = 1 }, -EINVAL },
		{ { .sz = 32, .variant = 3, .tps = 1000 }, -EINVAL },
		{ { .sz = 32, .variant = 0, .tps = 0 }, -EINVAL },
		{ { .sz = 32, .variant = 2, .tps = TP_TPS_MAX + 1 }, -EINVAL },
		{ { .sz = 32, .variant = 1, .tps = 1000,
		    .cand_batch = TP_CAND_BATCH_MAX + 1 }, -EINVAL },
		{ { .sz = 32, .tps = 1000, .rate = TP_RATE_MAX + 1 }, -ERANGE },
		{ { .sz = 32, .tps = 1000, .burst = TP_RATE_MAX + 1 }, -ERANGE },
		{ { .sz = 32, .variant = 1, .tps = 1000, .rate = ~0ULL },
		  -ERANGE },
		{ { .sz = 32, .tps = 1000, .rate = 1, .burst = 4195 },
		  -ERANGE },
		/* valid, but a tune cannot change the clock */
		{ { .sz = 32, .tps = 1001, .rate = 100 }, 0 },
		{ { .sz = 32, .tps = TP_TPS_MAX, .rate = 10 }, 0 },
	};
	struct tp_limiter_cfg good = mkcfg(0, 1000, 100, 0);
	struct tp_limiter l, copy;
	size_t i;

	(void)state;
	assert_int_equal(sizeof(struct tp_limiter_cfg), 32);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		memset(&l, 0xc3, sizeof(l));
		memcpy(&copy, &l, sizeof(l));
		assert_int_equal(tp_limiter_init(&l, &rows[i].c, 0),
				 rows[i].ret);
		if (rows[i].ret)
			assert_memory_equal(&l, &copy, sizeof(l));
		assert_int_equal(tp_limiter_init(&l, &good, 0), 0);
		assert_true(tp_limiter_consume(&l, NULL, 40, 0));
		memcpy(&copy, &l, sizeof(l));
		assert_int_equal(tp_limiter_tune(&l, &rows[i].c),
				 rows[i].ret ? rows[i].ret : -EINVAL);
		assert_memory_equal(&l, &copy, sizeof(l));
	}
	assert_int_equal(tp_limiter_init(NULL, &good, 0), -EINVAL);
	assert_int_equal(tp_limiter_init(&l, NULL, 0), -EINVAL);
	assert_memory_equal(&l, &copy, sizeof(l));
	assert_int_equal(tp_limiter_tune(NULL, &good), -EINVAL);
	assert_int_equal(tp_limiter_tune(&l, NULL), -EINVAL);
	assert_memory_equal(&l, &copy, sizeof(l));
}

/* A random clock: the usual ones, or any. */
static u32 rnd_tps(void)
{
	static const u32 clocks[] = {
		1, 100, 250, 1000, 1024, 999999999, 1000000000, TP_TPS_MAX,
	};

	if (rnd() & 1)
		return clocks[rnd() % (sizeof(clocks) / sizeof(clocks[0]))];
	return (u32)rnd_range(1, TP_TPS_MAX);
}

/* A random rate in [1, 2^32], spread over the orders of magnitude. */
static u64 rnd_rate(void)
{
	u64 r = rnd_range(1, TP_RATE_MAX) >> rnd_range(0, 32);

	return r ? r : 1;
}

/*
 * The capacity limit: a burst is refused exactly when burst x cost passes
 * 2^61 units; so at most 4096 seconds of the rate are always accepted and
 * more than 8192 never are. A full bucket then admits exactly up to n_max.
 */
static void test_burst_range(void **state)
{
	struct tp_limiter_cfg c;
	struct tp_limiter l;
	u64 rate, burst, b, cost, n_max;
	int run, ret, want, refused = 0;
	u32 tps;

	(void)state;
	for (run = 0; run < 20000; run++) {
		tps = rnd_tps();
		rate = rnd_rate();
		switch (run % 4) {
		case 0:		/* near the limit */
			burst = rate * rnd_range(4000, 8300) +
				rnd_range(0, rate);
			break;
		case 1:
			burst = rnd_range(0, TP_RATE_MAX);
			break;
		case 2:
			burst = rate * 4095;
			break;
		default:
			burst = rate * 8192 + 1;
			break;
		}
		if (burst > TP_RATE_MAX)
			burst = TP_RATE_MAX - rnd_range(0, 3);
		c = mkcfg(TP_LIMITER_BUCKET, tps, rate, burst);
		ret = tp_limiter_init(&l, &c, 77);
		b = burst ? burst : rate;
		cost = page_cost(tps, rate);
		want = mul_gt(b, cost, 1, UNITS_MAX) ? -ERANGE : 0;
		assert_int_equal(ret, want);
		if (b <= 4095 * rate)
			assert_int_equal(ret, 0);
		if (b > 8192 * rate)
			assert_int_equal(ret, -ERANGE);
		if (ret) {
			refused++;
			continue;
		}
		/* a full bucket: n_max, not one more */
		n_max = UNITS_MAX / cost;
		assert_false(tp_limiter_consume(&l, NULL, n_max + 1, 77));
		assert_true(tp_limiter_consume(&l, NULL, n_max, 77));
		assert_false(tp_limiter_consume(&l, NULL, 1, 77));
	}
	assert_true(refused > 3000 && refused < 17000);
	/* rate 0 refuses everything, whatever the burst */
	c = mkcfg(TP_LIMITER_BUCKET, 1000, 0, TP_RATE_MAX);
	assert_int_equal(tp_limiter_init(&l, &c, 0), 0);
	assert_false(tp_limiter_consume(&l, NULL, 1, 1ULL << 40));
}

static void test_mbps_to_pages(void **state)
{
	u32 shift, k;
	u64 mbps, want;

	(void)state;
	assert_int_equal(tp_mbps_to_pages(65536, 12), 1ULL << 24);
	assert_int_equal(tp_mbps_to_pages(1ULL << 24, 12), 1ULL << 32);
	/* Linux 6.1's unsigned int MB_TO_PAGES() at 2^24 MB/s */
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
		assert_int_equal(tp_limiter_available(&l, 77), bursts[i]);
		for (n = 0; tp_limiter_consume(&l, NULL, 1, 77); n++)
			assert_true(n <= bursts[i]);
		assert_int_equal(n, bursts[i]);
	}
	/* burst 0: one second of the rate */
	c = mkcfg(TP_LIMITER_BUCKET, 1000, 300, 0);
	assert_int_equal(tp_limiter_init(&l, &c, 0), 0);
	for (n = 0; tp_limiter_consume(&l, NULL, 1, 0); n++)
		;
	assert_int_equal(n, 300);
}

/*
 * A greedy consumer over @secs seconds of simulated time. Each step drains
 * the bucket: the admitted total is burst plus the refill since t0, checked
 * by assert_refill() at every step. With random gaps of up to a second the
 * capacity must be at least rate + 1, or the cap would (rightly) drop the
 * fraction of a page left over from the previous step.
 */
static void greedy_run(u32 tps, u64 rate, u64 burst, u64 t0, u64 secs,
		       u64 maxgap, bool one_by_one)
{
	struct tp_limiter_cfg c = mkcfg(TP_LIMITER_BUCKET, tps, rate, burst);
	struct tp_limiter l;
	u64 now = t0, end = t0 + secs * tps, got = 0, avail;

	if (!burst)
		burst = rate;
	assert_int_equal(tp_limiter_init(&l, &c, t0), 0);
	for (;;) {
		if (one_by_one) {
			while (tp_limiter_consume(&l, NULL, 1, now))
				got++;
		} else {
			avail = tp_limiter_available(&l, now);
			assert_true(tp_limiter_consume(&l, NULL, avail, now));
			assert_false(tp_limiter_consume(&l, NULL, 1, now));
			got += avail;
		}
		assert_true(got >= burst);
		assert_refill(got - burst, tps, rate, now - t0);
		if (now == end)
			break;
		now += maxgap == 1 ? 1 : rnd_range(1, maxgap);
		if (now - t0 > secs * tps)
			now = end;
	}
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
	/* 3 divides neither 1000 x 2^39 nor 2^48: rounded up */
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
	/* the largest rate (rounded up); gaps short of a second */
	greedy_run(1000000000, TP_RATE_MAX, 0, 3, 1000, 999000000, false);
}

/*
 * The rounding direction, where it shows most: at rates up to 2^32 a
 * second on random clocks, a cost rounded down would admit up to 2^16
 * pages a second too many. Never more than the rate, and not much less.
 */
static void test_rounding_never_above_rate(void **state)
{
	struct tp_limiter_cfg c;
	struct tp_limiter l;
	u64 rate, t0, now, got, n;
	int run, k, inexact = 0;
	u32 tps;

	(void)state;
	for (run = 0; run < 300; run++) {
		tps = rnd_tps();
		rate = run & 1 ? TP_RATE_MAX - rnd_range(0, 1 << 20) :
				 rnd_rate();
		inexact += !exact_rate(tps, rate);
		/* two seconds of capacity: gaps of up to half a second */
		c = mkcfg(TP_LIMITER_BUCKET, tps, rate, 2 * rate);
		if (2 * rate > TP_RATE_MAX)
			c.burst = TP_RATE_MAX;
		t0 = rnd();
		assert_int_equal(tp_limiter_init(&l, &c, t0), 0);
		assert_true(tp_limiter_consume(&l, NULL, c.burst, t0));
		now = t0;
		got = 0;
		for (k = 0; k < 400; k++) {
			now += rnd_range(1, tps / 2 + 1);
			n = tp_limiter_available(&l, now);
			assert_true(tp_limiter_consume(&l, NULL, n, now));
			got += n;
			assert_refill(got, tps, rate, now - t0);
		}
	}
	assert_true(inexact > 100);
}

/*
 * A full bucket admits any request it can price, a huge page larger than
 * the burst included (issue 12, item 6: the 0.1 bucket never did); the
 * bucket then owes it, and admits nothing until its debt leaves room.
 */
static void test_full_admits_over_burst(void **state)
{
	struct tp_limiter l;
	struct tp_limiter_cfg c;
	u64 burst, rate, cost, n, now = 0, t;
	u32 tps;
	int run, k;

	(void)state;
	for (run = 0; run < 300; run++) {
		tps = rnd_tps();
		rate = rnd_range(1, 1 << 20);
		burst = rnd_range(1, rate * 100 < (1 << 20) ? rate * 100 :
				  1 << 20);
		c = mkcfg(TP_LIMITER_BUCKET, tps, rate, burst);
		assert_int_equal(tp_limiter_init(&l, &c, now), 0);
		cost = page_cost(tps, rate);
		for (k = 0; k < 20; k++) {
			n = burst + rnd_range(1, 4 * burst);
			if (n > UNITS_MAX / cost)
				n = UNITS_MAX / cost;
			/* idle long enough to be full again: owes <= burst */
			now += ticks_for(tps, burst * cost) + rnd_range(0, tps);
			assert_int_equal(tp_limiter_available(&l, now), burst);
			assert_true(tp_limiter_consume(&l, NULL, n, now));
			/* owes n - burst pages and holds nothing */
			assert_int_equal(tp_limiter_available(&l, now), 0);
			assert_false(tp_limiter_consume(&l, NULL, 1, now));
			assert_false(tp_limiter_consume(&l, NULL, n, now));
			/* a page fits again once n - burst + 1 refilled */
			t = ticks_for(tps, (n - burst + 1) * cost);
			assert_false(tp_limiter_consume(&l, NULL, 1,
							now + t - 1));
			assert_true(tp_limiter_consume(&l, NULL, 1, now + t));
			now += t;
		}
	}
}

static void test_rate_zero_refuses(void **state)
{
	static const u32 variants[] = {
		TP_LIMITER_BUCKET, TP_LIMITER_WINDOW_RFC2020,
		TP_LIMITER_WINDOW_LINUX61,
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
			assert_false(tp_limiter_consume(&l, NULL,
							rnd_range(1, 512),
							now));
			assert_true(tp_limiter_consume(&l, NULL, 0, now));
			assert_int_equal(tp_limiter_available(&l, now), 0);
		}
	}
}

/*
 * Issue 12, item 6: THPs at 1 MB/s (256 pages of 4 KiB a second, a burst
 * of 256) asked for every millisecond for 60 s: the 0.1 bucket promoted
 * none; now one every 2 s, max(burst, n) + rate x T in all, on both clocks.
 */
static void test_thp_over_burst(void **state)
{
	static const u32 clocks[] = { 1000, 250, 1000000000 };
	u64 rate = tp_mbps_to_pages(1, 12), got, now, step;
	struct tp_limiter_cfg c;
	struct tp_limiter l;
	size_t i;

	(void)state;
	assert_int_equal(rate, 256);
	for (i = 0; i < 3; i++) {
		c = mkcfg(TP_LIMITER_BUCKET, clocks[i], rate, 0);
		step = clocks[i] >= 1000 ? clocks[i] / 1000 : 1;
		assert_int_equal(tp_limiter_init(&l, &c, 0), 0);
		got = 0;
		for (now = 0; now <= 60ULL * clocks[i]; now += step)
			if (tp_limiter_consume(&l, NULL, 512, now))
				got += 512;
		assert_int_equal(got, 512 + rate * 60);
	}
}

/* ---- the bound, over sliding intervals ----------------------------------- */

#define BOUND_N		2000

struct adm {
	u64 t;
	u64 n;
};

static struct adm adm[BOUND_N];

/*
 * Every interval [a_i, a_j] of the admissions a_0 .. a_{na - 1}: at most
 * max(burst, the largest request) + rate x (t_j - t_i) / tps pages.
 */
static void assert_bucket_bound(const struct adm *a, int na, u64 burst,
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

static void test_sliding_interval_bound(void **state)
{
	struct tp_limiter l;
	struct tp_limiter_cfg c;
	u64 now, rate, burst, n;
	u32 tps;
	int run, i, na;

	(void)state;
	for (run = 0; run < 25; run++) {
		tps = (u32)rnd_range(1, 1000000);
		rate = rnd_range(1, 100000);
		burst = rnd_range(1, 5000);
		c = mkcfg(TP_LIMITER_BUCKET, tps, rate, burst);
		now = rnd();
		assert_int_equal(tp_limiter_init(&l, &c, now), 0);
		na = 0;
		for (i = 0; i < 20 * BOUND_N && na < BOUND_N; i++) {
			/* now and then a huge page above the burst */
			n = rnd() % 16 ? rnd_range(1, burst < 600 ? burst : 600) :
					 rnd_range(burst, 2 * burst);
			now += rnd_range(0, tps / 100 + 1);
			if (tp_limiter_consume(&l, NULL, n, now)) {
				adm[na].t = now;
				adm[na].n = n;
				na++;
			}
		}
		assert_true(na > 10);
		assert_bucket_bound(adm, na, burst, rate, tps);
	}
}

/* ---- idle gaps, stale state, out-of-order callers, the extremes ---------- */

/*
 * Issue 12, item 4: one-page requests on a bucket that is never short of
 * pages, on a ns clock, after idle gaps of every length: short, up to
 * hours, around the stale horizon (2^61 units = 2^42 ns) and around the
 * gaps after which now << 19 comes back to where it was (2^45 ns): every
 * one is admitted, and a bucket idle for a second is full. The 0.1 bucket
 * refused 501 of 5,000 at these rates.
 */
static void test_idle_gaps_no_false_debt(void **state)
{
	static const u64 rates[] = { 1000003, TP_RATE_MAX - 5 };
	const u32 tps = 1000000000;
	struct tp_limiter_cfg c;
	struct tp_limiter l;
	u64 now, gap, admitted;
	size_t i;
	int run, k;

	(void)state;
	for (i = 0; i < 2; i++) {
		for (run = 0; run < 4; run++) {
			c = mkcfg(TP_LIMITER_BUCKET, tps, rates[i], 0);
			now = rnd();
			assert_int_equal(tp_limiter_init(&l, &c, now), 0);
			admitted = 0;
			for (k = 0; k < 5000; k++) {
				switch (rnd() % 6) {
				case 0:
					gap = rnd_range(0, 100000);
					break;
				case 1:		/* up to 4 hours */
					gap = rnd_range(tps, 14400ULL * tps);
					break;
				case 2:		/* the stale horizon */
					gap = (1ULL << 42) + rnd_range(0, 4000) -
					      2000;
					break;
				case 3:		/* units come back */
					gap = rnd_range(1, 4096) << 45;
					gap += rnd_range(0, 2ULL * tps) - tps;
					break;
				case 4:
					gap = rnd_range(0, 1ULL << 62);
					break;
				default:	/* the longest comparable */
					gap = (1ULL << 63) - 1 -
					      rnd_range(0, 1ULL << 40);
					break;
				}
				now += gap;
				if (gap >= tps)
					assert_int_equal(
						tp_limiter_available(&l, now),
						rates[i]);
				admitted += tp_limiter_consume(&l, NULL, 1,
							       now);
			}
			assert_int_equal(admitted, 5000);
		}
	}
}

static void test_out_of_order_not_stale(void **state)
{
	struct tp_limiter l;
	struct tp_limiter_cfg c;
	u64 t0, back, burst, refill, slack;
	u32 tps;
	int k;

	(void)state;
	for (k = 0; k < 5000; k++) {
		tps = (u32)rnd_range(2, TP_TPS_MAX);
		c = mkcfg(TP_LIMITER_BUCKET, tps, rnd_rate(), 0);
		burst = rnd_range(1, c.rate * 4095 < TP_RATE_MAX ?
				     c.rate * 4095 : TP_RATE_MAX);
		c.burst = burst;
		t0 = rnd();
		assert_int_equal(tp_limiter_init(&l, &c, t0), 0);
		assert_true(tp_limiter_consume(&l, NULL, burst, t0));
		/* a caller less than 1 s behind sees an empty bucket */
		back = rnd_range(1, tps - 1);
		assert_false(tp_limiter_consume(&l, NULL, 1, t0 - back));
		assert_false(tp_limiter_consume(&l, NULL,
						rnd_range(1, burst),
						t0 - back));
		assert_int_equal(tp_limiter_available(&l, t0 - back), 0);
		/* and took nothing from the future: 1 s refills the rate */
		refill = tp_limiter_available(&l, t0 + tps);
		slack = (c.rate >> 16) + 1;
		assert_true(refill <= (c.rate < burst ? c.rate : burst));
		assert_true(refill + slack >= (c.rate < burst ? c.rate : burst));
	}
}

/*
 * Callers whose clocks disagree by up to a second, at the largest rates,
 * bursts and tick rates, with requests up to 2^33 pages (a full bucket
 * admits them): the bound holds over the interval that contains every
 * caller's now.
 */
static void test_jitter_bound_extremes(void **state)
{
	struct tp_limiter l;
	struct tp_limiter_cfg c;
	u64 base, now, lo, hi, tot, n, nmax;
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
		nmax = c.burst;
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
			if (tp_limiter_consume(&l, NULL, n, now)) {
				tot += n;
				if (n > nmax)
					nmax = n;
			}
		}
		assert_true(tot <= nmax + muldiv_fit(c.rate, hi - lo, tps));
	}
}

/* ---- tune, available ----------------------------------------------------- */

/* A tune keeps the TAT: the time to refill, whatever the new rate. */
static void test_tune_keeps_time(void **state)
{
	struct tp_limiter l;
	struct tp_limiter_cfg c = mkcfg(TP_LIMITER_BUCKET, 1000, 1000, 0);
	u64 now = 5000;
	int k;

	(void)state;
	assert_int_equal(tp_limiter_init(&l, &c, now), 0);
	/* drain (1 s to refill), then retune over and over: no refill */
	assert_true(tp_limiter_consume(&l, NULL, 1000, now));
	for (k = 0; k < 100; k++) {
		assert_int_equal(tp_limiter_tune(&l, &c), 0);
		assert_false(tp_limiter_consume(&l, NULL, 1, now));
	}
	/* half a second later: 500 pages */
	now += 500;
	assert_int_equal(tp_limiter_available(&l, now), 500);
	/* 4000/s, burst 1000 (0.25 s): still 0.5 s to wait, then 0.25 s */
	c.rate = 4000;
	c.burst = 1000;
	assert_int_equal(tp_limiter_tune(&l, &c), 0);
	assert_int_equal(tp_limiter_available(&l, now), 0);
	assert_int_equal(tp_limiter_available(&l, now + 250), 0);
	assert_int_equal(tp_limiter_available(&l, now + 375), 500);
	assert_int_equal(tp_limiter_available(&l, now + 500), 1000);
	/* rate 0 refuses all; back at 1000/s the TAT is where it was */
	c.rate = 0;
	assert_int_equal(tp_limiter_tune(&l, &c), 0);
	assert_false(tp_limiter_consume(&l, NULL, 1, now + 10000));
	c.rate = 1000;
	c.burst = 0;
	assert_int_equal(tp_limiter_tune(&l, &c), 0);
	assert_int_equal(tp_limiter_available(&l, now), 500);
	assert_true(tp_limiter_consume(&l, NULL, 1000, now + 10000));
}

/*
 * Issue 12, item 3: a tune writes the settings and never the live state,
 * so it cannot erase admissions or store a state in other units: the state
 * bytes are the same after any accepted tune, and a retune with the same
 * settings changes nothing a caller can see.
 */
static void test_tune_never_writes_state(void **state)
{
	struct tp_limiter l, before;
	struct tp_limiter_cfg c, d;
	u64 now, a, b;
	int run, k;

	(void)state;
	for (run = 0; run < 2000; run++) {
		c = mkcfg((u32)rnd_range(0, 2), (u32)rnd_range(1, 1000000),
			  rnd_range(1, 1 << 20), 0);
		c.burst = rnd_burst(c.rate);
		now = rnd();
		assert_int_equal(tp_limiter_init(&l, &c, now), 0);
		for (k = 0; k < 20; k++) {
			tp_limiter_consume(&l, NULL, rnd_range(1, 1 << 20),
					   now);
			now += rnd_range(0, c.tps / 2);
			a = tp_limiter_available(&l, now);
			before = l;
			assert_int_equal(tp_limiter_tune(&l, &c), 0);
			b = tp_limiter_available(&l, now);
			assert_int_equal(a, b);
			assert_memory_equal(&l.st, &before.st, sizeof(l.st));
			assert_memory_equal(&l.count, &before.count,
					    sizeof(l.count));
			/* other settings, another variant: same state */
			d = mkcfg((u32)rnd_range(0, 2), c.tps,
				  rnd_range(0, 1 << 20), 0);
			d.burst = rnd_burst(d.rate);
			assert_int_equal(tp_limiter_tune(&l, &d), 0);
			assert_memory_equal(&l.st, &before.st, sizeof(l.st));
			assert_memory_equal(&l.count, &before.count,
					    sizeof(l.count));
			assert_int_equal(tp_limiter_tune(&l, &c), 0);
			assert_int_equal(tp_limiter_available(&l, now), a);
		}
	}
}

/*
 * A call that read the settings before a tune and runs its step after it:
 * the settings copies saved in @old (before the tune) stand in for what
 * it read, on the live state of @l.
 */
static bool consume_late(struct tp_limiter *l, const struct tp_limiter *old,
			 struct tp_limiter_cpu *cpu, u64 n, u64 now)
{
	struct tp_limiter_set set[2];
	struct tp_latch latch = l->latch;
	bool ok;

	memcpy(set, l->set, sizeof(set));
	l->latch = old->latch;
	memcpy(l->set, old->set, sizeof(set));
	ok = tp_limiter_consume(l, cpu, n, now);
	l->latch = latch;
	memcpy(l->set, set, sizeof(set));
	return ok;
}

/*
 * Issue 12, item 3, the interleaving: a caller that read 1000 pages/s
 * (1 ms a page) admits one page after a tune to 10/s (100 ms a page). Its
 * TAT is in clock units, so the new price applies from there on: nothing
 * in old units, one page at the old price (the documented one-off).
 */
static void test_tune_late_caller_price(void **state)
{
	struct tp_limiter_cfg fast = mkcfg(TP_LIMITER_BUCKET, 1000, 1000, 0);
	struct tp_limiter_cfg slow = mkcfg(TP_LIMITER_BUCKET, 1000, 10, 0);
	struct tp_limiter l, old;

	(void)state;
	assert_int_equal(tp_limiter_init(&l, &fast, 0), 0);
	assert_true(tp_limiter_consume(&l, NULL, 1000, 0));
	old = l;
	assert_int_equal(tp_limiter_tune(&l, &slow), 0);
	/* 500 ms owed of a 1 s bucket: the old price fits, the new not */
	assert_true(consume_late(&l, &old, NULL, 1, 500));
	assert_false(tp_limiter_consume(&l, NULL, 6, 500));
	/* 1001 ms to refill now: 9 pages at 1000, all 10 at 1001 */
	assert_int_equal(tp_limiter_available(&l, 1000), 9);
	assert_int_equal(tp_limiter_available(&l, 1001), 10);
	/* and the other way: the old price is too high, refused */
	old = l;
	assert_int_equal(tp_limiter_tune(&l, &fast), 0);
	assert_true(tp_limiter_consume(&l, NULL, 1000, 1001));
	assert_false(consume_late(&l, &old, NULL, 1, 1001));
	assert_int_equal(tp_limiter_available(&l, 1501), 500);
}

/*
 * Issue 12, item 1, one thread: a window caller that read its settings
 * before a switch to the bucket, and a bucket caller before a switch to a
 * window, run on the live state after the switch. Each writes only its own
 * variant's fields: the 0.1 limiter kept both in one union, so the late
 * window caller's count landed in the bucket's scale (a million pages in
 * 10 s against a bound of 11,000) and a late bucket caller stored
 * now x scale as the window start (never reopened).
 */
static void test_switch_late_callers(void **state)
{
	struct tp_limiter_cfg bucket = mkcfg(TP_LIMITER_BUCKET, 1000, 1000, 0);
	struct tp_limiter_cfg win = mkcfg(TP_LIMITER_WINDOW_LINUX61, 1000,
					  1000, 0);
	struct tp_limiter l, old;
	struct tp_limiter_state st;
	u64 got, t;

	(void)state;
	/* window -> bucket; the late window call also opens a window */
	assert_int_equal(tp_limiter_init(&l, &win, 0), 0);
	assert_true(tp_limiter_consume(&l, NULL, 10, 0));
	old = l;
	assert_int_equal(tp_limiter_tune(&l, &bucket), 0);
	st = l.st;
	assert_true(consume_late(&l, &old, NULL, 500, 0));
	assert_true(consume_late(&l, &old, NULL, 900, 2000));
	assert_memory_equal(&l.st.tat, &st.tat, sizeof(st.tat));
	assert_memory_equal(&l.st.fresh, &st.fresh, sizeof(st.fresh));
	/* the bucket: full since init at 0, exactly its bound over 10 s */
	got = 0;
	for (t = 0; t <= 10000; t++)
		while (tp_limiter_consume(&l, NULL, 7, t))
			got += 7;
	assert_true(got <= 1000 + 1000 * 10);
	assert_true(got >= 1000 + 1000 * 10 - 7);

	/* bucket -> window; the late bucket call admits from a full bucket */
	assert_int_equal(tp_limiter_init(&l, &bucket, 0), 0);
	old = l;
	assert_int_equal(tp_limiter_tune(&l, &win), 0);
	st = l.st;
	assert_true(consume_late(&l, &old, NULL, 1000, 500));
	assert_memory_equal(&l.st.start, &st.start, sizeof(st.start));
	assert_memory_equal(&l.st.base, &st.base, sizeof(st.base));
	assert_memory_equal(&l.count, &old.count, sizeof(l.count));
	assert_int_equal(tp_limiter_available(&l, 500), 1000);
	/* the window opened at 0 reopens after a second, as it should */
	assert_true(tp_limiter_consume(&l, NULL, 999, 500));
	assert_false(tp_limiter_consume(&l, NULL, 1, 1000));
	assert_true(tp_limiter_consume(&l, NULL, 1, 1001));
	assert_true(tp_limiter_consume(&l, NULL, 999, 1001));
	assert_false(tp_limiter_consume(&l, NULL, 1, 1001));
}

/*
 * The same, at random: calls under the current settings or under any of
 * the last few settings (late), tunes that switch variant; the bucket's
 * admissions (the calls that ran with bucket settings) keep the bucket's
 * bound over every interval, and every window's admissions its own.
 */
#define SWITCH_OLD	4

/* Did a call open a new window since the start @start? (Private field.) */
static bool window_opened(const struct tp_limiter *l, u64 *start)
{
	u64 s = __atomic_load_n(&l->st.start.v, __ATOMIC_RELAXED);

	if (s == *start)
		return false;
	*start = s;
	return true;
}

static void test_switch_random(void **state)
{
	struct tp_limiter_cfg c;
	struct tp_limiter l, old[SWITCH_OLD];
	u64 now, n, start, in_win;
	int run, k, nb, no;
	u32 v;
	bool ok;

	(void)state;
	for (run = 0; run < 20; run++) {
		c = mkcfg(TP_LIMITER_BUCKET, 1000, 500, 0);
		now = rnd();
		assert_int_equal(tp_limiter_init(&l, &c, now), 0);
		for (k = 0; k < SWITCH_OLD; k++)
			old[k] = l;
		nb = 0;
		no = 0;
		start = now;
		in_win = 0;
		for (k = 0; k < 20000 && nb < BOUND_N; k++) {
			now += rnd_range(0, 30);
			n = rnd_range(1, 40);
			if (rnd() % 50 == 0) {
				old[no++ % SWITCH_OLD] = l;
				c.variant = (u32)rnd_range(0, 2);
				assert_int_equal(tp_limiter_tune(&l, &c), 0);
				continue;
			}
			if (rnd() & 1) {
				v = l.set[0].variant;
				ok = tp_limiter_consume(&l, NULL, n, now);
			} else {
				struct tp_limiter *o = &old[rnd() % SWITCH_OLD];

				v = o->set[0].variant;
				ok = consume_late(&l, o, NULL, n, now);
			}
			if (!ok)
				continue;
			if (v == TP_LIMITER_BUCKET) {
				adm[nb].t = now;
				adm[nb].n = n;
				nb++;
				continue;
			}
			/* a window's admissions, by the window it counted in */
			if (window_opened(&l, &start))
				in_win = 0;
			in_win += n;
			assert_true(in_win <= 500 + 40);
		}
		assert_true(nb > 100);
		assert_bucket_bound(adm, nb, 500, 500, 1000);
	}
}

static void test_available_matches_consume(void **state)
{
	struct tp_limiter l;
	struct tp_limiter_cfg c;
	u64 now, a, burst;
	int run, k;

	(void)state;
	for (run = 0; run < 300; run++) {
		c = mkcfg((u32)(run % 3), (u32)rnd_range(1, 1000000),
			  rnd_range(0, 1 << 20), rnd_range(0, 1 << 20));
		burst = c.burst ? c.burst : c.rate;
		if (c.variant == TP_LIMITER_BUCKET && c.rate &&
		    burst > 4000 * c.rate)
			c.burst = burst = c.rate;
		now = rnd();
		assert_int_equal(tp_limiter_init(&l, &c, now), 0);
		for (k = 0; k < 200; k++) {
			now += rnd_range(0, c.tps / 3);
			a = tp_limiter_available(&l, now);
			if (c.variant == TP_LIMITER_BUCKET) {
				/*
				 * What a single request can take; one more
				 * only from a full bucket.
				 */
				assert_true(a <= burst);
				assert_int_equal(
					tp_limiter_consume(&l, NULL, a + 1,
							   now),
					c.rate && a == burst);
				if (c.rate && a == burst)
					continue;
				if (rnd() & 1)
					a = rnd_range(0, a);
				assert_true(tp_limiter_consume(&l, NULL, a,
							       now));
			} else {
				assert_true(a <= c.rate);
				tp_limiter_consume(&l, NULL, rnd_range(1, 100),
						   now);
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
		c = mkcfg(TP_LIMITER_WINDOW_RFC2020, 1000, limit, 0);
		assert_int_equal(tp_limiter_init(&l, &c, 0), 0);
		for (n = 0; tp_limiter_consume(&l, NULL, 1, 10); n++)
			;
		assert_int_equal(n, limit);	/* the limit-th admitted */
		c.variant = TP_LIMITER_WINDOW_LINUX61;
		assert_int_equal(tp_limiter_init(&l, &c, 0), 0);
		for (n = 0; tp_limiter_consume(&l, NULL, 1, 10); n++)
			;
		/* the limit-th refused */
		assert_int_equal(n, limit - 1);
	}
}

static void test_window_rolls_strictly(void **state)
{
	struct tp_limiter l;
	struct tp_limiter_cfg c = mkcfg(TP_LIMITER_WINDOW_LINUX61, 250, 10, 0);
	u64 start = 1000;
	int w;

	(void)state;
	assert_int_equal(tp_limiter_init(&l, &c, start), 0);
	assert_true(tp_limiter_consume(&l, NULL, 9, start));
	for (w = 0; w < 50; w++) {
		/* refused through start + tps inclusive */
		assert_false(tp_limiter_consume(&l, NULL, 1, start + 1));
		assert_false(tp_limiter_consume(&l, NULL, 1, start + 250));
		/* start + tps + 1: a new window, opened by this request */
		start += 251;
		assert_true(tp_limiter_consume(&l, NULL, 500, start));
		assert_true(tp_limiter_consume(&l, NULL, 9, start + 100));
	}
}

/*
 * An independent model of the documented window semantics, per-CPU slots
 * included: a slot keeps its pages until @batch are pending, then adds
 * them all to the shared count, which the window compares.
 */
#define WSLOTS	4

struct wmodel {
	u64 start, count, base, limit;
	u64 diff[WSLOTS];
	u32 tps, batch;
	bool rfc;
};

static bool wmodel_consume(struct wmodel *m, int slot, u64 n, u64 now)
{
	u64 used;

	if (!n)
		return true;
	if (slot < 0 || m->batch <= 1) {
		m->count += n;
	} else {
		m->diff[slot] += n;
		if (m->diff[slot] >= m->batch) {
			m->count += m->diff[slot];
			m->diff[slot] = 0;
		}
	}
	if ((s64)(now - m->start) > (s64)m->tps) {
		m->start = now;
		m->base = m->count;
	}
	used = m->count - m->base;
	if (!m->limit)
		return false;
	return m->rfc ? used <= m->limit : used < m->limit;
}

/*
 * Random requests from up to 4 slots (or none) against the model, with
 * batches from 0 to 64: the same answers, each window admits at most
 * limit + C x (batch - 1) + n_max, and T seconds at most
 * (T + 2) x (limit + n_max + C x (batch - 1)).
 */
static void test_window_random_bound(void **state)
{
	static struct tp_limiter_cpu slot[WSLOTS];
	struct tp_limiter l;
	struct tp_limiter_cfg c;
	struct wmodel m;
	u64 now, n, nmax, in_win, wmax, opened, t0, tot, late, worst = 0;
	int run, k, s;
	bool got;

	(void)state;
	for (run = 0; run < 400; run++) {
		c = mkcfg(run & 1 ? TP_LIMITER_WINDOW_RFC2020 :
				    TP_LIMITER_WINDOW_LINUX61,
			  (u32)rnd_range(1, 100000), rnd_range(1, 5000), 0);
		c.cand_batch = run % 4 ? (u32)rnd_range(0, 64) : 0;
		nmax = rnd_range(1, 600);
		t0 = rnd();
		memset(slot, 0, sizeof(slot));
		assert_int_equal(tp_limiter_init(&l, &c, t0), 0);
		memset(&m, 0, sizeof(m));
		m.start = t0;
		m.limit = c.rate;
		m.tps = c.tps;
		m.batch = c.cand_batch;
		m.rfc = run & 1;
		late = WSLOTS * (m.batch > 1 ? m.batch - 1 : 0);
		now = t0;
		in_win = 0;
		wmax = 0;
		opened = t0;
		tot = 0;
		for (k = 0; k < 5000; k++) {
			now += rnd_range(0, c.tps / 20 + 1);
			n = rnd_range(1, nmax);
			s = (int)rnd_range(0, WSLOTS) - 1;
			got = tp_limiter_consume(&l, s < 0 ? NULL : &slot[s],
						 n, now);
			assert_int_equal(got, wmodel_consume(&m, s, n, now));
			if (m.start != opened) {
				opened = m.start;
				in_win = 0;
				wmax = 0;
			}
			if (got) {
				in_win += n;
				tot += n;
				wmax = n > wmax ? n : wmax;
			}
			assert_true(in_win <= c.rate + late + nmax);
			/* beyond what exact counting allows */
			if (in_win > c.rate + wmax &&
			    in_win - c.rate - wmax > worst)
				worst = in_win - c.rate - wmax;
		}
		assert_true(tot <= ((now - t0) / c.tps + 3) *
				   (c.rate + nmax + late));
		for (s = 0; s < WSLOTS; s++)
			assert_int_equal(tp_limiter_busy(&slot[s]), 0);
	}
	/*
	 * The slots' lag does show: some window admitted more than exact
	 * counting allows by more than one slot's batch (111 pages here).
	 */
	assert_true(worst > 64);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_selftest_vectors),
		cmocka_unit_test(test_init_rejects_untouched),
		cmocka_unit_test(test_burst_range),
		cmocka_unit_test(test_mbps_to_pages),
		cmocka_unit_test(test_bucket_starts_full),
		cmocka_unit_test(test_refill_1pps),
		cmocka_unit_test(test_refill_3pps),
		cmocka_unit_test(test_refill_2p24_ns_and_hz),
		cmocka_unit_test(test_rounding_never_above_rate),
		cmocka_unit_test(test_full_admits_over_burst),
		cmocka_unit_test(test_rate_zero_refuses),
		cmocka_unit_test(test_thp_over_burst),
		cmocka_unit_test(test_sliding_interval_bound),
		cmocka_unit_test(test_idle_gaps_no_false_debt),
		cmocka_unit_test(test_out_of_order_not_stale),
		cmocka_unit_test(test_jitter_bound_extremes),
		cmocka_unit_test(test_tune_keeps_time),
		cmocka_unit_test(test_tune_never_writes_state),
		cmocka_unit_test(test_tune_late_caller_price),
		cmocka_unit_test(test_switch_late_callers),
		cmocka_unit_test(test_switch_random),
		cmocka_unit_test(test_available_matches_consume),
		cmocka_unit_test(test_window_limit_th_page),
		cmocka_unit_test(test_window_rolls_strictly),
		cmocka_unit_test(test_window_random_bound),
	};

	return cmocka_run_group_tests_name("limiter", tests, NULL, NULL);
}
