// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * tiersim: the policies past Linux 6.1 (sim_kthread.c and their specs):
 * the goal controller's loop, pghot's records and their aging, kmigrated,
 * the accessed-bit scanner, the fault-count clock's latencies, end-to-end
 * runs of every new base checked against the model's invariants. The
 * results page's tables for them: test_tiersim_results.c.
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
#include "../examples/tiersim/out.h"
#include "tiersim_test.h"

/* ---- helpers ------------------------------------------------------------- */

/* ---- specs --------------------------------------------------------------- */

static void test_specs(void **state)
{
	struct sim_policy p;
	struct sim_cfg c;
	const char *e;

	(void)state;
	sim_cfg_defaults(&c);

	policy(&p, "goal-bucket", &c);
	assert_int_equal(p.cfg.limiter_variant, TP_LIMITER_BUCKET);
	assert_int_equal(p.goal.metric, GOAL_USED);
	assert_int_equal(p.goal.target, 9970);	/* DAMON's 99.7 % */
	assert_int_equal(p.cfg.rate_limit_mbps, 200);
	assert_int_equal(p.goal.ctl_ms, 1000);
	policy(&p, "goal-histogram:goal=pingpong:ctl=250:rate-max=1024", &c);
	assert_int_equal(p.cfg.thresh_variant, TP_THRESH_HISTOGRAM);
	assert_int_equal(p.goal.metric, GOAL_PINGPONG);
	assert_int_equal(p.goal.target, 1000);
	assert_int_equal(p.goal.ctl_ms, 250);
	assert_int_equal(p.cfg.rate_limit_mbps, 200);
	/* The first rate is clamped into the controller's bounds. */
	policy(&p, "goal-bucket:rate=4:rate-min=16", &c);
	assert_int_equal(p.cfg.rate_limit_mbps, 16);
	policy(&p, "goal-bucket:goal=free", &c);
	assert_int_equal(p.goal.target, 50);
	policy(&p, "histogram", &c);
	assert_int_equal(p.cfg.thresh_variant, TP_THRESH_HISTOGRAM);
	assert_int_equal(p.goal.metric, GOAL_NONE);
	assert_int_equal(p.goal.out, GOAL_OUT_RATE);
	/* The goal sets the threshold; mainline's rate stays its own. */
	policy(&p, "goal-threshold", &c);
	assert_int_equal(p.goal.out, GOAL_OUT_THRESHOLD);
	assert_int_equal(p.goal.metric, GOAL_PINGPONG);
	assert_int_equal(p.cfg.flags & (TP_POL_ADAPTIVE | TP_POL_BYPASS_RESET),
			 0);
	assert_true(p.cfg.flags & TP_POL_HOTNESS);
	assert_int_equal(p.cfg.rate_limit_mbps, 65536);
	policy(&p, "mainline-adaptive-bypass-reset:goal=used:goal-out=threshold",
	       &c);
	assert_int_equal(p.goal.out, GOAL_OUT_THRESHOLD);
	policy(&p, "goal-threshold:goal-out=rate", &c);
	assert_int_equal(p.cfg.rate_limit_mbps, 200);
	policy(&p, "mainline:thresh=histogram", &c);
	assert_int_equal(p.cfg.thresh_variant, TP_THRESH_HISTOGRAM);

	policy(&p, "fault-clock", &c);
	assert_int_equal(p.lat_src, LAT_FAULTS);
	assert_true(p.cfg.flags & TP_POL_LAT_FAULTS);
	policy(&p, "mainline:lat=faults:hot-faults=5000", &c);
	assert_true(p.cfg.flags & TP_POL_LAT_FAULTS);
	assert_int_equal(p.cfg.hot_threshold_faults, 5000);
	policy(&p, "fault-clock:lat=atime", &c);
	assert_false(p.cfg.flags & TP_POL_LAT_FAULTS);

	policy(&p, "pghot", &c);
	assert_int_equal(p.migrate, MIG_KMIGRATED);
	assert_int_equal(p.hot.record, REC_BYTE);
	assert_int_equal(p.hot.sources, SRC_HINT);
	assert_int_equal(p.cfg.flags, 0);
	policy(&p, "pghot-precise", &c);
	assert_int_equal(p.hot.record, REC_PRECISE);
	policy(&p, "pghot-abit", &c);
	assert_int_equal(p.hot.sources, SRC_ABIT);
	assert_int_equal(p.hot.freq, 7);
	assert_int_equal(p.hot.abit_ms, 20);
	assert_int_equal(p.hot.window_ms, 32);
	assert_true(p.hot.room);
	assert_int_equal(p.cfg.flags, TP_POL_HOTNESS | TP_POL_FREE_BYPASS);
	policy(&p, "mainline:migrate=kmigrated", &c);
	assert_int_equal(p.migrate, MIG_KMIGRATED);
	policy(&p, "pghot:src=both:freq=3:window=1000", &c);
	assert_int_equal(p.hot.sources, SRC_HINT | SRC_ABIT);

	/* Bad values, each with its reason. */
	e = refused("goal-bucket:goal=speed", &c);
	assert_non_null(e);
	assert_non_null(strstr(e, "goal=speed: unknown value"));
	e = refused("goal-bucket:target=0", &c);
	assert_non_null(strstr(e, "too small"));
	e = refused("goal-bucket:target=10001", &c);
	assert_non_null(strstr(e, "too large"));
	e = refused("goal-bucket:ctl=0", &c);
	assert_non_null(strstr(e, "control period cannot be 0"));
	e = refused("goal-threshold:goal-out=speed", &c);
	assert_non_null(strstr(e, "goal-out=speed: unknown value"));
	e = refused("mainline:goal=used:goal-out=threshold", &c);
	assert_non_null(strstr(e, "would both set it (-adaptive)"));
	e = refused("mainline-adaptive-bypass-reset:goal-out=threshold", &c);
	assert_non_null(strstr(e, "needs a goal"));
	e = refused("goal-threshold-hotness", &c);
	assert_non_null(strstr(e, "needs a hot threshold"));
	e = refused("goal-threshold:lat=faults", &c);
	assert_non_null(strstr(e, "not hint faults"));
	e = refused("goal-threshold:hot=7", &c);
	assert_non_null(strstr(e, "hot=8 ms or more"));
	assert_null(refused("goal-threshold:hot=8", &c));
	e = refused("goal-bucket:rate-min=300", &c);
	assert_non_null(strstr(e, "rate-min is above rate-max"));
	e = refused("mainline:src=abit", &c);
	assert_non_null(strstr(e, "needs a hotness record"));
	e = refused("pghot:src=abit:migrate=fault", &c);
	assert_non_null(strstr(e, "needs migrate=kmigrated"));
	e = refused("pghot:freq=4", &c);
	assert_non_null(strstr(e, "freq is above"));
	e = refused("pghot:window=5000", &c);
	assert_non_null(strstr(e, "window is longer"));
	assert_null(refused("pghot-precise:freq=7:window=16000", &c));
	e = refused("pghot-precise:window=17000", &c);
	assert_non_null(strstr(e, "too large"));
	e = refused("pghot:room-record=2", &c);
	assert_non_null(strstr(e, "too large"));
	e = refused("pghot-abit:abit=0", &c);
	assert_non_null(strstr(e, "cannot be 0"));
	e = refused("mainline:promo-max=1000", &c);
	assert_non_null(strstr(e, "promo-max needs migrate=kmigrated"));
	e = refused("pghot:promo-max=-1", &c);
	assert_non_null(e);
	/* 0, no budget, is the base's: the key would change nothing */
	e = refused("pghot:promo-max=0", &c);
	assert_non_null(strstr(e, "promo-max=0 changes nothing"));
	assert_null(refused("pghot:promo-max=1", &c));
	e = refused("mainline:migrate=later", &c);
	assert_non_null(strstr(e, "unknown value"));
	e = refused("mainline:thresh=median", &c);
	assert_non_null(strstr(e, "unknown value"));
	e = refused("mainline:lat=faults:hot-faults=0", &c);
	assert_non_null(strstr(e, "default of 1000000"));
}

/* ---- the goal controller's loop ------------------------------------------- */

/* One control period that promoted up to @promo, @pp of them back. */
static void ctl_period(struct sim *s, struct sim_result *r, u64 promo,
		       u64 pp)
{
	r->promotions = promo;
	r->pingpong = pp;
	s->now = s->next_ctl;
	ctl_step(s);
}

static void test_goal_loop(void **state)
{
	struct setup st;
	struct sim s;
	struct sim_policy p;
	struct sim_result *r = calloc(1, sizeof(*r));

	(void)state;
	assert_non_null(r);
	part(&st, &s, &p, r, 1, "goal-bucket:rate=100");
	assert_int_equal(s.next_ctl, 1000 * SIM_NS_PER_MS);
	assert_int_equal(s.pcfg.rate_limit_mbps, 100);

	/*
	 * Used: 1004 of 1024 pages = 9804 parts per 10000 under the goal of
	 * 9970: 100 x (2 x 9970 - 9804) / 9970 = 101.66, down to 101.
	 */
	s.now = s.next_ctl;
	ctl_step(&s);
	assert_int_equal(s.pcfg.rate_limit_mbps, 101);
	assert_int_equal(r->goal_steps, 1);
	assert_int_equal(s.next_ctl, 2000 * SIM_NS_PER_MS);
	/* The policy the decisions read has the rate in its limiter. */
	assert_int_equal(s.tpp.set[0].lim.limit, 101 << 8);
	assert_int_equal(s.tpp.set[1].lim.limit, 101 << 8);

	/* Half the tier free: 5000 parts, the rate x 1.498, capped at 200. */
	make_room(&s, 492);
	s.now = s.next_ctl;
	ctl_step(&s);
	assert_int_equal(s.pcfg.rate_limit_mbps, 151);
	s.now = s.next_ctl + 3 * s.ctl_ns;	/* late: one step, the next due */
	ctl_step(&s);
	assert_int_equal(s.pcfg.rate_limit_mbps, 200);
	assert_int_equal(s.next_ctl, 7000 * SIM_NS_PER_MS);
	/* At the cap no step publishes anything. */
	s.now = s.next_ctl;
	ctl_step(&s);
	assert_int_equal(r->goal_steps, 3);
	part_teardown(&st, &s);

	/* Ping-pong: half the period's promotions came back: halve. */
	part(&st, &s, &p, r, 1, "goal-bucket:goal=pingpong:rate=64");
	ctl_period(&s, r, 100, 50);
	assert_int_equal(s.pcfg.rate_limit_mbps, 32);
	/* None in the next period: the rate doubles. */
	ctl_period(&s, r, 300, 50);
	assert_int_equal(s.pcfg.rate_limit_mbps, 64);
	/* The floor: rate-min (1). */
	for (int i = 0; i < 10; i++)
		ctl_period(&s, r, 300, 60 + 10 * i);
	assert_int_equal(s.pcfg.rate_limit_mbps, 1);
	part_teardown(&st, &s);

	/*
	 * The threshold: half the promotions came back, it halves (1000 to
	 * 500 ms) in the settings the decisions read, the rate untouched;
	 * none the next period, it doubles; bounded by 2 x hot / 16 and
	 * 2 x hot.
	 */
	part(&st, &s, &p, r, 1, "goal-threshold");
	assert_int_equal(s.pcfg.hot_threshold_ms, 1000);
	ctl_period(&s, r, 100, 50);
	assert_int_equal(s.pcfg.hot_threshold_ms, 500);
	assert_int_equal(s.pcfg.rate_limit_mbps, 65536);
	assert_int_equal(s.tpp.set[0].hot_th, 500ULL * SIM_TPS / 1000);
	assert_int_equal(s.tpp.set[1].hot_th, 500ULL * SIM_TPS / 1000);
	ctl_period(&s, r, 300, 50);
	assert_int_equal(s.pcfg.hot_threshold_ms, 1000);
	for (int i = 0; i < 8; i++)
		ctl_period(&s, r, 400 + 100 * i, 50);
	assert_int_equal(s.pcfg.hot_threshold_ms, 2000);
	for (int i = 0; i < 8; i++)
		ctl_period(&s, r, 1100, 150 + 100 * i);
	assert_int_equal(s.pcfg.hot_threshold_ms, 125);
	part_teardown(&st, &s);
	free(r);
}

/* ---- kmigrated ------------------------------------------------------------- */

static void test_kmigrated(void **state)
{
	struct setup st;
	struct sim s;
	struct sim_policy p;
	struct sim_result *r = calloc(1, sizeof(*r));
	u64 u, t0, shoot;

	(void)state;
	assert_non_null(r);
	part(&st, &s, &p, r, 4, "promote-all:migrate=kmigrated");
	assert_non_null(s.kq);
	/* Room for 10 pages above the high watermark (30): free 40. */
	make_room(&s, 20);
	for (u = 2000; u < 2015; u++)
		kmig_queue(&s, u);
	assert_true(s.flags[2000] & PF_QUEUED);
	/* Asleep until its first wakeup, 100 ms in. */
	s.now = 99 * SIM_NS_PER_MS;
	kmig_run(&s);
	assert_int_equal(r->promotions, 0);
	s.now = 100 * SIM_NS_PER_MS;
	t0 = s.kmig_clock;
	assert_int_equal(t0, s.now);
	s.now = 10000 * SIM_NS_PER_MS;	/* the threads are far ahead */
	kmig_run(&s);
	/*
	 * Free > high + n holds for n up to 9 (40 > 30 + 9): one batch of 9,
	 * one shootdown, each unit's migration on kmigrated's clock.
	 */
	assert_int_equal(r->promotions, 9);
	assert_int_equal(r->kmig_batches, 1);
	assert_int_equal(r->tlb_shootdowns, 1);
	assert_true(s.flags[2000] & PF_FAST);
	assert_false(s.flags[2000] & PF_QUEUED);
	assert_true(s.flags[2009] & PF_QUEUED);
	assert_false(s.flags[2009] & PF_FAST);
	assert_true(r->t_kthread >= 9 * s.mig_cpu_ns);
	/* The threads lost no time to it but the IPIs of one shootdown. */
	assert_int_equal(r->t_migr, 0);
	assert_int_equal(r->t_tlb, 4 * (u64)st.cfg.costs.ipi_ns);
	/* No room for the rest: kswapd is woken, kmigrated waits for it. */
	assert_true(s.kswapd_awake);
	assert_true(s.kmig_wait);
	assert_int_equal(s.kmig_clock, T_NEVER);
	/* kswapd never works ahead of the threads: let them run on. */
	s.now += 1000 * SIM_NS_PER_MS;
	kswapd_run(&s);
	assert_false(s.kswapd_awake);
	assert_false(s.kmig_wait);
	assert_true(s.kmig_clock <= s.now);
	shoot = r->tlb_shootdowns;
	kmig_run(&s);
	assert_int_equal(r->promotions, 15);
	assert_true(r->tlb_shootdowns > shoot);
	/* The queue is empty: it sleeps 100 ms at a time. */
	assert_int_equal(s.kq_n, 0);
	assert_true(s.kmig_clock > s.now);
	assert_true(s.kmig_clock - s.now <= 100 * SIM_NS_PER_MS);
	part_teardown(&st, &s);

	/* Batches hold 512 pages: 600 units at 1 page each are 2 batches. */
	part(&st, &s, &p, r, 1, "promote-all:migrate=kmigrated");
	make_room(&s, 700);
	for (u = 2000; u < 2600; u++)
		kmig_queue(&s, u);
	s.now = 10000 * SIM_NS_PER_MS;
	kmig_run(&s);
	assert_int_equal(r->promotions, 600);
	assert_int_equal(r->kmig_batches, 2);
	/* The thread running the process takes one IPI a batch. */
	assert_int_equal(r->tlb_shootdowns, 2);
	assert_int_equal(r->t_tlb, 2 * (u64)st.cfg.costs.ipi_ns);
	part_teardown(&st, &s);

	/*
	 * promo-max=250: kmigrated migrates 250 pages of the 600 queued and
	 * drops the rest (none left queued, kswapd not woken for them).
	 */
	part(&st, &s, &p, r, 1, "promote-all:migrate=kmigrated:promo-max=250");
	make_room(&s, 700);
	for (u = 2000; u < 2600; u++)
		kmig_queue(&s, u);
	s.now = 10000 * SIM_NS_PER_MS;
	kmig_run(&s);
	assert_int_equal(r->promotions, 250);
	assert_int_equal(s.kq_n, 0);
	assert_true(s.flags[2249] & PF_FAST);
	assert_false(s.flags[2250] & (PF_FAST | PF_QUEUED));
	assert_false(s.flags[2599] & (PF_FAST | PF_QUEUED));
	assert_false(s.kswapd_awake);
	part_teardown(&st, &s);
	free(r);
}

/*
 * kmigrated looks at a queued page's records again when it comes to it: it
 * migrates the page while the policy's record is ready, or while the room
 * record is and the free-space bypass is open, and drops it otherwise,
 * without waking kswapd for it. (It once kept every page whose room record
 * was within its 3 s, so a page the policy's record no longer found hot
 * went on to the fast tier.)
 */
static void recheck_setup(struct setup *st, struct sim *s,
			  struct sim_policy *p, struct sim_result *r,
			  u64 room)
{
	u64 t0 = 1000 * SIM_NS_PER_MS, u;
	int i;

	/* RFC watermarks: the bypass needs free > high + 2 x 256 = 542. */
	part(st, s, p, r, 1, "pghot-abit:wmark=rfc2020:rate=1");
	make_room(s, room);
	/* Units 3000-3002 seen in 7 scans 20 ms apart: hot. */
	for (i = 0; i < 7; i++) {
		s->now = t0 + (u64)i * 20 * SIM_NS_PER_MS;
		for (u = 3000; u < 3003; u++)
			assert_int_equal(hot_access(s, u),
					 i == 6 ? HOT_READY : i ? HOT_ROOM : 0);
	}
	for (u = 3000; u < 3003; u++)
		kmig_queue(s, u);
	/* 3000 seen again 20 ms later: still hot. */
	s->now = t0 + 140 * SIM_NS_PER_MS;
	assert_int_equal(hot_access(s, 3000), HOT_READY);
	/*
	 * At 160 ms: 3000's last sighting is 20 ms old, within the 32 ms
	 * window; 3001 is seen after a gap of 40 ms, which starts its count
	 * again; 3002's last sighting is 40 ms old, past the window. Only
	 * the room record (2 accesses within 3 s) still has 3001 and 3002.
	 */
	s->now = t0 + 160 * SIM_NS_PER_MS;
	assert_int_equal(hot_access(s, 3001), HOT_ROOM);
	s->kmig_clock = s->now;
}

static void test_kmigrated_recheck(void **state)
{
	struct setup st;
	struct sim s;
	struct sim_policy p;
	struct sim_result *r = calloc(1, sizeof(*r));
	struct tp_node_mem m;
	u64 u;

	(void)state;
	assert_non_null(r);
	/* Room for promotions (free 40), none for the bypass. */
	recheck_setup(&st, &s, &p, r, 20);
	fast_mem(&s, &m);
	assert_false(tp_free_space_enough(&s.tpp, &m));
	kmig_run(&s);
	assert_int_equal(r->promotions, 1);
	assert_true(s.flags[3000] & PF_FAST);
	for (u = 3001; u < 3003; u++)
		assert_false(s.flags[u] & (PF_FAST | PF_QUEUED));
	assert_int_equal(s.kq_n, 0);
	assert_false(s.kswapd_awake);
	part_teardown(&st, &s);

	/* Free 620: the bypass is open, and the room record admits them. */
	recheck_setup(&st, &s, &p, r, 600);
	fast_mem(&s, &m);
	assert_true(tp_free_space_enough(&s.tpp, &m));
	kmig_run(&s);
	assert_int_equal(r->promotions, 3);
	for (u = 3000; u < 3003; u++)
		assert_true(s.flags[u] & PF_FAST);
	part_teardown(&st, &s);

	/*
	 * pghot's byte record alone, fed by the scanner (which records the
	 * accesses of a queued page; a hint fault on one returns first): a
	 * page queued when ready and seen again 3.5 s later is within its
	 * window but counts 1, not ready: dropped.
	 */
	part(&st, &s, &p, r, 1, "pghot:src=abit");
	assert_null(s.rec[1].b);
	make_room(&s, 20);
	u = 3000;
	s.now = 1000 * SIM_NS_PER_MS;
	assert_int_equal(hot_access(&s, u), 0);
	s.now += 1000 * SIM_NS_PER_MS;
	assert_int_equal(hot_access(&s, u), HOT_READY);
	kmig_queue(&s, u);
	s.now += 3500 * SIM_NS_PER_MS;
	assert_int_equal(hot_access(&s, u), 0);
	assert_false(tp_hot_expired(&s.rec[0].fmt, s.rec[0].b[u], s.now));
	s.kmig_clock = s.now;
	kmig_run(&s);
	assert_int_equal(r->promotions, 0);
	assert_false(s.flags[u] & (PF_FAST | PF_QUEUED));
	part_teardown(&st, &s);
	free(r);
}

/*
 * First touch below the fast tier's low watermark: whether the allocator
 * woke kswapd (the stand-in for the hint faults' wakeups: only where the
 * NUMA scanner takes hint faults).
 */
static int alloc_wakes(const char *spec)
{
	struct setup st;
	struct sim s;
	struct sim_policy p;
	struct sim_result *r = calloc(1, sizeof(*r));
	int woke;

	assert_non_null(r);
	part_alloc(&st, &s, &p, r, 1, spec, 0);
	assert_int_equal(r->alloc_slow, 4096 - 1004);
	woke = s.kswapd_awake;
	part_teardown(&st, &s);
	free(r);
	return woke;
}

static void test_alloc_wakeup(void **state)
{
	(void)state;
	assert_true(alloc_wakes("mainline"));
	assert_true(alloc_wakes("rfc2020"));
	assert_true(alloc_wakes("pghot"));		/* hint faults */
	assert_false(alloc_wakes("pghot-abit"));	/* no NUMA scanner */
	assert_false(alloc_wakes("damon"));		/* balancing off */
	assert_false(alloc_wakes("none"));
}

/* ---- records, their aging, the accessed-bit scanner ---------------------- */

static void test_records(void **state)
{
	struct setup st;
	struct sim s;
	struct sim_policy p;
	struct sim_result *r = calloc(1, sizeof(*r));
	u64 u = 3000;

	(void)state;
	assert_non_null(r);
	/* pghot's default: ready at the second access within 3 s. */
	part(&st, &s, &p, r, 1, "pghot");
	assert_non_null(s.rec[0].b);
	assert_null(s.rec[1].b);
	s.now = 1000 * SIM_NS_PER_MS;
	assert_int_equal(hot_access(&s, u), 0);
	s.now += 2900 * SIM_NS_PER_MS;
	assert_int_equal(hot_access(&s, u), HOT_READY);
	/* The walk clears what left its window before it could alias. */
	s.now += 4000 * SIM_NS_PER_MS;
	assert_true(s.rec[0].b[u] != 0);
	s.next_age = s.now;
	hot_age(&s);
	assert_int_equal(s.rec[0].b[u], 0);
	assert_true(s.next_age > s.now);
	/* kmigrated drops a queued page whose record went stale. */
	s.now = 20000 * SIM_NS_PER_MS;
	assert_int_equal(hot_access(&s, u), 0);
	kmig_queue(&s, u);
	s.now += 3500 * SIM_NS_PER_MS;
	make_room(&s, 100);
	s.kmig_clock = s.now;
	kmig_run(&s);
	assert_int_equal(r->promotions, 0);
	assert_false(s.flags[u] & PF_QUEUED);
	assert_false(s.kswapd_awake);	/* nothing to make room for */
	part_teardown(&st, &s);

	/*
	 * pghot-abit: consecutive scans 20 ms apart make the precise record
	 * count; a gap of two scans starts it again; the room record is ready
	 * at the second access within 3 s.
	 */
	part(&st, &s, &p, r, 1, "pghot-abit");
	assert_non_null(s.rec[0].w);
	assert_non_null(s.rec[1].b);
	s.now = 1000 * SIM_NS_PER_MS;
	assert_int_equal(hot_access(&s, u), 0);
	s.now += 20 * SIM_NS_PER_MS;
	assert_int_equal(hot_access(&s, u), HOT_ROOM);
	for (int i = 0; i < 4; i++) {
		s.now += 20 * SIM_NS_PER_MS;
		assert_int_equal(hot_access(&s, u), HOT_ROOM);
	}
	s.now += 40 * SIM_NS_PER_MS;	/* a scan missed it */
	assert_int_equal(hot_access(&s, u), HOT_ROOM);
	assert_int_equal(tp_hot_count(&s.rec[0].fmt, s.rec[0].w[u]), 1);
	for (int i = 0; i < 5; i++) {
		s.now += 20 * SIM_NS_PER_MS;
		assert_int_equal(hot_access(&s, u), HOT_ROOM);
	}
	s.now += 20 * SIM_NS_PER_MS;
	assert_int_equal(hot_access(&s, u), HOT_READY);
	part_teardown(&st, &s);
	free(r);
}

static void test_abit_scanner(void **state)
{
	struct setup st;
	struct sim s;
	struct sim_policy p;
	struct sim_result *r = calloc(1, sizeof(*r));
	u64 u, slow = 0;
	int i;

	(void)state;
	assert_non_null(r);
	part(&st, &s, &p, r, 1, "pghot-abit");
	/* No hint faults: the NUMA scanner is off. */
	assert_false(s.scan_on);
	assert_int_equal(s.abit_ns, 20 * SIM_NS_PER_MS);
	for (u = 0; u < 4096; u++) {
		s.flags[u] |= PF_YOUNG;
		slow += !(s.flags[u] & PF_FAST);
	}
	s.now = s.abit_clock;
	abit_run(&s);
	/* Every slow page examined and its bit cleared; fast ones left. */
	assert_int_equal(r->abit_scanned, slow);
	assert_int_equal(r->t_kthread, slow * st.cfg.costs.scan_pte_ns);
	for (u = 0; u < 4096; u++)
		assert_true(!!(s.flags[u] & PF_YOUNG) ==
			    !!(s.flags[u] & PF_FAST));
	assert_int_equal(s.abit_clock, 40 * SIM_NS_PER_MS);
	/* Unit 4000 accessed before each of 7 scans: hot, queued. */
	for (i = 1; i < 7; i++) {
		s.flags[4000] |= PF_YOUNG;
		s.now = s.abit_clock;
		abit_run(&s);
		assert_int_equal(!!(s.flags[4000] & PF_QUEUED), i == 6);
	}
	/*
	 * The room record was ready from the second sighting on, but with
	 * no room for the bypass that is not judged; the seventh is hot,
	 * admitted without room (queued for kmigrated, kswapd woken).
	 */
	node_stats(&s, &r->node);
	assert_int_equal(r->node.decided, 1);
	assert_int_equal(r->node.refused_nospace, 1);
	assert_true(s.kswapd_awake);
	part_teardown(&st, &s);

	/*
	 * A pass longer than the period (4096 pages at 10 us: 41 ms) sets
	 * the period, and the policy's record keeps its format and count
	 * with the window stretched in proportion (32 ms x 41/20); the room
	 * record stays pghot's default. (It once took the room record's
	 * settings instead: 2 accesses within 3 s made a page hot.)
	 */
	part_pte(&st, &s, &p, r, 1, "pghot-abit", 10000);
	assert_int_equal(s.abit_ns, 4096ULL * 10000);
	assert_int_equal(s.rec[0].fmt.format, TP_HOT_PRECISE);
	assert_int_equal(s.rec[0].fmt.threshold, 7);
	assert_int_equal(s.rec[1].fmt.format, TP_HOT_BYTE);
	assert_int_equal(s.rec[1].fmt.threshold, 2);
	u = 3000;
	s.now = 1000 * SIM_NS_PER_MS;
	for (i = 0; i < 6; i++) {
		assert_int_equal(hot_access(&s, u), i ? HOT_ROOM : 0);
		s.now += s.abit_ns;
	}
	assert_int_equal(hot_access(&s, u), HOT_READY);
	/* A gap of two periods starts the count again. */
	s.now += 2 * s.abit_ns;
	assert_int_equal(hot_access(&s, u), HOT_ROOM);
	assert_int_equal(tp_hot_count(&s.rec[0].fmt, s.rec[0].w[u]), 1);
	part_teardown(&st, &s);
	free(r);
}

/* ---- the fault-count clock -------------------------------------------------- */

static void test_fault_clock(void **state)
{
	struct setup st;
	struct sim s;
	struct sim_policy p;
	struct sim_result *r = calloc(1, sizeof(*r));

	(void)state;
	assert_non_null(r);
	part(&st, &s, &p, r, 1, "fault-clock");
	assert_non_null(s.atime);
	/* Page 3000 marked at fault count 0; 25 faults elsewhere. */
	s.atime[3000] = tp_atime_encode(&s.ffmt, tp_fault_clock_now(&s.fclk));
	for (int i = 0; i < 25; i++)
		(void)fault_latency(&s, 3001, 0);
	/* The fault ticks before it reads: it counts itself. */
	assert_int_equal(fault_latency(&s, 3000, 0), 26);
	/* A fast page ticks the clock but has no latency. */
	assert_int_equal(fault_latency(&s, 0, 1), TP_LATENCY_UNKNOWN);
	assert_int_equal(tp_fault_clock_now(&s.fclk), 27);
	part_teardown(&st, &s);
	free(r);
}

/* ---- end to end ------------------------------------------------------------ */

static void check_run(const struct sim_src *src, const struct sim_result *r)
{
	check_accounting(src, r);
	/*
	 * kmigrated moves what tierpol admitted, room or not at the
	 * decision: never more than the admissions.
	 */
	assert_true(r->promotions <= r->node.pgpromote_success +
		    r->node.refused_nospace);
	assert_true(r->node.decided <= r->hint_faults +
		    r->abit_scanned);
}

static void test_end_to_end(void **state)
{
	static const char *const specs[] = {
		"goal-bucket:rate=8:ctl=20", "histogram:rate=4",
		"goal-histogram", "goal-bucket:goal=pingpong:ctl=20:rate=8",
		"pghot", "pghot-precise",
		"pghot-abit", "fault-clock", "mainline:migrate=kmigrated",
		"pghot:src=both:abit=10", "goal-threshold:ctl=20",
	};
	enum { N = sizeof(specs) / sizeof(specs[0]) };
	struct setup s;
	struct sim_policy pol[N];
	struct sim_result *res = calloc(N + 1, sizeof(*res));
	struct run_set rs = { 0 };
	char err[SIM_ERRLEN], *j1, *j2;
	size_t l1, l2;
	u32 i;

	(void)state;
	assert_non_null(res);
	small_setup_threads(&s, WL_GUPS_HOTSET, 1 << 14, 6000000, 4096, 2);
	assert_int_equal(sim_validate(&s.cfg, &s.src, err, sizeof(err)), 0);
	for (i = 0; i < N; i++) {
		policy(&pol[i], specs[i], &s.cfg);
		if (sim_run(&s.cfg, &pol[i], &s.src, &res[i], NULL)) {
			print_error("%s\n", res[i].err);
			fail();
		}
		check_run(&s.src, &res[i]);
	}
	/* Each did its part. */
	assert_true(res[0].goal_steps > 0);		/* goal-bucket */
	assert_true(res[3].goal_steps > 0);
	assert_true(res[4].kmig_batches > 0);		/* pghot */
	assert_true(res[4].promotions > 0);
	assert_int_equal(res[4].t_migr, 0);		/* not in the fault */
	assert_int_equal(res[6].hint_faults, 0);	/* pghot-abit */
	assert_true(res[6].abit_scanned > 0);
	assert_true(res[6].promotions > 0);
	assert_true(res[7].th_faults);			/* fault-clock */
	assert_true(res[9].hint_faults > 0 && res[9].abit_scanned > 0);
	assert_true(res[10].goal_steps > 0);		/* goal-threshold */
	assert_int_equal(res[10].rate_end, 65536);

	/* The same seed and options give the same JSON, byte for byte. */
	assert_int_equal(sim_run(&s.cfg, &pol[6], &s.src, &res[N], NULL), 0);
	rs.title = "gups-hotset";
	rs.cfg = &s.cfg;
	rs.src = &s.src;
	rs.wp = &s.wp;
	rs.nr = 1;
	rs.res = &res[6];
	j1 = json_of(&rs, &l1);
	rs.res = &res[N];
	j2 = json_of(&rs, &l2);
	assert_int_equal(l1, l2);
	assert_memory_equal(j1, j2, l1);
	assert_non_null(strstr(j1, "\"rate_mbps\""));
	assert_non_null(strstr(j1, "\"t_kthread_s\""));
	free(j1);
	free(j2);
	for (i = 0; i <= N; i++)
		sim_result_free(&res[i]);
	free(res);
	small_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_specs),
		cmocka_unit_test(test_goal_loop),
		cmocka_unit_test(test_kmigrated),
		cmocka_unit_test(test_kmigrated_recheck),
		cmocka_unit_test(test_alloc_wakeup),
		cmocka_unit_test(test_records),
		cmocka_unit_test(test_abit_scanner),
		cmocka_unit_test(test_fault_clock),
		cmocka_unit_test(test_end_to_end),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
