/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * fuzz_api.c's policy, node and per-CPU slots with tp_decide(): the
 * documented errors and settings of init and tune, the node's statistics
 * (each valid decision counted once, under its verdict) and the rate
 * limiter's bound over the decisions. Included once, by fuzz_api.c, after
 * fuzz_api.h.
 */
#ifndef TP_FUZZ_API_POLICY_H
#define TP_FUZZ_API_POLICY_H

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
	u64 bypass_min;		/* 1 GiB in pages */
	u32 wmark;		/* enum tp_wmark_variant */
	struct tp_limiter_set lim;
	struct epoch ep;
} pm;

/* The reference threshold: in ticks, or in faults (TP_POL_LAT_FAULTS). */
static u64 policy_ref(const struct tp_policy_cfg *c)
{
	if (c->flags & TP_POL_LAT_FAULTS)
		return c->hot_threshold_faults ? c->hot_threshold_faults :
		       TP_DEFAULT_HOT_THRESHOLD_FAULTS;
	return ms_to_ticks(c->hot_threshold_ms, c->tps);
}

/*
 * Every error the header documents for @c. Either is accepted when both
 * apply: tp_policy_init() checks the rate's range before the limiter's and
 * the threshold's variants, and tp_policy_tune() the clock last, against
 * docs/BAD_INPUT.md's "-EINVAL wins" (reported).
 */
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
	/* pages above 1 MiB: a non-zero limit is at least a page a second */
	if (!rate && c->rate_limit_mbps)
		rate = 1;
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
	pm.wmark = c->wmark_variant;
	pm.bypass_min = (1ULL << 30) >>
			(c->page_shift ? c->page_shift : TP_DEFAULT_PAGE_SHIFT);
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
	/* present near 16 x (free - promo): Linux 6.1's margin decides */
	if (k & 0x10)
		m->present = (m->free - (m->wmark_promo ? m->wmark_promo :
					 m->wmark_high)) * 16 +
			     take(in, 1) - 0x80;
}

/*
 * tp_free_space_enough() as policy.h states it, without saturation: the
 * 2020 RFC's free > high + 2 x rate, Linux 6.1's free > promo + max(1 GiB,
 * present / 16), the promo watermark being the high one when it is 0. The
 * rate is the policy's, or with TP_POL_RL_WMARK_DEFAULT and a rate of 0
 * the high watermark, at most TP_RATE_MAX.
 */
static bool space_model(const struct tp_node_mem *m)
{
	u64 rate = pm.rate, promo, margin;

	if (!rate && (pm.flags & TP_POL_RL_WMARK_DEFAULT))
		rate = m->wmark_high < TP_RATE_MAX ? m->wmark_high :
		       TP_RATE_MAX;
	if (pm.wmark == TP_WMARK_RFC2020)
		return m->free > (u128)m->wmark_high + 2 * (u128)rate;
	promo = m->wmark_promo ? m->wmark_promo : m->wmark_high;
	margin = pm.bypass_min > m->present / 16 ? pm.bypass_min :
		 m->present / 16;
	return m->free > (u128)promo + margin;
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

#endif /* TP_FUZZ_API_POLICY_H */
