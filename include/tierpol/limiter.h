/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Promotion rate limiter: the 2020 RFC's per-second window (patch 2/8),
 * Linux 6.1's numa_promotion_rate_limit(), and a token bucket.
 *
 * Three variants behind one object, chosen by &struct tp_limiter_cfg:
 *
 * %TP_LIMITER_BUCKET - a token bucket of @burst pages refilled at @rate pages
 * per second, kept as a GCRA "theoretical arrival time" (TAT) in one
 * cmpxchg'd word, so concurrent callers need no lock. Time is counted in
 * fixed units of 2^-k tick (k chosen from the clock at init, about 2^48
 * units per second), so a change of rate never changes the units of the
 * live state, and a page costs ceil(units per second / rate) units: the
 * bucket admits at most @rate pages per second, and at least
 * rate x (1 - 2^-16) (1 - 2^-24 up to 2^24 pages per second). A request is
 * admitted when the bucket holds it; a request larger than the burst (a
 * huge page) is admitted when the bucket is full, and the bucket then owes
 * it.
 *
 * Bound of the bucket: over any interval of T seconds that contains every
 * admitting caller's @now, admitted pages <= max(burst, n) + rate x T,
 * n the largest request, racing callers included (every admission is one
 * successful cmpxchg). A bucket idle for longer than 2^61 units (4096 to
 * 8192 seconds, as the clock's ticks round to units; 8192 for a clock of a
 * power of two ticks a second) is full again (the TAT is then known to be
 * stale, whatever the gap); the callers racing to take it right after such
 * a gap may each admit one request more than the bound. One case escapes that: the TAT counts 2^48
 * to 2^49 units a second modulo 2^64, so after a gap within the burst of a
 * multiple of 2^64 units (9 to 18 hours, to the unit), the admissions
 * that follow can bring it back to the very value a racing caller read
 * before them; that caller's cmpxchg then succeeds and replaces them (an
 * ABA): up to a burst more (tests/model/bucket.pml, -DABA).
 *
 * %TP_LIMITER_WINDOW_RFC2020 - the 2020 RFC's window: every request is
 * counted first (admitted or not); when more than one second passed since
 * the window start, the first caller to cmpxchg the start opens a new
 * window and takes the count as its base; a request is refused when
 * count - base > limit. %TP_LIMITER_WINDOW_LINUX61 - the same with
 * ">= limit" (Linux 6.1). The window is expired at init, as the kernels'
 * is at boot (the RFC's pgdat->numa_ts and 6.1's pgdat->nbp_rl_start
 * start at 0): the first request opens the first window at its own time,
 * and the windows' boundaries follow it, not the init. With per-CPU slots
 * (&struct tp_limiter_cpu) each CPU adds up to @cand_batch - 1 pages to the
 * shared count late, as the kernel's vmstat counters do. Bound of both:
 * each window admits at most limit + C x (n + cand_batch - 1) pages, n the
 * largest request and C the requests that can be in flight at once (one per
 * slot, one more per handler interrupting a call on its slot): a late fold
 * hides up to cand_batch - 1 pages per slot, and a request counted before a
 * new window's base was taken but compared after it is admitted for free
 * (the kernel's window does the same; tests/model/window.pml). A window
 * lasts more than one second, so over T seconds (the span of the callers'
 * @now) admitted <= (T + 2) x (limit + C x (n + cand_batch - 1)).
 *
 * Settings and state are apart. A tune publishes new settings as one unit
 * (a latch: two copies and a sequence count); a caller reads one copy whole
 * or retries, so it never combines two settings, and the live state never
 * changes meaning: the bucket's TAT is in clock units whatever the rate (a
 * tune keeps the time the bucket needs to refill), the windows keep their
 * count. A call that read the settings just before a tune may still admit
 * one request at the old price or limit: that is the whole one-off error of
 * a tune that keeps the variant. A tune that changes the variant hands over
 * to the other variant's own state, as it was when that variant was last in
 * force (a bucket idle since is full, an old window or one never used since
 * init reopens; under tp_decide() the window's count is the node's
 * candidate count, which every variant adds to, so the candidates of a
 * bucket stretch count against a window that reopens within its second: it
 * refuses more, never admits more): over an interval that spans such
 * changes, the pages admitted are bounded by the sum of each variant's
 * bound over its own stretches, not by one bucket's or one window's. The
 * clock (@tps) cannot change.
 */
#ifndef TP_LIMITER_H
#define TP_LIMITER_H

#include <tierpol/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * enum tp_limiter_variant - rate limiter algorithm
 * @TP_LIMITER_BUCKET: token bucket (GCRA in one cmpxchg'd word)
 * @TP_LIMITER_WINDOW_RFC2020: the 2020 RFC's per-second window, refuse when
 *	count - base > limit
 * @TP_LIMITER_WINDOW_LINUX61: Linux 6.1's per-second window, refuse when
 *	count - base >= limit
 */
enum tp_limiter_variant {
	TP_LIMITER_BUCKET = 0,
	TP_LIMITER_WINDOW_RFC2020 = 1,
	TP_LIMITER_WINDOW_LINUX61 = 2,
};

/**
 * struct tp_limiter_cfg - rate limiter settings
 * @sz: sizeof(struct tp_limiter_cfg), for ABI growth (see docs/ABI.md)
 * @variant: &enum tp_limiter_variant
 * @tps: ticks per second of the caller's clock, 1..%TP_TPS_MAX; fixed at
 *	init (a tune must give the same value)
 * @cand_batch: windows: pages a per-CPU slot counts before it adds them to
 *	the shared count, 0..%TP_CAND_BATCH_MAX; 0 and 1 add every request at
 *	once (exact, one shared atomic per request; after a tune lowered
 *	the batch to them, a slot's first request adds what it held too)
 * @rate: pages per second (the window's limit per window), 0..%TP_RATE_MAX;
 *	0 refuses every request, as the kernel's rate limit of 0 does
 * @burst: bucket capacity in pages, 0..%TP_RATE_MAX; 0 selects @rate (one
 *	second's worth, the window's budget). The bucket must be able to hold
 *	it: burst x ceil(units a second / rate) at most 2^61 units, i.e.
 *	burst / rate at most 4096 to 8192 seconds, by clock (-ERANGE
 *	otherwise).
 *	Ignored by the window variants, which still refuse a value above
 *	%TP_RATE_MAX.
 */
struct tp_limiter_cfg {
	uint32_t sz;
	uint32_t variant;
	uint32_t tps;
	uint32_t cand_batch;
	uint64_t rate;
	uint64_t burst;
};

/**
 * struct tp_limiter_set - derived settings, one copy of the latch (private)
 * @cost: bucket: units per page; 0 refuses every request
 * @tau: bucket: capacity in units
 * @n_max: bucket: the largest request it can price
 * @limit: windows: pages per window
 * @variant: &enum tp_limiter_variant
 * @batch: windows: per-CPU batch (at least 1)
 */
struct tp_limiter_set {
	uint64_t cost;
	uint64_t tau;
	uint64_t n_max;
	uint64_t limit;
	uint32_t variant;
	uint32_t batch;
};

/**
 * struct tp_limiter_state - live state of a limiter (private)
 * @tat: bucket: theoretical arrival time in units (cmpxchg'd)
 * @fresh: bucket: the time of the latest admission, in ticks
 * @start: windows: start of the current window, in ticks (cmpxchg'd)
 * @base: windows: the shared count when the window opened
 *
 * The variants keep apart fields: a change of variant never reinterprets
 * live state.
 */
struct tp_limiter_state {
	struct tp_atomic64 tat;
	struct tp_atomic64 fresh;
	struct tp_atomic64 start;
	struct tp_atomic64 base;
};

/**
 * struct tp_limiter - a promotion rate limiter (one per target node)
 * @st: live state
 * @count: windows: pages counted so far (the folded per-CPU counts)
 * @tps: ticks per second (fixed at init)
 * @shift: units per tick, as a power of two (fixed at init)
 * @stale: ticks after which an idle bucket's TAT is stale (fixed at init)
 * @latch: the sequence count of @set, the settings' two copies
 * @set: the settings, two copies (see tp_limiter_tune())
 *
 * All fields are private.
 */
struct tp_limiter {
	struct tp_limiter_state st;
	struct tp_atomic64 count;
	uint32_t tps;
	uint32_t shift;
	uint64_t stale;
	struct tp_latch latch;
	struct tp_limiter_set set[2];
};

/**
 * struct tp_limiter_cpu - one CPU's (or thread's) slot of a limiter
 * @diff: windows: pages counted here and not yet added to the shared count
 * @busy: requests refused because the state kept changing under the caller
 *	(%TP_RETRIES attempts); see tp_limiter_busy()
 *
 * Zero-filled memory is a ready slot (alloc_percpu(), calloc()). Each slot
 * is updated by one CPU (kernel: with preemption disabled) or one thread
 * (userspace) at a time; interrupts or signal handlers on that CPU or
 * thread may use it too. Private fields.
 *
 * A slot lives as long as its limiter: it may hold up to @cand_batch - 1
 * pages the shared count has not seen, and nothing moves them but the
 * slot's own next request. A program whose threads come and go keeps its
 * slots in a pool and gives an exiting thread's slot to the next thread: a
 * slot freed or zeroed drops its pages, and the bound above counts every
 * slot ever used, so 1000 short-lived threads with a slot each can each
 * be admitted @cand_batch - 1 pages uncounted. (The kernel's per-CPU slots
 * stay while their CPU is offline.)
 */
struct tp_limiter_cpu {
	struct tp_local64 diff;
	struct tp_local64 busy;
};

/**
 * tp_limiter_init() - initialise a rate limiter
 * @l: the limiter
 * @cfg: settings, validated completely before anything is written
 * @now: the current time in ticks
 *
 * The bucket starts full. The window starts expired (its start more than
 * a second before @now, at any clock value), as the kernels' window at
 * boot: the first request opens it at its own time and is not counted in
 * it (its pages are in the base it takes, unless its slot still holds
 * them under a batch); tp_limiter_available() gives the limit until then.
 *
 * Context: Any context, wait-free. Not concurrently with other calls on @l.
 * Return: 0, or -EINVAL (NULL argument, bad @sz, unknown variant, @tps 0 or
 * above %TP_TPS_MAX, @cand_batch above %TP_CAND_BATCH_MAX) or -ERANGE
 * (@rate or @burst above %TP_RATE_MAX, a burst the bucket cannot hold); on
 * error @l is left untouched.
 */
TP_API int tp_limiter_init(struct tp_limiter *l,
			   const struct tp_limiter_cfg *cfg, uint64_t now);

/**
 * tp_limiter_tune() - publish new settings of a running limiter
 * @l: an initialised limiter
 * @cfg: new settings, validated as in tp_limiter_init(); @tps must be the
 *	one given at init
 *
 * Changes rate, burst, batch or variant. The state is kept: a bucket keeps
 * the time it needs to refill (the pages it owes scale with the rate), a
 * window keeps its count and start. Concurrent callers see the old or the
 * new settings, never a mix; a call that read them before the tune may
 * admit one request under the old ones.
 *
 * Context: Any context, wait-free; callers serialize tunes of @l. Safe in
 * an interrupt or signal handler that interrupted a call on @l.
 * Return: 0; -EINVAL or -ERANGE as tp_limiter_init(), and -EINVAL for a
 * different @tps; on error nothing changes.
 */
TP_API int tp_limiter_tune(struct tp_limiter *l,
			   const struct tp_limiter_cfg *cfg);

/**
 * tp_limiter_consume() - ask to promote @n pages now
 * @l: the limiter
 * @cpu: the caller's slot, or NULL (windows: count at once, exactly)
 * @n: pages requested (a THP counts all its pages); 0 is always admitted
 * @now: the current time in ticks
 *
 * A bucket admits all @n pages or none, never more than the n_max of its
 * settings (&struct tp_limiter_set). The windows count @n before deciding;
 * they refuse a request of more than %TP_RATE_MAX pages (2^32, more than
 * any folio) without counting it, so that no request wraps their count.
 *
 * Context: Any context that owns @cpu (in the kernel, preemption disabled
 * or the slot otherwise the caller's alone; any context with @cpu NULL),
 * lock-free with at most %TP_RETRIES attempts: when the state or the
 * settings keep changing under it, it refuses (fail closed) and counts the
 * refusal in @cpu's busy counter; with @cpu NULL the refusal is not
 * counted.
 * Return: true if the pages are admitted.
 */
TP_API bool tp_limiter_consume(struct tp_limiter *l, struct tp_limiter_cpu *cpu,
			       uint64_t n, uint64_t now);

/**
 * tp_limiter_available() - the limiter's budget left now
 * @l: the limiter
 * @now: the current time in ticks
 *
 * For monitoring and tests; uses a division.
 *
 * %TP_LIMITER_BUCKET: the bucket's whole tokens.
 *
 * The windows: in an open window, the limit minus the pages counted since
 * it opened, as the shared count sees them (0 once they reach the limit).
 * In an open window, a request of n pages made now is admitted when
 * n <= this value under %TP_LIMITER_WINDOW_RFC2020 (refused when
 * count - base > limit), but only when n < this value under
 * %TP_LIMITER_WINDOW_LINUX61 (refused when count - base >= limit): for
 * Linux 6.1 the value is one page more than the window admits. For a
 * window that has expired (more than one second since it opened), and
 * right after init (the window starts expired), the limit: the request
 * that opens the next window is admitted whatever its size (with a limit
 * above 0) and not counted in it, so with single pages the RFC's window
 * then admits the opener and the limit, 6.1's the opener and limit - 1 (a
 * limit of 0 refuses everything).
 *
 * Context: Any context, lock-free. The answer may be stale by the time it
 * returns.
 * Return: as above; 0 if the settings kept changing.
 */
TP_API uint64_t tp_limiter_available(const struct tp_limiter *l, uint64_t now);

/**
 * tp_limiter_busy() - requests a slot refused for contention
 * @cpu: a slot
 *
 * Context: Any context, wait-free.
 * Return: the count since the slot was zeroed.
 */
TP_API uint64_t tp_limiter_busy(const struct tp_limiter_cpu *cpu);

/**
 * tp_mbps_to_pages() - convert MB/s to pages per second
 * @tp_mbps: megabytes (2^20 bytes) per second
 * @tp_page_shift: log2 of the page size, 0..63
 *
 * The kernel's MB_TO_PAGES() (an open-coded shift in Linux 6.1) shifts
 * the sysctl, an unsigned int, so it wraps at 2^24 MB/s with 4 KiB pages
 * on 64-bit kernels too; this saturates at 2^64 - 1 instead, and handles
 * pages larger than 1 MiB.
 *
 * Context: Any context, wait-free.
 * Return: pages per second.
 */
static inline uint64_t tp_mbps_to_pages(uint64_t tp_mbps,
					uint32_t tp_page_shift)
{
	uint32_t tp_s;

	if (tp_page_shift >= 20)
		return tp_page_shift - 20 >= 64 ? 0 :
		       tp_mbps >> (tp_page_shift - 20);
	tp_s = 20 - tp_page_shift;
	if (tp_mbps > (~0ULL >> tp_s))
		return ~0ULL;
	return tp_mbps << tp_s;
}

#ifdef __cplusplus
}
#endif

#endif /* TP_LIMITER_H */
