/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Self-test vectors of the promotion rate limiter (the 2020 RFC's patch 2/8,
 * Linux 6.1's numa_promotion_rate_limit(), and the token bucket). Shared by
 * the CMocka suite and the kernel self-test module: public API only, no
 * libc, no 64-bit division, small stack frames.
 *
 * The bucket prices a page at cost = ceil(U / rate) units, U the units of
 * one second (2^48 <= U < 2^49, a power of two times the clock's ticks per
 * second), so it admits at most the rate, and exactly the rate when U is a
 * multiple of it: 1000 ticks/s, 250 ticks/s and 1e9 ticks/s give
 * U = 1000 x 2^39, 250 x 2^41 and 1e9 x 2^19, which the rates 1, 2^k
 * (k <= 24), 100, 200 and 1000 divide. Other rates are rounded against the
 * caller, by less than a page in 2^16 (their rows say so).
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
#define TP_ST_LIM_SZ0	0x4U	/* @sz 0 */
#define TP_ST_LIM_SZLOW	0x8U	/* @sz one byte short */
#define TP_ST_LIM_SZBIG	0x10U	/* @sz 8 bytes longer, zero tail */
#define TP_ST_LIM_TAIL	0x20U	/* @sz 8 bytes longer, a non-zero tail byte */

static struct tp_limiter tp_st_lim_obj, tp_st_lim_copy;
static struct tp_limiter_cpu tp_st_lim_slot[2];
/* A configuration followed by bytes a newer header might define. */
static struct {
	struct tp_limiter_cfg c;
	u8 tail[8];
} tp_st_lim_big;

static void tp_st_lim_cfg(struct tp_limiter_cfg *c, u32 variant, u32 tps,
			  u64 rate, u64 burst)
{
	c->sz = sizeof(*c);
	c->variant = variant;
	c->tps = tps;
	c->cand_batch = 0;
	c->rate = rate;
	c->burst = burst;
}

static void tp_st_lim_fill(void *p, size_t n, u8 v)
{
	u8 *b = p;
	size_t i;

	for (i = 0; i < n; i++)
		b[i] = v;
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
 * requests of at most @max pages (a refused request changes nothing; a
 * larger one would be admitted by a full bucket), and returns the count.
 */
static u64 tp_st_lim_drain(struct tp_limiter *l, u64 max, u64 now)
{
	u64 got = 0, n;
	int k;

	for (k = 33; k >= 0; k--) {
		n = 1ULL << k;
		if (n > max)
			continue;
		while (tp_limiter_consume(l, NULL, n, now))
			got += n;
	}
	return got;
}

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

/* ---- configuration checks ------------------------------------------------ */

struct tp_st_lim_bad {
	const char *name;
	u32 how;
	u32 variant;
	u32 tps;
	u32 batch;
	u64 rate;
	u64 burst;
	int ret;	/* of init */
	int tune;	/* of a tune of a bucket at 1000 ticks/s */
};

static const struct tp_st_lim_bad tp_st_lim_bad_rows[] = {
	{ "NULL config", TP_ST_LIM_NOCFG, 0, 1000, 0, 10, 0, -EINVAL,
	  -EINVAL },
	{ "NULL limiter", TP_ST_LIM_NOOBJ, 0, 1000, 0, 10, 0, -EINVAL,
	  -EINVAL },
	{ "sz 0", TP_ST_LIM_SZ0, 0, 1000, 0, 10, 0, -EINVAL, -EINVAL },
	{ "sz one byte short", TP_ST_LIM_SZLOW, 0, 1000, 0, 10, 0, -EINVAL,
	  -EINVAL },
	{ "sz + 8, zero tail", TP_ST_LIM_SZBIG, 0, 1000, 0, 10, 0, 0, 0 },
	{ "sz + 8, non-zero tail", TP_ST_LIM_TAIL, 0, 1000, 0, 10, 0, -EINVAL,
	  -EINVAL },
	{ "variant 3", 0, 3, 1000, 0, 10, 0, -EINVAL, -EINVAL },
	{ "variant ~0", 0, ~0U, 1000, 0, 10, 0, -EINVAL, -EINVAL },
	{ "tps 0", 0, 0, 0, 0, 10, 0, -EINVAL, -EINVAL },
	{ "tps TP_TPS_MAX + 1", 0, 1, TP_TPS_MAX + 1, 0, 10, 0, -EINVAL,
	  -EINVAL },
	{ "cand_batch TP_CAND_BATCH_MAX + 1", 0, 2, 1000,
	  TP_CAND_BATCH_MAX + 1, 10, 0, -EINVAL, -EINVAL },
	{ "rate TP_RATE_MAX + 1", 0, 0, 1000, 0, TP_RATE_MAX + 1, 0, -ERANGE,
	  -ERANGE },
	{ "window rate TP_RATE_MAX + 1", 0, 2, 1000, 0, TP_RATE_MAX + 1, 0,
	  -ERANGE, -ERANGE },
	{ "burst TP_RATE_MAX + 1", 0, 0, 1000, 0, 10, TP_RATE_MAX + 1,
	  -ERANGE, -ERANGE },
	{ "window burst ~0", 0, 1, 1000, 0, 10, ~0ULL, -ERANGE, -ERANGE },
	/* 2^61 units: 4194 s of a page a second at U = 1000 x 2^39 */
	{ "burst 4194 at 1/s, ms: fits 2^61 units", 0, 0, 1000, 0, 1, 4194,
	  0, 0 },
	{ "burst 4195 at 1/s, ms: above 2^61 units", 0, 0, 1000, 0, 1, 4195,
	  -ERANGE, -ERANGE },
	{ "burst 8192 at 1/s, tps 1024: 2^61 units", 0, 0, 1024, 0, 1, 8192,
	  0, -EINVAL },
	{ "burst 8193 at 1/s, tps 1024: 2^61 + 2^48", 0, 0, 1024, 0, 1, 8193,
	  -ERANGE, -EINVAL },
	{ "burst TP_RATE_MAX at 1/s", 0, 0, 1000, 0, 1, TP_RATE_MAX, -ERANGE,
	  -ERANGE },
	/* a tune to another clock: -EINVAL wins over -ERANGE */
	{ "burst TP_RATE_MAX at 1/s, tps 999", 0, 0, 999, 0, 1, TP_RATE_MAX,
	  -ERANGE, -EINVAL },
	{ "rate TP_RATE_MAX + 1, tps 999", 0, 1, 999, 0, TP_RATE_MAX + 1, 0,
	  -ERANGE, -EINVAL },
	{ "window: burst 2^32 at 1/s ignored", 0, 1, 1000, 0, 1, TP_RATE_MAX,
	  0, 0 },
	/* accepted extremes; a tune cannot change the clock */
	{ "tps 1", 0, 0, 1, 0, 10, 0, 0, -EINVAL },
	{ "tps 999: tune to another clock", 0, 0, 999, 0, 10, 0, 0, -EINVAL },
	{ "tps TP_TPS_MAX", 0, 0, TP_TPS_MAX, 0, 10, 0, 0, -EINVAL },
	{ "rate and burst TP_RATE_MAX", 0, 0, TP_TPS_MAX - 1, 0, TP_RATE_MAX,
	  TP_RATE_MAX, 0, -EINVAL },
	{ "rate and burst TP_RATE_MAX, ms", 0, 0, 1000, 0, TP_RATE_MAX,
	  TP_RATE_MAX, 0, 0 },
	{ "rate 0", 0, 0, 1000, 0, 0, 0, 0, 0 },
	{ "window linux61", 0, 2, 1000, 0, TP_RATE_MAX, 0, 0, 0 },
	{ "cand_batch TP_CAND_BATCH_MAX", 0, 1, 1000, TP_CAND_BATCH_MAX, 10,
	  0, 0, 0 },
};

/* The configuration of row @r: &tp_st_lim_big.c, or NULL. */
static const struct tp_limiter_cfg *
tp_st_lim_bad_cfg(const struct tp_st_lim_bad *r)
{
	struct tp_limiter_cfg *c = &tp_st_lim_big.c;

	tp_st_lim_fill(&tp_st_lim_big, sizeof(tp_st_lim_big), 0);
	tp_st_lim_cfg(c, r->variant, r->tps, r->rate, r->burst);
	c->cand_batch = r->batch;
	if (r->how & TP_ST_LIM_SZ0)
		c->sz = 0;
	if (r->how & TP_ST_LIM_SZLOW)
		c->sz = sizeof(*c) - 1;
	if (r->how & (TP_ST_LIM_SZBIG | TP_ST_LIM_TAIL))
		c->sz = sizeof(*c) + 8;
	if (r->how & TP_ST_LIM_TAIL)
		((u8 *)c)[sizeof(*c) + 7] = 1;
	return (r->how & TP_ST_LIM_NOCFG) ? NULL : c;
}

static void tp_st_lim_check_cfgs(struct tp_st *st)
{
	const struct tp_st_lim_bad *r;
	struct tp_limiter_cfg c;
	struct tp_limiter *l;
	unsigned int i;
	bool ok;
	int ret;

	for (i = 0; i < TP_ST_ARRAY_SIZE(tp_st_lim_bad_rows); i++) {
		r = &tp_st_lim_bad_rows[i];
		l = (r->how & TP_ST_LIM_NOOBJ) ? NULL : &tp_st_lim_obj;

		/* init: on error the object keeps every byte */
		tp_st_lim_fill(&tp_st_lim_obj, sizeof(tp_st_lim_obj), 0x5a);
		tp_st_lim_copy = tp_st_lim_obj;
		ret = tp_limiter_init(l, tp_st_lim_bad_cfg(r), 7);
		ok = ret == r->ret;
		if (r->ret)
			ok = ok && tp_st_lim_same(&tp_st_lim_obj,
						  &tp_st_lim_copy,
						  sizeof(tp_st_lim_obj));
		TP_ST_CHECK(st, ok, r->name);

		/* tune of a bucket that owes pages: on error no change */
		tp_st_lim_cfg(&c, TP_LIMITER_BUCKET, 1000, 100, 0);
		ok = !tp_limiter_init(&tp_st_lim_obj, &c, 7);
		ok = ok && tp_limiter_consume(&tp_st_lim_obj, NULL, 60, 7);
		tp_st_lim_copy = tp_st_lim_obj;
		ret = tp_limiter_tune(l, tp_st_lim_bad_cfg(r));
		ok = ok && ret == r->tune;
		if (r->tune)
			ok = ok && tp_st_lim_same(&tp_st_lim_obj,
						  &tp_st_lim_copy,
						  sizeof(tp_st_lim_obj));
		else if (ok)	/* the TAT kept: 40 pages left, as before */
			ok = !tp_limiter_tune(&tp_st_lim_obj, &c) &&
			     tp_limiter_available(&tp_st_lim_obj, 7) == 40;
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

/* ---- tune and available -------------------------------------------------- */

static void tp_st_lim_check_tune(struct tp_st *st)
{
	struct tp_limiter *l = &tp_st_lim_obj;
	struct tp_limiter_cfg c;
	bool ok;

	/* 100/s: a page costs 10 ms; drained at 0 */
	tp_st_lim_cfg(&c, TP_LIMITER_BUCKET, 1000, 100, 0);
	ok = !tp_limiter_init(l, &c, 0);
	ok = ok && tp_limiter_available(l, 0) == 100;
	ok = ok && tp_limiter_consume(l, NULL, 30, 0);
	ok = ok && tp_limiter_available(l, 0) == 70;
	ok = ok && tp_st_lim_drain(l, 100, 0) == 70;
	ok = ok && tp_limiter_available(l, 500) == 50;
	/* same settings: nothing changes */
	ok = ok && !tp_limiter_tune(l, &c);
	ok = ok && tp_limiter_available(l, 0) == 0;
	ok = ok && !tp_limiter_consume(l, NULL, 1, 0);
	ok = ok && tp_limiter_available(l, 500) == 50;
	/* 200/s, burst 200: the TAT is kept, 1 s to refill at 200/s */
	tp_st_lim_cfg(&c, TP_LIMITER_BUCKET, 1000, 200, 0);
	ok = ok && !tp_limiter_tune(l, &c);
	ok = ok && tp_limiter_available(l, 0) == 0;
	ok = ok && tp_limiter_available(l, 500) == 100;
	ok = ok && tp_limiter_available(l, 1000) == 200;
	/* burst cut to 50 (0.25 s): empty until 750 */
	tp_st_lim_cfg(&c, TP_LIMITER_BUCKET, 1000, 200, 50);
	ok = ok && !tp_limiter_tune(l, &c);
	ok = ok && tp_limiter_available(l, 0) == 0;
	ok = ok && tp_limiter_available(l, 750) == 0;
	ok = ok && tp_limiter_available(l, 875) == 25;
	ok = ok && tp_limiter_available(l, 10000) == 50;
	TP_ST_CHECK(st, ok, "bucket: tune keeps the time to refill");

	/* a window keeps its own state: opened at 0, nothing counted */
	tp_st_lim_cfg(&c, TP_LIMITER_WINDOW_RFC2020, 1000, 10, 0);
	ok = !tp_limiter_tune(l, &c);
	ok = ok && tp_limiter_available(l, 0) == 10;
	ok = ok && tp_limiter_consume(l, NULL, 8, 0);
	ok = ok && tp_limiter_available(l, 0) == 2;
	tp_st_lim_cfg(&c, TP_LIMITER_WINDOW_RFC2020, 1000, 12, 0);
	ok = ok && !tp_limiter_tune(l, &c);
	ok = ok && tp_limiter_available(l, 0) == 4;
	ok = ok && tp_limiter_consume(l, NULL, 4, 0);
	ok = ok && tp_limiter_available(l, 0) == 0;
	/* an expired window reports its full budget */
	ok = ok && tp_limiter_available(l, 1001) == 12;
	TP_ST_CHECK(st, ok, "window: tune keeps the count");

	/* back to the bucket: its TAT (1 s) survived the window's use */
	tp_st_lim_cfg(&c, TP_LIMITER_BUCKET, 1000, 100, 0);
	ok = !tp_limiter_tune(l, &c);
	ok = ok && tp_limiter_available(l, 5) == 0;
	ok = ok && tp_limiter_available(l, 500) == 50;
	ok = ok && tp_limiter_available(l, 1000) == 100;
	ok = ok && tp_limiter_consume(l, NULL, 100, 1000);
	/* and the window its count: 12 used in the window opened at 0 */
	tp_st_lim_cfg(&c, TP_LIMITER_WINDOW_RFC2020, 1000, 12, 0);
	ok = ok && !tp_limiter_tune(l, &c);
	ok = ok && tp_limiter_available(l, 1000) == 0;
	ok = ok && !tp_limiter_consume(l, NULL, 1, 1000);
	ok = ok && tp_limiter_consume(l, NULL, 1, 1001);
	/* and the bucket the 100 pages taken at 1000 */
	tp_st_lim_cfg(&c, TP_LIMITER_BUCKET, 1000, 100, 0);
	ok = ok && !tp_limiter_tune(l, &c);
	ok = ok && tp_limiter_available(l, 1001) == 0;
	ok = ok && tp_limiter_available(l, 2000) == 100;
	TP_ST_CHECK(st, ok, "variant switch: each variant keeps its state");

	/* another clock: refused, nothing changes */
	tp_st_lim_copy = *l;
	tp_st_lim_cfg(&c, TP_LIMITER_BUCKET, 1024, 100, 0);
	ok = tp_limiter_tune(l, &c) == -EINVAL;
	ok = ok && tp_st_lim_same(l, &tp_st_lim_copy, sizeof(*l));
	TP_ST_CHECK(st, ok, "tune to another tps: -EINVAL, no change");
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
	/* the RFC: the limit-th page is admitted, the next refused */
	{ "rfc2020: 5 singles of 5, the 6th refused", 1, 5, 0,
	  { 1, 1, 1, 1, 1, 1, 1 }, 0x1f,
	  /* a new window: the opener is free, then 5 more */
	  { 1, 1, 1, 1, 1, 1, 1 }, 0x3f },
	/* Linux 6.1: the limit-th page is refused */
	{ "linux61: 4 singles of 5, the 5th refused", 2, 5, 0,
	  { 1, 1, 1, 1, 1, 1, 1 }, 0x0f,
	  { 1, 1, 1, 1, 1, 1, 1 }, 0x1f },
	/* refused requests still count */
	{ "rfc2020: refused requests count", 1, 10, 0,
	  { 8, 5, 1, 1 }, 0x01,
	  { 3, 8, 5, 1 }, 0x03 },
	{ "linux61: refused requests count", 2, 10, 0,
	  { 8, 5, 1, 1 }, 0x01,
	  { 3, 8, 5, 1 }, 0x03 },
	/* an opener larger than the limit is admitted, limit + n_max */
	{ "rfc2020: opener above the limit", 1, 5, 0,
	  { 5, 1 }, 0x01,
	  { 7, 5, 1 }, 0x03 },
	{ "linux61: opener above the limit", 2, 5, 0,
	  { 4, 1 }, 0x01,
	  { 7, 4, 1 }, 0x03 },
	/* the burst is ignored */
	{ "rfc2020: burst ignored", 1, 6, 2, { 3, 3, 1 }, 0x03, { 1, 3, 3 },
	  0x07 },
	/* rate 0 refuses every page, openers included */
	{ "rfc2020: rate 0 refuses all", 1, 0, 0, { 1, 1 }, 0x00, { 1, 1 },
	  0x00 },
	{ "linux61: rate 0 refuses all", 2, 0, 0, { 1, 1 }, 0x00, { 1, 1 },
	  0x00 },
};

/* Requests @n[i] at @now from slot @slot[i] (-1: none); bit i of @want. */
static bool tp_st_lim_win_run(struct tp_limiter *l, const u8 *n,
			      const signed char *slot, u8 want, u64 now)
{
	struct tp_limiter_cpu *cpu;
	unsigned int i;
	bool got;

	for (i = 0; i < 8 && n[i]; i++) {
		cpu = slot && slot[i] >= 0 ? &tp_st_lim_slot[slot[i]] : NULL;
		got = tp_limiter_consume(l, cpu, n[i], now);
		if (got != !!(want & (1U << i)))
			return false;
	}
	return true;
}

static void tp_st_lim_check_windows(struct tp_st *st)
{
	const struct tp_st_lim_win *r;
	struct tp_limiter *l = &tp_st_lim_obj;
	struct tp_limiter_cfg c;
	unsigned int i;
	bool ok;

	for (i = 0; i < TP_ST_ARRAY_SIZE(tp_st_lim_win_rows); i++) {
		r = &tp_st_lim_win_rows[i];
		tp_st_lim_cfg(&c, r->variant, 1000, r->limit, r->burst);
		ok = !tp_limiter_init(l, &c, 0);
		ok = ok && tp_st_lim_win_run(l, r->n0, NULL, r->ok0, 0);
		/* one second later exactly: the same window, all refused */
		ok = ok && (!r->limit || !tp_limiter_consume(l, NULL, 1, 1000));
		ok = ok && tp_st_lim_win_run(l, r->n1, NULL, r->ok1, 1001);
		TP_ST_CHECK(st, ok, r->name);
	}
}

/*
 * Per-CPU counting: a slot adds its pages to the shared count once 4 are
 * pending, so each slot may add up to 3 admitted pages late: a window
 * admits at most limit + C x (batch - 1) + n.
 */
struct tp_st_lim_batch {
	const char *name;
	u32 variant;
	u32 batch;
	u8 n[8];
	signed char slot[8];
	u8 ok;
	u64 avail;	/* what the shared count leaves after the requests */
};

static const struct tp_st_lim_batch tp_st_lim_batch_rows[] = {
	{ "batch 0: every page counted at once", 2, 0,
	  { 1, 1, 1, 1, 1, 1 }, { 0, 0, 0, 0, 0, 0 }, 0x0f, 0 },
	{ "batch 1: every page counted at once", 2, 1,
	  { 1, 1, 1, 1, 1, 1 }, { 0, 0, 0, 0, 0, 0 }, 0x0f, 0 },
	{ "no slot: every page counted at once", 2, 4,
	  { 1, 1, 1, 1, 1, 1 }, { -1, -1, -1, -1, -1, -1 }, 0x0f, 0 },
	/* 4 folded at the 4th, 3 pending: 7 = limit - 1 + 3 */
	{ "batch 4, one slot: 3 pages late", 2, 4,
	  { 1, 1, 1, 1, 1, 1, 1, 1 }, { 0, 0, 0, 0, 0, 0, 0, 0 }, 0x7f, 0 },
	{ "batch 4, one slot, rfc2020: 3 pages late", 1, 4,
	  { 1, 1, 1, 1, 1, 1, 1, 1 }, { 0, 0, 0, 0, 0, 0, 0, 0 }, 0x7f, 0 },
	/* a request of the batch folds at once */
	{ "batch 4: a request of 4 folds", 2, 4,
	  { 4, 1, 4 }, { 0, 0, 0 }, 0x03, 0 },
	/* 4 + 3 + 3: 10 of a limit of 5, the bound is 5 + 2 x 3 + 1 */
	{ "batch 4, two slots: 6 pages late", 2, 4,
	  { 4, 1, 1, 1, 3, 1, 1 }, { 0, 0, 0, 0, 1, 1, 0 }, 0x1f, 0 },
	/* pending pages do not show in the shared count */
	{ "batch 4, two slots: pending not counted", 2, 4,
	  { 3, 3 }, { 0, 1 }, 0x03, 5 },
};

static void tp_st_lim_check_batch(struct tp_st *st)
{
	const struct tp_st_lim_batch *r;
	struct tp_limiter *l = &tp_st_lim_obj;
	struct tp_limiter_cfg c;
	unsigned int i;
	bool ok;

	for (i = 0; i < TP_ST_ARRAY_SIZE(tp_st_lim_batch_rows); i++) {
		r = &tp_st_lim_batch_rows[i];
		tp_st_lim_fill(tp_st_lim_slot, sizeof(tp_st_lim_slot), 0);
		tp_st_lim_cfg(&c, r->variant, 1000, 5, 0);
		c.cand_batch = r->batch;
		ok = !tp_limiter_init(l, &c, 0);
		ok = ok && tp_st_lim_win_run(l, r->n, r->slot, r->ok, 0);
		ok = ok && tp_limiter_available(l, 0) == r->avail;
		/* the next window opens whatever is pending */
		ok = ok && tp_limiter_consume(l, &tp_st_lim_slot[0], 1, 1001);
		ok = ok && tp_limiter_busy(&tp_st_lim_slot[0]) == 0 &&
		     tp_limiter_busy(&tp_st_lim_slot[1]) == 0;
		TP_ST_CHECK(st, ok, r->name);
	}
}

/* Windows across the 2^32 and 2^64 boundaries of the tick counter. */
static void tp_st_lim_check_window_wrap(struct tp_st *st)
{
	static const u64 starts[] = { (1ULL << 32) - 500, ~0ULL - 499,
				      (1ULL << 63) - 500 };
	struct tp_limiter *l = &tp_st_lim_obj;
	struct tp_limiter_cfg c;
	unsigned int i;
	u64 s;
	bool ok;

	for (i = 0; i < TP_ST_ARRAY_SIZE(starts); i++) {
		s = starts[i];
		tp_st_lim_cfg(&c, TP_LIMITER_WINDOW_LINUX61, 1000, 3, 0);
		ok = !tp_limiter_init(l, &c, s);
		ok = ok && tp_limiter_consume(l, NULL, 2, s);
		ok = ok && !tp_limiter_consume(l, NULL, 1, s + 1000);
		/* more than one second: the opener, then 2 more */
		ok = ok && tp_limiter_consume(l, NULL, 1, s + 1001);
		ok = ok && tp_limiter_consume(l, NULL, 2, s + 1500);
		ok = ok && !tp_limiter_consume(l, NULL, 1, s + 2001);
		ok = ok && tp_limiter_consume(l, NULL, 1, s + 2002);
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
	tp_st_lim_check_batch(st);
	tp_st_lim_check_window_wrap(st);
	return st->failed - failed;
}

#endif /* _TIERPOL_SELFTEST_LIMITER_H */
