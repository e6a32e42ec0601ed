// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * tiersim: what memory costs beyond its idle latency (docs/tiersim-model.md,
 * "Bandwidth and loaded latency", "TLBs and the accessed bit" and "TLB
 * shootdowns"):
 *
 *  - each thread's TLB (the accessed bit is set by the page walk of a TLB
 *    fill, not by every access), its invalidation when a PTE changes, and
 *    the shootdown's cost to the CPUs running the process;
 *  - each tier's media traffic (the workload's accesses, migrations, page
 *    zeroing) per epoch of BW_EPOCH_NS, its utilisation against the tier's
 *    bandwidth, and the loaded latency the next epoch's accesses see;
 *  - memory-level parallelism: an access stalls its thread for its latency
 *    over the misses in flight.
 */
#include "sim_int.h"

#include <string.h>

/* Unit @u's translation leaves every thread's TLB. */
void tlb_invalidate(struct sim *s, u64 u)
{
	u32 i;

	for (i = 0; i < s->nr_thr; i++) {
		u64 *e = &s->thr[i].tlb[u & s->tlb_mask];

		if (*e == u)
			*e = NO_UNIT;
	}
}

/* Every thread's TLB is flushed (a range above the single-page ceiling). */
void tlb_flush_all(struct sim *s)
{
	u32 i;

	for (i = 0; i < s->nr_thr; i++)
		memset(s->thr[i].tlb, 0xff, (s->tlb_mask + 1) * sizeof(u64));
}

/*
 * A TLB shootdown: every CPU running one of the process's threads, other
 * than the initiator, takes the IPI (ipi_ns of its time); the initiator
 * (@clock: the current thread's time when @workload, else kswapd's) pays
 * tlb_ns when there was one. A thread waiting for its phase to end is off
 * its CPU and not interrupted.
 */
void tlb_shootdown(struct sim *s, u64 *clock, int workload)
{
	const struct sim_costs *c = &s->c->costs;
	const u64 ipi = (u64)c->ipi_ns * s->K, tlb = (u64)c->tlb_ns * s->K;
	u32 i, n = 0;

	/* With --scale, one per machine page of the unit. */
	for (i = 0; i < s->nr_thr; i++) {
		struct sthread *t = &s->thr[i];

		if (t->state != TH_RUN || (workload && t == s->cur))
			continue;
		t->now += ipi;
		s->r->t_tlb += ipi;
		n++;
	}
	if (!n)
		return;
	*clock += tlb;
	if (workload)
		s->r->t_tlb += tlb;
	s->r->tlb_shootdowns += s->K;
}

/* @bytes moved on a tier (0 slow, 1 fast) besides the accesses. */
void media_traffic(struct sim *s, int tier, int write, u64 bytes)
{
	s->ep_bytes[2 * tier + write] += (double)bytes;
}

/*
 * The loaded latency of a tier at utilisation @u: the idle latency plus
 * queue_ns x u / (1 - u), u capped at UTIL_MAX (a knee and a slope: flat
 * at low load, steep near the bandwidth limit).
 */
static double loaded(u32 idle, u32 queue_ns, double u)
{
	if (u > UTIL_MAX)
		u = UTIL_MAX;
	return idle + queue_ns * u / (1 - u);
}

/* The latencies and per-access stalls of the next epoch. */
void mem_costs(struct sim *s)
{
	const struct sim_costs *c = &s->c->costs;
	u32 k;

	for (k = 0; k < 4; k++) {
		double l = loaded(c->lat[k], c->queue_ns[k >> 1],
				  s->util[k >> 1]);

		/* An access of the stream stands for K of the machine's. */
		s->lat[k] = (u64)(l + 0.5);
		s->cost[k] = (u64)(l * s->K / s->mlp + 0.5);
	}
}

/*
 * The end of a bandwidth epoch: each tier's media busy time (reads and
 * writes at their bandwidths; an access moves the media's granule, a
 * write also reads it first) over the epoch's length, smoothed (1/4 of the
 * new epoch), gives the utilisation the next epoch's latencies follow.
 */
void bw_epoch(struct sim *s, u64 epoch_ns)
{
	const struct sim_costs *c = &s->c->costs;
	int tier;

	for (tier = 0; tier < 2; tier++) {
		double g = (double)c->gran[tier] * s->K, busy = 0, rd, wr, u;
		u32 brd = c->bw_mbps[2 * tier], bwr = c->bw_mbps[2 * tier + 1];

		rd = (double)(s->ep_cnt[2 * tier] + s->ep_cnt[2 * tier + 1]) * g +
		     s->ep_bytes[2 * tier];
		wr = (double)s->ep_cnt[2 * tier + 1] * g +
		     s->ep_bytes[2 * tier + 1];
		/* MB/s = 10^6 bytes per second = 10^-3 bytes per ns. */
		if (brd)
			busy += rd / (brd * 1e-3);
		if (bwr)
			busy += wr / (bwr * 1e-3);
		u = epoch_ns ? busy / (double)epoch_ns : 0;
		s->util[tier] += (u - s->util[tier]) / 4;
		s->r->busy_ns[tier] += (u64)busy;
		/* The next epoch's latency is at its cap (see loaded()). */
		if (s->util[tier] > UTIL_MAX) {
			s->r->capped_ns[tier] += epoch_ns;
			if (s->src->phase_measured[s->phase])
				s->r->measured_capped_ns[tier] += epoch_ns;
		}
	}
	memset(s->ep_cnt, 0, sizeof(s->ep_cnt));
	memset(s->ep_bytes, 0, sizeof(s->ep_bytes));
	mem_costs(s);
}
