// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The runtime's adapter to tierpol: every tierpol call of the runtime is in
 * this file, so that moving to another version of the library's API is an
 * edit here alone. The rest of the runtime sees its own types (struct
 * tprt_mem, enum tprt_verdict) and never includes a tierpol header.
 *
 * Written against tierpol 0.1: tp_decide(pol, node, f, mem, now) and the
 * mainline preset. For the planned 1.0 API: tp_decide() takes the calling
 * thread's struct tp_node_cpu, which lives in the thread's slot
 * (slot->tp_cpu, sized and aligned for it: pass
 * (struct tp_node_cpu *)slot->tp_cpu); tp_scan_ring_init() takes the array
 * length (TPRT_RING_DEPTH); the preset is TP_PRESET_LINUX61; statistics,
 * if the runtime ever reads tierpol's, fold the slots with
 * tp_node_stats_add().
 *
 * Never reached from a handler: tp_policy_tune() and tp_node_sync() (the
 * retune path), and the RFC preset's watermark-default rate (which retunes
 * inside tp_decide()); the mainline preset has a fixed rate limit.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <tierpol/tierpol.h>

#include "tprt_impl.h"

/* Runs the scan ring remembers (one per protected run: several sweeps). */
#define TPRT_RING_DEPTH		1024U

struct tprt_tp {
	struct tp_node node __attribute__((aligned(TP_CACHELINE_BYTES)));
	struct tp_policy pol;
	struct tp_scan_ring ring;
	struct tp_scan_pass pass[TPRT_RING_DEPTH];
};

/* Each verdict of tierpol, the runtime's name for it. */
static const int verdict_map[TP_NR_VERDICTS] = {
	[TP_PROMOTE] = TPRT_V_PROMOTE,
	[TP_PROMOTE_NRL] = TPRT_V_PROMOTE_NRL,
	[TP_REFUSE_MODE] = TPRT_V_REFUSE_MODE,
	[TP_REFUSE_TOPTIER] = TPRT_V_REFUSE_TOPTIER,
	[TP_REFUSE_NOT_YOUNG] = TPRT_V_REFUSE_NOT_YOUNG,
	[TP_REFUSE_COLD] = TPRT_V_REFUSE_COLD,
	[TP_REFUSE_RATELIMIT] = TPRT_V_REFUSE_RATELIMIT,
	[TP_REFUSE_NOSPACE] = TPRT_V_REFUSE_NOSPACE,
};

int tprt_tp_init(struct tprt_rt *rt, uint64_t now)
{
	struct tp_scan_ring_cfg rc = {
		.depth = TPRT_RING_DEPTH,
		.limit = TPRT_ADDR_LIMIT,
	};
	struct tp_policy_cfg pc;
	struct tprt_tp *tp;
	int ret;

	/* The 1.0 per-thread counters must fit the slot's space. */
	_Static_assert(sizeof(((struct tprt_slot *)0)->tp_cpu) >= 64,
		       "slot space for tierpol's per-thread counters");
	tp = aligned_alloc(TP_CACHELINE_BYTES, sizeof(*tp));
	if (!tp)
		return -ENOMEM;
	memset(tp, 0, sizeof(*tp));
	/* Ticks are nanoseconds: 10^9 per second (at most TP_TPS_MAX). */
	ret = tp_policy_preset(&pc, TP_PRESET_MAINLINE, 1000000000U);
	if (!ret) {
		if (rt->cfg.hot_threshold_ms)
			pc.hot_threshold_ms = rt->cfg.hot_threshold_ms;
		pc.rate_limit_mbps = rt->cfg.rate_limit_mbps;
		pc.scan_period_max_ms = rt->cfg.scan_period_max_ms;
		pc.page_shift = rt->page_shift;
		ret = tp_policy_init(&tp->pol, &pc);
	}
	if (!ret)
		ret = tp_node_init(&tp->node, &tp->pol, now);
	if (!ret)
		ret = tp_scan_ring_init(&tp->ring, &rc, tp->pass);
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
 * A hint fault on a block with @nr_slow pages on a slow node (0: the block
 * is on the top tier), from a handler: its latency from the ring, then the
 * decision for those pages, as the kernel decides for a large folio.
 * Lock-free and allocation-free, as both library calls are.
 * Return: an &enum tprt_verdict.
 */
int tprt_tp_decide(struct tprt_tp *tp, struct tprt_slot *slot,
		   uintptr_t addr, bool write, uint32_t nr_slow,
		   const struct tprt_mem *mem, uint64_t now)
{
	struct tp_node_mem m;
	struct tp_fault f = {
		.nr_pages = nr_slow ? nr_slow : 1,
		.flags = (write ? TP_FAULT_WRITE : 0) |
			 (nr_slow ? 0 : TP_FAULT_TOPTIER),
	};
	u64 lat;
	int v;

	mem_conv(mem, &m);
	(void)slot;	/* 1.0: tp_decide(&tp->pol, &tp->node, slot->tp_cpu, ...) */
	f.latency = tp_scan_ring_latency(&tp->ring, addr, now, &lat) < 0 ?
		    TP_LATENCY_UNKNOWN : lat;
	v = tp_decide(&tp->pol, &tp->node, &f, &m, now);
	if (v < 0 || v >= TP_NR_VERDICTS)
		return TPRT_V_ERROR;
	return verdict_map[v];
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
