// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * CMocka tests: per-page access-time stamps (Linux 6.1 and later,
 * folio_xchg_access_time()). The worked examples shared with the kernel
 * self-test are in selftest/atime.h; this file adds exhaustive validation,
 * property checks against an independent derivation, and a concurrent
 * exchange test.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include <tierpol/atime.h>
#define ST_VECTORS	"selftest/atime.h"
#include "st_cmocka.h"
#include "selftest/atime.h"

#define T32	0x100000000ULL
#define T21	0x200000ULL
#define T20	0x100000ULL

/* ---- helpers ------------------------------------------------------------ */

static struct tp_atime fmt_of(u32 bits, u32 shift)
{
	struct tp_atime_cfg cfg = {
		.sz = sizeof(cfg), .bits = bits, .shift = shift,
	};
	struct tp_atime fmt;

	assert_int_equal(tp_atime_init(&fmt, &cfg), 0);
	return fmt;
}

static u64 rng_state = 0x2545f4914f6cdd1dULL;

static u64 rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* ---- the shared self-test vectors -------------------------------------- */

static void test_selftest_atime(void **state)
{
	(void)state;
	st_run(tp_st_atime, "tp_st_atime");
}

static void test_selftest_atime_init_table(void **state)
{
	(void)state;
	st_run(tp_st_atime_init_table, "atime init table");
}

static void test_selftest_atime_examples(void **state)
{
	(void)state;
	st_run(tp_st_atime_examples, "atime worked examples");
}

/* ---- init --------------------------------------------------------------- */

static void test_init_rejects_untouched(void **state)
{
#define CFG(b, s)	{ sizeof(struct tp_atime_cfg), (b), (s) }
	static const struct tp_atime_cfg bad[] = {
		CFG(33, 0), CFG(64, 0), CFG(0xffffffffU, 0), CFG(32, 33),
		CFG(1, 64), CFG(0, 44), CFG(0, 64), CFG(21, 44),
		CFG(1, 0xffffffffU),
		/* good fields, bad sizes */
		{ 0, 21, 0 }, { sizeof(struct tp_atime_cfg) - 1, 21, 0 },
		{ 4097, 21, 0 },
	};
#undef CFG
	static const u8 pattern[] = { 0x00, 0x5a, 0xff };
	struct tp_atime fmt, copy;
	struct tp_atime_cfg ok = { sizeof(ok), 21, 0 };
	size_t i, j;

	(void)state;
	for (j = 0; j < sizeof(pattern); j++) {
		memset(&fmt, pattern[j], sizeof(fmt));
		memcpy(&copy, &fmt, sizeof(fmt));
		assert_int_equal(tp_atime_init(&fmt, NULL), -EINVAL);
		assert_memory_equal(&fmt, &copy, sizeof(fmt));
		assert_int_equal(tp_atime_init(NULL, &ok), -EINVAL);
		for (i = 0; i < TP_ST_ARRAY_SIZE(bad); i++) {
			assert_int_equal(tp_atime_init(&fmt, &bad[i]),
					 -EINVAL);
			assert_memory_equal(&fmt, &copy, sizeof(fmt));
		}
	}
}

/* bits 0..40 x shift 0..70: accepted iff 1 <= bits <= 32, bits+shift <= 64 */
static void test_init_exhaustive(void **state)
{
	struct tp_atime_cfg cfg;
	struct tp_atime fmt;
	u32 bits, shift, b;
	bool ok;

	(void)state;
	for (bits = 0; bits <= 40; bits++) {
		for (shift = 0; shift <= 70; shift++) {
			cfg = (struct tp_atime_cfg){ sizeof(cfg), bits, shift };
			b = bits ? bits : 21;
			ok = b <= 32 && b + shift <= 64;
			assert_int_equal(tp_atime_init(&fmt, &cfg),
					 ok ? 0 : -EINVAL);
			if (!ok)
				continue;
			assert_int_equal(fmt.shift, shift);
			assert_true(fmt.mask == (u32)((1ULL << b) - 1));
		}
	}
}

static void test_init_default_bits(void **state)
{
	struct tp_atime fmt = fmt_of(0, 0);

	(void)state;
	assert_int_equal(fmt.mask, (1U << TP_ATIME_DEFAULT_BITS) - 1);
	assert_int_equal(TP_ATIME_DEFAULT_BITS, 21);
	assert_true(tp_atime_span(&fmt) == T21);
	assert_int_equal(tp_atime_encode(&fmt, T21 + 5), 5);
	assert_int_equal(tp_atime_encode(&fmt, T21 - 1), T21 - 1);
}

/* ---- worked examples ----------------------------------------------------- */

/* Linux 6.1: 21-bit stamps of jiffies_to_msecs(jiffies). */
static void test_linux61_21bit_ms(void **state)
{
	struct tp_atime fmt = fmt_of(21, 0);

	(void)state;
	assert_int_equal(tp_atime_encode(&fmt, 123456), 123456);
	assert_true(tp_atime_latency(&fmt, 123456, 124456) == 1000);
	/* below the 1000 ms hot threshold */
	assert_true(tp_atime_latency(&fmt, 123456, 124455) == 999);
	/* the stamp wraps every 2^21 ms (about 35 minutes) */
	assert_int_equal(tp_atime_encode(&fmt, 3 * T21 + 17), 17);
	assert_true(tp_atime_latency(&fmt, tp_atime_encode(&fmt, T21 - 7),
				     T21 + 3) == 10);
	/* the 32-bit ms clock wraps at 2^32 (49.7 days) */
	assert_true(tp_atime_latency(&fmt, tp_atime_encode(&fmt, T32 - 300),
				     T32 + 700) == 1000);
	/* ...and a u64 clock at 2^64 */
	assert_true(tp_atime_latency(&fmt, tp_atime_encode(&fmt, ~0ULL - 299),
				     700) == 1000);
}

/* A nanosecond clock with shift 20: buckets of 1048576 ns. */
static void test_ns_shift20(void **state)
{
	struct tp_atime fmt = fmt_of(21, 20);
	u64 then = 1000000000ULL;		/* 1 s */
	u32 stamp = tp_atime_encode(&fmt, then);

	(void)state;
	assert_int_equal(stamp, 953);		/* 1e9 >> 20 */
	/* 1 ms later: 1e9 + 1e6 >> 20 is still bucket 954 */
	assert_true(tp_atime_latency(&fmt, stamp, then + 1000000) == T20);
	/* 100 ms later: bucket 1049, 96 buckets */
	assert_true(tp_atime_latency(&fmt, stamp, then + 100000000) ==
		    96 * T20);
	/* same bucket */
	assert_true(tp_atime_latency(&fmt, stamp, 953 * T20) == 0);
	assert_true(tp_atime_latency(&fmt, stamp, 954 * T20 - 1) == 0);
	assert_true(tp_atime_latency(&fmt, stamp, 954 * T20) == T20);
	/* span 2^41 ns (36.6 minutes) */
	assert_true(tp_atime_span(&fmt) == (1ULL << 41));
}

static void test_bits32(void **state)
{
	struct tp_atime fmt = fmt_of(32, 0);

	(void)state;
	assert_true(tp_atime_span(&fmt) == T32);
	assert_true(tp_atime_encode(&fmt, T32 + 10) == 10);
	assert_true(tp_atime_encode(&fmt, T32 - 1) == 0xffffffffU);
	assert_true(tp_atime_latency(&fmt, 0xfffffffbU, T32 + 5) == 10);
	assert_true(tp_atime_latency(&fmt, 10, T32 + 30) == 20);
	assert_true(tp_atime_latency(&fmt, 0, T32 - 1) == T32 - 1);

	fmt = fmt_of(32, 32);
	assert_true(tp_atime_span(&fmt) == ~0ULL);
	assert_true(tp_atime_encode(&fmt, 0xabcdef0123456789ULL) ==
		    0xabcdef01U);
	assert_true(tp_atime_latency(&fmt, 0xabcdef01U,
				     0xabcdef0523456789ULL) == 4 * T32);
}

static void test_bits1(void **state)
{
	struct tp_atime fmt = fmt_of(1, 0);
	u64 t;

	(void)state;
	assert_true(tp_atime_span(&fmt) == 2);
	for (t = 0; t < 8; t++)
		assert_int_equal(tp_atime_encode(&fmt, t), t & 1);
	assert_true(tp_atime_latency(&fmt, 1, 4) == 1);
	assert_true(tp_atime_latency(&fmt, 1, 5) == 0);
	assert_true(tp_atime_latency(&fmt, 0, 5) == 1);

	fmt = fmt_of(1, 63);
	assert_true(tp_atime_span(&fmt) == ~0ULL);
	assert_int_equal(tp_atime_encode(&fmt, 1ULL << 63), 1);
	assert_int_equal(tp_atime_encode(&fmt, (1ULL << 63) - 1), 0);
	assert_true(tp_atime_latency(&fmt, 0, 1ULL << 63) == 1ULL << 63);
	assert_true(tp_atime_latency(&fmt, 1, 1ULL << 63) == 0);
}

/*
 * A stamp older than the span aliases: the latency is taken modulo the span,
 * so a page untouched for 35 minutes plus 10 ms looks 10 ms old. That is the
 * kernel's behaviour (documented in tierpol/atime.h) and kept.
 */
static void test_aliasing_older_than_span(void **state)
{
	static const struct { u32 bits, shift; } f[] = {
		{ 21, 0 }, { 21, 20 }, { 12, 0 }, { 8, 4 }, { 32, 0 },
	};
	struct tp_atime fmt;
	u64 span, then, d;
	u32 stamp;
	size_t i, k;

	(void)state;
	for (i = 0; i < TP_ST_ARRAY_SIZE(f); i++) {
		fmt = fmt_of(f[i].bits, f[i].shift);
		span = tp_atime_span(&fmt);
		assert_true(span == 1ULL << (f[i].bits + f[i].shift));
		then = 12345ULL << f[i].shift;
		stamp = tp_atime_encode(&fmt, then);
		d = 10ULL << f[i].shift;
		for (k = 0; k < 4; k++)
			assert_true(tp_atime_latency(&fmt, stamp,
						     then + k * span + d) ==
				    d);
		/* one bucket short of the span is the largest answer */
		assert_true(tp_atime_latency(&fmt, stamp,
					     then + span - (1ULL << f[i].shift)) ==
			    span - (1ULL << f[i].shift));
		/* and a "now" before the stamp wraps to a large latency */
		assert_true(tp_atime_latency(&fmt, stamp, then - d) ==
			    span - d);
	}
}

/*
 * Property check against an independent derivation: the latency is the
 * difference of the bucket numbers modulo 2^bits, in ticks; within the span
 * it is within one bucket of the true delay, and never above it.
 */
static void test_latency_properties_random(void **state)
{
	struct tp_atime fmt;
	u64 then, now, delay, lat, span, want, bucket;
	u32 bits, shift;
	int i;

	(void)state;
	for (i = 0; i < 200000; i++) {
		bits = 1 + rnd() % 32;
		shift = rnd() % (65 - bits);
		fmt = fmt_of(bits, shift);
		span = tp_atime_span(&fmt);
		bucket = 1ULL << shift;
		then = rnd();
		delay = rnd() >> (rnd() % 64);
		now = then + delay;
		lat = tp_atime_latency(&fmt, tp_atime_encode(&fmt, then), now);
		want = (((now >> shift) - (then >> shift)) &
			((1ULL << bits) - 1)) << shift;
		assert_true(lat == want);
		assert_true((lat & (bucket - 1)) == 0);
		if (span != ~0ULL)
			assert_true(lat < span);
		if (delay < span - bucket) {
			/* |lat - delay| < bucket, without overflow */
			if (lat <= delay)
				assert_true(delay - lat < bucket);
			else
				assert_true(lat - delay < bucket);
		}
	}
}

static void test_span_helper(void **state)
{
	static const struct { u32 bits, shift; u64 span; } rows[] = {
		{ 21, 0, 1ULL << 21 },	{ 21, 20, 1ULL << 41 },
		{ 1, 0, 2 },		{ 1, 62, 1ULL << 63 },
		{ 1, 63, ~0ULL },	{ 32, 0, 1ULL << 32 },
		{ 32, 31, 1ULL << 63 },	{ 32, 32, ~0ULL },
		{ 0, 43, ~0ULL },	{ 12, 0, 4096 },
	};
	struct tp_atime fmt;
	size_t i;

	(void)state;
	for (i = 0; i < TP_ST_ARRAY_SIZE(rows); i++) {
		fmt = fmt_of(rows[i].bits, rows[i].shift);
		assert_true(tp_atime_span(&fmt) == rows[i].span);
	}
}

/* ---- xchg and fault ------------------------------------------------------ */

static void test_xchg_returns_previous(void **state)
{
	struct tp_atime fmt = fmt_of(21, 0);
	u32 word = 0xcafef00dU;

	(void)state;
	assert_true(tp_atime_xchg(&fmt, &word, 1000) == 0xcafef00dU);
	assert_int_equal(word, 1000);
	assert_int_equal(tp_atime_xchg(&fmt, &word, 2000), 1000);
	assert_int_equal(word, 2000);
	assert_int_equal(tp_atime_xchg(&fmt, &word, T21 + 1), 2000);
	assert_int_equal(word, 1);		/* stored masked */
	assert_int_equal(tp_atime_xchg(&fmt, &word, T21 + 1), 1);

	fmt = fmt_of(8, 4);
	assert_int_equal(tp_atime_xchg(&fmt, &word, 0x1234), 1);
	assert_int_equal(word, 0x23);
}

static void test_fault_is_xchg_plus_latency(void **state)
{
	struct tp_atime fmt;
	u32 a, b, orig;
	u64 now, lat;
	int i;

	(void)state;
	for (i = 0; i < 100000; i++) {
		fmt = fmt_of(1 + rnd() % 32, rnd() % 33);
		orig = (u32)rnd();
		a = orig;
		b = orig;
		now = rnd();
		lat = tp_atime_fault(&fmt, &a, now);
		assert_int_equal(tp_atime_xchg(&fmt, &b, now), orig);
		assert_int_equal(a, b);
		assert_int_equal(a, tp_atime_encode(&fmt, now));
		assert_true(lat == tp_atime_latency(&fmt, orig, now));
	}
	/* the kernel's flow: scanner stamps, fault 700 ms later reads 700 */
	fmt = fmt_of(21, 0);
	a = 0;
	tp_atime_xchg(&fmt, &a, 50000);
	assert_true(tp_atime_fault(&fmt, &a, 50700) == 700);
	assert_true(tp_atime_fault(&fmt, &a, 50750) == 50);
}

/*
 * Two threads exchange the same word. Thread t stores the stamps
 * 2 * i + t (i = 1..N, 32-bit stamps, shift 0): every value is written once.
 * With an atomic exchange, the values returned by both threads plus the
 * final word are exactly the initial value and every written value, each
 * once: a lost or torn exchange would duplicate one and lose another. The
 * threads yield now and then so that they interleave even on one CPU. At
 * least 3 rounds run, more (up to 10) while they hardly interleaved.
 */
#define XCHG_N		200000U
#define XCHG_ROUNDS	10

struct xchg_arg {
	pthread_t tid;
	const struct tp_atime *fmt;
	u32 *word;
	u32 t;
	u32 *got;
	int *go;
};

static void *xchg_fn(void *p)
{
	struct xchg_arg *a = p;
	u32 i;

	while (!__atomic_load_n(a->go, __ATOMIC_ACQUIRE))
		;
	for (i = 1; i <= XCHG_N; i++) {
		a->got[i - 1] = tp_atime_xchg(a->fmt, a->word,
					      2ULL * i + a->t);
		if (!(i & 1023))
			sched_yield();
	}
	return NULL;
}

/* Checks one round; returns how often a thread got the other's stamp. */
static u32 xchg_verify(struct xchg_arg *arg, u32 word, u8 *seen)
{
	u32 v, t, i, last, interleaved = 0;

	memset(seen, 0, 2 * XCHG_N + 2);
	/* values: 1 (initial), 2..2N+1 (written); each seen exactly once */
	for (t = 0; t < 2; t++) {
		for (i = 0; i < XCHG_N; i++) {
			v = arg[t].got[i];
			assert_true(v >= 1 && v <= 2 * XCHG_N + 1);
			if (seen[v])
				fail_msg("stamp %u returned twice", v);
			seen[v] = 1;
			if (v != 1 && (v & 1) != t)
				interleaved++;
		}
	}
	assert_int_equal(seen[word], 0);
	seen[word] = 1;
	for (v = 1; v <= 2 * XCHG_N + 1; v++)
		if (!seen[v])
			fail_msg("stamp %u lost", v);
	/* one exchange chain: each thread gets the other's in order */
	for (t = 0; t < 2; t++) {
		for (i = 0, last = 0; i < XCHG_N; i++) {
			v = arg[t].got[i];
			if (v == 1 || (v & 1) == t)
				continue;
			if (v < last)
				fail_msg("thread %u got %u after %u", t, v,
					 last);
			last = v;
		}
	}
	return interleaved;
}

static void test_concurrent_xchg_two_threads(void **state)
{
	struct tp_atime fmt = fmt_of(32, 0);
	struct xchg_arg arg[2];
	u32 word, t, interleaved = 0;
	int go, round;
	u8 *seen;

	(void)state;
	seen = malloc(2 * XCHG_N + 2);
	assert_non_null(seen);
	for (t = 0; t < 2; t++) {
		arg[t].got = calloc(XCHG_N, sizeof(u32));
		assert_non_null(arg[t].got);
	}
	for (round = 0; round < XCHG_ROUNDS &&
	     (round < 3 || interleaved < 1000); round++) {
		word = 1;	/* 2 * i + t > 1: nobody writes 1 */
		go = 0;
		for (t = 0; t < 2; t++) {
			arg[t].fmt = &fmt;
			arg[t].word = &word;
			arg[t].t = t;
			arg[t].go = &go;
			assert_int_equal(pthread_create(&arg[t].tid, NULL,
							xchg_fn, &arg[t]), 0);
		}
		__atomic_store_n(&go, 1, __ATOMIC_RELEASE);
		for (t = 0; t < 2; t++)
			assert_int_equal(pthread_join(arg[t].tid, NULL), 0);
		interleaved = xchg_verify(arg, word, seen);
		print_message("round %d: 2 x %u exchanges, %u got the other thread's stamp\n",
			      round, XCHG_N, interleaved);
	}
	free(arg[0].got);
	free(arg[1].got);
	free(seen);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_selftest_atime),
		cmocka_unit_test(test_selftest_atime_init_table),
		cmocka_unit_test(test_selftest_atime_examples),
		cmocka_unit_test(test_init_rejects_untouched),
		cmocka_unit_test(test_init_exhaustive),
		cmocka_unit_test(test_init_default_bits),
		cmocka_unit_test(test_linux61_21bit_ms),
		cmocka_unit_test(test_ns_shift20),
		cmocka_unit_test(test_bits32),
		cmocka_unit_test(test_bits1),
		cmocka_unit_test(test_aliasing_older_than_span),
		cmocka_unit_test(test_latency_properties_random),
		cmocka_unit_test(test_span_helper),
		cmocka_unit_test(test_xchg_returns_previous),
		cmocka_unit_test(test_fault_is_xchg_plus_latency),
		cmocka_unit_test(test_concurrent_xchg_two_threads),
	};

	return cmocka_run_group_tests_name("atime", tests, NULL, NULL);
}
