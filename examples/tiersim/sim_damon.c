// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * tiersim: DAMON-based tiering (policy "damon"; docs/tiersim-policies.md),
 * as Linux's samples/damon/mtier.c sets it up (SeongJae Park, "mm/damon:
 * auto-tune DAMOS for memory tiering", linux-mm, 2025-04-20, message-id
 * 20250420194030.75838-1-sj@kernel.org), with NUMA balancing off and
 * kswapd's demotion on.
 *
 * Two kdamonds, one a node, each monitoring its node's frames (the fast
 * node's frames are tiersim's fast-tier slots; the slow node's, the units'
 * indexes: a demoted page goes back to its frame) with DAMON's
 * region-based sampling:
 *  - every sampling interval each region's sampled frame is checked for an
 *    access (its PTE's accessed bit, or PG_idle cleared by reclaim since),
 *    then a new frame is picked at random and made old (the accessed bit
 *    cleared and kept for reclaim in PG_young, PG_idle set);
 *  - every aggregation (20 samples) adjacent regions whose access counts
 *    differ by at most a tenth of the largest merge (up to the monitored
 *    size over 10 regions), each region's age grows while its count holds,
 *    the schemes are applied, and the regions split in two (three when
 *    their number stalls), at most 1000 regions;
 *  - every 3 aggregations the intervals are retuned so that 4 % of the
 *    samples see an access (sampling between 5 ms and 10 s).
 * Each kdamond's scheme runs every second with a quota of at most 200 MiB
 * of region a second, prioritised by DAMON's hotness score (access count
 * and age, equal weights), set by tierpol's goal controller (tp_goal):
 *  - the slow node's: migrate to the fast node the young pages of regions
 *    with at least one access; goal: the fast node 99.7 % used;
 *  - the fast node's: migrate to the slow node the pages, not young, of
 *    regions with none; goal: the fast node 0.5 % free.
 * A migration to the fast node allocates without reclaim (GFP_NOWAIT):
 * it succeeds above the min watermark and wakes kswapd below the low one;
 * kswapd demotes to the high watermark.
 *
 * Where tiersim differs from DAMON, documented in docs/tiersim-policies.md:
 * by default the quota starts at its cap (DAMON starts from one byte, see
 * there) and follows tierpol's controller (which halves where DAMOS drops
 * to its minimum); quota-start=min and feedback=damos give DAMON's. The
 * age of merged regions is updated once an aggregation.
 *
 * The kdamonds have clocks of their own, as kswapd does, and never work
 * ahead of the threads: a sample's checks cost each an rmap walk
 * (reclaim_ns), a scheme's action the migrations it makes and a page walk
 * for each page it examines (scan_pte_ns), and one TLB shootdown a region;
 * an application that takes the kdamond's clock past the threads' stops
 * there and resumes at its next event, before its next sample.
 */
#include "sim_int.h"
#include "sim_damon.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* ---- frames, pages, randomness ------------------------------------------- */

SIM_TESTED_INLINE u64 kd_rand(struct sim_kdamond *kd, u64 n)
{
	kd->rng ^= kd->rng << 13;
	kd->rng ^= kd->rng >> 7;
	kd->rng ^= kd->rng << 17;
	return n ? kd->rng % n : 0;
}

/* Work of @ns on the kdamond's clock, and in the kernel threads' time. */
static void kd_work(struct sim *s, struct sim_kdamond *kd, u64 ns)
{
	kd->clock += ns;
	s->r->t_kthread += ns;
}

/* The unit in frame @f of @kd's node, or NO_UNIT (a free frame). */
static u64 frame_unit(const struct sim *s, const struct sim_kdamond *kd,
		      u64 f)
{
	u64 u;

	if (kd->promote)
		return s->flags[f] & (PF_NOALLOC | PF_FAST) ? NO_UNIT : f;
	u = s->fslot[f];
	return u == NO_SLOT || f == s->inflight ? NO_UNIT : u;
}

/*
 * damon_folio_young(): accessed since DAMON made it old (or reclaim found
 * it referenced since, which clears PG_idle).
 */
SIM_TESTED_INLINE int kd_young(const struct sim *s, u64 u)
{
	return (s->flags[u] & PF_YOUNG) || !(s->pgx[u] & PGX_IDLE);
}

/* damon_folio_mkold(): the accessed bit goes to PG_young; PG_idle set. */
SIM_TESTED_INLINE void kd_mkold(struct sim *s, u64 u)
{
	if (s->flags[u] & PF_YOUNG) {
		s->flags[u] &= (u8)~PF_YOUNG;
		s->pgx[u] |= PGX_YOUNG;
	}
	s->pgx[u] |= PGX_IDLE;
}

/* ---- sampling ------------------------------------------------------------ */

/* Check every region's sampled frame, then pick and age the next ones. */
static void kd_sample(struct sim *s, struct sim_kdamond *kd)
{
	u32 i;
	u64 u;

	for (i = 0; i < kd->nr; i++) {
		struct kd_region *r = &kd->reg[i];

		u = frame_unit(s, kd, r->sample);
		if (u != NO_UNIT && kd_young(s, u) &&
		    r->nr < DAMON_AGGR_SAMPLES)
			r->nr++;
		r->sample = r->start + kd_rand(kd, r->end - r->start);
		u = frame_unit(s, kd, r->sample);
		if (u != NO_UNIT)
			kd_mkold(s, u);
	}
	kd_work(s, kd, 2ULL * kd->nr * s->c->costs.reclaim_ns);
}

/* ---- aggregation: merge, age, split -------------------------------------- */

static u32 absdiff(u32 a, u32 b)
{
	return a > b ? a - b : b - a;
}

/*
 * Age the regions (reset when the count moved by more than @thres or went
 * to or from none) and merge neighbours whose counts differ by at most
 * @thres while the sum stays within @limit frames; a merged region's count
 * and age are the size-weighted means.
 */
SIM_TESTED_INLINE void
kd_merge(struct sim_kdamond *kd, u32 thres, u64 limit, int age)
{
	u32 i, n = 0;

	for (i = 0; i < kd->nr; i++) {
		struct kd_region *r = &kd->reg[i], *p = n ? &kd->reg[n - 1] :
						       NULL;
		u64 sp, sr;

		if (age) {
			if (absdiff(r->nr, r->last_nr) > thres ||
			    !r->nr != !r->last_nr)
				r->age = 0;
			else
				r->age++;
		}
		sp = p ? p->end - p->start : 0;
		sr = r->end - r->start;
		if (p && p->end == r->start &&
		    absdiff(p->nr, r->nr) <= thres && sp + sr <= limit) {
			p->nr = (u32)((p->nr * sp + r->nr * sr) / (sp + sr));
			p->age = (u32)((p->age * sp + r->age * sr) / (sp + sr));
			p->end = r->end;
			continue;
		}
		kd->reg[n++] = *r;
	}
	kd->nr = n;
}

/*
 * The merge: the threshold a tenth of the largest count this aggregation
 * (kdamond_merge_regions(), max_nr_accesses / 10), doubled (at least 1)
 * while the regions exceed their maximum.
 */
SIM_TESTED_INLINE void kd_merge_all(struct sim_kdamond *kd)
{
	u64 limit = kd->frames / DAMON_MIN_REGIONS;
	u32 thres = 0, age = 1, i;

	for (i = 0; i < kd->nr; i++)
		if (kd->reg[i].nr > thres)
			thres = kd->reg[i].nr;
	thres /= 10;
	if (!limit)
		limit = 1;
	do {
		kd_merge(kd, thres, limit, age);
		age = 0;
		thres = thres ? 2 * thres : 1;
	} while (kd->nr > DAMON_MAX_REGIONS && thres / 2 < DAMON_AGGR_SAMPLES);
}

/*
 * Split each region in two at a random tenth (three pieces when the count
 * stalled below a third of the maximum), while below half the maximum.
 */
SIM_TESTED_INLINE void kd_split(struct sim_kdamond *kd)
{
	u32 subs = 2, i, n = kd->nr, k, out;
	struct kd_region *reg = kd->reg;

	if (kd->nr > DAMON_MAX_REGIONS / 2)
		return;
	if (kd->split_nr == kd->nr && kd->nr < DAMON_MAX_REGIONS / 3)
		subs = 3;
	kd->split_nr = kd->nr;
	/* Move the regions to the top of the array, split them downwards. */
	memmove(reg + 2 * DAMON_MAX_REGIONS, reg, n * sizeof(*reg));
	for (i = 0, out = 0; i < n; i++) {
		struct kd_region r = reg[2 * DAMON_MAX_REGIONS + i];
		u64 sz = r.end - r.start, sub;
		struct kd_region tail[2];
		u32 nt = 0;

		for (k = 0; k + 1 < subs && sz > 2; k++) {
			sub = (1 + kd_rand(kd, 9)) * sz / 10;
			if (!sub || sub >= sz)
				continue;
			tail[nt] = r;
			tail[nt].start = r.start + sub;
			tail[nt].end = r.start + sz;
			tail[nt].sample = tail[nt].start;
			nt++;
			sz = sub;
		}
		r.end = r.start + sz;
		if (r.sample >= r.end)
			r.sample = r.start;
		reg[out++] = r;
		while (nt)
			reg[out++] = tail[--nt];
	}
	kd->nr = out;
}

/* ---- schemes ------------------------------------------------------------- */

/*
 * damon_hot_score(): the access count's share of the maximum and the
 * age's log2 in seconds (counted as coldness for a region with no
 * accesses), equal weights, 0..99; the demotion scheme's is 99 less it.
 */
SIM_TESTED_INLINE u32
kd_score(const struct sim_kdamond *kd, const struct kd_region *r)
{
	u64 aggr_ms = kd->sample_ns * DAMON_AGGR_SAMPLES / SIM_NS_PER_MS;
	u64 age_s = r->age * aggr_ms / 1000;
	int freq = (int)(r->nr * 100 / DAMON_AGGR_SAMPLES), lg = 0, age;
	u32 hot;

	while (lg < DAMON_MAX_AGE_LOG && age_s) {
		lg++;
		age_s >>= 1;
	}
	if (!freq)
		lg = -lg;
	age = (lg + DAMON_MAX_AGE_LOG) * 100 / DAMON_MAX_AGE_LOG / 2;
	hot = (u32)(freq + age) / 2 * DAMON_MAX_SCORE / 100;
	return kd->promote ? hot : DAMON_MAX_SCORE - hot;
}

SIM_TESTED_INLINE int
kd_eligible(const struct sim_kdamond *kd, const struct kd_region *r)
{
	return kd->promote ? r->nr >= 1 : r->nr == 0;
}

/*
 * Room on the fast node for one unit without reclaim (GFP_NOWAIT); below
 * the low watermark kswapd is woken for the unit. The kernel's wakeup is
 * order 0: a base page's target is allocated with GFP_NOWAIT, a large
 * folio's without __GFP_RECLAIM (alloc_migration_target()), and
 * migrate_pages() splits a folio it found no room for (MR_DAMON) and
 * moves its pages one at a time. tiersim moves whole units (a 2 MiB folio
 * with --thp, K pages with --scale K): woken at order 0, its kswapd could
 * stop above the high watermark but below min + a unit, where no unit is
 * ever promoted again. So it is woken for the unit, as for a hint fault's
 * promotion.
 */
static int kd_room(struct sim *s)
{
	u64 fr = fast_free_pages(s);

	if (fr < s->wm[1] + s->upages)
		wake_kswapd_unit(s);
	return s->fused < s->fcap && fr >= s->wm[0] + s->upages;
}

/*
 * The scheme's action on frame @f: migrate its page if the young filter
 * lets it through (promotion: young; demotion: not young), making a young
 * page old either way.
 */
static void kd_act(struct sim *s, struct sim_kdamond *kd, u64 f)
{
	u64 u = frame_unit(s, kd, f), c;
	int young;

	if (u == NO_UNIT)
		return;
	kd_work(s, kd, (u64)s->c->costs.scan_pte_ns * s->upages);
	young = kd_young(s, u);
	if (young)
		kd_mkold(s, u);
	if (young != kd->promote)
		return;
	if (kd->promote) {
		if (!kd_room(s))
			return;
		kd_work(s, kd, mig_book(s, kd->clock) + s->mig_cpu_ns -
			       kd->clock);
		unit_to_fast(s, u, kd->clock);
	} else {
		if (s->sused == s->scap)
			return;
		c = kd->clock;
		demote_now(s, f, &c);
		kd_work(s, kd, c - kd->clock);
	}
	kd->ap_moved++;
}

/* The region's action is over: one TLB shootdown for its migrations. */
static void kd_region_done(struct sim *s, struct sim_kdamond *kd)
{
	u64 c = kd->clock;

	if (!kd->ap_moved)
		return;
	tlb_shootdown(s, &c, 0);
	kd_work(s, kd, c - kd->clock);
	kd->ap_moved = 0;
}

/*
 * damon_feed_loop_next_input(): the last input moved by its share of the
 * score's distance to the goal (10000), at least the minimum input; a
 * score of twice the goal or more drops it to the minimum.
 */
SIM_TESTED_INLINE u64 damos_next(u64 last, u64 score)
{
	const u64 goal = 10000, min_input = 10000;
	u64 diff, comp;

	if (score == goal)
		return last;
	if (score >= 2 * goal)
		return min_input;
	diff = score > goal ? score - goal : goal - score;
	comp = last < UINT64_MAX / diff ? last * diff / goal :
	       last / goal * diff;
	if (score > goal)
		return last - comp > min_input ? last - comp : min_input;
	return last < UINT64_MAX - comp ? last + comp : UINT64_MAX;
}

/*
 * This second's quota, pages, from the metric (parts per 10000): tierpol's
 * controller, or DAMOS's step on its quota in bytes x 10000 (which the cap
 * bounds only when used, so it keeps growing while the goal is out of
 * reach, as DAMOS's does), at least one byte.
 */
SIM_TESTED_INLINE u64
kd_quota(struct sim *s, struct sim_kdamond *kd, u64 metric)
{
	u64 goal = kd->promote ? DAMON_USED_GOAL_BP : DAMON_FREE_GOAL_BP;
	u64 bytes;

	if (s->p->damon.feedback == DAMON_FB_TIERPOL)
		return tp_goal_update(&kd->quota, metric);
	kd->esz_bp = damos_next(kd->esz_bp > 10000 ? kd->esz_bp : 10000,
				metric * 10000 / goal);
	bytes = kd->esz_bp / 10000;
	if (bytes > DAMON_QUOTA_PAGES << 12)
		bytes = DAMON_QUOTA_PAGES << 12;
	return bytes >> 12;
}

/*
 * Start applying the scheme: the quota for this second from the goal, and
 * the score that fits the eligible regions into it.
 */
SIM_TESTED_INLINE void kd_apply_begin(struct sim *s, struct sim_kdamond *kd)
{
	u64 present = s->fcap * s->upages, fr = fast_free_pages(s);
	u64 hist[DAMON_MAX_SCORE + 1], total = 0, sum, metric, q;
	u32 i;
	int sc;

	metric = kd->promote ? (present - fr) * 10000 / present :
		 fr * 10000 / present;
	q = kd_quota(s, kd, metric);
	if (q != kd->esz)
		s->r->goal_steps++;
	kd->esz = q;
	kd->limit = q / s->upages;
	kd->charged = 0;
	kd->min_score = 0;
	kd->ap_i = 0;
	kd->ap_f = kd->ap_e = 0;
	kd->ap_moved = 0;
	kd->applying = kd->limit > 0;
	memset(hist, 0, sizeof(hist));
	for (i = 0; i < kd->nr; i++) {
		const struct kd_region *r = &kd->reg[i];

		if (kd_eligible(kd, r)) {
			hist[kd_score(kd, r)] += r->end - r->start;
			total += r->end - r->start;
		}
	}
	if (total <= kd->limit)
		return;
	for (sc = DAMON_MAX_SCORE, sum = 0; sc > 0; sc--) {
		sum += hist[sc];
		if (sum >= kd->limit)
			break;
	}
	kd->min_score = (u32)sc;
}

/*
 * Go on applying: the action on the eligible regions at or above the
 * score, in address order, until the quota is charged (a region's size is
 * charged whatever its pages' fate, as DAMOS does). The kdamond works in
 * its own time and stops once its clock passes the threads': the
 * application resumes there at its next event, the sampling after it.
 */
SIM_TESTED_INLINE void kd_apply_some(struct sim *s, struct sim_kdamond *kd)
{
	while (kd->applying && !s->failed) {
		if (kd->ap_f == kd->ap_e) {
			const struct kd_region *r;
			u64 sz;

			kd_region_done(s, kd);
			while (kd->ap_i < kd->nr &&
			       (!kd_eligible(kd, &kd->reg[kd->ap_i]) ||
				kd_score(kd, &kd->reg[kd->ap_i]) <
				kd->min_score))
				kd->ap_i++;
			if (kd->ap_i == kd->nr || kd->charged >= kd->limit) {
				kd->applying = 0;
				break;
			}
			r = &kd->reg[kd->ap_i++];
			sz = r->end - r->start;
			if (sz > kd->limit - kd->charged)
				sz = kd->limit - kd->charged;
			kd->charged += sz;
			s->r->damon_tried[kd->promote] += sz * s->upages;
			kd->ap_f = r->start;
			kd->ap_e = r->start + sz;
		}
		kd_act(s, kd, kd->ap_f++);
		if (kd->clock > s->now)
			return;
	}
}

/*
 * The intervals' tune: the samples that saw an access against 4 % of all,
 * the sampling interval scaled by DAMON's feedback (up to x2 when too few
 * are seen, down to x1/2 when too many) within [5 ms, 10 s].
 */
SIM_TESTED_INLINE void kd_tune(struct sim_kdamond *kd)
{
	u64 events = 0, max = 0, target, score, bp;
	u32 i;

	for (i = 0; i < kd->nr; i++) {
		u64 sz = kd->reg[i].end - kd->reg[i].start;

		max += sz * DAMON_AGGR_SAMPLES;
		events += sz * kd->reg[i].nr;
	}
	target = max * DAMON_ACCESS_BP / 10000;
	score = events * 10000 / (target ? target : 1);
	if (score < 10000)
		bp = 20000 - score;
	else if (score >= 20000)
		bp = 5000;
	else
		bp = 5000 + (20000 - score) / 2;
	kd->sample_ns = kd->sample_ns * bp / 10000;
	if (kd->sample_ns < DAMON_SAMPLE_MIN_NS)
		kd->sample_ns = DAMON_SAMPLE_MIN_NS;
	if (kd->sample_ns > DAMON_SAMPLE_MAX_NS)
		kd->sample_ns = DAMON_SAMPLE_MAX_NS;
}

/*
 * One sampling interval of @kd's work at its clock: the checks, and at
 * the end of an aggregation the merge, the scheme (once a second), the
 * intervals' tune, and the split. A scheme's application that stops at
 * the threads' time resumes here first.
 */
static void kd_step(struct sim *s, struct sim_kdamond *kd)
{
	u32 i;

	if (!kd->applying) {
		kd_sample(s, kd);
		if (++kd->samples < DAMON_AGGR_SAMPLES) {
			kd->clock += kd->sample_ns;
			return;
		}
		kd->samples = 0;
		kd_merge_all(kd);
		if (kd->clock >= kd->next_apply) {
			while (kd->next_apply <= kd->clock)
				kd->next_apply += DAMON_APPLY_NS;
			kd_apply_begin(s, kd);
		}
	}
	kd_apply_some(s, kd);
	if (kd->applying)
		return;
	if (++kd->aggrs >= DAMON_TUNE_AGGRS) {
		kd->aggrs = 0;
		kd_tune(kd);
	}
	for (i = 0; i < kd->nr; i++) {
		kd->reg[i].last_nr = kd->reg[i].nr;
		kd->reg[i].nr = 0;
	}
	kd_split(kd);
	kd->clock += kd->sample_ns;
}

/* ---- the kdamonds -------------------------------------------------------- */

/* Both kdamonds' work due by now, each in its own time. */
void damon_run(struct sim *s)
{
	u32 i;

	for (i = 0; i < 2; i++)
		while (s->kd[i].clock <= s->now && !s->failed)
			kd_step(s, &s->kd[i]);
	s->damon_clock = s->kd[0].clock < s->kd[1].clock ? s->kd[0].clock :
			 s->kd[1].clock;
	update_next_event(s);
}

/*
 * The promotion scheme's quota now, MB/s (the samples' rate): MB of 2^20
 * bytes, as every rate limit's (tp_mbps_to_pages()), so that its cap of
 * 200 MiB/s reads 200, as goal-bucket's does.
 */
u64 damon_quota_mbps(const struct sim *s)
{
	return (s->kd[1].esz * 4096) >> 20;
}

/* The kdamonds' state at the end of the run, for the result. */
void damon_end(struct sim *s)
{
	u32 i;

	for (i = 0; i < 2; i++) {
		s->r->damon_regions[i] = s->kd[i].nr;
		s->r->damon_sample_us[i] = s->kd[i].sample_ns / 1000;
	}
}

int damon_setup(struct sim *s)
{
	/* DAMOS starts at its minimum input, one byte (esz_bp 0) */
	int min = s->p->damon.start_min;
	struct tp_goal_cfg gc = { .sz = sizeof(gc), .min = 1,
				  .max = DAMON_QUOTA_PAGES,
				  .init = min ? 1 : DAMON_QUOTA_PAGES };
	u32 i;
	int ret;

	s->kd = calloc(2, sizeof(*s->kd));
	s->pgx = calloc(s->nr_units, 1);
	if (!s->kd || !s->pgx)
		return -ENOMEM;
	for (i = 0; i < 2; i++) {
		struct sim_kdamond *kd = &s->kd[i];

		kd->promote = (int)i;
		kd->frames = i ? s->nr_units : s->fcap;
		kd->reg = calloc(3 * DAMON_MAX_REGIONS, sizeof(*kd->reg));
		if (!kd->reg)
			return -ENOMEM;
		kd->reg[0].end = kd->frames;
		kd->nr = 1;
		kd->sample_ns = DAMON_SAMPLE_MIN_NS;
		kd->clock = kd->sample_ns;
		kd->next_apply = DAMON_APPLY_NS;
		kd->rng = 0x9e3779b97f4a7c15ULL + i;
		gc.goal = i ? DAMON_USED_GOAL_BP : DAMON_FREE_GOAL_BP;
		ret = tp_goal_init(&kd->quota, &gc);
		if (ret)
			return ret;
		kd->esz = min ? 0 : DAMON_QUOTA_PAGES;
		kd->esz_bp = kd->esz * 4096 * 10000;
	}
	s->damon_clock = DAMON_SAMPLE_MIN_NS;
	return 0;
}

void damon_teardown(struct sim *s)
{
	u32 i;

	if (s->kd)
		for (i = 0; i < 2; i++)
			free(s->kd[i].reg);
	free(s->kd);
	free(s->pgx);
	s->kd = NULL;
	s->pgx = NULL;
}
