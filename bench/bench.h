/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * tierpol benchmark: the contexts the measuring loops run on, and the list
 * of loops over the library.
 *
 * A loop ("runner") has the signature u64 fn(void *ctx, u64 iters): it runs
 * the operation @iters times on the inputs in @ctx and returns a checksum
 * that the harness stores into a volatile sink, so the work cannot be
 * deleted. The library's loops are written once, in cases.h, and compiled
 * twice: cases_lib.c calls libtierpol.a out of line (prefix lib_), inline.c
 * compiles the library's sources into the same translation unit as the
 * loops with the loops flattened (prefix inl_), to show what inlining buys.
 */
#ifndef _TIERPOL_BENCH_H
#define _TIERPOL_BENCH_H

#include <tierpol/tierpol.h>

#include "baselines.h"

/* Inputs are taken from tables of TBL entries, indexed with i & TBL_MASK. */
#define TBL		4096U
#define TBL_MASK	(TBL - 1)

/* The compiler forgets what it knows about @x (the value stays in a reg). */
#define OPT_LAUNDER(x)	__asm__ __volatile__("" : "+r"(x))
/* The compiler must assume @x is used. */
#define OPT_USE(x)	__asm__ __volatile__("" : : "r"(x))

typedef u64 (*bench_fn)(void *ctx, u64 iters);

/*
 * Callers on several threads share one clock, as CPUs share jiffies: every
 * CLOCK_SYNC calls each thread catches up with the thread furthest ahead
 * (its own clock only advances by its own calls). Without it a thread that
 * was descheduled would fall seconds behind the other, which no kernel
 * caller does (and which the limiters do not promise to handle).
 */
#define CLOCK_SYNC	64U

static inline u64 clock_sync(u64 *clock, u64 now)
{
	u64 t = __atomic_load_n(clock, __ATOMIC_RELAXED);

	if ((s64)(t - now) > 0)
		return t;
	__atomic_store_n(clock, now, __ATOMIC_RELAXED);
	return now;
}

/** struct ring_ctx - scan-history ring lookups and recording */
struct ring_ctx {
	struct tp_scan_ring *ring;
	struct bl_mm *mm;
	const u64 *addr;	/* TBL fault addresses */
	u64 now;		/* fault time */
	u64 rec_start;		/* record: next pass start */
	u64 rec_now;		/* record: next pass time */
};

/** struct atime_ctx - per-page access-time stamps */
struct atime_ctx {
	struct tp_atime fmt;
	struct bl_atime bl;
	u32 *stamp;		/* TBL page stamps (tierpol) */
	u32 *bstamp;		/* TBL page stamps (baseline) */
	u64 now;
	u64 step;
};

/** struct thresh_ctx - the hot-threshold controller */
struct thresh_ctx {
	struct tp_thresh *t;
	struct bl_pgdat *pg;
	u64 cand;		/* candidate counter */
	u64 now;
	u64 start;		/* idle: the period start */
	u64 period;		/* ticks (= ms) */
	u64 rate;		/* pages per second */
	u64 ref_th;		/* ticks */
};

/** struct lim_ctx - one caller of a rate limiter (one thread) */
struct lim_ctx {
	struct tp_limiter *l;
	struct bl_bucket *bb;
	struct bl_pgdat *pg;
	struct bl_pcp *pcp;
	u64 rate;		/* pages per second (window baselines) */
	u64 now;		/* this caller's clock */
	u64 *clock;		/* shared clock of 2 threads, or NULL */
	u64 step;		/* ticks between two calls */
	u64 admitted;		/* pages admitted so far */
	u64 calls;		/* pages asked so far */
};

#define VMA_NR		64U

/** struct vma_ctx - VMA scan decisions */
struct vma_ctx {
	struct tp_vma_profile *prof;
	struct tp_vma_scan *v;		/* VMA_NR states */
	struct tp_vma_facts *facts;	/* TBL facts */
	struct bl_vma *bv;		/* VMA_NR states */
	struct bl_vma_mm *bmm;		/* TBL facts */
	u32 *pid;			/* TBL pids, for note */
	u64 now;
	u64 scans;			/* verdicts that scan */
};

/** struct decide_ctx - the whole decision */
struct decide_ctx {
	const struct tp_policy *pol;
	struct tp_node *node;
	const struct tp_node_mem *mem;
	const struct tp_fault *f;	/* TBL faults */
	const struct bl_sysctl *s;
	struct bl_pgdat *pg;
	struct bl_pcp *pcp;
	const struct bl_fault *bf;	/* TBL faults */
	/* hint-fault composites: the latency source before the decision */
	struct tp_scan_ring *ring;
	struct bl_mm *mm;
	const u64 *addr;		/* TBL fault addresses */
	struct tp_atime fmt;
	struct bl_atime blfmt;
	u32 *stamp;			/* TBL page stamps (tierpol) */
	u32 *bstamp;			/* TBL page stamps (baseline) */
	u64 lat_now;			/* ring/stamp time (ns) */
	u64 now;			/* decision time (ms) */
	u64 *clock;			/* shared clock of 2 threads, or NULL */
	unsigned int shift;		/* now advances 1 tick per 2^shift */
	u64 verdicts[TP_NR_VERDICTS];	/* tierpol's verdicts */
	u64 bverdicts[TP_NR_VERDICTS];	/* the baseline's */
};

/* Runners over the library: name, then the context they take. */
#define BENCH_LIB_RUNNERS(X)					\
	X(ring_record)		/* struct ring_ctx */		\
	X(ring_advance)		/* struct ring_ctx */		\
	X(ring_lat)		/* struct ring_ctx */		\
	X(atime_encode)		/* struct atime_ctx */		\
	X(atime_latency)	/* struct atime_ctx */		\
	X(atime_fault)		/* struct atime_ctx */		\
	X(thresh_idle)		/* struct thresh_ctx */		\
	X(thresh_adjust)	/* struct thresh_ctx */		\
	X(lim_consume)		/* struct lim_ctx */		\
	X(vma_check)		/* struct vma_ctx */		\
	X(vma_note)		/* struct vma_ctx */		\
	X(decide)		/* struct decide_ctx */		\
	X(fault_ring)		/* struct decide_ctx */		\
	X(fault_atime)		/* struct decide_ctx */

#define BENCH_DECLARE(n)				\
	u64 lib_##n(void *ctx, u64 iters);		\
	u64 inl_##n(void *ctx, u64 iters);
BENCH_LIB_RUNNERS(BENCH_DECLARE)
#undef BENCH_DECLARE

#endif /* _TIERPOL_BENCH_H */
