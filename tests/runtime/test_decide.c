// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * CMocka tests of the tierpol runtime (examples/runtime/): what a hint
 * fault decides (the page, the block or the fault alone; the deferral of
 * pages refused for want of room) and its latency (the blocks' stamps, the
 * scan ring, the CPU and wall clocks), the per-thread slots and the sweep
 * count. One NUMA node is enough (helpers.h). The rest of the handler:
 * test_runtime.c; the hazards: test_hazards.c.
 */
#include "helpers.h"

/* ---- what a fault decides, and its latency --------------------------------- */

static uint32_t dm_decide, dm_flags;

static void decide_mode(struct tprt_cfg *c)
{
	c->hot_threshold_ms = 5;
	c->decide = dm_decide;
	c->flags |= dm_flags;
}

/* A runtime on 512 fresh pages, all slow, protected at a frozen time. */
static char *dm_start(uint32_t decide, uint32_t flags)
{
	char *m;

	dm_decide = decide;
	dm_flags = flags;
	rt_start(TPRT_F_NO_SCANNER | TPRT_F_NO_MIGRATOR, decide_mode);
	atomic_store(&fake_ns, 1000 * TPRT_NS_PER_SEC);
	mem_set(100000, 1000);			/* room, no bypass */
	m = map_touched(512);
	assert_int_equal(tprt_register(m, 512 * PG, TPRT_SRC_MPROTECT), 0);
	assert_int_equal(tprt_scan_now(), 32);
	return m;
}

static void dm_stop(char *m)
{
	assert_int_equal(tprt_shutdown(), 0);
	atomic_store(&fake_ns, 0);
	munmap(m, 512 * PG);
}

/*
 * A fault 1 ms after the scan with a 5 ms threshold: the faulting page is
 * hot; the block's other pages, on 16 times that latency, are cold
 * (TPRT_DECIDE_PAGE); the block as one folio is hot (BLOCK); the page
 * alone is hot and nothing else is decided (FAULT).
 */
static void test_decide_modes(void **state)
{
	struct tprt_stats s;
	uintptr_t out[32];
	char *m;

	(void)state;
	m = dm_start(TPRT_DECIDE_PAGE, 0);
	atomic_fetch_add(&fake_ns, TPRT_NS_PER_MS);
	assert_int_equal(((volatile char *)m)[3 * PG], 3);
	tprt_stats(&s);
	assert_int_equal(verdicts(&s, TPRT_V_PROMOTE), 1);
	assert_int_equal(verdicts(&s, TPRT_V_REFUSE_COLD), 1);
	/* The cold verdict is the other pages', counted apart too. */
	assert_int_equal(s.verdict_others[TPRT_V_REFUSE_COLD], 1);
	assert_int_equal(s.verdict_others[TPRT_V_PROMOTE], 0);
	assert_int_equal(s.tp_decided, 16);
	assert_int_equal(s.tp_candidate, 1);
	assert_int_equal(tprt_queue_pop(&tprt_rt->q, out, 32), 1);
	assert_true(out[0] == (uintptr_t)m + 3 * PG);
	/* 16 x 250 us = 4 ms < 5 ms: the rest is hot too. */
	atomic_fetch_add(&fake_ns, TPRT_NS_PER_MS / 4 - TPRT_NS_PER_MS);
	assert_int_equal(((volatile char *)m)[20 * PG], 20);
	tprt_stats(&s);
	assert_int_equal(verdicts(&s, TPRT_V_PROMOTE), 3);
	assert_int_equal(tprt_queue_pop(&tprt_rt->q, out, 32), 16);
	dm_stop(m);

	m = dm_start(TPRT_DECIDE_BLOCK, 0);
	atomic_fetch_add(&fake_ns, TPRT_NS_PER_MS);
	assert_int_equal(((volatile char *)m)[3 * PG], 3);
	tprt_stats(&s);
	assert_int_equal(verdicts(&s, TPRT_V_PROMOTE), 1);
	assert_int_equal(s.verdict_others[TPRT_V_PROMOTE], 0);
	assert_int_equal(s.tp_decided, 16);
	assert_int_equal(tprt_queue_pop(&tprt_rt->q, out, 32), 16);
	assert_true(out[0] == (uintptr_t)m);
	dm_stop(m);

	m = dm_start(TPRT_DECIDE_FAULT, 0);
	atomic_fetch_add(&fake_ns, TPRT_NS_PER_MS);
	assert_int_equal(((volatile char *)m)[3 * PG], 3);
	tprt_stats(&s);
	assert_int_equal(verdicts(&s, TPRT_V_PROMOTE), 1);
	assert_int_equal(s.tp_decided, 1);
	assert_int_equal(tprt_queue_pop(&tprt_rt->q, out, 32), 1);
	dm_stop(m);
}

/*
 * TPRT_F_RECHECK: a fault whose page is promoted while its block's other
 * pages are refused as cold has the block protected again with a fresh
 * stamp (by the migrator: tprt_recheck() here), once until the scanner's
 * next visit; a fault on it soon after promotes the rest.
 */
static void test_recheck(void **state)
{
	struct tprt_stats s;
	uintptr_t out[32];
	volatile char *p;
	char *m;

	(void)state;
	/* Without the flag, nothing is queued. */
	m = dm_start(TPRT_DECIDE_PAGE, 0);
	atomic_fetch_add(&fake_ns, TPRT_NS_PER_MS);
	assert_int_equal(((volatile char *)m)[3 * PG], 3);
	assert_int_equal(tprt_queue_len(&tprt_rt->rq), 0);
	assert_int_equal(tprt_recheck(tprt_rt), 0);
	dm_stop(m);

	m = dm_start(TPRT_DECIDE_PAGE, TPRT_F_RECHECK);
	p = m;
	/* 1 ms: the page is hot, the rest (16 ms) cold: queued once. */
	atomic_fetch_add(&fake_ns, TPRT_NS_PER_MS);
	assert_int_equal(p[3 * PG], 3);
	assert_int_equal(tprt_queue_pop(&tprt_rt->q, out, 32), 1);
	assert_int_equal(tprt_queue_len(&tprt_rt->rq), 1);
	assert_true(atomic_load(&tprt_rt->region[0].blk[0]) & TPRT_BLK_RECHECK);
	/* A page hot and the rest cold, but both cold: not queued. */
	atomic_fetch_add(&fake_ns, 9 * TPRT_NS_PER_MS);
	assert_int_equal(p[20 * PG], 20);
	assert_int_equal(tprt_queue_len(&tprt_rt->rq), 1);
	/* Protected again, with a fresh stamp (the clock stands at 10 ms). */
	assert_int_equal(tprt_recheck(tprt_rt), 1);
	tprt_stats(&s);
	assert_int_equal(s.rechecks, 1);
	assert_int_equal(s.faults, 2);
	assert_true(atomic_load(&tprt_rt->region[0].blk[0]) & TPRT_BLK_PROT);
	/* 100 us later: 16 x 100 us = 1.6 ms < 5 ms, the rest is hot. */
	atomic_fetch_add(&fake_ns, TPRT_NS_PER_MS / 10);
	assert_int_equal(p[7 * PG], 7);
	tprt_stats(&s);
	assert_int_equal(s.faults, 3);
	assert_int_equal(s.verdict_others[TPRT_V_PROMOTE], 1);
	assert_int_equal(tprt_queue_pop(&tprt_rt->q, out, 32), 16);
	/* The block's mark stays until the visit: not queued again. */
	assert_int_equal(tprt_queue_len(&tprt_rt->rq), 0);
	/*
	 * The scanner's visit clears the mark: protected anew, block 0 is
	 * queued again by the same kind of fault, and is protected by the
	 * scan again before the migrator gets to it: nothing to do.
	 */
	tprt_scan_now();
	assert_false(atomic_load(&tprt_rt->region[0].blk[0]) &
		     TPRT_BLK_RECHECK);
	atomic_fetch_add(&fake_ns, TPRT_NS_PER_MS);
	assert_int_equal(p[3 * PG], 3);
	assert_int_equal(tprt_queue_len(&tprt_rt->rq), 1);
	tprt_scan_now();
	assert_int_equal(tprt_recheck(tprt_rt), 1);
	tprt_stats(&s);
	assert_int_equal(s.rechecks, 1);
	dm_stop(m);
}

/*
 * TPRT_F_RECHECK_FILL: a block is measured again only while the fast node
 * has more than a sixteenth of it (65,536 of 2^20 pages here) free above
 * the promotion watermark (3,000): at 68,537 free it is; at 68,536, with
 * room for the promotion still, it is not.
 */
/*
 * With @free pages free on the fast node, a fault on page @pg (< 128) of
 * dm_start()'s region @m, whose page is hot and the rest of its block
 * cold: the page is queued alone, @rq blocks wait to be measured again,
 * and the fault's block is marked for it or not (@marked).
 */
static void fill_fault(char *m, uint64_t free, uint64_t pg, size_t rq,
		       bool marked)
{
	uintptr_t out[32];

	mem_set(free, 1000);
	assert_int_equal(((volatile char *)m)[pg * PG], (char)pg);
	assert_int_equal(tprt_queue_pop(&tprt_rt->q, out, 32), 1);
	assert_int_equal(tprt_queue_len(&tprt_rt->rq), rq);
	assert_int_equal(!!(atomic_load(&tprt_rt->region[0].blk[pg / 16]) &
			    TPRT_BLK_RECHECK), marked);
}

static void test_recheck_fill(void **state)
{
	char *m;

	(void)state;
	m = dm_start(TPRT_DECIDE_PAGE, TPRT_F_RECHECK | TPRT_F_RECHECK_FILL);
	atomic_fetch_add(&fake_ns, TPRT_NS_PER_MS);
	fill_fault(m, 3000 + 65536, 3, 0, false);
	fill_fault(m, 3000 + 65536 + 1, 20, 1, true);
	dm_stop(m);
}

/*
 * tprt_cfg_default()'s flags: while the fast node fills, a block whose
 * other pages are refused as cold is measured again; once it is full, a
 * hot page refused for want of room is dropped, not kept for the migrator
 * (the scenarios of test_recheck_fill and test_defer).
 */
static void test_defaults(void **state)
{
	struct tprt_stats s;
	struct tprt_cfg d;
	volatile char *p;
	char *m;

	(void)state;
	tprt_cfg_default(&d);
	assert_int_equal(d.flags, TPRT_F_DEFAULT);
	m = dm_start(TPRT_DECIDE_PAGE, d.flags);
	p = m;
	atomic_fetch_add(&fake_ns, TPRT_NS_PER_MS);
	fill_fault(m, 3000 + 65536 + 1, 3, 1, true);
	/* At the margin the node no longer fills: promoted, not again. */
	fill_fault(m, 3000 + 65536, 40, 1, false);
	/*
	 * Full: 1.25 ms is within a quarter of the 5 ms threshold (kept
	 * with TPRT_F_NO_DEFER cleared), dropped; the rest (20 ms) is cold
	 * and, the node no longer filling, not measured again.
	 */
	mem_set(2000, 1000);
	atomic_fetch_add(&fake_ns, TPRT_NS_PER_MS / 4);
	assert_int_equal(p[20 * PG], 20);
	tprt_stats(&s);
	assert_int_equal(verdicts(&s, TPRT_V_REFUSE_NOSPACE), 1);
	assert_int_equal(verdicts(&s, TPRT_V_REFUSE_COLD), 3);
	assert_int_equal(s.deferred, 0);
	assert_int_equal(tprt_queue_len(&tprt_rt->dq), 0);
	assert_int_equal(tprt_queue_len(&tprt_rt->rq), 1);
	dm_stop(m);
}

/*
 * No room: hot pages are refused, their count asks for demotion, and those
 * within a quarter of the 5 ms threshold (defer_shift 2) wait on the
 * deferred queue for the migrator; none with TPRT_F_NO_DEFER.
 */
static void test_defer(void **state)
{
	struct tprt_stats s;
	uintptr_t out[32];
	char *m;

	(void)state;
	m = dm_start(TPRT_DECIDE_PAGE, 0);
	mem_set(2000, 1000);			/* below high + 16 */
	/* 250 us: the page deferred; the rest, 16 x 250 us = 4 ms, not. */
	atomic_fetch_add(&fake_ns, TPRT_NS_PER_MS / 4);
	assert_int_equal(((volatile char *)m)[3 * PG], 3);
	tprt_stats(&s);
	assert_int_equal(verdicts(&s, TPRT_V_REFUSE_NOSPACE), 2);
	assert_int_equal(s.deferred, 1);
	assert_int_equal(s.deferred_full, 0);
	assert_int_equal(atomic_load(&tprt_rt->want_demote), 16);
	/* 2 ms: hot, refused, not deferred; the rest (32 ms) is cold. */
	atomic_fetch_add(&fake_ns, 2 * TPRT_NS_PER_MS - TPRT_NS_PER_MS / 4);
	assert_int_equal(((volatile char *)m)[20 * PG], 20);
	tprt_stats(&s);
	assert_int_equal(verdicts(&s, TPRT_V_REFUSE_NOSPACE), 3);
	assert_int_equal(verdicts(&s, TPRT_V_REFUSE_COLD), 1);
	assert_int_equal(s.deferred, 1);
	assert_int_equal(atomic_load(&tprt_rt->want_demote), 17);
	assert_int_equal(tprt_queue_pop(&tprt_rt->dq, out, 32), 1);
	assert_true(out[0] == (uintptr_t)m + 3 * PG);
	assert_int_equal(tprt_queue_pop(&tprt_rt->q, out, 32), 0);
	/*
	 * After a nudge the migrator moves the deferred pages while the node
	 * has room (the machine's real zoneinfo: here, the one node, where
	 * the pages already are, and room to spare): all of them, counted.
	 */
	assert_int_equal(tprt_queue_push(&tprt_rt->dq, (uintptr_t)m), 0);
	assert_int_equal(tprt_queue_push(&tprt_rt->dq, (uintptr_t)m + PG), 0);
	assert_int_equal(tprt_queue_len(&tprt_rt->dq), 2);
	tprt_migrate_deferred(tprt_rt);
	assert_int_equal(tprt_queue_len(&tprt_rt->dq), 0);
	tprt_stats(&s);
	assert_int_equal(s.deferred_moved, 2);
	assert_int_equal(s.moved, 2);
	dm_stop(m);

	m = dm_start(TPRT_DECIDE_PAGE, TPRT_F_NO_DEFER);
	mem_set(2000, 1000);
	atomic_fetch_add(&fake_ns, TPRT_NS_PER_MS / 4);
	assert_int_equal(((volatile char *)m)[3 * PG], 3);
	tprt_stats(&s);
	assert_int_equal(verdicts(&s, TPRT_V_REFUSE_NOSPACE), 2);
	assert_int_equal(s.deferred, 0);
	assert_int_equal(atomic_load(&tprt_rt->want_demote), 16);
	assert_int_equal(tprt_queue_pop(&tprt_rt->dq, out, 32), 0);
	dm_stop(m);
}

/*
 * A block that stays protected keeps its stamp (as 6.1 keeps a marked
 * PTE's): 30 ms later it is cold, although the pass that protected its
 * neighbours again just ran. The scan ring (TPRT_F_RING_LATENCY) gives it
 * the time of the run below it: hot.
 */
static void test_latency_stamp(void **state)
{
	volatile char *p;
	struct tprt_stats s;
	uint32_t flags;
	char *m;

	(void)state;
	for (flags = 0; flags <= TPRT_F_RING_LATENCY;
	     flags += TPRT_F_RING_LATENCY) {
		m = dm_start(TPRT_DECIDE_BLOCK, flags);
		p = m;
		/* Blocks 2 and 8, cold at 30 ms, restored. */
		atomic_fetch_add(&fake_ns, 30 * TPRT_NS_PER_MS);
		assert_int_equal(p[32 * PG], 32);
		assert_int_equal(p[128 * PG], (char)128);
		tprt_stats(&s);
		assert_int_equal(verdicts(&s, TPRT_V_REFUSE_COLD), 2);
		/* They are protected again now; block 5 stayed protected. */
		assert_int_equal(tprt_scan_now(), 2);
		assert_int_equal(p[80 * PG], 80);
		tprt_stats(&s);
		if (flags) {
			assert_int_equal(verdicts(&s, TPRT_V_PROMOTE), 1);
		} else {
			assert_int_equal(verdicts(&s, TPRT_V_PROMOTE), 0);
			assert_int_equal(verdicts(&s, TPRT_V_REFUSE_COLD), 3);
		}
		/* Block 2's stamp is the new pass's: hot either way. */
		assert_int_equal(p[33 * PG], 33);
		tprt_stats(&s);
		assert_int_equal(verdicts(&s, TPRT_V_PROMOTE), flags ? 2 : 1);
		dm_stop(m);
	}
}

/*
 * The CPU latency clock stands still while the program sleeps and runs
 * while it computes; the wall clock runs either way.
 */
static void test_lat_clock(void **state)
{
	struct tprt_rt rt;
	struct timespec t;
	uint64_t c0, c1, c2, w0, spin_end;
	volatile uint64_t sink = 0;

	(void)state;
	memset(&rt, 0, sizeof(rt));
	rt.cfg.clock = TPRT_CLOCK_CPU;
	c0 = tprt_lat_now(&rt);
	sleep_ms(100);
	c1 = tprt_lat_now(&rt);
	assert_true(c1 >= c0);
	assert_true(c1 - c0 < 50 * TPRT_NS_PER_MS);
	/*
	 * Computing moves it: 100 ms of user time show within at most 5 s of
	 * this thread's CPU time. (getrusage() splits a task's precise run
	 * time into user and system time in proportion to tick samples, so
	 * on a loaded machine the user share may lag the CPU time spent.)
	 */
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	spin_end = (uint64_t)t.tv_sec * TPRT_NS_PER_SEC + (uint64_t)t.tv_nsec +
		   5000 * TPRT_NS_PER_MS;
	do {
		for (int i = 0; i < 100000; i++)
			sink += (uint64_t)i;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
		c2 = tprt_lat_now(&rt);
	} while (c2 - c1 < 100 * TPRT_NS_PER_MS &&
		 (uint64_t)t.tv_sec * TPRT_NS_PER_SEC + (uint64_t)t.tv_nsec <
		 spin_end);
	(void)sink;	/* read once: clang's -Wunused-but-set-variable */
	assert_true(c2 - c1 >= 100 * TPRT_NS_PER_MS);
	rt.cfg.clock = TPRT_CLOCK_WALL;
	w0 = tprt_lat_now(&rt);
	sleep_ms(100);
	assert_true(tprt_lat_now(&rt) - w0 >= 100 * TPRT_NS_PER_MS);
}

/* ---- per-thread slots ------------------------------------------------------ */

#define SL_THREADS	(TPRT_MAX_SLOTS + 2)
#define SL_BLOCKS	64		/* per racing thread */

static char *sl_mem;

/* One decision per fault: the block's slow pages together. */
static void decide_block(struct tprt_cfg *c)
{
	c->decide = TPRT_DECIDE_BLOCK;
}

/* Fault on block (uintptr_t)arg of sl_mem. */
static void *slot_one(void *arg)
{
	volatile char *p = sl_mem + (uintptr_t)arg * 16 * PG;

	return (void *)(uintptr_t)(*p != (char)((uintptr_t)arg * 16));
}

/* Fault on SL_BLOCKS blocks from block (uintptr_t)arg on. */
static void *slot_many(void *arg)
{
	uintptr_t b0 = (uintptr_t)arg, b;
	volatile char *p;

	for (b = b0; b < b0 + SL_BLOCKS; b++) {
		p = sl_mem + b * 16 * PG;
		if (*p != (char)(b * 16))
			return (void *)1;
	}
	return NULL;
}

/*
 * More threads fault than there are slots: each of the first has a slot
 * of its own (runtime counters and tierpol's struct tp_node_cpu), the
 * later ones share the last. Two of them then race on it: every fault is
 * counted once, either decided (its 16 pages in tierpol's figures) or
 * "slot-busy" (restored, not decided), never both.
 */
static void test_slots(void **state)
{
	const size_t blocks = SL_THREADS + 2 * SL_BLOCKS;
	struct tprt_stats s;
	pthread_t th[2];
	uint64_t sum = 0;
	void *ret;
	uintptr_t t;
	unsigned int v;
	size_t i;

	(void)state;
	rt_start(TPRT_F_NO_SCANNER | TPRT_F_NO_MIGRATOR, decide_block);
	atomic_store(&fake_ns, 1000 * TPRT_NS_PER_SEC);
	mem_set(1ULL << 30, 1000);		/* the bypass: all promoted */
	sl_mem = map_touched(blocks * 16);
	for (i = 0; i < blocks * 16; i++)
		sl_mem[i * PG] = (char)i;
	assert_int_equal(tprt_register(sl_mem, blocks * 16 * PG,
				       TPRT_SRC_MPROTECT), 0);
	tprt_scan_now();
	for (t = 0; t < SL_THREADS; t++) {
		assert_int_equal(pthread_create(&th[0], NULL, slot_one,
						(void *)t), 0);
		assert_int_equal(pthread_join(th[0], &ret), 0);
		assert_null(ret);
	}
	assert_int_equal(atomic_load(&tprt_rt->nr_slots), SL_THREADS);
	tprt_stats(&s);
	assert_int_equal(s.faults, SL_THREADS);
	assert_int_equal(verdicts(&s, TPRT_V_PROMOTE_NRL), SL_THREADS);
	assert_int_equal(s.tp_decided, SL_THREADS * 16);
	/* Each of the first slots counted one fault, the last three. */
	assert_int_equal(atomic_load(&tprt_rt->slot[0].faults), 1);
	assert_int_equal(atomic_load(&tprt_rt->slot[TPRT_MAX_SLOTS - 2].faults),
			 1);
	assert_int_equal(atomic_load(&tprt_rt->slot[TPRT_MAX_SLOTS - 1].faults),
			 3);

	for (t = 0; t < 2; t++)
		assert_int_equal(pthread_create(&th[t], NULL, slot_many,
				(void *)(SL_THREADS + t * SL_BLOCKS)), 0);
	for (t = 0; t < 2; t++) {
		assert_int_equal(pthread_join(th[t], &ret), 0);
		assert_null(ret);
	}
	tprt_stats(&s);
	assert_int_equal(s.faults, blocks);
	for (v = 0; v < TPRT_NR_VERDICTS; v++)
		sum += s.verdict[v];
	assert_int_equal(sum, blocks);
	assert_int_equal(s.verdict[TPRT_V_ERROR], 0);
	assert_int_equal(s.tp_decided,
			 (blocks - s.verdict[TPRT_V_SLOT_BUSY]) * 16);
	assert_int_equal(s.tp_promoted, s.tp_decided);
	assert_int_equal(tprt_shutdown(), 0);
	/* tierpol's figures outlive the runtime until the next init. */
	tprt_stats(&s);
	assert_int_equal(s.tp_promoted, s.tp_decided);
	assert_true(s.tp_decided >= SL_THREADS * 16);
	atomic_store(&fake_ns, 0);
	munmap(sl_mem, blocks * 16 * PG);
}

/* A pass whose budget ends at the end of the last region ends the sweep. */
static void scan4(struct tprt_cfg *c)
{
	c->scan_size_mb = 4;		/* 1024 pages: two chunks */
}

static void test_scan_sweep(void **state)
{
	struct tprt_stats s;
	char *m;

	(void)state;
	rt_start(TPRT_F_NO_SCANNER | TPRT_F_NO_MIGRATOR, scan4);
	m = map_touched(3072);
	assert_int_equal(tprt_register(m, 1024 * PG, TPRT_SRC_MPROTECT), 0);
	assert_int_equal(tprt_register(m + 2048 * PG, 1024 * PG,
				       TPRT_SRC_MPROTECT), 0);
	assert_int_equal(tprt_scan_now(), 64);	/* the first region */
	tprt_stats(&s);
	assert_int_equal(s.seq, 0);
	assert_int_equal(tprt_scan_now(), 64);	/* the second, to its end */
	tprt_stats(&s);
	assert_int_equal(s.seq, 0);
	assert_int_equal(tprt_scan_now(), 0);	/* all protected already */
	tprt_stats(&s);
	assert_int_equal(s.seq, 2);		/* two sweeps were complete */
	assert_int_equal(s.passes, 3);
	assert_int_equal(tprt_shutdown(), 0);
	munmap(m, 3072 * PG);
}

/*
 * TPRT_F_SWEEP_FILL: while the fast node fills (more than a sixteenth of it,
 * 65,536 pages, free above the promotion watermark, 3,000), a pass scans
 * up to 2560 MB a second of the period (1 s here: 655,360 pages), so the
 * three 1024-page regions are protected in one pass, which completes the
 * sweep; at the margin the node no longer fills and a pass scans
 * scan_size_mb (4 MiB, 64 blocks) again; without the flag, so does a pass
 * while the node fills.
 */
static void sweep_check(uint32_t flags, uint64_t free, int blocks,
			uint64_t fill_passes, uint64_t seq)
{
	struct tprt_stats s;
	char *m;

	rt_start(TPRT_F_NO_SCANNER | TPRT_F_NO_MIGRATOR | flags, scan4);
	m = map_touched(3072);
	assert_int_equal(tprt_register(m, 1024 * PG, TPRT_SRC_MPROTECT), 0);
	assert_int_equal(tprt_register(m + 1024 * PG, 1024 * PG,
				       TPRT_SRC_MPROTECT), 0);
	assert_int_equal(tprt_register(m + 2048 * PG, 1024 * PG,
				       TPRT_SRC_MPROTECT), 0);
	mem_set(free, 1000);
	assert_int_equal(tprt_scan_now(), blocks);
	tprt_stats(&s);
	assert_int_equal(s.passes, 1);
	assert_int_equal(s.passes_fill, fill_passes);
	assert_int_equal(s.seq, seq);
	assert_int_equal(s.blocks_protected, blocks);
	assert_int_equal(tprt_shutdown(), 0);
	munmap(m, 3072 * PG);
}

static void test_sweep_fill(void **state)
{
	(void)state;
	sweep_check(TPRT_F_SWEEP_FILL, 3000 + 65536 + 1, 192, 1, 1);
	sweep_check(TPRT_F_SWEEP_FILL, 3000 + 65536, 64, 0, 0);
	sweep_check(0, 3000 + 65536 + 1, 64, 0, 0);
}

/* A period too short for the kernel's rate to pass scan_size_mb. */
static void scan4_short(struct tprt_cfg *c)
{
	c->scan_size_mb = 4;
	c->scan_delay_ms = 1;		/* 2.56 MB a period */
}

static void test_sweep_fill_short(void **state)
{
	struct tprt_stats s;
	char *m;

	(void)state;
	rt_start(TPRT_F_NO_SCANNER | TPRT_F_NO_MIGRATOR | TPRT_F_SWEEP_FILL,
		 scan4_short);
	m = map_touched(3072);
	assert_int_equal(tprt_register(m, 3072 * PG, TPRT_SRC_MPROTECT), 0);
	mem_set(3000 + 65536 + 1, 1000);
	assert_int_equal(tprt_scan_now(), 64);
	tprt_stats(&s);
	assert_int_equal(s.passes_fill, 0);
	assert_int_equal(tprt_shutdown(), 0);
	munmap(m, 3072 * PG);
}

/*
 * The scanner's system calls cover only the blocks whose protection
 * changes: two blocks a fault restored inside a protected chunk are
 * protected again by a 16-page call each, not with the rest of their run
 * (x86 flushes the whole TLB for a range over 33 pages).
 */
static void test_narrow_runs(void **state)
{
	struct tprt_stats s0, s1;
	volatile char *p;
	char *m;

	(void)state;
	m = dm_start(TPRT_DECIDE_PAGE, 0);	/* 32 blocks, one call */
	p = m;
	tprt_stats(&s0);
	assert_int_equal(s0.scan_calls, 1);
	assert_int_equal(s0.scan_calls_wide, 1);
	assert_int_equal(p[5 * 16 * PG], 80);
	assert_int_equal(p[20 * 16 * PG], 64);	/* 320 & 0xff */
	tprt_stats(&s1);
	assert_int_equal(s1.faults - s0.faults, 2);
	assert_int_equal(tprt_scan_now(), 2);
	tprt_stats(&s1);
	assert_int_equal(s1.scan_calls - s0.scan_calls, 2);
	assert_int_equal(s1.scan_calls_wide, s0.scan_calls_wide);
	assert_true(atomic_load(&tprt_rt->region[0].blk[5]) & TPRT_BLK_PROT);
	assert_true(atomic_load(&tprt_rt->region[0].blk[20]) & TPRT_BLK_PROT);
	dm_stop(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		rt_test(test_decide_modes),
		rt_test(test_defer),
		rt_test(test_recheck),
		rt_test(test_recheck_fill),
		rt_test(test_defaults),
		rt_test(test_latency_stamp),
		rt_test(test_lat_clock),
		rt_test(test_slots),
		rt_test(test_scan_sweep),
		rt_test(test_sweep_fill),
		rt_test(test_sweep_fill_short),
		rt_test(test_narrow_runs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
