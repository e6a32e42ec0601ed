// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * CMocka tests of the promotion decision pipeline (lib/policy.c,
 * lib/decide.c): the shared self-test vectors, then scenario tests per
 * claim of the sources (docs/SOURCES.md) and sweeps. The statistics are in
 * test_policy_stats.c, tunes of a live policy in test_policy_tune.c, the
 * watermark and pseudo-interleaving helpers in test_wmark.c, the
 * concurrent tests in test_policy_mt.c.
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
#include "selftest/policy.h"
#include "policy_env.h"

static void st_report(struct tp_st *st, bool ok, const char *name, int line)
{
	(void)st;
	if (!ok)
		print_error("selftest/{policy,decide,decide_regress,wmark}.h"
			    ":%d: FAILED: %s\n", line, name);
}

static void test_selftest_vectors(void **state)
{
	struct tp_st st = { .suite = "policy", .report = st_report };

	(void)state;
	assert_int_equal(tp_st_policy(&st), 0);
	assert_int_equal(st.failed, 0);
	assert_true(st.run >= 300);	/* policy.h, decide.h and wmark.h */
}

/* ---- presets and configuration ------------------------------------------- */

static void test_preset_contents(void **state)
{
	struct tp_policy_cfg c;
	struct tp_policy p;

	(void)state;
	memset(&c, 0xab, sizeof(c));
	assert_int_equal(tp_policy_preset(&c, TP_PRESET_RFC2020, 1000), 0);
	assert_int_equal(c.mode, TP_MODE_TIERING);
	assert_int_equal(c.flags, TP_POL_HOTNESS | TP_POL_FREE_BYPASS |
			 TP_POL_YOUNG | TP_POL_WRITE_DOUBLE | TP_POL_ADAPTIVE |
			 TP_POL_RL_WMARK_DEFAULT);
	assert_int_equal(c.tps, 1000);
	assert_int_equal(c.page_shift, TP_DEFAULT_PAGE_SHIFT);
	assert_int_equal(c.hot_threshold_ms, TP_DEFAULT_HOT_THRESHOLD_MS);
	assert_int_equal(c.rate_limit_mbps, 0);
	assert_int_equal(c.scan_period_max_ms, TP_DEFAULT_SCAN_PERIOD_MAX_MS);
	assert_int_equal(c.thresh_variant, TP_THRESH_RFC2020);
	assert_int_equal(c.limiter_variant, TP_LIMITER_WINDOW_RFC2020);
	assert_int_equal(c.wmark_variant, TP_WMARK_RFC2020);
	assert_int_equal(c.burst_pages, 0);
	assert_int_equal(c.sz, sizeof(c));
	assert_int_equal(c.cand_batch, TP_DEFAULT_CAND_BATCH);
	assert_int_equal(tp_policy_init(&p, &c), 0);

	memset(&c, 0xab, sizeof(c));
	assert_int_equal(tp_policy_preset(&c, TP_PRESET_LINUX61, 250), 0);
	assert_int_equal(c.mode, TP_MODE_TIERING);
	assert_int_equal(c.flags, TP_POL_HOTNESS | TP_POL_FREE_BYPASS |
			 TP_POL_ADAPTIVE | TP_POL_HOT_STRICT |
			 TP_POL_BYPASS_RESET);
	assert_false(c.flags & (TP_POL_YOUNG | TP_POL_WRITE_DOUBLE |
				TP_POL_RL_WMARK_DEFAULT));
	assert_int_equal(c.tps, 250);
	assert_int_equal(c.page_shift, 12);
	assert_int_equal(c.hot_threshold_ms, 1000);
	assert_int_equal(c.rate_limit_mbps, 65536);
	assert_int_equal(c.scan_period_max_ms, 60000);
	assert_int_equal(c.thresh_variant, TP_THRESH_LINUX61);
	assert_int_equal(c.limiter_variant, TP_LIMITER_WINDOW_LINUX61);
	assert_int_equal(c.wmark_variant, TP_WMARK_LINUX61);
	assert_int_equal(c.burst_pages, 0);
	assert_int_equal(c.sz, sizeof(c));
	assert_int_equal(c.cand_batch, TP_DEFAULT_CAND_BATCH);
	assert_int_equal(c.hot_threshold_faults, 0);
	assert_int_equal(tp_policy_init(&p, &c), 0);
}

/*
 * A preset writes 1.0's struct and not a byte past it: a program compiled
 * against 1.0 passes a struct that ends there (docs/ABI.md, rule 6).
 */
static void test_preset_writes_struct_only(void **state)
{
	struct {
		struct tp_policy_cfg c;
		unsigned char after[32];
	} g;
	u32 pr;
	size_t i;

	(void)state;
	for (pr = TP_PRESET_RFC2020; pr <= TP_PRESET_LINUX61; pr++) {
		memset(&g, 0xab, sizeof(g));
		assert_int_equal(tp_policy_preset(&g.c, pr, 1000), 0);
		assert_int_equal(g.c.sz, sizeof(g.c));
		assert_int_equal(g.c.hot_threshold_faults, 0);
		for (i = 0; i < sizeof(g.after); i++)
			assert_int_equal(g.after[i], 0xab);
	}
	/* a refused preset writes nothing */
	memset(&g, 0xab, sizeof(g));
	assert_int_equal(tp_policy_preset(&g.c, TP_PRESET_LINUX61 + 1, 1000),
			 -EINVAL);
	for (i = 0; i < sizeof(g); i++)
		assert_int_equal(((unsigned char *)&g)[i], 0xab);
}

static void test_init_validation(void **state)
{
	struct tp_policy_cfg c;
	struct tp_policy p, copy;
	u32 bit, shift;

	(void)state;
	/* every undefined flag bit */
	for (bit = 9; bit < 32; bit++) {
		assert_int_equal(tp_policy_preset(&c, TP_PRESET_RFC2020, 1000),
				 0);
		c.flags |= 1U << bit;
		memset(&p, 0x5c, sizeof(p));
		memcpy(&copy, &p, sizeof(p));
		assert_int_equal(tp_policy_init(&p, &c), -EINVAL);
		assert_memory_equal(&p, &copy, sizeof(p));
	}
	/* every mode above 3 */
	for (bit = 4; bit < 64; bit++) {
		assert_int_equal(tp_policy_preset(&c, TP_PRESET_RFC2020, 1000),
				 0);
		c.mode = bit;
		assert_int_equal(tp_policy_init(&p, &c), -EINVAL);
		assert_memory_equal(&p, &copy, sizeof(p));
	}
	/*
	 * Page shifts: 1..9 and 31..63 rejected, 4 KiB .. 2 MiB accepted.
	 * (10, 11 and 22..30 are left alone: policy.h documents 12..21,
	 * lib/policy.c accepts 10..30.)
	 */
	for (shift = 1; shift < 64; shift++) {
		assert_int_equal(tp_policy_preset(&c, TP_PRESET_LINUX61, 1000),
				 0);
		c.page_shift = shift;
		c.rate_limit_mbps = 1;
		memset(&p, 0x5c, sizeof(p));
		if (shift <= 9 || shift >= 31) {
			assert_int_equal(tp_policy_init(&p, &c), -EINVAL);
			assert_memory_equal(&p, &copy, sizeof(p));
		}
		if (shift >= 12 && shift <= 21)
			assert_int_equal(tp_policy_init(&p, &c), 0);
	}
	/* the rate limit at the TP_RATE_MAX boundary for 4/16/64 KiB */
	for (shift = 12; shift <= 16; shift += 2) {
		assert_int_equal(tp_policy_preset(&c, TP_PRESET_LINUX61, 1000),
				 0);
		c.page_shift = shift;
		/* pages = MB/s << (20 - shift) <= 2^32 */
		c.rate_limit_mbps = 1U << (12 + shift);
		assert_int_equal(tp_policy_init(&p, &c), 0);
		c.rate_limit_mbps++;
		memcpy(&copy, &p, sizeof(p));
		assert_int_equal(tp_policy_init(&p, &c), -ERANGE);
		assert_memory_equal(&p, &copy, sizeof(p));
		assert_int_equal(tp_policy_tune(&p, &c), -ERANGE);
		assert_memory_equal(&p, &copy, sizeof(p));
	}
	assert_int_equal(tp_policy_init(NULL, &c), -EINVAL);
	assert_int_equal(tp_policy_init(&p, NULL), -EINVAL);
	assert_int_equal(tp_policy_tune(NULL, &c), -EINVAL);
	assert_int_equal(tp_policy_tune(&p, NULL), -EINVAL);
	assert_memory_equal(&p, &copy, sizeof(p));
}

/* ---- the free-space bypass (2020 RFC 2/8, the 2026 knob) ----------------- */

static void test_bypass_on_promotes_cold(void **state)
{
	struct env e;
	struct tp_node_stats s;
	u32 preset;
	int k;

	(void)state;
	for (preset = 0; preset <= 1; preset++) {
		env_preset(&e, preset);
		env_init(&e, 0);
		/* cold, not young, unknown latency, THPs: all promoted */
		for (k = 0; k < 1000; k++)
			assert_int_equal(decide(&e, k & 1 ? TP_LATENCY_UNKNOWN :
						1ULL << 40, 512, 0, &mem_idle,
						k),
					 TP_PROMOTE_NRL);
		s = stats(&e);
		assert_int_equal(s.verdict[TP_PROMOTE_NRL], 512000);
		assert_int_equal(s.candidate_nrl, 512000);
		assert_int_equal(s.candidate, 0);
		assert_int_equal(s.success, 512000);
		assert_int_equal(s.decided, 512000);
		/* the bypass is not rate limited and feeds no controller */
		assert_int_equal(s.th_lowered + s.th_raised, 0);
	}
}

static void test_bypass_off_goes_through_checks(void **state)
{
	struct env e;
	struct tp_node_stats s;
	u32 preset;
	int k, prom;

	(void)state;
	for (preset = 0; preset <= 1; preset++) {
		env_preset(&e, preset);
		e.cfg.flags &= ~(TP_POL_FREE_BYPASS | TP_POL_BYPASS_RESET);
		e.cfg.rate_limit_mbps = 1;	/* 256 pages/s */
		env_init(&e, 0);
		/* the cold page: refused even though the node is empty */
		assert_int_equal(decide(&e, TP_LATENCY_UNKNOWN, 1,
					TP_FAULT_YOUNG, &mem_idle, 1),
				 TP_REFUSE_COLD);
		/*
		 * Hot pages: candidates, cut at the rate limit. The first
		 * opens the window (the cold page did not: no candidate)
		 * and is not counted in it: the opener and the limit (the
		 * RFC) or the limit - 1 (6.1).
		 */
		for (k = 0, prom = 0; k < 1000; k++)
			prom += decide(&e, 5, 1, TP_FAULT_YOUNG, &mem_idle,
				       2) == TP_PROMOTE;
		s = stats(&e);
		assert_int_equal(prom, preset ? 1 + 255 : 1 + 256);
		assert_int_equal(s.candidate, 1000);
		assert_int_equal(s.candidate_nrl, 0);
		assert_int_equal(s.verdict[TP_REFUSE_RATELIMIT], 1000 - prom);
		assert_int_equal(s.verdict[TP_REFUSE_COLD], 1);
		assert_int_equal(s.decided, 1001);
	}
}

static void test_bypass_reset_keeps_period(void **state)
{
	struct env e;
	struct tp_node_stats s;
	int k;

	(void)state;
	env_preset(&e, TP_PRESET_LINUX61);
	e.cfg.rate_limit_mbps = 1;		/* 25 per 100 ms */
	e.cfg.scan_period_max_ms = 100;
	env_init(&e, 0);
	for (k = 0; k < 100; k++)
		decide(&e, 1, 1, 0, &mem_busy, 10);
	decide(&e, 1, 1, 0, &mem_busy, 101);	/* closes [0, 101) */
	assert_int_equal(stats(&e).threshold, 875);
	for (k = 0; k < 100; k++)
		decide(&e, 1, 1, 0, &mem_busy, 150);
	/* the bypass forgets the threshold, not the period or count */
	assert_int_equal(decide(&e, 1, 1, 0, &mem_idle, 160), TP_PROMOTE_NRL);
	assert_int_equal(stats(&e).threshold, 1000);
	decide(&e, 1, 1, 0, &mem_busy, 201);
	s = stats(&e);
	assert_int_equal(s.th_lowered, 1);
	decide(&e, 1, 1, 0, &mem_busy, 202);	/* closes [101, 202) */
	s = stats(&e);
	assert_int_equal(s.th_lowered, 2);
	assert_int_equal(s.threshold, 875);
}

/* ---- hotness sweeps ------------------------------------------------------ */

/* One decision on a fresh node; the RFC: hot if <= th, 6.1: < th. */
static void hotness_case(u32 preset, bool wd, bool wr, u64 lat)
{
	struct env e;
	u64 th = wd && wr ? 2000 : 1000;
	bool hot = preset ? lat < th : lat <= th;

	env_preset(&e, preset);
	if (wd)
		e.cfg.flags |= TP_POL_WRITE_DOUBLE;
	else
		e.cfg.flags &= ~TP_POL_WRITE_DOUBLE;
	env_init(&e, 0);
	assert_int_equal(decide(&e, lat, 1,
				TP_FAULT_YOUNG | (wr ? TP_FAULT_WRITE : 0),
				&mem_busy, 1),
			 hot ? TP_PROMOTE : TP_REFUSE_COLD);
}

/* Latencies around th and 2 th, reads and writes, doubling on and off. */
static void test_hotness_sweep(void **state)
{
	u32 preset, wd, wr;
	u64 lat;

	(void)state;
	for (preset = 0; preset <= 1; preset++) {
		for (wd = 0; wd <= 1; wd++) {
			for (wr = 0; wr <= 1; wr++) {
				for (lat = 0; lat <= 3000; lat += 50) {
					hotness_case(preset, wd, wr, lat);
					hotness_case(preset, wd, wr, lat + 1);
					/* 0 - 1: TP_LATENCY_UNKNOWN */
					hotness_case(preset, wd, wr, lat - 1);
				}
			}
		}
	}
}

static void test_young_check(void **state)
{
	struct env e;
	u32 preset, yflag, young;
	int v;

	(void)state;
	for (preset = 0; preset <= 1; preset++) {
		for (yflag = 0; yflag <= 1; yflag++) {
			for (young = 0; young <= 1; young++) {
				env_preset(&e, preset);
				if (yflag)
					e.cfg.flags |= TP_POL_YOUNG;
				else
					e.cfg.flags &= ~TP_POL_YOUNG;
				env_init(&e, 0);
				v = decide(&e, 10, 1,
					   young ? TP_FAULT_YOUNG : 0,
					   &mem_busy, 1);
				assert_int_equal(v, yflag && !young ?
						 TP_REFUSE_NOT_YOUNG :
						 TP_PROMOTE);
				/* the bypass comes first */
				v = decide(&e, 10, 1,
					   young ? TP_FAULT_YOUNG : 0,
					   &mem_idle, 1);
				assert_int_equal(v, TP_PROMOTE_NRL);
			}
		}
	}
}

/* ---- rate limit and the adaptive threshold ------------------------------- */

static void test_burst_cut_per_window(void **state)
{
	struct env e;
	struct tp_node_stats s;
	u64 now, cand = 0;
	int w, k, prom, v;
	u32 limv;

	(void)state;
	for (limv = 0; limv <= 2; limv++) {
		env_preset(&e, TP_PRESET_LINUX61);
		e.cfg.rate_limit_mbps = 1;	/* 256 pages/s */
		e.cfg.limiter_variant = limv;
		env_init(&e, 0);
		cand = 0;
		for (w = 0; w < 10; w++) {
			/*
			 * A burst of 1000 singles, once a second + 1 tick;
			 * the burst's first page opens each window, the
			 * first window too (expired since the init).
			 */
			now = w * 1001;
			for (k = 0, prom = 0; k < 1000; k++) {
				v = decide(&e, 1, 1, 0, &mem_busy, now);
				assert_true(v == TP_PROMOTE ||
					    v == TP_REFUSE_RATELIMIT);
				prom += v == TP_PROMOTE;
			}
			cand += 1000;
			if (limv == TP_LIMITER_BUCKET)
				/* refilled 256.256 pages/1001 ms */
				assert_in_range(prom, 256, 257);
			else	/* the first too: opener + limit (RFC) or - 1 */
				assert_int_equal(prom, limv == 1 ? 257 : 256);
		}
		s = stats(&e);
		assert_int_equal(s.candidate, cand);
		assert_int_equal(s.verdict[TP_PROMOTE] +
				 s.verdict[TP_REFUSE_RATELIMIT], cand);
	}
}

static void adaptive_run(u32 preset, u64 lo, u64 hi)
{
	struct env e;
	struct tp_node_stats s;
	u64 now, prev, lowered = 0, raised = 0;
	int p, k;

	env_preset(&e, preset);
	e.cfg.rate_limit_mbps = 1;		/* 256 per 1000 ms period */
	e.cfg.scan_period_max_ms = 1000;
	env_init(&e, 0);
	prev = stats(&e).threshold;
	assert_int_equal(prev, 1000);
	/* sustained over-demand: 1000 hot faults per period */
	for (p = 0; p < 40; p++) {
		now = 1 + p * 1001;
		for (k = 0; k < 1000; k++)
			decide(&e, 0, 1, TP_FAULT_YOUNG, &mem_busy, now);
		s = stats(&e);
		assert_in_range(s.threshold, lo, hi);
		assert_true(s.threshold <= prev);
		lowered += s.threshold < prev;
		prev = s.threshold;
	}
	s = stats(&e);
	assert_int_equal(s.threshold, lo);
	assert_int_equal(s.th_lowered, lowered);
	assert_int_equal(s.th_raised, 0);
	/* demand drops to 10 faults per period */
	for (p = 40; p < 100; p++) {
		now = 1 + p * 1001;
		for (k = 0; k < 10; k++)
			decide(&e, 0, 1, TP_FAULT_YOUNG, &mem_busy, now);
		s = stats(&e);
		assert_in_range(s.threshold, lo, hi);
		assert_true(s.threshold >= prev);
		raised += s.threshold > prev;
		prev = s.threshold;
	}
	s = stats(&e);
	assert_int_equal(s.threshold, hi);
	assert_int_equal(s.th_raised, raised);
	assert_int_equal(s.th_lowered, lowered);
	assert_true(lowered >= 7 && raised >= 15);
}

static void test_adaptive_falls_and_rises(void **state)
{
	(void)state;
	adaptive_run(TP_PRESET_RFC2020, 62, 1000);
	adaptive_run(TP_PRESET_LINUX61, 125, 2000);
}

static void test_adaptive_off_fixed_threshold(void **state)
{
	struct env e;
	int p, k;

	(void)state;
	env_preset(&e, TP_PRESET_LINUX61);
	e.cfg.flags &= ~(TP_POL_ADAPTIVE | TP_POL_BYPASS_RESET);
	e.cfg.rate_limit_mbps = 1;
	e.cfg.scan_period_max_ms = 1000;
	env_init(&e, 0);
	for (p = 0; p < 20; p++)
		for (k = 0; k < 1000; k++)
			decide(&e, 0, 1, 0, &mem_busy, 1 + p * 1001);
	/* still 1000 ms: 999 is hot, 1000 is not */
	assert_int_equal(decide(&e, 999, 1, 0, &mem_busy, 30000), TP_PROMOTE);
	assert_int_equal(decide(&e, 1000, 1, 0, &mem_busy, 30000),
			 TP_REFUSE_COLD);
	assert_int_equal(stats(&e).threshold, 1000);
	assert_int_equal(stats(&e).th_lowered, 0);
}

/* ---- mode, tier, room ---------------------------------------------------- */

static void test_mode_never_promotes(void **state)
{
	static const u32 modes[] = { TP_MODE_DISABLED, TP_MODE_NORMAL };
	struct env e;
	struct tp_node_stats s;
	size_t i;
	u64 n = 0, nr;
	int k;

	(void)state;
	for (i = 0; i < 2; i++) {
		env_preset(&e, i ? TP_PRESET_LINUX61 : TP_PRESET_RFC2020);
		e.cfg.mode = modes[i];
		env_init(&e, 0);
		n = 0;
		for (k = 0; k < 5000; k++) {
			nr = rnd_range(1, 512);
			assert_int_equal(decide(&e, rnd_range(0, 2000), nr,
						(u32)rnd() & 0xf,
						k & 1 ? &mem_idle : &mem_busy,
						k), TP_REFUSE_MODE);
			n += nr;
		}
		s = stats(&e);
		assert_int_equal(s.verdict[TP_REFUSE_MODE], n);
		assert_int_equal(s.decided, n);
		assert_int_equal(s.candidate, 0);
		assert_int_equal(s.candidate_nrl, 0);
	}
}

static void test_toptier_refused(void **state)
{
	struct env e;
	u32 preset;
	int k;

	(void)state;
	for (preset = 0; preset <= 1; preset++) {
		env_preset(&e, preset);
		e.cfg.mode = TP_MODE_NORMAL | TP_MODE_TIERING;
		env_init(&e, 0);
		for (k = 0; k < 100; k++)
			assert_int_equal(decide(&e, 0, 1, TP_FAULT_TOPTIER |
						TP_FAULT_YOUNG | TP_FAULT_WRITE,
						k & 1 ? &mem_idle : &mem_busy,
						k), TP_REFUSE_TOPTIER);
		assert_int_equal(stats(&e).verdict[TP_REFUSE_TOPTIER], 100);
	}
}

static void test_nospace_strict(void **state)
{
	static const u64 nrs[] = { 1, 16, 512 };
	struct env e;
	struct tp_node_mem m = mem_busy;
	size_t i;
	u64 free;
	int v;

	(void)state;
	for (i = 0; i < 3; i++) {
		for (free = m.wmark_high - 3; free <= m.wmark_high + nrs[i] + 3;
		     free++) {
			env_preset(&e, TP_PRESET_LINUX61);
			env_init(&e, 0);
			m.free = free;
			v = decide(&e, 0, nrs[i], 0, &m, 1);
			/* zone_watermark_ok(): free > high + nr */
			assert_int_equal(v, free > m.wmark_high + nrs[i] ?
					 TP_PROMOTE : TP_REFUSE_NOSPACE);
			assert_int_equal(tp_promote_room(&m, nrs[i]),
					 free > m.wmark_high + nrs[i]);
		}
	}
}

static void test_nospace_on_bypass_path(void **state)
{
	struct env e;
	struct tp_node_stats s;
	struct tp_node_mem m = mem_busy;

	(void)state;
	/* the RFC, 1 MB/s: bypass above high + 512; a 1024-page folio */
	env_preset(&e, TP_PRESET_RFC2020);
	e.cfg.rate_limit_mbps = 1;
	env_init(&e, 0);
	m.free = m.wmark_high + 513;
	assert_true(tp_free_space_enough(&e.pol, &m));
	assert_int_equal(decide(&e, TP_LATENCY_UNKNOWN, 1024, 0, &m, 1),
			 TP_REFUSE_NOSPACE);
	assert_int_equal(decide(&e, TP_LATENCY_UNKNOWN, 512, 0, &m, 1),
			 TP_PROMOTE_NRL);
	s = stats(&e);
	assert_int_equal(s.verdict[TP_REFUSE_NOSPACE], 1024);
	assert_int_equal(s.candidate_nrl, 1024 + 512);
	assert_int_equal(s.verdict[TP_PROMOTE_NRL], 512);
	assert_int_equal(s.candidate, 0);
}

/* ---- 2020 RFC 2/8: rate limit 0 is the high watermark -------------------- */

static void test_rl_wmark_default_retunes(void **state)
{
	struct env e;
	struct tp_node_mem m = mem_busy;
	int k, prom;

	(void)state;
	env_preset(&e, TP_PRESET_RFC2020);
	env_init(&e, 0);
	/*
	 * high 300: 300 pages per window, after the page that opens it;
	 * no bypass below 3 x high
	 */
	m.wmark_min = 50;
	m.wmark_low = 100;
	m.wmark_high = 300;
	m.wmark_promo = 300;
	m.free = 800;
	for (k = 0, prom = 0; k < 400; k++)
		prom += decide(&e, 0, 1, TP_FAULT_YOUNG, &m, 1) == TP_PROMOTE;
	assert_int_equal(prom, 1 + 300);
	assert_int_equal(tp_demotion_target(&e.pol, &m), 600);
	/* the watermark moves to 500: a new window admits opener + 500 */
	m.wmark_high = 500;
	m.wmark_promo = 500;
	m.free = 1400;
	for (k = 0, prom = 0; k < 600; k++)
		prom += decide(&e, 0, 1, TP_FAULT_YOUNG, &m, 2000) ==
			TP_PROMOTE;
	assert_int_equal(prom, 501);
	assert_int_equal(tp_demotion_target(&e.pol, &m), 1000);
	/* the bypass mark moved with it: 3 x 500 */
	m.free = 1500;
	assert_false(tp_free_space_enough(&e.pol, &m));
	m.free = 1501;
	assert_true(tp_free_space_enough(&e.pol, &m));
	assert_int_equal(decide(&e, TP_LATENCY_UNKNOWN, 1, 0, &m, 2001),
			 TP_PROMOTE_NRL);
}

/*
 * The high watermark default is clamped to TP_RATE_MAX (2^32) pages per
 * second: at a high watermark of 2^33 the rate in force is 2^32, so the
 * demotion target is high + 2^32 and the RFC's bypass mark high + 2 x 2^32.
 */
static void test_rl_wmark_default_clamped(void **state)
{
	struct env e;
	struct tp_node_mem m = {
		.free = 0, .wmark_min = 1, .wmark_low = 2,
		.wmark_high = 1ULL << 33, .wmark_promo = 1ULL << 33,
		.present = 1ULL << 40,
	};

	(void)state;
	env_preset(&e, TP_PRESET_RFC2020);
	assert_int_equal(e.cfg.rate_limit_mbps, 0);
	assert_true(e.cfg.flags & TP_POL_RL_WMARK_DEFAULT);
	env_init(&e, 0);
	assert_int_equal(tp_demotion_target(&e.pol, &m),
			 (1ULL << 33) + TP_RATE_MAX);
	m.free = (1ULL << 33) + 2 * TP_RATE_MAX;
	assert_false(tp_free_space_enough(&e.pol, &m));
	m.free++;
	assert_true(tp_free_space_enough(&e.pol, &m));
	/* at the clamp exactly: the watermark itself */
	m.wmark_high = TP_RATE_MAX;
	assert_int_equal(tp_demotion_target(&e.pol, &m), 2 * TP_RATE_MAX);
}

/*
 * Pages above 1 MiB: a non-zero limit below one page a second is one page
 * a second, never the meaning of 0. 1 MB/s of 2 MiB pages truncated to 0
 * pages: the RFC's preset then took the high watermark per second (a
 * demotion target of 2 x high), Linux 6.1's refused every promotion.
 */
static void test_rate_below_one_page(void **state)
{
	struct env e;
	struct tp_node_mem m = {
		.free = 0, .wmark_min = 10, .wmark_low = 20,
		.wmark_high = 50000, .wmark_promo = 0, .present = 1 << 20,
	};
	int k, prom;

	(void)state;
	env_preset(&e, TP_PRESET_RFC2020);
	e.cfg.page_shift = 21;
	e.cfg.rate_limit_mbps = 1;
	env_init(&e, 0);
	assert_int_equal(tp_demotion_target(&e.pol, &m), 50000 + 1);
	m.free = 50000 + 2;
	assert_false(tp_free_space_enough(&e.pol, &m));
	m.free = 50000 + 3;
	assert_true(tp_free_space_enough(&e.pol, &m));
	/* 0 keeps its meaning: the high watermark per second */
	e.cfg.rate_limit_mbps = 0;
	env_tune(&e);
	assert_int_equal(tp_demotion_target(&e.pol, &m), 2 * 50000);

	env_preset(&e, TP_PRESET_LINUX61);
	e.cfg.page_shift = 21;
	e.cfg.rate_limit_mbps = 1;
	env_init(&e, 0);
	m.free = 60000;
	/* one hot fault every 10 ms for 10 s: one page per window */
	for (k = 0, prom = 0; k < 1000; k++)
		prom += decide(&e, 1, 1, 0, &m, 2000 + 10 * k) == TP_PROMOTE;
	assert_true(prom >= 5 && prom <= 10);
}

/* ---- presets side by side ------------------------------------------------ */

static void test_presets_differ(void **state)
{
	static const struct {
		const char *what;
		u64 latency;
		u32 flags;
		u64 free;
		int rfc, linux61;
	} rows[] = {
		{ "hot young read", 500, TP_FAULT_YOUNG, 20000,
		  TP_PROMOTE, TP_PROMOTE },
		{ "latency == th", 1000, TP_FAULT_YOUNG, 20000,
		  TP_PROMOTE, TP_REFUSE_COLD },
		{ "not young", 500, 0, 20000,
		  TP_REFUSE_NOT_YOUNG, TP_PROMOTE },
		{ "write at 1.5 th", 1500, TP_FAULT_YOUNG | TP_FAULT_WRITE,
		  20000, TP_PROMOTE, TP_REFUSE_COLD },
		{ "cold, 40000 free", TP_LATENCY_UNKNOWN, 0, 40000,
		  TP_PROMOTE_NRL, TP_REFUSE_COLD },
		{ "cold, 300000 free", TP_LATENCY_UNKNOWN, 0, 300000,
		  TP_PROMOTE_NRL, TP_PROMOTE_NRL },
		{ "cold young", 1001, TP_FAULT_YOUNG, 20000,
		  TP_REFUSE_COLD, TP_REFUSE_COLD },
		{ "no room", 0, TP_FAULT_YOUNG, 10001,
		  TP_REFUSE_NOSPACE, TP_REFUSE_NOSPACE },
	};
	struct env e;
	struct tp_node_mem m = mem_busy;
	size_t i;
	u32 preset;
	int differ = 0;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		m.free = rows[i].free;
		for (preset = 0; preset <= 1; preset++) {
			env_preset(&e, preset);
			env_init(&e, 0);
			assert_int_equal(decide(&e, rows[i].latency, 1,
						rows[i].flags, &m, 1),
					 preset ? rows[i].linux61 :
						  rows[i].rfc);
		}
		differ += rows[i].rfc != rows[i].linux61;
	}
	assert_int_equal(differ, 4);

	/*
	 * The rate limits: the high watermark vs 65536 MB/s (the RFC's
	 * window admits its opener and 10000 more).
	 */
	m.free = 20000;
	for (preset = 0; preset <= 1; preset++) {
		int k, prom = 0;

		env_preset(&e, preset);
		env_init(&e, 0);
		for (k = 0; k < 12000; k++)
			prom += decide(&e, 0, 1, TP_FAULT_YOUNG, &m, 1) ==
				TP_PROMOTE;
		assert_int_equal(prom, preset ? 12000 : 1 + 10000);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_selftest_vectors),
		cmocka_unit_test(test_preset_contents),
		cmocka_unit_test(test_preset_writes_struct_only),
		cmocka_unit_test(test_init_validation),
		cmocka_unit_test(test_bypass_on_promotes_cold),
		cmocka_unit_test(test_bypass_off_goes_through_checks),
		cmocka_unit_test(test_bypass_reset_keeps_period),
		cmocka_unit_test(test_hotness_sweep),
		cmocka_unit_test(test_young_check),
		cmocka_unit_test(test_burst_cut_per_window),
		cmocka_unit_test(test_adaptive_falls_and_rises),
		cmocka_unit_test(test_adaptive_off_fixed_threshold),
		cmocka_unit_test(test_mode_never_promotes),
		cmocka_unit_test(test_toptier_refused),
		cmocka_unit_test(test_nospace_strict),
		cmocka_unit_test(test_nospace_on_bypass_path),
		cmocka_unit_test(test_rl_wmark_default_retunes),
		cmocka_unit_test(test_rl_wmark_default_clamped),
		cmocka_unit_test(test_rate_below_one_page),
		cmocka_unit_test(test_presets_differ),
	};

	return cmocka_run_group_tests_name("policy", tests, NULL, NULL);
}
