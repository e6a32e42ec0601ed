// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The handler's logic: a hint fault on registered memory restores access,
 * is decided by tierpol and, to promote, queued for the migrator.
 *
 * Everything here runs in a signal handler: no allocation, no lock, only
 * atomics and system calls (mprotect, ioctl on the userfaultfd, futex),
 * each of which is safe in a handler. Thread-local variables use the
 * initial-exec model, which never allocates.
 *
 * The VMA bound (mprotect source). Protection and restores work in aligned
 * blocks, so a VMA can only start at a block boundary: at most one VMA
 * starts per block. The runtime keeps, per chunk, a bound on the VMAs that
 * start inside it (the scanner sets it to the number of runs of equal
 * protection it made; a block restore adds 2: the block's two ends), and
 * their sum, which must stay under vma_cap. A block restore that would
 * pass the cap restores the whole chunk instead (one mprotect that merges
 * the chunk back into one VMA: the bound drops to 1); if that fails too,
 * the whole region, which the scanner then leaves alone. So mprotect never
 * meets vm.max_map_count, and ENOMEM never reaches the program.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <linux/userfaultfd.h>

#include "tprt_impl.h"

#define TLS	static __thread __attribute__((tls_model("initial-exec")))

/* Retries in a row at one address: again() counts them. */
struct tprt_fault_run {
	uintptr_t addr;
	unsigned int n;
};

/* tprt_retired when this thread last retried a fault in no live region. */
TLS uint64_t retired_seen;
/* Stale faults in a row (stale()); faults in no live region (gone()). */
TLS struct tprt_fault_run stale_run, gone_run;
TLS struct tprt_slot *my_slot;
TLS uint32_t my_gen;

#define INC(x)	atomic_fetch_add_explicit(&(x), 1, memory_order_relaxed)
#define ADD(x, n)	atomic_fetch_add_explicit(&(x), (n), memory_order_relaxed)

struct tprt_slot *tprt_my_slot(struct tprt_rt *rt)
{
	uint32_t gen = atomic_load_explicit(&tprt_gen, memory_order_relaxed);
	uint32_t i;

	if (my_slot && my_gen == gen)
		return my_slot;
	i = atomic_fetch_add(&rt->nr_slots, 1);
	if (i >= TPRT_MAX_SLOTS)
		i = TPRT_MAX_SLOTS - 1;		/* the shared overflow slot */
	my_slot = &rt->slot[i];
	my_gen = gen;
	return my_slot;
}

/* Reserve @n VMAs in chunk @c under the cap. */
static bool est_reserve(struct tprt_rt *rt, struct tprt_region *r, uint64_t c,
			uint32_t n)
{
	if (atomic_fetch_add(&rt->vma_total, n) + n > rt->vma_cap) {
		atomic_fetch_sub(&rt->vma_total, n);
		return false;
	}
	atomic_fetch_add(&r->chunk_est[c], n);
	return true;
}

/* Set chunk @c's bound to @val (the total follows). */
void tprt_est_set(struct tprt_rt *rt, struct tprt_region *r, uint64_t c,
		  uint32_t val)
{
	uint32_t old;

	if (r->source != TPRT_SRC_MPROTECT)
		return;
	old = atomic_exchange(&r->chunk_est[c], val);
	atomic_fetch_add(&rt->vma_total, (uint64_t)val - old);
}

int tprt_uffd_wp(struct tprt_rt *rt, uintptr_t start, size_t len, bool wp)
{
	struct uffdio_writeprotect w = {
		.range = { .start = start, .len = len },
		.mode = wp ? UFFDIO_WRITEPROTECT_MODE_WP : 0,
	};
	int i;

	/* EAGAIN: the mm is changing (a fork, a remap); a bounded retry. */
	for (i = 0; i < 8; i++) {
		if (!ioctl(rt->uffd, UFFDIO_WRITEPROTECT, &w))
			return 0;
		if (errno != EAGAIN)
			break;
	}
	return -1;
}

static int mprot_pages(struct tprt_rt *rt, struct tprt_region *r, uint64_t p0,
		       uint64_t p1)
{
	return mprotect((void *)(r->start + (p0 << rt->page_shift)),
			(p1 - p0) << rt->page_shift, PROT_READ | PROT_WRITE);
}

static void clear_blocks(struct tprt_region *r, uint64_t b0, uint64_t b1)
{
	for (; b0 < b1; b0++)
		atomic_fetch_and(&r->blk[b0], (uint8_t)~TPRT_BLK_STATE);
}

/*
 * Restore access to blocks [b0, b1) of @r: by themselves while the VMA
 * budget allows, else their whole chunks, else the whole region.
 * Return: 0, 1 or 2 (the level that worked), or -1 if nothing did.
 */
int tprt_restore_blocks(struct tprt_rt *rt, struct tprt_region *r,
			uint64_t b0, uint64_t b1)
{
	uint64_t bp = rt->cfg.block_pages, cp = rt->cfg.chunk_pages;
	uint64_t p0 = b0 * bp, p1 = b1 * bp, c0, c1, c;

	if (p1 > r->npages)
		p1 = r->npages;
	clear_blocks(r, b0, b1);
	if (r->source == TPRT_SRC_UFFD_WP)
		return tprt_uffd_wp(rt, r->start + (p0 << rt->page_shift),
				    (p1 - p0) << rt->page_shift, false);
	c0 = p0 / cp;
	c1 = (p1 - 1) / cp;
	if (c0 == c1 && est_reserve(rt, r, c0, 2) &&
	    !mprot_pages(rt, r, p0, p1))
		return 0;
	/* The chunks: one VMA (at most) starts in them afterwards. */
	p0 = c0 * cp;
	p1 = (c1 + 1) * cp < r->npages ? (c1 + 1) * cp : r->npages;
	clear_blocks(r, p0 / bp, (p1 + bp - 1) / bp);
	if (!mprot_pages(rt, r, p0, p1)) {
		for (c = c0; c <= c1; c++)
			tprt_est_set(rt, r, c, c == c0);
		return 1;
	}
	/* The region, given up by the scanner. */
	atomic_store(&r->broken, 1);
	clear_blocks(r, 0, r->nblocks);
	if (!mprot_pages(rt, r, 0, r->npages)) {
		for (c = 0; c < r->nchunks; c++)
			tprt_est_set(rt, r, c, c == 0);
		return 2;
	}
	return -1;
}

/*
 * Push the slow pages of [p0, p1) of @r but page @skip on @q; @tried: how
 * many there were. Return: how many were pushed (the rest found @q full).
 */
static uint32_t push_slow(struct tprt_rt *rt, struct tprt_queue *q,
			  struct tprt_region *r, uint64_t p0, uint64_t p1,
			  uint64_t skip, uint32_t *tried)
{
	uint32_t n = 0, t = 0;
	uint64_t p;

	for (p = p0; p < p1; p++) {
		if (p == skip || !tprt_slow_page(r, p))
			continue;
		t++;
		n += !tprt_queue_push(q, r->start + (p << rt->page_shift));
	}
	*tried = t;
	return n;
}

/* @lat times @n, saturated; an unknown latency stays unknown. */
static uint64_t lat_mul(uint64_t lat, uint64_t n)
{
	if (lat == TPRT_LAT_UNKNOWN)
		return lat;
	return lat > (TPRT_LAT_UNKNOWN - 1) / n ? TPRT_LAT_UNKNOWN - 1 :
	       lat * n;
}

/*
 * Decide the slow pages of [p0, p1) of @r but page @skip as one folio on
 * latency @lat (TOPTIER if none is slow and @toptier), and queue them to
 * promote. Return: the verdict, or -1 if there was nothing to decide.
 */
static int decide_pages(struct tprt_rt *rt, struct tprt_slot *slot,
			struct tprt_region *r, uint64_t p0, uint64_t p1,
			uint64_t skip, uint64_t lat, bool write, bool toptier,
			const struct tprt_mem *m, uint64_t now)
{
	uint32_t nr = tprt_count_slow(r, p0, p1, skip), n, tried;
	int v;

	if (!nr && !toptier)
		return -1;
	v = tprt_tp_decide(rt->tp, (uint32_t)(slot - rt->slot), lat, write,
			   nr, m, now);
	INC(slot->verdict[v]);
	if (skip != UINT64_MAX)
		INC(slot->verdict_others[v]);
	if (v == TPRT_V_PROMOTE || v == TPRT_V_PROMOTE_NRL) {
		/* One update of each shared counter per decision. */
		n = push_slow(rt, &rt->q, r, p0, p1, skip, &tried);
		ADD(slot->queued, n);
		ADD(slot->queue_full, tried - n);
		if (n) {
			ADD(rt->mem.pushed, n);
			tprt_migrate_kick(rt, n);
		}
	} else if (v == TPRT_V_REFUSE_NOSPACE) {
		/*
		 * Hot, but no room: ask for demotion. Unless told not to,
		 * keep the pages for the migrator to move once it has made
		 * room (a block is not decided again before the scanner
		 * protects it again, seconds later), if they are well
		 * inside the threshold: each one moved costs a demotion.
		 */
		if (!(rt->cfg.flags & TPRT_F_NO_DEFER) &&
		    lat <= rt->defer_lat) {
			n = push_slow(rt, &rt->dq, r, p0, p1, skip, &tried);
			ADD(slot->deferred, n);
			ADD(slot->deferred_full, tried - n);
		}
		atomic_fetch_add_explicit(&rt->want_demote, nr ? nr : 1,
					  memory_order_relaxed);
	}
	return v;
}

/*
 * The faulting page is hot on its own latency but the block's other pages,
 * on that latency times the block's pages, are cold: if the block's stamp
 * predates a pause of the program (a first-touch pass), the product
 * multiplies the pause too. Have the migrator protect the block again
 * with a fresh stamp, once until the scanner's next visit (TPRT_F_RECHECK).
 * Handler context; wait-free: one atomic on the block's own state byte and
 * a bounded lock-free push (a full queue drops the block and counts it).
 */
static void recheck(struct tprt_rt *rt, struct tprt_region *r, uint64_t b)
{
	if (atomic_fetch_or(&r->blk[b], TPRT_BLK_RECHECK) & TPRT_BLK_RECHECK)
		return;
	if (tprt_queue_push(&rt->rq, r->start +
			    ((b * rt->cfg.block_pages) << rt->page_shift)))
		INC(rt->recheck_full);
}

/*
 * TPRT_F_RECHECK_FILL: the fast node is still filling (tprt_mem_filling()).
 * Handler context; reads only the snapshot @m the fault took.
 */
static bool filling(const struct tprt_rt *rt, const struct tprt_mem *m)
{
	if (!(rt->cfg.flags & TPRT_F_RECHECK_FILL))
		return true;
	return tprt_mem_filling(m);
}

/*
 * The state of @r for a handler that found it at generation @gen: LIVE or
 * DYING while the slot still holds that region (its arrays and range are
 * then its own until the handler returns: region_retire() drains the
 * handlers after DEAD, tprt_register() again before it reuses a slot);
 * DEAD otherwise. That is: dead, a slot tprt_register() is reusing (FREE:
 * the old range may be the program's own again, read-only say, and the
 * arrays are about to go), or a slot reused for a new region since (its
 * generation differs: tprt_init() clears the slots without draining).
 * Acquire is enough here: the lookup's seq_cst load of the state came
 * first (tprt_region_find()).
 */
static int region_state(struct tprt_region *r, uint64_t gen)
{
	int st = atomic_load_explicit(&r->state, memory_order_acquire);

	if (st != TPRT_R_LIVE && st != TPRT_R_DYING)
		return TPRT_R_DEAD;
	if (atomic_load_explicit(&r->gen, memory_order_relaxed) != gen)
		return TPRT_R_DEAD;
	return st;
}

/* One more retry at @addr, unless it is the TPRT_STALE_MAX-th in a row. */
static bool again(struct tprt_fault_run *run, uintptr_t addr)
{
	if (run->addr != addr) {
		run->addr = addr;
		run->n = 0;
	}
	if (++run->n >= TPRT_STALE_MAX) {
		run->addr = 0;
		return false;
	}
	return true;
}

/*
 * A fault whose block is open already, or whose region is going away:
 * access is back (or coming back with tprt_unregister()), so the access is
 * retried; unless the same address keeps faulting. The retry succeeds,
 * unless the scanner protected the block again meanwhile. An address that
 * keeps faulting on an open block is not ours (its mapping lost the rights
 * the access needs, exec say): after TPRT_STALE_MAX in a row it goes to
 * the previous handler instead of looping for ever.
 */
static int stale(struct tprt_slot *slot, uintptr_t addr)
{
	INC(slot->faults_stale);
	return again(&stale_run, addr) ? TPRT_FR_RETRY : TPRT_FR_NOT_OURS;
}

/*
 * A fault of the runtime's kind whose address is in no live region: none
 * holds it, or the handler found its region dead (its slot maybe being
 * reused, or reused since). It is ours all the same if a region protected
 * the block when the thread faulted and was retired (tprt_unregister(),
 * tprt_shutdown()) before the handler looked; access is back then, and the
 * access is retried. Such a retire came after the fault, so after this
 * thread's previous look at tprt_retired: the fault is retried when the
 * count moved since then. One that comes back with no retire in between is
 * the program's own (its protection of a range it got back, say) and goes
 * to the previous handler, as does one retried TPRT_STALE_MAX times in a
 * row at one address while regions keep being retired. region_retire()
 * bumps the count before it marks the region dead, and a slot is freed or
 * reused only after that: a handler whose lookup (seq_cst) saw the region
 * dead, its slot free or another region in it, sees the count moved.
 */
static int gone(uintptr_t addr)
{
	uint64_t c = atomic_load(&tprt_retired);

	if (c == retired_seen || !again(&gone_run, addr)) {
		gone_run.addr = 0;
		return TPRT_FR_NOT_OURS;
	}
	retired_seen = c;
	return TPRT_FR_RETRY;
}

/*
 * A fault on a protected block. The block is the unit of protection: the
 * fault is the first access to any of its pages since the scanner
 * protected it, and its latency (from the block's stamp) is the faulting
 * page's own. What it decides: &enum tprt_decide.
 */
int tprt_fault(struct tprt_rt *rt, uintptr_t addr, unsigned int kind,
	       bool write, uint64_t now)
{
	struct tprt_region *r;
	uint64_t gen;

	if (kind == TPRT_K_OTHER)
		return TPRT_FR_NOT_OURS;
	r = tprt_region_find(rt, addr, true, &gen);
	if (!r)
		return gone(addr);
	return tprt_fault_at(rt, r, gen, addr, kind, write, now);
}

int tprt_fault_at(struct tprt_rt *rt, struct tprt_region *r, uint64_t gen,
		  uintptr_t addr, unsigned int kind, bool write, uint64_t now)
{
	struct tprt_slot *slot;
	struct tprt_mem m;
	uint64_t page, b, p0, p1, lat;
	uint8_t prev;
	int st, lvl, vp, vo;
	bool none;

	/*
	 * Nothing of the region (its arrays, its range) is touched unless it
	 * is live or dying and still the region the lookup found.
	 */
	st = region_state(r, gen);
	if (st == TPRT_R_DEAD)
		return gone(addr);	/* raced tprt_unregister() */
	if ((kind == TPRT_K_ACCERR) != (r->source == TPRT_SRC_MPROTECT))
		return TPRT_FR_NOT_OURS;
	gone_run.addr = 0;
	slot = tprt_my_slot(rt);
	page = (addr - r->start) >> rt->page_shift;
	b = page / rt->cfg.block_pages;
	prev = atomic_fetch_and(&r->blk[b], (uint8_t)~TPRT_BLK_PROT);
	lvl = tprt_restore_blocks(rt, r, b, b + 1);
	if (lvl < 0) {
		/*
		 * The region is going away: tprt_unregister() or
		 * tprt_shutdown() changed its range under the restore
		 * (userfaultfd: after UFFDIO_UNREGISTER, UFFDIO_WRITEPROTECT
		 * fails with ENOENT) and gives access back itself, so the
		 * failure is a race of the runtime's own: retry. Passed on,
		 * it went to the previous handler, or with none reset the
		 * signal to its default action for the whole process: the
		 * next hint fault killed it. (The retirement stores DYING
		 * before it changes the range, so the state seen after the
		 * failure is DYING at least.)
		 */
		if (region_state(r, gen) != TPRT_R_LIVE)
			return stale(slot, addr);
		/*
		 * Live: the mapping is not what was registered (the program
		 * unmapped or replaced it, against tprt_register()'s rules)
		 * or the kernel is out of memory. A retry would fault again
		 * for ever: passed on, as a fault the runtime cannot resolve
		 * (the previous handler, or the same death as without it).
		 */
		INC(slot->restore_fail);
		return TPRT_FR_NOT_OURS;
	}
	if (lvl == 0)
		INC(slot->restore_block);
	else if (lvl == 1)
		INC(slot->restore_chunk);
	else
		INC(slot->restore_region);
	/* Another thread restored the block first, or it is going away. */
	if (!(prev & TPRT_BLK_PROT) || st != TPRT_R_LIVE)
		return stale(slot, addr);
	stale_run.addr = 0;
	INC(slot->faults);
	if (write)
		INC(slot->faults_write);
	/* A fast-node sample: the block is used, nothing to decide. */
	if (prev & TPRT_BLK_SAMPLE) {
		INC(slot->sample_faults);
		return TPRT_FR_HANDLED;
	}
	lat = rt->cfg.flags & TPRT_F_RING_LATENCY ?
	      tprt_tp_latency(rt->tp, addr, tprt_lat_now(rt)) :
	      tprt_tp_stamp_fault(rt->tp, &r->stamp[b], tprt_lat_now(rt));
	p0 = b * rt->cfg.block_pages;
	p1 = p0 + rt->cfg.block_pages < r->npages ?
	     p0 + rt->cfg.block_pages : r->npages;
	tprt_mem_read(rt, &m);
	switch (rt->cfg.decide) {
	case TPRT_DECIDE_BLOCK:
		decide_pages(rt, slot, r, p0, p1, UINT64_MAX, lat, write,
			     true, &m, now);
		break;
	case TPRT_DECIDE_FAULT:
		decide_pages(rt, slot, r, page, page + 1, UINT64_MAX, lat,
			     write, true, &m, now);
		break;
	default:
		/*
		 * The page if slow, the rest if any is slow; a top-tier
		 * verdict only if no page of the block is.
		 */
		none = !tprt_slow_page(r, page) && !tprt_count_slow(r, p0, p1, page);
		vp = decide_pages(rt, slot, r, page, page + 1, UINT64_MAX, lat,
				  write, none, &m, now);
		vo = decide_pages(rt, slot, r, p0, p1, page,
				  lat_mul(lat, p1 - p0), false, false, &m, now);
		if ((rt->cfg.flags & TPRT_F_RECHECK) &&
		    (vp == TPRT_V_PROMOTE || vp == TPRT_V_PROMOTE_NRL) &&
		    vo == TPRT_V_REFUSE_COLD && filling(rt, &m))
			recheck(rt, r, b);
		break;
	}
	return TPRT_FR_HANDLED;
}
