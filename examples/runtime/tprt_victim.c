// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Victims (TPRT_F_VICTIMS): the runtime chooses the pages it demotes.
 *
 * Without it, room on the fast node comes from kswapd, woken by a nudge
 * (tprt_migrate.c), which demotes what its LRU lists give: pages whose
 * accessed bit was clear when reclaim looked at them, whatever their
 * rate. An exchange may then demote a page hotter than the one it
 * promotes. NUMA balancing's mode 1 samples every node's pages with hint
 * faults; the runtime does the same for the fast node's blocks, a few at
 * a time:
 *
 * - The scanner protects a fast-node block as a sample in one sweep of
 *   2^sample_shift (each sweep a different share of the blocks). A sample
 *   takes no scan budget and its fault decides nothing: the handler
 *   restores it and counts it (sample_faults).
 * - cold_ns (hot_threshold_ms / block_pages, on the latency clock) after
 *   a pass, the scanner marks the samples still protected as victims
 *   (tprt_victim_check()): the first of n pages of equal rate is touched n
 *   times sooner than one of them, so the block's age times its pages
 *   estimates a page's latency, as the handler's TPRT_DECIDE_PAGE does for
 *   a block's other pages, and no page of a victim is estimated within the
 *   hot threshold. The mark is a measurement: a later touch keeps it. A
 *   sample untouched for a whole sweep stays a sample every sweep; the
 *   mark goes when the scanner samples the block again, or finds a slow
 *   page in it or a pin.
 * - When promotions are refused for want of room, the migrator demotes
 *   victims (restoring the protected ones first), in address order from
 *   where the last call stopped, to the slow node a page was last seen
 *   on, as many pages as the room wanted; a nudge makes what they do not
 *   cover.
 *
 * On that estimate every page the exchange promotes was touched within
 * the hot threshold and no page it demotes was: the demoted page is the
 * colder one, which kswapd's choice does not promise.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "tprt_impl.h"

/*
 * Scanner, under prot_lock: block @b of @r is on the fast node (@fast: every
 * page the query saw, none slow, not pinned) or not. A sample still
 * protected since the last visit is a victim and a sample again; a block
 * due this sweep (one in 2^sample_shift) is sampled anew, its mark
 * measured again. Compare-and-swap: a handler may restore the block
 * meanwhile (clearing its state bits).
 * Return: whether to protect the block (a sample this sweep).
 */
bool tprt_victim_mark(struct tprt_rt *rt, struct tprt_region *r, uint64_t b,
		      bool fast)
{
	const uint8_t sample = TPRT_BLK_PROT | TPRT_BLK_SAMPLE;
	uint64_t mask = (1ULL << rt->cfg.sample_shift) - 1;
	uint64_t seq = atomic_load_explicit(&rt->seq, memory_order_relaxed);
	uint8_t old = atomic_load(&r->blk[b]), nw;
	bool cold, due;

	do {
		cold = fast && (old & sample) == sample;
		due = fast && !((b + seq) & mask);
		nw = old & (uint8_t)~TPRT_BLK_SAMPLE;
		if (!fast || (due && !cold))
			nw &= (uint8_t)~TPRT_BLK_VICTIM;
		if (cold || due)
			nw |= TPRT_BLK_SAMPLE;
		if (cold)
			nw |= TPRT_BLK_VICTIM;
	} while (!atomic_compare_exchange_weak(&r->blk[b], &old, nw));
	if (cold && !(old & TPRT_BLK_VICTIM))
		atomic_fetch_add_explicit(&rt->victims_found, 1,
					  memory_order_relaxed);
	return cold || due;
}

/*
 * Mark the samples still protected cold_ns after their protection as
 * victims. Scanner (or tests), takes prot_lock.
 * Return: victims found.
 */
uint64_t tprt_victim_check(struct tprt_rt *rt)
{
	const uint8_t sample = TPRT_BLK_PROT | TPRT_BLK_SAMPLE;
	uint64_t now = tprt_lat_now(rt), b, found = 0;
	int k;

	pthread_mutex_lock(&rt->prot_lock);
	for (k = 0; k < TPRT_MAX_REGIONS; k++) {
		struct tprt_region *r = &rt->region[k];

		if (atomic_load(&r->state) != TPRT_R_LIVE)
			continue;
		for (b = 0; b < r->nblocks; b++) {
			uint8_t v = atomic_load_explicit(&r->blk[b],
							 memory_order_relaxed);

			if ((v & sample) != sample || (v & TPRT_BLK_VICTIM) ||
			    tprt_tp_stamp_age(rt->tp, &r->stamp[b], now) <
			    rt->cold_ns)
				continue;
			/* Still a sample (not restored since it was read). */
			if (atomic_fetch_or(&r->blk[b], TPRT_BLK_VICTIM) &
			    TPRT_BLK_PROT)
				found++;
			else
				atomic_fetch_and(&r->blk[b],
						 (uint8_t)~TPRT_BLK_VICTIM);
		}
	}
	pthread_mutex_unlock(&rt->prot_lock);
	atomic_fetch_add_explicit(&rt->victims_found, found,
				  memory_order_relaxed);
	return found;
}

/*
 * Scanner, after a pass: wait until the latency clock has gone cold_ns
 * past its end (at most 10 times that, or 100 ms, on the wall clock: the
 * program may be idle), then check the samples.
 */
void tprt_victim_after_pass(struct tprt_rt *rt)
{
	uint64_t t0 = tprt_lat_now(rt), w0 = tprt_now_ns();
	uint64_t wmax = 10 * rt->cold_ns > 100 * TPRT_NS_PER_MS ?
			10 * rt->cold_ns : 100 * TPRT_NS_PER_MS;

	while (tprt_lat_now(rt) - t0 < rt->cold_ns &&
	       tprt_now_ns() - w0 < wmax) {
		struct timespec ts = { 0, 5 * 1000 * 1000 };

		nanosleep(&ts, NULL);
	}
	tprt_victim_check(rt);
}

/*
 * The pages to demote for @m's free pages to reach @target: no more than
 * half the room the other nodes have above their high watermarks (as a
 * nudge: the demotions must land somewhere). Any context.
 */
uint64_t tprt_victim_room(const struct tprt_mem *m, uint64_t target)
{
	uint64_t want = target > m->free ? target - m->free : 0;

	return want < m->spare / 2 ? want : m->spare / 2;
}

static int move_default(void *const *pages, const int *nodes, int *status,
			size_t n)
{
	if (syscall(SYS_move_pages, 0, n, pages, nodes, status,
		    MPOL_MF_MOVE_) < 0)
		return -errno;
	return 0;
}

/*
 * Claim block @b of @r if it is a victim: its mark and state bits go in
 * one step, so a handler faulting on it now finds it restored already
 * (stale, retried); a protected one is restored (6.1 does not move a
 * protected page: -ENOENT). Under prot_lock. Return: whether it was
 * claimed.
 */
static bool claim(struct tprt_rt *rt, struct tprt_region *r, uint64_t b)
{
	uint8_t old = atomic_load(&r->blk[b]);

	do {
		if (!(old & TPRT_BLK_VICTIM) || atomic_load(&r->pin[b]))
			return false;
	} while (!atomic_compare_exchange_weak(&r->blk[b], &old,
		 old & (uint8_t)~(TPRT_BLK_STATE | TPRT_BLK_VICTIM)));
	if (!(old & TPRT_BLK_PROT))
		return true;
	return tprt_restore_blocks(rt, r, b, b + 1) >= 0;
}

/*
 * Migrator: demote up to @want pages (rounded up to whole blocks, at most
 * TPRT_VICTIM_MAX) of cold blocks to the slow node. The walk goes on from where
 * the last one stopped and visits each block once per call.
 * Return: pages put on the slow node.
 */
uint64_t tprt_victim_demote(struct tprt_rt *rt, uint64_t want)
{
	void *pages[TPRT_VICTIM_MAX];
	int nodes[TPRT_VICTIM_MAX], status[TPRT_VICTIM_MAX];
	int (*move)(void *const *, const int *, int *, size_t) =
		rt->hooks.move ? rt->hooks.move : move_default;
	uint64_t bp = rt->cfg.block_pages, moved = 0, seen = 0, total = 0;
	int slow = atomic_load_explicit(&rt->slow_node, memory_order_relaxed);
	size_t n = 0, i;
	int k, ret;

	if (slow < 0 || !want)
		return 0;
	if (want > TPRT_VICTIM_MAX)
		want = TPRT_VICTIM_MAX;
	pthread_mutex_lock(&rt->prot_lock);
	for (k = 0; k < TPRT_MAX_REGIONS; k++)
		if (atomic_load(&rt->region[k].state) == TPRT_R_LIVE)
			total += rt->region[k].nblocks;
	while (n < want && seen < total) {
		struct tprt_region *r = &rt->region[rt->vic_region];
		uint64_t b = rt->vic_block, p, p1;

		if (atomic_load(&r->state) != TPRT_R_LIVE ||
		    atomic_load(&r->broken) || b >= r->nblocks) {
			/* A broken region's blocks count as seen. */
			if (atomic_load(&r->state) == TPRT_R_LIVE &&
			    b < r->nblocks)
				seen += r->nblocks - b;
			rt->vic_region = (rt->vic_region + 1) % TPRT_MAX_REGIONS;
			rt->vic_block = 0;
			continue;
		}
		rt->vic_block = b + 1;
		seen++;
		if (n + bp > TPRT_VICTIM_MAX || !claim(rt, r, b))
			continue;
		p1 = (b + 1) * bp < r->npages ? (b + 1) * bp : r->npages;
		for (p = b * bp; p < p1; p++) {
			pages[n] = (void *)(r->start + (p << rt->page_shift));
			nodes[n] = slow;
			status[n++] = -EINVAL;
		}
	}
	pthread_mutex_unlock(&rt->prot_lock);
	if (!n)
		return 0;
	ret = move(pages, nodes, status, n);
	atomic_fetch_add(&rt->demote_calls, 1);
	for (i = 0; i < n; i++)
		moved += !ret && status[i] == slow;
	atomic_fetch_add(&rt->demoted, moved);
	atomic_fetch_add(&rt->demote_fail, n - moved);
	return moved;
}
