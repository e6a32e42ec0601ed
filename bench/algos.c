// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Section "algos": the primitives past Linux 6.1 against a baseline in the
 * same run.
 *
 *  - the capacity-fitted (histogram) threshold's period close against the
 *    +-step controller's (Linux 6.1's numa_promotion_adjust_threshold());
 *  - a decision with the histogram threshold (which counts every judged
 *    fault in its bins) against the same decision with the +-step one;
 *  - the goal controller's update against DAMOS's quota feedback as the
 *    kernel computes it (mm/damon/core.c, Linux 6.16: the score in parts
 *    per 10000 of the goal, an input of at least 10000);
 *  - pghot's one-byte hotness record against a naive per-page record (a
 *    64-bit time and a 32-bit count, 16 bytes a page) on a million pages;
 *  - the fault-count clock's per-CPU batched tick against one shared
 *    atomic counter, on one and on two threads.
 */
#include <stdlib.h>
#include <string.h>

#include "loops.h"

#define ALG_TPS		1000000000ULL	/* ns ticks */
#define ALG_PAGES	(1U << 20)	/* the records' pages */
#define ALG_BATCH	32U		/* the kernel's vmstat threshold */

/* ---- threshold: the period close ------------------------------------------ */

struct th_ctx {
	struct tp_thresh *t;
	struct tp_thresh_cpu *cpu;
	u64 now, period, cand;
	const u64 *lat;		/* TBL latencies, ns */
};

/*
 * Count TH_FAULTS judged faults, then close a period: the clock jumps past
 * it each time. The faults fill the bins again (each close halves them):
 * without them the bins emptied within 20 closes and the fit had nothing
 * to walk. Their TH_PAGES pages pass the period's budget (131072 pages:
 * 2 s at 65536 a second), so the fit finds its bin and interpolates in it.
 * The +-step variant's record returns at once; the row under this one
 * gives the histogram's per-fault cost.
 */
#define TH_FAULTS	16U
#define TH_PAGES	20000U

static u64 th_close_run(void *ctx, u64 iters)
{
	struct th_ctx *c = ctx;
	u64 sum = 0, i;
	u32 j;

	for (i = 0; i < iters; i++) {
		for (j = 0; j < TH_FAULTS; j++)
			tp_thresh_record(c->t, c->cpu,
					 c->lat[(i * TH_FAULTS + j) & TBL_MASK],
					 TH_PAGES);
		c->now += c->period + 1;
		c->cand += 1000 + (i & 1023);
		sum += (u64)tp_thresh_update(c->t, c->cand, c->now);
	}
	return sum + tp_thresh_get(c->t);
}

/* Count a judged fault's latency (the histogram's per-fault work). */
static u64 th_record_run(void *ctx, u64 iters)
{
	struct th_ctx *c = ctx;
	u64 i;

	for (i = 0; i < iters; i++)
		tp_thresh_record(c->t, c->cpu, c->lat[i & TBL_MASK], 1);
	return iters;
}

static void th_init(struct th_ctx *c, u32 variant, const u64 *lat)
{
	struct tp_thresh_cfg cfg = {
		.sz = sizeof(cfg), .variant = variant, .tps = ALG_TPS,
		.ref_th = 1000 * NS_PER_MS, .period = 2000 * NS_PER_MS,
		.rate_limit = 65536, .batch = ALG_BATCH,
	};
	u64 i;

	memset(c, 0, sizeof(*c));
	c->t = xalloc(sizeof(*c->t));
	c->cpu = xalloc(sizeof(*c->cpu));
	c->period = cfg.period;
	c->now = T0;
	c->lat = lat;
	if (tp_thresh_init(c->t, &cfg, 0, c->now))
		exit(2);
	/* Bins with something in them, so the fit walks them all. */
	for (i = 0; i < 4 * TBL; i++)
		tp_thresh_record(c->t, c->cpu, lat[i & TBL_MASK], 64);
}

/* ---- decide: histogram vs +-step threshold ----------------------------------- */

struct alg_dec {
	struct tp_policy *pol;
	struct tp_node *node;
	struct tp_node_cpu *cpu;
	struct tp_node_mem mem;
	struct tp_fault *f;
	u64 now;
	u64 verdicts[VERDICT_SLOTS];
};

static u64 alg_decide_run(void *ctx, u64 iters)
{
	struct alg_dec *c = ctx;
	u64 i, t = c->now;

	for (i = 0; i < iters; i++) {
		OPT_LAUNDER(t);
		c->verdicts[(u32)tp_decide(c->pol, c->node, c->cpu,
					   &c->f[i & TBL_MASK], &c->mem, t) &
			    VERDICT_MASK]++;
		t += NS_PER_MS;		/* a period closes every 2000 calls */
	}
	c->now = t;
	return c->verdicts[TP_PROMOTE] + c->verdicts[TP_REFUSE_COLD];
}

/*
 * Mainline's switches with the token bucket (neither side takes a preset's
 * specialised path) and the threshold @variant; a full fast node, so every
 * fault goes through the threshold.
 */
static void dec_setup(struct alg_dec *c, u32 variant, const u64 *lat)
{
	struct tp_policy_cfg cfg;
	u64 i;

	memset(c, 0, sizeof(*c));
	c->pol = xalloc(sizeof(*c->pol));
	c->node = xalloc(sizeof(*c->node));
	c->cpu = xalloc(sizeof(*c->cpu));
	c->f = xalloc(TBL * sizeof(*c->f));
	if (tp_policy_preset(&cfg, TP_PRESET_LINUX61, ALG_TPS))
		exit(2);
	cfg.limiter_variant = TP_LIMITER_BUCKET;
	cfg.thresh_variant = variant;
	cfg.scan_period_max_ms = 2000;
	cfg.rate_limit_mbps = 1024;
	cfg.cand_batch = ALG_BATCH;
	c->now = T0;
	if (tp_policy_init(c->pol, &cfg) || tp_node_init(c->node, c->pol, T0))
		exit(2);
	/* Room to promote, too little for the free-space bypass. */
	c->mem = (struct tp_node_mem){
		.free = 100000, .wmark_min = 1000, .wmark_low = 2000,
		.wmark_high = 3000, .wmark_promo = 4000, .present = 1 << 22,
	};
	for (i = 0; i < TBL; i++)
		c->f[i] = (struct tp_fault){ .nr_pages = 1,
					     .latency = lat[i] };
}

/* ---- the goal controller vs DAMOS's feedback -------------------------------- */

struct goal_ctx {
	struct tp_goal *g;
	unsigned long last;	/* the baseline's input */
	const u64 *cur;		/* TBL metric values, parts per 10000 */
};

/*
 * DAMOS's quota feedback as Linux 6.16 computes it: the metric is first
 * scored in parts per 10000 of the goal (score = current x 10000 / goal);
 * the next input is last +- last x |10000 - score| / 10000, at least
 * 10000, the minimum at twice the goal. Written from the formula.
 */
static unsigned long bl_damos_next(unsigned long last, unsigned long cur,
				   unsigned long goal)
{
	const unsigned long one = 10000, floor = 10000;
	unsigned long score = cur * one / goal, diff, comp;

	if (score == one)
		return last;
	if (score >= 2 * one)
		return floor;
	diff = score > one ? score - one : one - score;
	comp = last < ~0UL / diff ? last * diff / one : last / one * diff;
	if (score > one)
		return comp >= last || last - comp < floor ? floor :
		       last - comp;
	return last + comp < last ? ~0UL : last + comp;
}

static u64 goal_tp_run(void *ctx, u64 iters)
{
	struct goal_ctx *c = ctx;
	u64 sum = 0, i;

	for (i = 0; i < iters; i++)
		sum += tp_goal_update(c->g, c->cur[i & TBL_MASK]);
	return sum;
}

static u64 goal_bl_run(void *ctx, u64 iters)
{
	struct goal_ctx *c = ctx;
	unsigned long last = c->last;
	u64 sum = 0, i;

	for (i = 0; i < iters; i++) {
		unsigned long cur = (unsigned long)c->cur[i & TBL_MASK];

		OPT_LAUNDER(cur);
		last = bl_damos_next(last, cur, 9970);
		sum += last;
	}
	c->last = last;
	return sum;
}

/* ---- hotness records ------------------------------------------------------------ */

/** struct naive_rec - a per-page record without packing */
struct naive_rec {
	u64 last;	/* time of the latest access */
	u32 count;	/* accesses within the window */
	u32 ready;
};

struct hot_ctx {
	struct tp_hot h;
	uint8_t *rec;		/* ALG_PAGES byte records */
	struct naive_rec *nr;	/* ALG_PAGES naive records */
	u64 now, window;
	u64 seq;		/* the pages' sequence */
};

/*
 * The i-th page of a sequence that visits all ALG_PAGES in a scattered
 * order (an odd multiplier is a bijection mod 2^20), so the records do not
 * stay in the caches as a table of a few thousand pages would.
 */
static inline u32 hot_page(u64 i)
{
	return (u32)((i * 0x9E3779B1ULL) & (ALG_PAGES - 1));
}

static u64 hot_tp_run(void *ctx, u64 iters)
{
	struct hot_ctx *c = ctx;
	u64 sum = 0, i, t = c->now;

	for (i = 0; i < iters; i++) {
		uint8_t *r = &c->rec[hot_page(c->seq + i)];
		u32 v = tp_hot_record(&c->h, *r, 0, t);

		*r = (uint8_t)v;
		sum += tp_hot_ready(&c->h, v);
		t += 1000;
	}
	c->now = t;
	c->seq += iters;
	return sum;
}

/* The same rule on the naive record: 2 accesses within the window. */
static u64 hot_bl_run(void *ctx, u64 iters)
{
	struct hot_ctx *c = ctx;
	u64 sum = 0, i, t = c->now;

	for (i = 0; i < iters; i++) {
		struct naive_rec *r = &c->nr[hot_page(c->seq + i)];

		OPT_LAUNDER(t);
		if (r->count && t - r->last <= c->window) {
			r->count += r->count < 3;
		} else {
			r->count = 1;
			r->ready = 0;
		}
		r->ready |= r->count >= 2;
		r->last = t;
		sum += r->ready;
		t += 1000;
	}
	c->now = t;
	c->seq += iters;
	return sum;
}

/* ---- the fault-count clock --------------------------------------------------------- */

struct fclk_ctx {
	struct tp_fault_clock *clk;
	struct tp_fault_clock_cpu *cpu;	/* this thread's slot */
	u64 *shared;			/* the baseline's counter */
};

static u64 fclk_tp_run(void *ctx, u64 iters)
{
	struct fclk_ctx *c = ctx;
	u64 sum = 0, i;

	for (i = 0; i < iters; i++)
		sum += tp_fault_clock_tick(c->clk, c->cpu, 1);
	return sum;
}

static u64 fclk_bl_run(void *ctx, u64 iters)
{
	struct fclk_ctx *c = ctx;
	u64 sum = 0, i;

	for (i = 0; i < iters; i++)
		sum += __atomic_add_fetch(c->shared, 1, __ATOMIC_RELAXED);
	return sum;
}

/* ---- the section -------------------------------------------------------------------- */

static void bench_thresh_fit(const u64 *lat)
{
	struct th_ctx hist, step;

	th_init(&hist, TP_THRESH_HISTOGRAM, lat);
	th_init(&step, TP_THRESH_LINUX61, lat);
	compare("threshold: 16 faults counted and a period closed, histogram fit vs +-step",
		&SIDE1(th_close_run, &hist), &SIDE1(th_close_run, &step),
		"Linux 6.1's variant: one step of 2 x ref / 16; its record returns at once");
	/*
	 * The fit did its work: 320000 pages a period against a budget of
	 * 131072 put the threshold inside the bins, below its bound (the
	 * empty bins of the old loop left it at the bound).
	 */
	if (tp_thresh_get(hist.t) >= 2 * 1000 * NS_PER_MS)
		check_failed("the histogram's fit left the threshold at its bound");
	compare("threshold: count a judged fault (histogram bins, batch 32)",
		&SIDE1(th_record_run, &hist), &SIDE1(th_record_run, &step),
		"+-step: the call returns at once");
	free(hist.t);
	free(hist.cpu);
	free(step.t);
	free(step.cpu);
}

static void bench_decide_hist(const u64 *lat)
{
	struct alg_dec hist, step;
	struct result r;

	dec_setup(&hist, TP_THRESH_HISTOGRAM, lat);
	dec_setup(&step, TP_THRESH_LINUX61, lat);

	r = compare("tp_decide: histogram threshold vs +-step",
		    &SIDE1(alg_decide_run, &hist), &SIDE1(alg_decide_run, &step),
		    "both generic (bucket); a period closes every 2000 faults");
	/* Timed runs only: --instr's few calls may close no period. */
	if (r.ran &&
	    (!hist.verdicts[TP_PROMOTE] || !hist.verdicts[TP_REFUSE_COLD]))
		check_failed("the histogram threshold decided nothing both ways");
	free(hist.pol);
	free(hist.node);
	free(hist.cpu);
	free(hist.f);
	free(step.pol);
	free(step.node);
	free(step.cpu);
	free(step.f);
}

static void bench_goal(void)
{
	struct tp_goal_cfg cfg = {
		.sz = sizeof(cfg), .goal = 9970, .min = 1, .max = 1 << 20,
		.init = 4096,
	};
	struct goal_ctx c = {
		.g = xalloc(sizeof(struct tp_goal)), .last = 4096 * 10000UL,
	};
	u64 *cur = xalloc(TBL * sizeof(*cur)), i;

	/* Used shares around DAMON's goal: 99.0 % to 100 %. */
	for (i = 0; i < TBL; i++)
		cur[i] = 9900 + rnd() % 101;
	c.cur = cur;
	if (tp_goal_init(c.g, &cfg))
		exit(2);
	compare("goal controller: update vs DAMOS's feedback",
		&SIDE1(goal_tp_run, &c), &SIDE1(goal_bl_run, &c),
		"mm/damon/core.c's step, inlined; tierpol reads its settings latch and divides 128 by 64 bits: once per control period");
	if (tp_goal_get(c.g) < cfg.min || tp_goal_get(c.g) > cfg.max)
		check_failed("the goal controller left its bounds");
	free(c.g);
	free(cur);
}

static void bench_hot(void)
{
	struct tp_hot_cfg cfg = {
		.sz = sizeof(cfg), .format = TP_HOT_BYTE, .tps = ALG_TPS,
	};
	struct hot_ctx c = { .now = T0, .window = 3000 * NS_PER_MS };

	if (tp_hot_init(&c.h, &cfg))
		exit(2);
	c.rec = xalloc(ALG_PAGES);
	c.nr = xalloc(ALG_PAGES * sizeof(*c.nr));
	memset(c.rec, 0, ALG_PAGES);
	memset(c.nr, 0, ALG_PAGES * sizeof(*c.nr));
	compare("hotness record: pghot's byte vs a 16-byte naive record",
		&SIDE1(hot_tp_run, &c), &SIDE1(hot_bl_run, &c),
		"1 Mi pages in a scattered order: 1 MiB against 16 MiB");
	free(c.rec);
	free(c.nr);
}

static void bench_fclock(void)
{
	struct tp_fault_clock *clk = xalloc(sizeof(*clk));
	struct tp_fault_clock_cpu *slot = xalloc(2 * 64);
	u64 *shared = xalloc(64);
	struct fclk_ctx c[2];
	u32 i;

	if (tp_fault_clock_init(clk, ALG_BATCH))
		exit(2);
	memset(slot, 0, 2 * 64);
	*shared = 0;
	for (i = 0; i < 2; i++)
		c[i] = (struct fclk_ctx){
			.clk = clk,
			.cpu = (struct tp_fault_clock_cpu *)((char *)slot +
							     64 * i),
			.shared = shared,
		};
	compare("fault-count clock: tick (batch 32) vs one atomic counter",
		&SIDE1(fclk_tp_run, &c[0]), &SIDE1(fclk_bl_run, &c[0]),
		"one thread");
	compare("fault-count clock, 2 threads",
		&SIDE2(fclk_tp_run, &c[0], &c[1]),
		&SIDE2(fclk_bl_run, &c[0], &c[1]),
		"one slot each; the baseline's counter is shared");
	/* The slots hold back less than a batch each. */
	if (tp_fault_clock_now(clk) % ALG_BATCH)
		check_failed("the fault clock added a partial batch");
	free(clk);
	free(slot);
	free(shared);
}

void bench_algos(void)
{
	u64 *lat = xalloc(TBL * sizeof(*lat)), i;

	section("algos", "the primitives past Linux 6.1: the histogram threshold, the goal controller, pghot's record and the fault-count clock, each against a baseline");
	/* Hint-fault latencies from 0 to about 4 s, log-spread. */
	for (i = 0; i < TBL; i++)
		lat[i] = (rnd() & ((1ULL << (12 + rnd() % 20)) - 1));
	bench_thresh_fit(lat);
	bench_decide_hist(lat);
	bench_goal();
	bench_hot();
	bench_fclock();
	free(lat);
}
