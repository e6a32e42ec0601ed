/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Scan-history ring and hint-fault latency lookup (the 2020 RFC, patch 6/8).
 *
 * The NUMA-balancing scanner walks an address space in passes; each pass
 * begins at the end of the previous one and marks PTEs for hint faults. The
 * ring remembers, for the last @depth passes, where each pass began and when,
 * plus how far the newest pass has got. When a hint fault arrives, the
 * latency lookup finds the newest pass whose range holds the fault address
 * and returns how long ago that pass began: a short latency means the page
 * was touched soon after it was marked, i.e. it is probably hot.
 */
#ifndef TP_SCAN_RING_H
#define TP_SCAN_RING_H

#include <tierpol/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The largest accepted ring depth (a power of two). */
#define TP_RING_DEPTH_MAX	1024U
/** How many attempts a reader makes while the writer updates the ring. */
#define TP_RING_READ_RETRIES	8U

/**
 * struct tp_scan_pass - one recorded scan pass
 * @start: the address the pass began at
 * @time: when it began, in the caller's ticks
 *
 * The array of passes is owned by the caller and handed to
 * tp_scan_ring_init(); depth * 16 bytes.
 */
struct tp_scan_pass {
	uint64_t start;
	uint64_t time;
};

/**
 * struct tp_scan_ring_cfg - scan-history ring configuration
 * @sz: sizeof(struct tp_scan_ring_cfg), for ABI growth (see docs/ABI.md)
 * @depth: number of passes remembered; a power of two in
 *	[1, %TP_RING_DEPTH_MAX]; 0 selects %TP_DEFAULT_RING_DEPTH (16).
 * @limit: end of the address space (TASK_SIZE): a pass that wrapped covers
 *	up to here. 0 selects the whole u64 space (2^64 - 1).
 */
struct tp_scan_ring_cfg {
	uint32_t sz;
	uint32_t depth;
	uint64_t limit;
};

/**
 * struct tp_scan_ring - scan-history ring state
 * @seq: sequence count; odd while the writer updates the ring
 * @mask: depth - 1
 * @nr: passes recorded since init or reset
 * @offset: how far the newest pass has scanned (the end of its range)
 * @run: record number of the first pass of the newest run of passes with
 *	strictly increasing starts (the current sweep of the address space)
 * @prev_run: record number of the first pass of the run before it
 * @limit: end of the address space
 * @pass: caller-owned array of depth passes
 *
 * Within a run the passes' ranges are sorted and disjoint, so the lookup
 * binary-searches the current and the previous sweep and walks older passes
 * one by one; the answer is the same as the RFC's newest-first walk.
 *
 * All fields are private; use the functions below. One writer at a time:
 * callers serialize tp_scan_ring_record(), tp_scan_ring_advance() and
 * tp_scan_ring_reset() (the kernel's scanner runs per mm under
 * numa_next_scan's cmpxchg). Any number of readers may run concurrently
 * with the writer and with each other.
 */
struct tp_scan_ring {
	struct tp_seqcount seq;
	uint32_t mask;
	uint64_t nr;
	uint64_t offset;
	uint64_t run;
	uint64_t prev_run;
	uint64_t limit;
	struct tp_scan_pass *pass;
};

/**
 * enum tp_lat_result - how tp_scan_ring_latency() found its answer
 * @TP_LAT_EXACT: a recorded pass covers the address; the latency is exact
 * @TP_LAT_OLDEST: no recorded pass covers the address (the history is
 *	shorter than a full sweep of the address space); the latency is that of
 *	the oldest recorded pass, as the RFC approximates it, and is a lower
 *	bound of the true latency
 */
enum tp_lat_result {
	TP_LAT_EXACT = 0,
	TP_LAT_OLDEST = 1,
};

/**
 * tp_scan_ring_init() - initialise an empty scan-history ring
 * @ring: the ring
 * @cfg: configuration, validated completely before anything is written
 * @pass: caller-owned array of passes
 * @nr_pass: its length: at least the depth (16 when @cfg->depth is 0); the
 *	ring uses the first depth entries
 *
 * Context: Any context, wait-free. Not concurrently with other calls on @ring.
 * Return: 0, or -EINVAL (NULL argument, bad @sz, depth not a power of two
 * or above %TP_RING_DEPTH_MAX, an array shorter than the depth); on error
 * @ring is left untouched.
 */
TP_API int tp_scan_ring_init(struct tp_scan_ring *ring,
			     const struct tp_scan_ring_cfg *cfg,
			     struct tp_scan_pass *pass, uint32_t nr_pass);

/**
 * tp_scan_ring_record() - record the beginning of a scan pass
 * @ring: the ring
 * @start: the address the pass begins at
 * @now: the current time, in ticks
 *
 * The new pass becomes the newest; its range is empty until
 * tp_scan_ring_advance() moves the scan offset. The oldest pass is
 * forgotten when the ring is full.
 *
 * Context: The single writer (see &struct tp_scan_ring). Wait-free. In the
 * kernel it runs with preemption disabled while it writes, so readers on
 * other CPUs retry at most briefly.
 */
TP_API void tp_scan_ring_record(struct tp_scan_ring *ring, uint64_t start,
				uint64_t now);

/**
 * tp_scan_ring_advance() - move the scan offset of the newest pass
 * @ring: the ring
 * @offset: the end of the range scanned so far. When the scanner reaches
 *	the end of the address space, pass the ring's limit: the newest pass
 *	then covers [start, limit) and the next pass is recorded at 0. A value
 *	below the newest pass's start means the same (the kernel's
 *	reset_ptenuma_scan() sets the offset to 0), except for a pass that
 *	began at 0, whose wrap can only be told by passing the limit: an
 *	offset equal to the start is a pass without progress.
 *
 * Call it before the PTEs of the range are marked, as the RFC does, so a
 * fault on a freshly marked page always finds its pass.
 *
 * Context: The single writer. Wait-free.
 */
TP_API void tp_scan_ring_advance(struct tp_scan_ring *ring, uint64_t offset);

/**
 * tp_scan_ring_reset() - forget all recorded passes
 * @ring: the ring
 *
 * Context: The single writer. Wait-free.
 */
TP_API void tp_scan_ring_reset(struct tp_scan_ring *ring);

/**
 * tp_scan_ring_latency() - hint-fault latency of an address
 * @ring: the ring
 * @addr: the fault address
 * @now: the fault time, in ticks
 * @latency: where to store @now minus the time the covering pass began, in
 *	ticks; 0 if that time is after @now (a caller's clock skew is never
 *	turned into a negative or huge latency)
 *
 * The newest pass covers [start, offset); each older pass covers [start,
 * start of the next newer pass); a pass whose end lies below its start
 * wrapped and covers [start, limit). A newest pass that has made no
 * progress yet (start == offset) covers nothing: no PTE of it is marked, so
 * no fault can come from it (the RFC instead stretched it by 10 GiB, which
 * gives faults from the previous sweep a near-zero latency; see
 * docs/algorithms.md).
 *
 * Context: Any context, concurrently with the writer and other readers;
 * never sees a start of one pass paired with the time of another. Lock-free:
 * at most %TP_RING_READ_RETRIES attempts while the writer is mid-update.
 * Return: %TP_LAT_EXACT or %TP_LAT_OLDEST with *@latency set; -ENOENT if
 * nothing is recorded; -EBUSY if the writer kept the ring busy for every
 * attempt. *@latency is only written on success.
 */
TP_API int tp_scan_ring_latency(const struct tp_scan_ring *ring,
				uint64_t addr, uint64_t now, uint64_t *latency);

/**
 * tp_scan_ring_depth() - the configured depth
 * @tp_ring: an initialised ring
 *
 * Context: Any context, wait-free.
 * Return: the number of passes the ring remembers.
 */
static inline uint32_t tp_scan_ring_depth(const struct tp_scan_ring *tp_ring)
{
	return tp_ring->mask + 1;
}

#ifdef __cplusplus
}
#endif

#endif /* TP_SCAN_RING_H */
