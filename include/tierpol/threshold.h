/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Hot-threshold controller: the 2020 RFC's automatic threshold adjustment
 * (patch 8/8) and Linux 6.1's numa_promotion_adjust_threshold().
 *
 * Once per period (default scan_period_max, 60 s) the controller compares
 * the promotion candidates counted in that period with the reference
 * rate_limit x period: more than 110 % lowers the hot threshold one step,
 * fewer than 90 % raises it one step. So the threshold settles where the
 * candidates match the promotion budget.
 *
 *  - %TP_THRESH_RFC2020: step = ref_th / steps,     bounds [step, ref_th]
 *  - %TP_THRESH_LINUX61: step = 2 * ref_th / steps, bounds [step, 2 * ref_th]
 *  - %TP_THRESH_HISTOGRAM: capacity-fitted in one step (MEMTIS, SOSP 2023,
 *    applied to hint-fault latency): the latencies of the faults judged
 *    are counted in %TP_THRESH_BINS log2 bins (per CPU, added to the shared
 *    bins in batches, halved at every period's end); at the end of a period
 *    the threshold is set to the latency below which the counted faults
 *    fit the budget (two periods of rate_limit, since the halving keeps
 *    about two periods' worth), interpolated linearly inside its bin;
 *    bounds [2 * ref_th / steps, 2 * ref_th], as Linux 6.1's
 *
 * Fixed faults of both (docs/algorithms.md): the step of a non-zero
 * reference is never 0, so the threshold never falls to 0; lowering cannot
 * underflow when the reference was raised at runtime above the current
 * threshold; the threshold is kept inside the current bounds after the
 * reference changes; 2 * ref_th and rate_limit * period are computed in 64
 * bits, exactly or saturating. A reference of 0 keeps the kernel's meaning:
 * the threshold is 0.
 *
 * Settings and state are apart: a tune publishes new settings as one unit
 * (a latch), and the state (period start, threshold, candidate baseline)
 * keeps its meaning under any settings; the threshold is clamped into the
 * bounds in force when it is read.
 */
#ifndef TP_THRESHOLD_H
#define TP_THRESHOLD_H

#include <tierpol/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * enum tp_thresh_variant - step and bounds of the controller
 * @TP_THRESH_RFC2020: the 2020 RFC, patch 8/8: step ref/steps, bounds
 *	[step, ref]
 * @TP_THRESH_LINUX61: Linux 6.1: step 2*ref/steps, bounds [step, 2*ref]
 * @TP_THRESH_HISTOGRAM: capacity-fitted from a latency histogram in one
 *	step, bounds [2*ref/steps, 2*ref]
 */
enum tp_thresh_variant {
	TP_THRESH_RFC2020 = 0,
	TP_THRESH_LINUX61 = 1,
	TP_THRESH_HISTOGRAM = 2,
};

/** Latency bins of %TP_THRESH_HISTOGRAM: [0, u), [u, 2u), ... [2^14 u, inf). */
#define TP_THRESH_BINS		16U

/** The largest accepted number of steps. */
#define TP_THRESH_STEPS_MAX	65536U

/**
 * struct tp_thresh_cfg - controller settings
 * @sz: sizeof(struct tp_thresh_cfg), for ABI growth (see docs/ABI.md)
 * @variant: &enum tp_thresh_variant
 * @steps: adjustment steps, 0..%TP_THRESH_STEPS_MAX; 0 selects
 *	%TP_DEFAULT_THRESH_STEPS (16)
 * @tps: ticks per second of the caller's clock, 1..%TP_TPS_MAX; fixed at
 *	init
 * @ref_th: reference hot threshold in ticks (the sysctl), at most
 *	%TP_TIME_MAX; 0 keeps the threshold at 0, as the kernel's sysctl
 * @period: adjustment period in ticks, at most %TP_TIME_MAX; 0 closes a
 *	period at every tick, as the kernel's scan_period_max of 0
 * @rate_limit: promotion budget in pages per second, at most %TP_RATE_MAX
 *	(0: every candidate is over budget)
 * @batch: %TP_THRESH_HISTOGRAM: pages a per-CPU slot counts before it adds
 *	its bins to the shared ones, 0..%TP_CAND_BATCH_MAX; 0 and 1 add at
 *	once
 */
struct tp_thresh_cfg {
	uint32_t sz;
	uint32_t variant;
	uint32_t steps;
	uint32_t tps;
	uint64_t ref_th;
	uint64_t period;
	uint64_t rate_limit;
	uint32_t batch;
};

/**
 * struct tp_thresh_set - derived settings, one copy of the latch (private)
 * @ref_th: reference threshold in ticks
 * @period: adjustment period in ticks
 * @unit: one step in ticks (at least 1 unless @max is 0)
 * @max: upper bound in ticks
 * @rate: promotion budget in pages per second
 * @variant: &enum tp_thresh_variant
 * @shift: %TP_THRESH_HISTOGRAM: the first bin's width is 2^@shift ticks
 * @batch: %TP_THRESH_HISTOGRAM: the per-CPU batch (at least 1)
 */
struct tp_thresh_set {
	uint64_t ref_th;
	uint64_t period;
	uint64_t unit;
	uint64_t max;
	uint64_t rate;
	uint32_t variant;
	uint32_t shift;
	uint32_t batch;
};

/**
 * struct tp_thresh_state - live state of a controller (private)
 * @start: start of the current period (cmpxchg'd: one closer per period)
 * @th: current threshold in ticks; 0 means "at the reference", so an
 *	unadjusted controller follows changes of the reference as the
 *	kernel's does
 * @base: candidate count at the start of the period
 * @hist: %TP_THRESH_HISTOGRAM: the shared latency bins, in pages
 */
struct tp_thresh_state {
	struct tp_atomic64 start;
	struct tp_atomic64 th;
	struct tp_atomic64 base;
	struct tp_atomic64 hist[TP_THRESH_BINS];
};

/**
 * struct tp_thresh_cpu - one CPU's (or thread's) latency bins
 * @pending: pages counted here since the last addition to the shared bins
 * @hist: the bins not yet added
 *
 * Used by %TP_THRESH_HISTOGRAM only. Zero-filled memory is a ready slot;
 * the rules of &struct tp_limiter_cpu apply. Private fields.
 */
struct tp_thresh_cpu {
	struct tp_local64 pending;
	struct tp_local64 hist[TP_THRESH_BINS];
};

/**
 * struct tp_thresh - a hot-threshold controller (one per target node)
 * @st: live state
 * @tps: ticks per second (fixed at init)
 * @latch: the sequence count of @set, the settings' two copies
 * @set: the settings, two copies (see tp_thresh_tune())
 *
 * All fields are private.
 */
struct tp_thresh {
	struct tp_thresh_state st;
	uint32_t tps;
	struct tp_latch latch;
	struct tp_thresh_set set[2];
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
 * Context: Any context, wait-free. Not concurrently with other calls on @t.
 * Return: 0, or -EINVAL (NULL argument, bad @sz, unknown variant, @tps 0 or
 * above %TP_TPS_MAX, too many steps, @batch above %TP_CAND_BATCH_MAX) or
 * -ERANGE (@ref_th or @period above %TP_TIME_MAX, @rate_limit above
 * %TP_RATE_MAX); on error @t is untouched.
 */
TP_API int tp_thresh_init(struct tp_thresh *t, const struct tp_thresh_cfg *cfg,
			  uint64_t nr_cand, uint64_t now);

/**
 * tp_thresh_tune() - publish new settings of a running controller
 * @t: an initialised controller
 * @cfg: new settings, validated as in tp_thresh_init(); @tps must be the
 *	one given at init
 *
 * The period, threshold and baseline are kept (a sysctl write in the
 * kernel); a threshold outside the new bounds reads as clamped into them.
 * Concurrent calls see the old or the new settings, never a mix.
 *
 * %TP_THRESH_HISTOGRAM keeps its bins too, and they do not record their
 * width: when a tune changes it (the upper bound, from @ref_th or the
 * variant, by a factor of 2^d), the pages counted before the tune are read
 * at the new width, their latencies as if 2^d times theirs. The fits that
 * follow see them so, a share halved at each period's end (the bins'
 * cooling). Moving them would race with a period's close, which halves the
 * bins without a lock.
 *
 * Context: Any context, wait-free; callers serialize tunes of @t.
 * Return: 0, -EINVAL or -ERANGE as tp_thresh_init(), and -EINVAL for a
 * different @tps; on error nothing changes.
 */
TP_API int tp_thresh_tune(struct tp_thresh *t, const struct tp_thresh_cfg *cfg);

/**
 * tp_thresh_update() - close the period if it is over, and adjust
 * @t: the controller
 * @nr_cand: the candidate counter's value (pages that passed the hotness
 *	check; it only grows); a value below the baseline counts as no
 *	candidates
 * @now: the current time in ticks
 *
 * A period is over when more than @period ticks passed since it started
 * (wraparound-safe). Exactly one concurrent caller closes it (cmpxchg on the
 * start) and judges the candidates against the settings it read.
 *
 * Context: Any context, lock-free: at most %TP_RETRIES attempts to read the
 * settings, then it returns %TP_TH_IDLE and leaves the period to a later
 * call.
 * Return: an &enum tp_thresh_event.
 */
TP_API int tp_thresh_update(struct tp_thresh *t, uint64_t nr_cand,
			    uint64_t now);

/**
 * tp_thresh_record() - count the latency of a judged hint fault
 * @t: the controller
 * @cpu: the caller's slot
 * @latency: the fault's latency in ticks (%TP_LATENCY_UNKNOWN is ignored)
 * @n: pages of the fault, at most %TP_RATE_MAX (2^32; more is ignored, as
 *	tp_decide() refuses such a folio: the count would wrap a bin)
 *
 * %TP_THRESH_HISTOGRAM counts every fault whose latency is compared with
 * the threshold, hot or not; the other variants ignore this call.
 *
 * Context: Any context that owns @cpu, lock-free with bounded retries: at
 * most %TP_RETRIES attempts to read the settings, then nothing is recorded
 * (fail closed: one sample less); after the read, wait-free (a batch's
 * addition to the shared bins is %TP_THRESH_BINS atomic additions at most).
 */
TP_API void tp_thresh_record(struct tp_thresh *t, struct tp_thresh_cpu *cpu,
			     uint64_t latency, uint64_t n);

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
 * Context: Any context, wait-free, concurrently with tp_thresh_update().
 */
TP_API void tp_thresh_reset(struct tp_thresh *t, bool rearm, uint64_t nr_cand,
			    uint64_t now);

/**
 * tp_thresh_get() - the current hot threshold
 * @t: the controller
 *
 * Context: Any context, lock-free (at most %TP_RETRIES attempts to read the
 * settings; then the stored threshold clamped by the copy last read, which
 * a tune landing in every attempt may have left unvalidated).
 * Return: the threshold in ticks, inside [step, bound] of the current
 * settings (0 when the reference is 0), or, after %TP_RETRIES failed
 * reads, of the copy last read.
 */
TP_API uint64_t tp_thresh_get(const struct tp_thresh *t);

#ifdef __cplusplus
}
#endif

#endif /* TP_THRESHOLD_H */
