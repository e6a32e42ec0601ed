/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Self-test vectors of tp_decide(): one decision per row of a table, the
 * burst cut at the limit and the bypass reset, the conventions for 0, the
 * calls refused with -EINVAL, and the regressions of issue 12
 * (decide_regress.h). Uses the helpers of policy.h; tp_st_policy() runs
 * tp_st_decide(). Public API only, no libc, no 64-bit division, small
 * stack frames.
 */
#ifndef TP_SELFTEST_DECIDE_H
#define TP_SELFTEST_DECIDE_H

#include "policy.h"

/* ---- one decision per row ------------------------------------------------ */

/* Target node memory (pages) used by the decision rows. */
static const struct tp_node_mem tp_st_pol_mems[] = {
	/* 0: room, no bypass for either preset (seed mark 30000) */
	{ 20000, 2500, 5000, 10000, 12000, 1000000 },
	/* 1: bypass for both (mainline mark 12000 + 262144) */
	{ 300000, 2500, 5000, 10000, 12000, 1000000 },
	/* 2: bypass for the 2020 RFC only */
	{ 40000, 2500, 5000, 10000, 12000, 1000000 },
	/* 3: bypass for mainline only (seed mark 600000, mainline 472144) */
	{ 500000, 50000, 100000, 200000, 210000, 1000000 },
	/* 4: free == high + 1: no room for one page */
	{ 10001, 2500, 5000, 10000, 12000, 1000000 },
	/* 5: free == high + 2: room for one page */
	{ 10002, 2500, 5000, 10000, 12000, 1000000 },
	/* 6: free == high + 512: no room for a THP */
	{ 10512, 2500, 5000, 10000, 12000, 1000000 },
	/* 7: free == high + 513: room for a THP */
	{ 10513, 2500, 5000, 10000, 12000, 1000000 },
	/* 8: seed bypass (> 30000) without room for 30000 pages */
	{ 35000, 2500, 5000, 10000, 12000, 1000000 },
	/* 9: free == high: no room, no bypass even at rate 0 */
	{ 10000, 2500, 5000, 10000, 12000, 1000000 },
	/* 10: no promo watermark (before 6.1): the high one stands for it */
	{ 20000, 2500, 5000, 10000, 0, 1000000 },
	/* 11: no promo watermark, free == high + 1 GiB: no 6.1 bypass */
	{ 272144, 2500, 5000, 10000, 0, 1000000 },
	/* 12: no promo watermark, free == high + 1 GiB + 1: 6.1 bypass */
	{ 272145, 2500, 5000, 10000, 0, 1000000 },
	/* 13: room for 19999 pages, no RFC bypass at 40 MB/s (mark 30480) */
	{ 30000, 2500, 5000, 10000, 12000, 1000000 },
	/* 14: room for 999 pages, no bypass at 2 MB/s (marks 11024, 74500) */
	{ 11000, 2500, 5000, 10000, 12000, 1000000 },
};

struct tp_st_pol_dec {
	const char *name;
	u32 preset;
	u32 set;
	u32 clr;
	u32 mode;
	u32 rate;
	u64 latency;
	u64 nr;
	u32 fflags;
	u8 mem;
	int verdict;
	u8 cand;	/* counted as a candidate (PGPROMOTE_CANDIDATE) */
	u8 nrl;		/* counted as a bypass candidate (..._NRL) */
};

#define ST_S	TP_PRESET_RFC2020
#define ST_M	TP_PRESET_LINUX61
#define ST_K	TP_ST_POL_KEEP
#define ST_Y	TP_FAULT_YOUNG
#define ST_W	TP_FAULT_WRITE
#define ST_UNK	TP_LATENCY_UNKNOWN
/*
 * The window is expired after tp_node_init(), so a row's request would
 * open it and be admitted whatever its size: with ST_O in @set, one page
 * of the row's kind opens it first (promoted, counted in the figures) and
 * the row's request meets the open window.
 */
#define ST_O	TP_ST_POL_OPEN

static const struct tp_st_pol_dec tp_st_pol_dec_rows[] = {
	/* hotness: the RFC: latency <= th, 6.1: latency < th (th 1000) */
	{ "RFC: hot young read promotes", ST_S, 0, 0, ST_K, ST_K, 500, 1, ST_Y,
	  0, TP_PROMOTE, 1, 0 },
	{ "RFC: latency == th is hot", ST_S, 0, 0, ST_K, ST_K, 1000, 1, ST_Y,
	  0, TP_PROMOTE, 1, 0 },
	{ "RFC: latency th + 1 is cold", ST_S, 0, 0, ST_K, ST_K, 1001, 1, ST_Y,
	  0, TP_REFUSE_COLD, 0, 0 },
	{ "6.1: latency == th is cold", ST_M, 0, 0, ST_K, ST_K, 1000, 1, 0,
	  0, TP_REFUSE_COLD, 0, 0 },
	{ "6.1: latency th - 1 is hot", ST_M, 0, 0, ST_K, ST_K, 999, 1, 0,
	  0, TP_PROMOTE, 1, 0 },
	{ "6.1 without HOT_STRICT: latency == th is hot", ST_M, 0,
	  TP_POL_HOT_STRICT, ST_K, ST_K, 1000, 1, 0, 0, TP_PROMOTE, 1, 0 },
	{ "unknown latency is cold (RFC)", ST_S, 0, 0, ST_K, ST_K, ST_UNK, 1,
	  ST_Y | ST_W, 0, TP_REFUSE_COLD, 0, 0 },
	{ "unknown latency is cold (6.1)", ST_M, 0, 0, ST_K, ST_K, ST_UNK,
	  1, ST_W, 0, TP_REFUSE_COLD, 0, 0 },
	/* the young check */
	{ "RFC: not young is refused", ST_S, 0, 0, ST_K, ST_K, 10, 1, 0, 0,
	  TP_REFUSE_NOT_YOUNG, 0, 0 },
	{ "RFC without YOUNG: not young promotes", ST_S, 0, TP_POL_YOUNG, ST_K,
	  ST_K, 10, 1, 0, 0, TP_PROMOTE, 1, 0 },
	{ "6.1: not young promotes", ST_M, 0, 0, ST_K, ST_K, 10, 1, 0, 0,
	  TP_PROMOTE, 1, 0 },
	{ "6.1 with YOUNG: not young is refused", ST_M, TP_POL_YOUNG, 0,
	  ST_K, ST_K, 10, 1, 0, 0, TP_REFUSE_NOT_YOUNG, 0, 0 },
	{ "RFC: not young and cold: NOT_YOUNG first", ST_S, 0, 0, ST_K, ST_K,
	  ST_UNK, 1, 0, 0, TP_REFUSE_NOT_YOUNG, 0, 0 },
	/* write doubling: latency between th and 2 th */
	{ "RFC: write at 1.5 th promotes", ST_S, 0, 0, ST_K, ST_K, 1500, 1,
	  ST_Y | ST_W, 0, TP_PROMOTE, 1, 0 },
	{ "RFC: read at 1.5 th is cold", ST_S, 0, 0, ST_K, ST_K, 1500, 1, ST_Y,
	  0, TP_REFUSE_COLD, 0, 0 },
	{ "RFC without WRITE_DOUBLE: write at 1.5 th cold", ST_S, 0,
	  TP_POL_WRITE_DOUBLE, ST_K, ST_K, 1500, 1, ST_Y | ST_W, 0,
	  TP_REFUSE_COLD, 0, 0 },
	{ "RFC: write at 2 th is hot", ST_S, 0, 0, ST_K, ST_K, 2000, 1,
	  ST_Y | ST_W, 0, TP_PROMOTE, 1, 0 },
	{ "RFC: write at 2 th + 1 is cold", ST_S, 0, 0, ST_K, ST_K, 2001, 1,
	  ST_Y | ST_W, 0, TP_REFUSE_COLD, 0, 0 },
	{ "6.1: write at 1.5 th is cold", ST_M, 0, 0, ST_K, ST_K, 1500, 1,
	  ST_W, 0, TP_REFUSE_COLD, 0, 0 },
	{ "6.1 with WRITE_DOUBLE: write at 1.5 th", ST_M,
	  TP_POL_WRITE_DOUBLE, 0, ST_K, ST_K, 1500, 1, ST_W, 0, TP_PROMOTE, 1,
	  0 },
	{ "6.1 with WRITE_DOUBLE: write at 2 th cold", ST_M,
	  TP_POL_WRITE_DOUBLE, 0, ST_K, ST_K, 2000, 1, ST_W, 0, TP_REFUSE_COLD,
	  0, 0 },
	/* the free-space bypass (the 2020 RFC; switchable: the 2026 knob) */
	{ "RFC: bypass promotes a cold page", ST_S, 0, 0, ST_K, ST_K, ST_UNK,
	  1, 0, 1, TP_PROMOTE_NRL, 0, 1 },
	{ "6.1: bypass promotes a cold page", ST_M, 0, 0, ST_K, ST_K,
	  ST_UNK, 1, 0, 1, TP_PROMOTE_NRL, 0, 1 },
	{ "RFC, bypass off: the cold page is cold", ST_S, 0, TP_ST_POL_BYPASS,
	  ST_K, ST_K, ST_UNK, 1, ST_Y, 1, TP_REFUSE_COLD, 0, 0 },
	{ "6.1, bypass off: the cold page is cold", ST_M, 0,
	  TP_ST_POL_BYPASS, ST_K, ST_K, ST_UNK, 1, 0, 1, TP_REFUSE_COLD, 0, 0 },
	{ "RFC, bypass off: not young is checked", ST_S, 0, TP_ST_POL_BYPASS,
	  ST_K, ST_K, 10, 1, 0, 1, TP_REFUSE_NOT_YOUNG, 0, 0 },
	{ "6.1, bypass off: a hot page is a candidate", ST_M, 0,
	  TP_ST_POL_BYPASS, ST_K, ST_K, 10, 1, 0, 1, TP_PROMOTE, 1, 0 },
	{ "RFC mark only (40000 > 30000): RFC bypasses", ST_S, 0, 0, ST_K,
	  ST_K, ST_UNK, 1, 0, 2, TP_PROMOTE_NRL, 0, 1 },
	{ "RFC mark only (40000 < 274144): 6.1 cold", ST_M, 0, 0, ST_K,
	  ST_K, ST_UNK, 1, 0, 2, TP_REFUSE_COLD, 0, 0 },
	{ "6.1 mark only: RFC cold", ST_S, 0, 0, ST_K, ST_K, ST_UNK, 1,
	  ST_Y, 3, TP_REFUSE_COLD, 0, 0 },
	{ "6.1 mark only: 6.1 bypasses", ST_M, 0, 0, ST_K, ST_K,
	  ST_UNK, 1, 0, 3, TP_PROMOTE_NRL, 0, 1 },
	{ "RFC: bypass without room for 30000 pages", ST_S, 0, 0, ST_K, ST_K,
	  ST_UNK, 30000, 0, 8, TP_REFUSE_NOSPACE, 0, 1 },
	{ "6.1: bypass without room for 300000 pages", ST_M, 0, 0, ST_K,
	  ST_K, ST_UNK, 300000, 0, 1, TP_REFUSE_NOSPACE, 0, 1 },
	/* the mode and the top tier */
	{ "RFC: mode 0x1 never promotes", ST_S, 0, 0, TP_MODE_NORMAL, ST_K, 10,
	  1, ST_Y, 1, TP_REFUSE_MODE, 0, 0 },
	{ "6.1: mode 0x1 never promotes", ST_M, 0, 0, TP_MODE_NORMAL, ST_K,
	  10, 1, 0, 0, TP_REFUSE_MODE, 0, 0 },
	{ "mode 0 never promotes", ST_M, 0, 0, TP_MODE_DISABLED, ST_K, 10, 1, 0,
	  1, TP_REFUSE_MODE, 0, 0 },
	{ "mode 0x3 promotes", ST_M, 0, 0, TP_MODE_NORMAL | TP_MODE_TIERING,
	  ST_K, 10, 1, 0, 0, TP_PROMOTE, 1, 0 },
	{ "top tier is refused", ST_M, 0, 0, ST_K, ST_K, 10, 1,
	  TP_FAULT_TOPTIER, 1, TP_REFUSE_TOPTIER, 0, 0 },
	{ "top tier is refused (RFC)", ST_S, 0, 0, ST_K, ST_K, 10, 1,
	  TP_FAULT_TOPTIER | ST_Y, 0, TP_REFUSE_TOPTIER, 0, 0 },
	{ "mode 0x1 is checked before the top tier", ST_S, 0, 0, TP_MODE_NORMAL,
	  ST_K, 10, 1, TP_FAULT_TOPTIER, 0, TP_REFUSE_MODE, 0, 0 },
	/* room: free > high + nr, strictly */
	{ "free == high + 1: no room for 1 page", ST_M, 0, 0, ST_K, ST_K, 10, 1,
	  0, 4, TP_REFUSE_NOSPACE, 1, 0 },
	{ "free == high + 2: room for 1 page", ST_M, 0, 0, ST_K, ST_K, 10, 1, 0,
	  5, TP_PROMOTE, 1, 0 },
	{ "free == high + 512: no room for a THP", ST_S, 0, 0, ST_K, ST_K, 10,
	  512, ST_Y, 6, TP_REFUSE_NOSPACE, 1, 0 },
	{ "free == high + 513: room for a THP", ST_S, 0, 0, ST_K, ST_K, 10, 512,
	  ST_Y, 7, TP_PROMOTE, 1, 0 },
	/* rate limit 0 */
	{ "6.1, rate 0: limited", ST_M, 0, 0, ST_K, 0, 10, 1, 0, 0,
	  TP_REFUSE_RATELIMIT, 1, 0 },
	{ "6.1, rate 0, token bucket: limited", ST_M, TP_ST_POL_BUCKET, 0,
	  ST_K, 0, 10, 1, 0, 0, TP_REFUSE_RATELIMIT, 1, 0 },
	{ "RFC, rate 0 = high watermark: promotes", ST_S, 0, 0, ST_K, 0, 10, 1,
	  ST_Y, 0, TP_PROMOTE, 1, 0 },
	/* the RFC's bypass mark is then high: any room bypasses */
	{ "RFC, rate 0 without RL_WMARK_DEFAULT: bypass", ST_S, 0,
	  TP_POL_RL_WMARK_DEFAULT, ST_K, 0, 10, 1, ST_Y, 0, TP_PROMOTE_NRL, 0,
	  1 },
	{ "RFC, rate 0 without RL_WMARK_DEFAULT: limited", ST_S, 0,
	  TP_POL_RL_WMARK_DEFAULT, ST_K, 0, 10, 1, ST_Y, 9, TP_REFUSE_RATELIMIT,
	  1, 0 },
	{ "RFC, rate 0, token bucket: limited", ST_S, TP_ST_POL_BUCKET,
	  TP_POL_RL_WMARK_DEFAULT, ST_K, 0, 10, 1, ST_Y, 9, TP_REFUSE_RATELIMIT,
	  1, 0 },
	/* no hotness check at all */
	{ "without HOTNESS a cold page is a candidate", ST_M, 0,
	  TP_ST_POL_HOT_DEPS, ST_K, ST_K, ST_UNK, 1, 0, 0, TP_PROMOTE, 1, 0 },
	/* no promo watermark (0): the high one stands for it */
	{ "6.1, promo 0: a hot page promotes", ST_M, 0, 0, ST_K, ST_K, 10, 1,
	  0, 10, TP_PROMOTE, 1, 0 },
	{ "6.1, promo 0: high + 1 GiB is no bypass", ST_M, 0, 0, ST_K, ST_K,
	  ST_UNK, 1, 0, 11, TP_REFUSE_COLD, 0, 0 },
	{ "6.1, promo 0: high + 1 GiB + 1 bypasses", ST_M, 0, 0, ST_K, ST_K,
	  ST_UNK, 1, 0, 12, TP_PROMOTE_NRL, 0, 1 },
	{ "RFC, promo 0: a hot page promotes", ST_S, 0, 0, ST_K, ST_K, 10, 1,
	  ST_Y, 10, TP_PROMOTE, 1, 0 },
	/*
	 * The RFC preset's own window, limited (no bypass below 30480), once
	 * a page opened it: with the preset's batch of 32 that page is still
	 * in the slot when it takes the base, so it counts with the request.
	 */
	{ "RFC, 40 MB/s, open window: 1 + 10240 pages are limited", ST_S,
	  ST_O, 0, ST_K, 40, 10, 10240, ST_Y, 0, TP_REFUSE_RATELIMIT, 1, 0 },
	{ "RFC, 40 MB/s, open window: 1 + 10239 pages promote", ST_S, ST_O,
	  0, ST_K, 40, 10, 10239, ST_Y, 13, TP_PROMOTE, 1, 0 },
	{ "RFC, 40 MB/s: 10241 pages opening the window promote", ST_S, 0, 0,
	  ST_K, 40, 10, 10241, ST_Y, 13, TP_PROMOTE, 1, 0 },
	/* the RFC's switches with 6.1's watermarks: 6.1's bypass mark */
	{ "RFC with 6.1 watermarks: 6.1's mark bypasses", ST_S,
	  TP_ST_POL_WM61, 0, ST_K, ST_K, ST_UNK, 1, 0, 3, TP_PROMOTE_NRL, 0,
	  1 },
	{ "RFC with 6.1 watermarks: the RFC's mark does not", ST_S,
	  TP_ST_POL_WM61, 0, ST_K, ST_K, ST_UNK, 1, ST_Y, 2, TP_REFUSE_COLD, 0,
	  0 },
	{ "RFC with 6.1's threshold: hot young read", ST_S, TP_ST_POL_TH61,
	  0, ST_K, ST_K, 1000, 1, ST_Y, 0, TP_PROMOTE, 1, 0 },
	/* the largest folio (2^32 pages) is a valid request */
	{ "6.1: a 2^32-page folio is over the rate limit", ST_M, ST_O, 0,
	  ST_K, ST_K, 10, TP_RATE_MAX, 0, 0, TP_REFUSE_RATELIMIT, 1, 0 },
	{ "6.1: a 2^32-page folio opening the window: not limited, no room",
	  ST_M, 0, 0, ST_K, ST_K, 10, TP_RATE_MAX, 0, 0, TP_REFUSE_NOSPACE, 1,
	  0 },
	{ "6.1 bypass: a 2^32-page folio without room", ST_M, 0, 0, ST_K, ST_K,
	  ST_UNK, TP_RATE_MAX, 0, 1, TP_REFUSE_NOSPACE, 0, 1 },
};

#undef ST_S
#undef ST_M
#undef ST_K
#undef ST_Y
#undef ST_W
#undef ST_UNK
#undef ST_O

/*
 * The generic twin of the configuration: the threshold in faults
 * (TP_POL_LAT_FAULTS) with the value it has in ticks, the same decisions.
 * A preset's switches and variants as they are take the decision's
 * specialised instance (constants for the switches, lib/decide.c); with
 * one more switch the generic instance decides, testing each at run time.
 * Both must give every row's answer.
 */
static bool tp_st_pol_twin(void)
{
	struct tp_policy_cfg *c = &tp_st_pol_big.c;

	if (c->flags & TP_POL_LAT_FAULTS || !c->hot_threshold_ms ||
	    c->tps != 1000)
		return false;
	c->flags |= TP_POL_LAT_FAULTS;
	c->hot_threshold_faults = c->hot_threshold_ms;
	return tp_st_pol_reinit();
}

static bool tp_st_pol_check_row(const struct tp_st_pol_dec *r, bool twin)
{
	struct tp_node_stats *s = &tp_st_pol_stats;
	/* the opener's page: a promoted candidate */
	u64 o = (r->set & TP_ST_POL_OPEN) ? 1 : 0;
	bool ok;
	int v;

	ok = tp_st_pol_setup(r->preset, r->set, r->clr, r->mode, r->rate);
	if (twin)
		ok = ok && tp_st_pol_twin();
	if (o)
		ok = ok && tp_st_pol_decide(r->latency, 1, r->fflags,
					    &tp_st_pol_mems[r->mem], 1) ==
			   TP_PROMOTE;
	v = tp_st_pol_decide(r->latency, r->nr, r->fflags,
			     &tp_st_pol_mems[r->mem], 1);
	ok = ok && v == r->verdict && tp_st_pol_snap();
	return ok && s->verdict[v] == r->nr + (v == TP_PROMOTE ? o : 0) &&
	       s->decided == r->nr + o &&
	       s->candidate == r->cand * r->nr + o &&
	       s->candidate_nrl == r->nrl * r->nr &&
	       s->success == (tp_verdict_promotes(v) ? r->nr : 0) + o;
}

static void tp_st_pol_check_decisions(struct tp_st *st)
{
	const struct tp_st_pol_dec *r;
	unsigned int i;

	for (i = 0; i < TP_ST_ARRAY_SIZE(tp_st_pol_dec_rows); i++) {
		r = &tp_st_pol_dec_rows[i];
		TP_ST_CHECK(st, tp_st_pol_check_row(r, false) &&
			    tp_st_pol_check_row(r, true), r->name);
	}
}

/*
 * The RFC's switches with either threshold controller: a period of 100
 * ms without a candidate raises the threshold one step, to 6.1's bound
 * of twice the reference, or not at all with the RFC's bound of the
 * reference itself. (Cold young faults: no bypass, the rate is the high
 * watermark's, 1000 candidates a period.)
 */
static void tp_st_pol_check_thresh_variant(struct tp_st *st)
{
	struct tp_node_stats *s = &tp_st_pol_stats;
	unsigned int pass;
	bool ok;

	for (pass = 0; pass < 2; pass++) {
		ok = tp_st_pol_setup(TP_PRESET_RFC2020,
				     pass ? TP_ST_POL_TH61 : 0, 0,
				     TP_ST_POL_KEEP, TP_ST_POL_KEEP);
		tp_st_pol_big.c.scan_period_max_ms = 100;
		ok = ok && tp_st_pol_reinit();
		ok = ok && tp_st_pol_decide(5000, 1, TP_FAULT_YOUNG,
					    &tp_st_pol_mems[0], 50) ==
			   TP_REFUSE_COLD;
		ok = ok && tp_st_pol_decide(5000, 1, TP_FAULT_YOUNG,
					    &tp_st_pol_mems[0], 102) ==
			   TP_REFUSE_COLD;
		ok = ok && tp_st_pol_snap() && s->th_lowered == 0 &&
		     s->th_raised == (pass ? 1 : 0) &&
		     s->threshold == (pass ? 1125 : 1000);
		TP_ST_CHECK(st, ok, pass ?
				    "RFC with 6.1's threshold: raised to 1125" :
				    "RFC: the threshold's bound is the reference");
	}
}

/*
 * The Linux 6.1 preset with the histogram controller: the node's threshold
 * after one period is a standalone TP_THRESH_HISTOGRAM controller's, fed
 * the same latencies and candidates (the preset's own switches, the
 * bypass included, with one variant changed).
 */
static struct tp_thresh tp_st_pol_hist;
static struct tp_thresh_cpu tp_st_pol_hist_cpu;

static void tp_st_pol_check_hist_preset(struct tp_st *st)
{
	static const struct tp_node_mem m = {
		.free = 1000, .wmark_min = 10, .wmark_low = 20,
		.wmark_high = 30, .wmark_promo = 40, .present = 100000,
	};
	struct tp_thresh_cfg tc = {
		.sz = sizeof(tc), .variant = TP_THRESH_HISTOGRAM, .tps = 1000,
		.ref_th = 1000, .period = 60000, .rate_limit = 256, .batch = 1,
	};
	struct tp_policy_cfg *c = &tp_st_pol_big.c;
	struct tp_node_stats *s = &tp_st_pol_stats;
	unsigned int i;
	bool ok;

	/* 1 MB/s: 256 pages/s with 4 KiB pages */
	ok = tp_st_pol_setup(TP_PRESET_LINUX61, 0, 0, TP_ST_POL_KEEP, 1);
	c->cand_batch = 1;
	c->thresh_variant = TP_THRESH_HISTOGRAM;
	ok = ok && tp_st_pol_reinit();
	tp_st_pol_fill(&tp_st_pol_hist_cpu, sizeof(tp_st_pol_hist_cpu), 0);
	ok = ok && !tp_thresh_init(&tp_st_pol_hist, &tc, 0, 0);
	for (i = 0; i < 100 && ok; i++) {
		tp_st_pol_decide(3, 512, 0, &m, 10 + i);
		tp_thresh_record(&tp_st_pol_hist, &tp_st_pol_hist_cpu, 3, 512);
	}
	/* the next period's first decision closes this one */
	tp_st_pol_decide(5000, 1, 0, &m, 60002);
	tp_thresh_update(&tp_st_pol_hist, 100 * 512, 60002);
	ok = ok && tp_st_pol_snap() &&
	     s->threshold == tp_thresh_get(&tp_st_pol_hist);
	TP_ST_CHECK(st, ok, "6.1 preset with the histogram: its threshold");
}

/*
 * An unknown latency is never hot, whatever the threshold: 6.1's adaptive
 * threshold in hint faults, from the largest reference (TP_TIME_MAX), rises
 * one step per empty 1 ms period to its bound 2 x reference = 2^63; doubled
 * for a write it saturates at 2^64 - 1, TP_LATENCY_UNKNOWN itself.
 */
static void tp_st_pol_check_unknown_saturated(struct tp_st *st)
{
	struct tp_policy_cfg *c = &tp_st_pol_big.c;
	struct tp_node_stats *s = &tp_st_pol_stats;
	const struct tp_node_mem *m = &tp_st_pol_mems[0];
	u64 now;
	bool ok;

	ok = tp_st_pol_setup(TP_PRESET_LINUX61, 0, 0, TP_ST_POL_KEEP,
			     TP_ST_POL_KEEP);
	c->flags = TP_POL_HOTNESS | TP_POL_ADAPTIVE | TP_POL_WRITE_DOUBLE |
		   TP_POL_LAT_FAULTS;
	c->hot_threshold_faults = TP_TIME_MAX;
	c->scan_period_max_ms = 1;
	c->cand_batch = 1;
	ok = ok && tp_st_pol_reinit();
	for (now = 2; now <= 40 && ok; now += 2)
		ok = tp_st_pol_decide(TP_LATENCY_UNKNOWN, 1, 0, m, now) ==
		     TP_REFUSE_COLD;
	ok = ok && tp_st_pol_snap() && s->threshold == 2 * TP_TIME_MAX;
	ok = ok && tp_st_pol_decide(TP_LATENCY_UNKNOWN, 1, TP_FAULT_WRITE, m,
				    41) == TP_REFUSE_COLD;
	ok = ok && tp_st_pol_decide(~0ULL - 1, 1, TP_FAULT_WRITE, m, 41) ==
		   TP_PROMOTE;
	TP_ST_CHECK(st, ok,
		    "unknown latency cold at a write threshold of 2^64 - 1");
}

/* ---- sequences: burst cut at the limit, the bypass reset ----------------- */

/*
 * 1000 single hot pages at one instant at 1 MB/s (256 pages/s) on one
 * slot. The windows count the candidates that the slot has added to the
 * shared count: with a batch B the count moves in steps of B, so the 2020
 * RFC's window (refuse when used > limit) admits up to B - 1 pages more
 * than the limit, and 6.1's (refuse when used >= limit) stops where the
 * shared count reaches the limit. The window is expired after
 * tp_node_init(), so the first page opens it: counted at once (a batch of
 * 0 or 1), its page is in the base it takes and the window admits it
 * besides the limit, as the kernels do; with a larger batch the page is
 * still in the slot then and counts like the others. The bucket does not
 * count candidates.
 */
struct tp_st_pol_burst {
	const char *name;
	u32 limv;
	u32 batch;
	u64 admitted;
	u64 shared;	/* the shared candidate count afterwards */
};

static const struct tp_st_pol_burst tp_st_pol_burst_rows[] = {
	{ "burst cut: token bucket admits the burst", TP_LIMITER_BUCKET, 1,
	  256, 1000 },
	{ "burst cut: RFC window admits the opener and the limit",
	  TP_LIMITER_WINDOW_RFC2020, 1, 1 + 256, 1000 },
	{ "burst cut: 6.1 window admits the opener, refuses the limit-th",
	  TP_LIMITER_WINDOW_LINUX61, 1, 1 + 255, 1000 },
	{ "burst cut, batch 0 is exact: RFC window, the opener and the limit",
	  TP_LIMITER_WINDOW_RFC2020, 0, 1 + 256, 1000 },
	{ "burst cut, batch 32: token bucket", TP_LIMITER_BUCKET, 32, 256,
	  992 },
	{ "burst cut, batch 32: RFC window admits limit + 31",
	  TP_LIMITER_WINDOW_RFC2020, 32, 287, 992 },
	{ "burst cut, batch 32: 6.1 window stops at the limit",
	  TP_LIMITER_WINDOW_LINUX61, 32, 255, 992 },
	/* batch 7: the shared count goes 252, 259: both admit 258 */
	{ "burst cut, batch 7: RFC window", TP_LIMITER_WINDOW_RFC2020, 7, 258,
	  994 },
	{ "burst cut, batch 7: 6.1 window admits limit + 2",
	  TP_LIMITER_WINDOW_LINUX61, 7, 258, 994 },
	{ "burst cut, batch 65536: the RFC window sees nothing yet",
	  TP_LIMITER_WINDOW_RFC2020, TP_CAND_BATCH_MAX, 1000, 0 },
};

static void tp_st_pol_check_burst(struct tp_st *st)
{
	const struct tp_st_pol_burst *r;
	struct tp_node_stats *s = &tp_st_pol_stats;
	unsigned int i, k, prom;
	bool ok;
	int v;

	for (i = 0; i < TP_ST_ARRAY_SIZE(tp_st_pol_burst_rows); i++) {
		r = &tp_st_pol_burst_rows[i];
		ok = tp_st_pol_setup(TP_PRESET_LINUX61, 0, 0, TP_ST_POL_KEEP,
				     1);
		tp_st_pol_big.c.limiter_variant = r->limv;
		tp_st_pol_big.c.cand_batch = r->batch;
		ok = ok && tp_st_pol_reinit();
		prom = 0;
		for (k = 0; k < 1000; k++) {
			v = tp_st_pol_decide(1, 1, 0, &tp_st_pol_mems[0], 5);
			if (v == TP_PROMOTE)
				prom++;
			else if (v != TP_REFUSE_RATELIMIT)
				ok = false;
			/* cut at the limit: no promotion after a refusal */
			if (v == TP_PROMOTE && prom != k + 1)
				ok = false;
		}
		ok = ok && tp_st_pol_snap();
		ok = ok && prom == r->admitted &&
		     s->verdict[TP_PROMOTE] == prom &&
		     s->verdict[TP_REFUSE_RATELIMIT] == 1000 - prom &&
		     s->candidate == 1000 && s->decided == 1000 &&
		     s->cand_shared == r->shared;
		TP_ST_CHECK(st, ok, r->name);
	}
}

/*
 * The window after tp_node_init() has expired, as the kernels' has at boot
 * (the 2020 RFC's pgdat->numa_ts and 6.1's pgdat->nbp_rl_start are 0):
 * the first candidate opens it at its own time and is not counted in it,
 * and the windows' boundaries follow that candidate, not the init, at any
 * clock value. Each preset at 2 MB/s (512 pages/s), counted exactly, the
 * node initialised at @t0: 600 pages 0.5 s after the init open the
 * window (admitted above the limit), then single pages until refused (the
 * RFC admits 512, 6.1 511); 1.2 s after the init the window opened at
 * 0.5 s still refuses, and exactly 1 s after its opening too; 1 ms later a
 * page opens the next window and the one after it is admitted.
 */
static void tp_st_pol_check_first_window(struct tp_st *st)
{
	static const u64 inits[] = { 0, 1, 1000, (1ULL << 32) - 700,
				     ~0ULL - 1200, ~0ULL };
	const struct tp_node_mem *m = &tp_st_pol_mems[14];
	struct tp_node_stats *s = &tp_st_pol_stats;
	unsigned int i, k, preset;
	u64 t0, t1, prom, want;
	bool ok;
	int v;

	for (preset = TP_PRESET_RFC2020; preset <= TP_PRESET_LINUX61;
	     preset++) {
		want = preset == TP_PRESET_RFC2020 ? 512 : 511;
		for (i = 0; i < TP_ST_ARRAY_SIZE(inits); i++) {
			t0 = inits[i];
			t1 = t0 + 500;
			ok = tp_st_pol_setup(preset, 0, 0, TP_ST_POL_KEEP, 2);
			tp_st_pol_big.c.cand_batch = 1;
			ok = ok && tp_st_pol_reinit() &&
			     tp_st_pol_node_setup(t0);
			ok = ok && tp_st_pol_decide(1, 600, TP_FAULT_YOUNG, m,
						    t1) == TP_PROMOTE;
			prom = 0;
			for (k = 0; k < 600 && ok; k++) {
				v = tp_st_pol_decide(1, 1, TP_FAULT_YOUNG, m,
						     t1);
				if (v == TP_PROMOTE && prom == k)
					prom++;
				else if (v != TP_REFUSE_RATELIMIT)
					ok = false;
			}
			ok = ok && prom == want;
			ok = ok && tp_st_pol_decide(1, 1, TP_FAULT_YOUNG, m,
						    t0 + 1200) ==
				   TP_REFUSE_RATELIMIT;
			ok = ok && tp_st_pol_decide(1, 1, TP_FAULT_YOUNG, m,
						    t1 + 1000) ==
				   TP_REFUSE_RATELIMIT;
			ok = ok && tp_st_pol_decide(1, 1, TP_FAULT_YOUNG, m,
						    t1 + 1001) == TP_PROMOTE;
			ok = ok && tp_st_pol_decide(1, 1, TP_FAULT_YOUNG, m,
						    t1 + 1001) == TP_PROMOTE;
			ok = ok && tp_st_pol_snap() &&
			     s->verdict[TP_PROMOTE] == 600 + want + 2 &&
			     s->verdict[TP_REFUSE_RATELIMIT] == 602 - want &&
			     s->candidate == 1204 && s->cand_shared == 1204;
			TP_ST_CHECK(st, ok, preset == TP_PRESET_RFC2020 ?
				    "RFC: the first candidate opens the window, not the init" :
				    "6.1: the first candidate opens the window, not the init");
		}
	}
}

static void tp_st_pol_check_bypass_reset(struct tp_st *st)
{
	struct tp_node_stats *s = &tp_st_pol_stats;
	unsigned int pass, k;
	bool ok;

	for (pass = 0; pass < 2; pass++) {
		/* 6.1, 1 MB/s: 25 candidates per 100 ms period */
		ok = tp_st_pol_setup(TP_PRESET_LINUX61, 0,
				     pass ? TP_POL_BYPASS_RESET : 0,
				     TP_ST_POL_KEEP, 1);
		tp_st_pol_big.c.scan_period_max_ms = 100;
		ok = ok && tp_st_pol_reinit();
		for (k = 0; k < 200; k++)
			tp_st_pol_decide(1, 1, 0, &tp_st_pol_mems[0], 1);
		/* the next period's first decision lowers the threshold */
		tp_st_pol_decide(1, 1, 0, &tp_st_pol_mems[0], 102);
		ok = ok && tp_st_pol_snap() && s->threshold == 875 &&
		     s->th_lowered == 1;
		/* a cold page through the bypass */
		ok = ok && tp_st_pol_decide(TP_LATENCY_UNKNOWN, 1, 0,
					    &tp_st_pol_mems[1], 103) ==
			   TP_PROMOTE_NRL;
		ok = ok && tp_st_pol_snap() &&
		     s->threshold == (pass ? 875 : 1000) &&
		     s->th_lowered == 1 && s->th_raised == 0;
		TP_ST_CHECK(st, ok, pass ? "bypass keeps the threshold" :
					   "bypass resets the threshold");
	}
}

/* ---- the conventions for 0 ---------------------------------------------- */

static void tp_st_pol_check_zero(struct tp_st *st)
{
	const struct tp_node_mem *m = &tp_st_pol_mems[0];
	struct tp_node_stats *s = &tp_st_pol_stats;
	unsigned int t;
	bool ok;

	/* hot_threshold_ms 0 is a threshold of 0, as the sysctl */
	ok = tp_st_pol_setup(TP_PRESET_LINUX61, 0, 0, TP_ST_POL_KEEP,
			     TP_ST_POL_KEEP);
	tp_st_pol_big.c.hot_threshold_ms = 0;
	ok = ok && tp_st_pol_reinit();
	ok = ok && tp_st_pol_decide(0, 1, 0, m, 1) == TP_REFUSE_COLD;
	ok = ok && tp_st_pol_snap() && s->threshold == 0;
	/* a period without candidates cannot raise a threshold of 0 */
	ok = ok && tp_st_pol_decide(0, 1, 0, m, 60001) == TP_REFUSE_COLD;
	ok = ok && tp_st_pol_snap() && s->threshold == 0 &&
	     s->th_raised == 0 && s->th_lowered == 0;
	TP_ST_CHECK(st, ok, "hot_threshold_ms 0, 6.1: nothing is hot");

	ok = tp_st_pol_setup(TP_PRESET_LINUX61, 0,
			     TP_POL_ADAPTIVE | TP_POL_BYPASS_RESET,
			     TP_ST_POL_KEEP, TP_ST_POL_KEEP);
	tp_st_pol_big.c.hot_threshold_ms = 0;
	ok = ok && tp_st_pol_reinit();
	ok = ok && tp_st_pol_decide(0, 1, 0, m, 1) == TP_REFUSE_COLD;
	ok = ok && tp_st_pol_snap() && s->threshold == 0;
	TP_ST_CHECK(st, ok, "hot_threshold_ms 0, fixed 6.1 threshold: cold");

	ok = tp_st_pol_setup(TP_PRESET_RFC2020, 0, 0, TP_ST_POL_KEEP,
			     TP_ST_POL_KEEP);
	tp_st_pol_big.c.hot_threshold_ms = 0;
	ok = ok && tp_st_pol_reinit();
	ok = ok && tp_st_pol_decide(0, 1, TP_FAULT_YOUNG, m, 1) == TP_PROMOTE;
	ok = ok && tp_st_pol_decide(1, 1, TP_FAULT_YOUNG, m, 1) ==
		   TP_REFUSE_COLD;
	/* doubled for a write, 0 stays 0 */
	ok = ok && tp_st_pol_decide(1, 1, TP_FAULT_YOUNG | TP_FAULT_WRITE, m,
				    1) == TP_REFUSE_COLD;
	ok = ok && tp_st_pol_snap() && s->threshold == 0;
	TP_ST_CHECK(st, ok, "hot_threshold_ms 0, RFC: only latency 0 is hot");

	/*
	 * scan_period_max_ms 0 closes a period at every tick, once: two hot
	 * faults a tick at 1 MB/s, a budget of 0 per period; the period
	 * closed at tick 1 saw nothing, each later one saw 2 candidates.
	 */
	ok = tp_st_pol_setup(TP_PRESET_LINUX61, 0, 0, TP_ST_POL_KEEP, 1);
	tp_st_pol_big.c.scan_period_max_ms = 0;
	tp_st_pol_big.c.cand_batch = 1;
	ok = ok && tp_st_pol_reinit();
	for (t = 1; t <= 5; t++) {
		tp_st_pol_decide(0, 1, 0, m, t);
		tp_st_pol_decide(0, 1, 0, m, t);
	}
	ok = ok && tp_st_pol_snap() && s->th_lowered == 4 &&
	     s->th_raised == 0 && s->threshold == 1000 - 4 * 125;
	TP_ST_CHECK(st, ok, "scan_period_max_ms 0: one close per tick");
}

/* ---- bad calls: -EINVAL, nothing counted, nothing written ---------------- */

static void tp_st_pol_check_einval(struct tp_st *st)
{
	static struct tp_node_cpu cpu_copy;
	struct tp_node_mem m = tp_st_pol_mems[0];
	struct tp_node_stats *s = &tp_st_pol_stats;
	static const u64 nrs[] = { 0, TP_RATE_MAX + 1, ~0ULL };
	unsigned int i, preset;
	bool ok;
	int v;

	for (preset = 0; preset < 2; preset++) {
		ok = tp_st_pol_setup(preset, 0, 0, TP_ST_POL_KEEP,
				     TP_ST_POL_KEEP);
		m = tp_st_pol_mems[0];
		ok = ok && tp_st_pol_decide(0, 1, TP_FAULT_YOUNG, &m, 1) ==
			   TP_PROMOTE;
		tp_st_pol_node_copy = tp_st_pol_node;
		cpu_copy = tp_st_pol_cpu;
		for (i = 0; i < TP_ST_ARRAY_SIZE(nrs); i++)
			ok = ok && tp_st_pol_decide(0, nrs[i], TP_FAULT_YOUNG,
						    &m, 2) == -EINVAL;
		for (i = 0; i < 3; i++) {
			m = tp_st_pol_mems[0];
			if (i == 0)
				m.wmark_min = m.wmark_low + 1;
			else if (i == 1)
				m.wmark_low = m.wmark_high + 1;
			else
				m.wmark_high = m.wmark_promo + 1;
			ok = ok && tp_st_pol_decide(0, 1, TP_FAULT_YOUNG, &m,
						    2) == -EINVAL;
			/* validated first: a top-tier page, a bypass too */
			ok = ok && tp_st_pol_decide(0, 1, TP_FAULT_TOPTIER, &m,
						    2) == -EINVAL;
			m.free = ~0ULL;
			ok = ok && tp_st_pol_decide(0, 1, 0, &m, 2) == -EINVAL;
		}
		ok = ok && tp_st_pol_same(&tp_st_pol_node, &tp_st_pol_node_copy,
					  sizeof(tp_st_pol_node)) &&
		     tp_st_pol_same(&tp_st_pol_cpu, &cpu_copy,
				    sizeof(cpu_copy));
		ok = ok && tp_st_pol_snap() && s->decided == 1;
		TP_ST_CHECK(st, ok, preset ?
				    "6.1: -EINVAL calls count nothing" :
				    "RFC: -EINVAL calls count nothing");
	}

	/* in order: equal watermarks, and no promo watermark at all */
	m = tp_st_pol_mems[0];
	m.wmark_min = m.wmark_low = m.wmark_high = m.wmark_promo = 10000;
	v = tp_st_pol_decide(0, 1, 0, &m, 3);
	ok = v == TP_PROMOTE;
	m.wmark_promo = 0;
	v = tp_st_pol_decide(0, 1, 0, &m, 3);
	ok = ok && v == TP_PROMOTE;
	TP_ST_CHECK(st, ok, "equal watermarks, promo 0: in order");

	/* a node of a policy tp_policy_init() never filled */
	tp_st_pol_fill(&tp_st_pol_copy, sizeof(tp_st_pol_copy), 0);
	tp_st_pol_fill(&tp_st_pol_node, sizeof(tp_st_pol_node), 0x5c);
	tp_st_pol_node_copy = tp_st_pol_node;
	ok = tp_node_init(&tp_st_pol_node, &tp_st_pol_copy, 0) == -EINVAL &&
	     tp_node_init(NULL, &tp_st_pol_pol, 0) == -EINVAL &&
	     tp_node_init(&tp_st_pol_node, NULL, 0) == -EINVAL &&
	     tp_st_pol_same(&tp_st_pol_node, &tp_st_pol_node_copy,
			    sizeof(tp_st_pol_node));
	TP_ST_CHECK(st, ok, "node init: zero-filled policy, NULL: untouched");
}

#include "decide_regress.h"

/**
 * tp_st_decide() - run the decision vectors
 * @st: the run
 *
 * Return: the number of failed cases this call added.
 */
static int tp_st_decide(struct tp_st *st)
{
	unsigned int failed = st->failed;

	tp_st_pol_check_decisions(st);
	tp_st_pol_check_thresh_variant(st);
	tp_st_pol_check_hist_preset(st);
	tp_st_pol_check_unknown_saturated(st);
	tp_st_pol_check_burst(st);
	tp_st_pol_check_first_window(st);
	tp_st_pol_check_bypass_reset(st);
	tp_st_pol_check_zero(st);
	tp_st_pol_check_einval(st);
	tp_st_decide_regress(st);
	return st->failed - failed;
}

#endif /* TP_SELFTEST_DECIDE_H */
