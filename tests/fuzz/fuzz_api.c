// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * libFuzzer target: random sequences of tierpol API calls (issue 7).
 *
 * The input is a program: each step takes one opcode byte and the operands
 * it needs (missing bytes read as 0). Configurations are random, valid or
 * not; times come from one clock that moves forward by small, medium and
 * large steps, back by a little, or jumps next to the 2^32 and 2^64 wraps.
 * After every step the invariants the headers document are checked:
 *
 *  - a rejected init/tune returns the documented error and leaves its
 *    object byte-for-byte unchanged; an accepted one matches the documented
 *    ranges;
 *  - ring: the answer is the documented one (a model of the header's rules),
 *    the latency is never "negative" (huge) and never more than the span of
 *    the recorded passes (now minus the oldest time, clamped at 0), -EBUSY
 *    never happens without a concurrent writer, errors write nothing;
 *  - threshold: always in [step, bound] of the current settings; a period
 *    closes exactly when it is over, and moves the threshold the way the
 *    candidates ask;
 *  - limiter: admitted pages within the documented bound over the elapsed
 *    time (bucket: burst + rate * T; windows: (T + 2) * (limit + n_max)),
 *    for callers less than one second apart;
 *  - decide: statistics equal the pages of all valid calls, by verdict;
 *    invalid calls count nothing; the threshold stays in its bounds;
 *  - atime and vma_scan: latencies below the stamp span, verdicts known.
 *
 * A violated invariant prints the step and aborts, which libFuzzer reports
 * as a crash with the input saved.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tierpol/tierpol.h>

typedef unsigned __int128 u128;

#define CHECK(cond, ...) do {						\
	if (!(cond)) {							\
		fprintf(stderr, "fuzz_api: step %u op %u: %s: ", step_no,	\
			cur_op, #cond);					\
		fprintf(stderr, __VA_ARGS__);				\
		fputc('\n', stderr);					\
		abort();						\
	}								\
} while (0)

static unsigned int step_no, cur_op;
static int trace_on = -1;	/* FUZZ_API_TRACE=1: print every step */

#define TRACE(...) do {							\
	if (trace_on > 0) {						\
		fprintf(stderr, "%4u: ", step_no);			\
		fprintf(stderr, __VA_ARGS__);				\
		fputc('\n', stderr);					\
	}								\
} while (0)

/* ---- input ---------------------------------------------------------------- */

struct input {
	const u8 *p;
	size_t n;
};

static u64 take(struct input *in, unsigned int bytes)
{
	u64 v = 0;
	unsigned int i;

	for (i = 0; i < bytes; i++) {
		v |= (u64)(in->n ? *in->p : 0) << (8 * i);
		if (in->n) {
			in->p++;
			in->n--;
		}
	}
	return v;
}

static const u64 edges[] = {
	0, 1, 2, 3, 15, 16, 17, 63, 64, 1000, 1023, 1024, 4096, 65535, 65536,
	999999, 1000000, 1000000000, 0x7fffffffULL, 0xffffffffULL,
	0x100000000ULL, 0x100000001ULL, TP_TPS_MAX, TP_TPS_MAX + 1ULL,
	TP_RATE_MAX - 1, TP_RATE_MAX, TP_RATE_MAX + 1, TP_TIME_MAX,
	TP_TIME_MAX + 1, TP_TIME_MAX / 4, TP_TIME_MAX / 4 + 1,
	0x7fffffffffffffffULL, 0x8000000000000000ULL, ~0ULL - 1, ~0ULL,
};

/* A value with a taste for edges: small, edge, edge +- small, or raw. */
static u64 value(struct input *in)
{
	u8 k = (u8)take(in, 1);
	u64 e;

	switch (k & 7) {
	case 0:
	case 1:
		return take(in, 1);
	case 2:
		return take(in, 2);
	case 3:
	case 4:
		return edges[take(in, 1) % (sizeof(edges) / sizeof(edges[0]))];
	case 5:
		e = edges[take(in, 1) % (sizeof(edges) / sizeof(edges[0]))];
		return e + (u64)(s64)(signed char)take(in, 1);
	case 6:
		return take(in, 4);
	default:
		return take(in, 8);
	}
}

static u32 value32(struct input *in)
{
	u64 v = value(in);

	return (u8)take(in, 1) & 1 ? (u32)v : (u32)(v > 0xffffffffULL ?
						    0xffffffffULL : v);
}

/* ---- the shared clock ------------------------------------------------------ */

static u64 clk;
static bool lim_epoch_reset;	/* the clock jumped: restart the accounting */
static u32 lim_tps_cur;

static void clock_step(struct input *in)
{
	u8 k = (u8)take(in, 1);
	u64 d;

	switch (k % 8) {
	case 0:
	case 1:
		clk += take(in, 1);
		break;
	case 2:
		clk += take(in, 3);
		break;
	case 3:
		clk += take(in, 5);	/* up to 2^40 */
		break;
	case 4:
		d = take(in, 2);
		clk -= d;
		/* A caller a second or more late is outside the bound. */
		if (d >= lim_tps_cur)
			lim_epoch_reset = true;
		break;
	case 5:
		clk = 0x100000000ULL - take(in, 2);	/* below the 2^32 wrap */
		lim_epoch_reset = true;
		break;
	case 6:
		clk = 0ULL - take(in, 2);		/* below the 2^64 wrap */
		lim_epoch_reset = true;
		break;
	default:
		clk = value(in);
		lim_epoch_reset = true;
		break;
	}
}

/* ---- scan ring --------------------------------------------------------------- */

static struct tp_scan_ring ring;
static struct tp_scan_pass pass_arr[TP_RING_DEPTH_MAX];
static bool ring_ok;
static struct {
	u32 depth;
	u64 limit, nr, offset;
	u64 start[TP_RING_DEPTH_MAX], time[TP_RING_DEPTH_MAX];
} rm;

static void ring_op(struct input *in, u8 sub)
{
	struct tp_scan_ring_cfg cfg;
	struct tp_scan_ring copy;
	u64 addr, lat, want_lat, end, start, time, span, l;
	u32 n, j, i, depth;
	int ret, want;

	switch (sub % 8) {
	case 0:	/* init */
		memset(&cfg, 0, sizeof(cfg));
		cfg.depth = (u8)take(in, 1) & 1 ? 1U << (take(in, 1) % 12) :
						  value32(in);
		cfg.limit = value(in);
		copy = ring;
		ret = tp_scan_ring_init(&ring, &cfg, pass_arr);
		depth = cfg.depth ? cfg.depth : TP_DEFAULT_RING_DEPTH;
		want = (depth & (depth - 1)) || depth > TP_RING_DEPTH_MAX ?
			-EINVAL : 0;
		CHECK(ret == want, "init depth %u: %d", cfg.depth, ret);
		if (ret) {
			CHECK(!memcmp(&copy, &ring, sizeof(ring)),
			      "rejected init wrote the ring");
			break;
		}
		ring_ok = true;
		rm.depth = depth;
		rm.limit = cfg.limit ? cfg.limit : ~0ULL;
		rm.nr = 0;
		rm.offset = 0;
		CHECK(tp_scan_ring_depth(&ring) == depth, "depth");
		break;
	case 1:
	case 2:	/* record */
		if (!ring_ok)
			break;
		start = value(in);
		tp_scan_ring_record(&ring, start, clk);
		TRACE("ring_record(%#llx) at %#llx", (unsigned long long)start,
		      (unsigned long long)clk);
		rm.start[rm.nr % rm.depth] = start;
		rm.time[rm.nr % rm.depth] = clk;
		rm.nr++;
		rm.offset = start;
		break;
	case 3:
	case 4:	/* advance */
		if (!ring_ok)
			break;
		rm.offset = (u8)take(in, 1) & 1 ? value(in) :
			    rm.offset + take(in, 3);
		tp_scan_ring_advance(&ring, rm.offset);
		TRACE("ring_advance(%#llx)", (unsigned long long)rm.offset);
		break;
	case 5:	/* reset (rarely) */
		if (!ring_ok || (u8)take(in, 1) % 4)
			break;
		tp_scan_ring_reset(&ring);
		rm.nr = 0;
		rm.offset = 0;
		break;
	default:	/* latency */
		if (!ring_ok)
			break;
		addr = (u8)take(in, 1) & 1 ? value(in) :
		       rm.start[take(in, 2) % rm.depth] + take(in, 2);
		lat = 0xdeadbeefULL;
		ret = tp_scan_ring_latency(&ring, addr, clk, &lat);
		TRACE("ring_latency(%#llx) at %#llx = %d, %llu",
		      (unsigned long long)addr, (unsigned long long)clk, ret,
		      (unsigned long long)lat);
		if (!rm.nr) {
			CHECK(ret == -ENOENT && lat == 0xdeadbeefULL,
			      "empty ring: %d", ret);
			break;
		}
		/* The model, from the header's rules. */
		n = rm.nr < rm.depth ? (u32)rm.nr : rm.depth;
		end = rm.offset;
		want = TP_LAT_OLDEST;
		time = 0;
		span = 0;
		for (j = 0; j < n; j++) {
			i = (u32)((rm.nr - 1 - j) % rm.depth);
			start = rm.start[i];
			time = rm.time[i];
			l = (s64)(clk - time) > 0 ? clk - time : 0;
			if (l > span)
				span = l;
		}
		for (j = 0; j < n; j++) {
			i = (u32)((rm.nr - 1 - j) % rm.depth);
			start = rm.start[i];
			time = rm.time[i];
			if (end < start)
				end = rm.limit;
			if (addr >= start && addr < end) {
				want = TP_LAT_EXACT;
				break;
			}
			end = start;
		}
		want_lat = (s64)(clk - time) > 0 ? clk - time : 0;
		CHECK(ret == want && lat == want_lat,
		      "addr %#llx now %#llx: got %d %llu, want %d %llu", (unsigned long long)addr,
		      (unsigned long long)clk, ret, (unsigned long long)lat,
		      want, (unsigned long long)want_lat);
		CHECK(lat < (1ULL << 63) && lat <= span,
		      "latency %llu beyond the span %llu",
		      (unsigned long long)lat, (unsigned long long)span);
		break;
	}
}

/* ---- rate limiter ------------------------------------------------------------ */

static struct tp_limiter lim;
static bool lim_ok;
static struct {
	struct tp_limiter_cfg cfg;
	u64 burst;		/* effective */
	u64 base;		/* epoch origin */
	s64 lo, hi;		/* callers' times in the epoch, from base */
	u128 admitted;
	u64 nmax;
} lmod;

static int limiter_expect(const struct tp_limiter_cfg *c, int ret)
{
	bool einval = c->variant > TP_LIMITER_WINDOW_MAINLINE || !c->tps ||
		      c->tps > TP_TPS_MAX;
	bool erange = c->rate > TP_RATE_MAX || c->burst > TP_RATE_MAX;

	if (!einval && !erange)
		return ret == 0;
	return (einval && ret == -EINVAL) || (erange && ret == -ERANGE);
}

static void lim_epoch(void)
{
	lmod.base = clk;
	lmod.lo = 0;
	lmod.hi = 0;
	lmod.admitted = 0;
	lmod.nmax = 0;
	lim_epoch_reset = false;
}

static void lim_check_bound(void)
{
	u64 tps = lmod.cfg.tps, span = (u64)(lmod.hi - lmod.lo);
	u128 lhs = lmod.admitted * tps, rhs;

	if (lmod.cfg.variant == TP_LIMITER_BUCKET)
		rhs = lmod.cfg.rate ? (u128)lmod.burst * tps +
				      (u128)lmod.cfg.rate * span : 0;
	else
		rhs = ((u128)span + 2 * tps) *
		      ((u128)lmod.cfg.rate + lmod.nmax);
	CHECK(lhs <= rhs,
	      "%s admitted %llu pages over %llu ticks (tps %llu, rate %llu, burst %llu, n_max %llu)",
	      lmod.cfg.variant ? "window" : "bucket",
	      (unsigned long long)lmod.admitted, (unsigned long long)span,
	      (unsigned long long)tps, (unsigned long long)lmod.cfg.rate,
	      (unsigned long long)lmod.burst, (unsigned long long)lmod.nmax);
}

static void limiter_op(struct input *in, u8 sub)
{
	struct tp_limiter_cfg cfg;
	struct tp_limiter copy;
	u64 n, avail;
	s64 rel;
	bool ok, tune;
	int ret;

	switch (sub % 8) {
	case 0:
	case 1:	/* init or tune */
		tune = sub % 8 == 1;
		if (tune && !lim_ok)
			break;
		memset(&cfg, 0, sizeof(cfg));
		cfg.variant = (u8)take(in, 1) & 0x80 ? value32(in) :
			      (u32)(take(in, 1) % 3);
		cfg.tps = (u8)take(in, 1) & 0x80 ? value32(in) :
			  (u32)(take(in, 3) + 1);
		cfg.rate = value(in);
		cfg.burst = value(in);
		copy = lim;
		ret = tune ? tp_limiter_tune(&lim, &cfg, clk) :
			     tp_limiter_init(&lim, &cfg, clk);
		TRACE("limiter_%s(variant %u tps %u rate %llu burst %llu) at %#llx = %d",
		      tune ? "tune" : "init", cfg.variant, cfg.tps,
		      (unsigned long long)cfg.rate,
		      (unsigned long long)cfg.burst, (unsigned long long)clk,
		      ret);
		CHECK(limiter_expect(&cfg, ret),
		      "variant %u tps %u rate %llu burst %llu: %d", cfg.variant,
		      cfg.tps, (unsigned long long)cfg.rate,
		      (unsigned long long)cfg.burst, ret);
		if (ret) {
			CHECK(!memcmp(&copy, &lim, sizeof(lim)),
			      "rejected %s wrote the limiter",
			      tune ? "tune" : "init");
			break;
		}
		lim_ok = true;
		lmod.cfg = cfg;
		lmod.burst = cfg.burst ? cfg.burst : cfg.rate;
		lim_tps_cur = cfg.tps;
		lim_epoch();
		break;
	case 2:	/* available */
		if (!lim_ok)
			break;
		avail = tp_limiter_available(&lim, clk);
		CHECK(avail <= (lmod.cfg.variant == TP_LIMITER_BUCKET ?
				lmod.burst : lmod.cfg.rate),
		      "available %llu", (unsigned long long)avail);
		break;
	default:	/* consume */
		if (!lim_ok)
			break;
		if (lim_epoch_reset)
			lim_epoch();
		switch (take(in, 1) % 4) {
		case 0:
			n = 1;
			break;
		case 1:
			n = 512;
			break;
		case 2:
			n = take(in, 2);
			break;
		default:
			n = value(in);
			break;
		}
		ok = tp_limiter_consume(&lim, n, clk);
		TRACE("limiter_consume(%llu) at %#llx = %d",
		      (unsigned long long)n, (unsigned long long)clk, ok);
		if (!n) {
			CHECK(ok, "0 pages refused");
			break;
		}
		rel = (s64)(clk - lmod.base);
		if (rel < lmod.lo)
			lmod.lo = rel;
		if (rel > lmod.hi)
			lmod.hi = rel;
		if (lmod.cfg.variant == TP_LIMITER_BUCKET)
			CHECK(!ok || n <= lmod.burst,
			      "%llu pages admitted, burst %llu",
			      (unsigned long long)n,
			      (unsigned long long)lmod.burst);
		if (ok) {
			lmod.admitted += n;
			if (n > lmod.nmax)
				lmod.nmax = n;
		}
		/* Beyond 2^62 ticks apart the times alias: a new epoch. */
		if ((u64)(lmod.hi - lmod.lo) >= (1ULL << 62)) {
			lim_epoch();
			break;
		}
		lim_check_bound();
		break;
	}
}

/* ---- threshold controller ---------------------------------------------------- */

static struct tp_thresh thr;
static bool thr_ok;
static struct {
	u64 ref, unit, max, period, ref_cand, start, base, cand;
} tm;

static int thresh_expect(const struct tp_thresh_cfg *c, int ret)
{
	bool einval = c->variant > TP_THRESH_MAINLINE || !c->tps ||
		      c->tps > TP_TPS_MAX || c->steps > TP_THRESH_STEPS_MAX;
	bool erange = c->ref_th > TP_TIME_MAX || c->period > TP_TIME_MAX ||
		      c->rate_limit > TP_RATE_MAX;

	if (!einval && !erange)
		return ret == 0;
	return (einval && ret == -EINVAL) || (erange && ret == -ERANGE);
}

/* Settings the header documents: step and bounds, the reference count. */
static void thresh_model(const struct tp_thresh_cfg *c)
{
	u64 steps = c->steps ? c->steps : TP_DEFAULT_THRESH_STEPS;
	u128 rc;
	u64 ref = c->ref_th ? c->ref_th :
		  ((u64)TP_DEFAULT_HOT_THRESHOLD_MS * c->tps + 999) / 1000;

	tm.period = c->period ? c->period :
		    ((u64)TP_DEFAULT_SCAN_PERIOD_MAX_MS * c->tps + 999) / 1000;
	tm.ref = ref;
	tm.max = c->variant == TP_THRESH_MAINLINE ? 2 * ref : ref;
	tm.unit = tm.max / steps ? tm.max / steps : 1;
	rc = (u128)tm.period * c->rate_limit / c->tps;
	tm.ref_cand = rc > ~0ULL ? ~0ULL : (u64)rc;	/* saturating */
}

static void thresh_check_bounds(void)
{
	u64 th = tp_thresh_get(&thr);

	CHECK(th >= tm.unit && th <= tm.max && th,
	      "threshold %llu outside [%llu, %llu]", (unsigned long long)th,
	      (unsigned long long)tm.unit, (unsigned long long)tm.max);
}

static void thresh_op(struct input *in, u8 sub)
{
	struct tp_thresh_cfg cfg;
	struct tp_thresh copy;
	u64 before, after, diff, want;
	bool tune, over;
	int ret, ev;

	switch (sub % 8) {
	case 0:
	case 1:	/* init or tune */
		tune = sub % 8 == 1;
		if (tune && !thr_ok)
			break;
		memset(&cfg, 0, sizeof(cfg));
		cfg.variant = (u8)take(in, 1) & 0x80 ? value32(in) :
			      (u32)(take(in, 1) % 2);
		cfg.steps = (u8)take(in, 1) & 0x80 ? value32(in) :
			    (u32)take(in, 1);
		cfg.tps = (u8)take(in, 1) & 0x80 ? value32(in) :
			  (u32)(take(in, 2) + 1);
		cfg.ref_th = value(in);
		cfg.period = value(in);
		cfg.rate_limit = value(in);
		copy = thr;
		ret = tune ? tp_thresh_tune(&thr, &cfg) :
			     tp_thresh_init(&thr, &cfg, tm.cand, clk);
		TRACE("thresh_%s(variant %u steps %u tps %u ref %llu period %llu rate %llu) at %#llx = %d",
		      tune ? "tune" : "init", cfg.variant, cfg.steps, cfg.tps,
		      (unsigned long long)cfg.ref_th,
		      (unsigned long long)cfg.period,
		      (unsigned long long)cfg.rate_limit,
		      (unsigned long long)clk, ret);
		CHECK(thresh_expect(&cfg, ret), "thresh cfg: %d", ret);
		if (ret) {
			CHECK(!memcmp(&copy, &thr, sizeof(thr)),
			      "rejected %s wrote the controller",
			      tune ? "tune" : "init");
			break;
		}
		thr_ok = true;
		thresh_model(&cfg);
		if (!tune) {
			tm.start = clk;
			tm.base = tm.cand;
		}
		thresh_check_bounds();
		break;
	case 2:	/* reset */
		if (!thr_ok)
			break;
		ev = (u8)take(in, 1) & 1;
		tp_thresh_reset(&thr, ev, tm.cand, clk);
		TRACE("thresh_reset(rearm %d, cand %llu) at %#llx", ev,
		      (unsigned long long)tm.cand, (unsigned long long)clk);
		if (ev) {
			tm.start = clk;
			tm.base = tm.cand;
		}
		/* Back at the reference, kept inside the bounds. */
		CHECK(tp_thresh_get(&thr) == (tm.ref < tm.unit ? tm.unit :
					      tm.ref > tm.max ? tm.max : tm.ref),
		      "reset: %llu", (unsigned long long)tp_thresh_get(&thr));
		break;
	default:	/* candidates, then update */
		if (!thr_ok)
			break;
		tm.cand += (u8)take(in, 1) & 1 ? take(in, 1) :
			   (u8)take(in, 1) % 4 ? tm.ref_cand + take(in, 1) - 128 :
			   value(in);
		before = tp_thresh_get(&thr);
		over = (s64)(clk - tm.start) > (s64)tm.period;
		ev = tp_thresh_update(&thr, &tm.cand, clk);
		after = tp_thresh_get(&thr);
		TRACE("thresh_update(cand %llu) at %#llx = %d: %llu -> %llu",
		      (unsigned long long)tm.cand, (unsigned long long)clk, ev,
		      (unsigned long long)before, (unsigned long long)after);
		CHECK(ev >= TP_TH_IDLE && ev <= TP_TH_RAISED, "event %d", ev);
		CHECK((ev != TP_TH_IDLE) == over,
		      "event %d, period over: %d", ev, over);
		thresh_check_bounds();
		if (ev == TP_TH_IDLE) {
			CHECK(after == before, "idle moved the threshold");
			break;
		}
		/* The kernel's integer comparisons, without its overflow. */
		diff = (s64)(tm.cand - tm.base) > 0 ? tm.cand - tm.base : 0;
		if (diff > (u128)tm.ref_cand * 11 / 10)
			want = before - tm.unit >= tm.unit ?
			       before - tm.unit : tm.unit;
		else if (diff < (u128)tm.ref_cand * 9 / 10)
			want = (u128)before + tm.unit < tm.max ?
			       before + tm.unit : tm.max;
		else
			want = before;
		CHECK(after == want, "threshold %llu -> %llu, want %llu (diff %llu, ref %llu)",
		      (unsigned long long)before, (unsigned long long)after,
		      (unsigned long long)want, (unsigned long long)diff,
		      (unsigned long long)tm.ref_cand);
		CHECK(ev == (after < before ? TP_TH_LOWERED :
			     after > before ? TP_TH_RAISED : TP_TH_KEPT),
		      "event %d for %llu -> %llu", ev,
		      (unsigned long long)before, (unsigned long long)after);
		tm.start = clk;
		if ((s64)(tm.cand - tm.base) > 0)
			tm.base = tm.cand;
		break;
	}
}

/* ---- policy and tp_decide ---------------------------------------------------- */

static struct tp_policy pol;
static struct tp_node node __attribute__((aligned(TP_CACHELINE_BYTES)));
static bool pol_ok;
static struct {
	u64 by_verdict[TP_NR_VERDICTS];
	u64 pages;
	u64 unit, max;
	u32 mode, flags;
} pm;

static int policy_expect(const struct tp_policy_cfg *c, int ret)
{
	u32 shift = c->page_shift ? c->page_shift : TP_DEFAULT_PAGE_SHIFT;
	u32 f = c->flags;
	bool einval, erange;

	einval = c->mode > 3 || (f & ~TP_POL_ALL) ||
		 ((f & (TP_POL_ADAPTIVE | TP_POL_WRITE_DOUBLE |
			TP_POL_HOT_STRICT)) && !(f & TP_POL_HOTNESS)) ||
		 ((f & TP_POL_BYPASS_RESET) &&
		  (!(f & TP_POL_FREE_BYPASS) || !(f & TP_POL_ADAPTIVE))) ||
		 !c->tps || c->tps > TP_TPS_MAX || shift < 10 || shift > 30 ||
		 c->thresh_variant > TP_THRESH_MAINLINE ||
		 c->limiter_variant > TP_LIMITER_WINDOW_MAINLINE ||
		 c->wmark_variant > TP_WMARK_MAINLINE;
	erange = !einval &&
		 (tp_mbps_to_pages(c->rate_limit_mbps, shift) > TP_RATE_MAX ||
		  c->burst_pages > TP_RATE_MAX);
	if (!einval && !erange)
		return ret == 0;
	return (einval && ret == -EINVAL) || (erange && ret == -ERANGE);
}

static void policy_model(const struct tp_policy_cfg *c)
{
	u64 ms = c->hot_threshold_ms ? c->hot_threshold_ms :
		 TP_DEFAULT_HOT_THRESHOLD_MS;
	u64 ref = (ms * c->tps + 999) / 1000;

	pm.max = c->thresh_variant == TP_THRESH_MAINLINE ? 2 * ref : ref;
	pm.unit = pm.max / TP_DEFAULT_THRESH_STEPS ?
		  pm.max / TP_DEFAULT_THRESH_STEPS : 1;
	pm.mode = c->mode;
	pm.flags = c->flags;
}

static void node_check_stats(void)
{
	struct tp_node_stats s;
	u64 got[TP_NR_VERDICTS], cand;
	unsigned int v;

	tp_node_stats(&node, &s);
	got[TP_PROMOTE] = s.promote_hot;
	got[TP_PROMOTE_NRL] = s.promote_nrl;
	got[TP_REFUSE_MODE] = s.refused_mode;
	got[TP_REFUSE_TOPTIER] = s.refused_toptier;
	got[TP_REFUSE_NOT_YOUNG] = s.refused_not_young;
	got[TP_REFUSE_COLD] = s.refused_cold;
	got[TP_REFUSE_RATELIMIT] = s.refused_ratelimit;
	got[TP_REFUSE_NOSPACE] = s.refused_nospace;
	for (v = 0; v < TP_NR_VERDICTS; v++)
		CHECK(got[v] == pm.by_verdict[v], "verdict %u: %llu pages, want %llu",
		      v, (unsigned long long)got[v],
		      (unsigned long long)pm.by_verdict[v]);
	CHECK(s.decided == pm.pages, "decided %llu, want %llu",
	      (unsigned long long)s.decided, (unsigned long long)pm.pages);
	CHECK(s.pgpromote_success == s.promote_hot + s.promote_nrl, "success");
	cand = s.promote_hot + s.refused_ratelimit + s.refused_nospace -
	       (s.pgpromote_candidate_nrl - s.promote_nrl);
	CHECK(s.pgpromote_candidate == cand, "candidates %llu, want %llu",
	      (unsigned long long)s.pgpromote_candidate,
	      (unsigned long long)cand);
	CHECK(s.threshold >= pm.unit && s.threshold <= pm.max,
	      "node threshold %llu outside [%llu, %llu]",
	      (unsigned long long)s.threshold, (unsigned long long)pm.unit,
	      (unsigned long long)pm.max);
}

static void random_mem(struct input *in, struct tp_node_mem *m)
{
	if ((u8)take(in, 1) % 8 == 0) {	/* anything, often out of order */
		m->wmark_min = value(in);
		m->wmark_low = value(in);
		m->wmark_high = value(in);
		m->wmark_promo = value(in);
	} else {
		m->wmark_min = take(in, 2);
		m->wmark_low = m->wmark_min + take(in, 1);
		m->wmark_high = m->wmark_low + take(in, 2);
		m->wmark_promo = m->wmark_high + take(in, 2);
	}
	m->present = value(in);
	m->free = (u8)take(in, 1) & 1 ? value(in) :
		  m->wmark_high + take(in, 3) - 0x800000;
}

static void policy_op(struct input *in, u8 sub)
{
	struct tp_policy_cfg cfg;
	struct tp_policy copy;
	struct tp_node_stats before, after;
	struct tp_node_mem mem;
	struct tp_fault f;
	bool tune, valid;
	u32 preset;
	int ret;

	switch (sub % 8) {
	case 0:
	case 1:	/* init (+ node init) or tune (+ node sync) */
		tune = sub % 8 == 1;
		if (tune && !pol_ok)
			break;
		memset(&cfg, 0x5a, sizeof(cfg));
		preset = (u32)take(in, 1);
		ret = tp_policy_preset(&cfg, preset % 4, (u32)(take(in, 2) + 1));
		if (preset % 4 > TP_PRESET_MAINLINE) {
			CHECK(ret == -EINVAL, "preset %u: %d", preset % 4, ret);
			memset(&cfg, 0, sizeof(cfg));
			cfg.tps = 1000;
		} else {
			CHECK(ret == 0, "preset %u: %d", preset % 4, ret);
		}
		/* Mutate a few fields. */
		while ((u8)take(in, 1) % 3) {
			switch (take(in, 1) % 12) {
			case 0:
				cfg.mode = value32(in);
				break;
			case 1:
				cfg.flags ^= 1U << (take(in, 1) % 9);
				break;
			case 2:
				cfg.tps = value32(in);
				break;
			case 3:
				cfg.page_shift = value32(in) % 40;
				break;
			case 4:
				cfg.hot_threshold_ms = value32(in);
				break;
			case 5:
				cfg.rate_limit_mbps = value32(in);
				break;
			case 6:
				cfg.scan_period_max_ms = value32(in);
				break;
			case 7:
				cfg.thresh_variant = value32(in) % 3;
				break;
			case 8:
				cfg.limiter_variant = value32(in) % 4;
				break;
			case 9:
				cfg.wmark_variant = value32(in) % 3;
				break;
			case 10:
				cfg.burst_pages = value(in);
				break;
			default:
				cfg.flags = value32(in);
				break;
			}
		}
		copy = pol;
		ret = tune ? tp_policy_tune(&pol, &cfg) :
			     tp_policy_init(&pol, &cfg);
		TRACE("policy_%s(mode %#x flags %#x tps %u shift %u hot %u rate %u period %u variants %u/%u/%u burst %llu) = %d",
		      tune ? "tune" : "init", cfg.mode, cfg.flags, cfg.tps,
		      cfg.page_shift, cfg.hot_threshold_ms,
		      cfg.rate_limit_mbps, cfg.scan_period_max_ms,
		      cfg.thresh_variant, cfg.limiter_variant,
		      cfg.wmark_variant, (unsigned long long)cfg.burst_pages,
		      ret);
		CHECK(policy_expect(&cfg, ret),
		      "policy mode %#x flags %#x tps %u shift %u rate %u burst %llu: %d",
		      cfg.mode, cfg.flags, cfg.tps, cfg.page_shift,
		      cfg.rate_limit_mbps, (unsigned long long)cfg.burst_pages,
		      ret);
		if (ret) {
			CHECK(!memcmp(&copy, &pol, sizeof(pol)),
			      "rejected policy %s wrote the policy",
			      tune ? "tune" : "init");
			break;
		}
		policy_model(&cfg);
		if (tune) {
			tp_node_sync(&node, &pol, clk);
		} else {
			CHECK(tp_node_init(&node, &pol, clk) == 0, "node init");
			memset(&pm.by_verdict, 0, sizeof(pm.by_verdict));
			pm.pages = 0;
			pol_ok = true;
		}
		node_check_stats();
		break;
	default:	/* decide */
		if (!pol_ok)
			break;
		switch (take(in, 1) % 5) {
		case 0:
			f.nr_pages = 0;
			break;
		case 1:
		case 2:
			f.nr_pages = 1;
			break;
		case 3:
			f.nr_pages = 512;
			break;
		default:
			f.nr_pages = value(in);
			break;
		}
		switch (take(in, 1) % 4) {
		case 0:
			f.latency = TP_LATENCY_UNKNOWN;
			break;
		case 1:
			f.latency = value(in);
			break;
		default:
			f.latency = take(in, 2) * (take(in, 1) + 1);
			break;
		}
		f.flags = (u32)take(in, 1);
		random_mem(in, &mem);
		valid = f.nr_pages && f.nr_pages <= TP_RATE_MAX &&
			mem.wmark_min <= mem.wmark_low &&
			mem.wmark_low <= mem.wmark_high &&
			mem.wmark_high <= mem.wmark_promo;
		tp_node_stats(&node, &before);
		ret = tp_decide(&pol, &node, &f, &mem, clk);
		TRACE("decide(pages %llu lat %llu flags %#x free %llu wmarks %llu/%llu/%llu/%llu) at %#llx = %d",
		      (unsigned long long)f.nr_pages,
		      (unsigned long long)f.latency, f.flags,
		      (unsigned long long)mem.free,
		      (unsigned long long)mem.wmark_min,
		      (unsigned long long)mem.wmark_low,
		      (unsigned long long)mem.wmark_high,
		      (unsigned long long)mem.wmark_promo,
		      (unsigned long long)clk, ret);
		if (!valid) {
			CHECK(ret == -EINVAL, "invalid call: %d", ret);
			tp_node_stats(&node, &after);
			CHECK(!memcmp(&before, &after, sizeof(before)),
			      "an invalid call was counted");
			break;
		}
		CHECK(ret >= 0 && ret < TP_NR_VERDICTS, "verdict %d", ret);
		if (!(pm.mode & TP_MODE_TIERING))
			CHECK(ret == TP_REFUSE_MODE, "mode %#x: %d", pm.mode,
			      ret);
		else if (f.flags & TP_FAULT_TOPTIER)
			CHECK(ret == TP_REFUSE_TOPTIER, "top tier: %d", ret);
		if (tp_verdict_promotes(ret))
			CHECK(mem.free > mem.wmark_high &&
			      mem.free - mem.wmark_high > f.nr_pages,
			      "promoted without room");
		if (ret == TP_PROMOTE_NRL)
			CHECK(pm.flags & TP_POL_FREE_BYPASS, "bypass is off");
		if (ret == TP_PROMOTE && (pm.flags & TP_POL_HOTNESS))
			CHECK(f.latency != TP_LATENCY_UNKNOWN,
			      "unknown latency promoted as hot");
		pm.by_verdict[ret] += f.nr_pages;
		pm.pages += f.nr_pages;
		node_check_stats();
		break;
	}
}

/* The stateless helpers, on anything. */
static void helpers_op(struct input *in, u8 sub)
{
	struct tp_node_mem mem;
	struct tp_group_fault gf;
	unsigned long *mask;
	u32 nbits, words, i;
	u64 a, b, r;
	int node_id;

	switch (sub % 6) {
	case 0:
		if (!pol_ok)
			break;
		random_mem(in, &mem);
		(void)tp_free_space_enough(&pol, &mem);
		r = tp_demotion_target(&pol, &mem);
		if (!(pm.mode & TP_MODE_TIERING))
			CHECK(r == mem.wmark_high, "demotion target");
		else
			CHECK(r >= mem.wmark_high || r == mem.wmark_promo,
			      "demotion target below high");
		(void)tp_scan_wanted(&pol, take(in, 1) & 1);
		break;
	case 1:
		random_mem(in, &mem);
		a = value(in);
		CHECK(tp_promote_room(&mem, a) ==
		      (mem.free > mem.wmark_high &&
		       mem.free - mem.wmark_high > a), "promote room");
		break;
	case 2:
		a = value(in);
		b = value(in);
		r = tp_wmark_promo(a, b, value(in), value32(in));
		CHECK(r >= b, "promo watermark below high");
		break;
	case 3:
		a = value(in);
		r = tp_migrate_retry_interval(a, value32(in));
		CHECK(r >= 1, "retry interval 0");
		break;
	default:	/* node masks of any size */
		nbits = (u32)take(in, 2) % 600;
		words = (nbits + 8 * sizeof(long) - 1) / (8 * sizeof(long));
		mask = malloc((words ? words : 1) * sizeof(long));
		for (i = 0; i < words; i++)
			mask[i] = (unsigned long)value(in);
		gf.cpu_node = value32(in);
		gf.mem_node = value32(in);
		gf.local = take(in, 1) & 1;
		gf.priv = take(in, 1) & 1;
		gf.in_group = take(in, 1) & 1;
		(void)tp_group_fault_local(take(in, 1) % 2, &gf,
					   words ? mask : NULL, nbits);
		node_id = (int)(s32)value32(in);
		r = (u64)(s64)tp_preferred_node(take(in, 1) % 2,
						take(in, 1) & 1, node_id,
						(int)take(in, 1),
						words ? mask : NULL, nbits);
		CHECK((s64)r >= -1, "preferred node %lld", (long long)r);
		free(mask);
		break;
	}
}

/* ---- access-time stamps -------------------------------------------------------- */

static struct tp_atime fmt;
static bool fmt_ok;
static u32 stamp;
static u64 stamp_time;

static void atime_op(struct input *in, u8 sub)
{
	struct tp_atime_cfg cfg;
	struct tp_atime copy;
	u32 bits;
	u64 lat, span, el, bucket;
	int ret;

	switch (sub % 4) {
	case 0:
		cfg.bits = (u8)take(in, 1) & 1 ? value32(in) :
			   (u32)take(in, 1) % 40;
		cfg.shift = (u8)take(in, 1) & 1 ? value32(in) :
			    (u32)take(in, 1) % 70;
		copy = fmt;
		ret = tp_atime_init(&fmt, &cfg);
		bits = cfg.bits ? cfg.bits : TP_ATIME_DEFAULT_BITS;
		CHECK(ret == (bits > 32 || cfg.shift > 64 - bits ? -EINVAL : 0),
		      "atime bits %u shift %u: %d", cfg.bits, cfg.shift, ret);
		if (ret) {
			CHECK(!memcmp(&copy, &fmt, sizeof(fmt)),
			      "rejected atime init wrote the format");
			break;
		}
		fmt_ok = true;
		stamp = tp_atime_encode(&fmt, clk);
		stamp_time = clk;
		break;
	case 1:
		if (!fmt_ok)
			break;
		(void)tp_atime_xchg(&fmt, &stamp, clk);
		stamp_time = clk;
		break;
	default:
		if (!fmt_ok)
			break;
		span = tp_atime_span(&fmt);
		lat = tp_atime_fault(&fmt, &stamp, clk);
		CHECK(lat < span || span == ~0ULL, "atime latency %llu, span %llu",
		      (unsigned long long)lat, (unsigned long long)span);
		if (fmt.shift < 64)
			CHECK(!(lat & ((1ULL << fmt.shift) - 1)),
			      "latency not a multiple of the bucket");
		/* Within a bucket of the true elapsed time, when it fits. */
		el = clk - stamp_time;
		bucket = fmt.shift < 64 ? 1ULL << fmt.shift : ~0ULL;
		if ((s64)el >= 0 && span != ~0ULL && el < span - bucket)
			CHECK(lat + bucket > el && lat < el + bucket,
			      "latency %llu for %llu ticks",
			      (unsigned long long)lat, (unsigned long long)el);
		stamp_time = clk;
		break;
	}
}

/* ---- VMA scan filter ------------------------------------------------------------ */

static struct tp_vma_profile prof;
static struct tp_vma_scan vs;
static bool prof_ok, vs_ok;

static void vma_op(struct input *in, u8 sub)
{
	struct tp_vma_profile_cfg cfg;
	struct tp_vma_profile copy;
	struct tp_vma_facts f;
	u64 size;
	u32 want;
	bool einval;
	int ret;

	switch (sub % 6) {
	case 0:
		cfg.filter = (u8)take(in, 1) & 1 ? value32(in) :
			     (u32)take(in, 1) % 4;
		cfg.tps = (u8)take(in, 1) & 1 ? value32(in) :
			  (u32)take(in, 2) + 1;
		cfg.scan_delay = value(in);
		copy = prof;
		ret = tp_vma_profile_init(&prof, &cfg);
		einval = cfg.filter > TP_VMA_FILTER_PID || !cfg.tps ||
			 cfg.tps > TP_TPS_MAX;
		CHECK(einval ? ret == -EINVAL :
		      ret == (cfg.scan_delay > TP_TIME_MAX / 4 ? -ERANGE : 0),
		      "vma profile: %d", ret);
		if (ret) {
			CHECK(!memcmp(&copy, &prof, sizeof(prof)),
			      "rejected profile wrote the profile");
			break;
		}
		prof_ok = true;
		vs_ok = false;
		break;
	case 1:
		if (!prof_ok)
			break;
		tp_vma_scan_init(&vs, &prof, (u32)value32(in), clk);
		vs_ok = true;
		break;
	case 2:
		if (vs_ok)
			tp_vma_scan_note(&vs, value32(in));
		break;
	case 3:
		if (vs_ok)
			tp_vma_scan_done(&vs, value32(in));
		break;
	case 4:
		size = value(in);
		want = !size ? 1 : 1 + (u32)(((4ULL << 20) / size) >> 7);
		CHECK(tp_vma_scan_ratelimit(size) == want, "ratelimit");
		CHECK(tp_vma_pid_bit(value32(in)) < 64, "pid bit");
		break;
	default:
		if (!vs_ok)
			break;
		f.vma_start = value(in);
		f.vma_end = (u8)take(in, 1) & 1 ? value(in) :
			    f.vma_start + take(in, 4);
		f.scan_offset = value(in);
		f.scan_seq = value32(in);
		f.nr_threads = value32(in);
		f.pid = value32(in);
		f.forced = take(in, 1) & 1;
		ret = tp_vma_scan_check(&vs, &prof, &f, clk);
		if (f.vma_end <= f.vma_start) {
			CHECK(ret == -EINVAL, "empty VMA: %d", ret);
			break;
		}
		CHECK((ret >= TP_VMA_SCAN_ALL && ret <= TP_VMA_SCAN_DISJOINT) ||
		      (ret >= TP_VMA_SKIP_DELAY && ret <= TP_VMA_SKIP_INACTIVE),
		      "vma verdict %d", ret);
		if (prof.filter == TP_VMA_FILTER_NONE)
			CHECK(ret == TP_VMA_SCAN_ALL, "no filter: %d", ret);
		break;
	}
}

/* ---- the program ---------------------------------------------------------------- */

#define MAX_STEPS	1024U

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct input in = { data, size };
	u8 op, sub;

	if (trace_on < 0)
		trace_on = getenv("FUZZ_API_TRACE") != NULL;
	/* Every object starts as garbage the init functions must overwrite. */
	memset(&ring, 0xa5, sizeof(ring));
	memset(&lim, 0xa5, sizeof(lim));
	memset(&thr, 0xa5, sizeof(thr));
	memset(&pol, 0xa5, sizeof(pol));
	memset(&node, 0xa5, sizeof(node));
	memset(&fmt, 0xa5, sizeof(fmt));
	memset(&prof, 0xa5, sizeof(prof));
	ring_ok = lim_ok = thr_ok = pol_ok = fmt_ok = prof_ok = vs_ok = false;
	memset(&tm, 0, sizeof(tm));
	lim_tps_cur = 1;
	lim_epoch_reset = true;
	clk = value(&in);

	for (step_no = 0; in.n && step_no < MAX_STEPS; step_no++) {
		op = (u8)take(&in, 1);
		sub = (u8)take(&in, 1);
		cur_op = op % 8;
		switch (cur_op) {
		case 0:
			clock_step(&in);
			break;
		case 1:
			ring_op(&in, sub);
			break;
		case 2:
			limiter_op(&in, sub);
			break;
		case 3:
			thresh_op(&in, sub);
			break;
		case 4:
			policy_op(&in, sub);
			break;
		case 5:
			atime_op(&in, sub);
			break;
		case 6:
			vma_op(&in, sub);
			break;
		default:
			helpers_op(&in, sub);
			break;
		}
	}
	return 0;
}
