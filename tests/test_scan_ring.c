// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * CMocka tests: scan-history ring and hint-fault latency lookup (the 2020
 * RFC, patch 6/8). The table-driven vectors shared with the kernel self-test
 * are in selftest/ring.h; this file adds the userspace-only checks (byte
 * patterns with memcmp, a reference model under random operations); the
 * one-writer / three-reader torn-read test is test_scan_ring_mt.c.
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <time.h>
#include <cmocka.h>

#include <tierpol/scan_ring.h>
#define ST_VECTORS	"selftest/ring.h"
#include "st_cmocka.h"
#include "selftest/ring.h"

#define POISON		0x5afec0debadc0de5ULL
#define U64_MAX_	(~0ULL)
#define T32		0x100000000ULL
#define NR_PASSES	TP_RING_DEPTH_MAX

/* ---- helpers ------------------------------------------------------------ */

static struct tp_scan_pass passes[TP_RING_DEPTH_MAX];

static void ring_setup(struct tp_scan_ring *ring, u32 depth, u64 limit)
{
	struct tp_scan_ring_cfg cfg = {
		.sz = sizeof(cfg), .depth = depth, .limit = limit,
	};

	assert_int_equal(tp_scan_ring_init(ring, &cfg, passes, NR_PASSES), 0);
}

/* Asserts the result and, on success, the latency; on error, no write. */
static void expect_lat(const struct tp_scan_ring *ring, u64 addr, u64 now,
		       int want_ret, u64 want_lat)
{
	u64 lat = POISON;
	int ret = tp_scan_ring_latency(ring, addr, now, &lat);

	if (ret != want_ret || lat != (ret < 0 ? POISON : want_lat))
		print_error("addr %#llx now %llu: ret %d lat %llu, want %d %llu\n",
			    (unsigned long long)addr, (unsigned long long)now,
			    ret, (unsigned long long)lat, want_ret,
			    (unsigned long long)want_lat);
	assert_int_equal(ret, want_ret);
	if (ret < 0)
		assert_true(lat == POISON);
	else
		assert_true(lat == want_lat);
}

/* ---- the shared self-test vectors -------------------------------------- */

static void test_selftest_ring(void **state)
{
	(void)state;
	st_run(tp_st_ring, "tp_st_ring");
}

static void test_selftest_ring_init_table(void **state)
{
	(void)state;
	st_run(tp_st_ring_init_table, "ring init table");
}

static void test_selftest_ring_sz_table(void **state)
{
	(void)state;
	st_run(tp_st_ring_sz_table, "ring sz table");
}

static void test_selftest_ring_scenarios(void **state)
{
	(void)state;
	st_run(tp_st_ring_scenarios, "ring scenarios");
}

static void test_selftest_ring_index_walk(void **state)
{
	(void)state;
	st_run(tp_st_ring_index_walk, "ring index walk");
}

/* ---- init --------------------------------------------------------------- */

static void test_init_rejects_leave_ring_untouched(void **state)
{
	static const u32 bad_depth[] = { 3, 5, 12, 17, 1000, 1023, 1025,
					 2048, 4096, 0x80000000U,
					 0xffffffffU };
	static const u8 pattern[] = { 0x00, 0xa5, 0xff };
	struct tp_scan_ring ring, copy;
	struct tp_scan_ring_cfg cfg;
	size_t i, j;

	(void)state;
	for (j = 0; j < sizeof(pattern); j++) {
		memset(&ring, pattern[j], sizeof(ring));
		memcpy(&copy, &ring, sizeof(ring));
		cfg = (struct tp_scan_ring_cfg){ .sz = sizeof(cfg),
						 .depth = 16 };
		assert_int_equal(tp_scan_ring_init(&ring, NULL, passes,
						   NR_PASSES), -EINVAL);
		assert_memory_equal(&ring, &copy, sizeof(ring));
		assert_int_equal(tp_scan_ring_init(&ring, &cfg, NULL,
						   NR_PASSES), -EINVAL);
		assert_memory_equal(&ring, &copy, sizeof(ring));
		assert_int_equal(tp_scan_ring_init(NULL, &cfg, passes,
						   NR_PASSES), -EINVAL);
		/* too short an array, a bad size */
		assert_int_equal(tp_scan_ring_init(&ring, &cfg, passes, 15),
				 -EINVAL);
		assert_memory_equal(&ring, &copy, sizeof(ring));
		cfg.sz = 0;
		assert_int_equal(tp_scan_ring_init(&ring, &cfg, passes,
						   NR_PASSES), -EINVAL);
		assert_memory_equal(&ring, &copy, sizeof(ring));
		for (i = 0; i < TP_ST_ARRAY_SIZE(bad_depth); i++) {
			cfg = (struct tp_scan_ring_cfg){ .sz = sizeof(cfg),
							 .depth = bad_depth[i],
							 .limit = 4096 };
			assert_int_equal(tp_scan_ring_init(&ring, &cfg, passes,
							   NR_PASSES),
					 -EINVAL);
			assert_memory_equal(&ring, &copy, sizeof(ring));
		}
	}
}

/*
 * Every depth from 0 to 2100: accepted iff 0 or a power of two <= 1024,
 * and then only in an array of at least that many passes.
 */
static void test_init_depth_exhaustive(void **state)
{
	struct tp_scan_ring ring;
	struct tp_scan_ring_cfg cfg = { .sz = sizeof(cfg) };
	u32 d, want;
	bool ok;

	(void)state;
	for (d = 0; d <= 2100; d++) {
		cfg.depth = d;
		ok = d == 0 || (d <= 1024 && !(d & (d - 1)));
		want = d ? d : 16;
		assert_int_equal(tp_scan_ring_init(&ring, &cfg, passes,
						   NR_PASSES),
				 ok ? 0 : -EINVAL);
		if (!ok)
			continue;
		assert_int_equal(tp_scan_ring_depth(&ring), want);
		assert_int_equal(tp_scan_ring_init(&ring, &cfg, passes, want),
				 0);
		assert_int_equal(tp_scan_ring_init(&ring, &cfg, passes,
						   want - 1), -EINVAL);
		assert_int_equal(tp_scan_ring_depth(&ring), want);
	}
}

static void test_init_defaults(void **state)
{
	struct tp_scan_ring ring;

	(void)state;
	/* depth 0 -> TP_DEFAULT_RING_DEPTH: 17 passes forget the first. */
	ring_setup(&ring, 0, 0);
	assert_int_equal(tp_scan_ring_depth(&ring), TP_DEFAULT_RING_DEPTH);
	assert_int_equal(tp_scan_ring_depth(&ring), 16);
	for (u64 k = 0; k < 17; k++) {
		tp_scan_ring_record(&ring, k * 4096, k * 10);
		tp_scan_ring_advance(&ring, (k + 1) * 4096);
	}
	expect_lat(&ring, 4096, 1000, TP_LAT_EXACT, 990);
	expect_lat(&ring, 0, 1000, TP_LAT_OLDEST, 990);

	/* limit 0 -> 2^64 - 1: a wrapped pass covers up to 2^64 - 2. */
	ring_setup(&ring, 16, 0);
	tp_scan_ring_record(&ring, U64_MAX_ - 0xfff, 5);
	tp_scan_ring_advance(&ring, 0x10);
	expect_lat(&ring, U64_MAX_ - 1, 7, TP_LAT_EXACT, 2);
	expect_lat(&ring, U64_MAX_, 7, TP_LAT_OLDEST, 2);
}

/* ---- lookup ranges ------------------------------------------------------ */

static void test_empty_ring_enoent(void **state)
{
	struct tp_scan_ring ring;

	(void)state;
	ring_setup(&ring, 16, 0);
	expect_lat(&ring, 0, 0, -ENOENT, 0);
	expect_lat(&ring, 12345, 99999, -ENOENT, 0);
	expect_lat(&ring, U64_MAX_, U64_MAX_, -ENOENT, 0);
	/* advance() alone records nothing */
	tp_scan_ring_advance(&ring, 8192);
	expect_lat(&ring, 100, 10, -ENOENT, 0);
}

static void test_reset(void **state)
{
	struct tp_scan_ring ring;

	(void)state;
	ring_setup(&ring, 4, 0);
	for (u64 k = 0; k < 6; k++) {
		tp_scan_ring_record(&ring, k * 4096, 100 + k);
		tp_scan_ring_advance(&ring, (k + 1) * 4096);
	}
	expect_lat(&ring, 5 * 4096, 200, TP_LAT_EXACT, 95);
	tp_scan_ring_reset(&ring);
	expect_lat(&ring, 5 * 4096, 200, -ENOENT, 0);
	expect_lat(&ring, 0, 200, -ENOENT, 0);
	/* Afterwards the ring fills from scratch: no stale slot is read. */
	tp_scan_ring_record(&ring, 0x100000, 150);
	tp_scan_ring_advance(&ring, 0x101000);
	expect_lat(&ring, 0x100000, 200, TP_LAT_EXACT, 50);
	expect_lat(&ring, 5 * 4096, 200, TP_LAT_OLDEST, 50);
	tp_scan_ring_record(&ring, 0x101000, 160);
	tp_scan_ring_advance(&ring, 0x102000);
	expect_lat(&ring, 3 * 4096, 200, TP_LAT_OLDEST, 50);
	expect_lat(&ring, 0x101800, 200, TP_LAT_EXACT, 40);
}

static void test_newest_pass_range(void **state)
{
	struct tp_scan_ring ring;

	(void)state;
	ring_setup(&ring, 16, 0);
	tp_scan_ring_record(&ring, 0x200000, 1000);
	/* record() starts an empty range: nothing covered yet */
	expect_lat(&ring, 0x200000, 1100, TP_LAT_OLDEST, 100);
	tp_scan_ring_advance(&ring, 0x280000);
	expect_lat(&ring, 0x200000, 1100, TP_LAT_EXACT, 100);
	expect_lat(&ring, 0x27ffff, 1100, TP_LAT_EXACT, 100);
	expect_lat(&ring, 0x280000, 1100, TP_LAT_OLDEST, 100);
	expect_lat(&ring, 0x1fffff, 1100, TP_LAT_OLDEST, 100);
	tp_scan_ring_advance(&ring, 0x300000);
	expect_lat(&ring, 0x2fffff, 1100, TP_LAT_EXACT, 100);
}

static void test_older_pass_ranges(void **state)
{
	static const u64 start[] = { 0x1000, 0x9000, 0x20000, 0x21000 };
	struct tp_scan_ring ring;
	size_t k;

	(void)state;
	ring_setup(&ring, 16, 0);
	for (k = 0; k < 4; k++) {
		tp_scan_ring_record(&ring, start[k], 100 * (k + 1));
		/*
		 * Each pass advances only partway: older ones still end at
		 * the next pass's start, not at their own last offset.
		 */
		tp_scan_ring_advance(&ring, start[k] + 0x800);
	}
	for (k = 0; k < 3; k++) {
		expect_lat(&ring, start[k], 1000, TP_LAT_EXACT,
			   1000 - 100 * (k + 1));
		expect_lat(&ring, start[k] + 0x800, 1000, TP_LAT_EXACT,
			   1000 - 100 * (k + 1));
		expect_lat(&ring, start[k + 1] - 1, 1000, TP_LAT_EXACT,
			   1000 - 100 * (k + 1));
	}
	expect_lat(&ring, start[3], 1000, TP_LAT_EXACT, 600);
	expect_lat(&ring, start[3] + 0x7ff, 1000, TP_LAT_EXACT, 600);
	expect_lat(&ring, start[3] + 0x800, 1000, TP_LAT_OLDEST, 900);
	expect_lat(&ring, 0xfff, 1000, TP_LAT_OLDEST, 900);
}

/*
 * The newest pass with no progress (start == offset) covers nothing: none of
 * its PTEs is marked yet, so a fault at such an address comes from a page
 * marked by an older pass, and that pass's latency is the true one. The
 * RFC stretched the newest range to start + 10 GiB instead, which would
 * answer 10 (ticks since the new pass began) below, i.e. call pages that
 * were marked a whole sweep ago hot.
 */
static void test_no_progress_covers_nothing(void **state)
{
	struct tp_scan_ring ring;

	(void)state;
	ring_setup(&ring, 16, 0x40000);
	tp_scan_ring_record(&ring, 0x30000, 100);
	tp_scan_ring_advance(&ring, 0x40000);
	/* reset_ptenuma_scan(): the next pass starts at 0, not advanced */
	tp_scan_ring_record(&ring, 0, 1000);
	expect_lat(&ring, 0, 1010, TP_LAT_OLDEST, 910);
	expect_lat(&ring, 0x1000, 1010, TP_LAT_OLDEST, 910);
	expect_lat(&ring, 0x38000, 1010, TP_LAT_EXACT, 910);
	/* An address 9 GiB above the start: still not the newest's. */
	tp_scan_ring_record(&ring, 0x1000, 1005);
	expect_lat(&ring, 0x1000 + (9ULL << 30), 1010, TP_LAT_OLDEST, 910);
	expect_lat(&ring, 0x1000, 1010, TP_LAT_OLDEST, 910);
	/* the previous no-progress pass [0, 0x1000) is older now */
	expect_lat(&ring, 0x800, 1010, TP_LAT_EXACT, 10);
	tp_scan_ring_advance(&ring, 0x2000);
	expect_lat(&ring, 0x1000, 1010, TP_LAT_EXACT, 5);
}

static void test_wrapped_newest_pass(void **state)
{
	struct tp_scan_ring ring;
	const u64 limit = 0x7ffffffff000ULL;	/* x86-64 TASK_SIZE */

	(void)state;
	ring_setup(&ring, 16, limit);
	tp_scan_ring_record(&ring, 0x400000, 10);
	tp_scan_ring_advance(&ring, 0x7f0000000000ULL);
	tp_scan_ring_record(&ring, 0x7f0000000000ULL, 20);
	tp_scan_ring_advance(&ring, 0x7f0000100000ULL);
	tp_scan_ring_advance(&ring, 0x1000);	/* below start: wrapped */
	expect_lat(&ring, 0x7f0000000000ULL, 50, TP_LAT_EXACT, 30);
	expect_lat(&ring, 0x7f0000200000ULL, 50, TP_LAT_EXACT, 30);
	expect_lat(&ring, limit - 1, 50, TP_LAT_EXACT, 30);
	expect_lat(&ring, limit, 50, TP_LAT_OLDEST, 40);
	/* [0, offset) is not the wrapped newest pass's range */
	expect_lat(&ring, 0x800, 50, TP_LAT_OLDEST, 40);
	expect_lat(&ring, 0x400000, 50, TP_LAT_EXACT, 40);
}

static void test_wrapped_older_pass(void **state)
{
	struct tp_scan_ring ring;

	(void)state;
	ring_setup(&ring, 8, 0x100000);
	tp_scan_ring_record(&ring, 0xc0000, 100);
	tp_scan_ring_advance(&ring, 0x100000);
	tp_scan_ring_record(&ring, 0, 200);	/* next start < start: wrap */
	tp_scan_ring_advance(&ring, 0x20000);
	tp_scan_ring_record(&ring, 0x20000, 300);
	tp_scan_ring_advance(&ring, 0x30000);
	expect_lat(&ring, 0xc0000, 400, TP_LAT_EXACT, 300);
	expect_lat(&ring, 0xfffff, 400, TP_LAT_EXACT, 300);
	expect_lat(&ring, 0x100000, 400, TP_LAT_OLDEST, 300);
	expect_lat(&ring, 0x1ffff, 400, TP_LAT_EXACT, 200);
	expect_lat(&ring, 0x2ffff, 400, TP_LAT_EXACT, 100);
	expect_lat(&ring, 0x30000, 400, TP_LAT_OLDEST, 300);
	expect_lat(&ring, 0xbffff, 400, TP_LAT_OLDEST, 300);
}

static void test_uncovered_returns_oldest(void **state)
{
	struct tp_scan_ring ring;
	u64 k;

	(void)state;
	/* depth 8; 20 passes of 1 MiB: only passes 12..19 are remembered */
	ring_setup(&ring, 8, 0);
	for (k = 0; k < 20; k++) {
		tp_scan_ring_record(&ring, k << 20, 1000 + 100 * k);
		tp_scan_ring_advance(&ring, (k + 1) << 20);
	}
	for (k = 0; k < 12; k++)
		expect_lat(&ring, (k << 20) + 5, 5000, TP_LAT_OLDEST,
			   5000 - 2200);
	for (k = 12; k < 20; k++)
		expect_lat(&ring, (k << 20) + 5, 5000, TP_LAT_EXACT,
			   5000 - 1000 - 100 * k);
	expect_lat(&ring, 20ULL << 20, 5000, TP_LAT_OLDEST, 2800);
	expect_lat(&ring, U64_MAX_, 5000, TP_LAT_OLDEST, 2800);
}

/* ---- the index walk: the RFC's (i - 1) % N ------------------------------ */

/*
 * Record exactly n passes (k * 4096 at k * 1000 + 7) and check that the
 * newest, the oldest retained and the first forgotten pass answer right.
 */
static void check_after_n(struct tp_scan_ring *ring, u32 depth, u32 n)
{
	const u64 now = 1ULL << 40;
	u32 oldest = n > depth ? n - depth : 0;
	u32 k;

	ring_setup(ring, depth, 0);
	for (k = 0; k < n; k++) {
		tp_scan_ring_record(ring, (u64)k * 4096, (u64)k * 1000 + 7);
		tp_scan_ring_advance(ring, (u64)(k + 1) * 4096);
	}
	expect_lat(ring, (u64)(n - 1) * 4096, now, TP_LAT_EXACT,
		   now - ((u64)(n - 1) * 1000 + 7));
	expect_lat(ring, (u64)oldest * 4096 + 4095, now, TP_LAT_EXACT,
		   now - ((u64)oldest * 1000 + 7));
	if (oldest)
		expect_lat(ring, (u64)(oldest - 1) * 4096, now, TP_LAT_OLDEST,
			   now - ((u64)oldest * 1000 + 7));
	expect_lat(ring, (u64)n * 4096, now, TP_LAT_OLDEST,
		   now - ((u64)oldest * 1000 + 7));
}

static void test_index_zero_depth16(void **state)
{
	struct tp_scan_ring ring;
	u32 n;

	(void)state;
	/* exactly depth, depth + 1 and 2 * depth, then every wrap */
	check_after_n(&ring, 16, 16);
	check_after_n(&ring, 16, 17);
	check_after_n(&ring, 16, 32);
	for (n = 1; n <= 4 * 16 + 1; n++)
		check_after_n(&ring, 16, n);
}

static void test_depth1(void **state)
{
	struct tp_scan_ring ring;
	u32 n;

	(void)state;
	ring_setup(&ring, 1, 0);
	assert_int_equal(tp_scan_ring_depth(&ring), 1);
	for (n = 1; n <= 5; n++)
		check_after_n(&ring, 1, n);
}

static void test_depth1024(void **state)
{
	struct tp_scan_ring ring;
	static const u32 ns[] = { 1, 1023, 1024, 1025, 2047, 2048, 2049,
				  3072 };
	size_t i;

	(void)state;
	for (i = 0; i < TP_ST_ARRAY_SIZE(ns); i++)
		check_after_n(&ring, 1024, ns[i]);
}

/* ---- time --------------------------------------------------------------- */

static void test_time_wrap_2_32(void **state)
{
	struct tp_scan_ring ring;

	(void)state;
	ring_setup(&ring, 16, 0);
	tp_scan_ring_record(&ring, 0, T32 - 5);
	tp_scan_ring_advance(&ring, 4096);
	expect_lat(&ring, 0, T32 + 5, TP_LAT_EXACT, 10);
	tp_scan_ring_record(&ring, 4096, T32 + 1);
	tp_scan_ring_advance(&ring, 8192);
	expect_lat(&ring, 0, T32 + 5, TP_LAT_EXACT, 10);
	expect_lat(&ring, 4096, T32 + 5, TP_LAT_EXACT, 4);
	/* not covered: the oldest pass's latency, across the wrap too */
	expect_lat(&ring, 8192, T32 + 5, TP_LAT_OLDEST, 10);
}

static void test_time_wrap_2_64(void **state)
{
	struct tp_scan_ring ring;

	(void)state;
	ring_setup(&ring, 16, 0);
	tp_scan_ring_record(&ring, 0, U64_MAX_ - 4);	/* 2^64 - 5 */
	tp_scan_ring_advance(&ring, 4096);
	expect_lat(&ring, 0, 4, TP_LAT_EXACT, 9);	/* 2^64 + 4 */
	expect_lat(&ring, 0, U64_MAX_, TP_LAT_EXACT, 4);
	tp_scan_ring_record(&ring, 4096, 2);
	tp_scan_ring_advance(&ring, 8192);
	expect_lat(&ring, 100, 4, TP_LAT_EXACT, 9);
	expect_lat(&ring, 5000, 4, TP_LAT_EXACT, 2);
	expect_lat(&ring, 9000, 4, TP_LAT_OLDEST, 9);
}

static void test_now_before_pass_time(void **state)
{
	struct tp_scan_ring ring;

	(void)state;
	ring_setup(&ring, 16, 0);
	tp_scan_ring_record(&ring, 0, 5000);
	tp_scan_ring_advance(&ring, 4096);
	expect_lat(&ring, 0, 5000, TP_LAT_EXACT, 0);
	expect_lat(&ring, 0, 4999, TP_LAT_EXACT, 0);
	expect_lat(&ring, 0, 0, TP_LAT_EXACT, 0);
	expect_lat(&ring, 8192, 1, TP_LAT_OLDEST, 0);
	expect_lat(&ring, 0, 5001, TP_LAT_EXACT, 1);
	/* before, across the 2^64 wrap: pass at 3, now at 2^64 - 3 */
	tp_scan_ring_reset(&ring);
	tp_scan_ring_record(&ring, 0, 3);
	tp_scan_ring_advance(&ring, 4096);
	expect_lat(&ring, 0, U64_MAX_ - 2, TP_LAT_EXACT, 0);
}

/* ---- a reference model under random operations -------------------------- */

#define MODEL_HIST	4096

struct model {
	u64 start[MODEL_HIST];
	u64 time[MODEL_HIST];
	u32 n;			/* passes since reset, linear history */
	u32 depth;
	u64 offset;
	u64 limit;
};

static u64 rng_state = 0x9e3779b97f4a7c15ULL;

static u64 rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/*
 * The contract in tierpol/scan_ring.h, straight from a linear history of
 * every pass since the last reset, newest first.
 */
static int model_latency(const struct model *m, u64 addr, u64 now, u64 *lat)
{
	u32 first, k;
	u64 lo, hi;

	if (!m->n)
		return -ENOENT;
	first = m->n > m->depth ? m->n - m->depth : 0;
	for (k = m->n; k-- > first;) {
		lo = m->start[k];
		hi = k == m->n - 1 ? m->offset : m->start[k + 1];
		if (hi < lo)
			hi = m->limit;
		if (addr >= lo && addr < hi) {
			*lat = (int64_t)(now - m->time[k]) > 0 ?
			       now - m->time[k] : 0;
			return TP_LAT_EXACT;
		}
	}
	*lat = (int64_t)(now - m->time[first]) > 0 ? now - m->time[first] : 0;
	return TP_LAT_OLDEST;
}

static u64 model_pick_addr(const struct model *m)
{
	switch (rnd() % 6) {
	case 0:
		return m->offset;
	case 1:
		return m->offset - 1;
	case 2:
		return m->n ? m->start[rnd() % m->n] : 0;
	case 3:
		return m->limit - (rnd() & 1);
	default:
		return rnd() % m->limit;
	}
}

static void model_check(const struct tp_scan_ring *ring,
			const struct model *m, u64 addr, u64 now)
{
	u64 lat = POISON, mlat = POISON;
	int ret = tp_scan_ring_latency(ring, addr, now, &lat);
	int mret = model_latency(m, addr, now, &mlat);

	if (ret != mret || lat != mlat)
		print_error("depth %u limit %#llx n %u addr %#llx now %llu: %d/%llu, want %d/%llu\n",
			    m->depth, (unsigned long long)m->limit, m->n,
			    (unsigned long long)addr, (unsigned long long)now,
			    ret, (unsigned long long)lat, mret,
			    (unsigned long long)mlat);
	assert_int_equal(ret, mret);
	assert_true(lat == mlat);
}

/* One random operation on both the ring and the model. */
static bool model_step(struct tp_scan_ring *ring, struct model *m, u64 now)
{
	u64 r = rnd() % 100, x;

	if (r < 20 && m->n < MODEL_HIST) {
		/*
		 * Usually where the last pass stopped, as the scanner does;
		 * now and then anywhere, the limit and beyond included (a
		 * caller's bad start must still get the walk's answer).
		 */
		x = (rnd() & 3) ? m->offset : rnd() % m->limit;
		if (x >= m->limit)
			x = 0;
		if (!(rnd() % 16))
			x = m->limit - 64 + rnd() % 256;
		m->start[m->n] = x;
		m->time[m->n] = now - rnd() % 3;
		tp_scan_ring_record(ring, x, m->time[m->n]);
		m->offset = x;
		m->n++;
	} else if (r < 40) {
		x = (rnd() & 7) ? m->offset + rnd() % (m->limit >> 5) :
				  rnd() % m->limit;
		if (x > m->limit)
			x = m->limit;
		tp_scan_ring_advance(ring, x);
		m->offset = x;
	} else if (r < 41) {
		tp_scan_ring_reset(ring);
		m->n = 0;
		m->offset = 0;
	} else {
		model_check(ring, m, model_pick_addr(m), now);
		return true;
	}
	return false;
}

static void test_reference_model_random(void **state)
{
	static const u32 depths[] = { 1, 2, 4, 16, 64 };
	static const u64 limits[] = { 0, 0x100000, 0x7ffffffff000ULL };
	static struct model m;
	struct tp_scan_ring ring;
	unsigned long lookups = 0;
	size_t d, l;
	u64 now;
	int i;

	(void)state;
	for (d = 0; d < TP_ST_ARRAY_SIZE(depths); d++) {
		for (l = 0; l < TP_ST_ARRAY_SIZE(limits); l++) {
			memset(&m, 0, sizeof(m));
			m.depth = depths[d];
			m.limit = limits[l] ? limits[l] : U64_MAX_;
			ring_setup(&ring, depths[d], limits[l]);
			/* start near a wrap of the clock */
			now = (rnd() & 1) ? T32 - 3000 : U64_MAX_ - 3000;
			for (i = 0; i < 3000; i++) {
				now += rnd() % 40;
				lookups += model_step(&ring, &m, now);
			}
		}
	}
	print_message("reference model: %lu lookups agreed\n", lookups);
	assert_true(lookups > 10000);
}

/*
 * Regression (found by fuzz_api): the last pass of a sweep started above the
 * ring's limit, so it covers nothing ([start, limit) with limit < start);
 * the sweep's other passes still cover [start, next start). A binary search
 * must not skip the whole sweep then.
 */
static void test_run_last_pass_above_limit(void **state)
{
	struct tp_scan_ring ring;

	(void)state;
	ring_setup(&ring, 16, 0x1000);
	tp_scan_ring_record(&ring, 0x100, 100);
	tp_scan_ring_advance(&ring, 0x180);
	tp_scan_ring_record(&ring, 0x200, 200);
	tp_scan_ring_advance(&ring, 0x280);
	tp_scan_ring_record(&ring, 0x5000, 300);	/* above the limit */
	tp_scan_ring_advance(&ring, 0x5080);
	tp_scan_ring_record(&ring, 0x150, 400);		/* a new sweep */
	tp_scan_ring_advance(&ring, 0x160);
	expect_lat(&ring, 0x155, 1000, TP_LAT_EXACT, 600);	/* newest */
	expect_lat(&ring, 0x4000, 1000, TP_LAT_EXACT, 800);	/* 0x200's */
	expect_lat(&ring, 0x1fff, 1000, TP_LAT_EXACT, 800);
	expect_lat(&ring, 0x180, 1000, TP_LAT_EXACT, 900);	/* 0x100's */
	expect_lat(&ring, 0x6000, 1000, TP_LAT_OLDEST, 900);	/* nowhere */
	expect_lat(&ring, 0x50, 1000, TP_LAT_OLDEST, 900);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_selftest_ring),
		cmocka_unit_test(test_selftest_ring_init_table),
		cmocka_unit_test(test_selftest_ring_sz_table),
		cmocka_unit_test(test_selftest_ring_scenarios),
		cmocka_unit_test(test_selftest_ring_index_walk),
		cmocka_unit_test(test_init_rejects_leave_ring_untouched),
		cmocka_unit_test(test_init_depth_exhaustive),
		cmocka_unit_test(test_init_defaults),
		cmocka_unit_test(test_empty_ring_enoent),
		cmocka_unit_test(test_reset),
		cmocka_unit_test(test_newest_pass_range),
		cmocka_unit_test(test_older_pass_ranges),
		cmocka_unit_test(test_no_progress_covers_nothing),
		cmocka_unit_test(test_wrapped_newest_pass),
		cmocka_unit_test(test_wrapped_older_pass),
		cmocka_unit_test(test_uncovered_returns_oldest),
		cmocka_unit_test(test_index_zero_depth16),
		cmocka_unit_test(test_depth1),
		cmocka_unit_test(test_depth1024),
		cmocka_unit_test(test_time_wrap_2_32),
		cmocka_unit_test(test_time_wrap_2_64),
		cmocka_unit_test(test_now_before_pass_time),
		cmocka_unit_test(test_reference_model_random),
		cmocka_unit_test(test_run_last_pass_above_limit),
	};

	return cmocka_run_group_tests_name("scan_ring", tests, NULL, NULL);
}
