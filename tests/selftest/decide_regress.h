/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Self-test vectors of tp_decide(), the regressions of issue 12: the rate a
 * threshold period is judged against, THPs on the token bucket, the
 * per-slot candidate batch, a limiter variant switched mid-stream.
 * Included by decide.h, whose node memories (tp_st_pol_mems) they use;
 * tp_st_decide() runs tp_st_decide_regress(). Public API only, no libc, no
 * 64-bit division, small stack frames.
 */
#ifndef TP_SELFTEST_DECIDE_REGRESS_H
#define TP_SELFTEST_DECIDE_REGRESS_H

#include "policy.h"

/* ---- issue 12: the rate a period is judged against ----------------------- */

/*
 * Linux 6.1 preset, ms ticks, rate_limit_mbps 0 with TP_POL_RL_WMARK_DEFAULT
 * (the rate is the target's high watermark per second), node initialised
 * at 0; free 2000, min/low/high/promo 100/500/1000/1200, present 2^20 (no
 * bypass). Two cold faults at 30000 and 60001: the period [0, 60001) is
 * judged against 1000 pages/s, a budget of 60000 candidates; none came, so
 * the threshold rises one step, 1000 + 2000 / 16 = 1125. (Judged against
 * the rate of a node that had not yet seen a fault, it stayed 1000.)
 */
static void tp_st_pol_check_period_rate(struct tp_st *st)
{
	static const struct tp_node_mem m = {
		.free = 2000, .wmark_min = 100, .wmark_low = 500,
		.wmark_high = 1000, .wmark_promo = 1200, .present = 1 << 20,
	};
	struct tp_node_mem m2 = m;
	struct tp_node_stats *s = &tp_st_pol_stats;
	unsigned int k, pass;
	bool ok;
	int v;

	ok = tp_st_pol_setup(TP_PRESET_LINUX61, TP_POL_RL_WMARK_DEFAULT, 0,
			     TP_ST_POL_KEEP, 0);
	ok = ok && tp_st_pol_decide(5000, 1, 0, &m, 30000) == TP_REFUSE_COLD;
	ok = ok && tp_st_pol_decide(5000, 1, 0, &m, 60001) == TP_REFUSE_COLD;
	ok = ok && tp_st_pol_snap() && s->threshold == 1125 &&
	     s->th_raised == 1 && s->th_lowered == 0 && s->decided == 2;
	TP_ST_CHECK(st, ok, "issue 12 item 7: threshold 1125, one raise");

	/*
	 * The same with 100 ms periods and 100 candidates in the first:
	 * within the band of a 1000 pages/s budget (90..110), below that of
	 * 2000 pages/s (raise), above that of 500 (lower). The fault that
	 * closes the period brings the rate.
	 */
	for (pass = 0; pass < 3; pass++) {
		ok = tp_st_pol_setup(TP_PRESET_LINUX61,
				     TP_POL_RL_WMARK_DEFAULT, 0,
				     TP_ST_POL_KEEP, 0);
		tp_st_pol_big.c.scan_period_max_ms = 100;
		tp_st_pol_big.c.cand_batch = 1;
		ok = ok && tp_st_pol_reinit();
		for (k = 0; k < 100; k++) {
			v = tp_st_pol_decide(10, 1, 0, &m, 50);
			ok = ok && (v == TP_PROMOTE ||
				    v == TP_REFUSE_RATELIMIT);
		}
		m2.wmark_high = pass == 0 ? 1000 : pass == 1 ? 2000 : 500;
		m2.wmark_promo = 0;
		m2.free = 3000;
		ok = ok && tp_st_pol_decide(5000, 1, 0, &m2, 101) ==
			   TP_REFUSE_COLD;
		ok = ok && tp_st_pol_snap() && s->candidate == 100;
		if (pass == 0)
			ok = ok && s->th_raised == 0 && s->th_lowered == 0 &&
			     s->threshold == 1000;
		else if (pass == 1)
			ok = ok && s->th_raised == 1 && s->threshold == 1125;
		else
			ok = ok && s->th_lowered == 1 && s->threshold == 875;
		TP_ST_CHECK(st, ok,
			    pass == 0 ? "period rate: high 1000: kept" :
			    pass == 1 ? "period rate: high 2000: raised" :
					"period rate: high 500: lowered");
	}
}

/* ---- the token bucket and huge pages (issue 12 item 6) ------------------- */

/*
 * 1 MB/s (256 pages/s) with a burst of one second: a THP of 512 pages is
 * larger than the burst, admitted when the bucket is full, and then owed:
 * 2 s later the bucket is full again. THPs every 100 ms for 60 s: one
 * every 2 s, 30 in all, exactly the rate.
 */
static void tp_st_pol_check_thp_bucket(struct tp_st *st)
{
	struct tp_node_mem m = tp_st_pol_mems[0];
	struct tp_node_stats *s = &tp_st_pol_stats;
	unsigned int t, prom = 0;
	bool ok;
	int v;

	m.free = 100000;	/* room for THPs, no 6.1 bypass */
	ok = tp_st_pol_setup(TP_PRESET_LINUX61, TP_ST_POL_BUCKET, 0,
			     TP_ST_POL_KEEP, 1);
	for (t = 0; t < 60000; t += 100) {
		v = tp_st_pol_decide(0, 512, 0, &m, t);
		if (v == TP_PROMOTE) {
			ok = ok && !(t % 2000);
			prom++;
		} else {
			ok = ok && v == TP_REFUSE_RATELIMIT && (t % 2000);
		}
	}
	ok = ok && prom == 30 && tp_st_pol_snap() &&
	     s->verdict[TP_PROMOTE] == 30 * 512 &&
	     s->verdict[TP_REFUSE_RATELIMIT] == 570 * 512;
	TP_ST_CHECK(st, ok, "bucket, 1 MB/s: a THP every 2 s");

	/* a burst of 100 pages: the same, and a single page after a THP */
	tp_st_pol_big.c.burst_pages = 100;
	ok = tp_st_pol_reinit();
	ok = ok && tp_st_pol_decide(0, 512, 0, &m, 1000000) == TP_PROMOTE;
	ok = ok && tp_st_pol_decide(0, 1, 0, &m, 1000000) ==
		   TP_REFUSE_RATELIMIT;
	ok = ok && tp_st_pol_decide(0, 512, 0, &m, 1001000) ==
		   TP_REFUSE_RATELIMIT;
	ok = ok && tp_st_pol_decide(0, 512, 0, &m, 1002000) == TP_PROMOTE;
	TP_ST_CHECK(st, ok, "bucket, burst 100: a THP when full, then owed");
}

/* ---- per-slot candidate batches ------------------------------------------ */

#define TP_ST_POL_SLOTS	3

static struct tp_node_cpu tp_st_pol_slots[TP_ST_POL_SLOTS];

/*
 * Three slots of one node decide in turn with a batch of 5: each adds its
 * pages to the shared count once 5 are pending, so the shared count is the
 * sum of each slot's count rounded down to a multiple of 5 (it lags by at
 * most 3 x 4); a folio of 5 pages or more moves its slot's pending pages
 * at once.
 */
static void tp_st_pol_check_batch(struct tp_st *st)
{
	struct tp_node_stats *s = &tp_st_pol_stats;
	u64 n[TP_ST_POL_SLOTS] = { 0 }, want, nr;
	unsigned int k, i, j;
	bool ok;
	int v;

	ok = tp_st_pol_setup(TP_PRESET_LINUX61, 0, 0, TP_ST_POL_KEEP,
			     TP_ST_POL_KEEP);
	tp_st_pol_big.c.cand_batch = 5;
	ok = ok && tp_st_pol_reinit();
	tp_st_pol_fill(tp_st_pol_slots, sizeof(tp_st_pol_slots), 0);
	for (k = 0; k < 300 && ok; k++) {
		struct tp_fault f = { .latency = 0, .flags = 0 };

		i = k % TP_ST_POL_SLOTS;
		nr = k % 37 == 36 ? 8 : 1;
		f.nr_pages = nr;
		v = tp_decide(&tp_st_pol_pol, &tp_st_pol_node,
			      &tp_st_pol_slots[i], &f, &tp_st_pol_mems[0], 1);
		ok = ok && v == TP_PROMOTE;
		/* the slot's pending pages: batch reached, all of them move */
		n[i] = n[i] + nr >= 5 ? 0 : n[i] + nr;
		tp_node_stats_read(&tp_st_pol_pol, &tp_st_pol_node, s);
		for (j = 0; j < TP_ST_POL_SLOTS; j++)
			tp_node_stats_add(s, &tp_st_pol_slots[j]);
		want = s->candidate - n[0] - n[1] - n[2];
		ok = ok && s->cand_shared == want &&
		     s->candidate - s->cand_shared <= TP_ST_POL_SLOTS * 4 &&
		     s->decided == s->candidate;
	}
	TP_ST_CHECK(st, ok, "batch 5, 3 slots: the shared count lags <= 12");
}

/* ---- a variant switch mid-stream keeps statistics and the bound ---------- */

/*
 * 1000 hot single pages a second (10 every 10 ms) against 1 MB/s (256
 * pages/s), the limiter switched by tp_policy_tune() every 330 ms through
 * the bucket and the two windows, for 20 s. The variants keep apart state:
 * nothing is reinterpreted (the 0.1 union turned a late window count into
 * a bucket scale: 10^6 pages in 10 s), so each admits within its own
 * bound: at most burst + rate x T for the bucket plus (T + 2) x
 * (limit + 1) for the windows, 256 + 5120 + 22 x 257 = 11030 pages. Their
 * sum, not one of them: each variant finds its own budget when it comes
 * back (about 10200 pages here, twice the rate). And the limiter keeps
 * admitting, at least half the rate. Every decision is counted once.
 */
static void tp_st_pol_check_variant_switch(struct tp_st *st)
{
	static const u32 lv[] = { TP_LIMITER_BUCKET,
				  TP_LIMITER_WINDOW_RFC2020,
				  TP_LIMITER_WINDOW_LINUX61 };
	struct tp_node_stats *s = &tp_st_pol_stats;
	u64 prom = 0, total = 0;
	unsigned int t, k, sw = 0;	/* no 64-bit division */
	bool ok;
	int v;

	ok = tp_st_pol_setup(TP_PRESET_LINUX61, 0, 0, TP_ST_POL_KEEP, 1);
	tp_st_pol_big.c.cand_batch = 1;
	ok = ok && tp_st_pol_reinit();
	for (t = 0; t < 20000 && ok; t += 10) {
		if (t % 330 == 0) {
			tp_st_pol_big.c.limiter_variant = lv[sw++ % 3];
			ok = !tp_policy_tune(&tp_st_pol_pol, &tp_st_pol_big.c);
		}
		for (k = 0; k < 10; k++) {
			v = tp_st_pol_decide(0, 1, 0, &tp_st_pol_mems[0], t);
			ok = ok && (v == TP_PROMOTE ||
				    v == TP_REFUSE_RATELIMIT);
			prom += v == TP_PROMOTE;
			total++;
		}
	}
	ok = ok && tp_st_pol_snap() && s->decided == total &&
	     s->candidate == total && s->verdict[TP_PROMOTE] == prom &&
	     s->verdict[TP_REFUSE_RATELIMIT] == total - prom &&
	     s->cand_shared == total;
	ok = ok && prom <= 256 + 256 * 20 + 22 * 257 && prom >= 128 * 20;
	TP_ST_CHECK(st, ok, "limiter variant switched every 330 ms: bound");
}

/**
 * tp_st_decide_regress() - run the regression vectors of tp_decide()
 * @st: the run
 *
 * Return: the number of failed cases this call added.
 */
static int tp_st_decide_regress(struct tp_st *st)
{
	unsigned int failed = st->failed;

	tp_st_pol_check_period_rate(st);
	tp_st_pol_check_thp_bucket(st);
	tp_st_pol_check_batch(st);
	tp_st_pol_check_variant_switch(st);
	return st->failed - failed;
}

#endif /* TP_SELFTEST_DECIDE_REGRESS_H */
