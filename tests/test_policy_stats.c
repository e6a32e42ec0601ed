// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * CMocka tests of the promotion decision pipeline's statistics
 * (tp_node_stats_add() over the per-CPU slots): randomized decisions whose
 * verdicts a test tallies itself, and a slot's counters read as policy.h
 * defines them. The decisions themselves are in test_policy.c.
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

static void test_stats_add_up_random(void **state)
{
	static const struct tp_node_mem mems[] = {
		{ 20000, 2500, 5000, 10000, 12000, 1000000 },
		{ 1000000, 2500, 5000, 10000, 12000, 1000000 },
		{ 10100, 2500, 5000, 10000, 12000, 1000000 },
		{ 35000, 2500, 5000, 10000, 12000, 1000000 },
		{ 500, 100, 200, 300, 400, 1000 },
	};
	struct env e;
	struct tp_node_stats s;
	u64 tally[TP_NR_VERDICTS], cand, nrl, decided, nr, now;
	const struct tp_node_mem *m;
	int run, k, v;

	(void)state;
	for (run = 0; run < 40; run++) {
		env_preset(&e, run & 1);
		e.cfg.rate_limit_mbps = (u32)rnd_range(0, 4);
		e.cfg.scan_period_max_ms = (u32)rnd_range(1, 500);
		e.cfg.mode = (u32)rnd_range(0, 9) ? TP_MODE_TIERING :
						     TP_MODE_NORMAL;
		e.cfg.limiter_variant = (u32)rnd_range(0, 2);
		/* the bucket takes no per-fault rate: an error otherwise */
		if (e.cfg.limiter_variant == TP_LIMITER_BUCKET)
			e.cfg.flags &= ~TP_POL_RL_WMARK_DEFAULT;
		e.cfg.cand_batch = (u32)rnd_range(0, 40);
		if (run & 2)
			e.cfg.flags &= ~(TP_POL_FREE_BYPASS |
					 TP_POL_BYPASS_RESET);
		env_init(&e, 0);
		memset(tally, 0, sizeof(tally));
		cand = 0;
		nrl = 0;
		decided = 0;
		now = 0;
		for (k = 0; k < 20000; k++) {
			m = &mems[rnd_range(0, 4)];
			nr = rnd_range(0, 4) ? 1 : 512;
			now += rnd_range(0, 20);
			v = decide(&e, rnd_range(0, 9) ?
				   rnd_range(0, 3000) : TP_LATENCY_UNKNOWN,
				   nr, (u32)rnd() & 0x7 &
				   (rnd_range(0, 20) ? ~TP_FAULT_TOPTIER : ~0U),
				   m, now);
			assert_in_range(v, 0, TP_NR_VERDICTS - 1);
			tally[v] += nr;
			decided += nr;
			if (v == TP_PROMOTE_NRL ||
			    (v == TP_REFUSE_NOSPACE &&
			     (e.cfg.flags & TP_POL_FREE_BYPASS) &&
			     tp_free_space_enough(&e.pol, m)))
				nrl += nr;
			else if (v == TP_PROMOTE || v == TP_REFUSE_RATELIMIT ||
				 v == TP_REFUSE_NOSPACE)
				cand += nr;
			/* invalid calls are counted nowhere */
			if (!rnd_range(0, 50))
				assert_int_equal(decide(&e, 1, 0, 0, m, now),
						 -EINVAL);
		}
		s = stats(&e);
		assert_int_equal(s.decided, decided);
		for (v = 0; v < TP_NR_VERDICTS; v++)
			assert_int_equal(s.verdict[v], tally[v]);
		assert_int_equal(s.candidate, cand);
		assert_int_equal(s.candidate_nrl, nrl);
		assert_int_equal(s.nospace_nrl, nrl - tally[TP_PROMOTE_NRL]);
		assert_int_equal(s.success,
				 tally[TP_PROMOTE] + tally[TP_PROMOTE_NRL]);
		assert_int_equal(tally[TP_REFUSE_BUSY], 0);
		/* one slot: the shared count lags by less than a batch */
		assert_true(s.cand_shared <= cand);
		assert_true(cand - s.cand_shared <
			    (e.cfg.cand_batch ? e.cfg.cand_batch : 1));
	}
}

/*
 * A slot's counters as policy.h defines them: pages per verdict, then the
 * bypass refusals for room and the candidates refused as busy after the
 * hotness check. tp_node_stats_add() shows a busy candidate both as a
 * %TP_REFUSE_BUSY verdict and as a candidate; a busy refusal before the
 * check is not a candidate. The slot's private counters are set directly:
 * one thread cannot make tp_decide() busy.
 */
static void test_stats_add_busy_candidates(void **state)
{
	static struct tp_node_cpu cpu;
	struct tp_node_stats s;

	(void)state;
	cpu.nr[TP_PROMOTE].v = 1;
	cpu.nr[TP_PROMOTE_NRL].v = 7;
	cpu.nr[TP_REFUSE_RATELIMIT].v = 11;
	cpu.nr[TP_REFUSE_NOSPACE].v = 5;
	cpu.nr[TP_REFUSE_BUSY].v = 4;
	cpu.nr[TP_NODE_NOSPACE_NRL].v = 2;
	cpu.nr[TP_NODE_BUSY_CAND].v = 3;
	memset(&s, 0, sizeof(s));
	tp_node_stats_add(&s, &cpu);
	assert_int_equal(s.verdict[TP_REFUSE_BUSY], 4 + 3);
	assert_int_equal(s.verdict[TP_REFUSE_NOSPACE], 5 + 2);
	assert_int_equal(s.nospace_nrl, 2);
	assert_int_equal(s.candidate, 1 + 11 + 5 + 3);
	assert_int_equal(s.candidate_nrl, 7 + 2);
	assert_int_equal(s.success, 1 + 7);
	assert_int_equal(s.decided, 1 + 7 + 11 + 5 + 4 + 2 + 3);

	/* only the promotion and the busy candidates */
	memset(&cpu, 0, sizeof(cpu));
	cpu.nr[TP_PROMOTE].v = 1;
	cpu.nr[TP_NODE_BUSY_CAND].v = 3;
	memset(&s, 0, sizeof(s));
	tp_node_stats_add(&s, &cpu);
	assert_int_equal(s.verdict[TP_REFUSE_BUSY], 3);
	assert_int_equal(s.candidate, 4);
	assert_int_equal(s.decided, 4);
	assert_int_equal(s.success, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stats_add_up_random),
		cmocka_unit_test(test_stats_add_busy_candidates),
	};

	return cmocka_run_group_tests_name("policy_stats", tests, NULL, NULL);
}
