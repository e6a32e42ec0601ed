/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Per-page access-time stamp: Linux 6.1's alternative to the scan-history
 * ring (xchg_page_access_time(), later folio_xchg_access_time()).
 *
 * When the scanner marks a slow-tier page for a hint fault it stores the
 * current time, truncated to @bits bits after dropping @shift low bits, in
 * the page (the kernel reuses the last_cpupid bits). The hint fault swaps in
 * the fault time and computes latency = (now - stamp) masked to the stamp's
 * width. A page not stamped for longer than the stamp's span (2^(bits+shift)
 * ticks) aliases to a smaller latency; that is the kernel's behaviour and is
 * kept, documented and tested.
 *
 * Linux 6.1 stamps milliseconds with bits = LAST_CPUPID_SHIFT (21 on x86-64
 * with NR_CPUS = 8192) and shift = max(0, 12 - bits). With a nanosecond
 * clock, shift = 20 gives buckets of about 1 ms.
 */
#ifndef TP_ATIME_H
#define TP_ATIME_H

#include <tierpol/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The kernel's LAST_CPUPID_SHIFT on x86-64 with NR_CPUS = 8192. */
#define TP_ATIME_DEFAULT_BITS	21U

/**
 * struct tp_atime_cfg - access-time stamp format
 * @sz: sizeof(struct tp_atime_cfg), for ABI growth (see docs/ABI.md)
 * @bits: stamp width in bits, 1..32; 0 selects %TP_ATIME_DEFAULT_BITS
 * @shift: low time bits dropped (the bucket size is 2^shift ticks),
 *	0..63; bits + shift must not exceed 64
 */
struct tp_atime_cfg {
	uint32_t sz;
	uint32_t bits;
	uint32_t shift;
};

/**
 * struct tp_atime - a validated stamp format (read-only after init)
 * @mask: (2^bits) - 1
 * @shift: bucket shift
 */
struct tp_atime {
	uint32_t mask;
	uint32_t shift;
};

/**
 * tp_atime_init() - validate a stamp format
 * @fmt: the format object to fill
 * @cfg: the requested format
 *
 * Context: Any context, wait-free.
 * Return: 0, or -EINVAL (NULL argument, bad @sz, @bits above 32, @bits + @shift
 * above 64); on error @fmt is left untouched.
 */
TP_API int tp_atime_init(struct tp_atime *fmt, const struct tp_atime_cfg *cfg);

/**
 * tp_atime_encode() - the stamp for a time
 * @tp_fmt: the stamp format
 * @tp_now: time in ticks
 *
 * Context: Any context, wait-free.
 * Return: (@tp_now >> shift) masked to the stamp's width.
 */
static inline uint32_t tp_atime_encode(const struct tp_atime *tp_fmt,
				       uint64_t tp_now)
{
	/* A C++ program may build with -Wold-style-cast. */
#ifdef __cplusplus
	return uint32_t(tp_now >> tp_fmt->shift) & tp_fmt->mask;
#else
	return (uint32_t)(tp_now >> tp_fmt->shift) & tp_fmt->mask;
#endif
}

/**
 * tp_atime_latency() - latency between a stamp and a time
 * @tp_fmt: the stamp format
 * @tp_stamp: a stamp from tp_atime_encode()
 * @tp_now: time in ticks
 *
 * Computed as the kernel does: (tp_now - (tp_stamp << shift)) masked to
 * (mask << shift), so the answer is a multiple of the bucket size, below the
 * stamp's span, and wraps for stamps older than the span.
 *
 * Context: Any context, wait-free.
 * Return: the latency in ticks.
 */
static inline uint64_t tp_atime_latency(const struct tp_atime *tp_fmt,
					uint32_t tp_stamp, uint64_t tp_now)
{
	uint64_t tp_s = tp_stamp, tp_m = tp_fmt->mask;

	return (tp_now - (tp_s << tp_fmt->shift)) & (tp_m << tp_fmt->shift);
}

/**
 * tp_atime_span() - the time a stamp can represent
 * @tp_fmt: the stamp format
 *
 * Context: Any context, wait-free.
 * Return: 2^(bits + shift) ticks, saturated to 2^64 - 1.
 */
static inline uint64_t tp_atime_span(const struct tp_atime *tp_fmt)
{
	uint64_t tp_m = tp_fmt->mask;

	tp_m = (tp_m << tp_fmt->shift) | ((1ULL << tp_fmt->shift) - 1);

	return tp_m == ~0ULL ? tp_m : tp_m + 1;
}

/**
 * tp_atime_xchg() - stamp a page and return its previous stamp
 * @fmt: the stamp format
 * @stamp: the page's stamp word (caller-owned, e.g. one uint32_t per page)
 * @now: time in ticks
 *
 * Context: Any context, wait-free (one atomic exchange), atomic with
 * respect to concurrent calls on @stamp.
 * Return: the previous stamp.
 */
TP_API uint32_t tp_atime_xchg(const struct tp_atime *fmt, uint32_t *stamp,
			      uint64_t now);

/**
 * tp_atime_fault() - hint-fault latency from a stamp, re-stamping the page
 * @fmt: the stamp format
 * @stamp: the page's stamp word
 * @now: fault time in ticks
 *
 * The kernel's numa_hint_fault_latency(): exchange the stamp for @now and
 * return the latency from the previous stamp.
 *
 * Context: Any context, wait-free (one atomic exchange), atomic with
 * respect to concurrent calls on @stamp.
 * Return: the latency in ticks, see tp_atime_latency().
 */
TP_API uint64_t tp_atime_fault(const struct tp_atime *fmt, uint32_t *stamp,
			       uint64_t now);

#ifdef __cplusplus
}
#endif

#endif /* TP_ATIME_H */
