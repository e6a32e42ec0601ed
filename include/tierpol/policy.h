/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The promotion decision pipeline (the 2020 RFC, patches 1/8 to 8/8; Linux
 * 6.1's should_numa_migrate_memory() for memory tiering; the 2026 bypass
 * knob), the watermark and demotion helpers, the scan filter, and the
 * pseudo-interleaving rules of Linux 3.15. docs/SOURCES.md cites them.
 *
 * Three objects:
 *  - &struct tp_policy: the system-wide settings (the sysctls), published
 *    as one unit by tp_policy_init() and tp_policy_tune() (a latch: two
 *    copies and a sequence count, so readers never wait and never mix two
 *    settings);
 *  - &struct tp_node: one per target (fast) node, the live state the kernel
 *    keeps in pglist_data: the rate limiter's, the threshold controller's
 *    and the shared candidate count; no settings;
 *  - &struct tp_node_cpu: one per CPU (kernel) or thread (userspace) and
 *    node: the statistics and the candidates not yet added to the node's
 *    count, as the kernel's per-CPU vmstat counters.
 *
 * tp_decide() is called once per hint fault on a page of a slower tier and
 * returns a verdict. The order of the checks (docs/decision.md walks it):
 *
 *   mode -> top tier -> free-space bypass -> accessed twice ->
 *   adaptive threshold update -> latency vs threshold -> rate limit -> room
 */
#ifndef TP_POLICY_H
#define TP_POLICY_H

#include <tierpol/types.h>
#include <tierpol/limiter.h>
#include <tierpol/threshold.h>

#ifdef __cplusplus
extern "C" {
#endif

/* NUMA balancing modes, OR-able (kernel.numa_balancing). */
/** NUMA balancing off */
#define TP_MODE_DISABLED	0x0U
/** NUMA_BALANCING_NORMAL: balancing across sockets */
#define TP_MODE_NORMAL		0x1U
/** NUMA_BALANCING_MEMORY_TIERING: hot-page promotion across tiers */
#define TP_MODE_TIERING		0x2U

/* Feature switches of &struct tp_policy_cfg, field flags. */
/** hot-page selection: compare the latency with the threshold (RFC 6/8) */
#define TP_POL_HOTNESS		0x1U
/** free-space bypass (RFC 2/8; switchable since the 2026 bypass knob) */
#define TP_POL_FREE_BYPASS	0x2U
/** promote only pages accessed in the previous scan period too (RFC 5/8) */
#define TP_POL_YOUNG		0x4U
/** double the threshold for write faults (RFC 7/8) */
#define TP_POL_WRITE_DOUBLE	0x8U
/** adapt the threshold to the rate limit (RFC 8/8) */
#define TP_POL_ADAPTIVE		0x10U
/** hot means latency < threshold (Linux 6.1); else latency <= threshold */
#define TP_POL_HOT_STRICT	0x20U
/** a rate limit of 0 means the target's high watermark per second (RFC) */
#define TP_POL_RL_WMARK_DEFAULT	0x40U
/** the bypass resets the adaptive threshold (Linux 6.1; needs the two) */
#define TP_POL_BYPASS_RESET	0x80U
/** latencies in hint faults (fclock.h); threshold: hot_threshold_faults */
#define TP_POL_LAT_FAULTS	0x100U
/** every defined switch */
#define TP_POL_ALL		0x1ffU

/** The fault-count clock's default hot threshold, in hint faults (RFC 2024). */
#define TP_DEFAULT_HOT_THRESHOLD_FAULTS	1000000ULL

/**
 * enum tp_wmark_variant - watermark formulas of the bypass and demotion
 * @TP_WMARK_RFC2020: the 2020 RFC, patches 2/8 and 3/8: bypass when free >
 *	high + 2 x rate limit; demotion frees up to high + rate limit
 * @TP_WMARK_LINUX61: Linux 6.1: bypass when free > promo + max(1 GiB,
 *	present / 16); demotion frees up to the promo watermark
 */
enum tp_wmark_variant {
	TP_WMARK_RFC2020 = 0,
	TP_WMARK_LINUX61 = 1,
};

/**
 * enum tp_preset - complete configurations
 * @TP_PRESET_RFC2020: the 2020 RFC v2 series, all eight patches
 * @TP_PRESET_LINUX61: Linux 6.1 and later, with the bypass knob on
 */
enum tp_preset {
	TP_PRESET_RFC2020 = 0,
	TP_PRESET_LINUX61 = 1,
};

/**
 * struct tp_policy_cfg - policy settings (the sysctls)
 * @sz: sizeof(struct tp_policy_cfg), for ABI growth (see docs/ABI.md);
 *	tp_policy_preset() fills it
 * @mode: TP_MODE_* flags, at most 0x3; 0 is off, as the sysctl
 * @flags: TP_POL_* switches
 * @tps: ticks per second of the caller's clock, 1..%TP_TPS_MAX; fixed at
 *	init
 * @page_shift: log2 of the base page size, 10..30; 0 selects 12 (4 KiB)
 * @hot_threshold_ms: hot threshold (numa_balancing_hot_threshold_ms); 0 is
 *	a threshold of 0, as the sysctl: nothing is hot under
 *	%TP_POL_HOT_STRICT, only a latency of 0 without it
 * @rate_limit_mbps: promotion rate limit in MB/s
 *	(numa_balancing_promote_rate_limit_MBps); 0 refuses every promotion
 *	that the limiter sees, as the sysctl, or means the target's high
 *	watermark per second with %TP_POL_RL_WMARK_DEFAULT (window limiters
 *	only: a per-fault rate would cost the bucket a division per fault),
 *	clamped to %TP_RATE_MAX (2^32) pages per second: above that watermark
 *	the limiter, the threshold's budget, the bypass mark and
 *	tp_demotion_target() all use 2^32. With pages above 1 MiB the pages
 *	per second are rounded down, but a non-zero limit is at least one
 *	page per second (never the meaning of 0)
 * @scan_period_max_ms: the threshold controller's period
 *	(numa_balancing_scan_period_max_ms); 0 closes a period at every tick,
 *	as the sysctl
 * @thresh_variant: &enum tp_thresh_variant
 * @limiter_variant: &enum tp_limiter_variant
 * @wmark_variant: &enum tp_wmark_variant
 * @cand_batch: candidates a &struct tp_node_cpu counts before adding them
 *	to the node's shared count (the kernel's vmstat threshold),
 *	0..%TP_CAND_BATCH_MAX; 0 and 1 add each at once. The window limiter
 *	and the threshold controller read the shared count, which lags the
 *	true one by at most (cand_batch - 1) pages per slot, plus the pages
 *	of a request that interrupted a call on the slot; it never leads.
 *	After a tune lowers it, a slot may still hold up to the old batch
 *	less one until its next count, which moves them (to 0 or 1: all).
 * @burst_pages: token bucket capacity in pages, 0..%TP_RATE_MAX; 0 selects
 *	one second of the rate. A request larger than the burst (a huge page)
 *	is admitted when the bucket is full.
 * @hot_threshold_faults: with %TP_POL_LAT_FAULTS, the hot threshold in hint
 *	faults, at most %TP_TIME_MAX; 0 selects
 *	%TP_DEFAULT_HOT_THRESHOLD_FAULTS (@hot_threshold_ms is then unused)
 *
 * Fields that mirror a kernel sysctl take the sysctl's meaning, 0
 * included; the others (@page_shift) use 0 for the default. The presets
 * fill every field.
 */
struct tp_policy_cfg {
	uint32_t sz;
	uint32_t mode;
	uint32_t flags;
	uint32_t tps;
	uint32_t page_shift;
	uint32_t hot_threshold_ms;
	uint32_t rate_limit_mbps;
	uint32_t scan_period_max_ms;
	uint32_t thresh_variant;
	uint32_t limiter_variant;
	uint32_t wmark_variant;
	uint32_t cand_batch;
	uint64_t burst_pages;
	uint64_t hot_threshold_faults;
};

/**
 * struct tp_policy_set - derived settings, one copy of the latch (private)
 * @lim: the rate limiter's settings (its limit is the policy's rate)
 * @th: the threshold controller's settings
 * @hot_th: the fixed hot threshold in ticks
 * @bypass_min: Linux 6.1's 1 GiB of free-space margin, in pages
 * @mode: TP_MODE_* flags
 * @flags: TP_POL_* switches
 * @wmark_variant: &enum tp_wmark_variant
 * @page_shift: log2 of the page size
 * @burst: the configured burst in pages (0: one second of the rate)
 * @fast: the decision specialised for these settings: a preset's, with
 *	the tiering mode on, or none (derived, for tp_decide())
 */
struct tp_policy_set {
	struct tp_limiter_set lim;
	struct tp_thresh_set th;
	uint64_t hot_th;
	uint64_t bypass_min;
	uint64_t burst;
	uint32_t mode;
	uint32_t flags;
	uint32_t wmark_variant;
	uint32_t page_shift;
	uint32_t fast;
};

/**
 * struct tp_policy - validated policy settings, shared by all nodes
 * @tps: ticks per second (fixed at init)
 * @shift: the token bucket's units per tick, log2 (fixed at init)
 * @stale: ticks after which an idle bucket is full again (fixed at init)
 * @latch: the sequence count of @set, the settings' two copies
 * @set: the settings, two copies
 *
 * Read-mostly; private. See tp_policy_tune().
 */
struct tp_policy {
	uint32_t tps;
	uint32_t shift;
	uint64_t stale;
	struct tp_latch latch;
	struct tp_policy_set set[2];
};

/* Flags of &struct tp_fault. */
/** the page's node is on the top tier: it has no promotion target */
#define TP_FAULT_TOPTIER	0x1U
/** the PTE was young: the page was accessed in the previous scan period */
#define TP_FAULT_YOUNG		0x2U
/** a write fault */
#define TP_FAULT_WRITE		0x4U

/**
 * struct tp_fault - one NUMA hint fault on a slow-tier page
 * @latency: hint-fault latency in ticks, from tp_scan_ring_latency() or
 *	tp_atime_fault(); %TP_LATENCY_UNKNOWN if none
 * @nr_pages: pages in the folio, 1..%TP_RATE_MAX (2^32; a THP counts all)
 * @flags: TP_FAULT_* flags
 */
struct tp_fault {
	uint64_t latency;
	uint64_t nr_pages;
	uint32_t flags;
};

/**
 * struct tp_node_mem - the target (fast) node's memory, in pages
 * @free: free pages
 * @wmark_min: min watermark
 * @wmark_low: low watermark
 * @wmark_high: high watermark
 * @wmark_promo: promo watermark (Linux 6.1's WMARK_PROMO). Kernels before
 *	6.1 have none: pass 0 and the high watermark stands for it, or
 *	compute the 6.1 value from /proc/zoneinfo with tp_wmark_promo()
 * @present: present pages (node_present_pages)
 *
 * Watermarks must be ordered min <= low <= high <= promo.
 *
 * One set of figures for the node. Linux 6.1's checks
 * (pgdat_free_space_enough(), migrate_balanced_pgdat()) test each zone of
 * the node with zone_watermark_ok() and pass when one zone does; that test
 * adds the zone's lowmem_reserve[ZONE_MOVABLE] to the watermark and
 * includes its boost. To decide as 6.1 on a node with several populated
 * zones, pass the zone with the most free pages above its watermarks
 * (normally ZONE_NORMAL on a DRAM node, ZONE_MOVABLE on a CXL or PMEM one),
 * with the reserve and the boost added to each watermark; node totals pass
 * the checks where no single zone would.
 */
struct tp_node_mem {
	uint64_t free;
	uint64_t wmark_min;
	uint64_t wmark_low;
	uint64_t wmark_high;
	uint64_t wmark_promo;
	uint64_t present;
};

/**
 * enum tp_verdict - tp_decide()'s answer
 * @TP_PROMOTE: promote: a hot candidate admitted by the rate limiter
 * @TP_PROMOTE_NRL: promote: free-space bypass, not rate limited
 * @TP_REFUSE_MODE: refuse: the tiering mode is off
 * @TP_REFUSE_TOPTIER: refuse: the page is already on the top tier
 * @TP_REFUSE_NOT_YOUNG: refuse: not accessed in the previous scan period
 * @TP_REFUSE_COLD: refuse: latency above the hot threshold (at or above it
 *	with %TP_POL_HOT_STRICT, as Linux 6.1), or %TP_LATENCY_UNKNOWN
 * @TP_REFUSE_RATELIMIT: refuse: over the promotion rate limit
 * @TP_REFUSE_NOSPACE: refuse: promoting would take the target below its
 *	high watermark; the caller should wake demotion (kswapd) on it
 * @TP_REFUSE_BUSY: refuse: the settings or the limiter kept changing under
 *	the call (%TP_RETRIES attempts); fails closed instead of waiting
 * @TP_NR_VERDICTS: number of verdicts
 *
 * tp_verdict_name() names them.
 */
enum tp_verdict {
	TP_PROMOTE = 0,
	TP_PROMOTE_NRL = 1,
	TP_REFUSE_MODE = 2,
	TP_REFUSE_TOPTIER = 3,
	TP_REFUSE_NOT_YOUNG = 4,
	TP_REFUSE_COLD = 5,
	TP_REFUSE_RATELIMIT = 6,
	TP_REFUSE_NOSPACE = 7,
	TP_REFUSE_BUSY = 8,
	TP_NR_VERDICTS = 9,
};

/**
 * tp_verdict_promotes() - does a verdict mean "migrate the page"?
 * @tp_v: an &enum tp_verdict
 *
 * Context: Any context, wait-free.
 * Return: true for %TP_PROMOTE and %TP_PROMOTE_NRL.
 */
static inline bool tp_verdict_promotes(int tp_v)
{
	return tp_v == TP_PROMOTE || tp_v == TP_PROMOTE_NRL;
}

/**
 * tp_verdict_name() - a verdict's name
 * @v: an &enum tp_verdict
 *
 * Context: Any context, wait-free.
 * Return: a static string such as "promote" or "refuse-cold";
 * "(unknown verdict)" for a value that is no verdict.
 */
TP_API const char *tp_verdict_name(int v);

/**
 * struct tp_node - per target node state (the kernel's pglist_data fields)
 * @lim: the rate limiter's live state
 * @cand: candidates (PGPROMOTE_CANDIDATE) added by the CPUs' slots: what
 *	the window limiter and the threshold controller count
 * @th: the threshold controller's live state
 * @th_raised: threshold raises
 * @th_lowered: threshold reductions
 *
 * Private. The limiter's state and the candidate count share a cache line,
 * the controller another: a rate-limited candidate reads both and writes
 * neither (unless it opens a window or adds its CPU's batch), an admitted
 * one writes the first. In the kernel, embed it in your per-node structure
 * (it is cache-line aligned); in userspace allocate it aligned.
 */
struct tp_node {
	struct tp_limiter_state lim;
	struct tp_atomic64 cand;
	struct tp_thresh_state th __attribute__((__aligned__(TP_CACHELINE_BYTES)));
	struct tp_atomic64 th_raised;
	struct tp_atomic64 th_lowered;
} TP_CACHELINE_ALIGNED;

/** Room for verdicts in the statistics: 1.x may add up to this many. */
#define TP_VERDICT_SLOTS	16U
/** The slot counter of refusals for room on the bypass path (private). */
#define TP_NODE_NOSPACE_NRL	TP_VERDICT_SLOTS
/** The slot counter of candidates refused as busy by the limiter (private). */
#define TP_NODE_BUSY_CAND	(TP_VERDICT_SLOTS + 1)
/** Counters per slot (private). */
#define TP_NODE_NR_COUNTERS	(TP_VERDICT_SLOTS + 2)

/**
 * struct tp_node_cpu - one CPU's (or thread's) counters for one node
 * @cand: candidates counted here and not yet added to &tp_node.cand
 * @nr: pages per verdict, then the bypass refusals for room and the busy
 *	candidates (%TP_NODE_NR_COUNTERS in all); every decision adds its
 *	pages to exactly one of them
 * @th: latency bins of %TP_THRESH_HISTOGRAM not yet added to the node's
 *	shared bins
 *
 * Zero-filled memory aligned to %TP_CACHELINE_BYTES is a ready slot: in
 * the kernel alloc_percpu(); in userspace a static or automatic variable,
 * aligned_alloc() or posix_memalign() then memset(), or C++17 new with
 * an initializer: new tp_node_cpu() zero-fills, and an array new with ()
 * too; without the parentheses the slot is not initialised. Not calloc()
 * or malloc(), nor new before C++17: they align to 16 bytes, and a slot
 * off its alignment is undefined behaviour. Each slot
 * is written by one CPU (kernel: tp_decide() with preemption disabled, on
 * this_cpu_ptr()) or one thread (userspace) at a time; an interrupt or a
 * signal handler on that CPU or thread may decide on it too. Any CPU may
 * read it (tp_node_stats_add()). Cache-line aligned. Private fields.
 *
 * A slot lives as long as its node, as &struct tp_limiter_cpu says: it
 * holds candidates the node's count has not seen and its share of the
 * statistics. Pool the slots of a program whose threads come and go, and
 * give an exiting thread's slot to the next one; freeing it loses both.
 */
struct tp_node_cpu {
	struct tp_local64 cand;
	struct tp_local64 nr[TP_NODE_NR_COUNTERS];
	struct tp_thresh_cpu th;
} TP_CACHELINE_ALIGNED;

/**
 * struct tp_node_stats - a node's statistics, in pages
 * @verdict: pages per &enum tp_verdict, indexable by verdict (entries
 *	from %TP_NR_VERDICTS up are 0: room for later verdicts)
 * @nospace_nrl: of @verdict[%TP_REFUSE_NOSPACE], those on the free-space
 *	bypass path
 * @candidate: passed the hotness check (PGPROMOTE_CANDIDATE: promoted,
 *	rate limited, refused for room or busy after the check)
 * @candidate_nrl: took the free-space bypass (PGPROMOTE_CANDIDATE_NRL)
 * @success: verdicts to promote (the kernel counts the migrations that
 *	then succeed)
 * @decided: every page of every decision, once
 * @cand_shared: the node's shared candidate count (what the limiter and
 *	the controller see): at most the candidates the slots counted, once
 *	the decisions in flight have counted their verdicts (a decision adds
 *	its candidate pages before its verdict)
 * @th_raised: threshold raises
 * @th_lowered: threshold reductions
 * @threshold: the current hot threshold in ticks (0 if the settings kept
 *	changing while tp_node_stats_read() read them)
 *
 * Every figure is a sum of counters that only grow: a snapshot taken while
 * decisions run may miss the latest ones, but no figure can be negative and
 * @decided is the sum of @verdict.
 */
struct tp_node_stats {
	uint64_t verdict[TP_VERDICT_SLOTS];
	uint64_t nospace_nrl;
	uint64_t candidate;
	uint64_t candidate_nrl;
	uint64_t success;
	uint64_t decided;
	uint64_t cand_shared;
	uint64_t th_raised;
	uint64_t th_lowered;
	uint64_t threshold;
};

/**
 * tp_policy_preset() - fill a configuration with a preset
 * @cfg: the configuration to fill (every field is written, @sz too)
 * @preset: &enum tp_preset
 * @tps: ticks per second of the caller's clock
 *
 * %TP_PRESET_RFC2020: tiering mode, hotness, bypass, young check, write
 * doubling, adaptive threshold with the RFC's bounds, "latency > threshold
 * is cold", the per-second window with "> limit", rate limit 0 = high
 * watermark, the RFC's watermark formulas. %TP_PRESET_LINUX61: tiering
 * mode, hotness, bypass that resets the threshold, adaptive threshold with
 * 6.1's bounds, "latency >= threshold is cold", the window with ">= limit",
 * 65536 MB/s, promo watermark formulas; no young check, no write doubling.
 * Both: 1000 ms threshold, 60000 ms period, 4 KiB pages, a candidate batch
 * of %TP_DEFAULT_CAND_BATCH.
 *
 * Context: Any context, wait-free.
 * Return: 0, or -EINVAL for a NULL @cfg or an unknown preset (@cfg is then
 * untouched). @tps is checked by tp_policy_init().
 */
TP_API int tp_policy_preset(struct tp_policy_cfg *cfg, uint32_t preset,
			    uint32_t tps);

/**
 * tp_policy_init() - validate settings into a policy
 * @pol: the policy
 * @cfg: the settings, validated completely before anything is written
 *
 * Context: Any context, wait-free. Not concurrently with other calls using
 * @pol (use tp_policy_tune() on a live policy).
 * Return: 0; -EINVAL for a NULL argument, a bad @sz, a mode above 3,
 * unknown flags or variants, a bad @tps, @page_shift or @cand_batch,
 * switches that need %TP_POL_HOTNESS without it, %TP_POL_BYPASS_RESET
 * without the bypass and the adaptive threshold, or
 * %TP_POL_RL_WMARK_DEFAULT with the token bucket; -ERANGE for a rate limit
 * above %TP_RATE_MAX pages per second, a burst above %TP_RATE_MAX or one
 * the bucket cannot hold, or a @hot_threshold_faults above %TP_TIME_MAX
 * with %TP_POL_LAT_FAULTS. On error @pol is untouched.
 */
TP_API int tp_policy_init(struct tp_policy *pol,
			  const struct tp_policy_cfg *cfg);

/**
 * tp_policy_tune() - publish new settings of a live policy (a sysctl write)
 * @pol: the policy
 * @cfg: the new settings, validated as in tp_policy_init(); @tps must be
 *	the one given at init
 *
 * Decisions running concurrently use the old or the new settings, never a
 * mix; a decision that read them before the tune may still be decided,
 * counted and rate limited under the old ones (one request per CPU). The
 * nodes' state is kept and keeps its meaning (see limiter.h and
 * threshold.h). If the tune switched %TP_MODE_TIERING on, call
 * tp_node_reset() on every node, as the kernel's sysctl handler calls
 * reset_memory_tiering().
 *
 * Context: Any context, wait-free; callers serialize tunes of @pol. Safe in
 * an interrupt or signal handler that interrupted a decision.
 * Return: as tp_policy_init(), and -EINVAL for a different @tps; on error
 * nothing changes.
 */
TP_API int tp_policy_tune(struct tp_policy *pol,
			  const struct tp_policy_cfg *cfg);

/**
 * tp_node_init() - initialise a target node's state
 * @node: the node
 * @pol: the policy
 * @now: the current time in ticks
 *
 * The bucket starts full and the controller's first period starts at @now.
 * The window starts expired, as the kernels' at boot (the 2020 RFC's
 * pgdat->numa_ts and Linux 6.1's pgdat->nbp_rl_start are 0, and
 * reset_memory_tiering() leaves them): the node's first candidate opens
 * it at its own time and is not counted in it (unless its slot still
 * holds its pages under a batch), and the windows follow that candidate,
 * not @now. tp_node_reset() leaves the window alone too.
 *
 * Context: Any context, wait-free. Not concurrently with other calls on @node.
 * Return: 0, or -EINVAL for a NULL argument or a @pol that tp_policy_init()
 * did not fill (a zero-filled one, say); on error @node is left untouched.
 */
TP_API int tp_node_init(struct tp_node *node, const struct tp_policy *pol,
			uint64_t now);

/**
 * tp_node_reset() - restart a node's threshold controller
 * @node: the node
 * @now: the current time in ticks
 *
 * The kernel's reset_memory_tiering(), for when the tiering mode has just
 * been switched on: the controller forgets its adjusted threshold and
 * starts a new period at @now from the current candidate count.
 *
 * Context: Any context, wait-free, concurrently with decisions.
 */
TP_API void tp_node_reset(struct tp_node *node, uint64_t now);

/**
 * tp_decide() - decide whether to promote the page of a hint fault
 * @pol: the policy
 * @node: the target (fast) node's state
 * @cpu: the calling CPU's (or thread's) slot for @node
 * @f: the fault
 * @mem: the target node's free pages and watermarks
 * @now: the fault time in ticks
 *
 * Every call with valid arguments is counted exactly once, in @cpu, with
 * @f->nr_pages pages under its verdict. The rate a threshold period is
 * judged against is the one in force for the fault that closes it.
 *
 * Context: Any context that owns @cpu (see &struct tp_node_cpu; in the
 * kernel, preemption disabled), concurrently with itself on any nodes and
 * with tp_policy_tune(). Wait-free but for bounded retries: at most
 * %TP_RETRIES attempts to read the settings and to update the token
 * bucket, then %TP_REFUSE_BUSY.
 * Return: an &enum tp_verdict, or -EINVAL (@nr_pages 0 or above
 * %TP_RATE_MAX, or watermarks out of order), in which case nothing is
 * counted. A NULL pointer is a violation of the caller's contract, not
 * checked on this path (TP_ASSERT(); see tierpol.h).
 */
TP_API int tp_decide(const struct tp_policy *pol, struct tp_node *node,
		     struct tp_node_cpu *cpu, const struct tp_fault *f,
		     const struct tp_node_mem *mem, uint64_t now);

/**
 * tp_node_stats_read() - start a snapshot of a node's statistics
 * @pol: the policy
 * @node: the node
 * @stats: where to store the snapshot: the node-wide figures, and the
 *	per-slot figures zeroed; add each slot with tp_node_stats_add()
 *
 * Context: Any context, lock-free (at most %TP_RETRIES attempts to read
 * the settings; if they all fail, @stats->threshold is 0).
 */
TP_API void tp_node_stats_read(const struct tp_policy *pol,
			       const struct tp_node *node,
			       struct tp_node_stats *stats);

/**
 * tp_node_stats_add() - fold one slot into a snapshot
 * @stats: a snapshot started by tp_node_stats_read()
 * @cpu: a slot of the node (every CPU's, in the kernel:
 *	for_each_possible_cpu() with per_cpu_ptr())
 *
 * Context: Any context, wait-free, concurrently with decisions on @cpu.
 */
TP_API void tp_node_stats_add(struct tp_node_stats *stats,
			      const struct tp_node_cpu *cpu);

/**
 * tp_free_space_enough() - would the free-space bypass apply?
 * @pol: the policy
 * @mem: the node's memory
 *
 * The 2020 RFC: free > high + 2 x rate limit pages. Linux 6.1: free > promo
 * + max(1 GiB, present / 16). Strictly greater, as zone_watermark_ok().
 *
 * Context: Any context, lock-free.
 * Return: true if the node has room enough to skip the hotness checks
 * (false if the settings kept changing).
 */
TP_API bool tp_free_space_enough(const struct tp_policy *pol,
				 const struct tp_node_mem *mem);

/**
 * tp_promote_room() - may @nr pages be migrated to the node?
 * @mem: the node's memory
 * @nr: pages to migrate
 *
 * The kernel's migrate_balanced_pgdat(): free > high + @nr.
 *
 * Context: Any context, wait-free.
 * Return: true if the node stays above its high watermark.
 */
TP_API bool tp_promote_room(const struct tp_node_mem *mem, uint64_t nr);

/**
 * tp_demotion_target() - free pages demotion should reach on a fast node
 * @pol: the policy
 * @mem: the node's memory
 *
 * kswapd demotes until free pages exceed this: the 2020 RFC (patch 3/8)
 * high + rate limit pages, Linux 6.1 the promo watermark (the high one
 * when @mem has none), when the tiering mode is on; otherwise the high
 * watermark.
 *
 * Context: Any context, lock-free (at most %TP_RETRIES attempts to read
 * the settings).
 * Return: the target in pages; the high watermark if the settings kept
 * changing.
 */
TP_API uint64_t tp_demotion_target(const struct tp_policy *pol,
				   const struct tp_node_mem *mem);

/**
 * tp_wmark_promo() - Linux 6.1's promo watermark of a zone
 * @wmark_min: min watermark
 * @wmark_high: high watermark
 * @managed: managed pages
 * @scale_factor: vm.watermark_scale_factor (default 10, units of 0.01 %)
 *
 * high + max(min / 4, managed * scale_factor / 10000), as
 * __setup_per_zone_wmarks() computes it. With /proc/zoneinfo of a kernel
 * before 6.1 this gives what 6.1 would use.
 *
 * Context: Any context, wait-free.
 * Return: the promo watermark in pages.
 */
TP_API uint64_t tp_wmark_promo(uint64_t wmark_min, uint64_t wmark_high,
			       uint64_t managed, uint32_t scale_factor);

/**
 * tp_scan_wanted() - should the scanner mark a page for hint faults?
 * @pol: the policy
 * @toptier: the page is on a top-tier node
 *
 * The 2020 RFC, patch 4/8: with the normal-balancing bit off, top-tier pages
 * have nowhere to be promoted, so they are not scanned. Mode 0 scans
 * nothing.
 *
 * Context: Any context, lock-free.
 * Return: true if the page should get a hint-fault PTE (false if the
 * settings kept changing).
 */
TP_API bool tp_scan_wanted(const struct tp_policy *pol, bool toptier);

/*
 * Pseudo-interleaving rules (Linux 3.15) for NUMA groups. Node masks are
 * arrays of unsigned long bits, as the kernel's nodemask_t, of any size.
 */

/**
 * enum tp_group_variant - pseudo-interleaving rule set
 * @TP_GROUP_LINUX315: as merged in Linux 3.15 (Rik van Riel, 2014)
 * @TP_GROUP_LINUX61: Linux 6.1
 */
enum tp_group_variant {
	TP_GROUP_LINUX315 = 0,
	TP_GROUP_LINUX61 = 1,
};

/**
 * struct tp_group_fault - a hint fault seen by the task placement code
 * @cpu_node: node of the faulting CPU
 * @mem_node: node of the page
 * @local: the fault is local (TNF_FAULT_LOCAL)
 * @priv: the fault is private to the task
 * @in_group: the task belongs to a NUMA group
 */
struct tp_group_fault {
	uint32_t cpu_node;
	uint32_t mem_node;
	bool local;
	bool priv;
	bool in_group;
};

/**
 * tp_group_fault_local() - does a fault count as local?
 * @variant: &enum tp_group_variant; an unknown value acts as
 *	%TP_GROUP_LINUX315
 * @f: the fault
 * @active: the group's active nodes, at least @nbits bits; NULL is empty
 * @nbits: bits in @active
 *
 * Linux 3.15: a shared fault wholly within the group's active nodes counts
 * as local. Linux 6.1 also requires more than one active node.
 *
 * Context: Any context, wait-free.
 * Return: true if the fault counts as local; bad node numbers are simply
 * not in the mask.
 */
TP_API bool tp_group_fault_local(uint32_t variant,
				 const struct tp_group_fault *f,
				 const unsigned long *active, uint32_t nbits);

/**
 * tp_migrate_retry_interval() - when to retry moving a task to its node
 * @scan_period: the task's scan period in ticks
 * @tps: ticks per second
 *
 * Linux 3.15: min(1 s, scan_period / 16). Never 0: the original gives 0 for
 * a scan period under 16 jiffies, i.e. a retry on every tick.
 *
 * Context: Any context, wait-free.
 * Return: the interval in ticks, at least 1.
 */
TP_API uint64_t tp_migrate_retry_interval(uint64_t scan_period, uint32_t tps);

/**
 * tp_preferred_node() - the preferred node to set after a task migration
 * @variant: &enum tp_group_variant; an unknown value acts as
 *	%TP_GROUP_LINUX315
 * @in_group: the task belongs to a NUMA group
 * @dst_node: the node the task moved to (-1 if no CPU was found)
 * @src_node: the node the task came from
 * @active: the group's active nodes, at least @nbits bits; NULL is empty
 * @nbits: bits in @active
 *
 * Linux 3.15: set it to @dst_node only for a task in a group moving to one
 * of the group's active nodes. Linux 6.1: for a task in a group, the node
 * of the best CPU, or @src_node when none was found.
 *
 * Context: Any context, wait-free.
 * Return: the node to record as preferred, or -1 to leave it unchanged.
 */
TP_API int tp_preferred_node(uint32_t variant, bool in_group, int dst_node,
			     int src_node, const unsigned long *active,
			     uint32_t nbits);

#ifdef __cplusplus
}
#endif

#endif /* TP_POLICY_H */
