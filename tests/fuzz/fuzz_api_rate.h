/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * fuzz_api.c's rate-limiting objects: the limiter and the threshold
 * controller, each with its model of the documented behaviour (the policy
 * with tp_decide(), which combines them, is in fuzz_api_policy.h).
 * Included once, by fuzz_api.c, after fuzz_api.h.
 */
#ifndef TP_FUZZ_API_RATE_H
#define TP_FUZZ_API_RATE_H

/* ---- rate limiter -------------------------------------------------------- */

static struct tp_limiter lim;
static struct tp_limiter_cpu lim_slot;
static bool lim_ok;
static struct {
	struct tp_limiter_set set;	/* the settings in force */
	u32 tps;
	struct epoch ep;
	/* the windows' state: start, shared count, base, the slot's pages */
	u64 start, count, base, diff;
} lm;

/* The error the header documents for @c (on a limiter at @tps if tune). */
static bool limiter_expect(const struct tp_limiter_cfg *c, bool bad_sz,
			   bool tune, int ret, struct tp_limiter_set *want)
{
	bool einval = bad_sz || c->variant > TP_LIMITER_WINDOW_LINUX61 ||
		      !c->tps || c->tps > TP_TPS_MAX ||
		      c->cand_batch > TP_CAND_BATCH_MAX;
	bool erange = c->rate > TP_RATE_MAX || c->burst > TP_RATE_MAX;

	if (!einval && !erange &&
	    !limiter_derive(c->variant, c->tps, c->cand_batch, c->rate,
			    c->burst, want))
		erange = true;
	if (tune && c->tps != lm.tps)
		einval = true;
	/* -EINVAL wins over -ERANGE (docs/BAD_INPUT.md) */
	return ret == (einval ? -EINVAL : erange ? -ERANGE : 0);
}

/* The windows' model: the documented semantics, the slot's lag included. */
static bool window_model(u32 variant, u64 limit, u32 batch, bool slot, u64 n,
			 u32 tps)
{
	u64 used;

	/* more than any folio: refused, not counted */
	if (n > TP_RATE_MAX)
		return false;
	if (!slot) {
		lm.count += n;
	} else if (batch <= 1) {
		/* the pages a larger batch left in the slot go with these */
		lm.count += lm.diff + n;
		lm.diff = 0;
	} else {
		lm.diff += n;
		if (lm.diff >= batch) {
			lm.count += lm.diff;
			lm.diff = 0;
		}
	}
	if ((s64)(clk - lm.start) > (s64)tps) {
		lm.start = clk;
		lm.base = lm.count;
	}
	used = lm.count - lm.base;
	if (variant == TP_LIMITER_WINDOW_RFC2020)
		return limit && used <= limit;
	return used < limit;
}

static void limiter_op(struct input *in, u8 sub)
{
	struct {
		struct tp_limiter_cfg c;
		u8 tail[8];
	} w;
	struct tp_limiter_cfg *cfg = &w.c;
	struct tp_limiter_set want;
	struct tp_limiter copy;
	u64 n, avail, burst;
	bool ok, tune, bad, slot, expect;
	u8 k;
	int ret;

	switch (sub % 8) {
	case 0:
	case 1:	/* init or tune */
		tune = sub % 8 == 1;
		if (tune && !lim_ok)
			break;
		memset(&w, 0, sizeof(w));
		cfg->variant = (u8)take(in, 1) & 0x80 ? value32(in) :
			       (u32)(take(in, 1) % 3);
		k = (u8)take(in, 1);
		cfg->tps = tune ? tune_tps(in, k, lm.tps, 3) :
			   k & 0x80 ? value32(in) : (u32)(take(in, 3) + 1);
		cfg->rate = value(in);
		cfg->burst = value(in);
		k = (u8)take(in, 1);
		cfg->cand_batch = k & 0x80 ? value32(in) : k & 0x7f;
		cfg->sz = pick_sz(in, sizeof(*cfg), w.tail, &bad);
		copy = lim;
		ret = tune ? tp_limiter_tune(&lim, cfg) :
			     tp_limiter_init(&lim, cfg, clk);
		TRACE("limiter_%s(sz %u variant %u tps %u batch %u rate %llu burst %llu) at %#llx = %d",
		      tune ? "tune" : "init", cfg->sz, cfg->variant, cfg->tps,
		      cfg->cand_batch, ULL(cfg->rate), ULL(cfg->burst),
		      ULL(clk), ret);
		CHECK(limiter_expect(cfg, bad, tune, ret, &want),
		      "sz %u variant %u tps %u batch %u rate %llu burst %llu: %d",
		      cfg->sz, cfg->variant, cfg->tps, cfg->cand_batch,
		      ULL(cfg->rate), ULL(cfg->burst), ret);
		if (ret) {
			CHECK(!memcmp(&copy, &lim, sizeof(lim)),
			      "rejected %s wrote the limiter",
			      tune ? "tune" : "init");
			break;
		}
		/* one whole copy of the documented settings, published */
		CHECK_LATCH(lim, "limiter");
		CHECK(!memcmp(&lim.set[0], &want, sizeof(want)),
		      "settings: cost %llu tau %llu n_max %llu limit %llu, want %llu %llu %llu %llu",
		      ULL(lim.set[0].cost), ULL(lim.set[0].tau),
		      ULL(lim.set[0].n_max), ULL(lim.set[0].limit),
		      ULL(want.cost), ULL(want.tau), ULL(want.n_max),
		      ULL(want.limit));
		if (tune) {
			CHECK(!memcmp(&copy.st, &lim.st, sizeof(lim.st)) &&
			      !memcmp(&copy.count, &lim.count,
				      sizeof(lim.count)) &&
			      lim.tps == copy.tps && lim.shift == copy.shift &&
			      lim.stale == copy.stale,
			      "a tune wrote live state or the clock");
		} else {
			lm.tps = cfg->tps;
			/* an expired window: the first request opens one */
			lm.start = clk - cfg->tps - 1;
			lm.count = 0;
			lm.base = 0;
			lm.diff = 0;
			memset(&lim_slot, 0, sizeof(lim_slot));
		}
		lim_ok = true;
		lm.set = want;
		epoch_start(&lm.ep);
		break;
	case 2:	/* available */
		if (!lim_ok)
			break;
		avail = tp_limiter_available(&lim, clk);
		burst = lm.set.cost ? lm.set.tau / lm.set.cost : 0;
		CHECK(avail <= (lm.set.variant == TP_LIMITER_BUCKET ? burst :
				lm.set.limit),
		      "available %llu", ULL(avail));
		break;
	default:	/* consume */
		if (!lim_ok)
			break;
		k = (u8)take(in, 1);
		switch (k % 4) {
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
		slot = k & 0x80;
		epoch_enter(&lm.ep, lm.tps);
		/* the bucket admits exactly what is available, n_max if full */
		avail = tp_limiter_available(&lim, clk);
		burst = lm.set.cost ? lm.set.tau / lm.set.cost : 0;
		ok = tp_limiter_consume(&lim, slot ? &lim_slot : NULL, n, clk);
		TRACE("limiter_consume(%llu%s) at %#llx = %d (available %llu)",
		      ULL(n), slot ? ", slot" : "", ULL(clk), ok, ULL(avail));
		if (!n) {
			CHECK(ok, "0 pages refused");
			break;
		}
		if (lm.set.variant == TP_LIMITER_BUCKET) {
			expect = lm.set.cost &&
				 (avail == burst ? n <= lm.set.n_max :
						   n <= avail);
			CHECK(ok == expect,
			      "bucket: %llu pages with %llu available (burst %llu, n_max %llu): %d",
			      ULL(n), ULL(avail), ULL(burst),
			      ULL(lm.set.n_max), ok);
		} else {
			expect = window_model(lm.set.variant, lm.set.limit,
					      lm.set.batch, slot, n, lm.tps);
			CHECK(ok == expect,
			      "window: %llu pages, count %llu base %llu pending %llu: %d",
			      ULL(n), ULL(lm.count), ULL(lm.base),
			      ULL(lm.diff), ok);
		}
		CHECK(!tp_limiter_busy(&lim_slot), "busy without contention");
		if (ok)
			epoch_admit(&lm.ep, n);
		epoch_check(&lm.ep, &lm.set, lm.tps, lm.set.limit,
			    lm.set.batch - 1, "limiter");
		break;
	}
}

/* ---- threshold controller ------------------------------------------------ */

static struct tp_thresh thr;
static bool thr_ok;
static struct {
	u64 ref, unit, max, period, rate, ref_cand, start, base, cand;
	u32 tps, variant;
} tm;

static int thresh_expect(const struct tp_thresh_cfg *c, bool bad_sz,
			 bool tune, int ret)
{
	bool einval = bad_sz || c->variant > TP_THRESH_HISTOGRAM || !c->tps ||
		      c->tps > TP_TPS_MAX || c->steps > TP_THRESH_STEPS_MAX;
	bool erange = c->ref_th > TP_TIME_MAX || c->period > TP_TIME_MAX ||
		      c->rate_limit > TP_RATE_MAX;

	if (tune && c->tps != tm.tps)
		einval = true;
	/* -EINVAL wins over -ERANGE (docs/BAD_INPUT.md) */
	return ret == (einval ? -EINVAL : erange ? -ERANGE : 0);
}

/*
 * Settings the header documents: step and bounds (0 for a reference of 0),
 * and the budget, rate x period / tps, saturated.
 */
static void thresh_model(const struct tp_thresh_cfg *c)
{
	u128 rc;

	tm.period = c->period;
	tm.ref = c->ref_th;
	tm.variant = c->variant;
	tm.rate = c->rate_limit;
	thresh_bounds(c->variant, c->steps, tm.ref, &tm.unit, &tm.max);
	rc = (u128)tm.period * c->rate_limit / c->tps;
	tm.ref_cand = rc > ~0ULL ? ~0ULL : (u64)rc;
}

static void thresh_check_bounds(void)
{
	u64 th = tp_thresh_get(&thr);

	CHECK(th >= tm.unit && th <= tm.max && (th || !tm.max),
	      "threshold %llu outside [%llu, %llu]", ULL(th), ULL(tm.unit),
	      ULL(tm.max));
	CHECK_LATCH(thr, "threshold");
	CHECK(thr.set[0].unit == tm.unit && thr.set[0].max == tm.max &&
	      thr.set[0].ref_th == tm.ref && thr.set[0].period == tm.period &&
	      thr.set[0].rate == tm.rate,
	      "threshold settings: unit %llu max %llu, want %llu %llu",
	      ULL(thr.set[0].unit), ULL(thr.set[0].max), ULL(tm.unit),
	      ULL(tm.max));
}

static void thresh_op(struct input *in, u8 sub)
{
	struct {
		struct tp_thresh_cfg c;
		u8 tail[8];
	} w;
	struct tp_thresh_cfg *cfg = &w.c;
	struct tp_thresh copy;
	u64 before, after, diff, want;
	bool tune, over, bad;
	int ret, ev;
	u8 k;

	switch (sub % 8) {
	case 0:
	case 1:	/* init or tune */
		tune = sub % 8 == 1;
		if (tune && !thr_ok)
			break;
		memset(&w, 0, sizeof(w));
		cfg->variant = (u8)take(in, 1) & 0x80 ? value32(in) :
			       (u32)(take(in, 1) % 2);
		cfg->steps = (u8)take(in, 1) & 0x80 ? value32(in) :
			     (u32)take(in, 1);
		k = (u8)take(in, 1);
		cfg->tps = tune ? tune_tps(in, k, tm.tps, 2) :
			   k & 0x80 ? value32(in) : (u32)(take(in, 2) + 1);
		cfg->ref_th = value(in);
		cfg->period = value(in);
		cfg->rate_limit = value(in);
		cfg->sz = pick_sz(in, sizeof(*cfg), w.tail, &bad);
		copy = thr;
		ret = tune ? tp_thresh_tune(&thr, cfg) :
			     tp_thresh_init(&thr, cfg, tm.cand, clk);
		TRACE("thresh_%s(sz %u variant %u steps %u tps %u ref %llu period %llu rate %llu) at %#llx = %d",
		      tune ? "tune" : "init", cfg->sz, cfg->variant,
		      cfg->steps, cfg->tps, ULL(cfg->ref_th),
		      ULL(cfg->period), ULL(cfg->rate_limit), ULL(clk), ret);
		CHECK(thresh_expect(cfg, bad, tune, ret), "thresh cfg: %d", ret);
		if (ret) {
			CHECK(!memcmp(&copy, &thr, sizeof(thr)),
			      "rejected %s wrote the controller",
			      tune ? "tune" : "init");
			break;
		}
		thr_ok = true;
		thresh_model(cfg);
		if (tune) {
			CHECK(!memcmp(&copy.st, &thr.st, sizeof(thr.st)) &&
			      copy.tps == thr.tps,
			      "a tune wrote live state or the clock");
		} else {
			tm.tps = cfg->tps;
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
		      ULL(tm.cand), ULL(clk));
		if (ev) {
			tm.start = clk;
			tm.base = tm.cand;
		}
		/* Back at the reference, kept inside the bounds. */
		want = tm.ref < tm.unit ? tm.unit :
		       tm.ref > tm.max ? tm.max : tm.ref;
		CHECK(tp_thresh_get(&thr) == want,
		      "reset: %llu", ULL(tp_thresh_get(&thr)));
		break;
	default:	/* candidates, then update */
		if (!thr_ok)
			break;
		if ((u8)take(in, 1) & 1)
			tm.cand += take(in, 1);
		else if ((u8)take(in, 1) % 4)
			tm.cand += tm.ref_cand + take(in, 1) - 128;
		else
			tm.cand += value(in);
		before = tp_thresh_get(&thr);
		over = (s64)(clk - tm.start) > (s64)tm.period;
		ev = tp_thresh_update(&thr, tm.cand, clk);
		after = tp_thresh_get(&thr);
		TRACE("thresh_update(cand %llu) at %#llx = %d: %llu -> %llu",
		      ULL(tm.cand), ULL(clk), ev, ULL(before), ULL(after));
		CHECK(ev >= TP_TH_IDLE && ev <= TP_TH_RAISED, "event %d", ev);
		CHECK((ev != TP_TH_IDLE) == over,
		      "event %d, period over: %d", ev, over);
		thresh_check_bounds();
		if (ev == TP_TH_IDLE) {
			CHECK(after == before, "idle moved the threshold");
			break;
		}
		/*
		 * The histogram's fit depends on the bins (fuzz_algos checks
		 * it): here its bounds and an event that says what it did.
		 */
		if (tm.variant == TP_THRESH_HISTOGRAM) {
			CHECK(ev == (after < before ? TP_TH_LOWERED :
				     after > before ? TP_TH_RAISED :
				     TP_TH_KEPT), "event %d for %llu -> %llu",
			      ev, ULL(before), ULL(after));
			tm.start = clk;
			if ((s64)(tm.cand - tm.base) > 0)
				tm.base = tm.cand;
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
		      ULL(before), ULL(after), ULL(want), ULL(diff),
		      ULL(tm.ref_cand));
		CHECK(ev == (after < before ? TP_TH_LOWERED :
			     after > before ? TP_TH_RAISED : TP_TH_KEPT),
		      "event %d for %llu -> %llu", ev, ULL(before), ULL(after));
		tm.start = clk;
		if ((s64)(tm.cand - tm.base) > 0)
			tm.base = tm.cand;
		break;
	}
}

#endif /* TP_FUZZ_API_RATE_H */
