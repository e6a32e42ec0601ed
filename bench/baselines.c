// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Baselines: the primitives written the obvious way, mostly transcribed from
 * the 2020 RFC's and Linux 6.1's kernel code. See baselines.h for how the
 * kernel's facilities are emulated. Nothing here is tuned: the point is to
 * measure tierpol against the kernel's own code and against what a
 * straightforward port would cost.
 */
#include "baselines.h"

#define READ_ONCE(x)		(*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v)	(*(volatile __typeof__(x) *)&(x) = (v))
#define smp_load_acquire(p)	__atomic_load_n((p), __ATOMIC_ACQUIRE)
#define smp_store_release(p, v)	__atomic_store_n((p), (v), __ATOMIC_RELEASE)

/* cmpxchg(): returns the old value */
#define cmpxchg(p, o, n) ({						\
	__typeof__(*(p)) __o = (o);					\
	__atomic_compare_exchange_n((p), &__o, (n), false,		\
				    __ATOMIC_SEQ_CST, __ATOMIC_RELAXED);\
	__o;								\
})

#define max(a, b)	((a) > (b) ? (a) : (b))
#define min(a, b)	((a) < (b) ? (a) : (b))

#define time_after(a, b)	((long)((b) - (a)) < 0)
#define time_before(a, b)	time_after(b, a)

/* -- scan-history ring -------------------------------------------------- */

void bl_ring_record(struct bl_mm *mm, unsigned long start, unsigned long now)
{
	int idx = mm->numa_scan_idx;

	WRITE_ONCE(mm->numa_scan_starts[idx], start);
	WRITE_ONCE(mm->numa_scan_jiffies[idx], now);
	WRITE_ONCE(mm->numa_scan_offset, start);
	smp_store_release(&mm->numa_scan_idx, (idx + 1) % BL_NUMA_SCAN_NR_HIST);
}

void bl_ring_advance(struct bl_mm *mm, unsigned long end)
{
	WRITE_ONCE(mm->numa_scan_offset, end);
}

/* MAX_SCAN_WINDOW * (1UL << 22): the RFC's stretch of an empty newest pass */
#define BL_EMPTY_STRETCH	(2560UL * (1UL << 22))
#define BL_TASK_SIZE		(1UL << 47)

long bl_ring_latency(const struct bl_mm *mm, unsigned long addr,
		     unsigned long now)
{
	unsigned long start, end;
	int i, j;
	long latency = 0;

	i = smp_load_acquire(&mm->numa_scan_idx);
	i = (i - 1 + BL_NUMA_SCAN_NR_HIST) % BL_NUMA_SCAN_NR_HIST;

	end = READ_ONCE(mm->numa_scan_offset);
	start = READ_ONCE(mm->numa_scan_starts[i]);
	if (start == end)
		end = start + BL_EMPTY_STRETCH;
	for (j = 0; j < BL_NUMA_SCAN_NR_HIST; j++) {
		latency = now - READ_ONCE(mm->numa_scan_jiffies[i]);
		start = READ_ONCE(mm->numa_scan_starts[i]);
		/* Scan pass the end of address space */
		if (end < start)
			end = BL_TASK_SIZE;
		if (addr >= start && addr < end)
			return latency;
		end = start;
		i = (i - 1 + BL_NUMA_SCAN_NR_HIST) % BL_NUMA_SCAN_NR_HIST;
	}
	return latency;
}

long bl_ring_latency_rt(const struct bl_mm *mm, unsigned long addr,
			unsigned long now)
{
	unsigned long start, end;
	int i, j, nr = mm->nr_hist;
	long latency = 0;

	i = smp_load_acquire(&mm->numa_scan_idx);
	i = (i - 1 + nr) % nr;

	end = READ_ONCE(mm->numa_scan_offset);
	start = READ_ONCE(mm->numa_scan_starts[i]);
	if (start == end)
		end = start + BL_EMPTY_STRETCH;
	for (j = 0; j < nr; j++) {
		latency = now - READ_ONCE(mm->numa_scan_jiffies[i]);
		start = READ_ONCE(mm->numa_scan_starts[i]);
		if (end < start)
			end = BL_TASK_SIZE;
		if (addr >= start && addr < end)
			return latency;
		end = start;
		i = (i - 1 + nr) % nr;
	}
	return latency;
}

/* -- per-page access time ----------------------------------------------- */

unsigned int bl_atime_encode(const struct bl_atime *a, unsigned long now)
{
	return (unsigned int)(now / a->bucket) & a->mask;
}

unsigned long bl_atime_latency(const struct bl_atime *a, unsigned int stamp,
			       unsigned long now)
{
	return ((unsigned int)(now / a->bucket) - stamp) & a->mask;
}

unsigned long bl_atime_fault(const struct bl_atime *a, unsigned int *stamp,
			     unsigned long now)
{
	unsigned int t = (unsigned int)(now / a->bucket);
	unsigned int old = __atomic_exchange_n(stamp, t & a->mask,
					       __ATOMIC_SEQ_CST);

	return (t - old) & a->mask;
}

/* -- vmstat ------------------------------------------------------------- */

static void mod_node_page_state(struct bl_pgdat *pg, struct bl_pcp *pcp,
				int item, long delta)
{
	long x = pcp->diff[item] + delta;

	if (x > BL_STAT_THRESHOLD || x < -BL_STAT_THRESHOLD) {
		__atomic_fetch_add(&pg->vm_stat[item], x, __ATOMIC_RELAXED);
		x = 0;
	}
	pcp->diff[item] = x;
}

unsigned long bl_node_page_state(const struct bl_pgdat *pg, int item)
{
	long x = __atomic_load_n(&pg->vm_stat[item], __ATOMIC_RELAXED);

	return x < 0 ? 0 : (unsigned long)x;
}

/* -- rate limiters ------------------------------------------------------ */

bool bl_window_rfc(struct bl_pgdat *pg, struct bl_pcp *pcp,
		    unsigned long rate_limit, int nr, unsigned long now)
{
	unsigned long try, last_ts;

	mod_node_page_state(pg, pcp, BL_NUMA_TRY_MIGRATE, nr);
	try = bl_node_page_state(pg, BL_NUMA_TRY_MIGRATE);
	last_ts = READ_ONCE(pg->numa_ts);
	if (now > last_ts + pg->hz &&
	    cmpxchg(&pg->numa_ts, last_ts, now) == last_ts)
		WRITE_ONCE(pg->numa_try, try);
	if (try - READ_ONCE(pg->numa_try) > rate_limit)
		return false;
	return true;
}

bool bl_window_61(struct bl_pgdat *pg, struct bl_pcp *pcp,
			unsigned long rate_limit, int nr, unsigned long now)
{
	unsigned long nr_cand, start;

	mod_node_page_state(pg, pcp, BL_NUMA_TRY_MIGRATE, nr);
	nr_cand = bl_node_page_state(pg, BL_NUMA_TRY_MIGRATE);
	start = READ_ONCE(pg->numa_ts);
	if (now - start > pg->hz &&
	    cmpxchg(&pg->numa_ts, start, now) == start)
		WRITE_ONCE(pg->nbp_rl_nr_cand, nr_cand);
	if (nr_cand - READ_ONCE(pg->nbp_rl_nr_cand) >= rate_limit)
		return false;
	return true;
}

void bl_bucket_init(struct bl_bucket *b, unsigned long rate,
		    unsigned long burst, unsigned long tps, unsigned long now)
{
	pthread_mutex_init(&b->lock, NULL);
	b->tokens = burst;
	b->burst = burst;
	b->rate = rate;
	b->tps = tps;
	b->last = now;
}

bool bl_bucket_consume(struct bl_bucket *b, unsigned long n,
		       unsigned long now)
{
	unsigned long add;
	bool ok = false;

	pthread_mutex_lock(&b->lock);
	if (now > b->last) {
		add = (now - b->last) * b->rate / b->tps;
		if (add) {
			b->tokens = min(b->tokens + add, b->burst);
			b->last = now;
		}
	}
	if (b->tokens >= n) {
		b->tokens -= n;
		ok = true;
	}
	pthread_mutex_unlock(&b->lock);
	return ok;
}

/* -- hot-threshold controllers ------------------------------------------ */

#define NUMA_MIGRATION_ADJUST_STEPS	16

void bl_thresh_rfc(struct bl_pgdat *pg, unsigned long rate_limit,
		    unsigned long ref_th, unsigned long now,
		    unsigned long period, unsigned long period_ms)
{
	unsigned long last_th_ts, th_period = period;
	unsigned long unit_th, th;
	unsigned long try, ref_try, tdiff;

	last_th_ts = READ_ONCE(pg->numa_threshold_ts);
	if (now > last_th_ts + th_period &&
	    cmpxchg(&pg->numa_threshold_ts, last_th_ts, now) == last_th_ts) {
		ref_try = rate_limit * period_ms / 1000;
		try = bl_node_page_state(pg, BL_NUMA_TRY_MIGRATE);
		tdiff = try - pg->numa_threshold_try;
		unit_th = ref_th / NUMA_MIGRATION_ADJUST_STEPS;
		th = pg->numa_threshold ? : ref_th;
		if (tdiff > ref_try * 11 / 10)
			th = max(th - unit_th, unit_th);
		else if (tdiff < ref_try * 9 / 10)
			th = min(th + unit_th, ref_th);
		pg->numa_threshold_try = try;
		WRITE_ONCE(pg->numa_threshold, th);
	}
}

void bl_thresh_61(struct bl_pgdat *pg, unsigned long rate_limit,
			unsigned int ref_th, unsigned int now_ms,
			unsigned int period_ms)
{
	unsigned int now = now_ms, start, th_period, unit_th, th;
	unsigned long nr_cand, ref_cand, diff_cand;

	th_period = period_ms;
	start = READ_ONCE(pg->nbp_th_start);
	if (now - start > th_period &&
	    cmpxchg(&pg->nbp_th_start, start, now) == start) {
		ref_cand = rate_limit * period_ms / 1000;
		nr_cand = bl_node_page_state(pg, BL_NUMA_TRY_MIGRATE);
		diff_cand = nr_cand - pg->nbp_th_nr_cand;
		unit_th = ref_th * 2 / NUMA_MIGRATION_ADJUST_STEPS;
		th = pg->nbp_threshold ? : ref_th;
		if (diff_cand > ref_cand * 11 / 10)
			th = max(th - unit_th, unit_th);
		else if (diff_cand < ref_cand * 9 / 10)
			th = min(th + unit_th, ref_th * 2);
		pg->nbp_th_nr_cand = nr_cand;
		WRITE_ONCE(pg->nbp_threshold, th);
	}
}

/* -- decisions ---------------------------------------------------------- */

#define TIERING		0x2U

/* migrate_balanced_pgdat(): one zone */
static bool room(const struct bl_pgdat *pg, int nr)
{
	return pg->free > pg->wmark_high + (unsigned long)nr;
}

int bl_decide_rfc(const struct bl_sysctl *s, struct bl_pgdat *pg,
		   struct bl_pcp *pcp, const struct bl_fault *f,
		   unsigned long now)
{
	unsigned long rate_limit, th, def_th;
	int v;

	if (!(READ_ONCE(s->mode) & TIERING)) {
		v = BL_REFUSE_MODE;
		goto out;
	}
	if (f->flags & BL_F_TOPTIER) {	/* next_promotion_node() == -1 */
		v = BL_REFUSE_TOPTIER;
		goto out;
	}
	rate_limit = (unsigned long)s->rate_limit_mbps << (20 - s->page_shift);
	/* pgdat_free_space_enough(): zone_watermark_ok(high + 2 * rl) */
	if (pg->free > pg->wmark_high + rate_limit * 2) {
		v = room(pg, f->nr) ? BL_PROMOTE_NRL : BL_REFUSE_NOSPACE;
		goto out;
	}
	if (!(f->flags & BL_F_YOUNG)) {
		v = BL_REFUSE_NOT_YOUNG;
		goto out;
	}
	def_th = s->hot_threshold_ms;	/* msecs_to_jiffies(), HZ = 1000 */
	bl_thresh_rfc(pg, rate_limit, def_th, now, s->scan_period_max_ms,
		       s->scan_period_max_ms);
	th = READ_ONCE(pg->numa_threshold) ? : def_th;
	if (f->flags & BL_F_WRITE)
		th *= 2;
	if (f->latency > th) {
		v = BL_REFUSE_COLD;
		goto out;
	}
	if (!bl_window_rfc(pg, pcp, rate_limit, f->nr, now))
		v = BL_REFUSE_RATELIMIT;
	else
		v = room(pg, f->nr) ? BL_PROMOTE : BL_REFUSE_NOSPACE;
out:
	pcp->events[v] += f->nr;
	return v;
}

int bl_decide_61(const struct bl_sysctl *s, struct bl_pgdat *pg,
		       struct bl_pcp *pcp, const struct bl_fault *f,
		       unsigned long now)
{
	unsigned long rate_limit, enough;
	unsigned int th, def_th;
	int v;

	if (!(READ_ONCE(s->mode) & TIERING)) {
		v = BL_REFUSE_MODE;
		goto out;
	}
	if (f->flags & BL_F_TOPTIER) {	/* node_is_toptier(src_nid) */
		v = BL_REFUSE_TOPTIER;
		goto out;
	}
	/* pgdat_free_space_enough() */
	enough = max(1UL * 1024 * 1024 * 1024 >> s->page_shift,
		     pg->present >> 4);
	if (pg->free > pg->wmark_promo + enough) {
		/* workload changed, reset hot threshold */
		WRITE_ONCE(pg->nbp_threshold, 0);
		v = room(pg, f->nr) ? BL_PROMOTE_NRL : BL_REFUSE_NOSPACE;
		goto out;
	}
	def_th = s->hot_threshold_ms;
	rate_limit = (unsigned long)s->rate_limit_mbps << (20 - s->page_shift);
	bl_thresh_61(pg, rate_limit, def_th, (unsigned int)now,
			   s->scan_period_max_ms);
	th = READ_ONCE(pg->nbp_threshold) ? : def_th;
	if (f->latency >= th) {
		v = BL_REFUSE_COLD;
		goto out;
	}
	if (!bl_window_61(pg, pcp, rate_limit, f->nr, now))
		v = BL_REFUSE_RATELIMIT;
	else
		v = room(pg, f->nr) ? BL_PROMOTE : BL_REFUSE_NOSPACE;
out:
	pcp->events[v] += f->nr;
	return v;
}

/* -- VMA scan filters --------------------------------------------------- */

#define VMA_4M				(1U << 22)
#define VMA_RATELIMIT_SCALEDOWN_F	7

static unsigned int hash_32(unsigned int val, unsigned int bits)
{
	return (val * 0x61C88647U) >> (32 - bits);
}

void bl_vma_init(struct bl_vma *v, const struct bl_vma_mm *mm,
		 unsigned long now)
{
	v->next_scan = now + mm->scan_delay_ms;
	v->next_pid_reset = v->next_scan + 4UL * mm->scan_delay_ms;
	v->access_pids[0] = 0;
	v->access_pids[1] = 0;
	v->vma_scan_select = 0;
	v->start_scan_seq = mm->numa_scan_seq;
	v->prev_scan_seq = mm->numa_scan_seq - 1;
}

void bl_vma_note(struct bl_vma *v, int pid)
{
	unsigned int bit = hash_32((unsigned int)pid, 6);

	if (!(READ_ONCE(v->access_pids[1]) & (1UL << bit)))
		v->access_pids[1] |= 1UL << bit;
}

static void vma_rotate(struct bl_vma *v, const struct bl_vma_mm *mm,
		       unsigned long now)
{
	if (mm->numa_scan_seq && time_after(now, v->next_pid_reset)) {
		/* msecs_to_jiffies(VMA_PID_RESET_PERIOD), HZ = 1000 */
		v->next_pid_reset = v->next_pid_reset +
				    4UL * mm->scan_delay_ms;
		v->access_pids[0] = READ_ONCE(v->access_pids[1]);
		v->access_pids[1] = 0;
	}
}

static unsigned int vma_scan_ratelimit(const struct bl_vma *vma)
{
	unsigned int vma_size, ratelimit = 0;

	vma_size = (unsigned int)(vma->vm_end - vma->vm_start);
	if (vma_size)
		ratelimit = (VMA_4M / vma_size) >> VMA_RATELIMIT_SCALEDOWN_F;
	return 1 + ratelimit;
}

static bool task_disjoint_vma_select(struct bl_vma *vma)
{
	if (vma->vma_scan_select > 0) {
		vma->vma_scan_select--;
		return false;
	}
	vma->vma_scan_select = vma_scan_ratelimit(vma);
	return true;
}

static bool vma_is_accessed_65(const struct bl_vma *v,
			       const struct bl_vma_mm *mm)
{
	unsigned long pids;

	if (READ_ONCE(mm->numa_scan_seq) < 2)
		return true;
	pids = v->access_pids[0] | v->access_pids[1];
	return pids & (1UL << hash_32((unsigned int)mm->pid, 6));
}

bool bl_vma_check_disjoint(struct bl_vma *v, const struct bl_vma_mm *mm,
		       unsigned long now)
{
	if (mm->numa_scan_seq && time_before(now, v->next_scan))
		return false;
	vma_rotate(v, mm, now);
	return vma_is_accessed_65(v, mm) || task_disjoint_vma_select(v);
}

static bool vma_is_accessed_67(const struct bl_vma *v,
			       const struct bl_vma_mm *mm)
{
	unsigned long pids;

	if (READ_ONCE(mm->numa_scan_seq) - v->start_scan_seq < 2)
		return true;
	pids = v->access_pids[0] | v->access_pids[1];
	if (pids & (1UL << hash_32((unsigned int)mm->pid, 6)))
		return true;
	if (mm->numa_scan_offset > v->vm_start)
		return true;
	if (READ_ONCE(mm->numa_scan_seq) >
	    v->prev_scan_seq + mm->nr_threads)
		return true;
	return false;
}

bool bl_vma_check_67(struct bl_vma *v, const struct bl_vma_mm *mm,
			   unsigned long now)
{
	if (mm->numa_scan_seq && time_before(now, v->next_scan))
		return false;
	vma_rotate(v, mm, now);
	/* Do not rescan VMAs twice within the same sequence. */
	if (v->prev_scan_seq == mm->numa_scan_seq)
		return false;
	if (!mm->forced && !vma_is_accessed_67(v, mm))
		return false;
	v->prev_scan_seq = mm->numa_scan_seq;
	return true;
}
