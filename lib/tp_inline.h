/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * tp_inline.h - per-fault fast paths shared inside the library
 *
 * The exported functions of limiter.c and threshold.c are thin wrappers
 * around these bodies, and policy.c calls the bodies directly, so that the
 * whole decision compiles to one function without relying on link-time
 * optimisation (an exported function of a shared library may be interposed,
 * so the compiler will not inline it into a caller).
 */
#ifndef _TIERPOL_INLINE_H
#define _TIERPOL_INLINE_H

#include "tp_seam.h"
#include <tierpol/limiter.h>
#include <tierpol/threshold.h>

/* ---- rate limiter ------------------------------------------------------ */

/* TATs further ahead than this can only be stale (see lib/limiter.c). */
static inline u64 __tp_bucket_margin(u64 tau, u64 scale, u32 tps)
{
	return tau + (u64)tps * scale;
}

static inline bool __tp_window_consume(struct tp_limiter *l, u64 n, u64 now,
				       u32 variant)
{
	u64 count, start, used, limit;

	/* Counted before the check, admitted or not, as the kernel does. */
	count = tp_atomic64_add_return(&l->window.count, n);
	start = tp_atomic64_read(&l->tat);
	if (tp_time_diff(now, start) > (s64)tp_read_once(l->tps) &&
	    tp_atomic64_cmpxchg(&l->tat, start, now))
		tp_atomic64_set(&l->window.base, count);

	used = count - tp_atomic64_read(&l->window.base);
	limit = tp_read_once(l->window.limit);
	/* A limit of 0 refuses everything, a window's opener included. */
	if (variant == TP_LIMITER_WINDOW_SEED)
		return limit && used <= limit;
	return used < limit;
}

static inline bool __tp_limiter_consume(struct tp_limiter *l, u64 n, u64 now)
{
	u64 need, ns, tau, scale, limit, old, new;
	u32 variant = tp_read_once(l->variant);
	s64 d;

	if (!n)
		return true;
	if (variant != TP_LIMITER_BUCKET)
		return __tp_window_consume(l, n, now, variant);

	tau = tp_read_once(l->bucket.tau);
	if (n > TP_RATE_MAX)
		return false;
	need = n * tp_read_once(l->bucket.cost);
	if (need > tau)
		return false;
	scale = tp_read_once(l->bucket.scale);
	limit = __tp_bucket_margin(tau, scale, tp_read_once(l->tps));
	ns = now * scale;

	old = tp_atomic64_read(&l->tat);
	do {
		d = (s64)(old - ns);
		/* Full bucket if TAT is past, or stale. */
		new = (d <= 0 || (u64)d > limit ? ns : old) + need;
		/*
		 * Unsigned: a debt of up to limit plus a request of up to tau
		 * may exceed 2^63 units (a caller almost a second late at the
		 * largest rates), but not 2^64.
		 */
		if (new - ns > tau)
			return false;
	} while (!tp_atomic64_try_cmpxchg(&l->tat, &old, new));
	return true;
}

/* ---- threshold controller ---------------------------------------------- */

/* The threshold clamped into the current bounds; 0 stands for ref_th. */
static inline u64 __tp_thresh_effective(u64 th, u64 ref_th, u64 unit, u64 max)
{
	if (!th)
		th = ref_th;
	if (th < unit)
		th = unit;
	if (th > max)
		th = max;
	return th;
}

static inline u64 __tp_thresh_get(const struct tp_thresh *t)
{
	return __tp_thresh_effective(tp_atomic64_read(&t->th),
				     tp_read_once(t->ref_th),
				     tp_read_once(t->unit),
				     tp_read_once(t->max));
}

/* Is the period over? tp_thresh_update() rechecks under its cmpxchg. */
static inline bool __tp_thresh_due(const struct tp_thresh *t, u64 now)
{
	return tp_time_diff(now, tp_atomic64_read(&t->start)) >
	       (s64)tp_read_once(t->period);
}

/* Forget the adapted threshold; no store when there is none. */
static inline void __tp_thresh_forget(struct tp_thresh *t)
{
	if (tp_atomic64_read(&t->th))
		tp_atomic64_set(&t->th, 0);
}

#endif /* _TIERPOL_INLINE_H */
