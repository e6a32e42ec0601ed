/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The measuring loops over the library, written once and compiled twice
 * (see bench.h): the includer defines CASE(name) to prefix the runner names
 * and RUNNER_ATTR for their attributes, and has declared the library.
 *
 * Every loop takes its inputs from tables indexed with i & TBL_MASK (or from
 * a clock that advances), so no call sees the same inputs as the previous
 * one, and returns a checksum of the results.
 */
#ifndef CASE
#error "define CASE(name) before including cases.h"
#endif

RUNNER_ATTR u64 CASE(ring_record)(void *ctx, u64 iters)
{
	struct ring_ctx *c = ctx;
	u64 start = c->rec_start, now = c->rec_now, i;

	for (i = 0; i < iters; i++) {
		tp_scan_ring_record(c->ring, start, now);
		start += 1ULL << 28;	/* 256 MB passes */
		now += 100;
	}
	c->rec_start = start;
	c->rec_now = now;
	return start;
}

RUNNER_ATTR u64 CASE(ring_advance)(void *ctx, u64 iters)
{
	struct ring_ctx *c = ctx;
	u64 off = c->rec_start, i;

	for (i = 0; i < iters; i++) {
		tp_scan_ring_advance(c->ring, off);
		off += 1ULL << 21;	/* one 2 MB step of a pass */
	}
	c->rec_start = off;
	return off;
}

RUNNER_ATTR u64 CASE(ring_lat)(void *ctx, u64 iters)
{
	struct ring_ctx *c = ctx;
	u64 sum = 0, lat = 0, i;

	for (i = 0; i < iters; i++) {
		if (tp_scan_ring_latency(c->ring, c->addr[i & TBL_MASK], c->now,
					 &lat) >= 0)
			sum += lat;
	}
	return sum;
}

RUNNER_ATTR u64 CASE(atime_encode)(void *ctx, u64 iters)
{
	struct atime_ctx *c = ctx;
	u64 now = c->now, step = c->step, sum = 0, i;

	for (i = 0; i < iters; i++) {
		OPT_LAUNDER(now);
		sum += tp_atime_encode(&c->fmt, now);
		now += step;
	}
	c->now = now;
	return sum;
}

RUNNER_ATTR u64 CASE(atime_latency)(void *ctx, u64 iters)
{
	struct atime_ctx *c = ctx;
	u64 now = c->now, step = c->step, sum = 0, i;

	for (i = 0; i < iters; i++) {
		OPT_LAUNDER(now);
		sum += tp_atime_latency(&c->fmt, c->stamp[i & TBL_MASK], now);
		now += step;
	}
	c->now = now;
	return sum;
}

RUNNER_ATTR u64 CASE(atime_fault)(void *ctx, u64 iters)
{
	struct atime_ctx *c = ctx;
	u64 now = c->now, step = c->step, sum = 0, i;

	for (i = 0; i < iters; i++) {
		sum += tp_atime_fault(&c->fmt, &c->stamp[i & TBL_MASK], now);
		now += step;
	}
	c->now = now;
	return sum;
}

/* The period never ends: now stays within it. */
RUNNER_ATTR u64 CASE(thresh_idle)(void *ctx, u64 iters)
{
	struct thresh_ctx *c = ctx;
	u64 sum = 0, i;

	for (i = 0; i < iters; i++)
		sum += (u64)tp_thresh_update(c->t, &c->cand,
					     c->start + (i & TBL_MASK));
	return sum;
}

/* Every call closes a period; candidates vary so it lowers and raises. */
RUNNER_ATTR u64 CASE(thresh_adjust)(void *ctx, u64 iters)
{
	struct thresh_ctx *c = ctx;
	u64 now = c->now, cand = c->cand, sum = 0, i, ref;

	ref = c->rate * (c->period / 1000);
	for (i = 0; i < iters; i++) {
		/* 0.5 x, 1.0 x or 1.5 x the reference, by a cheap hash */
		cand += ref / 2 * (((i * 0x9E3779B97F4A7C15ULL) >> 62) % 3 + 1);
		__atomic_store_n(&c->cand, cand, __ATOMIC_RELAXED);
		now += c->period + 1;
		sum += (u64)tp_thresh_update(c->t, &c->cand, now);
	}
	c->now = now;
	return sum;
}

RUNNER_ATTR u64 CASE(lim_consume)(void *ctx, u64 iters)
{
	struct lim_ctx *c = ctx;
	u64 now = c->now, step = c->step, adm = 0, i;

	for (i = 0; i < iters; i++) {
		now += step;
		if (c->clock && !(i % CLOCK_SYNC))
			now = clock_sync(c->clock, now);
		adm += tp_limiter_consume(c->l, 1, now);
	}
	c->now = now;
	c->admitted += adm;
	c->calls += iters;
	return adm;
}

/* One scan check per call, over VMA_NR VMAs; a scanned VMA is marked done. */
RUNNER_ATTR u64 CASE(vma_check)(void *ctx, u64 iters)
{
	struct vma_ctx *c = ctx;
	u64 now = c->now, scans = 0, i;
	struct tp_vma_scan *v;
	const struct tp_vma_facts *f;
	int r;

	for (i = 0; i < iters; i++) {
		v = &c->v[i & (VMA_NR - 1)];
		f = &c->facts[i & TBL_MASK];
		r = tp_vma_scan_check(v, c->prof, f, now);
		if (tp_vma_verdict_scans(r)) {
			tp_vma_scan_done(v, f->scan_seq);
			scans++;
		}
		now += 1;
	}
	c->now = now;
	c->scans += scans;
	return scans;
}

RUNNER_ATTR u64 CASE(vma_note)(void *ctx, u64 iters)
{
	struct vma_ctx *c = ctx;
	u64 i;

	for (i = 0; i < iters; i++)
		tp_vma_scan_note(&c->v[i & (VMA_NR - 1)], c->pid[i & TBL_MASK]);
	return c->v[0].pids[1];
}

RUNNER_ATTR u64 CASE(decide)(void *ctx, u64 iters)
{
	struct decide_ctx *c = ctx;
	u64 cnt[TP_NR_VERDICTS] = { 0 };
	u64 now = c->now, i, t;
	unsigned int shift = c->shift, k;
	int v;

	for (i = 0; i < iters; i++) {
		t = now + (i >> shift);
		if (c->clock && !(i % CLOCK_SYNC)) {
			now += clock_sync(c->clock, t) - t;
			t = now + (i >> shift);
		}
		v = tp_decide(c->pol, c->node, &c->f[i & TBL_MASK], c->mem, t);
		cnt[v & (TP_NR_VERDICTS - 1)]++;
	}
	c->now = now + (iters >> shift);
	for (k = 0; k < TP_NR_VERDICTS; k++)
		c->verdicts[k] += cnt[k];
	return cnt[TP_PROMOTE];
}

/* A seed-style hint fault: ring lookup, then the decision. */
RUNNER_ATTR u64 CASE(fault_ring)(void *ctx, u64 iters)
{
	struct decide_ctx *c = ctx;
	u64 cnt[TP_NR_VERDICTS] = { 0 };
	u64 now = c->now, i, lat;
	unsigned int shift = c->shift, k;
	struct tp_fault f;
	int v;

	for (i = 0; i < iters; i++) {
		f = c->f[i & TBL_MASK];
		if (tp_scan_ring_latency(c->ring, c->addr[i & TBL_MASK],
					 c->lat_now, &lat) < 0)
			lat = TP_LATENCY_UNKNOWN;
		/* ns to ms ticks of the decision: the table holds ms already */
		f.latency = lat >> 20;
		v = tp_decide(c->pol, c->node, &f, c->mem, now + (i >> shift));
		cnt[v & (TP_NR_VERDICTS - 1)]++;
	}
	c->now = now + (iters >> shift);
	for (k = 0; k < TP_NR_VERDICTS; k++)
		c->verdicts[k] += cnt[k];
	return cnt[TP_PROMOTE];
}

/* A mainline-style hint fault: swap the page's stamp, then the decision. */
RUNNER_ATTR u64 CASE(fault_atime)(void *ctx, u64 iters)
{
	struct decide_ctx *c = ctx;
	u64 cnt[TP_NR_VERDICTS] = { 0 };
	u64 now = c->now, i;
	unsigned int shift = c->shift, k;
	struct tp_fault f;
	int v;

	for (i = 0; i < iters; i++) {
		f = c->f[i & TBL_MASK];
		f.latency = tp_atime_fault(&c->fmt, &c->stamp[i & TBL_MASK],
					   c->lat_now + (i << 10)) >> 20;
		v = tp_decide(c->pol, c->node, &f, c->mem, now + (i >> shift));
		cnt[v & (TP_NR_VERDICTS - 1)]++;
	}
	c->now = now + (iters >> shift);
	c->lat_now += iters << 10;
	for (k = 0; k < TP_NR_VERDICTS; k++)
		c->verdicts[k] += cnt[k];
	return cnt[TP_PROMOTE];
}
