// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Section "atime": the per-page access-time stamp against Linux 6.1's
 * stamp on a clock that is not in milliseconds (a division per call).
 */
#include <stdlib.h>

#include "loops.h"

/* ---- baseline runners (the shapes of loops.h) ------------------------- */

static inline u64 bl_op_encode(void *ctx, u64 k, u64 now)
{
	struct atime_ctx *c = ctx;

	(void)k;
	return bl_atime_encode(&c->bl, now);
}

static inline u64 bl_op_latency(void *ctx, u64 k, u64 now)
{
	struct atime_ctx *c = ctx;

	return bl_atime_latency(&c->bl, c->bstamp[k], now);
}

static inline u64 bl_op_stamp(void *ctx, u64 k, u64 now)
{
	struct atime_ctx *c = ctx;

	return bl_atime_fault(&c->bl, &c->bstamp[k], now);
}

static u64 bl_atime_encode_run(void *ctx, u64 iters)
{
	struct atime_ctx *c = ctx;

	return loop_clocked(c, iters, &c->now, c->step, bl_op_encode);
}

static u64 bl_atime_latency_run(void *ctx, u64 iters)
{
	struct atime_ctx *c = ctx;

	return loop_clocked(c, iters, &c->now, c->step, bl_op_latency);
}

static u64 bl_atime_fault_run(void *ctx, u64 iters)
{
	struct atime_ctx *c = ctx;

	return loop_clocked(c, iters, &c->now, c->step, bl_op_stamp);
}

/* ---- the section ------------------------------------------------------- */

void bench_atime(void)
{
	struct tp_atime_cfg cfg = { .sz = sizeof(cfg), .bits = 21, .shift = 20 };
	struct atime_ctx c = { .now = T0, .step = 1234567 };
	u32 i;

	section("atime", "per-page access-time stamp, 21 bits of 2^20 ns; baseline: ns -> ms by division (bucket 10^6 ns)");
	if (tp_atime_init(&c.fmt, &cfg))
		exit(2);
	c.bl.bucket = NS_PER_MS;
	c.bl.mask = (1U << 21) - 1;
	c.stamp = xalloc(TBL * sizeof(u32));
	c.bstamp = xalloc(TBL * sizeof(u32));
	for (i = 0; i < TBL; i++) {
		c.stamp[i] = tp_atime_encode(&c.fmt, T0 - rnd() % (1ULL << 30));
		c.bstamp[i] = bl_atime_encode(&c.bl, T0 - rnd() % (1ULL << 30));
	}
	compare("encode (static inline)", &SIDE1(lib_atime_encode, &c),
		&SIDE1(bl_atime_encode_run, &c), "(now / bucket) & mask");
	compare("latency (static inline)", &SIDE1(lib_atime_latency, &c),
		&SIDE1(bl_atime_latency_run, &c),
		"(now / bucket - stamp) & mask");
	compare("fault: xchg stamp + latency", &SIDE1(lib_atime_fault, &c),
		&SIDE1(bl_atime_fault_run, &c),
		"6.1 numa_hint_fault_latency(), ms by division");
	free(c.stamp);
	free(c.bstamp);
}
