// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * tiersim's DAMON-based tiering (sim_damon.c, policy "damon"): the regions'
 * merge, age and split, the hotness score, the intervals' tune, the young
 * filter and what reclaim sees of it, both schemes' actions under their
 * quota and the fast node's watermarks, the spec's refusals, and an end-to-end
 * run checked against the model's invariants.
 *
 * It links the simulator's objects, as test_tiersim.c does.
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
#include "../examples/tiersim/sim_damon.h"
#include "tiersim_test.h"

/* ---- regions ------------------------------------------------------------- */

static struct kd_region reg_buf[3 * DAMON_MAX_REGIONS];

static void kd_local(struct sim_kdamond *kd, u64 frames)
{
	memset(kd, 0, sizeof(*kd));
	memset(reg_buf, 0, sizeof(reg_buf));
	kd->reg = reg_buf;
	kd->frames = frames;
	kd->reg[0].end = frames;
	kd->nr = 1;
	kd->sample_ns = DAMON_SAMPLE_MIN_NS;
	kd->rng = 1;
}

static void set_reg(struct sim_kdamond *kd, u32 i, u64 start, u64 end,
		    u32 nr, u32 last_nr, u32 age)
{
	kd->reg[i] = (struct kd_region){ .start = start, .end = end,
					 .sample = start, .nr = nr,
					 .last_nr = last_nr, .age = age };
}

/* The regions cover [0, frames) in order, none empty. */
static void check_cover(const struct sim_kdamond *kd)
{
	u64 at = 0;
	u32 i;

	assert_true(kd->nr >= 1 && kd->nr <= DAMON_MAX_REGIONS);
	for (i = 0; i < kd->nr; i++) {
		assert_int_equal(kd->reg[i].start, at);
		assert_true(kd->reg[i].end > kd->reg[i].start);
		assert_true(kd->reg[i].sample >= kd->reg[i].start &&
			    kd->reg[i].sample < kd->reg[i].end);
		at = kd->reg[i].end;
	}
	assert_int_equal(at, kd->frames);
}

/* Apply @kd's scheme to the end, the threads' time well ahead. */
static void apply(struct sim *s, struct sim_kdamond *kd)
{
	s->now = kd->clock + 10000 * SIM_NS_PER_MS;
	kd_apply_begin(s, kd);
	kd_apply_some(s, kd);
	assert_false(kd->applying);
}

static void test_merge(void **state)
{
	struct sim_kdamond kd;

	(void)state;
	kd_local(&kd, 40);
	set_reg(&kd, 0, 0, 10, 5, 5, 3);	/* held: age 4 */
	set_reg(&kd, 1, 10, 20, 6, 0, 3);	/* moved by 6: age 0 */
	set_reg(&kd, 2, 20, 30, 12, 12, 3);
	set_reg(&kd, 3, 30, 40, 0, 0, 3);
	kd.nr = 4;
	kd_merge(&kd, 2, 100, 1);
	/* 0 and 1 differ by 1 <= 2: one region, size-weighted count and age */
	assert_int_equal(kd.nr, 3);
	assert_int_equal(kd.reg[0].end, 20);
	assert_int_equal(kd.reg[0].nr, 5);	/* (5 x 10 + 6 x 10) / 20 */
	assert_int_equal(kd.reg[0].age, 2);	/* (4 x 10 + 0 x 10) / 20 */
	assert_int_equal(kd.reg[1].nr, 12);
	assert_int_equal(kd.reg[1].age, 4);
	assert_int_equal(kd.reg[2].age, 4);
	check_cover(&kd);

	/* The size limit keeps neighbours apart however alike. */
	kd_local(&kd, 40);
	set_reg(&kd, 0, 0, 10, 5, 5, 3);
	set_reg(&kd, 1, 10, 40, 5, 5, 3);
	kd.nr = 2;
	kd_merge(&kd, 2, 39, 1);
	assert_int_equal(kd.nr, 2);
	kd_merge(&kd, 2, 40, 0);
	assert_int_equal(kd.nr, 1);
	assert_int_equal(kd.reg[0].age, 4);	/* aged once, not twice */

	/* A count that went from none to some resets the age. */
	kd_local(&kd, 10);
	set_reg(&kd, 0, 0, 10, 1, 0, 7);
	kd_merge(&kd, 2, 10, 1);
	assert_int_equal(kd.reg[0].age, 0);

	/*
	 * kd_merge_all(): the threshold is a tenth of the largest count
	 * (here 0: only equal counts merge)...
	 */
	kd_local(&kd, 100);
	set_reg(&kd, 0, 0, 3, 1, 1, 0);
	set_reg(&kd, 1, 3, 6, 0, 0, 0);
	set_reg(&kd, 2, 6, 9, 0, 0, 0);
	set_reg(&kd, 3, 9, 100, 0, 0, 0);
	kd.nr = 4;
	kd_merge_all(&kd);
	assert_int_equal(kd.nr, 3);
	assert_int_equal(kd.reg[1].start, 3);
	assert_int_equal(kd.reg[1].end, 9);
	check_cover(&kd);
	/* ...and the limit is a tenth of the frames. */
	kd_local(&kd, 100);
	set_reg(&kd, 0, 0, 5, 3, 3, 0);
	set_reg(&kd, 1, 5, 10, 3, 3, 0);
	set_reg(&kd, 2, 10, 20, 3, 3, 0);
	kd.nr = 3;
	set_reg(&kd, 3, 20, 100, 20, 20, 0);
	kd.nr = 4;
	kd_merge_all(&kd);
	assert_int_equal(kd.nr, 3);
	assert_int_equal(kd.reg[0].end, 10);
	check_cover(&kd);
}

static void test_split(void **state)
{
	struct sim_kdamond kd;
	u32 i, k, before;

	(void)state;
	kd_local(&kd, 1000);
	kd_split(&kd);
	assert_int_equal(kd.nr, 2);
	check_cover(&kd);
	kd_split(&kd);
	assert_int_equal(kd.nr, 4);
	/* The count stalled (a merge undid the split): three pieces. */
	kd.split_nr = kd.nr;
	kd_split(&kd);
	assert_int_equal(kd.nr, 12);
	check_cover(&kd);
	/* Above half the maximum: no split. */
	kd_local(&kd, 100000);
	for (i = 0; i < 600; i++)
		set_reg(&kd, i, i * 100ULL, i * 100ULL + 100, 0, 0, 0);
	kd.reg[599].end = 100000;
	kd.nr = 600;
	kd_split(&kd);
	assert_int_equal(kd.nr, 600);
	/* A one-frame region cannot split. */
	kd_local(&kd, 1);
	kd_split(&kd);
	assert_int_equal(kd.nr, 1);

	/*
	 * Many aggregations of made-up counts: the regions always cover the
	 * frames, never pass the maximum, and the pieces inherit the count.
	 */
	kd_local(&kd, 65536);
	for (k = 0; k < 300; k++) {
		for (i = 0; i < kd.nr; i++)
			kd.reg[i].nr = (u32)kd_rand(&kd,
						     DAMON_AGGR_SAMPLES + 1);
		kd_merge_all(&kd);
		check_cover(&kd);
		before = kd.nr;
		for (i = 0; i < kd.nr; i++) {
			kd.reg[i].last_nr = kd.reg[i].nr;
			kd.reg[i].nr = 0;
		}
		kd_split(&kd);
		check_cover(&kd);
		assert_true(kd.nr >= before && kd.nr <= 3 * before);
	}
}

static void test_score(void **state)
{
	struct sim_kdamond kd;
	struct kd_region r = { .start = 0, .end = 10 };
	u32 busy, some, idle, idle_old;

	(void)state;
	kd_local(&kd, 10);
	kd.promote = 1;
	r.nr = DAMON_AGGR_SAMPLES;
	busy = kd_score(&kd, &r);
	assert_int_equal(busy, 74);	/* (100 + 50) / 2 x 99 / 100 */
	r.nr = 2;
	some = kd_score(&kd, &r);
	r.nr = 0;
	idle = kd_score(&kd, &r);
	assert_int_equal(idle, 24);	/* (0 + 50) / 2 x 99 / 100 */
	r.age = 100;			/* 10 s at 100 ms: log2 4, colder */
	idle_old = kd_score(&kd, &r);
	assert_true(busy > some && some > idle && idle > idle_old);
	/* An accessed region's age makes it hotter. */
	r.nr = 2;
	assert_true(kd_score(&kd, &r) > some);
	/* The demotion scheme's score is the coldness. */
	kd.promote = 0;
	r.nr = 0;
	assert_int_equal(kd_score(&kd, &r), DAMON_MAX_SCORE - idle_old);
	r.age = 0;
	assert_int_equal(kd_score(&kd, &r), DAMON_MAX_SCORE - idle);
	/* Who is eligible: any access to promote, none to demote. */
	r.nr = 0;
	assert_true(kd_eligible(&kd, &r));
	kd.promote = 1;
	assert_false(kd_eligible(&kd, &r));
	r.nr = 1;
	assert_true(kd_eligible(&kd, &r));
}

static void test_tune(void **state)
{
	struct sim_kdamond kd;

	(void)state;
	kd_local(&kd, 100);
	/* No access seen: twice the interval. */
	kd_tune(&kd);
	assert_int_equal(kd.sample_ns, 2 * DAMON_SAMPLE_MIN_NS);
	/* 1 of 20 samples (5 %, 1.25 x the 4 % goal): 0.875 x. */
	kd.reg[0].nr = 1;
	kd.sample_ns = 8 * SIM_NS_PER_MS;
	kd_tune(&kd);
	assert_int_equal(kd.sample_ns, 7 * SIM_NS_PER_MS);
	/* Every sample: half, never below 5 ms. */
	kd.reg[0].nr = DAMON_AGGR_SAMPLES;
	kd_tune(&kd);
	assert_int_equal(kd.sample_ns, DAMON_SAMPLE_MIN_NS);
	/* Never above 10 s. */
	kd.reg[0].nr = 0;
	kd.sample_ns = 8000 * SIM_NS_PER_MS;
	kd_tune(&kd);
	assert_int_equal(kd.sample_ns, DAMON_SAMPLE_MAX_NS);
}

static void test_damos_step(void **state)
{
	(void)state;
	/* At the goal: unchanged. Below it: up by the distance's share. */
	assert_int_equal(damos_next(40000, 10000), 40000);
	assert_int_equal(damos_next(40000, 0), 80000);
	assert_int_equal(damos_next(40000, 7500), 50000);
	assert_int_equal(damos_next(40000, 9990), 40040);
	/* Above it: down by the share, never below the minimum input... */
	assert_int_equal(damos_next(40000, 15000), 20000);
	assert_int_equal(damos_next(12000, 19000), 10000);
	/* ...and at twice the goal or more, the minimum at once. */
	assert_int_equal(damos_next(UINT64_MAX / 2, 20000), 10000);
	assert_int_equal(damos_next(40000, UINT64_MAX), 10000);
	/* No overflow: the large branch, and saturation. */
	assert_int_equal(damos_next(UINT64_MAX / 2, 5000),
			 UINT64_MAX / 2 + UINT64_MAX / 2 / 10000 * 5000);
	assert_int_equal(damos_next(UINT64_MAX - 5, 0), UINT64_MAX);
}

static void test_quota(void **state)
{
	struct setup st;
	struct sim s;
	struct sim_policy p;
	struct sim_result r;
	struct sim_kdamond *kd;
	u64 q, i;

	(void)state;
	/* DAMOS's step: the quota in bytes x 10000 winds up past the cap. */
	part(&st, &s, &p, &r, 1, "damon:feedback=damos");
	kd = &s.kd[1];
	assert_int_equal(kd->esz, DAMON_QUOTA_PAGES);
	for (i = 0; i < 3; i++)
		assert_int_equal(kd_quota(&s, kd, 0), DAMON_QUOTA_PAGES);
	assert_int_equal(kd->esz_bp, DAMON_QUOTA_PAGES * 4096 * 10000 * 8);
	/* At twice the goal: one byte, no page. */
	assert_int_equal(kd_quota(&s, kd, 2 * DAMON_USED_GOAL_BP), 0);
	assert_int_equal(kd->esz_bp, 10000);
	/* From one byte, near the goal, it stays under a page. */
	for (i = 0; i < 30; i++)
		assert_int_equal(kd_quota(&s, kd, DAMON_USED_GOAL_BP - 10), 0);
	part_teardown(&st, &s);

	/* tierpol's controller halves instead, within [1 page, the cap]. */
	part(&st, &s, &p, &r, 1, "damon");
	kd = &s.kd[0];
	q = kd_quota(&s, kd, 4 * DAMON_FREE_GOAL_BP);
	assert_int_equal(q, DAMON_QUOTA_PAGES / 2);
	assert_int_equal(kd_quota(&s, kd, 0), DAMON_QUOTA_PAGES);
	part_teardown(&st, &s);

	/* quota-start=min: nothing applied until the quota passes a page. */
	part(&st, &s, &p, &r, 1, "damon:feedback=damos:quota-start=min");
	kd = &s.kd[1];
	assert_int_equal(kd->esz, 0);
	assert_int_equal(kd->esz_bp, 0);
	set_reg(kd, 0, 0, 4096, 5, 5, 0);
	kd->nr = 1;
	apply(&s, kd);
	assert_int_equal(r.damon_tried[1], 0);
	assert_int_equal(r.promotions, 0);
	part_teardown(&st, &s);
	part(&st, &s, &p, &r, 1, "damon:quota-start=min");
	assert_int_equal(s.kd[0].esz, 0);
	assert_int_equal(tp_goal_get(&s.kd[0].quota), 1);
	part_teardown(&st, &s);
}

/* ---- the young filter and reclaim ---------------------------------------- */

static void test_young(void **state)
{
	struct setup st;
	struct sim s;
	struct sim_policy p;
	struct sim_result r;
	u64 u = 2000;			/* a slow-tier page */

	(void)state;
	part(&st, &s, &p, &r, 1, "damon");
	assert_non_null(s.kd);
	assert_non_null(s.pgx);
	/* Never checked: not idle, so young. */
	s.flags[u] &= (u8)~PF_YOUNG;
	assert_true(kd_young(&s, u));
	kd_mkold(&s, u);
	assert_false(kd_young(&s, u));
	/* An access sets the accessed bit: young again. */
	s.flags[u] |= PF_YOUNG;
	assert_true(kd_young(&s, u));
	/* Made old: the bit is kept for reclaim in PG_young. */
	kd_mkold(&s, u);
	assert_false(s.flags[u] & PF_YOUNG);
	assert_int_equal(s.pgx[u], PGX_YOUNG | PGX_IDLE);
	assert_false(kd_young(&s, u));
	/* Reclaim sees it referenced and clears PG_idle: DAMON sees it too. */
	assert_true(page_referenced(&s, u));
	assert_int_equal(s.pgx[u], 0);
	assert_true(kd_young(&s, u));
	/* Old and not accessed since: reclaim sees nothing, PG_idle stays. */
	kd_mkold(&s, u);
	assert_false(page_referenced(&s, u));
	assert_int_equal(s.pgx[u], PGX_IDLE);
	part_teardown(&st, &s);
}

/* ---- the schemes --------------------------------------------------------- */

/* Every page old and idle, as after a while of sampling. */
static void all_old(struct sim *s)
{
	u64 u;

	for (u = 0; u < s->nr_units; u++) {
		s->flags[u] &= (u8)~PF_YOUNG;
		s->pgx[u] = PGX_IDLE;
	}
}

/*
 * The hand-built machine under "damon", every page old and idle (as after
 * a while of sampling), @room pages freed: the kdamond that promotes, or
 * the one that demotes.
 */
static struct sim_kdamond *damon_part(struct setup *st, struct sim *s,
				      struct sim_policy *p,
				      struct sim_result *r, int promote,
				      u64 room)
{
	part(st, s, p, r, 1, "damon");
	all_old(s);
	if (room)
		make_room(s, room);
	return &s->kd[promote];
}

static void test_promote(void **state)
{
	struct tp_goal_cfg gc = { .sz = sizeof(gc), .goal = 9970, .min = 1,
				  .max = 1024, .init = 1024 };
	struct setup st;
	struct sim s;
	struct sim_policy p;
	struct sim_result r;
	struct sim_kdamond *kd;
	u64 t0, u;

	(void)state;
	kd = damon_part(&st, &s, &p, &r, 1, 100);	/* 120 pages free */
	t0 = kd->clock;
	set_reg(kd, 0, 0, 2048, 0, 0, 0);
	set_reg(kd, 1, 2048, 4096, 5, 5, 0);
	kd->nr = 2;
	for (u = 3000; u < 3010; u++)
		s.flags[u] |= PF_YOUNG;
	s.flags[1500] |= PF_YOUNG;	/* in a region with no access */
	apply(&s, kd);
	assert_int_equal(r.promotions, 10);
	for (u = 3000; u < 3010; u++) {
		assert_true(s.flags[u] & PF_FAST);
		assert_true(s.pgx[u] & PGX_YOUNG);	/* made old */
	}
	assert_false(s.flags[1500] & PF_FAST);
	assert_true(s.flags[1500] & PF_YOUNG);		/* never looked at */
	assert_int_equal(r.damon_tried[1], 2048);	/* the region's size */
	assert_true(kd->clock > t0);			/* its own time */
	assert_false(s.kswapd_awake);			/* 110 free */
	part_teardown(&st, &s);

	/* The quota: 1024 frames of the accessed region, not its young tail */
	kd = damon_part(&st, &s, &p, &r, 1, 100);
	assert_int_equal(tp_goal_init(&kd->quota, &gc), 0);
	set_reg(kd, 0, 2048, 4096, 5, 5, 0);
	kd->nr = 1;
	s.flags[2050] |= PF_YOUNG;
	s.flags[3500] |= PF_YOUNG;
	apply(&s, kd);
	assert_int_equal(r.promotions, 1);
	assert_true(s.flags[2050] & PF_FAST);
	assert_false(s.flags[3500] & PF_FAST);
	assert_int_equal(r.damon_tried[1], 1024);
	part_teardown(&st, &s);

	/*
	 * The priority: of two accessed regions the quota takes the busier,
	 * though it comes later.
	 */
	kd = damon_part(&st, &s, &p, &r, 1, 100);
	assert_int_equal(tp_goal_init(&kd->quota, &gc), 0);
	set_reg(kd, 0, 1024, 2048, 1, 1, 0);
	set_reg(kd, 1, 2048, 3072, 20, 20, 0);
	kd->nr = 2;
	s.flags[1100] |= PF_YOUNG;
	s.flags[2100] |= PF_YOUNG;
	apply(&s, kd);
	assert_false(s.flags[1100] & PF_FAST);
	assert_true(s.flags[2100] & PF_FAST);
	assert_int_equal(r.damon_tried[1], 1024);
	part_teardown(&st, &s);

	/*
	 * No reclaim: with 20 pages free and the min watermark at 10, ten
	 * migrate; below the low watermark kswapd is woken.
	 */
	kd = damon_part(&st, &s, &p, &r, 1, 0);
	set_reg(kd, 0, 0, 4096, 5, 5, 0);
	kd->nr = 1;
	for (u = 3000; u < 3020; u++)
		s.flags[u] |= PF_YOUNG;
	apply(&s, kd);
	assert_int_equal(r.promotions, 10);
	assert_int_equal(fast_free_pages(&s), 10);
	assert_true(s.kswapd_awake);
	part_teardown(&st, &s);
}

/*
 * The kdamond never works ahead of the threads: with their time at its
 * clock it stops after a migration and resumes as their time goes on,
 * to the same end.
 */
static void test_apply_pauses(void **state)
{
	struct setup st;
	struct sim s;
	struct sim_policy p;
	struct sim_result r;
	struct sim_kdamond *kd;
	u32 calls = 0;
	u64 u;

	(void)state;
	kd = damon_part(&st, &s, &p, &r, 1, 100);
	set_reg(kd, 0, 2048, 4096, 5, 5, 0);
	kd->nr = 1;
	for (u = 3000; u < 3010; u++)
		s.flags[u] |= PF_YOUNG;
	s.now = kd->clock;
	kd_apply_begin(&s, kd);
	while (kd->applying) {
		kd_apply_some(&s, kd);
		assert_true(!kd->applying || kd->clock > s.now);
		assert_true(r.promotions <= calls + 1);
		s.now = kd->clock;
		calls++;
	}
	assert_true(calls > 1);
	assert_int_equal(r.promotions, 10);
	assert_int_equal(r.damon_tried[1], 2048);
	part_teardown(&st, &s);
}

/*
 * A promotion of a --scale unit short of room wakes kswapd for the unit.
 * Units of 16 pages on 1024 fast-tier frames, watermarks 20/24/28/30:
 * first touch stops at 32 free pages (one unit more would take the node
 * below low + a unit), above the high watermark, which is kswapd's target
 * for damon, but below min + a unit, the room a promotion needs. Woken at
 * order 0, kswapd found the node balanced and demoted nothing, and no
 * unit was ever promoted again; woken for the unit, it demotes until one
 * fits (above high + a unit: 48 free) and the next application promotes
 * it.
 */
static void test_promote_unit_room(void **state)
{
	static const u64 wm[4] = { 20, 24, 28, 30 };
	struct setup st;
	struct sim s;
	struct sim_policy p;
	struct sim_result r;
	struct sim_kdamond *kd;
	char err[SIM_ERRLEN];
	int i;
	u64 u;

	(void)state;
	small_setup(&st, WL_UNIFORM, 4096, 1000, 1024);
	memcpy(st.cfg.wmark, wm, sizeof(wm));
	st.cfg.scale = 16;
	assert_int_equal(sim_validate(&st.cfg, &st.src, err, sizeof(err)), 0);
	policy(&p, "damon", &st.cfg);
	memset(&r, 0, sizeof(r));
	sim_begin(&s, &st, &p, &r);
	assert_int_equal(s.upages, 16);
	for (u = 0; u < s.nr_units; u++)
		alloc_unit(&s, u);
	assert_int_equal(fast_free_pages(&s), 32);
	assert_false(s.kswapd_awake);	/* no NUMA scanner: no wakeup */
	all_old(&s);
	kd = &s.kd[1];
	set_reg(kd, 0, 0, 4096, 5, 5, 0);
	kd->nr = 1;

	/* No room (32 < 20 + 16): nothing moves, kswapd is woken. */
	for (u = 3000; u < 3010; u++)
		s.flags[u] |= PF_YOUNG;
	apply(&s, kd);
	assert_int_equal(r.promotions, 0);
	assert_true(s.kswapd_awake);
	for (i = 0; s.kswapd_awake && i < 100; i++) {
		s.now += 1000 * SIM_NS_PER_MS;
		kswapd_run(&s);
	}
	assert_false(s.kswapd_awake);
	/* It demoted until a unit fits above high: one unit. */
	assert_int_equal(r.demotions, 16);
	assert_int_equal(fast_free_pages(&s), 48);

	/* The next application promotes one unit, and kswapd is woken again. */
	for (u = 3000; u < 3010; u++)
		s.flags[u] |= PF_YOUNG;
	apply(&s, kd);
	assert_int_equal(r.promotions, 16);
	assert_int_equal(fast_free_pages(&s), 32);
	assert_true(s.kswapd_awake);
	part_teardown(&st, &s);
}

static void test_demote(void **state)
{
	struct setup st;
	struct sim s;
	struct sim_policy p;
	struct sim_result r;
	struct sim_kdamond *kd;
	u64 sl, young = 0, kept = 0;

	(void)state;
	kd = damon_part(&st, &s, &p, &r, 0, 0);
	set_reg(kd, 0, 0, 512, 0, 0, 0);
	set_reg(kd, 1, 512, 1024, 3, 3, 0);
	kd->nr = 2;
	for (sl = 0; sl < 10; sl++)
		if (s.fslot[sl] != NO_SLOT) {
			s.flags[s.fslot[sl]] |= PF_YOUNG;
			young++;
		}
	for (sl = 0; sl < 512; sl++)
		if (s.fslot[sl] == NO_SLOT)
			kept++;		/* free frames: nothing to demote */
	apply(&s, kd);
	/* 2 % free, four times the 0.5 % goal: the quota halves */
	assert_int_equal(tp_goal_get(&kd->quota), DAMON_QUOTA_PAGES / 2);
	assert_int_equal(r.demotions, 512 - young - kept);
	assert_int_equal(r.damon_tried[0], 512);
	assert_int_equal(r.pingpong, 0);
	/* The young ones stay, made old; the busy region is untouched. */
	for (sl = 0; sl < 10; sl++)
		if (s.fslot[sl] != NO_SLOT)
			assert_true(s.pgx[s.fslot[sl]] & PGX_YOUNG);
	assert_int_equal(s.fused, 1004 - r.demotions);
	part_teardown(&st, &s);
}

/* ---- specs and a whole run ----------------------------------------------- */

static void test_specs(void **state)
{
	struct setup st;
	struct sim_policy p;

	(void)state;
	small_setup(&st, WL_UNIFORM, 4096, 1000, 1024);
	policy(&p, "damon", &st.cfg);
	assert_true(p.damon.on);
	assert_int_equal(p.damon.feedback, DAMON_FB_TIERPOL);
	assert_false(p.damon.start_min);
	assert_false(p.cfg.mode & TP_MODE_TIERING);
	assert_true(p.demote);
	policy(&p, "mainline", &st.cfg);
	assert_false(p.damon.on);
	assert_non_null(strstr(refused("damon:goal=used", &st.cfg),
			       "its own goals"));
	assert_non_null(strstr(refused("damon:record=byte", &st.cfg),
			       "hotness record"));
	assert_non_null(strstr(refused("damon:migrate=kmigrated", &st.cfg),
			       "kdamonds migrate"));
	assert_non_null(strstr(refused("damon:mode=2", &st.cfg),
			       "NUMA balancing off"));
	/* refused whatever the value: a default one would pass unseen */
	assert_non_null(strstr(refused("damon:target=5", &st.cfg),
			       "its own goals (target=)"));
	assert_non_null(strstr(refused("damon:goal-out=rate", &st.cfg),
			       "its own goals (goal-out=)"));
	assert_non_null(strstr(refused("damon:src=hint", &st.cfg),
			       "hotness record (src=)"));
	assert_non_null(strstr(refused("damon:migrate=fault", &st.cfg),
			       "kdamonds migrate (migrate=)"));
	policy(&p, "damon:demote=0", &st.cfg);	/* its kswapd demotes */
	assert_false(p.demote);
	policy(&p, "damon:feedback=damos:quota-start=min", &st.cfg);
	assert_int_equal(p.damon.feedback, DAMON_FB_DAMOS);
	assert_true(p.damon.start_min);
	assert_non_null(strstr(refused("damon:feedback=pid", &st.cfg),
			       "unknown value"));
	assert_non_null(strstr(refused("damon:quota-start=0", &st.cfg),
			       "unknown value"));
	assert_non_null(strstr(refused("mainline:feedback=damos", &st.cfg),
			       "base damon"));
	assert_non_null(strstr(refused("pghot:quota-start=min", &st.cfg),
			       "base damon"));
	small_free(&st);
}

static void test_run(void **state)
{
	static const u64 wm[4] = { 64, 128, 192, 256 };
	struct setup st;
	struct sim_policy p;
	struct sim_result r1, r2;
	u32 i;

	(void)state;
	/* A 1/16 scale model, so that the schemes run twice (2.7 s). */
	small_setup_threads(&st, WL_PHASE_SHIFT, 1 << 14, 3000000, 4096, 2);
	st.cfg.scale = 16;
	memcpy(st.cfg.wmark, wm, sizeof(wm));
	policy(&p, "damon", &st.cfg);
	assert_int_equal(sim_run(&st.cfg, &p, &st.src, &r1, NULL), 0);
	check_accounting(&st.src, &r1);
	assert_int_equal(r1.hint_faults, 0);
	assert_int_equal(r1.pte_updates, 0);
	assert_true(r1.promotions > 0);
	assert_true(r1.demotions > 0);
	assert_true(r1.t_kthread > 0);
	for (i = 0; i < 2; i++) {
		assert_true(r1.damon_regions[i] >= 1 &&
			    r1.damon_regions[i] <= DAMON_MAX_REGIONS);
		assert_true(r1.damon_sample_us[i] >= 5000 &&
			    r1.damon_sample_us[i] <= 10000000);
		assert_true(r1.damon_tried[i] > 0);
	}
	/*
	 * The promotion scheme's quota is the samples' rate, in MB/s of
	 * 2^20 bytes as every rate limit's: at most its 200 MiB/s cap, which
	 * it starts at (not 209, its bytes over 10^6).
	 */
	assert_int_equal(r1.sample[0].rate, 200);
	for (i = 0; i < r1.nr_samples; i++)
		assert_true(r1.sample[i].rate >= 1 &&
			    r1.sample[i].rate <= 200);
	assert_true(r1.rate_end <= 200);
	/* Deterministic: the same run again gives the same counts. */
	assert_int_equal(sim_run(&st.cfg, &p, &st.src, &r2, NULL), 0);
	assert_int_equal(r1.promotions, r2.promotions);
	assert_int_equal(r1.demotions, r2.demotions);
	assert_int_equal(r1.measured_time_ns, r2.measured_time_ns);
	sim_result_free(&r1);
	sim_result_free(&r2);
	/* DAMOS's own step: the same invariants, and it migrates. */
	policy(&p, "damon:feedback=damos", &st.cfg);
	assert_int_equal(sim_run(&st.cfg, &p, &st.src, &r1, NULL), 0);
	check_accounting(&st.src, &r1);
	assert_int_equal(r1.hint_faults, 0);
	assert_true(r1.damon_tried[0] + r1.damon_tried[1] > 0);
	sim_result_free(&r1);
	small_free(&st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_split),
		cmocka_unit_test(test_score),
		cmocka_unit_test(test_tune),
		cmocka_unit_test(test_damos_step),
		cmocka_unit_test(test_quota),
		cmocka_unit_test(test_young),
		cmocka_unit_test(test_promote),
		cmocka_unit_test(test_apply_pauses),
		cmocka_unit_test(test_promote_unit_room),
		cmocka_unit_test(test_demote),
		cmocka_unit_test(test_specs),
		cmocka_unit_test(test_run),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
