// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * CMocka tests of the tierpol runtime (examples/runtime/), part 1: bad
 * input (a rejected tprt_init() changes nothing), the queue (many
 * producers, one consumer), the memory latch, the pagemap node query, the
 * scan period rule, the handler (restore; the bypass, hot, cold, no-room
 * and top-tier verdicts; the block's slow pages queued; stale faults; the
 * migrator's batch). One NUMA node is enough (helpers.h). What a fault
 * decides and the slots: test_decide.c; the hazards: test_hazards.c.
 */
#include "helpers.h"

/* ---- bad input ------------------------------------------------------------ */

static void zero_threshold(struct tprt_cfg *c)
{
	c->hot_threshold_ms = 0;
}

static void test_bad_input(void **state)
{
	struct tprt_cfg cfg;
	char *p;
	int x;

	(void)state;
	assert_int_equal(tprt_register((void *)0x100000, PG, 0), -ESRCH);
	tprt_cfg_default(&cfg);
	cfg.block_pages = 12;
	assert_int_equal(tprt_init(&cfg), -EINVAL);
	tprt_cfg_default(&cfg);
	cfg.block_pages = 1024;		/* above chunk_pages */
	assert_int_equal(tprt_init(&cfg), -EINVAL);
	tprt_cfg_default(&cfg);
	cfg.flags = TPRT_F_ALL + 1;	/* the first undefined flag */
	assert_int_equal(tprt_init(&cfg), -EINVAL);
	tprt_cfg_default(&cfg);
	cfg.flags = TPRT_F_RECHECK_FILL;	/* without TPRT_F_RECHECK */
	assert_int_equal(tprt_init(&cfg), -EINVAL);
	tprt_cfg_default(&cfg);
	cfg.queue_pages = 1000;
	assert_int_equal(tprt_init(&cfg), -EINVAL);
	tprt_cfg_default(&cfg);
	cfg.scan_period_max_ms = 10;	/* below the minimum */
	assert_int_equal(tprt_init(&cfg), -EINVAL);
	tprt_cfg_default(&cfg);
	cfg.defer_shift = 17;
	assert_int_equal(tprt_init(&cfg), -EINVAL);
	tprt_cfg_default(&cfg);
	cfg.room_batches = 65;
	assert_int_equal(tprt_init(&cfg), -EINVAL);
	/* A node the machine does not have (1023: none has that many). */
	tprt_cfg_default(&cfg);
	cfg.fast_node = 1023;
	if (!access("/sys/devices/system/node/has_memory", R_OK))
		assert_int_equal(tprt_init(&cfg), -EINVAL);
	tprt_cfg_default(&cfg);
	cfg.fast_node = 1024;		/* out of range anywhere */
	assert_int_equal(tprt_init(&cfg), -EINVAL);
	/* A victim block larger than one demotion call. */
	tprt_cfg_default(&cfg);
	cfg.flags |= TPRT_F_VICTIMS;
	cfg.chunk_pages = 65536;
	cfg.block_pages = 8192;
	assert_int_equal(tprt_init(&cfg), -EINVAL);

	/* A threshold of 0 is the preset's 1000 ms, the victims' too. */
	rt_start(TPRT_F_NO_SCANNER | TPRT_F_NO_MIGRATOR, zero_threshold);
	assert_int_equal(tprt_rt->cold_ns, 1000 * TPRT_NS_PER_MS / 16);
	assert_int_equal(tprt_shutdown(), 0);

	rt_start(TPRT_F_NO_SCANNER | TPRT_F_NO_MIGRATOR, NULL);
	assert_int_equal(tprt_init(NULL), -EBUSY);
	p = map_touched(64);
	assert_int_equal(tprt_register(p + 1, PG, 0), -EINVAL);
	assert_int_equal(tprt_register(p, PG + 1, 0), -EINVAL);
	assert_int_equal(tprt_register(p, 0, 0), -EINVAL);
	assert_int_equal(tprt_register(p, PG, 7), -EINVAL);
	assert_int_equal(tprt_register(p, 32 * PG, 0), 0);
	assert_int_equal(tprt_register(p + 16 * PG, 32 * PG, 0), -EINVAL);
	assert_int_equal(tprt_unregister(p + PG), -ENOENT);
	assert_int_equal(tprt_pin(p, 0), -EINVAL);
	assert_int_equal(tprt_pin(p + PG, (size_t)-1), -EINVAL);
	/* Unpinning what is not pinned changes nothing. */
	assert_int_equal(tprt_pin(p, PG), 0);
	assert_int_equal(tprt_unpin(p, 32 * PG), -EINVAL);
	assert_int_equal(tprt_unpin(p, PG), 0);
	assert_int_equal(tprt_unpin(p, PG), -EINVAL);
	/* Pins outside registered memory are no-ops. */
	assert_int_equal(tprt_pin(&x, sizeof(x)), 0);
	assert_int_equal(tprt_unpin(&x, sizeof(x)), 0);
	assert_string_equal(tprt_verdict_name(TPRT_V_REFUSE_COLD),
			    "refuse-cold");
	assert_string_equal(tprt_verdict_name(TPRT_V_REFUSE_BUSY),
			    "refuse-busy");
	assert_string_equal(tprt_verdict_name(TPRT_V_SLOT_BUSY), "slot-busy");
	assert_string_equal(tprt_verdict_name(99), "?");
	assert_string_equal(tprt_move_fail_name(TPRT_MF_EBUSY), "ebusy");
	assert_string_equal(tprt_move_fail_name(99), "?");
	assert_int_equal(tprt_shutdown(), 0);
	assert_int_equal(tprt_shutdown(), -ESRCH);
	assert_int_equal(tprt_register(p, PG, 0), -ESRCH);
	munmap(p, 64 * PG);
}

/* The program's SIGSEGV handler of test_rejected_init(); never called. */
static void own_segv(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)si;
	(void)uc;
	_exit(99);
}

/*
 * A rejected tprt_init() changes nothing. After tprt_shutdown(), one that
 * failed with -ERANGE (a rate limit above tierpol's limiter's) had already
 * cleared the runtime and its pointer, and tprt_stats() read zeros (faults
 * 32, then 0); it had also put the runtime's handler back over the one the
 * program installed since.
 */
static void test_rejected_init(void **state)
{
	struct tprt_stats before, after;
	struct sigaction own, saved, cur;
	struct tprt_cfg cfg;
	volatile char *p;
	char *m;
	int i;

	(void)state;
	rt_start(TPRT_F_NO_SCANNER | TPRT_F_NO_MIGRATOR, NULL);
	m = map_touched(512);
	p = m;
	assert_int_equal(tprt_register(m, 512 * PG, TPRT_SRC_MPROTECT), 0);
	assert_int_equal(tprt_scan_now(), 512 / 16);	/* every page slow */
	for (i = 0; i < 32; i++)
		assert_int_equal(p[i * 16 * PG], (char)(i * 16));
	assert_int_equal(tprt_shutdown(), 0);
	tprt_stats(&before);
	assert_int_equal(before.faults, 32);

	memset(&own, 0, sizeof(own));
	own.sa_sigaction = own_segv;
	own.sa_flags = SA_SIGINFO;
	assert_int_equal(sigaction(SIGSEGV, &own, &saved), 0);
	tprt_cfg_default(&cfg);
	cfg.fast_node = 0;
	cfg.rate_limit_mbps = UINT32_MAX;	/* 2^40 pages a second */
	assert_int_equal(tprt_init(&cfg), -ERANGE);
	tprt_stats(&after);
	/* The runtime's handler back before any assert can fail. */
	assert_int_equal(sigaction(SIGSEGV, &saved, &cur), 0);
	assert_int_equal(after.faults, 32);
	assert_memory_equal(&before, &after, sizeof(before));
	assert_true(cur.sa_flags & SA_SIGINFO);
	assert_true(cur.sa_sigaction == own_segv);
	assert_int_equal(tprt_shutdown(), -ESRCH);

	/* An init that starts clears them. */
	rt_start(TPRT_F_NO_SCANNER | TPRT_F_NO_MIGRATOR, NULL);
	tprt_stats(&after);
	assert_int_equal(after.faults, 0);
	assert_int_equal(tprt_shutdown(), 0);
	munmap(m, 512 * PG);
}

/* ---- the queue and the memory latch --------------------------------------- */

#define QN	4

struct qarg {
	struct tprt_queue *q;
	uintptr_t base;
	int pushed;
};

static void *producer(void *a)
{
	struct qarg *qa = a;
	int i;

	for (i = 0; i < 20000; i++)
		while (tprt_queue_push(qa->q, qa->base + (uintptr_t)i))
			sched_yield();
	qa->pushed = i;
	return NULL;
}

static void test_queue(void **state)
{
	static unsigned char seen[QN][20000];
	struct tprt_queue q;
	struct qarg qa[QN];
	pthread_t th[QN];
	uintptr_t out[64];
	size_t n, i, total = 0;
	int t;

	(void)state;
	assert_int_equal(tprt_queue_init(&q, 8), 0);
	assert_int_equal(tprt_queue_pop(&q, out, 64), 0);
	for (i = 0; i < 8; i++)
		assert_int_equal(tprt_queue_push(&q, 100 + i), 0);
	assert_int_equal(tprt_queue_push(&q, 999), -ENOSPC);
	n = tprt_queue_pop(&q, out, 3);
	assert_int_equal(n, 3);
	assert_int_equal(out[0], 100);
	assert_int_equal(out[2], 102);
	assert_int_equal(tprt_queue_pop(&q, out, 64), 5);
	assert_int_equal(out[4], 107);
	tprt_queue_free(&q);

	/* Many producers, one consumer: each value exactly once. */
	assert_int_equal(tprt_queue_init(&q, 256), 0);
	memset(seen, 0, sizeof(seen));
	for (t = 0; t < QN; t++) {
		qa[t].q = &q;
		qa[t].base = (uintptr_t)t << 32;
		assert_int_equal(pthread_create(&th[t], NULL, producer,
						&qa[t]), 0);
	}
	while (total < QN * 20000) {
		n = tprt_queue_pop(&q, out, 64);
		for (i = 0; i < n; i++) {
			unsigned int who = (unsigned int)(out[i] >> 32);

			assert_true(who < QN);
			assert_int_equal(seen[who][out[i] & 0xffffffff], 0);
			seen[who][out[i] & 0xffffffff] = 1;
		}
		total += n;
		if (!n)
			sched_yield();
	}
	for (t = 0; t < QN; t++)
		pthread_join(th[t], NULL);
	assert_int_equal(tprt_queue_pop(&q, out, 64), 0);
	tprt_queue_free(&q);
}

static void test_mem_latch(void **state)
{
	struct tprt_mem m;

	(void)state;
	rt_start(TPRT_F_NO_SCANNER | TPRT_F_NO_MIGRATOR, NULL);
	mem_set(5000, 100);
	tprt_mem_read(tprt_rt, &m);
	assert_int_equal(m.free, 5000);
	assert_int_equal(m.wmark_high, 200);
	assert_int_equal(m.wmark_promo, 300);
	/* Queued promotions come off the free count. */
	atomic_fetch_add(&tprt_rt->mem.pushed, 40);
	tprt_mem_read(tprt_rt, &m);
	assert_int_equal(m.free, 4960);
	atomic_fetch_add(&tprt_rt->mem.pushed, 9000);
	tprt_mem_read(tprt_rt, &m);
	assert_int_equal(m.free, 0);
	/*
	 * A snapshot taken while 1000 of them were handled: the other 8040
	 * are queued still, or moved after it; they stay off until a
	 * snapshot taken after they were handled.
	 */
	m.free = 10000;
	tprt_mem_publish(tprt_rt, &m, 1000);
	tprt_mem_read(tprt_rt, &m);
	assert_int_equal(m.free, 10000 - 8040);
	atomic_fetch_add(&tprt_rt->mem.done, 9040);
	tprt_mem_read(tprt_rt, &m);
	assert_int_equal(m.free, 10000 - 8040);
	mem_set(7000, 100);
	tprt_mem_read(tprt_rt, &m);
	assert_int_equal(m.free, 7000);
	/* The real node: some memory, ordered watermarks. */
	assert_int_equal(tprt_mem_sample(tprt_rt, &m), 0);
	assert_true(m.present > 0);
	assert_true(m.wmark_min <= m.wmark_low && m.wmark_low <= m.wmark_high &&
		    m.wmark_high <= m.wmark_promo);
	assert_int_equal(tprt_shutdown(), 0);
}

/*
 * The zoneinfo parser: the zone with the most room above its reserve (the
 * largest number of its protection list) and high watermark. Each
 * protection list once sent the parser round a loop forever.
 */
static const char zoneinfo_text[] =
	"Node 0, zone      DMA\n"
	"  per-node stats\n"
	"      nr_inactive_anon 100\n"
	"  pages free     3840\n"
	"        boost    0\n"
	"        min      17\n"
	"        low      21\n"
	"        high     25\n"
	"        spanned  4095\n"
	"        present  3998\n"
	"        managed  3840\n"
	"        cma      0\n"
	"        protection: (0, 3018, 14282, 14282, 14282)\n"
	"      nr_free_pages 3840\n"
	"Node 0, zone    DMA32\n"
	"  pages free     20000\n"
	"        min      500\n"
	"        low      600\n"
	"        high     700\n"
	"        present  782288\n"
	"        managed  772608\n"
	"        protection: (0, 0, 11264, 11264, 11264)\n"
	"Node 0, zone   Normal\n"
	"  pages free     1000\n"
	"        min      900\n"
	"        low      1000\n"
	"        high     1100\n"
	"        present  4000\n"
	"        managed  3900\n"
	"        protection: (0,0,0 ,  0,0)\n"
	"Node 1, zone   Normal\n"
	"  pages free     999999\n"
	"        min      1\n"
	"        low      2\n"
	"        high     3\n"
	"        present  5\n"
	"        managed  5\n"
	"        protection: (0, 0, 0, 0, 0)\n";

static void test_zoneinfo(void **state)
{
	struct tprt_mem m;
	FILE *f;

	(void)state;
	f = fmemopen((void *)zoneinfo_text, sizeof(zoneinfo_text) - 1, "r");
	assert_non_null(f);
	assert_int_equal(tprt_zoneinfo_parse(f, 0, 10, &m), 0);
	fclose(f);
	/* DMA32: 20000 free less 11264 reserved; DMA's 14282 leaves none. */
	assert_int_equal(m.free, 20000 - 11264);
	assert_int_equal(m.wmark_min, 500);
	assert_int_equal(m.wmark_low, 600);
	assert_int_equal(m.wmark_high, 700);
	assert_true(m.wmark_promo >= m.wmark_high);
	assert_int_equal(m.present, 3998 + 782288 + 4000);
	/* Only DMA32 is above its low watermark plus reserve; + 1. */
	assert_int_equal(m.wake, 20000 - (600 + 11264) + 1);
	/* To half way from low to min: DMA32 and Normal, 50 pages each. */
	assert_int_equal(m.slack, 50 + 50);
	/* The other node's free pages above its high watermark. */
	assert_int_equal(m.spare, 999999 - 3);

	f = fmemopen((void *)zoneinfo_text, sizeof(zoneinfo_text) - 1, "r");
	assert_non_null(f);
	assert_int_equal(tprt_zoneinfo_parse(f, 2, 10, &m), -ENOENT);
	fclose(f);
}

/*
 * A nudge's size: to the target through kswapd without reclaiming in the
 * allocation; past that floor only for refused pages, up to the cap and
 * half the other nodes' room.
 */
static void test_nudge_pages(void **state)
{
	struct tprt_mem m = {
		.free = 1000, .wmark_min = 500, .wmark_low = 600,
		.wmark_high = 700, .wake = 401, .slack = 200, .spare = 100000,
	};

	(void)state;
	/* Room enough: nothing, with or without demand. */
	assert_int_equal(tprt_nudge_pages(&m, 900, 0, 2048), 0);
	assert_int_equal(tprt_nudge_pages(&m, 900, 100, 2048), 0);
	/* To the target, at least the pages that wake kswapd. */
	assert_int_equal(tprt_nudge_pages(&m, 1200, 0, 2048), 500);
	assert_int_equal(tprt_nudge_pages(&m, 1050, 0, 2048), 401);
	/* Never past the floor without demand. */
	assert_int_equal(tprt_nudge_pages(&m, 5000, 0, 2048), 601);
	/* Demand raises the target and the floor alike... */
	assert_int_equal(tprt_nudge_pages(&m, 1200, 300, 2048), 800);
	assert_int_equal(tprt_nudge_pages(&m, 5000, 300, 2048), 901);
	/* ...by the cap at most... */
	assert_int_equal(tprt_nudge_pages(&m, 1200, 99999, 2048), 2548);
	/* ...and by half the room the demotions have on the other nodes. */
	m.spare = 1000;
	assert_int_equal(tprt_nudge_pages(&m, 1200, 99999, 2048), 1000);
	m.spare = 0;
	assert_int_equal(tprt_nudge_pages(&m, 1200, 99999, 2048), 500);
	assert_int_equal(tprt_nudge_pages(&m, 5000, 99999, 2048), 601);
	/* Below the floor already: one page wakes kswapd. */
	m = (struct tprt_mem){ .free = 520, .wmark_high = 700, .wake = 1 };
	assert_int_equal(tprt_nudge_pages(&m, 1200, 0, 2048), 1);
	assert_int_equal(tprt_nudge_pages(&m, 600, 0, 2048), 1);
	assert_int_equal(tprt_nudge_pages(&m, 520, 0, 2048), 0);
}

/*
 * The cap on the refused pages a nudge makes room for: room_batches
 * batches, at most a thirty-second of the node; 0 makes room for the
 * target alone.
 */
static void test_room_cap(void **state)
{
	struct tprt_mem m = { .present = 1U << 20 };
	struct tprt_cfg c;

	(void)state;
	tprt_cfg_default(&c);
	assert_int_equal(c.room_batches, 0);
	assert_int_equal(tprt_room_cap(&c, &m), 0);
	c.room_batches = 8;
	assert_int_equal(tprt_room_cap(&c, &m), 8 * 256);
	c.batch = 64;
	c.room_batches = 64;
	assert_int_equal(tprt_room_cap(&c, &m), 64 * 64);
	m.present = 32 * 1000;
	assert_int_equal(tprt_room_cap(&c, &m), 1000);
	c.room_batches = 0;
	assert_int_equal(tprt_room_cap(&c, &m), 0);
	/* With no room for refused pages, a nudge aims at the target only. */
	m = (struct tprt_mem){ .free = 1000, .wmark_min = 500, .wmark_low = 600,
			       .wmark_high = 700, .wake = 401, .slack = 200,
			       .spare = 100000, .present = 1U << 20 };
	assert_int_equal(tprt_nudge_pages(&m, 1200, 99999,
					  tprt_room_cap(&c, &m)), 500);
}

/* The pagemap node query: present pages, protected ones too. */
static void test_page_nodes(void **state)
{
	char *m = map_touched(8);
	int nodes[16], i;

	(void)state;
	munmap(m + 6 * PG, 2 * PG);
	m = mmap(m + 6 * PG, 2 * PG, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) - 6 * PG;
	mprotect(m + 2 * PG, PG, PROT_NONE);
	if (tprt_page_nodes(0, m, 8, nodes) == -EPERM) {
		skip();		/* no CAP_SYS_ADMIN: no frame numbers */
		return;
	}
	for (i = 0; i < 6; i++)
		assert_true(nodes[i] >= 0);
	assert_int_equal(nodes[6], -ENOENT);	/* never touched */
	assert_int_equal(nodes[7], -ENOENT);
	/* Another process's view of the same pages (our own pid). */
	memset(nodes, 0x55, sizeof(nodes));
	assert_int_equal(tprt_page_nodes(getpid(), m + PG, 2, nodes), 0);
	assert_true(nodes[0] >= 0 && nodes[1] >= 0);
	assert_int_equal(nodes[2], 0x55555555);
	assert_true(tprt_page_nodes(999999999, m, 1, nodes) < 0);
	munmap(m, 8 * PG);
}

/* The first promotion of each new sweep doubles the period, up to max. */
static void small_max(struct tprt_cfg *c)
{
	c->scan_period_max_ms = 3000;
}

static void test_scan_period(void **state)
{
	uint64_t now = tprt_now_ns();

	(void)state;
	rt_start(TPRT_F_NO_SCANNER | TPRT_F_NO_MIGRATOR, small_max);
	assert_int_equal(tprt_rt->period_ms, 1000);
	tprt_scan_placement(tprt_rt, now);	/* same sweep: nothing */
	assert_int_equal(tprt_rt->period_ms, 1000);
	atomic_store(&tprt_rt->seq, 1);
	tprt_scan_placement(tprt_rt, now);
	assert_int_equal(tprt_rt->period_ms, 2000);
	assert_true(tprt_rt->next_scan == now + 2000 * TPRT_NS_PER_MS);
	/* Retry interval: min(1 s, period / 16) = 125 ms. */
	atomic_store(&tprt_rt->seq, 2);
	tprt_scan_placement(tprt_rt, now + 100 * TPRT_NS_PER_MS);
	assert_int_equal(tprt_rt->period_ms, 2000);
	tprt_scan_placement(tprt_rt, now + 126 * TPRT_NS_PER_MS);
	assert_int_equal(tprt_rt->period_ms, 3000);	/* capped */
	atomic_store(&tprt_rt->seq, 3);
	tprt_scan_placement(tprt_rt, now + 2 * TPRT_NS_PER_SEC);
	assert_int_equal(tprt_rt->period_ms, 3000);
	assert_int_equal(tprt_shutdown(), 0);
}

/*
 * TPRT_F_SWEEP_FILL: while the fast node fills (more than 65,536 pages free
 * above the promotion watermark, 3,000), a new sweep's promotion leaves the
 * period as it is; at the margin it doubles it again.
 */
static void test_scan_period_fill(void **state)
{
	uint64_t now = tprt_now_ns();

	(void)state;
	rt_start(TPRT_F_NO_SCANNER | TPRT_F_NO_MIGRATOR | TPRT_F_SWEEP_FILL,
		 small_max);
	mem_set(3000 + 65536 + 1, 1000);
	atomic_store(&tprt_rt->seq, 1);
	tprt_scan_placement(tprt_rt, now);
	assert_int_equal(tprt_rt->period_ms, 1000);
	mem_set(3000 + 65536, 1000);
	tprt_scan_placement(tprt_rt, now);
	assert_int_equal(tprt_rt->period_ms, 2000);
	assert_int_equal(tprt_shutdown(), 0);
}

/* ---- the handler ---------------------------------------------------------- */

static void thresh5(struct tprt_cfg *c)
{
	c->hot_threshold_ms = 5;
}

static void test_handler(void **state)
{
	struct tprt_stats s;
	uintptr_t out[16];
	volatile char *p;
	char *m;
	int r;

	(void)state;
	rt_start(TPRT_F_NO_SCANNER | TPRT_F_NO_MIGRATOR, thresh5);
	atomic_store(&fake_ns, 1000 * TPRT_NS_PER_SEC);	/* time stands */
	m = map_touched(2048);		/* 4 chunks of 512 pages */
	p = m;
	assert_int_equal(tprt_register(m, 2048 * PG, TPRT_SRC_MPROTECT), 0);
	/* Block 1 (pages 16..31) on the fast node except its first page. */
	fast_lo = (uintptr_t)m + 17 * PG;
	fast_hi = (uintptr_t)m + 32 * PG;
	r = tprt_scan_now();
	assert_int_equal(r, 2048 / 16);
	tprt_stats(&s);
	assert_int_equal(s.passes, 1);
	assert_int_equal(s.seq, 1);		/* one pass swept it all */
	assert_int_equal(s.scan_pages, 2048);
	assert_int_equal(s.vma_est, 4);
	assert_int_equal(count_vmas(m, 2048 * PG), 1);

	/*
	 * Plenty of room: the free-space bypass. A read. The block is the
	 * unit of protection: the faulting page is decided, then the
	 * block's 15 other slow pages together; all are queued.
	 */
	mem_set(1ULL << 30, 1000);
	assert_int_equal(p[3 * PG], 3);
	tprt_stats(&s);
	assert_int_equal(s.faults, 1);
	assert_int_equal(s.faults_write, 0);
	assert_int_equal(s.restore_block, 1);
	assert_int_equal(verdicts(&s, TPRT_V_PROMOTE_NRL), 2);
	assert_int_equal(s.verdict_others[TPRT_V_PROMOTE_NRL], 1);
	assert_int_equal(s.tp_decided, 16);
	assert_int_equal(s.queued, 16);
	assert_int_equal(tprt_queue_pop(&tprt_rt->q, out, 32), 16);
	assert_true(out[0] == (uintptr_t)m + 3 * PG);
	assert_true(out[1] == (uintptr_t)m);
	assert_true(out[15] == (uintptr_t)m + 15 * PG);
	/* The rest of the block is open now: no fault. */
	p[5 * PG] = 1;
	tprt_stats(&s);
	assert_int_equal(s.faults, 1);
	assert_int_equal(count_vmas(m, 2048 * PG), 2);

	/* No bypass, fault soon after the scan: hot, promoted. A write. */
	mem_set(100000, 1000);
	p[40 * PG] = 9;
	tprt_stats(&s);
	assert_int_equal(s.faults_write, 1);
	assert_int_equal(verdicts(&s, TPRT_V_PROMOTE), 2);
	assert_int_equal(tprt_queue_pop(&tprt_rt->q, out, 32), 16);
	assert_true(out[0] == (uintptr_t)m + 40 * PG);
	/*
	 * Block 1 has one slow page, and the fault is on a fast one: the
	 * slow page alone is decided (the rest of its block) and queued.
	 */
	assert_int_equal(p[20 * PG], 20);
	tprt_stats(&s);
	assert_int_equal(verdicts(&s, TPRT_V_PROMOTE), 3);
	/* The slow page was one of the block's others. */
	assert_int_equal(s.verdict_others[TPRT_V_PROMOTE], 2);
	assert_int_equal(verdicts(&s, TPRT_V_REFUSE_TOPTIER), 0);
	assert_int_equal(tprt_queue_pop(&tprt_rt->q, out, 32), 1);
	assert_true(out[0] == (uintptr_t)m + 16 * PG);
	/* A protected block with no slow page (moved since): top tier. */
	atomic_fetch_and(&tprt_rt->region[0].slow[0], 0xffffffffffffULL);
	assert_int_equal(p[50 * PG], 50);
	tprt_stats(&s);
	assert_int_equal(verdicts(&s, TPRT_V_REFUSE_TOPTIER), 1);
	assert_int_equal(tprt_queue_pop(&tprt_rt->q, out, 32), 0);
	/* 30 ms after the scan, over the 5 ms threshold: cold, both. */
	atomic_fetch_add(&fake_ns, 30 * TPRT_NS_PER_MS);
	assert_int_equal(p[600 * PG], (char)600);
	tprt_stats(&s);
	assert_int_equal(verdicts(&s, TPRT_V_REFUSE_COLD), 2);
	assert_int_equal(s.verdict_others[TPRT_V_REFUSE_COLD], 1);
	/*
	 * A fresh pass protects the blocks restored since (their stamps are
	 * now) and leaves the others protected with their stamps: block 62,
	 * protected 30 ms ago, is cold.
	 */
	tprt_scan_now();
	assert_int_equal(p[1000 * PG], (char)1000);
	tprt_stats(&s);
	assert_int_equal(verdicts(&s, TPRT_V_REFUSE_COLD), 4);
	/* A fault with no room on block 0, just protected: kswapd wanted. */
	mem_set(2000, 1000);		/* free below high + 16 */
	assert_int_equal(atomic_load(&tprt_rt->want_demote), 0);
	assert_int_equal(p[2 * PG], 2);
	tprt_stats(&s);
	assert_int_equal(verdicts(&s, TPRT_V_REFUSE_NOSPACE), 2);
	/* The room wanted: the page and the block's 15 other slow pages. */
	assert_int_equal(atomic_load(&tprt_rt->want_demote), 16);
	/* Just protected, far inside the threshold: all 16 deferred. */
	assert_int_equal(s.deferred, 16);
	assert_int_equal(s.queued, 33);
	assert_int_equal(s.faults, 7);
	assert_int_equal(s.chained, 0);
	assert_int_equal(s.faults_stale, 0);
	/*
	 * tierpol's own figures, in pages: 16 + 16 + 1 promoted, the top-tier
	 * block counts as one page, then 16 + 16 cold and 16 without room.
	 */
	assert_int_equal(s.tp_decided, 16 + 16 + 1 + 1 + 32 + 16);
	assert_int_equal(s.tp_promoted, 33);
	assert_int_equal(s.tp_candidate, 16 + 1 + 16);
	assert_int_equal(s.tp_threshold_ms, 5);

	/* A fault on a block the runtime thinks open: restored, no verdict. */
	atomic_fetch_and(&tprt_rt->region[0].blk[100], 0);
	mprotect(m + 1600 * PG, 16 * PG, PROT_NONE);
	assert_int_equal(p[1601 * PG], (char)1601);
	tprt_stats(&s);
	assert_int_equal(s.faults_stale, 1);
	assert_int_equal(s.faults, 7);

	/* The migrator's batch: pages already on the node they go to. */
	mem_set(1ULL << 30, 1000);
	tprt_scan_now();
	assert_int_equal(p[1500 * PG], (char)1500);
	assert_int_equal(p[1800 * PG], (char)1800);
	assert_int_equal(tprt_migrate_batch(tprt_rt), 32);
	tprt_stats(&s);
	assert_int_equal(s.moved, 32);
	assert_int_equal(s.move_calls, 1);

	assert_int_equal(tprt_unregister(m), 0);
	assert_int_equal(count_vmas(m, 2048 * PG), 1);
	tprt_stats(&s);
	assert_int_equal(s.vma_est, 0);
	assert_int_equal(tprt_shutdown(), 0);
	atomic_store(&fake_ns, 0);
	munmap(m, 2048 * PG);
}

/*
 * A shutdown while the migrator protects blocks again (TPRT_F_RECHECK):
 * the scanner's buffers, which the re-measure writes too, outlive the
 * migrator. They were freed with the scanner, before it: a NULL write in
 * tprt_protect_again() (a crash in 3 of 3 runs of a program that did this).
 */
static void test_shutdown_while_rechecking(void **state)
{
	const size_t pages = 16384, bp = 16;
	struct tprt_region *r;
	int round;
	size_t b;
	char *m;

	(void)state;
	for (round = 0; round < 10; round++) {
		rt_start(TPRT_F_NO_SCANNER | TPRT_F_RECHECK, NULL);
		m = map_touched(pages);
		assert_int_equal(tprt_register(m, pages * PG,
					       TPRT_SRC_MPROTECT), 0);
		/* Every page slow; the pass protects every block. */
		assert_int_equal(tprt_scan_now(), (int)(pages / bp));
		/*
		 * As if a fault had restored each block and queued it for
		 * the migrator to protect again (as recheck() does).
		 */
		r = tprt_region_of(tprt_rt, (uintptr_t)m, false);
		assert_non_null(r);
		assert_int_equal(mprotect(m, pages * PG,
					  PROT_READ | PROT_WRITE), 0);
		for (b = 0; b < pages / bp; b++) {
			atomic_fetch_and(&r->blk[b], (uint8_t)~TPRT_BLK_PROT);
			assert_int_equal(tprt_queue_push(&tprt_rt->rq,
						(uintptr_t)m + b * bp * PG), 0);
		}
		tprt_migrate_kick(tprt_rt, tprt_rt->cfg.batch);
		if (round & 1)
			sleep_ms(1);
		assert_int_equal(tprt_shutdown(), 0);
		munmap(m, pages * PG);
	}
}

/*
 * A forked child: tprt_page_nodes(0, ...) reads the child's pages (it read
 * the parent's pagemap, opened once per process), and tprt_stats() takes
 * no lock a parent's thread may have held at fork() (it took the scan
 * lock: the child hung).
 */
static void test_forked_child(void **state)
{
	int nodes[1], st;
	char *m = map_touched(1);
	pid_t pid;

	(void)state;
	if (tprt_page_nodes(0, m, 1, nodes) == -EPERM) {
		skip();		/* no CAP_SYS_ADMIN: no frame numbers */
		return;
	}
	rt_start(TPRT_F_NO_SCANNER | TPRT_F_NO_MIGRATOR, NULL);
	pthread_mutex_lock(&tprt_rt->scan_lock);	/* as the scanner may */
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		struct tprt_stats s;
		char *c;

		signal(SIGALRM, SIG_DFL);	/* not the watchdog's */
		alarm(10);
		tprt_stats(&s);
		c = mmap(NULL, PG, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (c == MAP_FAILED)
			_exit(2);
		c[0] = 1;	/* present in the child only */
		_exit(tprt_page_nodes(0, c, 1, nodes) || nodes[0] < 0 ? 3 : 0);
	}
	pthread_mutex_unlock(&tprt_rt->scan_lock);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	assert_int_equal(tprt_shutdown(), 0);
	munmap(m, PG);
}

static void mem5s(struct tprt_cfg *c)
{
	c->mem_interval_ms = 5000;
}

/*
 * A mem_interval_ms of a second or more: the migrator sleeps. Its futex
 * wait took the whole interval in tv_nsec, which the kernel refuses with
 * EINVAL at once: it spun at a full CPU (2.65 s of CPU in 3 s).
 */
static void test_long_mem_interval(void **state)
{
	struct timespec cpu;
	clockid_t cid;

	(void)state;
	rt_start(TPRT_F_NO_SCANNER, mem5s);
	sleep_ms(300);
	assert_int_equal(pthread_getcpuclockid(tprt_rt->migrator, &cid), 0);
	assert_int_equal(clock_gettime(cid, &cpu), 0);
	/* Asleep: a few ms of CPU at most; spinning, about 300. */
	assert_true(cpu.tv_sec == 0 && cpu.tv_nsec < 100 * 1000000L);
	assert_int_equal(tprt_shutdown(), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		rt_test(test_bad_input),
		rt_test(test_rejected_init),
		rt_test(test_queue),
		rt_test(test_mem_latch),
		rt_test(test_zoneinfo),
		rt_test(test_nudge_pages),
		rt_test(test_room_cap),
		rt_test(test_page_nodes),
		rt_test(test_scan_period),
		rt_test(test_scan_period_fill),
		rt_test(test_handler),
		rt_test(test_shutdown_while_rechecking),
		rt_test(test_forked_child),
		rt_test(test_long_mem_interval),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
