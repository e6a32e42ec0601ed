/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * tiersim: the two-tier memory model (see docs/tiersim-model.md).
 *
 * One simulation replays one access stream (a workload generator or a
 * trace) under one policy. The model holds, per page: its tier, whether it
 * is allocated, its PTE's NUMA-hint (PROT_NONE) and young bits, the
 * access-time stamp (mainline preset), its fast-tier slot (for the CLOCK
 * demoter) and its last promotion time (ping-pong detection). Simulated time
 * is in nanoseconds; tierpol's clock runs at 1 tick = 1 ns.
 */
#ifndef _TIERSIM_SIM_H
#define _TIERSIM_SIM_H

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

#define TP_HAVE_KERNEL_INT_TYPES
typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t s32;
typedef int64_t s64;
#include <tierpol/tierpol.h>

#include "trace.h"
#include "wl.h"

#define SIM_TPS			1000000000U	/* 1 tick = 1 ns */
#define SIM_NS_PER_MS		1000000ULL
#define SIM_ERRLEN		512
#define SIM_MAX_SAMPLES		1024
/* The placement map's bins: sixteenths of the footprint, in page order. */
#define SIM_MAP_BINS		16
#define SIM_MAX_POLICIES	32
/* The shares of the oracle's gain whose cost a run reports (percent). */
#define SIM_TO_ORACLE_SHARES	4
extern const u32 sim_to_oracle_pct[SIM_TO_ORACLE_SHARES];
#define SIM_MAX_PASSES		512	/* scan passes logged per run */

/* Per-page flags (one byte per page: the only state the common path reads). */
#define PF_NOALLOC	0x01	/* never touched: no PTE yet */
#define PF_FAST		0x02	/* on the fast tier */
#define PF_PROT		0x04	/* PTE marked for a NUMA hint fault */
#define PF_YOUNG	0x08	/* PTE accessed bit */
#define PF_PINNED	0x10	/* oracle: belongs in the fast tier */
#define PF_ACTIVE	0x20	/* --lru two-list: on the active list */
#define PF_REFD		0x40	/* --lru two-list: PG_referenced */
#define PF_QUEUED	0x80	/* admitted, waiting for kmigrated */
#define PF_SLOWPATH	(PF_NOALLOC | PF_PROT)

/**
 * struct sim_costs - a cost profile, in simulated nanoseconds
 * @name: profile name
 * @cpu_ns: CPU time per access (0: the workload's default)
 * @lat: memory latency: [0] slow read, [1] slow write, [2] fast read,
 *	[3] fast write
 * @fault_ns: one NUMA hint fault (trap, PTE fix-up, tp_decide)
 * @migrate_ns: CPU time to migrate one 4 KiB page (isolate, unmap, copy,
 *	remap), paid by the faulting thread for promotions and by kswapd for
 *	demotions
 * @migrate_mbps: migration bandwidth cap, MB/s, shared by both directions
 * @scan_pte_ns: NUMA scanner, per PTE examined (paid by the scanning task)
 * @alloc_ns: first-touch page fault (allocation and zeroing)
 * @reclaim_ns: kswapd, per fast-tier page it examines, young or not (LRU
 *	isolation and the folio_referenced() rmap walk; pgscan_kswapd)
 * @scan_update_ns: NUMA scanner, per PTE it changes, on top of
 *	@scan_pte_ns (the PTE rewrite, the access-time stamp, the TLB flush)
 * @demote_ns: kswapd's CPU time to demote one 4 KiB page; 0 means
 *	@migrate_ns
 * @bw_mbps: peak media bandwidth, MB/s: [0] slow read, [1] slow write,
 *	[2] fast read, [3] fast write; 0: unlimited (the tier's latency stays
 *	at its idle value)
 * @gran: bytes the media moves per access: [0] slow, [1] fast (Optane
 *	reads and writes 256-byte lines; DRAM and CXL 64-byte ones)
 * @queue_ns: loaded latency: a tier's latency is its idle latency plus
 *	@queue_ns x u / (1 - u) at utilisation u (capped at 0.95): [0] slow,
 *	[1] fast
 * @mlp: memory-level parallelism, the misses a thread has in flight: each
 *	access stalls its thread for its latency / @mlp; 0: the workload's
 * @tlb_ns: a TLB shootdown's cost to the CPU that starts it (sending the
 *	IPIs and waiting for them), when other CPUs run the process
 * @ipi_ns: a TLB shootdown's cost to each other CPU running the process
 *	(the interrupt, the flush, the refills)
 */
struct sim_costs {
	const char *name;
	u32 cpu_ns;
	u32 lat[4];
	u32 fault_ns;
	u32 migrate_ns;
	u32 migrate_mbps;
	u32 scan_pte_ns;
	u32 alloc_ns;
	u32 reclaim_ns;
	u32 scan_update_ns;
	u32 demote_ns;
	u32 bw_mbps[4];
	u32 gran[2];
	u32 queue_ns[2];
	u32 mlp;
	u32 tlb_ns;
	u32 ipi_ns;
};

/* kswapd's CPU time per 4 KiB page demoted: @demote_ns or @migrate_ns. */
static inline u32 sim_demote_ns(const struct sim_costs *c)
{
	return c->demote_ns ? c->demote_ns : c->migrate_ns;
}

enum sim_lat_src {
	LAT_RING = 0,		/* scan-history ring (the 2020 RFC patch 6/8) */
	LAT_ATIME = 1,		/* per-page access-time stamp (mainline) */
	LAT_FAULTS = 2,		/* the stamp on the fault-count clock (RFC 2024) */
};

/* Where a page that tierpol promotes is migrated. */
enum sim_migrate {
	MIG_FAULT = 0,		/* in the hint fault, by the faulting thread */
	MIG_KMIGRATED = 1,	/* by a migration thread, in batches (pghot) */
};

/* What the goal controller (DAMOS quota goals) measures and drives. */
enum sim_goal {
	GOAL_NONE = 0,
	GOAL_USED = 1,		/* the fast tier's used pages, parts per 10000 */
	GOAL_FREE = 2,		/* its free pages: target = the free share */
	GOAL_PINGPONG = 3,	/* promoted pages demoted again, per promotion */
};

/* The per-page hotness record (pghot). */
enum sim_record {
	REC_NONE = 0,
	REC_BYTE = 1,		/* one byte a page (TP_HOT_BYTE) */
	REC_PRECISE = 2,	/* four bytes a page (TP_HOT_PRECISE) */
};

/* Sources of accesses for the hotness record. */
#define SRC_HINT	0x1U	/* NUMA hint faults */
#define SRC_ABIT	0x2U	/* an accessed-bit scanner (kmmscand) */

enum sim_vma_filter {
	VMAF_NONE = TP_VMA_FILTER_NONE,
	/* Linux 6.5's PID filter plus the 2023 RFC's forced scan */
	VMAF_DISJOINT = TP_VMA_FILTER_DISJOINT,
	VMAF_MAINLINE = TP_VMA_FILTER_LINUX67,
	/* Linux 6.4-6.6's PID filter alone (the 2023 RFC's base) */
	VMAF_PID = 3,
};

/* Fields of &struct sim_policy's cfg set explicitly by the policy spec. */
#define SPEC_RATE	0x1U
#define SPEC_HOT	0x2U
#define SPEC_PERIOD	0x4U

/**
 * struct sim_goal_cfg - the control loop of a goal-driven policy
 * @metric: &enum sim_goal
 * @target: the metric's goal, parts per 10000
 * @ctl_ms: the control period: the simulated kernel measures the metric
 *	and retunes the policy this often
 * @rate_min: the smallest promotion rate it sets, MB/s
 * @rate_max: the largest, MB/s
 * @out: what it sets: the rate limit (0) or, with %GOAL_OUT_THRESHOLD, the
 *	hot threshold, between the 2022 controller's bounds (2 x hot / 16
 *	and 2 x hot, ms), starting at hot
 */
struct sim_goal_cfg {
	int metric;
	u32 target;
	u32 ctl_ms;
	u32 rate_min;
	u32 rate_max;
	int out;
};

#define GOAL_OUT_RATE		0
#define GOAL_OUT_THRESHOLD	1

/**
 * struct sim_hot_cfg - the hotness record and its migration thread
 * @record: &enum sim_record
 * @sources: SRC_* (hint faults, the accessed-bit scanner)
 * @freq: accesses within the window that make a page ready (0: 2)
 * @window_ms: the window (0: 3000)
 * @abit_ms: the accessed-bit scanner's period
 * @room: a second record, pghot's default one (2 accesses within 3 s),
 *	whose ready pages only the free-space bypass promotes
 * @promo_max: kmigrated migrates at most this many 4 KiB pages in the
 *	run and drops what it dequeues past them (0: no budget); an
 *	experiment's knob (a count fitted to one run's length), not a policy
 */
struct sim_hot_cfg {
	int record;
	u32 sources;
	u32 freq;
	u32 window_ms;
	u32 abit_ms;
	int room;
	u32 promo_max;
};

/* How DAMON-based tiering sets its schemes' quotas. */
#define DAMON_FB_TIERPOL	0	/* tierpol's goal controller (tp_goal) */
#define DAMON_FB_DAMOS		1	/* DAMOS's own feedback step */

/**
 * struct sim_damon_cfg - DAMON-based tiering
 * @on: two kdamonds promote and demote with their schemes; NUMA
 *	balancing off
 * @feedback: DAMON_FB_TIERPOL or DAMON_FB_DAMOS
 * @start_min: each quota starts at DAMOS's minimum (one byte) instead of
 *	its cap (200 MiB a second)
 */
struct sim_damon_cfg {
	int on;
	int feedback;
	int start_min;
};

/**
 * struct sim_policy - one policy as named on the command line
 * @name: the spec as given (the row label)
 * @oracle: static optimum (pins the most-accessed pages; no scanning)
 * @demote: kswapd demotes to the slow tier
 * @lat_src: &enum sim_lat_src
 * @vma_filter: &enum sim_vma_filter
 * @migrate: &enum sim_migrate
 * @goal: the goal controller's loop (@goal.metric GOAL_NONE: none)
 * @hot: the hotness record (@hot.record REC_NONE: none)
 * @damon: DAMON-based tiering (sim_damon.c; @damon.on 0: none)
 * @cfg: tierpol settings
 * @set: SPEC_* fields the spec set (global sysctl options do not override)
 *
 * A field added here that changes a run goes into sim_policy_same() too,
 * or two specs that differ only in it are refused as one policy.
 */
struct sim_policy {
	char name[96];
	int oracle;
	int demote;
	int lat_src;
	int vma_filter;
	int migrate;
	struct sim_goal_cfg goal;
	struct sim_hot_cfg hot;
	struct sim_damon_cfg damon;
	struct tp_policy_cfg cfg;
	u32 set;
};

/**
 * struct sim_cfg - machine and kernel settings
 * @costs: cost profile (after overrides)
 * @fast_pages: fast-tier capacity, 4 KiB pages
 * @slow_pages: slow-tier capacity, 4 KiB pages
 * @wmark: fast-tier min, low, high, promo watermarks (pages); all 0 means
 *	computed as the kernel does from the capacities
 * @thp: 2 MiB folios instead of 4 KiB pages
 * @scan_delay_ms: numa_balancing_scan_delay_ms
 * @scan_period_ms: a fixed scan period (no adaptation); 0: the kernel's
 *	adaptive period (see docs/tiersim-model.md, "The NUMA scanner")
 * @scan_period_min_ms: numa_balancing_scan_period_min_ms
 * @scan_size_mb: numa_balancing_scan_size_mb
 * @scan_period_max_ms: numa_balancing_scan_period_max_ms (the threshold
 *	controller's period); 0 keeps the policy's
 * @hot_threshold_ms: numa_balancing_hot_threshold_ms; 0 keeps the policy's
 * @rate_limit_mbps: promote rate limit; -1 keeps the policy's
 * @sample_ms: time-series sampling interval (doubles when full)
 * @pingpong_ms: promoted then demoted within this counts as ping-pong
 * @allow_no_pressure: accept a fast tier that holds the whole footprint
 * @init_fast: first-touch allocation stops using the fast tier once it
 *	holds this fraction of the footprint (0: only the low watermark stops
 *	it); cold-burst's "most memory reclaimed to the slow tier" start
 * @lru_two_list: kswapd's page picking models 6.1's active and inactive
 *	lists (a two-handed CLOCK) instead of a one-handed CLOCK
 * @kswapd_rounds: kswapd works in 6.1's balance_pgdat() rounds (a round
 *	examines lru_size >> priority pages or reclaims the high watermark's
 *	worth, the watermark is checked between rounds) instead of checking
 *	the demotion target before every page
 * @serial_clock: all threads share one clock, taking turns access by
 *	access (--clock serial) instead of a clock each, run in time order
 * @tlb_entries: each thread's TLB, entries (a power of 2, direct-mapped):
 *	the accessed bit is set by the page walk of a TLB fill, as x86 does;
 *	0: by every access
 * @thresh_period_ms: the hot-threshold controller's period alone (the
 *	scanner keeps @scan_period_max_ms); 0: @scan_period_max_ms
 * @scale: a 1/@scale model of a machine @scale times larger: each page of
 *	the stream stands for @scale pages of the machine, and each access
 *	for @scale accesses, one to each (docs/tiersim.md, "Scale models");
 *	the costs, bandwidths, watermarks and kernel settings are the large
 *	machine's
 * @nr_cpu: entries of @cpu_at and @cpu_ns: from access @cpu_at[i] of the
 *	stream on, each access costs @cpu_ns[i] of CPU time (a measured
 *	machine whose speed changed over time, --cpu-ns-file); 0: none
 * @cpu_at: ascending access indexes
 * @cpu_ns: CPU time per access from there on
 */
struct sim_cfg {
	struct sim_costs costs;
	u64 fast_pages;
	u64 slow_pages;
	u64 wmark[4];
	int thp;
	u32 scan_delay_ms;
	u32 scan_period_ms;
	u32 scan_period_min_ms;
	u32 scan_size_mb;
	u32 scan_period_max_ms;
	u32 hot_threshold_ms;
	s64 rate_limit_mbps;
	u32 sample_ms;
	u32 pingpong_ms;
	int allow_no_pressure;
	double init_fast;
	int lru_two_list;
	int kswapd_rounds;
	int serial_clock;
	u32 tlb_entries;
	u32 thresh_period_ms;
	u32 scale;
	u32 nr_cpu;
	const u64 *cpu_at;
	const u32 *cpu_ns;
};

/* The address-space layout of a source, in 4 KiB pages. */
struct src_vma {
	u64 first;
	u64 pages;
};

/**
 * struct sim_src - what to replay (shared read-only by the jobs)
 * @name: workload name or trace path
 * @wl: generator template (NULL for a trace)
 * @tr: trace (NULL for a workload)
 * @pages: footprint in 4 KiB pages (the page index range)
 * @total: accesses in the stream
 * @nr_threads: threads
 * @nr_vmas: VMAs
 * @vma: the VMAs, ascending, covering [0, @pages)
 * @nr_phases: phases
 * @phase_name: their names
 * @phase_measured: whether they count towards the headline figures
 * @needs_pressure: the workload is meant to overflow the fast tier
 * @cpu_ns: default CPU time per access of the workload
 * @mlp: default memory-level parallelism of the workload
 * @oracle_count: accesses per page over the whole stream (for the oracle;
 *	computed on demand)
 */
struct sim_src {
	const char *name;
	const struct wl *wl;
	const struct trace *tr;
	u64 pages;
	u64 total;
	u32 nr_threads;
	u32 nr_vmas;
	struct src_vma *vma;
	u32 nr_phases;
	const char *phase_name[WL_MAX_PHASES];
	int phase_measured[WL_MAX_PHASES];
	int needs_pressure;
	u32 cpu_ns;
	u32 mlp;
	u32 *oracle_count;
};

struct sim_phase_stats {
	u64 accesses;
	u64 fast;
	u64 time_ns;
	u64 start_ns;
	u64 promotions;
	u64 hint_faults;
};

struct sim_vma_stats {
	u64 pages;
	u64 pte_scanned;
	u64 pte_updates;
	u64 hint_faults;
	u64 promotions;
	u64 scans;		/* passes that scanned some of it */
	u64 skips;		/* filter said skip */
};

/*
 * One scanner pass: when, its cost, the PTEs it changed, the mm's scan
 * sequence after it (numa_scan_seq: it moves when a pass reaches the end
 * of the address space) and the scanning thread's period then (the next
 * scan is that far away).
 */
struct sim_pass {
	u64 t_ns;
	u64 cost_ns;
	u64 updates;
	u64 seq;
	u64 period_ns;
};

struct sim_sample {
	u64 t_ns;
	u64 acc;
	u64 fast;
	u64 promo;
	u64 thresh;
	u64 faults;
	u64 demo;
	u64 cand;
	u64 fast_used;
	u64 pte_updates;
	u64 util[2];		/* utilisation of the slow, fast tier, 1/1000 */
	u64 rate;		/* the promotion rate limit in force, MB/s */
};

/**
 * struct sim_node_stats - the node's statistics as tiersim reports them
 * @pgpromote_candidate: passed the hotness check (PGPROMOTE_CANDIDATE)
 * @pgpromote_candidate_nrl: took the free-space bypass
 * @pgpromote_success: verdicts to promote
 * @promote_hot: verdict TP_PROMOTE
 * @promote_nrl: verdict TP_PROMOTE_NRL
 * @refused_mode: verdict TP_REFUSE_MODE
 * @refused_toptier: verdict TP_REFUSE_TOPTIER
 * @refused_not_young: verdict TP_REFUSE_NOT_YOUNG
 * @refused_cold: verdict TP_REFUSE_COLD
 * @refused_ratelimit: verdict TP_REFUSE_RATELIMIT
 * @refused_nospace: verdict TP_REFUSE_NOSPACE
 * @decided: every page of every decision
 * @th_raised: threshold raises
 * @th_lowered: threshold reductions
 * @threshold: the hot threshold in ticks
 *
 * Filled from the library's statistics by node_stats() (sim_int.h), the
 * one place that reads them.
 */
struct sim_node_stats {
	u64 pgpromote_candidate;
	u64 pgpromote_candidate_nrl;
	u64 pgpromote_success;
	u64 promote_hot;
	u64 promote_nrl;
	u64 refused_mode;
	u64 refused_toptier;
	u64 refused_not_young;
	u64 refused_cold;
	u64 refused_ratelimit;
	u64 refused_nospace;
	u64 decided;
	u64 th_raised;
	u64 th_lowered;
	u64 threshold;
};

/**
 * struct sim_result - everything a run reports
 * (fields documented in docs/tiersim-io.md, "Output fields"). Amounts of
 * memory (allocations, promotions, demotions, ping-pong, occupancy) are in
 * 4 KiB pages, as the kernel's vmstat counts them; faults, scans and
 * accesses are events (with --thp one fault moves 512 pages).
 */
struct sim_result {
	char policy[96];
	int has_threshold;
	int th_faults;		/* the threshold counts hint faults */
	u64 accesses;
	u64 measured_accesses;
	u64 measured_time_ns;
	u64 measured_fast;
	u64 measured_mem_ns;
	u64 measured_stall_ns;
	u64 sim_time_ns;
	u64 fast_accesses;
	u64 t_cpu, t_mem, t_fault, t_migr, t_scan, t_alloc, t_tlb;
	u64 tlb_shootdowns;	/* TLB flushes sent to other CPUs */
	u64 t_kthread;		/* kmigrated's and the A-bit scanner's CPU */
	u64 kmig_batches;	/* kmigrated's batches */
	u64 abit_scanned;	/* PTEs the accessed-bit scanner examined */
	u64 goal_steps;		/* control steps that changed the rate */
	/*
	 * DAMON-based tiering, by kdamond ([0] the fast node's, demoting;
	 * [1] the slow node's, promoting): regions and sampling interval at
	 * the end, pages its scheme's quota was charged for.
	 */
	u64 damon_regions[2];
	u64 damon_sample_us[2];
	u64 damon_tried[2];
	u64 rate_end;		/* the promotion rate limit at the end, MB/s */
	/* the policy's settings in effect (JSON "kernel"): ms, ms, MB/s */
	u32 k_thresh_period_ms, k_hot_ms, k_rate_mbps;
	u64 busy_ns[2];		/* slow, fast tier: media busy time */
	u64 capped_ns[2];	/* ... and time at the loaded latency's cap */
	u64 measured_capped_ns[2];	/* ... of it in the measured phases */
	u64 promotions;
	u64 demotions;
	u64 pingpong;
	u64 hint_faults;
	u64 hint_faults_fast;
	u64 pte_scanned;
	u64 pte_updates;
	u64 scan_passes;
	u64 alloc_fast;
	u64 alloc_slow;
	u64 kswapd_wakeups;
	u64 kswapd_scanned;	/* pages the demoter examined (pgscan_kswapd) */
	u64 scan_period_end_ms;	/* the scan period at the end */
	u64 fast_used_end;	/* pages */
	u64 slow_used_end;	/* pages */
	/*
	 * From the placement at the end to the oracle's (oracle_distance();
	 * set only where the set has the oracle's counts, not for the
	 * oracle): the pages to promote and to demote, and, the hottest
	 * first, the pages migrated when the accesses gained reach each
	 * sim_to_oracle_pct[] of the exchange's gain.
	 */
	int has_to_oracle;
	u64 to_oracle_promo;
	u64 to_oracle_demo;
	u64 to_oracle_mig[SIM_TO_ORACLE_SHARES];
	u64 region_promo[WL_NR_REGIONS];
	/*
	 * The placement map, by sixteenth of the footprint in page order:
	 * pages promoted into each, and at the end its pages allocated and
	 * on the fast tier.
	 */
	u64 map_promo[SIM_MAP_BINS];
	u64 map_alloc[SIM_MAP_BINS];
	u64 map_fast[SIM_MAP_BINS];
	struct sim_node_stats node;
	double response_ms;	/* phase-shift: recovery time, -1 if n/a */
	u32 nr_phases;
	struct sim_phase_stats phase[WL_MAX_PHASES];
	u32 nr_vmas;
	struct sim_vma_stats *vma;
	u32 nr_samples;
	struct sim_sample sample[SIM_MAX_SAMPLES];
	u32 nr_passes;		/* logged (the first SIM_MAX_PASSES) */
	struct sim_pass pass[SIM_MAX_PASSES];
	u64 pages;		/* footprint, 4 KiB pages */
	u32 scale;		/* sim_cfg's: accesses stand for this many */
	u64 state_bytes;	/* simulator memory for the pages */
	int failed;
	char err[SIM_ERRLEN];
};

/* Cost profiles: "pmem" and "cxl". NULL if unknown. */
const struct sim_costs *sim_profile(const char *name);
extern const struct sim_costs sim_profiles[];
extern const unsigned int sim_nr_profiles;

/* Defaults of the kernel settings. */
void sim_cfg_defaults(struct sim_cfg *c);

/* Watermarks as Linux computes them (min_free_kbytes, scale factor 10). */
void sim_wmarks(u64 fast_pages, u64 slow_pages, u64 wmark[4]);

/*
 * Check a configuration against a source; fills the computed watermarks.
 * Returns 0, or -1 with the reason in @err.
 */
int sim_validate(struct sim_cfg *c, const struct sim_src *src, char *err,
		 size_t errlen);

/*
 * task_scan_min() of the footprint, ms: the fixed period if one is set, the
 * floor of the adaptive period otherwise.
 */
u32 sim_scan_period_ms(const struct sim_cfg *c, u64 footprint_pages);

/* Policy specs (sim_policy.c). Returns 0 or -1 with the reason. */
int sim_policy_parse(const char *spec, struct sim_policy *p, char *err,
		     size_t errlen);
/*
 * Apply the global sysctl options and validate with tp_policy_init()
 * (sim_policy_check.c).
 */
int sim_policy_finalize(struct sim_policy *p, const struct sim_cfg *c,
			char *err, size_t errlen);
/*
 * A key of a spec (@p once parsed) that changes nothing: it sets what @b,
 * base @base with the spec's switches, has, or what the spec's other keys
 * make the default (target= with goal=, window= with record=). @at: where
 * each key is in the spec, @nr of them. Returns 0 or -1 with the reason
 * (sim_policy_check.c).
 */
int sim_policy_unchanged(const struct sim_policy *p, const struct sim_policy *b,
			 const char *base, const char *const *at,
			 unsigned int nr, char *err, size_t errlen);
/*
 * Whether finalised policies @a and @b run the same way whatever their
 * specs (an alias, "rfc2020" and "rfc2020-p8"; a number spelt two ways,
 * "rate=64" and "rate=064"; a pinned value the options give the other
 * too): every setting compared, a 0 that reads as a default as that
 * default (sim_policy_check.c).
 */
int sim_policy_same(const struct sim_policy *a, const struct sim_policy *b);
void sim_policy_help(FILE *f);
/*
 * For the tests (sim_policy.c's own, no other file calls them): the bit of
 * a spec's key in a u32 of keys, and the number of keys, the bit of a key
 * set_key() does not take.
 */
unsigned int key_index(const char *key);
extern const unsigned int policy_nr_keys;
/*
 * Named policies (sim_preset.c): the help lines of the bases, the length
 * of the longest base name @spec starts with (0: none), and the settings
 * of base @name (0, or -1 if there is no such base).
 */
void sim_preset_help(FILE *f);
size_t sim_preset_match(const char *spec);
int sim_preset_set(const char *name, struct sim_policy *p);
/* The hotness record's format of a policy with one. */
void sim_hot_cfg(const struct sim_policy *p, struct tp_hot_cfg *hc);

/* Sources. */
int sim_src_workload(struct sim_src *s, struct wl *w);
int sim_src_trace(struct sim_src *s, struct trace *t);
void sim_src_free(struct sim_src *s);
/* Count accesses per page over the whole stream (for the oracle). */
int sim_src_count(struct sim_src *s, char *err, size_t errlen);

/*
 * Run one policy over a source. @progress, if not NULL, is updated with
 * the accesses done. Returns 0, or -1 with @r->err set.
 */
int sim_run(const struct sim_cfg *c, const struct sim_policy *p,
	    const struct sim_src *src, struct sim_result *r,
	    _Atomic u64 *progress);
void sim_result_free(struct sim_result *r);

/* Derived figures. */
double sim_fast_ratio(const struct sim_result *r);
double sim_throughput(const struct sim_result *r);	/* M accesses/s */
double sim_mean_latency(const struct sim_result *r);	/* ns */
double sim_phase_throughput(const struct sim_result *r, u32 phase);

#endif /* _TIERSIM_SIM_H */
