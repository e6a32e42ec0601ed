/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Self-test vectors of the hot-threshold controller (the 2020 RFC's patch
 * 8/8, Linux 6.1's numa_promotion_adjust_threshold()). Shared by the
 * CMocka suite and the kernel self-test module: public API only, no libc,
 * no 64-bit division, small stack frames.
 *
 * This file has the configuration checks, the kernel's defaults, the
 * meaning of 0 and both variants walked to both bounds, with the helpers
 * the other two use: threshold_period.h has what a period's close
 * decides (the band, the budget, the baseline, the period's end across
 * the clock's wraps), threshold_ref.h the reference moved under a
 * running controller (the fixed faults, one step, reset, following it).
 * tp_st_threshold() runs them all.
 */
#ifndef TP_SELFTEST_THRESHOLD_H
#define TP_SELFTEST_THRESHOLD_H

#include "selftest.h"

#ifndef EINVAL
#define EINVAL		22
#endif
#ifndef ERANGE
#define ERANGE		34
#endif

#define TP_ST_TH_NOCFG	0x1U	/* pass a NULL config */
#define TP_ST_TH_NOOBJ	0x2U	/* pass a NULL controller */
#define TP_ST_TH_SZ0	0x4U	/* @sz 0 */
#define TP_ST_TH_SZLOW	0x8U	/* @sz one byte short */
#define TP_ST_TH_TAIL	0x10U	/* @sz 8 bytes longer, a non-zero tail byte */
#define TP_ST_TH_SZBIG	0x20U	/* @sz 8 bytes longer, zero tail */

static void tp_st_th_cfg(struct tp_thresh_cfg *c, u32 variant, u32 steps,
			 u32 tps, u64 ref_th, u64 period, u64 rate)
{
	c->sz = sizeof(*c);
	c->variant = variant;
	c->steps = steps;
	c->tps = tps;
	c->ref_th = ref_th;
	c->period = period;
	c->rate_limit = rate;
	c->batch = 0;
}

static void tp_st_th_fill(void *p, size_t n, u8 v)
{
	u8 *b = p;
	size_t i;

	for (i = 0; i < n; i++)
		b[i] = v;
}

static bool tp_st_th_same(const void *a, const void *b, size_t n)
{
	const u8 *x = a, *y = b;
	size_t i;

	for (i = 0; i < n; i++)
		if (x[i] != y[i])
			return false;
	return true;
}

/* Adds @diff candidates and closes the period one tick after it is over. */
static int tp_st_th_close(struct tp_thresh *t, u64 *cand, u64 diff, u64 *now,
			  u64 period)
{
	*cand += diff;
	*now += period + 1;
	return tp_thresh_update(t, *cand, *now);
}

/* ---- configuration checks ------------------------------------------------ */

struct tp_st_th_bad {
	const char *name;
	u32 how;
	u32 variant;
	u32 steps;
	u32 tps;
	u64 ref_th;
	u64 period;
	u64 rate;
	int ret;	/* of init */
	int tune;	/* of a tune of a controller at 1000 ticks/s */
};

static const struct tp_st_th_bad tp_st_th_bad_rows[] = {
	{ "NULL config", TP_ST_TH_NOCFG, 0, 0, 1000, 0, 0, 0, -EINVAL,
	  -EINVAL },
	{ "NULL controller", TP_ST_TH_NOOBJ, 0, 0, 1000, 0, 0, 0, -EINVAL,
	  -EINVAL },
	{ "sz 0", TP_ST_TH_SZ0, 0, 0, 1000, 0, 0, 0, -EINVAL, -EINVAL },
	{ "sz one byte short", TP_ST_TH_SZLOW, 0, 0, 1000, 0, 0, 0, -EINVAL,
	  -EINVAL },
	{ "sz + 8, non-zero tail", TP_ST_TH_TAIL, 0, 0, 1000, 0, 0, 0,
	  -EINVAL, -EINVAL },
	{ "sz + 8, zero tail", TP_ST_TH_SZBIG, 0, 0, 1000, 5, 5, 5, 0, 0 },
	{ "variant 3", 0, 3, 0, 1000, 0, 0, 0, -EINVAL, -EINVAL },
	{ "variant ~0", 0, ~0U, 0, 1000, 0, 0, 0, -EINVAL, -EINVAL },
	{ "tps 0", 0, 0, 0, 0, 0, 0, 0, -EINVAL, -EINVAL },
	{ "tps TP_TPS_MAX + 1", 0, 0, 0, TP_TPS_MAX + 1, 0, 0, 0, -EINVAL,
	  -EINVAL },
	{ "steps TP_THRESH_STEPS_MAX + 1", 0, 1, TP_THRESH_STEPS_MAX + 1,
	  1000, 0, 0, 0, -EINVAL, -EINVAL },
	{ "ref_th TP_TIME_MAX + 1", 0, 0, 0, 1000, TP_TIME_MAX + 1, 0, 0,
	  -ERANGE, -ERANGE },
	{ "ref_th ~0", 0, 1, 0, 1000, ~0ULL, 0, 0, -ERANGE, -ERANGE },
	{ "period TP_TIME_MAX + 1", 0, 0, 0, 1000, 0, TP_TIME_MAX + 1, 0,
	  -ERANGE, -ERANGE },
	{ "rate TP_RATE_MAX + 1", 0, 0, 0, 1000, 0, 0, TP_RATE_MAX + 1,
	  -ERANGE, -ERANGE },
	{ "rate ~0", 0, 1, 0, 1000, 0, 0, ~0ULL, -ERANGE, -ERANGE },
	/* a tune to another clock: -EINVAL wins over -ERANGE */
	{ "ref_th TP_TIME_MAX + 1, tps 999", 0, 0, 0, 999, TP_TIME_MAX + 1, 0,
	  0, -ERANGE, -EINVAL },
	/* The largest accepted values; a tune cannot change the clock. */
	{ "tps 1", 0, 0, 0, 1, 0, 0, 0, 0, -EINVAL },
	{ "tps 1001: tune to another clock", 0, 0, 0, 1001, 0, 0, 0, 0,
	  -EINVAL },
	{ "tps TP_TPS_MAX", 0, 1, 0, TP_TPS_MAX, 0, 0, 0, 0, -EINVAL },
	{ "steps TP_THRESH_STEPS_MAX", 0, 0, TP_THRESH_STEPS_MAX, 1000, 0, 0,
	  0, 0, 0 },
	{ "ref_th TP_TIME_MAX", 0, 1, 0, 1000, TP_TIME_MAX, 0, 0, 0, 0 },
	{ "period TP_TIME_MAX", 0, 0, 0, 1000, 0, TP_TIME_MAX, 0, 0, 0 },
	{ "rate TP_RATE_MAX", 0, 1, 0, TP_TPS_MAX, 0, 0, TP_RATE_MAX, 0,
	  -EINVAL },
	{ "rate TP_RATE_MAX, ms", 0, 1, 0, 1000, 0, 0, TP_RATE_MAX, 0, 0 },
};

static struct tp_thresh tp_st_th_obj, tp_st_th_copy;
/* A configuration followed by bytes a newer header might define. */
static struct {
	struct tp_thresh_cfg c;
	u8 tail[8];
} tp_st_th_big;

/* The configuration of row @r: &tp_st_th_big.c, or NULL. */
static const struct tp_thresh_cfg *
tp_st_th_bad_cfg(const struct tp_st_th_bad *r)
{
	struct tp_thresh_cfg *c = &tp_st_th_big.c;

	tp_st_th_fill(&tp_st_th_big, sizeof(tp_st_th_big), 0);
	tp_st_th_cfg(c, r->variant, r->steps, r->tps, r->ref_th, r->period,
		     r->rate);
	if (r->how & TP_ST_TH_SZ0)
		c->sz = 0;
	if (r->how & TP_ST_TH_SZLOW)
		c->sz = sizeof(*c) - 1;
	if (r->how & (TP_ST_TH_SZBIG | TP_ST_TH_TAIL))
		c->sz = sizeof(*c) + sizeof(tp_st_th_big.tail);
	if (r->how & TP_ST_TH_TAIL)
		tp_st_th_big.tail[7] = 1;
	return (r->how & TP_ST_TH_NOCFG) ? NULL : c;
}

static void tp_st_th_check_cfgs(struct tp_st *st)
{
	const struct tp_st_th_bad *r;
	struct tp_thresh_cfg c;
	struct tp_thresh *t;
	unsigned int i;
	int ret;
	bool ok;

	for (i = 0; i < TP_ST_ARRAY_SIZE(tp_st_th_bad_rows); i++) {
		r = &tp_st_th_bad_rows[i];
		t = (r->how & TP_ST_TH_NOOBJ) ? NULL : &tp_st_th_obj;

		/* init: on error the object keeps every byte */
		tp_st_th_fill(&tp_st_th_obj, sizeof(tp_st_th_obj), 0xa5);
		tp_st_th_copy = tp_st_th_obj;
		ret = tp_thresh_init(t, tp_st_th_bad_cfg(r), 0, 0);
		ok = ret == r->ret;
		if (r->ret)
			ok = ok && tp_st_th_same(&tp_st_th_obj, &tp_st_th_copy,
						 sizeof(tp_st_th_obj));
		TP_ST_CHECK(st, ok, r->name);

		/* tune of an adjusted controller: on error no change */
		tp_st_th_cfg(&c, TP_THRESH_RFC2020, 0, 1000, 1000, 0, 0);
		ok = !tp_thresh_init(&tp_st_th_obj, &c, 3, 5);
		ok = ok && tp_thresh_update(&tp_st_th_obj, 4, 6) ==
			   TP_TH_LOWERED;
		tp_st_th_copy = tp_st_th_obj;
		ret = tp_thresh_tune(t, tp_st_th_bad_cfg(r));
		ok = ok && ret == r->tune;
		if (r->tune)
			ok = ok && tp_st_th_same(&tp_st_th_obj, &tp_st_th_copy,
						 sizeof(tp_st_th_obj));
		else	/* the period started at 6 is kept */
			ok = ok && tp_thresh_update(&tp_st_th_obj, 4, 6) ==
				   TP_TH_IDLE;
		TP_ST_CHECK(st, ok, r->name);
	}
}

/* ---- the kernel's defaults, and 0 ------------------------------------- */

struct tp_st_th_def {
	const char *name;
	u32 variant;
	u32 tps;
	u32 steps;	/* 0 or the default written out */
	u64 ref;	/* 1000 ms in ticks */
	u64 period;	/* 60000 ms in ticks */
	u64 lowered;	/* after one step down: ref - step */
};

static const struct tp_st_th_def tp_st_th_def_rows[] = {
	{ "1 s of 60 s, ms clock, rfc2020", 0, 1000, 0, 1000, 60000, 938 },
	{ "1 s of 60 s, ms clock, linux61", 1, 1000, 0, 1000, 60000, 875 },
	{ "1 s of 60 s, HZ=250, rfc2020", 0, 250, 0, 250, 15000, 235 },
	{ "1 s of 60 s, HZ=250, linux61", 1, 250, 0, 250, 15000, 219 },
	{ "1 s of 60 s, ns clock, rfc2020", 0, 1000000000, 0, 1000000000ULL,
	  60000000000ULL, 937500000ULL },
	{ "1 s of 60 s, ns clock, linux61", 1, 1000000000, 0, 1000000000ULL,
	  60000000000ULL, 875000000ULL },
	{ "16 steps written out, rfc2020", 0, 1000, 16, 1000, 60000, 938 },
	{ "16 steps written out, linux61", 1, 1000, 16, 1000, 60000, 875 },
};

static void tp_st_th_check_defaults(struct tp_st *st)
{
	const struct tp_st_th_def *r;
	struct tp_thresh *t = &tp_st_th_obj;
	struct tp_thresh_cfg c;
	unsigned int i;
	bool ok;

	for (i = 0; i < TP_ST_ARRAY_SIZE(tp_st_th_def_rows); i++) {
		r = &tp_st_th_def_rows[i];
		/* rate 0: one candidate is over budget, none is not below */
		tp_st_th_cfg(&c, r->variant, r->steps, r->tps, r->ref,
			     r->period, 0);
		ok = !tp_thresh_init(t, &c, 0, 0);
		ok = ok && tp_thresh_get(t) == r->ref;
		ok = ok && tp_thresh_update(t, 1, r->period) == TP_TH_IDLE;
		ok = ok && tp_thresh_update(t, 1, r->period + 1) ==
			   TP_TH_LOWERED;
		ok = ok && tp_thresh_get(t) == r->lowered;
		TP_ST_CHECK(st, ok, r->name);
	}
}

/*
 * 0 keeps the kernel's meaning: a reference threshold of 0 is a threshold
 * of 0 (nothing is hot under Linux 6.1's strict test), which no
 * adjustment moves; a period of 0 closes at every tick.
 */
static void tp_st_th_check_zero(struct tp_st *st)
{
	struct tp_thresh *t = &tp_st_th_obj;
	struct tp_thresh_cfg c;
	u64 cand = 0, now = 0;
	bool ok;
	u32 v;
	int k;

	for (v = 0; v <= 1; v++) {
		tp_st_th_cfg(&c, v, 0, 1000, 0, 10, 1000);
		ok = !tp_thresh_init(t, &c, cand, now);
		ok = ok && tp_thresh_get(t) == 0;
		for (k = 0; k < 4; k++) {
			ok = ok && tp_st_th_close(t, &cand, 1000, &now, 10) ==
				   TP_TH_KEPT;
			ok = ok && tp_thresh_get(t) == 0;
			ok = ok && tp_st_th_close(t, &cand, 0, &now, 10) ==
				   TP_TH_KEPT;
			ok = ok && tp_thresh_get(t) == 0;
		}
		TP_ST_CHECK(st, ok, v ? "linux61: ref_th 0 is threshold 0" :
					"rfc2020: ref_th 0 is threshold 0");
	}

	/* an adjusted threshold reads 0 under a reference of 0, and back */
	tp_st_th_cfg(&c, TP_THRESH_LINUX61, 16, 1000, 1600, 10, 1000);
	ok = !tp_thresh_init(t, &c, cand, now);
	ok = ok && tp_st_th_close(t, &cand, 1000, &now, 10) == TP_TH_LOWERED;
	ok = ok && tp_thresh_get(t) == 1400;
	c.ref_th = 0;
	ok = ok && !tp_thresh_tune(t, &c);
	ok = ok && tp_thresh_get(t) == 0;
	c.ref_th = 1600;
	ok = ok && !tp_thresh_tune(t, &c);
	ok = ok && tp_thresh_get(t) == 1400;
	TP_ST_CHECK(st, ok, "ref_th 0 after an adjustment reads 0");

	/* period 0: every tick closes one, and only one */
	tp_st_th_cfg(&c, TP_THRESH_RFC2020, 16, 1000, 1600, 0, 1000);
	ok = !tp_thresh_init(t, &c, 0, 100);
	ok = ok && tp_thresh_update(t, 0, 100) == TP_TH_IDLE;
	for (now = 101; now < 120; now++) {
		ok = ok && tp_thresh_update(t, 0, now) != TP_TH_IDLE;
		ok = ok && tp_thresh_update(t, 0, now) == TP_TH_IDLE;
	}
	/* 1 candidate a tick, the budget of 1000/s over 0 ticks is 0 */
	ok = ok && tp_thresh_update(t, 1, now) == TP_TH_LOWERED;
	TP_ST_CHECK(st, ok, "period 0 closes at every tick");
}

/* ---- both variants driven to both bounds --------------------------------- */

struct tp_st_th_walk {
	const char *name;
	u32 variant;
	u32 steps;
	u64 ref;
	u64 unit;	/* expected step and lower bound */
	u64 max;	/* expected upper bound */
	u32 lowers;	/* steps from the reference down to the floor */
	u32 raises;	/* steps from the floor up to the ceiling */
};

static const struct tp_st_th_walk tp_st_th_walk_rows[] = {
	{ "rfc2020 ref 1600: [100, 1600]", 0, 16, 1600, 100, 1600, 15, 15 },
	{ "linux61 ref 1600: [200, 3200]", 1, 16, 1600, 200, 3200, 7, 15 },
	{ "rfc2020 ref 1000: [62, 1000]", 0, 0, 1000, 62, 1000, 16, 16 },
	{ "linux61 ref 1000: [125, 2000]", 1, 0, 1000, 125, 2000, 7, 15 },
	{ "rfc2020 4 steps: [250, 1000]", 0, 4, 1000, 250, 1000, 3, 3 },
	{ "linux61 4 steps: [500, 2000]", 1, 4, 1000, 500, 2000, 1, 3 },
	{ "rfc2020 ref 10 < steps: [1, 10]", 0, 16, 10, 1, 10, 9, 9 },
	{ "linux61 ref 5 < steps: [1, 10]", 1, 16, 5, 1, 10, 4, 9 },
	{ "rfc2020 ref 1, 65536 steps: [1, 1]", 0, TP_THRESH_STEPS_MAX, 1, 1, 1,
	  0, 0 },
	{ "rfc2020 ref TP_TIME_MAX", 0, 16, TP_TIME_MAX, TP_TIME_MAX >> 4,
	  TP_TIME_MAX, 15, 15 },
	{ "linux61 ref TP_TIME_MAX doubled", 1, 16, TP_TIME_MAX,
	  TP_TIME_MAX >> 3, TP_TIME_MAX << 1, 7, 15 },
};

/* Runs @n closes expecting @ev and one @unit per step; false on a miss. */
static bool tp_st_th_steps(struct tp_thresh *t, const struct tp_st_th_walk *r,
			   u64 *cand, u64 *now, u32 n, u64 diff, int ev)
{
	u64 prev, th, want;
	u32 k;

	for (k = 0; k < n; k++) {
		prev = tp_thresh_get(t);
		if (tp_st_th_close(t, cand, diff, now, 10) != ev)
			return false;
		th = tp_thresh_get(t);
		if (ev == TP_TH_LOWERED)
			want = prev >= 2 * r->unit ? prev - r->unit : r->unit;
		else if (ev == TP_TH_RAISED)
			want = prev + r->unit < r->max ? prev + r->unit :
							r->max;
		else
			want = prev;
		if (th != want || th < r->unit || th > r->max || !th)
			return false;
	}
	return true;
}

static void tp_st_th_check_walks(struct tp_st *st)
{
	const struct tp_st_th_walk *r;
	struct tp_thresh_cfg c;
	unsigned int i;
	u64 now, cand;
	bool ok;

	for (i = 0; i < TP_ST_ARRAY_SIZE(tp_st_th_walk_rows); i++) {
		r = &tp_st_th_walk_rows[i];
		/* 1000 pages/s over 10 ms: 10 candidates per period */
		tp_st_th_cfg(&c, r->variant, r->steps, 1000, r->ref, 10, 1000);
		cand = 0;
		now = 0;
		ok = !tp_thresh_init(&tp_st_th_obj, &c, cand, now);
		ok = ok && tp_thresh_get(&tp_st_th_obj) == r->ref;
		TP_ST_CHECK(st, ok, r->name);

		/* sustained over-demand: down to the floor, and it holds */
		ok = tp_st_th_steps(&tp_st_th_obj, r, &cand, &now, r->lowers,
				    100, TP_TH_LOWERED);
		ok = ok && tp_thresh_get(&tp_st_th_obj) == r->unit;
		ok = ok && tp_st_th_steps(&tp_st_th_obj, r, &cand, &now, 4,
					  100, TP_TH_KEPT);
		TP_ST_CHECK(st, ok, r->name);

		/* sustained under-demand: up to the ceiling, and it holds */
		ok = tp_st_th_steps(&tp_st_th_obj, r, &cand, &now, r->raises,
				    0, TP_TH_RAISED);
		ok = ok && tp_thresh_get(&tp_st_th_obj) == r->max;
		ok = ok && tp_st_th_steps(&tp_st_th_obj, r, &cand, &now, 4, 0,
					  TP_TH_KEPT);
		TP_ST_CHECK(st, ok, r->name);
	}
}

static int tp_st_threshold_period(struct tp_st *st);
static int tp_st_threshold_ref(struct tp_st *st);

/**
 * tp_st_threshold() - run the threshold controller's vectors
 * @st: the run
 *
 * The configuration checks, the defaults, 0 and the walks, then
 * tp_st_threshold_period() and tp_st_threshold_ref().
 *
 * Return: the number of failed cases this call added.
 */
static int tp_st_threshold(struct tp_st *st)
{
	unsigned int failed = st->failed;

	tp_st_th_check_cfgs(st);
	tp_st_th_check_defaults(st);
	tp_st_th_check_zero(st);
	tp_st_th_check_walks(st);
	tp_st_threshold_period(st);
	tp_st_threshold_ref(st);
	return st->failed - failed;
}

#include "threshold_period.h"
#include "threshold_ref.h"

#endif /* TP_SELFTEST_THRESHOLD_H */
