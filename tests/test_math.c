// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * CMocka tests of lib/math.c, the slow-path arithmetic the objects share:
 * __tp_mul_frac() (the threshold's budget, the promo watermark) and
 * __tp_ms_to_ticks(). Both are internal symbols of the static library the
 * tests link, so they are called directly; the public functions built on
 * them are checked too.
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
#include "selftest/selftest.h"
#include "tp_test_util.h"

u64 __tp_mul_frac(u64 x, u64 num, u64 den);
u64 __tp_ms_to_ticks(u64 ms, u32 tps);

static u64 ref_mul_frac(u64 x, u64 num, u64 den)
{
	bool fits;
	u64 q = muldiv(x, num, den, &fits);

	return fits ? q : ~0ULL;
}

/*
 * Issue 12, item 9: the 0.1 tp_mul_frac() split x into x / den and
 * x % den and saturated (x % den) * num, so it returned 1 for
 * 2^63 x (2^64 - 2) / (2^64 - 1) = 2^63 - 1 (no caller reached it then).
 * Called directly (the threshold's budget and the promo watermark below
 * never pass it such operands): the table, then random operands of every
 * magnitude and quotients at the edge of 64 bits, against muldiv().
 */
static void test_mul_frac_exact(void **state)
{
	static const struct {
		u64 x, num, den, want;
	} rows[] = {
		{ 1ULL << 63, ~0ULL - 1, ~0ULL, (1ULL << 63) - 1 },
		{ ~0ULL - 1, (1ULL << 63) - 1, ~0ULL, (1ULL << 63) - 2 },
		{ ~0ULL, (1ULL << 63) - 1, ~0ULL - 1, (1ULL << 63) - 1 },
		{ (1ULL << 63) - 1, 1, 1, (1ULL << 63) - 1 },
		{ (1ULL << 63) - 1, 3, 3, (1ULL << 63) - 1 },
		{ (1ULL << 63) - 1, (1ULL << 63) - 1, (1ULL << 63) - 1,
		  (1ULL << 63) - 1 },
		{ ~0ULL, 1, 2, (1ULL << 63) - 1 },
		{ ~0ULL, 5000, 10000, (1ULL << 63) - 1 },
		{ ~0ULL, ~0ULL, ~0ULL, ~0ULL },
		/* exactly 2^64 - 1: not saturated, the largest answer */
		{ (1ULL << 32) + 1, (1ULL << 32) - 1, 1, ~0ULL },
		{ (1ULL << 63) - 1, 2, 1, ~0ULL - 1 },
		/* 2^64 and more: saturated */
		{ 1ULL << 63, 2, 1, ~0ULL },
		{ ~0ULL, ~0ULL, ~0ULL - 1, ~0ULL },
		{ ~0ULL, ~0ULL, 1, ~0ULL },
		{ 3ULL << 62, 3, 2, ~0ULL },
		/* small ones */
		{ 0, ~0ULL, 1, 0 },
		{ ~0ULL, 0, 7, 0 },
		{ 1ULL << 62, 3, 4, 3ULL << 60 },
		{ 1000000007ULL * 999999937ULL, 1ULL << 20, 1000000007ULL,
		  999999937ULL << 20 },
		{ 60000, 1ULL << 24, 1000, 60ULL << 24 },
	};
	u64 x, num, den, hi, lo;
	size_t i;
	int k;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		assert_int_equal(ref_mul_frac(rows[i].x, rows[i].num,
					      rows[i].den), rows[i].want);
		assert_int_equal(__tp_mul_frac(rows[i].x, rows[i].num,
					       rows[i].den), rows[i].want);
	}
	for (k = 0; k < 200000; k++) {
		x = rnd() >> (rnd() % 64);
		num = rnd() >> (rnd() % 64);
		den = rnd() >> (rnd() % 64);
		if (k & 1) {
			/* a quotient of about 2^64 */
			mul128(x, num, &hi, &lo);
			den = hi + rnd_range(0, 2);
		}
		if (!den)
			den = 1;
		assert_int_equal(__tp_mul_frac(x, num, den),
				 ref_mul_frac(x, num, den));
	}
}

/*
 * The same arithmetic through the public API: Linux 6.1's promo watermark,
 * high + max(min / 4, managed x scale / 10000), exact for any managed
 * count and saturated, never wrapped.
 */
static void test_wmark_promo_exact(void **state)
{
	u64 min, high, managed, want, m;
	u32 scale;
	int k;

	(void)state;
	assert_int_equal(tp_wmark_promo(0, 0, ~0ULL, 5000), (1ULL << 63) - 1);
	assert_int_equal(tp_wmark_promo(0, 0, (1ULL << 63) - 1, 10000),
			 (1ULL << 63) - 1);
	assert_int_equal(tp_wmark_promo(0, 0, ~0ULL, 10000), ~0ULL);
	assert_int_equal(tp_wmark_promo(0, 0, ~0ULL, 10001), ~0ULL);
	assert_int_equal(tp_wmark_promo(0, 0, 1ULL << 63, 20000), ~0ULL);
	assert_int_equal(tp_wmark_promo(0, 1, ~0ULL, 10000), ~0ULL);
	assert_int_equal(tp_wmark_promo(400, 1000, 1ULL << 20, 10), 2048);
	for (k = 0; k < 100000; k++) {
		min = rnd() >> (rnd() % 64);
		high = rnd() >> (rnd() % 64);
		managed = rnd() >> (rnd() % 64);
		scale = (u32)(rnd() >> (rnd() % 64));
		m = ref_mul_frac(managed, scale, 10000);
		if (min >> 2 > m)
			m = min >> 2;
		want = high + m < high ? ~0ULL : high + m;
		assert_int_equal(tp_wmark_promo(min, high, managed, scale),
				 want);
	}
}

/* msecs_to_jiffies(): rounded up, exact for any ms < 2^32 at any clock. */
static void test_ms_to_ticks(void **state)
{
	u64 ms, want;
	u32 tps;
	int k;

	(void)state;
	assert_int_equal(__tp_ms_to_ticks(1, 250), 1);
	assert_int_equal(__tp_ms_to_ticks(3, 250), 1);
	assert_int_equal(__tp_ms_to_ticks(5, 250), 2);
	assert_int_equal(__tp_ms_to_ticks(0, 1000), 0);
	assert_int_equal(__tp_ms_to_ticks(60000, 1000000000), 60000000000ULL);
	for (k = 0; k < 100000; k++) {
		ms = rnd() >> 32;
		tps = (u32)rnd_range(1, TP_TPS_MAX);
		want = muldiv_fit(ms, tps, 1000);
		if (muldiv_fit(want, 1000, 1) != ms * tps)
			want++;
		assert_int_equal(__tp_ms_to_ticks(ms, tps), want);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mul_frac_exact),
		cmocka_unit_test(test_wmark_promo_exact),
		cmocka_unit_test(test_ms_to_ticks),
	};

	return cmocka_run_group_tests_name("math", tests, NULL, NULL);
}
