// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * CMocka: the bad-input table of docs/BAD_INPUT.md for the policy, the
 * nodes and the decision (tp_policy_*(), tp_node_*(), tp_decide(), the
 * statistics and the watermark helpers that read a policy), one named case
 * per row (tests/bad_input.h says what config, call and contract rows
 * check). The other objects are in test_bad_input.c,
 * test_bad_input_thresh.c and test_bad_input_algos.c.
 */
#include "bad_input.h"

/* ---- config rows ---------------------------------------------------------- */

enum comp { POLICY };

static const struct cfg_row cfg_rows[] = {
	/* the size field */
	ROW(POLICY, tp_policy_cfg, sz, 0, -EINVAL),
	ROW(POLICY, tp_policy_cfg, sz, sizeof(struct tp_policy_cfg) - 8,
	    -EINVAL),
	ROW(POLICY, tp_policy_cfg, sz, U32_MAX_, -EINVAL),
	/* policy (base: the Linux 6.1 preset at 1000 ticks/s) */
	ROW(POLICY, tp_policy_cfg, mode, TP_MODE_DISABLED, 0),
	ROW(POLICY, tp_policy_cfg, mode, TP_MODE_NORMAL | TP_MODE_TIERING, 0),
	ROW(POLICY, tp_policy_cfg, mode, 4, -EINVAL),
	ROW(POLICY, tp_policy_cfg, mode, U32_MAX_, -EINVAL),
	ROW(POLICY, tp_policy_cfg, flags, 0, 0),
	ROW(POLICY, tp_policy_cfg, flags, TP_POL_ALL, 0),
	ROW(POLICY, tp_policy_cfg, flags, 0x200, -EINVAL),
	ROW(POLICY, tp_policy_cfg, flags, U32_MAX_, -EINVAL),
	ROW(POLICY, tp_policy_cfg, flags, TP_POL_ADAPTIVE, -EINVAL),
	ROW(POLICY, tp_policy_cfg, flags, TP_POL_WRITE_DOUBLE, -EINVAL),
	ROW(POLICY, tp_policy_cfg, flags, TP_POL_HOT_STRICT, -EINVAL),
	ROW(POLICY, tp_policy_cfg, flags,
	    TP_POL_HOTNESS | TP_POL_FREE_BYPASS | TP_POL_BYPASS_RESET, -EINVAL),
	ROW(POLICY, tp_policy_cfg, flags,
	    TP_POL_HOTNESS | TP_POL_ADAPTIVE | TP_POL_BYPASS_RESET, -EINVAL),
	ROW(POLICY, tp_policy_cfg, flags,
	    TP_POL_HOTNESS | TP_POL_ADAPTIVE | TP_POL_FREE_BYPASS |
	    TP_POL_BYPASS_RESET, 0),
	ROW(POLICY, tp_policy_cfg, flags,
	    TP_POL_HOTNESS | TP_POL_RL_WMARK_DEFAULT, 0),
	/* base 3: the token bucket, which takes no per-fault rate */
	ROW_B(POLICY, tp_policy_cfg, flags,
	      TP_POL_HOTNESS | TP_POL_RL_WMARK_DEFAULT, -EINVAL, 3),
	ROW_B(POLICY, tp_policy_cfg, flags, TP_POL_ALL, -EINVAL, 3),
	ROW_B(POLICY, tp_policy_cfg, burst_pages, TP_RATE_MAX, 0, 3),
	ROW_B(POLICY, tp_policy_cfg, burst_pages, 0, 0, 3),
	/* base 4: the bucket at 1 MB/s, 1000 x 2^31 units a page */
	ROW_B(POLICY, tp_policy_cfg, burst_pages, 1073741, 0, 4),
	ROW_B(POLICY, tp_policy_cfg, burst_pages, 1073742, -ERANGE, 4),
	ROW(POLICY, tp_policy_cfg, tps, 0, -EINVAL),
	ROW(POLICY, tp_policy_cfg, tps, 1, 0),
	ROW(POLICY, tp_policy_cfg, tps, TP_TPS_MAX, 0),
	ROW(POLICY, tp_policy_cfg, tps, TP_TPS_MAX + 1ULL, -EINVAL),
	ROW(POLICY, tp_policy_cfg, page_shift, 0, 0),
	ROW(POLICY, tp_policy_cfg, page_shift, 9, -EINVAL),
	ROW(POLICY, tp_policy_cfg, page_shift, 10, 0),
	ROW(POLICY, tp_policy_cfg, page_shift, 14, 0),
	ROW(POLICY, tp_policy_cfg, page_shift, 16, 0),
	ROW(POLICY, tp_policy_cfg, page_shift, 21, 0),
	ROW(POLICY, tp_policy_cfg, page_shift, 30, 0),
	ROW(POLICY, tp_policy_cfg, page_shift, 31, -EINVAL),
	ROW(POLICY, tp_policy_cfg, page_shift, U32_MAX_, -EINVAL),
	ROW(POLICY, tp_policy_cfg, hot_threshold_ms, 0, 0),
	ROW(POLICY, tp_policy_cfg, hot_threshold_ms, 1, 0),
	ROW(POLICY, tp_policy_cfg, hot_threshold_ms, U32_MAX_, 0),
	ROW(POLICY, tp_policy_cfg, rate_limit_mbps, 0, 0),
	ROW(POLICY, tp_policy_cfg, rate_limit_mbps, 1ULL << 24, 0),
	ROW(POLICY, tp_policy_cfg, rate_limit_mbps, (1ULL << 24) + 1, -ERANGE),
	ROW(POLICY, tp_policy_cfg, rate_limit_mbps, U32_MAX_, -ERANGE),
	/* base 1: 2 MiB pages, where every u32 rate fits */
	ROW_B(POLICY, tp_policy_cfg, rate_limit_mbps, U32_MAX_, 0, 1),
	ROW(POLICY, tp_policy_cfg, scan_period_max_ms, 0, 0),
	ROW(POLICY, tp_policy_cfg, scan_period_max_ms, 1, 0),
	ROW(POLICY, tp_policy_cfg, scan_period_max_ms, U32_MAX_, 0),
	ROW(POLICY, tp_policy_cfg, thresh_variant, TP_THRESH_RFC2020, 0),
	ROW(POLICY, tp_policy_cfg, thresh_variant, TP_THRESH_HISTOGRAM, 0),
	ROW(POLICY, tp_policy_cfg, thresh_variant, 3, -EINVAL),
	ROW(POLICY, tp_policy_cfg, thresh_variant, U32_MAX_, -EINVAL),
	ROW(POLICY, tp_policy_cfg, flags, TP_POL_HOTNESS | TP_POL_LAT_FAULTS, 0),
	/* the fault-count clock's switch needs nothing: alone, it does nothing */
	ROW(POLICY, tp_policy_cfg, flags, TP_POL_LAT_FAULTS, 0),
	/* without TP_POL_LAT_FAULTS the threshold in faults is not read */
	ROW(POLICY, tp_policy_cfg, hot_threshold_faults, 0, 0),
	ROW(POLICY, tp_policy_cfg, hot_threshold_faults, U64_MAX_, 0),
	/* base 5: the Linux 6.1 preset with latencies in hint faults */
	ROW_B(POLICY, tp_policy_cfg, hot_threshold_faults, 0, 0, 5),
	ROW_B(POLICY, tp_policy_cfg, hot_threshold_faults, 1, 0, 5),
	ROW_B(POLICY, tp_policy_cfg, hot_threshold_faults, TP_TIME_MAX, 0, 5),
	ROW_B(POLICY, tp_policy_cfg, hot_threshold_faults, TP_TIME_MAX + 1,
	      -ERANGE, 5),
	ROW_B(POLICY, tp_policy_cfg, hot_threshold_faults, U64_MAX_, -ERANGE, 5),
	/* ... where the threshold in milliseconds is not read */
	ROW_B(POLICY, tp_policy_cfg, hot_threshold_ms, U32_MAX_, 0, 5),
	ROW_B(POLICY, tp_policy_cfg, thresh_variant, TP_THRESH_HISTOGRAM, 0, 5),
	ROW(POLICY, tp_policy_cfg, limiter_variant, TP_LIMITER_BUCKET, 0),
	ROW(POLICY, tp_policy_cfg, limiter_variant, 3, -EINVAL),
	ROW(POLICY, tp_policy_cfg, wmark_variant, TP_WMARK_RFC2020, 0),
	ROW(POLICY, tp_policy_cfg, wmark_variant, 2, -EINVAL),
	ROW(POLICY, tp_policy_cfg, burst_pages, 0, 0),
	ROW(POLICY, tp_policy_cfg, burst_pages, TP_RATE_MAX, 0),
	ROW(POLICY, tp_policy_cfg, burst_pages, TP_RATE_MAX + 1, -ERANGE),
	ROW(POLICY, tp_policy_cfg, burst_pages, U64_MAX_, -ERANGE),
	ROW(POLICY, tp_policy_cfg, cand_batch, 0, 0),
	ROW(POLICY, tp_policy_cfg, cand_batch, 1, 0),
	ROW(POLICY, tp_policy_cfg, cand_batch, TP_CAND_BATCH_MAX, 0),
	ROW(POLICY, tp_policy_cfg, cand_batch, TP_CAND_BATCH_MAX + 1, -EINVAL),
	ROW(POLICY, tp_policy_cfg, cand_batch, U32_MAX_, -EINVAL),
	/* base 2: also a burst above the range: -EINVAL is checked first */
	ROW_B(POLICY, tp_policy_cfg, mode, 4, -EINVAL, 2),
};

static void row_policy(const struct cfg_row *r)
{
	struct tp_policy_cfg good, cfg;
	struct tp_policy pol, copy;
	int ret;

	assert_int_equal(tp_policy_preset(&good, TP_PRESET_LINUX61, 1000), 0);
	if (r->base == 1)
		good.page_shift = 21;
	if (r->base >= 3)
		good.limiter_variant = TP_LIMITER_BUCKET;
	if (r->base == 4)
		good.rate_limit_mbps = 1;
	if (r->base == 5)
		good.flags |= TP_POL_LAT_FAULTS;
	cfg = good;
	if (r->base == 2)
		cfg.burst_pages = TP_RATE_MAX + 1;
	set_field(&cfg, r);
	memset(&pol, POISON, sizeof(pol));
	copy = pol;
	ret = tp_policy_init(&pol, &cfg);
	assert_int_equal(ret, r->want);
	if (ret)
		assert_memory_equal(&pol, &copy, sizeof(pol));

	assert_int_equal(tp_policy_init(&pol, &good), 0);
	copy = pol;
	ret = tp_policy_tune(&pol, &cfg);
	assert_int_equal(ret, tune_want(r, offsetof(struct tp_policy_cfg, tps),
					good.tps));
	if (ret)
		assert_memory_equal(&pol, &copy, sizeof(pol));
}

static void run_cfg_row(void **state)
{
	row_policy(*state);
}

/* ---- call rows: bad per-call inputs and NULL arguments with an error ------- */

static struct tp_node node;
static struct tp_node_cpu slot;

static void linux61(struct tp_policy *pol)
{
	struct tp_policy_cfg cfg;

	assert_int_equal(tp_policy_preset(&cfg, TP_PRESET_LINUX61, 1000), 0);
	assert_int_equal(tp_policy_init(pol, &cfg), 0);
	assert_int_equal(tp_node_init(&node, pol, 0), 0);
	memset(&slot, 0, sizeof(slot));
}

static const struct tp_node_mem good_mem = {
	.free = 1000000, .wmark_min = 100, .wmark_low = 200,
	.wmark_high = 300, .wmark_promo = 400, .present = 1 << 20,
};

/* tp_decide() refuses the call with -EINVAL, counts and writes nothing. */
static void expect_decide_einval(const struct tp_policy *pol,
				 const struct tp_fault *f,
				 const struct tp_node_mem *mem)
{
	struct tp_node_stats before, after;
	struct tp_node node_copy = node;
	struct tp_node_cpu slot_copy = slot;

	tp_node_stats_read(pol, &node, &before);
	tp_node_stats_add(&before, &slot);
	assert_int_equal(tp_decide(pol, &node, &slot, f, mem, 10), -EINVAL);
	tp_node_stats_read(pol, &node, &after);
	tp_node_stats_add(&after, &slot);
	assert_memory_equal(&before, &after, sizeof(before));
	assert_memory_equal(&node, &node_copy, sizeof(node));
	assert_memory_equal(&slot, &slot_copy, sizeof(slot));
}

static void call_decide_empty_folio(void **state)
{
	struct tp_fault f = { .latency = 1, .nr_pages = 0 };
	struct tp_policy pol;

	(void)state;
	linux61(&pol);
	expect_decide_einval(&pol, &f, &good_mem);
}

static void call_decide_huge_folio(void **state)
{
	struct tp_fault f = { .latency = 1, .nr_pages = TP_RATE_MAX + 1 };
	struct tp_policy pol;

	(void)state;
	linux61(&pol);
	expect_decide_einval(&pol, &f, &good_mem);
	f.nr_pages = ~0ULL;
	expect_decide_einval(&pol, &f, &good_mem);
	/* 2^32 pages is the largest folio */
	f.nr_pages = TP_RATE_MAX;
	assert_true(tp_decide(&pol, &node, &slot, &f, &good_mem, 10) >= 0);
}

static void call_decide_wmarks_out_of_order(void **state)
{
	struct tp_fault f = { .latency = 1, .nr_pages = 1 };
	struct tp_node_mem m;
	struct tp_policy pol;

	(void)state;
	linux61(&pol);
	m = good_mem;
	m.wmark_min = m.wmark_low + 1;
	expect_decide_einval(&pol, &f, &m);
	m = good_mem;
	m.wmark_low = m.wmark_high + 1;
	expect_decide_einval(&pol, &f, &m);
	m = good_mem;
	m.wmark_high = m.wmark_promo + 1;
	expect_decide_einval(&pol, &f, &m);
	/* Equal watermarks are in order. */
	m = good_mem;
	m.wmark_min = m.wmark_low = m.wmark_high = m.wmark_promo;
	assert_true(tp_decide(&pol, &node, &slot, &f, &m, 10) >= 0);
	/* No promo watermark (before Linux 6.1): the high one stands in. */
	m = good_mem;
	m.wmark_promo = 0;
	assert_true(tp_decide(&pol, &node, &slot, &f, &m, 10) >= 0);
	m.wmark_high = U64_MAX_;
	m.wmark_low = m.wmark_min = 0;
	assert_true(tp_decide(&pol, &node, &slot, &f, &m, 10) >= 0);
}

/*
 * A kernel before Linux 6.1 has no promo watermark: 0 stands for none, the
 * high watermark takes its place in the bypass and the demotion target.
 */
static void call_decide_no_promo_wmark(void **state)
{
	struct tp_fault f = { .latency = 1, .nr_pages = 1 };
	struct tp_node_mem m = good_mem;
	struct tp_policy pol;

	(void)state;
	linux61(&pol);
	m.wmark_promo = 0;
	assert_int_equal(tp_demotion_target(&pol, &m), m.wmark_high);
	/* bypass when free > high + max(1 GiB, present / 16) */
	m.present = 16;
	m.free = m.wmark_high + (1ULL << 18) + 1;
	assert_true(tp_free_space_enough(&pol, &m));
	assert_int_equal(tp_decide(&pol, &node, &slot, &f, &m, 10),
			 TP_PROMOTE_NRL);
	m.free--;
	assert_false(tp_free_space_enough(&pol, &m));
	/* a promo watermark of 0 with a high one above 0 is not "unordered" */
	m.wmark_high = 100;
	m.wmark_low = m.wmark_min = 0;
	assert_true(tp_decide(&pol, &node, &slot, &f, &m, 11) >= 0);
}

/*
 * A 32-bit counter zero-extended to 64 bits jumps back by 2^32 at its wrap:
 * no error and nothing undefined; the window and the controller's period
 * wait until the clock has caught up, then work again.
 */
static void call_time_wraps(void **state)
{
	struct tp_fault f = { .latency = 1, .nr_pages = 1 };
	struct tp_node_mem m = good_mem;
	struct tp_limiter_cfg lc = { .sz = sizeof(lc),
				     .variant = TP_LIMITER_WINDOW_LINUX61,
				     .tps = 1000, .rate = 10 };
	struct tp_limiter l;
	struct tp_policy pol;
	u64 t, before = 0xfffffff0ULL;	/* 16 ms before a 32-bit wrap */
	int i, ok = 0;

	(void)state;
	assert_int_equal(tp_limiter_init(&l, &lc, before), 0);
	/* the first request opens the window at before, not counted in it */
	assert_true(tp_limiter_consume(&l, NULL, 1, before));
	/* Linux 6.1 counts a request before comparing: 9 of 10 a window */
	for (i = 0; i < 9; i++)
		assert_true(tp_limiter_consume(&l, NULL, 1, before));
	assert_false(tp_limiter_consume(&l, NULL, 1, before));
	/* the clock wrapped: now 200 ms "after", numerically before */
	t = (before + 200) & 0xffffffffULL;
	assert_false(tp_limiter_consume(&l, NULL, 1, t));
	/* a second after the jump the window is still the old one ... */
	assert_false(tp_limiter_consume(&l, NULL, 1, t + 1000));
	/*
	 * ... until the clock passes the old start by a second: the opener
	 * is not counted against its window, then 9 more.
	 */
	for (i = 0; i < 20; i++)
		ok += tp_limiter_consume(&l, NULL, 1, before + 1001 + i);
	assert_int_equal(ok, 10);

	linux61(&pol);
	m.free = m.wmark_promo + 10;	/* no bypass */
	assert_true(tp_decide(&pol, &node, &slot, &f, &m, before) >= 0);
	assert_true(tp_decide(&pol, &node, &slot, &f, &m, t) >= 0);
	assert_true(tp_decide(&pol, &node, &slot, &f, &m, 0) >= 0);
}

static void call_decide_unknown_latency_and_flags(void **state)
{
	struct tp_fault f = { .latency = TP_LATENCY_UNKNOWN, .nr_pages = 1 };
	struct tp_node_mem m = good_mem;
	struct tp_policy pol;

	(void)state;
	linux61(&pol);
	m.free = m.wmark_promo + 10;	/* no bypass: the hotness check runs */
	assert_int_equal(tp_decide(&pol, &node, &slot, &f, &m, 10),
			 TP_REFUSE_COLD);
	/* Unknown fault flag bits are ignored. */
	f.latency = 0;
	f.flags = 0xfffffff0U;
	assert_int_equal(tp_decide(&pol, &node, &slot, &f, &m, 11),
			 TP_PROMOTE);
}

static void call_preset_bad(void **state)
{
	struct tp_policy_cfg cfg, copy;
	struct tp_policy pol;

	(void)state;
	memset(&cfg, POISON, sizeof(cfg));
	copy = cfg;
	assert_int_equal(tp_policy_preset(&cfg, 2, 1000), -EINVAL);
	assert_int_equal(tp_policy_preset(&cfg, U32_MAX_, 1000), -EINVAL);
	assert_memory_equal(&cfg, &copy, sizeof(cfg));
	assert_int_equal(tp_policy_preset(NULL, TP_PRESET_RFC2020, 1000),
			 -EINVAL);
	/* The preset does not check tps; tp_policy_init() does. */
	assert_int_equal(tp_policy_preset(&cfg, TP_PRESET_RFC2020, 0), 0);
	assert_int_equal(tp_policy_init(&pol, &cfg), -EINVAL);
}

/*
 * A preset writes every field (the struct has no padding): filled over
 * two different poisons, the results are the same bytes. 1.0's first
 * presets left hot_threshold_faults as it was, and TP_POL_LAT_FAULTS then
 * took whatever the caller's stack held for a threshold.
 */
static void call_preset_fills_every_field(void **state)
{
	struct tp_policy_cfg a, b;
	u32 p;

	(void)state;
	for (p = TP_PRESET_RFC2020; p <= TP_PRESET_LINUX61; p++) {
		memset(&a, POISON, sizeof(a));
		memset(&b, ~POISON & 0xff, sizeof(b));
		assert_int_equal(tp_policy_preset(&a, p, 1000), 0);
		assert_int_equal(tp_policy_preset(&b, p, 1000), 0);
		assert_memory_equal(&a, &b, sizeof(a));
		assert_true(a.hot_threshold_faults == 0);
	}
}

/* A policy never initialised (zero-filled): tp_node_init() refuses it. */
static void call_node_init_uninitialised_policy(void **state)
{
	struct tp_policy pol;
	struct tp_node copy;

	(void)state;
	memset(&pol, 0, sizeof(pol));
	memset(&node, POISON, sizeof(node));
	copy = node;
	assert_int_equal(tp_node_init(&node, &pol, 0), -EINVAL);
	assert_memory_equal(&node, &copy, sizeof(node));
}

/*
 * TP_POL_LAT_FAULTS: the threshold is hot_threshold_faults, in hint faults
 * (0: 1,000,000), never converted with tps; hot_threshold_ms is not read.
 */
static void call_policy_lat_faults(void **state)
{
	struct tp_fault f = { .nr_pages = 1 };
	struct tp_node_mem m = good_mem;
	struct tp_policy_cfg cfg;
	struct tp_node_stats st;
	struct tp_policy pol;

	(void)state;
	assert_int_equal(tp_policy_preset(&cfg, TP_PRESET_LINUX61, 1000), 0);
	cfg.flags |= TP_POL_LAT_FAULTS;
	cfg.hot_threshold_ms = 7;
	assert_int_equal(tp_policy_init(&pol, &cfg), 0);
	assert_int_equal(tp_node_init(&node, &pol, 0), 0);
	memset(&slot, 0, sizeof(slot));
	tp_node_stats_read(&pol, &node, &st);
	assert_true(st.threshold == TP_DEFAULT_HOT_THRESHOLD_FAULTS);
	m.free = m.wmark_promo + 10;	/* no bypass */
	f.latency = TP_DEFAULT_HOT_THRESHOLD_FAULTS - 1;
	assert_int_equal(tp_decide(&pol, &node, &slot, &f, &m, 1), TP_PROMOTE);
	f.latency = TP_DEFAULT_HOT_THRESHOLD_FAULTS;
	assert_int_equal(tp_decide(&pol, &node, &slot, &f, &m, 2),
			 TP_REFUSE_COLD);
	/* A fixed threshold of 5000 faults, by a tune. */
	cfg.flags &= ~(TP_POL_ADAPTIVE | TP_POL_BYPASS_RESET);
	cfg.hot_threshold_faults = 5000;
	assert_int_equal(tp_policy_tune(&pol, &cfg), 0);
	tp_node_stats_read(&pol, &node, &st);
	assert_true(st.threshold == 5000);
	f.latency = 4999;
	assert_int_equal(tp_decide(&pol, &node, &slot, &f, &m, 3), TP_PROMOTE);
	f.latency = 5000;
	assert_int_equal(tp_decide(&pol, &node, &slot, &f, &m, 4),
			 TP_REFUSE_COLD);
	/* Without the switch the same settings are 7 ms again. */
	cfg.flags &= ~TP_POL_LAT_FAULTS;
	assert_int_equal(tp_policy_tune(&pol, &cfg), 0);
	tp_node_stats_read(&pol, &node, &st);
	assert_true(st.threshold == 7);
}

static void call_policy_init_null(void **state)
{
	struct tp_policy_cfg pc;
	struct tp_policy pol;

	(void)state;
	assert_int_equal(tp_policy_preset(&pc, TP_PRESET_RFC2020, 1000), 0);
	assert_int_equal(tp_policy_init(NULL, &pc), -EINVAL);
	assert_int_equal(tp_policy_init(&pol, NULL), -EINVAL);
	assert_int_equal(tp_policy_init(&pol, &pc), 0);
	assert_int_equal(tp_policy_tune(NULL, &pc), -EINVAL);
	assert_int_equal(tp_policy_tune(&pol, NULL), -EINVAL);
	assert_int_equal(tp_node_init(NULL, &pol, 0), -EINVAL);
	assert_int_equal(tp_node_init(&node, NULL, 0), -EINVAL);
}

/* ---- contract rows: TP_ASSERT traps under -DTP_DEBUG ------------------------ */

static struct tp_policy z_pol;
static struct tp_node_cpu z_cpu;
static struct tp_fault z_fault = { .nr_pages = 1 };
static struct tp_node_stats z_stats;
static struct tp_node_mem z_mem;

static void c_policy_tune_uninit(void)
{
	struct tp_policy_cfg cfg;

	if (tp_policy_preset(&cfg, TP_PRESET_LINUX61, 1000))
		_exit(3);
	(void)tp_policy_tune(&z_pol, &cfg);
}

static void c_node_reset_null(void)
{
	tp_node_reset(NULL, 0);
}

/* A live policy and node for the rows that pass NULL for the others. */
static struct tp_policy *live_policy(void)
{
	static struct tp_policy pol;
	struct tp_policy_cfg cfg;

	if (tp_policy_preset(&cfg, TP_PRESET_LINUX61, 1000) ||
	    tp_policy_init(&pol, &cfg) || tp_node_init(&node, &pol, 0))
		_exit(3);
	return &pol;
}

static void c_decide_null_policy(void)
{
	(void)live_policy();
	(void)tp_decide(NULL, &node, &z_cpu, &z_fault, &z_mem, 0);
}

static void c_decide_uninit_policy(void)
{
	(void)live_policy();
	(void)tp_decide(&z_pol, &node, &z_cpu, &z_fault, &z_mem, 0);
}

static void c_decide_null_node(void)
{
	(void)tp_decide(live_policy(), NULL, &z_cpu, &z_fault, &z_mem, 0);
}

static void c_decide_null_slot(void)
{
	(void)tp_decide(live_policy(), &node, NULL, &z_fault, &z_mem, 0);
}

static void c_decide_null_fault(void)
{
	(void)tp_decide(live_policy(), &node, &z_cpu, NULL, &z_mem, 0);
}

static void c_decide_null_mem(void)
{
	(void)tp_decide(live_policy(), &node, &z_cpu, &z_fault, NULL, 0);
}

static void c_node_stats_null_policy(void)
{
	(void)live_policy();
	tp_node_stats_read(NULL, &node, &z_stats);
}

static void c_node_stats_null(void)
{
	tp_node_stats_read(live_policy(), NULL, &z_stats);
}

static void c_node_stats_null_out(void)
{
	tp_node_stats_read(live_policy(), &node, NULL);
}

static void c_node_stats_add_null(void)
{
	tp_node_stats_add(&z_stats, NULL);
}

static void c_node_stats_add_null_out(void)
{
	tp_node_stats_add(NULL, &z_cpu);
}

static void c_free_space_null(void)
{
	(void)tp_free_space_enough(NULL, &z_mem);
}

static void c_promote_room_null(void)
{
	(void)tp_promote_room(NULL, 1);
}

static void c_demotion_null(void)
{
	(void)tp_demotion_target(&z_pol, NULL);
}

static void c_scan_wanted_null(void)
{
	(void)tp_scan_wanted(NULL, false);
}

static void c_group_local_null(void)
{
	(void)tp_group_fault_local(TP_GROUP_LINUX315, NULL, NULL, 0);
}

static const struct contract_row contract_rows[] = {
	CROW(c_policy_tune_uninit, "tp_policy_tune(zero-filled)"),
	CROW(c_node_reset_null, "tp_node_reset(NULL)"),
	CROW(c_decide_null_policy, "tp_decide(policy NULL)"),
	CROW(c_decide_uninit_policy, "tp_decide(zero-filled policy)"),
	CROW(c_decide_null_node, "tp_decide(node NULL)"),
	CROW(c_decide_null_slot, "tp_decide(slot NULL)"),
	CROW(c_decide_null_fault, "tp_decide(fault NULL)"),
	CROW(c_decide_null_mem, "tp_decide(mem NULL)"),
	CROW(c_node_stats_null_policy, "tp_node_stats_read(policy NULL)"),
	CROW(c_node_stats_null, "tp_node_stats_read(node NULL)"),
	CROW(c_node_stats_null_out, "tp_node_stats_read(stats NULL)"),
	CROW(c_node_stats_add_null, "tp_node_stats_add(slot NULL)"),
	CROW(c_node_stats_add_null_out, "tp_node_stats_add(stats NULL)"),
	CROW(c_free_space_null, "tp_free_space_enough(NULL)"),
	CROW(c_promote_room_null, "tp_promote_room(NULL)"),
	CROW(c_demotion_null, "tp_demotion_target(mem NULL)"),
	CROW(c_scan_wanted_null, "tp_scan_wanted(NULL)"),
	CROW(c_group_local_null, "tp_group_fault_local(f NULL)"),
};

/* ---- main: one named CMocka case per row ------------------------------------ */

static const struct CMUnitTest call_tests[] = {
	cmocka_unit_test(call_decide_empty_folio),
	cmocka_unit_test(call_decide_huge_folio),
	cmocka_unit_test(call_decide_wmarks_out_of_order),
	cmocka_unit_test(call_decide_no_promo_wmark),
	cmocka_unit_test(call_time_wraps),
	cmocka_unit_test(call_decide_unknown_latency_and_flags),
	cmocka_unit_test(call_preset_bad),
	cmocka_unit_test(call_preset_fills_every_field),
	cmocka_unit_test(call_node_init_uninitialised_policy),
	cmocka_unit_test(call_policy_lat_faults),
	cmocka_unit_test(call_policy_init_null),
};

int main(void)
{
	return run_bad_input("bad_input_policy", cfg_rows, ARRAY_LEN(cfg_rows),
			     run_cfg_row, call_tests, ARRAY_LEN(call_tests),
			     contract_rows, ARRAY_LEN(contract_rows));
}
