// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * tiersim's kswapd: 6.1's rounds (balance_pgdat()) against the simple
 * demoter, the cost of a demotion, kswapd woken for a folio making room
 * for it, the order each balance_pgdat() takes (pgdat->kswapd_order,
 * compact_gap()), a round's targets, kswapd after giving up, the
 * active list's aging around each round, and the TLB flush of its look at
 * a young 2 MiB folio.
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

/* ---- kswapd -------------------------------------------------------------- */

/* Tear down a test's run, its result and its setup. */
static void lru_node_free(struct setup *st, struct sim *s,
			  struct sim_result *r)
{
	sim_teardown(s);
	sim_result_free(r);
	free(r);
	small_free(st);
}

/*
 * kswapd on a fast tier filled by first touch (no page young): it demotes
 * from the free level the allocator stopped at (the low watermark) until
 * the demotion target (the promo watermark in mainline) is exceeded, from
 * 6.1's two lists or (@two_list 0) the CLOCK. Returns the free pages when
 * kswapd went back to sleep.
 */
static u64 kswapd_lru_case(int rounds, int two_list, u64 fast,
			   const u64 wm[4], u32 demote_ns, u64 *scanned,
			   u64 *busy_ns)
{
	struct setup st;
	struct sim_policy p;
	struct sim_result *r = calloc(1, sizeof(*r));
	struct sim s;
	char err[SIM_ERRLEN];
	u64 u, t0, free_end;

	assert_non_null(r);
	small_setup(&st, WL_UNIFORM, 2 * fast, 1000, fast);
	memcpy(st.cfg.wmark, wm, sizeof(st.cfg.wmark));
	st.cfg.lru_two_list = two_list;
	st.cfg.kswapd_rounds = rounds;
	st.cfg.costs.demote_ns = demote_ns;
	/* kswapd's time is its demotions' alone. */
	st.cfg.costs.reclaim_ns = 0;
	st.cfg.costs.tlb_ns = 0;
	st.cfg.costs.ipi_ns = 0;
	assert_int_equal(sim_validate(&st.cfg, &st.src, err, sizeof(err)), 0);
	policy(&p, "mainline", &st.cfg);
	sim_begin(&s, &st, &p, r);
	for (u = 0; u < 2 * fast; u++)
		alloc_unit(&s, u);
	assert_int_equal(fast_free_pages(&s), wm[1]);
	/* The first allocation on the slow tier woke kswapd. */
	assert_true(s.kswapd_awake);
	wake_kswapd(&s);
	t0 = s.kswapd_clock;
	s.now = 1000000 * SIM_NS_PER_MS;	/* kswapd is never ahead of it */
	kswapd_run(&s);
	assert_false(s.kswapd_awake);
	assert_int_equal(r->kswapd_wakeups, 1);
	assert_int_equal(r->demotions, fast_free_pages(&s) - wm[1]);
	*scanned = r->kswapd_scanned;
	*busy_ns = s.kswapd_clock - t0;
	free_end = fast_free_pages(&s);
	lru_node_free(&st, &s, r);
	return free_end;
}

static u64 kswapd_case(int rounds, u64 fast, const u64 wm[4],
		       u32 demote_ns, u64 *scanned, u64 *busy_ns)
{
	return kswapd_lru_case(rounds, 1, fast, wm, demote_ns, scanned,
			       busy_ns);
}

static void test_kswapd_simple_vs_rounds(void **state)
{
	static const u64 wm[4] = { 10, 20, 30, 40 };
	static const u64 wm_far[4] = { 10, 20, 30, 2000 };
	u64 scanned, busy;

	(void)state;
	/* simple: stops at the first page above the target. */
	assert_int_equal(kswapd_case(0, 4096, wm, 0, &scanned, &busy), 41);
	assert_int_equal(scanned, 21);
	/*
	 * rounds (6.1's balance_pgdat()): 4076 pages on the inactive list;
	 * rounds of 4076 >> 12 = 0, >> 11 = 1, >> 10 = 3, >> 9 = 7 pages,
	 * all of them while the free pages are at or below the high
	 * watermark (30: file_is_tiny), then 60/200 of them (SCAN_FRACT,
	 * rounded down): 4065 >> 8 = 15 -> 4, 4061 >> 7 = 31 -> 9. Each is
	 * under nr_to_reclaim (32), so the priority rises; the watermark is
	 * checked between rounds only: 20 -> 21 -> 24 -> 31 -> 35 -> 44,
	 * which overshoots the target (40) by 4.
	 */
	assert_int_equal(kswapd_case(1, 4096, wm, 0, &scanned, &busy), 44);
	assert_int_equal(scanned, 24);
	/*
	 * nr_to_reclaim caps a round: 65516 pages, a round of 15 (prio 12,
	 * all: 20 free), then 60/200: 31 -> 9 (prio 11), 63 -> 18 (prio
	 * 10), then at prio 9 (127 -> 38 to examine) each round stops after
	 * a batch of 32 demotions, examined 32 >= nr_to_reclaim so the
	 * priority stays: 20 + 15 + 9 + 18 = 62, then 61 rounds of 32 to
	 * pass 2000: 62 + 61 x 32 = 2014.
	 */
	assert_int_equal(kswapd_case(1, 65536, wm_far, 0, &scanned, &busy), 2014);
	assert_int_equal(scanned, 2014 - 20);
	/* simple reaches the same target one page at a time. */
	assert_int_equal(kswapd_case(0, 65536, wm_far, 0, &scanned, &busy), 2001);
}

/*
 * --lru clock --kswapd rounds: shrink_lruvec() checks nr_to_reclaim only
 * after each pass of SWAP_CLUSTER_MAX pages over the lists, so a round
 * demotes whole batches. Watermarks 10/20/40/2000 (nr_to_reclaim 40),
 * 65516 old pages: rounds of 65536 >> 12 = 16 and >> 11 = 32 slots, each
 * under nr_to_reclaim (the priority rises), then at priority 10 (64
 * slots) two batches of 32: 40 is passed in the second, which still
 * demotes all of its 32. 20 + 16 + 32 = 68, then 31 rounds of 64 to pass
 * 2000: 68 + 31 x 64 = 2052 (per page, a round stopped at 40: 2028).
 */
static void test_kswapd_clock_batches(void **state)
{
	static const u64 wm[4] = { 10, 20, 40, 2000 };
	u64 scanned, busy;

	(void)state;
	assert_int_equal(kswapd_lru_case(1, 0, 65536, wm, 0, &scanned, &busy),
			 2052);
	assert_int_equal(scanned, 2052 - 20);
}

static void test_kswapd_demote_cost(void **state)
{
	static const u64 wm[4] = { 10, 20, 30, 40 };
	struct sim_cfg c;
	u64 scanned, busy;

	(void)state;
	sim_cfg_defaults(&c);
	/* 21 demotions; no cost per look: kswapd's time is theirs. */
	assert_int_equal(kswapd_case(0, 4096, wm, 10000, &scanned, &busy), 41);
	assert_int_equal(busy, 21 * 10000);
	/* 0: a demotion costs what a promotion's migration does. */
	assert_int_equal(kswapd_case(0, 4096, wm, 0, &scanned, &busy), 41);
	assert_int_equal(busy, 21 * (u64)c.costs.migrate_ns);
}

/* Let kswapd run until it sleeps (a demotion takes its clock past now). */
static void kswapd_settle(struct sim *s)
{
	int i;

	for (i = 0; s->kswapd_awake && i < 100; i++) {
		s->now += 1000 * SIM_NS_PER_MS;
		kswapd_run(s);
	}
	assert_false(s->kswapd_awake);
}

/*
 * A fast node for kswapd's tests, not yet touched: 4096 pages of fast
 * tier (8 folios with @thp), watermarks @wm, the two lists, 6.1's rounds
 * if @rounds, a look costing @reclaim_ns. Returns the run's result,
 * which lru_node_free() frees with the rest.
 */
static struct sim_result *kswapd_node(struct setup *st, struct sim *s,
				      struct sim_policy *p, const u64 wm[4],
				      int thp, int rounds, u32 reclaim_ns)
{
	struct sim_result *r = calloc(1, sizeof(*r));
	char err[SIM_ERRLEN];

	assert_non_null(r);
	small_setup(st, WL_UNIFORM, 8192, 1000, 4096);
	memcpy(st->cfg.wmark, wm, sizeof(st->cfg.wmark));
	st->cfg.thp = thp;
	st->cfg.lru_two_list = 1;
	st->cfg.kswapd_rounds = rounds;
	st->cfg.costs.reclaim_ns = reclaim_ns;
	assert_int_equal(sim_validate(&st->cfg, &st->src, err, sizeof(err)), 0);
	policy(p, "mainline", &st->cfg);
	sim_begin(s, st, p, r);
	return r;
}

/* First touch of units [0, @n): on the inactive list, none young. */
static void touch_old(struct sim *s, u64 n)
{
	u64 u;

	for (u = 0; u < n; u++) {
		alloc_unit(s, u);
		s->flags[u] &= (u8)~PF_YOUNG;
	}
}

/*
 * A node for the round tests: 4096 pages of fast tier, watermarks
 * 10/20/30/40, the two lists and 6.1's rounds, looks free of cost, and
 * first touch's 4076 pages on the inactive list, none young.
 */
static struct sim_result *lru_node(struct setup *st, struct sim *s,
				   struct sim_policy *p)
{
	static const u64 wm[4] = { 10, 20, 30, 40 };
	struct sim_result *r = kswapd_node(st, s, p, wm, 0, 1, 0);

	touch_old(s, 4096 - 20);
	assert_int_equal(fast_free_pages(s), 20);
	return r;
}

/* Move @n pages from the inactive list's tail to the active list. */
static void lru_to_active(struct sim *s, u64 n)
{
	while (n--) {
		u64 sl = s->ltail[0];

		lru_del(s, 0, sl);
		s->flags[s->fslot[sl]] |= PF_ACTIVE;
		lru_add(s, 1, sl);
	}
}

/*
 * A round's targets (get_scan_count()): each anon list its own size >>
 * priority, the active one only while the inactive list is low, all of
 * them while the file pages are tiny (free at or below the high
 * watermark, the inactive list not low), else 60/200 of them; and in
 * folios, one per SWAP_CLUSTER_MAX pages of target with THP.
 */
static void test_kswapd_round_targets(void **state)
{
	struct setup st;
	struct sim_policy p;
	struct sim_result *r;
	struct sim s;

	(void)state;
	r = lru_node(&st, &s, &p);
	/* 1000 of the 4076 pages to the active list. */
	lru_to_active(&s, 1000);
	s.kprio = 4;
	/* 3076 inactive, not low; 20 free <= high (30): all of it. */
	round_targets(&s);
	assert_int_equal(s.knr[0], 3076 >> 4);
	assert_int_equal(s.knr[1], 0);
	/* Above the high watermark: 60/200, rounded down. */
	s.wm[2] = 19;
	round_targets(&s);
	assert_int_equal(s.knr[0], (3076 >> 4) * 60 / 200);
	assert_int_equal(s.knr[1], 0);
	/* Inactive low (1076 x 1 < 3000): the active list too, and 60/200. */
	s.wm[2] = 30;
	lru_to_active(&s, 2000);
	round_targets(&s);
	assert_int_equal(s.knr[0], (1076 >> 4) * 60 / 200);
	assert_int_equal(s.knr[1], (3000 >> 4) * 60 / 200);
	/* In units: a page each here; 16 of them a unit at --scale 16. */
	assert_int_equal(round_units(&s, 100), 100);
	s.K = 16;
	assert_int_equal(round_units(&s, 100), 7);
	/* THP: one 512-page folio per 32 pages of target, at least one. */
	s.K = 1;
	s.ushift = 9;
	assert_int_equal(round_units(&s, 100), 4);
	assert_int_equal(round_units(&s, 1), 1);
	assert_int_equal(round_units(&s, 0), 0);
	s.ushift = 0;
	lru_node_free(&st, &s, r);
}

/*
 * balance_pgdat() gave up (priority below 1) with the node unbalanced:
 * kswapd_try_to_sleep() does not sleep and it starts again at
 * DEF_PRIORITY, unless that was its 16th run in a row to reclaim
 * nothing (kswapd_failures). The count is the node's: a hopeless node
 * is not woken again (wakeup_kswapd()); @rewake: wake it once more after.
 */
static u64 kswapd_gave_up(u64 reclaimed, u32 failures, int rewake)
{
	struct setup st;
	struct sim_policy p;
	struct sim_result *r;
	struct sim s;
	u64 free_end, u, taken = 0;

	r = lru_node(&st, &s, &p);
	wake_kswapd(&s);
	s.kprio = 0;
	s.kbal_reclaimed = reclaimed;
	s.kfailures = failures;
	kswapd_settle(&s);
	if (rewake) {
		/*
		 * First touch takes the node back to its low watermark
		 * (wakeup_kswapd() leaves a balanced node's kswapd asleep).
		 */
		for (u = 4096 - 20; fast_free_pages(&s) > 20; u++, taken++)
			alloc_unit(&s, u);
		wake_kswapd(&s);
		kswapd_settle(&s);
		assert_int_equal(r->kswapd_wakeups, failures + 1 <
				 MAX_RECLAIM_RETRIES || reclaimed ? 2 : 1);
	}
	free_end = fast_free_pages(&s);
	assert_int_equal(r->demotions, free_end - 20 + taken);
	lru_node_free(&st, &s, r);
	return free_end;
}

static void test_kswapd_gave_up(void **state)
{
	(void)state;
	/* It reclaimed something: it starts again, and balances (44). */
	assert_int_equal(kswapd_gave_up(1, 15, 0), 44);
	/* Nothing: a 15th failure starts again, a 16th sleeps. */
	assert_int_equal(kswapd_gave_up(0, 14, 0), 44);
	assert_int_equal(kswapd_gave_up(0, 15, 0), 20);
	/* Hopeless: the next wakeup finds it so, and it stays asleep. */
	assert_int_equal(kswapd_gave_up(0, 15, 1), 20);
	/* Not hopeless: woken again, and balances again. */
	assert_int_equal(kswapd_gave_up(0, 14, 1), 44);
}

/*
 * kswapd_age_node() before each round and shrink_lruvec()'s closing
 * shrink_active_list() each deactivate SWAP_CLUSTER_MAX pages while the
 * inactive list is low, whatever the round's targets: a round at
 * DEF_PRIORITY over 1076 inactive and 3000 active pages (targets 0) moves
 * 64 pages; and with every page active (an inactive target of 0 at every
 * priority) they alone refill the inactive list, so kswapd balances.
 */
static void test_kswapd_age_node(void **state)
{
	struct setup st;
	struct sim_policy p;
	struct sim_result *r;
	struct sim s;

	(void)state;
	r = lru_node(&st, &s, &p);
	assert_false(s.kswapd_awake);

	/* One round: 32 aged, targets 1108 >> 12 = 0, 32 more at its end. */
	lru_to_active(&s, 3000);
	s.kprio = DEF_PRIORITY;
	r->kswapd_scanned = 0;
	round_begin(&s);
	assert_true(round_pick(&s, 32) == CLOCK_NONE);
	assert_int_equal(s.lcount[0], 1076 + 64);
	assert_int_equal(s.lcount[1], 3000 - 64);
	assert_int_equal(s.kscanned, 0);
	assert_int_equal(r->kswapd_scanned, 64);

	/* Every page active: kswapd still balances (above 40 free). */
	lru_to_active(&s, s.lcount[0]);
	assert_int_equal(s.lcount[0], 0);
	wake_kswapd(&s);
	kswapd_settle(&s);
	assert_true(fast_free_pages(&s) > 40);
	assert_int_equal(r->demotions, fast_free_pages(&s) - 20);
	lru_node_free(&st, &s, r);
}

/*
 * --thp on a fast tier whose promo watermark is below one 2 MiB folio: 8
 * folios, watermarks 10/20/30/40. First touch stops at 512 free pages
 * (the next folio would take the node below low); 512 is above the promo
 * watermark, so kswapd counts the node balanced, but a folio's promotion
 * needs free > high + 512 = 542. kswapd woken for a folio balances until
 * it fits (one folio demoted: 1024 free); woken at order 0 (the
 * allocator) it stops at the promo watermark, as before: with --kswapd
 * rounds it is not woken at all (wakeup_kswapd(): balanced at the
 * wakeup's order). Returns the free pages when kswapd slept;
 * @folio_first: the folio's wakeup comes before kswapd runs.
 */
static u64 kswapd_folio_case(int rounds, int folio_first, u64 *wakeups)
{
	static const u64 wm[4] = { 10, 20, 30, 40 };
	struct setup st;
	struct sim_policy p;
	struct sim_result *r;
	struct tp_node_mem m;
	struct sim s;
	u64 u, free_end;

	r = kswapd_node(&st, &s, &p, wm, 1, rounds, 0);
	assert_int_equal(s.upages, 512);
	for (u = 0; u < s.nr_units; u++)
		alloc_unit(&s, u);
	assert_int_equal(fast_free_pages(&s), 512);
	assert_int_equal(s.kswapd_awake, !rounds);
	if (folio_first)
		wake_kswapd_unit(&s);
	kswapd_settle(&s);
	if (!folio_first) {
		/* Above the promo watermark: balanced, no room for a folio. */
		assert_int_equal(fast_free_pages(&s), 512);
		assert_int_equal(r->demotions, 0);
		wake_kswapd(&s);
		kswapd_settle(&s);
		assert_int_equal(fast_free_pages(&s), 512);
		wake_kswapd_unit(&s);
		kswapd_settle(&s);
	}
	fast_mem(&s, &m);
	assert_true(tp_promote_room(&m, s.upages));
	assert_int_equal(r->demotions, fast_free_pages(&s) - 512);
	*wakeups = r->kswapd_wakeups;
	free_end = fast_free_pages(&s);
	lru_node_free(&st, &s, r);
	return free_end;
}

static void test_kswapd_folio_room(void **state)
{
	u64 wakeups;

	(void)state;
	/* rounds: only the folio's wakeup finds the node unbalanced. */
	assert_int_equal(kswapd_folio_case(1, 0, &wakeups), 1024);
	assert_int_equal(wakeups, 1);
	assert_int_equal(kswapd_folio_case(0, 0, &wakeups), 1024);
	assert_int_equal(wakeups, 3);
	/* Asked for before kswapd runs: the same wakeup balances for it. */
	assert_int_equal(kswapd_folio_case(1, 1, &wakeups), 1024);
	assert_int_equal(wakeups, 1);
	assert_int_equal(kswapd_folio_case(0, 1, &wakeups), 1024);
	assert_int_equal(wakeups, 1);
}

/*
 * --thp, 8 folios of fast tier, the two lists and 6.1's rounds, watermarks
 * @wm, a look at a folio costing 512 ns: first touch leaves 7 folios on
 * the inactive list, none young, and 512 pages free.
 */
static struct sim_result *thp_node(struct setup *st, struct sim *s,
				   struct sim_policy *p, const u64 wm[4])
{
	struct sim_result *r = kswapd_node(st, s, p, wm, 1, 1, 1);

	touch_old(s, s->nr_units);
	assert_int_equal(fast_free_pages(s), 512);
	return r;
}

/*
 * kswapd woken for a folio on a node whose pages are all hot (each young
 * again at every look: none is demoted), 512 free: balanced at order 0
 * (above 40), not at the folio's (542). balance_pgdat() gives up, a
 * kswapd_failure. kswapd() zeroed pgdat->kswapd_order as that run began,
 * so what it reads again is only what was asked for during the run: with
 * nothing asked for, order 0, and the node balanced at it, kswapd sleeps
 * after one failure; with a folio asked for during each run it starts
 * again until the node is hopeless (16 failures). Returns the failures.
 */
static u32 kswapd_hot_case(int ask_during)
{
	static const u64 wm[4] = { 10, 20, 30, 40 };
	struct setup st;
	struct sim_policy p;
	struct sim_result *r;
	struct sim s;
	u64 sl;
	u32 failures;
	int i;

	r = thp_node(&st, &s, &p, wm);
	wake_kswapd_unit(&s);
	assert_true(s.kswapd_awake);
	/* kswapd's clock at now; a look every other step, after a touch. */
	s.kswapd_clock = s.now;
	for (i = 0; s.kswapd_awake && i < 100000; i++) {
		for (sl = 0; sl < s.fcap; sl++)
			if (s.fslot[sl] != NO_SLOT)
				s.flags[s.fslot[sl]] |= PF_YOUNG;
		if (ask_during)
			wake_kswapd_unit(&s);
		s.now += 256;
		kswapd_run(&s);
	}
	assert_false(s.kswapd_awake);
	assert_int_equal(r->demotions, 0);
	assert_int_equal(fast_free_pages(&s), 512);
	failures = s.kfailures;
	lru_node_free(&st, &s, r);
	return failures;
}

static void test_kswapd_order_restart(void **state)
{
	(void)state;
	assert_int_equal(kswapd_hot_case(0), 1);
	assert_int_equal(kswapd_hot_case(1), MAX_RECLAIM_RETRIES);
}

/*
 * compact_gap(): a balance_pgdat() woken for a folio checks the node at
 * order 0 once it has reclaimed two folios (kswapd_shrink_node()), and
 * kswapd_try_to_sleep() then checks the order balance_pgdat() returned,
 * 0. Watermarks 10/20/1100/1200: order 0 is balanced above 1200 free,
 * the folio's order above high + 512 = 1612. From 512 free kswapd demotes
 * two folios (1536 free) and sleeps with no room for a folio; the next
 * refused promotion wakes it for one, and it demotes a third.
 */
static void test_kswapd_compact_gap(void **state)
{
	static const u64 wm[4] = { 10, 20, 1100, 1200 };
	struct setup st;
	struct sim_policy p;
	struct sim_result *r;
	struct tp_node_mem m;
	struct sim s;

	(void)state;
	r = thp_node(&st, &s, &p, wm);
	wake_kswapd_unit(&s);
	kswapd_settle(&s);
	assert_int_equal(fast_free_pages(&s), 1536);
	fast_mem(&s, &m);
	assert_false(tp_promote_room(&m, s.upages));
	wake_kswapd_unit(&s);
	kswapd_settle(&s);
	assert_int_equal(fast_free_pages(&s), 2048);
	assert_int_equal(r->demotions, 2048 - 512);
	lru_node_free(&st, &s, r);
}

/*
 * kswapd's folio_referenced() on a young page: x86's
 * ptep_clear_flush_young() leaves a 4 KiB page's TLB entry, so the page
 * stays old while its translation is cached; a 2 MiB folio's
 * pmdp_clear_flush_young() flushes the TLB, so the next access to the
 * folio sets its accessed bit again (before: the folio stayed old, and
 * kswapd demoted the hottest folios).
 */
static void test_referenced_thp_flush(void **state)
{
	struct sim_result *r = calloc(1, sizeof(*r));
	char err[SIM_ERRLEN];
	struct sim_policy p;
	struct setup st;
	struct sim s;
	struct sthread *t;
	u64 buf[2], *own;
	int thp;

	(void)state;
	assert_non_null(r);
	for (thp = 0; thp < 2; thp++) {
		const u64 u = 5;

		small_setup(&st, WL_UNIFORM, 512 * 16, 1000, 512 * 4);
		st.cfg.thp = thp;
		assert_int_equal(sim_validate(&st.cfg, &st.src, err,
					      sizeof(err)), 0);
		policy(&p, "mainline", &st.cfg);
		sim_begin(&s, &st, &p, r);
		t = &s.thr[0];
		own = t->buf;
		t->buf = buf;		/* replaced for the test */
		buf[0] = buf[1] = WL_MAKE(u << s.ushift, 0, 0);
		t->got = 2;
		t->pos = 0;
		s.cur = t;
		run_slice(&s, t, 0);	/* allocation, TLB fill */
		assert_true(s.flags[u] & PF_YOUNG);
		assert_true(page_referenced(&s, u));
		assert_false(s.flags[u] & PF_YOUNG);
		run_slice(&s, t, 0);
		if (thp)
			assert_true(s.flags[u] & PF_YOUNG);
		else
			assert_false(s.flags[u] & PF_YOUNG);
		t->buf = own;
		sim_teardown(&s);
		sim_result_free(r);
		small_free(&st);
	}
	free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kswapd_simple_vs_rounds),
		cmocka_unit_test(test_kswapd_demote_cost),
		cmocka_unit_test(test_kswapd_clock_batches),
		cmocka_unit_test(test_kswapd_folio_room),
		cmocka_unit_test(test_kswapd_order_restart),
		cmocka_unit_test(test_kswapd_compact_gap),
		cmocka_unit_test(test_kswapd_round_targets),
		cmocka_unit_test(test_kswapd_gave_up),
		cmocka_unit_test(test_kswapd_age_node),
		cmocka_unit_test(test_referenced_thp_flush),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
