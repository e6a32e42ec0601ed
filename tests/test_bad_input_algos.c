// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * CMocka: the bad-input table of docs/BAD_INPUT.md for the primitives past
 * Linux 6.1: the goal controller, the hotness record and the fault-count
 * clock, one named case per row (tests/bad_input.h says what config, call
 * and contract rows check). The capacity-fitted threshold's rows are with
 * the threshold controller's, in test_bad_input_thresh.c.
 */
#include "bad_input.h"

/* ---- config rows ---------------------------------------------------------- */

enum comp { GOAL, HOT };

static const struct cfg_row cfg_rows[] = {
	/* the size field */
	ROW(GOAL, tp_goal_cfg, sz, 0, -EINVAL),
	ROW(GOAL, tp_goal_cfg, sz, sizeof(struct tp_goal_cfg) - 8, -EINVAL),
	ROW(GOAL, tp_goal_cfg, sz, 4097, -EINVAL),
	ROW(GOAL, tp_goal_cfg, sz, U32_MAX_, -EINVAL),
	ROW(HOT, tp_hot_cfg, sz, 0, -EINVAL),
	ROW(HOT, tp_hot_cfg, sz, sizeof(struct tp_hot_cfg) - 4, -EINVAL),
	ROW(HOT, tp_hot_cfg, sz, 4097, -EINVAL),
	ROW(HOT, tp_hot_cfg, sz, U32_MAX_, -EINVAL),
	/* goal controller (base: goal 100, output in [1, 1000], init 10) */
	ROW(GOAL, tp_goal_cfg, goal, 0, -EINVAL),
	ROW(GOAL, tp_goal_cfg, goal, 1, 0),
	ROW(GOAL, tp_goal_cfg, goal, TP_GOAL_MAX, 0),
	ROW(GOAL, tp_goal_cfg, goal, TP_GOAL_MAX + 1, -ERANGE),
	ROW(GOAL, tp_goal_cfg, goal, U64_MAX_, -ERANGE),
	ROW(GOAL, tp_goal_cfg, min, 0, -EINVAL),
	ROW(GOAL, tp_goal_cfg, min, 1, 0),
	ROW(GOAL, tp_goal_cfg, min, 1000, 0),
	ROW(GOAL, tp_goal_cfg, min, 1001, -EINVAL),
	ROW(GOAL, tp_goal_cfg, min, TP_GOAL_MAX + 1, -EINVAL),	/* > max */
	ROW(GOAL, tp_goal_cfg, max, 0, -EINVAL),
	ROW(GOAL, tp_goal_cfg, max, 1, 0),
	ROW(GOAL, tp_goal_cfg, max, TP_GOAL_MAX, 0),
	ROW(GOAL, tp_goal_cfg, max, TP_GOAL_MAX + 1, -ERANGE),
	ROW(GOAL, tp_goal_cfg, max, U64_MAX_, -ERANGE),
	ROW(GOAL, tp_goal_cfg, init, 0, 0),
	ROW(GOAL, tp_goal_cfg, init, 1, 0),
	ROW(GOAL, tp_goal_cfg, init, 1001, 0),
	ROW(GOAL, tp_goal_cfg, init, TP_GOAL_MAX, 0),
	ROW(GOAL, tp_goal_cfg, init, TP_GOAL_MAX + 1, -ERANGE),
	ROW(GOAL, tp_goal_cfg, init, U64_MAX_, -ERANGE),
	/* base 1: min 5: an init below it is raised to it */
	ROW_B(GOAL, tp_goal_cfg, init, 1, 0, 1),
	ROW_B(GOAL, tp_goal_cfg, init, 0, 0, 1),
	/* base 2: also a goal of 0: -EINVAL wins over -ERANGE */
	ROW_B(GOAL, tp_goal_cfg, max, TP_GOAL_MAX + 1, -EINVAL, 2),
	ROW_B(GOAL, tp_goal_cfg, max, 1000, -EINVAL, 2),
	/* hotness record (base: the byte format, 1000 ticks/s) */
	ROW(HOT, tp_hot_cfg, format, TP_HOT_BYTE, 0),
	ROW(HOT, tp_hot_cfg, format, TP_HOT_PRECISE, 0),
	ROW(HOT, tp_hot_cfg, format, 2, -EINVAL),
	ROW(HOT, tp_hot_cfg, format, U32_MAX_, -EINVAL),
	ROW(HOT, tp_hot_cfg, tps, 0, -EINVAL),
	ROW(HOT, tp_hot_cfg, tps, 1, 0),
	ROW(HOT, tp_hot_cfg, tps, TP_TPS_MAX, 0),
	ROW(HOT, tp_hot_cfg, tps, TP_TPS_MAX + 1ULL, -EINVAL),
	ROW(HOT, tp_hot_cfg, tps, U32_MAX_, -EINVAL),
	ROW(HOT, tp_hot_cfg, freq_threshold, 0, 0),
	ROW(HOT, tp_hot_cfg, freq_threshold, 1, 0),
	ROW(HOT, tp_hot_cfg, freq_threshold, 3, 0),
	ROW(HOT, tp_hot_cfg, freq_threshold, 4, -EINVAL),
	ROW(HOT, tp_hot_cfg, freq_threshold, U32_MAX_, -EINVAL),
	/* 128 ms buckets: 30 of them fit (3840 ms), 31 do not */
	ROW(HOT, tp_hot_cfg, window_ms, 0, 0),
	ROW(HOT, tp_hot_cfg, window_ms, 1, 0),
	ROW(HOT, tp_hot_cfg, window_ms, 3840, 0),
	ROW(HOT, tp_hot_cfg, window_ms, 3841, -ERANGE),
	ROW(HOT, tp_hot_cfg, window_ms, U32_MAX_, -ERANGE),
	ROW(HOT, tp_hot_cfg, bucket_shift, 0, 0),
	ROW(HOT, tp_hot_cfg, bucket_shift, 40, 0),
	ROW(HOT, tp_hot_cfg, bucket_shift, 41, -EINVAL),
	ROW(HOT, tp_hot_cfg, bucket_shift, U32_MAX_, -EINVAL),
	/* base 1: the precise format (1 ms buckets, 16382 of them fit) */
	ROW_B(HOT, tp_hot_cfg, freq_threshold, 7, 0, 1),
	ROW_B(HOT, tp_hot_cfg, freq_threshold, 8, -EINVAL, 1),
	ROW_B(HOT, tp_hot_cfg, window_ms, 16382, 0, 1),
	ROW_B(HOT, tp_hot_cfg, window_ms, 16383, -ERANGE, 1),
	ROW_B(HOT, tp_hot_cfg, tps, TP_TPS_MAX, 0, 1),
	ROW_B(HOT, tp_hot_cfg, tps, 1, 0, 1),
	/* base 2: also a window above the span: -EINVAL is checked first */
	ROW_B(HOT, tp_hot_cfg, freq_threshold, 4, -EINVAL, 2),
	ROW_B(HOT, tp_hot_cfg, bucket_shift, 41, -EINVAL, 2),
	ROW_B(HOT, tp_hot_cfg, bucket_shift, 40, 0, 2),
};

static u64 clamp_u64(u64 v, u64 lo, u64 hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

static void row_goal(const struct cfg_row *r)
{
	struct tp_goal_cfg good = { .sz = sizeof(good), .goal = 100,
				    .min = 1, .max = 1000, .init = 10 };
	struct tp_goal_cfg cfg;
	struct tp_goal g, copy;
	u64 out;
	int ret;

	if (r->base == 1)
		good.min = 5;
	cfg = good;
	if (r->base == 2)
		cfg.goal = 0;
	set_field(&cfg, r);
	memset(&g, POISON, sizeof(g));
	copy = g;
	ret = tp_goal_init(&g, &cfg);
	assert_int_equal(ret, r->want);
	if (ret) {
		assert_memory_equal(&g, &copy, sizeof(g));
	} else {
		/* The first output: @init (0: @min), clamped into the bounds. */
		out = clamp_u64(cfg.init ? cfg.init : cfg.min, cfg.min,
				cfg.max);
		assert_true(tp_goal_get(&g) == out);
		/* Any metric: the output moves by x2 at most, stays inside. */
		assert_true(tp_goal_update(&g, 0) ==
			    clamp_u64(out > cfg.max / 2 ? cfg.max : 2 * out,
				      cfg.min, cfg.max));
		/* A huge metric is at least 1.5 x any goal: halved. */
		out = clamp_u64(tp_goal_get(&g) / 2, cfg.min, cfg.max);
		assert_true(tp_goal_update(&g, U64_MAX_) == out);
	}

	/* The same through tune, on a running controller. */
	assert_int_equal(tp_goal_init(&g, &good), 0);
	(void)tp_goal_update(&g, 50);
	copy = g;
	ret = tp_goal_tune(&g, &cfg);
	assert_int_equal(ret, r->want);
	if (ret) {
		assert_memory_equal(&g, &copy, sizeof(g));
	} else {
		/* The output is kept, read as clamped into the new bounds. */
		out = clamp_u64(good.init * 150 / 100, cfg.min, cfg.max);
		assert_true(tp_goal_get(&g) == out);
	}
}

static void row_hot(const struct cfg_row *r)
{
	struct tp_hot_cfg cfg = { .sz = sizeof(cfg), .format = TP_HOT_BYTE,
				  .tps = 1000 };
	struct tp_hot h, copy;
	u32 thr, rec = 0, i;
	u64 now = U64_MAX_ - 3;
	int ret;

	if (r->base == 1)
		cfg.format = TP_HOT_PRECISE;
	if (r->base == 2)
		cfg.window_ms = U32_MAX_;
	set_field(&cfg, r);
	memset(&h, POISON, sizeof(h));
	copy = h;
	ret = tp_hot_init(&h, &cfg);
	assert_int_equal(ret, r->want);
	if (ret) {
		assert_memory_equal(&h, &copy, sizeof(h));
		return;
	}
	/*
	 * Accepted: the threshold is @freq_threshold (0: 2) accesses within
	 * the window; any time, the largest included, is a valid @now.
	 */
	thr = cfg.freq_threshold ? cfg.freq_threshold : 2;
	assert_true(tp_hot_expired(&h, 0, now));
	for (i = 1; i <= thr; i++) {
		assert_false(tp_hot_ready(&h, rec));
		rec = tp_hot_record(&h, rec, 1, now);
		assert_int_equal(tp_hot_count(&h, rec), i);
	}
	assert_true(tp_hot_ready(&h, rec));
	assert_false(tp_hot_expired(&h, rec, now));
	assert_int_equal(tp_hot_nid(&h, rec),
			 cfg.format == TP_HOT_PRECISE ? 1 : 0);
}

static void run_cfg_row(void **state)
{
	const struct cfg_row *r = *state;

	switch (r->comp) {
	case GOAL:
		row_goal(r);
		break;
	case HOT:
		row_hot(r);
		break;
	}
}

/* ---- call rows: bad per-call inputs and NULL arguments with an error ------- */

static void call_algos_init_null(void **state)
{
	struct tp_goal_cfg gc = { .sz = sizeof(gc), .goal = 1, .min = 1,
				  .max = 1 };
	struct tp_hot_cfg hc = { .sz = sizeof(hc), .tps = 1000 };
	struct tp_goal g;
	struct tp_hot h;

	(void)state;
	assert_int_equal(tp_goal_init(NULL, &gc), -EINVAL);
	assert_int_equal(tp_goal_init(&g, NULL), -EINVAL);
	assert_int_equal(tp_goal_init(&g, &gc), 0);
	assert_int_equal(tp_goal_tune(NULL, &gc), -EINVAL);
	assert_int_equal(tp_goal_tune(&g, NULL), -EINVAL);
	assert_int_equal(tp_hot_init(NULL, &hc), -EINVAL);
	assert_int_equal(tp_hot_init(&h, NULL), -EINVAL);
	assert_int_equal(tp_hot_init(&h, &hc), 0);
	assert_int_equal(tp_fault_clock_init(NULL, 0), -EINVAL);
}

/* The clock's batch: 0 .. 65536, 0 and 1 adding every fault at once. */
static void call_fclock_init_batch(void **state)
{
	static const u32 bad[] = { TP_CAND_BATCH_MAX + 1, U32_MAX_ };
	struct tp_fault_clock_cpu cpu;
	struct tp_fault_clock clk, copy;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_LEN(bad); i++) {
		memset(&clk, POISON, sizeof(clk));
		copy = clk;
		assert_int_equal(tp_fault_clock_init(&clk, bad[i]), -EINVAL);
		assert_memory_equal(&clk, &copy, sizeof(clk));
	}
	memset(&cpu, 0, sizeof(cpu));
	assert_int_equal(tp_fault_clock_init(&clk, 0), 0);
	assert_true(tp_fault_clock_tick(&clk, &cpu, 3) == 3);
	assert_int_equal(tp_fault_clock_init(&clk, 1), 0);
	assert_true(tp_fault_clock_tick(&clk, &cpu, 1) == 1);
	assert_int_equal(tp_fault_clock_init(&clk, TP_CAND_BATCH_MAX), 0);
	assert_true(tp_fault_clock_tick(&clk, &cpu, TP_CAND_BATCH_MAX - 1) ==
		    0);
	assert_true(tp_fault_clock_now(&clk) == 0);
	assert_true(tp_fault_clock_tick(&clk, &cpu, 1) == TP_CAND_BATCH_MAX);
	/* 0 faults: nothing counted, nothing folded */
	assert_true(tp_fault_clock_tick(&clk, &cpu, 0) == TP_CAND_BATCH_MAX);
	/* past 2^32: nothing counted, the clock does not step back */
	assert_true(tp_fault_clock_tick(&clk, &cpu, U64_MAX_) ==
		    TP_CAND_BATCH_MAX);
	assert_true(tp_fault_clock_tick(&clk, &cpu, TP_RATE_MAX + 1) ==
		    TP_CAND_BATCH_MAX);
	assert_true(tp_fault_clock_tick(&clk, &cpu, TP_RATE_MAX) ==
		    TP_CAND_BATCH_MAX + TP_RATE_MAX);
}

/*
 * The metric: any value; above TP_GOAL_MAX it counts as TP_GOAL_MAX (so
 * at least 1.5 x any goal: halved). The output never leaves [min, max].
 */
static void call_goal_metric_edges(void **state)
{
	struct tp_goal_cfg c = { .sz = sizeof(c), .goal = TP_GOAL_MAX,
				 .min = 1, .max = TP_GOAL_MAX,
				 .init = TP_GOAL_MAX };
	struct tp_goal g;

	(void)state;
	assert_int_equal(tp_goal_init(&g, &c), 0);
	/* at the goal: kept, even at 2^62 */
	assert_true(tp_goal_update(&g, TP_GOAL_MAX) == TP_GOAL_MAX);
	/*
	 * 1.5 x the goal of 2^62 is past 2^62: halved all the same; one
	 * less is not (x (2g - c) / g = x (2^61 + 1) / 2^62).
	 */
	assert_true(tp_goal_update(&g, TP_GOAL_MAX + TP_GOAL_MAX / 2 - 1) ==
		    TP_GOAL_MAX / 2 + 1);
	assert_true(tp_goal_update(&g, TP_GOAL_MAX + TP_GOAL_MAX / 2) ==
		    TP_GOAL_MAX / 4);
	assert_true(tp_goal_update(&g, U64_MAX_) == TP_GOAL_MAX / 8);
	/* 0 doubles, clamped to max; exact arithmetic at 2^62 */
	assert_true(tp_goal_update(&g, 0) == TP_GOAL_MAX / 4);
	assert_true(tp_goal_update(&g, 0) == TP_GOAL_MAX / 2);
	assert_true(tp_goal_update(&g, 0) == TP_GOAL_MAX);
	assert_true(tp_goal_update(&g, 0) == TP_GOAL_MAX);
	/*
	 * An odd goal above 2^62 / 1.5: 4x and 2x itself halve (the metric
	 * counted as 2^62 before, below 1.5 x, and 2^40 moved by one).
	 */
	c.goal = TP_GOAL_MAX - 1;
	c.init = 1ULL << 40;
	assert_int_equal(tp_goal_init(&g, &c), 0);
	assert_true(tp_goal_update(&g, U64_MAX_) == 1ULL << 39);
	assert_true(tp_goal_update(&g, 2 * c.goal) == 1ULL << 38);
	c.init = TP_GOAL_MAX;
	c.goal = 1;
	assert_int_equal(tp_goal_init(&g, &c), 0);
	assert_true(tp_goal_update(&g, TP_GOAL_MAX + 1) == TP_GOAL_MAX / 2);
	assert_true(tp_goal_update(&g, U64_MAX_) == TP_GOAL_MAX / 4);
	/* the smallest output stays at min, and a metric of 0 moves it */
	c.init = 1;
	assert_int_equal(tp_goal_init(&g, &c), 0);
	assert_true(tp_goal_update(&g, U64_MAX_) == 1);
	assert_true(tp_goal_update(&g, 0) == 2);
}

/*
 * Records: a byte record's bits above the low 8 are ignored (and kept by
 * tp_hot_record32()); a node above 1023 is stored as 1023; a precise
 * record's reserved bits 17-14 are written as zero.
 */
static void call_hot_record_inputs(void **state)
{
	struct tp_hot_cfg c = { .sz = sizeof(c), .format = TP_HOT_BYTE,
				.tps = 1000 };
	struct tp_hot h;
	u32 rec, word;

	(void)state;
	assert_int_equal(tp_hot_init(&h, &c), 0);
	rec = tp_hot_record(&h, 0, 0, 1000);
	assert_true(tp_hot_record(&h, rec | 0xabcd0000U, 0, 1000) ==
		    tp_hot_record(&h, rec, 0, 1000));
	assert_true(tp_hot_record(&h, 0, U32_MAX_, 1000) == rec);
	assert_true(tp_hot_ready(&h, 0xffffff7fU) == false);
	word = 0xabcd0000U | rec;
	assert_true(tp_hot_record32(&h, &word, 5, 1000));
	assert_true((word & 0xffffff00U) == 0xabcd0000U);

	c.format = TP_HOT_PRECISE;
	assert_int_equal(tp_hot_init(&h, &c), 0);
	rec = tp_hot_record(&h, 0x3c000U, U32_MAX_, 1000);
	assert_int_equal(tp_hot_nid(&h, rec), TP_HOT_NID_MAX);
	assert_true((rec & 0x3c000U) == 0);
	word = 0;
	assert_false(tp_hot_record32(&h, &word, 7, 1000));
	assert_true(tp_hot_record32(&h, &word, 8, 1001));
	assert_int_equal(tp_hot_nid(&h, word), 8);
}

/*
 * Objects no init accepted, which these functions cannot tell apart from
 * valid ones (docs/BAD_INPUT.md, Findings): a zero-filled goal controller
 * answers 0 (below any valid bound), and a tune makes it one whose output
 * reads as its minimum; a zero-filled clock reads 0. (A zero-filled
 * hotness format is a contract row: c_hot_record_zero_filled.)
 */
static void call_algos_zero_filled(void **state)
{
	struct tp_goal_cfg c = { .sz = sizeof(c), .goal = 100, .min = 3,
				 .max = 1000 };
	static struct tp_goal g;
	static struct tp_fault_clock clk;

	(void)state;
	assert_true(tp_goal_get(&g) == 0);
	assert_true(tp_goal_update(&g, 5) == 0);
	assert_int_equal(tp_goal_tune(&g, &c), 0);
	assert_true(tp_goal_get(&g) == 3);
	assert_true(tp_goal_update(&g, 0) == 6);
	assert_true(tp_fault_clock_now(&clk) == 0);
}

/* ---- contract rows: TP_ASSERT traps under -DTP_DEBUG ------------------------ */

static struct tp_hot z_hot;
static struct tp_fault_clock z_clk;
static struct tp_fault_clock_cpu z_clk_cpu;
static u32 z_u32;

static void c_goal_update_null(void)
{
	(void)tp_goal_update(NULL, 0);
}

static void c_goal_get_null(void)
{
	(void)tp_goal_get(NULL);
}

static void c_hot_record_null(void)
{
	(void)tp_hot_record(NULL, 0, 0, 0);
}

/* A format no init wrote (poisoned memory: no valid format). */
static void c_hot_record_bad_format(void)
{
	struct tp_hot h;

	memset(&h, POISON, sizeof(h));
	(void)tp_hot_record(&h, 0, 0, 0);
}

/* A zero-filled format: the threshold no init leaves at 0. */
static void c_hot_record_zero_filled(void)
{
	(void)tp_hot_record(&z_hot, 0, 0, 0);
}

static void c_hot_record32_null(void)
{
	(void)tp_hot_record32(NULL, &z_u32, 0, 0);
}

static void c_hot_record32_null_rec(void)
{
	(void)tp_hot_record32(&z_hot, NULL, 0, 0);
}

static void c_hot_ready_null(void)
{
	(void)tp_hot_ready(NULL, 0);
}

static void c_hot_expired_null(void)
{
	(void)tp_hot_expired(NULL, 0, 0);
}

static void c_hot_nid_null(void)
{
	(void)tp_hot_nid(NULL, 0);
}

static void c_hot_count_null(void)
{
	(void)tp_hot_count(NULL, 0);
}

static void c_fclock_tick_null(void)
{
	(void)tp_fault_clock_tick(NULL, &z_clk_cpu, 1);
}

static void c_fclock_tick_uninit(void)
{
	(void)tp_fault_clock_tick(&z_clk, &z_clk_cpu, 1);
}

static void c_fclock_tick_null_slot(void)
{
	struct tp_fault_clock clk;

	if (tp_fault_clock_init(&clk, 4))
		_exit(3);
	(void)tp_fault_clock_tick(&clk, NULL, 1);
}

static void c_fclock_now_null(void)
{
	(void)tp_fault_clock_now(NULL);
}

static const struct contract_row contract_rows[] = {
	CROW(c_goal_update_null, "tp_goal_update(NULL)"),
	CROW(c_goal_get_null, "tp_goal_get(NULL)"),
	CROW(c_hot_record_null, "tp_hot_record(NULL)"),
	CROW(c_hot_record_bad_format, "tp_hot_record(no valid format)"),
	CROW(c_hot_record_zero_filled, "tp_hot_record(zero-filled)"),
	CROW(c_hot_record32_null, "tp_hot_record32(NULL)"),
	CROW(c_hot_record32_null_rec, "tp_hot_record32(rec NULL)"),
	CROW(c_hot_ready_null, "tp_hot_ready(NULL)"),
	CROW(c_hot_expired_null, "tp_hot_expired(NULL)"),
	CROW(c_hot_nid_null, "tp_hot_nid(NULL)"),
	CROW(c_hot_count_null, "tp_hot_count(NULL)"),
	CROW(c_fclock_tick_null, "tp_fault_clock_tick(NULL)"),
	CROW(c_fclock_tick_uninit, "tp_fault_clock_tick(zero-filled)"),
	CROW(c_fclock_tick_null_slot, "tp_fault_clock_tick(slot NULL)"),
	CROW(c_fclock_now_null, "tp_fault_clock_now(NULL)"),
};

/* ---- main: one named CMocka case per row ------------------------------------ */

static const struct CMUnitTest call_tests[] = {
	cmocka_unit_test(call_algos_init_null),
	cmocka_unit_test(call_fclock_init_batch),
	cmocka_unit_test(call_goal_metric_edges),
	cmocka_unit_test(call_hot_record_inputs),
	cmocka_unit_test(call_algos_zero_filled),
};

int main(void)
{
	return run_bad_input("bad_input_algos", cfg_rows, ARRAY_LEN(cfg_rows),
			     run_cfg_row, call_tests, ARRAY_LEN(call_tests),
			     contract_rows, ARRAY_LEN(contract_rows));
}
