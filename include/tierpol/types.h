/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * tierpol - page-placement algorithms for tiered memory
 *
 * Common types, limits and defaults shared by every component.
 *
 * This is the only public header that knows whether it is built for the
 * Linux kernel or for userspace. It defines nothing outside the tp_/TP_
 * namespace itself: the API uses <stdint.h>'s fixed-width types, which the
 * kernel defines too (uint64_t is the kernel's u64), and bool, and the few
 * types that differ between the two worlds are tierpol's own (struct
 * tp_atomic64 and friends, whose fields are private). In userspace it
 * includes <stdint.h> and <stdbool.h> and nothing else. In C before C23 the
 * latter defines bool, true and false as macros (C23 and C++ have them as
 * keywords): in a program with a bool of its own (typedef int bool;), bool
 * is _Bool after the include.
 *
 * Language: the headers are C99, C11 and C++ (C++11 and later) clean; they
 * use the GNU __attribute__ syntax (gcc, clang) for alignment.
 *
 * Time: every function that takes a time takes it as @now, a count of ticks
 * of the caller's clock in a uint64_t. The clock must be monotonic and 64
 * bits wide: tierpol compares times wraparound-safely ((int64_t)(a - b)),
 * which is exact while the times compared lie less than 2^63 ticks apart. A
 * 32-bit counter zero-extended to 64 bits (a 32-bit jiffies, say) jumps back
 * by 2^32 at its wrap: windows and periods then stall until the clock has
 * caught up again (49.7 days for a millisecond counter), so widen it first
 * (the kernel's get_jiffies_64(), or ktime_get_ns()). The number of ticks
 * per second (tps, 1 to %TP_TPS_MAX) is given once per object, in its
 * configuration; objects that work together (a policy and its nodes) share
 * the policy's clock.
 */
#ifndef TP_TYPES_H
#define TP_TYPES_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/atomic.h>
#include <linux/cache.h>
#include <linux/seqlock.h>
#include <asm/local64.h>
#else
#include <stdbool.h>
#include <stdint.h>
#endif

#ifdef __KERNEL__
/** Marks the exported API: empty in the kernel (kernel/ exports it). */
#define TP_API
/** The cache line size that the per-CPU and per-node layouts assume. */
#define TP_CACHELINE_BYTES	L1_CACHE_BYTES
/** Aligns a structure to a cache line. */
#define TP_CACHELINE_ALIGNED	____cacheline_aligned
#else
/** Marks the exported API: default visibility in a -fvisibility=hidden build */
#define TP_API __attribute__((__visibility__("default")))
/** The cache line size that the per-CPU and per-node layouts assume. */
#define TP_CACHELINE_BYTES	64
/** Aligns a structure to a cache line. */
#define TP_CACHELINE_ALIGNED	__attribute__((__aligned__(TP_CACHELINE_BYTES)))
#endif

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __KERNEL__
/**
 * struct tp_atomic64 - a 64-bit word shared between CPUs (private)
 * @v: the kernel's atomic64_t
 */
struct tp_atomic64 {
	atomic64_t v;
};

/**
 * struct tp_local64 - a 64-bit counter of one CPU (private)
 * @v: the kernel's local64_t: updated by its own CPU only, read by any
 */
struct tp_local64 {
	local64_t v;
};

/**
 * struct tp_latch - sequence count of a settings latch (private)
 * @seq: the kernel's seqcount_latch_t
 */
struct tp_latch {
	seqcount_latch_t seq;
};

/**
 * struct tp_seqcount - sequence count of a single-writer object (private)
 * @seq: the kernel's seqcount_t
 */
struct tp_seqcount {
	seqcount_t seq;
};
#else
/**
 * struct tp_atomic64 - a 64-bit word shared between threads (private)
 * @v: accessed with __atomic builtins only; 8-byte aligned on every ABI
 *	(i386 aligns a plain uint64_t to 4), so it is a real 8-byte atomic
 */
struct tp_atomic64 {
	__attribute__((__aligned__(8))) uint64_t v;
};

/**
 * struct tp_local64 - a 64-bit counter of one thread (private)
 * @v: updated by its own thread only (a single instruction on x86-64, an
 *	atomic elsewhere, so a signal handler on the thread may update it
 *	too), read by any thread
 */
struct tp_local64 {
	__attribute__((__aligned__(8))) uint64_t v;
};

/**
 * struct tp_latch - sequence count of a settings latch (private)
 * @seq: odd while the first copy is rewritten, even while the second is
 */
struct tp_latch {
	unsigned int seq;
};

/**
 * struct tp_seqcount - sequence count of a single-writer object (private)
 * @seq: odd while the writer updates the object
 */
struct tp_seqcount {
	unsigned int seq;
};
#endif

/*
 * Defaults, named as the kernel's sysctls (kernel/sched/fair.c). Times are
 * in milliseconds, sizes in MB, rates in MB/s.
 */
/** numa_balancing_scan_delay_ms */
#define TP_DEFAULT_SCAN_DELAY_MS	1000U
/** numa_balancing_scan_period_min_ms */
#define TP_DEFAULT_SCAN_PERIOD_MIN_MS	1000U
/** numa_balancing_scan_period_max_ms */
#define TP_DEFAULT_SCAN_PERIOD_MAX_MS	60000U
/** numa_balancing_scan_size_mb */
#define TP_DEFAULT_SCAN_SIZE_MB		256U
/** numa_balancing_hot_threshold_ms */
#define TP_DEFAULT_HOT_THRESHOLD_MS	1000U
/** numa_balancing_promote_rate_limit_MBps */
#define TP_DEFAULT_PROMOTE_RATE_LIMIT_MBPS	65536U
/** NUMA_SCAN_NR_HIST of the 2020 RFC, patch 6/8: passes remembered */
#define TP_DEFAULT_RING_DEPTH		16U
/** NUMA_MIGRATION_ADJUST_STEPS: steps of the threshold controller */
#define TP_DEFAULT_THRESH_STEPS		16U
/** 4 KiB base pages */
#define TP_DEFAULT_PAGE_SHIFT		12U
/**
 * TP_DEFAULT_CAND_BATCH - candidates a CPU counts before it adds them to
 * its node's shared count; the kernel's vmstat threshold for a small
 * machine (2 CPUs, 8 GiB)
 */
#define TP_DEFAULT_CAND_BATCH		32U

/** the largest accepted ticks-per-second value (2^30, > 1e9 ns) */
#define TP_TPS_MAX			0x40000000U
/** the largest accepted duration in ticks (2^62) */
#define TP_TIME_MAX			0x4000000000000000ULL
/** the largest accepted rate in pages per second (2^32: 16 TiB/s of 4 KiB) */
#define TP_RATE_MAX			0x100000000ULL
/** A hint-fault latency the caller could not determine: never hot. */
#define TP_LATENCY_UNKNOWN		(~0ULL)
/** the largest accepted candidate batch */
#define TP_CAND_BATCH_MAX		65536U
/**
 * TP_RETRIES - how many attempts a reader makes when settings or state
 * change under it; then it fails closed (a refusal, counted) rather than
 * wait
 */
#define TP_RETRIES			8U

#ifdef __cplusplus
}
#endif

#endif /* TP_TYPES_H */
