// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Concurrency stress of tierpol's lock-free objects (issue 7).
 *
 * Every section runs several pthreads on one shared object, bounded both in
 * operations and in wall time, with per-thread generators seeded from -s, and
 * checks the guarantees the headers document:
 *
 *  ring       one writer records and advances passes while readers look up
 *             latencies; every pass's time encodes its number and start, so
 *             an answer that pairs the start of one pass with the time of
 *             another (a torn read) or that was never true is detected
 *  limiter    consumers share a token bucket and both window variants on a
 *             shared simulated clock (starting below the 2^32 and the 2^64
 *             wrap): admitted <= the documented bound; a saturated bucket
 *             admits >= 99 % of its rate
 *  threshold  threads call tp_thresh_update() on a stepped clock (exactly
 *             one non-idle event per period) and on a free clock (closing
 *             times more than a period apart); the threshold stays in bounds
 *  decide     tp_decide() from several threads on one node: the statistics
 *             add up exactly to the pages of all valid calls
 *
 * Exit status 0 when every check held, 1 on any violation, 2 on bad usage.
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <tierpol/tierpol.h>

typedef unsigned __int128 u128;

#define MAX_THREADS	8

static u64 opt_seed = 1;
static double opt_seconds = 1.5;	/* wall-time budget per run */
static u64 opt_scale = 20;		/* operation counts, in units */
static unsigned int opt_threads = 4;
static int violations;

#define ld(p)		__atomic_load_n((p), __ATOMIC_ACQUIRE)
#define st(p, v)	__atomic_store_n((p), (v), __ATOMIC_RELEASE)
#define add(p, v)	__atomic_add_fetch((p), (v), __ATOMIC_RELAXED)

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void fail(const char *fmt, ...)
{
	va_list ap;

	if (__atomic_fetch_add(&violations, 1, __ATOMIC_RELAXED) < 20) {
		va_start(ap, fmt);
		fputs("VIOLATION: ", stdout);
		vprintf(fmt, ap);
		fputc('\n', stdout);
		va_end(ap);
	}
}

/* ---- deterministic generators, deadline --------------------------------- */

static u64 splitmix(u64 *x)
{
	u64 z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

struct rng {
	u64 s;
};

static void rng_seed(struct rng *r, u64 section, u64 tid)
{
	r->s = opt_seed * 0x100000001b3ULL + section * 1000 + tid;
	splitmix(&r->s);
}

static u64 rnd(struct rng *r)
{
	return splitmix(&r->s);
}

static u64 rnd_below(struct rng *r, u64 n)
{
	return (u64)(((u128)rnd(r) * n) >> 64);
}

static double wall(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double deadline;
static int stop_flag;

static void run_start(void)
{
	st(&stop_flag, 0);
	deadline = wall() + opt_seconds;
}

/* Checked every 1024 operations: true when the run is over. */
static bool should_stop(u64 i)
{
	if (ld(&stop_flag))
		return true;
	if ((i & 1023) == 0 && wall() > deadline) {
		st(&stop_flag, 1);
		return true;
	}
	return false;
}

static void spawn(pthread_t *th, unsigned int n, void *(*fn)(void *),
		  void *arg, size_t size)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (pthread_create(&th[i], NULL, fn, (char *)arg + i * size)) {
			perror("pthread_create");
			exit(2);
		}
}

static void join(pthread_t *th, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		pthread_join(th[i], NULL);
}

/* ---- ring: one writer, several readers ---------------------------------- */

#define RING_DEPTH	16U
#define RING_SEGS	37U		/* pass starts: not a multiple of depth */
#define RING_LEN	(1ULL << 20)	/* one pass covers one segment */
#define RING_SPACE	(RING_SEGS * RING_LEN)
#define RING_TSTEP	64ULL		/* time = T0 + k * TSTEP + segment */

static struct tp_scan_ring ring;
static struct tp_scan_pass ring_pass[RING_DEPTH];
static u64 ring_nr;		/* passes recorded (published after record) */
static u64 ring_kmax;
static u64 ring_t0, ring_now;
static pthread_barrier_t ring_go;

struct reader {
	pthread_t th;
	unsigned int id;
	u64 lookups, exact, oldest, busy, empty, torn;
};

static void ring_write_pass(u64 k)
{
	u64 seg = k % RING_SEGS, start = seg * RING_LEN;

	tp_scan_ring_record(&ring, start, ring_t0 + k * RING_TSTEP + seg);
	st(&ring_nr, k + 1);
}

static void ring_pause(struct rng *g)
{
	u64 n = rnd_below(g, 64), j;

	/* Mostly back to back, sometimes a short pause: both regimes. */
	for (j = 0; n > 48 && j < n * 4; j++)
		__asm__ __volatile__("" ::: "memory");
}

static void *ring_writer(void *arg)
{
	struct rng g;
	u64 k, seg, start;

	(void)arg;
	rng_seed(&g, 1, 99);
	ring_write_pass(0);	/* readers never see an empty ring */
	pthread_barrier_wait(&ring_go);
	for (k = 0; k < ring_kmax && !should_stop(k); k++) {
		seg = k % RING_SEGS;
		start = seg * RING_LEN;
		if (k)
			ring_write_pass(k);
		ring_pause(&g);
		tp_scan_ring_advance(&ring, start + RING_LEN / 2);
		ring_pause(&g);
		/* The last segment ends at the limit: offset 0 means wrapped. */
		tp_scan_ring_advance(&ring, seg == RING_SEGS - 1 ? 0 :
				     start + RING_LEN);
		ring_pause(&g);
	}
	st(&stop_flag, 1);
	return NULL;
}

/*
 * Is (ret, lat) an answer that was true for @addr at some instant between
 * the two published pass counts @nb and @na?
 */
static bool ring_answer_ok(u64 addr, int ret, u64 lat, u64 nb, u64 na)
{
	u64 rel = ring_now - lat - ring_t0;	/* time - T0, mod 2^64 */
	u64 k = rel / RING_TSTEP, seg = rel % RING_TSTEP;
	/* The ring's pass count at the snapshot is in [nb, na + 1]. */
	u64 lo = nb > RING_DEPTH ? nb - RING_DEPTH : 0;
	u64 hi = na + 1 > RING_DEPTH ? na + 1 - RING_DEPTH : 0;

	if (ret == -ENOENT)	/* pass 0 is recorded before readers start */
		return false;
	if (seg != k % RING_SEGS || k > na)	/* the time encodes the pass */
		return false;
	if (ret == TP_LAT_OLDEST)
		return k >= lo && k <= hi;
	if (ret != TP_LAT_EXACT || k < lo)
		return false;
	return addr >= seg * RING_LEN && addr < (seg + 1) * RING_LEN;
}

static void *ring_reader(void *arg)
{
	struct reader *r = arg;
	struct rng g;
	u64 i, addr, lat, nb, na;
	int ret;

	rng_seed(&g, 1, r->id);
	pthread_barrier_wait(&ring_go);
	for (i = 0; !should_stop(i); i++) {
		addr = rnd_below(&g, RING_SPACE);
		nb = ld(&ring_nr);
		lat = 0;
		ret = tp_scan_ring_latency(&ring, addr, ring_now, &lat);
		na = ld(&ring_nr);
		r->lookups++;
		if (ret == -EBUSY) {
			r->busy++;
			continue;
		}
		if (ret == TP_LAT_EXACT)
			r->exact++;
		else if (ret == TP_LAT_OLDEST)
			r->oldest++;
		else if (ret == -ENOENT)
			r->empty++;
		if (!ring_answer_ok(addr, ret, lat, nb, na)) {
			if (r->torn++ < 3)
				fail("ring: addr %#llx ret %d lat %llu nb %llu na %llu",
				     (unsigned long long)addr, ret,
				     (unsigned long long)lat,
				     (unsigned long long)nb,
				     (unsigned long long)na);
		}
	}
	return NULL;
}

static void stress_ring(void)
{
	struct tp_scan_ring_cfg cfg = { .depth = RING_DEPTH,
					.limit = RING_SPACE };
	struct reader rd[MAX_THREADS] = { 0 };
	unsigned int nr = opt_threads - 1, i;
	pthread_t wr;
	struct reader sum = { 0 };

	if (tp_scan_ring_init(&ring, &cfg, ring_pass)) {
		fail("ring: init");
		return;
	}
	ring_kmax = opt_scale * 500000;
	/* Times cross the 2^64 wrap half-way through the longest run. */
	ring_t0 = 0ULL - ring_kmax / 2 * RING_TSTEP;
	ring_now = ring_t0 + (ring_kmax + 16) * RING_TSTEP;
	ring_nr = 0;
	for (i = 0; i < nr; i++)
		rd[i].id = i;
	pthread_barrier_init(&ring_go, NULL, nr + 1);
	run_start();
	for (i = 0; i < nr; i++)
		if (pthread_create(&rd[i].th, NULL, ring_reader, &rd[i]))
			exit(2);
	spawn(&wr, 1, ring_writer, NULL, 0);
	join(&wr, 1);
	for (i = 0; i < nr; i++) {
		pthread_join(rd[i].th, NULL);
		sum.lookups += rd[i].lookups;
		sum.exact += rd[i].exact;
		sum.oldest += rd[i].oldest;
		sum.busy += rd[i].busy;
		sum.empty += rd[i].empty;
		sum.torn += rd[i].torn;
	}
	pthread_barrier_destroy(&ring_go);
	printf("ring       writer passes %llu (x3 writes), readers %u: lookups %llu "
	       "(exact %llu, oldest %llu, -ENOENT %llu), -EBUSY %llu, torn %llu\n",
	       (unsigned long long)ld(&ring_nr), nr,
	       (unsigned long long)sum.lookups,
	       (unsigned long long)sum.exact, (unsigned long long)sum.oldest,
	       (unsigned long long)sum.empty, (unsigned long long)sum.busy,
	       (unsigned long long)sum.torn);
	if (!sum.exact || !sum.oldest || !ld(&ring_nr))
		fail("ring: nothing looked up");
}

/* ---- limiters: consumers on a shared simulated clock -------------------- */

#define LIM_TPS		1000000U	/* microseconds */
#define LIM_RATE	200000ULL	/* pages per second */
#define LIM_BURST	4096ULL
#define LIM_NMAX	512ULL		/* a THP */

static struct tp_limiter lim;
static u64 lim_t0, lim_clock;	/* lim_clock: ticks since lim_t0 */
static u64 lim_calls;
/*
 * Every consumer's @now in flight, relative to lim_t0 (~0: none). The clock
 * only advances while all of them lie within half a second of it: the
 * bucket's bound holds for callers less than one second apart
 * (limiter.h); a caller descheduled for longer would otherwise fall
 * behind by any amount.
 */
static u64 lim_inflight[MAX_THREADS];
static u64 lim_maxlag;

struct consumer {
	pthread_t th;
	unsigned int id;
	u64 calls, admitted, asked, stalls;
};

static bool lim_may_advance(u64 to)
{
	unsigned int i;
	u64 f;

	for (i = 0; i < opt_threads; i++) {
		f = ld(&lim_inflight[i]);
		if (f != ~0ULL && to - f >= LIM_TPS / 2)
			return false;
	}
	return true;
}

static void *lim_consumer(void *arg)
{
	static const u64 sizes[] = { 1, 1, 8, 64, LIM_NMAX };
	struct consumer *c = arg;
	struct rng g;
	u64 i, n, rel, cur, step, lag;

	rng_seed(&g, 2, c->id);
	for (i = 0; i < lim_calls && !should_stop(i); i++) {
		/* Publish the in-flight time before using it. */
		rel = ld(&lim_clock);
		st(&lim_inflight[c->id % MAX_THREADS], rel);
		rel = ld(&lim_clock);
		st(&lim_inflight[c->id % MAX_THREADS], rel);
		n = sizes[rnd_below(&g, 5)];
		c->asked += n;
		if (tp_limiter_consume(&lim, n, lim_t0 + rel))
			c->admitted += n;
		lag = ld(&lim_clock) - rel;
		if (lag > ld(&lim_maxlag))
			st(&lim_maxlag, lag);	/* a figure: racy max is fine */
		st(&lim_inflight[c->id % MAX_THREADS], ~0ULL);
		/* 0..3 us per call and thread: demand ~ 30x the rate. */
		step = rnd_below(&g, 4);
		cur = ld(&lim_clock);
		if (step && lim_may_advance(cur + step))
			__atomic_compare_exchange_n(&lim_clock, &cur, cur + step,
						    false, __ATOMIC_ACQ_REL,
						    __ATOMIC_RELAXED);
		else if (step)
			c->stalls++;
		c->calls++;
	}
	return NULL;
}

static const char *const lim_names[] = { "bucket", "window-seed",
					 "window-mainline" };

static void stress_limiter_one(u32 variant, u64 t0)
{
	struct tp_limiter_cfg cfg = { .variant = variant, .tps = LIM_TPS,
				      .rate = LIM_RATE, .burst = LIM_BURST };
	struct consumer c[MAX_THREADS] = { 0 };
	u64 calls = 0, admitted = 0, asked = 0, span, bound;
	u128 lhs, rhs;
	unsigned int i;
	double ratio;

	if (tp_limiter_init(&lim, &cfg, t0)) {
		fail("limiter: init");
		return;
	}
	lim_t0 = t0;
	lim_clock = 0;
	lim_maxlag = 0;
	lim_calls = opt_scale * 25000;
	for (i = 0; i < opt_threads; i++) {
		c[i].id = i;
		lim_inflight[i] = ~0ULL;
	}
	run_start();
	for (i = 0; i < opt_threads; i++)
		if (pthread_create(&c[i].th, NULL, lim_consumer, &c[i]))
			exit(2);
	for (i = 0; i < opt_threads; i++) {
		pthread_join(c[i].th, NULL);
		calls += c[i].calls;
		admitted += c[i].admitted;
		asked += c[i].asked;
	}
	span = ld(&lim_clock);	/* every caller's now is in [t0, t0 + span] */

	if (variant == TP_LIMITER_BUCKET) {
		/* admitted <= burst + rate * span / tps, exactly */
		lhs = (u128)admitted * LIM_TPS;
		rhs = (u128)LIM_BURST * LIM_TPS + (u128)LIM_RATE * span;
		bound = (u64)(rhs / LIM_TPS);
	} else {
		/* admitted <= (span / tps + 2) * (limit + n_max) */
		lhs = (u128)admitted * LIM_TPS;
		rhs = ((u128)span + 2 * LIM_TPS) * (LIM_RATE + LIM_NMAX);
		bound = (u64)(rhs / LIM_TPS);
	}
	ratio = (double)admitted / ((double)LIM_RATE * span / LIM_TPS);
	printf("limiter    %-15s t0 %#18llx: calls %llu, asked %llu, admitted %llu over %.3f s "
	       "(%.2f%% of rate), bound %llu: %s; max caller lag %llu us\n",
	       lim_names[variant], (unsigned long long)t0,
	       (unsigned long long)calls, (unsigned long long)asked,
	       (unsigned long long)admitted, (double)span / LIM_TPS,
	       100 * ratio, (unsigned long long)bound,
	       lhs <= rhs ? "held" : "BROKEN",
	       (unsigned long long)ld(&lim_maxlag));
	if (lhs > rhs)
		fail("limiter %s: admitted %llu above the bound %llu",
		     lim_names[variant], (unsigned long long)admitted,
		     (unsigned long long)bound);
	if (asked < 2 * (u64)(LIM_RATE * (double)span / LIM_TPS))
		fail("limiter %s: not saturated (asked %llu)",
		     lim_names[variant], (unsigned long long)asked);
	if (variant == TP_LIMITER_BUCKET &&
	    (u128)admitted * 100 * LIM_TPS < (u128)99 * LIM_RATE * span)
		fail("limiter bucket: saturated bucket admitted only %.2f%% of its rate",
		     100 * ratio);
	if (span < LIM_TPS / 10)
		fail("limiter %s: simulated span too short", lim_names[variant]);
}

static void stress_limiter(void)
{
	static const u64 starts[] = { 0xffffffffULL - 1000000,
				      0ULL - 1000000 };
	u32 v;
	unsigned int s;

	for (s = 0; s < 2; s++)
		for (v = TP_LIMITER_BUCKET; v <= TP_LIMITER_WINDOW_MAINLINE; v++)
			stress_limiter_one(v, starts[s]);
}

/* ---- threshold controller ----------------------------------------------- */

#define TH_PERIOD	100ULL

static struct tp_thresh thr;
static u64 th_cand;		/* the candidate counter */
static u64 th_unit, th_max;
static u64 th_now;		/* stepped clock */
static u64 th_steps;
static pthread_barrier_t th_bar;

struct th_worker {
	pthread_t th;
	unsigned int id;
	u64 calls, events, lowered, raised, out;
	u64 *closes;		/* free run: the now of each close */
	u64 nr_closes;
	u64 step_events;	/* events in the current step */
};

static struct th_worker thw[MAX_THREADS];

static void th_check(struct th_worker *w, int ev, u64 now)
{
	u64 th = tp_thresh_get(&thr);

	w->calls++;
	if (th < th_unit || th > th_max) {
		if (w->out++ < 3)
			fail("threshold %llu outside [%llu, %llu]",
			     (unsigned long long)th,
			     (unsigned long long)th_unit,
			     (unsigned long long)th_max);
	}
	if (ev == TP_TH_IDLE)
		return;
	w->events++;
	w->step_events++;
	if (ev == TP_TH_LOWERED)
		w->lowered++;
	else if (ev == TP_TH_RAISED)
		w->raised++;
	if (w->closes)
		w->closes[w->nr_closes++] = now;
}

/* Stepped: every step all threads call at the same now, one period on. */
static void *th_stepped(void *arg)
{
	struct th_worker *w = arg;
	struct rng g;
	u64 s, now;
	int j;

	rng_seed(&g, 3, w->id);
	for (s = 0; s < th_steps; s++) {
		/* Per period, 20 or 200 candidates in all (reference 100). */
		add(&th_cand, rnd_below(&g, (s / 64 % 2 ? 400 : 40) /
					opt_threads));
		pthread_barrier_wait(&th_bar);
		now = ld(&th_now);
		for (j = 0; j < 3; j++)
			th_check(w, tp_thresh_update(&thr, &th_cand, now), now);
		pthread_barrier_wait(&th_bar);	/* main counts, moves now */
		pthread_barrier_wait(&th_bar);
	}
	return NULL;
}

static void *th_free(void *arg)
{
	struct th_worker *w = arg;
	struct rng g;
	u64 i, now;

	rng_seed(&g, 4, w->id);
	for (i = 0; i < th_steps && !should_stop(i); i++) {
		add(&th_cand, rnd_below(&g, 3));
		now = add(&th_now, rnd_below(&g, 2));
		th_check(w, tp_thresh_update(&thr, &th_cand, now), now);
	}
	return NULL;
}

static int cmp_u64_wrapped(const void *a, const void *b)
{
	s64 d = (s64)(*(const u64 *)a - *(const u64 *)b);

	return d < 0 ? -1 : d > 0;
}

static void stress_thresh_one(u32 variant, u64 ref_th, u32 steps, u64 t0)
{
	struct tp_thresh_cfg cfg = {
		.variant = variant, .steps = steps, .tps = 1000,
		.ref_th = ref_th, .period = TH_PERIOD, .rate_limit = 1000,
	};
	u64 s, ev, events = 0, lowered = 0, raised = 0, calls = 0, out = 0;
	u64 bad_steps = 0, nr = 0, close_gaps = 0, *all;
	unsigned int i, n = opt_threads;
	pthread_t th[MAX_THREADS];
	double end;

	th_unit = variant == TP_THRESH_MAINLINE ? 2 * ref_th : ref_th;
	th_max = th_unit;
	th_unit = th_unit / (steps ? steps : 16) ? th_unit / (steps ? steps : 16) : 1;
	th_cand = 0;
	if (tp_thresh_init(&thr, &cfg, 0, t0)) {
		fail("threshold: init");
		return;
	}
	memset(thw, 0, sizeof(thw));
	for (i = 0; i < n; i++)
		thw[i].id = i + variant * 16;

	/* Stepped clock: a bounded number of periods, or until the deadline. */
	th_steps = opt_scale * 250;
	th_now = t0;
	pthread_barrier_init(&th_bar, NULL, n + 1);
	for (i = 0; i < n; i++)
		pthread_create(&th[i], NULL, th_stepped, &thw[i]);
	end = wall() + opt_seconds / 2;
	for (s = 0; s < th_steps; s++) {
		st(&th_now, t0 + (s + 1) * (TH_PERIOD + 1));
		pthread_barrier_wait(&th_bar);	/* go */
		pthread_barrier_wait(&th_bar);	/* done */
		for (ev = 0, i = 0; i < n; i++) {
			ev += thw[i].step_events;
			thw[i].step_events = 0;
		}
		if (ev != 1 && bad_steps++ < 3)
			fail("threshold: %llu events in period %llu",
			     (unsigned long long)ev, (unsigned long long)s);
		if (wall() > end && s + 1 < th_steps)
			th_steps = s + 1;	/* workers read it after the wait */
		pthread_barrier_wait(&th_bar);
	}
	join(th, n);
	pthread_barrier_destroy(&th_bar);
	for (i = 0; i < n; i++) {
		events += thw[i].events;
		lowered += thw[i].lowered;
		raised += thw[i].raised;
		calls += thw[i].calls;
		out += thw[i].out;
		thw[i].events = thw[i].lowered = thw[i].raised = 0;
		thw[i].calls = thw[i].out = 0;
	}
	printf("threshold  %-8s ref %-5llu steps %-2u stepped: %llu periods, %llu calls, "
	       "%llu events (%llu lowered, %llu raised), bad periods %llu, out of bounds %llu\n",
	       variant ? "mainline" : "seed", (unsigned long long)ref_th,
	       steps ? steps : 16, (unsigned long long)th_steps,
	       (unsigned long long)calls, (unsigned long long)events,
	       (unsigned long long)lowered, (unsigned long long)raised,
	       (unsigned long long)bad_steps, (unsigned long long)out);
	if (events != th_steps)
		fail("threshold: %llu events for %llu periods",
		     (unsigned long long)events, (unsigned long long)th_steps);
	if (!lowered || !raised)
		fail("threshold: the threshold never moved both ways");

	/* Free clock: closing times must be more than a period apart. */
	th_steps = opt_scale * 20000;
	tp_thresh_reset(&thr, true, ld(&th_cand), ld(&th_now));
	for (i = 0; i < n; i++) {
		thw[i].closes = malloc(sizeof(u64) * (th_steps + 1));
		thw[i].nr_closes = 0;
	}
	run_start();
	for (i = 0; i < n; i++)
		pthread_create(&th[i], NULL, th_free, &thw[i]);
	join(th, n);
	all = malloc(sizeof(u64) * (n * th_steps + 1));
	for (i = 0; i < n; i++) {
		memcpy(all + nr, thw[i].closes, thw[i].nr_closes * sizeof(u64));
		nr += thw[i].nr_closes;
		calls += thw[i].calls;
		out += thw[i].out;
		free(thw[i].closes);
		thw[i].closes = NULL;
	}
	qsort(all, nr, sizeof(u64), cmp_u64_wrapped);
	for (s = 1; s < nr; s++)
		if (all[s] - all[s - 1] <= TH_PERIOD && close_gaps++ < 3)
			fail("threshold: periods closed at %llu and %llu",
			     (unsigned long long)all[s - 1],
			     (unsigned long long)all[s]);
	printf("threshold  %-8s ref %-5llu steps %-2u free:    %llu calls, %llu closes over %llu ticks, "
	       "closes < 1 period apart %llu, out of bounds %llu\n",
	       variant ? "mainline" : "seed", (unsigned long long)ref_th,
	       steps ? steps : 16, (unsigned long long)calls,
	       (unsigned long long)nr,
	       (unsigned long long)(ld(&th_now) - t0),
	       (unsigned long long)close_gaps, (unsigned long long)out);
	if (!nr || (ld(&th_now) - t0) / (TH_PERIOD + 1) + 1 < nr)
		fail("threshold: %llu closes", (unsigned long long)nr);
	free(all);
}

static void stress_thresh(void)
{
	stress_thresh_one(TP_THRESH_SEED, 1000, 0, 0ULL - 300 * TH_PERIOD);
	stress_thresh_one(TP_THRESH_MAINLINE, 1000, 0,
			  0xffffffffULL - 300 * TH_PERIOD);
	/* A reference below the step count: the step is one tick. */
	stress_thresh_one(TP_THRESH_SEED, 5, 16, 12345);
}

/* ---- tp_decide from several threads on one node ------------------------- */

static struct tp_policy pol;
static struct tp_node node __attribute__((aligned(TP_CACHELINE_BYTES)));
static u64 dec_clock;
static u64 dec_calls;
static struct tp_policy_cfg dec_cfg;
static u64 dec_tunes;

/* A sysctl writer: retunes the policy and syncs the node meanwhile. */
static void *dec_tuner(void *arg)
{
	struct tp_policy_cfg c = dec_cfg;
	u64 i;

	(void)arg;
	for (i = 0; !ld(&stop_flag) && i < dec_calls / 64; i++) {
		c.hot_threshold_ms = i & 1 ? 500 : dec_cfg.hot_threshold_ms;
		c.burst_pages = i & 2 ? 1024 : 0;
		if (tp_policy_tune(&pol, &c)) {
			fail("decide: tune refused");
			break;
		}
		tp_node_sync(&node, &pol, ld(&dec_clock));
		add(&dec_tunes, 1);
	}
	return NULL;
}

struct decider {
	pthread_t th;
	unsigned int id;
	u64 calls, invalid, pages, by_verdict[TP_NR_VERDICTS];
};

static void *decider(void *arg)
{
	static const u64 sizes[] = { 1, 1, 1, 16, 512, 0 };
	struct decider *d = arg;
	struct tp_node_mem mem;
	struct tp_fault f;
	struct rng g;
	u64 i, r;
	int v;

	rng_seed(&g, 5, d->id);
	for (i = 0; i < dec_calls && !should_stop(i); i++) {
		r = rnd(&g);
		f.nr_pages = sizes[r % 6];
		f.latency = (r >> 8) % 64 ? rnd_below(&g, 3000) :
			    TP_LATENCY_UNKNOWN;
		f.flags = (u32)(r >> 16) & 0xf;
		mem.wmark_min = 1000;
		mem.wmark_low = 1250;
		/* Two high watermarks: the seed preset retunes the node. */
		mem.wmark_high = (r >> 20) & 1 ? 1500 : 3000;
		mem.wmark_promo = 4000;
		mem.present = 1 << 20;
		mem.free = rnd_below(&g, 400000);
		if ((r >> 24) % 32 == 0)
			mem.wmark_low = 5000;	/* out of order: -EINVAL */
		v = tp_decide(&pol, &node, &f, &mem, add(&dec_clock, r >> 62));
		d->calls++;
		if (v < 0) {
			d->invalid++;
			if (f.nr_pages && mem.wmark_low <= mem.wmark_high)
				fail("decide: valid call refused: %d", v);
			continue;
		}
		if (v >= TP_NR_VERDICTS || !f.nr_pages ||
		    mem.wmark_low > mem.wmark_high) {
			fail("decide: verdict %d for an invalid call", v);
			continue;
		}
		d->pages += f.nr_pages;
		d->by_verdict[v] += f.nr_pages;
	}
	return NULL;
}

static void stress_decide_one(u32 preset)
{
	struct tp_policy_cfg cfg;
	struct decider d[MAX_THREADS] = { 0 };
	pthread_t tuner;
	struct tp_node_stats s;
	u64 calls = 0, invalid = 0, pages = 0, v[TP_NR_VERDICTS] = { 0 };
	u64 got[TP_NR_VERDICTS], cand;
	unsigned int i, j;
	int bad = 0;

	tp_policy_preset(&cfg, preset, 1000);
	cfg.scan_period_max_ms = 50;	/* many threshold periods */
	cfg.rate_limit_mbps = preset == TP_PRESET_SEED ? 0 : 40;
	if (tp_policy_init(&pol, &cfg) || tp_node_init(&node, &pol, 0)) {
		fail("decide: init");
		return;
	}
	dec_clock = 0;
	dec_tunes = 0;
	dec_cfg = cfg;
	dec_calls = opt_scale * 25000;
	for (i = 0; i < opt_threads; i++)
		d[i].id = i + preset * 16;
	run_start();
	spawn(&tuner, 1, dec_tuner, NULL, 0);
	for (i = 0; i < opt_threads; i++)
		if (pthread_create(&d[i].th, NULL, decider, &d[i]))
			exit(2);
	for (i = 0; i < opt_threads; i++) {
		pthread_join(d[i].th, NULL);
		calls += d[i].calls;
		invalid += d[i].invalid;
		pages += d[i].pages;
		for (j = 0; j < TP_NR_VERDICTS; j++)
			v[j] += d[i].by_verdict[j];
	}
	st(&stop_flag, 1);
	join(&tuner, 1);
	tp_node_stats(&node, &s);
	got[TP_PROMOTE] = s.promote_hot;
	got[TP_PROMOTE_NRL] = s.promote_nrl;
	got[TP_REFUSE_MODE] = s.refused_mode;
	got[TP_REFUSE_TOPTIER] = s.refused_toptier;
	got[TP_REFUSE_NOT_YOUNG] = s.refused_not_young;
	got[TP_REFUSE_COLD] = s.refused_cold;
	got[TP_REFUSE_RATELIMIT] = s.refused_ratelimit;
	got[TP_REFUSE_NOSPACE] = s.refused_nospace;
	for (j = 0; j < TP_NR_VERDICTS; j++)
		if (got[j] != v[j]) {
			fail("decide: verdict %u counted %llu pages, callers saw %llu",
			     j, (unsigned long long)got[j],
			     (unsigned long long)v[j]);
			bad = 1;
		}
	/* Candidates: hot pages (promoted, rate limited, or no room). */
	cand = s.promote_hot + s.refused_ratelimit + s.refused_nospace -
	       (s.pgpromote_candidate_nrl - s.promote_nrl);
	if (s.decided != pages || s.pgpromote_candidate != cand ||
	    s.pgpromote_success != s.promote_hot + s.promote_nrl)
		bad = 1;
	printf("decide     %-8s %u threads + tuner (%llu tunes): calls %llu (invalid %llu), pages %llu, decided %llu, "
	       "promoted %llu + nrl %llu, candidates %llu, rate limited %llu, "
	       "threshold moves %llu/%llu: %s\n",
	       preset ? "mainline" : "seed", opt_threads,
	       (unsigned long long)ld(&dec_tunes), (unsigned long long)calls, (unsigned long long)invalid,
	       (unsigned long long)pages, (unsigned long long)s.decided,
	       (unsigned long long)s.promote_hot,
	       (unsigned long long)s.promote_nrl,
	       (unsigned long long)s.pgpromote_candidate,
	       (unsigned long long)s.refused_ratelimit,
	       (unsigned long long)s.th_lowered,
	       (unsigned long long)s.th_raised, bad ? "MISMATCH" : "exact");
	if (bad)
		fail("decide: statistics do not add up");
}

static void stress_decide(void)
{
	stress_decide_one(TP_PRESET_SEED);
	stress_decide_one(TP_PRESET_MAINLINE);
}

/* ---- main --------------------------------------------------------------- */

static void usage(void)
{
	fputs("usage: stress [-q] [-s seed] [-t seconds] [-j threads] [section...]\n"
	      "  -q          quick: 1/20 of the operations (for TSan/valgrind)\n"
	      "  -s seed     generator seed (default 1)\n"
	      "  -t seconds  wall-time budget per run (default 1.5)\n"
	      "  -j threads  threads per run, 2..8 (default 4)\n"
	      "  sections:   ring limiter threshold decide (default: all)\n",
	      stderr);
	exit(2);
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		void (*fn)(void);
	} sections[] = {
		{ "ring", stress_ring },
		{ "limiter", stress_limiter },
		{ "threshold", stress_thresh },
		{ "decide", stress_decide },
	};
	bool want[4] = { false }, any = false;
	double t = wall();
	unsigned int i;
	int c;

	setvbuf(stdout, NULL, _IOLBF, 0);
	while ((c = getopt(argc, argv, "qs:t:j:h")) != -1) {
		switch (c) {
		case 'q':
			opt_scale = 1;
			break;
		case 's':
			opt_seed = strtoull(optarg, NULL, 0);
			break;
		case 't':
			opt_seconds = strtod(optarg, NULL);
			if (!(opt_seconds > 0 && opt_seconds < 600))
				usage();
			break;
		case 'j':
			opt_threads = (unsigned int)atoi(optarg);
			if (opt_threads < 2 || opt_threads > MAX_THREADS)
				usage();
			break;
		default:
			usage();
		}
	}
	for (; optind < argc; optind++) {
		for (i = 0; i < 4; i++)
			if (!strcmp(argv[optind], sections[i].name))
				want[i] = any = true;
		if (!any)
			usage();
	}
	printf("tierpol stress: seed %llu, %u threads, scale %llu, %.1f s per run\n",
	       (unsigned long long)opt_seed, opt_threads,
	       (unsigned long long)opt_scale, opt_seconds);
	for (i = 0; i < 4; i++)
		if (!any || want[i])
			sections[i].fn();
	printf("stress: %s, %d violation(s), %.1f s\n",
	       violations ? "FAILED" : "passed", violations, wall() - t);
	return violations ? 1 : 0;
}
