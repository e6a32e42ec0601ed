/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Self-test vectors of the token bucket: the refill (exact where the rate
 * divides the units of a second, rounded against the caller elsewhere, as
 * limiter.h states), requests above the burst and up to n_max, rate 0 and
 * THPs, the clock's 2^32 and 2^64 wraps, idle gaps, stale states and
 * out-of-order callers, and the extreme rate. Uses the helpers of
 * limiter.h; tp_st_limiter() runs tp_st_limiter_bucket(). Public API only,
 * no libc, no 64-bit division, small stack frames.
 */
#ifndef TP_SELFTEST_LIMITER_BUCKET_H
#define TP_SELFTEST_LIMITER_BUCKET_H

#include "limiter.h"

/* Is @a == floor(@num / @den)? Without a division. */
static bool tp_st_lim_is_floor(u64 a, u64 num, u64 den)
{
	return a * den <= num && num - a * den < den;
}

/*
 * Is @a, the pages a drained bucket refilled over ticks worth @num / @den
 * pages, at most that (the cost is rounded up) and short of it by less than
 * one page plus 2^-16 of it? Without a division; @num < 2^63.
 */
static bool tp_st_lim_is_near(u64 a, u64 num, u64 den)
{
	return a * den <= num && (a + 1) * den + (num >> 16) > num;
}

/* ---- token bucket: capacity and refill ----------------------------------- */

struct tp_st_lim_refill {
	const char *name;
	u32 tps;
	u64 rate;
	u64 burst;	/* 0: rate */
	u64 full;	/* pages when full */
	u64 dt;		/* idle ticks after draining */
	u64 refill;	/* pages refilled in @dt */
};

static const struct tp_st_lim_refill tp_st_lim_refill_rows[] = {
	{ "1/s: 999 ms refills 0", 1000, 1, 0, 1, 999, 0 },
	{ "1/s: 1000 ms refills 1", 1000, 1, 0, 1, 1000, 1 },
	/* 3 does not divide 1000 x 2^39: a page costs 2/3 unit more */
	{ "3/s: 333 ms refills 0", 1000, 3, 0, 3, 333, 0 },
	{ "3/s: 334 ms refills 1", 1000, 3, 0, 3, 334, 1 },
	{ "3/s: 666 ms refills 1", 1000, 3, 0, 3, 666, 1 },
	{ "3/s: 667 ms refills 2", 1000, 3, 0, 3, 667, 2 },
	{ "3/s: 1000 ms refills 2 (cost rounded up)", 1000, 3, 0, 3, 1000,
	  2 },
	{ "3/s: 1001 ms refills 3", 1000, 3, 0, 3, 1001, 3 },
	{ "3/s: capped at burst 3", 1000, 3, 0, 3, 5000, 3 },
	{ "3/s burst 10: 3 s refills 8 (rounded up)", 1000, 3, 10, 10, 3000,
	  8 },
	{ "3/s burst 10: 3001 ms refills 9", 1000, 3, 10, 10, 3001, 9 },
	{ "100/s: 10 ms refills 1", 1000, 100, 0, 100, 10, 1 },
	{ "2^24/s HZ=250: 1 jiffy", 250, 1ULL << 24, 0, 1ULL << 24, 1, 67108 },
	{ "2^24/s HZ=250: 1 s", 250, 1ULL << 24, 0, 1ULL << 24, 250,
	  1ULL << 24 },
	{ "2^24/s ns: 1 ns refills 0", 1000000000, 1ULL << 24, 0, 1ULL << 24,
	  1, 0 },
	{ "2^24/s ns: 1 us refills 16", 1000000000, 1ULL << 24, 0,
	  1ULL << 24, 1000, 16 },
	{ "2^24/s ns: 1 ms refills 16777", 1000000000, 1ULL << 24, 0,
	  1ULL << 24, 1000000, 16777 },
	{ "2^32/s ns: 1 ns refills 4", 1000000000, TP_RATE_MAX, 0,
	  TP_RATE_MAX, 1, 4 },
	/* cost ceil(1e9 x 2^19 / 2^32) = 122071: 5.6e-6 short of the rate */
	{ "2^32/s ns: 1 s refills 2^32 - 24190 (rounded up)", 1000000000,
	  TP_RATE_MAX, 0, TP_RATE_MAX, 1000000000, TP_RATE_MAX - 24190 },
	{ "3/s, tps 2^30: just under 1/3 s", TP_TPS_MAX, 3, 0, 3, 357913941,
	  0 },
	{ "3/s, tps 2^30: just over 1/3 s", TP_TPS_MAX, 3, 0, 3, 357913942,
	  1 },
	{ "burst 1 at 2^24/s", 1000, 1ULL << 24, 1, 1, 1000, 1 },
};

static void tp_st_lim_check_refill(struct tp_st *st)
{
	const struct tp_st_lim_refill *r;
	struct tp_limiter *l = &tp_st_lim_obj;
	struct tp_limiter_cfg c;
	unsigned int i;
	u64 t0 = 1000003;
	bool ok;

	for (i = 0; i < TP_ST_ARRAY_SIZE(tp_st_lim_refill_rows); i++) {
		r = &tp_st_lim_refill_rows[i];
		tp_st_lim_cfg(&c, TP_LIMITER_BUCKET, r->tps, r->rate, r->burst);
		ok = !tp_limiter_init(l, &c, t0);
		/* starts full */
		ok = ok && tp_limiter_available(l, t0) == r->full;
		ok = ok && tp_limiter_consume(l, NULL, r->full, t0);
		ok = ok && !tp_limiter_consume(l, NULL, 1, t0);
		ok = ok && tp_limiter_available(l, t0) == 0;
		/* the refill, seen by both calls */
		ok = ok && tp_limiter_available(l, t0 + r->dt) == r->refill;
		if (r->refill < r->full)	/* not full: no more */
			ok = ok && !tp_limiter_consume(l, NULL, r->refill + 1,
						       t0 + r->dt);
		ok = ok && tp_st_lim_drain(l, r->full, t0 + r->dt) == r->refill;
		TP_ST_CHECK(st, ok, r->name);
	}
}

/* ---- token bucket: request sizes, rate 0 --------------------------------- */

static void tp_st_lim_check_sizes(struct tp_st *st)
{
	struct tp_limiter *l = &tp_st_lim_obj;
	struct tp_limiter_cfg c;
	u64 t, got;
	bool ok;

	/* 1000/s at ms: a page a tick; n_max = 2^61 / 2^39 = 2^22 */
	tp_st_lim_cfg(&c, TP_LIMITER_BUCKET, 1000, 1000, 10);
	ok = !tp_limiter_init(l, &c, 0);
	ok = ok && tp_limiter_consume(l, NULL, 11, 0);
	ok = ok && !tp_limiter_consume(l, NULL, 1, 0);
	/* owes 11 pages: 1 tick later it holds none, 2 ticks later one */
	ok = ok && tp_limiter_available(l, 1) == 0;
	ok = ok && !tp_limiter_consume(l, NULL, 1, 1);
	ok = ok && tp_limiter_available(l, 2) == 1;
	ok = ok && tp_limiter_consume(l, NULL, 1, 2);
	ok = ok && !tp_limiter_consume(l, NULL, 1, 2);
	TP_ST_CHECK(st, ok, "a full bucket admits n > burst, then owes it");

	/* full again at 12: up to n_max, and no more */
	ok = !tp_limiter_consume(l, NULL, 11, 11);
	ok = ok && tp_limiter_consume(l, NULL, 1ULL << 22, 12);
	t = 12 + (1ULL << 22);
	ok = ok && !tp_limiter_consume(l, NULL, 1, t - 10);
	ok = ok && !tp_limiter_consume(l, NULL, (1ULL << 22) + 1, t);
	ok = ok && !tp_limiter_consume(l, NULL, ~0ULL, t);
	ok = ok && !tp_limiter_consume(l, NULL, TP_RATE_MAX + 1, t);
	ok = ok && tp_limiter_consume(l, NULL, 1ULL << 22, t);
	TP_ST_CHECK(st, ok, "a full bucket admits up to n_max = 2^22");

	/* n == 0 is admitted, empty bucket or not */
	ok = tp_limiter_consume(l, NULL, 0, t);
	ok = ok && !tp_limiter_consume(l, NULL, 1, t);
	ok = ok && tp_limiter_consume(l, NULL, 0, t);
	tp_st_lim_cfg(&c, TP_LIMITER_BUCKET, 1000, 0, 0);
	ok = ok && !tp_limiter_init(l, &c, 0);
	ok = ok && tp_limiter_consume(l, NULL, 0, 5);
	TP_ST_CHECK(st, ok, "n == 0 is admitted");

	/* 1/s at tps 2^30: a page costs 2^48 units, 2^16 pages 2^64 */
	tp_st_lim_cfg(&c, TP_LIMITER_BUCKET, TP_TPS_MAX, 1, 0);
	ok = !tp_limiter_init(l, &c, 0);
	ok = ok && !tp_limiter_consume(l, NULL, 1ULL << 16, 1ULL << 62);
	ok = ok && !tp_limiter_consume(l, NULL, 3ULL << 15, 1ULL << 62);
	ok = ok && !tp_limiter_consume(l, NULL, (1ULL << 13) + 1, 1ULL << 62);
	ok = ok && tp_limiter_consume(l, NULL, 1ULL << 13, 1ULL << 62);
	ok = ok && !tp_limiter_consume(l, NULL, 1, (1ULL << 62) + TP_TPS_MAX);
	TP_ST_CHECK(st, ok, "n * cost wrapping 2^64 is refused");

	/* rate 0 refuses every page, with or without a burst */
	tp_st_lim_cfg(&c, TP_LIMITER_BUCKET, 1000, 0, 100);
	ok = !tp_limiter_init(l, &c, 0);
	for (t = 0; t < (1ULL << 50); t = t * 3 + 1)
		ok = ok && !tp_limiter_consume(l, NULL, 1, t);
	ok = ok && tp_limiter_available(l, 1ULL << 50) == 0;
	TP_ST_CHECK(st, ok, "bucket rate 0 refuses all");

	/* a THP of 512 pages at 512 pages/s: a page is 1000/512 ticks */
	tp_st_lim_cfg(&c, TP_LIMITER_BUCKET, 1000, 512, 511);
	ok = !tp_limiter_init(l, &c, 0);
	ok = ok && tp_limiter_consume(l, NULL, 512, 0);
	ok = ok && !tp_limiter_consume(l, NULL, 512, 999);
	ok = ok && !tp_limiter_consume(l, NULL, 1, 3);
	ok = ok && tp_limiter_consume(l, NULL, 1, 4);
	ok = ok && !tp_limiter_consume(l, NULL, 512, 1001);
	ok = ok && tp_limiter_consume(l, NULL, 512, 1002);
	TP_ST_CHECK(st, ok, "THP 512 against burst 511: when full");
	tp_st_lim_cfg(&c, TP_LIMITER_BUCKET, 1000, 512, 512);
	ok = !tp_limiter_init(l, &c, 0);
	ok = ok && tp_limiter_consume(l, NULL, 512, 0);
	ok = ok && !tp_limiter_consume(l, NULL, 512, 999);
	ok = ok && tp_limiter_consume(l, NULL, 512, 1000);
	ok = ok && !tp_limiter_consume(l, NULL, 1, 1000);
	TP_ST_CHECK(st, ok, "THP 512 against burst 512: once per second");

	/* THPs at 256 pages/s (1 MB/s of 4 KiB pages) over 60 s */
	tp_st_lim_cfg(&c, TP_LIMITER_BUCKET, 1000, 256, 0);
	ok = !tp_limiter_init(l, &c, 0);
	got = 0;
	for (t = 0; t <= 60000; t += 10)
		if (tp_limiter_consume(l, NULL, 512, t))
			got += 512;
	/* one every 2 s: the bound max(burst, n) + rate x T exactly */
	ok = ok && got == 31 * 512 && got == 512 + 256 * 60;
	TP_ST_CHECK(st, ok, "THP at 256 pages/s: 15872 pages in 60 s");
}

/* ---- token bucket: time wrap --------------------------------------------- */

struct tp_st_lim_wrap {
	const char *name;
	u32 tps;
	u64 rate;
	u64 start;
	u64 gap;
	u32 steps;
	bool exact;	/* the rate divides the units of a second */
};

static const struct tp_st_lim_wrap tp_st_lim_wrap_rows[] = {
	{ "ms clock across 2^32", 1000, 1ULL << 24, (1ULL << 32) - 1000, 7,
	  300, true },
	{ "ms clock across 2^64", 1000, 1ULL << 24, ~0ULL - 1000, 7, 300,
	  true },
	{ "ms clock, now << 39 wraps 2^64", 1000, 1ULL << 24,
	  (1ULL << 25) - 1000, 7, 300, true },
	{ "HZ=250, now << 41 wraps 2^64", 250, 1ULL << 24, (1ULL << 23) - 100,
	  1, 300, true },
	{ "ns clock, now << 19 wraps 2^64", 1000000000, 1ULL << 24,
	  (1ULL << 45) - 1000000, 12345, 300, true },
	{ "2^32/s at an odd tps (rounded up)", 999999999, TP_RATE_MAX,
	  (1ULL << 32) - 150, 1, 300, false },
	{ "3/s ms clock across 2^64 (rounded up)", 1000, 3, ~0ULL - 5000, 97,
	  300, false },
};

static void tp_st_lim_check_wrap(struct tp_st *st)
{
	const struct tp_st_lim_wrap *r;
	struct tp_limiter *l = &tp_st_lim_obj;
	struct tp_limiter_cfg c;
	unsigned int i;
	u64 sum, now, el;
	u32 k;
	bool ok;

	for (i = 0; i < TP_ST_ARRAY_SIZE(tp_st_lim_wrap_rows); i++) {
		r = &tp_st_lim_wrap_rows[i];
		tp_st_lim_cfg(&c, TP_LIMITER_BUCKET, r->tps, r->rate, 0);
		ok = !tp_limiter_init(l, &c, r->start);
		ok = ok && tp_st_lim_drain(l, r->rate, r->start) == r->rate;
		sum = 0;
		for (k = 1; ok && k <= r->steps; k++) {
			now = r->start + k * r->gap;
			el = k * r->gap * r->rate;
			sum += tp_st_lim_drain(l, r->rate, now);
			ok = r->exact ? tp_st_lim_is_floor(sum, el, r->tps) :
					tp_st_lim_is_near(sum, el, r->tps);
		}
		TP_ST_CHECK(st, ok, r->name);
	}
}

/* ---- token bucket: idle gaps, stale states, out-of-order callers --------- */

struct tp_st_lim_stale {
	const char *name;
	u64 back;	/* the second call is this many ticks earlier */
	u64 gap;	/* or this many ticks later */
	u64 want;	/* pages it gets */
};

/*
 * 2^24/s on a ms clock: 2^39 units a tick; the TAT is stale after 2^61
 * units (2^22 ticks), and now << 39 comes back to the same value every
 * 2^25 ticks: those gaps would read as debt without the staleness check.
 */
static const struct tp_st_lim_stale tp_st_lim_stale_rows[] = {
	{ "same tick: empty", 0, 0, 0 },
	{ "1 tick back: not stale, empty", 1, 0, 0 },
	{ "999 ticks back: not stale, empty", 999, 0, 0 },
	{ "idle 999 ms: not full", 0, 999, 16760438 },
	{ "idle 1 s: full", 0, 1000, 1ULL << 24 },
	{ "idle 2^22 - 1 ticks (fresh): full", 0, (1ULL << 22) - 1,
	  1ULL << 24 },
	{ "idle 2^22 + 1 ticks (stale): full", 0, (1ULL << 22) + 1,
	  1ULL << 24 },
	{ "idle 2^25 ticks (units alias the TAT's): full", 0, 1ULL << 25,
	  1ULL << 24 },
	{ "idle 2^25 - 500 ticks (aliased 0.5 s back): full", 0,
	  (1ULL << 25) - 500, 1ULL << 24 },
	{ "idle 2^25 + 500 ticks: full", 0, (1ULL << 25) + 500, 1ULL << 24 },
	{ "idle 2^40 + 3 ticks: full", 0, (1ULL << 40) + 3, 1ULL << 24 },
	{ "idle 2^62 ticks: full", 0, 1ULL << 62, 1ULL << 24 },
	{ "idle 2^63 - 1 ticks: full", 0, (1ULL << 63) - 1, 1ULL << 24 },
};

static void tp_st_lim_check_stale(struct tp_st *st)
{
	const struct tp_st_lim_stale *r;
	struct tp_limiter *l = &tp_st_lim_obj;
	struct tp_limiter_cfg c;
	unsigned int i;
	u64 t0 = 123456789, t;
	bool ok;

	for (i = 0; i < TP_ST_ARRAY_SIZE(tp_st_lim_stale_rows); i++) {
		r = &tp_st_lim_stale_rows[i];
		tp_st_lim_cfg(&c, TP_LIMITER_BUCKET, 1000, 1ULL << 24, 0);
		ok = !tp_limiter_init(l, &c, t0);
		ok = ok && tp_st_lim_drain(l, 1ULL << 24, t0) == 1ULL << 24;
		t = t0 - r->back + r->gap;
		ok = ok && tp_limiter_available(l, t) == r->want;
		ok = ok && tp_st_lim_drain(l, 1ULL << 24, t) == r->want;
		/* an out-of-order caller did not refill anything */
		if (r->back)
			ok = ok && tp_st_lim_drain(l, 1ULL << 24, t0) == 0;
		TP_ST_CHECK(st, ok, r->name);
	}
}

/*
 * The extremes: rate and burst TP_RATE_MAX at an odd tps just under
 * TP_TPS_MAX: 2^19 units a tick, a page 2^17 units (U = 2^49 - 2^19
 * rounded up), so 4 pages a tick and 2^32 - 4 a second. A caller almost a
 * second behind a drained bucket sees a debt of almost 2^50 units.
 */
static void tp_st_lim_check_extreme(struct tp_st *st)
{
	struct tp_limiter *l = &tp_st_lim_obj;
	struct tp_limiter_cfg c;
	u32 tps = TP_TPS_MAX - 1;
	u64 t0 = 5ULL << 40;
	bool ok;

	tp_st_lim_cfg(&c, TP_LIMITER_BUCKET, tps, TP_RATE_MAX, TP_RATE_MAX);
	ok = !tp_limiter_init(l, &c, t0);
	ok = ok && tp_limiter_consume(l, NULL, TP_RATE_MAX, t0);
	ok = ok && !tp_limiter_consume(l, NULL, 1, t0);
	ok = ok && !tp_limiter_consume(l, NULL, 13, t0 - (tps - 1));
	ok = ok && !tp_limiter_consume(l, NULL, 1ULL << 20, t0 - (tps - 1));
	ok = ok && tp_st_lim_drain(l, TP_RATE_MAX, t0 - (tps - 1)) == 0;
	ok = ok && tp_st_lim_drain(l, TP_RATE_MAX, t0 + 1) == 4;
	ok = ok && tp_st_lim_drain(l, TP_RATE_MAX, t0 + tps) ==
		   TP_RATE_MAX - 8;
	TP_ST_CHECK(st, ok, "extreme rate: a late caller sees the debt");
}

/**
 * tp_st_limiter_bucket() - run the token bucket's vectors
 * @st: the run
 *
 * Return: the number of failed cases this call added.
 */
static int tp_st_limiter_bucket(struct tp_st *st)
{
	unsigned int failed = st->failed;

	tp_st_lim_check_refill(st);
	tp_st_lim_check_sizes(st);
	tp_st_lim_check_wrap(st);
	tp_st_lim_check_stale(st);
	tp_st_lim_check_extreme(st);
	return st->failed - failed;
}

#endif /* TP_SELFTEST_LIMITER_BUCKET_H */
