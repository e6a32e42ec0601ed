// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Hot-threshold controller: the 2020 RFC's patch 8/8 and Linux 6.1's
 * numa_promotion_adjust_threshold().
 */
#include "tp_inline.h"

/* Derived settings of @cfg, or an error; nothing is written on error. */
int __tp_thresh_check(const struct tp_thresh_cfg *cfg, struct tp_thresh_set *d)
{
	u32 steps;
	int ret;

	if (!cfg)
		return -EINVAL;
	ret = __tp_cfg_check(cfg, cfg->sz, sizeof(*cfg));
	if (ret)
		return ret;
	if (cfg->variant > TP_THRESH_HISTOGRAM)
		return -EINVAL;
	if (!cfg->tps || cfg->tps > TP_TPS_MAX)
		return -EINVAL;
	if (cfg->steps > TP_THRESH_STEPS_MAX || cfg->batch > TP_CAND_BATCH_MAX)
		return -EINVAL;
	if (cfg->ref_th > TP_TIME_MAX || cfg->period > TP_TIME_MAX ||
	    cfg->rate_limit > TP_RATE_MAX)
		return -ERANGE;

	steps = cfg->steps ? cfg->steps : TP_DEFAULT_THRESH_STEPS;
	d->ref_th = cfg->ref_th;
	d->period = cfg->period;
	d->rate = cfg->rate_limit;
	/*
	 * The RFC divides ref_th by the step count, Linux 6.1 2 * ref_th
	 * (ref_th <= 2^62, so the doubling fits). A reference smaller than the
	 * step count would give a step of 0 and let the threshold fall to 0:
	 * the step of a non-zero reference is at least one tick.
	 */
	d->max = cfg->variant == TP_THRESH_RFC2020 ? d->ref_th : 2 * d->ref_th;
	d->unit = d->max ? tp_max_u64(tp_div64_u64(d->max, steps), 1) : 0;
	d->variant = cfg->variant;
	d->batch = cfg->batch ? cfg->batch : 1;
	/* The top bin starts at or above the upper bound. */
	d->shift = d->max > 1ULL << (TP_THRESH_BINS - 2) ?
		   tp_ilog2_u64(d->max - 1) + 1 - (TP_THRESH_BINS - 2) : 0;
	return 0;
}

void __tp_thresh_set_write(struct tp_thresh_set *c,
			   const struct tp_thresh_set *d)
{
	tp_write_once(c->ref_th, d->ref_th);
	tp_write_once(c->period, d->period);
	tp_write_once(c->unit, d->unit);
	tp_write_once(c->max, d->max);
	tp_write_once(c->rate, d->rate);
	tp_write_once(c->variant, d->variant);
	tp_write_once(c->shift, d->shift);
	tp_write_once(c->batch, d->batch);
}

static void thresh_publish(struct tp_thresh *t, const struct tp_thresh_set *d)
{
	int i;

	for (i = 0; i < 2; i++) {
		tp_latch_flip(&t->latch);
		__tp_thresh_set_write(&t->set[i], d);
	}
}

/* Read one whole copy of the settings; false if they kept changing. */
static bool thresh_read(const struct tp_thresh *t, struct tp_thresh_set *d)
{
	unsigned int seq, tries;

	for (tries = 0; tries < TP_RETRIES; tries++) {
		seq = tp_latch_begin(&t->latch);
		__tp_thresh_set_read(d, &t->set[seq & 1]);
		if (!tp_latch_retry(&t->latch, seq))
			return true;
	}
	return false;
}

int tp_thresh_init(struct tp_thresh *t, const struct tp_thresh_cfg *cfg,
		   u64 nr_cand, u64 now)
{
	struct tp_thresh_set d;
	int ret;

	if (!t)
		return -EINVAL;
	ret = __tp_thresh_check(cfg, &d);
	if (ret)
		return ret;

	t->tps = cfg->tps;
	tp_latch_init(&t->latch);
	thresh_publish(t, &d);
	__tp_thresh_state_init(&t->st, nr_cand, now);
	return 0;
}

int tp_thresh_tune(struct tp_thresh *t, const struct tp_thresh_cfg *cfg)
{
	struct tp_thresh_set d;
	int ret;

	if (!t)
		return -EINVAL;
	TP_ASSERT(t->tps);	/* initialised */
	ret = __tp_thresh_check(cfg, &d);
	/* Another clock; -EINVAL wins over -ERANGE. */
	if (ret != -EINVAL && cfg->tps != t->tps)
		ret = -EINVAL;
	if (ret)
		return ret;
	thresh_publish(t, &d);
	return 0;
}

/* The lower edge of bin @b of the histogram: 0, u, 2u, 4u, ... */
static u64 bin_edge(u32 shift, u32 b)
{
	return b ? 1ULL << (shift + b - 1) : 0;
}

/*
 * Halve a shared bin that held @v: a cmpxchg from @v to @v - @v / 2,
 * tried from the value it found at most TP_RETRIES times, as CPUs may be
 * adding their batches meanwhile; a bin that keeps changing stays as it is
 * until the next close. Closes are not serialised end to end: closers of
 * three periods in a row can be cooling at once, and the 1.0 subtraction
 * of half the value read (an atomic add of -(v / 2)) then took half of the
 * same value three times, below zero: the bin wrapped to about 2^64
 * (tests/model/hist.pml, -DMUTANT=5).
 */
static void bin_cool(struct tp_atomic64 *bin, u64 v)
{
	u32 tries;

	for (tries = 0; tries < TP_RETRIES && v >= 2; tries++)
		if (tp_atomic64_try_cmpxchg(bin, &v, v - v / 2))
			return;
}

/*
 * The capacity fit (TP_THRESH_HISTOGRAM): the latency below which the
 * pages counted in the shared bins fit @budget, interpolated linearly in
 * the bin where the budget runs out, clamped into [unit, max]; then the
 * bins are halved (cooling, bin_cool()).
 */
static u64 thresh_fit(struct tp_thresh_state *st,
		      const struct tp_thresh_set *set, u64 budget)
{
	u64 cum = 0, th = set->max, v, lo, hi;
	bool found = false;
	u32 b;

	for (b = 0; b < TP_THRESH_BINS; b++) {
		v = tp_atomic64_read(&st->hist[b]);
		if (!found && v > budget - cum) {
			lo = bin_edge(set->shift, b);
			hi = b + 1 < TP_THRESH_BINS ?
			     bin_edge(set->shift, b + 1) : set->max;
			th = hi > lo ? lo + __tp_mul_frac(hi - lo, budget - cum,
							  v) : lo;
			found = true;
		}
		cum = tp_add_sat(cum, v);
		bin_cool(&st->hist[b], v);
	}
	return tp_min_u64(tp_max_u64(th, set->unit), set->max);
}

/*
 * Close the period if it is over: the caller that wins the cmpxchg of the
 * start judges the candidates counted since the baseline against the
 * budget of @rate pages per second over the period, with the settings
 * @set it read. Returns an enum tp_thresh_event.
 */
int __tp_thresh_close(struct tp_thresh_state *st,
		      const struct tp_thresh_set *set, u32 tps, u64 rate,
		      u64 nr_cand, u64 now)
{
	u64 start, base, diff, th, old, ref_cand;
	s64 delta;

	start = tp_atomic64_read(&st->start);
	if (tp_time_diff(now, start) <= (s64)set->period)
		return TP_TH_IDLE;
	if (!tp_atomic64_try_cmpxchg(&st->start, &start, now))
		return TP_TH_IDLE;

	base = tp_atomic64_read(&st->base);
	delta = (s64)(nr_cand - base);
	diff = delta > 0 ? (u64)delta : 0;

	old = __tp_thresh_effective(tp_atomic64_read(&st->th), set->ref_th,
				    set->unit, set->max);
	th = old;
	/* The budget, and 110 % and 90 % of it, once per period. */
	ref_cand = __tp_mul_frac(set->period, rate, tps);
	if (set->variant == TP_THRESH_HISTOGRAM) {
		th = thresh_fit(st, set, tp_mul_sat(ref_cand, 2));
	} else if (diff > __tp_mul_frac(ref_cand, 11, 10)) {
		/*
		 * max(th - unit, unit) without the unsigned underflow (th >=
		 * unit here), nor unit + unit overflowing when unit >= 2^63.
		 */
		th = th - set->unit >= set->unit ? th - set->unit : set->unit;
	} else if (diff < __tp_mul_frac(ref_cand, 9, 10)) {
		th = tp_min_u64(tp_add_sat(th, set->unit), set->max);
	}

	if (delta > 0)
		tp_atomic64_set(&st->base, nr_cand);
	tp_atomic64_set(&st->th, th);

	if (th < old)
		return TP_TH_LOWERED;
	if (th > old)
		return TP_TH_RAISED;
	return TP_TH_KEPT;
}

int tp_thresh_update(struct tp_thresh *t, u64 nr_cand, u64 now)
{
	struct tp_thresh_set d;

	TP_ASSERT(t && t->tps);	/* initialised */
	if (!thresh_read(t, &d) || !__tp_thresh_due(&t->st, d.period, now))
		return TP_TH_IDLE;
	return __tp_thresh_close(&t->st, &d, t->tps, d.rate, nr_cand, now);
}

void tp_thresh_record(struct tp_thresh *t, struct tp_thresh_cpu *cpu,
		      u64 latency, u64 n)
{
	struct tp_thresh_set d;

	TP_ASSERT(t && t->tps && cpu);
	/* More than any folio (tp_decide() refuses it): would wrap a bin. */
	if (tp_unlikely(n > TP_RATE_MAX))
		return;
	if (!thresh_read(t, &d) || d.variant != TP_THRESH_HISTOGRAM)
		return;
	__tp_thresh_record(&t->st, cpu, d.shift, d.batch, latency, n);
}

void tp_thresh_reset(struct tp_thresh *t, bool rearm, u64 nr_cand, u64 now)
{
	TP_ASSERT(t);
	/* The bypass path calls this per fault: avoid dirtying the line. */
	__tp_thresh_forget(&t->st);
	if (rearm)
		__tp_thresh_rearm(&t->st, nr_cand, now);
}

u64 tp_thresh_get(const struct tp_thresh *t)
{
	struct tp_thresh_set d;

	TP_ASSERT(t && t->tps);
	/* Settings that keep changing: the last copy read, clamped anyway. */
	(void)thresh_read(t, &d);
	return __tp_thresh_effective(tp_atomic64_read(&t->st.th), d.ref_th,
				     d.unit, d.max);
}
