/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Self-test vectors of the placement primitives past Linux 6.1: the goal
 * controller (DAMOS quota-goal feedback), the hotness record (pghot's
 * formats), the fault-count clock and the capacity-fitted threshold
 * (TP_THRESH_HISTOGRAM). Shared by tests/test_algos.c and the kernel's
 * self-test: public API only, no libc, no 64-bit division, small frames.
 *
 * Every expected value was worked out by hand from the formulas in the
 * headers (goal.h, hotness.h, fclock.h, threshold.h), not computed with
 * the library.
 */
#ifndef TP_SELFTEST_ALGOS_H
#define TP_SELFTEST_ALGOS_H

#include "selftest.h"

#ifndef EINVAL
#define EINVAL		22
#endif
#ifndef ERANGE
#define ERANGE		34
#endif

static bool tp_st_algos_same(const void *a, const void *b, size_t n)
{
	const u8 *x = a, *y = b;
	size_t i;

	for (i = 0; i < n; i++)
		if (x[i] != y[i])
			return false;
	return true;
}

/* ---- goal controller ------------------------------------------------------ */

static struct tp_goal tp_st_goal_obj, tp_st_goal_copy;

struct tp_st_goal_bad {
	const char *name;
	u32 sz;
	u64 goal, min, max, init;
	int ret;
};

static const struct tp_st_goal_bad tp_st_goal_bad_rows[] = {
	{ "goal 0", 0, 0, 1, 10, 0, -EINVAL },
	{ "min 0", 0, 100, 0, 10, 0, -EINVAL },
	{ "min above max", 0, 100, 11, 10, 0, -EINVAL },
	{ "goal above 2^62", 0, (1ULL << 62) + 1, 1, 10, 0, -ERANGE },
	{ "max above 2^62", 0, 100, 1, (1ULL << 62) + 1, 0, -ERANGE },
	{ "init above 2^62", 0, 100, 1, 10, (1ULL << 62) + 1, -ERANGE },
	{ "sz too small", 8, 100, 1, 10, 0, -EINVAL },
};

/* One update: the metric fed, and the output expected (by hand). */
struct tp_st_goal_step {
	u64 metric;
	u64 out;
};

/*
 * goal 100, bounds [1, 1000], init 10: o' = o x (200 - c) / 100, factor
 * bounded to [1/2, 2] (c >= 150 halves), then clamped.
 */
static const struct tp_st_goal_step tp_st_goal_steps[] = {
	{ 0, 20 },		/* 10 x 200/100 */
	{ 50, 30 },		/* 20 x 150/100 */
	{ 100, 30 },		/* at the goal: kept */
	{ 150, 15 },		/* 1.5 goal: halved */
	{ 120, 12 },		/* 15 x 80/100 */
	{ 99, 13 },		/* 12 x 101/100 = 12.12: stuck at 12, so + 1 */
	{ 1, 25 },		/* 13 x 199/100 = 25.87 -> 25 */
	{ ~0ULL, 12 },		/* any huge metric: halved */
	{ 1000, 6 },
	{ 1000, 3 },
	{ 1000, 1 },
	{ 1000, 1 },		/* min holds */
	{ 80, 1 },		/* 1 x 1.2, no + 1: 160 would halve */
	{ 74, 2 },		/* 1 x 126/100, and 148 < 150: + 1 */
	{ 0, 4 },
};

static int tp_st_goal(struct tp_st *st)
{
	struct tp_goal_cfg c = { .sz = sizeof(c), .goal = 100, .min = 1,
				 .max = 1000, .init = 10 };
	unsigned int before = st->failed;
	u32 i;

	for (i = 0; i < TP_ST_ARRAY_SIZE(tp_st_goal_bad_rows); i++) {
		const struct tp_st_goal_bad *r = &tp_st_goal_bad_rows[i];
		struct tp_goal_cfg b = { .sz = r->sz ? r->sz : sizeof(b),
					 .goal = r->goal, .min = r->min,
					 .max = r->max, .init = r->init };

		tp_st_goal_copy = tp_st_goal_obj;
		TP_ST_CHECK(st, tp_goal_init(&tp_st_goal_obj, &b) == r->ret &&
			    tp_st_algos_same(&tp_st_goal_obj, &tp_st_goal_copy,
					     sizeof(tp_st_goal_obj)), r->name);
	}
	TP_ST_CHECK(st, tp_goal_init(&tp_st_goal_obj, NULL) == -EINVAL,
		    "goal: NULL config");
	TP_ST_CHECK(st, tp_goal_init(NULL, &c) == -EINVAL, "goal: NULL object");

	TP_ST_CHECK(st, !tp_goal_init(&tp_st_goal_obj, &c) &&
		    tp_goal_get(&tp_st_goal_obj) == 10, "goal: init 10");
	for (i = 0; i < TP_ST_ARRAY_SIZE(tp_st_goal_steps); i++)
		TP_ST_CHECK(st, tp_goal_update(&tp_st_goal_obj,
					       tp_st_goal_steps[i].metric) ==
			    tp_st_goal_steps[i].out, "goal: update step");

	/* A tune keeps the output, read as clamped into the new bounds. */
	c.min = 5;
	c.max = 8;
	TP_ST_CHECK(st, !tp_goal_tune(&tp_st_goal_obj, &c) &&
		    tp_goal_get(&tp_st_goal_obj) == 5, "goal: tune clamps up");
	TP_ST_CHECK(st, tp_goal_update(&tp_st_goal_obj, 0) == 8,
		    "goal: 5 x 2 clamped to 8");
	c.min = 9;
	tp_st_goal_copy = tp_st_goal_obj;
	TP_ST_CHECK(st, tp_goal_tune(&tp_st_goal_obj, &c) == -EINVAL &&
		    tp_st_algos_same(&tp_st_goal_obj, &tp_st_goal_copy,
				     sizeof(tp_st_goal_obj)),
		    "goal: rejected tune changes nothing");

	/* init 0 selects min; exact arithmetic near 2^62. */
	c.min = 7;
	c.max = 1ULL << 62;
	c.init = 0;
	TP_ST_CHECK(st, !tp_goal_init(&tp_st_goal_obj, &c) &&
		    tp_goal_get(&tp_st_goal_obj) == 7, "goal: init 0 is min");
	c.goal = 3;
	c.init = 3ULL << 59;		/* 0.375 x 2^62 */
	TP_ST_CHECK(st, !tp_goal_init(&tp_st_goal_obj, &c) &&
		    tp_goal_update(&tp_st_goal_obj, 1) == 5ULL << 59,
		    "goal: 3 x 2^59 x 5/3, exact");
	TP_ST_CHECK(st, tp_goal_update(&tp_st_goal_obj, 0) == 1ULL << 62,
		    "goal: doubling clamped to 2^62");
	/* Any metric at 1.5 g or more halves, past 2^62 too. */
	c.goal = (1ULL << 62) - 1;
	c.init = 1ULL << 40;
	TP_ST_CHECK(st, !tp_goal_init(&tp_st_goal_obj, &c) &&
		    tp_goal_update(&tp_st_goal_obj, ~0ULL) == 1ULL << 39,
		    "goal near 2^62: a metric of 2^64 - 1 halves");

	/*
	 * Odd goals: 1.5 g is not a whole number, so the halving starts at
	 * 2c >= 3g, not at c >= g + g/2 (which halves goal 1 on target).
	 */
	c.min = 1;
	c.max = 1000;
	c.goal = 1;
	c.init = 100;
	TP_ST_CHECK(st, !tp_goal_init(&tp_st_goal_obj, &c) &&
		    tp_goal_update(&tp_st_goal_obj, 1) == 100 &&
		    tp_goal_update(&tp_st_goal_obj, 1) == 100,
		    "goal 1: on target, kept");
	TP_ST_CHECK(st, tp_goal_update(&tp_st_goal_obj, 2) == 50,
		    "goal 1: metric 2 (>= 1.5) halves");
	c.goal = 3;
	c.init = 90;
	TP_ST_CHECK(st, !tp_goal_init(&tp_st_goal_obj, &c) &&
		    tp_goal_update(&tp_st_goal_obj, 4) == 60,
		    "goal 3: metric 4 (< 4.5): 90 x 2/3");
	TP_ST_CHECK(st, tp_goal_update(&tp_st_goal_obj, 5) == 30,
		    "goal 3: metric 5 (>= 4.5) halves");
	return (int)(st->failed - before);
}

/* ---- fault-count clock ----------------------------------------------------- */

static int tp_st_fclock(struct tp_st *st)
{
	static struct tp_fault_clock clk;
	static struct tp_fault_clock_cpu a, b;
	unsigned int before = st->failed;

	TP_ST_CHECK(st, tp_fault_clock_init(NULL, 4) == -EINVAL,
		    "fclock: NULL");
	TP_ST_CHECK(st, tp_fault_clock_init(&clk, TP_CAND_BATCH_MAX + 1) ==
		    -EINVAL, "fclock: batch too large");
	TP_ST_CHECK(st, !tp_fault_clock_init(&clk, 4), "fclock: init");
	a.diff = (struct tp_local64){ 0 };
	b.diff = (struct tp_local64){ 0 };
	TP_ST_CHECK(st, tp_fault_clock_tick(&clk, &a, 1) == 0 &&
		    tp_fault_clock_tick(&clk, &a, 1) == 0 &&
		    tp_fault_clock_tick(&clk, &a, 1) == 0,
		    "fclock: 3 faults pending in a batch of 4");
	TP_ST_CHECK(st, tp_fault_clock_tick(&clk, &b, 2) == 0,
		    "fclock: another slot's 2 pending");
	TP_ST_CHECK(st, tp_fault_clock_tick(&clk, &a, 1) == 4,
		    "fclock: the 4th adds the batch");
	TP_ST_CHECK(st, tp_fault_clock_tick(&clk, &b, 5) == 11 &&
		    tp_fault_clock_now(&clk) == 11, "fclock: 2 + 5 added");
	TP_ST_CHECK(st, !tp_fault_clock_init(&clk, 0) &&
		    tp_fault_clock_tick(&clk, &a, 3) == 3,
		    "fclock: batch 0 counts at once");
	/* more than TP_RATE_MAX: ignored (2^64 - 1 would step it back) */
	TP_ST_CHECK(st, tp_fault_clock_tick(&clk, &a, ~0ULL) == 3 &&
		    tp_fault_clock_tick(&clk, &b, TP_RATE_MAX + 1) == 3 &&
		    tp_fault_clock_tick(&clk, &a, TP_RATE_MAX) ==
		    TP_RATE_MAX + 3, "fclock: past TP_RATE_MAX ignored");
	return (int)(st->failed - before);
}

/* ---- hotness record -------------------------------------------------------- */

struct tp_st_hot_bad {
	const char *name;
	u32 format, tps, thr, window_ms, shift;
	int ret;
};

static const struct tp_st_hot_bad tp_st_hot_bad_rows[] = {
	{ "unknown format", 2, 1000, 0, 0, 0, -EINVAL },
	{ "tps 0", 0, 0, 0, 0, 0, -EINVAL },
	{ "byte threshold 4", 0, 1000, 4, 0, 0, -EINVAL },
	{ "precise threshold 8", 1, 1000, 8, 0, 0, -EINVAL },
	{ "bucket shift 41", 0, 1000, 0, 0, 41, -EINVAL },
	/* 5000 ms of 128 ms buckets: 40 >= 31 */
	{ "byte window 5 s", 0, 1000, 0, 5000, 0, -ERANGE },
	/* 20000 ms of 1 ms buckets: 20000 >= 16383 */
	{ "precise window 20 s", 1, 1000, 0, 20000, 0, -ERANGE },
};

/* An access and the record expected after it (by hand, ms ticks). */
struct tp_st_hot_step {
	const char *name;
	u64 now;
	u32 nid;
	u32 rec;
	bool ready;
};

/*
 * Byte format, tps 1000: buckets of 2^7 = 128 ms, window ceil(3000 /
 * 128) = 24 buckets, threshold 2. Record: ready << 7 | bucket << 2 | count.
 */
static const struct tp_st_hot_step tp_st_hot_byte[] = {
	{ "1st access at 1000 ms: bucket 7", 1000, 0, 7 << 2 | 1, false },
	{ "2nd at 3500 ms: bucket 27, ready", 3500, 0,
	  0x80 | 27 << 2 | 2, true },
	{ "3rd at 3600 ms: bucket 28", 3600, 0, 0x80 | 28 << 2 | 3, true },
	{ "4th: the count saturates at 3", 3700, 0, 0x80 | 28 << 2 | 3, true },
	/* 3700 -> bucket 28; 28 + 25 = 53 -> bucket 21 after the wrap */
	{ "25 buckets later: a new window", 6784, 0, 21 << 2 | 1, false },
};

/*
 * Precise format, tps 1000: buckets of 1 ms (shift 0), window 3000,
 * threshold 2. Record: ready << 31 | nid << 21 | count << 18 | time.
 */
static const struct tp_st_hot_step tp_st_hot_precise[] = {
	{ "1st at 1000 ms from node 5", 1000, 5, 5U << 21 | 1U << 18 | 1000,
	  false },
	{ "2nd at 2000 ms from node 6", 2000, 6,
	  0x80000000U | 6U << 21 | 2U << 18 | 2000, true },
	{ "node 4000 is stored as 1023", 2001, 4000,
	  0x80000000U | 1023U << 21 | 3U << 18 | 2001, true },
	{ "3001 ms later: a new window", 5002, 1,
	  1U << 21 | 1U << 18 | 5002, false },
};

static bool tp_st_hot_walk(struct tp_st *st, const struct tp_hot *h,
			   const struct tp_st_hot_step *s, u32 n)
{
	u32 rec = 0, i;
	bool ok = true;

	for (i = 0; i < n; i++) {
		rec = tp_hot_record(h, rec, s[i].nid, s[i].now);
		ok &= TP_ST_CHECK(st, rec == s[i].rec &&
				  tp_hot_ready(h, rec) == s[i].ready, s[i].name);
	}
	return ok;
}

static int tp_st_hotness(struct tp_st *st)
{
	struct tp_hot_cfg c = { .sz = sizeof(c), .format = TP_HOT_BYTE,
				.tps = 1000 };
	static struct tp_hot h, copy;
	unsigned int before = st->failed;
	u32 i, rec, word;

	for (i = 0; i < TP_ST_ARRAY_SIZE(tp_st_hot_bad_rows); i++) {
		const struct tp_st_hot_bad *r = &tp_st_hot_bad_rows[i];
		struct tp_hot_cfg b = { .sz = sizeof(b), .format = r->format,
					.tps = r->tps, .freq_threshold = r->thr,
					.window_ms = r->window_ms,
					.bucket_shift = r->shift };

		copy = h;
		TP_ST_CHECK(st, tp_hot_init(&h, &b) == r->ret &&
			    tp_st_algos_same(&h, &copy, sizeof(h)), r->name);
	}
	TP_ST_CHECK(st, !tp_hot_init(&h, &c) && h.shift == 7 &&
		    h.window == 24 && h.threshold == 2,
		    "byte format: 128 ms buckets, 24 of them, threshold 2");
	tp_st_hot_walk(st, &h, tp_st_hot_byte,
		       TP_ST_ARRAY_SIZE(tp_st_hot_byte));

	/* Documented: 4 s apart is 31.25 buckets, which wraps to 0. */
	rec = tp_hot_record(&h, tp_hot_record(&h, 0, 0, 1000), 0, 5000);
	TP_ST_CHECK(st, tp_hot_count(&h, rec) == 2,
		    "byte format: accesses a span apart alias (documented)");
	TP_ST_CHECK(st, tp_hot_expired(&h, 0, 1000),
		    "an empty record is expired");
	TP_ST_CHECK(st, !tp_hot_expired(&h, 7 << 2 | 1, 1000 + 24 * 128) &&
		    tp_hot_expired(&h, 7 << 2 | 1, 1000 + 25 * 128),
		    "expired after 24 buckets");
	TP_ST_CHECK(st, tp_hot_nid(&h, 0xff) == 0,
		    "byte format: no node (the default target)");
	word = 0xabcd0000U;
	TP_ST_CHECK(st, !tp_hot_record32(&h, &word, 0, 1000) &&
		    word == (0xabcd0000U | 7 << 2 | 1),
		    "record32 keeps the bits above a byte record");
	TP_ST_CHECK(st, tp_hot_expired(&h, 0xabcd0000U, 1000),
		    "byte format: an empty byte under other bits is expired");

	/*
	 * The default bucket is the smallest power of two of ticks of at
	 * least 1/8 s: at 11 ticks a second 2 ticks (a 1-tick bucket would
	 * make the default window 33 buckets, past the span), at 12 and 16
	 * 2, at 17 4; at 1001 ticks 128 (125.125 rounds up).
	 */
	c.tps = 11;
	TP_ST_CHECK(st, !tp_hot_init(&h, &c) && h.shift == 1 &&
		    h.window == 17, "byte format: 11 ticks/s, 2-tick buckets");
	c.tps = 16;
	TP_ST_CHECK(st, !tp_hot_init(&h, &c) && h.shift == 1,
		    "byte format: 16 ticks/s, 2-tick buckets");
	c.tps = 17;
	TP_ST_CHECK(st, !tp_hot_init(&h, &c) && h.shift == 2,
		    "byte format: 17 ticks/s, 4-tick buckets");
	c.tps = 1001;
	TP_ST_CHECK(st, !tp_hot_init(&h, &c) && h.shift == 7,
		    "byte format: 1001 ticks/s, 128-tick buckets");
	/* ... and of at least 1 ms in the precise format. */
	c.format = TP_HOT_PRECISE;
	TP_ST_CHECK(st, !tp_hot_init(&h, &c) && h.shift == 1,
		    "precise format: 1001 ticks/s, 2-tick buckets");
	c.tps = 1000;
	TP_ST_CHECK(st, !tp_hot_init(&h, &c) && h.shift == 0 &&
		    h.window == 3000, "precise format: 1 ms buckets");
	tp_st_hot_walk(st, &h, tp_st_hot_precise,
		       TP_ST_ARRAY_SIZE(tp_st_hot_precise));
	TP_ST_CHECK(st, tp_hot_nid(&h, 0x80000000U | 6U << 21 | 2U << 18) == 6,
		    "precise format: the node");
	c.freq_threshold = 7;
	rec = 0;
	TP_ST_CHECK(st, !tp_hot_init(&h, &c), "precise threshold 7");
	for (i = 0; i < 6; i++)
		rec = tp_hot_record(&h, rec, 0, 100 + i);
	TP_ST_CHECK(st, tp_hot_count(&h, rec) == 6 && !tp_hot_ready(&h, rec),
		    "6 of 7 accesses: not ready");
	rec = tp_hot_record(&h, rec, 0, 107);
	TP_ST_CHECK(st, tp_hot_count(&h, rec) == 7 && tp_hot_ready(&h, rec),
		    "the 7th: ready");
	rec = tp_hot_record(&h, rec, 0, 108);
	TP_ST_CHECK(st, tp_hot_count(&h, rec) == 7, "saturates at 7");
	/* The ready bit does not age; an access past the window clears it. */
	TP_ST_CHECK(st, tp_hot_ready(&h, rec) &&
		    tp_hot_expired(&h, rec, 108 + 3001),
		    "idle past the window: still ready, expired");
	rec = tp_hot_record(&h, rec, 0, 108 + 3001);
	TP_ST_CHECK(st, tp_hot_count(&h, rec) == 1 && !tp_hot_ready(&h, rec),
		    "an access past the window: count 1, not ready");
	return (int)(st->failed - before);
}

/* ---- capacity-fitted threshold --------------------------------------------- */

static struct tp_thresh tp_st_hist_obj;
static struct tp_thresh_cpu tp_st_hist_cpu;

/*
 * ms ticks, ref 1000 (bounds [125, 2000], steps 16), the first bin 1 ms
 * wide (2000 < 2^14: shift 0): bins [0,1) [1,2) [2,4) ... [16384, inf).
 * Pages recorded: 100 at 10 ms (bin 4, [8, 16)), 100 at 100 ms (bin 7,
 * [64, 128)), 100 at 1000 ms (bin 10, [512, 1024)). The budget is two
 * periods of the rate (1000 ms periods).
 */
static void tp_st_hist_fill(struct tp_thresh *t, u64 rate, u32 batch)
{
	struct tp_thresh_cfg c = { .sz = sizeof(c),
				   .variant = TP_THRESH_HISTOGRAM,
				   .tps = 1000, .ref_th = 1000, .period = 1000,
				   .rate_limit = rate, .batch = batch };
	u32 i;

	tp_thresh_init(t, &c, 0, 0);
	tp_st_hist_cpu = (struct tp_thresh_cpu){ 0 };
	for (i = 0; i < 100; i++) {
		tp_thresh_record(t, &tp_st_hist_cpu, 10, 1);
		tp_thresh_record(t, &tp_st_hist_cpu, 100, 1);
		tp_thresh_record(t, &tp_st_hist_cpu, 1000, 1);
	}
}

/* The same controller at 10 pages/s: a budget of 20. */
static const struct tp_thresh_cfg tp_st_hist_top = {
	.sz = sizeof(struct tp_thresh_cfg), .variant = TP_THRESH_HISTOGRAM,
	.tps = 1000, .ref_th = 1000, .period = 1000, .rate_limit = 10,
	.batch = 1,
};

struct tp_st_hist_row {
	const char *name;
	u64 rate;
	u64 th;
	int ev;
};

static const struct tp_st_hist_row tp_st_hist_rows[] = {
	/* 200: bins 4 and 7 fill it exactly; 512 + 512 x 0 / 100 */
	{ "budget 200: at the start of bin 10", 100, 512, TP_TH_LOWERED },
	/* 150: 100 in bin 4, 50 of bin 7: 64 + 64 x 50 / 100 = 96 -> 125 */
	{ "budget 150: inside bin 7, raised to the step", 75, 125,
	  TP_TH_LOWERED },
	/* 250: 200, then 50 of bin 10: 512 + 512 x 50 / 100 = 768 */
	{ "budget 250: half into bin 10", 125, 768, TP_TH_LOWERED },
	/* 400 > 300 counted: everything fits, the upper bound */
	{ "budget 400: the upper bound", 200, 2000, TP_TH_RAISED },
	{ "budget 0: the step", 0, 125, TP_TH_LOWERED },
};

static int tp_st_histogram(struct tp_st *st)
{
	struct tp_thresh *t = &tp_st_hist_obj;
	unsigned int before = st->failed;
	int ev;
	u32 i;

	for (i = 0; i < TP_ST_ARRAY_SIZE(tp_st_hist_rows); i++) {
		const struct tp_st_hist_row *r = &tp_st_hist_rows[i];

		tp_st_hist_fill(t, r->rate, 1);
		ev = tp_thresh_update(t, 0, 1001);
		TP_ST_CHECK(st, ev == r->ev && tp_thresh_get(t) == r->th,
			    r->name);
	}

	/* Cooling: the bins are halved at the close (50 each now). */
	tp_st_hist_fill(t, 100, 1);
	tp_thresh_update(t, 0, 1001);
	TP_ST_CHECK(st, tp_thresh_update(t, 0, 2001) == TP_TH_IDLE,
		    "histogram: a period is more than 1000 ticks");
	/* 150 of 50 + 50 + 50: everything fits again */
	TP_ST_CHECK(st, tp_thresh_update(t, 0, 2002) == TP_TH_RAISED &&
		    tp_thresh_get(t) == 2000,
		    "histogram: halved bins fit a budget they did not");

	/*
	 * Batches of 8: of the 300 records (10, 100, 1000 ms in turn) the
	 * last 4 are still pending: 99, 99 and 98 pages shared. Budget 200:
	 * 198 in bins 4 and 7, then 2 of bin 10's 98: 512 + 512 x 2 / 98.
	 */
	tp_st_hist_fill(t, 100, 8);
	TP_ST_CHECK(st, tp_thresh_update(t, 0, 1001) == TP_TH_LOWERED &&
		    tp_thresh_get(t) == 522,
		    "histogram: pending pages are not counted yet");

	/*
	 * Pages only in the top bin ([16384, inf), which starts above the
	 * upper bound by construction), 100 of them against a budget of 20:
	 * the budget runs out in that bin, the threshold is its lower edge,
	 * clamped: the upper bound, 2000.
	 */
	tp_thresh_init(t, &tp_st_hist_top, 0, 0);
	tp_thresh_record(t, &tp_st_hist_cpu, 20000, 100);
	TP_ST_CHECK(st, tp_thresh_update(t, 0, 1001) == TP_TH_RAISED &&
		    tp_thresh_get(t) == 2000,
		    "histogram: over budget in the top bin: the upper bound");

	/* Unknown latencies are not counted. */
	tp_st_hist_fill(t, 100, 1);
	tp_thresh_record(t, &tp_st_hist_cpu, TP_LATENCY_UNKNOWN, 1000);
	tp_thresh_update(t, 0, 1001);
	TP_ST_CHECK(st, tp_thresh_get(t) == 512,
		    "histogram: unknown latencies ignored");

	/* So are more pages than any folio: they would wrap a bin. */
	tp_st_hist_fill(t, 100, 1);
	tp_thresh_record(t, &tp_st_hist_cpu, 10, TP_RATE_MAX + 1);
	tp_thresh_record(t, &tp_st_hist_cpu, 10, ~0ULL);
	tp_thresh_update(t, 0, 1001);
	TP_ST_CHECK(st, tp_thresh_get(t) == 512,
		    "histogram: more than TP_RATE_MAX pages ignored");
	return (int)(st->failed - before);
}

/* Every vector of this file (the kernel self-test's entry point). */
static int tp_st_algos(struct tp_st *st)
{
	return tp_st_goal(st) + tp_st_fclock(st) + tp_st_hotness(st) +
	       tp_st_histogram(st);
}

#endif /* TP_SELFTEST_ALGOS_H */
