/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The baselines of the benchmark: each primitive written the obvious way,
 * mostly as a transcription of the kernel code (the 2020 RFC's or Linux
 * 6.1's; docs/SOURCES.md cites them), with plain words, signed modulo, a
 * mutex or a division on every call. They are
 * compiled in their own translation unit (baselines.c) with the same flags
 * as the benchmark, so they are called out of line exactly as the library
 * is, and neither side is inlined into the measuring loop.
 *
 * Kernel facilities are emulated as follows:
 *  - jiffies: the caller's ticks, passed as @now; HZ is a runtime field
 *    (no division: the kernel's HZ is a constant);
 *  - READ_ONCE/WRITE_ONCE: volatile accesses; smp_load_acquire and
 *    smp_store_release: __atomic acquire/release; cmpxchg: __atomic CAS;
 *  - mod_node_page_state()/node_page_state(): a per-CPU diff (one
 *    &struct bl_pcp per thread, a thread standing for a CPU) folded into a
 *    global atomic counter when it exceeds a stat threshold of 32 (what the
 *    kernel computes for 2 CPUs and 8 GiB), the global read for the value;
 *  - count_vm_event(): a per-CPU counter that is never folded.
 */
#ifndef TP_BENCH_BASELINES_H
#define TP_BENCH_BASELINES_H

#include <pthread.h>
#include <stdbool.h>

/* -- scan-history ring: the 2020 RFC, patch 6/8 ------------------------- */

#define BL_NUMA_SCAN_NR_HIST	16

/**
 * struct bl_mm - the RFC's mm_struct fields
 * @numa_scan_idx: next slot to record (the RFC: int)
 * @nr_hist: runtime depth, only for the runtime-modulo variant
 * @numa_scan_offset: end of the newest pass
 * @numa_scan_jiffies: start time of each pass
 * @numa_scan_starts: start address of each pass
 */
struct bl_mm {
	int numa_scan_idx;
	int nr_hist;
	unsigned long numa_scan_offset;
	unsigned long numa_scan_jiffies[BL_NUMA_SCAN_NR_HIST];
	unsigned long numa_scan_starts[BL_NUMA_SCAN_NR_HIST];
};

/* task_numa_work()'s recording of a pass; (idx + 1) % 16 on an int */
void bl_ring_record(struct bl_mm *mm, unsigned long start, unsigned long now);
/* task_numa_work()'s WRITE_ONCE(mm->numa_scan_offset, end) */
void bl_ring_advance(struct bl_mm *mm, unsigned long end);
/*
 * numa_hint_fault_latency() of the 2020 RFC, patch 6/8, with "i = (i - 1) %
 * 16" on an int made safe as "(i - 1 + 16) % 16" (the RFC reads index -1).
 */
long bl_ring_latency(const struct bl_mm *mm, unsigned long addr,
		     unsigned long now);
/* The same walk with a runtime depth: "(i - 1 + nr) % nr" divides. */
long bl_ring_latency_rt(const struct bl_mm *mm, unsigned long addr,
			unsigned long now);

/* -- per-page access time: Linux 6.1 with a runtime clock --------------- */

/**
 * struct bl_atime - stamp format of the division baseline
 * @bucket: ticks per bucket (1 ms of ns: the stamp is in ms)
 * @mask: stamp mask
 */
struct bl_atime {
	unsigned long bucket;
	unsigned int mask;
};

/* (now / bucket) & mask: the ms conversion divides on every call */
unsigned int bl_atime_encode(const struct bl_atime *a, unsigned long now);
/* (now / bucket - stamp) & mask: the latency in buckets (ms), as 6.1 */
unsigned long bl_atime_latency(const struct bl_atime *a, unsigned int stamp,
			       unsigned long now);
/* numa_hint_fault_latency() of 6.1: xchg the stamp, latency in buckets */
unsigned long bl_atime_fault(const struct bl_atime *a, unsigned int *stamp,
			     unsigned long now);

/* -- per-node state: pglist_data fields, per-CPU vmstat ----------------- */

enum bl_stat_item {
	BL_NUMA_TRY_MIGRATE = 0,	/* the RFC's; 6.1's PGPROMOTE_CANDIDATE */
	BL_NR_STAT_ITEMS = 1,
};

#define BL_NR_EVENTS		8	/* per-verdict event counters */
#define BL_STAT_THRESHOLD	32

/**
 * struct bl_pcp - one CPU's per-cpu vmstat area for one node
 * @diff: unfolded differentials
 * @events: event counters (count_vm_event), one per verdict
 */
struct bl_pcp {
	long diff[BL_NR_STAT_ITEMS];
	unsigned long events[BL_NR_EVENTS];
} __attribute__((aligned(64)));

/**
 * struct bl_pgdat - the pglist_data fields of both kernels, one zone
 * @vm_stat: global vmstat counters
 * @hz: ticks per second (the window length)
 * @numa_ts: window start (plain word, cmpxchg'd); 6.1 keeps it in
 *	unsigned int ms (nbp_rl_start), here unsigned long ticks of any unit
 * @numa_try: the RFC's window base (plain word)
 * @numa_threshold_ts: the RFC's controller period start
 * @numa_threshold_try: the RFC's controller candidate base
 * @numa_threshold: the RFC's adjusted threshold, 0 = default
 * @nbp_rl_nr_cand: 6.1's window base
 * @nbp_th_start: 6.1's controller period start (unsigned int ms)
 * @nbp_th_nr_cand: 6.1's controller candidate base
 * @nbp_threshold: 6.1's adjusted threshold, 0 = default
 * @free: free pages of the zone
 * @wmark_high: high watermark
 * @wmark_promo: promo watermark (6.1)
 * @present: node_present_pages
 */
struct bl_pgdat {
	long vm_stat[BL_NR_STAT_ITEMS];
	unsigned long hz;
	unsigned long numa_ts;
	unsigned long numa_try;
	unsigned long numa_threshold_ts;
	unsigned long numa_threshold_try;
	unsigned long numa_threshold;
	unsigned long nbp_rl_nr_cand;
	unsigned int nbp_th_start;
	unsigned long nbp_th_nr_cand;
	unsigned int nbp_threshold;
	unsigned long free;
	unsigned long wmark_high;
	unsigned long wmark_promo;
	unsigned long present;
} __attribute__((aligned(64)));

/* node_page_state() */
unsigned long bl_node_page_state(const struct bl_pgdat *pg, int item);

/* -- rate limiters ------------------------------------------------------ */

/*
 * numa_migration_check_rate_limit() of the 2020 RFC, patch 2/8: "two plain words"
 * numa_ts/numa_try and a per-CPU vmstat count. True = admitted.
 */
bool bl_window_rfc(struct bl_pgdat *pg, struct bl_pcp *pcp,
		    unsigned long rate_limit, int nr, unsigned long now);
/* numa_promotion_rate_limit() of 6.1 (">= limit"). True = admitted. */
bool bl_window_61(struct bl_pgdat *pg, struct bl_pcp *pcp,
			unsigned long rate_limit, int nr, unsigned long now);

/**
 * struct bl_bucket - a token bucket under a mutex, refilled with a division
 * @lock: the mutex
 * @tokens: whole tokens
 * @burst: capacity
 * @rate: tokens per second
 * @tps: ticks per second
 * @last: time of the last refill
 */
struct bl_bucket {
	pthread_mutex_t lock;
	unsigned long tokens;
	unsigned long burst;
	unsigned long rate;
	unsigned long tps;
	unsigned long last;
} __attribute__((aligned(64)));

void bl_bucket_init(struct bl_bucket *b, unsigned long rate,
		    unsigned long burst, unsigned long tps, unsigned long now);
/* lock; tokens += (now - last) * rate / tps, capped; take n; unlock */
bool bl_bucket_consume(struct bl_bucket *b, unsigned long n,
		       unsigned long now);

/* -- hot-threshold controllers ------------------------------------------ */

/*
 * numa_migration_adjust_threshold() of the 2020 RFC, patch 8/8; @period is
 * msecs_to_jiffies(scan_period_max) (HZ = 1000: the identity), @period_ms
 * the sysctl.
 */
void bl_thresh_rfc(struct bl_pgdat *pg, unsigned long rate_limit,
		    unsigned long ref_th, unsigned long now,
		    unsigned long period, unsigned long period_ms);
/* numa_promotion_adjust_threshold() of 6.1 (unsigned int ms) */
void bl_thresh_61(struct bl_pgdat *pg, unsigned long rate_limit,
			unsigned int ref_th, unsigned int now_ms,
			unsigned int period_ms);

/* -- the decisions ------------------------------------------------------ */

/* Verdicts, numbered as enum tp_verdict so the results can be compared. */
enum bl_verdict {
	BL_PROMOTE = 0,
	BL_PROMOTE_NRL = 1,
	BL_REFUSE_MODE = 2,
	BL_REFUSE_TOPTIER = 3,
	BL_REFUSE_NOT_YOUNG = 4,
	BL_REFUSE_COLD = 5,
	BL_REFUSE_RATELIMIT = 6,
	BL_REFUSE_NOSPACE = 7,
};

/**
 * struct bl_sysctl - the sysctls the decisions read
 * @mode: kernel.numa_balancing
 * @hot_threshold_ms: numa_balancing_hot_threshold_ms
 * @rate_limit_mbps: the rate limit sysctl in MB/s
 * @scan_period_max_ms: numa_balancing_scan_period_max_ms
 * @page_shift: PAGE_SHIFT
 */
struct bl_sysctl {
	unsigned int mode;
	unsigned int hot_threshold_ms;
	unsigned int rate_limit_mbps;
	unsigned int scan_period_max_ms;
	unsigned int page_shift;
};

/* Inputs of a hint fault; TNF_* style flags as in tp_fault. */
#define BL_F_TOPTIER	0x1U
#define BL_F_YOUNG	0x2U
#define BL_F_WRITE	0x4U

struct bl_fault {
	unsigned long latency;
	int nr;
	unsigned int flags;
};

/*
 * should_numa_migrate_memory() of the 2020 RFC (all eight patches) on the
 * tiering path, plus migrate_balanced_pgdat(): ticks are jiffies with
 * HZ = 1000.
 */
int bl_decide_rfc(const struct bl_sysctl *s, struct bl_pgdat *pg,
		   struct bl_pcp *pcp, const struct bl_fault *f,
		   unsigned long now);
/* The same for Linux 6.1 (ticks are milliseconds). */
int bl_decide_61(const struct bl_sysctl *s, struct bl_pgdat *pg,
		       struct bl_pcp *pcp, const struct bl_fault *f,
		       unsigned long now);

/* -- VMA scan filters --------------------------------------------------- */

/**
 * struct bl_vma - a VMA and its vma_numab_state
 * @vm_start: start address
 * @vm_end: end address
 * @next_scan: end of the new-VMA delay
 * @next_pid_reset: next window rotation
 * @access_pids: PID-hash bitmaps, previous and current window
 * @vma_scan_select: the 2023 disjoint-VMA RFC's countdown
 * @start_scan_seq: 6.7: numa_scan_seq when the state was created
 * @prev_scan_seq: 6.7: sequence of the last scan
 */
struct bl_vma {
	unsigned long vm_start;
	unsigned long vm_end;
	unsigned long next_scan;
	unsigned long next_pid_reset;
	unsigned long access_pids[2];
	unsigned long vma_scan_select;
	int start_scan_seq;
	int prev_scan_seq;
};

/**
 * struct bl_vma_mm - what the scanner reads from mm and current
 * @numa_scan_seq: the mm's scan sequence
 * @numa_scan_offset: the mm's scan offset
 * @nr_threads: get_nr_threads(current)
 * @pid: current->pid
 * @forced: 6.7's vma_pids_forced
 * @scan_delay_ms: sysctl_numa_balancing_scan_delay
 */
struct bl_vma_mm {
	int numa_scan_seq;
	unsigned long numa_scan_offset;
	int nr_threads;
	int pid;
	bool forced;
	unsigned int scan_delay_ms;
};

void bl_vma_init(struct bl_vma *v, const struct bl_vma_mm *mm,
		 unsigned long now);
/*
 * Linux 6.5 + the 2023 disjoint-VMA RFC: true = scan (the VMA part of
 * task_numa_work())
 */
bool bl_vma_check_disjoint(struct bl_vma *v, const struct bl_vma_mm *mm,
		       unsigned long now);
/* Linux 6.7: true = scan */
bool bl_vma_check_67(struct bl_vma *v, const struct bl_vma_mm *mm,
			   unsigned long now);
/* vma_set_access_pid_bit() */
void bl_vma_note(struct bl_vma *v, int pid);

#endif /* TP_BENCH_BASELINES_H */
