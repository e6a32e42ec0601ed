// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Policy settings: presets, validation, publication through the latch, and
 * the node's init and reset. The decision itself is in decide.c, the
 * watermark helpers and the pseudo-interleaving rules in wmark.c.
 */
#include "tp_inline.h"

#define POL_NEEDS_HOTNESS	(TP_POL_ADAPTIVE | TP_POL_WRITE_DOUBLE | \
				 TP_POL_HOT_STRICT)
#define PAGE_SHIFT_MIN		10U
#define PAGE_SHIFT_MAX		30U

/*
 * The size of 1.0's struct tp_policy_cfg: what tp_policy_preset() writes in
 * every 1.x, since a 1.0 program's struct ends there (docs/ABI.md, rule 6).
 */
#define POL_CFG_SIZE_1_0	(offsetof(struct tp_policy_cfg, \
					  hot_threshold_faults) + sizeof(u64))

int tp_policy_preset(struct tp_policy_cfg *cfg, u32 preset, u32 tps)
{
	/*
	 * A field appended to the struct fails this: give it a preset of its
	 * own (a new function or symbol version), not a store here.
	 */
	TP_COMPILE_ASSERT(sizeof(*cfg) == POL_CFG_SIZE_1_0);
	if (!cfg || preset > TP_PRESET_LINUX61)
		return -EINVAL;

	cfg->sz = POL_CFG_SIZE_1_0;
	cfg->mode = TP_MODE_TIERING;
	cfg->tps = tps;
	cfg->page_shift = TP_DEFAULT_PAGE_SHIFT;
	cfg->hot_threshold_ms = TP_DEFAULT_HOT_THRESHOLD_MS;
	cfg->scan_period_max_ms = TP_DEFAULT_SCAN_PERIOD_MAX_MS;
	cfg->cand_batch = TP_DEFAULT_CAND_BATCH;
	cfg->burst_pages = 0;
	cfg->hot_threshold_faults = 0;
	if (preset == TP_PRESET_RFC2020) {
		cfg->flags = TP_FLAGS_RFC2020;
		cfg->rate_limit_mbps = 0;
		cfg->thresh_variant = TP_THRESH_RFC2020;
		cfg->limiter_variant = TP_LIMITER_WINDOW_RFC2020;
		cfg->wmark_variant = TP_WMARK_RFC2020;
	} else {
		cfg->flags = TP_FLAGS_LINUX61;
		cfg->rate_limit_mbps = TP_DEFAULT_PROMOTE_RATE_LIMIT_MBPS;
		cfg->thresh_variant = TP_THRESH_LINUX61;
		cfg->limiter_variant = TP_LIMITER_WINDOW_LINUX61;
		cfg->wmark_variant = TP_WMARK_LINUX61;
	}
	return 0;
}

/* The specialised decision for settings @s (TP_FAST_*). */
static u32 policy_fast(const struct tp_policy_set *s)
{
	if (!(s->mode & TP_MODE_TIERING))
		return TP_FAST_NONE;
	if (s->flags == TP_FLAGS_LINUX61 &&
	    s->wmark_variant == TP_WMARK_LINUX61 &&
	    s->lim.variant == TP_LIMITER_WINDOW_LINUX61 &&
	    s->th.variant == TP_THRESH_LINUX61)
		return TP_FAST_LINUX61;
	if (s->flags == TP_FLAGS_RFC2020 &&
	    s->wmark_variant == TP_WMARK_RFC2020 &&
	    s->lim.variant == TP_LIMITER_WINDOW_RFC2020 &&
	    s->th.variant == TP_THRESH_RFC2020)
		return TP_FAST_RFC2020;
	return TP_FAST_NONE;
}

/*
 * Validate @cfg into @out, deriving the limiter's and the controller's
 * settings through their own checks, or return an error having written
 * nothing that matters to anyone.
 */
static int policy_check(const struct tp_policy_cfg *cfg, struct tp_policy_set *out)
{
	struct tp_limiter_cfg lc = { .sz = sizeof(lc) };
	struct tp_thresh_cfg tc = { .sz = sizeof(tc) };
	u64 rate, ref_th;
	u32 shift;
	int ret;

	if (!cfg)
		return -EINVAL;
	ret = __tp_cfg_check(cfg, cfg->sz, sizeof(*cfg));
	if (ret)
		return ret;
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
	if ((cfg->flags & TP_POL_RL_WMARK_DEFAULT) &&
	    cfg->limiter_variant == TP_LIMITER_BUCKET)
		return -EINVAL;
	if (!cfg->tps || cfg->tps > TP_TPS_MAX)
		return -EINVAL;
	shift = cfg->page_shift ? cfg->page_shift : TP_DEFAULT_PAGE_SHIFT;
	if (shift < PAGE_SHIFT_MIN || shift > PAGE_SHIFT_MAX)
		return -EINVAL;
	if (cfg->wmark_variant > TP_WMARK_LINUX61 ||
	    cfg->limiter_variant > TP_LIMITER_WINDOW_LINUX61 ||
	    cfg->thresh_variant > TP_THRESH_HISTOGRAM ||
	    cfg->cand_batch > TP_CAND_BATCH_MAX)
		return -EINVAL;	/* -EINVAL wins over -ERANGE */
	rate = tp_mbps_to_pages(cfg->rate_limit_mbps, shift);
	if (rate > TP_RATE_MAX)
		return -ERANGE;
	/*
	 * Pages above 1 MiB: a limit below one page a second would truncate
	 * to 0, the sysctl's "refuse every promotion" or, with
	 * TP_POL_RL_WMARK_DEFAULT, the high watermark per second. A non-zero
	 * limit is at least one page a second, as a non-zero threshold's step
	 * is at least one tick.
	 */
	if (!rate && cfg->rate_limit_mbps)
		rate = 1;

	lc.variant = cfg->limiter_variant;
	lc.tps = cfg->tps;
	lc.cand_batch = cfg->cand_batch;
	lc.rate = rate;
	lc.burst = cfg->burst_pages;
	ret = __tp_limiter_check(&lc, __tp_bucket_shift(cfg->tps), &out->lim);
	if (ret)
		return ret;

	if (cfg->flags & TP_POL_LAT_FAULTS)
		ref_th = cfg->hot_threshold_faults ? cfg->hot_threshold_faults :
			 TP_DEFAULT_HOT_THRESHOLD_FAULTS;
	else
		ref_th = __tp_ms_to_ticks(cfg->hot_threshold_ms, cfg->tps);
	if (ref_th > TP_TIME_MAX)
		return -ERANGE;
	tc.variant = cfg->thresh_variant;
	tc.batch = cfg->cand_batch;
	tc.tps = cfg->tps;
	tc.ref_th = ref_th;
	tc.period = __tp_ms_to_ticks(cfg->scan_period_max_ms, cfg->tps);
	tc.rate_limit = rate;
	ret = __tp_thresh_check(&tc, &out->th);
	if (ret)
		return ret;

	out->hot_th = ref_th;
	out->bypass_min = (1ULL << 30) >> shift;
	out->burst = cfg->burst_pages;
	out->mode = cfg->mode;
	out->flags = cfg->flags;
	out->wmark_variant = cfg->wmark_variant;
	out->page_shift = shift;
	out->fast = policy_fast(out);
	return 0;
}

static void set_write(struct tp_policy_set *c, const struct tp_policy_set *s)
{
	__tp_limiter_set_write(&c->lim, &s->lim);
	__tp_thresh_set_write(&c->th, &s->th);
	tp_write_once(c->hot_th, s->hot_th);
	tp_write_once(c->bypass_min, s->bypass_min);
	tp_write_once(c->burst, s->burst);
	tp_write_once(c->mode, s->mode);
	tp_write_once(c->flags, s->flags);
	tp_write_once(c->wmark_variant, s->wmark_variant);
	tp_write_once(c->page_shift, s->page_shift);
	tp_write_once(c->fast, s->fast);
}

/* Publish @s as the settings: the latch's two steps. */
static void policy_publish(struct tp_policy *pol, const struct tp_policy_set *s)
{
	int i;

	for (i = 0; i < 2; i++) {
		tp_latch_flip(&pol->latch);
		set_write(&pol->set[i], s);
	}
}

bool __tp_policy_read(const struct tp_policy *pol, struct tp_policy_set *s)
{
	const struct tp_policy_set *c;
	unsigned int seq, tries;

	for (tries = 0; tries < TP_RETRIES; tries++) {
		seq = tp_latch_begin(&pol->latch);
		c = &pol->set[seq & 1];
		__tp_limiter_set_read(&s->lim, &c->lim);
		__tp_thresh_set_read(&s->th, &c->th);
		s->hot_th = tp_read_once(c->hot_th);
		s->bypass_min = tp_read_once(c->bypass_min);
		s->burst = tp_read_once(c->burst);
		s->mode = tp_read_once(c->mode);
		s->flags = tp_read_once(c->flags);
		s->wmark_variant = tp_read_once(c->wmark_variant);
		s->page_shift = tp_read_once(c->page_shift);
		s->fast = tp_read_once(c->fast);
		if (!tp_latch_retry(&pol->latch, seq))
			return true;
	}
	return false;
}

int tp_policy_init(struct tp_policy *pol, const struct tp_policy_cfg *cfg)
{
	/* Zeroed, padding included: *pol gets no stale stack bytes. */
	struct tp_policy_set s = { .hot_th = 0 };
	int ret;

	if (!pol)
		return -EINVAL;
	ret = policy_check(cfg, &s);
	if (ret)
		return ret;
	pol->tps = cfg->tps;
	pol->shift = __tp_bucket_shift(cfg->tps);
	pol->stale = TP_BUCKET_UNITS_MAX >> pol->shift;
	tp_latch_init(&pol->latch);
	policy_publish(pol, &s);
	return 0;
}

int tp_policy_tune(struct tp_policy *pol, const struct tp_policy_cfg *cfg)
{
	struct tp_policy_set s = { .hot_th = 0 };
	int ret;

	if (!pol)
		return -EINVAL;
	TP_ASSERT(pol->tps);	/* initialised */
	ret = policy_check(cfg, &s);
	if (ret != -EINVAL && cfg->tps != pol->tps)
		ret = -EINVAL;	/* the units of the nodes' live state */
	if (ret)
		return ret;
	policy_publish(pol, &s);
	return 0;
}

int tp_node_init(struct tp_node *node, const struct tp_policy *pol, u64 now)
{
	if (!node || !pol || !pol->tps)
		return -EINVAL;
	/*
	 * The layout documented in policy.h: the controller starts a cache
	 * line of its own; the limiter's state and the candidate count (40
	 * bytes) share the first line where a line holds them, i.e. unless
	 * the kernel's L1_CACHE_BYTES is 32 (some 32-bit configurations).
	 */
	TP_COMPILE_ASSERT(offsetof(struct tp_node, th) % TP_CACHELINE_BYTES == 0);
	TP_COMPILE_ASSERT(TP_CACHELINE_BYTES < 64 ||
			  offsetof(struct tp_node, th) == TP_CACHELINE_BYTES);

	/* A full bucket, an expired window: the first candidate opens it. */
	__tp_limiter_state_init(&node->lim, pol->shift, pol->tps, now);
	tp_atomic64_set(&node->cand, 0);
	__tp_thresh_state_init(&node->th, 0, now);
	tp_atomic64_set(&node->th_raised, 0);
	tp_atomic64_set(&node->th_lowered, 0);
	return 0;
}

void tp_node_reset(struct tp_node *node, u64 now)
{
	TP_ASSERT(node);
	__tp_thresh_forget(&node->th);
	__tp_thresh_rearm(&node->th, tp_atomic64_read(&node->cand), now);
}
