// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Section "thresh": the hot-threshold controller (the 2020 RFC's variant)
 * against the RFC's numa_migration_adjust_threshold() (patch 8/8).
 */
#include <stdlib.h>

#include "loops.h"

/* ---- baseline runners (the shapes of loops.h) ------------------------- */

static inline u64 bl_op_thresh_idle(void *ctx, u64 k)
{
	struct thresh_ctx *c = ctx;

	bl_thresh_rfc(c->pg, c->rate, c->ref_th, c->start + k, c->period,
		      c->period);
	return 0;
}

/* The RFC's controller reads the node's candidate count itself. */
static inline u64 bl_op_thresh_close(struct thresh_ctx *c, u64 cand, u64 now)
{
	__atomic_store_n(&c->pg->vm_stat[BL_NUMA_TRY_MIGRATE], (long)cand,
			 __ATOMIC_RELAXED);
	bl_thresh_rfc(c->pg, c->rate, c->ref_th, now, c->period, c->period);
	return 0;
}

static u64 bl_thresh_idle_run(void *ctx, u64 iters)
{
	return loop_tbl(ctx, iters, bl_op_thresh_idle);
}

static u64 bl_thresh_adjust_run(void *ctx, u64 iters)
{
	return loop_thresh_close(ctx, iters, bl_op_thresh_close);
}

/* ---- the section ------------------------------------------------------- */

void bench_thresh(void)
{
	struct tp_thresh_cfg cfg = {
		.sz = sizeof(cfg), .variant = TP_THRESH_RFC2020, .tps = 1000,
		.ref_th = 1000, .period = 60000, .rate_limit = 25600,
	};
	struct thresh_ctx c = {
		.t = xalloc(sizeof(struct tp_thresh)),
		.pg = xalloc(sizeof(struct bl_pgdat)),
		.period = 60000, .rate = 25600, .ref_th = 1000,
		.now = 1000000, .start = 1000000,
	};

	section("thresh", "hot-threshold controller, the 2020 RFC's variant, ms ticks, 60 s period; the RFC's patch 8/8 as baseline");
	if (tp_thresh_init(c.t, &cfg, 0, c.start))
		exit(2);
	c.pg->numa_threshold_ts = c.start;
	compare("update, period not over (idle)", &SIDE1(lib_thresh_idle, &c),
		&SIDE1(bl_thresh_idle_run, &c),
		"RFC: now > ts + period, plain words");
	compare("update, closes the period", &SIDE1(lib_thresh_adjust, &c),
		&SIDE1(bl_thresh_adjust_run, &c),
		"RFC: cmpxchg, ref * 11 / 10, ...");
	free(c.t);
	free(c.pg);
}
