// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * CMocka: what every reader does when the settings keep changing under it
 * (%TP_RETRIES attempts, then fail closed, as each kernel-doc says), forced
 * on demand. In the builds that compile lib/ with -DTP_FAULT_INJECT (make
 * coverage, make check-debug) this program's tp_inject_latch_retry makes
 * the next that many settings-latch reads see a tune in flight; elsewhere
 * the cases are skipped (the multi-threaded suites reach these paths only
 * when a race does).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <tierpol/tierpol.h>
#include "policy_env.h"

extern unsigned int tp_inject_latch_retry;
unsigned int tp_inject_latch_retry;

/* Every read of one call fails, however many it makes. */
#define ALWAYS	1000000U

/* Skip unless lib/ was built to read the counter (it takes one from it). */
static void need_injection(void)
{
	struct tp_limiter_cfg c = { .sz = sizeof(c), .tps = 1000,
				    .rate = 10 };
	struct tp_limiter l;

	assert_int_equal(tp_limiter_init(&l, &c, 0), 0);
	tp_inject_latch_retry = 1;
	(void)tp_limiter_available(&l, 0);
	if (tp_inject_latch_retry) {
		tp_inject_latch_retry = 0;
		skip();
	}
}

static void test_limiter_fails_closed(void **state)
{
	struct tp_limiter_cfg c = { .sz = sizeof(c), .tps = 1000,
				    .rate = 100, .burst = 50 };
	struct tp_limiter_cpu slot;
	struct tp_limiter l;
	u32 v;

	(void)state;
	need_injection();
	for (v = TP_LIMITER_BUCKET; v <= TP_LIMITER_WINDOW_LINUX61; v++) {
		memset(&slot, 0, sizeof(slot));
		c.variant = v;
		assert_int_equal(tp_limiter_init(&l, &c, 0), 0);
		tp_inject_latch_retry = ALWAYS;
		assert_int_equal(tp_limiter_available(&l, 5), 0);
		assert_false(tp_limiter_consume(&l, &slot, 1, 5));
		assert_false(tp_limiter_consume(&l, NULL, 1, 5));
		tp_inject_latch_retry = 0;
		/* one refusal counted (the slot's), nothing taken or counted */
		assert_int_equal(tp_limiter_busy(&slot), 1);
		assert_int_equal(tp_limiter_available(&l, 5),
				 v == TP_LIMITER_BUCKET ? 50 : 100);
		/* a tune in flight for TP_RETRIES - 1 reads: admitted */
		tp_inject_latch_retry = TP_RETRIES - 1;
		assert_true(tp_limiter_consume(&l, &slot, 1, 5));
		assert_int_equal(tp_inject_latch_retry, 0);
		assert_int_equal(tp_limiter_busy(&slot), 1);
		/* for all TP_RETRIES: refused */
		tp_inject_latch_retry = TP_RETRIES;
		assert_false(tp_limiter_consume(&l, &slot, 1, 5));
		assert_int_equal(tp_limiter_busy(&slot), 2);
	}
}

static void test_thresh_fails_closed(void **state)
{
	struct tp_thresh_cfg c = { .sz = sizeof(c), .tps = 1000,
				   .ref_th = 1000, .period = 100,
				   .rate_limit = 1000 };
	static const struct tp_thresh_cpu zero;
	struct tp_thresh_cpu cpu;
	struct tp_thresh t, copy;
	int ev;

	(void)state;
	need_injection();
	assert_int_equal(tp_thresh_init(&t, &c, 0, 0), 0);
	/* a period due at 101: left to a later call, nothing moves */
	tp_inject_latch_retry = ALWAYS;
	assert_int_equal(tp_thresh_update(&t, 0, 101), TP_TH_IDLE);
	/* the threshold of the copy last read, inside its bounds */
	assert_int_equal(tp_thresh_get(&t), 1000);
	tp_inject_latch_retry = 0;
	/*
	 * A threshold moved off its reference: what the failed reads return
	 * is the stored one (clamped by the copy last read), not the
	 * reference.
	 */
	memcpy(&copy, &t, sizeof(t));
	assert_int_equal(tp_thresh_update(&copy, 1000, 101), TP_TH_LOWERED);
	assert_int_equal(tp_thresh_get(&copy), 938);	/* 1000 - 1000/16 */
	tp_inject_latch_retry = ALWAYS;
	assert_int_equal(tp_thresh_get(&copy), 938);
	tp_inject_latch_retry = 0;
	/*
	 * The same period, closed by the next call: too few candidates, the
	 * threshold would rise but is at the RFC's bound already; the next
	 * period starts then.
	 */
	ev = tp_thresh_update(&t, 0, 102);
	assert_int_equal(ev, TP_TH_KEPT);
	assert_int_equal(tp_thresh_get(&t), 1000);
	assert_int_equal(tp_thresh_update(&t, 0, 202), TP_TH_IDLE);
	assert_int_equal(tp_thresh_update(&t, 0, 203), TP_TH_KEPT);

	/* the histogram records nothing while the reads fail */
	memset(&cpu, 0, sizeof(cpu));
	c.variant = TP_THRESH_HISTOGRAM;
	assert_int_equal(tp_thresh_init(&t, &c, 0, 0), 0);
	memcpy(&copy, &t, sizeof(t));
	tp_inject_latch_retry = ALWAYS;
	tp_thresh_record(&t, &cpu, 10, 1000);
	tp_inject_latch_retry = 0;
	assert_memory_equal(&t, &copy, sizeof(t));
	assert_memory_equal(&cpu, &zero, sizeof(cpu));
	tp_thresh_record(&t, &cpu, 10, 1000);
	assert_true(memcmp(&t, &copy, sizeof(t)) ||
		    memcmp(&cpu, &zero, sizeof(cpu)));
}

static void test_goal_fails_closed(void **state)
{
	struct tp_goal_cfg c = { .sz = sizeof(c), .goal = 1000, .min = 1,
				 .max = 1000000, .init = 500 };
	struct tp_goal g;

	(void)state;
	need_injection();
	assert_int_equal(tp_goal_init(&g, &c), 0);
	/* the output is left as it is */
	tp_inject_latch_retry = ALWAYS;
	assert_int_equal(tp_goal_update(&g, 0), 500);
	assert_int_equal(tp_goal_get(&g), 500);
	tp_inject_latch_retry = 0;
	assert_int_equal(tp_goal_get(&g), 500);
	/* the metric at half the goal: the output grows by half */
	assert_int_equal(tp_goal_update(&g, 500), 750);
}

static void test_policy_fails_closed(void **state)
{
	struct tp_node_stats s;
	struct env e;
	int v;

	(void)state;
	need_injection();
	env_preset(&e, TP_PRESET_LINUX61);
	env_init(&e, 0);
	assert_true(tp_free_space_enough(&e.pol, &mem_idle));
	assert_true(tp_scan_wanted(&e.pol, false));
	/* 6.1's target is the promo watermark; the high one when it fails */
	assert_int_equal(tp_demotion_target(&e.pol, &mem_busy),
			 mem_busy.wmark_promo);
	tp_inject_latch_retry = ALWAYS;
	assert_false(tp_free_space_enough(&e.pol, &mem_idle));
	assert_false(tp_scan_wanted(&e.pol, false));
	assert_int_equal(tp_demotion_target(&e.pol, &mem_busy),
			 mem_busy.wmark_high);
	/* a snapshot's threshold: none rather than one from a torn copy */
	assert_int_equal(stats(&e).threshold, 0);
	/* every attempt of a decision: refused as busy, its pages counted */
	assert_int_equal(decide(&e, 0, 3, 0, &mem_idle, 10), TP_REFUSE_BUSY);
	tp_inject_latch_retry = 0;
	s = stats(&e);
	assert_true(s.threshold > 0);
	assert_int_equal(s.decided, 3);
	assert_int_equal(s.verdict[TP_REFUSE_BUSY], 3);
	assert_int_equal(s.candidate, 0);
	/* all but the last attempt: decided on it, as without the tune */
	tp_inject_latch_retry = TP_RETRIES - 1;
	assert_int_equal(decide(&e, 0, 2, 0, &mem_idle, 10), TP_PROMOTE_NRL);
	assert_int_equal(tp_inject_latch_retry, 0);
	tp_inject_latch_retry = TP_RETRIES - 1;
	v = decide(&e, 1, 4, 0, &mem_busy, 10);
	assert_int_equal(v, TP_PROMOTE);
	tp_inject_latch_retry = TP_RETRIES - 1;
	v = decide(&e, 0, 1, TP_FAULT_TOPTIER, &mem_busy, 10);
	assert_int_equal(v, TP_REFUSE_TOPTIER);
	s = stats(&e);
	assert_int_equal(s.decided, 10);
	assert_int_equal(s.verdict[TP_REFUSE_BUSY], 3);
	assert_int_equal(s.verdict[TP_PROMOTE_NRL], 2);
	assert_int_equal(s.verdict[TP_PROMOTE], 4);
	assert_int_equal(s.verdict[TP_REFUSE_TOPTIER], 1);
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_limiter_fails_closed),
		cmocka_unit_test(test_thresh_fails_closed),
		cmocka_unit_test(test_goal_fails_closed),
		cmocka_unit_test(test_policy_fails_closed),
	};

	return cmocka_run_group_tests_name("fail_closed", tests, NULL, NULL);
}
