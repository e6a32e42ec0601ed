// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Promotion rate limiter: a GCRA token bucket in one cmpxchg'd word, and the
 * kernel's per-second window counter (seed and mainline comparisons).
 *
 * Bucket arithmetic. Time is scaled so that everything is an integer: with
 * g = gcd(rate, tps), one tick is worth scale = rate/g units and one page
 * costs cost = tps/g units (rate pages per second = tps ticks). The state is
 * the theoretical arrival time TAT in units: the bucket is full when
 * TAT <= now * scale, and a request of n pages is admitted when
 * max(TAT, now * scale) + n * cost <= now * scale + tau, tau = burst * cost.
 * The products wrap modulo 2^64 consistently, so only signed differences of
 * scaled times are used. With scale <= 2^32, tps <= 2^30 and
 * burst <= 2^32, every unit quantity below stays under 2^63, and a debt
 * plus a request under 2^64.
 *
 * A TAT that lies more than tau plus one second of units ahead of now can
 * only be a stale value that an idle gap longer than 2^63 units aliased: it
 * is treated as a full bucket. Callers whose clocks disagree by less than one
 * second are never mistaken for stale.
 */
#include "tp_inline.h"

/* Trailing zeros of a non-zero u64, without libgcc's __ctzdi2 on 32-bit. */
static unsigned int ctz_u64(u64 x)
{
	u32 lo = (u32)x;

	return lo ? __builtin_ctz(lo) : 32 + __builtin_ctz((u32)(x >> 32));
}

/* Stein's binary gcd: no division. gcd(0, b) = b. */
static u64 gcd_u64(u64 a, u64 b)
{
	unsigned int shift;

	if (!a)
		return b;
	if (!b)
		return a;
	shift = ctz_u64(a | b);
	a >>= ctz_u64(a);
	do {
		b >>= ctz_u64(b);
		if (a > b) {
			u64 t = b;

			b = a;
			a = t;
		}
		b -= a;
	} while (b);
	return a << shift;
}

struct limiter_params {
	u64 scale;
	u64 cost;
	u64 tau;
	u64 limit;	/* window only */
};

static int limiter_check(const struct tp_limiter_cfg *cfg,
			 struct limiter_params *p)
{
	u64 burst, g;

	if (!cfg)
		return -EINVAL;
	if (cfg->variant > TP_LIMITER_WINDOW_MAINLINE)
		return -EINVAL;
	if (!cfg->tps || cfg->tps > TP_TPS_MAX)
		return -EINVAL;
	if (cfg->rate > TP_RATE_MAX || cfg->burst > TP_RATE_MAX)
		return -ERANGE;

	if (cfg->variant != TP_LIMITER_BUCKET) {
		p->scale = 0;
		p->cost = 0;
		p->tau = 0;
		p->limit = cfg->rate;
		return 0;
	}
	if (!cfg->rate) {
		/* Refuse everything: no request fits a zero capacity. */
		p->scale = 0;
		p->cost = 1;
		p->tau = 0;
		p->limit = 0;
		return 0;
	}
	burst = cfg->burst ? cfg->burst : cfg->rate;
	g = gcd_u64(cfg->rate, cfg->tps);
	p->scale = tp_div64_u64(cfg->rate, g);
	p->cost = tp_div64_u64(cfg->tps, g);
	p->tau = burst * p->cost;
	p->limit = 0;
	return 0;
}

/* Bucket parameters; a window's count and base are set by limiter_start(). */
static void limiter_apply(struct tp_limiter *l, const struct tp_limiter_cfg *cfg,
			  const struct limiter_params *p)
{
	if (cfg->variant == TP_LIMITER_BUCKET) {
		tp_write_once(l->bucket.scale, p->scale);
		tp_write_once(l->bucket.cost, p->cost);
		tp_write_once(l->bucket.tau, p->tau);
	} else {
		tp_write_once(l->window.limit, p->limit);
	}
	tp_write_once(l->tps, cfg->tps);
	tp_write_once(l->variant, cfg->variant);
}

static void limiter_start(struct tp_limiter *l, u64 now)
{
	if (l->variant == TP_LIMITER_BUCKET) {
		/* TAT == now: a full bucket. */
		tp_atomic64_set(&l->tat, now * l->bucket.scale);
	} else {
		tp_atomic64_set(&l->tat, now);
		tp_atomic64_set(&l->window.count, 0);
		tp_atomic64_set(&l->window.base, 0);
	}
}

int tp_limiter_init(struct tp_limiter *l, const struct tp_limiter_cfg *cfg,
		    u64 now)
{
	struct limiter_params p;
	int ret;

	if (!l)
		return -EINVAL;
	ret = limiter_check(cfg, &p);
	if (ret)
		return ret;
	limiter_apply(l, cfg, &p);
	limiter_start(l, now);
	return 0;
}

/* Units the bucket owes at @ns: how far TAT lies ahead, 0 when full. */
static u64 bucket_debt(u64 tat, u64 ns, u64 limit)
{
	s64 d = (s64)(tat - ns);

	return d <= 0 || (u64)d > limit ? 0 : (u64)d;
}

int tp_limiter_tune(struct tp_limiter *l, const struct tp_limiter_cfg *cfg,
		    u64 now)
{
	struct limiter_params p;
	u64 debt, pages;
	int ret;

	if (!l)
		return -EINVAL;
	TP_ASSERT(tp_read_once(l->tps));	/* initialised */
	ret = limiter_check(cfg, &p);
	if (ret)
		return ret;

	if (cfg->variant != l->variant) {
		limiter_apply(l, cfg, &p);
		limiter_start(l, now);
		return 0;
	}
	if (cfg->variant != TP_LIMITER_BUCKET) {
		limiter_apply(l, cfg, &p);
		return 0;
	}

	/* Convert the outstanding debt to pages, then to the new units. */
	debt = bucket_debt(tp_atomic64_read(&l->tat), now * l->bucket.scale,
			   __tp_bucket_margin(l->bucket.tau, l->bucket.scale, l->tps));
	pages = tp_div64_u64(debt + l->bucket.cost - 1, l->bucket.cost);
	limiter_apply(l, cfg, &p);
	debt = tp_min_u64(tp_mul_sat(pages, p.cost), p.tau);
	tp_atomic64_set(&l->tat, now * p.scale + debt);
	return 0;
}

bool tp_limiter_consume(struct tp_limiter *l, u64 n, u64 now)
{
	TP_ASSERT(l && tp_read_once(l->tps));	/* initialised */
	return __tp_limiter_consume(l, n, now);
}

u64 tp_limiter_available(const struct tp_limiter *l, u64 now)
{
	u64 used, limit, debt, cost, tau, scale;

	TP_ASSERT(l && tp_read_once(l->tps));
	if (l->variant != TP_LIMITER_BUCKET) {
		limit = tp_read_once(l->window.limit);
		/* An expired window reopens on the next request. */
		if (tp_time_diff(now, tp_atomic64_read(&l->tat)) >
		    (s64)tp_read_once(l->tps))
			return limit;
		used = tp_atomic64_read(&l->window.count) -
		       tp_atomic64_read(&l->window.base);
		return used >= limit ? 0 : limit - used;
	}
	cost = tp_read_once(l->bucket.cost);
	tau = tp_read_once(l->bucket.tau);
	scale = tp_read_once(l->bucket.scale);
	debt = bucket_debt(tp_atomic64_read(&l->tat), now * scale,
			   __tp_bucket_margin(tau, scale, tp_read_once(l->tps)));
	return tp_div64_u64(tau - tp_min_u64(debt, tau), cost);
}
