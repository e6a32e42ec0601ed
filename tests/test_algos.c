// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * CMocka tests of the placement primitives past Linux 6.1: the goal
 * controller, the hotness record and the fault-count clock, alone and
 * through tp_decide() (the capacity-fitted threshold's are in
 * test_histogram.c). The worked examples shared with the kernel self-test
 * are in selftest/algos.h; this file adds properties checked against
 * independent derivations, and threads.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ST_VECTORS	"selftest/algos.h"
#include "st_cmocka.h"
#include "selftest/algos.h"
#include "tp_test_util.h"

static void test_selftest_all(void **state)
{
	(void)state;
	st_run(tp_st_algos, "tp_st_algos");
}

static void test_selftest_goal(void **state)
{
	(void)state;
	st_run(tp_st_goal, "goal controller");
}

static void test_selftest_fclock(void **state)
{
	(void)state;
	st_run(tp_st_fclock, "fault-count clock");
}

static void test_selftest_hotness(void **state)
{
	(void)state;
	st_run(tp_st_hotness, "hotness record");
}

static void test_selftest_histogram(void **state)
{
	(void)state;
	st_run(tp_st_histogram, "capacity-fitted threshold");
}

/* ---- goal controller: convergence on a proportional plant ------------------ */

/*
 * metric = out * k_num / k_den. From below the metric rises monotonically
 * and never passes the goal by more than the rounding of one step; the
 * error then squares (Newton), so 8 updates after reaching 1/2 of the goal
 * it is within 1 %.
 */
static void test_goal_converges(void **state)
{
	struct tp_goal g;
	int trial, i;

	(void)state;
	for (trial = 0; trial < 2000; trial++) {
		u64 goal = 1 + rnd() % 1000000, k_num = 1 + rnd() % 1000;
		u64 k_den = 1 + rnd() % 1000, out, cur, prev = 0;
		struct tp_goal_cfg c = { .sz = sizeof(c), .goal = goal,
					 .min = 1, .max = 1ULL << 40,
					 .init = 1 + rnd() % 100 };
		int reached = -1;

		assert_int_equal(tp_goal_init(&g, &c), 0);
		out = tp_goal_get(&g);
		for (i = 0; i < 200; i++) {
			cur = out * k_num / k_den;
			if (cur <= goal && i)
				assert_true(cur >= prev || prev > goal);
			/* from below: at most one unit of rounding past it */
			if (prev <= goal && i)
				assert_true(cur <= goal + k_num / k_den + 1);
			if (reached < 0 && 2 * cur >= goal)
				reached = i;
			prev = cur;
			out = tp_goal_update(&g, cur);
		}
		cur = out * k_num / k_den;
		/* within 1 % plus the plant's granularity k */
		assert_true(cur + goal / 100 + k_num / k_den + 1 >= goal);
		assert_true(cur <= goal + goal / 100 + k_num / k_den + 1);
		assert_true(reached >= 0);
	}
}

/*
 * The one-unit nudge never takes a proportional metric (an integer k per
 * unit: no rounding in the plant) to the halving point: once the metric is
 * below 1.5 g it stays below. At an output of 1 with the metric at 0.999 g
 * the nudge took it to 1.998 g, the next update halved it, and the two
 * alternated for ever.
 */
static void test_goal_nudge_no_halving(void **state)
{
	struct tp_goal_cfg c = { .sz = sizeof(c), .goal = 10000, .min = 1,
				 .max = 1000, .init = 1 };
	struct tp_goal g;
	int trial, i, below;

	(void)state;
	assert_int_equal(tp_goal_init(&g, &c), 0);
	for (i = 0; i < 20; i++)
		assert_int_equal(tp_goal_update(&g, 9990 * tp_goal_get(&g)), 1);
	for (trial = 0; trial < 20000; trial++) {
		u64 goal = 1 + rnd() % 100000, k = 1 + rnd() % 100000;
		u64 half = goal + (goal + 1) / 2, out, cur;

		c.goal = goal;
		c.max = 1ULL << 40;
		c.init = 1 + rnd() % 1000;
		assert_int_equal(tp_goal_init(&g, &c), 0);
		out = tp_goal_get(&g);
		below = 0;
		for (i = 0; i < 100; i++) {
			cur = k * out;
			if (below)
				assert_true(cur < half);
			below |= cur < half;
			out = tp_goal_update(&g, cur);
		}
	}
}

/*
 * A metric that hardly moves with the output (a fast tier's used share
 * against the promotion rate): the step rounds to no change, and the
 * nudge makes progress one unit an update.
 */
static void test_goal_nudge_progress(void **state)
{
	struct tp_goal_cfg c = { .sz = sizeof(c), .goal = 9970, .min = 1,
				 .max = 200, .init = 8 };
	struct tp_goal g;
	u64 out;
	int i;

	(void)state;
	assert_int_equal(tp_goal_init(&g, &c), 0);
	for (i = 0; i < 50; i++) {
		out = tp_goal_get(&g);
		assert_int_equal(tp_goal_update(&g, 9800 + out / 8), out + 1);
	}
	/* An output of 1 doubles with a nudge: only below 3/4 of the goal. */
	c.init = 1;
	assert_int_equal(tp_goal_init(&g, &c), 0);
	assert_int_equal(tp_goal_update(&g, 7478), 1);
	assert_int_equal(tp_goal_update(&g, 7477), 2);
}

/* Whatever the metric, one update moves the output by x2 or x1/2 at most. */
static void test_goal_step_bounded(void **state)
{
	struct tp_goal_cfg c = { .sz = sizeof(c), .goal = 12345, .min = 1,
				 .max = 1ULL << 50, .init = 1000 };
	struct tp_goal g;
	u64 out, next;
	int i;

	(void)state;
	assert_int_equal(tp_goal_init(&g, &c), 0);
	out = tp_goal_get(&g);
	for (i = 0; i < 100000; i++) {
		next = tp_goal_update(&g, rnd() % 40000);
		assert_true(next <= 2 * out || next == c.max);
		assert_true(next >= out / 2 || next == c.min);
		out = next;
	}
}

/* ---- hotness record against an independent model -------------------------- */

struct hot_model {
	bool used;
	u64 last;	/* time of the latest access, ticks */
	u32 cnt;
	bool ready;
};

/*
 * The reference: a page is in its window while (bucket(now) -
 * bucket(last)) mod 2^bits <= window; records compared field by field.
 */
static void test_hotness_model(void **state)
{
	static const u32 tps[] = { 1000, 1000000000 };
	int f, ti, i;

	(void)state;
	for (f = 0; f <= TP_HOT_PRECISE; f++) {
		for (ti = 0; ti < 2; ti++) {
			struct tp_hot_cfg c = { .sz = sizeof(c), .format = f,
						.tps = tps[ti],
						.freq_threshold = 1 + rnd() % 3 };
			u32 bits = f ? 14 : 5, cmax = f ? 7 : 3;
			struct hot_model m = { 0 };
			struct tp_hot h;
			u64 now = rnd() >> 20;
			u32 rec = 0;

			assert_int_equal(tp_hot_init(&h, &c), 0);
			for (i = 0; i < 20000; i++) {
				u64 bmask = (1ULL << bits) - 1, age;
				u32 nid = rnd() % 2000;

				now += rnd() % ((1ULL << h.shift) * (h.window + 8));
				age = ((now >> h.shift) - (m.last >> h.shift)) &
				      bmask;
				if (m.used && age <= h.window) {
					m.cnt += m.cnt < cmax;
				} else {
					m.cnt = 1;
					m.ready = false;
				}
				m.used = true;
				m.last = now;
				m.ready |= m.cnt >= c.freq_threshold;
				rec = tp_hot_record(&h, rec, nid, now);
				assert_int_equal(tp_hot_count(&h, rec), m.cnt);
				assert_int_equal(tp_hot_ready(&h, rec), m.ready);
				if (f)
					assert_int_equal(tp_hot_nid(&h, rec),
							 nid > 1023 ? 1023 : nid);
				assert_false(tp_hot_expired(&h, rec, now));
			}
		}
	}
}

/*
 * The ready bit does not age (tp_hot_ready()'s kernel-doc): a ready record
 * left idle past its window stays ready and reads as expired; the next
 * access past the window clears it and starts the count again.
 */
static void test_hotness_ready_does_not_age(void **state)
{
	struct tp_hot_cfg c = { .sz = sizeof(c), .format = TP_HOT_BYTE,
				.tps = 1000, .freq_threshold = 2 };
	struct tp_hot h;
	u32 rec;

	(void)state;
	assert_int_equal(tp_hot_init(&h, &c), 0);
	rec = tp_hot_record(&h, 0, 0, 10000);
	rec = tp_hot_record(&h, rec, 0, 10100);
	assert_true(tp_hot_ready(&h, rec));
	assert_false(tp_hot_expired(&h, rec, 12000));
	/* 3.5 s idle: past the 3 s window, within the byte record's span. */
	assert_true(tp_hot_ready(&h, rec));
	assert_true(tp_hot_expired(&h, rec, 13600));
	rec = tp_hot_record(&h, rec, 0, 13600);
	assert_false(tp_hot_ready(&h, rec));
	assert_int_equal(tp_hot_count(&h, rec), 1);
}

/*
 * The default bucket, at every clock up to 2^20 ticks a second and at a
 * few above (a prime, 1 ns, the largest): the smallest power of two of ticks of at least 1/8 s
 * (byte format) or 1 ms (precise), so the default window of 3 s always
 * fits the span. Checked against the definition, not a formula.
 */
static void test_hotness_default_bucket(void **state)
{
	static const u64 big[] = { 999999937, 1000000000, TP_TPS_MAX };
	int f;
	u64 tps;
	u32 i;

	(void)state;
	for (f = 0; f <= TP_HOT_PRECISE; f++) {
		u64 div = f ? 1000 : 8;

		for (i = 0, tps = 1; tps <= (1 << 20) + sizeof(big) / sizeof(big[0]);
		     tps++) {
			struct tp_hot_cfg c = { .sz = sizeof(c), .format = f };
			struct tp_hot h;
			u64 t = tps;

			if (tps > 1 << 20)
				t = big[i++];
			c.tps = t;
			assert_int_equal(tp_hot_init(&h, &c), 0);
			/* bucket x div >= tps, and half of it < tps */
			assert_true((div << h.shift) >= t);
			assert_true(!h.shift || (div << (h.shift - 1)) < t);
		}
	}
}

/*
 * The settings of any accepted configuration against their definitions
 * (hotness.h), not the fields the library derived: the bucket is
 * 2^bucket_shift ticks, or by default the smallest power of two of ticks
 * of at least 1/8 s (byte) or 1 ms (precise); the window is window_ms
 * (default 3000) in ticks rounded up as msecs_to_jiffies(), then up to
 * whole buckets. A record then follows the rules of algorithms.md section
 * 9 on true (unwrapped) times for gaps within the span, tp_hot_expired()
 * included, at random clocks, windows and thresholds.
 */
static void test_hotness_settings_model(void **state)
{
	static const u32 tps_list[] = { 1, 7, 8, 9, 100, 250, 300, 1000, 1025,
					32768, 999999937, 1000000000,
					TP_TPS_MAX };
	int trial, k;

	(void)state;
	for (trial = 0; trial < 20000; trial++) {
		struct tp_hot_cfg c = {
			.sz = sizeof(c), .format = rnd() % 2,
			.tps = rnd() % 2 ? tps_list[rnd() % 13] :
					   1 + rnd() % TP_TPS_MAX,
			.window_ms = rnd() % 2 ? 0 : rnd() % 20000,
			.bucket_shift = rnd() % 3 ? 0 : rnd() % 41 };
		u32 span = c.format ? 16384 : 32, cmax = c.format ? 7 : 3;
		u64 q, b, w, now, last = 0;
		u32 sh = c.bucket_shift, thr, cnt = 0, rec = 0, nid;
		bool used = false, ready = false, exp;
		struct tp_hot h;

		c.freq_threshold = rnd() % 2 ? 0 : 1 + rnd() % cmax;
		thr = c.freq_threshold ? c.freq_threshold : 2;
		if (!sh) {
			q = c.format ? (c.tps + 999ULL) / 1000 :
				       (c.tps + 7ULL) / 8;
			while ((1ULL << sh) < q)
				sh++;
		}
		b = 1ULL << sh;
		w = ((u64)(c.window_ms ? c.window_ms : 3000) * c.tps + 999) /
		    1000;
		w = (w + b - 1) / b;
		if (w > span - 2) {
			assert_int_equal(tp_hot_init(&h, &c), -ERANGE);
			continue;
		}
		assert_int_equal(tp_hot_init(&h, &c), 0);
		now = rnd() >> (rnd() % 64);
		for (k = 0; k < 40; k++) {
			u64 gap = rnd() % 2 ? rnd() % ((w + 2) * b) :
					      rnd() % ((span - 1) * b);

			if (used && (now + gap) / b - last / b >= span)
				gap = 0;
			now += gap;
			nid = rnd() % 2000;
			exp = !used || now / b - last / b > w;
			assert_int_equal(tp_hot_expired(&h, rec, now), exp);
			if (exp) {
				cnt = 1;
				ready = false;
			} else {
				cnt += cnt < cmax;
			}
			ready |= cnt >= thr;
			used = true;
			last = now;
			rec = tp_hot_record(&h, rec, nid, now);
			assert_int_equal(tp_hot_count(&h, rec), cnt);
			assert_int_equal(tp_hot_ready(&h, rec), ready);
			if (c.format && nid > TP_HOT_NID_MAX)
				nid = TP_HOT_NID_MAX;
			assert_int_equal(tp_hot_nid(&h, rec),
					 c.format ? nid : 0);
			assert_true(c.format ? !(rec & 0x3c000) : rec <= 0xff);
		}
	}
}

struct hot_thr {
	const struct tp_hot *h;
	u32 *rec;
	u64 ready;
};

static void *hot_thread(void *p)
{
	struct hot_thr *t = p;
	int i;

	for (i = 0; i < 200000; i++)
		t->ready += tp_hot_record32(t->h, t->rec, 1, 1000);
	return NULL;
}

/* Two sources recording one 32-bit record: it stays a valid record. */
static void test_hotness_record32_threads(void **state)
{
	struct tp_hot_cfg c = { .sz = sizeof(c), .format = TP_HOT_PRECISE,
				.tps = 1000, .freq_threshold = 7 };
	struct hot_thr a, b;
	pthread_t ta, tb;
	struct tp_hot h;
	u32 rec = 0;

	(void)state;
	assert_int_equal(tp_hot_init(&h, &c), 0);
	a = (struct hot_thr){ .h = &h, .rec = &rec };
	b = a;
	assert_int_equal(pthread_create(&ta, NULL, hot_thread, &a), 0);
	assert_int_equal(pthread_create(&tb, NULL, hot_thread, &b), 0);
	pthread_join(ta, NULL);
	pthread_join(tb, NULL);
	assert_int_equal(tp_hot_count(&h, rec), 7);
	assert_true(tp_hot_ready(&h, rec));
	assert_int_equal(tp_hot_nid(&h, rec), 1);
	assert_int_equal(rec & 0x3fff, 1000);
	assert_true(a.ready + b.ready >= 400000 - 6 - 2 * TP_RETRIES);
}

/* ---- fault-count clock under threads ---------------------------------------- */

struct fc_thr {
	struct tp_fault_clock *clk;
	struct tp_fault_clock_cpu slot;
	u64 last;
};

static void *fc_thread(void *p)
{
	struct fc_thr *t = p;
	u64 r;
	int i;

	for (i = 0; i < 1000000; i++) {
		r = tp_fault_clock_tick(t->clk, &t->slot, 1);
		assert_true(r >= t->last);	/* never goes back */
		t->last = r;
	}
	return NULL;
}

static void test_fclock_threads(void **state)
{
	struct tp_fault_clock clk;
	struct fc_thr t[2] = { { 0 } };
	pthread_t id[2];
	int i;

	(void)state;
	assert_int_equal(tp_fault_clock_init(&clk, 32), 0);
	for (i = 0; i < 2; i++) {
		t[i].clk = &clk;
		assert_int_equal(pthread_create(&id[i], NULL, fc_thread, &t[i]),
				 0);
	}
	for (i = 0; i < 2; i++)
		pthread_join(id[i], NULL);
	/* shared + pending = every fault; each slot holds < 32 pending */
	assert_int_equal(tp_fault_clock_now(&clk) + t[0].slot.diff.v +
			 t[1].slot.diff.v, 2000000);
	assert_true(t[0].slot.diff.v < 32 && t[1].slot.diff.v < 32);
}

/* ---- through tp_decide() ---------------------------------------------------- */

static const struct tp_node_mem mem_full = TP_TEST_MEM_FULL;

/* Latencies in hint faults: the threshold is in faults, the rest in time. */
static void test_decide_lat_faults(void **state)
{
	struct tp_policy_cfg c;
	struct tp_policy pol;
	struct tp_node node;
	struct tp_node_cpu cpu = { 0 };
	struct tp_node_stats s;
	struct tp_fault f = { .nr_pages = 1 };

	(void)state;
	assert_int_equal(tp_policy_preset(&c, TP_PRESET_LINUX61, 1000), 0);
	c.flags |= TP_POL_LAT_FAULTS;
	c.flags &= ~TP_POL_ADAPTIVE & ~TP_POL_BYPASS_RESET;
	c.hot_threshold_faults = 500;
	c.hot_threshold_ms = 1;		/* unused with faults */
	assert_int_equal(tp_policy_init(&pol, &c), 0);
	assert_int_equal(tp_node_init(&node, &pol, 0), 0);
	f.latency = 499;
	assert_int_equal(tp_decide(&pol, &node, &cpu, &f, &mem_full, 10),
			 TP_PROMOTE);
	f.latency = 500;	/* Linux 6.1: hot means latency < threshold */
	assert_int_equal(tp_decide(&pol, &node, &cpu, &f, &mem_full, 11),
			 TP_REFUSE_COLD);
	tp_node_stats_read(&pol, &node, &s);
	assert_int_equal(s.threshold, 500);

	c.hot_threshold_faults = 0;	/* the RFC's default: 1,000,000 */
	assert_int_equal(tp_policy_tune(&pol, &c), 0);
	f.latency = 999999;
	assert_int_equal(tp_decide(&pol, &node, &cpu, &f, &mem_full, 12),
			 TP_PROMOTE);
	c.hot_threshold_faults = (1ULL << 62) + 1;
	assert_int_equal(tp_policy_tune(&pol, &c), -ERANGE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_selftest_all),
		cmocka_unit_test(test_selftest_goal),
		cmocka_unit_test(test_selftest_fclock),
		cmocka_unit_test(test_selftest_hotness),
		cmocka_unit_test(test_selftest_histogram),
		cmocka_unit_test(test_goal_converges),
		cmocka_unit_test(test_goal_step_bounded),
		cmocka_unit_test(test_goal_nudge_no_halving),
		cmocka_unit_test(test_goal_nudge_progress),
		cmocka_unit_test(test_hotness_model),
		cmocka_unit_test(test_hotness_ready_does_not_age),
		cmocka_unit_test(test_hotness_default_bucket),
		cmocka_unit_test(test_hotness_settings_model),
		cmocka_unit_test(test_hotness_record32_threads),
		cmocka_unit_test(test_fclock_threads),
		cmocka_unit_test(test_decide_lat_faults),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
