/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Hot-threshold controller (seed 000, patch 8/8; mainline
 * numa_promotion_adjust_threshold()).
 *
 * Once per period (default scan_period_max, 60 s) the controller compares
 * the promotion candidates counted in that period with the reference
 * rate_limit * period: more than 110 % lowers the hot threshold one step,
 * fewer than 90 % raises it one step. So the threshold settles where the
 * candidates match the promotion budget.
 *
 *  - seed variant:     step = ref_th / steps,     bounds [step, ref_th]
 *  - mainline variant: step = 2 * ref_th / steps, bounds [step, 2 * ref_th]
 *
 * Fixed faults of both (see docs/algorithms.md): the step is never 0, so the
 * threshold never reaches 0; lowering cannot underflow when ref_th was raised
 * at runtime above the current threshold (mainline's max(th - unit, unit));
 * the threshold is kept inside the current bounds after ref_th changes;
 * 2 * ref_th and rate_limit * period are computed in 64 bits, saturating.
 */
#ifndef _TIERPOL_THRESHOLD_H
#define _TIERPOL_THRESHOLD_H

#include <tierpol/types.h>

/**
 * enum tp_thresh_variant - step and bounds of the controller
 * @TP_THRESH_SEED: seed 000 patch 8/8: step ref/steps, bounds [step, ref]
 * @TP_THRESH_MAINLINE: Linux 6.1+: step 2*ref/steps, bounds [step, 2*ref]
 */
enum tp_thresh_variant {
	TP_THRESH_SEED = 0,
	TP_THRESH_MAINLINE = 1,
};

/** The largest accepted number of steps. */
#define TP_THRESH_STEPS_MAX	65536U

/**
 * struct tp_thresh_cfg - controller settings
 * @variant: &enum tp_thresh_variant
 * @steps: adjustment steps; 0 selects %TP_DEFAULT_THRESH_STEPS (16);
 *	at most %TP_THRESH_STEPS_MAX
 * @tps: ticks per second of the caller's clock, 1..%TP_TPS_MAX
 * @ref_th: reference hot threshold in ticks (the sysctl); 0 selects
 *	%TP_DEFAULT_HOT_THRESHOLD_MS; at most %TP_TIME_MAX
 * @period: adjustment period in ticks; 0 selects
 *	%TP_DEFAULT_SCAN_PERIOD_MAX_MS; at most %TP_TIME_MAX
 * @rate_limit: promotion budget in pages per second, at most %TP_RATE_MAX
 *	(0 means every candidate is over budget)
 */
struct tp_thresh_cfg {
	u32 variant;
	u32 steps;
	u32 tps;
	aligned_u64 ref_th;
	aligned_u64 period;
	aligned_u64 rate_limit;
};

/**
 * struct tp_thresh - controller state (one per target node)
 * @start: start of the current period (cmpxchg'd: one adjuster per period)
 * @th: current threshold in ticks; 0 means "at the reference", so an
 *	unadjusted node follows changes of @ref_th as the kernel's does
 * @period: adjustment period in ticks
 * @ref_th: reference threshold in ticks
 * @unit: one step in ticks (never 0)
 * @max: upper bound in ticks
 * @base: candidate count at the start of the period
 * @ref_cand: reference candidates per period (rate_limit * period)
 *
 * All fields are private. 64 bytes: the fields read on every call come
 * first and the whole state is one cache line.
 */
struct tp_thresh {
	aligned_u64 start;
	aligned_u64 th;
	aligned_u64 period;
	aligned_u64 ref_th;
	aligned_u64 unit;
	aligned_u64 max;
	aligned_u64 base;
	aligned_u64 ref_cand;
};

/**
 * enum tp_thresh_event - what tp_thresh_update() did
 * @TP_TH_IDLE: the period is not over (or another caller closed it)
 * @TP_TH_KEPT: this call closed the period; the threshold did not move
 *	(candidates within the band, or already at a bound)
 * @TP_TH_LOWERED: this call closed the period and lowered the threshold
 * @TP_TH_RAISED: this call closed the period and raised the threshold
 */
enum tp_thresh_event {
	TP_TH_IDLE = 0,
	TP_TH_KEPT = 1,
	TP_TH_LOWERED = 2,
	TP_TH_RAISED = 3,
};

/**
 * tp_thresh_init() - initialise a controller
 * @t: the controller
 * @cfg: settings, validated completely before anything is written
 * @nr_cand: the current value of the candidate counter
 * @now: the current time in ticks; the first period starts here
 *
 * Context: Any context. Not concurrently with other calls on @t.
 * Return: 0, or -EINVAL (NULL argument, unknown variant, @tps 0 or above
 * %TP_TPS_MAX, too many steps) or -ERANGE (@ref_th or @period above
 * %TP_TIME_MAX, @rate_limit above %TP_RATE_MAX); on error @t is untouched.
 */
TP_API int tp_thresh_init(struct tp_thresh *t, const struct tp_thresh_cfg *cfg,
			  u64 nr_cand, u64 now);

/**
 * tp_thresh_tune() - change the settings of a running controller
 * @t: an initialised controller
 * @cfg: new settings, validated as in tp_thresh_init()
 *
 * The period, threshold and baseline are kept (a sysctl write in the
 * kernel). A threshold outside the new bounds is clamped into them.
 *
 * Context: Any context, concurrently with tp_thresh_update() and
 * tp_thresh_get(); callers serialize tunes. A concurrent update may use a
 * mix of old and new settings once.
 * Return: 0, -EINVAL or -ERANGE as tp_thresh_init(); on error nothing
 * changes.
 */
TP_API int tp_thresh_tune(struct tp_thresh *t, const struct tp_thresh_cfg *cfg);

/**
 * tp_thresh_update() - close the period if it is over, and adjust
 * @t: the controller
 * @nr_cand: the candidate counter (pages that passed the hotness check; it
 *	only grows), read atomically and only by the caller that closes the
 *	period, as the kernel reads node_page_state() after its cmpxchg
 * @now: the current time in ticks
 *
 * A period is over when more than @period ticks passed since it started
 * (wraparound-safe). Exactly one concurrent caller closes it (cmpxchg on the
 * start). A counter below the baseline counts as no candidates.
 *
 * Context: Any context, lock-free, concurrently with itself.
 * Return: an &enum tp_thresh_event.
 */
TP_API int tp_thresh_update(struct tp_thresh *t, const u64 *nr_cand,
			    u64 now);

/**
 * tp_thresh_reset() - return to the reference threshold
 * @t: the controller
 * @rearm: also restart the period at @now with baseline @nr_cand (the
 *	kernel's reset_memory_tiering() when the tiering mode is switched on);
 *	false only forgets the adjusted threshold (the free-space bypass's
 *	"workload changed" reset)
 * @nr_cand: the current value of the candidate counter
 * @now: the current time in ticks
 *
 * Context: Any context, concurrently with tp_thresh_update().
 */
TP_API void tp_thresh_reset(struct tp_thresh *t, bool rearm, u64 nr_cand,
			    u64 now);

/**
 * tp_thresh_get() - the current hot threshold
 * @t: the controller
 *
 * Context: Any context, lock-free.
 * Return: the threshold in ticks, inside [step, bound] of the current
 * settings.
 */
TP_API u64 tp_thresh_get(const struct tp_thresh *t);

#endif /* _TIERPOL_THRESHOLD_H */
