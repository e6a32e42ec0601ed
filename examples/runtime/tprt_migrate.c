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
#define MPOL_MF_MOVE_	(1 << 1)
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
	/* Queued, or moved since the snapshot: not free for this fault. */
	pend = atomic_load_explicit(&s->pushed, memory_order_relaxed) -
	       v[TPRT_MEM_FIELDS];
	m->free = v[0] > pend ? v[0] - pend : 0;
	m->wmark_min = v[1];
	m->wmark_low = v[2];
	m->wmark_high = v[3];
	m->wmark_promo = v[4];
	m->present = v[5];
}

void tprt_migrate_kick(struct tprt_rt *rt)
{
	uint32_t n = atomic_fetch_add(&rt->mig_futex, 1) + 1;

	if (n % rt->cfg.batch == 0)
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

/* Move one batch from the queue. Return: pages taken off the queue. */
size_t tprt_migrate_batch(struct tprt_rt *rt)
{
	uintptr_t addr[4096];
	void *pages[4096];
	int nodes[4096], status[4096];
	size_t n, i, moved = 0;
	long ret;

	n = tprt_queue_pop(&rt->q, addr, rt->cfg.batch);
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
	atomic_fetch_add(&rt->mem.done, n);
	if (moved)
		tprt_scan_placement(rt, tprt_now_ns());
	return n;
}

/* Wake kswapd on the fast node with a short allocation there (see top). */
static void nudge(struct tprt_rt *rt, uint64_t now)
{
	unsigned long mask[16] = { 0 };
	uint64_t target, want, t;
	struct tprt_mem m;
	size_t len;
	char *p;

	atomic_store(&rt->want_demote, 0);
	rt->nudge_at = now;
	if (tprt_mem_sample(rt, &m))
		return;
	target = tprt_tp_demotion_target(rt->tp, &m) + rt->cfg.batch;
	if (m.free >= target)
		return;		/* room enough */
	/*
	 * Enough to end near the target once kswapd has balanced the node
	 * to its high watermark, and at least enough to take every zone
	 * below its low one (tprt_mem_sample()); but no zone below min +
	 * half the min-low gap. Below that already (no allocation has woken
	 * kswapd since), one page: the allocator's slow path wakes kswapd
	 * before it reclaims anything itself.
	 */
	want = target > m.wmark_high ? target - m.wmark_high : 1;
	if (want < m.wake)
		want = m.wake;
	if (want > m.wake + m.slack)
		want = m.wake + m.slack;
	len = want << rt->page_shift;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return;
	mask[rt->fast_node / (8 * sizeof(long))] |=
		1UL << (rt->fast_node % (8 * sizeof(long)));
	if (!syscall(SYS_mbind, p, len, MPOL_BIND_, mask, 8 * sizeof(mask),
		     0)) {
		if (madvise(p, len, MADV_POPULATE_WRITE)) {
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
		bool nudge_wanted = atomic_load(&rt->want_demote) &&
				    !(rt->cfg.flags & TPRT_F_NO_NUDGE);
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
		if (nudge_wanted && now - rt->nudge_at >= NUDGE_GAP_NS) {
			nudge(rt, now);
			continue;
		}
		wake = next_mem;
		if (nudge_wanted && rt->nudge_at + NUDGE_GAP_NS < wake)
			wake = rt->nudge_at + NUDGE_GAP_NS;
		wake = wake > now ? wake - now : 0;
		ts.tv_sec = 0;
		ts.tv_nsec = (long)wake;
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
	ret = pthread_create(&rt->migrator, NULL, migrator_main, rt);
	if (ret)
		return -ret;
	pthread_setname_np(rt->migrator, "tprt-migrate");
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
