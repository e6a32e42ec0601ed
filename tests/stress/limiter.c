// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Stress: one rate limiter, consumers on a simulated clock and a tuner
 * that switches it between the bucket and both windows (stress.c has the
 * overview).
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stress.h"

#define LIM_TPS		1000000U	/* microseconds */
/* 2 s of settings (more than a window); -q: 0.1 s, to see several */
#define PHASE_TICKS	(opt_scale >= 10 ? 2000000ULL : 100000ULL)
#define MAX_PHASES	48
#define LIM_NMAX	512ULL		/* a THP */

/* The settings the tuner cycles through; phase k uses lim_cfgs[k % NR]. */
static const struct lim_cfg {
	u32 variant;
	u64 rate, burst;
	u32 batch;
	bool gap;		/* idle past the stale horizon first */
} lim_cfgs[] = {
	{ TP_LIMITER_BUCKET, 200000, 4096, 0, false },
	{ TP_LIMITER_WINDOW_RFC2020, 100000, 0, 32, false },
	{ TP_LIMITER_BUCKET, 50000, 256, 0, false },	/* burst < a THP */
	{ TP_LIMITER_WINDOW_LINUX61, 150000, 0, 1, false },
	{ TP_LIMITER_BUCKET, 300000, 0, 0, true },
	{ TP_LIMITER_WINDOW_LINUX61, 0, 0, 8, false },	/* refuses all */
	{ TP_LIMITER_WINDOW_RFC2020, 80000, 0, 64, false },
};
#define NR_CFGS		(sizeof(lim_cfgs) / sizeof(lim_cfgs[0]))
#define BATCH_MAX	64	/* the largest batch above */

/*
 * Phase @k follows an idle gap (the tuner makes one before every phase
 * whose settings ask for it; phase 0 is the init's). Every such phase, not
 * only the last, gets the bound's slack for the callers racing to take the
 * full bucket, and the check that one of them was admitted.
 */
static bool lim_gap(u32 k)
{
	return k && lim_cfgs[k % NR_CFGS].gap;
}

static const char *const variant_names[] = {
	"bucket", "window-rfc2020", "window-linux61",
};

static struct tp_limiter lim;
static struct simclock lclock;
static struct phaser lphase;
static u32 lim_hold;		/* the tuner wants the consumers parked */
static u32 lim_parked;		/* consumers parked (or done) */
static u64 lim_calls;

struct consumer {
	pthread_t th;
	unsigned int id;
	struct tp_limiter_cpu *slot;
	struct tally t[MAX_PHASES];
	struct tally overlap;		/* calls that overlapped a tune */
	int gap_first[MAX_PHASES];	/* first call after a gap: 1 admitted */
	u64 stalls;
};

static void lim_fill(struct tp_limiter_cfg *c, const struct lim_cfg *l)
{
	memset(c, 0, sizeof(*c));
	c->sz = sizeof(*c);
	c->variant = l->variant;
	c->tps = LIM_TPS;
	c->cand_batch = l->batch;
	c->rate = l->rate;
	c->burst = l->burst;
}

static void lim_park(void)
{
	add(&lim_parked, 1);
	while (ld(&lim_hold))
		sched_yield();
	__atomic_sub_fetch(&lim_parked, 1, __ATOMIC_RELAXED);
}

static void *lim_consumer(void *arg)
{
	static const u64 sizes[] = { 1, 1, 8, 64, LIM_NMAX };
	struct consumer *c = arg;
	struct rng g;
	u64 i, n, rel;
	u32 a, p;
	bool ok;

	rng_seed(&g, 2, c->id);
	for (p = 0; p < MAX_PHASES; p++)
		c->gap_first[p] = -1;
	for (i = 0; i < lim_calls && !should_stop(i); i++) {
		if (ld(&lim_hold))
			lim_park();
		rel = clock_enter(&lclock, c->id);
		n = sizes[rnd_below(&g, 5)];
		a = phase_enter(&lphase);
		/* One call in eight counts without a slot (exactly, at once). */
		ok = tp_limiter_consume(&lim, rnd_below(&g, 8) ? c->slot : NULL,
					n, lclock.t0 + rel);
		p = phase_leave(&lphase, a);
		clock_leave(&lclock, c->id, rel);
		if (p < MAX_PHASES) {
			tally_ask(&c->t[p], n);
			if (ok)
				tally_admit(&c->t[p], n, rel);
			if (lim_gap(p) && c->gap_first[p] < 0)
				c->gap_first[p] = ok;
		} else {
			tally_ask(&c->overlap, n);
			if (ok)
				tally_admit(&c->overlap, n, rel);
		}
		/* 0..3 us per call and thread: demand many times the rate. */
		n = rnd_below(&g, 4);
		if (n && !clock_step(&lclock, n))
			c->stalls++;
	}
	add(&lim_parked, 1);	/* done: as good as parked */
	return NULL;
}

/* Bad settings change nothing: each must be refused. */
static void lim_bad_tunes(const struct lim_cfg *l)
{
	struct tp_limiter_cfg c;

	lim_fill(&c, l);
	c.tps = LIM_TPS / 2;		/* the units of the live state */
	if (tp_limiter_tune(&lim, &c) != -EINVAL)
		fail("limiter: a tune to another clock was not refused");
	lim_fill(&c, l);
	c.rate = TP_RATE_MAX + 1;
	if (tp_limiter_tune(&lim, &c) != -ERANGE)
		fail("limiter: a rate above TP_RATE_MAX was not refused");
	lim_fill(&c, l);
	c.variant = TP_LIMITER_BUCKET;
	c.rate = 1000;
	c.burst = 1000 * 10000;		/* 10000 s: more than the bucket holds */
	if (tp_limiter_tune(&lim, &c) != -ERANGE)
		fail("limiter: a burst the bucket cannot hold was not refused");
}

/* Ticks of idleness after which the bucket is full again (limiter.c). */
static u64 lim_stale_ticks(void)
{
	struct bucket_units b;

	bucket_units(LIM_TPS, 1, 0, &b);
	return (1ULL << 61) >> b.shift;
}

static void *lim_tuner(void *arg)
{
	struct tp_limiter_cfg c;
	const struct lim_cfg *l;
	u64 next = PHASE_TICKS;
	u32 k;

	(void)arg;
	for (k = 1; k < MAX_PHASES; k++) {
		while (ld(&lclock.now) < next && !should_stop(0))
			sched_yield();
		if (should_stop(0))
			break;
		l = &lim_cfgs[k % NR_CFGS];
		lim_bad_tunes(l);
		lim_fill(&c, l);
		if (l->gap) {
			/* Everyone parked: the limiter idles past the horizon. */
			st(&lim_hold, 1);
			while (ld(&lim_parked) < opt_threads)
				sched_yield();
			add(&lclock.now, lim_stale_ticks() + LIM_TPS);
		}
		st(&lphase.started, k);
		if (tp_limiter_tune(&lim, &c))
			fail("limiter: tune to phase %u refused", k);
		st(&lphase.published, k);
		st(&lim_hold, 0);
		next = ld(&lclock.now) + PHASE_TICKS;
	}
	return NULL;
}

/* Check phase @k (all consumers' exact calls); add it to @sum. */
static void lim_check_phase(struct consumer *c, u32 k, struct tally *sum,
			    u64 *bound)
{
	const struct lim_cfg *l = &lim_cfgs[k % NR_CFGS];
	struct tally t = { 0 };
	u64 span, rate_span;
	unsigned int i;
	char what[64];
	int first = 0;

	for (i = 0; i < opt_threads; i++) {
		tally_merge(&t, &c[i].t[k]);
		if (lim_gap(k) && c[i].gap_first[k] > 0)
			first = 1;
	}
	snprintf(what, sizeof(what), "limiter phase %u (%s, rate %llu)", k,
		 variant_names[l->variant], (unsigned long long)l->rate);
	if (l->variant == TP_LIMITER_BUCKET)
		*bound += check_bucket(what, &t, LIM_TPS, l->rate, l->burst,
				       lim_gap(k) ? opt_threads - 1 : 0);
	else
		*bound += check_window(what, &t, LIM_TPS, l->rate, opt_threads,
				       BATCH_MAX);
	/*
	 * A saturated bucket admits at least 90 % of its rate. A caller
	 * descheduled after it read the clock may be admitted with a @now up
	 * to max_lag old: the admissions run without a break from at most
	 * max_lag after the earliest one.
	 */
	span = t.tmax - t.tmin;
	span = span > lclock.max_lag ? span - lclock.max_lag : 0;
	rate_span = (u64)((u128)l->rate * span / LIM_TPS);
	if (l->variant == TP_LIMITER_BUCKET && span >= LIM_TPS / 10 &&
	    t.asked >= 2 * rate_span && t.pages * 10 < rate_span * 9)
		fail("%s: saturated, admitted %llu of %llu", what,
		     (unsigned long long)t.pages, (unsigned long long)rate_span);
	/* A window that opens admits about its limit. */
	if (l->variant != TP_LIMITER_BUCKET && l->rate && span > LIM_TPS * 11 / 10 &&
	    t.asked >= 2 * l->rate && t.pages < l->rate / 2)
		fail("%s: admitted %llu over %llu ticks (a window opens every second)",
		     what, (unsigned long long)t.pages, (unsigned long long)span);
	if (lim_gap(k) && !first && t.calls)
		fail("%s: after an idle gap, no consumer's first call was admitted",
		     what);
	tally_merge(sum, &t);
}

void stress_limiter(void)
{
	struct tp_limiter_cfg cfg;
	struct consumer *c;
	struct tally sum[NR_CFGS], over = { 0 };
	u64 bound[NR_CFGS] = { 0 }, busy = 0, stalls = 0, phases;
	unsigned int i;
	pthread_t tuner;
	u32 k;

	c = zalloc_aligned(sizeof(*c) * opt_threads);
	memset(sum, 0, sizeof(sum));
	lim_fill(&cfg, &lim_cfgs[0]);
	/* Simulated time starts below the 2^64 wrap. */
	clock_init(&lclock, 0ULL - 20 * PHASE_TICKS, LIM_TPS / 2);
	if (tp_limiter_init(&lim, &cfg, lclock.t0)) {
		fail("limiter: init");
		return;
	}
	lphase.started = lphase.published = 0;
	lim_hold = 0;
	lim_parked = 0;
	lim_calls = opt_scale * 250000;
	for (i = 0; i < opt_threads; i++) {
		c[i].id = i;
		c[i].slot = zalloc_aligned(sizeof(*c[i].slot));
	}
	run_start();
	/* the check below needs 3 phases: 0, 1 and 2 */
	run_need(&lphase.published, 2);
	spawn(&tuner, 1, lim_tuner, NULL, 0);
	for (i = 0; i < opt_threads; i++)
		spawn(&c[i].th, 1, lim_consumer, &c[i], 0);
	for (i = 0; i < opt_threads; i++)
		join(&c[i].th, 1);
	run_stop();
	join(&tuner, 1);

	phases = ld(&lphase.published) + 1;
	for (k = 0; k < phases; k++)
		lim_check_phase(c, k, &sum[k % NR_CFGS], &bound[k % NR_CFGS]);
	for (i = 0; i < opt_threads; i++) {
		tally_merge(&over, &c[i].overlap);
		busy += tp_limiter_busy(c[i].slot);
		stalls += c[i].stalls;
	}
	for (k = 0; k < NR_CFGS && k < phases; k++)
		printf("limiter    %-15s rate %6llu burst %4llu batch %2u%s: calls %llu, "
		       "asked %llu, admitted %llu <= bound %llu\n",
		       variant_names[lim_cfgs[k].variant],
		       (unsigned long long)lim_cfgs[k].rate,
		       (unsigned long long)lim_cfgs[k].burst, lim_cfgs[k].batch,
		       lim_cfgs[k].gap ? " after a gap" : "",
		       (unsigned long long)sum[k].calls,
		       (unsigned long long)sum[k].asked,
		       (unsigned long long)sum[k].pages,
		       (unsigned long long)bound[k]);
	printf("limiter    %u threads, %llu phases (%.1f s simulated): calls across a tune %llu "
	       "(admitted %llu), busy %llu, clock stalls %llu, max lag %llu us\n",
	       opt_threads, (unsigned long long)phases,
	       (double)ld(&lclock.now) / LIM_TPS,
	       (unsigned long long)over.calls, (unsigned long long)over.pages,
	       (unsigned long long)busy, (unsigned long long)stalls,
	       (unsigned long long)lclock.lag);
	if (phases < 3)
		fail("limiter: only %llu phases", (unsigned long long)phases);
	for (i = 0; i < opt_threads; i++)
		free(c[i].slot);
	free(c);
}
