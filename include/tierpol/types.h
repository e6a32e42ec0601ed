/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * tierpol - page-placement algorithms for tiered memory
 *
 * Common types, the export macro and the defaults shared by every component.
 * This is the only public header that knows whether it is built for the
 * Linux kernel or for userspace: in the kernel it includes <linux/types.h>,
 * in userspace only the compiler's freestanding headers.
 */
#ifndef _TIERPOL_TYPES_H
#define _TIERPOL_TYPES_H

#ifdef __KERNEL__
#include <linux/types.h>
/** Marks the exported API: empty in the kernel (glue uses EXPORT_SYMBOL). */
#define TP_API
#else
#include <stdalign.h>
#include <stdbool.h>
#include <stddef.h>
/*
 * Userspace gets the kernel's fixed-width names so that one header serves
 * both worlds; they are the same types as <stdint.h>'s uint8_t and so on.
 * A program that already defines them (with the same types) may define
 * TP_HAVE_KERNEL_INT_TYPES before including tierpol.
 */
#ifndef TP_HAVE_KERNEL_INT_TYPES
/** Set once u8..s64 are defined; define it first to bring your own. */
#define TP_HAVE_KERNEL_INT_TYPES
/** 8-bit unsigned, as uint8_t */
typedef __UINT8_TYPE__ u8;
/** 16-bit unsigned, as uint16_t */
typedef __UINT16_TYPE__ u16;
/** 32-bit unsigned, as uint32_t */
typedef __UINT32_TYPE__ u32;
/** 64-bit unsigned, as uint64_t */
typedef __UINT64_TYPE__ u64;
/** 32-bit signed, as int32_t */
typedef __INT32_TYPE__ s32;
/** 64-bit signed, as int64_t */
typedef __INT64_TYPE__ s64;
#endif
/*
 * A u64 aligned to 8 bytes on every ABI (i386 aligns u64 to 4), as the
 * kernel's aligned_u64: the library updates such fields atomically, and the
 * structures keep one layout on 32-bit and 64-bit targets.
 */
#ifndef aligned_u64
/** u64 with 8-byte alignment on every ABI */
#define aligned_u64 alignas(8) u64
#endif
/** Marks the exported API: default visibility in a -fvisibility=hidden build */
#define TP_API __attribute__((__visibility__("default")))
#endif

/** Cache line size assumed by the layout of the per-node state */
#define TP_CACHELINE_BYTES	64

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
/** NUMA_SCAN_NR_HIST of seed 000 patch 6/8 */
#define TP_DEFAULT_RING_DEPTH		16U
/** NUMA_MIGRATION_ADJUST_STEPS */
#define TP_DEFAULT_THRESH_STEPS		16U
/** 4 KiB base pages */
#define TP_DEFAULT_PAGE_SHIFT		12U

/** the largest accepted ticks-per-second value (2^30, > 1e9 ns) */
#define TP_TPS_MAX			0x40000000U
/** the largest accepted duration in ticks (2^62) */
#define TP_TIME_MAX			0x4000000000000000ULL
/** the largest accepted rate in pages per second (2^32: 16 TiB/s of 4 KiB) */
#define TP_RATE_MAX			0x100000000ULL

#endif /* _TIERPOL_TYPES_H */
