// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * CMocka tests of the promotion decision pipeline (lib/policy.c,
 * lib/decide.c, lib/wmark.c): the shared self-test vectors, then scenario
 * tests per claim of the sources (docs/SOURCES.md), sweeps, randomized
 * statistics checks, and tunes of a live policy. The concurrent tests are
 * in test_policy_mt.c.
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

static void st_report(struct tp_st *st, bool ok, const char *name, int line)
{
	(void)st;
	if (!ok)
		print_error("selftest/{policy,decide,wmark}.h:%d: FAILED: %s\n",
			    line, name);
}

static void test_selftest_vectors(void **state)
{
	struct tp_st st = { .suite = "policy", .report = st_report };

	(void)state;
	assert_int_equal(tp_st_policy(&st), 0);
	assert_int_equal(st.failed, 0);
	assert_true(st.run >= 150);
}

/* xorshift64*: reproducible */
static u64 rng_state = 0x2545f4914f6cdd1dULL;

static u64 rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 2685821657736338717ULL;
}

static u64 rnd_range(u64 lo, u64 hi)
{
	return lo + rnd() % (hi - lo + 1);
}

/*
 * floor(a * b / c), and whether it fits 64 bits: a 128-bit schoolbook
 * product and binary long division. A reference independent of the
 * library's arithmetic that also builds for i386 (no __int128).
 */
static u64 muldiv(u64 a, u64 b, u64 c, bool *fits)
{
	u64 hi = 0, lo = 0, q = 0, r = 0, n;
	bool top;
	int i;

	for (i = 63; i >= 0; i--) {
		hi = hi << 1 | lo >> 63;
		lo <<= 1;
		if (b >> i & 1) {
			n = lo + a;
			hi += n < lo;
			lo = n;
		}
	}
	*fits = true;
	for (i = 127; i >= 0; i--) {
		top = r >> 63;
		r = r << 1 | ((i >= 64 ? hi >> (i - 64) : lo >> i) & 1);
		if (top || r >= c) {
			r -= c;
			if (i >= 64)
				*fits = false;
			else
				q |= 1ULL << i;
		}
	}
	return q;
}

/*
 * A policy, one node and the slot of the one thread deciding, set up from a
 * preset at 1000 ticks/s. The candidate batch is 1, so that the window
 * limiters and the threshold controller see every candidate at once and
 * the scenarios below have exact answers; the batch's lag has its own
 * tests (selftest/policy.h, test_policy_mt.c).
 */
struct env {
	struct tp_policy_cfg cfg;
	struct tp_policy pol;
	struct tp_node node;
	struct tp_node_cpu cpu;
};

static void env_preset(struct env *e, u32 preset)
{
	/* padding too: the tests compare whole objects */
	memset(e, 0, sizeof(*e));
	assert_int_equal(tp_policy_preset(&e->cfg, preset, 1000), 0);
	e->cfg.cand_batch = 1;
}

static void env_init(struct env *e, u64 now)
{
	assert_int_equal(tp_policy_init(&e->pol, &e->cfg), 0);
	assert_int_equal(tp_node_init(&e->node, &e->pol, now), 0);
	memset(&e->cpu, 0, sizeof(e->cpu));
}

/* Publish e->cfg on the live policy. */
static void env_tune(struct env *e)
{
	assert_int_equal(tp_policy_tune(&e->pol, &e->cfg), 0);
}

/*
 * A snapshot of the node and its slot; every snapshot is checked for what
 * holds of any: decided is the sum of the verdicts, the candidates are the
 * hot promotions, rate-limit refusals, refusals for room off the bypass
 * and (at most) the busy refusals, nothing is negative.
 */
static struct tp_node_stats stats(const struct env *e)
{
	struct tp_node_stats s;
	u64 sum = 0, hot;
	int v;

	memset(&s, 0xa5, sizeof(s));
	tp_node_stats(&e->pol, &e->node, &s);
	tp_node_stats_add(&s, &e->cpu);
	for (v = 0; v < TP_NR_VERDICTS; v++)
		sum += s.verdict[v];
	assert_true(s.decided == sum);
	assert_true(s.nospace_nrl <= s.verdict[TP_REFUSE_NOSPACE]);
	hot = s.verdict[TP_PROMOTE] + s.verdict[TP_REFUSE_RATELIMIT] +
	      s.verdict[TP_REFUSE_NOSPACE] - s.nospace_nrl;
	assert_true(s.candidate >= hot);
	assert_true(s.candidate - hot <= s.verdict[TP_REFUSE_BUSY]);
	assert_true(s.candidate_nrl ==
		    s.verdict[TP_PROMOTE_NRL] + s.nospace_nrl);
	assert_true(s.success ==
		    s.verdict[TP_PROMOTE] + s.verdict[TP_PROMOTE_NRL]);
	assert_true(s.cand_shared <= s.candidate);
	return s;
}

static int decide(struct env *e, u64 latency, u64 nr, u32 flags,
		  const struct tp_node_mem *mem, u64 now)
{
	struct tp_fault f = { .latency = latency, .nr_pages = nr,
			      .flags = flags };

	return tp_decide(&e->pol, &e->node, &e->cpu, &f, mem, now);
}

/*
 * Room for a page (free > high + 1), and no free-space bypass for either
 * preset at any rate of 1 MB/s or more (RFC mark: high + 2 x 256 pages).
 */
static const struct tp_node_mem mem_busy = {
	.free = 10400, .wmark_min = 2500, .wmark_low = 5000,
	.wmark_high = 10000, .wmark_promo = 12000, .present = 1000000,
};

/* The bypass applies for both presets (at rates up to 100 MB/s). */
static const struct tp_node_mem mem_idle = {
	.free = 1000000, .wmark_min = 2500, .wmark_low = 5000,
	.wmark_high = 10000, .wmark_promo = 12000, .present = 1000000,
};

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
	assert_int_equal(tp_policy_init(&p, &c), 0);
}

static void test_init_validation(void **state)
{
	struct tp_policy_cfg c;
	struct tp_policy p, copy;
	u32 bit, shift;

	(void)state;
	/* every undefined flag bit */
	for (bit = 8; bit < 32; bit++) {
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
		/* hot pages: candidates, cut at the rate limit */
		for (k = 0, prom = 0; k < 1000; k++)
			prom += decide(&e, 5, 1, TP_FAULT_YOUNG, &mem_idle,
				       2) == TP_PROMOTE;
		s = stats(&e);
		assert_int_equal(prom, preset ? 255 : 256);
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
			/* a burst of 1000 singles, once a second + 1 tick */
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
			else if (!w)	/* the window opened at init */
				assert_int_equal(prom, limv == 1 ? 256 : 255);
			else		/* opener + limit (RFC) or - 1 */
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
	/* high 300: 300 pages per window; no bypass below 3 x high */
	m.wmark_min = 50;
	m.wmark_low = 100;
	m.wmark_high = 300;
	m.wmark_promo = 300;
	m.free = 800;
	for (k = 0, prom = 0; k < 400; k++)
		prom += decide(&e, 0, 1, TP_FAULT_YOUNG, &m, 1) == TP_PROMOTE;
	assert_int_equal(prom, 300);
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

	/* the rate limits: the high watermark vs 65536 MB/s */
	m.free = 20000;
	for (preset = 0; preset <= 1; preset++) {
		int k, prom = 0;

		env_preset(&e, preset);
		env_init(&e, 0);
		for (k = 0; k < 12000; k++)
			prom += decide(&e, 0, 1, TP_FAULT_YOUNG, &m, 1) ==
				TP_PROMOTE;
		assert_int_equal(prom, preset ? 12000 : 10000);
	}
}

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

/* ---- statistics ---------------------------------------------------------- */

static void test_stats_add_up_random(void **state)
{
	static const struct tp_node_mem mems[] = {
		{ 20000, 2500, 5000, 10000, 12000, 1000000 },
		{ 1000000, 2500, 5000, 10000, 12000, 1000000 },
		{ 10100, 2500, 5000, 10000, 12000, 1000000 },
		{ 35000, 2500, 5000, 10000, 12000, 1000000 },
		{ 500, 100, 200, 300, 400, 1000 },
	};
	struct env e;
	struct tp_node_stats s;
	u64 tally[TP_NR_VERDICTS], cand, nrl, decided, nr, now;
	const struct tp_node_mem *m;
	int run, k, v;

	(void)state;
	for (run = 0; run < 40; run++) {
		env_preset(&e, run & 1);
		e.cfg.rate_limit_mbps = (u32)rnd_range(0, 4);
		e.cfg.scan_period_max_ms = (u32)rnd_range(1, 500);
		e.cfg.mode = (u32)rnd_range(0, 9) ? TP_MODE_TIERING :
						     TP_MODE_NORMAL;
		e.cfg.limiter_variant = (u32)rnd_range(0, 2);
		/* the bucket takes no per-fault rate: an error otherwise */
		if (e.cfg.limiter_variant == TP_LIMITER_BUCKET)
			e.cfg.flags &= ~TP_POL_RL_WMARK_DEFAULT;
		e.cfg.cand_batch = (u32)rnd_range(0, 40);
		if (run & 2)
			e.cfg.flags &= ~(TP_POL_FREE_BYPASS |
					 TP_POL_BYPASS_RESET);
		env_init(&e, 0);
		memset(tally, 0, sizeof(tally));
		cand = 0;
		nrl = 0;
		decided = 0;
		now = 0;
		for (k = 0; k < 20000; k++) {
			m = &mems[rnd_range(0, 4)];
			nr = rnd_range(0, 4) ? 1 : 512;
			now += rnd_range(0, 20);
			v = decide(&e, rnd_range(0, 9) ?
				   rnd_range(0, 3000) : TP_LATENCY_UNKNOWN,
				   nr, (u32)rnd() & 0x7 &
				   (rnd_range(0, 20) ? ~TP_FAULT_TOPTIER : ~0U),
				   m, now);
			assert_in_range(v, 0, TP_NR_VERDICTS - 1);
			tally[v] += nr;
			decided += nr;
			if (v == TP_PROMOTE_NRL ||
			    (v == TP_REFUSE_NOSPACE &&
			     (e.cfg.flags & TP_POL_FREE_BYPASS) &&
			     tp_free_space_enough(&e.pol, m)))
				nrl += nr;
			else if (v == TP_PROMOTE || v == TP_REFUSE_RATELIMIT ||
				 v == TP_REFUSE_NOSPACE)
				cand += nr;
			/* invalid calls are counted nowhere */
			if (!rnd_range(0, 50))
				assert_int_equal(decide(&e, 1, 0, 0, m, now),
						 -EINVAL);
		}
		s = stats(&e);
		assert_int_equal(s.decided, decided);
		for (v = 0; v < TP_NR_VERDICTS; v++)
			assert_int_equal(s.verdict[v], tally[v]);
		assert_int_equal(s.candidate, cand);
		assert_int_equal(s.candidate_nrl, nrl);
		assert_int_equal(s.nospace_nrl, nrl - tally[TP_PROMOTE_NRL]);
		assert_int_equal(s.success,
				 tally[TP_PROMOTE] + tally[TP_PROMOTE_NRL]);
		assert_int_equal(tally[TP_REFUSE_BUSY], 0);
		/* one slot: the shared count lags by less than a batch */
		assert_true(s.cand_shared <= cand);
		assert_true(cand - s.cand_shared <
			    (e.cfg.cand_batch ? e.cfg.cand_batch : 1));
	}
}

/* ---- tunes of a live policy ---------------------------------------------- */

/*
 * A tune publishes at once (there is no per-node sync any more) and keeps
 * the bucket's time to refill: drained at 256 pages/s (1 s of debt), then
 * retuned to 512 pages/s, the bucket still owes 1 s: nothing at once, 256
 * pages 500 ms later (at the new rate, not 128), and 256 more 500 ms after.
 */
static void test_tune_rate_keeps_time_to_refill(void **state)
{
	struct env e;
	int k, prom;

	(void)state;
	env_preset(&e, TP_PRESET_LINUX61);
	e.cfg.rate_limit_mbps = 1;		/* 256/s, burst 256 */
	e.cfg.limiter_variant = TP_LIMITER_BUCKET;
	env_init(&e, 0);
	for (k = 0, prom = 0; k < 1000; k++)
		prom += decide(&e, 0, 1, 0, &mem_busy, 10) == TP_PROMOTE;
	assert_int_equal(prom, 256);
	e.cfg.rate_limit_mbps = 2;
	env_tune(&e);
	assert_int_equal(decide(&e, 0, 1, 0, &mem_busy, 10),
			 TP_REFUSE_RATELIMIT);
	for (k = 0, prom = 0; k < 1000; k++)
		prom += decide(&e, 0, 1, 0, &mem_busy, 510) == TP_PROMOTE;
	assert_int_equal(prom, 256);
	for (k = 0, prom = 0; k < 1000; k++)
		prom += decide(&e, 0, 1, 0, &mem_busy, 1010) == TP_PROMOTE;
	assert_int_equal(prom, 256);
	/* back to 256/s: half a second refills 128 */
	e.cfg.rate_limit_mbps = 1;
	env_tune(&e);
	for (k = 0, prom = 0; k < 1000; k++)
		prom += decide(&e, 0, 1, 0, &mem_busy, 1510) == TP_PROMOTE;
	assert_int_equal(prom, 128);
	assert_int_equal(stats(&e).verdict[TP_PROMOTE], 256 * 3 + 128);
}

/*
 * Changing the limiter variant keeps the candidate count and the threshold
 * controller's period: each 1000 ms period brings 250 candidates at
 * 1 MB/s (within 90..110 % of 256), whatever the variant deciding them, so
 * no period sees a jump and the threshold never moves.
 */
static void test_tune_variant_keeps_candidates(void **state)
{
	static const u32 variants[] = {
		TP_LIMITER_WINDOW_LINUX61, TP_LIMITER_BUCKET,
		TP_LIMITER_WINDOW_RFC2020, TP_LIMITER_WINDOW_LINUX61,
		TP_LIMITER_BUCKET, TP_LIMITER_WINDOW_RFC2020,
	};
	struct tp_node_stats st;
	struct env e;
	u64 cand = 0, now;
	unsigned int i;
	int k, v;

	(void)state;
	env_preset(&e, TP_PRESET_LINUX61);
	e.cfg.rate_limit_mbps = 1;		/* 256 pages/s */
	e.cfg.scan_period_max_ms = 1000;
	e.cfg.limiter_variant = variants[0];
	env_init(&e, 0);
	for (i = 0; i < TP_ST_ARRAY_SIZE(variants); i++) {
		now = 1 + 1001 * (u64)i;
		if (i) {
			e.cfg.limiter_variant = variants[i];
			env_tune(&e);
		}
		for (k = 0; k < 250; k++) {
			v = decide(&e, 0, 1, 0, &mem_busy, now + (u64)k);
			assert_true(v == TP_PROMOTE ||
				    v == TP_REFUSE_RATELIMIT);
			cand++;
		}
		st = stats(&e);
		assert_true(st.candidate == cand && st.cand_shared == cand);
		assert_true(st.verdict[TP_PROMOTE] +
			    st.verdict[TP_REFUSE_RATELIMIT] == cand);
		assert_true(st.decided == cand);
		assert_int_equal(st.th_lowered, 0);
		assert_int_equal(st.th_raised, 0);
		assert_int_equal(st.threshold, 1000);
	}
	/*
	 * The last period closes (kept: its 250 candidates), then one
	 * without candidates raises the threshold: the count moved on.
	 */
	now = 1 + 1001 * 6 + 2002;
	assert_int_equal(decide(&e, 5000, 1, 0, &mem_busy, now),
			 TP_REFUSE_COLD);
	assert_int_equal(stats(&e).th_raised, 0);
	assert_int_equal(decide(&e, 5000, 1, 0, &mem_busy, now + 1001),
			 TP_REFUSE_COLD);
	assert_int_equal(stats(&e).th_raised, 1);
}

/*
 * An unrelated sysctl write (the hot threshold) keeps the bucket drained;
 * the watermark default of the rate limit is refused with the bucket,
 * by init and by tune, and such a tune changes nothing.
 */
static void test_tune_keeps_bucket(void **state)
{
	struct env e;
	struct tp_policy copy;
	int k, prom;

	(void)state;
	env_preset(&e, TP_PRESET_LINUX61);
	e.cfg.rate_limit_mbps = 1;
	e.cfg.limiter_variant = TP_LIMITER_BUCKET;
	env_init(&e, 0);
	for (k = 0, prom = 0; k < 400; k++)
		prom += decide(&e, 0, 1, 0, &mem_busy, 1) == TP_PROMOTE;
	assert_int_equal(prom, 256);
	e.cfg.hot_threshold_ms = 900;
	env_tune(&e);
	assert_int_equal(decide(&e, 0, 1, 0, &mem_busy, 1),
			 TP_REFUSE_RATELIMIT);
	assert_int_equal(stats(&e).threshold, 900);
	/* and refills at 256/s */
	for (k = 0, prom = 0; k < 400; k++)
		prom += decide(&e, 0, 1, 0, &mem_busy, 501) == TP_PROMOTE;
	assert_int_equal(prom, 128);

	memcpy(&copy, &e.pol, sizeof(copy));
	e.cfg.flags |= TP_POL_RL_WMARK_DEFAULT;
	assert_int_equal(tp_policy_tune(&e.pol, &e.cfg), -EINVAL);
	assert_memory_equal(&copy, &e.pol, sizeof(copy));
	assert_int_equal(tp_policy_init(&e.pol, &e.cfg), -EINVAL);
	assert_memory_equal(&copy, &e.pol, sizeof(copy));
	e.cfg.rate_limit_mbps = 0;
	assert_int_equal(tp_policy_init(&e.pol, &e.cfg), -EINVAL);
	/* the RFC preset with the bucket: the same */
	assert_int_equal(tp_policy_preset(&e.cfg, TP_PRESET_RFC2020, 1000), 0);
	e.cfg.limiter_variant = TP_LIMITER_BUCKET;
	assert_int_equal(tp_policy_init(&e.pol, &e.cfg), -EINVAL);
	assert_memory_equal(&copy, &e.pol, sizeof(copy));
	/* a tune with another clock */
	assert_int_equal(tp_policy_preset(&e.cfg, TP_PRESET_LINUX61, 1001), 0);
	assert_int_equal(tp_policy_tune(&e.pol, &e.cfg), -EINVAL);
	assert_memory_equal(&copy, &e.pol, sizeof(copy));
}

/*
 * burst_pages sizes the token bucket; 0 is one second of the rate. A THP
 * larger than the burst is admitted when the bucket is full, and owed.
 */
static void test_policy_burst_pages(void **state)
{
	static const u64 bursts[] = { 0, 1, 100, 511, 512, 5000 };
	struct tp_node_mem m = mem_busy;
	struct env e;
	size_t i;
	int k, prom;
	u64 burst;

	(void)state;
	m.free = 20000;		/* room for a THP, no 6.1 bypass */
	for (i = 0; i < sizeof(bursts) / sizeof(bursts[0]); i++) {
		env_preset(&e, TP_PRESET_LINUX61);
		e.cfg.rate_limit_mbps = 1;	/* 256 pages/s */
		e.cfg.limiter_variant = TP_LIMITER_BUCKET;
		e.cfg.burst_pages = bursts[i];
		env_init(&e, 0);
		burst = bursts[i] ? bursts[i] : 256;
		for (k = 0, prom = 0; k < 6000; k++)
			prom += decide(&e, 0, 1, 0, &mem_busy, 7) == TP_PROMOTE;
		assert_int_equal(prom, burst);
		/* idle, so full: a THP is admitted whatever the burst */
		assert_int_equal(decide(&e, 0, 512, 0, &m, 1000000),
				 TP_PROMOTE);
		/* a page more fits only a burst above 512 */
		assert_int_equal(decide(&e, 0, 1, 0, &m, 1000000),
				 burst > 512 ? TP_PROMOTE :
					       TP_REFUSE_RATELIMIT);
		/* 1 s later 256 pages came back: a second THP fits 768 */
		assert_int_equal(decide(&e, 0, 512, 0, &m, 1001000),
				 burst >= 768 + (burst > 512) ? TP_PROMOTE :
				 TP_REFUSE_RATELIMIT);
	}
}

/*
 * tp_node_reset() after a tune that switched tiering on, as the kernel's
 * sysctl handler calls reset_memory_tiering(): the adjusted threshold is
 * forgotten and the period restarts at the reset.
 */
static void test_reset_after_tiering_on(void **state)
{
	struct env e;
	struct tp_node_stats s;
	int k;

	(void)state;
	env_preset(&e, TP_PRESET_LINUX61);
	e.cfg.rate_limit_mbps = 1;
	e.cfg.scan_period_max_ms = 100;
	env_init(&e, 0);
	for (k = 0; k < 100; k++)
		decide(&e, 0, 1, 0, &mem_busy, 5);
	decide(&e, 0, 1, 0, &mem_busy, 101);
	assert_int_equal(stats(&e).threshold, 875);

	/* a tune that keeps tiering on keeps the adjusted threshold */
	e.cfg.hot_threshold_ms = 2000;
	env_tune(&e);
	assert_int_equal(stats(&e).threshold, 875);

	/* tiering off: decisions refused, the threshold kept */
	e.cfg.mode = TP_MODE_NORMAL;
	env_tune(&e);
	assert_int_equal(decide(&e, 0, 1, 0, &mem_busy, 600), TP_REFUSE_MODE);
	assert_int_equal(stats(&e).threshold, 875);
	/* on again at 1000, and reset: the reference, a period from 1000 */
	e.cfg.mode = TP_MODE_TIERING;
	env_tune(&e);
	assert_int_equal(stats(&e).threshold, 875);
	tp_node_reset(&e.node, 1000);
	s = stats(&e);
	assert_int_equal(s.threshold, 2000);
	/* nothing closes before 1101, and only the new candidates count */
	for (k = 0; k < 100; k++)
		decide(&e, 0, 1, 0, &mem_busy, 1100);
	assert_int_equal(stats(&e).th_lowered, s.th_lowered);
	decide(&e, 0, 1, 0, &mem_busy, 1101);
	assert_int_equal(stats(&e).th_lowered, s.th_lowered + 1);
	assert_int_equal(stats(&e).threshold, 1750);

	/*
	 * Without the reset the period that started at 101 closes at the
	 * first decision after tiering comes back, judging the candidates of
	 * the whole gap against one period's budget.
	 */
	env_init(&e, 0);
	for (k = 0; k < 100; k++)
		decide(&e, 0, 1, 0, &mem_busy, 5);
	decide(&e, 0, 1, 0, &mem_busy, 101);
	decide(&e, 0, 1, 0, &mem_busy, 150);
	e.cfg.mode = TP_MODE_NORMAL;
	env_tune(&e);
	e.cfg.mode = TP_MODE_TIERING;
	env_tune(&e);
	decide(&e, 0, 1, 0, &mem_busy, 1000);
	s = stats(&e);
	assert_int_equal(s.th_raised, 1);	/* 2 candidates since 101 */
}

static void test_tune_follows_hot_threshold(void **state)
{
	struct env e;
	u32 ms;

	(void)state;
	env_preset(&e, TP_PRESET_RFC2020);
	env_init(&e, 0);
	for (ms = 0; ms < 100000; ms = ms * 7 + 3) {
		e.cfg.hot_threshold_ms = ms;
		env_tune(&e);
		assert_int_equal(stats(&e).threshold, ms);
		assert_int_equal(decide(&e, ms, 1, TP_FAULT_YOUNG, &mem_busy,
					0), TP_PROMOTE);
		assert_int_equal(decide(&e, ms + 1, 1, TP_FAULT_YOUNG,
					&mem_busy, 0), TP_REFUSE_COLD);
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
		cmocka_unit_test(test_selftest_vectors),
		cmocka_unit_test(test_preset_contents),
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
		cmocka_unit_test(test_presets_differ),
		cmocka_unit_test(test_bypass_formula_boundaries),
		cmocka_unit_test(test_demotion_target),
		cmocka_unit_test(test_wmark_promo),
		cmocka_unit_test(test_scan_wanted),
		cmocka_unit_test(test_stats_add_up_random),
		cmocka_unit_test(test_tune_rate_keeps_time_to_refill),
		cmocka_unit_test(test_tune_variant_keeps_candidates),
		cmocka_unit_test(test_tune_keeps_bucket),
		cmocka_unit_test(test_policy_burst_pages),
		cmocka_unit_test(test_reset_after_tiering_on),
		cmocka_unit_test(test_tune_follows_hot_threshold),
		cmocka_unit_test(test_group_fault_local_random),
		cmocka_unit_test(test_retry_interval),
		cmocka_unit_test(test_preferred_node),
	};

	return cmocka_run_group_tests_name("policy", tests, NULL, NULL);
}
