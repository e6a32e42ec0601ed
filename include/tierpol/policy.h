/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The promotion decision pipeline (seed 000 patches 1-8, seed 002, mainline
 * should_numa_migrate_memory() for memory tiering), the watermark and
 * demotion helpers, the scan filter, and seed 001's pseudo-interleaving
 * rules.
 *
 * A &struct tp_policy holds the system-wide settings (the sysctls); a
 * &struct tp_node holds what the kernel keeps per target node in
 * pglist_data: the rate limiter, the threshold controller, the candidate
 * counter and the statistics. tp_decide() is called once per hint fault on
 * a page of a slower tier and returns a verdict with its reason. The order of
 * the checks (docs/decision.md walks it with every formula):
 *
 *   mode -> top tier -> free-space bypass -> accessed twice ->
 *   adaptive threshold update -> latency vs threshold -> rate limit -> room
 */
#ifndef _TIERPOL_POLICY_H
#define _TIERPOL_POLICY_H

#include <tierpol/types.h>
#include <tierpol/limiter.h>
#include <tierpol/threshold.h>

/* NUMA balancing modes, OR-able (kernel.numa_balancing, seed 000 1/8). */
/** NUMA balancing off */
#define TP_MODE_DISABLED	0x0U
/** NUMA_BALANCING_NORMAL: balancing across sockets */
#define TP_MODE_NORMAL		0x1U
/** NUMA_BALANCING_MEMORY_TIERING: hot-page promotion across tiers */
#define TP_MODE_TIERING		0x2U

/* Feature switches of &struct tp_policy_cfg, field flags. */
/** hot-page selection: compare the latency with the threshold (000 6/8) */
#define TP_POL_HOTNESS		0x1U
/** free-space bypass (000 2/8; switchable since seed 002) */
#define TP_POL_FREE_BYPASS	0x2U
/** promote only pages accessed in the previous scan period too (000 5/8) */
#define TP_POL_YOUNG		0x4U
/** double the threshold for write faults (000 7/8) */
#define TP_POL_WRITE_DOUBLE	0x8U
/** adapt the threshold to the rate limit (000 8/8) */
#define TP_POL_ADAPTIVE		0x10U
/** hot means latency < threshold (mainline); else latency <= threshold */
#define TP_POL_HOT_STRICT	0x20U
/** a rate limit of 0 means the target's high watermark per second */
#define TP_POL_RL_WMARK_DEFAULT	0x40U
/** the bypass resets the adaptive threshold (mainline; needs the two) */
#define TP_POL_BYPASS_RESET	0x80U
/** every defined switch */
#define TP_POL_ALL		0xffU

/**
 * enum tp_wmark_variant - watermark formulas of the bypass and demotion
 * @TP_WMARK_SEED: seed 000 2/8 and 3/8: bypass when free > high + 2 x rate
 *	limit; demotion frees up to high + rate limit
 * @TP_WMARK_MAINLINE: Linux 6.1+: bypass when free > promo + max(1 GiB,
 *	present / 16); demotion frees up to the promo watermark
 */
enum tp_wmark_variant {
	TP_WMARK_SEED = 0,
	TP_WMARK_MAINLINE = 1,
};

/**
 * enum tp_preset - complete configurations
 * @TP_PRESET_SEED: the RFC v2 series (2020), all eight patches
 * @TP_PRESET_MAINLINE: Linux 6.1 and later, with seed 002's bypass knob on
 */
enum tp_preset {
	TP_PRESET_SEED = 0,
	TP_PRESET_MAINLINE = 1,
};

/**
 * struct tp_policy_cfg - policy settings (the sysctls)
 * @mode: TP_MODE_* flags, at most 0x3
 * @flags: TP_POL_* switches
 * @tps: ticks per second of the caller's clock, 1..%TP_TPS_MAX
 * @page_shift: log2 of the base page size, 10..30; 0 selects 12. 16 KiB and
 *	64 KiB pages (14, 16) work like 4 KiB ones.
 * @hot_threshold_ms: hot threshold; 0 selects %TP_DEFAULT_HOT_THRESHOLD_MS
 * @rate_limit_mbps: promotion rate limit in MB/s; 0 means the high
 *	watermark with %TP_POL_RL_WMARK_DEFAULT, else no promotion passes the
 *	limiter (as the kernel's 0)
 * @scan_period_max_ms: the threshold controller's period; 0 selects
 *	%TP_DEFAULT_SCAN_PERIOD_MAX_MS
 * @thresh_variant: &enum tp_thresh_variant
 * @limiter_variant: &enum tp_limiter_variant
 * @wmark_variant: &enum tp_wmark_variant
 * @burst_pages: token bucket capacity; 0 selects one second of the rate
 */
struct tp_policy_cfg {
	u32 mode;
	u32 flags;
	u32 tps;
	u32 page_shift;
	u32 hot_threshold_ms;
	u32 rate_limit_mbps;
	u32 scan_period_max_ms;
	u32 thresh_variant;
	u32 limiter_variant;
	u32 wmark_variant;
	aligned_u64 burst_pages;
};

/**
 * struct tp_policy - validated policy settings, shared by all nodes
 * @mode: TP_MODE_* flags
 * @flags: TP_POL_* switches
 * @tps: ticks per second
 * @page_shift: log2 of the page size
 * @thresh_variant: &enum tp_thresh_variant
 * @limiter_variant: &enum tp_limiter_variant
 * @wmark_variant: &enum tp_wmark_variant
 * @hot_th: hot threshold in ticks
 * @rate_pages: rate limit in pages per second (0 with the watermark default
 *	means "resolve per node")
 * @period: threshold controller period in ticks
 * @burst: token bucket capacity in pages (0: one second of rate)
 * @bypass_min: mainline's 1 GiB of free-space margin, in pages
 *
 * Read-mostly; private.
 */
struct tp_policy {
	u32 mode;
	u32 flags;
	u32 tps;
	u32 page_shift;
	u32 thresh_variant;
	u32 limiter_variant;
	u32 wmark_variant;
	aligned_u64 hot_th;
	aligned_u64 rate_pages;
	aligned_u64 period;
	aligned_u64 burst;
	aligned_u64 bypass_min;
};

/* Flags of &struct tp_fault. */
/** the page's node is on the top tier: it has no promotion target */
#define TP_FAULT_TOPTIER	0x1U
/** the PTE was young: the page was accessed in the previous scan period */
#define TP_FAULT_YOUNG		0x2U
/** a write fault */
#define TP_FAULT_WRITE		0x4U
/** a shared fault (not used by the tiering decision; seed 001 helpers) */
#define TP_FAULT_SHARED		0x8U

/** A latency the caller could not determine (empty ring): never hot. */
#define TP_LATENCY_UNKNOWN	(~0ULL)

/**
 * struct tp_fault - one NUMA hint fault on a slow-tier page
 * @latency: hint-fault latency in ticks, from tp_scan_ring_latency() or
 *	tp_atime_fault(); %TP_LATENCY_UNKNOWN if none
 * @nr_pages: pages in the folio, 1..%TP_RATE_MAX (2^32; a THP counts all)
 * @flags: TP_FAULT_* flags
 */
struct tp_fault {
	aligned_u64 latency;
	aligned_u64 nr_pages;
	u32 flags;
};

/**
 * struct tp_node_mem - the target (fast) node's memory, in pages
 * @free: free pages
 * @wmark_min: min watermark
 * @wmark_low: low watermark
 * @wmark_high: high watermark
 * @wmark_promo: promo watermark (mainline WMARK_PROMO); see
 *	tp_wmark_promo()
 * @present: present pages (node_present_pages)
 *
 * Watermarks must be ordered min <= low <= high <= promo.
 */
struct tp_node_mem {
	aligned_u64 free;
	aligned_u64 wmark_min;
	aligned_u64 wmark_low;
	aligned_u64 wmark_high;
	aligned_u64 wmark_promo;
	aligned_u64 present;
};

/**
 * enum tp_verdict - tp_decide()'s answer
 * @TP_PROMOTE: promote: a hot candidate admitted by the rate limiter
 * @TP_PROMOTE_NRL: promote: free-space bypass, not rate limited
 * @TP_REFUSE_MODE: refuse: the tiering mode is off
 * @TP_REFUSE_TOPTIER: refuse: the page is already on the top tier
 * @TP_REFUSE_NOT_YOUNG: refuse: not accessed in the previous scan period
 * @TP_REFUSE_COLD: refuse: latency not below the hot threshold
 * @TP_REFUSE_RATELIMIT: refuse: over the promotion rate limit
 * @TP_REFUSE_NOSPACE: refuse: promoting would take the target below its
 *	high watermark; the caller should wake demotion (kswapd) on it
 * @TP_NR_VERDICTS: number of verdicts
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
	TP_NR_VERDICTS = 8,
};

/**
 * tp_verdict_promotes() - does a verdict mean "migrate the page"?
 * @v: an &enum tp_verdict
 *
 * Context: Any context.
 * Return: true for %TP_PROMOTE and %TP_PROMOTE_NRL.
 */
static inline bool tp_verdict_promotes(int v)
{
	return v == TP_PROMOTE || v == TP_PROMOTE_NRL;
}

/**
 * struct tp_node - per target node state (the kernel's pglist_data fields)
 * @lim: promotion rate limiter
 * @nr_candidate: pages that passed the hotness check (PGPROMOTE_CANDIDATE)
 *	while the limiter is a token bucket; the window limiters count the
 *	same pages in their own counter, which then serves as this one
 * @nr_promote: pages with verdict %TP_PROMOTE
 * @rate_pages: the rate limit the limiter and controller are set to (bit
 *	63: a reconfiguration is in progress)
 * @th: hot-threshold controller
 * @nr_promote_nrl: pages with verdict %TP_PROMOTE_NRL
 * @nr_mode: pages refused with %TP_REFUSE_MODE
 * @nr_toptier: pages refused with %TP_REFUSE_TOPTIER
 * @nr_not_young: pages refused with %TP_REFUSE_NOT_YOUNG
 * @nr_cold: pages refused with %TP_REFUSE_COLD
 * @nr_nospace: pages refused with %TP_REFUSE_NOSPACE
 * @nr_nospace_nrl: of those, the ones on the free-space bypass path
 * @nr_th_raised: threshold raises
 * @nr_th_lowered: threshold reductions
 * @mode: the mode when the node was last synchronised
 *
 * Private. Place it on a %TP_CACHELINE_BYTES boundary (the kernel's
 * pglist_data is cache-line aligned; in userspace use aligned_alloc() or an
 * aligned attribute). Then the limiter, the candidate and promotion counters
 * and the rate fill the first cache line, the controller the second, the
 * other verdict counters the third: a promotion or a rate-limited
 * candidate touches the first two, another refusal or a bypass the second
 * and third. Rate-limited pages have no counter: they are the candidates
 * not promoted nor refused for room (see tp_node_stats()).
 */
struct tp_node {
	struct tp_limiter lim;
	aligned_u64 nr_candidate;
	aligned_u64 nr_promote;
	aligned_u64 rate_pages;
	struct tp_thresh th;
	aligned_u64 nr_promote_nrl;
	aligned_u64 nr_mode;
	aligned_u64 nr_toptier;
	aligned_u64 nr_not_young;
	aligned_u64 nr_cold;
	aligned_u64 nr_nospace;
	aligned_u64 nr_nospace_nrl;
	aligned_u64 nr_th_raised;
	aligned_u64 nr_th_lowered;
	u32 mode;
};

/**
 * struct tp_node_stats - a snapshot of a node's statistics, in pages
 * @pgpromote_candidate: passed the hotness check (counted before the rate
 *	limit, as the kernel counts them)
 * @pgpromote_candidate_nrl: took the free-space bypass
 * @pgpromote_success: verdicts to promote (the kernel counts migrations
 *	that then succeed)
 * @promote_hot: verdict %TP_PROMOTE
 * @promote_nrl: verdict %TP_PROMOTE_NRL
 * @refused_mode: verdict %TP_REFUSE_MODE
 * @refused_toptier: verdict %TP_REFUSE_TOPTIER
 * @refused_not_young: verdict %TP_REFUSE_NOT_YOUNG
 * @refused_cold: verdict %TP_REFUSE_COLD
 * @refused_ratelimit: verdict %TP_REFUSE_RATELIMIT
 * @refused_nospace: verdict %TP_REFUSE_NOSPACE
 * @decided: sum of all verdict counts (every page of every call once)
 * @th_raised: threshold raises
 * @th_lowered: threshold reductions
 * @threshold: the current hot threshold in ticks
 */
struct tp_node_stats {
	aligned_u64 pgpromote_candidate;
	aligned_u64 pgpromote_candidate_nrl;
	aligned_u64 pgpromote_success;
	aligned_u64 promote_hot;
	aligned_u64 promote_nrl;
	aligned_u64 refused_mode;
	aligned_u64 refused_toptier;
	aligned_u64 refused_not_young;
	aligned_u64 refused_cold;
	aligned_u64 refused_ratelimit;
	aligned_u64 refused_nospace;
	aligned_u64 decided;
	aligned_u64 th_raised;
	aligned_u64 th_lowered;
	aligned_u64 threshold;
};

/**
 * tp_policy_preset() - fill a configuration with a preset
 * @cfg: the configuration to fill (every field is written)
 * @preset: &enum tp_preset
 * @tps: ticks per second of the caller's clock
 *
 * The seed preset: tiering mode, hotness, bypass, young check, write
 * doubling, adaptive threshold with the seed's bounds, the seed's "latency >
 * threshold is cold" comparison, the per-second window with "> limit", rate
 * limit 0 = high watermark, seed watermark formulas. The mainline preset:
 * tiering mode, hotness, bypass that resets the threshold, adaptive
 * threshold with mainline bounds, "latency >= threshold is cold", the window
 * with ">= limit", 65536 MB/s, promo watermark formulas; no young check, no
 * write doubling. Both: 1000 ms threshold, 60000 ms period, 4 KiB pages.
 *
 * Context: Any context.
 * Return: 0, or -EINVAL for a NULL @cfg or an unknown preset (@cfg is then
 * untouched). @tps is checked by tp_policy_init().
 */
TP_API int tp_policy_preset(struct tp_policy_cfg *cfg, u32 preset, u32 tps);

/**
 * tp_policy_init() - validate settings into a policy
 * @pol: the policy
 * @cfg: the settings, validated completely before anything is written
 *
 * Context: Any context. Not concurrently with decisions using @pol (use
 * tp_policy_tune() on a live policy).
 * Return: 0; -EINVAL for a NULL argument, a mode above 3, unknown flags or
 * variants, a bad @tps or @page_shift, or switches that need
 * %TP_POL_HOTNESS without it; -ERANGE for a rate limit above %TP_RATE_MAX
 * pages per second or a burst above %TP_RATE_MAX. On error @pol is
 * untouched.
 */
TP_API int tp_policy_init(struct tp_policy *pol,
			  const struct tp_policy_cfg *cfg);

/**
 * tp_policy_tune() - change a live policy (a sysctl write)
 * @pol: the policy
 * @cfg: the new settings, validated as in tp_policy_init()
 *
 * Then call tp_node_sync() on every node so limiters and controllers take
 * the new settings.
 *
 * Context: Any context; callers serialize tunes. A decision running
 * concurrently may see a mix of old and new settings once.
 * Return: as tp_policy_init(); on error nothing changes.
 */
TP_API int tp_policy_tune(struct tp_policy *pol,
			  const struct tp_policy_cfg *cfg);

/**
 * tp_node_init() - initialise a target node's state
 * @node: the node
 * @pol: the policy
 * @now: the current time in ticks
 *
 * Context: Any context. Not concurrently with other calls on @node.
 * Return: 0, or -EINVAL for a NULL argument or a @pol that tp_policy_init()
 * did not fill (a zero-filled one, say); on error @node is left untouched.
 */
TP_API int tp_node_init(struct tp_node *node, const struct tp_policy *pol,
			u64 now);

/**
 * tp_node_sync() - apply a tuned policy to a node
 * @node: the node
 * @pol: the policy, after tp_policy_tune()
 * @now: the current time in ticks
 *
 * Retunes the limiter and the controller (keeping their state). When the
 * tiering mode was switched on since the last sync, the controller restarts
 * from the reference threshold (the kernel's reset_memory_tiering()).
 *
 * Context: Any context; callers serialize syncs of one node.
 */
TP_API void tp_node_sync(struct tp_node *node, const struct tp_policy *pol,
			 u64 now);

/**
 * tp_decide() - decide whether to promote the page of a hint fault
 * @pol: the policy
 * @node: the target (fast) node's state
 * @f: the fault
 * @mem: the target node's free pages and watermarks
 * @now: the fault time in ticks
 *
 * Every call with valid arguments is counted exactly once in the node's
 * statistics, with @f->nr_pages pages under its verdict.
 *
 * Context: Any context, lock-free, concurrently with itself on any nodes.
 * Return: an &enum tp_verdict, or -EINVAL (NULL argument, @nr_pages 0 or
 * above %TP_RATE_MAX, or watermarks out of order), in which case nothing is
 * counted.
 */
TP_API int tp_decide(const struct tp_policy *pol, struct tp_node *node,
		     const struct tp_fault *f, const struct tp_node_mem *mem,
		     u64 now);

/**
 * tp_node_stats() - snapshot a node's statistics
 * @node: the node
 * @stats: where to store the snapshot
 *
 * Each counter is read atomically; the set is not one instant's (counters
 * read later may include decisions the earlier ones missed).
 *
 * Context: Any context, lock-free.
 */
TP_API void tp_node_stats(const struct tp_node *node,
			  struct tp_node_stats *stats);

/**
 * tp_free_space_enough() - would the free-space bypass apply?
 * @pol: the policy
 * @mem: the node's memory
 *
 * Seed: free > high + 2 x rate limit pages. Mainline: free > promo +
 * max(1 GiB, present / 16). Strictly greater, as zone_watermark_ok().
 *
 * Context: Any context.
 * Return: true if the node has room enough to skip the hotness checks.
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
 * Context: Any context.
 * Return: true if the node stays above its high watermark.
 */
TP_API bool tp_promote_room(const struct tp_node_mem *mem, u64 nr);

/**
 * tp_demotion_target() - free pages demotion should reach on a fast node
 * @pol: the policy
 * @mem: the node's memory
 *
 * kswapd demotes until free pages exceed this: seed (000 3/8) high + rate
 * limit pages, mainline the promo watermark, when the tiering mode is on;
 * otherwise the high watermark.
 *
 * Context: Any context.
 * Return: the target in pages.
 */
TP_API u64 tp_demotion_target(const struct tp_policy *pol,
			      const struct tp_node_mem *mem);

/**
 * tp_wmark_promo() - mainline's promo watermark of a zone
 * @wmark_min: min watermark
 * @wmark_high: high watermark
 * @managed: managed pages
 * @scale_factor: vm.watermark_scale_factor (default 10, units of 0.01 %)
 *
 * high + max(min / 4, managed * scale_factor / 10000), as
 * __setup_per_zone_wmarks() computes it.
 *
 * Context: Any context.
 * Return: the promo watermark in pages.
 */
TP_API u64 tp_wmark_promo(u64 wmark_min, u64 wmark_high, u64 managed,
			  u32 scale_factor);

/**
 * tp_scan_wanted() - should the scanner mark a page for hint faults?
 * @pol: the policy
 * @toptier: the page is on a top-tier node
 *
 * Seed 000 4/8: with the normal-balancing bit off, top-tier pages have
 * nowhere to be promoted, so they are not scanned. Mode 0 scans nothing.
 *
 * Context: Any context.
 * Return: true if the page should get a hint-fault PTE.
 */
TP_API bool tp_scan_wanted(const struct tp_policy *pol, bool toptier);

/*
 * Pseudo-interleaving rules (seed 001) for NUMA groups. Node masks are
 * arrays of unsigned long bits, as the kernel's nodemask_t, of any size.
 */

/**
 * enum tp_group_variant - pseudo-interleaving rule set
 * @TP_GROUP_SEED: seed 001 (Linux 3.15)
 * @TP_GROUP_MAINLINE: Linux 6.1+
 */
enum tp_group_variant {
	TP_GROUP_SEED = 0,
	TP_GROUP_MAINLINE = 1,
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
	u32 cpu_node;
	u32 mem_node;
	bool local;
	bool priv;
	bool in_group;
};

/**
 * tp_group_fault_local() - does a fault count as local?
 * @variant: &enum tp_group_variant; an unknown value acts as %TP_GROUP_SEED
 * @f: the fault
 * @active: the group's active nodes, at least @nbits bits; NULL is empty
 * @nbits: bits in @active
 *
 * Seed 001 1/3: a shared fault wholly within the group's active nodes counts
 * as local. Mainline also requires more than one active node.
 *
 * Context: Any context.
 * Return: true if the fault counts as local; -EINVAL is not possible, bad
 * node numbers are simply not in the mask.
 */
TP_API bool tp_group_fault_local(u32 variant, const struct tp_group_fault *f,
				 const unsigned long *active, u32 nbits);

/**
 * tp_migrate_retry_interval() - when to retry moving a task to its node
 * @scan_period: the task's scan period in ticks
 * @tps: ticks per second
 *
 * Seed 001 2/3: min(1 s, scan_period / 16). Never 0: the seed gives 0 for a
 * scan period under 16 jiffies, i.e. a retry on every tick.
 *
 * Context: Any context.
 * Return: the interval in ticks, at least 1.
 */
TP_API u64 tp_migrate_retry_interval(u64 scan_period, u32 tps);

/**
 * tp_preferred_node() - the preferred node to set after a task migration
 * @variant: &enum tp_group_variant; an unknown value acts as %TP_GROUP_SEED
 * @in_group: the task belongs to a NUMA group
 * @dst_node: the node the task moved to (-1 if no CPU was found)
 * @src_node: the node the task came from
 * @active: the group's active nodes, at least @nbits bits; NULL is empty
 * @nbits: bits in @active
 *
 * Seed 001 3/3: set it to @dst_node only for a task in a group moving to one
 * of the group's active nodes. Mainline: for a task in a group, the node of
 * the best CPU, or @src_node when none was found.
 *
 * Context: Any context.
 * Return: the node to record as preferred, or -1 to leave it unchanged.
 */
TP_API int tp_preferred_node(u32 variant, bool in_group, int dst_node,
			     int src_node, const unsigned long *active,
			     u32 nbits);

#endif /* _TIERPOL_POLICY_H */
