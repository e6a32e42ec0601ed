// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The runtime's adapter to tierpol: every tierpol call of the runtime is in
 * this file, so that moving to another version of the library's API is an
 * edit here alone. The rest of the runtime sees its own types (struct
 * tprt_mem, enum tprt_verdict) and never includes a tierpol header.
 *
 * Written against tierpol 1.0: tp_decide(pol, node, cpu, f, mem, now) with
 * one struct tp_node_cpu per runtime slot. A handler runs on the thread
 * that faulted, so the slots are per thread: slot i of the runtime (its
 * counters, tprt_my_slot()) decides on tierpol's slot i. The first
 * TPRT_MAX_SLOTS - 1 threads that fault own theirs; any later threads
 * share the last, and tierpol allows one writer per slot at a time, so
 * that slot is taken with a flag a decision never waits for: a fault that
 * finds it taken is restored but not decided (TPRT_V_SLOT_BUSY). The
 * statistics fold every slot (tp_node_stats_read(), tp_node_stats_add()).
 *
 * The policy is never tuned while the runtime runs: tp_policy_tune() would
 * be safe from a handler (its latch never waits), but the runtime has no
 * call for it.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include <tierpol/tierpol.h>

#include "tprt_impl.h"

/* Runs the scan ring remembers (one per protected run: several sweeps). */
#define TPRT_RING_DEPTH		1024U

struct tprt_tp {
	struct tp_node node;
	struct tp_node_cpu cpu[TPRT_MAX_SLOTS];
	struct tp_policy pol;
	struct tp_scan_ring ring;
	struct tp_scan_pass pass[TPRT_RING_DEPTH];
	struct tp_atime atime;
	/* the shared last slot is being decided on */
	_Atomic int last_busy;
};

/* The runtime's verdicts are tierpol's, in its order, then its own. */
_Static_assert((int)TPRT_V_PROMOTE == (int)TP_PROMOTE &&
	       (int)TPRT_V_PROMOTE_NRL == (int)TP_PROMOTE_NRL &&
	       (int)TPRT_V_REFUSE_MODE == (int)TP_REFUSE_MODE &&
	       (int)TPRT_V_REFUSE_TOPTIER == (int)TP_REFUSE_TOPTIER &&
	       (int)TPRT_V_REFUSE_NOT_YOUNG == (int)TP_REFUSE_NOT_YOUNG &&
	       (int)TPRT_V_REFUSE_COLD == (int)TP_REFUSE_COLD &&
	       (int)TPRT_V_REFUSE_RATELIMIT == (int)TP_REFUSE_RATELIMIT &&
	       (int)TPRT_V_REFUSE_NOSPACE == (int)TP_REFUSE_NOSPACE &&
	       (int)TPRT_V_REFUSE_BUSY == (int)TP_REFUSE_BUSY &&
	       (int)TPRT_V_ERROR == (int)TP_NR_VERDICTS,
	       "enum tprt_verdict follows enum tp_verdict");

/* tierpol's policy settings for the runtime's @cfg on pages of @page_shift. */
static int policy_cfg(const struct tprt_cfg *cfg, unsigned int page_shift,
		      struct tp_policy_cfg *pc)
{
	/* Ticks are nanoseconds: 10^9 per second (at most TP_TPS_MAX). */
	int ret = tp_policy_preset(pc, TP_PRESET_LINUX61, 1000000000U);

	if (ret)
		return ret;
	if (cfg->hot_threshold_ms)
		pc->hot_threshold_ms = cfg->hot_threshold_ms;
	pc->rate_limit_mbps = cfg->rate_limit_mbps;
	pc->scan_period_max_ms = cfg->scan_period_max_ms;
	pc->page_shift = page_shift;
	return 0;
}

/*
 * Would tierpol take @cfg? tp_policy_init() on a scratch policy, before
 * tprt_init() touches the runtime: 0, -EINVAL or -ERANGE.
 */
int tprt_tp_check(const struct tprt_cfg *cfg, unsigned int page_shift)
{
	struct tp_policy_cfg pc;
	struct tp_policy pol;
	int ret = policy_cfg(cfg, page_shift, &pc);

	return ret ? ret : tp_policy_init(&pol, &pc);
}

int tprt_tp_init(struct tprt_rt *rt, uint64_t now)
{
	struct tp_scan_ring_cfg rc = {
		.sz = sizeof(rc),
		.depth = TPRT_RING_DEPTH,
		.limit = TPRT_ADDR_LIMIT,
	};
	/*
	 * The blocks' protection stamps: 32 bits of 2^16 ns (65.5 us): 3.3
	 * days before a stamp aliases (6.1's 21 bits of 1 ms: 35 minutes).
	 */
	struct tp_atime_cfg ac = {
		.sz = sizeof(ac),
		.bits = 32,
		.shift = 16,
	};
	struct tp_policy_cfg pc;
	struct tprt_tp *tp;
	int ret;

	/* Zero-filled: the slots are ready (struct tp_node_cpu). */
	tp = aligned_alloc(TP_CACHELINE_BYTES, sizeof(*tp));
	if (!tp)
		return -ENOMEM;
	memset(tp, 0, sizeof(*tp));
	ret = policy_cfg(&rt->cfg, rt->page_shift, &pc);
	if (!ret) {
		ret = tp_policy_init(&tp->pol, &pc);
		/* A page refused for room is deferred within this (ns). */
		rt->defer_lat = (uint64_t)pc.hot_threshold_ms *
				TPRT_NS_PER_MS >> rt->cfg.defer_shift;
		/*
		 * A block's age times its pages: a page's latency
		 * (tprt_victim.c), on the threshold in force (0 selects the
		 * preset's, as for tierpol).
		 */
		rt->cold_ns = (uint64_t)pc.hot_threshold_ms * TPRT_NS_PER_MS /
			      rt->cfg.block_pages;
	}
	if (!ret)
		ret = tp_node_init(&tp->node, &tp->pol, now);
	if (!ret)
		ret = tp_scan_ring_init(&tp->ring, &rc, tp->pass,
					TPRT_RING_DEPTH);
	if (!ret)
		ret = tp_atime_init(&tp->atime, &ac);
	if (ret) {
		free(tp);
		return ret;
	}
	rt->tp = tp;
	return 0;
}

void tprt_tp_free(struct tprt_rt *rt)
{
	free(rt->tp);
	rt->tp = NULL;
}

static void mem_conv(const struct tprt_mem *mem, struct tp_node_mem *m)
{
	m->free = mem->free;
	m->wmark_min = mem->wmark_min;
	m->wmark_low = mem->wmark_low;
	m->wmark_high = mem->wmark_high;
	m->wmark_promo = mem->wmark_promo;
	m->present = mem->present;
}

/* The scanner (the ring's single writer). */
void tprt_tp_pass_begin(struct tprt_tp *tp, uintptr_t start, uint64_t now)
{
	tp_scan_ring_record(&tp->ring, start, now);
}

void tprt_tp_pass_advance(struct tprt_tp *tp, uintptr_t end)
{
	tp_scan_ring_advance(&tp->ring, end);
}

void tprt_tp_pass_wrap(struct tprt_tp *tp)
{
	tp_scan_ring_advance(&tp->ring, TPRT_ADDR_LIMIT);
}

/*
 * The latency of a hint fault at @addr, from the ring: now minus the time
 * its run was protected; TPRT_LAT_UNKNOWN if the ring has no record of it.
 */
uint64_t tprt_tp_latency(struct tprt_tp *tp, uintptr_t addr, uint64_t now)
{
	uint64_t lat;

	if (tp_scan_ring_latency(&tp->ring, addr, now, &lat) < 0)
		return TPRT_LAT_UNKNOWN;
	return lat;
}

/* The scanner protects a block: its stamp (any thread; atomic). */
void tprt_tp_stamp(struct tprt_tp *tp, uint32_t *stamp, uint64_t now)
{
	tp_atime_xchg(&tp->atime, stamp, now);
}

/* The time since a block's stamp, leaving it as it is (any thread). */
uint64_t tprt_tp_stamp_age(struct tprt_tp *tp, const uint32_t *stamp,
			   uint64_t now)
{
	return tp_atime_latency(&tp->atime,
				__atomic_load_n(stamp, __ATOMIC_RELAXED), now);
}

/*
 * A hint fault on a block: its latency from the block's stamp, which
 * becomes @now (6.1's numa_hint_fault_latency()). From a handler.
 */
uint64_t tprt_tp_stamp_fault(struct tprt_tp *tp, uint32_t *stamp,
			     uint64_t now)
{
	return tp_atime_fault(&tp->atime, stamp, now);
}

/*
 * A hint fault with latency @lat on @nr_slow pages on a slow node (0: the
 * pages are on the top tier), from a handler on the thread of runtime slot
 * @si, decided as the kernel decides for a folio of that many pages.
 * Lock-free and allocation-free, as tp_decide() is.
 * Return: an &enum tprt_verdict.
 */
int tprt_tp_decide(struct tprt_tp *tp, uint32_t si, uint64_t lat, bool write,
		   uint32_t nr_slow, const struct tprt_mem *mem, uint64_t now)
{
	struct tp_node_mem m;
	struct tp_fault f = {
		.latency = lat == TPRT_LAT_UNKNOWN ? TP_LATENCY_UNKNOWN : lat,
		.nr_pages = nr_slow ? nr_slow : 1,
		.flags = (write ? TP_FAULT_WRITE : 0) |
			 (nr_slow ? 0 : TP_FAULT_TOPTIER),
	};
	bool shared = si >= TPRT_MAX_SLOTS - 1;
	int v;

	if (shared) {
		si = TPRT_MAX_SLOTS - 1;
		if (atomic_exchange_explicit(&tp->last_busy, 1,
					     memory_order_acquire))
			return TPRT_V_SLOT_BUSY;
	}
	mem_conv(mem, &m);
	v = tp_decide(&tp->pol, &tp->node, &tp->cpu[si], &f, &m, now);
	if (shared)
		atomic_store_explicit(&tp->last_busy, 0, memory_order_release);
	if (v < 0 || v >= TP_NR_VERDICTS)
		return TPRT_V_ERROR;
	return v;
}

/* tierpol's statistics of the fast node, every slot folded in. */
void tprt_tp_stats(struct tprt_tp *tp, uint32_t nr_slots,
		   struct tprt_stats *s)
{
	struct tp_node_stats ns;
	uint32_t i;

	tp_node_stats_read(&tp->pol, &tp->node, &ns);
	if (nr_slots > TPRT_MAX_SLOTS)
		nr_slots = TPRT_MAX_SLOTS;
	for (i = 0; i < nr_slots; i++)
		tp_node_stats_add(&ns, &tp->cpu[i]);
	s->tp_decided = ns.decided;
	s->tp_candidate = ns.candidate;
	s->tp_promoted = ns.success;
	s->tp_threshold_ms = ns.threshold / TPRT_NS_PER_MS;
	s->tp_th_raised = ns.th_raised;
	s->tp_th_lowered = ns.th_lowered;
}

/* A tierpol verdict's name; NULL for the runtime's own. */
const char *tprt_tp_verdict_name(unsigned int v)
{
	return v < TP_NR_VERDICTS ? tp_verdict_name((int)v) : NULL;
}

uint64_t tprt_tp_wmark_promo(uint64_t min, uint64_t high, uint64_t managed,
			     uint32_t scale)
{
	return tp_wmark_promo(min, high, managed, scale);
}

uint64_t tprt_tp_demotion_target(struct tprt_tp *tp,
				 const struct tprt_mem *mem)
{
	struct tp_node_mem m;

	mem_conv(mem, &m);
	return tp_demotion_target(&tp->pol, &m);
}
