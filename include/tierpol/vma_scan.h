/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * VMA scan rate limiter: which VMAs a NUMA-balancing scan pass visits.
 *
 * Four filters, chosen by the profile:
 *
 * %TP_VMA_FILTER_NONE - every VMA is scanned (Linux 6.1 .. 6.3).
 *
 * %TP_VMA_FILTER_PID - Linux 6.4 .. 6.6, the base the 2023 disjoint-VMA RFC
 * applies to: a VMA is scanned in the mm's first two scan sequences or when
 * the scanning task's PID hash is in the VMA's two-window access bitmap.
 *
 * %TP_VMA_FILTER_DISJOINT - the 2023 disjoint-VMA RFC on top of Linux 6.5: a
 * VMA is scanned in the mm's first two scan sequences, when the scanning
 * task's PID hash is in the VMA's two-window access bitmap, or, failing
 * both, by a size-based countdown that forces a scan of VMAs the task never
 * accessed: ratelimit = 1 + ((4 MiB / size) >> 7), i.e. 1 for VMAs above
 * 32 KiB up to 9 for 4 KiB. The countdown starts at 0 (the first unaccessed
 * check scans), then skips ratelimit checks: a VMA is force-scanned once
 * every ratelimit + 1 checks, 1 in 2 for large VMAs and 1 in 10 for 4 KiB
 * ones. The RFC's comment says "1 in 9" for 4 KiB; its code does 1 in 10
 * and this follows the code (see docs/algorithms.md). Sizes are 64-bit:
 * the RFC's "unsigned int vma_size" truncates VMAs of 4 GiB and more.
 *
 * %TP_VMA_FILTER_LINUX67 - Linux 6.7+ vma_is_accessed(): scanned during the
 * VMA's own first two scan sequences, when the PID hash is in the bitmap,
 * when completing a VMA whose scan already started (mm scan offset beyond
 * the VMA start), when not scanned for more sequences than the process has
 * threads, or in the scanner's forced retry pass; never twice in one
 * sequence.
 *
 * All filters except NONE delay new VMAs by one scan delay (from the mm's
 * second scan sequence on: in its first, numa_scan_seq 0, nothing is
 * delayed, as in the kernel's task_numa_work()) and rotate the access
 * bitmap windows every 4 x scan delay: %TP_VMA_FILTER_PID as Linux 6.4 to
 * 6.6, after the access check and only in a check that scans;
 * %TP_VMA_FILTER_DISJOINT and %TP_VMA_FILTER_LINUX67 before it (the
 * disjoint-VMA RFC's patch 1/6, merged for 6.7). The caller (the scanner)
 * supplies the facts; the library decides.
 */
#ifndef TP_VMA_SCAN_H
#define TP_VMA_SCAN_H

#include <tierpol/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * enum tp_vma_filter - VMA scan filter
 * @TP_VMA_FILTER_NONE: scan every VMA (Linux 6.1 to 6.3)
 * @TP_VMA_FILTER_DISJOINT: the 2023 disjoint-VMA RFC: 6.5's PID filter plus
 *	the size countdown
 * @TP_VMA_FILTER_LINUX67: Linux 6.7+ vma_is_accessed()
 * @TP_VMA_FILTER_PID: Linux 6.4 to 6.6: the PID filter alone (the RFC's
 *	base, without its countdown)
 */
enum tp_vma_filter {
	TP_VMA_FILTER_NONE = 0,
	TP_VMA_FILTER_DISJOINT = 1,
	TP_VMA_FILTER_LINUX67 = 2,
	TP_VMA_FILTER_PID = 3,
};

/**
 * enum tp_vma_verdict - what tp_vma_scan_check() decided, and why
 * @TP_VMA_SCAN_ALL: scan: no filter
 * @TP_VMA_SCAN_EARLY: scan: one of the first two scan sequences
 * @TP_VMA_SCAN_ACCESSED: scan: the task's PID hash is in the bitmap
 * @TP_VMA_SCAN_PARTIAL: scan: completing a VMA whose scan already started
 * @TP_VMA_SCAN_STARVED: scan: skipped for more sequences than threads
 * @TP_VMA_SCAN_FORCED: scan: the scanner's forced retry pass
 * @TP_VMA_SCAN_DISJOINT: scan: the disjoint-VMA RFC's countdown fired
 * @TP_VMA_SKIP_DELAY: skip: a new VMA within its scan delay
 * @TP_VMA_SKIP_DONE: skip: already scanned in this sequence
 * @TP_VMA_SKIP_INACTIVE: skip: not accessed by the task
 */
enum tp_vma_verdict {
	TP_VMA_SCAN_ALL = 0,
	TP_VMA_SCAN_EARLY = 1,
	TP_VMA_SCAN_ACCESSED = 2,
	TP_VMA_SCAN_PARTIAL = 3,
	TP_VMA_SCAN_STARVED = 4,
	TP_VMA_SCAN_FORCED = 5,
	TP_VMA_SCAN_DISJOINT = 6,
	TP_VMA_SKIP_DELAY = 8,
	TP_VMA_SKIP_DONE = 9,
	TP_VMA_SKIP_INACTIVE = 10,
};

/**
 * tp_vma_verdict_scans() - does a verdict mean "scan"?
 * @tp_v: an &enum tp_vma_verdict
 *
 * Context: Any context, wait-free.
 * Return: true for the TP_VMA_SCAN_* verdicts.
 */
static inline bool tp_vma_verdict_scans(int tp_v)
{
	return tp_v >= 0 && tp_v < TP_VMA_SKIP_DELAY;
}

/**
 * struct tp_vma_profile_cfg - VMA scan filter settings
 * @sz: sizeof(struct tp_vma_profile_cfg), for ABI growth (see docs/ABI.md)
 * @filter: &enum tp_vma_filter
 * @tps: ticks per second of the caller's clock, 1..%TP_TPS_MAX
 * @scan_delay: numa_balancing_scan_delay in ticks; 0 selects
 *	%TP_DEFAULT_SCAN_DELAY_MS; at most %TP_TIME_MAX / 4
 */
struct tp_vma_profile_cfg {
	uint32_t sz;
	uint32_t filter;
	uint32_t tps;
	uint64_t scan_delay;
};

/**
 * struct tp_vma_profile - validated filter settings, shared by all VMAs
 * @filter: &enum tp_vma_filter
 * @scan_delay: delay of new VMAs, ticks
 * @reset_period: access bitmap window length (4 x scan delay), ticks
 */
struct tp_vma_profile {
	uint32_t filter;
	uint64_t scan_delay;
	uint64_t reset_period;
};

/**
 * struct tp_vma_scan - per-VMA scan state (the kernel's vma_numab_state)
 * @pids: access bitmaps of PID hashes, previous and current window
 * @next_scan: end of the new-VMA delay, ticks
 * @pids_reset: next window rotation, ticks
 * @start_seq: mm scan sequence when the state was initialised
 * @prev_seq: sequence of the last completed scan of this VMA
 * @countdown: the disjoint-VMA RFC's checks left before a forced scan
 */
struct tp_vma_scan {
	uint64_t pids[2];
	uint64_t next_scan;
	uint64_t pids_reset;
	uint32_t start_seq;
	uint32_t prev_seq;
	uint32_t countdown;
};

/**
 * struct tp_vma_facts - what the scanner knows when it considers a VMA
 * @vma_start: start address of the VMA
 * @vma_end: end address of the VMA (exclusive)
 * @scan_offset: the mm's current scan offset
 * @scan_seq: the mm's scan sequence (numa_scan_seq)
 * @nr_threads: threads of the scanning process
 * @pid: the scanning task's PID
 * @forced: the scanner's second pass after a pass that scanned nothing
 *	because of the PID filter (Linux 6.7's vma_pids_forced)
 */
struct tp_vma_facts {
	uint64_t vma_start;
	uint64_t vma_end;
	uint64_t scan_offset;
	uint32_t scan_seq;
	uint32_t nr_threads;
	uint32_t pid;
	bool forced;
};

/**
 * tp_vma_profile_init() - validate VMA scan filter settings
 * @p: the profile
 * @cfg: the settings, validated completely before anything is written
 *
 * Context: Any context, wait-free.
 * Return: 0, or -EINVAL (NULL argument, bad @sz, unknown filter, bad @tps)
 * or -ERANGE (@scan_delay above %TP_TIME_MAX / 4); on error @p is left
 * untouched.
 */
TP_API int tp_vma_profile_init(struct tp_vma_profile *p,
			       const struct tp_vma_profile_cfg *cfg);

/**
 * tp_vma_scan_init() - initialise a VMA's scan state
 * @v: the VMA's state
 * @p: the profile
 * @scan_seq: the mm's current scan sequence
 * @now: the current time in ticks
 *
 * The kernel does this when it first meets the VMA (and it is where the disjoint-VMA RFC
 * resets its countdown).
 *
 * Context: Any context, wait-free. Not concurrently with other calls on @v.
 */
TP_API void tp_vma_scan_init(struct tp_vma_scan *v,
			     const struct tp_vma_profile *p, uint32_t scan_seq,
			     uint64_t now);

/**
 * tp_vma_scan_note() - record that a task accessed the VMA
 * @v: the VMA's state
 * @pid: the faulting task's PID
 *
 * Called from the hint-fault path (vma_set_access_pid_bit()).
 *
 * Context: Any context, wait-free, concurrently with itself and the scanner;
 * like the kernel's __set_bit() a racing rotation may drop the bit.
 */
TP_API void tp_vma_scan_note(struct tp_vma_scan *v, uint32_t pid);

/**
 * tp_vma_scan_check() - should the scanner scan this VMA now?
 * @v: the VMA's state
 * @p: the profile
 * @f: the scanner's facts
 * @now: the current time in ticks
 *
 * May rotate the access windows and move the disjoint-VMA RFC's countdown.
 *
 * Context: The scanner of the VMA's mm (one at a time), wait-free.
 * Return: an &enum tp_vma_verdict; tp_vma_verdict_scans() tells scan from
 * skip. -EINVAL if @f describes an empty or inverted VMA.
 */
TP_API int tp_vma_scan_check(struct tp_vma_scan *v,
			     const struct tp_vma_profile *p,
			     const struct tp_vma_facts *f, uint64_t now);

/**
 * tp_vma_scan_done() - the scanner finished scanning the VMA
 * @v: the VMA's state
 * @scan_seq: the mm's scan sequence
 *
 * Context: The scanner of the VMA's mm, wait-free.
 */
TP_API void tp_vma_scan_done(struct tp_vma_scan *v, uint32_t scan_seq);

/**
 * tp_vma_scan_ratelimit() - the disjoint-VMA RFC's forced-scan rate of a VMA
 * @size: VMA size in bytes (uint64_t: no truncation at 4 GiB)
 *
 * Context: Any context, wait-free.
 * Return: 1 + ((4 MiB / @size) >> 7); 1 for @size 0 (the RFC's guard).
 */
TP_API uint32_t tp_vma_scan_ratelimit(uint64_t size);

/**
 * tp_vma_pid_bit() - the access-bitmap bit of a PID
 * @tp_pid: a PID
 *
 * The kernel's hash_32(pid, ilog2(BITS_PER_LONG)) on 64-bit.
 *
 * Context: Any context, wait-free.
 * Return: a bit number in [0, 63].
 */
static inline uint32_t tp_vma_pid_bit(uint32_t tp_pid)
{
	return (tp_pid * 0x61C88647U) >> (32 - 6);
}

#ifdef __cplusplus
}
#endif

#endif /* TP_VMA_SCAN_H */
