/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * What the CMocka suites of the decision pipeline share (test_policy.c,
 * test_policy_tune.c, test_wmark.c): a reproducible random source, a policy
 * with one node and one slot set up from a preset, checked snapshots, and
 * two target nodes' memory. Userspace only (CMocka, libc).
 */
#ifndef TP_TESTS_POLICY_ENV_H
#define TP_TESTS_POLICY_ENV_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include <tierpol/tierpol.h>
#include "selftest/selftest.h"

/* The random sequence these suites were written with. */
#define TP_TEST_RNG_SEED	0x2545f4914f6cdd1dULL
#include "tp_test_util.h"

/*
 * A policy, one node and the slot of the one thread deciding, set up from a
 * preset at 1000 ticks/s. The candidate batch is 1, so that the window
 * limiters and the threshold controller see every candidate at once and
 * the scenarios below have exact answers; the batch's lag has its own
 * tests (selftest/policy.h, test_policy_mt.c).
 */
struct env {
	struct tp_policy_cfg cfg;
	struct tp_policy pol;
	struct tp_node node;
	struct tp_node_cpu cpu;
};

static inline void env_preset(struct env *e, u32 preset)
{
	/* padding too: the tests compare whole objects */
	memset(e, 0, sizeof(*e));
	assert_int_equal(tp_policy_preset(&e->cfg, preset, 1000), 0);
	e->cfg.cand_batch = 1;
}

static inline void env_init(struct env *e, u64 now)
{
	assert_int_equal(tp_policy_init(&e->pol, &e->cfg), 0);
	assert_int_equal(tp_node_init(&e->node, &e->pol, now), 0);
	memset(&e->cpu, 0, sizeof(e->cpu));
}

/* Publish e->cfg on the live policy. */
static inline void env_tune(struct env *e)
{
	assert_int_equal(tp_policy_tune(&e->pol, &e->cfg), 0);
}

/*
 * A snapshot of the node and its slot; every snapshot is checked for what
 * holds of any: decided is the sum of the verdicts, the candidates are the
 * hot promotions, rate-limit refusals, refusals for room off the bypass
 * and (at most) the busy refusals, nothing is negative.
 */
static inline struct tp_node_stats stats(const struct env *e)
{
	struct tp_node_stats s;
	u64 sum = 0, hot;
	int v;

	memset(&s, 0xa5, sizeof(s));
	tp_node_stats_read(&e->pol, &e->node, &s);
	tp_node_stats_add(&s, &e->cpu);
	for (v = 0; v < TP_NR_VERDICTS; v++)
		sum += s.verdict[v];
	assert_true(s.decided == sum);
	assert_true(s.nospace_nrl <= s.verdict[TP_REFUSE_NOSPACE]);
	hot = s.verdict[TP_PROMOTE] + s.verdict[TP_REFUSE_RATELIMIT] +
	      s.verdict[TP_REFUSE_NOSPACE] - s.nospace_nrl;
	assert_true(s.candidate >= hot);
	assert_true(s.candidate - hot <= s.verdict[TP_REFUSE_BUSY]);
	assert_true(s.candidate_nrl ==
		    s.verdict[TP_PROMOTE_NRL] + s.nospace_nrl);
	assert_true(s.success ==
		    s.verdict[TP_PROMOTE] + s.verdict[TP_PROMOTE_NRL]);
	assert_true(s.cand_shared <= s.candidate);
	return s;
}

static inline int decide(struct env *e, u64 latency, u64 nr, u32 flags,
		  const struct tp_node_mem *mem, u64 now)
{
	struct tp_fault f = { .latency = latency, .nr_pages = nr,
			      .flags = flags };

	return tp_decide(&e->pol, &e->node, &e->cpu, &f, mem, now);
}

/*
 * Room for a page (free > high + 1), and no free-space bypass for either
 * preset at any rate of 1 MB/s or more (RFC mark: high + 2 x 256 pages).
 */
static const struct tp_node_mem mem_busy __attribute__((__unused__)) = {
	.free = 10400, .wmark_min = 2500, .wmark_low = 5000,
	.wmark_high = 10000, .wmark_promo = 12000, .present = 1000000,
};

/* The bypass applies for both presets (at rates up to 100 MB/s). */
static const struct tp_node_mem mem_idle __attribute__((__unused__)) = {
	.free = 1000000, .wmark_min = 2500, .wmark_low = 5000,
	.wmark_high = 10000, .wmark_promo = 12000, .present = 1000000,
};

#endif /* TP_TESTS_POLICY_ENV_H */
