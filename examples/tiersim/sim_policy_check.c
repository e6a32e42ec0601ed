// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * tiersim policy specs, once parsed (sim_policy.c): the simulator's own
 * choices that do not fit together, and the sysctl-like options applied to
 * what a spec did not set.
 */
#include "sim.h"

#include <errno.h>
#include <string.h>

/* The goal's target when target= is not given: parts per 10000 */
static const u32 def_target[] = {
	[GOAL_USED] = 9970, [GOAL_FREE] = 50, [GOAL_PINGPONG] = 1000,
};

/*
 * What key @key sets in @p, as the run reads it: a 0 that the simulator or
 * tierpol reads as a default (target=, hot-faults=, freq=, window=) counts
 * as that default, which @ctx's other settings (the goal, the record) pick.
 * Each key sets fields of its own: @p may be the spec's policy or the base
 * it started from. -1 for a key read as given whatever its value.
 */
static s64 key_value(const struct sim_policy *p, const struct sim_policy *ctx,
		     const char *key)
{
	struct sim_policy q;
	struct tp_hot_cfg hc;

	if (!strcmp(key, "burst"))
		return (s64)p->cfg.burst_pages;
	if (!strcmp(key, "mode"))
		return p->cfg.mode;
	if (!strcmp(key, "demote"))
		return p->demote;
	if (!strcmp(key, "hot-faults"))
		return (s64)(p->cfg.hot_threshold_faults ?
			     p->cfg.hot_threshold_faults :
			     TP_DEFAULT_HOT_THRESHOLD_FAULTS);
	if (!strcmp(key, "target"))
		return p->goal.target || ctx->goal.metric == GOAL_NONE ?
		       p->goal.target : def_target[ctx->goal.metric];
	if (!strcmp(key, "ctl"))
		return p->goal.ctl_ms;
	if (!strcmp(key, "rate-min"))
		return p->goal.rate_min;
	if (!strcmp(key, "rate-max"))
		return p->goal.rate_max;
	if (!strcmp(key, "goal"))
		return p->goal.metric;
	if (!strcmp(key, "goal-out"))
		return p->goal.out;
	if (!strcmp(key, "freq"))
		return p->hot.freq ? p->hot.freq : TP_HOT_DEFAULT_FREQ;
	if (!strcmp(key, "window")) {
		/* the record's own default, then the library's */
		q = *ctx;
		q.hot.window_ms = p->hot.window_ms;
		sim_hot_cfg(&q, &hc);
		return hc.window_ms ? hc.window_ms : TP_HOT_DEFAULT_WINDOW_MS;
	}
	if (!strcmp(key, "abit"))
		return p->hot.abit_ms;
	if (!strcmp(key, "room-record"))
		return p->hot.room;
	if (!strcmp(key, "promo-max"))
		return p->hot.promo_max;
	if (!strcmp(key, "record"))
		return p->hot.record;
	if (!strcmp(key, "src"))
		return p->hot.sources;
	if (!strcmp(key, "migrate"))
		return p->migrate;
	if (!strcmp(key, "feedback"))
		return p->damon.feedback;
	if (!strcmp(key, "quota-start"))
		return p->damon.start_min;
	if (!strcmp(key, "limiter"))
		return p->cfg.limiter_variant;
	if (!strcmp(key, "thresh"))
		return p->cfg.thresh_variant;
	if (!strcmp(key, "wmark"))
		return p->cfg.wmark_variant;
	if (!strcmp(key, "lat"))	/* and TP_POL_LAT_FAULTS with it */
		return p->lat_src;
	if (!strcmp(key, "vma"))
		return p->vma_filter;
	/*
	 * rate=, hot= and period= (and a key not named here): they pin the
	 * spec's value against --rate-limit-mbps, --hot-threshold-ms and
	 * --thresh-period-ms (sim_policy_finalize()), so they change the run
	 * whatever the base has.
	 */
	return -1;
}

int sim_policy_unchanged(const struct sim_policy *p, const struct sim_policy *b,
			 const char *base, const char *const *at,
			 unsigned int nr, char *err, size_t errlen)
{
	char key[32];
	unsigned int i;
	s64 v;

	for (i = 0; i < nr; i++) {
		snprintf(key, sizeof(key), "%.*s", (int)strcspn(at[i], "="),
			 at[i]);
		v = key_value(p, p, key);
		if (v < 0 || v != key_value(b, p, key))
			continue;
		snprintf(err, errlen, "policy \"%s\": %.*s changes nothing: "
			 "%s%s", p->name, (int)strcspn(at[i], ":"), at[i],
			 v == key_value(b, b, key) ? base :
			 "with the other keys it is the default",
			 v == key_value(b, b, key) ? " has it" : "");
		return -1;
	}
	return 0;
}

int sim_policy_same(const struct sim_policy *a, const struct sim_policy *b)
{
	const struct tp_policy_cfg *x = &a->cfg, *y = &b->cfg;
	static const char *const as_read[] = { "hot-faults", "freq", "window" };
	unsigned int i;

	/* The fields whose 0 reads as a default, as the run reads them. */
	for (i = 0; i < sizeof(as_read) / sizeof(as_read[0]); i++)
		if (key_value(a, a, as_read[i]) != key_value(b, b, as_read[i]))
			return 0;
	/* Field by field: the structures' padding is not compared. */
	return a->oracle == b->oracle && a->demote == b->demote &&
	       a->lat_src == b->lat_src && a->vma_filter == b->vma_filter &&
	       a->migrate == b->migrate &&
	       a->goal.metric == b->goal.metric &&
	       a->goal.target == b->goal.target &&
	       a->goal.ctl_ms == b->goal.ctl_ms &&
	       a->goal.rate_min == b->goal.rate_min &&
	       a->goal.rate_max == b->goal.rate_max &&
	       a->goal.out == b->goal.out &&
	       a->hot.record == b->hot.record &&
	       a->hot.sources == b->hot.sources &&
	       a->hot.abit_ms == b->hot.abit_ms &&
	       a->hot.room == b->hot.room &&
	       a->hot.promo_max == b->hot.promo_max &&
	       a->damon.on == b->damon.on &&
	       a->damon.feedback == b->damon.feedback &&
	       a->damon.start_min == b->damon.start_min &&
	       x->sz == y->sz && x->mode == y->mode && x->flags == y->flags &&
	       x->tps == y->tps && x->page_shift == y->page_shift &&
	       x->hot_threshold_ms == y->hot_threshold_ms &&
	       x->rate_limit_mbps == y->rate_limit_mbps &&
	       x->scan_period_max_ms == y->scan_period_max_ms &&
	       x->thresh_variant == y->thresh_variant &&
	       x->limiter_variant == y->limiter_variant &&
	       x->wmark_variant == y->wmark_variant &&
	       x->cand_batch == y->cand_batch &&
	       x->burst_pages == y->burst_pages;
}

/*
 * The simulator's own choices that do not fit together; the goal's default
 * target; the goal controller's first rate, inside its bounds.
 */
static int sim_policy_check(struct sim_policy *p, char *err, size_t errlen)
{
	const char *why = NULL;

	if (p->goal.metric != GOAL_NONE) {
		if (!p->goal.target)
			p->goal.target = def_target[p->goal.metric];
		if (p->goal.rate_min > p->goal.rate_max)
			why = "rate-min is above rate-max";
		else if (p->goal.out != GOAL_OUT_RATE)
			;	/* the rate is the policy's own */
		else if (p->cfg.rate_limit_mbps < p->goal.rate_min)
			p->cfg.rate_limit_mbps = p->goal.rate_min;
		else if (p->cfg.rate_limit_mbps > p->goal.rate_max)
			p->cfg.rate_limit_mbps = p->goal.rate_max;
	}
	if ((p->hot.sources & SRC_ABIT) && p->hot.record == REC_NONE)
		why = "src=abit needs a hotness record (record=byte|precise)";
	else if ((p->hot.sources & SRC_ABIT) && p->migrate != MIG_KMIGRATED)
		why = "src=abit needs migrate=kmigrated (a scanner is no fault "
		      "to migrate in)";
	else if (p->hot.promo_max && p->migrate != MIG_KMIGRATED)
		why = "promo-max needs migrate=kmigrated (the budget is "
		      "kmigrated's)";
	else if (p->hot.record != REC_NONE) {
		struct tp_hot h;
		struct tp_hot_cfg hc;
		int ret;

		sim_hot_cfg(p, &hc);
		ret = tp_hot_init(&h, &hc);
		if (ret == -EINVAL)
			why = "freq is above what the record counts (byte: 3, "
			      "precise: 7)";
		else if (ret)
			why = "window is longer than the record spans (byte: "
			      "about 4 s, precise: about 16 s)";
	}
	if (!why && !p->damon.on &&
	    (p->damon.feedback != DAMON_FB_TIERPOL || p->damon.start_min))
		why = "feedback= and quota-start= set damon's quotas (base "
		      "damon)";
	/* damon's goal, record and migrate= keys: check_needs() */
	if (!why && p->damon.on && p->cfg.mode != TP_MODE_DISABLED)
		why = "damon runs with NUMA balancing off (mode=0)";
	if (!why && !p->damon.on && p->cfg.mode == TP_MODE_DISABLED &&
	    (p->hot.record != REC_NONE || p->migrate != MIG_FAULT))
		why = "mode=0 leaves the hotness record and kmigrated nothing "
		      "to do: with NUMA balancing off tierpol admits no page";
	if (!why && p->oracle && p->cfg.mode != TP_MODE_DISABLED)
		why = "the oracle pins its pages and scans nothing (mode=0): "
		      "its NUMA balancing would be ignored";
	if (!why && p->goal.out == GOAL_OUT_THRESHOLD) {
		if (p->goal.metric == GOAL_NONE)
			why = "goal-out=threshold needs a goal (goal=...)";
		else if (!(p->cfg.flags & TP_POL_HOTNESS))
			why = "goal-out=threshold needs a hot threshold "
			      "(+hotness)";
		else if (p->cfg.flags & TP_POL_ADAPTIVE)
			why = "goal-out=threshold and the adaptive threshold "
			      "would both set it (-adaptive)";
		else if (p->cfg.flags & TP_POL_LAT_FAULTS)
			why = "goal-out=threshold sets milliseconds, not hint "
			      "faults (lat=faults)";
		else if (p->cfg.hot_threshold_ms < 8)
			why = "goal-out=threshold needs hot=8 ms or more (its "
			      "floor is 2 x hot / 16)";
	}
	if (why) {
		snprintf(err, errlen, "policy \"%s\": %s", p->name, why);
		return -1;
	}
	return 0;
}

int sim_policy_finalize(struct sim_policy *p, const struct sim_cfg *c,
			char *err, size_t errlen)
{
	struct tp_policy tpp;
	int ret;

	if (c->hot_threshold_ms && !(p->set & SPEC_HOT))
		p->cfg.hot_threshold_ms = c->hot_threshold_ms;
	if (!(p->set & SPEC_PERIOD) &&
	    (c->thresh_period_ms || c->scan_period_max_ms))
		p->cfg.scan_period_max_ms = c->thresh_period_ms ?
					    c->thresh_period_ms :
					    c->scan_period_max_ms;
	if (c->rate_limit_mbps >= 0 && !(p->set & SPEC_RATE))
		p->cfg.rate_limit_mbps = (u32)c->rate_limit_mbps;
	if (sim_policy_check(p, err, errlen))
		return -1;
	ret = tp_policy_init(&tpp, &p->cfg);
	if (ret) {
		snprintf(err, errlen, "policy \"%s\": tierpol refuses the "
			 "combination (tp_policy_init: %d)%s", p->name, ret,
			 (p->cfg.flags & (TP_POL_ADAPTIVE | TP_POL_WRITE_DOUBLE |
					  TP_POL_HOT_STRICT)) &&
			 !(p->cfg.flags & TP_POL_HOTNESS) ?
			 ": adaptive, write-double and hot-strict need hotness" :
			 (p->cfg.flags & TP_POL_BYPASS_RESET) ?
			 ": bypass-reset needs bypass and adaptive" : "");
		return -1;
	}
	return 0;
}
