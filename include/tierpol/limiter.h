/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Promotion rate limiter (seed 000, patch 2/8; mainline
 * numa_promotion_rate_limit()).
 *
 * Three variants behind one interface, chosen by &struct tp_limiter_cfg:
 *
 * %TP_LIMITER_BUCKET - a token bucket of @burst pages refilled at @rate pages
 * per second, held in one 64-bit word as a GCRA "theoretical arrival time"
 * and updated with cmpxchg, so concurrent callers need no lock. Arithmetic is
 * exact: one tick adds rate/g units and one page costs tps/g units, with
 * g = gcd(rate, tps), so no rounding ever accumulates whatever the gaps
 * between calls. Bound: over any interval [t1, t2] containing every caller's
 * @now, admitted pages <= burst + rate * (t2 - t1) / tps, with racing callers
 * included (every admission is one successful cmpxchg), as long as no
 * caller's @now is a second or more behind the latest @now the bucket saw: a
 * state that far ahead of @now is taken for an idle gap that aliased the
 * 64-bit state, and the late caller refills the bucket (up to burst + n
 * pages more than the bound).
 *
 * %TP_LIMITER_WINDOW_SEED - the seed's per-second window: every request is
 * counted first (admitted or not); when more than one second passed since the
 * window start, the first caller to cmpxchg the start opens a new window and
 * takes the count as its base; a request is refused when count - base >
 * limit. %TP_LIMITER_WINDOW_MAINLINE - the same with ">= limit" (Linux 6.1+).
 * Bound for both: each window admits at most limit + n_max pages (the request
 * that opens a window is never counted against it, as in the kernel), and a
 * window lasts more than one second, so over any T seconds admitted <=
 * (T + 2) * (limit + n_max). Racing callers that read the base before the
 * opener stores it are refused, never admitted, so racing adds no slack.
 * The kernel keeps the window start in u32 milliseconds, which aliases after
 * 49.7 days of idleness; here it is u64 ticks.
 */
#ifndef _TIERPOL_LIMITER_H
#define _TIERPOL_LIMITER_H

#include <tierpol/types.h>

/**
 * enum tp_limiter_variant - rate limiter algorithm
 * @TP_LIMITER_BUCKET: token bucket (GCRA in one cmpxchg'd word)
 * @TP_LIMITER_WINDOW_SEED: seed 000 2/8 per-second window, refuse when
 *	count - base > limit
 * @TP_LIMITER_WINDOW_MAINLINE: Linux 6.1+ window, refuse when
 *	count - base >= limit
 */
enum tp_limiter_variant {
	TP_LIMITER_BUCKET = 0,
	TP_LIMITER_WINDOW_SEED = 1,
	TP_LIMITER_WINDOW_MAINLINE = 2,
};

/**
 * struct tp_limiter_cfg - rate limiter settings
 * @variant: &enum tp_limiter_variant
 * @tps: ticks per second of the caller's clock, 1..%TP_TPS_MAX
 * @rate: pages per second (the window's limit per window), 0..%TP_RATE_MAX;
 *	0 refuses every request, as the kernel's rate limit of 0 does
 * @burst: bucket capacity in pages, 1..%TP_RATE_MAX; 0 selects @rate (one
 *	second's worth, the window's budget). Ignored by the window variants,
 *	which still refuse a value above %TP_RATE_MAX.
 */
struct tp_limiter_cfg {
	u32 variant;
	u32 tps;
	aligned_u64 rate;
	aligned_u64 burst;
};

/**
 * struct tp_limiter - rate limiter state (one per target node)
 * @tat: bucket: theoretical arrival time in units (cmpxchg'd);
 *	window: window start in ticks (cmpxchg'd)
 * @bucket: token bucket parameters
 * @bucket.scale: units per tick (rate / g)
 * @bucket.cost: units per page (tps / g)
 * @bucket.tau: burst * cost, the bucket capacity in units
 * @window: window counter state
 * @window.count: pages counted so far
 * @window.base: @window.count when the current window opened
 * @window.limit: pages per window
 * @variant: &enum tp_limiter_variant
 * @tps: ticks per second (the window length; the bucket's stale-state
 *	margin is one second)
 *
 * All fields are private. 40 bytes, so a per-node owner can keep its hot
 * counters on the same cache line.
 */
struct tp_limiter {
	aligned_u64 tat;
	union {
		struct {
			aligned_u64 scale;
			aligned_u64 cost;
			aligned_u64 tau;
		} bucket;
		struct {
			aligned_u64 count;
			aligned_u64 base;
			aligned_u64 limit;
		} window;
	};
	u32 variant;
	u32 tps;
};

/**
 * tp_limiter_init() - initialise a rate limiter
 * @l: the limiter
 * @cfg: settings, validated completely before anything is written
 * @now: the current time in ticks; the bucket starts full, the window opens
 *
 * Context: Any context. Not concurrently with other calls on @l.
 * Return: 0, or -EINVAL (NULL argument, unknown variant, @tps 0 or above
 * %TP_TPS_MAX) or -ERANGE (@rate or @burst above %TP_RATE_MAX); on error
 * @l is left untouched.
 */
TP_API int tp_limiter_init(struct tp_limiter *l,
			   const struct tp_limiter_cfg *cfg, u64 now);

/**
 * tp_limiter_tune() - change rate, burst or variant of a running limiter
 * @l: an initialised limiter
 * @cfg: new settings, validated as in tp_limiter_init()
 * @now: the current time in ticks
 *
 * A bucket keeps the pages it owes (its debt is converted to the new rate
 * and capped at the new capacity); a window keeps its count. Changing the
 * variant starts afresh as tp_limiter_init() does.
 *
 * Context: Any context. Callers serialize tunes; a concurrent consume may use
 * a mix of old and new settings once.
 * Return: 0, -EINVAL or -ERANGE as tp_limiter_init(); on error nothing
 * changes.
 */
TP_API int tp_limiter_tune(struct tp_limiter *l,
			   const struct tp_limiter_cfg *cfg, u64 now);

/**
 * tp_limiter_consume() - ask to promote @n pages now
 * @l: the limiter
 * @n: pages requested (a THP counts all its pages); 0 is always admitted
 * @now: the current time in ticks
 *
 * A bucket admits all @n pages or none; a request larger than the burst is
 * never admitted. The window variants count @n before deciding.
 *
 * Context: Any context, lock-free, concurrently with itself.
 * Return: true if the pages are admitted.
 */
TP_API bool tp_limiter_consume(struct tp_limiter *l, u64 n, u64 now);

/**
 * tp_limiter_available() - pages that would be admitted now
 * @l: the limiter
 * @now: the current time in ticks
 *
 * For monitoring and tests; uses a division.
 *
 * Context: Any context. The answer may be stale by the time it returns.
 * Return: the bucket's tokens, or the window's remaining budget (the seed
 * variant admits one page more than this while the budget is exactly used).
 */
TP_API u64 tp_limiter_available(const struct tp_limiter *l, u64 now);

/**
 * tp_mbps_to_pages() - convert MB/s to pages per second
 * @mbps: megabytes (2^20 bytes) per second
 * @page_shift: log2 of the page size, 0..63
 *
 * The kernel's MB_TO_PAGES() shifts an unsigned int, which wraps at
 * 2^24 MB/s with 4 KiB pages on 32-bit; this saturates at 2^64 - 1 instead,
 * and handles pages larger than 1 MiB.
 *
 * Context: Any context.
 * Return: pages per second.
 */
static inline u64 tp_mbps_to_pages(u64 mbps, u32 page_shift)
{
	u32 s;

	if (page_shift >= 20)
		return page_shift - 20 >= 64 ? 0 : mbps >> (page_shift - 20);
	s = 20 - page_shift;
	if (mbps > (~0ULL >> s))
		return ~0ULL;
	return mbps << s;
}

#endif /* _TIERPOL_LIMITER_H */
