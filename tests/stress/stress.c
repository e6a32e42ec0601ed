// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Concurrency stress of tierpol's lock-free objects (issues 7 and 12).
 *
 * Every section runs several pthreads on one shared object, bounded both in
 * operations and in wall time, with per-thread generators seeded from -s,
 * and checks what the headers promise, exactly where it is exact:
 *
 *  ring       one writer records and advances passes while readers look up
 *             latencies; every pass's time encodes its number and start, so
 *             an answer that pairs the start of one pass with the time of
 *             another (a torn read), or that was never true, is caught
 *  limiter    consumers with their own slots (and now and then none) share
 *             one limiter on a simulated clock while a tuner switches it
 *             between the bucket and both windows, rates and bursts, and
 *             once a cycle lets it idle past the bucket's stale horizon;
 *             per phase of settings, the admissions of the calls that ran
 *             wholly inside it keep the bound (the bucket's in its units,
 *             exactly; the windows' per window); a saturated bucket admits
 *             at least 90 % of its rate; after the idle gap the first
 *             callers are admitted (no false debt)
 *  threshold  threads call tp_thresh_update() on a stepped clock (exactly
 *             one non-idle event per period) and on a free clock (closing
 *             times more than a period apart); the threshold stays in bounds
 *  decide     tp_decide() from several threads, each on its own
 *             tp_node_cpu slot, while a tuner switches presets, variants,
 *             rates, bursts and the tiering mode (tp_node_reset() when it
 *             comes back on) and tries bad settings; the limiter's bound
 *             per phase as above, and the statistics exactly: per verdict,
 *             decided, success, candidates, and the shared candidate count
 *             plus the slots' pending ones
 *  signal     a thread deciding is interrupted by a signal handler that
 *             decides on the same slot and now and then tunes the policy
 *             (the only tuner), while another thread decides: the
 *             statistics stay exact and the shared count never leads
 *
 * Exit status 0 when every check held, 1 on any violation, 2 on bad usage.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "stress.h"

u64 opt_seed = 1;
double opt_seconds = 1.5;
u64 opt_scale = 20;
unsigned int opt_threads = 4;
static int violations;

void fail(const char *fmt, ...)
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

/* ---- deterministic generators -------------------------------------------- */

static u64 splitmix(u64 *x)
{
	u64 z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void rng_seed(struct rng *r, u64 section, u64 tid)
{
	r->s = opt_seed * 0x100000001b3ULL + section * 1000 + tid;
	splitmix(&r->s);
}

u64 rnd(struct rng *r)
{
	return splitmix(&r->s);
}

u64 rnd_below(struct rng *r, u64 n)
{
	return (u64)(((u128)rnd(r) * n) >> 64);
}

/* ---- wall time, runs, threads -------------------------------------------- */

double wall(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double deadline, hard_deadline;
static int stop_flag;
static const u32 *need_ctr;
static u32 need_min;

void run_start(void)
{
	st(&stop_flag, 0);
	deadline = wall() + opt_seconds;
	hard_deadline = deadline + STRESS_GRACE_S;
	need_ctr = NULL;
	need_min = 0;
}

void run_need(const u32 *ctr, u32 min)
{
	need_ctr = ctr;
	need_min = min;
}

void run_stop(void)
{
	st(&stop_flag, 1);
}

/*
 * Checked every 1024 operations: true when the run is over. Past its
 * seconds the run goes on until the progress run_need() asked for is
 * there (a slow or busy machine takes longer, it does not fail), and
 * STRESS_GRACE_S more at most: then the section's check of that progress
 * fails it.
 */
bool should_stop(u64 i)
{
	double w;

	if (ld(&stop_flag))
		return true;
	if ((i & 1023) != 0)
		return false;
	w = wall();
	if (w > hard_deadline ||
	    (w > deadline && (!need_ctr || ld(need_ctr) >= need_min))) {
		st(&stop_flag, 1);
		return true;
	}
	return false;
}

void spawn(pthread_t *th, unsigned int n, void *(*fn)(void *), void *arg,
	   size_t size)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (pthread_create(&th[i], NULL, fn, (char *)arg + i * size)) {
			perror("pthread_create");
			exit(2);
		}
}

void join(pthread_t *th, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		pthread_join(th[i], NULL);
}

void *zalloc_aligned(size_t size)
{
	size_t sz = (size + TP_CACHELINE_BYTES - 1) & ~(size_t)(TP_CACHELINE_BYTES - 1);
	void *p = aligned_alloc(TP_CACHELINE_BYTES, sz);

	if (!p) {
		perror("aligned_alloc");
		exit(2);
	}
	memset(p, 0, sz);
	return p;
}

/* ---- the simulated clock --------------------------------------------------- */

void clock_init(struct simclock *c, u64 t0, u64 max_lag)
{
	unsigned int i;

	c->t0 = t0;
	c->now = 0;
	c->max_lag = max_lag;
	c->lag = 0;
	for (i = 0; i < MAX_THREADS; i++)
		c->inflight[i] = ~0ULL;
}

u64 clock_enter(struct simclock *c, unsigned int id)
{
	u64 rel = ld(&c->now);

	/* Published, then read again: the clock cannot have run past it. */
	st(&c->inflight[id], rel);
	rel = ld(&c->now);
	st(&c->inflight[id], rel);
	return rel;
}

void clock_leave(struct simclock *c, unsigned int id, u64 rel)
{
	u64 lag = ld(&c->now) - rel;

	if (lag > ld(&c->lag))
		st(&c->lag, lag);	/* a figure: a racy maximum is fine */
	st(&c->inflight[id], ~0ULL);
}

bool clock_step(struct simclock *c, u64 step)
{
	u64 cur = ld(&c->now), f;
	unsigned int i;

	for (i = 0; i < MAX_THREADS; i++) {
		f = ld(&c->inflight[i]);
		if (f != ~0ULL && cur + step - f >= c->max_lag)
			return false;
	}
	return __atomic_compare_exchange_n(&c->now, &cur, cur + step, false,
					   __ATOMIC_ACQ_REL, __ATOMIC_RELAXED);
}

/* ---- tallies and bounds ---------------------------------------------------- */

void tally_ask(struct tally *t, u64 n)
{
	t->calls++;
	t->asked += n;
	if (n > t->nmax)
		t->nmax = n;
}

void tally_admit(struct tally *t, u64 n, u64 rel)
{
	if (!t->admits || rel < t->tmin)
		t->tmin = rel;
	if (!t->admits || rel > t->tmax)
		t->tmax = rel;
	t->admits++;
	t->pages += n;
}

void tally_merge(struct tally *dst, const struct tally *src)
{
	if (src->admits) {
		if (!dst->admits || src->tmin < dst->tmin)
			dst->tmin = src->tmin;
		if (!dst->admits || src->tmax > dst->tmax)
			dst->tmax = src->tmax;
	}
	dst->calls += src->calls;
	dst->asked += src->asked;
	dst->pages += src->pages;
	dst->admits += src->admits;
	if (src->nmax > dst->nmax)
		dst->nmax = src->nmax;
}

void bucket_units(u32 tps, u64 rate, u64 burst, struct bucket_units *b)
{
	u64 units;

	b->shift = 48 - (63 - __builtin_clzll(tps));
	b->cost = 0;
	b->tau = 0;
	b->n_max = 0;
	if (!rate)
		return;
	units = (u64)tps << b->shift;
	b->cost = (units + rate - 1) / rate;
	b->tau = (burst ? burst : rate) * b->cost;
	b->n_max = (1ULL << 61) / b->cost;
}

/*
 * The bucket, in its units: admissions whose @now lie in [tmin, tmax],
 * all priced @cost, take at most (tmax - tmin) << shift + max(tau, the
 * largest request), plus @slack_req requests (limiter.h).
 */
u64 check_bucket(const char *what, const struct tally *t, u32 tps, u64 rate,
		 u64 burst, u64 slack_req)
{
	struct bucket_units b;
	u128 lhs, rhs, cap;

	if (!t->pages)
		return 0;
	bucket_units(tps, rate, burst, &b);
	if (!b.cost) {
		fail("%s: %llu pages admitted at a rate of 0", what,
		     (unsigned long long)t->pages);
		return 0;
	}
	lhs = (u128)t->pages * b.cost;
	cap = (u128)t->nmax * b.cost;
	if (b.tau > cap)
		cap = b.tau;
	rhs = ((u128)(t->tmax - t->tmin) << b.shift) + cap +
	      (u128)slack_req * t->nmax * b.cost;
	if (lhs > rhs)
		fail("%s: %llu pages admitted over %llu ticks, bound %llu", what,
		     (unsigned long long)t->pages,
		     (unsigned long long)(t->tmax - t->tmin),
		     (unsigned long long)(rhs / b.cost));
	return (u64)(rhs / b.cost);
}

/*
 * The windows: limit + slots x (n + batch - 1) per window, and the
 * admissions' times span at most (tmax - tmin) / tps + 3 windows (two
 * partial ones, and the callers' clocks may lag by up to half a window).
 */
u64 check_window(const char *what, const struct tally *t, u32 tps, u64 limit,
		 unsigned int slots, u64 bmax)
{
	u64 windows = (t->tmax - t->tmin) / tps + 3, bound;

	bound = limit ? windows * (limit + slots * (t->nmax + bmax - 1)) : 0;
	if (t->pages > bound)
		fail("%s: %llu pages admitted over %llu ticks, bound %llu", what,
		     (unsigned long long)t->pages,
		     (unsigned long long)(t->tmax - t->tmin),
		     (unsigned long long)bound);
	return bound;
}

/* ---- main ------------------------------------------------------------------ */

static void usage(void)
{
	fputs("usage: stress [-q] [-s seed] [-t seconds] [-j threads] [section...]\n"
	      "  -q          quick: 1/20 of the operations (for TSan/valgrind)\n"
	      "  -s seed     generator seed (default 1)\n"
	      "  -t seconds  wall time per run (default 1.5; longer until it made\n"
	      "              the progress its checks need, 120 s more at most)\n"
	      "  -j threads  threads per run, 2..8 (default 4)\n"
	      "  sections:   ring limiter threshold decide signal (default: all)\n",
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
		{ "signal", stress_signal },
	};
	enum { NR_SECTIONS = sizeof(sections) / sizeof(sections[0]) };
	bool want[NR_SECTIONS] = { false }, any = false, found;
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
		found = false;
		for (i = 0; i < NR_SECTIONS; i++)
			if (!strcmp(argv[optind], sections[i].name))
				want[i] = found = any = true;
		if (!found)
			usage();
	}
	printf("tierpol stress: seed %llu, %u threads, scale %llu, %.1f s per run\n",
	       (unsigned long long)opt_seed, opt_threads,
	       (unsigned long long)opt_scale, opt_seconds);
	for (i = 0; i < NR_SECTIONS; i++)
		if (!any || want[i])
			sections[i].fn();
	printf("stress: %s, %d violation(s), %.1f s\n",
	       violations ? "FAILED" : "passed", violations, wall() - t);
	return violations ? 1 : 0;
}
