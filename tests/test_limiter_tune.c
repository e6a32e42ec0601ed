// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * CMocka tests of the promotion rate limiter's tunes (lib/limiter.c): a
 * tune publishes settings and never writes the live state; and the
 * regressions of issue 12 that one thread can show, calls that read the
 * settings before a tune and run after it (simulated by running them on
 * the settings copies saved before the tune): a bucket retune's price
 * (item 3) and variant switches (item 1).
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
#include "tp_test_limiter.h"

/* Admissions of a run, for assert_bucket_bound(). */
static struct adm adm[BOUND_N];

/* A tune keeps the TAT: the time to refill, whatever the new rate. */
static void test_tune_keeps_time(void **state)
{
	struct tp_limiter l;
	struct tp_limiter_cfg c = mkcfg(TP_LIMITER_BUCKET, 1000, 1000, 0, 0);
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
			  rnd_range(1, 1 << 20), 0, 0);
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
				  rnd_range(0, 1 << 20), 0, 0);
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
	struct tp_limiter_cfg fast = mkcfg(TP_LIMITER_BUCKET, 1000, 1000, 0, 0);
	struct tp_limiter_cfg slow = mkcfg(TP_LIMITER_BUCKET, 1000, 10, 0, 0);
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
	struct tp_limiter_cfg bucket = mkcfg(TP_LIMITER_BUCKET, 1000, 1000, 0,
					     0);
	struct tp_limiter_cfg win = mkcfg(TP_LIMITER_WINDOW_LINUX61, 1000,
					  1000, 0, 0);
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
	/*
	 * The window, expired since init, opens at its first request (not
	 * counted in it) and reopens after a second, as it should.
	 */
	assert_true(tp_limiter_consume(&l, NULL, 1, 500));
	assert_true(tp_limiter_consume(&l, NULL, 999, 500));
	assert_false(tp_limiter_consume(&l, NULL, 1, 1500));
	assert_true(tp_limiter_consume(&l, NULL, 1, 1501));
	assert_true(tp_limiter_consume(&l, NULL, 999, 1501));
	assert_false(tp_limiter_consume(&l, NULL, 1, 1501));
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
		c = mkcfg(TP_LIMITER_BUCKET, 1000, 500, 0, 0);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tune_keeps_time),
		cmocka_unit_test(test_tune_never_writes_state),
		cmocka_unit_test(test_tune_late_caller_price),
		cmocka_unit_test(test_switch_late_callers),
		cmocka_unit_test(test_switch_random),
	};

	return cmocka_run_group_tests_name("limiter_tune", tests, NULL, NULL);
}
