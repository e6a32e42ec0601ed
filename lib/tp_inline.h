/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * tp_inline.h - per-fault fast paths shared inside the library
 *
 * The limiter's and the threshold controller's live-state steps, written
 * once and used both by their own objects (limiter.c, threshold.c) and by
 * the decision (decide.c), which reads its settings from the policy instead
 * of from the objects. They are static inline so that the whole decision
 * compiles to one function without link-time optimisation.
 */
#ifndef TP_INLINE_H
#define TP_INLINE_H

#include "tp_seam.h"
#include <tierpol/limiter.h>
#include <tierpol/threshold.h>
#include <tierpol/policy.h>

/* ---- per-CPU counting ------------------------------------------------------ */

/*
 * Count @n pages in a CPU's @diff and move the pending pages to @shared once
 * @batch of them are pending (the kernel's mod_node_page_state()). With a
 * batch of 1, they go to @shared at once. An interrupt or a signal handler
 * on the same CPU may run this on the same slot between any two steps:
 * each step is atomic on the slot, shared + diff stays exact, @shared
 * never holds more than the pages counted, and @diff never goes below 0
 * (tests/model/fold.pml).
 */
static inline void __tp_count(struct tp_atomic64 *shared,
			      struct tp_local64 *diff, u64 n, u32 batch)
{
	bool fold;

	if (batch <= 1) {
		/*
		 * A tune that lowered the batch left the slot's pages
		 * pending: they go with these, so the shared count lags by
		 * them only until the slot's next count.
		 */
		if (tp_unlikely(tp_local64_read(diff)))
			n += tp_local64_xchg(diff, 0);
		tp_atomic64_add(shared, n);
		return;
	}
	/*
	 * Read before the add, not after it: no store-to-load stall. The
	 * value read only decides whether to fold, and may be stale by then
	 * (an interrupt counted or folded the slot in between): what is
	 * folded is what the slot holds when it is taken, in one exchange,
	 * so no page is lost and none moves twice. A fold may wait for the
	 * next call: the slot then holds an interrupting request's pages on
	 * top of @batch - 1.
	 */
	fold = tp_local64_read(diff) + n >= batch;
	tp_local64_add(diff, n);
	if (tp_unlikely(fold))
		tp_atomic64_add(shared, tp_local64_xchg(diff, 0));
}

/* ---- rate limiter ---------------------------------------------------------- */

/* 2^61 units: the bucket's largest capacity and largest price of a request. */
#define TP_BUCKET_UNITS_MAX	BIT_ULL(61)
/* log2 of the bucket's units per second, roughly: 2^48 <= units/s < 2^49. */
#define TP_BUCKET_UNITS_LOG2	48

/* The bucket's units per tick of a clock: 2^48 <= tps << shift < 2^49. */
static inline u32 __tp_bucket_shift(u32 tps)
{
	return TP_BUCKET_UNITS_LOG2 - tp_ilog2_u64(tps);
}

/* One copy of a limiter's settings, inside a latch read section. */
static inline void __tp_limiter_set_read(struct tp_limiter_set *s,
					 const struct tp_limiter_set *c)
{
	s->cost = tp_read_once(c->cost);
	s->tau = tp_read_once(c->tau);
	s->n_max = tp_read_once(c->n_max);
	s->limit = tp_read_once(c->limit);
	s->variant = tp_read_once(c->variant);
	s->batch = tp_read_once(c->batch);
}

/* Defined in limiter.c: validation and the latch writer's copy. */
int __tp_limiter_check(const struct tp_limiter_cfg *cfg, u32 shift,
		       struct tp_limiter_set *s);
void __tp_limiter_set_write(struct tp_limiter_set *c,
			    const struct tp_limiter_set *s);

/* Is the latest admission more than @stale ticks before @now? */
static inline bool __tp_bucket_stale(const struct tp_limiter_state *st,
				     u64 stale, u64 now)
{
	return tp_time_diff(now, tp_atomic64_read_acquire(&st->fresh)) >
	       (s64)stale;
}

/*
 * One step of the bucket (GCRA): admit @n pages at @now, priced @cost units
 * each, with capacity @tau. Returns 1 (admitted), 0 (refused) or -EBUSY
 * (the state changed under every one of TP_RETRIES attempts).
 *
 * The TAT is valid only while the latest admission (@st->fresh) is less
 * than @stale ticks old; an older one is taken as a full bucket. @fresh is
 * stored after the TAT and loaded before it (release/acquire), so a caller
 * that sees a recent @fresh also sees a TAT at least that recent. A caller
 * that finds @fresh stale reads the TAT with acquire and looks at @fresh
 * again: other callers may have taken the bucket in between, and their TAT
 * must not be taken for a stale one (that would erase their admissions).
 * Only an admission whose @fresh is not stored yet can still be replaced:
 * one per racing caller (tests/model/bucket.pml).
 */
static inline int __tp_bucket_take(struct tp_limiter_state *st, u64 cost,
				   u64 tau, u64 n_max, u32 shift, u64 stale,
				   u64 n, u64 now)
{
	u64 ns, need, old, base, new;
	u32 tries;
	s64 d;

	if (!cost || n > n_max)
		return 0;
	need = n * cost;
	ns = now << shift;
	for (tries = 0; tries < TP_RETRIES; tries++) {
		bool stale_tat = __tp_bucket_stale(st, stale, now);

		if (tp_unlikely(stale_tat)) {
			old = tp_atomic64_read_acquire(&st->tat);
			if (!__tp_bucket_stale(st, stale, now))
				continue;	/* taken meanwhile: look again */
		} else {
			old = tp_atomic64_read(&st->tat);
		}
		d = (s64)(old - ns);
		base = stale_tat || d <= 0 ? ns : old;
		/* A full bucket admits any request it can price. */
		if (base != ns && base - ns + need > tau)
			return 0;
		new = base + need;
		if (tp_atomic64_try_cmpxchg(&st->tat, &old, new)) {
			tp_atomic64_set_release(&st->fresh, now);
			return 1;
		}
	}
	return -EBUSY;
}

/*
 * A limiter's state at init: a full bucket, and a window that has expired,
 * so that the first request opens the first window at its own time and is
 * not counted in it, as in both kernels (the 2020 RFC's pgdat->numa_ts and
 * Linux 6.1's pgdat->nbp_rl_start are 0 from boot, more than a second
 * before any candidate). The start is @tps + 1 ticks before @now, which the
 * wraparound-safe test of __tp_window_take() finds expired at any clock
 * value; the base is 0, nothing counted.
 */
static inline void __tp_limiter_state_init(struct tp_limiter_state *st,
					   u32 shift, u32 tps, u64 now)
{
	tp_atomic64_set(&st->tat, now << shift);
	tp_atomic64_set(&st->fresh, now);
	tp_atomic64_set(&st->start, now - tps - 1);
	tp_atomic64_set(&st->base, 0);
}

/*
 * One step of a window: @count is the shared count, read after this
 * request was counted. Opens a new window when the current one is more than
 * @tps ticks old (one opener: cmpxchg on the start).
 */
static inline bool __tp_window_take(struct tp_limiter_state *st, u64 count,
				    u64 limit, u32 variant, u32 tps, u64 now)
{
	u64 start = tp_atomic64_read(&st->start), used;

	if (tp_unlikely(tp_time_diff(now, start) > (s64)tps) &&
	    tp_atomic64_try_cmpxchg(&st->start, &start, now))
		tp_atomic64_set(&st->base, count);
	used = count - tp_atomic64_read(&st->base);
	/*
	 * A caller that reads the base before the opener stored it compares
	 * against the previous window's base: refused, or admitted within
	 * that window's budget if it had room left; a caller counted before
	 * the opener read the count is admitted in the new window for free.
	 * Both are in limiter.h's bound (tests/model/window.pml). A limit of
	 * 0 refuses everything, a window's opener included.
	 */
	if (variant == TP_LIMITER_WINDOW_RFC2020)
		return limit && used <= limit;
	return used < limit;
}

/* ---- threshold controller -------------------------------------------------- */

/*
 * The threshold clamped into the current bounds; 0 stands for @ref_th. A
 * @max of 0 (a reference threshold of 0, the kernel's "nothing is hot")
 * gives 0.
 */
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

/* Is the period that started at @start over at @now? */
static inline bool __tp_thresh_due(const struct tp_thresh_state *st,
				   u64 period, u64 now)
{
	return tp_time_diff(now, tp_atomic64_read(&st->start)) > (s64)period;
}

/* Forget the adapted threshold; no store when there is none. */
static inline void __tp_thresh_forget(struct tp_thresh_state *st)
{
	if (tp_atomic64_read(&st->th))
		tp_atomic64_set(&st->th, 0);
}

/*
 * Restart the period at @now with the baseline @nr_cand. The start is a
 * store-release after the baseline: a closer whose cmpxchg of the start
 * reads it (fully ordered, so an acquire) then reads this baseline, not
 * the one before (tests/model/thresh.pml, mutant 2, is the other order).
 */
static inline void __tp_thresh_rearm(struct tp_thresh_state *st, u64 nr_cand,
				     u64 now)
{
	tp_atomic64_set(&st->base, nr_cand);
	tp_atomic64_set_release(&st->start, now);
}

/* One copy of a controller's settings, inside a latch read section. */
static inline void __tp_thresh_set_read(struct tp_thresh_set *d,
					const struct tp_thresh_set *c)
{
	d->ref_th = tp_read_once(c->ref_th);
	d->period = tp_read_once(c->period);
	d->unit = tp_read_once(c->unit);
	d->max = tp_read_once(c->max);
	d->rate = tp_read_once(c->rate);
	d->variant = tp_read_once(c->variant);
	d->shift = tp_read_once(c->shift);
	d->batch = tp_read_once(c->batch);
}

/* A controller's state at init: the reference, no histogram. */
static inline void __tp_thresh_state_init(struct tp_thresh_state *st,
					  u64 nr_cand, u64 now)
{
	u32 b;

	tp_atomic64_set(&st->start, now);
	tp_atomic64_set(&st->th, 0);
	tp_atomic64_set(&st->base, nr_cand);
	for (b = 0; b < TP_THRESH_BINS; b++)
		tp_atomic64_set(&st->hist[b], 0);
}

/* The histogram bin of a latency: 0 below 2^@shift, then one per octave. */
static inline u32 __tp_thresh_bin(u64 latency, u32 shift)
{
	u64 l = latency >> shift;

	if (!l)
		return 0;
	return (u32)tp_min_u64(tp_ilog2_u64(l) + 1, TP_THRESH_BINS - 1);
}

/*
 * Move a CPU's bins to the shared ones, each taken with one exchange as
 * __tp_count() does, so an interrupting handler on the same slot can
 * neither lose pages nor move them twice. @pending is only the trigger: a
 * handler's pages counted in it after the reset fold with its bins at the
 * next fold, or earlier.
 */
static TP_NOINLINE TP_COLD void __tp_thresh_fold(struct tp_thresh_state *st,
						 struct tp_thresh_cpu *cpu)
{
	u64 v;
	u32 b;

	tp_local64_set(&cpu->pending, 0);
	for (b = 0; b < TP_THRESH_BINS; b++) {
		if (tp_local64_read(&cpu->hist[b])) {
			v = tp_local64_xchg(&cpu->hist[b], 0);
			tp_atomic64_add(&st->hist[b], v);
		}
	}
}

/*
 * Count @n pages of @latency in a CPU's bins; once @batch pages are
 * pending, fold the bins into the shared ones. With a batch of 1 the pages
 * go to the shared bins at once, with what a larger batch left pending
 * (a tune lowered it).
 */
static inline void __tp_thresh_record(struct tp_thresh_state *st,
				      struct tp_thresh_cpu *cpu, u32 shift,
				      u32 batch, u64 latency, u64 n)
{
	bool fold;

	if (latency == TP_LATENCY_UNKNOWN)
		return;
	if (batch <= 1) {
		tp_atomic64_add(&st->hist[__tp_thresh_bin(latency, shift)], n);
		if (tp_unlikely(tp_local64_read(&cpu->pending)))
			__tp_thresh_fold(st, cpu);
		return;
	}
	fold = tp_local64_read(&cpu->pending) + n >= batch;
	tp_local64_add(&cpu->hist[__tp_thresh_bin(latency, shift)], n);
	tp_local64_add(&cpu->pending, n);
	if (tp_unlikely(fold))
		__tp_thresh_fold(st, cpu);
}

/*
 * Defined in threshold.c: validation, the latch writer's copy, and the
 * closing of a period that is over (slow path).
 */
int __tp_thresh_check(const struct tp_thresh_cfg *cfg, struct tp_thresh_set *d);
void __tp_thresh_set_write(struct tp_thresh_set *c,
			   const struct tp_thresh_set *d);
int __tp_thresh_close(struct tp_thresh_state *st,
		      const struct tp_thresh_set *set, u32 tps, u64 rate,
		      u64 nr_cand, u64 now);

/* ---- policy ---------------------------------------------------------------- */

/*
 * Which specialised decision a copy of the settings takes (its @fast): the
 * switches and variants of a preset, and the tiering mode on.
 */
#define TP_FAST_NONE		0U
#define TP_FAST_LINUX61		1U
#define TP_FAST_RFC2020		2U

/* The switches of the presets (tp_policy_preset()). */
#define TP_FLAGS_RFC2020	(TP_POL_HOTNESS | TP_POL_FREE_BYPASS | \
				 TP_POL_YOUNG | TP_POL_WRITE_DOUBLE | \
				 TP_POL_ADAPTIVE | TP_POL_RL_WMARK_DEFAULT)
#define TP_FLAGS_LINUX61	(TP_POL_HOTNESS | TP_POL_FREE_BYPASS | \
				 TP_POL_ADAPTIVE | TP_POL_HOT_STRICT | \
				 TP_POL_BYPASS_RESET)

/* Watermarks in order; a promo watermark of 0 (before Linux 6.1) is none. */
static inline bool __tp_mem_valid(const struct tp_node_mem *mem)
{
	return mem->wmark_min <= mem->wmark_low &&
	       mem->wmark_low <= mem->wmark_high &&
	       (!mem->wmark_promo || mem->wmark_high <= mem->wmark_promo);
}

/* The promo watermark, or the high one when the kernel has none. */
static inline u64 __tp_wmark_promo(const struct tp_node_mem *mem)
{
	return mem->wmark_promo ? mem->wmark_promo : mem->wmark_high;
}

/* migrate_balanced_pgdat(): free > high + @nr. */
static inline bool __tp_promote_room(const struct tp_node_mem *mem, u64 nr)
{
	return mem->free > tp_add_sat(mem->wmark_high, nr);
}

/*
 * The free-space bypass: the RFC's free > high + 2 x rate limit, or
 * Linux 6.1's free > promo + max(1 GiB, present / 16).
 */
static inline bool __tp_free_space_enough(u32 wmark_variant, u64 bypass_min,
					  u64 rate,
					  const struct tp_node_mem *mem)
{
	u64 mark;

	if (wmark_variant == TP_WMARK_RFC2020) {
		mark = tp_add_sat(mem->wmark_high, tp_mul_sat(rate, 2));
	} else {
		mark = tp_max_u64(bypass_min, mem->present >> 4);
		mark = tp_add_sat(__tp_wmark_promo(mem), mark);
	}
	return mem->free > mark;
}

/* The rate in force: the policy's, or the RFC's high watermark default. */
static inline u64 __tp_policy_rate(u64 rate, u32 flags,
				   const struct tp_node_mem *mem)
{
	if (rate || !(flags & TP_POL_RL_WMARK_DEFAULT))
		return rate;
	return tp_min_u64(mem->wmark_high, TP_RATE_MAX);
}

/* Defined in policy.c: read one whole copy of the policy's settings. */
bool __tp_policy_read(const struct tp_policy *pol, struct tp_policy_set *s);

#endif /* TP_INLINE_H */
