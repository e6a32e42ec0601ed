/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Self-test vectors of the promotion rate limiter (seed 000 patch 2/8,
 * mainline numa_promotion_rate_limit()): the token bucket and both window
 * variants. Shared by the CMocka suite and the kernel self-test module:
 * public API only, no libc, no 64-bit division, small stack frames.
 */
#ifndef _TIERPOL_SELFTEST_LIMITER_H
#define _TIERPOL_SELFTEST_LIMITER_H

#include "selftest.h"

#ifndef EINVAL
#define EINVAL		22
#endif
#ifndef ERANGE
#define ERANGE		34
#endif

#define TP_ST_LIM_NOCFG	0x1U	/* pass a NULL config */
#define TP_ST_LIM_NOOBJ	0x2U	/* pass a NULL limiter */

static struct tp_limiter tp_st_lim_obj, tp_st_lim_copy;

static void tp_st_lim_cfg(struct tp_limiter_cfg *c, u32 variant, u32 tps,
			  u64 rate, u64 burst)
{
	c->variant = variant;
	c->tps = tps;
	c->rate = rate;
	c->burst = burst;
}

static bool tp_st_lim_same(const void *a, const void *b, size_t n)
{
	const u8 *x = a, *y = b;
	size_t i;

	for (i = 0; i < n; i++)
		if (x[i] != y[i])
			return false;
	return true;
}

/*
 * Takes every page the bucket holds at @now, greedily in power-of-two
 * requests (a refused request changes nothing), and returns the count.
 */
static u64 tp_st_lim_drain(struct tp_limiter *l, u64 now)
{
	u64 got = 0;
	int k;

	for (k = 33; k >= 0; k--)
		while (tp_limiter_consume(l, 1ULL << k, now))
			got += 1ULL << k;
	return got;
}

/* Is @a == floor(@num / @den)? Without a division. */
static bool tp_st_lim_is_floor(u64 a, u64 num, u64 den)
{
	return a * den <= num && num - a * den < den;
}

/* ---- configuration checks ------------------------------------------------ */

struct tp_st_lim_bad {
	const char *name;
	u32 how;
	u32 variant;
	u32 tps;
	u64 rate;
	u64 burst;
	int ret;
};

static const struct tp_st_lim_bad tp_st_lim_bad_rows[] = {
	{ "NULL config", TP_ST_LIM_NOCFG, 0, 1000, 10, 0, -EINVAL },
	{ "NULL limiter", TP_ST_LIM_NOOBJ, 0, 1000, 10, 0, -EINVAL },
	{ "variant 3", 0, 3, 1000, 10, 0, -EINVAL },
	{ "variant ~0", 0, ~0U, 1000, 10, 0, -EINVAL },
	{ "tps 0", 0, 0, 0, 10, 0, -EINVAL },
	{ "tps TP_TPS_MAX + 1", 0, 1, TP_TPS_MAX + 1, 10, 0, -EINVAL },
	{ "rate TP_RATE_MAX + 1", 0, 0, 1000, TP_RATE_MAX + 1, 0, -ERANGE },
	{ "window rate TP_RATE_MAX + 1", 0, 2, 1000, TP_RATE_MAX + 1, 0,
	  -ERANGE },
	{ "burst TP_RATE_MAX + 1", 0, 0, 1000, 10, TP_RATE_MAX + 1, -ERANGE },
	{ "window burst ~0", 0, 1, 1000, 10, ~0ULL, -ERANGE },
	/* accepted extremes */
	{ "tps 1", 0, 0, 1, 10, 0, 0 },
	{ "tps TP_TPS_MAX", 0, 0, TP_TPS_MAX, 10, 0, 0 },
	{ "rate and burst TP_RATE_MAX", 0, 0, TP_TPS_MAX - 1, TP_RATE_MAX,
	  TP_RATE_MAX, 0 },
	{ "rate 0", 0, 0, 1000, 0, 0, 0 },
	{ "window mainline", 0, 2, 1000, TP_RATE_MAX, 0, 0 },
};

static void tp_st_lim_check_cfgs(struct tp_st *st)
{
	const struct tp_st_lim_bad *r;
	struct tp_limiter_cfg c;
	struct tp_limiter *l;
	unsigned int i;
	u8 *b;
	size_t j;
	bool ok;
	int ret;

	for (i = 0; i < TP_ST_ARRAY_SIZE(tp_st_lim_bad_rows); i++) {
		r = &tp_st_lim_bad_rows[i];
		tp_st_lim_cfg(&c, r->variant, r->tps, r->rate, r->burst);
		l = (r->how & TP_ST_LIM_NOOBJ) ? NULL : &tp_st_lim_obj;

		b = (u8 *)&tp_st_lim_obj;
		for (j = 0; j < sizeof(tp_st_lim_obj); j++)
			b[j] = 0x5a;
		tp_st_lim_copy = tp_st_lim_obj;
		ret = tp_limiter_init(l, (r->how & TP_ST_LIM_NOCFG) ? NULL :
				      &c, 7);
		ok = ret == r->ret;
		if (r->ret)
			ok = ok && tp_st_lim_same(&tp_st_lim_obj,
						  &tp_st_lim_copy,
						  sizeof(tp_st_lim_obj));
		TP_ST_CHECK(st, ok, r->name);

		/* tune of a limiter with some debt: same answer, no change */
		tp_st_lim_cfg(&c, TP_LIMITER_BUCKET, 1000, 100, 0);
		ok = !tp_limiter_init(&tp_st_lim_obj, &c, 7);
		ok = ok && tp_limiter_consume(&tp_st_lim_obj, 60, 7);
		tp_st_lim_copy = tp_st_lim_obj;
		tp_st_lim_cfg(&c, r->variant, r->tps, r->rate, r->burst);
		ret = tp_limiter_tune(l, (r->how & TP_ST_LIM_NOCFG) ? NULL :
				      &c, 9);
		ok = ok && ret == r->ret;
		if (r->ret)
			ok = ok && tp_st_lim_same(&tp_st_lim_obj,
						  &tp_st_lim_copy,
						  sizeof(tp_st_lim_obj));
		TP_ST_CHECK(st, ok, r->name);
	}
}

/* ---- MB/s to pages ------------------------------------------------------- */

struct tp_st_lim_mbps {
	const char *name;
	u64 mbps;
	u32 shift;
	u64 pages;
};

static const struct tp_st_lim_mbps tp_st_lim_mbps_rows[] = {
	{ "65536 MB/s, 4 KiB", 65536, 12, 1ULL << 24 },
	{ "2^24 MB/s, 4 KiB: 2^32, no 32-bit wrap", 1ULL << 24, 12,
	  1ULL << 32 },
	{ "65536 MB/s, 16 KiB", 65536, 14, 1ULL << 22 },
	{ "65536 MB/s, 64 KiB", 65536, 16, 1ULL << 20 },
	{ "65536 MB/s, 1 MiB", 65536, 20, 65536 },
	{ "65536 MB/s, 2 MiB (shift 21)", 65536, 21, 32768 },
	{ "3 MB/s, 2 MiB pages", 3, 21, 1 },
	{ "1 MB/s, 2 MiB pages", 1, 21, 0 },
	{ "65536 MB/s, 1 GiB pages", 65536, 30, 64 },
	{ "~0 MB/s, shift 63", ~0ULL, 63, ~0ULL >> 43 },
	{ "0 MB/s", 0, 12, 0 },
	{ "1 MB/s, 1-byte pages", 1, 0, 1ULL << 20 },
	{ "largest exact, 4 KiB", (1ULL << 56) - 1, 12, ~0ULL - 255 },
	{ "saturates, 4 KiB", 1ULL << 56, 12, ~0ULL },
	{ "saturates, ~0 MB/s", ~0ULL, 12, ~0ULL },
	{ "largest exact, shift 0", (1ULL << 44) - 1, 0,
	  ~0ULL - ((1ULL << 20) - 1) },
	{ "saturates, shift 0", 1ULL << 44, 0, ~0ULL },
};

static void tp_st_lim_check_mbps(struct tp_st *st)
{
	const struct tp_st_lim_mbps *r;
	unsigned int i;
	u32 kernel;

	for (i = 0; i < TP_ST_ARRAY_SIZE(tp_st_lim_mbps_rows); i++) {
		r = &tp_st_lim_mbps_rows[i];
		TP_ST_CHECK(st, tp_mbps_to_pages(r->mbps, r->shift) == r->pages,
			    r->name);
	}
	/* MB_TO_PAGES() on a 32-bit unsigned int: 2^24 << 8 wraps to 0 */
	kernel = 1U << 24;
	kernel <<= 20 - 12;
	TP_ST_CHECK(st, kernel == 0 &&
		    tp_mbps_to_pages(1U << 24, 12) == (1ULL << 32),
		    "32-bit MB_TO_PAGES wraps, tp_mbps_to_pages does not");
}

/* ---- token bucket: capacity and exact refill ----------------------------- */

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
	{ "3/s: 333 ms refills 0", 1000, 3, 0, 3, 333, 0 },
	{ "3/s: 334 ms refills 1", 1000, 3, 0, 3, 334, 1 },
	{ "3/s: 666 ms refills 1", 1000, 3, 0, 3, 666, 1 },
	{ "3/s: 667 ms refills 2", 1000, 3, 0, 3, 667, 2 },
	{ "3/s: 1000 ms refills 3", 1000, 3, 0, 3, 1000, 3 },
	{ "3/s: capped at burst 3", 1000, 3, 0, 3, 5000, 3 },
	{ "3/s burst 10: 3 s refills 9", 1000, 3, 10, 10, 3000, 9 },
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
	{ "2^32/s ns: 1 s refills 2^32", 1000000000, TP_RATE_MAX, 0,
	  TP_RATE_MAX, 1000000000, TP_RATE_MAX },
	{ "3/s, tps 2^30: just under 1/3 s", TP_TPS_MAX, 3, 0, 3, 357913941,
	  0 },
	{ "3/s, tps 2^30: just over 1/3 s", TP_TPS_MAX, 3, 0, 3, 357913942,
	  1 },
	{ "burst 1 at 2^24/s", 1000, 1ULL << 24, 1, 1, 1000, 1 },
};

static void tp_st_lim_check_refill(struct tp_st *st)
{
	const struct tp_st_lim_refill *r;
	struct tp_limiter_cfg c;
	unsigned int i;
	u64 t0 = 1000003;
	bool ok;

	for (i = 0; i < TP_ST_ARRAY_SIZE(tp_st_lim_refill_rows); i++) {
		r = &tp_st_lim_refill_rows[i];
		tp_st_lim_cfg(&c, TP_LIMITER_BUCKET, r->tps, r->rate, r->burst);
		ok = !tp_limiter_init(&tp_st_lim_obj, &c, t0);
		/* starts full: more than full is refused, full is admitted */
		ok = ok && !tp_limiter_consume(&tp_st_lim_obj, r->full + 1, t0);
		ok = ok && tp_limiter_available(&tp_st_lim_obj, t0) == r->full;
		ok = ok && tp_limiter_consume(&tp_st_lim_obj, r->full, t0);
		ok = ok && !tp_limiter_consume(&tp_st_lim_obj, 1, t0);
		ok = ok && tp_limiter_available(&tp_st_lim_obj, t0) == 0;
		/* exact refill, seen by both calls */
		ok = ok && tp_limiter_available(&tp_st_lim_obj, t0 + r->dt) ==
			   r->refill;
		ok = ok && !tp_limiter_consume(&tp_st_lim_obj, r->refill + 1,
					       t0 + r->dt);
		ok = ok && tp_st_lim_drain(&tp_st_lim_obj, t0 + r->dt) ==
			   r->refill;
		TP_ST_CHECK(st, ok, r->name);
	}
}

/* ---- token bucket: request sizes, rate 0 --------------------------------- */

static void tp_st_lim_check_sizes(struct tp_st *st)
{
	struct tp_limiter *l = &tp_st_lim_obj;
	struct tp_limiter_cfg c;
	u64 t;
	bool ok;

	/* burst 10: 11 never, whatever the idle time */
	tp_st_lim_cfg(&c, TP_LIMITER_BUCKET, 1000, 1000, 10);
	ok = !tp_limiter_init(l, &c, 0);
	for (t = 0; t < (1ULL << 40); t = t * 2 + 1)
		ok = ok && !tp_limiter_consume(l, 11, t);
	ok = ok && !tp_limiter_consume(l, ~0ULL, 1ULL << 41);
	ok = ok && !tp_limiter_consume(l, TP_RATE_MAX + 1, 1ULL << 41);
	ok = ok && tp_limiter_consume(l, 10, 1ULL << 41);
	TP_ST_CHECK(st, ok, "n > burst is never admitted");

	/* n == 0 is admitted, empty bucket or not */
	ok = tp_limiter_consume(l, 0, 1ULL << 41);
	ok = ok && !tp_limiter_consume(l, 1, 1ULL << 41);
	ok = ok && tp_limiter_consume(l, 0, 1ULL << 41);
	tp_st_lim_cfg(&c, TP_LIMITER_BUCKET, 1000, 0, 0);
	ok = ok && !tp_limiter_init(l, &c, 0);
	ok = ok && tp_limiter_consume(l, 0, 5);
	TP_ST_CHECK(st, ok, "n == 0 is admitted");

	/* 2^34 pages cost 2^64 units at tps 2^30: must not wrap to 0 */
	tp_st_lim_cfg(&c, TP_LIMITER_BUCKET, TP_TPS_MAX, 1, TP_RATE_MAX);
	ok = !tp_limiter_init(l, &c, 0);
	ok = ok && !tp_limiter_consume(l, 1ULL << 34, 1ULL << 62);
	ok = ok && !tp_limiter_consume(l, 3ULL << 33, 1ULL << 62);
	ok = ok && tp_limiter_consume(l, 1, 1ULL << 62);
	TP_ST_CHECK(st, ok, "n * cost wrapping 2^64 is refused");

	/* rate 0 refuses every page, with or without a burst */
	tp_st_lim_cfg(&c, TP_LIMITER_BUCKET, 1000, 0, 100);
	ok = !tp_limiter_init(l, &c, 0);
	for (t = 0; t < (1ULL << 50); t = t * 3 + 1)
		ok = ok && !tp_limiter_consume(l, 1, t);
	ok = ok && tp_limiter_available(l, 1ULL << 50) == 0;
	TP_ST_CHECK(st, ok, "bucket rate 0 refuses all");

	/* a THP of 512 pages */
	tp_st_lim_cfg(&c, TP_LIMITER_BUCKET, 1000, 512, 511);
	ok = !tp_limiter_init(l, &c, 0);
	ok = ok && !tp_limiter_consume(l, 512, 0);
	ok = ok && !tp_limiter_consume(l, 512, 1000000);
	ok = ok && tp_limiter_consume(l, 511, 1000000);
	TP_ST_CHECK(st, ok, "THP 512 against burst 511: never");
	tp_st_lim_cfg(&c, TP_LIMITER_BUCKET, 1000, 512, 512);
	ok = !tp_limiter_init(l, &c, 0);
	ok = ok && tp_limiter_consume(l, 512, 0);
	ok = ok && !tp_limiter_consume(l, 512, 999);
	ok = ok && tp_limiter_consume(l, 512, 1000);
	ok = ok && !tp_limiter_consume(l, 1, 1000);
	TP_ST_CHECK(st, ok, "THP 512 against burst 512: once per second");
}

/* ---- token bucket: time wrap --------------------------------------------- */

struct tp_st_lim_wrap {
	const char *name;
	u32 tps;
	u64 rate;
	u64 start;
	u64 gap;
	u32 steps;
};

static const struct tp_st_lim_wrap tp_st_lim_wrap_rows[] = {
	{ "ms clock across 2^32", 1000, 1ULL << 24, (1ULL << 32) - 1000, 7,
	  300 },
	{ "ms clock across 2^64", 1000, 1ULL << 24, ~0ULL - 1000, 7, 300 },
	{ "now * scale wraps (2^21 units/ms)", 1000, 1ULL << 24,
	  (1ULL << 43) - 1000, 7, 300 },
	{ "HZ=250, now * scale wraps (2^23)", 250, 1ULL << 24,
	  (1ULL << 41) - 100, 1, 300 },
	{ "ns clock, now * scale wraps (2^15)", 1000000000, 1ULL << 24,
	  (1ULL << 49) - 1000000, 12345, 300 },
	{ "2^32/s at an odd tps, scale 2^32", 999999999, TP_RATE_MAX,
	  (1ULL << 32) - 150, 1, 300 },
	{ "3/s ms clock across 2^64", 1000, 3, ~0ULL - 5000, 97, 300 },
};

static void tp_st_lim_check_wrap(struct tp_st *st)
{
	const struct tp_st_lim_wrap *r;
	struct tp_limiter_cfg c;
	unsigned int i;
	u64 sum, now;
	u32 k;
	bool ok;

	for (i = 0; i < TP_ST_ARRAY_SIZE(tp_st_lim_wrap_rows); i++) {
		r = &tp_st_lim_wrap_rows[i];
		tp_st_lim_cfg(&c, TP_LIMITER_BUCKET, r->tps, r->rate, 0);
		ok = !tp_limiter_init(&tp_st_lim_obj, &c, r->start);
		ok = ok && tp_st_lim_drain(&tp_st_lim_obj, r->start) == r->rate;
		sum = 0;
		for (k = 1; ok && k <= r->steps; k++) {
			now = r->start + k * r->gap;
			sum += tp_st_lim_drain(&tp_st_lim_obj, now);
			ok = tp_st_lim_is_floor(sum, k * r->gap * r->rate,
						r->tps);
		}
		TP_ST_CHECK(st, ok, r->name);
	}
}

/* ---- token bucket: stale states and out-of-order callers ----------------- */

struct tp_st_lim_stale {
	const char *name;
	u64 back;	/* the second call is this many ticks earlier */
	u64 gap;	/* or this many ticks later */
	u64 want;	/* pages it gets */
};

/* 2^24/s on a ms clock: 2^21 units per tick, 2^64 units = 2^43 ticks */
static const struct tp_st_lim_stale tp_st_lim_stale_rows[] = {
	{ "same tick: empty", 0, 0, 0 },
	{ "1 tick back: not stale, empty", 1, 0, 0 },
	{ "999 ticks back: not stale, empty", 999, 0, 0 },
	{ "idle 2^62 units: full", 0, 1ULL << 41, 1ULL << 24 },
	{ "idle just over 2^63 units: full", 0, (1ULL << 42) + 1, 1ULL << 24 },
	{ "idle 2^64 - 2 s of units (aliased): full", 0, (1ULL << 43) - 2000,
	  1ULL << 24 },
	{ "idle 2^64 - 1.5 s of units (aliased): full", 0,
	  (1ULL << 43) - 1500, 1ULL << 24 },
};

static void tp_st_lim_check_stale(struct tp_st *st)
{
	const struct tp_st_lim_stale *r;
	struct tp_limiter_cfg c;
	unsigned int i;
	u64 t0 = 123456789;
	bool ok;

	for (i = 0; i < TP_ST_ARRAY_SIZE(tp_st_lim_stale_rows); i++) {
		r = &tp_st_lim_stale_rows[i];
		tp_st_lim_cfg(&c, TP_LIMITER_BUCKET, 1000, 1ULL << 24, 0);
		ok = !tp_limiter_init(&tp_st_lim_obj, &c, t0);
		ok = ok && tp_st_lim_drain(&tp_st_lim_obj, t0) == 1ULL << 24;
		ok = ok && tp_st_lim_drain(&tp_st_lim_obj,
					   t0 - r->back + r->gap) == r->want;
		/* an out-of-order caller did not refill anything */
		if (r->back)
			ok = ok && tp_st_lim_drain(&tp_st_lim_obj, t0) == 0;
		TP_ST_CHECK(st, ok, r->name);
	}
}

/*
 * The extremes: rate and burst TP_RATE_MAX at an odd tps just under
 * TP_TPS_MAX (gcd 1). The bucket then holds 2^62 - 2^32 units and one second
 * is as much again, so a caller almost a second behind a drained bucket sees
 * a debt just under 2^63 units: adding a request to it must not wrap.
 */
static void tp_st_lim_check_extreme(struct tp_st *st)
{
	struct tp_limiter_cfg c;
	u32 tps = TP_TPS_MAX - 1;
	u64 t0 = 5ULL << 40;
	bool ok;

	tp_st_lim_cfg(&c, TP_LIMITER_BUCKET, tps, TP_RATE_MAX, TP_RATE_MAX);
	ok = !tp_limiter_init(&tp_st_lim_obj, &c, t0);
	ok = ok && tp_limiter_consume(&tp_st_lim_obj, TP_RATE_MAX, t0);
	ok = ok && !tp_limiter_consume(&tp_st_lim_obj, 1, t0);
	ok = ok && !tp_limiter_consume(&tp_st_lim_obj, 13, t0 - (tps - 1));
	ok = ok && !tp_limiter_consume(&tp_st_lim_obj, 1ULL << 20,
				       t0 - (tps - 1));
	ok = ok && tp_st_lim_drain(&tp_st_lim_obj, t0 - (tps - 1)) == 0;
	/* one tick: 2^32 / (2^30 - 1) pages */
	ok = ok && tp_st_lim_drain(&tp_st_lim_obj, t0 + 1) == 4;
	ok = ok && tp_st_lim_drain(&tp_st_lim_obj, t0 + tps) ==
		   TP_RATE_MAX - 4;
	TP_ST_CHECK(st, ok, "extreme rate: late caller cannot wrap the debt");
}

/* ---- tune and available -------------------------------------------------- */

static void tp_st_lim_check_tune(struct tp_st *st)
{
	struct tp_limiter *l = &tp_st_lim_obj;
	struct tp_limiter_cfg c;
	bool ok;

	/* 100/s: drained at 0 */
	tp_st_lim_cfg(&c, TP_LIMITER_BUCKET, 1000, 100, 0);
	ok = !tp_limiter_init(l, &c, 0);
	ok = ok && tp_limiter_available(l, 0) == 100;
	ok = ok && tp_limiter_consume(l, 30, 0);
	ok = ok && tp_limiter_available(l, 0) == 70;
	ok = ok && tp_st_lim_drain(l, 0) == 70;
	ok = ok && tp_limiter_available(l, 500) == 50;
	/* same settings: the debt stays */
	ok = ok && !tp_limiter_tune(l, &c, 0);
	ok = ok && tp_limiter_available(l, 0) == 0;
	ok = ok && !tp_limiter_consume(l, 1, 0);
	/* 200/s with a burst of 200: still owes 100 pages */
	tp_st_lim_cfg(&c, TP_LIMITER_BUCKET, 1000, 200, 0);
	ok = ok && !tp_limiter_tune(l, &c, 0);
	ok = ok && tp_limiter_available(l, 0) == 100;
	ok = ok && tp_st_lim_drain(l, 0) == 100;
	ok = ok && tp_limiter_available(l, 500) == 100;
	/* burst cut to 50: the debt is capped at the new capacity */
	tp_st_lim_cfg(&c, TP_LIMITER_BUCKET, 1000, 200, 50);
	ok = ok && !tp_limiter_tune(l, &c, 0);
	ok = ok && tp_limiter_available(l, 0) == 0;
	ok = ok && tp_limiter_available(l, 125) == 25;
	ok = ok && tp_limiter_available(l, 10000) == 50;
	TP_ST_CHECK(st, ok, "bucket: tune keeps the debt");

	/* a new variant starts afresh */
	tp_st_lim_cfg(&c, TP_LIMITER_WINDOW_SEED, 1000, 10, 0);
	ok = !tp_limiter_tune(l, &c, 0);
	ok = ok && tp_limiter_available(l, 0) == 10;
	ok = ok && tp_limiter_consume(l, 8, 0);
	ok = ok && tp_limiter_available(l, 0) == 2;
	/* a window keeps its count */
	tp_st_lim_cfg(&c, TP_LIMITER_WINDOW_SEED, 1000, 12, 0);
	ok = ok && !tp_limiter_tune(l, &c, 0);
	ok = ok && tp_limiter_available(l, 0) == 4;
	ok = ok && tp_limiter_consume(l, 4, 0);
	ok = ok && tp_limiter_available(l, 0) == 0;
	/* an expired window reports its full budget */
	ok = ok && tp_limiter_available(l, 1001) == 12;
	/* and back to a full bucket */
	tp_st_lim_cfg(&c, TP_LIMITER_BUCKET, 1000, 100, 0);
	ok = ok && !tp_limiter_tune(l, &c, 5);
	ok = ok && tp_limiter_available(l, 5) == 100;
	TP_ST_CHECK(st, ok, "variant change starts afresh, window keeps count");
}

/* ---- the window variants ------------------------------------------------- */

struct tp_st_lim_win {
	const char *name;
	u32 variant;
	u64 limit;
	u64 burst;
	/* requests at t = 0 (the window init opened), then at t = 1001 */
	u8 n0[8];
	u8 ok0;		/* bit i: request i admitted */
	u8 n1[8];
	u8 ok1;
};

static const struct tp_st_lim_win tp_st_lim_win_rows[] = {
	/* seed: the limit-th page is admitted, the next refused */
	{ "seed: 5 singles of 5, the 6th refused", 1, 5, 0,
	  { 1, 1, 1, 1, 1, 1, 1 }, 0x1f,
	  /* a new window: the opener is free, then 5 more */
	  { 1, 1, 1, 1, 1, 1, 1 }, 0x3f },
	/* mainline: the limit-th page is refused */
	{ "mainline: 4 singles of 5, the 5th refused", 2, 5, 0,
	  { 1, 1, 1, 1, 1, 1, 1 }, 0x0f,
	  { 1, 1, 1, 1, 1, 1, 1 }, 0x1f },
	/* refused requests still count */
	{ "seed: refused requests count", 1, 10, 0,
	  { 8, 5, 1, 1 }, 0x01,
	  { 3, 8, 5, 1 }, 0x03 },
	{ "mainline: refused requests count", 2, 10, 0,
	  { 8, 5, 1, 1 }, 0x01,
	  { 3, 8, 5, 1 }, 0x03 },
	/* an opener larger than the limit is admitted, limit + n_max */
	{ "seed: opener above the limit", 1, 5, 0,
	  { 5, 1 }, 0x01,
	  { 7, 5, 1 }, 0x03 },
	{ "mainline: opener above the limit", 2, 5, 0,
	  { 4, 1 }, 0x01,
	  { 7, 4, 1 }, 0x03 },
	/* the burst is ignored */
	{ "seed: burst ignored", 1, 6, 2, { 3, 3, 1 }, 0x03, { 1, 3, 3 },
	  0x07 },
	/* rate 0 refuses every page, openers included */
	{ "seed: rate 0 refuses all", 1, 0, 0, { 1, 1 }, 0x00, { 1, 1 },
	  0x00 },
	{ "mainline: rate 0 refuses all", 2, 0, 0, { 1, 1 }, 0x00, { 1, 1 },
	  0x00 },
};

static bool tp_st_lim_win_run(struct tp_limiter *l, const u8 *n, u8 want,
			      u64 now)
{
	unsigned int i;
	bool got;

	for (i = 0; i < 8 && n[i]; i++) {
		got = tp_limiter_consume(l, n[i], now);
		if (got != !!(want & (1U << i)))
			return false;
	}
	return true;
}

static void tp_st_lim_check_windows(struct tp_st *st)
{
	const struct tp_st_lim_win *r;
	struct tp_limiter_cfg c;
	unsigned int i;
	bool ok;

	for (i = 0; i < TP_ST_ARRAY_SIZE(tp_st_lim_win_rows); i++) {
		r = &tp_st_lim_win_rows[i];
		tp_st_lim_cfg(&c, r->variant, 1000, r->limit, r->burst);
		ok = !tp_limiter_init(&tp_st_lim_obj, &c, 0);
		ok = ok && tp_st_lim_win_run(&tp_st_lim_obj, r->n0, r->ok0, 0);
		/* one second later exactly: the same window, all refused */
		ok = ok && (!r->limit ||
			    !tp_limiter_consume(&tp_st_lim_obj, 1, 1000));
		ok = ok && tp_st_lim_win_run(&tp_st_lim_obj, r->n1, r->ok1,
					     1001);
		TP_ST_CHECK(st, ok, r->name);
	}
}

/* Windows across the 2^32 and 2^64 boundaries of the tick counter. */
static void tp_st_lim_check_window_wrap(struct tp_st *st)
{
	static const u64 starts[] = { (1ULL << 32) - 500, ~0ULL - 499,
				      (1ULL << 63) - 500 };
	struct tp_limiter_cfg c;
	unsigned int i;
	u64 s;
	bool ok;

	for (i = 0; i < TP_ST_ARRAY_SIZE(starts); i++) {
		s = starts[i];
		tp_st_lim_cfg(&c, TP_LIMITER_WINDOW_MAINLINE, 1000, 3, 0);
		ok = !tp_limiter_init(&tp_st_lim_obj, &c, s);
		ok = ok && tp_limiter_consume(&tp_st_lim_obj, 2, s);
		ok = ok && !tp_limiter_consume(&tp_st_lim_obj, 1, s + 1000);
		/* more than one second: the opener, then 2 more */
		ok = ok && tp_limiter_consume(&tp_st_lim_obj, 1, s + 1001);
		ok = ok && tp_limiter_consume(&tp_st_lim_obj, 2, s + 1500);
		ok = ok && !tp_limiter_consume(&tp_st_lim_obj, 1, s + 2001);
		ok = ok && tp_limiter_consume(&tp_st_lim_obj, 1, s + 2002);
		TP_ST_CHECK(st, ok, "window across a tick-counter boundary");
	}
}

/**
 * tp_st_limiter() - run the rate limiter's vectors
 * @st: the run
 *
 * Return: the number of failed cases this call added.
 */
static int tp_st_limiter(struct tp_st *st)
{
	unsigned int failed = st->failed;

	tp_st_lim_check_cfgs(st);
	tp_st_lim_check_mbps(st);
	tp_st_lim_check_refill(st);
	tp_st_lim_check_sizes(st);
	tp_st_lim_check_wrap(st);
	tp_st_lim_check_stale(st);
	tp_st_lim_check_extreme(st);
	tp_st_lim_check_tune(st);
	tp_st_lim_check_windows(st);
	tp_st_lim_check_window_wrap(st);
	return st->failed - failed;
}

#endif /* _TIERPOL_SELFTEST_LIMITER_H */
