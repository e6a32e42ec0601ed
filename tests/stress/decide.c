// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Stress: tp_decide() from several threads on one node, each on its own
 * tp_node_cpu slot, while a tuner switches presets, variants, rates,
 * bursts and the tiering mode; and a decision interrupted by a signal
 * handler that decides on the same slot and tunes (stress.c has the
 * overview).
 */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stress.h"

#define DEC_TPS		1000000U	/* microseconds */
/* 2 s of settings (more than a window); -q: 0.1 s, to see several */
#define PHASE_TICKS	(opt_scale >= 10 ? 2000000ULL : 100000ULL)
#define MAX_PHASES	48
#define DEC_NMAX	512ULL		/* a THP */
#define WMARK_HIGH	3000ULL		/* the RFC's default rate: 3000 pages/s */
#define BATCH_MAX	32		/* the largest batch below */

/* ---- faults, memory and the statistics they must add up to -------------- */

/* Pages per verdict that the callers saw. */
struct dec_counts {
	u64 calls, invalid, bad;
	u64 pages[TP_NR_VERDICTS];
};

/*
 * A random fault and memory: free pages below the high watermark (no
 * room), with room but no bypass, or above every bypass mark; one call in
 * 32 is invalid (no pages, or watermarks out of order).
 */
static void dec_random(struct rng *g, struct tp_fault *f,
		       struct tp_node_mem *mem)
{
	static const u64 sizes[] = { 1, 1, 1, 16, DEC_NMAX };
	u64 r = rnd(g), k = (r >> 40) % 8;

	f->nr_pages = sizes[r % 5];
	f->latency = (r >> 8) % 64 ? rnd_below(g, 2 * DEC_TPS) :
		     TP_LATENCY_UNKNOWN;
	f->flags = (u32)(r >> 16) & (TP_FAULT_TOPTIER | TP_FAULT_YOUNG |
				     TP_FAULT_WRITE);
	if ((r >> 20) % 8)
		f->flags &= ~TP_FAULT_TOPTIER;	/* mostly slow-tier pages */
	mem->wmark_min = 1000;
	mem->wmark_low = 2000;
	mem->wmark_high = WMARK_HIGH;
	mem->wmark_promo = 4000;
	mem->present = 1ULL << 20;
	/*
	 * No room (free <= high); room but no bypass (high + 512 < free <=
	 * 8000: below the RFC's high + 2 x rate and 6.1's promo + 1 GiB);
	 * above every bypass mark. So a refusal for room is always on the
	 * rate-limited path: the limiter admitted it.
	 */
	if (k < 3)
		mem->free = rnd_below(g, WMARK_HIGH + 1);
	else if (k < 6)
		mem->free = WMARK_HIGH + DEC_NMAX + 1 + rnd_below(g, 4000);
	else
		mem->free = 300000 + rnd_below(g, 100000);
	if ((r >> 24) % 32 == 0) {
		if ((r >> 29) & 1)
			f->nr_pages = 0;
		else
			mem->wmark_low = 5000;	/* out of order */
	}
}

static bool dec_valid(const struct tp_fault *f, const struct tp_node_mem *mem)
{
	return f->nr_pages && mem->wmark_low <= mem->wmark_high;
}

/*
 * Count a call's verdict. A verdict for an invalid call, or -EINVAL for a
 * valid one, is counted as bad (no printing: a signal handler counts too).
 */
static void dec_count(struct dec_counts *c, const struct tp_fault *f,
		      const struct tp_node_mem *mem, int v)
{
	c->calls++;
	if (!dec_valid(f, mem)) {
		c->invalid++;
		if (v != -EINVAL)
			c->bad++;
	} else if (v < 0 || v >= TP_NR_VERDICTS) {
		c->bad++;
	} else {
		c->pages[v] += f->nr_pages;
	}
}

static void dec_merge(struct dec_counts *dst, const struct dec_counts *src)
{
	unsigned int v;

	dst->calls += src->calls;
	dst->invalid += src->invalid;
	dst->bad += src->bad;
	for (v = 0; v < TP_NR_VERDICTS; v++)
		dst->pages[v] += src->pages[v];
}

static u64 dec_sum(const struct dec_counts *c)
{
	u64 s = 0;
	unsigned int v;

	for (v = 0; v < TP_NR_VERDICTS; v++)
		s += c->pages[v];
	return s;
}

/* The node's statistics folded from @slots must be what the callers saw. */
static void dec_check_stats(const char *what, const struct tp_policy *pol,
			    const struct tp_node *node,
			    struct tp_node_cpu **slots, unsigned int nr,
			    const struct dec_counts *seen)
{
	const u64 *p = seen->pages;
	struct tp_node_stats s;
	u64 pending = 0, hot, busy_cand;
	unsigned int i, v;

	if (seen->bad)
		fail("%s: %llu calls got a verdict that does not fit them "
		     "(-EINVAL for a valid call, or a verdict for an invalid one)",
		     what, (unsigned long long)seen->bad);
	tp_node_stats_read(pol, node, &s);
	for (i = 0; i < nr; i++) {
		tp_node_stats_add(&s, slots[i]);
		/* White box: the candidates a slot has not folded yet. */
		pending += slots[i]->cand.v;
	}
	for (v = 0; v < TP_NR_VERDICTS; v++)
		if (s.verdict[v] != p[v])
			fail("%s: %s counted %llu pages, the callers saw %llu", what,
			     tp_verdict_name((int)v),
			     (unsigned long long)s.verdict[v],
			     (unsigned long long)p[v]);
	if (s.decided != dec_sum(seen))
		fail("%s: decided %llu, the callers' pages %llu", what,
		     (unsigned long long)s.decided,
		     (unsigned long long)dec_sum(seen));
	if (s.success != p[TP_PROMOTE] + p[TP_PROMOTE_NRL])
		fail("%s: success %llu", what, (unsigned long long)s.success);
	if (s.nospace_nrl > p[TP_REFUSE_NOSPACE] ||
	    s.candidate_nrl != p[TP_PROMOTE_NRL] + s.nospace_nrl)
		fail("%s: bypass candidates %llu (refused for room %llu)", what,
		     (unsigned long long)s.candidate_nrl,
		     (unsigned long long)s.nospace_nrl);
	/* Candidates: promoted, rate limited, no room, or busy at the bucket. */
	hot = p[TP_PROMOTE] + p[TP_REFUSE_RATELIMIT] + p[TP_REFUSE_NOSPACE] -
	      s.nospace_nrl;
	busy_cand = s.candidate - hot;
	if (s.candidate < hot || busy_cand > p[TP_REFUSE_BUSY])
		fail("%s: candidates %llu, of which %llu are not promoted, rate limited or refused for room",
		     what, (unsigned long long)s.candidate,
		     (unsigned long long)busy_cand);
	/* Each candidate counted once: in the node, or pending in a slot. */
	if (s.cand_shared + pending != s.candidate || s.cand_shared > s.candidate)
		fail("%s: shared candidates %llu + pending %llu, candidates %llu",
		     what, (unsigned long long)s.cand_shared,
		     (unsigned long long)pending,
		     (unsigned long long)s.candidate);
}

/* ---- the settings the tuner cycles through -------------------------------- */

static const struct dec_cfg {
	const char *name;
	u32 preset;
	s64 limiter;		/* -1: the preset's */
	u32 mode;
	u32 rate_mbps;		/* ~0U: the preset's */
	u64 burst;
	u32 batch;
} dec_cfgs[] = {
	{ "linux61 40MB/s", TP_PRESET_LINUX61, -1, TP_MODE_TIERING, 40, 0, 32 },
	{ "rfc2020 wmark", TP_PRESET_RFC2020, -1, TP_MODE_TIERING, ~0U, 0, 32 },
	{ "bucket 20MB/s", TP_PRESET_LINUX61, TP_LIMITER_BUCKET, TP_MODE_TIERING,
	  20, 1024, 32 },
	{ "tiering off", TP_PRESET_LINUX61, -1, TP_MODE_NORMAL, 40, 0, 32 },
	{ "linux61 80MB/s", TP_PRESET_LINUX61, -1, TP_MODE_TIERING, 80, 0, 1 },
	{ "bucket 10MB/s", TP_PRESET_LINUX61, TP_LIMITER_BUCKET, TP_MODE_TIERING,
	  10, 256, 16 },	/* burst < a THP */
	{ "rfc2020 30MB/s", TP_PRESET_RFC2020, -1, TP_MODE_TIERING, 30, 0, 8 },
};
#define NR_CFGS		(sizeof(dec_cfgs) / sizeof(dec_cfgs[0]))

static void dec_fill(struct tp_policy_cfg *c, const struct dec_cfg *d)
{
	tp_policy_preset(c, d->preset, DEC_TPS);
	if (d->limiter >= 0)
		c->limiter_variant = (u32)d->limiter;
	c->mode = d->mode;
	if (d->rate_mbps != ~0U)
		c->rate_limit_mbps = d->rate_mbps;
	c->burst_pages = d->burst;
	c->cand_batch = d->batch;
	c->scan_period_max_ms = 50;	/* many threshold periods */
}

/* The limiter's rate in pages per second under @d (the RFC's default:
 * the high watermark, which every call passes). */
static u64 dec_rate(const struct dec_cfg *d)
{
	struct tp_policy_cfg c;

	dec_fill(&c, d);
	if (!c.rate_limit_mbps && (c.flags & TP_POL_RL_WMARK_DEFAULT))
		return WMARK_HIGH;
	return tp_mbps_to_pages(c.rate_limit_mbps, c.page_shift);
}

/* ---- deciders and the tuner ------------------------------------------------- */

static struct tp_policy pol;
static struct tp_node *node;
static struct simclock dclock;
static struct phaser dphase;
static u64 dec_calls;

struct decider {
	pthread_t th;
	unsigned int id;
	struct tp_node_cpu *slot;
	struct dec_counts seen;
	struct tally t[MAX_PHASES];	/* admitted by the limiter */
	u64 stalls;
};

static void *decider(void *arg)
{
	struct decider *d = arg;
	struct tp_node_mem mem;
	struct tp_fault f;
	struct rng g;
	u64 i, rel;
	u32 a, p;
	int v;

	rng_seed(&g, 5, d->id);
	for (i = 0; i < dec_calls && !should_stop(i); i++) {
		dec_random(&g, &f, &mem);
		rel = clock_enter(&dclock, d->id);
		a = phase_enter(&dphase);
		v = tp_decide(&pol, node, d->slot, &f, &mem, dclock.t0 + rel);
		p = phase_leave(&dphase, a);
		clock_leave(&dclock, d->id, rel);
		dec_count(&d->seen, &f, &mem, v);
		if (p < MAX_PHASES && v >= 0 && v != TP_PROMOTE_NRL) {
			/* Past the hotness check, at the rate limiter. */
			if (v == TP_PROMOTE || v == TP_REFUSE_RATELIMIT ||
			    v == TP_REFUSE_NOSPACE)
				tally_ask(&d->t[p], f.nr_pages);
			if (v == TP_PROMOTE || v == TP_REFUSE_NOSPACE)
				tally_admit(&d->t[p], f.nr_pages, rel);
		}
		v = (int)rnd_below(&g, 4);
		if (v && !clock_step(&dclock, (u64)v))
			d->stalls++;
	}
	return NULL;
}

/* Bad settings change nothing: refused, and the policy reads the same. */
static void dec_bad_tunes(const struct dec_cfg *d)
{
	struct tp_node_mem mem = {
		.free = 5000, .wmark_min = 1000, .wmark_low = 2000,
		.wmark_high = WMARK_HIGH, .wmark_promo = 4000,
		.present = 1ULL << 20,
	};
	u64 before = tp_demotion_target(&pol, &mem);
	struct tp_policy_cfg c;

	dec_fill(&c, d);
	c.limiter_variant = TP_LIMITER_BUCKET;
	c.flags |= TP_POL_RL_WMARK_DEFAULT;	/* a division per fault */
	if (tp_policy_tune(&pol, &c) != -EINVAL)
		fail("decide: the watermark rate with the bucket was not refused");
	dec_fill(&c, d);
	c.tps = DEC_TPS * 2;
	if (tp_policy_tune(&pol, &c) != -EINVAL)
		fail("decide: a tune to another clock was not refused");
	dec_fill(&c, d);
	c.mode = 4;
	if (tp_policy_tune(&pol, &c) != -EINVAL)
		fail("decide: mode 4 was not refused");
	if (tp_demotion_target(&pol, &mem) != before)
		fail("decide: a refused tune changed the policy");
}

static void *dec_tuner(void *arg)
{
	struct tp_policy_cfg c;
	const struct dec_cfg *d;
	u64 next = PHASE_TICKS;
	u32 k, was_on = 1;

	(void)arg;
	for (k = 1; k < MAX_PHASES; k++) {
		while (ld(&dclock.now) < next && !should_stop(0))
			sched_yield();
		if (should_stop(0))
			break;
		d = &dec_cfgs[k % NR_CFGS];
		dec_bad_tunes(&dec_cfgs[(k - 1) % NR_CFGS]);
		dec_fill(&c, d);
		st(&dphase.started, k);
		if (tp_policy_tune(&pol, &c))
			fail("decide: tune to phase %u refused", k);
		/* The tiering mode came back on: reset_memory_tiering(). */
		if (!was_on && (d->mode & TP_MODE_TIERING))
			tp_node_reset(node, dclock.t0 + ld(&dclock.now));
		was_on = d->mode & TP_MODE_TIERING;
		st(&dphase.published, k);
		next = ld(&dclock.now) + PHASE_TICKS;
	}
	return NULL;
}

void stress_decide(void)
{
	struct tp_policy_cfg cfg;
	struct tp_node_cpu *slots[MAX_THREADS];
	struct decider *d;
	struct dec_counts seen = { 0 };
	struct tally sum[NR_CFGS];
	u64 bound[NR_CFGS] = { 0 }, phases, stalls = 0;
	const struct dec_cfg *dc;
	struct tp_node_stats s;
	unsigned int i;
	pthread_t tuner;
	char what[64];
	u32 k;

	d = zalloc_aligned(sizeof(*d) * opt_threads);
	node = zalloc_aligned(sizeof(*node));
	memset(sum, 0, sizeof(sum));
	dec_fill(&cfg, &dec_cfgs[0]);
	clock_init(&dclock, 0xffffffffULL - 2 * PHASE_TICKS, DEC_TPS / 2);
	if (tp_policy_init(&pol, &cfg) || tp_node_init(node, &pol, dclock.t0)) {
		fail("decide: init");
		return;
	}
	dphase.started = dphase.published = 0;
	dec_calls = opt_scale * 250000;
	for (i = 0; i < opt_threads; i++) {
		d[i].id = i;
		d[i].slot = slots[i] = zalloc_aligned(sizeof(*d[i].slot));
	}
	run_start();
	/* the check below needs 3 phases: 0, 1 and 2 */
	run_need(&dphase.published, 2);
	spawn(&tuner, 1, dec_tuner, NULL, 0);
	for (i = 0; i < opt_threads; i++)
		spawn(&d[i].th, 1, decider, &d[i], 0);
	for (i = 0; i < opt_threads; i++)
		join(&d[i].th, 1);
	run_stop();
	join(&tuner, 1);

	for (i = 0; i < opt_threads; i++) {
		dec_merge(&seen, &d[i].seen);
		stalls += d[i].stalls;
	}
	dec_check_stats("decide", &pol, node, slots, opt_threads, &seen);

	phases = ld(&dphase.published) + 1;
	for (k = 0; k < phases; k++) {
		struct tally t = { 0 };

		dc = &dec_cfgs[k % NR_CFGS];
		for (i = 0; i < opt_threads; i++)
			tally_merge(&t, &d[i].t[k]);
		snprintf(what, sizeof(what), "decide phase %u (%s)", k, dc->name);
		if (!(dc->mode & TP_MODE_TIERING)) {
			if (t.calls)
				fail("%s: %llu calls reached the limiter", what,
				     (unsigned long long)t.calls);
		} else if (dc->limiter == TP_LIMITER_BUCKET) {
			bound[k % NR_CFGS] += check_bucket(what, &t, DEC_TPS,
							   dec_rate(dc),
							   dc->burst, 0);
		} else {
			bound[k % NR_CFGS] += check_window(what, &t, DEC_TPS,
							   dec_rate(dc),
							   opt_threads,
							   BATCH_MAX);
		}
		tally_merge(&sum[k % NR_CFGS], &t);
	}
	for (k = 0; k < NR_CFGS && k < phases; k++)
		printf("decide     %-16s rate %6llu: at the limiter %llu pages, admitted %llu <= bound %llu\n",
		       dec_cfgs[k].name, (unsigned long long)dec_rate(&dec_cfgs[k]),
		       (unsigned long long)sum[k].asked,
		       (unsigned long long)sum[k].pages,
		       (unsigned long long)bound[k]);
	tp_node_stats_read(&pol, node, &s);
	for (i = 0; i < opt_threads; i++)
		tp_node_stats_add(&s, slots[i]);
	printf("decide     %u threads, %llu phases: calls %llu (invalid %llu), decided %llu pages: "
	       "promoted %llu + nrl %llu, rate limited %llu, busy %llu, candidates %llu "
	       "(shared %llu), threshold moves %llu/%llu, clock stalls %llu\n",
	       opt_threads, (unsigned long long)phases,
	       (unsigned long long)seen.calls, (unsigned long long)seen.invalid,
	       (unsigned long long)s.decided,
	       (unsigned long long)s.verdict[TP_PROMOTE],
	       (unsigned long long)s.verdict[TP_PROMOTE_NRL],
	       (unsigned long long)s.verdict[TP_REFUSE_RATELIMIT],
	       (unsigned long long)s.verdict[TP_REFUSE_BUSY],
	       (unsigned long long)s.candidate,
	       (unsigned long long)s.cand_shared,
	       (unsigned long long)s.th_lowered,
	       (unsigned long long)s.th_raised, (unsigned long long)stalls);
	if (phases < 3)
		fail("decide: only %llu phases", (unsigned long long)phases);
	for (i = 0; i < opt_threads; i++)
		free(d[i].slot);
	free(node);
	free(d);
}

/* ---- a decision interrupted by a handler that decides and tunes ----------- */

/*
 * SIGUSR1 interrupts thread 0 anywhere, in tp_decide() too; the handler
 * decides on thread 0's own slot and, one signal in eight, tunes the
 * policy (it is the only tuner: tunes stay serialized), resetting the node
 * when the tiering mode comes back on. Thread 1 decides meanwhile on its
 * slot. Only the handler touches the sig_h* variables.
 */
#define SIG_BATCH	4	/* folds often: handlers land in them */

static struct tp_node_cpu *sig_slot[2];
static u64 sig_clock;
static int sig_done;		/* thread 0 blocked the signal, and ends */
static struct rng sig_hrng;
static struct dec_counts sig_hseen;
static u64 sig_htunes, sig_hbad;
static u32 sig_hcfg;

/*
 * Mostly candidates, so that both the decision and the handler run the
 * per-CPU count and fold it (a huge page folds at once); one call in
 * eight is any call.
 */
static void sig_random(struct rng *g, struct tp_fault *f,
		       struct tp_node_mem *mem)
{
	static const u64 sizes[] = { 1, 16, DEC_NMAX };

	dec_random(g, f, mem);
	if (!rnd_below(g, 8) || !dec_valid(f, mem))
		return;
	f->nr_pages = sizes[rnd_below(g, 3)];
	f->latency = rnd_below(g, DEC_TPS / 2);
	f->flags = TP_FAULT_YOUNG;
	mem->free = WMARK_HIGH + DEC_NMAX + 1 + rnd_below(g, 4000);
}

static void sig_handler(int signo)
{
	const struct dec_cfg *d;
	struct tp_policy_cfg c;
	struct tp_node_mem mem;
	struct tp_fault f;
	int e = errno, v;

	(void)signo;
	sig_random(&sig_hrng, &f, &mem);
	v = tp_decide(&pol, node, sig_slot[0], &f, &mem, ld(&sig_clock));
	dec_count(&sig_hseen, &f, &mem, v);
	if (sig_hseen.calls % 8 == 0) {
		d = &dec_cfgs[++sig_hcfg % NR_CFGS];
		dec_fill(&c, d);
		c.cand_batch = SIG_BATCH;
		if (tp_policy_tune(&pol, &c))
			sig_hbad++;
		if ((d->mode & TP_MODE_TIERING) &&
		    !(dec_cfgs[(sig_hcfg - 1) % NR_CFGS].mode & TP_MODE_TIERING))
			tp_node_reset(node, ld(&sig_clock));
		sig_htunes++;
	}
	errno = e;
}

struct sig_thread {
	pthread_t th;
	unsigned int id;
	struct dec_counts seen;
	u64 overfull;		/* slot beyond batch - 1 + a request, or < 0 */
};

static void *sig_decider(void *arg)
{
	struct sig_thread *t = arg;
	struct tp_node_mem mem;
	struct tp_fault f;
	struct rng g;
	sigset_t set;
	u64 i;
	int v;

	rng_seed(&g, 6, t->id);
	for (i = 0; i < dec_calls && !should_stop(i); i++) {
		sig_random(&g, &f, &mem);
		v = tp_decide(&pol, node, sig_slot[t->id], &f, &mem,
			      add(&sig_clock, rnd_below(&g, 4)));
		dec_count(&t->seen, &f, &mem, v);
		/*
		 * White box: after its own call a slot holds fewer than a
		 * batch, plus a handler's request if one came in the middle
		 * (tests/model/fold.pml); never a "negative" count.
		 */
		if (sig_slot[t->id]->cand.v >= SIG_BATCH + DEC_NMAX)
			t->overfull++;
	}
	if (t->id == 0) {
		/* No handler may run once the counts are read. */
		sigemptyset(&set);
		sigaddset(&set, SIGUSR1);
		pthread_sigmask(SIG_BLOCK, &set, NULL);
		st(&sig_done, 1);
	}
	return NULL;
}

void stress_signal(void)
{
	struct tp_policy_cfg cfg;
	struct sig_thread t[2];
	struct dec_counts seen = { 0 };
	struct sigaction sa, old;
	struct timespec pause = { 0, 20000 };
	struct tp_node_stats s;
	u64 sent = 0;
	unsigned int i;

	memset(t, 0, sizeof(t));
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = sig_handler;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	node = zalloc_aligned(sizeof(*node));
	dec_fill(&cfg, &dec_cfgs[0]);
	cfg.cand_batch = SIG_BATCH;
	sig_clock = 1000;
	if (tp_policy_init(&pol, &cfg) || tp_node_init(node, &pol, sig_clock) ||
	    sigaction(SIGUSR1, &sa, &old)) {
		fail("signal: init");
		return;
	}
	rng_seed(&sig_hrng, 7, 0);
	memset(&sig_hseen, 0, sizeof(sig_hseen));
	sig_htunes = sig_hbad = 0;
	sig_hcfg = 0;
	sig_done = 0;
	dec_calls = opt_scale * 250000;
	for (i = 0; i < 2; i++) {
		t[i].id = i;
		sig_slot[i] = zalloc_aligned(sizeof(*sig_slot[i]));
	}
	run_start();
	for (i = 0; i < 2; i++)
		spawn(&t[i].th, 1, sig_decider, &t[i], 0);
	while (!ld(&sig_done) && !should_stop(0)) {
		if (pthread_kill(t[0].th, SIGUSR1))
			break;
		sent++;
		nanosleep(&pause, NULL);
	}
	join(&t[0].th, 1);
	join(&t[1].th, 1);
	run_stop();
	sigaction(SIGUSR1, &old, NULL);

	dec_merge(&seen, &t[0].seen);
	dec_merge(&seen, &t[1].seen);
	if (t[0].overfull || t[1].overfull)
		fail("signal: a slot held %llu + %llu times a count out of bounds after its own call",
		     (unsigned long long)t[0].overfull,
		     (unsigned long long)t[1].overfull);
	dec_merge(&seen, &sig_hseen);
	if (sig_hbad)
		fail("signal: %llu tunes refused in the handler",
		     (unsigned long long)sig_hbad);
	dec_check_stats("signal", &pol, node, sig_slot, 2, &seen);
	tp_node_stats_read(&pol, node, &s);
	tp_node_stats_add(&s, sig_slot[0]);
	tp_node_stats_add(&s, sig_slot[1]);
	printf("signal     2 threads, %llu signals sent: %llu decisions in the handler "
	       "(on the interrupted slot), %llu tunes; calls %llu, decided %llu pages, "
	       "candidates %llu (shared %llu): %s\n",
	       (unsigned long long)sent,
	       (unsigned long long)sig_hseen.calls,
	       (unsigned long long)sig_htunes,
	       (unsigned long long)seen.calls, (unsigned long long)s.decided,
	       (unsigned long long)s.candidate,
	       (unsigned long long)s.cand_shared,
	       s.decided == dec_sum(&seen) ? "exact" : "MISMATCH");
	if (!sig_hseen.calls)
		fail("signal: no handler ran");
	for (i = 0; i < 2; i++)
		free(sig_slot[i]);
	free(node);
}
