// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The promotion queue, the fast node's memory snapshot, and the migrator
 * thread.
 *
 * The queue is a bounded ring of page addresses with a sequence number per
 * cell (many producers, the handlers; one consumer, the migrator). A push
 * claims a cell with one compare-and-swap and gives up after a bounded
 * number of tries, so a handler never waits for another thread; a full
 * queue drops the promotion (counted).
 *
 * The migrator moves batches with move_pages(2) to the fast node and counts
 * each page's status. Every mem_interval_ms while promotions are queued
 * (else every second) it reads the fast node's free pages and watermarks
 * from /proc/zoneinfo and publishes them to the handlers through a latch (two copies, a sequence count picks the one not
 * being written: a reader never waits). Pages queued since are taken off
 * the free count the handlers see.
 *
 * Demotion. With NUMA balancing off, kswapd balances the fast node to its
 * high watermark, not to the promo watermark the decision wants room
 * above: promotions then stop once free pages reach the high watermark,
 * since nothing takes the node below its low watermark to wake kswapd.
 * tierpol's answer to "no room" is "wake demotion", and the userspace way
 * to wake kswapd is an allocation below the low watermark: the migrator
 * maps, binds to the fast node and populates just enough pages to go below
 * it (never below min plus half the min-low gap; one page if free pages are
 * below that already: kswapd is woken before any direct reclaim), waits
 * until kswapd has demoted back to the high watermark, and unmaps them:
 * free pages end near the promo watermark, as kswapd leaves them in
 * tiering mode. At most one nudge per 100 ms; TPRT_F_NO_NUDGE turns it off.
 *
 * Once the node is full, that room is a few hundred pages a nudge, and a
 * hot block refused for want of room is not decided again before the
 * scanner protects it again, seconds later. So the handlers count the
 * pages they refuse for room, and a nudge can make room for them too (up
 * to room_batches batches, and half the room the other nodes have for the
 * demotions): its allocation goes past the min watermark's margin and
 * reclaims, demoting as many pages from the node's LRU lists. That
 * exchange kept the first version's node from keeping whatever filled it
 * first; with the fill measured again it adds migrations and no share, so
 * room_batches is 0 by default. The refused pages well inside the
 * threshold (at most hot_threshold_ms / 2^defer_shift) wait on a second,
 * deferred queue, and the migrator moves them right after the nudge, while
 * the node keeps more than its high watermark free (TPRT_F_NO_DEFER: they
 * are dropped).
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
#include <linux/futex.h>

#include "tprt_impl.h"

#define PUSH_TRIES	16
#define MPOL_BIND_	2
#define NUDGE_GAP_NS	(100 * TPRT_NS_PER_MS)
#define NUDGE_WAIT_NS	(500 * TPRT_NS_PER_MS)

int tprt_queue_init(struct tprt_queue *q, uint32_t cap)
{
	uint64_t i;

	q->cell = mmap(NULL, cap * sizeof(*q->cell), PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (q->cell == MAP_FAILED) {
		q->cell = NULL;
		return -ENOMEM;
	}
	q->mask = cap - 1;
	for (i = 0; i < cap; i++)
		atomic_store_explicit(&q->cell[i].seq, i, memory_order_relaxed);
	atomic_store(&q->head, 0);
	atomic_store(&q->tail, 0);
	return 0;
}

void tprt_queue_free(struct tprt_queue *q)
{
	if (q->cell)
		munmap(q->cell, (q->mask + 1) * sizeof(*q->cell));
	q->cell = NULL;
}

/* Handlers: lock-free, at most PUSH_TRIES compare-and-swaps. */
int tprt_queue_push(struct tprt_queue *q, uintptr_t addr)
{
	uint64_t pos = atomic_load_explicit(&q->tail, memory_order_relaxed);
	int i;

	for (i = 0; i < PUSH_TRIES; i++) {
		struct tprt_cell *c = &q->cell[pos & q->mask];
		uint64_t seq = atomic_load_explicit(&c->seq,
						    memory_order_acquire);
		int64_t dif = (int64_t)(seq - pos);

		if (dif < 0)
			return -ENOSPC;		/* full */
		if (dif > 0) {
			pos = atomic_load_explicit(&q->tail,
						   memory_order_relaxed);
			continue;
		}
		if (atomic_compare_exchange_weak_explicit(&q->tail, &pos,
							  pos + 1,
							  memory_order_relaxed,
							  memory_order_relaxed)) {
			c->addr = addr;
			atomic_store_explicit(&c->seq, pos + 1,
					      memory_order_release);
			return 0;
		}
	}
	return -EAGAIN;
}

/* The migrator: up to @max addresses, in order. */
size_t tprt_queue_pop(struct tprt_queue *q, uintptr_t *out, size_t max)
{
	uint64_t pos = atomic_load_explicit(&q->head, memory_order_relaxed);
	size_t n = 0;

	while (n < max) {
		struct tprt_cell *c = &q->cell[pos & q->mask];

		if (atomic_load_explicit(&c->seq, memory_order_acquire) !=
		    pos + 1)
			break;
		out[n++] = c->addr;
		atomic_store_explicit(&c->seq, pos + q->mask + 1,
				      memory_order_release);
		pos++;
	}
	atomic_store_explicit(&q->head, pos, memory_order_relaxed);
	return n;
}

/*
 * The consumer: addresses claimed by producers and not yet popped (some may
 * still be being written).
 */
uint64_t tprt_queue_len(struct tprt_queue *q)
{
	return atomic_load_explicit(&q->tail, memory_order_relaxed) -
	       atomic_load_explicit(&q->head, memory_order_relaxed);
}

static void mem_to_array(const struct tprt_mem *m, uint64_t *v)
{
	v[0] = m->free;
	v[1] = m->wmark_min;
	v[2] = m->wmark_low;
	v[3] = m->wmark_high;
	v[4] = m->wmark_promo;
	v[5] = m->present;
}

/*
 * The single writer. @done: mem.done read before @m was (every page the
 * migrator had handled then shows in @m's free count).
 */
void tprt_mem_publish(struct tprt_rt *rt, const struct tprt_mem *m,
		      uint64_t done)
{
	struct tprt_memsnap *s = &rt->mem;
	uint32_t seq = atomic_load(&s->seq);
	uint64_t v[TPRT_MEM_FIELDS + 1];
	int i, k;

	mem_to_array(m, v);
	v[TPRT_MEM_FIELDS] = done;
	/* Odd: readers use copy 1 while copy 0 is written, then the other. */
	for (k = 0; k < 2; k++) {
		atomic_store(&s->seq, seq + 1 + (uint32_t)k);
		for (i = 0; i <= TPRT_MEM_FIELDS; i++)
			atomic_store_explicit(&s->copy[k][i], v[i],
					      memory_order_relaxed);
	}
}

/* Any context (handlers): a bounded number of tries, never a wait. */
void tprt_mem_read(struct tprt_rt *rt, struct tprt_mem *m)
{
	struct tprt_memsnap *s = &rt->mem;
	uint64_t v[TPRT_MEM_FIELDS + 1], pend;
	uint32_t seq;
	int i, tries = 4;

	do {
		seq = atomic_load(&s->seq);
		for (i = 0; i <= TPRT_MEM_FIELDS; i++)
			v[i] = atomic_load_explicit(&s->copy[seq & 1][i],
						    memory_order_relaxed);
	} while (atomic_load(&s->seq) != seq && --tries);
	/*
	 * Queued, or moved since the snapshot: not free for this fault. A
	 * handler counts its pages after pushing them, so the migrator may
	 * have taken more than it sees pushed yet: none pending then.
	 */
	pend = atomic_load_explicit(&s->pushed, memory_order_relaxed) -
	       v[TPRT_MEM_FIELDS];
	if ((int64_t)pend < 0)
		pend = 0;
	m->free = v[0] > pend ? v[0] - pend : 0;
	m->wmark_min = v[1];
	m->wmark_low = v[2];
	m->wmark_high = v[3];
	m->wmark_promo = v[4];
	m->present = v[5];
}

/* @n pages pushed: wake the migrator each time a batch more is queued. */
void tprt_migrate_kick(struct tprt_rt *rt, uint32_t n)
{
	uint32_t old = atomic_fetch_add(&rt->mig_futex, n);

	if (old % rt->cfg.batch + n >= rt->cfg.batch)
		syscall(SYS_futex, &rt->mig_futex, FUTEX_WAKE_PRIVATE, 1,
			NULL, NULL, 0);
}

static unsigned int move_fail_reason(int st)
{
	switch (st) {
	case -ENOENT:
		return TPRT_MF_ENOENT;
	case -EBUSY:
		return TPRT_MF_EBUSY;
	case -ENOMEM:
		return TPRT_MF_ENOMEM;
	case -EACCES:
		return TPRT_MF_EACCES;
	case -EFAULT:
		return TPRT_MF_EFAULT;
	default:
		return TPRT_MF_OTHER;
	}
}

/*
 * Move up to @max pages from @q (at most 4096). The promotion queue's pages
 * were counted off the free pages handlers see until they are done.
 * Return: pages taken off the queue.
 */
static size_t move_from(struct tprt_rt *rt, struct tprt_queue *q, size_t max)
{
	uintptr_t addr[4096];
	void *pages[4096];
	int nodes[4096], status[4096];
	size_t n, i, moved = 0;
	long ret;

	n = tprt_queue_pop(q, addr, max);
	if (!n)
		return 0;
	for (i = 0; i < n; i++) {
		pages[i] = (void *)addr[i];
		nodes[i] = rt->fast_node;
		status[i] = -EINVAL;
	}
	ret = syscall(SYS_move_pages, 0, n, pages, nodes, status,
		      MPOL_MF_MOVE_);
	atomic_fetch_add(&rt->move_calls, 1);
	for (i = 0; i < n; i++) {
		if (ret >= 0 && status[i] == rt->fast_node)
			moved++;
		else
			atomic_fetch_add(&rt->move_fail[ret < 0 ?
				TPRT_MF_OTHER : move_fail_reason(status[i])], 1);
	}
	atomic_fetch_add(&rt->moved, moved);
	if (q == &rt->q)
		atomic_fetch_add(&rt->mem.done, n);
	else
		atomic_fetch_add(&rt->deferred_moved, moved);
	if (moved)
		tprt_scan_placement(rt, tprt_now_ns());
	return n;
}

/* Move one batch from the promotion queue. Return: pages taken off it. */
size_t tprt_migrate_batch(struct tprt_rt *rt)
{
	return move_from(rt, &rt->q, rt->cfg.batch);
}

/*
 * After a nudge: move the deferred pages (hot, refused for want of room)
 * while the fast node keeps more than its high watermark free, as the
 * kernel's promotion path requires (migrate_balanced_pgdat()). Pages left
 * over keep their place for the next nudge if this one made room for any;
 * if it made none, they are dropped (their blocks are decided again at
 * their next fault), so a node that cannot make room does not keep the
 * migrator nudging.
 */
void tprt_migrate_deferred(struct tprt_rt *rt)
{
	uintptr_t drop[256];
	struct tprt_mem m;
	uint64_t room, left;
	size_t n, done = 0;

	if (tprt_mem_sample(rt, &m))
		return;
	room = m.free > m.wmark_high ? m.free - m.wmark_high - 1 : 0;
	while (room) {
		n = move_from(rt, &rt->dq, room < rt->cfg.batch ? room :
			      rt->cfg.batch);
		if (!n)
			return;
		done += n;
		room -= n;
	}
	left = tprt_queue_len(&rt->dq);
	if (!left)
		return;
	if (done) {
		atomic_fetch_add(&rt->want_demote, left);
		return;
	}
	while (tprt_queue_pop(&rt->dq, drop, 256))
		;
}

/*
 * The pages a nudge allocates (see top). Enough to end with @target free
 * once kswapd has balanced the node to its high watermark, and at least
 * enough to take every zone below its low one; no zone below min plus half
 * the min-low gap, so the allocation does not reclaim by itself. Below that
 * already (no allocation has woken kswapd since), one page: the
 * allocator's slow path wakes kswapd before it reclaims anything itself.
 *
 * @demand pages refused for want of room since the last nudge raise the
 * target by up to @cap: the allocation then goes past the floor and
 * reclaims, demoting as many pages from the node's LRU lists, and its
 * unmap leaves them free for the promotions that were refused. Only as
 * far as the other nodes have twice the room (@m->spare): a reclaim whose
 * demotions find no room would fail, and a bound allocation that cannot
 * reclaim ends in the OOM killer.
 *
 * Return: the pages to allocate, or 0 if the node has room enough.
 */
uint64_t tprt_nudge_pages(const struct tprt_mem *m, uint64_t target,
			  uint64_t demand, uint64_t cap)
{
	uint64_t want, limit, extra;

	extra = demand < cap ? demand : cap;
	if (extra > m->spare / 2)
		extra = m->spare / 2;
	target += extra;
	if (m->free >= target)
		return 0;
	want = target > m->wmark_high ? target - m->wmark_high : 1;
	if (want < m->wake)
		want = m->wake;
	limit = m->wake + m->slack + extra;
	return want < limit ? want : limit;
}

/*
 * The most pages refused for want of room that a nudge (or the victims)
 * makes room for on top of the demotion target: @c->room_batches batches,
 * and never more than a thirty-second of the node.
 */
uint64_t tprt_room_cap(const struct tprt_cfg *c, const struct tprt_mem *m)
{
	uint64_t cap = (uint64_t)c->room_batches * c->batch;

	return cap < m->present / 32 ? cap : m->present / 32;
}

/*
 * The free pages room is made for (the demotion target and a batch), and
 * in @cap the most pages refused for want of room that add to it: a nudge
 * and the victims aim at the same room.
 */
static uint64_t room_target(struct tprt_rt *rt, const struct tprt_mem *m,
			    uint64_t *cap)
{
	*cap = tprt_room_cap(&rt->cfg, m);
	return tprt_tp_demotion_target(rt->tp, m) + rt->cfg.batch;
}

/*
 * Wake kswapd on the fast node with a short allocation there (see top),
 * making room for @demand pages refused for want of it too.
 */
static void nudge(struct tprt_rt *rt, uint64_t demand)
{
	unsigned long mask[16] = { 0 };
	uint64_t target, want, t, cap;
	struct tprt_mem m;
	size_t len;
	char *p;

	if (tprt_mem_sample(rt, &m))
		return;
	target = room_target(rt, &m, &cap);
	want = tprt_nudge_pages(&m, target, demand, cap);
	if (!want)
		return;		/* room enough */
	len = want << rt->page_shift;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return;
	mask[rt->fast_node / (8 * sizeof(long))] |=
		1UL << (rt->fast_node % (8 * sizeof(long)));
	if (!syscall(SYS_mbind, p, len, MPOL_BIND_, mask, 8 * sizeof(mask),
		     0)) {
		/*
		 * A kernel before 5.14 has no MADV_POPULATE_WRITE (EINVAL):
		 * touch the pages. Any other error (ENOMEM: the bound
		 * allocation failed) touches nothing: that could end in the
		 * OOM killer.
		 */
		if (madvise(p, len, MADV_POPULATE_WRITE) && errno == EINVAL) {
			for (t = 0; t < len; t += rt->page_size)
				p[t] = 1;
		}
		atomic_fetch_add(&rt->nudges, 1);
		atomic_fetch_add(&rt->nudge_pages, want);
		/* Until kswapd has balanced the node again. */
		t = tprt_now_ns();
		while (tprt_now_ns() - t < NUDGE_WAIT_NS &&
		       !tprt_mem_sample(rt, &m) && m.free < m.wmark_high) {
			struct timespec ts = { 0, 20 * 1000 * 1000 };

			nanosleep(&ts, NULL);
		}
	}
	munmap(p, len);
}

/*
 * Protect again the blocks the handlers queued (TPRT_F_RECHECK), once the
 * promotion queue is empty (their faulting pages moved: a protected page
 * cannot be). Migrator thread; takes prot_lock per block, never waits on
 * a handler. Return: blocks taken off the queue.
 */
size_t tprt_recheck(struct tprt_rt *rt)
{
	uintptr_t addr[64];
	size_t n, i;

	n = tprt_queue_pop(&rt->rq, addr, 64);
	for (i = 0; i < n; i++)
		atomic_fetch_add(&rt->rechecks,
				 (uint64_t)tprt_protect_again(rt, addr[i]));
	return n;
}

/*
 * TPRT_F_VICTIMS: demote victims (tprt_victim.c) toward the room a nudge
 * would have kswapd make for @demand refused pages, within half the room
 * the other nodes have. Return: the refused pages left for the nudge.
 */
static uint64_t demote_victims(struct tprt_rt *rt, uint64_t demand)
{
	uint64_t target, cap, extra, deficit, got;
	struct tprt_mem m;

	if (tprt_mem_sample(rt, &m))
		return demand;
	target = room_target(rt, &m, &cap);
	extra = demand < cap ? demand : cap;
	deficit = tprt_victim_room(&m, target + extra);
	got = tprt_victim_demote(rt, deficit);
	/* What the victims did not cover is the nudge's to make. */
	deficit = deficit > got ? deficit - got : 0;
	return deficit < extra ? deficit : extra;
}

/*
 * Promotions were refused for want of room: make it, then move the
 * deferred pages. With TPRT_F_VICTIMS, cold blocks are demoted first; a
 * nudge (unless TPRT_F_NO_NUDGE) makes the rest, and without one the
 * refused pages left ask again next time.
 */
void tprt_make_room(struct tprt_rt *rt, uint64_t now)
{
	uint64_t demand = atomic_exchange(&rt->want_demote, 0);

	rt->nudge_at = now;
	if (rt->cfg.flags & TPRT_F_VICTIMS)
		demand = demote_victims(rt, demand);
	if (!(rt->cfg.flags & TPRT_F_NO_NUDGE))
		nudge(rt, demand);
	else if (demand)
		atomic_fetch_add(&rt->want_demote, demand);
	tprt_migrate_deferred(rt);
}

/*
 * The migrator's loop. It sleeps on the queue's futex until a handler wakes
 * it (every batch pushes), the next memory snapshot is due, or a nudge may
 * run again. Snapshots come every mem_interval_ms while promotions are
 * being queued, else once a second: an idle runtime wakes rarely.
 */
static void *migrator_main(void *arg)
{
	struct tprt_rt *rt = arg;
	uint64_t ival = rt->cfg.mem_interval_ms * TPRT_NS_PER_MS;
	uint64_t next_mem = 0, last_mem = 0;
	uint32_t pushes = 0;

	while (!atomic_load(&rt->mig_stop)) {
		uint64_t now = tprt_now_ns(), wake;
		uint32_t v = atomic_load(&rt->mig_futex);
		bool nudge_wanted = atomic_load(&rt->want_demote) != 0 &&
				    (!(rt->cfg.flags & TPRT_F_NO_NUDGE) ||
				     (rt->cfg.flags & TPRT_F_VICTIMS));
		struct tprt_mem m;
		struct timespec ts;

		if (now >= next_mem) {
			uint64_t done = atomic_load(&rt->mem.done);

			if ((v != pushes || now - last_mem >= TPRT_NS_PER_SEC ||
			     nudge_wanted) && !tprt_mem_sample(rt, &m)) {
				tprt_mem_publish(rt, &m, done);
				last_mem = now;
				pushes = v;
			}
			next_mem = now + ival;
		}
		if (tprt_migrate_batch(rt))
			continue;
		/* The queue is empty: the blocks to measure again. */
		if (tprt_recheck(rt))
			continue;
		if (nudge_wanted && now - rt->nudge_at >= NUDGE_GAP_NS) {
			tprt_make_room(rt, now);
			continue;
		}
		wake = next_mem;
		if (nudge_wanted && rt->nudge_at + NUDGE_GAP_NS < wake)
			wake = rt->nudge_at + NUDGE_GAP_NS;
		wake = wake > now ? wake - now : 0;
		/* A mem_interval_ms of a second or more: tv_nsec < 10^9. */
		ts.tv_sec = (time_t)(wake / TPRT_NS_PER_SEC);
		ts.tv_nsec = (long)(wake % TPRT_NS_PER_SEC);
		syscall(SYS_futex, &rt->mig_futex, FUTEX_WAIT_PRIVATE, v, &ts,
			NULL, 0);
	}
	return NULL;
}

int tprt_migrate_start(struct tprt_rt *rt)
{
	long scale = -1;
	FILE *f = fopen("/proc/sys/vm/watermark_scale_factor", "r");
	int ret;

	if (f) {
		if (fscanf(f, "%ld", &scale) != 1)
			scale = -1;
		fclose(f);
	}
	if (scale > 0)
		rt->zone_scale = (uint32_t)scale;
	if (rt->cfg.flags & TPRT_F_NO_MIGRATOR)
		return 0;
	ret = tprt_thread_create(&rt->migrator, migrator_main, rt,
				 "tprt-migrate");
	if (ret)
		return -ret;
	rt->migrator_started = true;
	return 0;
}

void tprt_migrate_stop(struct tprt_rt *rt)
{
	if (!rt->migrator_started)
		return;
	atomic_store(&rt->mig_stop, 1);
	atomic_fetch_add(&rt->mig_futex, 1);
	syscall(SYS_futex, &rt->mig_futex, FUTEX_WAKE_PRIVATE, 1, NULL, NULL,
		0);
	pthread_join(rt->migrator, NULL);
	rt->migrator_started = false;
}
