// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * CMocka tests: VMA scan rate limiter (the 2023 disjoint-VMA RFC's
 * countdown and Linux 6.7+ vma_is_accessed()). The vectors shared with the
 * kernel self-test are in selftest/vma_scan.h and selftest/vma_scenarios.h
 * (the scripted verdicts); this file adds per-rule tests with diagnostics
 * for the profile, the per-VMA rate limit and the RFC's countdown (its
 * truncation bug against its own formula); test_vma_scan_filters.c has the
 * filters and the disjoint-VMA scenario.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include <tierpol/vma_scan.h>
#define ST_VECTORS	"selftest/vma_{scan,scenarios}.h"
#include "st_cmocka.h"
#include "selftest/vma_scan.h"

#include "tp_test_vma.h"

/* ---- the shared self-test vectors -------------------------------------- */

static void test_selftest_vma_scan(void **state)
{
	(void)state;
	st_run(tp_st_vma_scan, "tp_st_vma_scan");
}

static void test_selftest_vma_scenarios(void **state)
{
	(void)state;
	st_run(tp_st_vma_scenarios, "vma scenarios");
}

static void test_selftest_vma_period_table(void **state)
{
	(void)state;
	st_run(tp_st_vma_period_table, "vma countdown periods");
}

/* ---- profile ------------------------------------------------------------- */

static void test_profile_rejects_untouched(void **state)
{
#define SZ	.sz = sizeof(struct tp_vma_profile_cfg)
	static const struct tp_vma_profile_cfg bad[] = {
		{ SZ, .filter = 4, .tps = 1000 },
		{ SZ, .filter = 0xffffffffU, .tps = 1000 },
		{ SZ, .filter = TP_VMA_FILTER_DISJOINT, .tps = 0 },
		{ SZ, .filter = TP_VMA_FILTER_DISJOINT, .tps = TP_TPS_MAX + 1 },
		{ SZ, .filter = TP_VMA_FILTER_DISJOINT, .tps = 0xffffffffU },
		{ SZ, .filter = TP_VMA_FILTER_LINUX67, .tps = 1000,
		  .scan_delay = TP_TIME_MAX / 4 + 1 },
		{ SZ, .filter = TP_VMA_FILTER_NONE, .tps = 1000,
		  .scan_delay = ~0ULL },
		/* good fields, bad sizes */
		{ .sz = 0, .filter = 1, .tps = 1000 },
		{ .sz = sizeof(struct tp_vma_profile_cfg) - 8, .filter = 1,
		  .tps = 1000 },
		{ .sz = 0xffffffffU, .filter = 1, .tps = 1000 },
	};
#undef SZ
	static const int want[] = { -EINVAL, -EINVAL, -EINVAL, -EINVAL,
				    -EINVAL, -ERANGE, -ERANGE, -EINVAL,
				    -EINVAL, -EINVAL };
	static const u8 pattern[] = { 0x00, 0x3c, 0xff };
	struct tp_vma_profile p, copy;
	struct tp_vma_profile_cfg ok = {
		.sz = sizeof(ok), .filter = 1, .tps = 1000,
	};
	size_t i, j;

	(void)state;
	for (j = 0; j < sizeof(pattern); j++) {
		memset(&p, pattern[j], sizeof(p));
		memcpy(&copy, &p, sizeof(p));
		assert_int_equal(tp_vma_profile_init(&p, NULL), -EINVAL);
		assert_memory_equal(&p, &copy, sizeof(p));
		assert_int_equal(tp_vma_profile_init(NULL, &ok), -EINVAL);
		for (i = 0; i < TP_ST_ARRAY_SIZE(bad); i++) {
			assert_int_equal(tp_vma_profile_init(&p, &bad[i]),
					 want[i]);
			assert_memory_equal(&p, &copy, sizeof(p));
		}
	}
}

static void test_profile_defaults(void **state)
{
	/* msecs_to_jiffies(1000) for each clock: exactly one second */
	static const u32 tps[] = { 1, 100, 250, 300, 1000, 1024, 1000000,
				   1000000000, TP_TPS_MAX };
	struct tp_vma_profile_cfg cfg = {
		.sz = sizeof(cfg), .filter = TP_VMA_FILTER_DISJOINT,
	};
	struct tp_vma_profile p;
	size_t i;

	(void)state;
	for (i = 0; i < TP_ST_ARRAY_SIZE(tps); i++) {
		cfg.tps = tps[i];
		assert_int_equal(tp_vma_profile_init(&p, &cfg), 0);
		assert_true(p.scan_delay == tps[i]);
		assert_true(p.reset_period == 4ULL * tps[i]);
		assert_int_equal(p.filter, TP_VMA_FILTER_DISJOINT);
	}
	cfg = (struct tp_vma_profile_cfg){ .sz = sizeof(cfg),
					   .filter = TP_VMA_FILTER_LINUX67,
					   .tps = 1000, .scan_delay = 333 };
	assert_int_equal(tp_vma_profile_init(&p, &cfg), 0);
	assert_true(p.scan_delay == 333 && p.reset_period == 1332);
	cfg.scan_delay = TP_TIME_MAX / 4;
	assert_int_equal(tp_vma_profile_init(&p, &cfg), 0);
	assert_true(p.reset_period == TP_TIME_MAX);
}

/* ---- ratelimit ----------------------------------------------------------- */

static void test_ratelimit_sizes(void **state)
{
	static const struct { u64 size; u32 rl; } rows[] = {
		{ 0, 1 },		{ 1, 32769 },
		{ 4 * KiB, 9 },		{ 16 * KiB, 3 },
		{ 32 * KiB, 2 },	{ 32 * KiB + 1, 1 },
		{ 4 * MiB, 1 },		{ 4 * GiB, 1 },
		{ 4 * GiB + 4 * KiB, 1 }, { ~0ULL, 1 },
		{ 8 * KiB, 5 },		{ 12 * KiB, 3 },
		{ 4 * KiB - 1, 9 },	{ 4 * KiB + 1, 8 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < TP_ST_ARRAY_SIZE(rows); i++) {
		if (tp_vma_scan_ratelimit(rows[i].size) != rows[i].rl)
			print_error("size %#llx: %u, want %u\n",
				    (unsigned long long)rows[i].size,
				    tp_vma_scan_ratelimit(rows[i].size),
				    rows[i].rl);
		assert_int_equal(tp_vma_scan_ratelimit(rows[i].size),
				 rows[i].rl);
	}
}

/* The RFC's vma_scan_ratelimit() formula, with its 32-bit VMA size. */
static unsigned int rfc_ratelimit(unsigned long long vm_size)
{
	unsigned int vma_size, ratelimit = 0;

	vma_size = vm_size;	/* the truncation */
	if (vma_size)
		ratelimit = ((1U << 22) / vma_size) >> 7;
	return 1 + ratelimit;
}

static void test_ratelimit_no_u32_truncation(void **state)
{
	u64 size, hi;
	unsigned int differ = 0;

	(void)state;
	/* below 4 GiB the RFC's formula is right and must be matched */
	for (size = 1; size < 64 * MiB; size += 511)
		assert_int_equal(tp_vma_scan_ratelimit(size),
				 rfc_ratelimit(size));
	for (size = 1; size; size <<= 1)
		if (size < 4 * GiB)
			assert_int_equal(tp_vma_scan_ratelimit(size),
					 rfc_ratelimit(size));
	/* at and above 4 GiB every VMA is large: ratelimit 1 */
	for (hi = 4 * GiB; hi && hi < (1ULL << 62); hi <<= 1) {
		for (size = 0; size <= 64 * KiB; size += 4 * KiB) {
			assert_int_equal(tp_vma_scan_ratelimit(hi + size), 1);
			if (rfc_ratelimit(hi + size) != 1)
				differ++;
		}
	}
	/* 4 GiB + 4 KiB: the RFC treats it as a 4 KiB VMA */
	assert_int_equal(rfc_ratelimit(4 * GiB + 4 * KiB), 9);
	assert_int_equal(tp_vma_scan_ratelimit(4 * GiB + 4 * KiB), 1);
	assert_true(differ > 0);
}

static void test_ratelimit_monotonic(void **state)
{
	u64 size;
	u32 prev = ~0U, rl;

	(void)state;
	for (size = 1; size <= 64 * KiB; size++) {
		rl = tp_vma_scan_ratelimit(size);
		assert_true(rl <= prev && rl >= 1);
		assert_int_equal(rl, 1 + (((4 * MiB) / size) >> 7));
		prev = rl;
	}
}

/* ---- the disjoint-VMA RFC's countdown ------------------------------------ */

/* Unaccessed checks of a VMA, one per sequence from seq 2. */
static void run_countdown(u64 size, const int *want_scan_at, size_t nwant,
			  u32 checks)
{
	struct tp_vma_profile p = profile(TP_VMA_FILTER_DISJOINT);
	struct tp_vma_scan v;
	size_t w = 0;
	u32 i;
	int r;

	tp_vma_scan_init(&v, &p, 2, 0);
	for (i = 1; i <= checks; i++) {
		r = check(&v, &p, 1 + i, 1000 + i, CHK(.size = size));
		if (w < nwant && (u32)want_scan_at[w] == i) {
			if (r != TP_VMA_SCAN_DISJOINT)
				fail_msg("size %llu: check %u gave %d, want DISJOINT",
					 (unsigned long long)size, i, r);
			w++;
		} else if (r != TP_VMA_SKIP_INACTIVE) {
			fail_msg("size %llu: check %u gave %d, want SKIP_INACTIVE",
				 (unsigned long long)size, i, r);
		}
	}
	assert_int_equal(w, nwant);
}

/* The RFC's comment says "1 in 9"; its code (and tierpol) do 1 in 10. */
static void test_countdown_4k_1_in_10(void **state)
{
	static const int at[] = { 1, 11, 21, 31 };

	(void)state;
	run_countdown(4 * KiB, at, 4, 39);
}

static void test_countdown_large_1_in_2(void **state)
{
	static const int at[] = { 1, 3, 5, 7, 9, 11 };

	(void)state;
	run_countdown(4 * MiB, at, 6, 12);
	run_countdown(64 * MiB, at, 6, 12);
	run_countdown(4 * GiB + 4 * KiB, at, 6, 12);
	run_countdown(~0ULL - BASE, at, 6, 12);
}

static void test_countdown_16k_1_in_4(void **state)
{
	static const int at[] = { 1, 5, 9, 13 };

	(void)state;
	run_countdown(16 * KiB, at, 4, 16);
}

static void test_countdown_reset_by_init(void **state)
{
	struct tp_vma_profile p = profile(TP_VMA_FILTER_DISJOINT);
	struct tp_vma_scan v;

	(void)state;
	tp_vma_scan_init(&v, &p, 2, 0);
	assert_int_equal(check(&v, &p, 2, 1000, CHK(.size = 4 * KiB)),
			 TP_VMA_SCAN_DISJOINT);
	assert_int_equal(check(&v, &p, 3, 1001, CHK(.size = 4 * KiB)),
			 TP_VMA_SKIP_INACTIVE);
	assert_int_equal(check(&v, &p, 4, 1002, CHK(.size = 4 * KiB)),
			 TP_VMA_SKIP_INACTIVE);
	/* the kernel re-initialises numab_state: vma_scan_select = 0 */
	tp_vma_scan_init(&v, &p, 4, 1002);
	assert_int_equal(check(&v, &p, 5, 2001, CHK(.size = 4 * KiB)),
			 TP_VMA_SKIP_DELAY);
	assert_int_equal(check(&v, &p, 5, 2002, CHK(.size = 4 * KiB)),
			 TP_VMA_SCAN_DISJOINT);
}

/* The countdown moves only on checks that reach it. */
static void test_countdown_only_unaccessed(void **state)
{
	struct tp_vma_profile p = profile(TP_VMA_FILTER_DISJOINT);
	struct tp_vma_scan v;
	int i;

	(void)state;
	tp_vma_scan_init(&v, &p, 0, 0);
	tp_vma_scan_note(&v, PID_A);
	for (i = 0; i < 2; i++)		/* EARLY does not count */
		assert_int_equal(check(&v, &p, i, 1000,
				       CHK(.size = 4 * KiB, .pid = PID_B)),
				 TP_VMA_SCAN_EARLY);
	assert_int_equal(check(&v, &p, 2, 1000,
			       CHK(.size = 4 * KiB,       .pid = PID_B)),
			 TP_VMA_SCAN_DISJOINT);
	for (i = 0; i < 50; i++)	/* ACCESSED does not count */
		assert_int_equal(check(&v, &p, 3 + i, 1001,
				       CHK(.size = 4 * KiB)),
				 TP_VMA_SCAN_ACCESSED);
	for (i = 0; i < 9; i++)
		assert_int_equal(check(&v, &p, 60 + i, 1002,
				       CHK(.size = 4 * KiB, .pid = PID_B)),
				 TP_VMA_SKIP_INACTIVE);
	assert_int_equal(check(&v, &p, 70, 1003,
			       CHK(.size = 4 * KiB, .pid = PID_B)),
			 TP_VMA_SCAN_DISJOINT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_selftest_vma_scan),
		cmocka_unit_test(test_selftest_vma_scenarios),
		cmocka_unit_test(test_selftest_vma_period_table),
		cmocka_unit_test(test_profile_rejects_untouched),
		cmocka_unit_test(test_profile_defaults),
		cmocka_unit_test(test_ratelimit_sizes),
		cmocka_unit_test(test_ratelimit_no_u32_truncation),
		cmocka_unit_test(test_ratelimit_monotonic),
		cmocka_unit_test(test_countdown_4k_1_in_10),
		cmocka_unit_test(test_countdown_large_1_in_2),
		cmocka_unit_test(test_countdown_16k_1_in_4),
		cmocka_unit_test(test_countdown_reset_by_init),
		cmocka_unit_test(test_countdown_only_unaccessed),
	};

	return cmocka_run_group_tests_name("vma_scan", tests, NULL, NULL);
}
