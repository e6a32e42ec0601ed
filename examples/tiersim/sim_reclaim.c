// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * tiersim: the fast tier's slots, first-touch allocation, the LRU (a CLOCK
 * or 6.1's two lists) and kswapd (docs/tiersim-model.md, "Allocation" and
 * "kswapd").
 */
#include "sim_int.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- fast-tier slots and the CLOCK demoter ------------------------------- */

/*
 * The fast tier is an array of slots, each holding a unit and the time it
 * was promoted (0: allocated there). Only the CLOCK demoter removes units,
 * and it knows the slot, so no per-page slot index is needed.
 */
/* --lru two-list: list @l of slots, head = most recently added. */
SIM_TESTED_INLINE void lru_add(struct sim *s, int l, u64 sl)
{
	s->lprev[sl] = NO_SLOT;
	s->lnext[sl] = s->lhead[l];
	if (s->lhead[l] != NO_SLOT)
		s->lprev[s->lhead[l]] = sl;
	else
		s->ltail[l] = sl;
	s->lhead[l] = sl;
	s->lcount[l]++;
}

SIM_TESTED_INLINE void lru_del(struct sim *s, int l, u64 sl)
{
	u64 p = s->lprev[sl], n = s->lnext[sl];

	if (p != NO_SLOT)
		s->lnext[p] = n;
	else
		s->lhead[l] = n;
	if (n != NO_SLOT)
		s->lprev[n] = p;
	else
		s->ltail[l] = p;
	s->lcount[l]--;
}

/*
 * A new page on the fast tier (first touch, promotion) starts on the
 * inactive list, as lru_cache_add() puts new anon folios (and migration
 * keeps a slow page's inactive state).
 */
void slot_insert(struct sim *s, u64 u, u32 promo_ms)
{
	u64 sl = s->ffree[--s->nffree];

	s->fslot[sl] = u;
	s->fpromo[sl] = promo_ms;
	s->fused++;
	if (s->lru) {
		s->flags[u] &= (u8)~(PF_ACTIVE | PF_REFD);
		lru_add(s, 0, sl);
	}
}

/* Free slot @sl (its unit left the LRU when its demotion started). */
SIM_TESTED_INLINE void slot_remove(struct sim *s, u64 sl)
{
	s->fslot[sl] = NO_SLOT;
	s->ffree[s->nffree++] = sl;
	s->fused--;
}

/*
 * The free pages kswapd balances the fast node above for a unit of @need
 * pages (0 or 1: order 0): the policy's demotion target
 * (tp_demotion_target()), and, for a unit of more than one page (a 2 MiB
 * folio; a --scale unit), the room a promotion of it needs
 * (migrate_balanced_pgdat(): free > high + its pages). 6.1's
 * pgdat_balanced() checks the target at an order (the run's sc->order,
 * or a wakeup's; zone_watermark_ok(): free - (2^order - 1) > mark), so
 * kswapd balancing for a folio does not stop short of room for it. Free
 * pages come in whole units: with no multiple of a unit between high and
 * the target (a gap under 512 pages, as Linux computes for fast tiers
 * below about 2 GiB, unless one falls in it), kswapd at the target alone
 * stopped where no folio's promotion ever found room. The target is
 * raised only that far, not to the kernel's target + 511, so that a run
 * whose first unit above the target leaves room is unchanged. A unit of
 * one page is order 0: the target alone, as in the kernel.
 */
static u64 kswapd_target(const struct sim *s, const struct tp_node_mem *m,
			 u64 need)
{
	u64 t = tp_demotion_target(&s->tpp, m);

	if (need > 1 && m->wmark_high + need > t)
		t = m->wmark_high + need;
	return t;
}

/* pgdat_balanced(): the fast node's free pages above kswapd_target(). */
static int node_balanced(struct sim *s, u64 need)
{
	struct tp_node_mem m;

	fast_mem(s, &m);
	return m.free > kswapd_target(s, &m, need);
}

/*
 * Wake kswapd on the fast node, to leave room for @nr pages (0 or 1:
 * order 0). wakeup_kswapd() raises pgdat->kswapd_order (s->kneed) to the
 * wakeup's order whether or not it wakes kswapd: one asked for while
 * kswapd runs is not lost. With --kswapd simple kswapd balances for the
 * largest unit asked for until it sleeps again. With --kswapd rounds
 * kswapd() takes the order (and zeroes it) as each balance_pgdat()
 * begins (balance_begin()), and wakeup_kswapd() leaves kswapd asleep on
 * a node balanced at the wakeup's order (pgdat_balanced()) or hopeless
 * (kswapd_failures at MAX_RECLAIM_RETRIES: direct reclaim's): the count
 * is the node's, not the wakeup's, and only a shrink_node() that
 * reclaims resets it. No direct reclaim runs on the fast node
 * (allocations fall back to the slow one, promotions do not reclaim), so
 * a hopeless node's kswapd stays asleep for the rest of the run.
 */
static void wake_kswapd_nr(struct sim *s, u64 nr)
{
	if (!s->p->demote)
		return;
	if (nr > s->kneed)
		s->kneed = nr;
	if (s->kswapd_awake)
		return;
	if (s->krounds) {
		if (s->kfailures >= MAX_RECLAIM_RETRIES)
			return;
		if (node_balanced(s, nr))
			return;
		s->kbal = 0;
	}
	s->kswapd_awake = 1;
	s->kprio = DEF_PRIORITY;
	s->kbal_reclaimed = 0;
	s->r->kswapd_wakeups++;
	if (s->kswapd_clock < s->now)
		s->kswapd_clock = s->now;
	update_next_event(s);
}

/* Wake kswapd with order 0 (the allocator's wakeup). */
void wake_kswapd(struct sim *s)
{
	wake_kswapd_nr(s, 0);
}

/*
 * Wake kswapd for a promotion that found no room for a unit:
 * numamigrate_isolate_page() wakes kswapd with the folio's order.
 */
void wake_kswapd_unit(struct sim *s)
{
	wake_kswapd_nr(s, s->upages);
}

/*
 * folio_referenced() on unit @u for reclaim: the accessed bit, or the
 * PG_young DAMON kept of it; clears both, and PG_idle if referenced.
 * x86's ptep_clear_flush_young() leaves the TLB alone, but a 2 MiB
 * folio's pmdp_clear_flush_young() flushes the PMD's range when it was
 * young (flush_tlb_range(): 512 pages, above the single-page ceiling, so
 * the whole TLB of every CPU running the process): the next access to
 * the folio fills its TLB entry again and sets the bit again.
 */
SIM_TESTED_INLINE int page_referenced(struct sim *s, u64 u)
{
	int ref = !!(s->flags[u] & PF_YOUNG);

	s->flags[u] &= (u8)~PF_YOUNG;
	if (ref && s->ushift) {
		tlb_flush_all(s);
		tlb_shootdown(s, &s->kswapd_clock, 0);
	}
	if (s->pgx) {
		if (s->pgx[u] & PGX_YOUNG)
			ref = 1;
		if (ref)
			s->pgx[u] = 0;
	}
	return ref;
}

/* kswapd looks at one page: reclaim_ns of its time. */
static void reclaim_charge(struct sim *s)
{
	s->kswapd_clock += s->reclaim_ns;
	s->r->kswapd_scanned += s->upages;
}


/*
 * Second chance: skip (and age) young pages; return the slot of the first
 * old one. Each page examined costs kswapd reclaim_ns (the kernel's
 * pgscan_kswapd: isolation and the rmap walk of folio_referenced()); when
 * that cost takes kswapd's clock past the task's, the pick stops and
 * resumes where it was at the next event, so kswapd never works ahead of
 * the task (and never books the migration channel in its future).
 */
static u64 clock_pick(struct sim *s)
{
	while (s->clock_tries) {
		u64 sl = s->hand, u;

		s->clock_tries--;
		if (++s->hand == s->fcap)
			s->hand = 0;
		u = s->fslot[sl];
		if (u == NO_SLOT || sl == s->inflight)
			continue;
		/* shrink_inactive_list(): isolate, folio_referenced(). */
		reclaim_charge(s);
		if (page_referenced(s, u)) {
			if (s->reclaim_ns && s->kswapd_clock > s->now)
				return CLOCK_LATER;
			continue;
		}
		return sl;
	}
	return CLOCK_NONE;
}

/*
 * --lru two-list: 6.1's LRU for anon pages (mm/vmscan.c). While the
 * inactive list is low (inactive x inactive_ratio < active, the ratio
 * int_sqrt(10 x GiB of the LRU), 1 below 1 GiB), shrink_active_list()
 * moves the active list's tail to the inactive head, clearing the young bit
 * (folio_referenced()) whether set or not: anon pages get no second trip on
 * the active list. shrink_inactive_list() takes the inactive tail:
 * folio_check_references() sets PG_referenced on a young page and
 * activates it if it already had the flag, keeps it (back to the inactive
 * head) if not, and reclaims (here: demotes) an old one. The flag stays
 * set through activation and deactivation (shrink_active_list() leaves it
 * alone), so a deactivated page found young again at the inactive tail is
 * activated at once. Each page looked at costs reclaim_ns (pgrefill and
 * pgscan_kswapd).
 */
/* inactive_is_low() for anon: inactive x int_sqrt(10 x GiB) < active. */
static int inactive_low(const struct sim *s)
{
	u64 total = s->lcount[0] + s->lcount[1], gb, ratio;

	gb = (total * s->upages) >> 18;
	ratio = gb ? sim_isqrt(10 * gb) : 1;
	return s->lcount[1] && s->lcount[0] * ratio < s->lcount[1];
}

/* shrink_active_list() on the active tail: to the inactive head, old. */
static void lru_deactivate(struct sim *s)
{
	u64 sl = s->ltail[1], u = s->fslot[sl];

	lru_del(s, 1, sl);
	s->flags[u] &= (u8)~PF_ACTIVE;
	(void)page_referenced(s, u);
	lru_add(s, 0, sl);
	reclaim_charge(s);
}

/*
 * folio_check_references() on the inactive tail (not empty): returns its
 * slot if old (to demote), else activates or keeps it and returns
 * NO_SLOT.
 */
static u64 lru_check(struct sim *s)
{
	u64 sl = s->ltail[0], u = s->fslot[sl];
	u8 f;

	reclaim_charge(s);
	if (!page_referenced(s, u))
		return sl;
	lru_del(s, 0, sl);
	f = s->flags[u];
	s->flags[u] |= PF_REFD;
	if (f & PF_REFD) {
		s->flags[u] |= PF_ACTIVE;
		lru_add(s, 1, sl);
	} else {
		lru_add(s, 0, sl);
	}
	return NO_SLOT;
}

/* kswapd's clock passed the task's (each look costs reclaim_ns). */
static int kswapd_ahead(const struct sim *s)
{
	return s->reclaim_ns && s->kswapd_clock > s->now;
}

SIM_TESTED_INLINE u64 lru_pick(struct sim *s)
{
	while (s->clock_tries) {
		u64 sl;

		s->clock_tries--;
		if (inactive_low(s)) {
			lru_deactivate(s);
			if (kswapd_ahead(s))
				return CLOCK_LATER;
			continue;
		}
		if (s->ltail[0] == NO_SLOT)
			return CLOCK_NONE;
		sl = lru_check(s);
		if (sl != NO_SLOT)
			return sl;
		if (kswapd_ahead(s))
			return CLOCK_LATER;
	}
	return CLOCK_NONE;
}

/*
 * Demote the unit in slot @sl: it leaves the LRU now (isolated), kswapd
 * unmaps it (a TLB shootdown to the process's CPUs) and copies it, and its
 * slot is free only once the copy is done, at kswapd_finish(). Its
 * access-time stamp is not reset (the kernel resets last_cpupid across
 * tiers): the page leaves with PF_PROT clear, and the scanner stamps it
 * again before it can fault.
 */
static void demote_start(struct sim *s, u64 sl, u64 *clock)
{
	u64 u = s->fslot[sl];

	if (s->lru)
		lru_del(s, !!(s->flags[u] & PF_ACTIVE), sl);
	*clock = mig_book(s, *clock) + s->demote_cpu_ns;
	tlb_invalidate(s, u);
	media_traffic(s, 1, 0, s->ubytes);
	media_traffic(s, 0, 1, s->ubytes);
}

SIM_TESTED_INLINE void demote(struct sim *s, u64 sl)
{
	s->inflight = sl;
	demote_start(s, sl, &s->kswapd_clock);
	tlb_shootdown(s, &s->kswapd_clock, 0);
	update_next_event(s);
}

/*
 * The demotion of slot @sl is done at @when: the slot is free, the page on
 * the slow tier. Promoted and demoted again within --pingpong-ms is
 * ping-pong (the demoter's clock may lag the promotion's time: then it
 * counts as at once).
 */
static void demoted(struct sim *s, u64 sl, u64 when)
{
	struct sim_result *r = s->r;
	u64 u = s->fslot[sl], now_ms = when / SIM_NS_PER_MS;
	u32 promo = s->fpromo[sl];

	slot_remove(s, sl);
	s->flags[u] &= (u8)~(PF_FAST | PF_PROT);
	s->sused++;
	r->demotions += s->upages;
	if (promo && (now_ms < promo - 1 ||
		      now_ms - (promo - 1) < s->c->pingpong_ms))
		r->pingpong += s->upages;
}

/* The demotion under way is done (kswapd's clock is at its end). */
void kswapd_finish(struct sim *s)
{
	u64 sl = s->inflight;

	if (sl == NO_SLOT)
		return;
	s->inflight = NO_SLOT;
	demoted(s, sl, s->kswapd_clock);
}

/*
 * Demote the unit in slot @sl at once, in the time of a thread whose clock
 * is @clock (DAMON's kdamond): its CPU time and copy; the caller sends the
 * TLB shootdown, one for a batch.
 */
void demote_now(struct sim *s, u64 sl, u64 *clock)
{
	demote_start(s, sl, clock);
	demoted(s, sl, *clock);
}

/*
 * kswapd goes back to sleep (balanced, given up, or the slow tier full): a
 * migration thread waiting for room tries again now, or, if kswapd left no
 * room for a unit (unable to demote, or given watermarks with promo equal
 * to high, which leave none for a page), after its sleep: trying at once
 * would find no room and wake kswapd again, with no time passing.
 */
static void kswapd_sleep(struct sim *s)
{
	struct tp_node_mem m;

	s->kswapd_awake = 0;
	/* pgdat->kswapd_order outlives the sleep (balance_begin()). */
	if (!s->krounds)
		s->kneed = 0;
	s->kbal = 0;
	s->kround = 0;
	s->kswapd_n = 0;
	s->picking = 0;
	if (s->kmig_wait) {
		s->kmig_wait = 0;
		s->kmig_clock = s->kswapd_clock > s->now ? s->kswapd_clock :
				s->now;
		fast_mem(s, &m);
		if (!tp_promote_room(&m, s->upages))
			s->kmig_clock += KMIG_SLEEP_NS;
		update_next_event(s);
	}
}

/*
 * --kswapd rounds: 6.1's balance_pgdat(). Each round (kswapd_shrink_node())
 * examines lru_size >> priority pages (with --lru two-list, the targets of
 * round_targets()), SWAP_CLUSTER_MAX at a time, or fewer once it has
 * reclaimed nr_to_reclaim (the zone's high watermark, at least
 * SWAP_CLUSTER_MAX), which shrink_lruvec() checks after each batch; the
 * watermark (the demotion target: WMARK_PROMO in tiering mode) is checked
 * only between rounds, so kswapd overshoots it by up to a round. A round
 * that examined fewer than nr_to_reclaim pages (on the inactive list), or
 * demoted nothing, raises the priority (halves the shift); past priority 1
 * balance_pgdat() gives up, and kswapd, not balanced, starts again at
 * DEF_PRIORITY (kswapd_try_to_sleep() does not sleep), unless its run
 * reclaimed nothing for the 16th time in a row (kswapd_failures, counted
 * across wakeups: the node is then hopeless, wake_kswapd_nr()). Each
 * balance_pgdat() balances at the order kswapd() read as it began
 * (balance_begin()), which drops to 0 once it has reclaimed twice the
 * order's pages (compact_gap()), and kswapd_try_sleep() decides whether
 * another begins.
 *
 * With --lru two-list, while the inactive list is low, kswapd_age_node()
 * before the round and shrink_lruvec() after its loop each deactivate
 * SWAP_CLUSTER_MAX pages more (round_begin()).
 *
 * A round's target is in base pages, and shrink_lruvec() passes it to
 * the lists SWAP_CLUSTER_MAX at a time; isolate_lru_folios() takes folios
 * until it has SWAP_CLUSTER_MAX pages, and at least one. So a round
 * examines target / min(folio pages, 32) folios: with THP one 512-page
 * folio per 32 pages of target, 16 times the target in pages, each
 * counted whole towards nr_to_reclaim's test.
 */
SIM_TESTED_INLINE u64 round_units(const struct sim *s, u64 pages)
{
	u64 per = (u64)s->K * ((1ULL << s->ushift) < KSWAPD_BATCH ?
			       1ULL << s->ushift : KSWAPD_BATCH);

	return (pages + per - 1) / per;
}

/*
 * --lru two-list: a round's targets (get_scan_count(), shrink_node()).
 * Each anon list gets its own size >> priority; the active one only if
 * the inactive list is low as the round begins (may_deactivate). With no
 * swap, no file pages and no reclaim cost yet (demotion is not pageout),
 * swappiness splits the scan between anon and file (SCAN_FRACT): anon
 * gets 60 / 200 of its targets, rounded down, all of them while the file
 * pages are tiny (free pages at or below the high watermark, the inactive
 * list not low and not empty at this priority).
 */
SIM_TESTED_INLINE void round_targets(struct sim *s)
{
	int low = inactive_low(s);
	u64 pin = (s->lcount[0] * s->upages) >> s->kprio;
	u64 pact = low ? (s->lcount[1] * s->upages) >> s->kprio : 0;

	if (!(fast_free_pages(s) <= s->wm[2] && !low && pin)) {
		pin = pin * SWAPPINESS / 200;
		pact = pact * SWAPPINESS / 200;
	}
	s->knr[0] = round_units(s, pin);
	s->knr[1] = round_units(s, pact);
	s->kbat = 0;
	s->klist = 0;
	s->kscanned = 0;
}

/*
 * A round (balance_pgdat()'s pass at one priority) in steps: kswapd_age_node()
 * first, then kswapd_shrink_node()'s targets and shrink_lruvec()'s batches,
 * then shrink_lruvec()'s closing shrink_active_list(). kswapd_age_node()
 * and that closing call each deactivate SWAP_CLUSTER_MAX pages (at least
 * one folio) if the inactive list is low, whatever the round's targets:
 * with the inactive list empty or under 1 << priority pages, they alone
 * refill it.
 */
enum { KR_AGE, KR_SCAN, KR_CLOSE };

/* A round begins: kswapd_age_node(). */
SIM_TESTED_INLINE void round_begin(struct sim *s)
{
	s->kstep = KR_AGE;
	s->kage = inactive_low(s) ? round_units(s, KSWAPD_BATCH) : 0;
}

/*
 * The round under way: its deactivations (kswapd_age_node(), the closing
 * shrink_active_list()) and shrink_lruvec()'s loop: while the inactive
 * list has target left (and fewer than @nr_to_reclaim pages were
 * demoted), a batch of SWAP_CLUSTER_MAX pages of it, then one of the
 * active list's. Returns the slot of a unit to demote, CLOCK_NONE when
 * the round is over, or CLOCK_LATER when kswapd's clock passed the
 * task's.
 */
SIM_TESTED_INLINE u64 round_pick(struct sim *s, u64 nr_to_reclaim)
{
	const u64 batch = round_units(s, KSWAPD_BATCH);

	for (;;) {
		u64 sl;

		if (s->kage) {
			/* shrink_active_list(SWAP_CLUSTER_MAX) */
			s->kage--;
			if (s->ltail[1] != NO_SLOT)
				lru_deactivate(s);
			if (kswapd_ahead(s))
				return CLOCK_LATER;
			continue;
		}
		if (s->kstep == KR_CLOSE)
			return CLOCK_NONE;
		if (s->kstep == KR_AGE) {
			round_targets(s);
			s->kstep = KR_SCAN;
		}
		if (!s->kbat) {
			if (!s->klist &&
			    (!s->knr[0] ||
			     s->kreclaimed * s->upages >= nr_to_reclaim)) {
				/*
				 * shrink_lruvec() rebalances the anon lists
				 * once its loop is over.
				 */
				s->kstep = KR_CLOSE;
				s->kage = inactive_low(s) ? batch : 0;
				continue;
			}
			s->kbat = s->knr[s->klist] < batch ? s->knr[s->klist] :
				  batch;
			s->knr[s->klist] -= s->kbat;
			if (!s->kbat) {
				s->klist = 0;
				continue;
			}
		}
		s->kbat--;
		if (s->klist) {
			if (!s->kbat)
				s->klist = 0;
			if (s->ltail[1] != NO_SLOT)
				lru_deactivate(s);
		} else {
			if (!s->kbat)
				s->klist = 1;
			if (s->ltail[0] == NO_SLOT) {
				s->kbat = 0;
				s->klist = 1;
				continue;
			}
			s->kscanned++;
			sl = lru_check(s);
			if (sl != NO_SLOT)
				return sl;
		}
		if (kswapd_ahead(s))
			return CLOCK_LATER;
	}
}

/*
 * A balance_pgdat() begins: kswapd() reads pgdat->kswapd_order and zeroes
 * it, so the next run's order is only what wakeups ask for during this
 * one (or while kswapd sleeps after it). sc->order starts at that order.
 */
static void balance_begin(struct sim *s)
{
	s->korder = s->kneed > 1 ? s->kneed : 0;
	s->kalloc = s->korder;
	s->kneed = 0;
	s->kprio = DEF_PRIORITY;
	s->kbal_reclaimed = 0;
	s->kbal = 1;
}

/*
 * balance_pgdat() returned, balanced or given up: does kswapd sleep?
 * kswapd() passes kswapd_try_to_sleep() the order balance_pgdat()
 * returned (sc->order) if that dropped below the one it began at, else
 * the pgdat->kswapd_order it reads again at the top of its loop (only
 * what wakeups asked for during the run). prepare_kswapd_sleep() sleeps
 * on a hopeless node or one balanced at that order; if it does not,
 * another balance_pgdat() begins at pgdat->kswapd_order.
 */
static int kswapd_try_sleep(struct sim *s)
{
	u64 order = s->korder < s->kalloc ? s->korder : s->kneed;

	s->kbal = 0;
	if (s->kfailures >= MAX_RECLAIM_RETRIES)
		return 1;
	return node_balanced(s, order);
}

/*
 * --lru clock: shrink_lruvec()'s loop over the CLOCK: the round's quota
 * in batches of SWAP_CLUSTER_MAX pages (clock_tries), nr_to_reclaim
 * checked only between them, as after each pass over the lists: a round
 * demotes every old page of the batch it passes nr_to_reclaim in.
 */
static u64 clock_round_pick(struct sim *s, u64 nr_to_reclaim)
{
	const u64 batch = round_units(s, KSWAPD_BATCH);
	u64 sl;

	for (;;) {
		if (!s->clock_tries) {
			if (!s->knr[0] ||
			    s->kreclaimed * s->upages >= nr_to_reclaim)
				return CLOCK_NONE;
			s->clock_tries = s->knr[0] < batch ? s->knr[0] : batch;
			s->knr[0] -= s->clock_tries;
		}
		sl = clock_pick(s);
		if (sl != CLOCK_NONE)
			return sl;
	}
}

static void kswapd_rounds(struct sim *s)
{
	u64 nr_to_reclaim = s->wm[2] > KSWAPD_BATCH ? s->wm[2] : KSWAPD_BATCH;
	u64 u, pages, scanned;

	while (s->kswapd_awake && s->kswapd_clock <= s->now) {
		kswapd_finish(s);
		/* No room on the slow tier: nothing can be demoted. */
		if (s->sused >= s->scap)
			goto sleep;
		if (!s->kround) {
			if (s->kprio < 1) {
				/*
				 * balance_pgdat() gave up: a run that
				 * reclaimed nothing is a kswapd_failure.
				 */
				if (!s->kbal_reclaimed)
					s->kfailures++;
				if (kswapd_try_sleep(s))
					goto sleep;
			}
			if (!s->kbal)
				balance_begin(s);
			/* balance_pgdat(): pgdat_balanced() at sc->order */
			if (node_balanced(s, s->korder)) {
				if (kswapd_try_sleep(s))
					goto sleep;
				continue;
			}
			if (s->lru) {
				round_begin(s);
			} else {
				pages = (s->fcap * s->upages) >> s->kprio;
				s->kquota = round_units(s, pages);
				s->knr[0] = s->kquota;
				s->clock_tries = 0;
			}
			s->kreclaimed = 0;
			s->kround = 1;
		}
		if (s->lru)
			u = round_pick(s, nr_to_reclaim);
		else
			u = clock_round_pick(s, nr_to_reclaim);
		if (u == CLOCK_LATER)
			return;
		if (u != CLOCK_NONE) {
			demote(s, u);
			s->kreclaimed++;
			s->kbal_reclaimed++;
			continue;
		}
		/*
		 * The round is over: shrink_node() resets kswapd_failures if
		 * it reclaimed; kswapd_shrink_node() drops sc->order to 0
		 * once the run has reclaimed compact_gap(): twice the
		 * order's pages. Its verdict on the priority.
		 */
		s->kround = 0;
		if (s->kreclaimed)
			s->kfailures = 0;
		if (s->korder && s->kbal_reclaimed * s->upages >= 2 * s->korder)
			s->korder = 0;
		scanned = s->lru ? s->kscanned :
			  s->kquota - s->knr[0] - s->clock_tries;
		if (scanned * s->upages < nr_to_reclaim || !s->kreclaimed)
			s->kprio--;
	}
	return;
sleep:
	kswapd_sleep(s);
}

/* Batches of SWAP_CLUSTER_MAX; a pick interrupted by its cost resumes. */
void kswapd_run(struct sim *s)
{
	u64 u;

	if (s->krounds) {
		kswapd_rounds(s);
		return;
	}
	while (s->kswapd_awake && s->kswapd_clock <= s->now) {
		for (; s->kswapd_n < KSWAPD_BATCH; s->kswapd_n++) {
			if (s->kswapd_clock > s->now)
				return;
			kswapd_finish(s);
			if (s->sused >= s->scap)
				goto sleep;
			if (!s->picking) {
				if (node_balanced(s, s->kneed))
					goto sleep;
				s->picking = 1;
				s->clock_tries = 2 * s->fcap + 1;
			}
			u = s->lru ? lru_pick(s) : clock_pick(s);
			if (u == CLOCK_LATER)
				return;
			s->picking = 0;
			if (u == CLOCK_NONE)
				goto sleep;
			demote(s, u);
		}
		s->kswapd_n = 0;
	}
	return;
sleep:
	kswapd_sleep(s);
}

/* ---- allocation ----------------------------------------------------------- */

u8 alloc_unit(struct sim *s, u64 u)
{
	u8 f = s->flags[u];
	int fast;

	if (s->p->oracle)
		fast = !!(f & PF_PINNED);
	else
		fast = fast_free_pages(s) >= s->wm[1] + s->upages &&
		       s->fused < s->init_fast_cap;
	if (fast && s->fused == s->fcap)
		fast = 0;
	/* kswapd's demotion under way has its slow page already. */
	if (!fast && s->sused + (s->inflight != NO_SLOT) >= s->scap) {
		if (s->fused == s->fcap) {
			sim_fail(s, "allocation (out of memory)", -ENOMEM);
			return PF_YOUNG;
		}
		fast = 1;
	}
	f = (u8)((f & PF_PINNED) | (fast ? PF_FAST : 0));
	s->flags[u] = f;
	if (fast) {
		slot_insert(s, u, 0);
		s->r->alloc_fast += s->upages;
	} else {
		s->sused++;
		s->r->alloc_slow += s->upages;
		/*
		 * Below the low watermark the allocator wakes kswapd: the
		 * model's stand-in for the wakeups of the hint faults taken
		 * while the pages are first touched (tiersim-model.md,
		 * "Allocation"), so only where the NUMA scanner takes them.
		 */
		if (s->scan_on && s->fused < s->init_fast_cap)
			wake_kswapd(s);
	}
	/* Zeroing the new page. */
	media_traffic(s, fast, 1, s->ubytes);
	s->now += (u64)s->c->costs.alloc_ns * s->upages;
	s->r->t_alloc += (u64)s->c->costs.alloc_ns * s->upages;
	return f;
}

