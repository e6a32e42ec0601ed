// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * CMocka tests of the promotion rate limiter (lib/limiter.c): the shared
 * self-test vectors, the configuration checks, and the token bucket's
 * arithmetic in long simulated runs and randomized bound checks, issue
 * 12's items 4 (no false debt after idle gaps) and 6 (a huge page above
 * the burst) included. The other suites: test_limiter_window.c (the
 * windows), test_limiter_tune.c (tunes, late callers, variant switches),
 * test_limiter_mt.c (threads, and contention made deterministic).
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
#include "tp_test_limiter.h"

/* Admissions of a run, for assert_bucket_bound(). */
static struct adm adm[BOUND_N];

static void st_report(struct tp_st *st, bool ok, const char *name, int line)
{
	(void)st;
	if (!ok)
		print_error("selftest/limiter{,_bucket,_window}.h:%d: FAILED: %s\n",
			    line, name);
}

static void test_selftest_vectors(void **state)
{
	struct tp_st st = { .suite = "limiter", .report = st_report };

	(void)state;
	assert_int_equal(tp_st_limiter(&st), 0);
	assert_int_equal(st.failed, 0);
	assert_true(st.run >= 140);
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
		{ { .sz = 32, .tps = 1000, .burst = TP_RATE_MAX + 1 },
		  -ERANGE },
		{ { .sz = 32, .variant = 1, .tps = 1000, .rate = ~0ULL },
		  -ERANGE },
		{ { .sz = 32, .tps = 1000, .rate = 1, .burst = 4195 },
		  -ERANGE },
		/* valid, but a tune cannot change the clock */
		{ { .sz = 32, .tps = 1001, .rate = 100 }, 0 },
		{ { .sz = 32, .tps = TP_TPS_MAX, .rate = 10 }, 0 },
	};
	struct tp_limiter_cfg good = mkcfg(0, 1000, 100, 0, 0);
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
		c = mkcfg(TP_LIMITER_BUCKET, tps, rate, burst, 0);
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
	c = mkcfg(TP_LIMITER_BUCKET, 1000, 0, TP_RATE_MAX, 0);
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
		c = mkcfg(TP_LIMITER_BUCKET, 1000, 100, bursts[i], 0);
		assert_int_equal(tp_limiter_init(&l, &c, 77), 0);
		assert_int_equal(tp_limiter_available(&l, 77), bursts[i]);
		for (n = 0; tp_limiter_consume(&l, NULL, 1, 77); n++)
			assert_true(n <= bursts[i]);
		assert_int_equal(n, bursts[i]);
	}
	/* burst 0: one second of the rate */
	c = mkcfg(TP_LIMITER_BUCKET, 1000, 300, 0, 0);
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
	struct tp_limiter_cfg c = mkcfg(TP_LIMITER_BUCKET, tps, rate, burst, 0);
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
		c = mkcfg(TP_LIMITER_BUCKET, tps, rate, 2 * rate, 0);
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
		c = mkcfg(TP_LIMITER_BUCKET, tps, rate, burst, 0);
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
		c = mkcfg(variants[i], 1000, 0, 50, 0);
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
		c = mkcfg(TP_LIMITER_BUCKET, clocks[i], rate, 0, 0);
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
		c = mkcfg(TP_LIMITER_BUCKET, tps, rate, burst, 0);
		now = rnd();
		assert_int_equal(tp_limiter_init(&l, &c, now), 0);
		na = 0;
		for (i = 0; i < 20 * BOUND_N && na < BOUND_N; i++) {
			/* now and then a huge page above the burst */
			n = rnd() % 16 ?
			    rnd_range(1, burst < 600 ? burst : 600) :
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
			c = mkcfg(TP_LIMITER_BUCKET, tps, rates[i], 0, 0);
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
					gap = (1ULL << 42) - 2000 +
					      rnd_range(0, 4000);
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
	u64 t0, back, burst, refill, slack, full;
	u32 tps;
	int k;

	(void)state;
	for (k = 0; k < 5000; k++) {
		tps = (u32)rnd_range(2, TP_TPS_MAX);
		c = mkcfg(TP_LIMITER_BUCKET, tps, rnd_rate(), 0, 0);
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
		full = c.rate < burst ? c.rate : burst;
		assert_true(refill <= full);
		assert_true(refill + slack >= full);
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
			  TP_RATE_MAX - rnd_range(0, run & 4 ? 0 : 1000), 0);
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

static void test_available_matches_consume(void **state)
{
	struct tp_limiter l;
	struct tp_limiter_cfg c;
	u64 now, a, burst;
	int run, k;

	(void)state;
	for (run = 0; run < 300; run++) {
		c = mkcfg((u32)(run % 3), (u32)rnd_range(1, 1000000),
			  rnd_range(0, 1 << 20), rnd_range(0, 1 << 20), 0);
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
		cmocka_unit_test(test_available_matches_consume),
	};

	return cmocka_run_group_tests_name("limiter", tests, NULL, NULL);
}
