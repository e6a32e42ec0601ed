// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Hot-threshold controller (seed 000 patch 8/8, mainline
 * numa_promotion_adjust_threshold()).
 */
#include "tp_inline.h"

/* Derived settings, computed on the init/tune path only. */
struct thresh_derived {
	u64 ref_th;
	u64 period;
	u64 unit;
	u64 max;
	u64 ref_cand;
};

static u64 ms_to_ticks(u64 ms, u32 tps)
{
	/* Round up, as msecs_to_jiffies() does. */
	return tp_div64_u64(ms * tps + 999, 1000);
}

static int thresh_check(const struct tp_thresh_cfg *cfg,
			struct thresh_derived *d)
{
	u64 twice;
	u32 steps;

	if (!cfg)
		return -EINVAL;
	if (cfg->variant > TP_THRESH_MAINLINE)
		return -EINVAL;
	if (!cfg->tps || cfg->tps > TP_TPS_MAX)
		return -EINVAL;
	if (cfg->steps > TP_THRESH_STEPS_MAX)
		return -EINVAL;
	if (cfg->ref_th > TP_TIME_MAX || cfg->period > TP_TIME_MAX ||
	    cfg->rate_limit > TP_RATE_MAX)
		return -ERANGE;

	steps = cfg->steps ? cfg->steps : TP_DEFAULT_THRESH_STEPS;
	d->ref_th = cfg->ref_th ? cfg->ref_th :
		ms_to_ticks(TP_DEFAULT_HOT_THRESHOLD_MS, cfg->tps);
	d->period = cfg->period ? cfg->period :
		ms_to_ticks(TP_DEFAULT_SCAN_PERIOD_MAX_MS, cfg->tps);

	/*
	 * The seed divides ref_th by the step count, mainline 2 * ref_th
	 * (ref_th <= 2^62, so the doubling fits). A reference smaller than the
	 * step count would give a step of 0 and let the threshold fall to 0:
	 * the step is at least one tick.
	 */
	twice = cfg->variant == TP_THRESH_MAINLINE ? 2 : 1;
	d->max = d->ref_th * twice;
	d->unit = tp_max_u64(tp_div64_u64(d->max, steps), 1);

	/*
	 * Reference candidates per period: rate_limit * period / tps. The
	 * kernel computes rate_limit * period_ms in unsigned long, which wraps
	 * on 32-bit at the default 65536 MB/s (2^24 pages/s * 60000).
	 */
	d->ref_cand = tp_mul_frac(d->period, cfg->rate_limit, cfg->tps);
	return 0;
}

static void thresh_apply(struct tp_thresh *t, const struct thresh_derived *d)
{
	tp_write_once(t->period, d->period);
	tp_write_once(t->ref_th, d->ref_th);
	tp_write_once(t->unit, d->unit);
	tp_write_once(t->max, d->max);
	tp_write_once(t->ref_cand, d->ref_cand);
}

int tp_thresh_init(struct tp_thresh *t, const struct tp_thresh_cfg *cfg,
		   u64 nr_cand, u64 now)
{
	struct thresh_derived d;
	int ret;

	if (!t)
		return -EINVAL;
	ret = thresh_check(cfg, &d);
	if (ret)
		return ret;

	thresh_apply(t, &d);
	tp_atomic64_set(&t->start, now);
	tp_atomic64_set(&t->th, 0);
	tp_atomic64_set(&t->base, nr_cand);
	return 0;
}

int tp_thresh_tune(struct tp_thresh *t, const struct tp_thresh_cfg *cfg)
{
	struct thresh_derived d;
	int ret;

	if (!t)
		return -EINVAL;
	ret = thresh_check(cfg, &d);
	if (ret)
		return ret;
	thresh_apply(t, &d);
	return 0;
}

int tp_thresh_update(struct tp_thresh *t, const u64 *nr_cand, u64 now)
{
	u64 start, base, cand, ref_cand, diff, th, old, unit, max;
	s64 delta;

	TP_ASSERT(t && nr_cand && tp_read_once(t->unit));	/* initialised */
	start = tp_atomic64_read(&t->start);
	if (tp_time_diff(now, start) <= (s64)tp_read_once(t->period))
		return TP_TH_IDLE;
	if (!tp_atomic64_cmpxchg(&t->start, start, now))
		return TP_TH_IDLE;

	cand = tp_atomic64_read(nr_cand);
	base = tp_atomic64_read(&t->base);
	delta = (s64)(cand - base);
	diff = delta > 0 ? (u64)delta : 0;

	unit = tp_read_once(t->unit);
	max = tp_read_once(t->max);
	old = tp_atomic64_read(&t->th);
	th = __tp_thresh_effective(old, tp_read_once(t->ref_th), unit, max);

	/* 110 % and 90 % of the reference, computed once per period. */
	ref_cand = tp_read_once(t->ref_cand);
	if (diff > tp_mul_frac(ref_cand, 11, 10)) {
		/*
		 * max(th - unit, unit) without the unsigned underflow (th >=
		 * unit here), nor unit + unit overflowing when unit >= 2^63.
		 */
		th = th - unit >= unit ? th - unit : unit;
	} else if (diff < tp_mul_frac(ref_cand, 9, 10)) {
		th = tp_min_u64(tp_add_sat(th, unit), max);
	}

	if (delta > 0)
		tp_atomic64_set(&t->base, cand);
	tp_atomic64_set(&t->th, th);

	old = __tp_thresh_effective(old, tp_read_once(t->ref_th), unit, max);
	if (th < old)
		return TP_TH_LOWERED;
	if (th > old)
		return TP_TH_RAISED;
	return TP_TH_KEPT;
}

void tp_thresh_reset(struct tp_thresh *t, bool rearm, u64 nr_cand, u64 now)
{
	TP_ASSERT(t);
	/* The bypass path calls this per fault: avoid dirtying the line. */
	__tp_thresh_forget(t);
	if (rearm) {
		tp_atomic64_set(&t->base, nr_cand);
		tp_atomic64_set(&t->start, now);
	}
}

u64 tp_thresh_get(const struct tp_thresh *t)
{
	TP_ASSERT(t && tp_read_once(t->unit));
	return __tp_thresh_get(t);
}
