// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Promotion rate limiter: a GCRA token bucket in one cmpxchg'd word, and the
 * per-second windows of the 2020 RFC and Linux 6.1.
 *
 * Bucket units. The TAT is kept in units of 2^-shift tick, shift chosen at
 * init so that a second holds U = tps << shift units, 2^48 <= U < 2^49: the
 * units depend on the clock only, never on the rate. A page costs
 * cost = ceil(U / rate) units (rounded up: the bucket never admits more
 * than the rate; 2^16 <= cost for rates up to 2^32 pages per second, so it
 * admits at least rate x (1 - 2^-16)). Capacities and prices are limited to
 * 2^61 units (2^12 to 2^13 seconds), so a debt plus a request stays below
 * 2^62 and every difference of scaled times is exact as a signed value
 * while the TAT is fresh. now << shift wraps modulo 2^64; only signed
 * differences of scaled times are used, and a TAT whose latest admission
 * is more than 2^61 units old is stale (a full bucket), whatever the gap.
 */
#include "tp_inline.h"

/* Derived settings of @cfg, or an error; nothing is written on error. */
int __tp_limiter_check(const struct tp_limiter_cfg *cfg, u32 shift,
		       struct tp_limiter_set *s)
{
	u64 burst, units;
	int ret;

	if (!cfg)
		return -EINVAL;
	ret = __tp_cfg_check(cfg, cfg->sz, sizeof(*cfg));
	if (ret)
		return ret;
	if (cfg->variant > TP_LIMITER_WINDOW_LINUX61)
		return -EINVAL;
	if (!cfg->tps || cfg->tps > TP_TPS_MAX)
		return -EINVAL;
	if (cfg->cand_batch > TP_CAND_BATCH_MAX)
		return -EINVAL;
	if (cfg->rate > TP_RATE_MAX || cfg->burst > TP_RATE_MAX)
		return -ERANGE;

	s->variant = cfg->variant;
	s->batch = cfg->cand_batch ? cfg->cand_batch : 1;
	s->limit = cfg->rate;
	s->cost = 0;
	s->tau = 0;
	s->n_max = 0;
	if (cfg->variant != TP_LIMITER_BUCKET || !cfg->rate)
		return 0;	/* a rate of 0: cost 0 refuses everything */

	units = (u64)cfg->tps << shift;
	burst = cfg->burst ? cfg->burst : cfg->rate;
	s->cost = tp_div64_u64(units + cfg->rate - 1, cfg->rate);
	if (tp_mul_sat(burst, s->cost) > TP_BUCKET_UNITS_MAX)
		return -ERANGE;
	s->tau = burst * s->cost;
	s->n_max = tp_div64_u64(TP_BUCKET_UNITS_MAX, s->cost);
	return 0;
}

void __tp_limiter_set_write(struct tp_limiter_set *c,
			    const struct tp_limiter_set *s)
{
	tp_write_once(c->cost, s->cost);
	tp_write_once(c->tau, s->tau);
	tp_write_once(c->n_max, s->n_max);
	tp_write_once(c->limit, s->limit);
	tp_write_once(c->variant, s->variant);
	tp_write_once(c->batch, s->batch);
}

/* Publish @s as the settings: the latch's two steps. */
static void limiter_publish(struct tp_limiter *l, const struct tp_limiter_set *s)
{
	int i;

	for (i = 0; i < 2; i++) {
		tp_latch_flip(&l->latch);
		__tp_limiter_set_write(&l->set[i], s);
	}
}

/* Read one whole copy of the settings; false if they kept changing. */
static bool limiter_read(const struct tp_limiter *l, struct tp_limiter_set *s)
{
	unsigned int seq, tries;

	for (tries = 0; tries < TP_RETRIES; tries++) {
		seq = tp_latch_begin(&l->latch);
		__tp_limiter_set_read(s, &l->set[seq & 1]);
		if (!tp_latch_retry(&l->latch, seq))
			return true;
	}
	return false;
}

/* The bucket's units for @cfg's clock; 0 for a clock of 0 (refused). */
static u32 limiter_shift(const struct tp_limiter_cfg *cfg)
{
	return cfg->tps ? __tp_bucket_shift(cfg->tps) : 0;
}

int tp_limiter_init(struct tp_limiter *l, const struct tp_limiter_cfg *cfg,
		    u64 now)
{
	struct tp_limiter_set s;
	u32 shift;
	int ret;

	if (!l || !cfg)
		return -EINVAL;
	shift = limiter_shift(cfg);
	ret = __tp_limiter_check(cfg, shift, &s);
	if (ret)
		return ret;

	l->tps = cfg->tps;
	l->shift = shift;
	/* 2^61 units of idleness make a TAT stale. */
	l->stale = TP_BUCKET_UNITS_MAX >> shift;
	tp_latch_init(&l->latch);
	limiter_publish(l, &s);
	/* A full bucket, an expired window, nothing counted. */
	__tp_limiter_state_init(&l->st, shift, l->tps, now);
	tp_atomic64_set(&l->count, 0);
	return 0;
}

int tp_limiter_tune(struct tp_limiter *l, const struct tp_limiter_cfg *cfg)
{
	struct tp_limiter_set s;
	int ret;

	if (!l || !cfg)
		return -EINVAL;
	TP_ASSERT(l->tps);	/* initialised */
	/*
	 * Validated on its own clock, as init does: l->shift fits l->tps
	 * only, and another clock's ticks shifted by it may pass 2^64 (a
	 * cost of 0, a division by 0). A different clock is then refused,
	 * -EINVAL winning over -ERANGE: the live state is in units of this
	 * one.
	 */
	ret = __tp_limiter_check(cfg, limiter_shift(cfg), &s);
	if (ret != -EINVAL && cfg->tps != l->tps)
		ret = -EINVAL;
	if (ret)
		return ret;
	limiter_publish(l, &s);
	return 0;
}

bool tp_limiter_consume(struct tp_limiter *l, struct tp_limiter_cpu *cpu,
			u64 n, u64 now)
{
	const struct tp_limiter_set *c;
	u64 cost, tau, n_max, limit;
	u32 variant, batch, tries;
	unsigned int seq;
	int ret = -EBUSY;

	TP_ASSERT(l && l->tps);	/* initialised */
	if (!n)
		return true;
	/* Only the fields of the variant in force, read into registers. */
	for (tries = 0; tries < TP_RETRIES; tries++) {
		seq = tp_latch_begin(&l->latch);
		c = &l->set[seq & 1];
		variant = tp_read_once(c->variant);
		if (variant == TP_LIMITER_BUCKET) {
			cost = tp_read_once(c->cost);
			tau = tp_read_once(c->tau);
			n_max = tp_read_once(c->n_max);
			if (tp_latch_retry(&l->latch, seq))
				continue;
			ret = __tp_bucket_take(&l->st, cost, tau, n_max,
					       l->shift, l->stale, n, now);
			break;
		}
		limit = tp_read_once(c->limit);
		batch = tp_read_once(c->batch);
		if (tp_latch_retry(&l->latch, seq))
			continue;
		/*
		 * More than any folio: refused, not counted, so a request near
		 * 2^64 cannot wrap the count back and free the window.
		 */
		if (tp_unlikely(n > TP_RATE_MAX))
			return false;
		/* Counted before the check, admitted or not, as the kernel. */
		if (cpu)
			__tp_count(&l->count, &cpu->diff, n, batch);
		else
			tp_atomic64_add(&l->count, n);
		return __tp_window_take(&l->st, tp_atomic64_read(&l->count),
					limit, variant, l->tps, now);
	}
	if (ret == -EBUSY && cpu)
		tp_local64_add(&cpu->busy, 1);
	return ret > 0;
}

u64 tp_limiter_available(const struct tp_limiter *l, u64 now)
{
	struct tp_limiter_set s;
	u64 used, ns, tat, debt;
	s64 d;

	TP_ASSERT(l && l->tps);
	if (!limiter_read(l, &s))
		return 0;
	if (s.variant != TP_LIMITER_BUCKET) {
		/* An expired window reopens on the next request. */
		if (tp_time_diff(now, tp_atomic64_read(&l->st.start)) >
		    (s64)l->tps)
			return s.limit;
		used = tp_atomic64_read(&l->count) -
		       tp_atomic64_read(&l->st.base);
		return used >= s.limit ? 0 : s.limit - used;
	}
	if (!s.cost)
		return 0;
	ns = now << l->shift;
	debt = 0;
	if (!__tp_bucket_stale(&l->st, l->stale, now)) {
		tat = tp_atomic64_read(&l->st.tat);
		d = (s64)(tat - ns);
		debt = d > 0 ? (u64)d : 0;
	}
	return debt >= s.tau ? 0 : tp_div64_u64(s.tau - debt, s.cost);
}

u64 tp_limiter_busy(const struct tp_limiter_cpu *cpu)
{
	TP_ASSERT(cpu);
	return tp_local64_read(&cpu->busy);
}
