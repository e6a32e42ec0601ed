// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * tiersim: the two-tier memory model's main loop: the threads and their
 * clocks, sampling, the periodic events and the replay of the streams. docs/tiersim-model.md describes what is simulated
 * and what is left out; sim_int.h says which file holds which part.
 */
#include "sim_int.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void sim_fail(struct sim *s, const char *what, int ret)
{
	if (s->failed)
		return;
	s->failed = 1;
	snprintf(s->r->err, sizeof(s->r->err), "%s: %s failed (%d)",
		 s->p->name, what, ret);
}

void thread_update_tick(const struct sim *s, struct sthread *t)
{
	t->next_tick = s->scan_on ? t->node_stamp + t->scan_period + t->idle :
		       T_NEVER;
}

/* ---- sampling and events ---------------------------------------------------- */

static void take_sample(struct sim *s)
{
	struct sim_result *r = s->r;
	struct sim_sample *sm;
	struct sim_node_stats ns;
	u32 i;

	if (r->nr_samples == SIM_MAX_SAMPLES) {
		/* Keep every other sample, sample half as often. */
		for (i = 0; i < SIM_MAX_SAMPLES / 2; i++)
			r->sample[i] = r->sample[2 * i + 1];
		r->nr_samples = SIM_MAX_SAMPLES / 2;
		s->sample_ns *= 2;
	}
	sm = &r->sample[r->nr_samples++];
	node_stats(s, &ns);
	sm->t_ns = s->now;
	sm->acc = r->accesses;
	sm->fast = r->fast_accesses;
	sm->promo = r->promotions;
	sm->thresh = ns.threshold;
	sm->faults = r->hint_faults;
	sm->demo = r->demotions;
	sm->cand = ns.pgpromote_candidate;
	sm->fast_used = s->fused * s->upages;
	sm->pte_updates = r->pte_updates;
	sm->util[0] = (u64)(s->util[0] * 1000 + 0.5);
	sm->util[1] = (u64)(s->util[1] * 1000 + 0.5);
	sm->rate = s->kd ? damon_quota_mbps(s) : s->pcfg.rate_limit_mbps;
	while (s->next_sample <= s->now)
		s->next_sample += s->sample_ns;
}

/* Every event due at the current time: samples, kswapd, bandwidth. */
static void sim_events(struct sim *s)
{
	do {
		if (s->now >= s->next_sample)
			take_sample(s);
		if (s->kswapd_awake && s->now >= s->kswapd_clock)
			kswapd_run(s);
		if (s->now >= s->next_ctl)
			ctl_step(s);
		if (s->now >= s->abit_clock)
			abit_run(s);
		if (s->now >= s->next_age)
			hot_age(s);
		if (s->now >= s->kmig_clock)
			kmig_run(s);
		if (s->now >= s->damon_clock)
			damon_run(s);
		if (s->now >= s->next_bw) {
			bw_epoch(s, s->now - s->next_bw + BW_EPOCH_NS);
			s->next_bw = s->now + BW_EPOCH_NS;
		}
		update_next_event(s);
	} while (s->now >= s->next_event && !s->failed);
}

/* The placement map's end: each bin's pages allocated and on the fast tier. */
static void map_end(const struct sim *s, struct sim_result *r)
{
	u64 u, b;

	for (u = 0; u < s->nr_units; u++) {
		if (s->flags[u] & PF_NOALLOC)
			continue;
		b = u * SIM_MAP_BINS / s->nr_units;
		r->map_alloc[b] += s->upages;
		if (s->flags[u] & PF_FAST)
			r->map_fast[b] += s->upages;
	}
}

/*
 * phase-shift: time from the shift until the fast-tier ratio is back at
 * 90 % of its level just before (0 if it never fell below; -1 if it did
 * not recover within the run). The level before is the last fifth of the
 * phase before the shift, or where no sample falls inside it (a phase
 * shorter than five sampling intervals), the last interval sampled before
 * the shift: not a run that "never" recovers.
 */
static double response_ms(const struct sim_result *r, const struct sim_src *src)
{
	u32 ph, i;
	u64 t0, t_pre;
	const struct sim_sample *a = NULL, *b = NULL;
	double pre;
	int dropped = 0;

	for (ph = 0; ph < r->nr_phases; ph++)
		if (!strcmp(src->phase_name[ph], "after"))
			break;
	if (ph == r->nr_phases || !ph || src->wl->p.kind != WL_PHASE_SHIFT)
		return -1;
	t0 = r->phase[ph].start_ns;
	t_pre = t0 - r->phase[ph - 1].time_ns / 5;
	for (i = 0; i < r->nr_samples; i++) {
		if (!a && r->sample[i].t_ns >= t_pre)
			a = &r->sample[i];
		if (r->sample[i].t_ns <= t0)
			b = &r->sample[i];
	}
	if (b && (!a || a >= b) && b > r->sample)
		a = b - 1;
	if (!a || !b || b->acc <= a->acc)
		return -1;
	pre = (double)(b->fast - a->fast) / (double)(b->acc - a->acc);
	for (i = 1; i < r->nr_samples; i++) {
		const struct sim_sample *x = &r->sample[i - 1],
					*y = &r->sample[i];
		double ratio;

		if (x->t_ns < t0 || y->acc == x->acc)
			continue;
		ratio = (double)(y->fast - x->fast) / (double)(y->acc - x->acc);
		if (ratio < 0.9 * pre)
			dropped = 1;
		else if (!dropped)
			return 0;	/* the shift did not hurt */
		else
			return (double)(y->t_ns - t0) / 1e6;
	}
	return -1;			/* not recovered within the run */
}

/* Allocation or hint fault; returns the flags the access then sees. */
static u8 sim_slow(struct sim *s, struct sthread *t, u64 u, u64 a)
{
	u8 f = s->flags[u];

	if (f & PF_NOALLOC)
		return alloc_unit(s, u);
	return hint_fault(s, t, u, (u32)WL_IS_WRITE(a), WL_TID(a));
}

/* ---- the threads ------------------------------------------------------------ */

/* The phase all threads are in begins (at the current time). */
static void phase_begin(struct sim *s)
{
	struct sim_result *r = s->r;

	r->phase[s->phase].start_ns = s->now;
	s->ph_start = s->now;
	s->ph_promo = r->promotions;
	s->ph_faults = r->hint_faults;
	s->ph_stall = r->t_fault + r->t_migr;
}

/* The phase ends at @t_end: its time is wall time, the threads' span. */
static void phase_end(struct sim *s, u64 t_end)
{
	struct sim_result *r = s->r;
	struct sim_phase_stats *ph = &r->phase[s->phase];

	ph->time_ns = t_end - s->ph_start;
	ph->promotions = r->promotions - s->ph_promo;
	ph->hint_faults = r->hint_faults - s->ph_faults;
	if (s->src->phase_measured[s->phase]) {
		r->measured_time_ns += ph->time_ns;
		r->measured_stall_ns += r->t_fault + r->t_migr - s->ph_stall;
	}
}

/*
 * Every thread is done with its share of the phase: the phase ends when the
 * last one does, and the next begins for all at that time (the others
 * waited: their runtime did not advance). Returns 0 when the stream is over.
 */
static int barrier(struct sim *s)
{
	u64 t_end = 0;
	u32 i, more = 0;

	for (i = 0; i < s->nr_thr; i++)
		if (s->thr[i].now > t_end)
			t_end = s->thr[i].now;
	phase_end(s, t_end);
	for (i = 0; i < s->nr_thr; i++) {
		struct sthread *t = &s->thr[i];

		t->idle += t_end - t->now;
		t->now = t_end;
		thread_update_tick(s, t);
		if (s->src->wl && t->state != TH_DONE &&
		    wl_thread_next(s->src->wl, &t->ws)) {
			t->state = TH_RUN;
			more = 1;
		} else {
			t->state = TH_DONE;
		}
	}
	if (!more)
		return 0;
	s->now = t_end;
	s->phase++;
	phase_begin(s);
	return 1;
}

/*
 * The thread's next batch of accesses; 0 when its share of the phase (or
 * the trace) is done. The measured speed profile (--cpu-ns-file) applies
 * per batch, at the accesses replayed so far.
 */
static long thread_refill(struct sim *s, struct sthread *t,
			  _Atomic u64 *progress)
{
	const struct sim_cfg *c = s->c;
	struct sim_result *r = s->r;
	long got;

	if (s->src->wl)
		got = (long)wl_thread_fill(s->src->wl, &t->ws, t->buf, BATCH);
	else
		got = trace_stream_fill(&s->ts, t->buf, t->gap, BATCH, r->err,
					sizeof(r->err));
	if (got < 0) {
		s->failed = 1;
		return got;
	}
	t->pos = 0;
	t->got = (u32)got;
	if (c->nr_cpu) {
		while (s->ci + 1 < c->nr_cpu &&
		       c->cpu_at[s->ci + 1] <= r->accesses)
			s->ci++;
		if (c->cpu_at[s->ci] <= r->accesses)
			s->cpu_ns = (u64)c->cpu_ns[s->ci] * s->K;
	}
	if (progress)
		atomic_store_explicit(progress, r->accesses,
				      memory_order_relaxed);
	return got;
}

/*
 * The thread to run: the running one with the earliest clock (the lowest
 * index of equal ones); with --clock serial, the next one in turn. NULL
 * when every thread waits for the phase to end.
 */
SIM_TESTED_INLINE struct sthread *pick(struct sim *s, u64 *second)
{
	struct sthread *best = NULL;
	u32 i, k;

	*second = T_NEVER;
	if (s->c->serial_clock) {
		for (k = 1; k <= s->nr_thr; k++) {
			i = ((s->cur ? (u32)(s->cur - s->thr) : s->nr_thr - 1) +
			     k) % s->nr_thr;
			if (s->thr[i].state == TH_RUN)
				return &s->thr[i];
		}
		return NULL;
	}
	for (i = 0; i < s->nr_thr; i++) {
		struct sthread *t = &s->thr[i];

		if (t->state != TH_RUN)
			continue;
		if (!best || t->now < best->now) {
			if (best)
				*second = best->now;
			best = t;
		} else if (t->now < *second) {
			*second = t->now;
		}
	}
	return best;
}

/* A slice's accesses into the run's, the phase's and the epoch's counts. */
static void slice_account(struct sim *s, const u64 cnt[4], u64 cpu)
{
	struct sim_result *r = s->r;
	struct sim_phase_stats *ph = &r->phase[s->phase];
	u64 n = cnt[0] + cnt[1] + cnt[2] + cnt[3], nfast = cnt[2] + cnt[3];
	u64 stall = 0, lat = 0;
	u32 k;

	for (k = 0; k < 4; k++) {
		stall += cnt[k] * s->cost[k];
		lat += cnt[k] * s->lat[k];
		s->ep_cnt[k] += cnt[k];
	}
	r->accesses += n;
	r->fast_accesses += nfast;
	r->t_cpu += cpu;
	r->t_mem += stall;
	ph->accesses += n;
	ph->fast += nfast;
	if (s->src->phase_measured[s->phase]) {
		r->measured_accesses += n;
		r->measured_fast += nfast;
		r->measured_mem_ns += lat;
	}
}

/*
 * Thread @t's accesses until its clock reaches @limit (at least one): the
 * common access reads one byte of page state and one TLB entry; an
 * allocation or a hint fault takes the slow path. The accessed bit is set
 * by a TLB fill (@young_every: by every access), and an access stalls the
 * thread for its tier's current latency over the misses in flight.
 */
static inline __attribute__((always_inline)) void
run_slice_impl(struct sim *s, struct sthread *t, u64 limit,
	       const int young_every)
{
	u8 *const flags = s->flags;
	const u32 *const atime = s->atime;
	u64 *const tlb = t->tlb;
	const u64 tmask = s->tlb_mask;
	const u64 *const buf = t->buf, *const gp = t->gap;
	const u32 sh = s->ushift, got = t->got;
	const u64 cpu_ns = s->cpu_ns;
	u64 cost[4], cnt[4] = { 0, 0, 0, 0 }, now = t->now, cpu = 0;
	u32 i = t->pos, k;

	for (k = 0; k < 4; k++)
		cost[k] = s->cost[k];
	do {
		const u64 a = buf[i];
		const u64 u = WL_PAGE(a) >> sh;
		u8 f;

		/*
		 * The stream is known a batch ahead: fetch the state of the
		 * page PREFETCH accesses ahead (and its stamp, if it will
		 * take a hint fault).
		 */
		if (likely(i + PREFETCH < got)) {
			const u64 un = WL_PAGE(buf[i + PREFETCH]) >> sh;

			__builtin_prefetch(&flags[un], 1);
			if (atime && (flags[WL_PAGE(buf[i + PREFETCH / 2]) >>
					    sh] & PF_PROT))
				__builtin_prefetch(&atime[WL_PAGE(
					buf[i + PREFETCH / 2]) >> sh], 1);
		}
		f = flags[u];
		if (unlikely(f & PF_SLOWPATH)) {
			s->now = now;
			s->cur_tid = WL_TID(a);
			f = sim_slow(s, t, u, a);
			now = s->now;
			if (s->next_event < limit)
				limit = s->next_event;
			if (t->next_tick < limit)
				limit = t->next_tick;
		}
		k = (f & PF_FAST) | WL_IS_WRITE(a);
		if (young_every) {
			flags[u] = f | PF_YOUNG;
		} else if (tlb[u & tmask] != u) {
			tlb[u & tmask] = u;
			flags[u] = f | PF_YOUNG;
		}
		cnt[k]++;
		if (gp) {
			cpu += gp[i];
			now += gp[i] + cost[k];
		} else {
			now += cpu_ns + cost[k];
		}
		i++;
	} while (i < got && now < limit && !s->failed);
	t->now = now;
	t->pos = i;
	slice_account(s, cnt, gp ? cpu : cpu_ns * (cnt[0] + cnt[1] + cnt[2] +
						   cnt[3]));
}

SIM_TESTED_INLINE void run_slice(struct sim *s, struct sthread *t, u64 limit)
{
	if (!s->c->tlb_entries)
		run_slice_impl(s, t, limit, 1);
	else
		run_slice_impl(s, t, limit, 0);
}

/* ---- the main loop ------------------------------------------------------------ */

/*
 * Run the threads in time order: the one with the earliest clock runs
 * until it passes the next one's (or the next event, or its next NUMA
 * tick), then the next. Events and ticks happen at the time they are due.
 */
static void sim_loop(struct sim *s, _Atomic u64 *progress)
{
	struct sthread *t;
	u64 second, limit;

	phase_begin(s);
	while (!s->failed) {
		t = pick(s, &second);
		if (!t) {
			if (!barrier(s))
				break;
			continue;
		}
		s->cur = t;
		s->now = t->now;
		s->cur_tid = t->tid;
		if (s->now >= s->next_event) {
			sim_events(s);
			continue;
		}
		if (t->pos == t->got) {
			if (thread_refill(s, t, progress) <= 0 && !s->failed)
				t->state = s->src->wl ? TH_WAIT : TH_DONE;
			continue;
		}
		if (s->now >= t->next_tick) {
			if (!s->src->wl)
				s->cur_tid = WL_TID(t->buf[t->pos]);
			numa_tick(s, t);
			t->now = s->now;
			continue;
		}
		limit = s->next_event;
		if (t->next_tick < limit)
			limit = t->next_tick;
		if (second < limit)
			limit = second;
		if (s->c->serial_clock)
			limit = 0;	/* one access, then the next thread */
		run_slice(s, t, limit);
		if (s->c->serial_clock) {
			u32 i;

			/* One clock: the others wait as long as it ran. */
			for (i = 0; i < s->nr_thr; i++)
				if (&s->thr[i] != t && s->thr[i].state == TH_RUN) {
					s->thr[i].idle += t->now - s->thr[i].now;
					s->thr[i].now = t->now;
				}
		}
	}
}

int sim_run(const struct sim_cfg *c, const struct sim_policy *p,
	    const struct sim_src *src, struct sim_result *r,
	    _Atomic u64 *progress)
{
	struct sim s;
	u64 period = T_NEVER;
	u32 i;
	int ret = -1;

	memset(r, 0, sizeof(*r));
	memset(&s, 0, sizeof(s));
	snprintf(r->policy, sizeof(r->policy), "%s", p->name);
	r->k_thresh_period_ms = p->cfg.scan_period_max_ms;
	r->k_hot_ms = p->cfg.hot_threshold_ms;
	r->k_rate_mbps = p->cfg.rate_limit_mbps;
	/* A record fed only by the scanner compares no latency. */
	r->has_threshold = !!(p->cfg.flags & TP_POL_HOTNESS) &&
			   (p->cfg.mode & TP_MODE_TIERING) && !p->oracle &&
			   (p->hot.record == REC_NONE ||
			    (p->hot.sources & SRC_HINT));
	r->th_faults = !!(p->cfg.flags & TP_POL_LAT_FAULTS);
	r->response_ms = -1;
	r->nr_phases = src->nr_phases;
	r->pages = src->pages;
	r->scale = c->scale ? c->scale : 1;
	s.c = c;
	s.p = p;
	s.src = src;
	s.r = r;
	if (sim_setup(&s))
		goto out;
	r->state_bytes = s.nr_units * (sizeof(*s.flags) +
				       (s.atime ? sizeof(*s.atime) : 0)) +
			 s.fcap * (sizeof(*s.fslot) + sizeof(*s.ffree) +
				   sizeof(*s.fpromo) +
				   (s.lru ? 2 * sizeof(u64) : 0)) +
			 (src->wl ? wl_bytes_per_page(src->wl) * src->pages :
			  0) +
			 (p->oracle ? sizeof(u32) * src->pages : 0) +
			 (s.rec[0].b || s.rec[1].b ? s.nr_units : 0) +
			 (s.rec[1].b && s.rec[0].b ? s.nr_units : 0) +
			 (s.rec[0].w ? 4 * s.nr_units : 0) +
			 (s.kq ? 8 * s.nr_units : 0);

	sim_loop(&s, progress);
	if (s.failed)
		goto out;
	/* The demotion under way completes; the last sample. */
	kswapd_finish(&s);
	for (i = 0; i < s.nr_thr; i++)
		if (s.thr[i].now > s.now)
			s.now = s.thr[i].now;
	take_sample(&s);
	r->sim_time_ns = s.now;
	for (i = 0; i < s.nr_thr; i++)
		if (s.thr[i].scan_period < period)
			period = s.thr[i].scan_period;
	r->scan_period_end_ms = s.fixed_period ? s.fixed_period / SIM_NS_PER_MS :
				period / SIM_NS_PER_MS;
	node_stats(&s, &r->node);
	map_end(&s, r);
	/* damon's rate is its promotion quota: NUMA balancing's is unused */
	r->rate_end = s.kd ? damon_quota_mbps(&s) : s.pcfg.rate_limit_mbps;
	if (s.kd)
		damon_end(&s);
	r->fast_used_end = s.fused * s.upages;
	r->slow_used_end = s.sused * s.upages;
	if (r->accesses != src->total) {
		snprintf(r->err, sizeof(r->err), "%s: %llu accesses replayed, "
			 "the stream has %llu", p->name,
			 (unsigned long long)r->accesses,
			 (unsigned long long)src->total);
		goto out;
	}
	if (sim_check(&s))
		goto out;
	if (oracle_distance(&s)) {
		snprintf(r->err, sizeof(r->err), "out of memory");
		goto out;
	}
	if (src->wl)
		r->response_ms = response_ms(r, src);
	ret = 0;
out:
	if (ret && !r->err[0])
		snprintf(r->err, sizeof(r->err), "%s: simulation failed",
			 p->name);
	r->failed = ret != 0;
	sim_teardown(&s);
	return ret;
}

void sim_result_free(struct sim_result *r)
{
	free(r->vma);
	r->vma = NULL;
}

double sim_fast_ratio(const struct sim_result *r)
{
	return r->measured_accesses ?
	       (double)r->measured_fast / (double)r->measured_accesses : 0;
}

double sim_throughput(const struct sim_result *r)
{
	return r->measured_time_ns ?
	       (double)r->measured_accesses * r->scale * 1e3 /
	       (double)r->measured_time_ns : 0;
}

/*
 * Memory latency plus the hint-fault and migration stalls, per access (of
 * the machine's: with --scale an access and its stalls stand for scale).
 */
double sim_mean_latency(const struct sim_result *r)
{
	return r->measured_accesses ?
	       ((double)r->measured_mem_ns +
		(double)r->measured_stall_ns / r->scale) /
	       (double)r->measured_accesses : 0;
}

double sim_phase_throughput(const struct sim_result *r, u32 phase)
{
	const struct sim_phase_stats *ph = &r->phase[phase];

	return ph->time_ns ? (double)ph->accesses * r->scale * 1e3 /
	       (double)ph->time_ns : 0;
}
