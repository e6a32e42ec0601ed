// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * tiersim: NUMA balancing in tiering mode: the adaptive scan period
 * (kernel/sched/fair.c), hint faults and promotion, and the NUMA scanner
 * (task_numa_work(), change_prot_numa()); docs/tiersim-model.md, "The
 * NUMA scanner" and "Hint faults".
 */
#include "sim_int.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* First unit of VMA @v at or above address @addr. */
static u64 vma_unit_at(const struct sim *s, const struct svma *v, u64 addr)
{
	u64 lo, hi, vpn;

	if (addr <= v->start)
		return v->first;
	if (!s->src->tr)
		return v->first + (addr - v->start + s->ubytes - 1) /
		       s->ubytes;
	vpn = (addr + 4095) >> 12;
	lo = v->first;
	hi = v->first + v->n;
	while (lo < hi) {
		u64 mid = lo + (hi - lo) / 2;

		if (s->src->tr->vpn[mid] < vpn)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Address just past unit @u - 1 (the end of a scanned range [.., u)). */
static u64 unit_end_addr(const struct sim *s, const struct svma *v, u64 u)
{
	if (u >= v->first + v->n)
		return v->end;
	if (s->src->tr)
		return (s->src->tr->vpn[u - 1] + 1) << 12;
	return v->start + (u - v->first) * s->ubytes;
}

/* ---- the adaptive scan period (kernel/sched/fair.c) ---------------------------- */

/* The task's RSS, pages. */
static u64 rss_pages(const struct sim *s)
{
	return s->r->alloc_fast + s->r->alloc_slow;
}

/* task_scan_min() of the current RSS, in ns (whole ms, as the kernel). */
u64 task_scan_min_ns(const struct sim *s)
{
	return sim_task_scan_min_ms(s->c, rss_pages(s)) * SIM_NS_PER_MS;
}

/* task_scan_max(), no NUMA group. */
static u64 task_scan_max_ns(const struct sim *s)
{
	u64 smin = task_scan_min_ns(s);
	u64 smax = s->period_max_ms / sim_scan_windows(s->c, rss_pages(s)) *
		   SIM_NS_PER_MS;

	return smax > smin ? smax : smin;
}

/*
 * update_task_scan_period() for thread @t. In tiering mode without
 * NUMA_BALANCING_NORMAL the only faults that reach the statistics are
 * promotions, which are remote and private (a slow-tier page's last_cpupid
 * holds its access time, so the fault counts as a first access): local +
 * shared == 0, and the period doubles up to task_scan_max() at every new
 * scan sequence that sees a promotion. Faults on fast-tier pages (policies
 * that scan it) are local; all faults are taken as private (tiersim does
 * not keep last_cpupid), so the period then grows by 30 % (ps_ratio 10 of
 * 10).
 */
static void update_scan_period(struct sim *s, struct sthread *t)
{
	u64 local = t->locality[1];
	u64 period_ms = t->scan_period / SIM_NS_PER_MS, max, min, slot;

	max = task_scan_max_ns(s);
	if (!local) {
		t->scan_period = 2 * t->scan_period < max ?
				 2 * t->scan_period : max;
		s->numa_next_scan = s->now + t->scan_period;
	} else {
		slot = (period_ms + 9) / 10;	/* DIV_ROUND_UP(, SLOTS) */
		t->scan_period += 3 * slot * SIM_NS_PER_MS;
		min = task_scan_min_ns(s);
		if (t->scan_period < min)
			t->scan_period = min;
		if (t->scan_period > max)
			t->scan_period = max;
		t->locality[0] = t->locality[1] = 0;
	}
	thread_update_tick(s, t);
}

/*
 * task_numa_fault() of thread @t for a fault whose page is on the fast
 * tier when it returns (@local: it was there already; else it was just
 * promoted). A slow-tier fault that stays on the slow tier returns before
 * this in tiering mode. The first such fault after the mm's scan sequence
 * moved runs task_numa_placement() and so update_task_scan_period(); the
 * next placement is tried no sooner than numa_migrate_preferred()'s retry
 * interval, min(1 s, period / 16).
 */
static void numa_fault_stats(struct sim *s, struct sthread *t, int local)
{
	u64 retry;

	if (s->fixed_period)
		return;
	if (s->now > t->migrate_retry && t->task_seq != s->seq) {
		t->task_seq = s->seq;
		update_scan_period(s, t);
		retry = t->scan_period / 16;
		t->migrate_retry = s->now + (retry < 1000 * SIM_NS_PER_MS ?
					     retry : 1000 * SIM_NS_PER_MS);
	}
	t->locality[local] += s->upages;
}

/* ---- promotion and hint faults --------------------------------------------- */

/*
 * Unit @u is on the fast tier from @when on: its state, its copy's traffic
 * on both tiers, its translation out of the TLBs, the statistics. The
 * migrating thread pays the time and the shootdown.
 */
void unit_to_fast(struct sim *s, u64 u, u64 when)
{
	struct sim_result *r = s->r;

	s->sused--;
	/* A fresh PTE (remove_migration_pte()): no hint mark left. */
	s->flags[u] = (u8)((s->flags[u] | PF_FAST) & ~(PF_QUEUED | PF_PROT));
	tlb_invalidate(s, u);
	media_traffic(s, 0, 0, s->ubytes);
	media_traffic(s, 1, 1, s->ubytes);
	r->promotions += s->upages;
	slot_insert(s, u, (u32)(when / SIM_NS_PER_MS) + 1);
	s->vst[vma_of(s, u)].promotions += s->upages;
	r->map_promo[u * SIM_MAP_BINS / s->nr_units] += s->upages;
	/* A trace has no regions: its pages are all "other". */
	r->region_promo[s->src->wl ? wl_region(s->src->wl, u << s->ushift) :
			WL_REGION_OTHER] += s->upages;
}

/*
 * Migrate unit @u to the fast tier, in the faulting thread's time: the
 * migration's CPU time, a wait for the migration channel, and the TLB
 * shootdown of the unmap.
 */
static void promote(struct sim *s, u64 u)
{
	u64 stall = mig_book(s, s->now) - s->now + s->mig_cpu_ns;

	s->now += stall;
	s->r->t_migr += stall;
	tlb_shootdown(s, &s->now, 1);
	unit_to_fast(s, u, s->now);
}

/* The hint fault's latency, and the page's new stamp or history. */
SIM_TESTED_INLINE u64 fault_latency(struct sim *s, u64 u, int fast)
{
	u64 lat, fnow;

	if (s->p->lat_src == LAT_FAULTS) {
		/* Every hint fault (each machine page of a unit) ticks. */
		fnow = tp_fault_clock_tick(&s->fclk, &s->fcpu, s->K);
		if (fast || !s->atime)
			return TP_LATENCY_UNKNOWN;
		lat = tp_atime_latency(&s->ffmt, s->atime[u], fnow);
		s->atime[u] = tp_atime_encode(&s->ffmt, fnow);
		return lat;
	}
	if (fast || (s->p->lat_src == LAT_ATIME && !s->atime))
		return TP_LATENCY_UNKNOWN;
	if (s->p->lat_src == LAT_RING) {
		if (tp_scan_ring_latency(&s->ring, unit_addr(s, u), s->now,
					 &lat) < 0)
			lat = TP_LATENCY_UNKNOWN;
		return lat;
	}
	/*
	 * tp_atime_fault() without its atomic exchange: one simulation owns
	 * its pages.
	 */
	lat = tp_atime_latency(&s->fmt, s->atime[u], s->now);
	s->atime[u] = tp_atime_encode(&s->fmt, s->now);
	return lat;
}

u8 hint_fault(struct sim *s, struct sthread *t, u64 u, u32 write, u32 tid)
{
	struct sim_result *r = s->r;
	struct tp_node_mem m;
	struct tp_fault tf;
	u8 f = s->flags[u];
	int fast = f & PF_FAST, v, ready = HOT_READY;
	u32 vi = vma_of(s, u);

	/* With --scale, a unit's machine pages each take a fault. */
	r->hint_faults += s->K;
	if (fast)
		r->hint_faults_fast += s->K;
	s->vst[vi].hint_faults += s->K;
	s->now += (u64)s->c->costs.fault_ns * s->K;
	r->t_fault += (u64)s->c->costs.fault_ns * s->K;
	if (s->vma[vi].inited)
		tp_vma_scan_note(&s->vma[vi].scan, PID_BASE + tid);

	f &= (u8)~PF_PROT;
	s->flags[u] = f;
	tf.nr_pages = s->upages;
	tf.flags = (fast ? TP_FAULT_TOPTIER : 0) |
		   ((f & PF_YOUNG) ? TP_FAULT_YOUNG : 0) |
		   (write ? TP_FAULT_WRITE : 0);
	tf.latency = fault_latency(s, u, fast);
	/*
	 * A page kmigrated is to move is on its way; with a hotness record
	 * the fault records the access, and only a ready page is judged.
	 */
	if (!fast && (f & PF_QUEUED))
		return f;
	if (!fast && s->p->hot.record != REC_NONE &&
	    (s->p->hot.sources & SRC_HINT)) {
		ready = hot_access(s, u);
		if (!ready)
			return f;
	}
	fast_mem(s, &m);
	/*
	 * Only the free-space bypass takes a page only the room record has
	 * ready, with no latency to judge (as the accessed-bit scanner's).
	 */
	if (ready == HOT_ROOM) {
		if (!tp_free_space_enough(&s->tpp, &m))
			return f;
		tf.latency = TP_LATENCY_UNKNOWN;
	}
	v = node_decide(s, &tf, &m);
	if (v < 0) {
		sim_fail(s, "tp_decide", v);
		return f;
	}
	if (s->kq && (tp_verdict_promotes(v) || v == TP_REFUSE_NOSPACE)) {
		/* Admitted: kmigrated moves it once there is room. */
		kmig_queue(s, u);
		if (v == TP_REFUSE_NOSPACE)
			wake_kswapd_unit(s);
	} else if (tp_verdict_promotes(v)) {
		promote(s, u);
		numa_fault_stats(s, t, 0);
	} else if (v == TP_REFUSE_NOSPACE) {
		wake_kswapd_unit(s);
	}
	if (fast)
		numa_fault_stats(s, t, 1);
	return s->flags[u];
}

/* ---- the NUMA scanner (task_numa_work) ------------------------------------- */

/*
 * change_prot_numa() over [us, ue): returns the PTEs examined. The changed
 * PTEs leave the TLBs: flush_tlb_range() flushes each page of a range of
 * up to TLB_RANGE_MAX pages, the whole TLB for a longer one, on every CPU
 * running the process (a shootdown).
 */
static u64 mark_range(struct sim *s, u64 us, u64 ue, u32 vi, u64 *nr_updates)
{
	const u32 stamp_val = s->p->lat_src == LAT_FAULTS ?
			      tp_atime_encode(&s->ffmt,
					      tp_fault_clock_now(&s->fclk)) :
			      tp_atime_encode(&s->fmt, s->now);
	u64 u, scanned = 0, updates = 0;
	u8 *flags = s->flags;

	for (u = us; u < ue; u++) {
		u8 f = flags[u];

		if (f & PF_NOALLOC)
			continue;	/* no PTE */
		scanned++;
		if (f & PF_PROT) {
			/* The 2020 RFC, patch 5/8: still PROT_NONE: not accessed. */
			if (s->young_clear)
				flags[u] = f & (u8)~PF_YOUNG;
			continue;
		}
		if ((f & PF_FAST) ? !s->scan_fast : !s->scan_slow)
			continue;
		flags[u] = f | PF_PROT;
		updates++;
		if (s->stamp && !(f & PF_FAST))
			s->atime[u] = stamp_val;
	}
	if (updates && (ue - us) * s->upages > TLB_RANGE_MAX) {
		tlb_flush_all(s);
	} else if (updates) {
		for (u = us; u < ue; u++)
			if (flags[u] & PF_PROT)
				tlb_invalidate(s, u);
	}
	if (updates)
		tlb_shootdown(s, &s->now, 1);
	/* In base pages, as numa_pte_updates counts a huge PMD (512). */
	s->vst[vi].pte_scanned += scanned * s->upages;
	s->vst[vi].pte_updates += updates * s->upages;
	s->r->pte_updates += updates * s->upages;
	*nr_updates = updates;
	return scanned;
}

static void scan_pass(struct sim *s, u64 period)
{
	const u32 tid = s->cur_tid, pid = PID_BASE + tid;
	/* HPAGE_SIZE in units */
	const u64 align = s->upages < 512 ? 512 / s->upages : 1;
	s64 pages = (s64)s->scan_units, virt = 8 * (s64)s->scan_units;
	u64 start = s->offset, scanned = 0, updated = 0, cost;
	u32 vi, first_vi;
	int forced = 0, pid_skipped = 0, any = 0;

	/* The first VMA ending above the offset; none: restart at 0. */
	for (vi = 0; vi < s->nr_vmas && s->vma[vi].end <= start; vi++)
		;
	if (vi == s->nr_vmas) {
		s->offset = start = 0;
		s->seq++;
		vi = 0;
	}
	first_vi = vi;
	tp_scan_ring_record(&s->ring, start, s->now);
	s->r->scan_passes++;
retry:
	for (; vi < s->nr_vmas; vi++) {
		struct svma *v = &s->vma[vi];
		struct tp_vma_facts fa;
		u64 us, ue;
		int verdict;

		if (!v->inited) {
			tp_vma_scan_init(&v->scan, &s->vprof, s->seq, s->now);
			v->inited = 1;
		}
		fa.vma_start = v->start;
		fa.vma_end = v->end;
		fa.scan_offset = start;
		fa.scan_seq = s->seq;
		fa.nr_threads = s->src->nr_threads;
		fa.pid = pid;
		fa.forced = forced;
		verdict = tp_vma_scan_check(&v->scan, &s->vprof, &fa, s->now);
		if (verdict < 0) {
			sim_fail(s, "tp_vma_scan_check", verdict);
			return;
		}
		if (!tp_vma_verdict_scans(verdict)) {
			if (verdict == TP_VMA_SKIP_INACTIVE)
				pid_skipped = 1;
			s->vst[vi].skips++;
			continue;
		}
		us = vma_unit_at(s, v, start > v->start ? start : v->start);
		s->vst[vi].scans++;
		any = 1;
		/*
		 * task_numa_work(): chunks of the remaining budget, aligned to
		 * 2 MiB; a chunk that changed no PTE (fast pages skipped,
		 * pages already marked, nothing mapped) only uses the 8x
		 * larger virtual budget.
		 */
		do {
			u64 upd;

			ue = us + (u64)pages;
			ue = ue - v->first + align - 1;
			ue = v->first + ue - ue % align;
			if (ue > v->first + v->n)
				ue = v->first + v->n;
			start = unit_end_addr(s, v, ue);
			/* Before marking, so a fault always finds its pass. */
			tp_scan_ring_advance(&s->ring, start);
			scanned += mark_range(s, us, ue, vi, &upd);
			updated += upd;
			if (upd)
				pages -= (s64)(ue - us);
			virt -= (s64)(ue - us);
			us = ue;
		} while (pages > 0 && virt > 0 && ue != v->first + v->n);
		if (ue == v->first + v->n)
			tp_vma_scan_done(&v->scan, s->seq);
		if (pages <= 0 || virt <= 0)
			break;
	}
	/* Linux 6.7: a pass the PID filter emptied is retried, forced. */
	if (vi == s->nr_vmas && !any && pid_skipped && !forced &&
	    s->p->vma_filter == VMAF_MAINLINE) {
		forced = 1;
		vi = first_vi;
		start = s->offset;
		goto retry;
	}
	if (vi < s->nr_vmas) {
		s->offset = start;
	} else {
		/* reset_ptenuma_scan() */
		s->offset = 0;
		s->seq++;
		/*
		 * The pass reached the end of the address space: it covers
		 * [start, limit). Advancing to the ring's limit says so even
		 * for a pass that began at 0 (an offset of 0 would read as
		 * "no progress" there).
		 */
		tp_scan_ring_advance(&s->ring, ~0ULL);
	}
	s->r->pte_scanned += scanned * s->upages;
	cost = (scanned * s->c->costs.scan_pte_ns +
		updated * s->c->costs.scan_update_ns) * s->K;
	if (s->r->nr_passes < SIM_MAX_PASSES) {
		struct sim_pass *ps = &s->r->pass[s->r->nr_passes++];

		ps->t_ns = s->now;
		ps->cost_ns = cost;
		ps->updates = updated * s->upages;
		ps->seq = s->seq;
		ps->period_ns = period;
	}
	s->now += cost;
	s->r->t_scan += cost;
}


/*
 * init_numa_balancing(): the first thread (the process) starts with
 * node_stamp 0 and the period at scan_delay, and the mm's first scan
 * scan_delay away. Every other thread is created by it at the start:
 * node_stamp is the stagger min(task_scan_max(), period x mm_users x
 * NSEC_PER_MSEC) + 2 ticks, where 6.1 compares task_scan_max()'s
 * milliseconds with nanoseconds, so the stagger is task_scan_max() in ns
 * (tens of us) plus 8 ms; with node_stamp set, its first tick keeps the
 * period at scan_delay instead of task_scan_start().
 */
void numa_thread_init(struct sim *s, struct sthread *t)
{
	t->scan_period = (u64)s->c->scan_delay_ms * SIM_NS_PER_MS;
	t->node_stamp = 0;
	t->stamped = 0;
	if (t->tid) {
		t->node_stamp = task_scan_max_ns(s) / SIM_NS_PER_MS +
				2 * TICK_NS;
		t->stamped = 1;
	}
	t->task_seq = s->seq;
	thread_update_tick(s, t);
}

/*
 * task_tick_numa() and task_numa_work() for thread @t, its runtime (wall
 * time less the time it waited) having passed node_stamp + period: once
 * it has, node_stamp advances by that period (the first time, for a task
 * whose node_stamp was 0, the period becomes task_scan_start() of the
 * RSS); if the mm's next scan time has come, the thread scans: the next
 * scan time becomes now plus its period, node_stamp moves on by 2 ticks
 * (so another thread likely wins the next time) and by 32 times the
 * scan's cost. A fixed period (--scan-period-ms) replaces the period.
 */
void numa_tick(struct sim *s, struct sthread *t)
{
	u64 old = t->scan_period, t0;

	if (!t->stamped) {
		t->stamped = 1;
		t->scan_period = task_scan_min_ns(s);
	}
	if (s->fixed_period)
		t->scan_period = s->fixed_period;
	t->node_stamp += old;
	if (s->now >= s->numa_next_scan) {
		t0 = s->now;
		s->numa_next_scan = s->now + t->scan_period;
		t->node_stamp += 2 * TICK_NS;
		scan_pass(s, t->scan_period);
		t->node_stamp += 32 * (s->now - t0);
	}
	thread_update_tick(s, t);
}
