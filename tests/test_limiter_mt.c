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
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>
#include <cmocka.h>

#include <tierpol/tierpol.h>
#include "selftest/selftest.h"
#include "tp_test_util.h"
#include "tp_test_limiter.h"
#include "tp_test_tsan.h"

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
 * tp_limiter_busy(), deterministically, in one thread: the limiter
 * straddles a page boundary, one page is made inaccessible, and a SIGSEGV
 * handler runs between the consumer's accesses to the two pages, doing
 * what another CPU (or an interrupt, or a signal handler: the API allows
 * both) could do there:
 *
 *  - latch: the settings copies start a page; the handler tunes between
 *    the consumer's read of the settings and its re-check of the latch
 *    sequence, on every attempt;
 *  - bucket: the TAT ends a page; the handler admits a page from another
 *    slot between the consumer's read of the TAT and its cmpxchg, on
 *    every attempt.
 *
 * Each call must give up after exactly TP_RETRIES attempts, refuse, and
 * count its pages in its slot's busy counter; the handler's own calls
 * (a tune, a consume, interrupting a consume on the same limiter) succeed.
 */
enum { RIG_LATCH = 1, RIG_CMPXCHG = 2, RIG_LATE = 3 };

static struct {
	u8 *a, *b;		/* the two pages */
	size_t pg;
	struct tp_limiter *l;
	int mode;
	int prot_a;
	const struct tp_limiter_cfg *cfg;
	struct tp_limiter_cpu *other;
	u64 now;
	unsigned int faults, tunes, admits, failed, lost;
	struct sigaction old;
} rig;

static void rig_prot(u8 *p, int prot)
{
	if (mprotect(p, rig.pg, prot))
		rig.failed++;
	if (p == rig.a)
		rig.prot_a = prot;
}

static void rig_handler(int sig, siginfo_t *si, void *uc)
{
	u8 *addr = si->si_addr;
	bool in_a = addr >= rig.a && addr < rig.a + rig.pg;

	(void)sig;
	(void)uc;
	rig.faults++;
	if (addr < rig.a || addr >= rig.b + rig.pg) {
		/* not told where: give up, let the access through */
		rig.lost++;
		mprotect(rig.a, 2 * rig.pg, PROT_READ | PROT_WRITE);
		return;
	}
	if (rig.mode == RIG_LATE) {	/* the live state: tune, once */
		rig_prot(rig.a, PROT_READ | PROT_WRITE);
		if (!rig.tunes++ && tp_limiter_tune(rig.l, rig.cfg))
			rig.failed++;
		return;
	}
	if (rig.mode == RIG_LATCH) {
		if (in_a) {	/* the latch: the settings next */
			rig_prot(rig.a, PROT_READ | PROT_WRITE);
			rig_prot(rig.b, PROT_NONE);
			return;
		}
		/* the settings: a tune, then the latch again */
		rig_prot(rig.b, PROT_READ | PROT_WRITE);
		if (tp_limiter_tune(rig.l, rig.cfg))
			rig.failed++;
		rig.tunes++;
		rig_prot(rig.a, PROT_NONE);
		return;
	}
	if (!in_a) {		/* the next attempt's read of fresh */
		rig_prot(rig.b, PROT_READ | PROT_WRITE);
		rig_prot(rig.a, PROT_NONE);
	} else if (rig.prot_a == PROT_NONE) {	/* the read of the TAT */
		rig_prot(rig.a, PROT_READ);
	} else {		/* its cmpxchg: another admission first */
		rig_prot(rig.a, PROT_READ | PROT_WRITE);
		if (!tp_limiter_consume(rig.l, rig.other, 1, rig.now))
			rig.failed++;
		rig.admits++;
		rig_prot(rig.b, PROT_NONE);
	}
}

/*
 * make check32 runs the 32-bit suites under qemu-user, which does not
 * survive this rig (a later malloc() faults; run natively, on an x86-64
 * kernel's i386 support, the same binary passes): 64-bit builds only.
 */
#if __SIZEOF_LONG__ < 8
#define RIG_SKIP_32()	skip()
#else
#define RIG_SKIP_32()	do { } while (0)
#endif

/* A limiter at @off bytes before the boundary of two fresh pages. */
static struct tp_limiter *rig_setup(int mode, size_t off)
{
	struct sigaction sa;

	memset(&rig, 0, sizeof(rig));
	rig.pg = (size_t)sysconf(_SC_PAGESIZE);
	rig.a = mmap(NULL, 2 * rig.pg, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(rig.a != MAP_FAILED);
	rig.b = rig.a + rig.pg;
	rig.mode = mode;
	rig.prot_a = PROT_READ | PROT_WRITE;
	rig.l = (struct tp_limiter *)(rig.b - off);
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = rig_handler;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	assert_int_equal(sigaction(SIGSEGV, &sa, &rig.old), 0);
	return rig.l;
}

/*
 * Both pages accessible again, and the handler gone. qemu-user, for one,
 * reports no address for a fault in an emulated atomic instruction
 * (i386's cmpxchg8b): the interleaving did not happen, say so and skip.
 */
static void rig_done(void)
{
	rig_prot(rig.a, PROT_READ | PROT_WRITE);
	rig_prot(rig.b, PROT_READ | PROT_WRITE);
	assert_int_equal(sigaction(SIGSEGV, &rig.old, NULL), 0);
	assert_int_equal(rig.failed, 0);
	if (rig.lost) {
		print_message("fault address not reported here: skipped\n");
		munmap(rig.a, 2 * rig.pg);
		skip();
	}
}

static void test_busy_latch(void **state)
{
	static const u32 variants[] = {
		TP_LIMITER_BUCKET, TP_LIMITER_WINDOW_RFC2020,
		TP_LIMITER_WINDOW_LINUX61,
	};
	struct tp_limiter_cpu slot = { 0 };
	struct tp_limiter_cfg c;
	struct tp_limiter *l;
	u64 avail;
	size_t i;

	(void)state;
	RIG_SKIP_32();
	for (i = 0; i < 3; i++) {
		l = rig_setup(RIG_LATCH, offsetof(struct tp_limiter, set));
		c = mkcfg(variants[i], 1000, 100, 0, 4);
		rig.cfg = &c;
		assert_int_equal(tp_limiter_init(l, &c, 10), 0);
		avail = tp_limiter_available(l, 10);
		rig_prot(rig.a, PROT_NONE);
		assert_false(tp_limiter_consume(l, &slot, 5, 10));
		rig_done();
		/* one tune between each attempt's two reads of the latch */
		assert_int_equal(rig.tunes, TP_RETRIES);
		assert_int_equal(rig.faults, 1 + 2 * TP_RETRIES);
		assert_int_equal(tp_limiter_busy(&slot), i + 1);
		/* refused before anything was counted or taken */
		assert_int_equal(tp_limiter_available(l, 10), avail);
		assert_true(tp_limiter_consume(l, &slot, 5, 10));
		assert_int_equal(tp_limiter_busy(&slot), i + 1);
		munmap(rig.a, 2 * rig.pg);
	}
}

static void test_busy_cmpxchg(void **state)
{
	struct tp_limiter_cfg c = mkcfg(TP_LIMITER_BUCKET, 1000, 1000, 0, 0);
	struct tp_limiter_cpu slot = { 0 }, other = { 0 };
	struct tp_limiter *l;

	(void)state;
	/*
	 * ThreadSanitizer runs the cmpxchg in its runtime, which the fault
	 * would re-enter from the handler: nothing the library can help.
	 */
	if (TP_TEST_TSAN)
		skip();
	RIG_SKIP_32();
	l = rig_setup(RIG_CMPXCHG, offsetof(struct tp_limiter, st.fresh));
	rig.other = &other;
	rig.now = 10;
	assert_int_equal(tp_limiter_init(l, &c, 10), 0);
	rig_prot(rig.a, PROT_NONE);
	assert_false(tp_limiter_consume(l, &slot, 3, 10));
	rig_done();
	/* one admission between each attempt's read and cmpxchg */
	assert_int_equal(rig.admits, TP_RETRIES);
	assert_int_equal(tp_limiter_busy(&slot), 1);
	assert_int_equal(tp_limiter_busy(&other), 0);
	/* the handler's admissions were taken, the refused call's not */
	assert_int_equal(tp_limiter_available(l, 10), 1000 - TP_RETRIES);
	munmap(rig.a, 2 * rig.pg);
}

/*
 * Issue 12, item 1, for real: the live state ends a page, so a handler
 * switches the variant after a call has read its settings and before it
 * touches the state. The late call runs its own variant's step on its
 * own variant's fields: a late window call leaves the bucket's TAT alone,
 * a late bucket call the window's start and count (the 0.1 union gave the
 * first a bucket scale of a million pages, the second a window start that
 * never expired).
 */
static void test_switch_in_handler(void **state)
{
	struct tp_limiter_cfg bucket = mkcfg(TP_LIMITER_BUCKET, 1000, 1000, 0,
					     0);
	struct tp_limiter_cfg win = mkcfg(TP_LIMITER_WINDOW_LINUX61, 1000,
					  1000, 0, 0);
	struct tp_limiter_state st;
	struct tp_limiter *l;
	u64 count, n;

	(void)state;
	RIG_SKIP_32();
	/* window -> bucket */
	l = rig_setup(RIG_LATE, offsetof(struct tp_limiter, count));
	rig.cfg = &bucket;
	assert_int_equal(tp_limiter_init(l, &win, 0), 0);
	assert_true(tp_limiter_consume(l, NULL, 10, 0));
	st = l->st;
	rig_prot(rig.a, PROT_NONE);
	assert_true(tp_limiter_consume(l, NULL, 500, 0));
	rig_done();
	assert_int_equal(rig.tunes, 1);
	assert_int_equal(l->set[0].variant, TP_LIMITER_BUCKET);
	assert_memory_equal(&l->st.tat, &st.tat, sizeof(st.tat));
	assert_memory_equal(&l->st.fresh, &st.fresh, sizeof(st.fresh));
	/* the bucket, full since init, exactly its burst */
	assert_int_equal(tp_limiter_available(l, 0), 1000);
	assert_true(tp_limiter_consume(l, NULL, 1000, 0));
	assert_false(tp_limiter_consume(l, NULL, 1, 0));
	munmap(rig.a, 2 * rig.pg);

	/* bucket -> window */
	l = rig_setup(RIG_LATE, offsetof(struct tp_limiter, count));
	rig.cfg = &win;
	assert_int_equal(tp_limiter_init(l, &bucket, 0), 0);
	st = l->st;
	count = __atomic_load_n(&l->count.v, __ATOMIC_RELAXED);
	rig_prot(rig.a, PROT_NONE);
	assert_true(tp_limiter_consume(l, NULL, 1000, 500));
	rig_done();
	assert_int_equal(rig.tunes, 1);
	assert_memory_equal(&l->st.start, &st.start, sizeof(st.start));
	assert_memory_equal(&l->st.base, &st.base, sizeof(st.base));
	assert_int_equal(__atomic_load_n(&l->count.v, __ATOMIC_RELAXED),
			 count);
	/*
	 * The window, expired since init: a page at 600 opens it (not
	 * counted in it), 999 more, and it reopens at 1601, not before.
	 */
	for (n = 0; tp_limiter_consume(l, NULL, 1, 600); n++)
		assert_true(n < 1001);
	assert_int_equal(n, 1 + 999);
	assert_false(tp_limiter_consume(l, NULL, 1, 1600));
	assert_true(tp_limiter_consume(l, NULL, 1, 1601));
	munmap(rig.a, 2 * rig.pg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_concurrent_bucket),
		cmocka_unit_test(test_concurrent_window),
		cmocka_unit_test(test_concurrent_retune),
		cmocka_unit_test(test_concurrent_variant_switch),
		cmocka_unit_test(test_busy_latch),
		cmocka_unit_test(test_busy_cmpxchg),
		cmocka_unit_test(test_switch_in_handler),
	};

	return cmocka_run_group_tests_name("limiter_mt", tests, NULL, NULL);
}
