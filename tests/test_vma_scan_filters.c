// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * CMocka tests: the VMA scan rate limiter's filters (none, the 2023
 * disjoint-VMA RFC's, the PID filter of Linux 6.5 and Linux 6.7+'s
 * vma_is_accessed() with its forced and starved cases), bad VMA facts, and
 * the RFC's disjoint-VMA scenario with counts, per filter.
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
#include "tp_test_vma.h"

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

/*
 * Linux 6.4 to 6.6 check the PID before they rotate the windows, and rotate
 * only the VMAs that pass ("Resetting after checking vma for recent access
 * to avoid clearing PID info before access"); 6.7 (and the disjoint-VMA
 * RFC, whose patch 1/6 moved the rotation up) rotate first. So under the
 * PID filter a bit that only the previous window holds still scans at a
 * due rotation, and a VMA the task does not pass keeps its windows.
 */
static void test_pid_filter_rotates_after_check(void **state)
{
	struct tp_vma_profile p = profile(TP_VMA_FILTER_PID);
	struct tp_vma_scan v;

	(void)state;
	tp_vma_scan_init(&v, &p, 0, 0);		/* rotations: 5000, 9000 */
	tp_vma_scan_note(&v, PID_A);
	assert_int_equal(check(&v, &p, 5, 6000, CHK()),
			 TP_VMA_SCAN_ACCESSED);	/* then rotated: A in [0] */
	/* due at 9000: A is still in the previous window when checked */
	assert_int_equal(check(&v, &p, 6, 10000, CHK()),
			 TP_VMA_SCAN_ACCESSED);	/* then rotated: A gone */
	assert_int_equal(check(&v, &p, 7, 10001, CHK()),
			 TP_VMA_SKIP_INACTIVE);

	/* B's skipped checks do not rotate A's bit away */
	tp_vma_scan_init(&v, &p, 0, 0);
	tp_vma_scan_note(&v, PID_A);
	assert_int_equal(check(&v, &p, 5, 6000, CHK(.pid = PID_B)),
			 TP_VMA_SKIP_INACTIVE);
	assert_int_equal(check(&v, &p, 6, 10000, CHK(.pid = PID_B)),
			 TP_VMA_SKIP_INACTIVE);
	assert_int_equal(check(&v, &p, 7, 10001, CHK()),
			 TP_VMA_SCAN_ACCESSED);
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
		cmocka_unit_test(test_filter_none_always_scans),
		cmocka_unit_test(test_disjoint_early_sequences),
		cmocka_unit_test(test_disjoint_pid_accessed),
		cmocka_unit_test(test_pid_filter_no_countdown),
		cmocka_unit_test(test_pid_hash_collision),
		cmocka_unit_test(test_pid_filter_rotates_after_check),
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

	return cmocka_run_group_tests_name("vma_scan_filters", tests, NULL,
					   NULL);
}
