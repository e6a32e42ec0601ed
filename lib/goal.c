// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Goal controller: DAMOS quota-goal feedback (Linux 6.16). See goal.h.
 */
#include "tp_seam.h"
#include <tierpol/goal.h>

static int goal_check(const struct tp_goal_cfg *cfg, struct tp_goal_set *s)
{
	if (!cfg || __tp_cfg_check(cfg, cfg->sz, sizeof(*cfg)))
		return -EINVAL;
	/* -EINVAL wins over -ERANGE */
	if (!cfg->goal || !cfg->min || cfg->min > cfg->max)
		return -EINVAL;
	if (cfg->goal > TP_GOAL_MAX || cfg->max > TP_GOAL_MAX ||
	    cfg->init > TP_GOAL_MAX)
		return -ERANGE;
	s->goal = cfg->goal;
	s->min = cfg->min;
	s->max = cfg->max;
	return 0;
}

static void goal_publish(struct tp_goal *g, const struct tp_goal_set *s)
{
	int i;

	for (i = 0; i < 2; i++) {
		tp_latch_flip(&g->latch);
		tp_write_once(g->set[i].goal, s->goal);
		tp_write_once(g->set[i].min, s->min);
		tp_write_once(g->set[i].max, s->max);
	}
}

static bool goal_read(const struct tp_goal *g, struct tp_goal_set *s)
{
	const struct tp_goal_set *c;
	unsigned int seq, tries;

	for (tries = 0; tries < TP_RETRIES; tries++) {
		seq = tp_latch_begin(&g->latch);
		c = &g->set[seq & 1];
		s->goal = tp_read_once(c->goal);
		s->min = tp_read_once(c->min);
		s->max = tp_read_once(c->max);
		if (!tp_latch_retry(&g->latch, seq))
			return true;
	}
	return false;
}

static u64 goal_clamp(u64 v, const struct tp_goal_set *s)
{
	return tp_min_u64(tp_max_u64(v, s->min), s->max);
}

int tp_goal_init(struct tp_goal *g, const struct tp_goal_cfg *cfg)
{
	struct tp_goal_set s;
	int ret;

	if (!g)
		return -EINVAL;
	ret = goal_check(cfg, &s);
	if (ret)
		return ret;
	tp_latch_init(&g->latch);
	goal_publish(g, &s);
	tp_atomic64_set(&g->out, goal_clamp(cfg->init ? cfg->init : s.min, &s));
	return 0;
}

int tp_goal_tune(struct tp_goal *g, const struct tp_goal_cfg *cfg)
{
	struct tp_goal_set s;
	int ret;

	if (!g)
		return -EINVAL;
	ret = goal_check(cfg, &s);
	if (ret)
		return ret;
	goal_publish(g, &s);
	return 0;
}

/*
 * o x (2g - c) / g, the factor bounded to [1/2, 2]: c >= 1.5 g halves
 * (2c >= 3g, tested as c >= g + ceil(g / 2), which fits in 64 bits for
 * any metric c since g <= %TP_GOAL_MAX: g + g/2 would round down for an
 * odd goal, and goal 1 would halve on target), c = 0 doubles. Below
 * 1.5 g, 2g - c <= 2^63 and the product is exact (__tp_mul_frac).
 * Rounded down, but an output below the goal that would not move moves by
 * one: a small output makes progress instead of sticking (DAMOS keeps its
 * input at 10000 or more for the same reason). Not where one unit more
 * would take a proportional metric, c x (o + 1) / o, to the halving point:
 * at an output of 1 with the metric at 0.999 g, one more unit took it to
 * about 2 g, the next update halved it, and the two alternated for ever.
 * Such a nudge would be the only step that can cross 1.5 g from below.
 */
static u64 goal_next(u64 out, u64 goal, u64 cur)
{
	u64 half = goal + (goal + 1) / 2;
	u64 next;

	if (cur >= half)
		return out / 2;
	next = __tp_mul_frac(out, 2 * goal - cur, goal);
	if (cur < goal && next == out &&
	    __tp_mul_frac(cur, out + 1, out) < half)
		next = out + 1;
	return next;
}

u64 tp_goal_update(struct tp_goal *g, u64 metric)
{
	struct tp_goal_set s;
	u64 out;

	TP_ASSERT(g);
	out = tp_atomic64_read(&g->out);
	if (!goal_read(g, &s))
		return out;
	out = goal_clamp(goal_next(goal_clamp(out, &s), s.goal, metric), &s);
	tp_atomic64_set(&g->out, out);
	return out;
}

u64 tp_goal_get(const struct tp_goal *g)
{
	struct tp_goal_set s;
	u64 out;

	TP_ASSERT(g);
	out = tp_atomic64_read(&g->out);
	if (!goal_read(g, &s))
		return out;
	return goal_clamp(out, &s);
}
