/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Self-test vectors of the per-second windows, the 2020 RFC's (the
 * limit-th page admitted) and Linux 6.1's (refused): refused requests
 * counted, openers above the limit, the burst ignored, rate 0, the per-CPU
 * slots' late pages, requests past %TP_RATE_MAX, and windows across the
 * tick counter's wraps. A window is expired at init, as the kernels' is at
 * boot: the first request opens it at its own time and its pages are not
 * counted in it, so the boundaries follow the first request, not the init,
 * at any clock value. Uses the helpers of limiter.h; tp_st_limiter() runs
 * tp_st_limiter_window().
 * Public API only, no libc, no 64-bit division, small stack frames.
 */
#ifndef TP_SELFTEST_LIMITER_WINDOW_H
#define TP_SELFTEST_LIMITER_WINDOW_H

#include "limiter.h"

/* ---- the window variants ------------------------------------------------- */

static struct tp_limiter_cpu tp_st_lim_slot[2];

struct tp_st_lim_win {
	const char *name;
	u32 variant;
	u64 limit;
	u64 burst;
	/*
	 * requests at t = 0, after a single page that opened the window
	 * (admitted, not counted in it); then at t = 1001, where n1[0]
	 * opens the next window
	 */
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
		/* the window opener: free, but a limit of 0 refuses it too */
		ok = ok && tp_limiter_consume(l, NULL, 1, 0) == !!r->limit &&
		     tp_limiter_available(l, 0) == r->limit;
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
 * admits at most limit + C x (batch - 1) + n. The rows' requests follow a
 * single page without a slot that opened the window at 0.
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
		/* the opener, counted at once: its page is in the base */
		ok = ok && tp_limiter_consume(l, NULL, 1, 0) &&
		     tp_limiter_available(l, 0) == 5;
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
		/* the opener at s, not counted; 2 of 3, then refused */
		ok = ok && tp_limiter_consume(l, NULL, 1, s);
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

/*
 * A request of more than %TP_RATE_MAX pages is refused and not counted, on
 * its own or through a slot: one of 2^64 - 1 pages would otherwise wrap the
 * count back by one page and free the window (found by fuzz_api). The
 * largest folio the count takes, TP_RATE_MAX, is counted as any other.
 */
static void tp_st_lim_check_window_huge(struct tp_st *st)
{
	static const u64 huge[] = { TP_RATE_MAX + 1, 1ULL << 63, ~0ULL };
	struct tp_limiter *l = &tp_st_lim_obj;
	struct tp_limiter_cpu *slot = &tp_st_lim_slot[0];
	struct tp_limiter_cfg c;
	unsigned int i;
	u32 v;
	bool ok;

	for (v = TP_LIMITER_WINDOW_RFC2020; v <= TP_LIMITER_WINDOW_LINUX61;
	     v++) {
		for (i = 0; i < TP_ST_ARRAY_SIZE(huge); i++) {
			tp_st_lim_fill(slot, sizeof(*slot), 0);
			tp_st_lim_cfg(&c, v, 1000, 5, 0);
			c.cand_batch = 4;
			/* the window opened at 10 by a page, then 3 of 5 */
			ok = !tp_limiter_init(l, &c, 0) &&
			     tp_limiter_consume(l, NULL, 1, 10) &&
			     tp_limiter_consume(l, NULL, 3, 10) &&
			     tp_limiter_available(l, 10) == 2;
			ok = ok && !tp_limiter_consume(l, NULL, huge[i], 10) &&
			     !tp_limiter_consume(l, slot, huge[i], 10) &&
			     tp_limiter_available(l, 10) == 2;
			/* the limit still holds: 6.1 refuses at 5 counted */
			ok = ok && tp_limiter_consume(l, NULL, 1, 10) &&
			     tp_limiter_consume(l, NULL, 1, 10) ==
			     (v == TP_LIMITER_WINDOW_RFC2020) &&
			     !tp_limiter_consume(l, NULL, 1, 10) &&
			     tp_limiter_busy(slot) == 0;
			/* an opener of TP_RATE_MAX pages: admitted */
			ok = ok && tp_limiter_consume(l, NULL, TP_RATE_MAX,
						      1011) &&
			     tp_limiter_available(l, 1011) == 5;
			TP_ST_CHECK(st, ok, v == TP_LIMITER_WINDOW_RFC2020 ?
				    "rfc2020: a request past TP_RATE_MAX is refused, not counted" :
				    "linux61: a request past TP_RATE_MAX is refused, not counted");
		}
	}
}

/*
 * tp_limiter_available() of a window: the limit minus the pages counted
 * since the window opened (0 once they reach it), the limit once the
 * window has expired. A request of n pages is then admitted when
 * n <= available (the 2020 RFC) or n < available (Linux 6.1, one page
 * fewer). Singles at @now until the budget is gone; false on a mismatch.
 */
static bool tp_st_lim_avail_run(struct tp_limiter *l, u32 variant, u64 now,
				u64 limit, u64 *admitted)
{
	u64 i, a;
	bool got;

	for (i = 0; i < limit + 2; i++) {
		a = tp_limiter_available(l, now);
		if (a != (i < limit ? limit - i : 0))
			return false;
		got = tp_limiter_consume(l, NULL, 1, now);
		if (got != (variant == TP_LIMITER_WINDOW_RFC2020 ? a >= 1 :
								   a >= 2))
			return false;
		*admitted += got;
	}
	return true;
}

static void tp_st_lim_check_available(struct tp_st *st)
{
	struct tp_limiter *l = &tp_st_lim_obj;
	struct tp_limiter_cfg c;
	u64 adm, want;
	u32 v;
	bool ok;

	for (v = TP_LIMITER_WINDOW_RFC2020; v <= TP_LIMITER_WINDOW_LINUX61;
	     v++) {
		want = v == TP_LIMITER_WINDOW_RFC2020 ? 5 : 4;
		/*
		 * Expired at init: the limit; the request that opens the
		 * first window is not counted in it.
		 */
		tp_st_lim_cfg(&c, v, 1000, 5, 0);
		adm = 0;
		ok = !tp_limiter_init(l, &c, 0) &&
		     tp_limiter_available(l, 0) == 5 &&
		     tp_limiter_consume(l, NULL, 1, 0) &&
		     tp_st_lim_avail_run(l, v, 0, 5, &adm) && adm == want;
		/* expired: the limit; the opener is not counted in it */
		ok = ok && tp_limiter_available(l, 1001) == 5 &&
		     tp_limiter_consume(l, NULL, 1, 1001);
		adm = 0;
		ok = ok && tp_st_lim_avail_run(l, v, 1001, 5, &adm) &&
		     adm == want;
		/* 2 pages with 2 available: the RFC admits, 6.1 refuses */
		ok = ok && !tp_limiter_init(l, &c, 0);
		ok = ok && tp_limiter_consume(l, NULL, 1, 0) &&
		     tp_limiter_consume(l, NULL, 3, 0) &&
		     tp_limiter_available(l, 0) == 2 &&
		     tp_limiter_consume(l, NULL, 2, 0) ==
		     (v == TP_LIMITER_WINDOW_RFC2020);
		TP_ST_CHECK(st, ok, v == TP_LIMITER_WINDOW_RFC2020 ?
			    "rfc2020: available is what it admits" :
			    "linux61: available is one more than it admits");
	}
}

/*
 * The window at init has expired, as the kernels' has at boot (the 2020
 * RFC's pgdat->numa_ts and 6.1's pgdat->nbp_rl_start are 0): right after
 * init tp_limiter_available() gives the limit, the first request opens the
 * window at its own time and is not counted in it, and the windows'
 * boundaries follow that request, not the init. Init at clock values near
 * 0, at the 2^32, 2^63 and 2^64 boundaries (the expired start lies before
 * them); a limit of 3; 2 pages 0.5 s after the init open the window, then
 * single pages until refused (the RFC admits 3, 6.1 2); 1.2 s after the
 * init the window opened at 0.5 s still refuses, and exactly 1 s after its
 * opening too; 1 ms later a page opens the next window, not counted.
 */
static void tp_st_lim_check_first(struct tp_st *st)
{
	static const u64 inits[] = { 0, 1, 999, 1000, 1001, (1ULL << 32) - 1,
				     (1ULL << 63) - 1, 1ULL << 63,
				     ~0ULL - 1500, ~0ULL - 1000, ~0ULL };
	struct tp_limiter *l = &tp_st_lim_obj;
	struct tp_limiter_cfg c;
	unsigned int i;
	u64 t0, t1, adm, want;
	u32 v;
	bool ok;

	for (v = TP_LIMITER_WINDOW_RFC2020; v <= TP_LIMITER_WINDOW_LINUX61;
	     v++) {
		want = v == TP_LIMITER_WINDOW_RFC2020 ? 3 : 2;
		for (i = 0; i < TP_ST_ARRAY_SIZE(inits); i++) {
			t0 = inits[i];
			t1 = t0 + 500;
			tp_st_lim_cfg(&c, v, 1000, 3, 0);
			ok = !tp_limiter_init(l, &c, t0) &&
			     tp_limiter_available(l, t0) == 3 &&
			     tp_limiter_available(l, t1) == 3;
			/* the opener: admitted, its 2 pages in the base */
			ok = ok && tp_limiter_consume(l, NULL, 2, t1) &&
			     tp_limiter_available(l, t1) == 3;
			adm = 0;
			ok = ok && tp_st_lim_avail_run(l, v, t1, 3, &adm) &&
			     adm == want;
			ok = ok && tp_limiter_available(l, t0 + 1200) == 0 &&
			     !tp_limiter_consume(l, NULL, 1, t0 + 1200) &&
			     !tp_limiter_consume(l, NULL, 1, t1 + 1000);
			ok = ok && tp_limiter_available(l, t1 + 1001) == 3 &&
			     tp_limiter_consume(l, NULL, 1, t1 + 1001) &&
			     tp_limiter_available(l, t1 + 1001) == 3;
			TP_ST_CHECK(st, ok, v == TP_LIMITER_WINDOW_RFC2020 ?
				    "rfc2020: the first request opens the window, not the init" :
				    "linux61: the first request opens the window, not the init");
		}
	}
}

/**
 * tp_st_limiter_window() - run the windows' vectors
 * @st: the run
 *
 * Return: the number of failed cases this call added.
 */
static int tp_st_limiter_window(struct tp_st *st)
{
	unsigned int failed = st->failed;

	tp_st_lim_check_windows(st);
	tp_st_lim_check_batch(st);
	tp_st_lim_check_window_wrap(st);
	tp_st_lim_check_window_huge(st);
	tp_st_lim_check_available(st);
	tp_st_lim_check_first(st);
	return st->failed - failed;
}

#endif /* TP_SELFTEST_LIMITER_WINDOW_H */
