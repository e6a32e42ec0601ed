// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Stress: the scan ring, one writer and several readers (stress.c has the
 * overview).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "stress.h"

/* One writer records and advances passes; readers look up meanwhile. */

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
	run_stop();
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

void stress_ring(void)
{
	struct tp_scan_ring_cfg cfg = { .sz = sizeof(cfg), .depth = RING_DEPTH,
					.limit = RING_SPACE };
	struct reader rd[MAX_THREADS] = { 0 };
	unsigned int nr = opt_threads - 1, i;
	pthread_t wr;
	struct reader sum = { 0 };

	if (tp_scan_ring_init(&ring, &cfg, ring_pass, RING_DEPTH)) {
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
