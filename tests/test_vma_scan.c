// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * CMocka tests: VMA scan rate limiter (the 2023 disjoint-VMA RFC's
 * countdown and Linux 6.7+ vma_is_accessed()). The vectors shared with the
 * kernel self-test are in selftest/vma_scan.h; this file adds per-rule tests
 * with diagnostics, the RFC's truncation bug against its own formula, and
 * the disjoint-VMA scenario with counts.
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
#define ST_VECTORS	"selftest/vma_scan.h"
#include "st_cmocka.h"
#include "selftest/vma_scan.h"

#define KiB		1024ULL
#define MiB		(1024 * KiB)
#define GiB		(1024 * MiB)
#define BASE		0x7f0000000000ULL
#define PID_A		2001U	/* the scanning task, hash bit 20 */
#define PID_B		1001U	/* another task, hash bit 22 */

/* ---- helpers ------------------------------------------------------------ */

static struct tp_vma_profile profile(u32 filter)
{
	struct tp_vma_profile_cfg cfg = {
		.sz = sizeof(cfg), .filter = filter, .tps = 1000,
	};
	struct tp_vma_profile p;

	assert_int_equal(tp_vma_profile_init(&p, &cfg), 0);
	assert_true(p.scan_delay == 1000);
	return p;
}

/* Zero fields select: a 4 MiB VMA, the scanning task, 16 threads. */
struct chk {
	u64 size;
	u32 pid;
	u32 nr_threads;
	u64 offset;
	bool forced;
};

#define CHK(...) (&(struct chk){ __VA_ARGS__ })

static int check(struct tp_vma_scan *v, const struct tp_vma_profile *p,
		 u32 seq, u64 now, const struct chk *c)
{
	struct tp_vma_facts f = {
		.vma_start = BASE,
		.vma_end = BASE + (c->size ? c->size : 4 * MiB),
		.scan_offset = c->offset,
		.scan_seq = seq,
		.nr_threads = c->nr_threads ? c->nr_threads : 16,
		.pid = c->pid ? c->pid : PID_A,
		.forced = c->forced,
	};

	return tp_vma_scan_check(v, p, &f, now);
}

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
			       CHK(.size = 4 * KiB,        .pid = PID_B)),
			 TP_VMA_SCAN_DISJOINT);
}

/* ---- filters ------------------------------------------------------------- */

static void test_filter_none_always_scans(void **state)
{
	struct tp_vma_profile p = profile(TP_VMA_FILTER_NONE);
	struct tp_vma_scan v;
	u32 seq;

	(void)state;
	tp_vma_scan_init(&v, &p, 100, 5000);
	for (seq = 0; seq < 300; seq++) {
		assert_int_equal(check(&v, &p, seq, 5000 + seq * 7,
				       CHK(.size = 4 * KiB, .pid = PID_B,
					   .nr_threads = 1000)),
				 TP_VMA_SCAN_ALL);
		tp_vma_scan_done(&v, seq);
		assert_int_equal(check(&v, &p, seq, 5000 + seq * 7,
				       CHK(.nr_threads = 1000)),
				 TP_VMA_SCAN_ALL);
	}
	assert_true(tp_vma_verdict_scans(TP_VMA_SCAN_ALL));
}

static void test_disjoint_early_sequences(void **state)
{
	struct tp_vma_profile p = profile(TP_VMA_FILTER_DISJOINT);
	struct tp_vma_scan v;

	(void)state;
	tp_vma_scan_init(&v, &p, 0, 0);
	assert_int_equal(check(&v, &p, 0, 5000, CHK(.pid = PID_B)),
			 TP_VMA_SCAN_EARLY);
	assert_int_equal(check(&v, &p, 1, 5000, CHK(.pid = PID_B)),
			 TP_VMA_SCAN_EARLY);
	assert_int_equal(check(&v, &p, 2, 5000, CHK(.pid = PID_B)),
			 TP_VMA_SCAN_DISJOINT);
	/* the mm's sequence, not the VMA's: a VMA born at seq 9 has none */
	tp_vma_scan_init(&v, &p, 9, 0);
	assert_int_equal(check(&v, &p, 9, 5000, CHK(.pid = PID_B)),
			 TP_VMA_SCAN_DISJOINT);
	assert_int_equal(check(&v, &p, 10, 5000, CHK(.pid = PID_B)),
			 TP_VMA_SKIP_INACTIVE);
}

static void test_disjoint_pid_accessed(void **state)
{
	struct tp_vma_profile p = profile(TP_VMA_FILTER_DISJOINT);
	struct tp_vma_scan v;
	int i;

	(void)state;
	tp_vma_scan_init(&v, &p, 5, 0);
	tp_vma_scan_note(&v, PID_A);
	for (i = 0; i < 20; i++)
		assert_int_equal(check(&v, &p, 5 + i, 1000 + i, CHK()),
				 TP_VMA_SCAN_ACCESSED);
	assert_int_equal(check(&v, &p, 30, 1100, CHK(.pid = PID_B)),
			 TP_VMA_SCAN_DISJOINT);
	tp_vma_scan_note(&v, PID_B);
	assert_int_equal(check(&v, &p, 31, 1101, CHK(.pid = PID_B)),
			 TP_VMA_SCAN_ACCESSED);
}

/*
 * Linux 6.4 to 6.6 (the disjoint-VMA RFC's base): the PID filter alone.
 * The first two mm sequences and accessing PIDs scan; an unaccessed VMA is
 * never scanned, however small or often checked (no countdown).
 */
static void test_pid_filter_no_countdown(void **state)
{
	struct tp_vma_profile p = profile(TP_VMA_FILTER_PID);
	struct tp_vma_scan v;
	int i;

	(void)state;
	tp_vma_scan_init(&v, &p, 0, 0);
	assert_int_equal(check(&v, &p, 0, 0, CHK(.pid = PID_B)),
			 TP_VMA_SCAN_EARLY);
	assert_int_equal(check(&v, &p, 1, 1000, CHK(.pid = PID_B)),
			 TP_VMA_SCAN_EARLY);
	for (i = 0; i < 40; i++)
		assert_int_equal(check(&v, &p, 2 + i, 1001 + i,
				       CHK(.pid = PID_B, .size = 4 * KiB)),
				 TP_VMA_SKIP_INACTIVE);
	tp_vma_scan_note(&v, PID_B);
	assert_int_equal(check(&v, &p, 50, 1100, CHK(.pid = PID_B)),
			 TP_VMA_SCAN_ACCESSED);
	/* The same history under the disjoint filter scans by countdown. */
	p = profile(TP_VMA_FILTER_DISJOINT);
	tp_vma_scan_init(&v, &p, 0, 0);
	assert_int_equal(check(&v, &p, 2, 1001, CHK(.pid = PID_B)),
			 TP_VMA_SCAN_DISJOINT);
}

/*
 * A PID sharing the hash bit of a noted PID counts as having accessed the
 * VMA: 64 bits for all PIDs, as in the kernel.
 */
static void test_pid_hash_collision(void **state)
{
	struct tp_vma_profile p = profile(TP_VMA_FILTER_LINUX67);
	struct tp_vma_scan v;
	u32 other;

	(void)state;
	for (other = PID_A + 1; tp_vma_pid_bit(other) !=
	     tp_vma_pid_bit(PID_A); other++)
		;
	tp_vma_scan_init(&v, &p, 0, 0);
	tp_vma_scan_note(&v, PID_A);
	assert_int_equal(check(&v, &p, 5, 1000, CHK(.pid = other)),
			 TP_VMA_SCAN_ACCESSED);
	assert_int_equal(check(&v, &p, 5, 1000, CHK(.pid = PID_B)),
			 TP_VMA_SKIP_INACTIVE);
}

static void test_new_vma_delay(void **state)
{
	static const u32 filters[] = { TP_VMA_FILTER_DISJOINT,
				       TP_VMA_FILTER_LINUX67 };
	struct tp_vma_profile p;
	struct tp_vma_scan v;
	size_t i;

	(void)state;
	for (i = 0; i < 2; i++) {
		p = profile(filters[i]);
		tp_vma_scan_init(&v, &p, 3, 10000);
		tp_vma_scan_note(&v, PID_A);
		/* seq != 0 and now before next_scan: skipped */
		assert_int_equal(check(&v, &p, 3, 10000, CHK()),
				 TP_VMA_SKIP_DELAY);
		assert_int_equal(check(&v, &p, 3, 10999, CHK()),
				 TP_VMA_SKIP_DELAY);
		assert_int_equal(check(&v, &p, 3, 11000, CHK()),
				 filters[i] == TP_VMA_FILTER_DISJOINT ?
				 TP_VMA_SCAN_ACCESSED : TP_VMA_SCAN_EARLY);
		/* seq == 0: no delay */
		tp_vma_scan_init(&v, &p, 0, 10000);
		assert_int_equal(check(&v, &p, 0, 10000, CHK()),
				 TP_VMA_SCAN_EARLY);
		/* time wraps: next_scan just past 2^64 */
		tp_vma_scan_init(&v, &p, 3, ~0ULL - 500);
		assert_int_equal(check(&v, &p, 3, ~0ULL, CHK()),
				 TP_VMA_SKIP_DELAY);
		assert_int_equal(check(&v, &p, 3, 498, CHK()),
				 TP_VMA_SKIP_DELAY);
		assert_int_equal(check(&v, &p, 3, 499, CHK(.pid = PID_B)),
				 filters[i] == TP_VMA_FILTER_DISJOINT ?
				 TP_VMA_SCAN_DISJOINT : TP_VMA_SCAN_EARLY);
	}
}

/* Windows rotate every 4 x scan delay: a PID is gone after two rotations. */
static void test_window_rotation(void **state)
{
	static const u32 filters[] = { TP_VMA_FILTER_DISJOINT,
				       TP_VMA_FILTER_LINUX67 };
	struct tp_vma_profile p;
	struct tp_vma_scan v;
	size_t i;

	(void)state;
	for (i = 0; i < 2; i++) {
		p = profile(filters[i]);
		assert_true(p.reset_period == 4000);
		tp_vma_scan_init(&v, &p, 10, 0);	/* rotations: 5000, */
		tp_vma_scan_note(&v, PID_A);		/* 9000, 13000 */
		assert_int_equal(check(&v, &p, 10, 1000, CHK()),
				 filters[i] == TP_VMA_FILTER_DISJOINT ?
				 TP_VMA_SCAN_ACCESSED : TP_VMA_SCAN_EARLY);
		assert_int_equal(check(&v, &p, 12, 5000, CHK()),
				 TP_VMA_SCAN_ACCESSED);
		assert_int_equal(check(&v, &p, 13, 5001, CHK()),
				 TP_VMA_SCAN_ACCESSED);	/* 1st rotation */
		assert_int_equal(check(&v, &p, 14, 9000, CHK()),
				 TP_VMA_SCAN_ACCESSED);
		assert_int_equal(check(&v, &p, 15, 9001, CHK()),
				 filters[i] == TP_VMA_FILTER_DISJOINT ?
				 TP_VMA_SCAN_DISJOINT :
				 TP_VMA_SKIP_INACTIVE);	/* 2nd: gone */
		/* a PID noted between the rotations survives the next one */
		tp_vma_scan_note(&v, PID_B);
		assert_int_equal(check(&v, &p, 16, 13001, CHK(.pid = PID_B)),
				 TP_VMA_SCAN_ACCESSED);
		assert_int_equal(check(&v, &p, 17, 17001, CHK(.pid = PID_B)),
				 TP_VMA_SKIP_INACTIVE);	/* 4th: gone */

		/* none at mm seq 0; one per check however late */
		tp_vma_scan_init(&v, &p, 0, 0);
		tp_vma_scan_note(&v, PID_A);
		assert_int_equal(check(&v, &p, 0, 100000, CHK()),
				 TP_VMA_SCAN_EARLY);
		assert_int_equal(check(&v, &p, 2, 100001, CHK()),
				 TP_VMA_SCAN_ACCESSED);
		assert_int_equal(check(&v, &p, 2, 100002, CHK()),
				 filters[i] == TP_VMA_FILTER_DISJOINT ?
				 TP_VMA_SCAN_DISJOINT :
				 TP_VMA_SKIP_INACTIVE);
	}
}

static void test_linux67_early_own_start_seq(void **state)
{
	struct tp_vma_profile p = profile(TP_VMA_FILTER_LINUX67);
	struct tp_vma_scan v;

	(void)state;
	tp_vma_scan_init(&v, &p, 40, 0);
	assert_int_equal(check(&v, &p, 40, 1000, CHK(.pid = PID_B)),
			 TP_VMA_SCAN_EARLY);
	assert_int_equal(check(&v, &p, 41, 1000, CHK(.pid = PID_B)),
			 TP_VMA_SCAN_EARLY);
	assert_int_equal(check(&v, &p, 42, 1000, CHK(.pid = PID_B)),
			 TP_VMA_SKIP_INACTIVE);
	/* the disjoint filter would not scan this late VMA early */
	p = profile(TP_VMA_FILTER_DISJOINT);
	tp_vma_scan_init(&v, &p, 40, 0);
	assert_int_equal(check(&v, &p, 40, 1000, CHK(.pid = PID_B)),
			 TP_VMA_SCAN_DISJOINT);
	assert_int_equal(check(&v, &p, 41, 1000, CHK(.pid = PID_B)),
			 TP_VMA_SKIP_INACTIVE);
}

static void test_linux67_pid_and_partial(void **state)
{
	struct tp_vma_profile p = profile(TP_VMA_FILTER_LINUX67);
	struct tp_vma_scan v;

	(void)state;
	tp_vma_scan_init(&v, &p, 0, 0);
	tp_vma_scan_note(&v, PID_A);
	assert_int_equal(check(&v, &p, 5, 1000, CHK()), TP_VMA_SCAN_ACCESSED);
	assert_int_equal(check(&v, &p, 5, 1000, CHK(.pid = PID_B)),
			 TP_VMA_SKIP_INACTIVE);
	/* completing a VMA whose scan already started */
	assert_int_equal(check(&v, &p, 5, 1000,
			       CHK(.pid = PID_B,       .offset = BASE + 1)),
			 TP_VMA_SCAN_PARTIAL);
	assert_int_equal(check(&v, &p, 5, 1000,
			       CHK(.pid = PID_B, .offset = BASE + 4 * MiB)),
			 TP_VMA_SCAN_PARTIAL);
	assert_int_equal(check(&v, &p, 5, 1000,
			       CHK(.pid = PID_B,       .offset = BASE)),
			 TP_VMA_SKIP_INACTIVE);
	assert_int_equal(check(&v, &p, 5, 1000,
			       CHK(.pid = PID_B,       .offset = BASE - 1)),
			 TP_VMA_SKIP_INACTIVE);
	/* PID wins over PARTIAL */
	assert_int_equal(check(&v, &p, 5, 1000, CHK(.offset = BASE + 1)),
			 TP_VMA_SCAN_ACCESSED);
}

static void test_linux67_starved(void **state)
{
	struct tp_vma_profile p = profile(TP_VMA_FILTER_LINUX67);
	struct tp_vma_scan v;
	u32 thr, seq;

	(void)state;
	for (thr = 1; thr <= 10; thr++) {
		tp_vma_scan_init(&v, &p, 0, 0);
		tp_vma_scan_done(&v, 20);
		for (seq = 21; seq < 40; seq++)
			assert_int_equal(check(&v, &p, seq, 1000,
					       CHK(.pid = PID_B,
						   .nr_threads = thr)),
					 seq > 20 + thr ? TP_VMA_SCAN_STARVED :
					 TP_VMA_SKIP_INACTIVE);
	}
	/* wraparound: prev 2^32 - 2, 4 threads */
	tp_vma_scan_init(&v, &p, 0xfffffff0U, 0);
	tp_vma_scan_done(&v, 0xfffffffeU);
	assert_int_equal(check(&v, &p, 0xffffffffU, 1000,
			       CHK(.pid = PID_B, .nr_threads = 4)),
			 TP_VMA_SKIP_INACTIVE);
	assert_int_equal(check(&v, &p, 2, 1000,
			       CHK(.pid = PID_B, .nr_threads = 4)),
			 TP_VMA_SKIP_INACTIVE);
	assert_int_equal(check(&v, &p, 3, 1000,
			       CHK(.pid = PID_B, .nr_threads = 4)),
			 TP_VMA_SCAN_STARVED);
	/* a new VMA counts from the sequence before its first (99) */
	tp_vma_scan_init(&v, &p, 100, 0);
	assert_int_equal(check(&v, &p, 102, 1000,
			       CHK(.pid = PID_B, .nr_threads = 3)),
			 TP_VMA_SKIP_INACTIVE);
	assert_int_equal(check(&v, &p, 102, 1000,
			       CHK(.pid = PID_B, .nr_threads = 2)),
			 TP_VMA_SCAN_STARVED);
}

static void test_linux67_forced(void **state)
{
	struct tp_vma_profile p = profile(TP_VMA_FILTER_LINUX67);
	struct tp_vma_scan v;

	(void)state;
	tp_vma_scan_init(&v, &p, 0, 0);
	assert_int_equal(check(&v, &p, 5, 1000, CHK(.pid = PID_B)),
			 TP_VMA_SKIP_INACTIVE);
	assert_int_equal(check(&v, &p, 5, 1000,
			       CHK(.pid = PID_B,       .forced = true)),
			 TP_VMA_SCAN_FORCED);
	tp_vma_scan_done(&v, 5);
	assert_int_equal(check(&v, &p, 5, 1000,
			       CHK(.pid = PID_B,       .forced = true)),
			 TP_VMA_SKIP_DONE);
	/* the disjoint filter ignores the forced flag */
	p = profile(TP_VMA_FILTER_DISJOINT);
	tp_vma_scan_init(&v, &p, 0, 0);
	assert_int_equal(check(&v, &p, 5, 1000,
			       CHK(.pid = PID_B,       .forced = true)),
			 TP_VMA_SCAN_DISJOINT);
	assert_int_equal(check(&v, &p, 6, 1000,
			       CHK(.pid = PID_B,       .forced = true)),
			 TP_VMA_SKIP_INACTIVE);
}

static void test_linux67_skip_done(void **state)
{
	struct tp_vma_profile p = profile(TP_VMA_FILTER_LINUX67);
	struct tp_vma_scan v;
	u32 seq;

	(void)state;
	tp_vma_scan_init(&v, &p, 0, 0);
	tp_vma_scan_note(&v, PID_A);
	for (seq = 0; seq < 20; seq++) {
		assert_true(tp_vma_verdict_scans(check(&v, &p, seq, 1000,
						       CHK())));
		tp_vma_scan_done(&v, seq);
		/* nothing makes it scan twice in one sequence */
		assert_int_equal(check(&v, &p, seq, 1000,
				       CHK(.offset = BASE + 1, .forced = true,
					   .nr_threads = 1)),
				 TP_VMA_SKIP_DONE);
	}
	/* the disjoint filter has no such rule */
	p = profile(TP_VMA_FILTER_DISJOINT);
	tp_vma_scan_init(&v, &p, 0, 0);
	tp_vma_scan_note(&v, PID_A);
	tp_vma_scan_done(&v, 5);
	assert_int_equal(check(&v, &p, 5, 1000, CHK()), TP_VMA_SCAN_ACCESSED);
}

static void test_invalid_vma_facts(void **state)
{
	static const u32 filters[] = { TP_VMA_FILTER_NONE,
				       TP_VMA_FILTER_DISJOINT,
				       TP_VMA_FILTER_LINUX67 };
	struct tp_vma_profile p;
	struct tp_vma_scan v, copy;
	struct tp_vma_facts f = { .scan_seq = 5, .nr_threads = 1,
				  .pid = PID_B };
	size_t i;

	(void)state;
	for (i = 0; i < 3; i++) {
		p = profile(filters[i]);
		memset(&v, 0, sizeof(v));
		tp_vma_scan_init(&v, &p, 0, 0);
		tp_vma_scan_note(&v, PID_A);
		memcpy(&copy, &v, sizeof(v));
		f.vma_start = BASE;
		f.vma_end = BASE;
		assert_int_equal(tp_vma_scan_check(&v, &p, &f, 99999),
				 -EINVAL);
		f.vma_end = BASE - 4096;
		assert_int_equal(tp_vma_scan_check(&v, &p, &f, 99999),
				 -EINVAL);
		f.vma_start = ~0ULL;
		f.vma_end = 0;
		assert_int_equal(tp_vma_scan_check(&v, &p, &f, 99999),
				 -EINVAL);
		/* no rotation, no countdown step */
		assert_memory_equal(&v, &copy, sizeof(v));
		assert_false(tp_vma_verdict_scans(-EINVAL));
		/* the smallest valid VMA: one byte */
		f.vma_start = BASE;
		f.vma_end = BASE + 1;
		assert_true(tp_vma_scan_check(&v, &p, &f, 99999) >= 0);
	}
}

static void test_verdict_scans(void **state)
{
	(void)state;
	assert_true(tp_vma_verdict_scans(TP_VMA_SCAN_ALL));
	assert_true(tp_vma_verdict_scans(TP_VMA_SCAN_EARLY));
	assert_true(tp_vma_verdict_scans(TP_VMA_SCAN_ACCESSED));
	assert_true(tp_vma_verdict_scans(TP_VMA_SCAN_PARTIAL));
	assert_true(tp_vma_verdict_scans(TP_VMA_SCAN_STARVED));
	assert_true(tp_vma_verdict_scans(TP_VMA_SCAN_FORCED));
	assert_true(tp_vma_verdict_scans(TP_VMA_SCAN_DISJOINT));
	assert_false(tp_vma_verdict_scans(TP_VMA_SKIP_DELAY));
	assert_false(tp_vma_verdict_scans(TP_VMA_SKIP_DONE));
	assert_false(tp_vma_verdict_scans(TP_VMA_SKIP_INACTIVE));
	assert_false(tp_vma_verdict_scans(-EINVAL));
	assert_false(tp_vma_verdict_scans(-1));
}

static void test_pid_bit_hash(void **state)
{
	static const struct { u32 pid, bit; } known[] = {
		{ 0, 0 }, { 1, 24 }, { 2, 48 }, { 42, 2 }, { 1000, 61 },
		{ 1001, 22 }, { 2001, 20 }, { 4096, 34 }, { 12345, 23 },
		{ 32768, 16 }, { 65535, 9 }, { 4194304, 36 },
		{ 0xffffffffU, 39 },
	};
	u64 pid, hits = 0;
	size_t i;

	(void)state;
	for (i = 0; i < TP_ST_ARRAY_SIZE(known); i++)
		assert_int_equal(tp_vma_pid_bit(known[i].pid), known[i].bit);
	/* hash_32(pid, 6) = (pid * GOLDEN_RATIO_32) >> (32 - 6), in u64 */
	for (pid = 0; pid < (1ULL << 32); pid += 65521) {
		u32 want = (u32)((pid * 0x61C88647ULL) & 0xffffffffULL) >> 26;

		assert_int_equal(tp_vma_pid_bit((u32)pid), want);
		assert_true(tp_vma_pid_bit((u32)pid) < 64);
		hits |= 1ULL << want;
	}
	assert_true(hits == ~0ULL);	/* every bit is reachable */
}

/* ---- the disjoint-VMA RFC's disjoint VMA sets ---------------------------- */

/*
 * Group 1 (PIDs 1001, 1002) touches VMA x only, group 2 (2001, 2002) VMA y
 * only; four threads, and only group 2 gets to scan. Returns the sequences
 * in which x was scanned after the first two, as a bitmap.
 */
static u64 disjoint_run(u32 filter, u32 *nscan, int *reason)
{
	static const u32 g1[] = { 1001, 1002 }, g2[] = { 2001, 2002 };
	struct tp_vma_profile p = profile(filter);
	struct tp_vma_scan x, y;
	struct tp_vma_facts fx = { .vma_start = BASE,
				   .vma_end = BASE + 64 * MiB,
				   .nr_threads = 4 };
	struct tp_vma_facts fy = { .vma_start = BASE + 128 * MiB,
				   .vma_end = BASE + 192 * MiB,
				   .nr_threads = 4 };
	u64 scanned = 0;
	u32 s;
	int vx, vy;

	*nscan = 0;
	*reason = -1;
	tp_vma_scan_init(&x, &p, 0, 0);
	tp_vma_scan_init(&y, &p, 0, 0);
	for (s = 0; s < 64; s++) {
		u64 now = 1000 + 600ULL * s;

		tp_vma_scan_note(&x, g1[s & 1]);
		tp_vma_scan_note(&y, g2[s & 1]);
		fx.scan_seq = s;
		fy.scan_seq = s;
		fx.pid = g2[(s / 3) & 1];
		fy.pid = fx.pid;
		vy = tp_vma_scan_check(&y, &p, &fy, now);
		assert_true(tp_vma_verdict_scans(vy));
		tp_vma_scan_done(&y, s);
		vx = tp_vma_scan_check(&x, &p, &fx, now);
		assert_true(vx >= 0);
		if (!tp_vma_verdict_scans(vx))
			continue;
		tp_vma_scan_done(&x, s);
		if (s < 2) {
			assert_int_equal(vx, TP_VMA_SCAN_EARLY);
			continue;
		}
		/* never because group 2 accessed it */
		assert_int_not_equal(vx, TP_VMA_SCAN_ACCESSED);
		scanned |= 1ULL << s;
		(*nscan)++;
		if (*reason < 0)
			*reason = vx;
		assert_int_equal(vx, *reason);
	}
	return scanned;
}

static void test_disjoint_rfc(void **state)
{
	u32 n, s;
	int reason;
	u64 map = disjoint_run(TP_VMA_FILTER_DISJOINT, &n, &reason);

	(void)state;
	print_message("DISJOINT: x scanned in %u of 62 sequences (every 2nd)\n",
		      n);
	assert_int_equal(reason, TP_VMA_SCAN_DISJOINT);
	assert_int_equal(n, 31);
	for (s = 2; s < 64; s++)
		assert_int_equal(!!(map & (1ULL << s)), !(s & 1));
}

static void test_disjoint_linux67(void **state)
{
	u32 n, s;
	int reason;
	u64 map = disjoint_run(TP_VMA_FILTER_LINUX67, &n, &reason);

	(void)state;
	print_message("LINUX67: x scanned in %u of 62 sequences (starved, every 5th)\n",
		      n);
	assert_int_equal(reason, TP_VMA_SCAN_STARVED);
	/* done in seq 1, 4 threads: 6, 11, 16, ..., 61 */
	assert_int_equal(n, 12);
	for (s = 2; s < 64; s++)
		assert_int_equal(!!(map & (1ULL << s)),
				 s >= 6 && (s - 1) % 5 == 0);
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
		cmocka_unit_test(test_filter_none_always_scans),
		cmocka_unit_test(test_disjoint_early_sequences),
		cmocka_unit_test(test_disjoint_pid_accessed),
		cmocka_unit_test(test_pid_filter_no_countdown),
		cmocka_unit_test(test_pid_hash_collision),
		cmocka_unit_test(test_new_vma_delay),
		cmocka_unit_test(test_window_rotation),
		cmocka_unit_test(test_linux67_early_own_start_seq),
		cmocka_unit_test(test_linux67_pid_and_partial),
		cmocka_unit_test(test_linux67_starved),
		cmocka_unit_test(test_linux67_forced),
		cmocka_unit_test(test_linux67_skip_done),
		cmocka_unit_test(test_invalid_vma_facts),
		cmocka_unit_test(test_verdict_scans),
		cmocka_unit_test(test_pid_bit_hash),
		cmocka_unit_test(test_disjoint_rfc),
		cmocka_unit_test(test_disjoint_linux67),
	};

	return cmocka_run_group_tests_name("vma_scan", tests, NULL, NULL);
}
