// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * CMocka tests of the watermark, demotion and scan helpers (lib/wmark.c)
 * against independent derivations over random inputs, and of Linux 3.15's
 * pseudo-interleaving rules. The table-driven vectors are in
 * selftest/wmark.h (run by test_policy.c).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <tierpol/tierpol.h>
#include "policy_env.h"

/* ---- watermark helpers --------------------------------------------------- */

static void test_bypass_formula_boundaries(void **state)
{
	static const u32 shifts[] = { 12, 14, 16 };
	struct env e;
	struct tp_node_mem m;
	u64 mark, rl;
	size_t i;
	int k;

	(void)state;
	for (k = 0; k < 3000; k++) {
		i = k % 3;
		env_preset(&e, k & 1 ? TP_PRESET_LINUX61 : TP_PRESET_RFC2020);
		e.cfg.page_shift = shifts[i];
		e.cfg.rate_limit_mbps = (u32)rnd_range(0, 1 << 20);
		env_init(&e, 0);
		m.wmark_min = rnd_range(1, 1 << 20);
		m.wmark_low = m.wmark_min + rnd_range(0, 1 << 20);
		m.wmark_high = m.wmark_low + rnd_range(0, 1 << 20);
		m.wmark_promo = m.wmark_high + rnd_range(0, 1 << 20);
		m.present = rnd() >> rnd_range(20, 40);
		rl = e.cfg.rate_limit_mbps ?
		     (u64)e.cfg.rate_limit_mbps << (20 - shifts[i]) :
		     m.wmark_high;
		if (k & 1)
			mark = m.wmark_promo +
			       ((1ULL << 30 >> shifts[i]) > m.present / 16 ?
				1ULL << 30 >> shifts[i] : m.present / 16);
		else
			mark = m.wmark_high + 2 * rl;
		m.free = mark;
		assert_false(tp_free_space_enough(&e.pol, &m));
		m.free = mark + 1;
		assert_true(tp_free_space_enough(&e.pol, &m));
		assert_int_equal(decide(&e, TP_LATENCY_UNKNOWN, 1, 0, &m, 1),
				 TP_PROMOTE_NRL);
	}
}

static void test_demotion_target(void **state)
{
	struct env e;
	struct tp_node_mem m = mem_busy;
	u32 mode, preset, rate;
	u64 want;

	(void)state;
	for (preset = 0; preset <= 1; preset++) {
		for (mode = 0; mode < 4; mode++) {
			for (rate = 0; rate <= 1000; rate += 250) {
				env_preset(&e, preset);
				e.cfg.mode = mode;
				e.cfg.rate_limit_mbps = rate;
				env_init(&e, 0);
				/* the RFC: high + rate limit (0: high) */
				if (!(mode & TP_MODE_TIERING))
					want = m.wmark_high;
				else if (preset == TP_PRESET_LINUX61)
					want = m.wmark_promo;
				else if (rate)
					want = m.wmark_high + ((u64)rate << 8);
				else
					want = 2 * m.wmark_high;
				assert_int_equal(tp_demotion_target(&e.pol, &m),
						 want);
			}
		}
	}
}

static void test_wmark_promo(void **state)
{
	u64 min, high, managed, want, w;
	u32 scale;
	bool fits;
	int k;

	(void)state;
	/* the kernel's defaults: scale factor 10 = 0.1 % */
	assert_int_equal(tp_wmark_promo(11360, 14200, 16000000, 10), 30200);
	for (k = 0; k < 100000; k++) {
		min = rnd() >> rnd_range(0, 63);
		high = rnd() >> rnd_range(0, 63);
		managed = rnd() >> rnd_range(0, 63);
		scale = (u32)rnd_range(0, 3000);
		w = muldiv(managed, scale, 10000, &fits);
		assert_true(fits);
		if (w < min / 4)
			w = min / 4;
		want = w + high < w ? ~0ULL : w + high;
		assert_int_equal(tp_wmark_promo(min, high, managed, scale),
				 want);
	}
}

static void test_scan_wanted(void **state)
{
	struct env e;
	u32 mode;

	(void)state;
	for (mode = 0; mode < 4; mode++) {
		env_preset(&e, TP_PRESET_RFC2020);
		e.cfg.mode = mode;
		env_init(&e, 0);
		assert_int_equal(tp_scan_wanted(&e.pol, false), mode != 0);
		/* top tier: only when the normal bit is on */
		assert_int_equal(tp_scan_wanted(&e.pol, true),
				 !!(mode & TP_MODE_NORMAL));
	}
}

/* ---- pseudo-interleaving (Linux 3.15) ------------------------------------ */

#define NODES	1024
#define BPL	(8 * sizeof(unsigned long))

static void test_group_fault_local_random(void **state)
{
	unsigned long mask[NODES / BPL];
	bool set[NODES];
	struct tp_group_fault f;
	u32 nbits, n, active, v, i, cnt;
	int k;
	bool want;

	(void)state;
	for (k = 0; k < 20000; k++) {
		memset(mask, 0, sizeof(mask));
		memset(set, 0, sizeof(set));
		nbits = (u32)rnd_range(1, NODES);
		/* a few active nodes, some beyond nbits */
		cnt = (u32)rnd_range(0, 4);
		for (i = 0; i < cnt; i++) {
			n = (u32)rnd_range(0, NODES - 1);
			mask[n / BPL] |= 1UL << (n % BPL);
			set[n] = true;
		}
		for (n = 0, active = 0; n < nbits; n++)
			active += set[n];
		f.cpu_node = (u32)rnd_range(0, NODES + 10);
		f.mem_node = rnd_range(0, 1) ? f.cpu_node :
			     (u32)rnd_range(0, NODES + 10);
		if (rnd_range(0, 1)) {	/* pick active nodes */
			for (n = 0; n < nbits; n++)
				if (set[n])
					f.cpu_node = n;
			for (n = nbits; n-- > 0;)
				if (set[n])
					f.mem_node = n;
		}
		f.local = !rnd_range(0, 5);
		f.priv = !rnd_range(0, 3);
		f.in_group = rnd_range(0, 4);
		for (v = 0; v <= 1; v++) {
			want = f.local ||
			       (!f.priv && f.in_group &&
				(v == TP_GROUP_LINUX315 || active > 1) &&
				f.cpu_node < nbits && set[f.cpu_node] &&
				f.mem_node < nbits && set[f.mem_node]);
			assert_int_equal(tp_group_fault_local(v, &f, mask,
							      nbits), want);
		}
	}
}

static void test_retry_interval(void **state)
{
	u64 period, want;
	u32 tps;
	int k;

	(void)state;
	/* Linux 3.15: min(HZ, scan_period / 16), never 0 */
	assert_int_equal(tp_migrate_retry_interval(10, 1000), 1);
	assert_int_equal(tp_migrate_retry_interval(1000, 1000), 62);
	assert_int_equal(tp_migrate_retry_interval(60000, 1000), 1000);
	for (k = 0; k < 100000; k++) {
		period = rnd() >> rnd_range(0, 63);
		tps = (u32)rnd_range(1, TP_TPS_MAX);
		want = period / 16 < tps ? period / 16 : tps;
		if (!want)
			want = 1;
		assert_int_equal(tp_migrate_retry_interval(period, tps), want);
	}
}

static void test_preferred_node(void **state)
{
	unsigned long mask[256 / BPL];
	int dst;

	(void)state;
	memset(mask, 0, sizeof(mask));
	mask[1 / BPL] |= 1UL << (1 % BPL);
	mask[150 / BPL] |= 1UL << (150 % BPL);
	for (dst = -1; dst < 256; dst++) {
		/* 3.15: only into an active node of the group */
		assert_int_equal(tp_preferred_node(TP_GROUP_LINUX315, true,
						   dst, 9, mask, 256),
				 dst == 1 || dst == 150 ? dst : -1);
		assert_int_equal(tp_preferred_node(TP_GROUP_LINUX315, false,
						   dst, 9, mask, 256), -1);
		/* 6.1: the best CPU's node, else the source */
		assert_int_equal(tp_preferred_node(TP_GROUP_LINUX61, true,
						   dst, 9, mask, 256),
				 dst >= 0 ? dst : 9);
		assert_int_equal(tp_preferred_node(TP_GROUP_LINUX61, false,
						   dst, 9, mask, 256), -1);
	}
	/* node 150 is outside a 100-bit mask */
	assert_int_equal(tp_preferred_node(TP_GROUP_LINUX315, true, 150, 9,
					   mask, 100), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bypass_formula_boundaries),
		cmocka_unit_test(test_demotion_target),
		cmocka_unit_test(test_wmark_promo),
		cmocka_unit_test(test_scan_wanted),
		cmocka_unit_test(test_group_fault_local_random),
		cmocka_unit_test(test_retry_interval),
		cmocka_unit_test(test_preferred_node),
	};

	return cmocka_run_group_tests_name("wmark", tests, NULL, NULL);
}
