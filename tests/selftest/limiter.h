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
 *
 * This file has the configuration checks, MB/s to pages and the tunes
 * (both variants, and switches between them), with the helpers the other
 * two use: limiter_bucket.h has the token bucket's refill, request sizes,
 * time wraps and stale states, limiter_window.h the windows of the 2020
 * RFC and Linux 6.1 with their per-CPU slots. tp_st_limiter() runs them all.
 */
#ifndef TP_SELFTEST_LIMITER_H
#define TP_SELFTEST_LIMITER_H

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

	/*
	 * A window keeps its own state: expired since init, so the first
	 * request opens it at 0 and its page is not counted in it.
	 */
	tp_st_lim_cfg(&c, TP_LIMITER_WINDOW_RFC2020, 1000, 10, 0);
	ok = !tp_limiter_tune(l, &c);
	ok = ok && tp_limiter_available(l, 0) == 10;
	ok = ok && tp_limiter_consume(l, NULL, 1, 0);
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

static int tp_st_limiter_bucket(struct tp_st *st);
static int tp_st_limiter_window(struct tp_st *st);

/**
 * tp_st_limiter() - run the rate limiter's vectors
 * @st: the run
 *
 * The configuration checks and MB/s to pages, tp_st_limiter_bucket(), the
 * tunes, then tp_st_limiter_window().
 *
 * Return: the number of failed cases this call added.
 */
static int tp_st_limiter(struct tp_st *st)
{
	unsigned int failed = st->failed;

	tp_st_lim_check_cfgs(st);
	tp_st_lim_check_mbps(st);
	tp_st_limiter_bucket(st);
	tp_st_lim_check_tune(st);
	tp_st_limiter_window(st);
	return st->failed - failed;
}

#include "limiter_bucket.h"
#include "limiter_window.h"

#endif /* TP_SELFTEST_LIMITER_H */
