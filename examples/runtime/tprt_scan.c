// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The scanner thread: Linux 6.1's task_numa_work() in userspace, over the
 * registered regions instead of the whole address space.
 *
 * When it runs (kernel/sched/fair.c, task_tick_numa() and
 * task_numa_work()): the period starts at scan_delay; once a period has
 * passed since node_stamp (wall-clock time here, the task's run time in the
 * kernel), node_stamp advances by the period (the
 * first time the period becomes task_scan_start(), from the process's
 * RSS), and if numa_next_scan has come a pass runs and numa_next_scan
 * becomes now + period. A pass charges node_stamp 32 times its CPU time.
 * The first promotion after each new sweep (numa_scan_seq) doubles the
 * period up to task_scan_max() (tprt_scan_placement(): in tiering mode only
 * promotions reach update_task_scan_period(), with no local faults), no
 * sooner than min(1 s, period / 16) after the last doubling.
 *
 * A pass: each run of blocks about to be protected is recorded in the scan
 * ring (its start, the time, its end) just before the mprotect() that
 * protects it, so a fault always finds its record, and its latency counts
 * from the moment the page was protected, as 6.1's per-page stamp does. For each 2 MiB chunk the
 * pages' nodes are asked (tprt_page_nodes(), else move_pages(2) without
 * nodes, which cannot see protected pages); blocks holding a
 * page on a slow node are protected, the others restored (pinned blocks
 * stay accessible). A pass stops after scan_size_mb of chunks in which it
 * protected something, or 8 times as much address space, or at the end of
 * the last region (a sweep: numa_scan_seq + 1, the next pass starts at the
 * first region). With TPRT_F_SWEEP_FILL, while the fast node fills, the
 * budget is the most the kernel scans in a period (pass_budget()), so the
 * registered memory competes for the room in one pass, and promotions do
 * not double the period.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "tprt_impl.h"

#define MAX_SCAN_WINDOW		2560	/* MB/s, kernel/sched/fair.c */

/* The pagemap, or move_pages(2) without the capability pagemap needs. */
static int default_query(void *const *pages, int *status, size_t n)
{
	if (!tprt_page_nodes(0, pages[0], n, status))
		return 0;
	if (syscall(SYS_move_pages, 0, n, pages, NULL, status, 0) < 0)
		return -errno;
	return 0;
}

static uint64_t thread_cpu_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (uint64_t)t.tv_sec * TPRT_NS_PER_SEC + (uint64_t)t.tv_nsec;
}

/* The process's resident pages (/proc/self/statm), 0 if unknown. */
static uint64_t rss_pages(void)
{
	unsigned long long size, res = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	if (!f)
		return 0;
	if (fscanf(f, "%llu %llu", &size, &res) != 2)
		res = 0;
	fclose(f);
	return res;
}

/* task_nr_scan_windows(): the RSS in scan_size_mb windows, at least 1. */
static uint64_t scan_windows(const struct tprt_rt *rt)
{
	uint64_t win = (uint64_t)rt->cfg.scan_size_mb << (20 - rt->page_shift);
	uint64_t rss = rss_pages();

	if (!rss)
		rss = win;
	return (rss + win - 1) / win;
}

/* task_scan_min(), ms: never faster than MAX_SCAN_WINDOW MB/s. */
static uint32_t task_scan_min(const struct tprt_rt *rt)
{
	uint32_t size = rt->cfg.scan_size_mb, floor, scan;

	floor = 1000 / (size < MAX_SCAN_WINDOW ? MAX_SCAN_WINDOW / size : 1);
	scan = (uint32_t)(rt->cfg.scan_period_min_ms / scan_windows(rt));
	return scan > floor ? scan : floor;
}

/* task_scan_max(), ms, without NUMA groups. */
static uint32_t task_scan_max(const struct tprt_rt *rt)
{
	uint32_t smin = task_scan_min(rt);
	uint32_t smax = (uint32_t)(rt->cfg.scan_period_max_ms /
				   scan_windows(rt));

	return smax > smin ? smax : smin;
}

/*
 * TPRT_F_SWEEP_FILL is set and the fast node fills, from the memory
 * snapshot (a bounded read of the latch; never waits). Scanner, migrator.
 */
static bool sweep_filling(struct tprt_rt *rt)
{
	struct tprt_mem m;

	if (!(rt->cfg.flags & TPRT_F_SWEEP_FILL))
		return false;
	tprt_mem_read(rt, &m);
	return tprt_mem_filling(&m);
}

void tprt_scan_placement(struct tprt_rt *rt, uint64_t now)
{
	uint64_t seq = atomic_load(&rt->seq), retry;
	uint32_t max;

	/*
	 * TPRT_F_SWEEP_FILL: while the fast node fills, a sweep's
	 * promotions are the fill, not a placement that settles: the
	 * period stays, so the passes that sweep come at its pace.
	 */
	if (sweep_filling(rt))
		return;
	pthread_mutex_lock(&rt->scan_lock);
	if (seq != rt->placement_seq && now > rt->migrate_retry) {
		rt->placement_seq = seq;
		max = task_scan_max(rt);
		rt->period_ms = 2 * rt->period_ms < max ? 2 * rt->period_ms :
			       max;
		rt->next_scan = now + rt->period_ms * TPRT_NS_PER_MS;
		retry = rt->period_ms * TPRT_NS_PER_MS / 16;
		rt->migrate_retry = now + (retry < TPRT_NS_PER_SEC ? retry :
					   TPRT_NS_PER_SEC);
	}
	pthread_mutex_unlock(&rt->scan_lock);
}

static int apply_run(struct tprt_rt *rt, struct tprt_region *r, uint64_t b0,
		     uint64_t b1, bool prot)
{
	uint64_t bp = rt->cfg.block_pages, p0 = b0 * bp, p1 = b1 * bp;
	uintptr_t a;
	size_t len;

	if (p1 > r->npages)
		p1 = r->npages;
	a = r->start + (p0 << rt->page_shift);
	len = (p1 - p0) << rt->page_shift;
	atomic_fetch_add_explicit(&rt->scan_calls, 1, memory_order_relaxed);
	if (p1 - p0 > TPRT_FLUSH_CEILING)
		atomic_fetch_add_explicit(&rt->scan_calls_wide, 1,
					  memory_order_relaxed);
	if (r->source == TPRT_SRC_UFFD_WP)
		return tprt_uffd_wp(rt, a, len, prot);
	return mprotect((void *)a, len,
			prot ? PROT_NONE : PROT_READ | PROT_WRITE);
}

/*
 * Blocks [b0, b1) of @r are about to be protected: the newly protected
 * ones get the time as their stamp (6.1 stamps each page when it marks it;
 * a block that stays protected keeps its stamp, as a PTE found marked
 * already keeps its own), so a fault's latency counts from the moment its
 * block was protected, however long the scanner's pass takes. The run is
 * also a pass of the scan ring (TPRT_F_RING_LATENCY).
 */
static void stamp_run(struct tprt_rt *rt, struct tprt_region *r,
		      uint64_t b0, uint64_t b1)
{
	uint64_t bp = rt->cfg.block_pages, p1 = b1 * bp, now = tprt_lat_now(rt);
	uint64_t b;

	if (p1 > r->npages)
		p1 = r->npages;
	for (b = b0; b < b1; b++)
		if (atomic_fetch_and(&r->blk[b], (uint8_t)~TPRT_BLK_FRESH) &
		    TPRT_BLK_FRESH)
			tprt_tp_stamp(rt->tp, &r->stamp[b], now);
	tprt_tp_pass_begin(rt->tp, r->start + ((b0 * bp) << rt->page_shift),
			   now);
	tprt_tp_pass_advance(rt->tp, r->start + (p1 << rt->page_shift));
}

/*
 * Apply the pending run. Under prot_lock. Blocks pinned since the run
 * was planned are left out of a protecting run; a run that cannot be
 * protected (ENOMEM and the like) is restored instead.
 */
static void run_flush(struct tprt_rt *rt)
{
	struct tprt_run *pr = &rt->pend;
	struct tprt_region *r = pr->r;
	uint64_t b, start = pr->b0;

	pr->r = NULL;
	if (!r || atomic_load(&r->state) != TPRT_R_LIVE)
		return;
	if (!pr->prot) {
		apply_run(rt, r, pr->b0, pr->b1, false);
		return;
	}
	for (b = pr->b0; b <= pr->b1; b++) {
		if (b < pr->b1 && !atomic_load(&r->pin[b]))
			continue;
		if (b > start)
			stamp_run(rt, r, start, b);
		if (b > start && apply_run(rt, r, start, b, true))
			tprt_restore_blocks(rt, r, start, b);
		if (b < pr->b1)
			atomic_fetch_and(&r->blk[b], (uint8_t)~TPRT_BLK_STATE);
		start = b + 1;
	}
}

/*
 * Plan blocks [b0, b1) of @r to be given protection @prot: contiguous
 * runs of the same protection join, across chunks, so that one system
 * call (and one TLB flush) covers them.
 */
static void run_add(struct tprt_rt *rt, struct tprt_region *r, uint64_t b0,
		    uint64_t b1, bool prot)
{
	struct tprt_run *pr = &rt->pend;

	if (pr->r && (pr->r != r || pr->prot != prot || pr->b1 != b0))
		run_flush(rt);
	if (!pr->r) {
		pr->r = r;
		pr->b0 = b0;
		pr->prot = prot;
	}
	pr->b1 = b1;
}

/*
 * Plan chunk @c of @r to get the protection @want (one bool per block of
 * the chunk). Only blocks whose protection changes are planned, in runs
 * of such blocks (a block that keeps its protection is not passed to the
 * system call again: fewer PTEs to walk, and a range of 33 pages or fewer
 * is flushed page by page on x86, where a wider one flushes the whole
 * TLB), unless @full: then every run is applied again (this also repairs
 * a block a handler restored while the scanner was protecting it, which
 * the runtime would otherwise think protected). Under prot_lock; the last
 * run stays pending (run_flush()).
 * Return: blocks newly protected.
 */
int tprt_apply_blocks(struct tprt_rt *rt, struct tprt_region *r, uint64_t c,
		      const bool *want, bool full)
{
	uint64_t per = rt->cfg.chunk_pages / rt->cfg.block_pages;
	uint64_t b0 = c * per, n = r->nblocks - b0, i, j, b, runs = 1;
	int fresh = 0;
	bool none = false;

	if (n > per)
		n = per;
	for (i = 1; i < n; i++)
		runs += want[i] != want[i - 1];
	/* Over the VMA budget: leave the chunk unprotected this time. */
	if (r->source == TPRT_SRC_MPROTECT &&
	    atomic_load(&rt->vma_total) - atomic_load(&r->chunk_est[c]) +
	    runs > rt->vma_cap) {
		none = true;
		runs = 1;
		full = true;
	}
	tprt_est_set(rt, r, c, (uint32_t)runs);
	for (i = 0; i < n; i = j) {
		bool prot = !none && want[i];
		uint64_t first = n;

		for (j = i; j < n && (!none && want[j]) == prot; j++) {
			uint8_t old;

			b = b0 + j;
			/*
			 * Newly protected: stamped when its run is applied;
			 * protected already: it keeps its stamp. (Only the
			 * scanner sets the bits; a handler may clear them.)
			 */
			old = atomic_load(&r->blk[b]);
			if (prot)
				atomic_fetch_or(&r->blk[b], TPRT_BLK_PROT |
						(old & TPRT_BLK_PROT ? 0 :
						 TPRT_BLK_FRESH));
			else
				old = atomic_fetch_and(&r->blk[b],
					(uint8_t)~TPRT_BLK_STATE);
			/* Samples of the fast node take no scan budget. */
			if (prot && !(old & (TPRT_BLK_PROT | TPRT_BLK_SAMPLE)))
				fresh++;
			if (full || !!(old & TPRT_BLK_PROT) != prot) {
				if (first == n)
					first = j;
			} else if (first < n) {
				run_add(rt, r, b0 + first, b0 + j, prot);
				first = n;
			}
		}
		if (first < n)
			run_add(rt, r, b0 + first, b0 + j, prot);
	}
	return fresh;
}

/*
 * Chunk @c of @r: ask the pages' nodes, note the slow ones, protect.
 * Under prot_lock. Return: blocks newly protected.
 */
static int scan_chunk(struct tprt_rt *rt, struct tprt_region *r, uint64_t c)
{
	uint64_t cp = rt->cfg.chunk_pages, bp = rt->cfg.block_pages;
	uint64_t p0 = c * cp, p1 = p0 + cp, i, t0 = thread_cpu_ns();
	int (*query)(void *const *, int *, size_t) =
		rt->hooks.node_query ? rt->hooks.node_query : default_query;
	bool *want = rt->qwant, *fast = rt->qfast;
	bool victims = rt->cfg.flags & TPRT_F_VICTIMS;

	if (p1 > r->npages)
		p1 = r->npages;
	for (i = p0; i < p1; i++)
		rt->qpages[i - p0] = (void *)(r->start + (i << rt->page_shift));
	if (query(rt->qpages, rt->qstatus, p1 - p0))
		for (i = 0; i < p1 - p0; i++)
			rt->qstatus[i] = -ENOENT;
	atomic_fetch_add_explicit(&rt->scan_pages, p1 - p0,
				  memory_order_relaxed);
	atomic_fetch_add_explicit(&rt->scan_query_ns, thread_cpu_ns() - t0,
				  memory_order_relaxed);
	memset(want, 0, (p1 - p0 + bp - 1) / bp);
	if (victims)
		memset(fast, 0, (p1 - p0 + bp - 1) / bp);
	for (i = p0; i < p1; i++) {
		int st = rt->qstatus[i - p0];
		uint64_t b = i / bp, bit = 1ULL << (i % 64);
		uint8_t blk = atomic_load(&r->blk[b]);
		bool slow;

		if (st >= 0)
			slow = st != rt->fast_node;
		else if (st == -ENOENT && (blk & TPRT_BLK_PROT))
			/* Protected pages cannot be asked: as last time. */
			slow = atomic_load(&r->slow[i / 64]) & bit;
		else
			slow = false;
		if (slow)
			atomic_fetch_or(&r->slow[i / 64], bit);
		else
			atomic_fetch_and(&r->slow[i / 64], ~bit);
		if (slow && st >= 0)
			atomic_store_explicit(&rt->slow_node, st,
					      memory_order_relaxed);
		want[b - p0 / bp] |= slow && !atomic_load(&r->pin[b]);
		/* On the fast node (a protected sample: as last time). */
		if (victims)
			fast[b - p0 / bp] |= st == rt->fast_node ||
				(st == -ENOENT && (blk & TPRT_BLK_SAMPLE) &&
				 (blk & TPRT_BLK_PROT));
	}
	/* A visit measures every block again: they may be queued again. */
	if (rt->cfg.flags & TPRT_F_RECHECK)
		for (i = p0 / bp; i < (p1 + bp - 1) / bp; i++)
			atomic_fetch_and(&r->blk[i],
					 (uint8_t)~TPRT_BLK_RECHECK);
	/* Fast-node blocks: samples and the cold ones (tprt_victim.c). */
	for (i = 0; victims && i < (p1 - p0 + bp - 1) / bp; i++) {
		uint64_t b = p0 / bp + i;

		want[i] = tprt_victim_mark(rt, r, b, fast[i] && !want[i] &&
					   !atomic_load(&r->pin[b])) ||
			  want[i];
	}
	/* Every 8th sweep, every run again (see tprt_apply_blocks()). */
	return tprt_apply_blocks(rt, r, c, want,
				 (atomic_load(&rt->seq) & 7) == 7);
}

/*
 * Protect again the block starting at @addr (TPRT_F_RECHECK), with a fresh
 * stamp, unless it is protected, pinned, or no longer has a slow page:
 * the protection its chunk has now, plus this block. Migrator; takes
 * prot_lock (the scanner's buffers are used under it).
 * Return: 1 if protected, 0 if not.
 */
int tprt_protect_again(struct tprt_rt *rt, uintptr_t addr)
{
	uint64_t bp = rt->cfg.block_pages, per = rt->cfg.chunk_pages / bp;
	uint64_t b, c, i, n, p1;
	struct tprt_region *r;
	int ret = 0;

	pthread_mutex_lock(&rt->prot_lock);
	r = tprt_region_of(rt, addr, false);
	if (!r || atomic_load(&r->state) != TPRT_R_LIVE ||
	    atomic_load(&r->broken))
		goto out;
	b = ((addr - r->start) >> rt->page_shift) / bp;
	p1 = (b + 1) * bp < r->npages ? (b + 1) * bp : r->npages;
	if (!tprt_count_slow(r, b * bp, p1, UINT64_MAX) ||
	    atomic_load(&r->pin[b]) ||
	    (atomic_load(&r->blk[b]) & TPRT_BLK_PROT))
		goto out;
	c = b / per;
	n = r->nblocks - c * per < per ? r->nblocks - c * per : per;
	for (i = 0; i < n; i++)
		rt->qwant[i] = c * per + i == b ||
			(atomic_load(&r->blk[c * per + i]) & TPRT_BLK_PROT);
	tprt_apply_blocks(rt, r, c, rt->qwant, false);
	run_flush(rt);
	ret = !!(atomic_load(&r->blk[b]) & TPRT_BLK_PROT);
out:
	pthread_mutex_unlock(&rt->prot_lock);
	return ret;
}

/*
 * The live region holding @addr or the first one after it, skipping
 * broken ones; NULL past the last. Under prot_lock.
 */
static struct tprt_region *region_at(struct tprt_rt *rt, uintptr_t addr)
{
	struct tprt_region *best = NULL;
	int i;

	for (i = 0; i < TPRT_MAX_REGIONS; i++) {
		struct tprt_region *r = &rt->region[i];

		if (atomic_load(&r->state) != TPRT_R_LIVE ||
		    atomic_load(&r->broken) || r->end <= addr)
			continue;
		if (!best || r->start < best->start)
			best = r;
	}
	return best;
}

/*
 * A pass's budget, in pages: scan_size_mb; with TPRT_F_SWEEP_FILL while
 * the fast node fills, as much as the kernel ever scans in a period,
 * MAX_SCAN_WINDOW MB a second of it (task_scan_min()'s floor the other
 * way round), if that is more. Sets *@fill when the latter is taken.
 */
static int64_t pass_budget(struct tprt_rt *rt, bool *fill)
{
	int64_t budget = (int64_t)rt->cfg.scan_size_mb << (20 - rt->page_shift);
	int64_t wide;
	uint32_t period;

	*fill = false;
	if (!sweep_filling(rt))
		return budget;
	pthread_mutex_lock(&rt->scan_lock);
	period = rt->period_ms;
	pthread_mutex_unlock(&rt->scan_lock);
	wide = (int64_t)((uint64_t)MAX_SCAN_WINDOW * period / 1000) <<
	       (20 - rt->page_shift);
	if (wide <= budget)
		return budget;
	*fill = true;
	return wide;
}

int tprt_scan_pass(struct tprt_rt *rt)
{
	bool fill, begun = false, wrapped = false;
	int64_t budget = pass_budget(rt, &fill);
	int64_t virt = 8 * budget;
	uint64_t cpu0 = thread_cpu_ns(), cp = rt->cfg.chunk_pages;
	struct tprt_region *r;
	int total = 0, fresh;

	pthread_mutex_lock(&rt->prot_lock);
	/* The last pass ended at the end of the last region: a sweep. */
	if (rt->cursor && !region_at(rt, rt->cursor)) {
		atomic_fetch_add(&rt->seq, 1);
		rt->cursor = 0;
	}
	pthread_mutex_unlock(&rt->prot_lock);
	while (budget > 0 && virt > 0) {
		uint64_t c, pages;

		pthread_mutex_lock(&rt->prot_lock);
		r = region_at(rt, rt->cursor);
		if (!r && begun) {
			/* Past the last region: the sweep is complete. */
			wrapped = true;
			atomic_fetch_add(&rt->seq, 1);
			rt->cursor = 0;
			pthread_mutex_unlock(&rt->prot_lock);
			break;
		}
		if (!r)
			r = region_at(rt, 0);
		if (!r) {
			pthread_mutex_unlock(&rt->prot_lock);
			break;
		}
		if (rt->cursor < r->start)
			rt->cursor = r->start;
		if (!begun) {
			atomic_fetch_add(&rt->passes, 1);
			if (fill)
				atomic_fetch_add(&rt->passes_fill, 1);
			begun = true;
		}
		c = ((rt->cursor - r->start) >> rt->page_shift) / cp;
		fresh = scan_chunk(rt, r, c);
		pages = (c + 1) * cp < r->npages ? cp : r->npages - c * cp;
		rt->cursor = r->start + (((c + 1) * cp) << rt->page_shift);
		pthread_mutex_unlock(&rt->prot_lock);
		total += fresh;
		if (fresh)
			budget -= (int64_t)pages;
		virt -= (int64_t)pages;
	}
	pthread_mutex_lock(&rt->prot_lock);
	run_flush(rt);
	if (wrapped)
		tprt_tp_pass_wrap(rt->tp);
	pthread_mutex_unlock(&rt->prot_lock);
	atomic_fetch_add(&rt->blocks_protected, (uint64_t)total);
	atomic_fetch_add(&rt->scan_cpu_ns, thread_cpu_ns() - cpu0);
	return total;
}

static void *scanner_main(void *arg)
{
	struct tprt_rt *rt = arg;
	uint64_t now = tprt_now_ns();
	struct timespec ts;

	pthread_mutex_lock(&rt->scan_lock);
	rt->node_stamp = now;
	rt->period_ms = rt->cfg.scan_delay_ms;
	rt->next_scan = now + rt->cfg.scan_delay_ms * TPRT_NS_PER_MS;
	while (!rt->scan_stop) {
		uint64_t wake = rt->node_stamp + rt->period_ms * TPRT_NS_PER_MS;
		uint32_t old = rt->period_ms;

		if (now < wake) {
			ts.tv_sec = (time_t)(wake / TPRT_NS_PER_SEC);
			ts.tv_nsec = (long)(wake % TPRT_NS_PER_SEC);
			pthread_cond_timedwait(&rt->scan_cond, &rt->scan_lock,
					       &ts);
			now = tprt_now_ns();
			continue;
		}
		if (!rt->stamped) {
			rt->stamped = true;
			rt->period_ms = task_scan_min(rt);
		}
		rt->node_stamp += old * TPRT_NS_PER_MS;
		if (now >= rt->next_scan) {
			uint64_t cpu = thread_cpu_ns();

			rt->next_scan = now + rt->period_ms * TPRT_NS_PER_MS;
			pthread_mutex_unlock(&rt->scan_lock);
			tprt_scan_pass(rt);
			if (rt->cfg.flags & TPRT_F_VICTIMS)
				tprt_victim_after_pass(rt);
			pthread_mutex_lock(&rt->scan_lock);
			rt->node_stamp += rt->cfg.scan_cost_factor *
					  (thread_cpu_ns() - cpu);
		}
		now = tprt_now_ns();
	}
	pthread_mutex_unlock(&rt->scan_lock);
	return NULL;
}

int tprt_scan_start(struct tprt_rt *rt)
{
	size_t n = rt->cfg.chunk_pages;
	pthread_condattr_t ca;
	int ret;

	rt->qstatus = calloc(n, sizeof(*rt->qstatus));
	rt->qpages = calloc(n, sizeof(*rt->qpages));
	rt->qwant = calloc(n / rt->cfg.block_pages, sizeof(*rt->qwant));
	rt->qfast = calloc(n / rt->cfg.block_pages, sizeof(*rt->qfast));
	if (!rt->qstatus || !rt->qpages || !rt->qwant || !rt->qfast) {
		tprt_scan_free(rt);
		return -ENOMEM;
	}
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&rt->scan_cond, &ca);
	pthread_condattr_destroy(&ca);
	pthread_mutex_init(&rt->scan_lock, NULL);
	rt->period_ms = rt->cfg.scan_delay_ms;
	if (rt->cfg.flags & TPRT_F_NO_SCANNER)
		return 0;
	ret = tprt_thread_create(&rt->scanner, scanner_main, rt, "tprt-scan");
	if (ret) {
		tprt_scan_free(rt);
		return -ret;
	}
	rt->scanner_started = true;
	return 0;
}

void tprt_scan_stop(struct tprt_rt *rt)
{
	if (rt->scanner_started) {
		pthread_mutex_lock(&rt->scan_lock);
		rt->scan_stop = true;
		pthread_cond_signal(&rt->scan_cond);
		pthread_mutex_unlock(&rt->scan_lock);
		pthread_join(rt->scanner, NULL);
		rt->scanner_started = false;
	}
}

/*
 * The scanner's buffers, once nothing uses them: the migrator's re-measure
 * (tprt_protect_again()) writes qwant too, so after tprt_migrate_stop().
 */
void tprt_scan_free(struct tprt_rt *rt)
{
	free(rt->qstatus);
	free(rt->qpages);
	free(rt->qwant);
	free(rt->qfast);
	rt->qwant = NULL;
	rt->qfast = NULL;
	rt->qstatus = NULL;
	rt->qpages = NULL;
}

int tprt_scan_now(void)
{
	struct tprt_rt *rt = tprt_rt;

	if (!rt || !atomic_load(&rt->running))
		return -ESRCH;
	if (rt->scanner_started)
		return -EBUSY;
	return tprt_scan_pass(rt);
}
