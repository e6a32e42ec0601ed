// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * CMocka tests of tp_policy_tune() on a live policy and of tp_node_reset():
 * a tune publishes at once and keeps the nodes' state and its meaning (the
 * bucket's time to refill, the candidates and the controller's period),
 * refuses what init refuses and changes nothing then; the token bucket's
 * burst and the huge pages larger than it.
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
#include "policy_env.h"

/*
 * A tune publishes at once (there is no per-node sync any more) and keeps
 * the bucket's time to refill: drained at 256 pages/s (1 s of debt), then
 * retuned to 512 pages/s, the bucket still owes 1 s: nothing at once, 256
 * pages 500 ms later (at the new rate, not 128), and 256 more 500 ms after.
 */
static void test_tune_rate_keeps_time_to_refill(void **state)
{
	struct env e;
	int k, prom;

	(void)state;
	env_preset(&e, TP_PRESET_LINUX61);
	e.cfg.rate_limit_mbps = 1;		/* 256/s, burst 256 */
	e.cfg.limiter_variant = TP_LIMITER_BUCKET;
	env_init(&e, 0);
	for (k = 0, prom = 0; k < 1000; k++)
		prom += decide(&e, 0, 1, 0, &mem_busy, 10) == TP_PROMOTE;
	assert_int_equal(prom, 256);
	e.cfg.rate_limit_mbps = 2;
	env_tune(&e);
	assert_int_equal(decide(&e, 0, 1, 0, &mem_busy, 10),
			 TP_REFUSE_RATELIMIT);
	for (k = 0, prom = 0; k < 1000; k++)
		prom += decide(&e, 0, 1, 0, &mem_busy, 510) == TP_PROMOTE;
	assert_int_equal(prom, 256);
	for (k = 0, prom = 0; k < 1000; k++)
		prom += decide(&e, 0, 1, 0, &mem_busy, 1010) == TP_PROMOTE;
	assert_int_equal(prom, 256);
	/* back to 256/s: half a second refills 128 */
	e.cfg.rate_limit_mbps = 1;
	env_tune(&e);
	for (k = 0, prom = 0; k < 1000; k++)
		prom += decide(&e, 0, 1, 0, &mem_busy, 1510) == TP_PROMOTE;
	assert_int_equal(prom, 128);
	assert_int_equal(stats(&e).verdict[TP_PROMOTE], 256 * 3 + 128);
}

/*
 * Changing the limiter variant keeps the candidate count and the threshold
 * controller's period: each 1000 ms period brings 250 candidates at
 * 1 MB/s (within 90..110 % of 256), whatever the variant deciding them, so
 * no period sees a jump and the threshold never moves.
 */
static void test_tune_variant_keeps_candidates(void **state)
{
	static const u32 variants[] = {
		TP_LIMITER_WINDOW_LINUX61, TP_LIMITER_BUCKET,
		TP_LIMITER_WINDOW_RFC2020, TP_LIMITER_WINDOW_LINUX61,
		TP_LIMITER_BUCKET, TP_LIMITER_WINDOW_RFC2020,
	};
	struct tp_node_stats st;
	struct env e;
	u64 cand = 0, now;
	unsigned int i;
	int k, v;

	(void)state;
	env_preset(&e, TP_PRESET_LINUX61);
	e.cfg.rate_limit_mbps = 1;		/* 256 pages/s */
	e.cfg.scan_period_max_ms = 1000;
	e.cfg.limiter_variant = variants[0];
	env_init(&e, 0);
	for (i = 0; i < TP_ST_ARRAY_SIZE(variants); i++) {
		now = 1 + 1001 * (u64)i;
		if (i) {
			e.cfg.limiter_variant = variants[i];
			env_tune(&e);
		}
		for (k = 0; k < 250; k++) {
			v = decide(&e, 0, 1, 0, &mem_busy, now + (u64)k);
			assert_true(v == TP_PROMOTE ||
				    v == TP_REFUSE_RATELIMIT);
			cand++;
		}
		st = stats(&e);
		assert_true(st.candidate == cand && st.cand_shared == cand);
		assert_true(st.verdict[TP_PROMOTE] +
			    st.verdict[TP_REFUSE_RATELIMIT] == cand);
		assert_true(st.decided == cand);
		assert_int_equal(st.th_lowered, 0);
		assert_int_equal(st.th_raised, 0);
		assert_int_equal(st.threshold, 1000);
	}
	/*
	 * The last period closes (kept: its 250 candidates), then one
	 * without candidates raises the threshold: the count moved on.
	 */
	now = 1 + 1001 * 6 + 2002;
	assert_int_equal(decide(&e, 5000, 1, 0, &mem_busy, now),
			 TP_REFUSE_COLD);
	assert_int_equal(stats(&e).th_raised, 0);
	assert_int_equal(decide(&e, 5000, 1, 0, &mem_busy, now + 1001),
			 TP_REFUSE_COLD);
	assert_int_equal(stats(&e).th_raised, 1);
}

/*
 * A tune that lowers the candidate batch to 1 (the sysctl's exact count)
 * leaves no candidate in the slot: the slot's next candidate moves what the
 * old batch of 32 held, and the shared count is exact again.
 */
static void test_tune_batch_down_moves_pending(void **state)
{
	struct tp_node_stats st;
	struct env e;
	int k;

	(void)state;
	env_preset(&e, TP_PRESET_LINUX61);
	e.cfg.rate_limit_mbps = 1024;
	e.cfg.cand_batch = 32;
	env_init(&e, 0);
	for (k = 0; k < 10; k++)
		decide(&e, 0, 1, 0, &mem_busy, 1 + (u64)k);
	st = stats(&e);
	assert_true(st.candidate == 10 && st.cand_shared == 0);
	e.cfg.cand_batch = 1;
	env_tune(&e);
	decide(&e, 0, 1, 0, &mem_busy, 20);
	st = stats(&e);
	assert_true(st.candidate == 11 && st.cand_shared == 11);
	decide(&e, 0, 1, 0, &mem_busy, 21);
	st = stats(&e);
	assert_true(st.candidate == 12 && st.cand_shared == 12);
}

/*
 * An unrelated sysctl write (the hot threshold) keeps the bucket drained;
 * the watermark default of the rate limit is refused with the bucket,
 * by init and by tune, and such a tune changes nothing.
 */
static void test_tune_keeps_bucket(void **state)
{
	struct env e;
	struct tp_policy copy;
	int k, prom;

	(void)state;
	env_preset(&e, TP_PRESET_LINUX61);
	e.cfg.rate_limit_mbps = 1;
	e.cfg.limiter_variant = TP_LIMITER_BUCKET;
	env_init(&e, 0);
	for (k = 0, prom = 0; k < 400; k++)
		prom += decide(&e, 0, 1, 0, &mem_busy, 1) == TP_PROMOTE;
	assert_int_equal(prom, 256);
	e.cfg.hot_threshold_ms = 900;
	env_tune(&e);
	assert_int_equal(decide(&e, 0, 1, 0, &mem_busy, 1),
			 TP_REFUSE_RATELIMIT);
	assert_int_equal(stats(&e).threshold, 900);
	/* and refills at 256/s */
	for (k = 0, prom = 0; k < 400; k++)
		prom += decide(&e, 0, 1, 0, &mem_busy, 501) == TP_PROMOTE;
	assert_int_equal(prom, 128);

	memcpy(&copy, &e.pol, sizeof(copy));
	e.cfg.flags |= TP_POL_RL_WMARK_DEFAULT;
	assert_int_equal(tp_policy_tune(&e.pol, &e.cfg), -EINVAL);
	assert_memory_equal(&copy, &e.pol, sizeof(copy));
	assert_int_equal(tp_policy_init(&e.pol, &e.cfg), -EINVAL);
	assert_memory_equal(&copy, &e.pol, sizeof(copy));
	e.cfg.rate_limit_mbps = 0;
	assert_int_equal(tp_policy_init(&e.pol, &e.cfg), -EINVAL);
	/* the RFC preset with the bucket: the same */
	assert_int_equal(tp_policy_preset(&e.cfg, TP_PRESET_RFC2020, 1000), 0);
	e.cfg.limiter_variant = TP_LIMITER_BUCKET;
	assert_int_equal(tp_policy_init(&e.pol, &e.cfg), -EINVAL);
	assert_memory_equal(&copy, &e.pol, sizeof(copy));
	/* a tune with another clock */
	assert_int_equal(tp_policy_preset(&e.cfg, TP_PRESET_LINUX61, 1001), 0);
	assert_int_equal(tp_policy_tune(&e.pol, &e.cfg), -EINVAL);
	assert_memory_equal(&copy, &e.pol, sizeof(copy));
}

/*
 * burst_pages sizes the token bucket; 0 is one second of the rate. A THP
 * larger than the burst is admitted when the bucket is full, and owed.
 */
static void test_policy_burst_pages(void **state)
{
	static const u64 bursts[] = { 0, 1, 100, 511, 512, 5000 };
	struct tp_node_mem m = mem_busy;
	struct env e;
	size_t i;
	int k, prom;
	u64 burst;

	(void)state;
	m.free = 20000;		/* room for a THP, no 6.1 bypass */
	for (i = 0; i < sizeof(bursts) / sizeof(bursts[0]); i++) {
		env_preset(&e, TP_PRESET_LINUX61);
		e.cfg.rate_limit_mbps = 1;	/* 256 pages/s */
		e.cfg.limiter_variant = TP_LIMITER_BUCKET;
		e.cfg.burst_pages = bursts[i];
		env_init(&e, 0);
		burst = bursts[i] ? bursts[i] : 256;
		for (k = 0, prom = 0; k < 6000; k++)
			prom += decide(&e, 0, 1, 0, &mem_busy, 7) == TP_PROMOTE;
		assert_int_equal(prom, burst);
		/* idle, so full: a THP is admitted whatever the burst */
		assert_int_equal(decide(&e, 0, 512, 0, &m, 1000000),
				 TP_PROMOTE);
		/* a page more fits only a burst above 512 */
		assert_int_equal(decide(&e, 0, 1, 0, &m, 1000000),
				 burst > 512 ? TP_PROMOTE :
					       TP_REFUSE_RATELIMIT);
		/* 1 s later 256 pages came back: a second THP fits 768 */
		assert_int_equal(decide(&e, 0, 512, 0, &m, 1001000),
				 burst >= 768 + (burst > 512) ? TP_PROMOTE :
				 TP_REFUSE_RATELIMIT);
	}
}

/*
 * tp_node_reset() after a tune that switched tiering on, as the kernel's
 * sysctl handler calls reset_memory_tiering(): the adjusted threshold is
 * forgotten and the period restarts at the reset.
 */
static void test_reset_after_tiering_on(void **state)
{
	struct env e;
	struct tp_node_stats s;
	int k;

	(void)state;
	env_preset(&e, TP_PRESET_LINUX61);
	e.cfg.rate_limit_mbps = 1;
	e.cfg.scan_period_max_ms = 100;
	env_init(&e, 0);
	for (k = 0; k < 100; k++)
		decide(&e, 0, 1, 0, &mem_busy, 5);
	decide(&e, 0, 1, 0, &mem_busy, 101);
	assert_int_equal(stats(&e).threshold, 875);

	/* a tune that keeps tiering on keeps the adjusted threshold */
	e.cfg.hot_threshold_ms = 2000;
	env_tune(&e);
	assert_int_equal(stats(&e).threshold, 875);

	/* tiering off: decisions refused, the threshold kept */
	e.cfg.mode = TP_MODE_NORMAL;
	env_tune(&e);
	assert_int_equal(decide(&e, 0, 1, 0, &mem_busy, 600), TP_REFUSE_MODE);
	assert_int_equal(stats(&e).threshold, 875);
	/* on again at 1000, and reset: the reference, a period from 1000 */
	e.cfg.mode = TP_MODE_TIERING;
	env_tune(&e);
	assert_int_equal(stats(&e).threshold, 875);
	tp_node_reset(&e.node, 1000);
	s = stats(&e);
	assert_int_equal(s.threshold, 2000);
	/* nothing closes before 1101, and only the new candidates count */
	for (k = 0; k < 100; k++)
		decide(&e, 0, 1, 0, &mem_busy, 1100);
	assert_int_equal(stats(&e).th_lowered, s.th_lowered);
	decide(&e, 0, 1, 0, &mem_busy, 1101);
	assert_int_equal(stats(&e).th_lowered, s.th_lowered + 1);
	assert_int_equal(stats(&e).threshold, 1750);

	/*
	 * Without the reset the period that started at 101 closes at the
	 * first decision after tiering comes back, judging the candidates of
	 * the whole gap against one period's budget.
	 */
	env_init(&e, 0);
	for (k = 0; k < 100; k++)
		decide(&e, 0, 1, 0, &mem_busy, 5);
	decide(&e, 0, 1, 0, &mem_busy, 101);
	decide(&e, 0, 1, 0, &mem_busy, 150);
	e.cfg.mode = TP_MODE_NORMAL;
	env_tune(&e);
	e.cfg.mode = TP_MODE_TIERING;
	env_tune(&e);
	decide(&e, 0, 1, 0, &mem_busy, 1000);
	s = stats(&e);
	assert_int_equal(s.th_raised, 1);	/* 2 candidates since 101 */
}

/*
 * tp_node_reset() starts the new period "from the current candidate
 * count": the candidates counted before the reset are not judged in the
 * period after it. 400 candidates in the first 100 ms (budget 25), a reset
 * before that period closes, then a quiet period: raised, not lowered.
 */
static void test_reset_rebases_candidates(void **state)
{
	struct env e;
	struct tp_node_stats s;
	int k;

	(void)state;
	env_preset(&e, TP_PRESET_LINUX61);
	e.cfg.rate_limit_mbps = 1;
	e.cfg.scan_period_max_ms = 100;
	e.cfg.cand_batch = 1;
	env_init(&e, 0);
	for (k = 0; k < 400; k++)
		decide(&e, 0, 1, 0, &mem_busy, 5);
	assert_int_equal(stats(&e).candidate, 400);
	tp_node_reset(&e.node, 50);
	/* no candidate in [50, 151): the closing period is under budget */
	assert_int_equal(decide(&e, 5000, 1, 0, &mem_busy, 151),
			 TP_REFUSE_COLD);
	s = stats(&e);
	assert_int_equal(s.th_raised, 1);
	assert_int_equal(s.th_lowered, 0);
}

static void test_tune_follows_hot_threshold(void **state)
{
	struct env e;
	u32 ms;

	(void)state;
	env_preset(&e, TP_PRESET_RFC2020);
	env_init(&e, 0);
	for (ms = 0; ms < 100000; ms = ms * 7 + 3) {
		e.cfg.hot_threshold_ms = ms;
		env_tune(&e);
		assert_int_equal(stats(&e).threshold, ms);
		assert_int_equal(decide(&e, ms, 1, TP_FAULT_YOUNG, &mem_busy,
					0), TP_PROMOTE);
		assert_int_equal(decide(&e, ms + 1, 1, TP_FAULT_YOUNG,
					&mem_busy, 0), TP_REFUSE_COLD);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tune_rate_keeps_time_to_refill),
		cmocka_unit_test(test_tune_variant_keeps_candidates),
		cmocka_unit_test(test_tune_keeps_bucket),
		cmocka_unit_test(test_tune_batch_down_moves_pending),
		cmocka_unit_test(test_policy_burst_pages),
		cmocka_unit_test(test_reset_after_tiering_on),
		cmocka_unit_test(test_reset_rebases_candidates),
		cmocka_unit_test(test_tune_follows_hot_threshold),
	};

	return cmocka_run_group_tests_name("policy_tune", tests, NULL, NULL);
}
