// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * CMocka tests of the tierpol runtime (examples/runtime/). They need one
 * NUMA node only: a test seam replaces the scanner's node query and says
 * which pages are on a slow node, so the real protection, the real
 * handler, tierpol's real decision and move_pages(2) (to the node the
 * pages are on already) all run on any Linux machine.
 *
 *   bad input, the queue, the memory latch, the scan period rule;
 *   the handler: restore, verdicts (bypass, hot, cold, no room, top tier),
 *   the queue it feeds, stale faults;
 *   the VMA bound under adversarial fault orders (a small cap, and a cap
 *   from vm.max_map_count with one-page blocks);
 *   signal chaining (a previous SA_SIGINFO handler, SIGBUS, the default
 *   action in a child process);
 *   the system-call path: EFAULT without a pin, read(2)/write(2) with one,
 *   for both sources;
 *   shutdown while threads fault.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "tprt_impl.h"

#define PG		4096UL

/* ---- helpers ------------------------------------------------------------ */

/* Pages in [fast_lo, fast_hi) are on node 0, other present pages node 1. */
static uintptr_t fast_lo, fast_hi;

static int fake_query(void *const *pages, int *status, size_t n)
{
	size_t i;

	if (syscall(SYS_move_pages, 0, n, pages, NULL, status, 0) < 0)
		return -errno;
	for (i = 0; i < n; i++) {
		uintptr_t a = (uintptr_t)pages[i];

		if (status[i] >= 0)
			status[i] = a >= fast_lo && a < fast_hi ? 0 : 1;
	}
	return 0;
}

/* A clock the tests move by hand (test_handler), 0: the real one. */
static _Atomic uint64_t fake_ns;

static uint64_t fake_now(void)
{
	uint64_t t = atomic_load(&fake_ns);
	struct timespec ts;

	if (t)
		return t;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static const struct tprt_hooks hooks = {
	.node_query = fake_query,
	.now = fake_now,
};

/* Start a runtime for a test: no threads unless asked, fake topology. */
static void rt_start(uint32_t flags, void (*tweak)(struct tprt_cfg *))
{
	struct tprt_cfg cfg;

	tprt_cfg_default(&cfg);
	cfg.fast_node = 0;
	cfg.flags = flags | TPRT_F_NO_NUDGE;
	if (tweak)
		tweak(&cfg);
	/* A failed test may have left one running. */
	if (tprt_rt && atomic_load(&tprt_rt->running))
		tprt_shutdown();
	fast_lo = fast_hi = 0;
	tprt_set_hooks(&hooks);
	assert_int_equal(tprt_init(&cfg), 0);
}

static char *map_touched(size_t pages)
{
	char *p = mmap(NULL, pages * PG, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	size_t i;

	assert_true(p != MAP_FAILED);
	madvise(p, pages * PG, MADV_NOHUGEPAGE);
	for (i = 0; i < pages; i++)
		p[i * PG] = (char)i;
	return p;
}

/* Mappings that overlap [a, a + len), from /proc/self/maps. */
static int count_vmas(const void *a, size_t len)
{
	uintptr_t s = (uintptr_t)a, e = s + len;
	unsigned long lo, hi;
	char line[512];
	FILE *f = fopen("/proc/self/maps", "r");
	int n = 0;

	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx-%lx", &lo, &hi) == 2 && lo < e && hi > s)
			n++;
	fclose(f);
	return n;
}

static void mem_set(uint64_t free, uint64_t low)
{
	struct tprt_mem m = {
		.free = free, .wmark_min = low / 2, .wmark_low = low,
		.wmark_high = low * 2, .wmark_promo = low * 3,
		.present = 1ULL << 20,
	};

	tprt_mem_publish(tprt_rt, &m);
}

static uint64_t verdicts(const struct tprt_stats *s, unsigned int v)
{
	return s->verdict[v];
}

static void sleep_ms(long ms)
{
	struct timespec t = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&t, NULL);
}

/* ---- bad input ------------------------------------------------------------ */

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
	cfg.flags = 0x80;
	assert_int_equal(tprt_init(&cfg), -EINVAL);
	tprt_cfg_default(&cfg);
	cfg.queue_pages = 1000;
	assert_int_equal(tprt_init(&cfg), -EINVAL);
	tprt_cfg_default(&cfg);
	cfg.scan_period_max_ms = 10;	/* below the minimum */
	assert_int_equal(tprt_init(&cfg), -EINVAL);

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
			    "refuse_cold");
	assert_string_equal(tprt_verdict_name(99), "?");
	assert_string_equal(tprt_move_fail_name(TPRT_MF_EBUSY), "ebusy");
	assert_string_equal(tprt_move_fail_name(99), "?");
	assert_int_equal(tprt_shutdown(), 0);
	assert_int_equal(tprt_shutdown(), -ESRCH);
	assert_int_equal(tprt_register(p, PG, 0), -ESRCH);
	munmap(p, 64 * PG);
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
	/* Queued promotions come off the free count until the next one. */
	atomic_store(&tprt_rt->mem.pending, 40);
	tprt_mem_read(tprt_rt, &m);
	assert_int_equal(m.free, 4960);
	atomic_store(&tprt_rt->mem.pending, 9000);
	tprt_mem_read(tprt_rt, &m);
	assert_int_equal(m.free, 0);
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
	 * unit: its 16 slow pages are decided and queued together.
	 */
	mem_set(1ULL << 30, 1000);
	assert_int_equal(p[3 * PG], 3);
	tprt_stats(&s);
	assert_int_equal(s.faults, 1);
	assert_int_equal(s.faults_write, 0);
	assert_int_equal(s.restore_block, 1);
	assert_int_equal(verdicts(&s, TPRT_V_PROMOTE_NRL), 1);
	assert_int_equal(s.queued, 16);
	assert_int_equal(tprt_queue_pop(&tprt_rt->q, out, 32), 16);
	assert_true(out[0] == (uintptr_t)m);
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
	assert_int_equal(verdicts(&s, TPRT_V_PROMOTE), 1);
	assert_int_equal(tprt_queue_pop(&tprt_rt->q, out, 32), 16);
	assert_true(out[0] == (uintptr_t)m + 32 * PG);
	/* Block 1 has one slow page: it alone is decided and queued. */
	assert_int_equal(p[20 * PG], 20);
	tprt_stats(&s);
	assert_int_equal(verdicts(&s, TPRT_V_PROMOTE), 2);
	assert_int_equal(tprt_queue_pop(&tprt_rt->q, out, 32), 1);
	assert_true(out[0] == (uintptr_t)m + 16 * PG);
	/* A protected block with no slow page (moved since): top tier. */
	atomic_fetch_and(&tprt_rt->region[0].slow[0], 0xffffffffffffULL);
	assert_int_equal(p[50 * PG], 50);
	tprt_stats(&s);
	assert_int_equal(verdicts(&s, TPRT_V_REFUSE_TOPTIER), 1);
	assert_int_equal(tprt_queue_pop(&tprt_rt->q, out, 32), 0);
	/* 30 ms after the scan, over the 5 ms threshold: cold. */
	atomic_fetch_add(&fake_ns, 30 * TPRT_NS_PER_MS);
	assert_int_equal(p[600 * PG], (char)600);
	tprt_stats(&s);
	assert_int_equal(verdicts(&s, TPRT_V_REFUSE_COLD), 1);
	/* A fresh pass, then a fault with no room: refused, kswapd wanted. */
	tprt_scan_now();
	mem_set(2000, 1000);		/* free below high + 16 */
	assert_int_equal(atomic_load(&tprt_rt->want_demote), 0);
	assert_int_equal(p[1000 * PG], (char)1000);
	tprt_stats(&s);
	assert_int_equal(verdicts(&s, TPRT_V_REFUSE_NOSPACE), 1);
	assert_int_equal(atomic_load(&tprt_rt->want_demote), 1);
	assert_int_equal(s.queued, 33);
	assert_int_equal(s.faults, 6);
	assert_int_equal(s.chained, 0);
	assert_int_equal(s.faults_stale, 0);

	/* A fault on a block the runtime thinks open: restored, no verdict. */
	atomic_fetch_and(&tprt_rt->region[0].blk[100], 0);
	mprotect(m + 1600 * PG, 16 * PG, PROT_NONE);
	assert_int_equal(p[1601 * PG], (char)1601);
	tprt_stats(&s);
	assert_int_equal(s.faults_stale, 1);
	assert_int_equal(s.faults, 6);

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

/* ---- the VMA bound ---------------------------------------------------------- */

static void cap16(struct tprt_cfg *c)
{
	c->vma_cap = 16;
}

/* Fault every other block, in an order that splits the most. */
static void test_vma_bound_small_cap(void **state)
{
	const size_t pages = 4096;	/* 8 chunks of 32 blocks */
	struct tprt_stats s;
	volatile char *p;
	char *m;
	size_t i, k, order[128];
	int max_seen = 0;

	(void)state;
	rt_start(TPRT_F_NO_SCANNER | TPRT_F_NO_MIGRATOR, cap16);
	mem_set(1ULL << 30, 1000);
	m = map_touched(pages);
	p = m;
	assert_int_equal(tprt_register(m, pages * PG, TPRT_SRC_MPROTECT), 0);
	tprt_scan_now();
	/* Even blocks of every chunk, chunks interleaved, in a shuffle. */
	for (i = 0; i < 128; i++)
		order[i] = (i % 8) * 32 + (i / 8) * 2;
	srand(17);
	for (i = 127; i > 0; i--) {
		size_t j = (size_t)rand() % (i + 1), t = order[i];

		order[i] = order[j];
		order[j] = t;
	}
	for (k = 0; k < 128; k++) {
		int n;

		assert_int_equal(p[order[k] * 16 * PG + 7 * PG],
				 (char)(order[k] * 16 + 7));
		n = count_vmas(m, pages * PG);
		if (n > max_seen)
			max_seen = n;
		tprt_stats(&s);
		assert_true(s.vma_est <= 16);
		assert_true((uint64_t)n <= s.vma_est + 1);
	}
	tprt_stats(&s);
	assert_true(s.restore_chunk > 0);
	assert_int_equal(s.restore_fail, 0);
	assert_int_equal(s.restore_region, 0);
	assert_int_equal(s.chained, 0);
	assert_true(max_seen <= 17);
	/* Every page is still there and accessible. */
	for (i = 0; i < pages; i++)
		assert_int_equal(p[i * PG], (char)i);
	assert_int_equal(tprt_shutdown(), 0);
	munmap(m, pages * PG);
}

static void one_page_blocks(struct tprt_cfg *c)
{
	c->block_pages = 1;
	c->chunk_pages = 4096;
}

/*
 * One-page blocks over 72 Ki pages: every other page restored would need
 * 72 Ki VMAs, more than vm.max_map_count allows. The cap from the sysctl
 * turns that into chunk restores, and mprotect never fails.
 */
static void test_vma_bound_max_map_count(void **state)
{
	const size_t pages = 72 * 1024;
	struct tprt_stats s;
	volatile char *p;
	char *m;
	size_t i, c;
	long max = 65530;
	FILE *f = fopen("/proc/sys/vm/max_map_count", "r");

	(void)state;
	if (f) {
		if (fscanf(f, "%ld", &max) != 1)
			max = 65530;
		fclose(f);
	}
	rt_start(TPRT_F_NO_SCANNER | TPRT_F_NO_MIGRATOR, one_page_blocks);
	mem_set(1ULL << 30, 1000);
	m = map_touched(pages);
	p = m;
	assert_int_equal(tprt_register(m, pages * PG, TPRT_SRC_MPROTECT), 0);
	tprt_scan_now();
	tprt_scan_now();	/* scan_size 256 MiB: two passes for 288 */
	/* Odd pages, chunk by chunk from both ends. */
	for (c = 0; c < 18; c++) {
		size_t ch = c % 2 ? 17 - c / 2 : c / 2;

		for (i = 1; i < 4096; i += 2)
			assert_int_equal(p[(ch * 4096 + i) * PG],
					 (char)(ch * 4096 + i));
	}
	tprt_stats(&s);
	assert_true(s.vma_est <= s.vma_cap);
	assert_true(s.vma_cap < (uint64_t)max);
	assert_true(s.restore_chunk > 0);
	assert_int_equal(s.restore_fail, 0);
	assert_int_equal(s.chained, 0);
	assert_true(count_vmas(m, pages * PG) <= (int)s.vma_est + 1);
	assert_int_equal(tprt_shutdown(), 0);
	munmap(m, pages * PG);
}

/* ---- signal chaining ---------------------------------------------------- */

static sigjmp_buf jb;
static volatile sig_atomic_t prev_calls;
static void *volatile prev_addr;
static volatile int prev_sig;

static void prev_handler(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	prev_calls++;
	prev_addr = si->si_addr;
	prev_sig = sig;
	siglongjmp(jb, 1);
}

static void test_chaining(void **state)
{
	struct sigaction sa, old_segv, old_bus;
	struct tprt_stats s;
	volatile char *guard, *tail;
	char path[] = "/tmp/tprt-test-XXXXXX";
	char *m;
	int fd;

	(void)state;
	/* A handler installed before the runtime (a JIT, a sanitizer). */
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = prev_handler;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGSEGV, &sa, &old_segv);
	sigaction(SIGBUS, &sa, &old_bus);
	rt_start(TPRT_F_NO_SCANNER | TPRT_F_NO_MIGRATOR, NULL);
	mem_set(1ULL << 30, 1000);
	m = map_touched(512);
	assert_int_equal(tprt_register(m, 512 * PG, TPRT_SRC_MPROTECT), 0);
	tprt_scan_now();

	/* A PROT_NONE page of the program's own: not ours. */
	guard = mmap(NULL, PG, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	prev_calls = 0;
	if (!sigsetjmp(jb, 1))
		(void)guard[10];
	assert_int_equal(prev_calls, 1);
	assert_ptr_equal(prev_addr, (void *)(guard + 10));
	assert_int_equal(prev_sig, SIGSEGV);
	/* An unmapped address (SEGV_MAPERR): not ours. */
	munmap((void *)guard, PG);
	if (!sigsetjmp(jb, 1))
		(void)guard[20];
	assert_int_equal(prev_calls, 2);
	assert_ptr_equal(prev_addr, (void *)(guard + 20));
	/* SIGBUS past the end of a file: not ours either. */
	fd = mkstemp(path);
	assert_true(fd >= 0);
	unlink(path);
	assert_int_equal(ftruncate(fd, PG), 0);
	tail = mmap(NULL, 2 * PG, PROT_READ, MAP_SHARED, fd, 0);
	assert_true(tail != MAP_FAILED);
	if (!sigsetjmp(jb, 1))
		(void)tail[PG + 5];
	assert_int_equal(prev_calls, 3);
	assert_int_equal(prev_sig, SIGBUS);
	munmap((void *)tail, 2 * PG);
	close(fd);
	/* And a registered page: ours, the previous handler never sees it. */
	assert_int_equal(((volatile char *)m)[100 * PG], 100);
	assert_int_equal(prev_calls, 3);
	tprt_stats(&s);
	assert_int_equal(s.chained, 3);
	assert_int_equal(s.faults, 1);

	/* After shutdown the handler passes everything on. */
	assert_int_equal(tprt_shutdown(), 0);
	guard = mmap(NULL, PG, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!sigsetjmp(jb, 1))
		(void)guard[1];
	assert_int_equal(prev_calls, 4);
	munmap((void *)guard, PG);
	munmap(m, 512 * PG);
	sigaction(SIGSEGV, &old_segv, NULL);
	sigaction(SIGBUS, &old_bus, NULL);
}

static const char *self_path;

/* The child of test_default_action: no handler before the runtime. */
static int child_segv(void)
{
	volatile char *guard;

	signal(SIGSEGV, SIG_DFL);
	if (tprt_init(NULL))
		return 3;
	guard = mmap(NULL, PG, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	(void)guard[0];
	return 4;	/* not reached: the default action kills */
}

static void test_default_action(void **state)
{
	pid_t pid;
	int st;

	(void)state;
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		execl(self_path, self_path, "--child-segv", (char *)NULL);
		_exit(5);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFSIGNALED(st));
	assert_int_equal(WTERMSIG(st), SIGSEGV);
}

/* ---- the system-call path (EFAULT hazard) ------------------------------ */

static void syscall_path(unsigned int source)
{
	char *m, buf[PG];
	int fds[2];
	ssize_t n;

	rt_start(TPRT_F_NO_SCANNER | TPRT_F_NO_MIGRATOR, NULL);
	mem_set(1ULL << 30, 1000);
	m = map_touched(512);
	memset(m + 8 * PG, 'a', PG);
	assert_int_equal(tprt_register(m, 512 * PG, source), 0);
	assert_int_equal(pipe(fds), 0);
	tprt_scan_now();

	/* The hazard: the kernel's own access to a protected page fails. */
	if (source == TPRT_SRC_MPROTECT) {
		errno = 0;
		assert_int_equal(write(fds[1], m + 8 * PG, PG), -1);
		assert_int_equal(errno, EFAULT);
	}
	memset(buf, 'b', PG);
	assert_int_equal(write(fds[1], buf, PG), PG);
	errno = 0;
	assert_int_equal(read(fds[0], m + 40 * PG, PG), -1);
	assert_int_equal(errno, EFAULT);

	/* Pinned: both directions work, and a scan leaves the pages open. */
	assert_int_equal(tprt_pin(m + 8 * PG, PG), 0);
	assert_int_equal(tprt_pin(m + 40 * PG + 100, 10), 0);
	tprt_scan_now();
	assert_int_equal(write(fds[1], m + 8 * PG, PG), PG);
	n = read(fds[0], m + 40 * PG, PG);	/* the 'b' page */
	assert_int_equal(n, PG);
	assert_int_equal(m[40 * PG + PG - 1], 'b');
	n = read(fds[0], buf, PG);		/* the 'a' page */
	assert_int_equal(n, PG);
	assert_int_equal(buf[PG - 1], 'a');
	assert_int_equal(tprt_unpin(m + 8 * PG, PG), 0);
	assert_int_equal(tprt_unpin(m + 40 * PG + 100, 10), 0);

	/* Unpinned and scanned again: protected again. */
	tprt_scan_now();
	assert_int_equal(write(fds[1], buf, PG), PG);
	errno = 0;
	assert_int_equal(read(fds[0], m + 40 * PG, PG), -1);
	assert_int_equal(errno, EFAULT);
	close(fds[0]);
	close(fds[1]);
	assert_int_equal(tprt_shutdown(), 0);
	munmap(m, 512 * PG);
}

static void test_syscall_mprotect(void **state)
{
	(void)state;
	syscall_path(TPRT_SRC_MPROTECT);
}

/* userfaultfd-wp: write faults only; a read(2) into a page is a write. */
static void test_syscall_uffd(void **state)
{
	struct tprt_stats s;
	volatile char *p;
	char *m;

	(void)state;
	syscall_path(TPRT_SRC_UFFD_WP);

	/* And the source itself: writes fault, reads do not. */
	rt_start(TPRT_F_NO_SCANNER | TPRT_F_NO_MIGRATOR, NULL);
	mem_set(1ULL << 30, 1000);
	m = map_touched(512);
	p = m;
	assert_int_equal(tprt_register(m, 512 * PG, TPRT_SRC_UFFD_WP), 0);
	tprt_scan_now();
	assert_int_equal(p[30 * PG], 30);
	tprt_stats(&s);
	assert_int_equal(s.faults, 0);
	p[31 * PG] = 7;
	tprt_stats(&s);
	assert_int_equal(s.faults, 1);
	assert_int_equal(s.faults_write, 1);
	assert_int_equal(verdicts(&s, TPRT_V_PROMOTE_NRL), 1);
	assert_int_equal(s.vma_est, 0);
	assert_int_equal(count_vmas(m, 512 * PG), 1);
	assert_int_equal(tprt_shutdown(), 0);
	munmap(m, 512 * PG);
}

/* ---- shutdown with faults in flight -------------------------------------- */

#define NT	4
#define SLICE	1024	/* pages per thread */

static char *sh_mem;
static _Atomic int sh_stop;

static void *hammer(void *arg)
{
	uintptr_t t = (uintptr_t)arg;
	volatile uint64_t *base = (volatile uint64_t *)(sh_mem + t * SLICE * PG);
	uint64_t x = 88172645463325252ULL + t, round = 1;
	size_t i;

	while (!atomic_load(&sh_stop)) {
		for (i = 0; i < 4096; i++) {
			size_t pg;

			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			pg = (size_t)(x % SLICE);
			/* Each page holds its index in the first word. */
			if (base[pg * (PG / 8)] != pg + t * SLICE)
				return (void *)1;
			base[pg * (PG / 8) + 1] = round;
		}
		round++;
	}
	return NULL;
}

static void fast_scans(struct tprt_cfg *c)
{
	c->scan_delay_ms = 5;
	c->scan_period_min_ms = 5;
	c->scan_period_max_ms = 20;
	c->scan_size_mb = 4;
	c->scan_cost_factor = 0;
}

static void test_shutdown_in_flight(void **state)
{
	pthread_t th[NT];
	struct tprt_stats s;
	void *ret;
	size_t i;
	uintptr_t t;

	(void)state;
	rt_start(0, fast_scans);
	sh_mem = map_touched(NT * SLICE);
	for (i = 0; i < NT * SLICE; i++)
		((uint64_t *)(sh_mem + i * PG))[0] = i;
	assert_int_equal(tprt_register(sh_mem, NT * SLICE * PG,
				       TPRT_SRC_MPROTECT), 0);
	atomic_store(&sh_stop, 0);
	for (t = 0; t < NT; t++)
		assert_int_equal(pthread_create(&th[t], NULL, hammer,
						(void *)t), 0);
	/* A few passes and faults (within 30 s even on a loaded machine). */
	for (i = 0; i < 3000; i++) {
		tprt_stats(&s);
		if (s.passes > 3 && s.faults > 0)
			break;
		sleep_ms(10);
	}
	assert_true(s.passes > 3);
	assert_true(s.faults > 0);
	assert_int_equal(tprt_shutdown(), 0);	/* while they run */
	sleep_ms(100);
	tprt_stats(&s);
	assert_int_equal(s.restore_fail, 0);
	assert_int_equal(s.chained, 0);
	atomic_store(&sh_stop, 1);
	for (t = 0; t < NT; t++) {
		assert_int_equal(pthread_join(th[t], &ret), 0);
		assert_null(ret);
	}
	assert_int_equal(count_vmas(sh_mem, NT * SLICE * PG), 1);
	munmap(sh_mem, NT * SLICE * PG);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_queue),
		cmocka_unit_test(test_mem_latch),
		cmocka_unit_test(test_page_nodes),
		cmocka_unit_test(test_scan_period),
		cmocka_unit_test(test_handler),
		cmocka_unit_test(test_scan_sweep),
		cmocka_unit_test(test_vma_bound_small_cap),
		cmocka_unit_test(test_vma_bound_max_map_count),
		cmocka_unit_test(test_chaining),
		cmocka_unit_test(test_default_action),
		cmocka_unit_test(test_syscall_mprotect),
		cmocka_unit_test(test_syscall_uffd),
		cmocka_unit_test(test_shutdown_in_flight),
	};

	if (argc == 2 && !strcmp(argv[1], "--child-segv"))
		return child_segv();
	self_path = argv[0];
	return cmocka_run_group_tests(tests, NULL, NULL);
}
