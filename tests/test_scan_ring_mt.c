// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * CMocka tests of the scan-history ring under threads: one writer records
 * and advances passes while three readers look latencies up, and every
 * answer must be one the ring could have given at some instant (no start
 * of one pass paired with the time of another); the checker itself is
 * shown to reject such torn pairs.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include <tierpol/scan_ring.h>
#include "selftest/selftest.h"
#include "tp_test_clock.h"

/* ---- one writer, three readers ------------------------------------------ */

/*
 * The writer records pass k at start (k mod M) * 4096 and time
 * k * 1000 + 7, M = 37 slots of 4 KiB (limit M * 4096), and advances it
 * across its slot in four steps; the last pass of a sweep ends with an
 * advance to 0 (the wrap). M is prime and larger than the depth, so two
 * passes that share a ring slot (k and k + depth) never share an address
 * range: a start of one paired with the time of the other gives a latency
 * whose pass does not cover the address, and mt_consistent() rejects it.
 */
#define MT_DEPTH	16U
#define MT_SLOTS	37U
#define MT_LIMIT	((u64)MT_SLOTS * 4096)
#define MT_NOW		(1ULL << 62)
#define MT_READERS	3
#define MT_RUN_NS	200000000ULL	/* 200 ms */
#define MT_WAIT_NS	60000000000ULL	/* 60 s */
#define MT_MAX_PASSES	20000000ULL
/* the clock ends the run only after these (two naps for the readers) */
#define MT_MIN_PASSES	8192ULL

static struct tp_scan_pass mt_passes[MT_DEPTH];

static u64 mt_start(u64 k)
{
	return (k % MT_SLOTS) * 4096;
}

static bool mt_covers(u64 k, u64 addr)
{
	return addr >= mt_start(k) && addr < mt_start(k) + 4096;
}

/*
 * Is (ret, lat) a possible answer for @addr while the writer's published
 * pass count went from @nb (before the lookup) to @na (after)? Pass na may
 * already be recorded but not yet published.
 */
static bool mt_consistent(int ret, u64 addr, u64 lat, u64 nb, u64 na)
{
	u64 t, k, lo, full_hi, j;

	if (ret == -EBUSY)
		return true;
	if (ret == -ENOENT)
		return nb == 0;
	if (ret != TP_LAT_EXACT && ret != TP_LAT_OLDEST)
		return false;
	if (lat > MT_NOW)
		return false;
	t = MT_NOW - lat;
	if (t < 7 || (t - 7) % 1000)
		return false;			/* not any pass's time */
	k = (t - 7) / 1000;
	lo = nb > MT_DEPTH ? nb - MT_DEPTH : 0;
	if (k < lo || k > na)
		return false;			/* not retained then */
	if (ret == TP_LAT_EXACT)
		return mt_covers(k, addr);	/* torn pairs fail here */
	/*
	 * TP_LAT_OLDEST: k was the oldest retained pass, so the ring then held
	 * k + depth passes (or, for k == 0, at least nb); every pass with a
	 * successor covers its whole slot and must not have held @addr.
	 */
	if (k > 0)
		full_hi = k + MT_DEPTH - 1;	/* exclusive */
	else
		full_hi = nb ? nb - 1 : 0;
	for (j = k; j < full_hi; j++)
		if (mt_covers(j, addr))
			return false;
	return true;
}

/* The checker itself must reject what a torn read would produce. */
static void test_mt_checker_detects_torn_pairs(void **state)
{
	u64 k = 100, nb = 110, na = 111;

	(void)state;
	/* a right answer: pass 105 covers its own slot */
	assert_true(mt_consistent(TP_LAT_EXACT, mt_start(105) + 8,
				  MT_NOW - (105 * 1000 + 7), nb, na));
	/* start of pass 105 (ring slot of 89, 121) with the time of 89 */
	assert_false(mt_consistent(TP_LAT_EXACT, mt_start(105) + 8,
				   MT_NOW - (89 * 1000 + 7), 100, 106));
	/* ...and with the time of pass 105 + 16 = 121 */
	assert_false(mt_consistent(TP_LAT_EXACT, mt_start(105) + 8,
				   MT_NOW - (121 * 1000 + 7), 106, 122));
	/* a time that is no pass's time */
	assert_false(mt_consistent(TP_LAT_EXACT, mt_start(k),
				   MT_NOW - (k * 1000 + 8), nb, na));
	/* a pass not yet recorded, or already forgotten */
	assert_false(mt_consistent(TP_LAT_EXACT, mt_start(112),
				   MT_NOW - (112 * 1000 + 7), nb, na));
	assert_false(mt_consistent(TP_LAT_EXACT, mt_start(90),
				   MT_NOW - (90 * 1000 + 7), nb, na));
	/* OLDEST although a retained, complete pass covered the address */
	assert_false(mt_consistent(TP_LAT_OLDEST, mt_start(100),
				   MT_NOW - (95 * 1000 + 7), nb, na));
	assert_true(mt_consistent(TP_LAT_OLDEST, mt_start(80),
				  MT_NOW - (95 * 1000 + 7), nb, na));
	/* -ENOENT only before the first pass */
	assert_true(mt_consistent(-ENOENT, 0, 0, 0, 1));
	assert_false(mt_consistent(-ENOENT, 0, 0, 1, 1));
}

struct mt_shared {
	struct tp_scan_ring ring;
	u64 published;		/* passes recorded, atomic */
	int stop;		/* atomic */
	int seen;		/* atomic: SEEN_EXACT | SEEN_OLDEST, by any reader */
};

#define SEEN_EXACT	1
#define SEEN_OLDEST	2

struct mt_reader {
	pthread_t tid;
	struct mt_shared *sh;
	u64 seed;
	unsigned long lookups;
	unsigned long exact;
	unsigned long oldest;
	unsigned long busy;
	unsigned long torn;
};

static void *mt_reader_fn(void *arg)
{
	struct mt_reader *r = arg;
	struct mt_shared *sh = r->sh;
	u64 x = r->seed, nb, na, addr, lat;
	int ret, seen, told = 0;

	while (!__atomic_load_n(&sh->stop, __ATOMIC_ACQUIRE)) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		addr = x % (MT_LIMIT + 4096);	/* a little beyond limit */
		nb = __atomic_load_n(&sh->published, __ATOMIC_ACQUIRE);
		lat = 0;
		ret = tp_scan_ring_latency(&sh->ring, addr, MT_NOW, &lat);
		na = __atomic_load_n(&sh->published, __ATOMIC_ACQUIRE);
		r->lookups++;
		if (ret == -EBUSY)
			r->busy++;
		else if (ret == TP_LAT_EXACT)
			r->exact++;
		else if (ret == TP_LAT_OLDEST)
			r->oldest++;
		seen = (r->exact ? SEEN_EXACT : 0) |
		       (r->oldest ? SEEN_OLDEST : 0);
		if (seen != told) {	/* at most twice a reader */
			__atomic_fetch_or(&sh->seen, seen, __ATOMIC_RELAXED);
			told = seen;
		}
		if (!mt_consistent(ret, addr, lat, nb, na) && !r->torn++)
			fprintf(stderr, "bad: addr %#llx ret %d time %llu pub %llu..%llu\n",
				(unsigned long long)addr, ret,
				(unsigned long long)(MT_NOW - lat),
				(unsigned long long)nb, (unsigned long long)na);
	}
	return NULL;
}

static void test_mt_one_writer_three_readers(void **state)
{
	static struct mt_shared sh;
	struct mt_reader rd[MT_READERS];
	struct tp_scan_ring_cfg cfg = { .sz = sizeof(cfg), .depth = MT_DEPTH,
					.limit = MT_LIMIT };
	unsigned long lookups = 0, exact = 0, oldest = 0, busy = 0, torn = 0;
	u64 t0, k, s;
	int i;

	(void)state;
	memset(&sh, 0, sizeof(sh));
	assert_int_equal(tp_scan_ring_init(&sh.ring, &cfg, mt_passes, MT_DEPTH),
			 0);
	for (i = 0; i < MT_READERS; i++) {
		rd[i] = (struct mt_reader){
			.sh = &sh,
			.seed = 0x12345678ULL * (i + 1),
		};
		assert_int_equal(pthread_create(&rd[i].tid, NULL, mt_reader_fn,
						&rd[i]), 0);
	}
	t0 = test_now_ns();
	for (k = 0; k < MT_MAX_PASSES; k++) {
		s = mt_start(k);
		tp_scan_ring_record(&sh.ring, s, k * 1000 + 7);
		__atomic_store_n(&sh.published, k + 1, __ATOMIC_RELEASE);
		for (i = 1; i <= 4; i++)
			tp_scan_ring_advance(&sh.ring, s + i * 1024);
		if (k % MT_SLOTS == MT_SLOTS - 1)
			tp_scan_ring_advance(&sh.ring, 0);
		/*
		 * Let the readers run now and then: under valgrind, which runs
		 * one thread at a time, a writer that never blocks would keep
		 * them from ever looking anything up (a sched_yield() is not
		 * enough there: it may hand the CPU back to the writer).
		 */
		if (k && !(k & 4095))
			nanosleep(&(struct timespec){ .tv_nsec = 50000 }, NULL);
		/*
		 * Past its time the run waits until the readers saw both
		 * answers (a busy machine may hardly have run them yet), for
		 * MT_WAIT_NS at most: then the assertions below fail.
		 */
		if (!(k & 255) && k >= MT_MIN_PASSES &&
		    test_run_over(t0, MT_RUN_NS, MT_WAIT_NS,
				  __atomic_load_n(&sh.seen, __ATOMIC_RELAXED) ==
				  (SEEN_EXACT | SEEN_OLDEST)))
			break;
	}
	__atomic_store_n(&sh.stop, 1, __ATOMIC_RELEASE);
	for (i = 0; i < MT_READERS; i++) {
		assert_int_equal(pthread_join(rd[i].tid, NULL), 0);
		lookups += rd[i].lookups;
		exact += rd[i].exact;
		oldest += rd[i].oldest;
		busy += rd[i].busy;
		torn += rd[i].torn;
	}
	print_message("%llu passes, %lu lookups: %lu exact, %lu oldest, %lu -EBUSY, %lu torn\n",
		      (unsigned long long)k, lookups, exact, oldest, busy,
		      torn);
	assert_int_equal(torn, 0);
	assert_true(exact > 0);
	assert_true(oldest > 0);
	assert_true(lookups > busy);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mt_checker_detects_torn_pairs),
		cmocka_unit_test(test_mt_one_writer_three_readers),
	};

	return cmocka_run_group_tests_name("scan_ring_mt", tests, NULL, NULL);
}
