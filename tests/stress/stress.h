/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * stress.h - the harness shared by the sections of the concurrency stress
 * test (tests/stress/stress.c has the overview).
 */
#ifndef TIERPOL_STRESS_H
#define TIERPOL_STRESS_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <tierpol/tierpol.h>

typedef uint64_t u64;
typedef uint32_t u32;
typedef int64_t s64;
typedef unsigned __int128 u128;

#define MAX_THREADS	8

/* Options (stress.c). */
extern u64 opt_seed;
extern double opt_seconds;	/* wall-time budget per run */
extern u64 opt_scale;		/* operation counts, in units */
extern unsigned int opt_threads;

#define ld(p)		__atomic_load_n((p), __ATOMIC_ACQUIRE)
#define st(p, v)	__atomic_store_n((p), (v), __ATOMIC_RELEASE)
#define add(p, v)	__atomic_add_fetch((p), (v), __ATOMIC_RELAXED)

/* A violation: printed (the first 20), counted, makes the exit status 1. */
void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- deterministic generators ------------------------------------------ */

struct rng {
	u64 s;
};

void rng_seed(struct rng *r, u64 section, u64 tid);
u64 rnd(struct rng *r);
u64 rnd_below(struct rng *r, u64 n);

/* ---- wall time, runs, threads ------------------------------------------- */

double wall(void);
/*
 * Start a run of opt_seconds; should_stop() is true once it is over, and
 * with run_need() not before *@ctr reached @min (or STRESS_GRACE_S later).
 */
#define STRESS_GRACE_S	120
void run_start(void);
void run_need(const u32 *ctr, u32 min);
void run_stop(void);
bool should_stop(u64 i);
void spawn(pthread_t *th, unsigned int n, void *(*fn)(void *), void *arg,
	   size_t size);
void join(pthread_t *th, unsigned int n);
/* Zeroed memory aligned to a cache line (the per-CPU slots), or exit. */
void *zalloc_aligned(size_t size);

/* ---- a simulated clock shared by the callers ---------------------------- */

/*
 * Ticks since @t0, advanced by the callers themselves; it only advances
 * while every caller's @now in flight is less than @max_lag behind it, so
 * the callers' clocks agree as the limiters' bounds assume (a caller
 * descheduled for long would otherwise fall behind by any amount).
 */
struct simclock {
	u64 t0;
	u64 now;
	u64 max_lag;
	u64 inflight[MAX_THREADS];	/* ~0: none */
	u64 lag;			/* the largest lag seen (a figure) */
};

void clock_init(struct simclock *c, u64 t0, u64 max_lag);
/* The caller's @now for one call, relative to t0 (published in flight). */
u64 clock_enter(struct simclock *c, unsigned int id);
void clock_leave(struct simclock *c, unsigned int id, u64 rel);
/* Try to move the clock @step ticks on; false when a caller lags. */
bool clock_step(struct simclock *c, u64 step);

/* ---- phases of settings, and which calls ran wholly inside one ---------- */

/*
 * The tuner stores @started = k before it publishes the settings of phase
 * k and @published = k after. A call that read @published == a before it
 * began and @started == a after it ended used the settings of phase a and
 * no others (the latch: it read one copy, and no tune began meanwhile);
 * any other call overlapped a tune.
 */
struct phaser {
	u32 started;
	u32 published;
};

static inline u32 phase_enter(const struct phaser *p)
{
	return ld(&p->published);
}

/* The phase the call ran in, or ~0U if it overlapped a tune. */
static inline u32 phase_leave(const struct phaser *p, u32 entered)
{
	return ld(&p->started) == entered ? entered : ~0U;
}

/* ---- admissions per phase, and the limiters' bounds ---------------------- */

/* What one thread saw in one phase: admitted pages and their times. */
struct tally {
	u64 calls, asked, pages, admits;
	u64 tmin, tmax;		/* relative times of the admissions */
	u64 nmax;		/* the largest request asked */
};

void tally_ask(struct tally *t, u64 n);
void tally_admit(struct tally *t, u64 n, u64 rel);
void tally_merge(struct tally *dst, const struct tally *src);

/* The token bucket's units, worked out as limiter.c does (an oracle). */
struct bucket_units {
	u32 shift;	/* units per tick, log2 */
	u64 cost;	/* units per page */
	u64 tau;	/* capacity in units */
	u64 n_max;	/* the largest request it can price */
};

void bucket_units(u32 tps, u64 rate, u64 burst, struct bucket_units *b);

/*
 * Check a phase's admissions against its limiter's bound; @what names it
 * in a violation, @slack_req extra requests are allowed (callers racing a
 * stale bucket), @slots callers in flight at once and @bmax the largest
 * batch any slot used. Returns the bound in pages (a figure).
 */
u64 check_bucket(const char *what, const struct tally *t, u32 tps, u64 rate,
		 u64 burst, u64 slack_req);
u64 check_window(const char *what, const struct tally *t, u32 tps, u64 limit,
		 unsigned int slots, u64 bmax);

/* ---- the sections --------------------------------------------------------- */

void stress_ring(void);
void stress_limiter(void);
void stress_thresh(void);
void stress_decide(void);
void stress_signal(void);

#endif /* TIERPOL_STRESS_H */
