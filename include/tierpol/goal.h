/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Goal controller: DAMOS quota-goal feedback (Linux 6.16, mm/damon/core.c;
 * SeongJae Park, "mm/damon: auto-tune DAMOS for memory tiering", 2025).
 *
 * The controller turns a goal on a measured metric (fast-tier utilisation,
 * free pages, ...) into an output that moves the metric (a promotion rate
 * for the token bucket, a hot threshold, a demotion quota). At each update
 * it is told the metric's current value c and computes, for the goal g and
 * its last output o,
 *
 *	o' = o x (1 + (g - c) / g) = o x (2g - c) / g
 *
 * in exact integer arithmetic, with the step bounded to a factor of 2 up
 * and 1/2 down, and o' clamped into [min, max]. DAMOS drops to its minimum
 * when c reaches 2g; tierpol halves instead, so one noisy sample cannot
 * throw the output away (docs/algorithms.md).
 *
 * Convergence: if the metric is proportional to the output (c = k x o),
 * x = c / g follows x' = x(2 - x), Newton's iteration for the output that
 * meets the goal: the error 1 - x squares at every step, and x' <= 1 for
 * every x, so the step never takes the metric past the goal (from below it
 * approaches monotonically; from above 1.5 g it halves, then approaches
 * from below). The output is rounded down; where that leaves it unchanged
 * below the goal, it moves up by one unit (so that a small output does not
 * stick), unless one more unit would take a proportional metric to 1.5 g.
 * That nudge can pass the goal, by one unit's share of the metric (c / o)
 * and never to 1.5 g, so no halving follows it; where one unit is worth
 * more than a few percent of the goal the output can keep moving among the
 * outputs around the goal's. Choose a unit that makes the output near the
 * goal large (at 100 units or more, one unit is 1 % of the goal). With a
 * metric that lags the output, the output still moves by at most x2 or x1/2
 * per update.
 *
 * The metric must rise with the output (more promotion, more fast-tier use;
 * more demotion, more free pages).
 */
#ifndef TP_GOAL_H
#define TP_GOAL_H

#include <tierpol/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The largest accepted goal or output bound (2^62). */
#define TP_GOAL_MAX	0x4000000000000000ULL

/**
 * struct tp_goal_cfg - goal controller settings
 * @sz: sizeof(struct tp_goal_cfg), for ABI growth (see docs/ABI.md)
 * @goal: the metric's target, 1..%TP_GOAL_MAX, in the metric's own units
 *	(for a ratio, say parts per 10000: 9970 for 99.7 %)
 * @min: the smallest output, 1..@max
 * @max: the largest output, @min..%TP_GOAL_MAX
 * @init: the first output; 0 selects @min; clamped into [@min, @max]
 */
struct tp_goal_cfg {
	uint32_t sz;
	uint64_t goal;
	uint64_t min;
	uint64_t max;
	uint64_t init;
};

/**
 * struct tp_goal_set - one copy of the settings (private)
 * @goal: the metric's target
 * @min: the smallest output
 * @max: the largest output
 */
struct tp_goal_set {
	uint64_t goal;
	uint64_t min;
	uint64_t max;
};

/**
 * struct tp_goal - a goal controller
 * @out: the current output
 * @latch: the sequence count of @set, the settings' two copies
 * @set: the settings, two copies (tp_goal_tune() publishes them as one)
 *
 * All fields are private.
 */
struct tp_goal {
	struct tp_atomic64 out;
	struct tp_latch latch;
	struct tp_goal_set set[2];
};

/**
 * tp_goal_init() - initialise a goal controller
 * @g: the controller
 * @cfg: settings, validated completely before anything is written
 *
 * Context: Any context, wait-free. Not concurrently with other calls on @g.
 * Return: 0, or -EINVAL (NULL argument, bad @sz, @goal or @min 0, @min
 * above @max) or -ERANGE (a value above %TP_GOAL_MAX); on error @g is
 * untouched.
 */
TP_API int tp_goal_init(struct tp_goal *g, const struct tp_goal_cfg *cfg);

/**
 * tp_goal_tune() - publish new settings of a running controller
 * @g: an initialised controller
 * @cfg: new settings, validated as in tp_goal_init(); @init is not used,
 *	but must be in range (-ERANGE above %TP_GOAL_MAX, as for init)
 *
 * The output is kept, and read as clamped into the new bounds.
 *
 * Context: Any context, wait-free; callers serialize tunes of @g.
 * Return: 0, -EINVAL or -ERANGE as tp_goal_init(); on error nothing
 * changes.
 */
TP_API int tp_goal_tune(struct tp_goal *g, const struct tp_goal_cfg *cfg);

/**
 * tp_goal_update() - feed the metric, get the next output
 * @g: the controller
 * @metric: the metric's value now, any value (at least 1.5 x the goal
 *	halves the output, however large)
 *
 * Context: Any context; callers serialize updates of @g (one controlling
 * thread or timer), concurrently with tp_goal_get() and tp_goal_tune().
 * Lock-free: at most %TP_RETRIES attempts to read the settings, then the
 * output is left as it is.
 * Return: the new output.
 */
TP_API uint64_t tp_goal_update(struct tp_goal *g, uint64_t metric);

/**
 * tp_goal_get() - the current output
 * @g: the controller
 *
 * Context: Any context, lock-free (at most %TP_RETRIES attempts to read the
 * settings).
 * Return: the output, clamped into the current bounds; the output as last
 * stored if the settings kept changing.
 */
TP_API uint64_t tp_goal_get(const struct tp_goal *g);

#ifdef __cplusplus
}
#endif

#endif /* TP_GOAL_H */
