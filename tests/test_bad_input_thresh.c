// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * CMocka: the bad-input table of docs/BAD_INPUT.md for the threshold
 * controller (tp_thresh_*(): the 2020 RFC's, Linux 6.1's and the
 * capacity-fitted histogram), one named case per row (tests/bad_input.h
 * says what config, call and contract rows check). Its NULL arguments at
 * init and tune are checked with the other objects' in test_bad_input.c
 * (call_init_null).
 */
#include "bad_input.h"

/* ---- config rows ---------------------------------------------------------- */

enum comp { THRESH };

static const struct cfg_row cfg_rows[] = {
	/* the size field */
	ROW(THRESH, tp_thresh_cfg, sz, 0, -EINVAL),
	ROW(THRESH, tp_thresh_cfg, sz, sizeof(struct tp_thresh_cfg) - 8,
	    -EINVAL),
	ROW(THRESH, tp_thresh_cfg, sz, U32_MAX_, -EINVAL),
	/* base 0: the 2020 RFC's (tps 1000, reference 1000, 100 pages/s) */
	ROW(THRESH, tp_thresh_cfg, variant, TP_THRESH_LINUX61, 0),
	ROW(THRESH, tp_thresh_cfg, variant, 3, -EINVAL),
	ROW(THRESH, tp_thresh_cfg, variant, U32_MAX_, -EINVAL),
	ROW(THRESH, tp_thresh_cfg, steps, 0, 0),
	ROW(THRESH, tp_thresh_cfg, steps, 1, 0),
	ROW(THRESH, tp_thresh_cfg, steps, TP_THRESH_STEPS_MAX, 0),
	ROW(THRESH, tp_thresh_cfg, steps, TP_THRESH_STEPS_MAX + 1, -EINVAL),
	ROW(THRESH, tp_thresh_cfg, steps, U32_MAX_, -EINVAL),
	ROW(THRESH, tp_thresh_cfg, tps, 0, -EINVAL),
	ROW(THRESH, tp_thresh_cfg, tps, 1, 0),
	ROW(THRESH, tp_thresh_cfg, tps, TP_TPS_MAX, 0),
	ROW(THRESH, tp_thresh_cfg, tps, TP_TPS_MAX + 1ULL, -EINVAL),
	ROW(THRESH, tp_thresh_cfg, ref_th, 0, 0),
	ROW(THRESH, tp_thresh_cfg, ref_th, 1, 0),
	ROW(THRESH, tp_thresh_cfg, ref_th, TP_TIME_MAX, 0),
	ROW(THRESH, tp_thresh_cfg, ref_th, TP_TIME_MAX + 1, -ERANGE),
	ROW(THRESH, tp_thresh_cfg, ref_th, U64_MAX_, -ERANGE),
	ROW(THRESH, tp_thresh_cfg, period, 0, 0),
	ROW(THRESH, tp_thresh_cfg, period, 1, 0),
	ROW(THRESH, tp_thresh_cfg, period, TP_TIME_MAX, 0),
	ROW(THRESH, tp_thresh_cfg, period, TP_TIME_MAX + 1, -ERANGE),
	ROW(THRESH, tp_thresh_cfg, rate_limit, 0, 0),
	ROW(THRESH, tp_thresh_cfg, rate_limit, TP_RATE_MAX, 0),
	ROW(THRESH, tp_thresh_cfg, rate_limit, TP_RATE_MAX + 1, -ERANGE),
	ROW(THRESH, tp_thresh_cfg, variant, TP_THRESH_HISTOGRAM, 0),
	ROW(THRESH, tp_thresh_cfg, batch, 0, 0),
	ROW(THRESH, tp_thresh_cfg, batch, 1, 0),
	ROW(THRESH, tp_thresh_cfg, batch, TP_CAND_BATCH_MAX, 0),
	ROW(THRESH, tp_thresh_cfg, batch, TP_CAND_BATCH_MAX + 1, -EINVAL),
	ROW(THRESH, tp_thresh_cfg, batch, U32_MAX_, -EINVAL),
	/* base 1: the histogram (bins sized from the bound, 2^62 included) */
	ROW_B(THRESH, tp_thresh_cfg, ref_th, 0, 0, 1),
	ROW_B(THRESH, tp_thresh_cfg, ref_th, 1, 0, 1),
	ROW_B(THRESH, tp_thresh_cfg, ref_th, 1ULL << 13, 0, 1),
	ROW_B(THRESH, tp_thresh_cfg, ref_th, TP_TIME_MAX, 0, 1),
	ROW_B(THRESH, tp_thresh_cfg, ref_th, TP_TIME_MAX + 1, -ERANGE, 1),
	ROW_B(THRESH, tp_thresh_cfg, steps, 1, 0, 1),
	ROW_B(THRESH, tp_thresh_cfg, steps, TP_THRESH_STEPS_MAX, 0, 1),
	ROW_B(THRESH, tp_thresh_cfg, period, 0, 0, 1),
	ROW_B(THRESH, tp_thresh_cfg, rate_limit, 0, 0, 1),
	ROW_B(THRESH, tp_thresh_cfg, rate_limit, TP_RATE_MAX, 0, 1),
	ROW_B(THRESH, tp_thresh_cfg, batch, 8, 0, 1),
	ROW_B(THRESH, tp_thresh_cfg, batch, TP_CAND_BATCH_MAX, 0, 1),
	ROW_B(THRESH, tp_thresh_cfg, batch, TP_CAND_BATCH_MAX + 1, -EINVAL, 1),
	/* base 2: also a reference above the range: -EINVAL is checked first */
	ROW_B(THRESH, tp_thresh_cfg, batch, TP_CAND_BATCH_MAX + 1, -EINVAL, 2),
	ROW_B(THRESH, tp_thresh_cfg, variant, 3, -EINVAL, 2),
};

/* Latencies a histogram records in the accepted rows: every bin, no UB. */
static const u64 thresh_lat[] = {
	0, 1, 999, 1000, 1ULL << 40, TP_TIME_MAX, U64_MAX_ - 1,
	TP_LATENCY_UNKNOWN,
};

static void row_thresh(const struct cfg_row *r)
{
	struct tp_thresh_cfg good = { .sz = sizeof(good), .tps = 1000,
				      .ref_th = 1000, .rate_limit = 100 };
	struct tp_thresh_cfg cfg;
	struct tp_thresh_cpu cpu;
	struct tp_thresh t, copy;
	u64 cand = 3, th, max;
	size_t i;
	int ret;

	/* base 1: the histogram; base 2: also a reference above the range */
	if (r->base == 1)
		good.variant = TP_THRESH_HISTOGRAM;
	cfg = good;
	if (r->base == 2)
		cfg.ref_th = TP_TIME_MAX + 1;
	set_field(&cfg, r);
	memset(&t, POISON, sizeof(t));
	copy = t;
	ret = tp_thresh_init(&t, &cfg, cand, 100);
	assert_int_equal(ret, r->want);
	if (ret) {
		assert_memory_equal(&t, &copy, sizeof(t));
	} else {
		/*
		 * Accepted: the threshold is positive and stays so, or 0 for
		 * a reference of 0 (the kernel's "nothing is hot").
		 */
		max = cfg.variant == TP_THRESH_RFC2020 ? cfg.ref_th :
		      2 * cfg.ref_th;
		th = tp_thresh_get(&t);
		assert_true(cfg.ref_th ? th > 0 : th == 0);
		assert_true(th <= max);
		/* Any latency and page count is recorded (or ignored). */
		memset(&cpu, 0, sizeof(cpu));
		for (i = 0; i < ARRAY_LEN(thresh_lat); i++)
			tp_thresh_record(&t, &cpu, thresh_lat[i], i + 1);
		tp_thresh_record(&t, &cpu, 5, TP_RATE_MAX);
		cand += 1000000;
		(void)tp_thresh_update(&t, cand, 100 + TP_TIME_MAX + 1);
		th = tp_thresh_get(&t);
		assert_true(cfg.ref_th ? th > 0 : th == 0);
		assert_true(th <= max);
	}

	assert_int_equal(tp_thresh_init(&t, &good, cand, 100), 0);
	copy = t;
	ret = tp_thresh_tune(&t, &cfg);
	assert_int_equal(ret, tune_want(r, offsetof(struct tp_thresh_cfg, tps),
					good.tps));
	if (ret)
		assert_memory_equal(&t, &copy, sizeof(t));
}

static void run_cfg_row(void **state)
{
	row_thresh(*state);
}

/* ---- call rows: bad per-call inputs and NULL arguments with an error ------- */

/*
 * tp_thresh_record(): the other variants ignore it and write nothing; the
 * histogram ignores an unknown latency and 0 pages; the largest folio
 * (2^32 pages) is one batch by itself and reaches the shared bins at once.
 */
static void call_thresh_record_inputs(void **state)
{
	struct tp_thresh_cfg cfg = { .sz = sizeof(cfg),
				     .variant = TP_THRESH_LINUX61, .tps = 1000,
				     .ref_th = 1000, .period = 1000,
				     .rate_limit = 100, .batch = 8 };
	struct tp_thresh_cpu cpu, cpu_copy;
	struct tp_thresh t, copy;

	(void)state;
	memset(&cpu, 0, sizeof(cpu));
	memset(&t, 0, sizeof(t));	/* defined padding for the compares */
	assert_int_equal(tp_thresh_init(&t, &cfg, 0, 0), 0);
	copy = t;
	cpu_copy = cpu;
	tp_thresh_record(&t, &cpu, 10, 5);
	assert_memory_equal(&t, &copy, sizeof(t));
	assert_memory_equal(&cpu, &cpu_copy, sizeof(cpu));

	cfg.variant = TP_THRESH_HISTOGRAM;
	assert_int_equal(tp_thresh_init(&t, &cfg, 0, 0), 0);
	copy = t;
	tp_thresh_record(&t, &cpu, TP_LATENCY_UNKNOWN, 5);
	tp_thresh_record(&t, &cpu, 10, 0);
	tp_thresh_record(&t, &cpu, 10, TP_RATE_MAX + 1);
	tp_thresh_record(&t, &cpu, 10, ~0ULL);
	assert_memory_equal(&t, &copy, sizeof(t));
	assert_memory_equal(&cpu, &cpu_copy, sizeof(cpu));

	/*
	 * 2^32 pages at 10 ms (bin [8, 16)) against a budget of 200: 8 +
	 * 8 x 200 / 2^32 = 8, raised to the step, 125.
	 */
	tp_thresh_record(&t, &cpu, 10, TP_RATE_MAX);
	assert_memory_equal(&cpu, &cpu_copy, sizeof(cpu));
	assert_int_equal(tp_thresh_update(&t, 0, 1001), TP_TH_LOWERED);
	assert_true(tp_thresh_get(&t) == 125);
}

/*
 * The largest documented mainline reference with one step: unit = max =
 * 2^63, where "th >= 2 * unit" overflowed and lowering stored th = 0 and
 * reported TP_TH_LOWERED for a threshold that did not move.
 */
static void call_thresh_unit_2p63(void **state)
{
	struct tp_thresh_cfg cfg = { .sz = sizeof(cfg),
				     .variant = TP_THRESH_LINUX61,
				     .steps = 1, .tps = 1,
				     .ref_th = TP_TIME_MAX, .period = 32 };
	struct tp_thresh t;
	u64 cand = 0;

	(void)state;
	assert_int_equal(tp_thresh_init(&t, &cfg, 0, 0), 0);
	assert_true(tp_thresh_get(&t) == 1ULL << 63);
	cand = 251;	/* above 110 % of a reference of 0 */
	assert_int_equal(tp_thresh_update(&t, cand, 33), TP_TH_KEPT);
	assert_true(tp_thresh_get(&t) == 1ULL << 63);
	cand += 1;
	assert_int_equal(tp_thresh_update(&t, cand, 66), TP_TH_KEPT);
	assert_true(tp_thresh_get(&t) == 1ULL << 63);
}

/* ---- contract rows: TP_ASSERT traps under -DTP_DEBUG ------------------------ */

static struct tp_thresh z_thr;
static u64 z_u64;

/*
 * The z_* objects are zero-filled (never initialised) and the calls pass
 * NULL or them; each call must trap before doing anything.
 */
static void c_thr_update_null(void)
{
	(void)tp_thresh_update(NULL, 0, 0);
}

static void c_thr_update_uninit(void)
{
	(void)tp_thresh_update(&z_thr, z_u64, 1);
}

static void c_thr_tune_uninit(void)
{
	struct tp_thresh_cfg cfg = { .sz = sizeof(cfg), .tps = 1000 };

	(void)tp_thresh_tune(&z_thr, &cfg);
}

static void c_thr_get_uninit(void)
{
	(void)tp_thresh_get(&z_thr);
}

static void c_thr_reset_null(void)
{
	tp_thresh_reset(NULL, true, 0, 0);
}

static struct tp_thresh_cpu z_thr_cpu;

static void c_thr_record_null(void)
{
	tp_thresh_record(NULL, &z_thr_cpu, 1, 1);
}

static void c_thr_record_uninit(void)
{
	tp_thresh_record(&z_thr, &z_thr_cpu, 1, 1);
}

/* The slot is checked whatever the variant (the RFC's ignores the call). */
static void c_thr_record_null_slot(void)
{
	struct tp_thresh_cfg cfg = { .sz = sizeof(cfg), .tps = 1000 };
	struct tp_thresh t;

	if (tp_thresh_init(&t, &cfg, 0, 0))
		_exit(3);
	tp_thresh_record(&t, NULL, 1, 1);
}

static const struct contract_row contract_rows[] = {
	CROW(c_thr_update_null, "tp_thresh_update(NULL)"),
	CROW(c_thr_update_uninit, "tp_thresh_update(zero-filled)"),
	CROW(c_thr_tune_uninit, "tp_thresh_tune(zero-filled)"),
	CROW(c_thr_get_uninit, "tp_thresh_get(zero-filled)"),
	CROW(c_thr_reset_null, "tp_thresh_reset(NULL)"),
	CROW(c_thr_record_null, "tp_thresh_record(NULL)"),
	CROW(c_thr_record_uninit, "tp_thresh_record(zero-filled)"),
	CROW(c_thr_record_null_slot, "tp_thresh_record(slot NULL)"),
};

/* ---- main: one named CMocka case per row ------------------------------------ */

static const struct CMUnitTest call_tests[] = {
	cmocka_unit_test(call_thresh_unit_2p63),
	cmocka_unit_test(call_thresh_record_inputs),
};

int main(void)
{
	return run_bad_input("bad_input_thresh", cfg_rows, ARRAY_LEN(cfg_rows),
			     run_cfg_row, call_tests, ARRAY_LEN(call_tests),
			     contract_rows, ARRAY_LEN(contract_rows));
}
