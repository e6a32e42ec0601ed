// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * tiersim's allocation, watermarks and LRU: first-touch spill at the low
 * watermark, the --init-fast limit, watermarks computed in order and bad
 * ones refused, and 6.1's PG_referenced through the two lists. kswapd is
 * tested in test_tiersim_kswapd.c.
 *
 * It links the simulator's objects (examples/tiersim/tiersim.mk), which
 * each build of the tests compiles with its own flags, so those builds
 * cover them too: gcc's ASan and UBSan, valgrind, TP_DEBUG, 32-bit.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "../examples/tiersim/sim_int.h"
#include "tiersim_test.h"

/* ---- allocation and watermarks ------------------------------------------ */

static void test_alloc_spill_at_low_wmark(void **state)
{
	struct setup s;
	struct sim_policy p;
	struct sim_result *r = calloc(1, sizeof(*r));
	char err[SIM_ERRLEN];

	(void)state;
	assert_non_null(r);
	small_setup(&s, WL_UNIFORM, 4096, 1000, 1024);
	s.cfg.wmark[0] = 10;
	s.cfg.wmark[1] = 20;
	s.cfg.wmark[2] = 30;
	s.cfg.wmark[3] = 40;
	assert_int_equal(sim_validate(&s.cfg, &s.src, err, sizeof(err)), 0);
	policy(&p, "none", &s.cfg);
	assert_int_equal(sim_run(&s.cfg, &p, &s.src, r, NULL), 0);
	/* First touch fills the fast tier down to its low watermark. */
	assert_int_equal(r->alloc_fast, 1024 - 20);
	assert_int_equal(r->alloc_slow, 4096 - (1024 - 20));
	assert_int_equal(r->fast_used_end, 1024 - 20);
	assert_int_equal(r->promotions + r->demotions + r->hint_faults, 0);
	sim_result_free(r);
	free(r);
	small_free(&s);
}

/*
 * 6.1's PG_referenced (folio_check_references(), shrink_active_list()):
 * set on a young page at the inactive tail, kept through activation and
 * deactivation, so a deactivated page found young again at the inactive
 * tail is activated at once, not kept for a second look.
 */
static u8 lru_flags(const struct sim *s, u64 u)
{
	return s->flags[u] & (PF_ACTIVE | PF_REFD);
}

static u64 lru_tail_unit(const struct sim *s, int l)
{
	assert_true(s->ltail[l] != NO_SLOT);
	return s->fslot[s->ltail[l]];
}

static void test_lru_referenced(void **state)
{
	struct setup st;
	struct sim_policy p;
	struct sim_result *r = calloc(1, sizeof(*r));
	struct sim s;
	u64 a, b;

	(void)state;
	assert_non_null(r);
	small_setup(&st, WL_UNIFORM, 4096, 1000, 1024);
	st.cfg.lru_two_list = 1;
	st.cfg.costs.reclaim_ns = 0;	/* no pick stops for kswapd's clock */
	policy(&p, "mainline", &st.cfg);
	sim_begin(&s, &st, &p, r);
	assert_true(s.lru);
	alloc_unit(&s, 0);
	alloc_unit(&s, 1);
	s.flags[0] &= (u8)~PF_YOUNG;
	s.flags[1] &= (u8)~PF_YOUNG;
	a = lru_tail_unit(&s, 0);	/* the older of the two */
	b = a ? 0 : 1;
	assert_int_equal(lru_flags(&s, a), 0);

	/* Young without PG_referenced: kept, the flag set. */
	s.flags[a] |= PF_YOUNG;
	s.clock_tries = 1;
	assert_true(lru_pick(&s) == CLOCK_NONE);
	assert_int_equal(lru_flags(&s, a), PF_REFD);
	assert_int_equal(lru_tail_unit(&s, 0), b);

	/* b kept the same way; a, young again with the flag: activated. */
	s.flags[a] |= PF_YOUNG;
	s.flags[b] |= PF_YOUNG;
	s.clock_tries = 2;
	assert_true(lru_pick(&s) == CLOCK_NONE);
	assert_int_equal(lru_flags(&s, b), PF_REFD);
	assert_int_equal(lru_flags(&s, a), PF_ACTIVE | PF_REFD);
	assert_int_equal(s.lcount[0], 1);
	assert_int_equal(s.lcount[1], 1);

	/* b activated too; then the inactive list is low. */
	s.flags[b] |= PF_YOUNG;
	s.clock_tries = 1;
	assert_true(lru_pick(&s) == CLOCK_NONE);
	assert_int_equal(lru_flags(&s, b), PF_ACTIVE | PF_REFD);
	assert_int_equal(s.lcount[0], 0);

	/* Deactivated (the active tail, a): young bit cleared, flag kept. */
	s.flags[a] |= PF_YOUNG;
	s.clock_tries = 1;
	assert_true(lru_pick(&s) == CLOCK_NONE);
	assert_int_equal(lru_flags(&s, a), PF_REFD);
	assert_false(s.flags[a] & PF_YOUNG);
	assert_int_equal(lru_tail_unit(&s, 0), a);

	/* Young again at the inactive tail: activated at once. */
	s.flags[a] |= PF_YOUNG;
	s.clock_tries = 1;
	assert_true(lru_pick(&s) == CLOCK_NONE);
	assert_int_equal(lru_flags(&s, a), PF_ACTIVE | PF_REFD);
	assert_int_equal(s.lcount[1], 2);

	/* Old at the inactive tail, flag or not: the one to demote. */
	s.clock_tries = 1;
	assert_true(lru_pick(&s) == CLOCK_NONE);	/* deactivates b */
	assert_int_equal(lru_flags(&s, b), PF_REFD);
	s.clock_tries = 1;
	assert_true(lru_pick(&s) == s.ltail[0]);
	assert_int_equal(lru_tail_unit(&s, 0), b);

	sim_teardown(&s);
	sim_result_free(r);
	free(r);
	small_free(&st);
}

static void test_alloc_init_fast_limit(void **state)
{
	struct setup s;
	struct sim_policy p;
	struct sim_result *r = calloc(1, sizeof(*r));
	char err[SIM_ERRLEN];

	(void)state;
	assert_non_null(r);
	small_setup(&s, WL_UNIFORM, 4096, 1000, 2048);
	s.cfg.init_fast = 0.25;
	assert_int_equal(sim_validate(&s.cfg, &s.src, err, sizeof(err)), 0);
	policy(&p, "none", &s.cfg);
	assert_int_equal(sim_run(&s.cfg, &p, &s.src, r, NULL), 0);
	assert_int_equal(r->alloc_fast, 1024);
	sim_result_free(r);
	free(r);
	small_free(&s);
}

static void test_wmarks_computed_in_order(void **state)
{
	u64 w[4];

	(void)state;
	sim_wmarks(262144, 1048576, w);
	assert_true(w[0] > 0);
	assert_true(w[0] <= w[1] && w[1] <= w[2] && w[2] <= w[3]);
	/* The gap is max(min / 4, managed / 1000). */
	assert_int_equal(w[1] - w[0], 262);
	assert_int_equal(w[3], tp_wmark_promo(w[0], w[2], 262144, 10));
}

static void test_validate_refuses(void **state)
{
	struct setup s;
	char err[SIM_ERRLEN];
	struct sim_cfg c;

	(void)state;
	small_setup(&s, WL_UNIFORM, 4096, 1000, 1024);

	c = s.cfg;
	c.wmark[0] = 10;
	c.wmark[1] = 30;
	c.wmark[2] = 20;
	c.wmark[3] = 40;
	assert_int_equal(sim_validate(&c, &s.src, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "out of order"));

	c = s.cfg;
	c.fast_pages = 0;
	assert_int_equal(sim_validate(&c, &s.src, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "zero capacity"));

	c = s.cfg;
	c.fast_pages = 8192;
	assert_int_equal(sim_validate(&c, &s.src, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "needs memory pressure"));
	c.allow_no_pressure = 1;
	memset(c.wmark, 0, sizeof(c.wmark));
	assert_int_equal(sim_validate(&c, &s.src, err, sizeof(err)), 0);

	c = s.cfg;
	c.slow_pages = 100;
	assert_int_equal(sim_validate(&c, &s.src, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "does not fit"));

	c = s.cfg;
	c.wmark[0] = 10;
	c.wmark[1] = 20;
	c.wmark[2] = 30;
	c.wmark[3] = 2000;
	assert_int_equal(sim_validate(&c, &s.src, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "promo watermark"));
	small_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_alloc_spill_at_low_wmark),
		cmocka_unit_test(test_lru_referenced),
		cmocka_unit_test(test_alloc_init_fast_limit),
		cmocka_unit_test(test_wmarks_computed_in_order),
		cmocka_unit_test(test_validate_refuses),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
