// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The promotion decision pipeline, watermark helpers, scan filter and the
 * pseudo-interleaving rules. docs/decision.md walks the pipeline in order.
 */
#include "tp_inline.h"
#include <tierpol/policy.h>

#define POL_NEEDS_HOTNESS	(TP_POL_ADAPTIVE | TP_POL_WRITE_DOUBLE | \
				 TP_POL_HOT_STRICT)
#define PAGE_SHIFT_MIN		10U
#define PAGE_SHIFT_MAX		30U

static u64 ms_to_ticks(u64 ms, u32 tps)
{
	/* Round up, as msecs_to_jiffies() does; ms < 2^32, tps <= 2^30. */
	return tp_div64_u64(ms * tps + 999, 1000);
}

int tp_policy_preset(struct tp_policy_cfg *cfg, u32 preset, u32 tps)
{
	if (!cfg || preset > TP_PRESET_MAINLINE)
		return -EINVAL;

	cfg->mode = TP_MODE_TIERING;
	cfg->tps = tps;
	cfg->page_shift = TP_DEFAULT_PAGE_SHIFT;
	cfg->hot_threshold_ms = TP_DEFAULT_HOT_THRESHOLD_MS;
	cfg->scan_period_max_ms = TP_DEFAULT_SCAN_PERIOD_MAX_MS;
	cfg->burst_pages = 0;
	if (preset == TP_PRESET_SEED) {
		cfg->flags = TP_POL_HOTNESS | TP_POL_FREE_BYPASS |
			     TP_POL_YOUNG | TP_POL_WRITE_DOUBLE |
			     TP_POL_ADAPTIVE | TP_POL_RL_WMARK_DEFAULT;
		cfg->rate_limit_mbps = 0;
		cfg->thresh_variant = TP_THRESH_SEED;
		cfg->limiter_variant = TP_LIMITER_WINDOW_SEED;
		cfg->wmark_variant = TP_WMARK_SEED;
	} else {
		cfg->flags = TP_POL_HOTNESS | TP_POL_FREE_BYPASS |
			     TP_POL_ADAPTIVE | TP_POL_HOT_STRICT |
			     TP_POL_BYPASS_RESET;
		cfg->rate_limit_mbps = TP_DEFAULT_PROMOTE_RATE_LIMIT_MBPS;
		cfg->thresh_variant = TP_THRESH_MAINLINE;
		cfg->limiter_variant = TP_LIMITER_WINDOW_MAINLINE;
		cfg->wmark_variant = TP_WMARK_MAINLINE;
	}
	return 0;
}

static int policy_check(const struct tp_policy_cfg *cfg, struct tp_policy *out)
{
	u32 shift;
	u64 rate;

	if (!cfg)
		return -EINVAL;
	if (cfg->mode > (TP_MODE_NORMAL | TP_MODE_TIERING))
		return -EINVAL;
	if (cfg->flags & ~TP_POL_ALL)
		return -EINVAL;
	if ((cfg->flags & POL_NEEDS_HOTNESS) && !(cfg->flags & TP_POL_HOTNESS))
		return -EINVAL;
	if ((cfg->flags & TP_POL_BYPASS_RESET) &&
	    (cfg->flags & (TP_POL_FREE_BYPASS | TP_POL_ADAPTIVE)) !=
	    (TP_POL_FREE_BYPASS | TP_POL_ADAPTIVE))
		return -EINVAL;
	if (!cfg->tps || cfg->tps > TP_TPS_MAX)
		return -EINVAL;
	shift = cfg->page_shift ? cfg->page_shift : TP_DEFAULT_PAGE_SHIFT;
	if (shift < PAGE_SHIFT_MIN || shift > PAGE_SHIFT_MAX)
		return -EINVAL;
	if (cfg->thresh_variant > TP_THRESH_MAINLINE ||
	    cfg->limiter_variant > TP_LIMITER_WINDOW_MAINLINE ||
	    cfg->wmark_variant > TP_WMARK_MAINLINE)
		return -EINVAL;
	rate = tp_mbps_to_pages(cfg->rate_limit_mbps, shift);
	if (rate > TP_RATE_MAX || cfg->burst_pages > TP_RATE_MAX)
		return -ERANGE;

	out->mode = cfg->mode;
	out->flags = cfg->flags;
	out->tps = cfg->tps;
	out->page_shift = shift;
	out->thresh_variant = cfg->thresh_variant;
	out->limiter_variant = cfg->limiter_variant;
	out->wmark_variant = cfg->wmark_variant;
	out->hot_th = ms_to_ticks(cfg->hot_threshold_ms ?
				  cfg->hot_threshold_ms :
				  TP_DEFAULT_HOT_THRESHOLD_MS, cfg->tps);
	out->rate_pages = rate;
	out->period = ms_to_ticks(cfg->scan_period_max_ms ?
				  cfg->scan_period_max_ms :
				  TP_DEFAULT_SCAN_PERIOD_MAX_MS, cfg->tps);
	out->burst = cfg->burst_pages;
	out->bypass_min = (1ULL << 30) >> shift;
	return 0;
}

int tp_policy_init(struct tp_policy *pol, const struct tp_policy_cfg *cfg)
{
	/* Zeroed, padding included: *pol gets no stale stack bytes. */
	struct tp_policy p = { 0 };
	int ret;

	if (!pol)
		return -EINVAL;
	ret = policy_check(cfg, &p);
	if (ret)
		return ret;
	*pol = p;
	return 0;
}

int tp_policy_tune(struct tp_policy *pol, const struct tp_policy_cfg *cfg)
{
	struct tp_policy p;
	int ret;

	if (!pol)
		return -EINVAL;
	ret = policy_check(cfg, &p);
	if (ret)
		return ret;
	tp_write_once(pol->hot_th, p.hot_th);
	tp_write_once(pol->rate_pages, p.rate_pages);
	tp_write_once(pol->period, p.period);
	tp_write_once(pol->burst, p.burst);
	tp_write_once(pol->bypass_min, p.bypass_min);
	tp_write_once(pol->tps, p.tps);
	tp_write_once(pol->page_shift, p.page_shift);
	tp_write_once(pol->thresh_variant, p.thresh_variant);
	tp_write_once(pol->limiter_variant, p.limiter_variant);
	tp_write_once(pol->wmark_variant, p.wmark_variant);
	tp_write_once(pol->flags, p.flags);
	tp_write_once(pol->mode, p.mode);
	return 0;
}

/* The rate limit a node runs at: the policy's, or seed 2/8's default. */
static u64 policy_rate(const struct tp_policy *pol, u64 wmark_high)
{
	u64 rate = tp_read_once(pol->rate_pages);

	if (rate || !(tp_read_once(pol->flags) & TP_POL_RL_WMARK_DEFAULT))
		return rate;
	return tp_min_u64(wmark_high, TP_RATE_MAX);
}

static void node_limiter_cfg(const struct tp_policy *pol, u64 rate,
			     struct tp_limiter_cfg *lc)
{
	/* tp_decide() may retune concurrently with tp_policy_tune(). */
	lc->variant = tp_read_once(pol->limiter_variant);
	lc->tps = tp_read_once(pol->tps);
	lc->rate = rate;
	lc->burst = tp_min_u64(tp_read_once(pol->burst), TP_RATE_MAX);
}

static void node_thresh_cfg(const struct tp_policy *pol, u64 rate,
			    struct tp_thresh_cfg *tc)
{
	tc->variant = tp_read_once(pol->thresh_variant);
	tc->steps = 0;
	tc->tps = tp_read_once(pol->tps);
	tc->ref_th = tp_read_once(pol->hot_th);
	tc->period = tp_read_once(pol->period);
	tc->rate_limit = rate;
}

/*
 * The candidate counter (PGPROMOTE_CANDIDATE): the window limiters count
 * exactly the candidates, before their check, so with them their own count
 * serves; the token bucket counts nothing, so the node keeps one.
 */
static u64 *node_cand(struct tp_node *node)
{
	if (tp_read_once(node->lim.variant) == TP_LIMITER_BUCKET)
		return &node->nr_candidate;
	return &node->lim.window.count;
}

static u64 node_cand_total(const struct tp_node *node)
{
	u64 n = tp_atomic64_read(&node->nr_candidate);

	if (tp_read_once(node->lim.variant) != TP_LIMITER_BUCKET)
		n += tp_atomic64_read(&node->lim.window.count);
	return n;
}

/* Settings derived from a valid policy are valid: errors cannot happen. */
static void node_apply(struct tp_node *node, const struct tp_policy *pol,
		       u64 rate, u64 now)
{
	struct tp_limiter_cfg lc;
	struct tp_thresh_cfg tc;
	u32 old = tp_read_once(node->lim.variant);

	node_limiter_cfg(pol, rate, &lc);
	node_thresh_cfg(pol, rate, &tc);
	/* A new variant restarts the limiter: keep its candidates. */
	if (lc.variant != old && old != TP_LIMITER_BUCKET)
		tp_atomic64_add_return(&node->nr_candidate,
				       tp_atomic64_read(&node->lim.window.count));
	(void)tp_limiter_tune(&node->lim, &lc, now);
	(void)tp_thresh_tune(&node->th, &tc);
	/* The controller's baseline follows the counter it now reads. */
	if (lc.variant != old)
		tp_atomic64_set(&node->th.base, tp_atomic64_read(node_cand(node)));
}

int tp_node_init(struct tp_node *node, const struct tp_policy *pol, u64 now)
{
	struct tp_limiter_cfg lc;
	struct tp_thresh_cfg tc;
	struct tp_node n = { .mode = 0 };
	u64 rate;
	int ret;

	/* The cache-line split documented in policy.h. */
	TP_COMPILE_ASSERT(sizeof(struct tp_limiter) == 40);
	TP_COMPILE_ASSERT(offsetof(struct tp_node, th) == TP_CACHELINE_BYTES);
	TP_COMPILE_ASSERT(sizeof(struct tp_thresh) == TP_CACHELINE_BYTES);
	TP_COMPILE_ASSERT(offsetof(struct tp_node, nr_promote_nrl) ==
			  2 * TP_CACHELINE_BYTES);
	TP_COMPILE_ASSERT(offsetof(struct tp_node, nr_th_lowered) ==
			  3 * TP_CACHELINE_BYTES);

	if (!node || !pol)
		return -EINVAL;
	/* Unresolved watermark default: 0 until the first decision. */
	rate = policy_rate(pol, 0);
	node_limiter_cfg(pol, rate, &lc);
	node_thresh_cfg(pol, rate, &tc);
	ret = tp_limiter_init(&n.lim, &lc, now);
	if (!ret)
		ret = tp_thresh_init(&n.th, &tc, 0, now);
	if (ret)
		return ret;
	n.rate_pages = rate;
	n.mode = pol->mode;
	*node = n;
	return 0;
}

/*
 * Bit 63 of node->rate_pages (rates are at most 2^32): the node's limiter
 * and controller are being reconfigured. Their tunes must not run
 * concurrently, and concurrent decisions may both see a new watermark.
 */
#define NODE_RETUNING	BIT_ULL(63)

void tp_node_sync(struct tp_node *node, const struct tp_policy *pol, u64 now)
{
	u64 rate, cur;
	u32 mode;

	TP_ASSERT(node && pol);
	/* Wait out a decision retuning the node: it only computes. */
	do {
		cur = tp_atomic64_read(&node->rate_pages) & ~NODE_RETUNING;
	} while (!tp_atomic64_cmpxchg(&node->rate_pages, cur,
				      cur | NODE_RETUNING));
	/* The watermark default keeps the last watermark the node saw. */
	rate = policy_rate(pol, cur);
	node_apply(node, pol, rate, now);
	tp_atomic64_cmpxchg(&node->rate_pages, cur | NODE_RETUNING, rate);

	mode = tp_read_once(pol->mode);
	if ((mode & TP_MODE_TIERING) &&
	    !(tp_read_once(node->mode) & TP_MODE_TIERING))
		tp_thresh_reset(&node->th, true,
				tp_atomic64_read(node_cand(node)), now);
	tp_write_once(node->mode, mode);
}

/*
 * Seed 2/8's watermark default: retune the node when the watermark moved.
 * Called on the candidate path only, just before the limiter (so refusals
 * and the bypass do not touch the node's first cache line); the bypass
 * level and the demotion target use the watermark of each call directly.
 */
static void node_follow_rate(const struct tp_policy *pol,
			     struct tp_node *node, u64 rate, u64 now)
{
	u64 cur;

	if (tp_read_once(pol->rate_pages) ||
	    !(tp_read_once(pol->flags) & TP_POL_RL_WMARK_DEFAULT))
		return;
	cur = tp_atomic64_read(&node->rate_pages);
	/* One retuner at a time; the others use the settings as they are. */
	if (cur != rate && !(cur & NODE_RETUNING) &&
	    tp_atomic64_cmpxchg(&node->rate_pages, cur, rate | NODE_RETUNING)) {
		node_apply(node, pol, rate, now);
		tp_atomic64_cmpxchg(&node->rate_pages, rate | NODE_RETUNING,
				    rate);
	}
}

static bool free_space_enough(const struct tp_policy *pol, u64 rate,
			      const struct tp_node_mem *mem)
{
	u64 mark;

	if (tp_read_once(pol->wmark_variant) == TP_WMARK_SEED) {
		mark = tp_add_sat(mem->wmark_high, tp_mul_sat(rate, 2));
	} else {
		mark = tp_max_u64(tp_read_once(pol->bypass_min),
				  mem->present >> 4);
		mark = tp_add_sat(mem->wmark_promo, mark);
	}
	return mem->free > mark;
}

bool tp_promote_room(const struct tp_node_mem *mem, u64 nr)
{
	TP_ASSERT(mem);
	return mem->free > tp_add_sat(mem->wmark_high, nr);
}

static bool mem_valid(const struct tp_node_mem *mem)
{
	return mem->wmark_min <= mem->wmark_low &&
	       mem->wmark_low <= mem->wmark_high &&
	       mem->wmark_high <= mem->wmark_promo;
}

static u64 *node_verdict_counter(struct tp_node *node, int v)
{
	switch (v) {
	case TP_PROMOTE:
		return &node->nr_promote;
	case TP_PROMOTE_NRL:
		return &node->nr_promote_nrl;
	case TP_REFUSE_MODE:
		return &node->nr_mode;
	case TP_REFUSE_TOPTIER:
		return &node->nr_toptier;
	case TP_REFUSE_NOT_YOUNG:
		return &node->nr_not_young;
	case TP_REFUSE_COLD:
		return &node->nr_cold;
	default:
		return &node->nr_nospace;
	}
}

/* Hotness: returns true if the fault is hot enough to be a candidate. */
static bool fault_is_hot(const struct tp_policy *pol, struct tp_node *node,
			 const struct tp_fault *f, u32 flags, u64 now)
{
	u64 th;
	int ev;

	if (flags & TP_POL_ADAPTIVE) {
		if (__tp_thresh_due(&node->th, now)) {
			ev = tp_thresh_update(&node->th, node_cand(node), now);
			if (ev == TP_TH_RAISED)
				tp_atomic64_add_return(&node->nr_th_raised, 1);
			else if (ev == TP_TH_LOWERED)
				tp_atomic64_add_return(&node->nr_th_lowered,
						       1);
		}
		th = __tp_thresh_get(&node->th);
	} else {
		th = tp_read_once(pol->hot_th);
	}
	if ((flags & TP_POL_WRITE_DOUBLE) && (f->flags & TP_FAULT_WRITE))
		th = tp_mul_sat(th, 2);

	if (f->latency == TP_LATENCY_UNKNOWN)
		return false;
	if (flags & TP_POL_HOT_STRICT)
		return f->latency < th;
	return f->latency <= th;
}

int tp_decide(const struct tp_policy *pol, struct tp_node *node,
	      const struct tp_fault *f, const struct tp_node_mem *mem, u64 now)
{
	u64 nr, rate;
	u32 flags;
	int v;

	/* No folio has more than 2^32 pages; larger counts would wrap. */
	if (!pol || !node || !f || !mem || !f->nr_pages ||
	    f->nr_pages > TP_RATE_MAX || !mem_valid(mem))
		return -EINVAL;
	nr = f->nr_pages;
	flags = tp_read_once(pol->flags);

	if (!(tp_read_once(pol->mode) & TP_MODE_TIERING)) {
		v = TP_REFUSE_MODE;
		goto out;
	}
	if (f->flags & TP_FAULT_TOPTIER) {
		v = TP_REFUSE_TOPTIER;
		goto out;
	}

	rate = policy_rate(pol, mem->wmark_high);
	if ((flags & TP_POL_FREE_BYPASS) && free_space_enough(pol, rate, mem)) {
		/* The workload changed: forget the adapted threshold. */
		if (flags & TP_POL_BYPASS_RESET)
			__tp_thresh_forget(&node->th);
		if (tp_promote_room(mem, nr)) {
			v = TP_PROMOTE_NRL;
		} else {
			tp_atomic64_add_return(&node->nr_nospace_nrl, nr);
			v = TP_REFUSE_NOSPACE;
		}
		goto out;
	}

	if ((flags & TP_POL_YOUNG) && !(f->flags & TP_FAULT_YOUNG)) {
		v = TP_REFUSE_NOT_YOUNG;
		goto out;
	}
	if ((flags & TP_POL_HOTNESS) && !fault_is_hot(pol, node, f, flags, now)) {
		v = TP_REFUSE_COLD;
		goto out;
	}

	/*
	 * A candidate: counted before the rate limit, as the kernel does (a
	 * window limiter counts it itself, see node_cand()).
	 */
	node_follow_rate(pol, node, rate, now);
	if (tp_read_once(node->lim.variant) == TP_LIMITER_BUCKET)
		tp_atomic64_add_return(&node->nr_candidate, nr);
	if (!__tp_limiter_consume(&node->lim, nr, now))
		return TP_REFUSE_RATELIMIT;	/* derived in tp_node_stats() */
	v = tp_promote_room(mem, nr) ? TP_PROMOTE : TP_REFUSE_NOSPACE;
out:
	tp_atomic64_add_return(node_verdict_counter(node, v), nr);
	return v;
}

void tp_node_stats(const struct tp_node *node, struct tp_node_stats *s)
{
	u64 nospace_hot, done;

	TP_ASSERT(node && s);
	s->pgpromote_candidate = node_cand_total(node);
	s->promote_hot = tp_atomic64_read(&node->nr_promote);
	s->promote_nrl = tp_atomic64_read(&node->nr_promote_nrl);
	s->refused_mode = tp_atomic64_read(&node->nr_mode);
	s->refused_toptier = tp_atomic64_read(&node->nr_toptier);
	s->refused_not_young = tp_atomic64_read(&node->nr_not_young);
	s->refused_cold = tp_atomic64_read(&node->nr_cold);
	s->refused_nospace = tp_atomic64_read(&node->nr_nospace);
	/*
	 * Every candidate is rate limited, refused for room, or promoted: the
	 * rate-limited ones are what remains, so that path writes no counter
	 * of its own. (A snapshot racing with decisions may lag; never < 0.)
	 */
	nospace_hot = s->refused_nospace - tp_atomic64_read(&node->nr_nospace_nrl);
	done = s->promote_hot + nospace_hot;
	s->refused_ratelimit = s->pgpromote_candidate > done ?
			       s->pgpromote_candidate - done : 0;
	s->pgpromote_candidate_nrl = s->promote_nrl +
		tp_atomic64_read(&node->nr_nospace_nrl);
	s->pgpromote_success = s->promote_hot + s->promote_nrl;
	s->decided = s->pgpromote_success + s->refused_mode +
		s->refused_toptier + s->refused_not_young + s->refused_cold +
		s->refused_ratelimit + s->refused_nospace;
	s->th_raised = tp_atomic64_read(&node->nr_th_raised);
	s->th_lowered = tp_atomic64_read(&node->nr_th_lowered);
	s->threshold = __tp_thresh_get(&node->th);
}

bool tp_free_space_enough(const struct tp_policy *pol,
			  const struct tp_node_mem *mem)
{
	u64 rate;

	TP_ASSERT(pol && mem);
	rate = policy_rate(pol, mem->wmark_high);
	return free_space_enough(pol, rate, mem);
}

u64 tp_demotion_target(const struct tp_policy *pol,
		       const struct tp_node_mem *mem)
{
	TP_ASSERT(pol && mem);
	if (!(tp_read_once(pol->mode) & TP_MODE_TIERING))
		return mem->wmark_high;
	if (tp_read_once(pol->wmark_variant) == TP_WMARK_SEED)
		return tp_add_sat(mem->wmark_high,
				  policy_rate(pol, mem->wmark_high));
	return mem->wmark_promo;
}

u64 tp_wmark_promo(u64 wmark_min, u64 wmark_high, u64 managed,
		   u32 scale_factor)
{
	return tp_add_sat(wmark_high,
			  tp_max_u64(wmark_min >> 2,
				     tp_mul_frac(managed, scale_factor, 10000)));
}

bool tp_scan_wanted(const struct tp_policy *pol, bool toptier)
{
	u32 mode;

	TP_ASSERT(pol);
	mode = tp_read_once(pol->mode);
	if (!mode)
		return false;
	return !toptier || (mode & TP_MODE_NORMAL);
}

#define TP_BITS_PER_LONG	(8 * sizeof(unsigned long))

static bool node_in(const unsigned long *mask, u32 nbits, u32 nid)
{
	if (!mask || nid >= nbits)
		return false;
	return (mask[nid / TP_BITS_PER_LONG] >> (nid % TP_BITS_PER_LONG)) & 1;
}

/* More than one bit set among the first @nbits? No popcount: no libgcc. */
static bool mask_several(const unsigned long *mask, u32 nbits)
{
	u32 words, i, seen = 0;
	unsigned long w;

	if (!mask)
		return false;
	words = (nbits + TP_BITS_PER_LONG - 1) / TP_BITS_PER_LONG;
	for (i = 0; i < words; i++) {
		w = mask[i];
		if (i == words - 1 && nbits % TP_BITS_PER_LONG)
			w &= (1UL << (nbits % TP_BITS_PER_LONG)) - 1;
		if (!w)
			continue;
		if (w & (w - 1))
			return true;
		if (seen++)
			return true;
	}
	return false;
}

bool tp_group_fault_local(u32 variant, const struct tp_group_fault *f,
			  const unsigned long *active, u32 nbits)
{
	TP_ASSERT(f);
	if (f->local)
		return true;
	if (f->priv || !f->in_group)
		return false;
	if (variant == TP_GROUP_MAINLINE && !mask_several(active, nbits))
		return false;
	return node_in(active, nbits, f->cpu_node) &&
	       node_in(active, nbits, f->mem_node);
}

u64 tp_migrate_retry_interval(u64 scan_period, u32 tps)
{
	return tp_max_u64(tp_min_u64(tps, scan_period >> 4), 1);
}

int tp_preferred_node(u32 variant, bool in_group, int dst_node, int src_node,
		      const unsigned long *active, u32 nbits)
{
	if (!in_group)
		return -1;
	if (variant == TP_GROUP_MAINLINE)
		return dst_node >= 0 ? dst_node : src_node;
	if (dst_node >= 0 && node_in(active, nbits, (u32)dst_node))
		return dst_node;
	return -1;
}
