// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Scan-history ring and hint-fault latency lookup (seed 000, patch 6/8).
 *
 * Differences from the seed, each one a fix:
 *  - the index walk uses a power-of-two mask; the seed's "(i - 1) %
 *    NUMA_SCAN_NR_HIST" is -1 for i == 0 in C and reads before the array;
 *  - a sequence count makes every reader see (start, time) pairs of one
 *    pass; the seed's independent READ_ONCE()s can pair the start of one
 *    pass with the time of another while the scanner records;
 *  - an empty ring answers -ENOENT instead of a latency computed from
 *    zero-initialised slots (i.e. "now - 0");
 *  - a newest pass without progress covers nothing instead of 10 GiB;
 *  - the "no pass covers it" approximation is reported as TP_LAT_OLDEST.
 */
#include "tp_seam.h"
#include <tierpol/scan_ring.h>

int tp_scan_ring_init(struct tp_scan_ring *ring,
		      const struct tp_scan_ring_cfg *cfg,
		      struct tp_scan_pass *pass)
{
	u32 depth;

	if (!ring || !cfg || !pass)
		return -EINVAL;
	depth = cfg->depth ? cfg->depth : TP_DEFAULT_RING_DEPTH;
	if (!tp_is_pow2(depth) || depth > TP_RING_DEPTH_MAX)
		return -EINVAL;

	ring->seq = 0;
	ring->mask = depth - 1;
	ring->nr = 0;
	ring->offset = 0;
	ring->limit = cfg->limit ? cfg->limit : TP_U64_MAX;
	ring->pass = pass;
	return 0;
}

static void ring_write_begin(struct tp_scan_ring *ring)
{
	tp_write_once(ring->seq, tp_read_once(ring->seq) + 1);
	tp_smp_wmb();
}

static void ring_write_end(struct tp_scan_ring *ring)
{
	tp_smp_wmb();
	tp_write_once(ring->seq, tp_read_once(ring->seq) + 1);
}

void tp_scan_ring_record(struct tp_scan_ring *ring, u64 start, u64 now)
{
	u64 nr;
	u32 idx;

	TP_ASSERT(ring && ring->pass);
	nr = ring->nr;
	idx = (u32)nr & ring->mask;

	ring_write_begin(ring);
	tp_write_once(ring->pass[idx].start, start);
	tp_write_once(ring->pass[idx].time, now);
	tp_write_once(ring->offset, start);
	tp_write_once(ring->nr, nr + 1);
	ring_write_end(ring);
}

void tp_scan_ring_advance(struct tp_scan_ring *ring, u64 offset)
{
	TP_ASSERT(ring && ring->pass);
	ring_write_begin(ring);
	tp_write_once(ring->offset, offset);
	ring_write_end(ring);
}

void tp_scan_ring_reset(struct tp_scan_ring *ring)
{
	TP_ASSERT(ring && ring->pass);
	ring_write_begin(ring);
	tp_write_once(ring->nr, 0);
	tp_write_once(ring->offset, 0);
	ring_write_end(ring);
}

/*
 * One walk over a snapshot that may be torn; the caller validates it with
 * the sequence count. Returns TP_LAT_EXACT/TP_LAT_OLDEST or -ENOENT.
 */
static int ring_walk(const struct tp_scan_ring *ring, u64 addr, u64 now,
		     u64 *latency)
{
	u64 nr = tp_read_once(ring->nr);
	u64 end = tp_read_once(ring->offset);
	u32 mask = ring->mask;
	u32 n, i, j;
	u64 start = 0, time = 0;

	if (!nr)
		return -ENOENT;
	n = nr > mask ? mask + 1 : (u32)nr;
	i = (u32)(nr - 1) & mask;

	for (j = 0; j < n; j++, i = (i - 1) & mask) {
		start = tp_read_once(ring->pass[i].start);
		time = tp_read_once(ring->pass[i].time);
		/* Reached the end of the address space and restarted at 0. */
		if (end < start)
			end = ring->limit;
		if (addr >= start && addr < end)
			break;
		end = start;
	}
	*latency = tp_time_after(now, time) ? now - time : 0;
	return j < n ? TP_LAT_EXACT : TP_LAT_OLDEST;
}

int tp_scan_ring_latency(const struct tp_scan_ring *ring, u64 addr, u64 now,
			 u64 *latency)
{
	u32 tries, seq;
	u64 lat = 0;
	int ret;

	TP_ASSERT(ring && ring->pass && latency);
	for (tries = 0; tries < TP_RING_READ_RETRIES; tries++) {
		seq = tp_read_once(ring->seq);
		tp_smp_rmb();
		if (seq & 1)
			continue;
		ret = ring_walk(ring, addr, now, &lat);
		tp_smp_rmb();
		if (tp_read_once(ring->seq) != seq)
			continue;
		if (ret >= 0)
			*latency = lat;
		return ret;
	}
	return -EBUSY;
}
