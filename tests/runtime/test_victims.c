// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * CMocka tests of the tierpol runtime's victims (TPRT_F_VICTIMS,
 * examples/runtime/tprt_victim.c): the fast node's blocks sampled by the
 * scanner, a sample untouched for the hot threshold over its pages (or
 * for a sweep) marked a victim, victims demoted
 * by the migrator, and what is never demoted (a touched block, a pinned
 * one, with no slow node known). One NUMA node is enough (helpers.h): the
 * demotions go through a seam that records them.
 */
#include "helpers.h"

static uint32_t vt_shift;

static void vt_cfg(struct tprt_cfg *c)
{
	c->sample_shift = vt_shift;
}

/* The demotions asked of move_pages(2), and what it answers. */
static uintptr_t mv_page[8192];
static int mv_node[8192];
static size_t mv_n;
static int mv_calls, mv_ret, mv_status;

static int rec_move(void *const *pages, const int *nodes, int *status,
		    size_t n)
{
	size_t i;

	mv_calls++;
	for (i = 0; i < n && mv_n < 8192; i++, mv_n++) {
		mv_page[mv_n] = (uintptr_t)pages[i];
		mv_node[mv_n] = nodes[i];
		status[i] = mv_status ? mv_status : nodes[i];
	}
	return mv_ret;
}

static void mv_reset(void)
{
	mv_n = 0;
	mv_calls = 0;
	mv_ret = 0;
	mv_status = 0;
}

static uint8_t blk(uint64_t b)
{
	return atomic_load(&tprt_rt->region[0].blk[b]);
}

#define SAMPLE	(TPRT_BLK_PROT | TPRT_BLK_SAMPLE)
#define VICTIM	(TPRT_BLK_PROT | TPRT_BLK_SAMPLE | TPRT_BLK_VICTIM)

/*
 * 1024 pages, chunk 0 on the slow node, chunk 1 (blocks 32..63) on the
 * fast one; every fast block a sample each sweep.
 */
static char *vt_setup(uint32_t flags, uint32_t shift)
{
	char *m;

	vt_shift = shift;
	rt_start(TPRT_F_NO_SCANNER | TPRT_F_NO_MIGRATOR | flags, vt_cfg);
	tprt_rt->hooks.move = rec_move;
	mv_reset();
	atomic_store(&fake_ns, 1000 * TPRT_NS_PER_SEC);
	m = map_touched(1024);
	assert_int_equal(tprt_register(m, 1024 * PG, TPRT_SRC_MPROTECT), 0);
	fast_lo = (uintptr_t)m + 512 * PG;
	fast_hi = (uintptr_t)m + 1024 * PG;
	return m;
}

static void vt_teardown(char *m)
{
	tprt_shutdown();
	munmap(m, 1024 * PG);
}

static void test_samples(void **state)
{
	struct tprt_stats s;
	volatile char *p;
	char *m;
	uint64_t b, v, decided = 0;

	(void)state;
	m = vt_setup(TPRT_F_VICTIMS, 0);
	p = m;
	/* The samples take no scan budget: the 32 slow blocks count. */
	assert_int_equal(tprt_scan_now(), 32);
	for (b = 0; b < 32; b++)
		assert_int_equal(blk(b) & (TPRT_BLK_SAMPLE | TPRT_BLK_VICTIM),
				 0);
	for (b = 32; b < 64; b++)
		assert_int_equal(blk(b) & VICTIM, SAMPLE);
	/* The whole range is protected in one run: one VMA. */
	assert_int_equal(count_vmas(m, 1024 * PG), 1);
	assert_int_equal(atomic_load(&tprt_rt->slow_node), 1);

	/* A sample's fault restores it and decides nothing. */
	assert_int_equal(p[640 * PG], (char)640);	/* block 40 */
	tprt_stats(&s);
	assert_int_equal(s.faults, 1);
	assert_int_equal(s.sample_faults, 1);
	for (v = 0; v < TPRT_NR_VERDICTS; v++)
		decided += s.verdict[v];
	assert_int_equal(decided, 0);
	assert_int_equal(s.queued, 0);
	assert_int_equal(blk(40), 0);
	p[641 * PG] = 1;			/* open now: no fault */
	tprt_stats(&s);
	assert_int_equal(s.faults, 1);

	/*
	 * The next sweep: every sample but block 40 stayed untouched for a
	 * sweep: victims, and samples again. Block 40 is sampled anew.
	 */
	tprt_scan_now();
	tprt_stats(&s);
	assert_int_equal(s.victims_found, 31);
	for (b = 32; b < 64; b++)
		assert_int_equal(blk(b) & VICTIM, b == 40 ? SAMPLE : VICTIM);
	/* A victim touched keeps its mark (a measurement), not its sample. */
	assert_int_equal(p[48 * 16 * PG], (char)(48 * 16));
	assert_int_equal(blk(48), TPRT_BLK_VICTIM);
	/* Sampled again, it is measured again: the mark goes. */
	tprt_scan_now();
	tprt_stats(&s);
	assert_int_equal(s.sample_faults, 2);
	assert_int_equal(s.victims_found, 31 + 1);	/* block 40 now */
	assert_int_equal(blk(48) & VICTIM, SAMPLE);
	assert_int_equal(blk(40) & VICTIM, VICTIM);
	/* A block that gets a slow page is no longer a sample nor a victim. */
	fast_lo = (uintptr_t)m + 41 * 16 * PG + PG;
	tprt_scan_now();
	assert_int_equal(blk(41) & (TPRT_BLK_SAMPLE | TPRT_BLK_VICTIM), 0);
	assert_int_equal(blk(41) & TPRT_BLK_PROT, TPRT_BLK_PROT);
	assert_int_equal(blk(40) & TPRT_BLK_VICTIM, 0);
	assert_int_equal(blk(42) & VICTIM, VICTIM);
	vt_teardown(m);
}

static void test_sample_shift(void **state)
{
	struct tprt_stats s;
	uint64_t b, seq;
	char *m;

	(void)state;
	m = vt_setup(TPRT_F_VICTIMS, 2);
	seq = atomic_load(&tprt_rt->seq);
	tprt_scan_now();
	/* One fast block in four, (b + sweep) % 4 == 0; the slow ones all. */
	for (b = 32; b < 64; b++)
		assert_int_equal(blk(b) & VICTIM,
				 (b + seq) % 4 == 0 ? SAMPLE : 0);
	/* Next sweep: those are victims (and samples), another quarter. */
	seq = atomic_load(&tprt_rt->seq);
	tprt_scan_now();
	tprt_stats(&s);
	assert_int_equal(s.victims_found, 8);
	for (b = 32; b < 64; b++) {
		bool was = (b + seq - 1) % 4 == 0, now = (b + seq) % 4 == 0;

		assert_int_equal(blk(b) & VICTIM, was ? VICTIM :
				 now ? SAMPLE : 0);
	}
	vt_teardown(m);

	/* Without the flag no fast block is protected, none is a victim. */
	m = vt_setup(0, 0);
	assert_int_equal(tprt_scan_now(), 32);
	tprt_scan_now();
	atomic_fetch_add(&fake_ns, 10 * TPRT_NS_PER_SEC);
	assert_int_equal(tprt_victim_check(tprt_rt), 0);
	tprt_stats(&s);
	assert_int_equal(s.victims_found, 0);
	for (b = 32; b < 64; b++)
		assert_int_equal(blk(b), 0);
	assert_int_equal(tprt_victim_demote(tprt_rt, 64), 0);
	assert_int_equal(mv_calls, 0);
	vt_teardown(m);
}

static void test_demote(void **state)
{
	struct tprt_stats s;
	volatile char *p;
	char *m;
	size_t i;

	(void)state;
	m = vt_setup(TPRT_F_VICTIMS, 0);
	p = m;
	tprt_scan_now();
	/* Nothing is a victim yet: nothing to demote. */
	assert_int_equal(tprt_victim_demote(tprt_rt, 64), 0);
	assert_int_equal(mv_calls, 0);
	assert_int_equal(p[40 * 16 * PG], (char)(40 * 16));	/* block 40 */
	tprt_scan_now();				/* 31 victims */
	/* A pinned victim is open, keeps its mark, and is not demoted. */
	assert_int_equal(tprt_pin(m + 33 * 16 * PG, PG), 0);
	assert_int_equal(blk(33), TPRT_BLK_VICTIM);
	/* 40 pages wanted: whole blocks, the first victims in order. */
	assert_int_equal(tprt_victim_demote(tprt_rt, 40), 48);
	assert_int_equal(mv_calls, 1);
	assert_int_equal(mv_n, 48);
	for (i = 0; i < 48; i++) {
		uint64_t b = (i / 16 == 0) ? 32 : 33 + i / 16;

		assert_true(mv_page[i] == (uintptr_t)m + (b * 16 + i % 16) * PG);
		assert_int_equal(mv_node[i], 1);	/* the slow node seen */
	}
	/* Claimed and restored: open, no longer victims. */
	assert_int_equal(blk(32), 0);
	assert_int_equal(blk(35), 0);
	p[32 * 16 * PG] = 1;
	p[35 * 16 * PG + 5 * PG] = 1;
	tprt_stats(&s);
	assert_int_equal(s.faults, 1);
	assert_int_equal(s.demoted, 48);
	assert_int_equal(s.demote_calls, 1);
	assert_int_equal(s.demote_fail, 0);

	/* The walk goes on from there; it stops after one round. */
	mv_reset();
	assert_int_equal(tprt_victim_demote(tprt_rt, 16), 16);
	assert_true(mv_page[0] == (uintptr_t)m + 36 * 16 * PG);
	mv_reset();
	/* Left: 37..63 but 40 (touched): 26 blocks. */
	assert_int_equal(tprt_victim_demote(tprt_rt, 8192), 26 * 16);
	assert_int_equal(mv_calls, 1);
	mv_reset();
	assert_int_equal(tprt_victim_demote(tprt_rt, 8192), 0);
	assert_int_equal(mv_calls, 0);
	/* Unpinned, the open victim goes as it is (no restore needed). */
	assert_int_equal(tprt_unpin(m + 33 * 16 * PG, PG), 0);
	assert_int_equal(tprt_victim_demote(tprt_rt, 8192), 16);
	assert_true(mv_page[0] == (uintptr_t)m + 33 * 16 * PG);
	assert_int_equal(blk(33), 0);
	vt_teardown(m);
}

static void test_demote_age(void **state)
{
	struct tprt_stats s;
	volatile char *p;
	char *m;

	(void)state;
	m = vt_setup(TPRT_F_VICTIMS, 0);
	p = m;
	tprt_scan_now();
	assert_int_equal(p[40 * 16 * PG], (char)(40 * 16));	/* block 40 */
	/*
	 * Untouched for less than the hot threshold (1 s) over the block's
	 * 16 pages (62.5 ms): not yet.
	 */
	atomic_fetch_add(&fake_ns, 62 * TPRT_NS_PER_MS);
	assert_int_equal(tprt_victim_check(tprt_rt), 0);
	assert_int_equal(tprt_victim_demote(tprt_rt, 64), 0);
	assert_int_equal(mv_calls, 0);
	/*
	 * For that long (the stamps count 65.5 us buckets, so a little
	 * over it): victims before the sweep ends, once each.
	 */
	atomic_fetch_add(&fake_ns, 1 * TPRT_NS_PER_MS);
	assert_int_equal(tprt_victim_check(tprt_rt), 31);
	assert_int_equal(tprt_victim_check(tprt_rt), 0);
	tprt_stats(&s);
	assert_int_equal(s.victims_found, 31);
	assert_int_equal(blk(41) & VICTIM, VICTIM);
	/* Touched since, block 41 is still a victim: the mark was measured. */
	assert_int_equal(p[41 * 16 * PG], (char)(41 * 16));
	assert_int_equal(blk(41), TPRT_BLK_VICTIM);
	assert_int_equal(tprt_victim_demote(tprt_rt, 8192), 31 * 16);
	assert_int_equal(mv_n, 31 * 16);
	assert_true(mv_page[8 * 16] == (uintptr_t)m + 41 * 16 * PG);
	/* Sampled again, a block's age starts again. */
	mv_reset();
	tprt_scan_now();
	atomic_fetch_add(&fake_ns, 50 * TPRT_NS_PER_MS);
	assert_int_equal(tprt_victim_check(tprt_rt), 0);
	assert_int_equal(tprt_victim_demote(tprt_rt, 8192), 0);
	vt_teardown(m);
}

static void test_demote_fail(void **state)
{
	struct tprt_stats s;
	char *m;

	(void)state;
	m = vt_setup(TPRT_F_VICTIMS, 0);
	tprt_scan_now();
	tprt_scan_now();			/* blocks 32..63 victims */
	/* A page the kernel would not move (busy): counted, not demoted. */
	mv_status = -EBUSY;
	assert_int_equal(tprt_victim_demote(tprt_rt, 16), 0);
	/* The call failing: every page failed. */
	mv_reset();
	mv_ret = -ENOMEM;
	assert_int_equal(tprt_victim_demote(tprt_rt, 32), 0);
	tprt_stats(&s);
	assert_int_equal(s.demoted, 0);
	assert_int_equal(s.demote_fail, 16 + 32);
	assert_int_equal(s.demote_calls, 2);
	/* No slow node seen: nowhere to demote, nothing claimed. */
	mv_reset();
	atomic_store(&tprt_rt->slow_node, -1);
	assert_int_equal(tprt_victim_demote(tprt_rt, 64), 0);
	assert_int_equal(mv_calls, 0);
	assert_int_equal(blk(40) & VICTIM, VICTIM);
	/* Nothing wanted: nothing done. */
	atomic_store(&tprt_rt->slow_node, 1);
	assert_int_equal(tprt_victim_demote(tprt_rt, 0), 0);
	assert_int_equal(mv_calls, 0);
	vt_teardown(m);
}

static void test_room(void **state)
{
	struct tprt_mem m = { .free = 1000, .spare = 10000 };
	struct tprt_cfg cfg;

	(void)state;
	/* As far as the target, within half the other nodes' room. */
	assert_int_equal(tprt_victim_room(&m, 1500), 500);
	assert_int_equal(tprt_victim_room(&m, 1000), 0);
	assert_int_equal(tprt_victim_room(&m, 900), 0);
	assert_int_equal(tprt_victim_room(&m, 20000), 5000);
	m.spare = 1;
	assert_int_equal(tprt_victim_room(&m, 20000), 0);
	/* The settings: sample_shift 0 to 8, the flag known. */
	tprt_cfg_default(&cfg);
	assert_int_equal(cfg.sample_shift, 2);
	assert_int_equal(cfg.flags & TPRT_F_VICTIMS, 0);
	cfg.sample_shift = 9;
	cfg.flags = TPRT_F_VICTIMS | TPRT_F_NO_SCANNER | TPRT_F_NO_MIGRATOR;
	if (tprt_rt && atomic_load(&tprt_rt->running))
		tprt_shutdown();
	assert_int_equal(tprt_init(&cfg), -EINVAL);
	assert_true(!tprt_rt || !atomic_load(&tprt_rt->running));
	cfg.sample_shift = 8;
	assert_int_equal(tprt_init(&cfg), 0);
	assert_int_equal(tprt_shutdown(), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		rt_test(test_samples),
		rt_test(test_sample_shift),
		rt_test(test_demote),
		rt_test(test_demote_age),
		rt_test(test_demote_fail),
		rt_test(test_room),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
