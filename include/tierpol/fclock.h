/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Fault-count clock: hint-fault latency counted in hint faults instead of
 * time (Bharata B Rao, "[RFC PATCH 1/2] sched/numa: Fault count based NUMA
 * hint fault latency", linux-kernel and linux-mm, 2024-03-27, message-id
 * 20240327160237.2355-2-bharata@amd.com).
 *
 * A time-based latency ("how long after its scan did the page fault?")
 * stops telling hot from cold on a large address space: the scanner takes
 * seconds to come back to a page, and every page's latency grows with the
 * size of the process rather than with how often it is used. Counting the
 * hint faults between the scan and the fault instead measures how many
 * other pages were touched meanwhile, whatever the scan's speed.
 *
 * The clock is a counter of hint faults. Use its reading as the @now of
 * the scan-history ring (tp_scan_ring_record() at scan time,
 * tp_scan_ring_latency() at fault time) or of the access-time stamp
 * (tp_atime_xchg()/tp_atime_fault()), pass the latency it gives in
 * &tp_fault.latency, and set %TP_POL_LAT_FAULTS with a threshold in faults
 * (&tp_policy_cfg.hot_threshold_faults): the rate limiter and the
 * threshold controller's period keep running on time, only latencies and
 * the threshold are in faults.
 *
 * Counting is per CPU (&struct tp_fault_clock_cpu), added to the shared
 * count in batches, as the kernel's vmstat counters: the reading lags the
 * true count by at most (batch - 1) faults per slot, plus the faults of a
 * tick that interrupted a tick on the same slot (as the candidates of
 * &tp_policy_cfg.cand_batch), and never goes back.
 */
#ifndef TP_FCLOCK_H
#define TP_FCLOCK_H

#include <tierpol/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * struct tp_fault_clock - a hint-fault counter used as a clock
 * @count: the faults added by the slots
 * @batch: faults a slot counts before adding them (fixed at init)
 *
 * Private fields.
 */
struct tp_fault_clock {
	struct tp_atomic64 count;
	uint32_t batch;
};

/**
 * struct tp_fault_clock_cpu - one CPU's (or thread's) slot of a clock
 * @diff: faults counted here and not yet added
 *
 * Zero-filled memory is a ready slot; the rules of &struct tp_limiter_cpu
 * apply. Private field.
 */
struct tp_fault_clock_cpu {
	struct tp_local64 diff;
};

/**
 * tp_fault_clock_init() - initialise a fault-count clock at 0
 * @clk: the clock
 * @batch: faults a slot counts before adding them to the shared count,
 *	0..%TP_CAND_BATCH_MAX; 0 and 1 add every fault at once
 *
 * Context: Any context, wait-free. Not concurrently with other calls on @clk.
 * Return: 0, or -EINVAL (NULL @clk, @batch too large); on error @clk is
 * untouched.
 */
TP_API int tp_fault_clock_init(struct tp_fault_clock *clk, uint32_t batch);

/**
 * tp_fault_clock_tick() - count hint faults and read the clock
 * @clk: the clock
 * @cpu: the caller's slot
 * @n: faults to count (1 per hint fault); more than %TP_RATE_MAX (2^32)
 *	is ignored, as no caller has that many at once and 2^64 - 1 would
 *	step the clock back
 *
 * Context: Any context that owns @cpu; wait-free.
 * Return: the clock's reading after counting (see tp_fault_clock_now()).
 */
TP_API uint64_t tp_fault_clock_tick(struct tp_fault_clock *clk,
				    struct tp_fault_clock_cpu *cpu, uint64_t n);

/**
 * tp_fault_clock_now() - read the clock
 * @clk: the clock
 *
 * Context: Any context, wait-free.
 * Return: the faults added by the slots so far: monotonic, at most
 * (batch - 1) per slot behind the faults counted (plus an interrupting
 * handler's, see above).
 */
TP_API uint64_t tp_fault_clock_now(const struct tp_fault_clock *clk);

#ifdef __cplusplus
}
#endif

#endif /* TP_FCLOCK_H */
