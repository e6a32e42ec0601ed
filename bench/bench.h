/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * tierpol benchmark: the harness's interface (harness.c), the contexts the
 * measuring loops run on, the list of loops over the library, and the
 * set-ups that several sections share.
 *
 * A loop ("runner") has the signature u64 fn(void *ctx, u64 iters): it runs
 * the operation @iters times on the inputs in @ctx and returns a checksum
 * that the harness stores into a volatile sink, so the work cannot be
 * deleted. The library's loops are written once, in cases.h, and compiled
 * twice: cases_lib.c calls libtierpol.a out of line (prefix lib_), inline.c
 * compiles the library's sources into the same translation unit as the
 * loops with the loops flattened (prefix inl_), to show what inlining buys.
 * The baselines' loops are in the section's own file (ring.c, ...).
 *
 * Files: harness.c (measuring, options, targets, main), one file per
 * section: ring.c, atime.c, thresh.c, algos.c (the primitives past Linux
 * 6.1), limiter.c, vma.c, decide.c (the decision and a whole hint fault),
 * inlining.c, memory.c, tiersim.c.
 */
#ifndef TP_BENCH_H
#define TP_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <tierpol/tierpol.h>

#include "baselines.h"

/* The kernel's names for the fixed-width types, in the benchmark only. */
typedef uint64_t u64;
typedef uint32_t u32;
typedef int64_t s64;

/* Inputs are taken from tables of TBL entries, indexed with i & TBL_MASK. */
#define TBL		4096U
#define TBL_MASK	(TBL - 1)

/* The compiler forgets what it knows about @x (the value stays in a reg). */
#define OPT_LAUNDER(x)	__asm__ __volatile__("" : "+r"(x))

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* Verdict counts are kept in arrays indexed with v & VERDICT_MASK. */
#define VERDICT_SLOTS	16U
#define VERDICT_MASK	(VERDICT_SLOTS - 1)

/* Ticks of the ring, stamp and limiter sections: ns from 1 s on. */
#define T0		1000000000ULL
#define NS_PER_MS	1000000ULL

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

/* ---- harness (harness.c) ------------------------------------------------ */

/** struct side - one side of a comparison: a loop on 1 or 2 threads */
struct side {
	bench_fn fn;
	void *ctx[2];
	int threads;
};

#define SIDE1(f, c)		((struct side){ .fn = (f), .ctx = { (c) }, .threads = 1 })
#define SIDE2(f, c0, c1)	((struct side){ .fn = (f), .ctx = { (c0), (c1) }, .threads = 2 })

/** struct stat3 - median, min and max of the repeats */
struct stat3 {
	double med, min, max;
};

/** struct result - one compared figure */
struct result {
	struct stat3 tp;	/* ns/op */
	struct stat3 base;	/* ns/op */
	struct stat3 ratio;	/* base / tp, per repeat */
	bool ran;
};

extern int opt_repeats;
extern bool opt_smoke;
extern const char *opt_tiersim;
extern volatile u64 sink;

void *xalloc(size_t size);
u64 rnd(void);
struct stat3 stat3(const double *v, int n);
/* Markdown output (--md), if asked for. */
void mdf(const char *fmt, ...) __attribute__((__format__(__printf__, 1, 2)));
/* Start a section of comparisons (printed with its first wanted row). */
void section(const char *name, const char *what);
/* Start a section with its own table; false if the filter excludes it. */
bool section_plain(const char *name, const char *title);
/* Is the row @name of the current section wanted (-f)? */
bool wanted(const char *name);
/* Measure @tp and @base side by side and print one row (if wanted). */
struct result compare(const char *name, const struct side *tp,
		      const struct side *base, const char *what);
/* A line under the current row. */
void note(const char *fmt, ...) __attribute__((__format__(__printf__, 1, 2)));
/* A correctness check failed: printed, and bench exits 1. */
void check_failed(const char *fmt, ...)
	__attribute__((__format__(__printf__, 1, 2)));
/* A target's verdict: 1 PASS, 0 MISS, -1 not measured. */
void target(int pass, const char *fmt, ...)
	__attribute__((__format__(__printf__, 2, 3)));

/* ---- contexts of the measuring loops ------------------------------------- */

/** struct ring_ctx - scan-history ring lookups and recording */
struct ring_ctx {
	struct tp_scan_ring *ring;
	struct tp_scan_pass *pass;	/* RING_DEPTH passes */
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
	u64 cand;		/* candidate count */
	u64 now;
	u64 start;		/* idle: the period start */
	u64 period;		/* ticks (= ms) */
	u64 rate;		/* pages per second */
	u64 ref_th;		/* ticks */
};

/** struct lim_ctx - one caller of a rate limiter (one thread, one CPU) */
struct lim_ctx {
	struct tp_limiter *l;
	struct tp_limiter_cpu *cpu;	/* this caller's slot */
	struct bl_bucket *bb;
	struct bl_pgdat *pg;
	struct bl_pcp *pcp;		/* this caller's vmstat area */
	u64 rate;			/* pages per second (windows) */
	u64 now;			/* this caller's clock */
	u64 *clock;			/* shared clock of 2 threads, or NULL */
	u64 step;			/* ticks between two calls */
	u64 admitted;			/* pages admitted so far */
	u64 calls;			/* pages asked so far */
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

/** struct decide_ctx - the whole decision, one caller (one CPU) */
struct decide_ctx {
	const struct tp_policy *pol;
	struct tp_node *node;
	struct tp_node_cpu *cpu;	/* this caller's slot */
	const struct tp_node_mem *mem;
	const struct tp_fault *f;	/* TBL faults */
	const struct bl_sysctl *s;
	struct bl_pgdat *pg;
	struct bl_pcp *pcp;		/* this caller's vmstat area */
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
	u64 verdicts[VERDICT_SLOTS];	/* tierpol's verdicts */
	u64 bverdicts[VERDICT_SLOTS];	/* the baseline's */
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

/* ---- set-ups shared between sections ------------------------------------- */

#define RING_DEPTH	16U

/* ring.c: a ring of RING_DEPTH passes, its baseline, TBL addresses. */
void ring_alloc(struct ring_ctx *c);
/* ring.c: @nr passes of 256 MB, @gap ns apart, the newest fully scanned. */
void ring_fill(struct ring_ctx *c, u32 nr, u64 gap);
/* ring.c: an address in the pass @back passes before the newest (0). */
u64 ring_addr(u32 nr, u32 back);

enum lim_kind { LIM_BUCKET_ALL, LIM_BUCKET, LIM_WIN_RFC, LIM_WIN_61 };

/** struct lim_setup - one limiter and its baseline, with up to 2 callers */
struct lim_setup {
	struct tp_limiter *l;
	struct tp_limiter_cpu *cpu;	/* 2, a cache line each */
	struct bl_bucket *bb;
	struct bl_pgdat *pg;
	struct bl_pcp *pcp;		/* 2 */
	struct lim_ctx tp[2];
	struct lim_ctx base[2];
	u64 *clock;			/* 2: tierpol's threads, the baseline's */
	u64 rate, burst;
	enum lim_kind kind;
};

/* limiter.c */
void lim_alloc(struct lim_setup *s);
void lim_init(struct lim_setup *s, enum lim_kind kind, int threads);

/* The decision's free pages: no bypass and room, or the bypass. */
#define DEC_FREE_FULL	60000ULL
#define DEC_FREE_BYPASS	1000000ULL

/** struct dec_setup - one configuration of tp_decide and its baseline */
struct dec_setup {
	struct tp_policy *pol;
	struct tp_node *node;
	struct tp_node_cpu *cpu;	/* 2 */
	struct tp_node_mem *mem;
	struct bl_sysctl *s;
	struct bl_pgdat *pg;
	struct bl_pcp *pcp;		/* 2 */
	struct tp_fault *f;
	struct bl_fault *bf;
	struct decide_ctx c[2];		/* one per thread */
	u64 *clock;			/* shared clock of 2 threads */
};

/** struct dec_case - what a decision row decides on */
struct dec_case {
	u32 preset;		/* TP_PRESET_* */
	u64 free;		/* the target's free pages */
	u32 mbps;		/* rate limit override, 0: the preset's */
	unsigned int shift;	/* now advances one ms per 2^shift calls */
	u32 clear;		/* TP_POL_* switches to clear */
};

/*
 * The rows' workloads: the bypass; the full path with every candidate
 * admitted (the clock runs one ms per call); the full path rate limited (one
 * ms per 4096 calls; the RFC at its default rate of the high watermark per
 * second, 6.1 at 1 MB/s).
 */
#define DEC_RFC_BYPASS	{ TP_PRESET_RFC2020, DEC_FREE_BYPASS, 0, 0, 0 }
#define DEC_RFC_ADMIT	{ TP_PRESET_RFC2020, DEC_FREE_FULL, 0, 0, 0 }
#define DEC_RFC_LIMIT	{ TP_PRESET_RFC2020, DEC_FREE_FULL, 0, 12, 0 }
#define DEC_61_BYPASS	{ TP_PRESET_LINUX61, DEC_FREE_BYPASS, 0, 0, 0 }
#define DEC_61_ADMIT	{ TP_PRESET_LINUX61, DEC_FREE_FULL, 0, 0, 0 }
#define DEC_61_LIMIT	{ TP_PRESET_LINUX61, DEC_FREE_FULL, 1, 12, 0 }
/* 6.1 with the 2026 bypass knob off: no preset, the generic instance. */
#define DEC_61_NOBYPASS	{ TP_PRESET_LINUX61, DEC_FREE_FULL, 0, 0, \
			  TP_POL_FREE_BYPASS | TP_POL_BYPASS_RESET }

/* decide.c */
void dec_alloc(struct dec_setup *d);
void dec_init(struct dec_setup *d, const struct dec_case *dc);

/* ---- the sections ------------------------------------------------------- */

void bench_ring(void);
void bench_atime(void);
void bench_thresh(void);
void bench_algos(void);
void bench_limiter(void);
void bench_vma(void);
void bench_decide(void);
void bench_fault(void);
void bench_inline(void);
void bench_memory(void);
void bench_tiersim(void);

#endif /* TP_BENCH_H */
