// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * CMocka: the bad-input table of docs/BAD_INPUT.md for the scan ring, the
 * rate limiter, the access-time stamp, the VMA scan and the helpers, one
 * named case per row (tests/bad_input.h says what config, call and
 * contract rows check), and the NULL arguments at init and tune of these
 * and the threshold controller (call_init_null). The threshold
 * controller's other rows are in test_bad_input_thresh.c; the policy and
 * the decision in test_bad_input_policy.c; the goal controller, the
 * hotness record and the fault-count clock in test_bad_input_algos.c.
 */
#include "bad_input.h"

/* ---- config rows ---------------------------------------------------------- */

enum comp { RING, LIMITER, ATIME, VMA };

static const struct cfg_row cfg_rows[] = {
	/* the size field of every config: at least the known fields */
	ROW(RING, tp_scan_ring_cfg, sz, 0, -EINVAL),
	ROW(RING, tp_scan_ring_cfg, sz, sizeof(struct tp_scan_ring_cfg) - 1,
	    -EINVAL),
	ROW(RING, tp_scan_ring_cfg, sz, 4097, -EINVAL),
	ROW(RING, tp_scan_ring_cfg, sz, U32_MAX_, -EINVAL),
	ROW(LIMITER, tp_limiter_cfg, sz, 0, -EINVAL),
	ROW(LIMITER, tp_limiter_cfg, sz, sizeof(struct tp_limiter_cfg) - 8,
	    -EINVAL),
	ROW(LIMITER, tp_limiter_cfg, sz, U32_MAX_, -EINVAL),
	ROW(ATIME, tp_atime_cfg, sz, 0, -EINVAL),
	ROW(ATIME, tp_atime_cfg, sz, sizeof(struct tp_atime_cfg) - 4,
	    -EINVAL),
	ROW(ATIME, tp_atime_cfg, sz, U32_MAX_, -EINVAL),
	ROW(VMA, tp_vma_profile_cfg, sz, 0, -EINVAL),
	ROW(VMA, tp_vma_profile_cfg, sz, sizeof(struct tp_vma_profile_cfg) - 8,
	    -EINVAL),
	ROW(VMA, tp_vma_profile_cfg, sz, U32_MAX_, -EINVAL),
	/* scan ring */
	ROW(RING, tp_scan_ring_cfg, depth, 0, 0),
	ROW(RING, tp_scan_ring_cfg, depth, 1, 0),
	ROW(RING, tp_scan_ring_cfg, depth, 3, -EINVAL),
	ROW(RING, tp_scan_ring_cfg, depth, 1000, -EINVAL),
	ROW(RING, tp_scan_ring_cfg, depth, TP_RING_DEPTH_MAX, 0),
	ROW(RING, tp_scan_ring_cfg, depth, 2 * TP_RING_DEPTH_MAX, -EINVAL),
	ROW(RING, tp_scan_ring_cfg, depth, 0x80000000, -EINVAL),
	ROW(RING, tp_scan_ring_cfg, depth, U32_MAX_, -EINVAL),
	ROW(RING, tp_scan_ring_cfg, limit, 0, 0),
	ROW(RING, tp_scan_ring_cfg, limit, 1, 0),
	ROW(RING, tp_scan_ring_cfg, limit, U64_MAX_, 0),
	/* rate limiter (base: bucket, 1000 ticks/s, 100 pages/s) */
	ROW(LIMITER, tp_limiter_cfg, variant, TP_LIMITER_BUCKET, 0),
	ROW(LIMITER, tp_limiter_cfg, variant, TP_LIMITER_WINDOW_LINUX61, 0),
	ROW(LIMITER, tp_limiter_cfg, variant, 3, -EINVAL),
	ROW(LIMITER, tp_limiter_cfg, variant, U32_MAX_, -EINVAL),
	ROW(LIMITER, tp_limiter_cfg, tps, 0, -EINVAL),
	ROW(LIMITER, tp_limiter_cfg, tps, 1, 0),
	ROW(LIMITER, tp_limiter_cfg, tps, TP_TPS_MAX, 0),
	ROW(LIMITER, tp_limiter_cfg, tps, TP_TPS_MAX + 1ULL, -EINVAL),
	ROW(LIMITER, tp_limiter_cfg, tps, U32_MAX_, -EINVAL),
	ROW(LIMITER, tp_limiter_cfg, rate, 0, 0),
	ROW(LIMITER, tp_limiter_cfg, rate, TP_RATE_MAX, 0),
	ROW(LIMITER, tp_limiter_cfg, rate, TP_RATE_MAX + 1, -ERANGE),
	ROW(LIMITER, tp_limiter_cfg, rate, U64_MAX_, -ERANGE),
	ROW(LIMITER, tp_limiter_cfg, burst, 0, 0),
	ROW(LIMITER, tp_limiter_cfg, burst, 1, 0),
	/* 100 pages/s: a page costs 10 x 2^39 units, the bucket holds 2^61 */
	ROW(LIMITER, tp_limiter_cfg, burst, 419430, 0),
	ROW(LIMITER, tp_limiter_cfg, burst, 419431, -ERANGE),
	ROW(LIMITER, tp_limiter_cfg, burst, TP_RATE_MAX, -ERANGE),
	ROW(LIMITER, tp_limiter_cfg, burst, TP_RATE_MAX + 1, -ERANGE),
	ROW(LIMITER, tp_limiter_cfg, burst, U64_MAX_, -ERANGE),
	ROW(LIMITER, tp_limiter_cfg, cand_batch, 0, 0),
	ROW(LIMITER, tp_limiter_cfg, cand_batch, TP_CAND_BATCH_MAX, 0),
	ROW(LIMITER, tp_limiter_cfg, cand_batch, TP_CAND_BATCH_MAX + 1,
	    -EINVAL),
	ROW(LIMITER, tp_limiter_cfg, cand_batch, U32_MAX_, -EINVAL),
	/* base 1: a window, which ignores the burst but still checks it */
	ROW_B(LIMITER, tp_limiter_cfg, burst, TP_RATE_MAX, 0, 1),
	ROW_B(LIMITER, tp_limiter_cfg, burst, TP_RATE_MAX + 1, -ERANGE, 1),
	ROW_B(LIMITER, tp_limiter_cfg, rate, 0, 0, 1),
	/* access-time stamp (base: bits 0 = 21) */
	ROW(ATIME, tp_atime_cfg, bits, 0, 0),
	ROW(ATIME, tp_atime_cfg, bits, 1, 0),
	ROW(ATIME, tp_atime_cfg, bits, 32, 0),
	ROW(ATIME, tp_atime_cfg, bits, 33, -EINVAL),
	ROW(ATIME, tp_atime_cfg, bits, U32_MAX_, -EINVAL),
	ROW(ATIME, tp_atime_cfg, shift, 0, 0),
	ROW(ATIME, tp_atime_cfg, shift, 64 - TP_ATIME_DEFAULT_BITS, 0),
	ROW(ATIME, tp_atime_cfg, shift, 65 - TP_ATIME_DEFAULT_BITS, -EINVAL),
	ROW(ATIME, tp_atime_cfg, shift, U32_MAX_, -EINVAL),
	/* base 1: bits = 32 */
	ROW_B(ATIME, tp_atime_cfg, shift, 32, 0, 1),
	ROW_B(ATIME, tp_atime_cfg, shift, 33, -EINVAL, 1),
	/* VMA scan filter */
	ROW(VMA, tp_vma_profile_cfg, filter, TP_VMA_FILTER_LINUX67, 0),
	ROW(VMA, tp_vma_profile_cfg, filter, TP_VMA_FILTER_PID, 0),
	ROW(VMA, tp_vma_profile_cfg, filter, 4, -EINVAL),
	ROW(VMA, tp_vma_profile_cfg, filter, U32_MAX_, -EINVAL),
	ROW(VMA, tp_vma_profile_cfg, tps, 0, -EINVAL),
	ROW(VMA, tp_vma_profile_cfg, tps, 1, 0),
	ROW(VMA, tp_vma_profile_cfg, tps, TP_TPS_MAX, 0),
	ROW(VMA, tp_vma_profile_cfg, tps, TP_TPS_MAX + 1ULL, -EINVAL),
	ROW(VMA, tp_vma_profile_cfg, scan_delay, 0, 0),
	ROW(VMA, tp_vma_profile_cfg, scan_delay, TP_TIME_MAX / 4, 0),
	ROW(VMA, tp_vma_profile_cfg, scan_delay, TP_TIME_MAX / 4 + 1, -ERANGE),
	ROW(VMA, tp_vma_profile_cfg, scan_delay, U64_MAX_, -ERANGE),
};

static struct tp_scan_pass passes[TP_RING_DEPTH_MAX];

static void row_ring(const struct cfg_row *r)
{
	struct tp_scan_ring_cfg cfg = { .sz = sizeof(cfg), .depth = 16,
					.limit = 1ULL << 47 };
	struct tp_scan_ring ring, copy;
	int ret;

	set_field(&cfg, r);
	memset(&ring, POISON, sizeof(ring));
	copy = ring;
	ret = tp_scan_ring_init(&ring, &cfg, passes, TP_RING_DEPTH_MAX);
	assert_int_equal(ret, r->want);
	if (ret) {
		assert_memory_equal(&ring, &copy, sizeof(ring));
		return;
	}
	assert_int_equal(tp_scan_ring_depth(&ring),
			 cfg.depth ? cfg.depth : TP_DEFAULT_RING_DEPTH);
}

static void row_limiter(const struct cfg_row *r)
{
	struct tp_limiter_cfg good = { .sz = sizeof(good),
				       .variant = TP_LIMITER_BUCKET,
				       .tps = 1000, .rate = 100 };
	struct tp_limiter_cfg cfg = good;
	struct tp_limiter l, copy;
	int ret;

	if (r->base == 1)
		good.variant = cfg.variant = TP_LIMITER_WINDOW_RFC2020;
	set_field(&cfg, r);
	memset(&l, POISON, sizeof(l));
	copy = l;
	ret = tp_limiter_init(&l, &cfg, 5);
	assert_int_equal(ret, r->want);
	if (ret)
		assert_memory_equal(&l, &copy, sizeof(l));

	/* The same through tune, on a running limiter. */
	assert_int_equal(tp_limiter_init(&l, &good, 5), 0);
	assert_true(tp_limiter_consume(&l, NULL, 7, 6));
	copy = l;
	ret = tp_limiter_tune(&l, &cfg);
	assert_int_equal(ret, tune_want(r, offsetof(struct tp_limiter_cfg, tps),
					good.tps));
	if (ret)
		assert_memory_equal(&l, &copy, sizeof(l));
}

static void row_atime(const struct cfg_row *r)
{
	struct tp_atime_cfg cfg = { .sz = sizeof(cfg),
				    .bits = r->base == 1 ? 32 : 0 };
	struct tp_atime fmt, copy;
	u32 stamp = 0;
	int ret;

	set_field(&cfg, r);
	memset(&fmt, POISON, sizeof(fmt));
	copy = fmt;
	ret = tp_atime_init(&fmt, &cfg);
	assert_int_equal(ret, r->want);
	if (ret) {
		assert_memory_equal(&fmt, &copy, sizeof(fmt));
		return;
	}
	/* Accepted formats never shift by 64 or more (no UB). */
	(void)tp_atime_xchg(&fmt, &stamp, ~0ULL);
	assert_true(tp_atime_fault(&fmt, &stamp, 0) < tp_atime_span(&fmt) ||
		    tp_atime_span(&fmt) == ~0ULL);
}

static void row_vma(const struct cfg_row *r)
{
	struct tp_vma_profile_cfg cfg = { .sz = sizeof(cfg),
					  .filter = TP_VMA_FILTER_DISJOINT,
					  .tps = 1000 };
	struct tp_vma_profile p, copy;
	int ret;

	set_field(&cfg, r);
	memset(&p, POISON, sizeof(p));
	copy = p;
	ret = tp_vma_profile_init(&p, &cfg);
	assert_int_equal(ret, r->want);
	if (ret)
		assert_memory_equal(&p, &copy, sizeof(p));
}

static void run_cfg_row(void **state)
{
	const struct cfg_row *r = *state;

	switch (r->comp) {
	case RING:
		row_ring(r);
		break;
	case LIMITER:
		row_limiter(r);
		break;
	case ATIME:
		row_atime(r);
		break;
	case VMA:
		row_vma(r);
		break;
	}
}

/* ---- call rows: bad per-call inputs and NULL arguments with an error ------- */

/* The names: every verdict and every error tierpol returns, and the rest. */
static void call_names(void **state)
{
	int v;

	(void)state;
	for (v = 0; v < TP_NR_VERDICTS; v++)
		assert_string_not_equal(tp_verdict_name(v), "(unknown verdict)");
	assert_string_equal(tp_verdict_name(-1), "(unknown verdict)");
	assert_string_equal(tp_verdict_name(TP_NR_VERDICTS),
			    "(unknown verdict)");
	assert_string_equal(tp_verdict_name(-EINVAL), "(unknown verdict)");
	assert_string_equal(tp_strerror(-EINVAL), tp_strerror(EINVAL));
	assert_string_equal(tp_strerror(-12345), "unknown error");
	assert_string_equal(tp_strerror(0), "success");
	assert_string_equal(tp_strerror(-2147483647 - 1), "unknown error");
}

/* The ring's array must hold the depth; a longer one is fine. */
static void call_ring_init_short_array(void **state)
{
	struct tp_scan_ring_cfg c = { .sz = sizeof(c), .depth = 8 };
	struct tp_scan_pass pass[16];
	struct tp_scan_ring r, copy;

	(void)state;
	memset(&r, 0x5a, sizeof(r));
	copy = r;
	assert_int_equal(tp_scan_ring_init(&r, &c, pass, 7), -EINVAL);
	assert_memory_equal(&r, &copy, sizeof(r));
	assert_int_equal(tp_scan_ring_init(&r, &c, pass, 0), -EINVAL);
	assert_int_equal(tp_scan_ring_init(&r, &c, pass, 8), 0);
	assert_int_equal(tp_scan_ring_init(&r, &c, pass, 16), 0);
	c.depth = 0;	/* the default depth, 16 */
	assert_int_equal(tp_scan_ring_init(&r, &c, pass, 15), -EINVAL);
	assert_int_equal(tp_scan_ring_init(&r, &c, pass, 16), 0);
}

static void call_limiter_requests(void **state)
{
	struct tp_limiter_cfg cfg = { .sz = sizeof(cfg),
				      .variant = TP_LIMITER_BUCKET,
				      .tps = 1000, .rate = 100, .burst = 50 };
	struct tp_limiter_cpu cpu = { 0 };
	struct tp_limiter l;

	(void)state;
	assert_int_equal(tp_limiter_init(&l, &cfg, 0), 0);
	assert_true(tp_limiter_consume(&l, &cpu, 0, 0));	/* 0 pages */
	/* more than the bucket can price (419430 pages): never */
	assert_false(tp_limiter_consume(&l, &cpu, TP_RATE_MAX + 1, 0));
	assert_false(tp_limiter_consume(&l, &cpu, U64_MAX_, 0));
	assert_false(tp_limiter_consume(&l, &cpu, 419431, 0));
	/* more than the burst: admitted when full, then owed */
	assert_true(tp_limiter_consume(&l, &cpu, 51, 0));
	assert_false(tp_limiter_consume(&l, &cpu, 1, 0));
	/* a page every 10 ticks: 1 page back, the burst's worth owed */
	assert_false(tp_limiter_consume(&l, &cpu, 1, 10));
	assert_true(tp_limiter_consume(&l, &cpu, 1, 20));
	cfg.rate = 0;						/* refuse all */
	assert_int_equal(tp_limiter_tune(&l, &cfg), 0);
	assert_false(tp_limiter_consume(&l, &cpu, 1, 1000000));
	assert_int_equal(tp_limiter_busy(&cpu), 0);
	/* windows: past 2^32 pages refused, not counted (no wrap) */
	cfg.variant = TP_LIMITER_WINDOW_LINUX61;
	cfg.rate = 100;
	assert_int_equal(tp_limiter_init(&l, &cfg, 0), 0);
	/* the window's opener: admitted, not counted in it */
	assert_true(tp_limiter_consume(&l, &cpu, 1, 0));
	assert_true(tp_limiter_consume(&l, &cpu, 90, 0));
	assert_false(tp_limiter_consume(&l, &cpu, TP_RATE_MAX + 1, 0));
	assert_false(tp_limiter_consume(&l, NULL, U64_MAX_, 0));
	assert_int_equal(tp_limiter_available(&l, 0), 10);
	assert_true(tp_limiter_consume(&l, NULL, 9, 0));
	assert_false(tp_limiter_consume(&l, NULL, 1, 0));
	assert_int_equal(tp_limiter_busy(&cpu), 0);
}

static void call_vma_empty(void **state)
{
	struct tp_vma_profile_cfg cfg = { .sz = sizeof(cfg),
					  .filter = TP_VMA_FILTER_NONE,
					  .tps = 1000 };
	struct tp_vma_facts f = { .vma_start = 4096, .vma_end = 4096 };
	struct tp_vma_profile p;
	struct tp_vma_scan v;

	(void)state;
	assert_int_equal(tp_vma_profile_init(&p, &cfg), 0);
	tp_vma_scan_init(&v, &p, 0, 0);
	assert_int_equal(tp_vma_scan_check(&v, &p, &f, 0), -EINVAL);
	f.vma_end = 0;
	assert_int_equal(tp_vma_scan_check(&v, &p, &f, 0), -EINVAL);
	f.vma_end = 8192;
	assert_int_equal(tp_vma_scan_check(&v, &p, &f, 0), TP_VMA_SCAN_ALL);
}

static void call_init_null(void **state)
{
	struct tp_scan_ring_cfg rc = { .sz = sizeof(rc) };
	struct tp_limiter_cfg lc = { .sz = sizeof(lc), .tps = 1000 };
	struct tp_thresh_cfg tc = { .sz = sizeof(tc), .tps = 1000 };
	struct tp_atime_cfg ac = { .sz = sizeof(ac) };
	struct tp_vma_profile_cfg vc = { .sz = sizeof(vc), .tps = 1000 };
	struct tp_scan_ring ring;
	struct tp_limiter l;
	struct tp_thresh t;
	struct tp_atime fmt;
	struct tp_vma_profile p;

	(void)state;
	assert_int_equal(tp_scan_ring_init(NULL, &rc, passes, 16), -EINVAL);
	assert_int_equal(tp_scan_ring_init(&ring, NULL, passes, 16), -EINVAL);
	assert_int_equal(tp_scan_ring_init(&ring, &rc, NULL, 16), -EINVAL);
	assert_int_equal(tp_scan_ring_init(&ring, &rc, passes, 16), 0);
	assert_int_equal(tp_limiter_init(NULL, &lc, 0), -EINVAL);
	assert_int_equal(tp_limiter_init(&l, NULL, 0), -EINVAL);
	assert_int_equal(tp_limiter_init(&l, &lc, 0), 0);
	assert_int_equal(tp_limiter_tune(NULL, &lc), -EINVAL);
	assert_int_equal(tp_limiter_tune(&l, NULL), -EINVAL);
	assert_int_equal(tp_thresh_init(NULL, &tc, 0, 0), -EINVAL);
	assert_int_equal(tp_thresh_init(&t, NULL, 0, 0), -EINVAL);
	assert_int_equal(tp_thresh_init(&t, &tc, 0, 0), 0);
	assert_int_equal(tp_thresh_tune(NULL, &tc), -EINVAL);
	assert_int_equal(tp_thresh_tune(&t, NULL), -EINVAL);
	assert_int_equal(tp_atime_init(NULL, &ac), -EINVAL);
	assert_int_equal(tp_atime_init(&fmt, NULL), -EINVAL);
	assert_int_equal(tp_vma_profile_init(NULL, &vc), -EINVAL);
	assert_int_equal(tp_vma_profile_init(&p, NULL), -EINVAL);
}

/* A zero-filled ring (never initialised, no passes) answers -ENOENT. */
static void call_ring_latency_zero_filled(void **state)
{
	struct tp_scan_ring ring;
	u64 lat = 7;

	(void)state;
	memset(&ring, 0, sizeof(ring));
	ring.pass = passes;	/* only the pass array: TP_ASSERT otherwise */
	assert_int_equal(tp_scan_ring_latency(&ring, 0, 1, &lat), -ENOENT);
	assert_true(lat == 7);
}

static void call_helpers_edges(void **state)
{
	static const unsigned long mask[1] = { 0x6 };	/* nodes 1, 2 */
	struct tp_group_fault gf = { .cpu_node = 1, .mem_node = 2,
				     .in_group = true };
	struct tp_node_mem m = { 0 };

	(void)state;
	/* Shifts of 64 and more are defined: no pages, no UB. */
	assert_true(tp_mbps_to_pages(1, 84) == 0);
	assert_true(tp_mbps_to_pages(1, U32_MAX_) == 0);
	assert_true(tp_mbps_to_pages(U64_MAX_, 0) == U64_MAX_);
	assert_true(tp_mbps_to_pages(U64_MAX_, 12) == U64_MAX_);
	/* tps 0 and scan period 0 still give an interval of one tick. */
	assert_true(tp_migrate_retry_interval(0, 0) == 1);
	assert_true(tp_migrate_retry_interval(U64_MAX_, 0) == 1);
	/* Node masks: NULL, or node numbers beyond nbits, are not in it. */
	assert_true(tp_group_fault_local(TP_GROUP_LINUX315, &gf, mask, 3));
	assert_false(tp_group_fault_local(TP_GROUP_LINUX315, &gf, mask, 2));
	assert_false(tp_group_fault_local(TP_GROUP_LINUX315, &gf, NULL, 32));
	assert_false(tp_group_fault_local(TP_GROUP_LINUX61, &gf, NULL, 32));
	gf.mem_node = U32_MAX_;
	assert_false(tp_group_fault_local(TP_GROUP_LINUX315, &gf, mask, 32));
	assert_int_equal(tp_preferred_node(TP_GROUP_LINUX315, true, 1, 0, NULL, 64),
			 -1);
	assert_int_equal(tp_preferred_node(TP_GROUP_LINUX315, true, -1, 0, mask,
					   64), -1);
	assert_int_equal(tp_preferred_node(TP_GROUP_LINUX61, true, -1, 3,
					   NULL, 0), 3);
	/* Saturating watermark arithmetic. */
	assert_true(tp_wmark_promo(U64_MAX_, U64_MAX_, U64_MAX_, U32_MAX_) ==
		    U64_MAX_);
	m.free = U64_MAX_;
	m.wmark_high = U64_MAX_;
	assert_false(tp_promote_room(&m, 1));
	m.wmark_high = 0;
	assert_false(tp_promote_room(&m, U64_MAX_));
	assert_true(tp_vma_scan_ratelimit(0) == 1);
	assert_true(tp_vma_scan_ratelimit(U64_MAX_) == 1);
}

/* ---- contract rows: TP_ASSERT traps under -DTP_DEBUG ------------------------ */

static struct tp_scan_ring z_ring;
static struct tp_limiter z_lim;
static struct tp_atime z_fmt;
static struct tp_vma_scan z_vs;
static struct tp_vma_profile z_prof;
static struct tp_vma_facts z_facts = { .vma_end = 1 };
static u64 z_u64;
static u32 z_u32;

/*
 * The z_* objects are zero-filled (never initialised) and the calls pass
 * NULL or them; each call must trap before doing anything.
 */
static void c_ring_record_null(void)
{
	tp_scan_ring_record(NULL, 0, 0);
}

static void c_ring_record_uninit(void)
{
	tp_scan_ring_record(&z_ring, 0, 0);
}

static void c_ring_advance_null(void)
{
	tp_scan_ring_advance(NULL, 0);
}

static void c_ring_reset_null(void)
{
	tp_scan_ring_reset(NULL);
}

static void c_ring_latency_null(void)
{
	(void)tp_scan_ring_latency(NULL, 0, 0, &z_u64);
}

static void c_ring_latency_null_out(void)
{
	struct tp_scan_ring_cfg cfg = { .sz = sizeof(cfg) };
	struct tp_scan_ring ring;

	if (tp_scan_ring_init(&ring, &cfg, passes, TP_RING_DEPTH_MAX))
		_exit(3);
	(void)tp_scan_ring_latency(&ring, 0, 0, NULL);
}

static void c_ring_latency_uninit(void)
{
	(void)tp_scan_ring_latency(&z_ring, 0, 0, &z_u64);
}

static void c_lim_consume_null(void)
{
	(void)tp_limiter_consume(NULL, NULL, 1, 0);
}

static void c_lim_consume_uninit(void)
{
	(void)tp_limiter_consume(&z_lim, NULL, 1, 0);
}

static void c_lim_busy_null(void)
{
	(void)tp_limiter_busy(NULL);
}

static void c_lim_available_uninit(void)
{
	(void)tp_limiter_available(&z_lim, 0);
}

static void c_lim_tune_uninit(void)
{
	struct tp_limiter_cfg cfg = { .sz = sizeof(cfg), .tps = 1000,
				      .rate = 1 };

	(void)tp_limiter_tune(&z_lim, &cfg);
}

static void c_atime_xchg_null(void)
{
	(void)tp_atime_xchg(NULL, &z_u32, 0);
}

static void c_atime_fault_null_stamp(void)
{
	struct tp_atime_cfg cfg = { .sz = sizeof(cfg) };
	struct tp_atime fmt;

	if (tp_atime_init(&fmt, &cfg))
		_exit(3);
	(void)tp_atime_fault(&fmt, NULL, 0);
}

static void c_atime_fault_uninit(void)
{
	(void)tp_atime_fault(&z_fmt, &z_u32, 0);
}

static void c_vma_init_null(void)
{
	tp_vma_scan_init(&z_vs, NULL, 0, 0);
}

static void c_vma_note_null(void)
{
	tp_vma_scan_note(NULL, 1);
}

static void c_vma_check_null(void)
{
	(void)tp_vma_scan_check(&z_vs, &z_prof, NULL, 0);
}

static void c_vma_check_null_state(void)
{
	(void)tp_vma_scan_check(NULL, &z_prof, &z_facts, 0);
}

static void c_vma_done_null(void)
{
	tp_vma_scan_done(NULL, 0);
}

static const struct contract_row contract_rows[] = {
	CROW(c_ring_record_null, "tp_scan_ring_record(NULL)"),
	CROW(c_ring_record_uninit, "tp_scan_ring_record(zero-filled ring)"),
	CROW(c_ring_advance_null, "tp_scan_ring_advance(NULL)"),
	CROW(c_ring_reset_null, "tp_scan_ring_reset(NULL)"),
	CROW(c_ring_latency_null, "tp_scan_ring_latency(NULL)"),
	CROW(c_ring_latency_null_out, "tp_scan_ring_latency(latency NULL)"),
	CROW(c_ring_latency_uninit, "tp_scan_ring_latency(zero-filled ring)"),
	CROW(c_lim_consume_null, "tp_limiter_consume(NULL)"),
	CROW(c_lim_consume_uninit, "tp_limiter_consume(zero-filled)"),
	CROW(c_lim_busy_null, "tp_limiter_busy(NULL)"),
	CROW(c_lim_available_uninit, "tp_limiter_available(zero-filled)"),
	CROW(c_lim_tune_uninit, "tp_limiter_tune(zero-filled)"),
	CROW(c_atime_xchg_null, "tp_atime_xchg(NULL)"),
	CROW(c_atime_fault_null_stamp, "tp_atime_fault(stamp NULL)"),
	CROW(c_atime_fault_uninit, "tp_atime_fault(zero-filled format)"),
	CROW(c_vma_init_null, "tp_vma_scan_init(profile NULL)"),
	CROW(c_vma_note_null, "tp_vma_scan_note(NULL)"),
	CROW(c_vma_check_null, "tp_vma_scan_check(facts NULL)"),
	CROW(c_vma_check_null_state, "tp_vma_scan_check(NULL)"),
	CROW(c_vma_done_null, "tp_vma_scan_done(NULL)"),
};

/* ---- main: one named CMocka case per row ------------------------------------ */

static const struct CMUnitTest call_tests[] = {
	cmocka_unit_test(call_names),
	cmocka_unit_test(call_ring_init_short_array),
	cmocka_unit_test(call_limiter_requests),
	cmocka_unit_test(call_vma_empty),
	cmocka_unit_test(call_init_null),
	cmocka_unit_test(call_ring_latency_zero_filled),
	cmocka_unit_test(call_helpers_edges),
};

int main(void)
{
	return run_bad_input("bad_input", cfg_rows, ARRAY_LEN(cfg_rows),
			     run_cfg_row, call_tests, ARRAY_LEN(call_tests),
			     contract_rows, ARRAY_LEN(contract_rows));
}
