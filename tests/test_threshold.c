// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * CMocka tests of the hot-threshold controller (lib/threshold.c): the
 * shared self-test vectors, then scenario, randomized and concurrent
 * tests. The arithmetic of its budget: test_math.c.
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
#include "selftest/threshold.h"
#include "tp_test_util.h"

/* lib/math.c's msecs_to_jiffies(), internal (see test_math.c). */
u64 __tp_ms_to_ticks(u64 ms, u32 tps);

static void st_report(struct tp_st *st, bool ok, const char *name, int line)
{
	(void)st;
	if (!ok)
		print_error("selftest/threshold{,_period,_ref}.h:%d: FAILED: %s\n",
			    line, name);
}

static void test_selftest_vectors(void **state)
{
	struct tp_st st = { .suite = "threshold", .report = st_report };

	(void)state;
	assert_int_equal(tp_st_threshold(&st), 0);
	assert_int_equal(st.failed, 0);
	assert_true(st.run >= 120);
}

static struct tp_thresh_cfg mkcfg(u32 variant, u32 steps, u32 tps, u64 ref,
				  u64 period, u64 rate)
{
	struct tp_thresh_cfg c = {
		.sz = sizeof(c), .variant = variant, .steps = steps, .tps = tps,
		.ref_th = ref, .period = period, .rate_limit = rate,
	};
	return c;
}

/* Adds @diff candidates and closes the period one tick after its end. */
static int close_period(struct tp_thresh *t, u64 *cand, u64 diff, u64 *now,
			u64 period)
{
	*cand += diff;
	*now += period + 1;
	return tp_thresh_update(t, *cand, *now);
}

/* ---- configuration ------------------------------------------------------- */

static void test_init_rejects_untouched(void **state)
{
	static const struct {
		struct tp_thresh_cfg c;
		int ret;
	} rows[] = {
		{ { .sz = 0, .tps = 1000 }, -EINVAL },
		{ { .sz = 39, .tps = 1000 }, -EINVAL },
		{ { .sz = 4097, .tps = 1000 }, -EINVAL },
		{ { .sz = sizeof(struct tp_thresh_cfg), .variant = 3, .tps = 1000 },
		  -EINVAL },
		{ { .sz = sizeof(struct tp_thresh_cfg), .variant = 0, .tps = 0 }, -EINVAL },
		{ { .sz = sizeof(struct tp_thresh_cfg), .variant = 1, .tps = TP_TPS_MAX + 1 }, -EINVAL },
		{ { .sz = sizeof(struct tp_thresh_cfg), .tps = 1000, .steps = TP_THRESH_STEPS_MAX + 1 },
		  -EINVAL },
		{ { .sz = sizeof(struct tp_thresh_cfg), .tps = 1000, .ref_th = TP_TIME_MAX + 1 },
		  -ERANGE },
		{ { .sz = sizeof(struct tp_thresh_cfg), .tps = 1000, .period = TP_TIME_MAX + 1 },
		  -ERANGE },
		{ { .sz = sizeof(struct tp_thresh_cfg), .tps = 1000, .rate_limit = TP_RATE_MAX + 1 },
		  -ERANGE },
		/* valid, but a tune cannot change the clock */
		{ { .sz = sizeof(struct tp_thresh_cfg), .tps = 999, .ref_th = 7 }, 0 },
		{ { .sz = sizeof(struct tp_thresh_cfg), .tps = TP_TPS_MAX, .period = 3 }, 0 },
	};
	struct tp_thresh t, copy;
	struct tp_thresh_cfg good = mkcfg(0, 0, 1000, 1000, 10, 1000);
	size_t i;

	(void)state;
	/* 44 on i386, which aligns uint64_t to 4 */
	assert_true(sizeof(struct tp_thresh_cfg) == 48 ||
		    sizeof(struct tp_thresh_cfg) == 44);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		memset(&t, 0x3c, sizeof(t));
		memcpy(&copy, &t, sizeof(t));
		assert_int_equal(tp_thresh_init(&t, &rows[i].c, 1, 2),
				 rows[i].ret);
		if (rows[i].ret)
			assert_memory_equal(&t, &copy, sizeof(t));

		/* an adjusted controller */
		assert_int_equal(tp_thresh_init(&t, &good, 1, 2), 0);
		assert_int_equal(tp_thresh_update(&t, 1000, 13),
				 TP_TH_LOWERED);
		memcpy(&copy, &t, sizeof(t));
		assert_int_equal(tp_thresh_tune(&t, &rows[i].c),
				 rows[i].ret ? rows[i].ret : -EINVAL);
		assert_memory_equal(&t, &copy, sizeof(t));
	}
	assert_int_equal(tp_thresh_init(NULL, &good, 0, 0), -EINVAL);
	memset(&t, 0x3c, sizeof(t));
	memcpy(&copy, &t, sizeof(t));
	assert_int_equal(tp_thresh_init(&t, NULL, 0, 0), -EINVAL);
	assert_memory_equal(&t, &copy, sizeof(t));
	assert_int_equal(tp_thresh_tune(NULL, &good), -EINVAL);
	assert_int_equal(tp_thresh_tune(&t, NULL), -EINVAL);
	assert_memory_equal(&t, &copy, sizeof(t));
}

/*
 * The kernel's meaning of 0 on every clock: a reference of 0 is a
 * threshold of 0 that no period moves, a period of 0 closes at every tick;
 * and the kernel's defaults (1000 ms, 60000 ms) converted to ticks.
 */
static void test_zero_and_defaults_per_clock(void **state)
{
	static const u32 clocks[] = { 1000, 250, 1000000000, 1, TP_TPS_MAX };
	struct tp_thresh t;
	u64 ref, period, step, now;
	size_t i;
	u32 v;

	(void)state;
	for (i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++) {
		ref = __tp_ms_to_ticks(TP_DEFAULT_HOT_THRESHOLD_MS, clocks[i]);
		period = __tp_ms_to_ticks(TP_DEFAULT_SCAN_PERIOD_MAX_MS,
					  clocks[i]);
		assert_int_equal(ref, clocks[i]);
		assert_int_equal(period, 60ULL * clocks[i]);
		for (v = 0; v <= 1; v++) {
			struct tp_thresh_cfg c = mkcfg(v, 0, clocks[i], ref,
						       period, 0);

			step = ref * (v + 1) / 16 ? ref * (v + 1) / 16 : 1;
			assert_int_equal(tp_thresh_init(&t, &c, 0, 0), 0);
			assert_int_equal(tp_thresh_get(&t), ref);
			assert_int_equal(tp_thresh_update(&t, 1, period),
					 TP_TH_IDLE);
			assert_int_equal(tp_thresh_update(&t, 1, period + 1),
					 ref > step ? TP_TH_LOWERED :
					 TP_TH_KEPT);
			assert_int_equal(tp_thresh_get(&t),
					 ref > step ? ref - step : step);

			/* ref 0, period 0 */
			c = mkcfg(v, 0, clocks[i], 0, 0, 0);
			assert_int_equal(tp_thresh_init(&t, &c, 0, 5), 0);
			assert_int_equal(tp_thresh_update(&t, 1, 5),
					 TP_TH_IDLE);
			for (now = 6; now < 40; now++) {
				assert_int_equal(tp_thresh_update(&t, now,
								  now),
						 TP_TH_KEPT);
				assert_int_equal(tp_thresh_update(&t, now,
								  now),
						 TP_TH_IDLE);
				assert_int_equal(tp_thresh_get(&t), 0);
			}
		}
	}
}

/* ---- bounds under sustained demand --------------------------------------- */

static void walk_bounds(u32 variant, u64 ref, u64 lo, u64 hi)
{
	struct tp_thresh_cfg c = mkcfg(variant, 16, 1000, ref, 1000, 1000);
	struct tp_thresh t;
	u64 cand = 0, now = 0, prev, th;
	int k, ev, lowered = 0, raised = 0;

	assert_int_equal(tp_thresh_init(&t, &c, cand, now), 0);
	/* over-demand (5000 vs 1000/period) for 100 periods */
	for (k = 0; k < 100; k++) {
		prev = tp_thresh_get(&t);
		ev = close_period(&t, &cand, 5000, &now, 1000);
		th = tp_thresh_get(&t);
		assert_in_range(th, lo, hi);
		if (ev == TP_TH_LOWERED) {
			assert_true(th < prev);
			lowered++;
		} else {
			assert_int_equal(ev, TP_TH_KEPT);
			assert_int_equal(th, lo);
		}
	}
	assert_int_equal(tp_thresh_get(&t), lo);
	/* demand drops to 10 % for 100 periods */
	for (k = 0; k < 100; k++) {
		prev = tp_thresh_get(&t);
		ev = close_period(&t, &cand, 100, &now, 1000);
		th = tp_thresh_get(&t);
		assert_in_range(th, lo, hi);
		if (ev == TP_TH_RAISED) {
			assert_true(th > prev);
			raised++;
		} else {
			assert_int_equal(ev, TP_TH_KEPT);
			assert_int_equal(th, hi);
		}
	}
	assert_int_equal(tp_thresh_get(&t), hi);
	assert_true(lowered > 0 && raised > 0);
}

static void test_rfc2020_bounds_sustained(void **state)
{
	(void)state;
	walk_bounds(TP_THRESH_RFC2020, 1000, 62, 1000);
	walk_bounds(TP_THRESH_RFC2020, 1600, 100, 1600);
	walk_bounds(TP_THRESH_RFC2020, 1ULL << 40, 1ULL << 36, 1ULL << 40);
}

static void test_linux61_bounds_sustained(void **state)
{
	(void)state;
	walk_bounds(TP_THRESH_LINUX61, 1000, 125, 2000);
	walk_bounds(TP_THRESH_LINUX61, 1600, 200, 3200);
	walk_bounds(TP_THRESH_LINUX61, TP_TIME_MAX, TP_TIME_MAX / 8,
		    TP_TIME_MAX * 2);
}

/* ---- band and counter ---------------------------------------------------- */

static void test_band_110_90(void **state)
{
	/* ref_cand = 2000 pages/s x 0.5 s = 1000 per period */
	struct tp_thresh_cfg c = mkcfg(TP_THRESH_LINUX61, 16, 1000, 1600, 500,
				       2000);
	struct tp_thresh t;
	u64 cand = 1ULL << 40, now = 1000;

	(void)state;
	assert_int_equal(tp_thresh_init(&t, &c, cand, now), 0);
	/* 1100: exactly 110 % keeps */
	assert_int_equal(close_period(&t, &cand, 1100, &now, 500), TP_TH_KEPT);
	assert_int_equal(tp_thresh_get(&t), 1600);
	/* 1101: just above lowers one step */
	assert_int_equal(close_period(&t, &cand, 1101, &now, 500),
			 TP_TH_LOWERED);
	assert_int_equal(tp_thresh_get(&t), 1400);
	/* 900: exactly 90 % keeps */
	assert_int_equal(close_period(&t, &cand, 900, &now, 500), TP_TH_KEPT);
	assert_int_equal(tp_thresh_get(&t), 1400);
	/* 899: just below raises one step */
	assert_int_equal(close_period(&t, &cand, 899, &now, 500), TP_TH_RAISED);
	assert_int_equal(tp_thresh_get(&t), 1600);
	/* only the count passed to the closing call matters */
	now += 250;
	assert_int_equal(tp_thresh_update(&t, cand + 5000, now), TP_TH_IDLE);
	now += 251;
	cand += 1000;
	assert_int_equal(tp_thresh_update(&t, cand, now), TP_TH_KEPT);
}

/* ---- periods ------------------------------------------------------------- */

static void test_one_adjustment_per_period(void **state)
{
	struct tp_thresh_cfg c = mkcfg(TP_THRESH_RFC2020, 16, 1000, 1600, 1000,
				       1000);
	struct tp_thresh t;
	u64 cand = 0, now, start = 12345;
	int p, k, n;

	(void)state;
	assert_int_equal(tp_thresh_init(&t, &c, cand, start), 0);
	for (p = 0; p < 30; p++) {
		n = 0;
		/* 10000 candidates, called on every tick of the period */
		for (k = 1; k <= 1001; k++) {
			now = start + k;
			cand += 10;
			if (tp_thresh_update(&t, cand, now) != TP_TH_IDLE) {
				n++;
				/* strictly more than period ticks */
				assert_int_equal(k, 1001);
			}
			/* many callers in the same tick */
			assert_int_equal(tp_thresh_update(&t, cand, now),
					 TP_TH_IDLE);
		}
		assert_int_equal(n, 1);
		start += 1001;
	}
	assert_int_equal(tp_thresh_get(&t), 100);
}

static void test_time_wrap(void **state)
{
	static const u64 starts[] = {
		(1ULL << 32) - 1, (1ULL << 32) - 600, ~0ULL, ~0ULL - 600,
		(1ULL << 63) - 1,
	};
	struct tp_thresh_cfg c = mkcfg(TP_THRESH_LINUX61, 16, 1000, 1600,
				       1000, 1000);
	struct tp_thresh t;
	u64 cand, now;
	size_t i;
	int k, ev;

	(void)state;
	for (i = 0; i < sizeof(starts) / sizeof(starts[0]); i++) {
		cand = ~0ULL - 20000;	/* the counter wraps too */
		now = starts[i];
		assert_int_equal(tp_thresh_init(&t, &c, cand, now), 0);
		for (k = 0; k < 7; k++) {
			/* exactly one period: not over yet */
			ev = tp_thresh_update(&t, cand, now + 1000);
			assert_int_equal(ev, TP_TH_IDLE);
			assert_int_equal(close_period(&t, &cand, 2000, &now,
						      1000), TP_TH_LOWERED);
		}
		assert_int_equal(tp_thresh_get(&t), 200);
		assert_int_equal(close_period(&t, &cand, 0, &now, 1000),
				 TP_TH_RAISED);
		assert_int_equal(tp_thresh_get(&t), 400);
	}
}

/* ---- the fixed faults ---------------------------------------------------- */

static void test_raised_ref_no_underflow(void **state)
{
	struct tp_thresh_cfg c = mkcfg(TP_THRESH_LINUX61, 16, 1000, 160, 100,
				       1000);
	struct tp_thresh t;
	u64 cand = 0, now = 0;
	unsigned int kth, kunit;
	int k;

	(void)state;
	assert_int_equal(tp_thresh_init(&t, &c, cand, now), 0);
	for (k = 0; k < 10; k++)
		close_period(&t, &cand, 1000, &now, 100);
	assert_int_equal(tp_thresh_get(&t), 20);

	c.ref_th = 16000;	/* step 2000 > threshold 20 */
	assert_int_equal(tp_thresh_tune(&t, &c), 0);
	for (k = 0; k < 5; k++) {
		close_period(&t, &cand, 1000, &now, 100);
		assert_int_equal(tp_thresh_get(&t), 2000);
	}
	/* the kernel's unsigned int max(th - unit_th, unit_th) */
	kth = 20;
	kunit = 16000 * 2 / 16;
	assert_true((kth - kunit > kunit ? kth - kunit : kunit) > 32000);
	/* and it rises back normally */
	for (k = 0; k < 20; k++)
		close_period(&t, &cand, 0, &now, 100);
	assert_int_equal(tp_thresh_get(&t), 32000);
}

static void test_lowered_ref_clamps(void **state)
{
	struct tp_thresh_cfg c = mkcfg(TP_THRESH_RFC2020, 16, 1000, 1600, 100,
				       1000);
	struct tp_thresh t;
	u64 cand = 0, now = 0;

	(void)state;
	assert_int_equal(tp_thresh_init(&t, &c, cand, now), 0);
	assert_int_equal(close_period(&t, &cand, 0, &now, 100), TP_TH_KEPT);
	assert_int_equal(tp_thresh_get(&t), 1600);
	c.ref_th = 160;		/* bounds [10, 160] */
	assert_int_equal(tp_thresh_tune(&t, &c), 0);
	assert_int_equal(tp_thresh_get(&t), 160);
	assert_int_equal(close_period(&t, &cand, 0, &now, 100), TP_TH_KEPT);
	assert_int_equal(tp_thresh_get(&t), 160);
	assert_int_equal(close_period(&t, &cand, 1000, &now, 100),
			 TP_TH_LOWERED);
	assert_int_equal(tp_thresh_get(&t), 150);
}

static void test_small_ref_never_zero(void **state)
{
	struct tp_thresh t;
	u64 cand, now, ref, th = 0;
	u32 v, steps;
	int k;

	(void)state;
	for (v = 0; v <= 1; v++) {
		for (ref = 1; ref <= 40; ref++) {
			for (steps = 1; steps <= TP_THRESH_STEPS_MAX;
			     steps *= 4) {
				struct tp_thresh_cfg c = mkcfg(v, steps, 1000,
							       ref, 1, 1000);

				cand = 0;
				now = 0;
				assert_int_equal(tp_thresh_init(&t, &c, cand,
								now), 0);
				for (k = 0; k < 100; k++) {
					close_period(&t, &cand, 1000, &now, 1);
					th = tp_thresh_get(&t);
					assert_true(th >= 1);
					assert_true(th <= ref * (v + 1));
				}
				assert_int_equal(th, ref * (v + 1) / steps ?
						 ref * (v + 1) / steps : 1);
			}
		}
	}
}

static void test_rate_period_no_overflow(void **state)
{
	/* 65536 MB/s at 4 KiB pages = 2^24 pages/s, over 60000 ms */
	u64 rate = tp_mbps_to_pages(TP_DEFAULT_PROMOTE_RATE_LIMIT_MBPS, 12);
	struct tp_thresh_cfg c = mkcfg(TP_THRESH_LINUX61, 0, 1000, 1000, 60000,
				       rate);
	u64 ref_cand = 60ULL << 24;
	u32 wrapped = (u32)rate * 60000U / 1000U;
	struct tp_thresh t;
	u64 cand = 0, now = 0;

	(void)state;
	assert_int_equal(rate, 1ULL << 24);
	/* a 32-bit unsigned long would get a wrong reference */
	assert_true(wrapped != ref_cand);
	assert_int_equal(tp_thresh_init(&t, &c, cand, now), 0);
	/* the true reference is in the band; the wrapped one is not */
	assert_int_equal(close_period(&t, &cand, ref_cand, &now, 60000),
			 TP_TH_KEPT);
	assert_int_equal(close_period(&t, &cand, ref_cand * 11 / 10, &now,
				      60000), TP_TH_KEPT);
	assert_int_equal(close_period(&t, &cand, ref_cand * 11 / 10 + 1, &now,
				      60000), TP_TH_LOWERED);
	assert_int_equal(close_period(&t, &cand, ref_cand * 9 / 10, &now,
				      60000), TP_TH_KEPT);
	assert_int_equal(close_period(&t, &cand, ref_cand * 9 / 10 - 1, &now,
				      60000), TP_TH_RAISED);
	assert_int_equal(close_period(&t, &cand, wrapped, &now, 60000),
			 TP_TH_RAISED);
}

static void test_ref_time_max_linux61(void **state)
{
	struct tp_thresh_cfg c = mkcfg(TP_THRESH_LINUX61, 16, 1000,
				       TP_TIME_MAX, TP_TIME_MAX, 1000);
	struct tp_thresh t;
	u64 cand = 0, now = 0, prev;
	int k;

	(void)state;
	assert_int_equal(tp_thresh_init(&t, &c, cand, now), 0);
	assert_int_equal(tp_thresh_get(&t), TP_TIME_MAX);
	for (k = 0; k < 12; k++) {
		prev = tp_thresh_get(&t);
		/* no candidates over 2^62 ms: raise to 2^63 */
		close_period(&t, &cand, 0, &now, TP_TIME_MAX);
		assert_true(tp_thresh_get(&t) >= prev);
		assert_true(tp_thresh_get(&t) <= 2 * TP_TIME_MAX);
	}
	assert_int_equal(tp_thresh_get(&t), 2 * TP_TIME_MAX);
	/* the step is 2^59 */
	c.rate_limit = 0;
	assert_int_equal(tp_thresh_tune(&t, &c), 0);
	assert_int_equal(close_period(&t, &cand, 1, &now, TP_TIME_MAX),
			 TP_TH_LOWERED);
	assert_int_equal(tp_thresh_get(&t), 2 * TP_TIME_MAX - (1ULL << 59));
}

/* ---- reset --------------------------------------------------------------- */

static void test_reset(void **state)
{
	struct tp_thresh_cfg c = mkcfg(TP_THRESH_LINUX61, 16, 1000, 1000, 100,
				       10000);
	struct tp_thresh t;
	u64 cand = 0, now = 0;

	(void)state;
	/* ref_cand 1000/period */
	assert_int_equal(tp_thresh_init(&t, &c, cand, now), 0);
	close_period(&t, &cand, 5000, &now, 100);
	close_period(&t, &cand, 5000, &now, 100);
	assert_int_equal(tp_thresh_get(&t), 750);

	/* without rearm: only the threshold is forgotten */
	tp_thresh_reset(&t, false, 0, now + 50);
	assert_int_equal(tp_thresh_get(&t), 1000);
	cand += 1050;
	assert_int_equal(tp_thresh_update(&t, cand, now + 100), TP_TH_IDLE);
	assert_int_equal(tp_thresh_update(&t, cand, now + 101), TP_TH_KEPT);
	now += 101;

	/* with rearm: new period start and baseline */
	close_period(&t, &cand, 5000, &now, 100);
	assert_int_equal(tp_thresh_get(&t), 875);
	tp_thresh_reset(&t, true, cand + 7000, now + 30);
	assert_int_equal(tp_thresh_get(&t), 1000);
	cand += 7000 + 950;
	assert_int_equal(tp_thresh_update(&t, cand, now + 130), TP_TH_IDLE);
	assert_int_equal(tp_thresh_update(&t, cand, now + 131), TP_TH_KEPT);
	assert_int_equal(tp_thresh_get(&t), 1000);
}

static void test_unadjusted_follows_ref(void **state)
{
	struct tp_thresh_cfg c = mkcfg(TP_THRESH_LINUX61, 16, 1000, 1000, 100,
				       1000);
	struct tp_thresh t;
	u64 ref;

	(void)state;
	assert_int_equal(tp_thresh_init(&t, &c, 0, 0), 0);
	for (ref = 1; ref < (1ULL << 40); ref = ref * 3 + 1) {
		c.ref_th = ref;
		assert_int_equal(tp_thresh_tune(&t, &c), 0);
		assert_int_equal(tp_thresh_get(&t), ref);
	}
	/* a reset (bypass) returns it to following */
	tp_thresh_reset(&t, false, 0, 0);
	c.ref_th = 777;
	assert_int_equal(tp_thresh_tune(&t, &c), 0);
	assert_int_equal(tp_thresh_get(&t), 777);
}

/* ---- randomized against a model ------------------------------------------ */

struct model {
	u64 th, start, base, period, ref, unit, max, ref_cand;
};

static void model_cfg(struct model *m, const struct tp_thresh_cfg *c)
{
	u32 steps = c->steps ? c->steps : 16;

	/* 0 is 0: a threshold of 0, a period closed at every tick */
	m->ref = c->ref_th;
	m->period = c->period;
	m->max = m->ref * (c->variant + 1);
	m->unit = !m->max ? 0 : m->max / steps ? m->max / steps : 1;
	/* period < 2^23, rate < 2^18 here: no overflow */
	m->ref_cand = m->period * c->rate_limit / c->tps;
}

static u64 model_eff(const struct model *m, u64 th)
{
	if (!th)
		th = m->ref;
	if (th < m->unit)
		th = m->unit;
	return th > m->max ? m->max : th;
}

static int model_update(struct model *m, u64 cand, u64 now)
{
	u64 diff, th, old;

	if ((int64_t)(now - m->start) <= (int64_t)m->period)
		return TP_TH_IDLE;
	m->start = now;
	diff = (int64_t)(cand - m->base) > 0 ? cand - m->base : 0;
	if (diff)
		m->base = cand;
	old = model_eff(m, m->th);
	th = old;
	/* the kernel's integer 110 % and 90 % (diff < 2^40 here) */
	if (diff * 10 > m->ref_cand * 11)
		th = th >= 2 * m->unit ? th - m->unit : m->unit;
	else if ((diff + 1) * 10 <= m->ref_cand * 9)
		th = th + m->unit < m->max ? th + m->unit : m->max;
	m->th = th;
	return th < old ? TP_TH_LOWERED : th > old ? TP_TH_RAISED : TP_TH_KEPT;
}

static void test_random_against_model(void **state)
{
	struct tp_thresh t;
	struct model m;
	struct tp_thresh_cfg c;
	u64 cand, now;
	int run, k;

	(void)state;
	srandom(20200221);
	for (run = 0; run < 300; run++) {
		c = mkcfg(random() & 1, random() % 40, 1 + random() % 100000,
			  run % 10 ? random() % 5000 : 0,
			  run % 7 ? random() % 2000 : 0,
			  random() % 200000);
		cand = ((u64)random() << 33) ^ (u64)random();
		now = ((u64)random() << 34) ^ ((u64)random() << 3);
		assert_int_equal(tp_thresh_init(&t, &c, cand, now), 0);
		memset(&m, 0, sizeof(m));
		model_cfg(&m, &c);
		m.start = now;
		m.base = cand;
		for (k = 0; k < 3000; k++) {
			int r = random() % 100;

			if (r < 2) {	/* a sysctl write */
				c.variant = random() & 1;
				c.steps = random() % 40;
				c.ref_th = random() % 8 ? random() % 5000 : 0;
				c.period = random() % 8 ? random() % 2000 : 0;
				c.rate_limit = random() % 200000;
				assert_int_equal(tp_thresh_tune(&t, &c), 0);
				model_cfg(&m, &c);
			} else if (r < 3) {
				bool rearm = random() & 1;

				tp_thresh_reset(&t, rearm, cand, now);
				m.th = 0;
				if (rearm) {
					m.start = now;
					m.base = cand;
				}
			}
			now += random() % (m.period / 2 + 2);
			cand += random() % (2 * m.ref_cand / (m.period + 1) *
					    (m.period / 4 + 1) + 3);
			assert_int_equal(tp_thresh_update(&t, cand, now),
					 model_update(&m, cand, now));
			assert_int_equal(tp_thresh_get(&t),
					 model_eff(&m, m.th));
			/* never 0 but for a reference of 0 */
			assert_true(tp_thresh_get(&t) >= 1 || !m.max);
		}
	}
}

/* ---- concurrency --------------------------------------------------------- */

#define CONC_THREADS	4
#define CONC_PERIOD	1000
#define CONC_TICKS	400000
#define CONC_MAXEV	1024

struct conc_ev {
	u64 now;
	int ev;
};

static struct tp_thresh conc_t;
static u64 conc_clock;
static u64 conc_cand;
static struct conc_ev conc_evs[CONC_THREADS][CONC_MAXEV];
static int conc_nev[CONC_THREADS];
static int conc_bad[CONC_THREADS];
static u64 conc_lo[CONC_THREADS], conc_hi[CONC_THREADS];

static void *conc_worker(void *arg)
{
	int id = (int)(intptr_t)arg;
	u64 now, th;
	int ev;

	for (;;) {
		now = __atomic_fetch_add(&conc_clock, 1, __ATOMIC_SEQ_CST);
		if (now >= CONC_TICKS)
			break;
		/* 5 candidates per tick in odd phases, none in even ones */
		if ((now / 20000) & 1)
			__atomic_fetch_add(&conc_cand, 5, __ATOMIC_SEQ_CST);
		ev = tp_thresh_update(&conc_t,
				      __atomic_load_n(&conc_cand,
						      __ATOMIC_SEQ_CST), now);
		th = tp_thresh_get(&conc_t);
		if (th < 200 || th > 3200)
			conc_bad[id]++;
		if (th < conc_lo[id])
			conc_lo[id] = th;
		if (th > conc_hi[id])
			conc_hi[id] = th;
		if (ev != TP_TH_IDLE) {
			if (conc_nev[id] == CONC_MAXEV) {
				conc_bad[id]++;
				continue;
			}
			conc_evs[id][conc_nev[id]].now = now;
			conc_evs[id][conc_nev[id]].ev = ev;
			conc_nev[id]++;
		}
	}
	return NULL;
}

static int conc_cmp(const void *a, const void *b)
{
	const struct conc_ev *x = a, *y = b;

	return x->now < y->now ? -1 : x->now > y->now;
}

static void test_concurrent_updates(void **state)
{
	struct tp_thresh_cfg c = mkcfg(TP_THRESH_LINUX61, 16, 1000, 1600,
				       CONC_PERIOD, 1000);
	static struct conc_ev all[CONC_THREADS * CONC_MAXEV];
	pthread_t th[CONC_THREADS];
	u64 prev, lo = ~0ULL, hi = 0;
	int i, j, n = 0, lowered = 0, raised = 0;

	(void)state;
	assert_int_equal(tp_thresh_init(&conc_t, &c, 0, 0), 0);
	for (i = 0; i < CONC_THREADS; i++)
		conc_lo[i] = ~0ULL;
	for (i = 0; i < CONC_THREADS; i++)
		assert_int_equal(pthread_create(&th[i], NULL, conc_worker,
						(void *)(intptr_t)i), 0);
	for (i = 0; i < CONC_THREADS; i++) {
		pthread_join(th[i], NULL);
		assert_int_equal(conc_bad[i], 0);
		lo = conc_lo[i] < lo ? conc_lo[i] : lo;
		hi = conc_hi[i] > hi ? conc_hi[i] : hi;
		for (j = 0; j < conc_nev[i]; j++)
			all[n++] = conc_evs[i][j];
	}
	qsort(all, n, sizeof(all[0]), conc_cmp);
	/* one close per period: more than a period apart, none skipped */
	assert_in_range(n, CONC_TICKS / (CONC_PERIOD + 64) - 1,
			CONC_TICKS / (CONC_PERIOD + 1));
	prev = 0;
	for (i = 0; i < n; i++) {
		assert_in_range(all[i].now - prev, CONC_PERIOD + 1,
				CONC_PERIOD + 64);
		prev = all[i].now;
		lowered += all[i].ev == TP_TH_LOWERED;
		raised += all[i].ev == TP_TH_RAISED;
	}
	/*
	 * 10 phases of 20 periods each way: both bounds reached. (An exact
	 * replay of the events is not asserted: a closer preempted between
	 * its cmpxchg and its store for a whole simulated period may store a
	 * stale step, as the kernel's would; the bounds still hold.)
	 */
	assert_true(lowered >= 15 * 5 && raised >= 15 * 5);
	assert_int_equal(lo, 200);
	assert_int_equal(hi, 3200);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_selftest_vectors),
		cmocka_unit_test(test_init_rejects_untouched),
		cmocka_unit_test(test_zero_and_defaults_per_clock),
		cmocka_unit_test(test_rfc2020_bounds_sustained),
		cmocka_unit_test(test_linux61_bounds_sustained),
		cmocka_unit_test(test_band_110_90),
		cmocka_unit_test(test_one_adjustment_per_period),
		cmocka_unit_test(test_time_wrap),
		cmocka_unit_test(test_raised_ref_no_underflow),
		cmocka_unit_test(test_lowered_ref_clamps),
		cmocka_unit_test(test_small_ref_never_zero),
		cmocka_unit_test(test_rate_period_no_overflow),
		cmocka_unit_test(test_ref_time_max_linux61),
		cmocka_unit_test(test_reset),
		cmocka_unit_test(test_unadjusted_follows_ref),
		cmocka_unit_test(test_random_against_model),
		cmocka_unit_test(test_concurrent_updates),
	};

	return cmocka_run_group_tests_name("threshold", tests, NULL, NULL);
}
