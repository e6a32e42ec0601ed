/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The measuring loops over the library, written once and compiled twice
 * (see bench.h): the includer defines CASE(name) to prefix the runner names
 * and RUNNER_ATTR for their attributes, and has declared the library. The
 * loops' shapes are loops.h's, shared with the baselines; here are the
 * operations on tierpol's side and the runners.
 */
#ifndef CASE
#error "define CASE(name) before including cases.h"
#endif

#include "loops.h"

/* ---- operations ---------------------------------------------------------- */

static inline void tp_op_record(struct ring_ctx *c, u64 start, u64 now)
{
	tp_scan_ring_record(c->ring, start, now);
}

static inline u64 tp_op_advance(void *ctx, u64 k, u64 off)
{
	struct ring_ctx *c = ctx;

	(void)k;
	tp_scan_ring_advance(c->ring, off);
	return 0;
}

static inline u64 tp_op_ring_lat(void *ctx, u64 k)
{
	struct ring_ctx *c = ctx;
	u64 lat;

	return tp_scan_ring_latency(c->ring, c->addr[k], c->now, &lat) >= 0 ?
	       lat : 0;
}

static inline u64 tp_op_encode(void *ctx, u64 k, u64 now)
{
	struct atime_ctx *c = ctx;

	(void)k;
	return tp_atime_encode(&c->fmt, now);
}

static inline u64 tp_op_latency(void *ctx, u64 k, u64 now)
{
	struct atime_ctx *c = ctx;

	return tp_atime_latency(&c->fmt, c->stamp[k], now);
}

static inline u64 tp_op_stamp(void *ctx, u64 k, u64 now)
{
	struct atime_ctx *c = ctx;

	return tp_atime_fault(&c->fmt, &c->stamp[k], now);
}

/* The period never ends: now stays within it. */
static inline u64 tp_op_thresh_idle(void *ctx, u64 k)
{
	struct thresh_ctx *c = ctx;

	return (u64)tp_thresh_update(c->t, c->cand, c->start + k);
}

static inline u64 tp_op_thresh_close(struct thresh_ctx *c, u64 cand, u64 now)
{
	return (u64)tp_thresh_update(c->t, cand, now);
}

static inline bool tp_op_lim(struct lim_ctx *c, u64 now)
{
	return tp_limiter_consume(c->l, c->cpu, 1, now);
}

/* A scanned VMA is marked done. */
static inline bool tp_op_vma_check(struct vma_ctx *c, u64 k, u64 now)
{
	struct tp_vma_scan *v = &c->v[k & (VMA_NR - 1)];
	const struct tp_vma_facts *f = &c->facts[k];

	if (!tp_vma_verdict_scans(tp_vma_scan_check(v, c->prof, f, now)))
		return false;
	tp_vma_scan_done(v, f->scan_seq);
	return true;
}

static inline u64 tp_op_vma_note(void *ctx, u64 k)
{
	struct vma_ctx *c = ctx;

	tp_vma_scan_note(&c->v[k & (VMA_NR - 1)], c->pid[k]);
	return 0;
}

static inline int tp_op_decide(struct decide_ctx *c, u64 i, u64 t)
{
	return tp_decide(c->pol, c->node, c->cpu, &c->f[i & TBL_MASK], c->mem,
			 t);
}

/* A hint fault as the 2020 RFC takes it: ring lookup, then the decision. */
static inline int tp_op_fault_ring(struct decide_ctx *c, u64 i, u64 t)
{
	struct tp_fault f = c->f[i & TBL_MASK];
	u64 lat;

	if (tp_scan_ring_latency(c->ring, c->addr[i & TBL_MASK], c->lat_now,
				 &lat) < 0)
		lat = TP_LATENCY_UNKNOWN;
	/* ns to ms ticks of the decision: the table holds ms already */
	f.latency = lat >> 20;
	return tp_decide(c->pol, c->node, c->cpu, &f, c->mem, t);
}

/* A hint fault as Linux 6.1 takes it: swap the page's stamp, then decide. */
static inline int tp_op_fault_stamp(struct decide_ctx *c, u64 i, u64 t)
{
	struct tp_fault f = c->f[i & TBL_MASK];

	f.latency = tp_atime_fault(&c->fmt, &c->stamp[i & TBL_MASK],
				   c->lat_now + (i << 10)) >> 20;
	return tp_decide(c->pol, c->node, c->cpu, &f, c->mem, t);
}

/* ---- runners ----------------------------------------------------------- */

RUNNER_ATTR u64 CASE(ring_record)(void *ctx, u64 iters)
{
	return loop_record(ctx, iters, tp_op_record);
}

/* One 2 MB step of a pass per call. */
RUNNER_ATTR u64 CASE(ring_advance)(void *ctx, u64 iters)
{
	struct ring_ctx *c = ctx;

	return loop_clocked(c, iters, &c->rec_start, 1ULL << 21, tp_op_advance);
}

RUNNER_ATTR u64 CASE(ring_lat)(void *ctx, u64 iters)
{
	return loop_tbl(ctx, iters, tp_op_ring_lat);
}

RUNNER_ATTR u64 CASE(atime_encode)(void *ctx, u64 iters)
{
	struct atime_ctx *c = ctx;

	return loop_clocked(c, iters, &c->now, c->step, tp_op_encode);
}

RUNNER_ATTR u64 CASE(atime_latency)(void *ctx, u64 iters)
{
	struct atime_ctx *c = ctx;

	return loop_clocked(c, iters, &c->now, c->step, tp_op_latency);
}

RUNNER_ATTR u64 CASE(atime_fault)(void *ctx, u64 iters)
{
	struct atime_ctx *c = ctx;

	return loop_clocked(c, iters, &c->now, c->step, tp_op_stamp);
}

RUNNER_ATTR u64 CASE(thresh_idle)(void *ctx, u64 iters)
{
	return loop_tbl(ctx, iters, tp_op_thresh_idle);
}

RUNNER_ATTR u64 CASE(thresh_adjust)(void *ctx, u64 iters)
{
	return loop_thresh_close(ctx, iters, tp_op_thresh_close);
}

RUNNER_ATTR u64 CASE(lim_consume)(void *ctx, u64 iters)
{
	return loop_lim(ctx, iters, tp_op_lim);
}

RUNNER_ATTR u64 CASE(vma_check)(void *ctx, u64 iters)
{
	return loop_vma(ctx, iters, tp_op_vma_check);
}

RUNNER_ATTR u64 CASE(vma_note)(void *ctx, u64 iters)
{
	return loop_tbl(ctx, iters, tp_op_vma_note);
}

RUNNER_ATTR u64 CASE(decide)(void *ctx, u64 iters)
{
	struct decide_ctx *c = ctx;

	return loop_decide(c, iters, c->verdicts, tp_op_decide);
}

RUNNER_ATTR u64 CASE(fault_ring)(void *ctx, u64 iters)
{
	struct decide_ctx *c = ctx;

	return loop_decide(c, iters, c->verdicts, tp_op_fault_ring);
}

RUNNER_ATTR u64 CASE(fault_atime)(void *ctx, u64 iters)
{
	struct decide_ctx *c = ctx;
	u64 r = loop_decide(c, iters, c->verdicts, tp_op_fault_stamp);

	c->lat_now += iters << 10;
	return r;
}
