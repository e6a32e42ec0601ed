/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * fuzz_api.c's rate-limiting objects: the limiter, the threshold
 * controller and the policy with tp_decide(), each with its model of the
 * documented behaviour. Included once, by fuzz_api.c, after fuzz_api.h.
 */
#ifndef _TIERPOL_FUZZ_API_RATE_H
#define _TIERPOL_FUZZ_API_RATE_H

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

	if (!slot || batch <= 1) {
		lm.count += n;
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
			lm.start = clk;
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

/* ---- policy and tp_decide ------------------------------------------------ */

#define POL_SLOTS	2

static struct tp_policy pol;
static struct tp_node node;
static struct tp_node_cpu ncpu[POL_SLOTS];
static bool pol_ok;
static struct {
	u64 by_verdict[TP_NR_VERDICTS];
	u64 pages;
	u64 unit, max, hot_th;
	u32 mode, flags, tps;
	u64 rate;		/* pages/s; 0: the watermark default */
	struct tp_limiter_set lim;
	struct epoch ep;
} pm;

/*
 * Every error the header documents for @c. Either is accepted when both
 * apply: tp_policy_init() checks the rate's range before the limiter's and
 * the threshold's variants, and tp_policy_tune() the clock last, against
 * docs/BAD_INPUT.md's "-EINVAL wins" (reported).
 */
/* The reference threshold: in ticks, or in faults (TP_POL_LAT_FAULTS). */
static u64 policy_ref(const struct tp_policy_cfg *c)
{
	if (c->flags & TP_POL_LAT_FAULTS)
		return c->hot_threshold_faults ? c->hot_threshold_faults :
		       TP_DEFAULT_HOT_THRESHOLD_FAULTS;
	return ms_to_ticks(c->hot_threshold_ms, c->tps);
}

static bool policy_expect(const struct tp_policy_cfg *c, bool tune, int ret,
			  struct tp_limiter_set *lim)
{
	u32 shift = c->page_shift ? c->page_shift : TP_DEFAULT_PAGE_SHIFT;
	u32 f = c->flags;
	bool einval, erange;
	u64 rate;

	einval = c->sz != sizeof(*c) || c->mode > 3 || (f & ~TP_POL_ALL) ||
		 ((f & (TP_POL_ADAPTIVE | TP_POL_WRITE_DOUBLE |
			TP_POL_HOT_STRICT)) && !(f & TP_POL_HOTNESS)) ||
		 ((f & TP_POL_BYPASS_RESET) &&
		  (!(f & TP_POL_FREE_BYPASS) || !(f & TP_POL_ADAPTIVE))) ||
		 ((f & TP_POL_RL_WMARK_DEFAULT) &&
		  c->limiter_variant == TP_LIMITER_BUCKET) ||
		 !c->tps || c->tps > TP_TPS_MAX || shift < 10 || shift > 30 ||
		 c->thresh_variant > TP_THRESH_HISTOGRAM ||
		 c->limiter_variant > TP_LIMITER_WINDOW_LINUX61 ||
		 c->wmark_variant > TP_WMARK_LINUX61 ||
		 c->cand_batch > TP_CAND_BATCH_MAX ||
		 (tune && c->tps != pm.tps);
	rate = tp_mbps_to_pages(c->rate_limit_mbps, shift);
	erange = rate > TP_RATE_MAX || c->burst_pages > TP_RATE_MAX ||
		 policy_ref(c) > TP_TIME_MAX;
	if (!erange && c->tps && c->tps <= TP_TPS_MAX &&
	    c->limiter_variant <= TP_LIMITER_WINDOW_LINUX61 &&
	    !limiter_derive(c->limiter_variant, c->tps, c->cand_batch, rate,
			    c->burst_pages, lim))
		erange = true;
	if (!einval && !erange)
		return ret == 0;
	return (einval && ret == -EINVAL) || (erange && ret == -ERANGE);
}

static void policy_model(const struct tp_policy_cfg *c,
			 const struct tp_limiter_set *lim)
{
	u64 ref = policy_ref(c);

	pm.hot_th = ref;
	if (c->flags & TP_POL_ADAPTIVE) {
		thresh_bounds(c->thresh_variant, 0, ref, &pm.unit, &pm.max);
	} else {
		pm.unit = ref;
		pm.max = ref;
	}
	pm.mode = c->mode;
	pm.flags = c->flags;
	pm.lim = *lim;
	pm.rate = lim->limit;
	/* settings published whole, as documented */
	CHECK_LATCH(pol, "policy");
	CHECK(!memcmp(&pol.set[0].lim, lim, sizeof(*lim)),
	      "policy limiter settings: cost %llu tau %llu limit %llu, want %llu %llu %llu",
	      ULL(pol.set[0].lim.cost), ULL(pol.set[0].lim.tau),
	      ULL(pol.set[0].lim.limit), ULL(lim->cost), ULL(lim->tau),
	      ULL(lim->limit));
	CHECK(pol.set[0].hot_th == ref && pol.set[0].mode == c->mode &&
	      pol.set[0].flags == c->flags &&
	      pol.set[0].th.period ==
		      ms_to_ticks(c->scan_period_max_ms, c->tps) &&
	      (!(c->flags & TP_POL_ADAPTIVE) ||
	       (pol.set[0].th.unit == pm.unit && pol.set[0].th.max == pm.max)),
	      "policy settings");
}

static void node_stats(struct tp_node_stats *s)
{
	unsigned int i;

	tp_node_stats_read(&pol, &node, s);
	for (i = 0; i < POL_SLOTS; i++)
		tp_node_stats_add(s, &ncpu[i]);
}

static void node_check_stats(const struct tp_node_stats *s)
{
	unsigned int v;

	for (v = 0; v < TP_NR_VERDICTS; v++)
		CHECK(s->verdict[v] == pm.by_verdict[v],
		      "verdict %u: %llu pages, want %llu", v,
		      ULL(s->verdict[v]), ULL(pm.by_verdict[v]));
	CHECK(s->decided == pm.pages, "decided %llu, want %llu",
	      ULL(s->decided), ULL(pm.pages));
	CHECK(s->success == s->verdict[TP_PROMOTE] +
			    s->verdict[TP_PROMOTE_NRL], "success");
	CHECK(s->nospace_nrl <= s->verdict[TP_REFUSE_NOSPACE], "nospace nrl");
	CHECK(s->candidate_nrl == s->verdict[TP_PROMOTE_NRL] + s->nospace_nrl,
	      "candidates nrl");
	CHECK(s->candidate >= s->verdict[TP_PROMOTE] +
			      s->verdict[TP_REFUSE_RATELIMIT] +
			      s->verdict[TP_REFUSE_NOSPACE] - s->nospace_nrl &&
	      s->candidate <= s->verdict[TP_PROMOTE] +
			      s->verdict[TP_REFUSE_RATELIMIT] +
			      s->verdict[TP_REFUSE_NOSPACE] - s->nospace_nrl +
			      s->verdict[TP_REFUSE_BUSY],
	      "candidates %llu", ULL(s->candidate));
	CHECK(s->cand_shared <= s->candidate, "shared candidates %llu > %llu",
	      ULL(s->cand_shared), ULL(s->candidate));
	CHECK(s->threshold >= pm.unit && s->threshold <= pm.max,
	      "node threshold %llu outside [%llu, %llu]", ULL(s->threshold),
	      ULL(pm.unit), ULL(pm.max));
}

/*
 * One decision, counted once: the verdict's counter grows by the pages,
 * and the derived figures as that verdict says.
 */
static void decide_check_delta(const struct tp_node_stats *b,
			       const struct tp_node_stats *a, int v, u64 n)
{
	u64 dc = a->candidate - b->candidate;
	u64 dn = a->nospace_nrl - b->nospace_nrl;
	unsigned int i;

	for (i = 0; i < TP_NR_VERDICTS; i++)
		CHECK(a->verdict[i] - b->verdict[i] == (i == (unsigned int)v ?
							n : 0),
		      "verdict %u moved by %llu", i,
		      ULL(a->verdict[i] - b->verdict[i]));
	switch (v) {
	case TP_PROMOTE:
	case TP_REFUSE_RATELIMIT:
		CHECK(dc == n && !dn, "candidate not counted");
		break;
	case TP_PROMOTE_NRL:
		CHECK(!dc && !dn &&
		      a->candidate_nrl - b->candidate_nrl == n, "bypass");
		break;
	case TP_REFUSE_NOSPACE:	/* a candidate, or on the bypass path */
		CHECK((dc == n && !dn) || (!dc && dn == n), "no room");
		break;
	case TP_REFUSE_BUSY:
		CHECK(dc == n || !dc, "busy");
		break;
	default:
		CHECK(!dc && !dn, "counted as a candidate: %d", v);
		break;
	}
}

static void random_mem(struct input *in, struct tp_node_mem *m)
{
	u8 k = (u8)take(in, 1);

	if (k % 8 == 0) {	/* anything, often out of order */
		m->wmark_min = value(in);
		m->wmark_low = value(in);
		m->wmark_high = value(in);
		m->wmark_promo = value(in);
	} else {
		m->wmark_min = take(in, 2);
		m->wmark_low = m->wmark_min + take(in, 1);
		m->wmark_high = m->wmark_low + take(in, 2);
		m->wmark_promo = m->wmark_high + take(in, 2);
		if (k % 8 == 1)	/* a kernel before 6.1: none */
			m->wmark_promo = 0;
	}
	m->present = value(in);
	m->free = (u8)take(in, 1) & 1 ? value(in) :
		  m->wmark_high + take(in, 3) - 0x800000;
}

static void policy_cfg_op(struct input *in, bool tune)
{
	struct tp_limiter_set lim;
	struct tp_policy_cfg cfg;
	struct tp_policy copy;
	struct tp_node ncopy;
	struct tp_node_stats s;
	u32 preset, old_mode = pm.mode;
	int ret;

	memset(&cfg, 0x5a, sizeof(cfg));
	preset = (u32)take(in, 1);
	ret = tp_policy_preset(&cfg, preset % 4, (u32)(take(in, 2) + 1));
	if (preset % 4 > TP_PRESET_LINUX61) {
		CHECK(ret == -EINVAL, "preset %u: %d", preset % 4, ret);
		memset(&cfg, 0, sizeof(cfg));
		cfg.sz = sizeof(cfg);
		cfg.tps = 1000;
	} else {
		CHECK(ret == 0 && cfg.sz == sizeof(cfg), "preset %u: %d",
		      preset % 4, ret);
	}
	/* Mutate a few fields. */
	while ((u8)take(in, 1) % 3) {
		switch (take(in, 1) % 15) {
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
		case 11:
			cfg.cand_batch = value32(in);
			break;
		case 12:	/* another size: all bad, none bigger here */
			cfg.sz = (u32)take(in, 1) % sizeof(cfg);
			break;
		case 13:	/* the fault-count clock's threshold */
			cfg.hot_threshold_faults = value(in);
			break;
		default:
			cfg.flags = value32(in);
			break;
		}
	}
	copy = pol;
	ncopy = node;
	ret = tune ? tp_policy_tune(&pol, &cfg) : tp_policy_init(&pol, &cfg);
	TRACE("policy_%s(sz %u mode %#x flags %#x tps %u shift %u hot %u rate %u period %u variants %u/%u/%u batch %u burst %llu) = %d",
	      tune ? "tune" : "init", cfg.sz, cfg.mode, cfg.flags, cfg.tps,
	      cfg.page_shift, cfg.hot_threshold_ms, cfg.rate_limit_mbps,
	      cfg.scan_period_max_ms, cfg.thresh_variant, cfg.limiter_variant,
	      cfg.wmark_variant, cfg.cand_batch, ULL(cfg.burst_pages), ret);
	CHECK(policy_expect(&cfg, tune, ret, &lim),
	      "policy mode %#x flags %#x tps %u shift %u rate %u burst %llu: %d",
	      cfg.mode, cfg.flags, cfg.tps, cfg.page_shift,
	      cfg.rate_limit_mbps, ULL(cfg.burst_pages), ret);
	if (ret) {
		CHECK(!memcmp(&copy, &pol, sizeof(pol)),
		      "rejected policy %s wrote the policy",
		      tune ? "tune" : "init");
		return;
	}
	policy_model(&cfg, &lim);
	epoch_start(&pm.ep);
	if (tune) {
		CHECK(!memcmp(&ncopy, &node, sizeof(node)),
		      "a policy tune wrote the node");
		/* the sysctl handler's reset_memory_tiering() */
		if (!(old_mode & TP_MODE_TIERING) &&
		    (cfg.mode & TP_MODE_TIERING))
			tp_node_reset(&node, clk);
	} else {
		CHECK(tp_node_init(&node, &pol, clk) == 0, "node init");
		memset(ncpu, 0, sizeof(ncpu));
		memset(&pm.by_verdict, 0, sizeof(pm.by_verdict));
		pm.pages = 0;
		pm.tps = cfg.tps;
		pol_ok = true;
	}
	node_stats(&s);
	node_check_stats(&s);
}

static void policy_op(struct input *in, u8 sub)
{
	struct tp_node_stats before, after;
	struct tp_node_mem mem;
	struct tp_fault f;
	bool valid;
	u8 k;
	int ret;

	switch (sub % 8) {
	case 0:
	case 1:	/* init (+ node init) or tune (+ node reset) */
		if (sub % 8 == 1 && !pol_ok)
			break;
		policy_cfg_op(in, sub % 8 == 1);
		break;
	default:	/* decide */
		if (!pol_ok)
			break;
		k = (u8)take(in, 1);
		switch (k % 5) {
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
			(!mem.wmark_promo || mem.wmark_high <= mem.wmark_promo);
		node_stats(&before);
		ret = tp_decide(&pol, &node, &ncpu[k >> 7], &f, &mem, clk);
		TRACE("decide(slot %u pages %llu lat %llu flags %#x free %llu wmarks %llu/%llu/%llu/%llu) at %#llx = %d",
		      k >> 7, ULL(f.nr_pages), ULL(f.latency), f.flags,
		      ULL(mem.free), ULL(mem.wmark_min), ULL(mem.wmark_low),
		      ULL(mem.wmark_high), ULL(mem.wmark_promo), ULL(clk), ret);
		node_stats(&after);
		if (!valid) {
			CHECK(ret == -EINVAL, "invalid call: %d", ret);
			CHECK(!memcmp(&before, &after, sizeof(before)),
			      "an invalid call was counted");
			break;
		}
		CHECK(ret >= 0 && ret < TP_NR_VERDICTS, "verdict %d", ret);
		CHECK(ret != TP_REFUSE_BUSY, "busy without contention");
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
		decide_check_delta(&before, &after, ret, f.nr_pages);
		pm.by_verdict[ret] += f.nr_pages;
		pm.pages += f.nr_pages;
		node_check_stats(&after);
		/* the limiter's admissions: promoted, or refused for room */
		if (ret == TP_PROMOTE ||
		    (ret == TP_REFUSE_NOSPACE &&
		     after.nospace_nrl == before.nospace_nrl)) {
			epoch_enter(&pm.ep, pm.tps);
			epoch_admit(&pm.ep, f.nr_pages);
		}
		/* the rate per fault (the watermark default) has no bound */
		if (pm.rate || !(pm.flags & TP_POL_RL_WMARK_DEFAULT))
			epoch_check(&pm.ep, &pm.lim, pm.tps, pm.rate,
				    POL_SLOTS * (pm.lim.batch - 1), "decide");
		break;
	}
}

#endif /* _TIERPOL_FUZZ_API_RATE_H */
