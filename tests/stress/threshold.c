// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Stress: the hot-threshold controller, several threads closing periods
 * (stress.c has the overview).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stress.h"

/* Updates on a stepped clock and on a free one. */

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
			th_check(w, tp_thresh_update(&thr, ld(&th_cand), now), now);
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
		th_check(w, tp_thresh_update(&thr, ld(&th_cand), now), now);
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
		.sz = sizeof(cfg), .variant = variant, .steps = steps, .tps = 1000,
		.ref_th = ref_th, .period = TH_PERIOD, .rate_limit = 1000,
	};
	u64 s, ev, events = 0, lowered = 0, raised = 0, calls = 0, out = 0;
	u64 bad_steps = 0, nr = 0, close_gaps = 0, *all;
	unsigned int i, n = opt_threads;
	pthread_t th[MAX_THREADS];
	double end;

	th_unit = variant == TP_THRESH_LINUX61 ? 2 * ref_th : ref_th;
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
	       variant ? "linux61" : "rfc2020", (unsigned long long)ref_th,
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
	       variant ? "linux61" : "rfc2020", (unsigned long long)ref_th,
	       steps ? steps : 16, (unsigned long long)calls,
	       (unsigned long long)nr,
	       (unsigned long long)(ld(&th_now) - t0),
	       (unsigned long long)close_gaps, (unsigned long long)out);
	if (!nr || (ld(&th_now) - t0) / (TH_PERIOD + 1) + 1 < nr)
		fail("threshold: %llu closes", (unsigned long long)nr);
	free(all);
}

void stress_thresh(void)
{
	stress_thresh_one(TP_THRESH_RFC2020, 1000, 0, 0ULL - 300 * TH_PERIOD);
	stress_thresh_one(TP_THRESH_LINUX61, 1000, 0,
			  0xffffffffULL - 300 * TH_PERIOD);
	/* A reference below the step count: the step is one tick. */
	stress_thresh_one(TP_THRESH_RFC2020, 5, 16, 12345);
}
