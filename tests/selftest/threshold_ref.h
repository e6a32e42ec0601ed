/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Self-test vectors of the hot-threshold controller's reference moved
 * under it: the faults fixed against the kernel (a reference raised or
 * lowered by a tune, a single step as wide as the bound), reset with and
 * without rearming, and an unadjusted threshold following the reference.
 * Uses the helpers of threshold.h; tp_st_threshold() runs
 * tp_st_threshold_ref(). Public API only, no libc, no 64-bit division,
 * small stack frames.
 */
#ifndef TP_SELFTEST_THRESHOLD_REF_H
#define TP_SELFTEST_THRESHOLD_REF_H

#include "threshold.h"

/* ---- the fixed faults ---------------------------------------------------- */

static void tp_st_th_check_ref_raised(struct tp_st *st, u32 variant,
				      u64 unit_lo, u64 unit_hi, u64 max_hi)
{
	struct tp_thresh_cfg c;
	u64 cand = 0;
	u64 now = 0, th;
	u32 kernel;
	bool ok;
	int k;

	/* ref 160: down to the floor unit_lo */
	tp_st_th_cfg(&c, variant, 16, 1000, 160, 10, 1000);
	ok = !tp_thresh_init(&tp_st_th_obj, &c, cand, now);
	for (k = 0; k < 20; k++)
		tp_st_th_close(&tp_st_th_obj, &cand, 100, &now, 10);
	ok = ok && tp_thresh_get(&tp_st_th_obj) == unit_lo;

	/* the sysctl is raised 100-fold: the step exceeds the threshold */
	tp_st_th_cfg(&c, variant, 16, 1000, 16000, 10, 1000);
	ok = ok && !tp_thresh_tune(&tp_st_th_obj, &c);
	ok = ok && tp_thresh_get(&tp_st_th_obj) == unit_hi;
	ok = ok && tp_st_th_close(&tp_st_th_obj, &cand, 100, &now, 10) ==
		   TP_TH_KEPT;
	th = tp_thresh_get(&tp_st_th_obj);
	/* the kernel's max(th - unit, unit) in unsigned int wraps */
	kernel = (u32)unit_lo - (u32)unit_hi;
	ok = ok && th == unit_hi && th <= max_hi && kernel > max_hi;
	TP_ST_CHECK(st, ok, variant ? "linux61: ref raised, no underflow" :
				      "rfc2020: ref raised, no underflow");
}

static void tp_st_th_check_ref_lowered(struct tp_st *st)
{
	struct tp_thresh_cfg c;
	u64 cand = 0;
	u64 now = 0;
	bool ok;
	int k;

	/* Linux 6.1 ref 1600 raised to its ceiling 3200 */
	tp_st_th_cfg(&c, TP_THRESH_LINUX61, 16, 1000, 1600, 10, 1000);
	ok = !tp_thresh_init(&tp_st_th_obj, &c, cand, now);
	for (k = 0; k < 10; k++)
		tp_st_th_close(&tp_st_th_obj, &cand, 0, &now, 10);
	ok = ok && tp_thresh_get(&tp_st_th_obj) == 3200;
	/* ref lowered to 800: bounds [100, 1600], clamped */
	tp_st_th_cfg(&c, TP_THRESH_LINUX61, 16, 1000, 800, 10, 1000);
	ok = ok && !tp_thresh_tune(&tp_st_th_obj, &c);
	ok = ok && tp_thresh_get(&tp_st_th_obj) == 1600;
	ok = ok && tp_st_th_close(&tp_st_th_obj, &cand, 0, &now, 10) ==
		   TP_TH_KEPT;
	ok = ok && tp_thresh_get(&tp_st_th_obj) == 1600;
	ok = ok && tp_st_th_close(&tp_st_th_obj, &cand, 100, &now, 10) ==
		   TP_TH_LOWERED;
	ok = ok && tp_thresh_get(&tp_st_th_obj) == 1500;
	TP_ST_CHECK(st, ok, "ref lowered at runtime clamps the threshold");
}

/*
 * One step: the step is the whole upper bound, so the reference is clamped
 * up to it. Mainline with ref_th TP_TIME_MAX has a step of 2^63, where
 * "th >= unit + unit" would wrap and let the threshold fall to 0.
 */
static void tp_st_th_check_one_step(struct tp_st *st)
{
	static const u64 refs[] = { 1000, 1ULL << 40, TP_TIME_MAX };
	struct tp_thresh_cfg c;
	u64 cand = 0;
	unsigned int i;
	u64 now = 0;
	bool ok;
	u32 v;
	int k;

	for (i = 0; i < TP_ST_ARRAY_SIZE(refs); i++) {
		for (v = 0; v <= 1; v++) {
			tp_st_th_cfg(&c, v, 1, 1000, refs[i], 10, 1000);
			ok = !tp_thresh_init(&tp_st_th_obj, &c, cand, now);
			ok = ok && tp_thresh_get(&tp_st_th_obj) == refs[i] << v;
			for (k = 0; k < 3; k++) {
				ok = ok && tp_st_th_close(&tp_st_th_obj, &cand,
							  100, &now, 10) ==
					   TP_TH_KEPT;
				ok = ok && tp_thresh_get(&tp_st_th_obj) ==
					   refs[i] << v;
				ok = ok && tp_st_th_close(&tp_st_th_obj, &cand,
							  0, &now, 10) ==
					   TP_TH_KEPT;
			}
			TP_ST_CHECK(st, ok, v ? "linux61, one step" :
						"rfc2020, one step");
		}
	}
}

/* ---- reset and the "0 follows the reference" rule ------------------------ */

static void tp_st_th_check_reset(struct tp_st *st)
{
	struct tp_thresh_cfg c;
	u64 cand = 0;
	u64 now = 0;
	bool ok;

	tp_st_th_cfg(&c, TP_THRESH_RFC2020, 16, 1000, 1600, 100, 1000);
	ok = !tp_thresh_init(&tp_st_th_obj, &c, cand, now);
	tp_st_th_close(&tp_st_th_obj, &cand, 1000, &now, 100);
	tp_st_th_close(&tp_st_th_obj, &cand, 1000, &now, 100);
	ok = ok && tp_thresh_get(&tp_st_th_obj) == 1400 && now == 202;

	/* no rearm: back to the reference, period and baseline kept */
	tp_thresh_reset(&tp_st_th_obj, false, 999999, 250);
	ok = ok && tp_thresh_get(&tp_st_th_obj) == 1600;
	cand += 110;	/* in the band relative to the kept baseline */
	ok = ok && tp_thresh_update(&tp_st_th_obj, cand, 302) == TP_TH_IDLE;
	ok = ok && tp_thresh_update(&tp_st_th_obj, cand, 303) == TP_TH_KEPT;
	ok = ok && tp_thresh_get(&tp_st_th_obj) == 1600;
	TP_ST_CHECK(st, ok, "reset without rearm");

	/* rearm: period restarts at 1000, baseline 50000 */
	now = 303;
	tp_st_th_close(&tp_st_th_obj, &cand, 1000, &now, 100);
	ok = tp_thresh_get(&tp_st_th_obj) == 1500;
	tp_thresh_reset(&tp_st_th_obj, true, 50000, 1000);
	ok = ok && tp_thresh_get(&tp_st_th_obj) == 1600;
	cand = 50000 + 111;
	ok = ok && tp_thresh_update(&tp_st_th_obj, cand, 1100) == TP_TH_IDLE;
	ok = ok && tp_thresh_update(&tp_st_th_obj, cand, 1101) ==
		   TP_TH_LOWERED;
	ok = ok && tp_thresh_get(&tp_st_th_obj) == 1500;
	TP_ST_CHECK(st, ok, "reset with rearm");
}

static void tp_st_th_check_follow(struct tp_st *st)
{
	struct tp_thresh_cfg c;
	u64 cand = 0;
	u64 now = 0;
	bool ok;

	/* never adjusted: follows the reference both ways */
	tp_st_th_cfg(&c, TP_THRESH_RFC2020, 16, 1000, 1000, 10, 1000);
	ok = !tp_thresh_init(&tp_st_th_obj, &c, cand, now);
	c.ref_th = 2000;
	ok = ok && !tp_thresh_tune(&tp_st_th_obj, &c);
	ok = ok && tp_thresh_get(&tp_st_th_obj) == 2000;
	c.ref_th = 500;
	ok = ok && !tp_thresh_tune(&tp_st_th_obj, &c);
	ok = ok && tp_thresh_get(&tp_st_th_obj) == 500;
	/* no candidates at the ceiling: kept (and now pinned at 500) */
	ok = ok && tp_st_th_close(&tp_st_th_obj, &cand, 0, &now, 10) ==
		   TP_TH_KEPT;
	TP_ST_CHECK(st, ok, "unadjusted threshold follows ref_th");

	/* adjusted: a new reference leaves it where it is */
	ok = tp_st_th_close(&tp_st_th_obj, &cand, 100, &now, 10) ==
	     TP_TH_LOWERED;
	ok = ok && tp_thresh_get(&tp_st_th_obj) == 469;
	c.ref_th = 2000;
	ok = ok && !tp_thresh_tune(&tp_st_th_obj, &c);
	ok = ok && tp_thresh_get(&tp_st_th_obj) == 469;
	TP_ST_CHECK(st, ok, "adjusted threshold ignores ref_th");
}

/**
 * tp_st_threshold_ref() - run the vectors of a moved reference and reset
 * @st: the run
 *
 * Return: the number of failed cases this call added.
 */
static int tp_st_threshold_ref(struct tp_st *st)
{
	unsigned int failed = st->failed;

	tp_st_th_check_ref_raised(st, TP_THRESH_RFC2020, 10, 1000, 16000);
	tp_st_th_check_ref_raised(st, TP_THRESH_LINUX61, 20, 2000, 32000);
	tp_st_th_check_ref_lowered(st);
	tp_st_th_check_one_step(st);
	tp_st_th_check_reset(st);
	tp_st_th_check_follow(st);
	return st->failed - failed;
}

#endif /* TP_SELFTEST_THRESHOLD_REF_H */
