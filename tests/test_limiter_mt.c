// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * CMocka tests of the promotion rate limiter under threads: consumers with
 * per-thread slots on a shared simulated clock, alone and while another
 * thread retunes the limiter (the same settings, other rates, other
 * variants), against the documented bounds (issue 12, items 1 and 3), and
 * the fail-closed refusals counted by tp_limiter_busy().
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include <tierpol/tierpol.h>
#include "selftest/selftest.h"
#include "tp_test_util.h"

#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#define UNDER_VALGRIND()	RUNNING_ON_VALGRIND
#endif
#endif
#ifndef UNDER_VALGRIND
#define UNDER_VALGRIND()	0
#endif

static struct tp_limiter_cfg mkcfg(u32 variant, u32 tps, u64 rate, u64 burst,
				   u32 batch)
{
	struct tp_limiter_cfg c = {
		.sz = sizeof(c), .variant = variant, .tps = tps,
		.cand_batch = batch, .rate = rate, .burst = burst,
	};
	return c;
}

/*
 * Consumers share one limiter and a simulated clock that advances one
 * tick when every thread has made its @per_thread requests at the current
 * tick (a barrier), so callers never disagree by more than the jitter of
 * up to 2 ticks each adds to its now (out of order, well under a second).
 * Each has its own slot; a tuner thread, if any, publishes the settings
 * @tune[] in turn until the consumers are done.
 */
#define CONC_THREADS	4

struct slot {
	struct tp_limiter_cpu c;
} __attribute__((aligned(64)));

struct conc {
	struct tp_limiter l;
	struct slot slot[CONC_THREADS];
	pthread_barrier_t bar;
	int threads;
	bool use_slot;
	u64 t0;
	u64 ticks;
	u32 per_thread;
	u32 nmax;
	u64 admitted[CONC_THREADS];
	u64 refused[CONC_THREADS];
	const struct tp_limiter_cfg *tune;
	int ntune;
	int done;
	u64 tunes;
	u64 tune_errors;
};

static struct conc cc;

static void *conc_worker(void *arg)
{
	int id = (int)(intptr_t)arg;
	struct tp_limiter_cpu *cpu = cc.use_slot ? &cc.slot[id].c : NULL;
	u64 tick, now, n, x = 0x9e3779b97f4a7c15ULL * (id + 1);
	u32 k;

	for (tick = 0; tick < cc.ticks; tick++) {
		for (k = 0; k < cc.per_thread; k++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			n = 1 + x % cc.nmax;
			now = cc.t0 + tick - (x >> 40) % 3;
			if (tp_limiter_consume(&cc.l, cpu, n, now))
				cc.admitted[id] += n;
			else
				cc.refused[id] += n;
		}
		pthread_barrier_wait(&cc.bar);
	}
	return NULL;
}

static void *conc_tuner(void *arg)
{
	u64 i = 0;

	(void)arg;
	while (!__atomic_load_n(&cc.done, __ATOMIC_ACQUIRE)) {
		/* no CMocka assertion off the main thread */
		if (tp_limiter_tune(&cc.l, &cc.tune[i % cc.ntune]))
			cc.tune_errors++;
		/* let the consumers run on a machine with few CPUs */
		if (!(++i & 63))
			sched_yield();
	}
	cc.tunes = i;
	return NULL;
}

/*
 * Runs @threads consumers (with slots or not) on @c, retuned to @tune[]
 * meanwhile if @ntune; returns the pages admitted. Every now is in
 * [t0 - 2, t0 + ticks - 1]; init is at t0 - 2.
 */
static u64 conc_run(const struct tp_limiter_cfg *c, int threads,
		    bool use_slot, u64 ticks, u32 per_thread, u32 nmax,
		    const struct tp_limiter_cfg *tune, int ntune)
{
	pthread_t th[CONC_THREADS], tuner;
	u64 tot = 0;
	int i;

	memset(&cc, 0, sizeof(cc));
	cc.threads = threads;
	cc.use_slot = use_slot;
	cc.t0 = (1ULL << 32) - ticks / 2;	/* across 2^32 as well */
	cc.ticks = ticks;
	cc.per_thread = per_thread;
	cc.nmax = nmax;
	cc.tune = tune;
	cc.ntune = ntune;
	assert_int_equal(tp_limiter_init(&cc.l, c, cc.t0 - 2), 0);
	assert_int_equal(pthread_barrier_init(&cc.bar, NULL, threads), 0);
	if (ntune)
		assert_int_equal(pthread_create(&tuner, NULL, conc_tuner,
						NULL), 0);
	for (i = 0; i < threads; i++)
		assert_int_equal(pthread_create(&th[i], NULL, conc_worker,
						(void *)(intptr_t)i), 0);
	for (i = 0; i < threads; i++) {
		pthread_join(th[i], NULL);
		tot += cc.admitted[i];
	}
	__atomic_store_n(&cc.done, 1, __ATOMIC_RELEASE);
	if (ntune) {
		pthread_join(tuner, NULL);
		assert_true(cc.tunes > 0);
		assert_int_equal(cc.tune_errors, 0);
	}
	pthread_barrier_destroy(&cc.bar);
	return tot;
}

/*
 * The slots' refusals for contention: at most the refused pages, and none
 * without a tuner for a window (its only retry is reading the settings).
 */
static void conc_check_busy(void)
{
	u64 busy = 0, refused = 0;
	int i;

	for (i = 0; i < cc.threads; i++) {
		busy += tp_limiter_busy(&cc.slot[i].c);
		refused += cc.refused[i];
	}
	assert_true(busy <= refused);
	if (!cc.ntune && cc.l.set[0].variant != TP_LIMITER_BUCKET)
		assert_int_equal(busy, 0);
}

static void test_concurrent_bucket(void **state)
{
	/* 20000 pages/s = 20 a tick; demand 64 requests of 1..4 a tick */
	struct tp_limiter_cfg c = mkcfg(TP_LIMITER_BUCKET, 1000, 20000, 500,
					0);
	u64 ticks = 5000, tot, supply;

	(void)state;
	tot = conc_run(&c, CONC_THREADS, true, ticks, 16, 4, NULL, 0);
	conc_check_busy();
	/* the interval holding every now: [t0 - 2, t0 + ticks - 1] */
	supply = muldiv_fit(c.rate, ticks + 1, c.tps);
	assert_true(tot <= c.burst + supply);
	assert_true(tot * 100 >= supply * 99);
}

/*
 * Both windows, counted at once (no slot) and through slots of a batch of
 * 32: over T seconds at most (T + 2) x (limit + n + C x (batch - 1)), and
 * saturated, so about the limit a window.
 */
static void test_concurrent_window(void **state)
{
	struct tp_limiter_cfg c;
	u64 ticks = 2000, secs = (ticks + 1 + 99) / 100, tot, late;
	int v;

	(void)state;
	for (v = 0; v < 4; v++) {
		/* 1000 pages/s, 100 ticks/s; demand 80 requests of 1..4 */
		c = mkcfg(v & 1 ? TP_LIMITER_WINDOW_LINUX61 :
				  TP_LIMITER_WINDOW_RFC2020, 100, 1000, 0,
			  v & 2 ? 32 : 0);
		late = v & 2 ? CONC_THREADS * 31 : 0;
		tot = conc_run(&c, CONC_THREADS, v & 2, ticks, 20, 4, NULL, 0);
		conc_check_busy();
		assert_true(tot <= (secs + 2) * (c.rate + 4 + late));
		/*
		 * Windows of 101 ticks, each admitting about the limit (an
		 * opener caught between its cmpxchg and its base store costs
		 * at most one tick's requests).
		 */
		assert_true(tot >= (secs - 2) * (c.rate - 80 * 4));
	}
}

/*
 * Issue 12, item 3: a tuner retunes a saturated bucket without pause while
 * two consumers take it. The 0.1 tune rewrote the state word and erased
 * the admissions made meanwhile; now it publishes settings only, so the
 * bound holds exactly: burst + rate x T with the same settings, and with
 * the rate switching between r and 2r (the same capacity in time, 1 s)
 * burst(2r) + 2r x T. Nothing is refused for contention but what the
 * slots count.
 */
static void test_concurrent_retune(void **state)
{
	struct tp_limiter_cfg c = mkcfg(TP_LIMITER_BUCKET, 1000, 20000, 0, 0);
	struct tp_limiter_cfg two[2];
	u64 ticks = 4000, tot, supply;

	(void)state;
	tot = conc_run(&c, 2, true, ticks, 32, 4, &c, 1);
	conc_check_busy();
	supply = muldiv_fit(c.rate, ticks + 1, c.tps);
	assert_true(tot <= c.rate + supply);
	assert_true(tot * 100 >= supply * 98);

	two[0] = c;
	two[1] = mkcfg(TP_LIMITER_BUCKET, 1000, 40000, 0, 0);
	tot = conc_run(&c, 2, true, ticks, 64, 4, two, 2);
	supply = muldiv_fit(two[1].rate, ticks + 1, c.tps);
	assert_true(tot <= two[1].rate + supply);
	/* at least the lower rate's share */
	assert_true(tot * 100 >= muldiv_fit(c.rate, ticks, c.tps) * 98);
	conc_check_busy();
}

/*
 * Issue 12, item 1: a tuner switches the variant bucket -> RFC window ->
 * 6.1 window without pause while two consumers with slots (batch 8) take
 * pages: every call ran one variant's logic on that variant's own state,
 * so the total is within the bucket's bound plus the windows' bound. With
 * 0.1's union, 4,031 of 1.87 M switches left a corrupted bucket and 2,136 a
 * window start over 1000 s in the future. Afterwards the bucket refills
 * and the window reopens on time.
 */
static void test_concurrent_variant_switch(void **state)
{
	struct tp_limiter_cfg cfg[3];
	u64 ticks = 4000, secs = ticks / 1000 + 1, tot, bucket, windows, te;
	u64 n;
	int v;

	(void)state;
	for (v = 0; v < 3; v++)
		cfg[v] = mkcfg((u32)v, 1000, 5000, 0, 8);
	tot = conc_run(&cfg[0], 2, true, ticks, 32, 4, cfg, 3);
	conc_check_busy();
	bucket = cfg[0].rate + muldiv_fit(cfg[0].rate, ticks + 1, 1000);
	windows = (secs + 2) * (cfg[0].rate + 4 + 2 * 7);
	assert_true(tot <= bucket + windows);
	/* the demand (64 x 2.5 pages a tick) is over the rate: used */
	assert_true(tot >= muldiv_fit(cfg[0].rate, ticks, 1000) / 2);

	/* the bucket: full again once its 1 s capacity has refilled */
	te = cc.t0 + ticks;
	assert_int_equal(tp_limiter_tune(&cc.l, &cfg[0]), 0);
	assert_int_equal(tp_limiter_available(&cc.l, te + 1000), 5000);
	assert_true(tp_limiter_consume(&cc.l, NULL, 5000, te + 1000));
	assert_false(tp_limiter_consume(&cc.l, NULL, 1, te + 1000));
	/* the window: reopened, and then exactly its limit */
	assert_int_equal(tp_limiter_tune(&cc.l, &cfg[1]), 0);
	assert_true(tp_limiter_consume(&cc.l, NULL, 1, te + 1001));
	for (n = 0; tp_limiter_consume(&cc.l, NULL, 1, te + 1002); n++)
		assert_true(n <= 5000);
	assert_int_equal(n, 5000);
}

/*
 * tp_limiter_busy(): a tuner that republishes the settings without pause
 * makes some readers fail every one of their TP_RETRIES attempts to read
 * a whole copy; such a call refuses (fails closed) and counts the pages
 * in its slot. The bucket here never runs short (2^32 pages a second, a
 * page per call), so every refusal is one of those: the counter must equal
 * the refusals exactly. There is no way to force the race from one thread
 * through the API (the latch is only changed by a tune, which does not
 * run inside a consume), so the test hammers until it happens, for up to
 * 20 s; under valgrind, which runs one thread at a time, it cannot happen
 * and only the accounting is checked.
 */
static struct tp_limiter busy_l;
static int busy_stop;

static void *busy_tuner(void *arg)
{
	const struct tp_limiter_cfg *c = arg;

	while (!__atomic_load_n(&busy_stop, __ATOMIC_ACQUIRE))
		tp_limiter_tune(&busy_l, c);
	return NULL;
}

static double elapsed(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) +
	       (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

static void test_busy_counted(void **state)
{
	struct tp_limiter_cfg c = mkcfg(TP_LIMITER_BUCKET, 1000000000,
					TP_RATE_MAX, 0, 0);
	static struct slot s;
	struct timespec t0;
	pthread_t th;
	u64 now = 5, calls = 0, refused = 0;
	int k;

	(void)state;
	assert_int_equal(tp_limiter_init(&busy_l, &c, now), 0);
	busy_stop = 0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_int_equal(pthread_create(&th, NULL, busy_tuner, &c), 0);
	do {
		for (k = 0; k < 100000; k++) {
			refused += !tp_limiter_consume(&busy_l, &s.c, 1, now++);
			calls++;
		}
	} while (!refused && !UNDER_VALGRIND() && elapsed(&t0) < 20);
	__atomic_store_n(&busy_stop, 1, __ATOMIC_RELEASE);
	pthread_join(th, NULL);
	assert_int_equal(tp_limiter_busy(&s.c), refused);
	if (!UNDER_VALGRIND())
		assert_true(refused > 0);
	print_message("busy: %llu of %llu calls refused for contention\n",
		      (unsigned long long)refused, (unsigned long long)calls);
	/* and a quiet limiter admits again */
	assert_true(tp_limiter_consume(&busy_l, &s.c, 1, now));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_concurrent_bucket),
		cmocka_unit_test(test_concurrent_window),
		cmocka_unit_test(test_concurrent_retune),
		cmocka_unit_test(test_concurrent_variant_switch),
		cmocka_unit_test(test_busy_counted),
	};

	return cmocka_run_group_tests_name("limiter_mt", tests, NULL, NULL);
}
