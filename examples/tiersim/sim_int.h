/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * tiersim: the model's internals, shared by its files (not by main.c and
 * the output code, which use sim.h only):
 *
 *   sim_cfg.c      profiles, the kernel's defaults, watermarks, task_scan_min(),
 *                  validation
 *   sim_src.c      sources: workloads and traces, the stream reader, the
 *                  oracle's counts
 *   sim_reclaim.c  fast-tier slots, first-touch allocation, the LRU and kswapd
 *   sim_numa.c     the adaptive scan period, hint faults and promotion, the
 *                  NUMA scanner
 *   sim_mem.c      TLBs and shootdowns, bandwidth and loaded latency
 *   sim_kthread.c  past Linux 6.1: the goal controller's loop, the hotness
 *                  record, kmigrated, the accessed-bit scanner
 *   sim_damon.c    DAMON-based tiering: two kdamonds, their regions and
 *                  schemes
 *   sim_setup.c    a run's setup and teardown, the self-checks
 *   sim.c          the threads, sampling, events and the main loop
 *
 * Time: every thread of the process has a clock of its own, and the
 * threads run in time order (the one with the earliest clock runs until it
 * passes the next one's), so every rule that works in wall time (the rate
 * limit, the hot threshold and its controller, the scan period, the PID
 * windows) sees the process's real rates. kswapd has a clock of its own.
 *
 * Speed: the common access (page allocated, no hint fault armed, the page
 * in the thread's TLB) reads one byte of per-page state and one TLB entry
 * and adds a table cost to the clock. All periodic work (kswapd, sampling,
 * the bandwidth epoch) hangs off one "next event" time, the scanner off
 * each thread's next tick, compared once per access.
 */
#ifndef _TIERSIM_SIM_INT_H
#define _TIERSIM_SIM_INT_H

#include "sim.h"

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)

/*
 * A function of one file that the tests call (they link the simulator's
 * objects; the prototypes are at the end and in sim_damon.h): external for
 * them, and inlined wherever its own file calls it, as the compiler did
 * while it was static. Out of line, pick() and run_slice() alone cost
 * disjoint-vma's run 9 % more instructions; inlined, a run takes what it
 * took within 1 %.
 */
#define SIM_TESTED_INLINE	inline __attribute__((always_inline))

#define BATCH		4096
#define PREFETCH	16		/* accesses ahead */
#define NO_SLOT		UINT64_MAX
#define T_NEVER		UINT64_MAX
#define PID_BASE	1000U
#define KSWAPD_BATCH	32U		/* SWAP_CLUSTER_MAX */
#define DEF_PRIORITY	12		/* mm/vmscan.c */
#define MAX_RECLAIM_RETRIES 16		/* include/linux/mm.h */
#define SWAPPINESS	60		/* vm.swappiness's default */
#define MAX_SCAN_WINDOW	2560U		/* MB/s, kernel/sched/fair.c */

/* ---- the simulation state ------------------------------------------------ */

#define NO_UNIT		UINT64_MAX	/* an empty slot or TLB entry */
#define TICK_NS		4000000ULL	/* TICK_NSEC at HZ=250 (Debian) */
#define TLB_RANGE_MAX	33		/* tlb_single_page_flush_ceiling */
#define BW_EPOCH_NS	10000ULL	/* utilisation measured over 10 us */
#define KMIG_SLEEP_NS	(100 * SIM_NS_PER_MS)	/* kmigrated's sleep */

/*
 * The node's clock when the run starts. tierpol's node is initialised at
 * boot, at 0 on its clock (as pgdat's nbp_th_start and nbp_rl_start are
 * 0), and the run starts where 6.1's u32 millisecond clock,
 * jiffies_to_msecs(jiffies), is past 0 at boot: INITIAL_JIFFIES puts it
 * 300 s short of wrapping, so `now - start` is 2^32 ms - 300 s at boot.
 * The first decision that reaches the threshold's controller closes its
 * first period (candidates since boot: none, so the threshold rises a
 * step) and the rate limiter's first window, as in the kernel (for any
 * period under 49 days); a policy past 6.1 integrated at boot sees the
 * same, its node initialised long before a workload starts.
 */
#define SIM_NODE_BOOT_NS	((0x100000000ULL - 300000) * SIM_NS_PER_MS)
#define UTIL_MAX	0.95		/* the loaded latency's cap */

struct svma {
	u64 first;		/* first unit */
	u64 n;			/* units */
	u64 start;		/* address */
	u64 end;		/* address, exclusive */
	int inited;
	struct tp_vma_scan scan;
};

enum { TH_RUN, TH_WAIT, TH_DONE };

/**
 * struct sthread - one thread of the simulated process
 * @now: its clock (wall time), ns
 * @idle: wall time it spent waiting for a phase to end (not on a CPU)
 * @tid: thread id (its PID is PID_BASE + @tid)
 * @state: TH_RUN, TH_WAIT (its share of the phase is done) or TH_DONE
 * @ws: its stream (workloads)
 * @buf: its next accesses, @pos the next one, @got how many
 * @gap: a timed trace's time between accesses
 * @tlb: its TLB, direct-mapped over units; NO_UNIT is empty
 * @node_stamp: p->node_stamp (runtime, ns)
 * @scan_period: p->numa_scan_period, ns
 * @stamped: task_tick_numa() found node_stamp set (task_scan_start done)
 * @migrate_retry: p->numa_migrate_retry
 * @task_seq: p->numa_scan_seq
 * @locality: p->numa_faults_locality: remote, local
 * @next_tick: the wall time at which its runtime passes node_stamp + period
 */
struct sthread {
	u64 now;
	u64 idle;
	u32 tid;
	int state;
	struct wl_thread ws;
	u64 *buf, *gap;
	u32 pos, got;
	u64 *tlb;
	u64 node_stamp;
	u64 scan_period;
	int stamped;
	u64 migrate_retry;
	u32 task_seq;
	u64 locality[2];
	u64 next_tick;
};

/* A hotness record of every unit: a format and its array (byte or word). */
struct sim_hotrec {
	struct tp_hot fmt;
	u8 *b;
	u32 *w;
};

/*
 * DAMON's page flags beside the PTE's accessed bit (policy damon only):
 * DAMON's access check clears the accessed bit and keeps what it saw for
 * reclaim in PG_young, and marks the page PG_idle until reclaim or the
 * next check finds it referenced (mm/page_idle.c).
 */
#define PGX_YOUNG	0x1
#define PGX_IDLE	0x2

struct sim_kdamond;

/* What hot_access() found. */
#define HOT_READY	1	/* the policy's record is ready */
#define HOT_ROOM	2	/* only the record for a tier with room is */

struct sim {
	const struct sim_cfg *c;
	const struct sim_policy *p;
	const struct sim_src *src;
	struct sim_result *r;

	struct tp_node node;
	struct tp_node_cpu cpu;	/* one simulated CPU's counters */
	struct tp_policy tpp;
	struct tp_atime fmt;
	struct tp_vma_profile vprof;
	struct tp_scan_ring ring;
	struct tp_scan_pass pass[TP_DEFAULT_RING_DEPTH];

	u32 ushift;		/* log2 stream pages per unit: 0 or 9 (THP) */
	u64 upages;		/* the machine's 4 KiB pages per unit */
	u64 ubytes;		/* their address space */
	u32 K;			/* --scale: machine pages per stream page */
	u64 nr_units;
	u8 *flags;
	u32 *atime;		/* LAT_ATIME only */

	u64 *fslot;		/* fast-tier slots: unit or NO_UNIT */
	u32 *fpromo;		/* its promotion time in ms + 1; 0: none */
	u64 *ffree;		/* free slot stack */
	u64 nffree;
	u64 fcap, fused;	/* fast tier, units */
	u64 scap, sused;	/* slow tier, units (sused <= scap) */
	u64 init_fast_cap;	/* allocation on the fast tier stops here */
	u64 hand;		/* CLOCK hand */
	/* --lru two-list: the inactive (0) and active (1) lists of slots */
	int lru;
	u64 *lnext, *lprev;
	u64 lhead[2], ltail[2];
	u64 lcount[2];
	u64 wm[4];

	int scan_on, scan_fast, scan_slow, young_clear, stamp, tiering;

	u32 nr_vmas;
	struct svma *vma;
	struct sim_vma_stats *vst;

	/* The threads; @cur runs, its clock is @now (the global time) */
	u32 nr_thr;
	struct sthread *thr;
	struct sthread *cur;
	u64 now;
	u64 next_event;		/* sampling, kswapd, bandwidth epoch */
	u32 cur_tid;		/* thread of the access being processed */
	u32 phase;		/* the phase all threads are in */
	u64 ph_start, ph_promo, ph_faults, ph_stall;	/* at its start */
	struct trace_stream ts;	/* a trace's stream (one thread) */
	int ts_open;
	u64 cpu_ns;		/* CPU time per access */
	u32 ci;			/* --cpu-ns-file: the current step */

	/* NUMA balancing: the mm's side, and the settings */
	u64 scan_units;
	u64 fixed_period;	/* --scan-period-ms, ns; 0: adaptive */
	u64 offset;		/* mm->numa_scan_offset (an address) */
	u32 seq;		/* mm->numa_scan_seq */
	u64 numa_next_scan;	/* mm->numa_next_scan */
	u64 period_max_ms;	/* numa_balancing_scan_period_max_ms */
	u64 reclaim_ns;		/* kswapd's cost per page examined */

	int kswapd_awake;
	u64 kswapd_clock;
	u64 kneed;		/* the largest unit asked for, pages: with
				 * --kswapd rounds since kswapd last took it
				 * (pgdat->kswapd_order) */
	u32 kswapd_n;		/* demotions in the current batch */
	int picking;		/* a clock_pick() is under way */
	u64 clock_tries;	/* its remaining budget of slots (--kswapd
				 * rounds: the batch's) */
	u64 inflight;		/* the slot kswapd is demoting, or NO_UNIT */
	/* --kswapd rounds: balance_pgdat()'s priority and the round under way */
	int krounds;
	int kprio;
	int kround;		/* a round is under way */
	u64 kquota;		/* the round's pages to examine */
	u64 kreclaimed;		/* units it demoted */
	u64 knr[2];		/* --lru two-list: units left to examine on the
				 * inactive (0) and active (1) list; --lru
				 * clock: slots left, past the batch (0) */
	u64 kbat;		/* units left in the batch under way */
	int klist;		/* the list of that batch */
	u64 kscanned;		/* inactive units examined (nr_scanned) */
	int kstep;		/* the round's step: KR_AGE, KR_SCAN, KR_CLOSE */
	u64 kage;		/* units left to deactivate in its aging batch */
	u64 kbal_reclaimed;	/* units demoted by this balance_pgdat() */
	int kbal;		/* a balance_pgdat() is under way */
	u64 korder;		/* its order (sc->order), pages (0: order 0) */
	u64 kalloc;		/* the order it began at (alloc_order) */
	u32 kfailures;		/* the node's kswapd_failures */
	u64 mig_free_at;	/* migration channel busy until */
	u64 xfer_ns;		/* one unit through the bandwidth cap */
	u64 mig_cpu_ns;		/* one unit's migration CPU time */
	u64 demote_cpu_ns;	/* kswapd's, per unit demoted */

	/* Bandwidth and loaded latency, per epoch of BW_EPOCH_NS */
	int bw;			/* a tier has a bandwidth limit */
	u64 next_bw;
	u64 ep_cnt[4];		/* accesses by (tier, write) this epoch */
	double ep_bytes[4];	/* other traffic: slow r/w, fast r/w */
	double util[2];		/* smoothed utilisation: slow, fast */
	u64 lat[4];		/* loaded latency by (tier, write), ns */
	u64 cost[4];		/* a thread's stall per access: lat / mlp */
	u32 mlp;
	u64 tlb_mask;		/* TLB entries - 1 */

	u64 next_sample, sample_ns;

	/* The control loop and kernel threads past Linux 6.1 (sim_kthread.c) */
	struct tp_policy_cfg pcfg;	/* the settings in force */
	struct tp_goal goal;
	u64 next_ctl;		/* the next control step, T_NEVER: none */
	u64 ctl_ns;
	u64 ctl_promo, ctl_pp;	/* promotions and ping-pong at the last */
	struct sim_hotrec rec[2];	/* the record, the one for room */
	u64 *kq;		/* kmigrated's queue of admitted units */
	u64 kq_head, kq_n;
	u64 kmig_clock;		/* kmigrated's clock, T_NEVER: none */
	int kmig_wait;		/* kmigrated waits for kswapd to make room */
	u64 next_age;		/* kmigrated's next walk over the records */
	u64 abit_clock;		/* the A-bit scanner's next pass, T_NEVER */
	u64 abit_ns;
	u64 damon_clock;	/* the kdamonds' next sample, T_NEVER: none */
	struct sim_kdamond *kd;	/* DAMON: the two kdamonds, or NULL */
	u8 *pgx;		/* DAMON: PGX_* of every unit */
	struct tp_fault_clock fclk;	/* LAT_FAULTS */
	struct tp_fault_clock_cpu fcpu;
	struct tp_atime ffmt;	/* stamps on the fault-count clock */

	int failed;
};

/* The VMA holding unit @u. */
static inline u32 vma_of(const struct sim *s, u64 u)
{
	u32 lo = 0, hi = s->nr_vmas;

	while (hi - lo > 1) {
		u32 mid = (lo + hi) / 2;

		if (s->vma[mid].first <= u)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* The address of unit @u. */
static inline u64 unit_addr(const struct sim *s, u64 u)
{
	const struct svma *v;

	if (s->src->tr)
		return s->src->tr->vpn[u] << 12;
	v = &s->vma[vma_of(s, u)];
	return v->start + (u - v->first) * s->ubytes;
}

/*
 * Book the migration channel for one unit's copy, starting at @t or once
 * the channel is free: returns when the copy starts.
 */
static inline u64 mig_book(struct sim *s, u64 t)
{
	u64 start = t > s->mig_free_at ? t : s->mig_free_at;

	s->mig_free_at = start + s->xfer_ns;
	return start;
}

static inline u64 fast_free_pages(const struct sim *s)
{
	return (s->fcap - s->fused) * s->upages;
}

static inline void fast_mem(const struct sim *s, struct tp_node_mem *m)
{
	m->free = fast_free_pages(s);
	m->wmark_min = s->wm[0];
	m->wmark_low = s->wm[1];
	m->wmark_high = s->wm[2];
	m->wmark_promo = s->wm[3];
	m->present = s->fcap * s->upages;
}

static inline void update_next_event(struct sim *s)
{
	u64 t = s->next_sample;

	if (s->next_bw < t)
		t = s->next_bw;
	if (s->kswapd_awake && s->kswapd_clock < t)
		t = s->kswapd_clock;
	if (s->next_ctl < t)
		t = s->next_ctl;
	if (s->kmig_clock < t)
		t = s->kmig_clock;
	if (s->abit_clock < t)
		t = s->abit_clock;
	if (s->next_age < t)
		t = s->next_age;
	if (s->damon_clock < t)
		t = s->damon_clock;
	s->next_event = t;
}

#define CLOCK_NONE	UINT64_MAX		/* nothing old: two sweeps */
#define CLOCK_LATER	(UINT64_MAX - 1)	/* kswapd's clock passed now */

/* A stream read in wl_fill()'s order: a workload generator or a trace. */
struct reader {
	const struct sim_src *src;
	struct wl wl;
	struct trace_stream ts;
};

/*
 * The calls into tierpol that its 1.0 API changes (a per-CPU counter slot
 * for tp_decide(), statistics folded per CPU): one place each. The
 * objects' set-up is sim_setup()'s (sim_setup.c).
 */
static inline int node_decide(struct sim *s, const struct tp_fault *f,
			      const struct tp_node_mem *m)
{
	return tp_decide(&s->tpp, &s->node, &s->cpu, f, m,
			 s->now + SIM_NODE_BOOT_NS);
}

static inline void node_stats(const struct sim *s, struct sim_node_stats *o)
{
	struct tp_node_stats n;

	tp_node_stats_read(&s->tpp, &s->node, &n);
	tp_node_stats_add(&n, &s->cpu);
	o->pgpromote_candidate = n.candidate;
	o->pgpromote_candidate_nrl = n.candidate_nrl;
	o->pgpromote_success = n.success;
	o->promote_hot = n.verdict[TP_PROMOTE];
	o->promote_nrl = n.verdict[TP_PROMOTE_NRL];
	o->refused_mode = n.verdict[TP_REFUSE_MODE];
	o->refused_toptier = n.verdict[TP_REFUSE_TOPTIER];
	o->refused_not_young = n.verdict[TP_REFUSE_NOT_YOUNG];
	o->refused_cold = n.verdict[TP_REFUSE_COLD];
	o->refused_ratelimit = n.verdict[TP_REFUSE_RATELIMIT];
	o->refused_nospace = n.verdict[TP_REFUSE_NOSPACE];
	o->decided = n.decided;
	o->th_raised = n.th_raised;
	o->th_lowered = n.th_lowered;
	o->threshold = n.threshold;
}

/* sim_cfg.c */
u64 sim_isqrt(u64 x);
u64 sim_scan_windows(const struct sim_cfg *c, u64 rss_pages);
u64 sim_units(const struct sim_cfg *c, u64 pages);
u64 sim_tlb_units(const struct sim_cfg *c);
u64 sim_task_scan_min_ms(const struct sim_cfg *c, u64 rss_pages);

/* sim_src.c */
int reader_open(struct reader *rd, const struct sim_src *src, char *err,
		size_t errlen);
long reader_fill(struct reader *rd, u64 *buf, u64 *gap, size_t n,
		 u32 *phase, char *err, size_t errlen);
void reader_close(struct reader *rd);

/* sim_reclaim.c */
void slot_insert(struct sim *s, u64 u, u32 promo_ms);
void wake_kswapd(struct sim *s);
void wake_kswapd_unit(struct sim *s);
void kswapd_run(struct sim *s);
void kswapd_finish(struct sim *s);
void demote_now(struct sim *s, u64 sl, u64 *clock);
u8 alloc_unit(struct sim *s, u64 u);

/* sim_kthread.c */
int kthread_setup(struct sim *s);
void kthread_teardown(struct sim *s);
void ctl_step(struct sim *s);
int hot_access(struct sim *s, u64 u);
void hot_age(struct sim *s);
void kmig_queue(struct sim *s, u64 u);
void kmig_run(struct sim *s);
void abit_run(struct sim *s);

/* sim_damon.c */
int damon_setup(struct sim *s);
void damon_teardown(struct sim *s);
void damon_run(struct sim *s);
u64 damon_quota_mbps(const struct sim *s);
void damon_end(struct sim *s);

/* sim_numa.c */
void unit_to_fast(struct sim *s, u64 u, u64 when);
u64 task_scan_min_ns(const struct sim *s);
u8 hint_fault(struct sim *s, struct sthread *t, u64 u, u32 write, u32 tid);
void numa_thread_init(struct sim *s, struct sthread *t);
void numa_tick(struct sim *s, struct sthread *t);

/* sim_mem.c */
void tlb_invalidate(struct sim *s, u64 u);
void tlb_flush_all(struct sim *s);
void tlb_shootdown(struct sim *s, u64 *clock, int workload);
void media_traffic(struct sim *s, int tier, int write, u64 bytes);
void mem_costs(struct sim *s);
void bw_epoch(struct sim *s, u64 epoch_ns);

/* sim_setup.c */
int sim_setup(struct sim *s);
void sim_teardown(struct sim *s);
int oracle_distance(struct sim *s);
int sim_check(struct sim *s);

/* sim.c */
void sim_fail(struct sim *s, const char *what, int ret);
void thread_update_tick(const struct sim *s, struct sthread *t);

/*
 * For the tests (tests/test_tiersim*.c link the simulator's objects): no
 * other file calls these (SIM_TESTED_INLINE).
 */
/* sim_reclaim.c */
void lru_add(struct sim *s, int l, u64 sl);
void lru_del(struct sim *s, int l, u64 sl);
void slot_remove(struct sim *s, u64 sl);
int page_referenced(struct sim *s, u64 u);
u64 lru_pick(struct sim *s);
void demote(struct sim *s, u64 sl);
u64 round_units(const struct sim *s, u64 pages);
void round_targets(struct sim *s);
void round_begin(struct sim *s);
u64 round_pick(struct sim *s, u64 nr_to_reclaim);
/* sim_numa.c */
u64 fault_latency(struct sim *s, u64 u, int fast);
/* sim.c */
struct sthread *pick(struct sim *s, u64 *second);
void run_slice(struct sim *s, struct sthread *t, u64 limit);

#endif /* _TIERSIM_SIM_INT_H */
