// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * tiersim: the model's parts (the queueing model, the threads' clocks, the
 * TLB's accessed bits, demotion, scale models, policy specs) and end-to-end
 * runs checked against the model's invariants. Allocation, the watermarks
 * and the LRU are tested in test_tiersim_reclaim.c, kswapd in
 * test_tiersim_kswapd.c, the workload generators and the trace readers in
 * test_tiersim_wl.c.
 *
 * It links the simulator's objects (examples/tiersim/tiersim.mk), which
 * each build of the tests compiles with its own flags, so those builds
 * cover them too: gcc's ASan and UBSan, valgrind, TP_DEBUG, 32-bit.
 */
#define _GNU_SOURCE
#include <math.h>
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

#include "tiersim_tmp.h"

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
	sim_begin(s, st, p, r);
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
	policy(&p, "mainline-bypass-bypass-reset+write-double:lat=ring:"
	       "vma=disjoint:rate=64", &c);
	assert_false(p.cfg.flags & TP_POL_FREE_BYPASS);
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
	/* a switch the base has (+) or lacks (-) would change nothing */
	assert_int_equal(sim_policy_parse("mainline-young", &p, err,
					  sizeof(err)), -1);
	assert_string_equal(err, "policy \"mainline-young\": -young changes "
			    "nothing: mainline does not have it");
	assert_int_equal(sim_policy_parse("rfc2020-p8+young", &p, err,
					  sizeof(err)), -1);
	assert_int_equal(sim_policy_parse("rfc2020-p3-scan-top", &p, err,
					  sizeof(err)), 0);
	assert_int_equal(sim_policy_parse("rfc2020-p4-scan-top", &p, err,
					  sizeof(err)), -1);
	/* A combination tierpol refuses is refused with the reason. */
	assert_int_equal(sim_policy_parse("mainline-hotness", &p, err,
					  sizeof(err)), 0);
	assert_int_equal(sim_policy_finalize(&p, &c, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "need hotness"));
}

/* Specs of one policy (set.c refuses them together) and of two. */
static void test_policy_same(void **state)
{
	static const char *const same[][2] = {
		{ "rfc2020", "rfc2020-p8" }, { "rfc2020-auto", "rfc2020" },
		{ "rfc2020-fixed", "rfc2020-p7" },
		{ "mainline:rate=64", "mainline:rate=064" },
		{ "mainline", "mainline:rate=65536" },
		{ "mainline", "mainline:period=60000" },
	};
	static const char *const two[][2] = {
		{ "mainline", "mainline:rate=64" },
		{ "mainline", "mainline-bypass-off" },
		{ "rfc2020-p7", "rfc2020-p8" },
		{ "mainline", "mainline:vma=disjoint" },
		{ "mainline", "token-bucket" },
		{ "damon", "damon:feedback=damos" },
		{ "none", "oracle" },
	};
	struct sim_policy p, q;
	struct sim_cfg c;
	u32 i;

	(void)state;
	sim_cfg_defaults(&c);
	for (i = 0; i < sizeof(same) / sizeof(same[0]); i++) {
		policy(&p, same[i][0], &c);
		policy(&q, same[i][1], &c);
		assert_true(sim_policy_same(&p, &q));
	}
	for (i = 0; i < sizeof(two) / sizeof(two[0]); i++) {
		policy(&p, two[i][0], &c);
		policy(&q, two[i][1], &c);
		assert_false(sim_policy_same(&p, &q));
	}
	/* A 0 read as the default is that default. */
	policy(&p, "pghot", &c);
	q = p;
	p.hot.freq = 0;
	q.hot.freq = TP_HOT_DEFAULT_FREQ;
	p.cfg.hot_threshold_faults = 0;
	q.cfg.hot_threshold_faults = TP_DEFAULT_HOT_THRESHOLD_FAULTS;
	assert_true(sim_policy_same(&p, &q));
	q.hot.freq = 3;
	assert_false(sim_policy_same(&p, &q));
	/* The options reach only the spec that pinned nothing. */
	c.rate_limit_mbps = 100;
	policy(&p, "mainline", &c);
	policy(&q, "mainline:rate=65536", &c);
	assert_false(sim_policy_same(&p, &q));
}

/* ---- end to end -------------------------------------------------------------- */

static void check_invariants(const struct sim_src *src,
			     const struct sim_result *r, u64 upages)
{
	u64 regions = 0;
	u32 i;

	check_accounting(src, r);
	assert_int_equal(r->node.decided, r->hint_faults * upages);
	assert_int_equal(r->node.pgpromote_success, r->promotions);
	/* The regions share the promotions out (a trace's are all "other"). */
	for (i = 0; i < WL_NR_REGIONS; i++)
		regions += r->region_promo[i];
	assert_int_equal(regions, r->promotions);
}

static void run_all(struct setup *s, const char *const *specs, u32 n,
		    struct sim_result *res, struct sim_policy *pol)
{
	char err[SIM_ERRLEN];
	u32 i;

	/* As tiersim's sets do: the oracle's counts before any run. */
	for (i = 0; i < n; i++) {
		policy(&pol[i], specs[i], &s->cfg);
		if (pol[i].oracle)
			assert_int_equal(sim_src_count(&s->src, err,
						       sizeof(err)), 0);
	}
	for (i = 0; i < n; i++) {
		if (sim_run(&s->cfg, &pol[i], &s->src, &res[i], NULL)) {
			print_error("%s\n", res[i].err);
			fail();
		}
		check_invariants(&s->src, &res[i], s->cfg.thp ? 512 : 1);
	}
}

/*
 * The node's clock (sim_int.h, SIM_NODE_BOOT_NS): the node is initialised
 * at boot and the run starts where 6.1's u32 millisecond clock is, so the
 * first decision that reaches the controller closes its first period (no
 * candidates: the threshold rises a step) and the next closes a period
 * after it, not a period after the run's start.
 */
static void test_node_clock(void **state)
{
	const struct tp_fault f = {
		.latency = 10 * SIM_NS_PER_MS,	/* hot: a candidate */
		.nr_pages = 1,
		.flags = TP_FAULT_YOUNG,
	};
	struct setup st;
	struct sim s;
	struct sim_policy p;
	struct sim_result r;
	struct sim_node_stats ns;
	struct tp_node_mem m;
	u64 ref, period, t0;

	(void)state;
	part(&st, &s, &p, &r, 0, "mainline");
	ref = (u64)p.cfg.hot_threshold_ms * SIM_NS_PER_MS;
	period = (u64)(p.cfg.scan_period_max_ms ? p.cfg.scan_period_max_ms :
		       TP_DEFAULT_SCAN_PERIOD_MAX_MS) * SIM_NS_PER_MS;
	t0 = period / 2;
	assert_true(t0 > SIM_NS_PER_MS);
	fast_mem(&s, &m);
	assert_false(tp_free_space_enough(&s.tpp, &m));

	s.now = t0;
	assert_true(node_decide(&s, &f, &m) >= 0);
	node_stats(&s, &ns);
	assert_int_equal(ns.th_raised, 1);
	assert_int_equal(ns.th_lowered, 0);
	assert_int_equal(ns.threshold, ref + ref / 8);
	assert_int_equal(ns.pgpromote_candidate, 1);

	/* A period after the run's start, but not after the first close. */
	s.now = period + SIM_NS_PER_MS;
	assert_true(node_decide(&s, &f, &m) >= 0);
	node_stats(&s, &ns);
	assert_int_equal(ns.th_raised + ns.th_lowered, 1);

	/* A period after the first close: the second close. */
	s.now = t0 + period + SIM_NS_PER_MS;
	assert_true(node_decide(&s, &f, &m) >= 0);
	node_stats(&s, &ns);
	assert_int_equal(ns.th_raised + ns.th_lowered, 2);
	part_teardown(&st, &s);
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

/*
 * The trace at @path on a machine of 64 pages, 24 of them fast, with
 * watermarks of 1 to 4 pages: @c's other settings are the defaults.
 */
static void trace_machine(const char *path, struct trace *t,
			  struct sim_src *src, struct sim_cfg *c)
{
	char err[SIM_ERRLEN];

	assert_int_equal(trace_open(t, path, TRACE_AUTO, 0, err, sizeof(err)),
			 0);
	assert_int_equal(sim_src_trace(src, t), 0);
	sim_cfg_defaults(c);
	c->fast_pages = 24;
	c->slow_pages = 64;
	c->wmark[0] = 1;
	c->wmark[1] = 2;
	c->wmark[2] = 3;
	c->wmark[3] = 4;
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
	trace_machine(path, &t, &src, &c);
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
	assert_true(res[1].promotions > 0);
	assert_int_equal(res[1].region_promo[WL_REGION_OTHER],
			 res[1].promotions);
	for (i = 0; i < 4; i++)
		sim_result_free(&res[i]);
	free(res);
	sim_src_free(&src);
	trace_close(&t);
}

/*
 * A trace of 64 pages: 56 touched once, and 8 hot ones, page p accessed
 * 10 x (8 - p) times, touched after the others or, with @hot_first,
 * before them.
 */
static const char *to_oracle_trace(int hot_first)
{
	char *text = malloc(1000 * 48), *p = text;
	const char *path;
	u32 r, pg, n = 0, pass;

	assert_non_null(text);
	for (pass = 0; pass < 2; pass++) {
		if (pass == (u32)hot_first) {
			for (pg = 8; pg < 64; pg++)
				p += sprintf(p, "R %llx 0 %u\n",
					     0x7f0000000000ULL + 4096ULL * pg,
					     1000 * n++);
			continue;
		}
		for (r = 0; r < 80; r++)
			for (pg = 0; pg < 8; pg++)
				if (r < 10 * (8 - pg))
					p += sprintf(p, "R %llx 0 %u\n",
						     0x7f0000000000ULL +
						     4096ULL * pg, 1000 * n++);
	}
	path = write_file(hot_first ? "to_oracle_hot.txt" : "to_oracle.txt",
			  text);
	free(text);
	return path;
}

/*
 * How far a run ends from the oracle's placement (oracle_distance()), on a
 * fast tier of 24 pages (22 above the low watermark). With the cold pages
 * touched first, first touch fills the fast tier with them; the oracle
 * holds the 8 hot pages and 14 of the others, so reaching it from `none`'s
 * placement promotes the 8 and demotes as many of the rest, and the
 * hottest-first exchange gains 80 - 1, 70 - 1, ... of the 360 - 8
 * accesses it moves: half of them after 3 exchanges, 99 % after all 8.
 * With the hot pages touched first there is nothing to move.
 */
static void test_to_oracle(void **state)
{
	static const u64 want[SIM_TO_ORACLE_SHARES] = { 6, 12, 14, 16 };
	struct sim_policy none, oracle;
	struct sim_result res;
	struct trace t;
	struct sim_src src;
	struct sim_cfg c;
	char err[SIM_ERRLEN];
	int hot_first;
	u32 i;

	(void)state;
	for (hot_first = 0; hot_first < 2; hot_first++) {
		trace_machine(to_oracle_trace(hot_first), &t, &src, &c);
		assert_int_equal(sim_validate(&c, &src, err, sizeof(err)), 0);
		policy(&none, "none", &c);
		policy(&oracle, "oracle", &c);
		/* Without the stream's counts there is nothing to measure. */
		assert_int_equal(sim_run(&c, &none, &src, &res, NULL), 0);
		assert_false(res.has_to_oracle);
		sim_result_free(&res);
		assert_int_equal(sim_src_count(&src, err, sizeof(err)), 0);
		assert_int_equal(sim_run(&c, &none, &src, &res, NULL), 0);
		check_invariants(&src, &res, 1);
		assert_int_equal(res.fast_used_end, 22);
		assert_true(res.has_to_oracle);
		assert_int_equal(res.to_oracle_promo, hot_first ? 0 : 8);
		assert_int_equal(res.to_oracle_demo, hot_first ? 0 : 8);
		for (i = 0; i < SIM_TO_ORACLE_SHARES; i++)
			assert_int_equal(res.to_oracle_mig[i],
					 hot_first ? 0 : want[i]);
		sim_result_free(&res);
		/* The oracle is not measured against itself. */
		assert_int_equal(sim_run(&c, &oracle, &src, &res, NULL), 0);
		assert_false(res.has_to_oracle);
		sim_result_free(&res);
		sim_src_free(&src);
		trace_close(&t);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_queueing_model),
		cmocka_unit_test(test_thread_order),
		cmocka_unit_test(test_thread_clocks),
		cmocka_unit_test(test_tlb_accessed_bit),
		cmocka_unit_test(test_demotion_end),
		cmocka_unit_test(test_scale_model),
		cmocka_unit_test(test_policy_specs),
		cmocka_unit_test(test_policy_same),
		cmocka_unit_test(test_node_clock),
		cmocka_unit_test(test_end_to_end),
		cmocka_unit_test(test_end_to_end_workloads),
		cmocka_unit_test(test_end_to_end_thp),
		cmocka_unit_test(test_end_to_end_trace),
		cmocka_unit_test(test_to_oracle),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
