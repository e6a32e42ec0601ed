/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Self-test vectors of the hot-threshold controller's period close: the
 * 110 % / 90 % band, the budget (rate x period / tps, from the rate in
 * force at the close, exact past 2^64, saturated), a counter below the
 * baseline, and one adjustment per period across the clock's 2^32, 2^63
 * and 2^64 wraps. Uses the helpers of threshold.h; tp_st_threshold() runs
 * tp_st_threshold_period(). Public API only, no libc, no 64-bit division,
 * small stack frames.
 */
#ifndef TP_SELFTEST_THRESHOLD_PERIOD_H
#define TP_SELFTEST_THRESHOLD_PERIOD_H

#include "threshold.h"

/* ---- the 110 % / 90 % band ----------------------------------------------- */

struct tp_st_th_band {
	const char *name;
	u32 tps;
	u64 period;
	u64 rate;
	u64 diff;	/* candidates counted in the period */
	int ev;
};

static const struct tp_st_th_band tp_st_th_band_rows[] = {
	{ "ref 1000: 1000 keeps", 1000, 1000, 1000, 1000, TP_TH_KEPT },
	{ "ref 1000: 1100 = 110 % keeps", 1000, 1000, 1000, 1100, TP_TH_KEPT },
	{ "ref 1000: 1101 lowers", 1000, 1000, 1000, 1101, TP_TH_LOWERED },
	{ "ref 1000: 900 = 90 % keeps", 1000, 1000, 1000, 900, TP_TH_KEPT },
	{ "ref 1000: 899 raises", 1000, 1000, 1000, 899, TP_TH_RAISED },
	{ "ref 1000: 0 raises", 1000, 1000, 1000, 0, TP_TH_RAISED },
	{ "ref 1000: 2^40 lowers", 1000, 1000, 1000, 1ULL << 40,
	  TP_TH_LOWERED },
	{ "rate 0: 0 keeps", 1000, 1000, 0, 0, TP_TH_KEPT },
	{ "rate 0: 1 lowers", 1000, 1000, 0, 1, TP_TH_LOWERED },
	/* 65536 MB/s = 2^24 pages/s x 60000 ms: 2^24 * 60 per period */
	{ "2^24/s x 60 s: ref keeps", 1000, 60000, 1ULL << 24, 1006632960ULL,
	  TP_TH_KEPT },
	{ "2^24/s x 60 s: 110 % keeps", 1000, 60000, 1ULL << 24,
	  1107296256ULL, TP_TH_KEPT },
	{ "2^24/s x 60 s: 110 % + 1 lowers", 1000, 60000, 1ULL << 24,
	  1107296257ULL, TP_TH_LOWERED },
	{ "2^24/s x 60 s: 90 % keeps", 1000, 60000, 1ULL << 24, 905969664ULL,
	  TP_TH_KEPT },
	{ "2^24/s x 60 s: 90 % - 1 raises", 1000, 60000, 1ULL << 24,
	  905969663ULL, TP_TH_RAISED },
	{ "2^24/s, HZ=250: 110 % keeps", 250, 15000, 1ULL << 24,
	  1107296256ULL, TP_TH_KEPT },
	{ "2^24/s, HZ=250: 110 % + 1 lowers", 250, 15000, 1ULL << 24,
	  1107296257ULL, TP_TH_LOWERED },
	/* TP_RATE_MAX on a ns clock: 2^32 * 60 per period */
	{ "2^32/s x 60 s ns: 110 % keeps", 1000000000, 60000000000ULL,
	  TP_RATE_MAX, 283467841536ULL, TP_TH_KEPT },
	{ "2^32/s x 60 s ns: 110 % + 1 lowers", 1000000000, 60000000000ULL,
	  TP_RATE_MAX, 283467841537ULL, TP_TH_LOWERED },
	{ "2^32/s x 60 s ns: 90 % keeps", 1000000000, 60000000000ULL,
	  TP_RATE_MAX, 231928233984ULL, TP_TH_KEPT },
	{ "2^32/s x 60 s ns: 90 % - 1 raises", 1000000000, 60000000000ULL,
	  TP_RATE_MAX, 231928233983ULL, TP_TH_RAISED },
};

static void tp_st_th_check_band(struct tp_st *st)
{
	const struct tp_st_th_band *r;
	struct tp_thresh_cfg c;
	unsigned int i;
	u64 th, cand;
	bool ok;
	int ev;

	for (i = 0; i < TP_ST_ARRAY_SIZE(tp_st_th_band_rows); i++) {
		r = &tp_st_th_band_rows[i];
		/* Linux 6.1 ref 1600: starts mid-range, one step is 200 */
		tp_st_th_cfg(&c, TP_THRESH_LINUX61, 16, r->tps, 1600,
			     r->period, r->rate);
		cand = 12345;
		ok = !tp_thresh_init(&tp_st_th_obj, &c, cand, 77);
		cand += r->diff;
		ev = tp_thresh_update(&tp_st_th_obj, cand, 77 + r->period + 1);
		th = tp_thresh_get(&tp_st_th_obj);
		ok = ok && ev == r->ev;
		if (ev == TP_TH_KEPT)
			ok = ok && th == 1600;
		else if (ev == TP_TH_LOWERED)
			ok = ok && th == 1400;
		else
			ok = ok && th == 1800;
		TP_ST_CHECK(st, ok, r->name);
	}
}

/*
 * The budget: rate x period / tps candidates, from the rate in force at
 * the close (a tune in the middle of a period counts), exact for operands
 * whose products pass 2^64 (110 % and 90 % of a budget near 2^62 and
 * 2^63), saturated when the budget itself does not fit 64 bits.
 */
struct tp_st_th_big {
	const char *name;
	u32 tps;
	u64 period;
	u64 rate;
	u64 diff;
	int ev;
};

static const struct tp_st_th_big tp_st_th_big_rows[] = {
	/* budget 2^62 - 1: 110 % is 5072854620270126693.3 */
	{ "2^62 - 1 budget: 110 % keeps", 1, (1ULL << 62) - 1, 1,
	  5072854620270126693ULL, TP_TH_KEPT },
	{ "2^62 - 1 budget: 110 % + 1 lowers", 1, (1ULL << 62) - 1, 1,
	  5072854620270126694ULL, TP_TH_LOWERED },
	{ "2^62 - 1 budget: 90 % keeps", 1, (1ULL << 62) - 1, 1,
	  4150517416584649112ULL, TP_TH_KEPT },
	{ "2^62 - 1 budget: 90 % - 1 raises", 1, (1ULL << 62) - 1, 1,
	  4150517416584649111ULL, TP_TH_RAISED },
	/* budget 2^63 - 2: 90 % is 8301034833169298225.4 */
	{ "2^63 - 2 budget: 90 % keeps", 1, (1ULL << 62) - 1, 2,
	  8301034833169298225ULL, TP_TH_KEPT },
	{ "2^63 - 2 budget: 90 % - 1 raises", 1, (1ULL << 62) - 1, 2,
	  8301034833169298224ULL, TP_TH_RAISED },
	{ "2^63 - 2 budget: 2^63 - 1 keeps", 1, (1ULL << 62) - 1, 2,
	  (1ULL << 63) - 1, TP_TH_KEPT },
	/* 2^94 and 1.98e19: saturated, not wrapped to a small budget */
	{ "2^94 budget saturates: 2^63 - 1 raises", 1, 1ULL << 62,
	  TP_RATE_MAX, (1ULL << 63) - 1, TP_TH_RAISED },
	{ "ns clock, 2^62 ns x 2^32/s saturates", 1000000000, 1ULL << 62,
	  TP_RATE_MAX, (1ULL << 63) - 1, TP_TH_RAISED },
};

static void tp_st_th_check_budget(struct tp_st *st)
{
	const struct tp_st_th_big *r;
	struct tp_thresh *t = &tp_st_th_obj;
	struct tp_thresh_cfg c;
	unsigned int i;
	bool ok;
	int ev;

	for (i = 0; i < TP_ST_ARRAY_SIZE(tp_st_th_big_rows); i++) {
		r = &tp_st_th_big_rows[i];
		tp_st_th_cfg(&c, TP_THRESH_LINUX61, 16, r->tps, 1600, r->period,
			     r->rate);
		ok = !tp_thresh_init(t, &c, 5, 0);
		ok = ok && tp_thresh_update(t, 5 + r->diff, r->period) ==
			   TP_TH_IDLE;
		ev = tp_thresh_update(t, 5 + r->diff, r->period + 1);
		ok = ok && ev == r->ev;
		ok = ok && tp_thresh_get(t) == (ev == TP_TH_KEPT ? 1600 :
						ev == TP_TH_LOWERED ? 1400 :
						1800);
		TP_ST_CHECK(st, ok, r->name);
	}

	/* 1000/s over 1 s; a tune in the period doubles the budget */
	tp_st_th_cfg(&c, TP_THRESH_LINUX61, 16, 1000, 1600, 1000, 1000);
	ok = !tp_thresh_init(t, &c, 0, 0);
	c.rate_limit = 2000;
	ok = ok && !tp_thresh_tune(t, &c);
	ok = ok && tp_thresh_update(t, 1500, 1001) == TP_TH_RAISED;
	ok = ok && tp_thresh_get(t) == 1800;
	/* and halves it again: the same count is now over it */
	c.rate_limit = 1000;
	ok = ok && !tp_thresh_tune(t, &c);
	ok = ok && tp_thresh_update(t, 3000, 2002) == TP_TH_LOWERED;
	ok = ok && tp_thresh_get(t) == 1600;
	TP_ST_CHECK(st, ok, "the rate at the close judges the period");
}

/* A counter below the baseline counts as none; the baseline stays. */
static void tp_st_th_check_backwards(struct tp_st *st)
{
	struct tp_thresh_cfg c;
	bool ok;

	tp_st_th_cfg(&c, TP_THRESH_LINUX61, 16, 1000, 1600, 1000, 1000);
	ok = !tp_thresh_init(&tp_st_th_obj, &c, 5000, 0);
	ok = ok && tp_thresh_update(&tp_st_th_obj, 4000, 1001) ==
		   TP_TH_RAISED;
	/* 1100 above the old baseline of 5000: in the band */
	ok = ok && tp_thresh_update(&tp_st_th_obj, 6100, 2002) == TP_TH_KEPT;
	/* the baseline moved to 6100: 1101 more lowers */
	ok = ok && tp_thresh_update(&tp_st_th_obj, 7201, 3003) ==
		   TP_TH_LOWERED;
	TP_ST_CHECK(st, ok, "counter below the baseline counts as none");
}

/* ---- one adjustment per period, time wrap -------------------------------- */

struct tp_st_th_period {
	const char *name;
	u64 start;
	u64 period;
};

static const struct tp_st_th_period tp_st_th_period_rows[] = {
	{ "period from 0", 0, 100 },
	{ "period of 1 tick", 5, 1 },
	{ "period across 2^32", (1ULL << 32) - 50, 100 },
	{ "period across 2^63", (1ULL << 63) - 50, 100 },
	{ "period across 2^64", ~0ULL - 49, 100 },
	/* start + period does not wrap, the close after it does */
	{ "period ending at 2^64 - 1", ~0ULL - 100, 100 },
	{ "period TP_TIME_MAX across 2^64", ~0ULL - 4, TP_TIME_MAX },
};

static bool tp_st_th_one_period(struct tp_thresh *t, u64 start, u64 period)
{
	u64 k, lim;

	/* rate 0 and no candidates: every close keeps */
	lim = period < 200 ? period : 200;
	for (k = 0; k <= lim; k++)
		if (tp_thresh_update(t, 0, start + k) != TP_TH_IDLE)
			return false;
	for (k = period - 3; k <= period; k++)
		if (tp_thresh_update(t, 0, start + k) != TP_TH_IDLE)
			return false;
	/* the past is never "over" */
	if (tp_thresh_update(t, 0, start - 1) != TP_TH_IDLE ||
	    tp_thresh_update(t, 0, start - period) != TP_TH_IDLE)
		return false;
	if (tp_thresh_update(t, 0, start + period + 1) != TP_TH_KEPT)
		return false;
	/* closed: the same instant again is a new, idle period */
	return tp_thresh_update(t, 0, start + period + 1) == TP_TH_IDLE;
}

static void tp_st_th_check_periods(struct tp_st *st)
{
	const struct tp_st_th_period *r;
	struct tp_thresh_cfg c;
	unsigned int i;
	bool ok;

	for (i = 0; i < TP_ST_ARRAY_SIZE(tp_st_th_period_rows); i++) {
		r = &tp_st_th_period_rows[i];
		tp_st_th_cfg(&c, TP_THRESH_RFC2020, 0, 1000, 0, r->period, 0);
		ok = !tp_thresh_init(&tp_st_th_obj, &c, 0, r->start);
		ok = ok && tp_st_th_one_period(&tp_st_th_obj, r->start,
					       r->period);
		/* the next period starts where this one was closed */
		ok = ok && tp_st_th_one_period(&tp_st_th_obj,
					       r->start + r->period + 1,
					       r->period);
		TP_ST_CHECK(st, ok, r->name);
	}
}

/**
 * tp_st_threshold_period() - run the period close's vectors
 * @st: the run
 *
 * Return: the number of failed cases this call added.
 */
static int tp_st_threshold_period(struct tp_st *st)
{
	unsigned int failed = st->failed;

	tp_st_th_check_band(st);
	tp_st_th_check_budget(st);
	tp_st_th_check_backwards(st);
	tp_st_th_check_periods(st);
	return st->failed - failed;
}

#endif /* TP_SELFTEST_THRESHOLD_PERIOD_H */
