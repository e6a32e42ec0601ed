// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * tiersim: the policies past Linux 6.1 (docs/tiersim-policies.md,
 * "Policies past Linux 6.1"): what the simulated kernel runs besides the
 * hint-fault path.
 *
 *  - The goal controller's loop (DAMOS quota goals, Linux 6.16): every
 *    control period the kernel measures a metric (the fast tier's used or
 *    free share, or the ping-pong of its promotions), feeds it to
 *    tp_goal_update() and publishes the rate (or the hot threshold) it
 *    returns with tp_policy_tune(), as a sysctl write would; never on the
 *    fault path.
 *  - The hotness record (pghot): each access a source reports (a hint
 *    fault, the accessed-bit scanner) goes through tp_hot_record(); a page
 *    whose record is ready is judged by tp_decide().
 *  - kmigrated (pghot): the pages tierpol admits wait in a queue; the
 *    thread wakes every 100 ms and migrates them in batches of 512 pages,
 *    one TLB shootdown a batch, in its own time; when the fast node has no
 *    room it wakes kswapd and waits until kswapd sleeps again.
 *  - The accessed-bit scanner (kmmscand): every period it tests and clears
 *    the accessed bit of every slow-tier page (no TLB flush, as x86 does)
 *    and records the pages it finds accessed, in its own time.
 *
 * kmigrated and the scanner have clocks of their own, as kswapd does, and
 * never work ahead of the threads.
 */
#include "sim_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define KMIG_BATCH_PAGES	512U			/* pghot's batch */
/* KMIG_SLEEP_NS, its sleep: sim_int.h */
#define HOT_AGE_NS		(1000 * SIM_NS_PER_MS)	/* the records' walk */

/* ---- the goal controller's loop ------------------------------------------ */

/* The metric of the policy's goal now, parts per 10000. */
static u64 ctl_metric(struct sim *s)
{
	const struct sim_result *r = s->r;
	u64 present = s->fcap * s->upages, promo, pp;

	switch (s->p->goal.metric) {
	case GOAL_USED:
	case GOAL_FREE:
		/* DAMOS_QUOTA_NODE_MEM_USED_BP (free: its complement) */
		return present ? (present - fast_free_pages(s)) * 10000 /
				 present : 0;
	default:
		/*
		 * Promoted pages demoted again within --pingpong-ms in this
		 * period, per page promoted in it (the kernel would keep the
		 * promotion time in the page, as its pghot record can).
		 */
		promo = r->promotions - s->ctl_promo;
		pp = r->pingpong - s->ctl_pp;
		return pp * 10000 / (promo ? promo : 1);
	}
}

/*
 * One control step: measure, update the controller, and publish the rate
 * (or the hot threshold) it returns when it changed (tp_policy_tune():
 * decisions running read the old or the new settings, never a mix).
 */
void ctl_step(struct sim *s)
{
	u64 out = tp_goal_update(&s->goal, ctl_metric(s));
	u32 *set = s->p->goal.out == GOAL_OUT_THRESHOLD ?
		   &s->pcfg.hot_threshold_ms : &s->pcfg.rate_limit_mbps;
	int ret;

	while (s->next_ctl <= s->now)
		s->next_ctl += s->ctl_ns;
	s->ctl_promo = s->r->promotions;
	s->ctl_pp = s->r->pingpong;
	if (out == *set)
		return;
	*set = (u32)out;
	ret = tp_policy_tune(&s->tpp, &s->pcfg);
	if (ret)
		sim_fail(s, "tp_policy_tune", ret);
	s->r->goal_steps++;
}

/* ---- the hotness records ------------------------------------------------------ */

/* Record an access of unit @u in record @i now; returns whether it is ready. */
static int rec_access(struct sim *s, u32 i, u64 u)
{
	struct sim_hotrec *h = &s->rec[i];
	u32 rec;

	if (h->b) {
		rec = tp_hot_record(&h->fmt, h->b[u], 0, s->now);
		h->b[u] = (u8)rec;
	} else {
		rec = tp_hot_record(&h->fmt, h->w[u], 0, s->now);
		h->w[u] = rec;
	}
	return tp_hot_ready(&h->fmt, rec);
}

static u32 rec_get(const struct sim *s, u32 i, u64 u)
{
	const struct sim_hotrec *h = &s->rec[i];

	return h->b ? h->b[u] : h->w ? h->w[u] : 0;
}

static void rec_set(struct sim *s, u32 i, u64 u, u32 v)
{
	struct sim_hotrec *h = &s->rec[i];

	if (h->b)
		h->b[u] = (u8)v;
	else if (h->w)
		h->w[u] = v;
}

/*
 * Record an access of slow-tier unit @u now in the policy's records:
 * HOT_READY if the record is ready, HOT_ROOM if only the second record
 * (the one for a fast tier with room) is, 0 if neither.
 */
int hot_access(struct sim *s, u64 u)
{
	int ready = rec_access(s, 0, u) ? HOT_READY : 0;

	if (s->rec[1].b && rec_access(s, 1, u) && !ready)
		ready = HOT_ROOM;
	return ready;
}

/* Record @i of unit @u is ready now: hot, and its last access in its window. */
static int rec_ready(const struct sim *s, u32 i, u64 u)
{
	const struct sim_hotrec *h = &s->rec[i];
	u32 rec;

	if (!h->b && !h->w)
		return 0;
	rec = rec_get(s, i, u);
	return tp_hot_ready(&h->fmt, rec) &&
	       !tp_hot_expired(&h->fmt, rec, s->now);
}

/*
 * Whether the policy's records would admit queued unit @u now, as kmigrated
 * looks at it: the policy's record ready, or only the room record ready
 * while the free-space bypass is open (the room record speaks for a fast
 * tier with room, as at admission: abit_ready(), numa_fault()). A policy
 * without records admitted the unit for good.
 */
static int hot_admits(const struct sim *s, u64 u)
{
	struct tp_node_mem m;

	if (!s->rec[0].b && !s->rec[0].w)
		return 1;
	if (rec_ready(s, 0, u))
		return 1;
	if (!rec_ready(s, 1, u))
		return 0;
	fast_mem(s, &m);
	return tp_free_space_enough(&s->tpp, &m);
}

/*
 * Clear the records that left their window, before their time field wraps
 * and makes them look recent again: pghot's kmigrated walks the records at
 * every wakeup; tiersim walks them once a second, within the margin of
 * both formats (the byte record spans 4.3 s with a 3 s window), at no
 * cost to the threads.
 */
void hot_age(struct sim *s)
{
	u64 u;
	u32 i, r;

	while (s->next_age <= s->now)
		s->next_age += HOT_AGE_NS;
	update_next_event(s);
	for (i = 0; i < 2; i++) {
		if (!s->rec[i].b && !s->rec[i].w)
			continue;
		for (u = 0; u < s->nr_units; u++) {
			r = rec_get(s, i, u);
			if (r && tp_hot_expired(&s->rec[i].fmt, r, s->now))
				rec_set(s, i, u, 0);
		}
	}
}

/* The records of a unit kmigrated moved: empty, as pghot clears them. */
static void hot_clear(struct sim *s, u64 u)
{
	rec_set(s, 0, u, 0);
	rec_set(s, 1, u, 0);
}

/* ---- kmigrated ------------------------------------------------------------------ */

void kmig_queue(struct sim *s, u64 u)
{
	s->flags[u] |= PF_QUEUED;
	s->kq[(s->kq_head + s->kq_n++) % s->nr_units] = u;
}

/*
 * Migrate units from the queue's head while the fast node has room for
 * them, as one batch of at most KMIG_BATCH_PAGES pages: each unit's CPU
 * time and copy on kmigrated's clock and the migration channel, one TLB
 * shootdown for the batch (migrate_pages() unmaps a batch and flushes
 * once). A queued page the records no longer admit is dropped
 * (hot_admits()); the source queues it again once they do. Returns the
 * units moved, or KMIG_NOROOM when the node had no room for the first
 * (kswapd is woken then).
 */
#define KMIG_NOROOM	(-1)

/* promo-max: the pages kmigrated may still migrate are spent. */
static int kmig_spent(const struct sim *s)
{
	u64 max = s->p->hot.promo_max;

	return max && s->r->promotions + s->upages > max;
}

static int kmig_batch(struct sim *s)
{
	u64 max = KMIG_BATCH_PAGES / s->upages, n = 0, start, u;
	struct tp_node_mem m;

	if (!max)
		max = 1;	/* a folio larger than a batch: one at a time */
	fast_mem(s, &m);
	while (n < max && s->kq_n) {
		u = s->kq[s->kq_head];
		if (hot_admits(s, u) && !kmig_spent(s) &&
		    !tp_promote_room(&m, (n + 1) * s->upages))
			break;
		s->kq_head = (s->kq_head + 1) % s->nr_units;
		s->kq_n--;
		/*
		 * pghot migrates what is ready when it looks: not a page its
		 * records no longer admit; nor one past the experiment's
		 * budget (promo-max).
		 */
		if (!hot_admits(s, u) || kmig_spent(s)) {
			s->flags[u] &= (u8)~PF_QUEUED;
			continue;
		}
		start = mig_book(s, s->kmig_clock);
		s->r->t_kthread += start - s->kmig_clock + s->mig_cpu_ns;
		s->kmig_clock = start + s->mig_cpu_ns;
		unit_to_fast(s, u, s->kmig_clock);
		hot_clear(s, u);
		n++;
	}
	if (n) {
		start = s->kmig_clock;
		tlb_shootdown(s, &s->kmig_clock, 0);
		s->r->t_kthread += s->kmig_clock - start;
		s->r->kmig_batches++;
		return (int)n;
	}
	if (!s->kq_n)
		return 0;
	wake_kswapd_unit(s);
	return KMIG_NOROOM;
}

/*
 * kmigrated's work due by now: a pass migrates the queue in batches and
 * sleeps 100 ms when it is empty or the fast node is full; an empty queue
 * at a wakeup sleeps again. A pass whose batches take kmigrated's clock
 * past the threads' stops and resumes at the next event.
 */
void kmig_run(struct sim *s)
{
	while (s->kmig_clock <= s->now && !s->failed) {
		if (!s->kq_n) {
			s->kmig_clock += KMIG_SLEEP_NS;
		} else if (kmig_batch(s) == KMIG_NOROOM) {
			/*
			 * No room: kswapd is awake; wait until it sleeps
			 * again (or 100 ms, if it gave up before waking).
			 */
			if (s->kswapd_awake) {
				s->kmig_wait = 1;
				s->kmig_clock = T_NEVER;
			} else {
				s->kmig_clock += KMIG_SLEEP_NS;
			}
		}
	}
	update_next_event(s);
}

/* ---- the accessed-bit scanner --------------------------------------------------- */

/*
 * A ready unit found by the scanner: tierpol judges it as a fault on the
 * page would be, with a latency of 0 if its record is ready (hot), unknown
 * if only the second record is (so the free-space bypass alone can take
 * it: without the room for it, it is not judged at all), and kmigrated
 * moves it if admitted.
 */
static void abit_ready(struct sim *s, u64 u, int ready)
{
	struct tp_node_mem m;
	struct tp_fault tf = {
		.nr_pages = s->upages, .flags = TP_FAULT_YOUNG,
		.latency = ready == HOT_READY ? 0 : TP_LATENCY_UNKNOWN,
	};
	int v;

	fast_mem(s, &m);
	/* Only the bypass takes a page only the room record has ready. */
	if (ready == HOT_ROOM && !tp_free_space_enough(&s->tpp, &m))
		return;
	v = node_decide(s, &tf, &m);
	if (v < 0) {
		sim_fail(s, "tp_decide", v);
		return;
	}
	/* Admitted (room or not): kmigrated moves it once there is room. */
	if (tp_verdict_promotes(v) || v == TP_REFUSE_NOSPACE)
		kmig_queue(s, u);
	if (v == TP_REFUSE_NOSPACE)
		wake_kswapd_unit(s);
}

/*
 * One pass over the slow tier's pages: the accessed bit is tested and
 * cleared, an accessed page's access recorded. Each PTE costs the
 * scanner scan_pte_ns (K of them a unit, with --scale).
 */
void abit_run(struct sim *s)
{
	u64 u, n = 0;
	int ready;
	u8 f;

	for (u = 0; u < s->nr_units && !s->failed; u++) {
		f = s->flags[u];
		if (f & (PF_NOALLOC | PF_FAST))
			continue;
		n++;
		if (!(f & PF_YOUNG))
			continue;
		s->flags[u] = f & (u8)~PF_YOUNG;
		ready = hot_access(s, u);
		if (ready && !(f & PF_QUEUED))
			abit_ready(s, u, ready);
	}
	s->r->abit_scanned += n * s->upages;
	s->r->t_kthread += n * s->c->costs.scan_pte_ns * s->K;
	while (s->abit_clock <= s->now)
		s->abit_clock += s->abit_ns;
	update_next_event(s);
}

/* ---- setup -------------------------------------------------------------------- */

/*
 * The scanner's period: the policy's, or the time a pass over the whole
 * footprint takes if that is longer (a scanner cannot start its next pass
 * before it has finished the last); the record's window keeps its ratio to
 * the period, so "seen in consecutive scans" keeps its meaning on a large
 * machine.
 */
static int abit_setup(struct sim *s)
{
	u64 pass = s->nr_units * s->upages * s->c->costs.scan_pte_ns;
	struct tp_hot_cfg hc;
	int ret;

	s->abit_ns = (u64)s->p->hot.abit_ms * SIM_NS_PER_MS;
	if (pass > s->abit_ns) {
		/* the policy's record (not the room record) gets the window */
		sim_hot_cfg(s->p, &hc);
		if (hc.window_ms)
			hc.window_ms = (u32)((u64)hc.window_ms * pass /
					     s->abit_ns);
		s->abit_ns = pass;
		ret = tp_hot_init(&s->rec[0].fmt, &hc);
		if (ret)
			return ret;
	}
	s->abit_clock = s->abit_ns;
	return 0;
}

int kthread_setup(struct sim *s)
{
	const struct sim_policy *p = s->p;
	struct tp_goal_cfg gc = { .sz = sizeof(gc) };
	struct tp_hot_cfg hc;
	int ret = 0;

	s->pcfg = p->cfg;
	if (p->damon.on) {
		ret = damon_setup(s);
		if (ret == -ENOMEM)
			goto nomem;
		if (ret)
			goto refused;
	}
	if (p->oracle || !(p->cfg.mode & TP_MODE_TIERING))
		return 0;
	if (p->goal.metric != GOAL_NONE) {
		gc.goal = p->goal.metric == GOAL_FREE ?
			  10000 - p->goal.target : p->goal.target;
		gc.min = p->goal.rate_min;
		gc.max = p->goal.rate_max;
		gc.init = p->cfg.rate_limit_mbps;
		if (p->goal.out == GOAL_OUT_THRESHOLD) {
			/* the 2022 controller's bounds */
			gc.min = 2 * p->cfg.hot_threshold_ms / 16;
			gc.max = 2 * (u64)p->cfg.hot_threshold_ms;
			gc.init = p->cfg.hot_threshold_ms;
		}
		ret = tp_goal_init(&s->goal, &gc);
		s->ctl_ns = (u64)p->goal.ctl_ms * SIM_NS_PER_MS;
		s->next_ctl = s->ctl_ns;
	}
	if (!ret && p->hot.record != REC_NONE) {
		sim_hot_cfg(p, &hc);
		ret = tp_hot_init(&s->rec[0].fmt, &hc);
		if (!ret && p->hot.record == REC_BYTE)
			s->rec[0].b = calloc(s->nr_units, 1);
		else if (!ret)
			s->rec[0].w = calloc(s->nr_units, sizeof(u32));
		if (!ret && !s->rec[0].b && !s->rec[0].w)
			goto nomem;
		if (!ret && p->hot.room) {
			/* pghot's default record: 2 accesses within 3 s */
			memset(&hc, 0, sizeof(hc));
			hc.sz = sizeof(hc);
			hc.format = TP_HOT_BYTE;
			hc.tps = SIM_TPS;
			ret = tp_hot_init(&s->rec[1].fmt, &hc);
			s->rec[1].b = calloc(s->nr_units, 1);
			if (!s->rec[1].b)
				goto nomem;
		}
		s->next_age = HOT_AGE_NS;
		if (!ret && (p->hot.sources & SRC_ABIT))
			ret = abit_setup(s);
	}
	if (!ret && p->migrate == MIG_KMIGRATED) {
		s->kq = malloc(s->nr_units * sizeof(*s->kq));
		if (!s->kq)
			goto nomem;
		s->kmig_clock = KMIG_SLEEP_NS;
	}
	if (!ret)
		return 0;
refused:
	snprintf(s->r->err, sizeof(s->r->err),
		 "%s: tierpol refused the settings (%d)", p->name, ret);
	return -1;
nomem:
	snprintf(s->r->err, sizeof(s->r->err), "out of memory");
	return -1;
}

void kthread_teardown(struct sim *s)
{
	u32 i;

	damon_teardown(s);
	for (i = 0; i < 2; i++) {
		free(s->rec[i].b);
		free(s->rec[i].w);
	}
	free(s->kq);
}
