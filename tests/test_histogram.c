// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * CMocka tests of the capacity-fitted (histogram) threshold, alone and
 * through tp_decide(): the fit checked by hand and against an independent
 * model of its definition at any clock, tunes, and threads. Its worked
 * examples shared with the kernel self-test (selftest/algos.h) run in
 * test_algos.c with the other primitives past Linux 6.1.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <tierpol/tierpol.h>
#include "selftest/selftest.h"
#include "tp_test_util.h"

/* ---- capacity-fitted threshold: properties ---------------------------------- */

/*
 * The threshold a period closed on @n pages at latencies 100..100 + n - 1
 * fits to, recorded with @batch; with @tune the batch is lowered to 1
 * before the last page.
 */
static u64 hist_fit_after(u32 batch, bool tune, u32 n)
{
	struct tp_thresh_cfg c = {
		.sz = sizeof(c), .variant = TP_THRESH_HISTOGRAM, .tps = 1000,
		.ref_th = 1000, .period = 1000, .rate_limit = 20,
		.batch = batch };
	struct tp_thresh_cpu cpu;
	struct tp_thresh t;
	u32 i;

	memset(&cpu, 0, sizeof(cpu));
	assert_int_equal(tp_thresh_init(&t, &c, 0, 0), 0);
	for (i = 0; i < n; i++) {
		if (tune && i == n - 1) {
			c.batch = 1;
			assert_int_equal(tp_thresh_tune(&t, &c), 0);
		}
		tp_thresh_record(&t, &cpu, 100 + i * 40, 1);
	}
	tp_thresh_update(&t, 0, 1001);
	return tp_thresh_get(&t);
}

/*
 * A tune that lowers the batch to 1 leaves no page in the slot: the next
 * record moves what the old batch held, and the fit sees every page (the
 * same threshold as with a batch of 1 throughout). Without the move it
 * would see one page, which fits another threshold.
 */
static void test_histogram_batch_tuned_down(void **state)
{
	u64 all = hist_fit_after(1, false, 60);

	(void)state;
	assert_int_not_equal(all, hist_fit_after(1, false, 1));
	assert_int_equal(hist_fit_after(64, true, 60), all);
}

/*
 * What tp_thresh_tune() documents for a tune that changes the bins' width:
 * the pages counted before it are read as if their latencies were 2^d
 * times theirs. The bound goes from 2000 to 2^25 ticks (the first bin from
 * 1 to 2^11 ticks wide: d = 11); the fit of 100 pages at 1900 ticks
 * recorded before that tune is the fit of 100 pages at 1900 x 2^11 ticks
 * recorded after it, not the fit of the pages' own latencies.
 */
static void test_histogram_tune_width(void **state)
{
	struct tp_thresh_cfg small = {
		.sz = sizeof(small), .variant = TP_THRESH_HISTOGRAM,
		.tps = 1000, .ref_th = 1000, .period = 1000, .rate_limit = 25,
		.batch = 1 };
	struct tp_thresh_cfg big = small;
	struct tp_thresh_cpu cpu;
	struct tp_thresh t;
	u64 tuned, scaled, own;

	(void)state;
	big.ref_th = 1ULL << 24;
	memset(&cpu, 0, sizeof(cpu));
	assert_int_equal(tp_thresh_init(&t, &small, 0, 0), 0);
	tp_thresh_record(&t, &cpu, 1900, 100);
	assert_int_equal(tp_thresh_tune(&t, &big), 0);
	tp_thresh_update(&t, 0, 1001);
	tuned = tp_thresh_get(&t);

	assert_int_equal(tp_thresh_init(&t, &big, 0, 0), 0);
	tp_thresh_record(&t, &cpu, 1900ULL << 11, 100);
	tp_thresh_update(&t, 0, 1001);
	scaled = tp_thresh_get(&t);

	assert_int_equal(tp_thresh_init(&t, &big, 0, 0), 0);
	tp_thresh_record(&t, &cpu, 1900, 100);
	tp_thresh_update(&t, 0, 1001);
	own = tp_thresh_get(&t);

	assert_int_equal(tuned, scaled);
	assert_int_not_equal(tuned, own);
}

/* A histogram controller closed once at @now with the pages recorded. */
struct hist_pages {
	u64 lat, n;
};

static int hist_close(struct tp_thresh *t, const struct tp_thresh_cfg *c,
		      const struct hist_pages *p, u32 nr, u64 now)
{
	struct tp_thresh_cpu cpu;
	u32 i;

	memset(&cpu, 0, sizeof(cpu));
	if (c)
		assert_int_equal(tp_thresh_init(t, c, 0, 0), 0);
	for (i = 0; i < nr; i++)
		tp_thresh_record(t, &cpu, p[i].lat, p[i].n);
	return tp_thresh_update(t, 0, now);
}

/*
 * The fit by hand (docs/algorithms.md): budget 2 x period x rate / tps
 * pages; bins of 2^shift ticks and up, shift the least with 2^14 x 2^shift
 * >= 2 x ref_th; linear inside the bin where the budget runs out; clamped
 * into [unit, 2 x ref_th]; then every bin halved, keeping the larger half.
 */
static void test_histogram_by_hand(void **state)
{
	static const struct hist_pages at_1_5e9 = { 1500000000, 100 };
	static const struct hist_pages at_150000 = { 150000, 100 };
	static const struct hist_pages at_0[] = { { 0, 100 }, { 0, 10 } };
	static const struct hist_pages odd[] = { { 10, 3 }, { 100, 3 } };
	struct tp_thresh_cfg c = { .sz = sizeof(c),
				   .variant = TP_THRESH_HISTOGRAM, .batch = 1 };
	struct tp_thresh t;

	(void)state;
	/*
	 * 10^9 ticks a second, ref 1 s: bound 2e9, shift 17 (2^31 / 2^14),
	 * budget 20 pages; 100 pages in [2^30, 2^31): 2^30 + 2^30 x 20/100.
	 */
	c.tps = 1000000000;
	c.ref_th = 1000000000;
	c.period = c.tps;
	c.rate_limit = 10;
	hist_close(&t, &c, &at_1_5e9, 1, c.period + 1);
	assert_int_equal(tp_thresh_get(&t), 1288490188ULL);
	/* 10^6 ticks, ref 0.1 s: bound 200000, shift 4; in [2^17, 2^18). */
	c.tps = 1000000;
	c.ref_th = 100000;
	c.period = c.tps;
	hist_close(&t, &c, &at_150000, 1, c.period + 1);
	assert_int_equal(tp_thresh_get(&t), 131072 + 131072 * 20 / 100);
	/* bound 32768: shift 1, the first bin [0, 2); budget 50 of 100. */
	c.tps = 1000;
	c.ref_th = 16384;
	c.period = 1000;
	c.rate_limit = 25;
	c.steps = 65536;
	hist_close(&t, &c, &at_0[0], 1, 1001);
	assert_int_equal(tp_thresh_get(&t), 1);
	/* A budget of 0 in the first bin: its lower edge, raised to unit. */
	c.ref_th = 1000;
	c.steps = 16;
	c.rate_limit = 0;
	assert_int_equal(hist_close(&t, &c, &at_0[1], 1, 1001),
			 TP_TH_LOWERED);
	assert_int_equal(tp_thresh_get(&t), 125);
	/*
	 * Cooling keeps 2 of 3: 3 pages at 10 ([8, 16)) and 3 at 100
	 * ([64, 128)); budget 0 fits 8; then 2 and 2 are left, and a budget
	 * of 2 takes the first bin whole and stops at 64.
	 */
	c.steps = 65536;
	hist_close(&t, &c, odd, 2, 1001);
	assert_int_equal(tp_thresh_get(&t), 8);
	c.rate_limit = 1;
	assert_int_equal(tp_thresh_tune(&t, &c), 0);
	assert_int_equal(hist_close(&t, NULL, NULL, 0, 2002), TP_TH_RAISED);
	assert_int_equal(tp_thresh_get(&t), 64);
}

/*
 * Pages recorded below the fitted threshold never exceed the budget by
 * more than the bin the threshold falls in can hide (linear interpolation
 * of an unknown distribution): checked against an exact count, on random
 * latencies; and a larger budget never gives a smaller threshold.
 */
static void test_histogram_fit(void **state)
{
	static u64 lat[4000];
	struct tp_thresh t;
	struct tp_thresh_cpu cpu;
	int trial, i;

	(void)state;
	for (trial = 0; trial < 300; trial++) {
		u64 rate = rnd() % 3000, prev_th = 0, below, th, hi;
		u32 n = 1 + rnd() % 4000;
		int k;

		for (i = 0; i < (int)n; i++)
			lat[i] = rnd() % (1 + rnd() % 5000);
		for (k = 0; k < 2; k++) {
			struct tp_thresh_cfg c = {
				.sz = sizeof(c), .variant = TP_THRESH_HISTOGRAM,
				.tps = 1000, .ref_th = 1000, .period = 1000,
				.rate_limit = rate + (u64)k * 500, .batch = 1 };

			memset(&cpu, 0, sizeof(cpu));
			assert_int_equal(tp_thresh_init(&t, &c, 0, 0), 0);
			for (i = 0; i < (int)n; i++)
				tp_thresh_record(&t, &cpu, lat[i], 1);
			tp_thresh_update(&t, 0, 1001);
			th = tp_thresh_get(&t);
			assert_true(th >= 125 && th <= 2000);
			assert_true(th >= prev_th);
			prev_th = th;
			/* bin of th: pages below its upper edge bound the error */
			hi = 2ULL << (63 - __builtin_clzll(th));
			below = 0;
			for (i = 0; i < (int)n; i++)
				below += lat[i] < th;
			if (th > 125 && th < 2000) {
				u64 budget = 2 * c.rate_limit, in_bin = 0;

				for (i = 0; i < (int)n; i++)
					in_bin += lat[i] >= hi / 2 && lat[i] < hi;
				assert_true(below <= budget + in_bin);
				assert_true(below + in_bin >= budget);
			}
		}
	}
}

/*
 * The fit and the cooling against their definitions (algorithms.md
 * section 7), at any clock and reference, so with bins wider than a tick
 * too (the other tests use 1 ms ticks and a bound of 2000, shift 0), over
 * several periods: bins of width u = 2^shift, the smallest shift with
 * 2^14 u >= 2 ref_th; the budget 2 x rate x period; the threshold
 * interpolated in the first bin where the pages counted exceed it,
 * clamped into [unit, 2 ref_th]; the event against the threshold before;
 * then every bin v becomes v - v / 2.
 */
static u64 hist_edge(u32 sh, u32 b)
{
	return b ? 1ULL << (sh + b - 1) : 0;
}

/* floor(x * y / z) for y < z < 2^32, without a 128-bit type (i386) */
static u64 hist_frac(u64 x, u64 y, u64 z)
{
	return x / z * y + x % z * y / z;
}

static void test_histogram_model(void **state)
{
	int trial, round, k;
	u32 b, j;

	(void)state;
	for (trial = 0; trial < 5000; trial++) {
		u32 tps = rnd() % 2 ? 1000 : 1 + rnd() % TP_TPS_MAX;
		u64 ref = rnd() % 4 ? 1 + rnd() % (4ULL * tps) :
			  (rnd() >> (rnd() % 64)) % TP_TIME_MAX;
		struct tp_thresh_cfg c = {
			.sz = sizeof(c), .variant = TP_THRESH_HISTOGRAM,
			.steps = rnd() % 2 ? 0 : 1 + rnd() % 65536, .tps = tps,
			.ref_th = ref, .period = rnd() % (10ULL * tps),
			.rate_limit = rnd() % 100000, .batch = 1 };
		u64 max = 2 * ref, unit, ref_cand, budget, now = 0, prev;
		u64 bins[TP_THRESH_BINS] = { 0 };
		u32 steps = c.steps ? c.steps : 16, sh = 0;
		struct tp_thresh_cpu cpu;
		struct tp_thresh t;

		memset(&cpu, 0, sizeof(cpu));
		assert_int_equal(tp_thresh_init(&t, &c, 0, 0), 0);
		unit = max ? (max / steps ? max / steps : 1) : 0;
		while (1ULL << (14 + sh) < max)
			sh++;
		/* < 2^35 x 2^17: no overflow */
		ref_cand = c.period * c.rate_limit / tps;
		budget = 2 * ref_cand;
		prev = tp_thresh_get(&t);
		for (round = 0; round < 4; round++) {
			u64 cum = 0, th = max, lo, hi, got;
			bool found = false;
			int ev;

			for (k = rnd() % 40; k > 0; k--) {
				u64 lat = rnd() % 2 ? rnd() % (max + 2) :
					  hist_edge(sh, rnd() % 16) - rnd() % 2;
				u64 n = 1 + rnd() % 512;

				if (lat == TP_LATENCY_UNKNOWN)
					lat--;
				tp_thresh_record(&t, &cpu, lat, n);
				for (b = 0, j = 1; j < TP_THRESH_BINS; j++)
					if (lat >= hist_edge(sh, j))
						b = j;
				bins[b] += n;
			}
			for (b = 0; b < TP_THRESH_BINS; b++) {
				assert_int_equal(t.st.hist[b].v, bins[b]);
				if (!found && cum + bins[b] > budget) {
					lo = hist_edge(sh, b);
					hi = b + 1 < TP_THRESH_BINS ?
					     hist_edge(sh, b + 1) : max;
					th = hi > lo ? lo + hist_frac(hi - lo,
						budget - cum, bins[b]) : lo;
					found = true;
				}
				cum += bins[b];
			}
			th = th < unit ? unit : th > max ? max : th;
			now += c.period + 1;
			ev = tp_thresh_update(&t, 0, now);
			got = tp_thresh_get(&t);
			assert_int_equal(got, th);
			assert_int_equal(ev, th < prev ? TP_TH_LOWERED :
					     th > prev ? TP_TH_RAISED :
					     TP_TH_KEPT);
			prev = got;
			for (b = 0; b < TP_THRESH_BINS; b++) {
				bins[b] -= bins[b] / 2;
				assert_int_equal(t.st.hist[b].v, bins[b]);
			}
		}
	}
}

struct hist_thr {
	struct tp_thresh *t;
	struct tp_thresh_cpu cpu;
	u64 pages;
};

static void *hist_thread(void *p)
{
	struct hist_thr *h = p;
	u64 x = (u64)(uintptr_t)p | 1;
	int i;

	for (i = 0; i < 500000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		tp_thresh_record(h->t, &h->cpu, x % 3000, 1 + (x >> 60));
		h->pages += 1 + (x >> 60);
	}
	return NULL;
}

/* Two threads recording: shared bins + every slot's bins = every page. */
static void test_histogram_threads(void **state)
{
	struct tp_thresh_cfg c = { .sz = sizeof(c),
				   .variant = TP_THRESH_HISTOGRAM, .tps = 1000,
				   .ref_th = 1000, .period = 1000,
				   .rate_limit = 100, .batch = 64 };
	struct hist_thr h[2] = { { 0 } };
	struct tp_thresh t;
	pthread_t id[2];
	u64 sum = 0;
	u32 b;
	int i;

	(void)state;
	assert_int_equal(tp_thresh_init(&t, &c, 0, 0), 0);
	for (i = 0; i < 2; i++) {
		h[i].t = &t;
		assert_int_equal(pthread_create(&id[i], NULL, hist_thread,
						&h[i]), 0);
	}
	for (i = 0; i < 2; i++)
		pthread_join(id[i], NULL);
	for (b = 0; b < TP_THRESH_BINS; b++) {
		sum += t.st.hist[b].v;
		for (i = 0; i < 2; i++)
			sum += h[i].cpu.hist[b].v;
	}
	assert_int_equal(sum, h[0].pages + h[1].pages);
	for (i = 0; i < 2; i++)
		assert_true(h[i].cpu.pending.v < 64);
}

/* ---- through tp_decide() ---------------------------------------------------- */

static const struct tp_node_mem mem_full = TP_TEST_MEM_FULL;

/*
 * The histogram variant through the decision: the threshold goes from the
 * reference to the fitted value in one period. Rate 4 MB/s = 1024 pages/s,
 * period 1 s: a budget of 2048 pages over the two periods the bins hold.
 * 4096 judged faults, latencies 0..4095 ms uniform: the fit is near 2048.
 */
static void test_decide_histogram(void **state)
{
	struct tp_policy_cfg c;
	struct tp_policy pol;
	struct tp_node node;
	struct tp_node_cpu cpu = { 0 };
	struct tp_node_stats s;
	struct tp_fault f = { .nr_pages = 1 };
	u64 i;

	(void)state;
	assert_int_equal(tp_policy_preset(&c, TP_PRESET_LINUX61, 1000), 0);
	c.thresh_variant = TP_THRESH_HISTOGRAM;
	c.rate_limit_mbps = 4;
	c.scan_period_max_ms = 1000;
	c.hot_threshold_ms = 4000;	/* bounds [500, 8000] */
	c.flags &= ~TP_POL_FREE_BYPASS & ~TP_POL_BYPASS_RESET;
	c.cand_batch = 1;
	assert_int_equal(tp_policy_init(&pol, &c), 0);
	assert_int_equal(tp_node_init(&node, &pol, 0), 0);
	for (i = 0; i < 4096; i++) {
		f.latency = i;
		tp_decide(&pol, &node, &cpu, &f, &mem_full, 1 + i / 8);
	}
	tp_node_stats_read(&pol, &node, &s);
	assert_int_equal(s.threshold, 4000);	/* still the reference */
	f.latency = 0;
	tp_decide(&pol, &node, &cpu, &f, &mem_full, 1002);
	tp_node_stats_read(&pol, &node, &s);
	tp_node_stats_add(&s, &cpu);
	/* bin [1024, 2048) ends the budget: 2048 exactly (2048 - 1024 below) */
	assert_true(s.threshold >= 1900 && s.threshold <= 2100);
	assert_int_equal(s.th_lowered, 1);
	assert_int_equal(s.decided, 4097);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_histogram_fit),
		cmocka_unit_test(test_histogram_model),
		cmocka_unit_test(test_histogram_batch_tuned_down),
		cmocka_unit_test(test_histogram_tune_width),
		cmocka_unit_test(test_histogram_by_hand),
		cmocka_unit_test(test_histogram_threads),
		cmocka_unit_test(test_decide_histogram),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
