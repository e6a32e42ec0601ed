/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The shapes of the measuring loops, written once for tierpol's side
 * (cases.h) and the baselines' (the section files), so both sides of a
 * comparison run the very same loop around their call.
 *
 * Each shape is an always-inline function that takes the operation as a
 * function pointer; a runner passes a static inline adapter, so once the
 * shape is inlined into the runner the pointer is a constant and the
 * compiler calls (or inlines) the adapter directly: no indirect call is
 * left in any runner (objdump -d build/bench/bench | grep 'call.*\*' finds
 * none in them). The adapters call the library or the baseline out of line.
 *
 * Every loop takes its inputs from tables indexed with i & TBL_MASK (or from
 * a clock that advances), so no call sees the same inputs as the previous
 * one, and returns a checksum of the results.
 */
#ifndef TP_BENCH_LOOPS_H
#define TP_BENCH_LOOPS_H

#include "bench.h"

#define LOOP_INLINE	static inline __attribute__((__always_inline__))

/* Sum of @op(@ctx, i & TBL_MASK): inputs from the tables only. */
LOOP_INLINE u64 loop_tbl(void *ctx, u64 iters, u64 (*op)(void *ctx, u64 k))
{
	u64 sum = 0, i;

	for (i = 0; i < iters; i++)
		sum += op(ctx, i & TBL_MASK);
	return sum;
}

/*
 * Sum of @op(@ctx, i & TBL_MASK, t), t advancing by @step from *@now and
 * hidden from the compiler before each call (so an inline operation cannot
 * be folded or hoisted); *@now is left where the loop stopped.
 */
LOOP_INLINE u64 loop_clocked(void *ctx, u64 iters, u64 *now, u64 step,
			     u64 (*op)(void *ctx, u64 k, u64 t))
{
	u64 t = *now, sum = 0, i;

	for (i = 0; i < iters; i++) {
		OPT_LAUNDER(t);
		sum += op(ctx, i & TBL_MASK, t);
		t += step;
	}
	*now = t;
	return sum;
}

/* One pass of 256 MB recorded per call, 100 ticks apart. */
LOOP_INLINE u64 loop_record(struct ring_ctx *c, u64 iters,
			    void (*op)(struct ring_ctx *c, u64 start, u64 now))
{
	u64 start = c->rec_start, now = c->rec_now, i;

	for (i = 0; i < iters; i++) {
		op(c, start, now);
		start += 1ULL << 28;
		now += 100;
	}
	c->rec_start = start;
	c->rec_now = now;
	return start;
}

/*
 * Every call closes a period: candidates grow by 0.5 x, 1.0 x or 1.5 x the
 * period's budget (by a cheap hash), so the threshold lowers and raises.
 */
LOOP_INLINE u64 loop_thresh_close(struct thresh_ctx *c, u64 iters,
				  u64 (*op)(struct thresh_ctx *c, u64 cand,
					    u64 now))
{
	u64 now = c->now, cand = c->cand, sum = 0, i, ref;

	ref = c->rate * (c->period / 1000);
	for (i = 0; i < iters; i++) {
		cand += ref / 2 * (((i * 0x9E3779B97F4A7C15ULL) >> 62) % 3 + 1);
		now += c->period + 1;
		sum += op(c, cand, now);
	}
	c->now = now;
	c->cand = cand;
	return sum;
}

/* One caller of a limiter, on a clock shared with the other (if any). */
LOOP_INLINE u64 loop_lim(struct lim_ctx *c, u64 iters,
			 bool (*op)(struct lim_ctx *c, u64 now))
{
	u64 now = c->now, step = c->step, adm = 0, i;

	for (i = 0; i < iters; i++) {
		now += step;
		if (c->clock && !(i % CLOCK_SYNC))
			now = clock_sync(c->clock, now);
		adm += op(c, now);
	}
	c->now = now;
	c->admitted += adm;
	c->calls += iters;
	return adm;
}

/* One scan check per call over VMA_NR VMAs, one tick apart. */
LOOP_INLINE u64 loop_vma(struct vma_ctx *c, u64 iters,
			 bool (*op)(struct vma_ctx *c, u64 k, u64 now))
{
	u64 now = c->now, scans = 0, i;

	for (i = 0; i < iters; i++) {
		scans += op(c, i & TBL_MASK, now);
		now += 1;
	}
	c->now = now;
	c->scans += scans;
	return scans;
}

/*
 * One caller of the decision: @op(c, i, t) decides the fault i & TBL_MASK
 * at t, which advances one tick per 2^shift calls, on a clock shared with
 * the other caller (if any). The verdicts are added to @verdicts.
 */
LOOP_INLINE u64 loop_decide(struct decide_ctx *c, u64 iters, u64 *verdicts,
			    int (*op)(struct decide_ctx *c, u64 i, u64 t))
{
	u64 cnt[VERDICT_SLOTS] = { 0 };
	u64 now = c->now, i, t;
	unsigned int shift = c->shift, k;

	for (i = 0; i < iters; i++) {
		t = now + (i >> shift);
		if (c->clock && !(i % CLOCK_SYNC)) {
			now += clock_sync(c->clock, t) - t;
			t = now + (i >> shift);
		}
		cnt[op(c, i, t) & VERDICT_MASK]++;
	}
	c->now = now + (iters >> shift);
	for (k = 0; k < VERDICT_SLOTS; k++)
		verdicts[k] += cnt[k];
	return cnt[TP_PROMOTE];
}

#endif /* TP_BENCH_LOOPS_H */
