// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * tiersim: the model's parts (allocation spill, watermark validation, trace
 * parsing, workload determinism, policy specs) and end-to-end runs checked
 * against the model's invariants.
 *
 * The simulator's sources are compiled into this test (all but the command
 * line, cli.h's files, and results.c), so every build of the tests covers
 * them, sanitizers included.
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

#include "../examples/tiersim/wl.c"
#include "../examples/tiersim/wl_gen.c"
#include "../examples/tiersim/trace.c"
#include "../examples/tiersim/sim_cfg.c"
#include "../examples/tiersim/sim_src.c"
#include "../examples/tiersim/sim_reclaim.c"
#include "../examples/tiersim/sim_numa.c"
#include "../examples/tiersim/sim_mem.c"
#include "../examples/tiersim/sim_kthread.c"
#include "../examples/tiersim/sim_setup.c"
#include "../examples/tiersim/sim.c"
#include "../examples/tiersim/sim_policy.c"
#include "../examples/tiersim/svg.c"
#include "../examples/tiersim/out.c"
#include "tiersim_test.h"

/* ---- helpers ------------------------------------------------------------- */

static char tmpdir[] = "/tmp/test_tiersim.XXXXXX";

static int group_setup(void **state)
{
	(void)state;
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int group_teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

/* Write @text to a new file in the temporary directory; returns its path. */
static const char *write_file(const char *name, const char *text)
{
	static char path[8][256];
	static int n;
	char *p = path[n++ % 8];
	FILE *f;

	snprintf(p, 256, "%s/%s", tmpdir, name);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
	return p;
}

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
 * kswapd on a fast tier filled by first touch (no page young): it demotes
 * from the free level the allocator stopped at (the low watermark) until
 * the demotion target (the promo watermark in mainline) is exceeded.
 * Returns the free pages when kswapd went back to sleep.
 */
static u64 kswapd_case(int rounds, u64 fast, const u64 wm[4],
		       u32 demote_ns, u64 *scanned, u64 *busy_ns)
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
	st.cfg.lru_two_list = 1;
	st.cfg.kswapd_rounds = rounds;
	st.cfg.costs.demote_ns = demote_ns;
	/* kswapd's time is its demotions' alone. */
	st.cfg.costs.reclaim_ns = 0;
	st.cfg.costs.tlb_ns = 0;
	st.cfg.costs.ipi_ns = 0;
	assert_int_equal(sim_validate(&st.cfg, &st.src, err, sizeof(err)), 0);
	policy(&p, "mainline", &st.cfg);
	memset(&s, 0, sizeof(s));
	s.c = &st.cfg;
	s.p = &p;
	s.src = &st.src;
	s.r = r;
	assert_int_equal(sim_setup(&s), 0);
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
	sim_teardown(&s);
	sim_result_free(r);
	free(r);
	small_free(&st);
	return free_end;
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
	 * rounds (6.1's balance_pgdat()): 4076 pages on the LRU; rounds of
	 * 4076 >> 12 = 0, >> 11 = 1, >> 10 = 3, >> 9 = 7, >> 8 = 15 pages,
	 * each one under nr_to_reclaim (32) so the priority rises; the
	 * watermark is checked between rounds only: 20 -> 21 -> 24 -> 31 ->
	 * 46, which overshoots the target (40) by 6.
	 */
	assert_int_equal(kswapd_case(1, 4096, wm, 0, &scanned, &busy), 46);
	assert_int_equal(scanned, 26);
	/*
	 * nr_to_reclaim caps a round: 65516 pages, rounds of 15 (prio 12)
	 * and 31 (prio 11) pages, then at prio 10 (63 to examine) each round
	 * stops after 32 demotions, examined 32 >= nr_to_reclaim so the
	 * priority stays: 20 + 15 + 31 = 66, then 61 rounds of 32 to pass
	 * 2000: 66 + 61 x 32 = 2018.
	 */
	assert_int_equal(kswapd_case(1, 65536, wm_far, 0, &scanned, &busy), 2018);
	assert_int_equal(scanned, 2018 - 20);
	/* simple reaches the same target one page at a time. */
	assert_int_equal(kswapd_case(0, 65536, wm_far, 0, &scanned, &busy), 2001);
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

static void check_invariants(const struct sim_src *src,
			     const struct sim_result *r, u64 upages);

/* A struct sim set up on a small machine, for the model's parts. */
static void part_setup(struct setup *st, struct sim *s, struct sim_policy *p,
		       struct sim_result *r, u32 threads, const char *pol)
{
	char err[SIM_ERRLEN];

	small_setup(st, WL_UNIFORM, 4096, 1000, 1024);
	st->wp.threads = threads;
	wl_free(&st->wl);
	sim_src_free(&st->src);
	assert_int_equal(wl_init(&st->wl, &st->wp, err, sizeof(err)), 0);
	assert_int_equal(sim_src_workload(&st->src, &st->wl), 0);
	assert_int_equal(sim_validate(&st->cfg, &st->src, err, sizeof(err)),
			 0);
	policy(p, pol, &st->cfg);
	memset(s, 0, sizeof(*s));
	s->c = &st->cfg;
	s->p = p;
	s->src = &st->src;
	s->r = r;
	assert_int_equal(sim_setup(s), 0);
}

static void part_free(struct setup *st, struct sim *s, struct sim_result *r)
{
	sim_teardown(s);
	sim_result_free(r);
	small_free(st);
}

/*
 * The loaded latency: idle + queue x u / (1 - u) at the epoch's
 * utilisation (smoothed by 1/4), u capped at 0.95; no bandwidth limit, no
 * queueing; the stall per access is the latency over the misses in flight.
 */
static void test_queueing_model(void **state)
{
	struct setup st;
	struct sim s;
	struct sim_policy p;
	struct sim_result *r = calloc(1, sizeof(*r));
	struct sim_costs *c;
	double u;

	(void)state;
	assert_non_null(r);
	part_setup(&st, &s, &p, r, 1, "none");
	/* The model reads the machine's costs through s.c. */
	c = &st.cfg.costs;
	c->lat[0] = c->lat[1] = 300;
	c->lat[2] = c->lat[3] = 80;
	c->bw_mbps[0] = 1000;		/* 1 byte per ns */
	c->bw_mbps[1] = 500;
	c->bw_mbps[2] = c->bw_mbps[3] = 0;
	c->gran[0] = 100;
	c->gran[1] = 64;
	c->queue_ns[0] = 100;
	c->queue_ns[1] = 10;
	s.mlp = 4;
	mem_costs(&s);
	/* At rest: the idle latencies; the stall is latency / mlp. */
	assert_int_equal(s.lat[0], 300);
	assert_int_equal(s.cost[0], 75);
	assert_int_equal(s.cost[2], 20);
	/*
	 * An epoch of 10000 ns: 20 slow reads (2000 bytes: 2000 ns) and 10
	 * slow writes (read and written back: 1000 ns + 1000 bytes at
	 * 0.5 B/ns = 2000 ns): 5000 ns busy, u = 0.5, smoothed 0.125.
	 */
	s.ep_cnt[0] = 20;
	s.ep_cnt[1] = 10;
	bw_epoch(&s, 10000);
	assert_true(fabs(s.util[0] - 0.125) < 1e-9);
	u = 0.125;
	assert_int_equal(s.lat[0], (u32)(300 + 100 * u / (1 - u) + 0.5));
	assert_int_equal(s.cost[0], (u32)((300 + 100 * u / (1 - u)) / 4 + 0.5));
	/* The counters start again; unlimited fast tier: no load. */
	assert_int_equal(s.ep_cnt[0], 0);
	assert_true(s.util[1] == 0);
	assert_int_equal(s.lat[2], 80);
	/* Migration traffic counts: 10000 bytes read = 10000 ns: u 1. */
	media_traffic(&s, 0, 0, 10000);
	bw_epoch(&s, 10000);
	assert_true(fabs(s.util[0] - (0.125 + (1 - 0.125) / 4)) < 1e-9);
	/* Saturated for long: the latency stops at the cap (u = 0.95). */
	for (int i = 0; i < 100; i++) {
		s.ep_cnt[0] = 1000;
		bw_epoch(&s, 10000);
	}
	assert_true(s.util[0] > 5);
	assert_int_equal(s.lat[0], (u32)(300 + 100 * 0.95 / 0.05 + 0.5));
	/* Idle again: the utilisation decays, the latency returns. */
	for (int i = 0; i < 200; i++)
		bw_epoch(&s, 10000);
	assert_int_equal(s.lat[0], 300);
	part_free(&st, &s, r);
	free(r);
}

/*
 * The threads run in time order: pick() takes the running thread with the
 * earliest clock (the lower index of equal ones) and the next clock after
 * it, and skips threads waiting for the phase to end.
 */
static void test_thread_order(void **state)
{
	struct setup st;
	struct sim s;
	struct sim_policy p;
	struct sim_result *r = calloc(1, sizeof(*r));
	struct sthread *t;
	u64 second;

	(void)state;
	assert_non_null(r);
	part_setup(&st, &s, &p, r, 4, "none");
	assert_int_equal(s.nr_thr, 4);
	s.thr[0].now = 10;
	s.thr[1].now = 5;
	s.thr[2].now = 7;
	s.thr[3].now = 5;
	t = pick(&s, &second);
	assert_ptr_equal(t, &s.thr[1]);
	assert_int_equal(second, 5);
	s.thr[1].state = TH_WAIT;
	t = pick(&s, &second);
	assert_ptr_equal(t, &s.thr[3]);
	assert_int_equal(second, 7);
	s.thr[3].state = TH_DONE;
	s.thr[2].state = TH_WAIT;
	t = pick(&s, &second);
	assert_ptr_equal(t, &s.thr[0]);
	assert_int_equal(second, T_NEVER);
	s.thr[0].state = TH_WAIT;
	assert_null(pick(&s, &second));
	part_free(&st, &s, r);
	free(r);
}

/*
 * A clock per thread: four threads of equal work end at the same time,
 * a quarter of what one clock for all would take (--clock serial); the
 * wall-time rules see four times the rate. With nothing but CPU and
 * memory time (no scanner, no allocation cost), the times are exact.
 */
static void test_thread_clocks(void **state)
{
	struct setup st;
	struct sim_policy p;
	struct sim_result *r = calloc(2, sizeof(*r));
	char err[SIM_ERRLEN];
	int serial;

	(void)state;
	assert_non_null(r);
	for (serial = 0; serial < 2; serial++) {
		small_setup(&st, WL_UNIFORM, 4096, 40000, 4096 - 1024);
		st.wp.threads = 4;
		st.wp.init = 0;
		wl_free(&st.wl);
		sim_src_free(&st.src);
		assert_int_equal(wl_init(&st.wl, &st.wp, err, sizeof(err)), 0);
		assert_int_equal(sim_src_workload(&st.src, &st.wl), 0);
		st.cfg.allow_no_pressure = 1;
		st.cfg.costs.alloc_ns = 0;
		st.cfg.costs.cpu_ns = 100;
		st.cfg.costs.lat[0] = st.cfg.costs.lat[1] = 100;
		st.cfg.costs.lat[2] = st.cfg.costs.lat[3] = 100;
		st.cfg.costs.mlp = 1;
		memset(st.cfg.costs.bw_mbps, 0, sizeof(st.cfg.costs.bw_mbps));
		st.cfg.serial_clock = serial;
		assert_int_equal(sim_validate(&st.cfg, &st.src, err,
					      sizeof(err)), 0);
		policy(&p, "none", &st.cfg);
		assert_int_equal(sim_run(&st.cfg, &p, &st.src, &r[serial],
					 NULL), 0);
		check_invariants(&st.src, &r[serial], 1);
		small_free(&st);
	}
	/* 10000 accesses of 200 ns each per thread. */
	assert_int_equal(r[0].sim_time_ns, 10000 * 200);
	assert_int_equal(r[1].sim_time_ns, 40000 * 200);
	assert_true(fabs(sim_throughput(&r[0]) - 4 * sim_throughput(&r[1])) <
		    1e-9 * sim_throughput(&r[0]));
	sim_result_free(&r[0]);
	sim_result_free(&r[1]);
	free(r);
}

/*
 * The accessed bit is set by a TLB fill: a page whose bit kswapd cleared
 * stays old while its translation is cached, and becomes young again at
 * the access after its entry is invalidated (a migration or a scan).
 */
static void test_tlb_accessed_bit(void **state)
{
	struct setup st;
	struct sim s;
	struct sim_policy p;
	struct sim_result *r = calloc(1, sizeof(*r));
	struct sthread *t;
	u64 buf[3], *own;

	(void)state;
	assert_non_null(r);
	part_setup(&st, &s, &p, r, 1, "none");
	t = &s.thr[0];
	own = t->buf;
	t->buf = buf;			/* replaced for the test */
	buf[0] = buf[1] = buf[2] = WL_MAKE(5, 0, 0);
	t->got = 3;
	t->pos = 0;
	s.cur = t;
	run_slice(&s, t, 0);		/* one access: allocation, fill */
	assert_true(s.flags[5] & PF_YOUNG);
	s.flags[5] &= (u8)~PF_YOUNG;	/* kswapd's look, no flush */
	run_slice(&s, t, 0);
	assert_false(s.flags[5] & PF_YOUNG);
	tlb_invalidate(&s, 5);
	run_slice(&s, t, 0);
	assert_true(s.flags[5] & PF_YOUNG);
	t->buf = own;
	part_free(&st, &s, r);
	free(r);
}

/*
 * A demotion frees its slot when its copy is done, not when it starts;
 * promoted and demoted again with kswapd's clock behind the promotion's
 * time counts as ping-pong (no unsigned underflow).
 */
static void test_demotion_end(void **state)
{
	static const u64 wm[4] = { 10, 20, 30, 40 };
	struct setup st;
	struct sim s;
	struct sim_policy p;
	struct sim_result *r = calloc(1, sizeof(*r));
	u64 u, used;

	(void)state;
	assert_non_null(r);
	part_setup(&st, &s, &p, r, 1, "mainline");
	memcpy(s.wm, wm, sizeof(s.wm));
	for (u = 0; u < 2000; u++)
		alloc_unit(&s, u);
	used = s.fused;
	s.now = 5000 * SIM_NS_PER_MS;
	s.kswapd_clock = 10;
	demote(&s, 0);
	assert_int_equal(s.fused, used);	/* still copying */
	assert_int_equal(s.inflight, 0);
	assert_true(s.kswapd_clock > 10);
	/* The page was promoted at 4 s; kswapd's clock says 0 s. */
	s.fpromo[0] = 4000 + 1;
	s.kswapd_clock = 100;
	kswapd_finish(&s);
	assert_int_equal(s.fused, used - 1);
	assert_int_equal(r->demotions, 1);
	assert_int_equal(r->pingpong, 1);
	assert_int_equal(s.inflight, NO_SLOT);
	/* Fast-tier slots hold 64-bit unit numbers. */
	assert_int_equal(sizeof(s.fslot[0]), 8);
	part_free(&st, &s, r);
	free(r);
}

/*
 * A 1/4 scale model of a machine gives the full machine's figures: each
 * page and access of its stream stands for four.
 */
static void test_scale_model(void **state)
{
	struct setup st;
	struct sim_policy p;
	struct sim_result *r = calloc(2, sizeof(*r));
	char err[SIM_ERRLEN];
	int k;

	(void)state;
	assert_non_null(r);
	for (k = 0; k < 2; k++) {
		small_setup(&st, WL_PMBENCH, k ? 1 << 14 : 1 << 16,
			    k ? 500000 : 2000000, k ? 1 << 12 : 1 << 14);
		st.cfg.scale = k ? 4 : 1;
		st.cfg.scan_period_ms = 0;
		st.cfg.scan_delay_ms = 100;
		st.cfg.scan_size_mb = 32;
		assert_int_equal(sim_validate(&st.cfg, &st.src, err,
					      sizeof(err)), 0);
		policy(&p, "mainline", &st.cfg);
		assert_int_equal(sim_run(&st.cfg, &p, &st.src, &r[k], NULL), 0);
		small_free(&st);
	}
	assert_true(fabs(sim_fast_ratio(&r[1]) - sim_fast_ratio(&r[0])) < 0.03);
	assert_true(fabs(sim_throughput(&r[1]) / sim_throughput(&r[0]) - 1) <
		    0.05);
	assert_true(fabs((double)r[1].promotions / (double)r[0].promotions -
			 1) < 0.2);
	assert_int_equal(r[1].alloc_fast + r[1].alloc_slow, 1 << 16);
	sim_result_free(&r[0]);
	sim_result_free(&r[1]);
	free(r);
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

/* ---- traces ---------------------------------------------------------------- */

static void expect_trace_error(const char *name, const char *text, int fmt,
			       int line, const char *why)
{
	struct trace t;
	char err[SIM_ERRLEN], want[300];
	const char *path = write_file(name, text);

	assert_int_equal(trace_open(&t, path, fmt, 0, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "%s:%d: ", path, line);
	if (strncmp(err, want, strlen(want))) {
		print_error("got \"%s\", want prefix \"%s\"\n", err, want);
		fail();
	}
	assert_non_null(strstr(err, why));
}

static void test_trace_errors(void **state)
{
	(void)state;
	expect_trace_error("bad1.txt", "R 1000\nW 2000\nX 3000\n",
			   TRACE_AUTO, 3, "unknown operation");
	expect_trace_error("bad2.txt", "# c\nR 1000\nR zz\n", TRACE_TIERSIM,
			   3, "bad hexadecimal address");
	expect_trace_error("bad3.txt", "R 1000 70000\n", TRACE_TIERSIM, 1,
			   "bad thread id");
	expect_trace_error("bad4.txt", "R 1000 1 5\nR 2000 1\n", TRACE_TIERSIM,
			   2, "timestamp missing");
	expect_trace_error("bad5.txt", "R 1000 1 5 junk\n", TRACE_TIERSIM, 1,
			   "garbage after the timestamp");
	expect_trace_error("bad6.txt",
			   "==1== Lackey\nI  0401ab70,3\n L 1fff000708\n",
			   TRACE_AUTO, 3, "expected \",SIZE\"");
	expect_trace_error("bad7.txt", "I  0401ab70,3\nhello\n", TRACE_AUTO,
			   2, "not a lackey line");
	expect_trace_error("bad8.txt", "# only a comment\n\n", TRACE_AUTO, 2,
			   "no memory accesses");
	expect_trace_error("bad9.txt", "R 1000 1 5\nR 2000 2 5\nW 1000 1 4\n",
			   TRACE_TIERSIM, 3, "timestamp 4 ns is before the "
			   "previous access's, 5 ns on line 2 (timestamps "
			   "must not decrease)");
}

static const char lackey_text[] =
	"==5310== Lackey, an example Valgrind tool\n"
	"==5310== Command: /bin/true\n"
	"==5310== \n"
	"I  0401ab70,3\n"
	" S 1fff000708,8\n"
	"I  0401b770,1\n"
	" L 0401c000,8\n"
	" M 1fff000ff8,8\n"
	" L 7ff000001000,4\n"
	"I  0401b771,7\n"
	"==5310== Counted 0 calls to main()\n";

static void test_lackey_parse(void **state)
{
	struct trace t;
	struct trace_stream ts;
	char err[SIM_ERRLEN];
	u64 buf[16];
	long n;
	const char *path = write_file("lk.txt", lackey_text);

	(void)state;
	assert_int_equal(trace_open(&t, path, TRACE_AUTO, 0, err, sizeof(err)),
			 0);
	assert_int_equal(t.format, TRACE_LACKEY);
	assert_int_equal(t.nr_accesses, 4);
	/* 0x1fff000 (S and M), 0x401c, 0x7ff000001 */
	assert_int_equal(t.nr_pages, 3);
	assert_int_equal(t.nr_threads, 1);
	assert_int_equal(t.has_time, 0);
	/* Address order: 0x401c, 0x1fff000, 0x7ff000001. */
	assert_int_equal(t.vpn[0], 0x401c);
	assert_int_equal(t.vpn[1], 0x1fff000);
	assert_int_equal(t.vpn[2], 0x7ff000001ULL);
	assert_int_equal(t.count[1], 2);
	assert_int_equal(t.nr_vmas, 3);

	assert_int_equal(trace_stream_open(&ts, &t, err, sizeof(err)), 0);
	n = trace_stream_fill(&ts, buf, NULL, 16, err, sizeof(err));
	assert_int_equal(n, 4);
	assert_int_equal(WL_PAGE(buf[0]), 1);
	assert_int_equal(WL_IS_WRITE(buf[0]), 1);	/* S */
	assert_int_equal(WL_PAGE(buf[1]), 0);
	assert_int_equal(WL_IS_WRITE(buf[1]), 0);	/* L */
	assert_int_equal(WL_PAGE(buf[2]), 1);
	assert_int_equal(WL_IS_WRITE(buf[2]), 1);	/* M */
	assert_int_equal(WL_PAGE(buf[3]), 2);
	assert_int_equal(trace_stream_fill(&ts, buf, NULL, 16, err,
					   sizeof(err)), 0);
	trace_stream_close(&ts);
	trace_close(&t);

	/* Instruction fetches count as reads on request. */
	assert_int_equal(trace_open(&t, path, TRACE_LACKEY, 1, err,
				    sizeof(err)), 0);
	assert_int_equal(t.nr_accesses, 7);
	assert_int_equal(t.nr_pages, 5);
	trace_close(&t);
}

static void test_tiersim_format(void **state)
{
	struct trace t;
	struct trace_stream ts;
	char err[SIM_ERRLEN];
	u64 buf[8], gap[8];
	const char *path = write_file("ts.txt",
		"# tiersim trace\nR 0x1000 3 100\nw 2008 7 150\n"
		"M 1000 3 400\n\nR 0x40000000 3 400\n");

	(void)state;
	assert_int_equal(trace_open(&t, path, TRACE_AUTO, 0, err, sizeof(err)),
			 0);
	assert_int_equal(t.format, TRACE_TIERSIM);
	assert_int_equal(t.nr_accesses, 4);
	assert_int_equal(t.nr_pages, 3);
	assert_int_equal(t.nr_threads, 2);
	assert_int_equal(t.has_time, 1);
	assert_int_equal(t.nr_vmas, 2);
	assert_int_equal(trace_stream_open(&ts, &t, err, sizeof(err)), 0);
	assert_int_equal(trace_stream_fill(&ts, buf, gap, 8, err, sizeof(err)),
			 4);
	assert_int_equal(WL_TID(buf[0]), 0);
	assert_int_equal(WL_TID(buf[1]), 1);
	assert_int_equal(WL_IS_WRITE(buf[1]), 1);
	assert_int_equal(WL_IS_WRITE(buf[2]), 1);
	assert_int_equal(gap[0], 0);
	assert_int_equal(gap[1], 50);
	assert_int_equal(gap[2], 250);
	assert_int_equal(gap[3], 0);
	trace_stream_close(&ts);
	trace_close(&t);
}

/* ---- workloads -------------------------------------------------------------- */

static u64 stream_hash(struct wl *w, u64 *n)
{
	u64 buf[1000], h = 1469598103934665603ULL;
	size_t got, i;

	*n = 0;
	while ((got = wl_fill(w, buf, 1000)) > 0) {
		for (i = 0; i < got; i++)
			h = (h ^ buf[i]) * 1099511628211ULL;
		*n += got;
	}
	return h;
}

static void test_workload_determinism(void **state)
{
	static const u32 kinds[] = { WL_PMBENCH, WL_ZIPF, WL_GUPS_HOTSET,
				     WL_PHASE_SHIFT, WL_COLD_BURST,
				     WL_DISJOINT_VMA, WL_UNIFORM };
	struct wl_params p;
	struct wl a, b;
	char err[SIM_ERRLEN];
	u64 ha, hb, na, nb;
	u32 i;

	(void)state;
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		wl_defaults(&p, kinds[i]);
		p.pages = 1 << 14;
		p.accesses = 50000;
		p.burst_pages = 1000;
		p.seed = 42;
		assert_int_equal(wl_init(&a, &p, err, sizeof(err)), 0);
		assert_int_equal(wl_init(&b, &p, err, sizeof(err)), 0);
		ha = stream_hash(&a, &na);
		hb = stream_hash(&b, &nb);
		assert_int_equal(ha, hb);
		assert_int_equal(na, a.total);
		assert_int_equal(na, nb);
		/* The same generator replays the same stream after a rewind. */
		wl_rewind(&a);
		assert_int_equal(stream_hash(&a, &na), ha);
		wl_free(&b);
		p.seed = 43;
		assert_int_equal(wl_init(&b, &p, err, sizeof(err)), 0);
		assert_int_not_equal(stream_hash(&b, &nb), ha);
		wl_free(&a);
		wl_free(&b);
	}
}

static void test_workload_shapes(void **state)
{
	struct wl_params p;
	struct wl w;
	char err[SIM_ERRLEN];
	u64 buf[4096], n = 0, writes = 0, hot = 0;
	double sum = 0, sq = 0, mean, sd;
	size_t got, i;

	(void)state;
	/* pmbench: mean pages / 2, sigma pages / 8, 20 % writes. */
	wl_defaults(&p, WL_PMBENCH);
	p.pages = 1 << 16;
	p.accesses = 400000;
	p.init = 0;
	assert_int_equal(wl_init(&w, &p, err, sizeof(err)), 0);
	while ((got = wl_fill(&w, buf, 4096)) > 0)
		for (i = 0; i < got; i++) {
			double x = (double)WL_PAGE(buf[i]);

			sum += x;
			sq += x * x;
			writes += WL_IS_WRITE(buf[i]);
			n++;
		}
	mean = sum / (double)n;
	sd = sqrt(sq / (double)n - mean * mean);
	assert_true(fabs(mean - 32768) < 100);
	assert_true(fabs(sd - 8192) < 80);
	assert_true(fabs((double)writes / (double)n - 0.2) < 0.005);
	wl_free(&w);

	/* The quantile function is accurate. */
	assert_true(fabs(wl_norm_quantile(0.975) - 1.959964) < 1e-6);
	assert_true(fabs(wl_norm_quantile(0.001) + 3.090232) < 1e-6);

	/* gups-hotset: 90 % of the accesses in the hot set. */
	wl_defaults(&p, WL_GUPS_HOTSET);
	p.pages = 1 << 16;
	p.accesses = 200000;
	p.init = 0;
	assert_int_equal(wl_init(&w, &p, err, sizeof(err)), 0);
	n = 0;
	while ((got = wl_fill(&w, buf, 4096)) > 0)
		for (i = 0; i < got; i++, n++)
			hot += wl_region(&w, WL_PAGE(buf[i])) == WL_REGION_HOT;
	assert_true(fabs((double)hot / (double)n - 0.9) < 0.01);
	wl_free(&w);

	/* cold-burst: the burst touches each of its pages once. */
	wl_defaults(&p, WL_COLD_BURST);
	p.pages = 1 << 16;
	p.accesses = 10000;
	p.burst_pages = 3000;
	p.init = 0;
	assert_int_equal(wl_init(&w, &p, err, sizeof(err)), 0);
	n = 0;
	while ((got = wl_fill(&w, buf, 4096)) > 0) {
		if (strcmp(w.phase[wl_phase(&w)].name, "burst"))
			continue;
		for (i = 0; i < got; i++, n++)
			assert_int_equal(wl_region(&w, WL_PAGE(buf[i])),
					 WL_REGION_BURST);
	}
	assert_int_equal(n, 3000);
	wl_free(&w);
}

/*
 * Per-thread streams: each phase's shares add up to the phase, only the
 * phase's threads take part, and wl_fill() yields exactly the threads'
 * streams one after the other.
 */
static void test_workload_threads(void **state)
{
	static const u32 kinds[] = { WL_PMBENCH, WL_COLD_BURST,
				     WL_DISJOINT_VMA };
	struct wl_params p;
	struct wl w;
	struct wl_thread t;
	char err[SIM_ERRLEN];
	u64 buf[512], ref[512], total, got, n, h_thr, h_fill;
	u32 i, k, ph;

	(void)state;
	for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		wl_defaults(&p, kinds[k]);
		p.pages = 1 << 14;
		p.accesses = 30001;
		p.burst_pages = 999;
		p.threads = 5;
		assert_int_equal(wl_init(&w, &p, err, sizeof(err)), 0);
		for (ph = 0; ph < w.nr_phases; ph++) {
			for (total = 0, i = 0; i < p.threads; i++) {
				n = wl_thread_quota(&w, ph, i);
				if (i < w.phase[ph].t_lo ||
				    i >= w.phase[ph].t_hi)
					assert_int_equal(n, 0);
				total += n;
			}
			assert_int_equal(total, w.phase[ph].count);
		}
		/* Phase by phase, thread by thread: wl_fill()'s order. */
		h_thr = 1;
		for (ph = 0; ph < w.nr_phases; ph++)
			for (i = 0; i < p.threads; i++) {
				/* Its earlier phases, then phase ph. */
				wl_thread_start(&w, &t, i);
				for (;;) {
					while ((got = wl_thread_fill(&w, &t, buf,
							512)) > 0) {
						u64 j;

						if (t.cur != ph)
							continue;
						for (j = 0; j < got; j++) {
							assert_int_equal(
								WL_TID(buf[j]),
								i);
							h_thr = (h_thr ^ buf[j]) *
								1099511628211ULL;
						}
					}
					if (t.cur == ph ||
					    !wl_thread_next(&w, &t))
						break;
				}
			}
		h_fill = 1;
		wl_rewind(&w);
		while ((got = wl_fill(&w, ref, 512)) > 0)
			for (n = 0; n < got; n++)
				h_fill = (h_fill ^ ref[n]) * 1099511628211ULL;
		assert_int_equal(h_thr, h_fill);
		wl_free(&w);
	}
}

static void test_workload_bad_params(void **state)
{
	struct wl_params p;
	struct wl w;
	char err[SIM_ERRLEN];

	(void)state;
	wl_defaults(&p, WL_PMBENCH);
	p.write_frac = 1.5;
	assert_int_equal(wl_init(&w, &p, err, sizeof(err)), -1);
	wl_defaults(&p, WL_DISJOINT_VMA);
	p.threads = 1;
	assert_int_equal(wl_init(&w, &p, err, sizeof(err)), -1);
	assert_int_equal(wl_kind_parse("nope"), -1);
	assert_int_equal(wl_kind_parse("gups-hotset"), WL_GUPS_HOTSET);
}

/* ---- policy specs ------------------------------------------------------------ */

static void test_policy_specs(void **state)
{
	struct sim_policy p;
	struct sim_cfg c;
	char err[SIM_ERRLEN];

	(void)state;
	sim_cfg_defaults(&c);
	policy(&p, "rfc2020-p3", &c);
	assert_true(p.cfg.mode & TP_MODE_NORMAL);
	assert_false(p.cfg.flags & TP_POL_HOTNESS);
	policy(&p, "rfc2020", &c);
	assert_int_equal(p.cfg.flags, TP_POL_FREE_BYPASS | TP_POL_YOUNG |
			 TP_POL_HOTNESS | TP_POL_WRITE_DOUBLE |
			 TP_POL_ADAPTIVE | TP_POL_RL_WMARK_DEFAULT);
	assert_int_equal(p.lat_src, LAT_RING);
	policy(&p, "mainline-bypass-off", &c);
	assert_false(p.cfg.flags & TP_POL_FREE_BYPASS);
	assert_int_equal(p.lat_src, LAT_ATIME);
	policy(&p, "mainline-young+write-double:lat=ring:vma=disjoint:rate=64",
	       &c);
	assert_false(p.cfg.flags & TP_POL_YOUNG);
	assert_true(p.cfg.flags & TP_POL_WRITE_DOUBLE);
	assert_int_equal(p.lat_src, LAT_RING);
	assert_int_equal(p.vma_filter, VMAF_DISJOINT);
	assert_int_equal(p.cfg.rate_limit_mbps, 64);
	policy(&p, "token-bucket", &c);
	assert_int_equal(p.cfg.limiter_variant, TP_LIMITER_BUCKET);
	policy(&p, "oracle", &c);
	assert_true(p.oracle);

	/* Global sysctls apply unless the spec set the value. */
	c.rate_limit_mbps = 32;
	policy(&p, "mainline", &c);
	assert_int_equal(p.cfg.rate_limit_mbps, 32);
	policy(&p, "mainline:rate=8", &c);
	assert_int_equal(p.cfg.rate_limit_mbps, 8);

	assert_int_equal(sim_policy_parse("bogus", &p, err, sizeof(err)), -1);
	assert_int_equal(sim_policy_parse("mainline+bogus", &p, err,
					  sizeof(err)), -1);
	assert_int_equal(sim_policy_parse("mainline:lat=x", &p, err,
					  sizeof(err)), -1);
	assert_int_equal(sim_policy_parse("mainline:nokey", &p, err,
					  sizeof(err)), -1);
	/* A combination tierpol refuses is refused with the reason. */
	assert_int_equal(sim_policy_parse("mainline-hotness", &p, err,
					  sizeof(err)), 0);
	assert_int_equal(sim_policy_finalize(&p, &c, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "need hotness"));
}

/* ---- end to end -------------------------------------------------------------- */

static void check_invariants(const struct sim_src *src,
			     const struct sim_result *r, u64 upages)
{
	check_accounting(src, r);
	assert_int_equal(r->node.decided, r->hint_faults * upages);
	assert_int_equal(r->node.pgpromote_success, r->promotions);
}

static void run_all(struct setup *s, const char *const *specs, u32 n,
		    struct sim_result *res, struct sim_policy *pol)
{
	char err[SIM_ERRLEN];
	u32 i;

	for (i = 0; i < n; i++) {
		policy(&pol[i], specs[i], &s->cfg);
		if (pol[i].oracle)
			assert_int_equal(sim_src_count(&s->src, err,
						       sizeof(err)), 0);
		if (sim_run(&s->cfg, &pol[i], &s->src, &res[i], NULL)) {
			print_error("%s\n", res[i].err);
			fail();
		}
		check_invariants(&s->src, &res[i], s->cfg.thp ? 512 : 1);
	}
}

static void test_end_to_end(void **state)
{
	static const char *const specs[] = {
		"none", "promote-all", "rfc2020-p3", "rfc2020", "mainline",
		"mainline-bypass-off", "token-bucket:rate=4", "oracle",
		"mainline:vma=disjoint",
	};
	enum { N = sizeof(specs) / sizeof(specs[0]) };
	struct setup s;
	struct sim_policy pol[N];
	struct sim_result *res = calloc(2 * N, sizeof(*res));
	struct run_set rs = { 0 };
	char err[SIM_ERRLEN], *j1, *j2;
	size_t l1, l2;
	u32 i;

	(void)state;
	assert_non_null(res);
	small_setup(&s, WL_PMBENCH, 1 << 14, 600000, 4096);
	assert_int_equal(sim_validate(&s.cfg, &s.src, err, sizeof(err)), 0);
	run_all(&s, specs, N, res, pol);

	/* The policies did something, and the bounds hold. */
	assert_true(res[1].promotions > 0);		/* promote-all */
	assert_true(res[1].demotions > 0);
	assert_true(res[2].hint_faults_fast > 0);	/* rfc2020-p3 scans DRAM */
	assert_int_equal(res[3].hint_faults_fast, 0);	/* rfc2020 skips it */
	assert_true(res[4].pte_scanned > 0);
	assert_true(sim_fast_ratio(&res[7]) >= sim_fast_ratio(&res[0]));
	assert_int_equal(res[7].promotions + res[7].hint_faults, 0);
	assert_true(res[6].node.refused_ratelimit > 0);

	/* The same seed and options give the same JSON, byte for byte. */
	run_all(&s, specs, N, res + N, pol);
	rs.title = "pmbench";
	rs.cfg = &s.cfg;
	rs.src = &s.src;
	rs.wp = &s.wp;
	rs.seed = s.wp.seed;
	rs.nr = N;
	rs.res = res;
	j1 = json_of(&rs, &l1);
	rs.res = res + N;
	j2 = json_of(&rs, &l2);
	assert_int_equal(l1, l2);
	assert_memory_equal(j1, j2, l1);
	assert_non_null(strstr(j1, "\"policy\": \"mainline-bypass-off\""));
	free(j1);
	free(j2);

	for (i = 0; i < 2 * N; i++)
		sim_result_free(&res[i]);
	free(res);
	small_free(&s);
}

static void test_end_to_end_workloads(void **state)
{
	static const u32 kinds[] = { WL_ZIPF, WL_GUPS_HOTSET, WL_PHASE_SHIFT,
				     WL_COLD_BURST, WL_DISJOINT_VMA,
				     WL_UNIFORM };
	static const char *const specs[] = { "rfc2020", "mainline", "oracle" };
	struct sim_policy pol[3];
	struct sim_result *res = calloc(3, sizeof(*res));
	char err[SIM_ERRLEN];
	u32 i, k;

	(void)state;
	assert_non_null(res);
	for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		struct setup s;

		small_setup(&s, kinds[k], 17 * 1024, 200000, 4096);
		assert_int_equal(sim_validate(&s.cfg, &s.src, err,
					      sizeof(err)), 0);
		run_all(&s, specs, 3, res, pol);
		for (i = 0; i < 3; i++)
			sim_result_free(&res[i]);
		small_free(&s);
	}
	free(res);
}

static void test_end_to_end_thp(void **state)
{
	static const char *const specs[] = { "none", "mainline", "oracle" };
	struct setup s;
	struct sim_policy pol[3];
	struct sim_result *res = calloc(3, sizeof(*res));
	char err[SIM_ERRLEN];
	u32 i;

	(void)state;
	assert_non_null(res);
	small_setup(&s, WL_PMBENCH, 512 * 64, 200000, 512 * 16);
	s.cfg.thp = 1;
	assert_int_equal(sim_validate(&s.cfg, &s.src, err, sizeof(err)), 0);
	run_all(&s, specs, 3, res, pol);
	/* Folios move 512 pages at a time. */
	assert_int_equal(res[1].fast_used_end % 512, 0);
	for (i = 0; i < 3; i++)
		sim_result_free(&res[i]);
	free(res);
	small_free(&s);
}

static void test_end_to_end_trace(void **state)
{
	static const char *const specs[] = { "none", "mainline", "rfc2020",
					     "oracle" };
	struct sim_policy pol[4];
	struct sim_result *res = calloc(4, sizeof(*res));
	struct trace t;
	struct sim_src src;
	struct sim_cfg c;
	char err[SIM_ERRLEN], *text, *p;
	const char *path;
	u32 i;

	(void)state;
	assert_non_null(res);
	/* 20000 accesses over 64 pages of which 8 are hot. */
	text = malloc(20000 * 32);
	assert_non_null(text);
	p = text;
	for (i = 0; i < 20000; i++)
		p += sprintf(p, "%c %llx %u %u\n", i % 5 ? 'R' : 'W',
			     0x7f0000000000ULL + 4096ULL *
			     ((i % 3) ? (i * 7) % 8 : (i * 13) % 64),
			     i % 2, 1000 * i);
	path = write_file("e2e.txt", text);
	free(text);
	assert_int_equal(trace_open(&t, path, TRACE_AUTO, 0, err, sizeof(err)),
			 0);
	assert_int_equal(sim_src_trace(&src, &t), 0);
	sim_cfg_defaults(&c);
	c.fast_pages = 24;
	c.slow_pages = 64;
	c.wmark[0] = 1;
	c.wmark[1] = 2;
	c.wmark[2] = 3;
	c.wmark[3] = 4;
	c.scan_delay_ms = 1;
	c.scan_period_ms = 1;
	assert_int_equal(sim_validate(&c, &src, err, sizeof(err)), 0);
	for (i = 0; i < 4; i++) {
		policy(&pol[i], specs[i], &c);
		if (pol[i].oracle)
			assert_int_equal(sim_src_count(&src, err, sizeof(err)),
					 0);
		assert_int_equal(sim_run(&c, &pol[i], &src, &res[i], NULL), 0);
		check_invariants(&src, &res[i], 1);
		/* Timestamps drive the CPU time: 1 us apart. */
		assert_int_equal(res[i].t_cpu, 1000ULL * 19999);
	}
	assert_true(sim_fast_ratio(&res[3]) > 0.6);
	for (i = 0; i < 4; i++)
		sim_result_free(&res[i]);
	free(res);
	sim_src_free(&src);
	trace_close(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_alloc_spill_at_low_wmark),
		cmocka_unit_test(test_kswapd_simple_vs_rounds),
		cmocka_unit_test(test_kswapd_demote_cost),
		cmocka_unit_test(test_queueing_model),
		cmocka_unit_test(test_thread_order),
		cmocka_unit_test(test_thread_clocks),
		cmocka_unit_test(test_tlb_accessed_bit),
		cmocka_unit_test(test_demotion_end),
		cmocka_unit_test(test_scale_model),
		cmocka_unit_test(test_alloc_init_fast_limit),
		cmocka_unit_test(test_wmarks_computed_in_order),
		cmocka_unit_test(test_validate_refuses),
		cmocka_unit_test(test_trace_errors),
		cmocka_unit_test(test_lackey_parse),
		cmocka_unit_test(test_tiersim_format),
		cmocka_unit_test(test_workload_determinism),
		cmocka_unit_test(test_workload_shapes),
		cmocka_unit_test(test_workload_threads),
		cmocka_unit_test(test_workload_bad_params),
		cmocka_unit_test(test_policy_specs),
		cmocka_unit_test(test_end_to_end),
		cmocka_unit_test(test_end_to_end_workloads),
		cmocka_unit_test(test_end_to_end_thp),
		cmocka_unit_test(test_end_to_end_trace),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
