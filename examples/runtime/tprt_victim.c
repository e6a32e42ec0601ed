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
 * - A sample still protected hot_threshold_ms / block_pages after the
 *   scanner protected it (its stamp, on the latency clock) is a victim:
 *   the first of n pages of equal rate is touched n times sooner than
 *   one of them, so the block's age times its pages estimates a page's
 *   latency, as the handler's TPRT_DECIDE_PAGE does for a block's other
 *   pages, and none of the victim's pages is estimated within the hot
 *   threshold. At the block's next
 *   visit, a sample still protected was not touched for a whole sweep: it
 *   is cold, and stays protected (a sample again) every sweep until it is
 *   touched. A block with a slow page, a pinned one, or one touched since
 *   is neither.
 * - When promotions are refused for want of room, the migrator first
 *   restores and demotes victims, in address order from where the last
 *   call stopped, to the slow node a page was last seen on, as many pages
 *   as the room wanted; a nudge makes what they do not cover.
 *
 * On the same estimate, every page the exchange promotes was touched
 * within the hot threshold and no page it demotes was: the demoted page
 * is the colder one, which kswapd's choice does not promise.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "tprt_impl.h"

#define MPOL_MF_MOVE_	(1 << 1)
/* Pages demoted by one call at most (one move_pages(2) call). */
#define VICTIM_MAX	4096

/*
 * Scanner, under prot_lock: block @b of @r is on the fast node (@fast: every
 * page the query saw, none slow, not pinned) or not. A sample still
 * protected since the last visit is cold. Compare-and-swap, so a handler
 * that restores the block meanwhile (clearing its bits) is never read as
 * cold.
 * Return: whether to protect the block (a sample this sweep).
 */
bool tprt_victim_mark(struct tprt_rt *rt, struct tprt_region *r, uint64_t b,
		      bool fast)
{
	uint64_t mask = (1ULL << rt->cfg.sample_shift) - 1;
	uint64_t seq = atomic_load_explicit(&rt->seq, memory_order_relaxed);
	uint8_t old = atomic_load(&r->blk[b]), nw;
	bool cold, sample;

	do {
		cold = fast && (old & (TPRT_BLK_PROT | TPRT_BLK_SAMPLE)) ==
			       (TPRT_BLK_PROT | TPRT_BLK_SAMPLE);
		sample = cold || (fast && !((b + seq) & mask));
		nw = old & (uint8_t)~(TPRT_BLK_SAMPLE | TPRT_BLK_COLD);
		if (sample)
			nw |= TPRT_BLK_SAMPLE;
		if (cold)
			nw |= TPRT_BLK_COLD;
	} while (!atomic_compare_exchange_weak(&r->blk[b], &old, nw));
	if (cold)
		atomic_fetch_add_explicit(&rt->cold_found, 1,
					  memory_order_relaxed);
	return sample;
}

/*
 * The pages to demote for @m's free pages to reach @target: no more than
 * half the room the other nodes have above their high watermarks (as a
 * nudge: the demotions must land somewhere).
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
 * Claim block @b of @r if it is cold: its bits go to 0 in one step, so a
 * handler faulting on it now finds it restored already (stale, retried),
 * and restore it. Under prot_lock. Return: whether it was claimed.
 */
static bool claim(struct tprt_rt *rt, struct tprt_region *r, uint64_t b,
		  uint64_t now)
{
	const uint8_t sample = TPRT_BLK_PROT | TPRT_BLK_SAMPLE;
	uint8_t old = atomic_load(&r->blk[b]);

	if ((old & sample) != sample || atomic_load(&r->pin[b]))
		return false;
	if (!(old & TPRT_BLK_COLD) &&
	    tprt_tp_stamp_age(rt->tp, &r->stamp[b], now) < rt->cold_ns)
		return false;
	do {
		if ((old & sample) != sample)
			return false;
	} while (!atomic_compare_exchange_weak(&r->blk[b], &old, 0));
	/* A protected page cannot be moved (6.1: -ENOENT): restore first. */
	return tprt_restore_blocks(rt, r, b, b + 1) >= 0;
}

/*
 * Migrator: demote up to @want pages (rounded up to whole blocks, at most
 * VICTIM_MAX) of cold blocks to the slow node. The walk goes on from where
 * the last one stopped and visits each block once per call.
 * Return: pages put on the slow node.
 */
uint64_t tprt_victim_demote(struct tprt_rt *rt, uint64_t want)
{
	void *pages[VICTIM_MAX];
	int nodes[VICTIM_MAX], status[VICTIM_MAX];
	int (*move)(void *const *, const int *, int *, size_t) =
		rt->hooks.move ? rt->hooks.move : move_default;
	uint64_t bp = rt->cfg.block_pages, moved = 0, seen = 0, total = 0;
	int slow = atomic_load_explicit(&rt->slow_node, memory_order_relaxed);
	uint64_t now = tprt_lat_now(rt);
	size_t n = 0, i;
	int k, ret;

	if (slow < 0 || !want)
		return 0;
	if (want > VICTIM_MAX)
		want = VICTIM_MAX;
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
		if (n + bp > VICTIM_MAX || !claim(rt, r, b, now))
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
