/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Per-page hotness record with several sources: the record of pghot
 * (Bharata B Rao, "mm: Hot page tracking and promotion infrastructure",
 * v6 (23 March 2026) and v7 (4 May 2026), linux-mm; not merged).
 *
 * Any source of access information (hint faults, accessed-bit scans,
 * hardware samples such as AMD IBS, Intel PEBS or a CXL hotness monitoring
 * unit) records an access of a slow-tier page with tp_hot_record(); the
 * record counts the accesses that fall within a time window and marks the
 * page "ready" for promotion once the count reaches a threshold. A
 * migration thread then promotes the ready pages in batches, decoupled
 * from the faults (pghot's kmigrated), and clears their records.
 *
 * Two formats, chosen by &struct tp_hot_cfg:
 *
 * %TP_HOT_BYTE - one byte per page, pghot's default: bit 7 ready, bits 6-2
 * the time of the latest access in 32 buckets of 2^bucket_shift ticks
 * (about 4 s in all with the default bucket, 1/8 s rounded up to a power
 * of two of ticks: 4.1 s at 1000 ticks a second, up to twice that at other
 * clocks), bits 1-0 the access count (saturating at 3).
 *
 * %TP_HOT_PRECISE - four bytes per page, pghot's precision mode: bit 31
 * ready, bits 30-21 the node that accessed the page last (the promotion
 * target, 0..1023), bits 20-18 the count (saturating at 7), bits 13-0 the
 * time in 2^14 buckets of about 1 ms (about 16 s; up to twice that at other
 * clocks, and 2^14 ticks below 1000 ticks a second); bits 17-14 are zero.
 *
 * An access starts a new count when the previous one is older than the
 * window (default 3 s); a record that was never written (0) is empty. The
 * time field wraps: a record untouched for longer than the format's span
 * looks recent again, as the kernel's access-time stamps do; a migration
 * thread that clears what it promotes, or tp_hot_expired() in a periodic
 * walk, keeps records from aliasing.
 *
 * All functions are pure or act on one caller-owned record: no state, no
 * settings apart from the validated &struct tp_hot. A byte array is
 * updated with tp_hot_record() and a plain byte store (WRITE_ONCE in the
 * kernel): two sources recording the same page at the same moment may lose
 * one access, which a sampled record tolerates; tp_hot_record32() updates a
 * 32-bit record with cmpxchg.
 */
#ifndef TP_HOTNESS_H
#define TP_HOTNESS_H

#include <tierpol/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * enum tp_hot_format - hotness record layout
 * @TP_HOT_BYTE: one byte per page (pghot's default mode)
 * @TP_HOT_PRECISE: four bytes per page with the accessing node (pghot's
 *	precision mode)
 */
enum tp_hot_format {
	TP_HOT_BYTE = 0,
	TP_HOT_PRECISE = 1,
};

/** The ready bit of a %TP_HOT_BYTE record. */
#define TP_HOT_BYTE_READY	0x80U
/** The ready bit of a %TP_HOT_PRECISE record. */
#define TP_HOT_PRECISE_READY	0x80000000U
/** The largest node number a %TP_HOT_PRECISE record holds. */
#define TP_HOT_NID_MAX		1023U
/** The accesses that make a page ready when freq_threshold is 0 (pghot). */
#define TP_HOT_DEFAULT_FREQ	2U
/** The window in milliseconds when window_ms is 0 (pghot). */
#define TP_HOT_DEFAULT_WINDOW_MS	3000U

/**
 * struct tp_hot_cfg - hotness record settings
 * @sz: sizeof(struct tp_hot_cfg), for ABI growth (see docs/ABI.md)
 * @format: &enum tp_hot_format
 * @tps: ticks per second of the caller's clock, 1..%TP_TPS_MAX
 * @freq_threshold: accesses within the window that make a page ready:
 *	1..3 (%TP_HOT_BYTE) or 1..7 (%TP_HOT_PRECISE); 0 selects
 *	%TP_HOT_DEFAULT_FREQ (2), pghot's default
 * @window_ms: the window in milliseconds, at most the format's span less
 *	two buckets (30 of 32 byte-format buckets); 0 selects
 *	%TP_HOT_DEFAULT_WINDOW_MS (3000), pghot's default
 * @bucket_shift: log2 of a time bucket in ticks, 0..40; 0 selects the
 *	smallest power of two of ticks that is at least 1/8 s (%TP_HOT_BYTE)
 *	or 1 ms (%TP_HOT_PRECISE), so the default window always fits
 */
struct tp_hot_cfg {
	uint32_t sz;
	uint32_t format;
	uint32_t tps;
	uint32_t freq_threshold;
	uint32_t window_ms;
	uint32_t bucket_shift;
};

/**
 * struct tp_hot - a validated record format (read-only after init)
 * @format: &enum tp_hot_format
 * @shift: log2 of a time bucket in ticks
 * @threshold: the count that makes a page ready
 * @window: the window in buckets
 */
struct tp_hot {
	uint32_t format;
	uint32_t shift;
	uint32_t threshold;
	uint32_t window;
};

/**
 * tp_hot_init() - validate a record format
 * @h: the format
 * @cfg: the settings
 *
 * Context: Any context, wait-free.
 * Return: 0, or -EINVAL (NULL argument, bad @sz, unknown format, bad
 * @tps, @freq_threshold or @bucket_shift) or -ERANGE (a window the format
 * cannot span); on error @h is untouched.
 */
TP_API int tp_hot_init(struct tp_hot *h, const struct tp_hot_cfg *cfg);

/**
 * tp_hot_record() - a record after one more access
 * @h: the format
 * @rec: the page's record (a byte in the low 8 bits for %TP_HOT_BYTE)
 * @nid: the accessing node, kept by %TP_HOT_PRECISE (0 if unknown; above
 *	%TP_HOT_NID_MAX it is stored as %TP_HOT_NID_MAX)
 * @now: the access time in ticks, not before the record's latest access:
 *	the record keeps a bucket modulo its span, so an access stamped in
 *	an earlier bucket (a late hardware sample, or two sources racing
 *	across a bucket's end in tp_hot_record32()) reads as a gap of almost
 *	the span, past the window, and the count restarts at 1. Sources
 *	pass the time they record at, as pghot does, not a sample's own.
 *
 * Context: Any context, wait-free.
 * Return: the new record; tp_hot_ready() tells whether it is ready.
 */
TP_API uint32_t tp_hot_record(const struct tp_hot *h, uint32_t rec,
			      uint32_t nid, uint64_t now);

/**
 * tp_hot_record32() - record an access in a shared 32-bit record
 * @h: the format
 * @rec: the page's record, updated with cmpxchg (any format: a byte
 *	record kept in a 32-bit word uses its low 8 bits)
 * @nid: the accessing node
 * @now: the access time in ticks
 *
 * Context: Any context, lock-free: at most %TP_RETRIES attempts when other
 * sources record the same page at the same moment; the access is then
 * dropped (a hotness record is a sample).
 * Return: true if the page is ready after this access.
 */
TP_API bool tp_hot_record32(const struct tp_hot *h, uint32_t *rec,
			    uint32_t nid, uint64_t now);

/**
 * tp_hot_ready() - is a page ready for promotion?
 * @h: the format
 * @rec: the page's record
 *
 * The ready bit does not age: an access past the window clears it (the
 * count starts again), time alone does not. A migration thread that looks
 * at a queued page again before moving it asks tp_hot_expired() too, so
 * that a page idle since it became ready stays where it is.
 *
 * Context: Any context, wait-free.
 * Return: true if the ready bit is set.
 */
TP_API bool tp_hot_ready(const struct tp_hot *h, uint32_t rec);

/**
 * tp_hot_expired() - is a record older than the window?
 * @h: the format
 * @rec: the page's record
 * @now: the current time in ticks
 *
 * For a periodic walk that clears stale records before their time field
 * wraps. An empty record is expired.
 *
 * Context: Any context, wait-free.
 * Return: true if the latest access lies outside the window.
 */
TP_API bool tp_hot_expired(const struct tp_hot *h, uint32_t rec, uint64_t now);

/**
 * tp_hot_nid() - the node that accessed the page last
 * @h: the format
 * @rec: the page's record
 *
 * Context: Any context, wait-free.
 * Return: the node of a %TP_HOT_PRECISE record; 0 for %TP_HOT_BYTE (the
 * caller's default promotion target, as pghot's default mode).
 */
TP_API uint32_t tp_hot_nid(const struct tp_hot *h, uint32_t rec);

/**
 * tp_hot_count() - accesses counted in the current window
 * @h: the format
 * @rec: the page's record
 *
 * Context: Any context, wait-free.
 * Return: the count field.
 */
TP_API uint32_t tp_hot_count(const struct tp_hot *h, uint32_t rec);

#ifdef __cplusplus
}
#endif

#endif /* TP_HOTNESS_H */
