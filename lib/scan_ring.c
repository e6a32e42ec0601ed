// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Scan-history ring and hint-fault latency lookup (the 2020 RFC, patch 6/8).
 *
 * Differences from the RFC, each one a fix:
 *  - the index walk uses a power-of-two mask; the RFC's "(i - 1) %
 *    NUMA_SCAN_NR_HIST" is -1 for i == 0 in C and reads before the array;
 *  - a sequence count makes every reader see (start, time) pairs of one
 *    pass; the RFC's independent READ_ONCE()s can pair the start of one
 *    pass with the time of another while the scanner records;
 *  - an empty ring answers -ENOENT instead of a latency computed from
 *    zero-initialised slots (i.e. "now - 0");
 *  - a newest pass without progress covers nothing instead of 10 GiB;
 *  - the "no pass covers it" approximation is reported as TP_LAT_OLDEST.
 *
 * Lookup cost. The RFC walks the passes newest first, one at a time: 16
 * dependent steps for an address scanned 16 passes ago. A scanner's passes
 * come in sweeps: each pass starts where the previous one ended until the
 * scan wraps to the beginning. Within such a run of strictly increasing
 * starts the passes' ranges are sorted and disjoint, so the writer records
 * where the current and the previous run began, and the reader
 * binary-searches those two runs (which hold nearly every address) before
 * walking any older pass one by one. The answer is exactly the newest-first
 * walk's: a run's ranges are checked only after every newer pass missed.
 */
#include "tp_seam.h"
#include <tierpol/scan_ring.h>

int tp_scan_ring_init(struct tp_scan_ring *ring,
		      const struct tp_scan_ring_cfg *cfg,
		      struct tp_scan_pass *pass, u32 nr_pass)
{
	u32 depth;

	if (!ring || !cfg || !pass)
		return -EINVAL;
	if (__tp_cfg_check(cfg, cfg->sz, sizeof(*cfg)))
		return -EINVAL;
	depth = cfg->depth ? cfg->depth : TP_DEFAULT_RING_DEPTH;
	if (!tp_is_pow2(depth) || depth > TP_RING_DEPTH_MAX || nr_pass < depth)
		return -EINVAL;

	tp_seq_init(&ring->seq);
	ring->mask = depth - 1;
	ring->nr = 0;
	ring->offset = 0;
	ring->run = 0;
	ring->prev_run = 0;
	ring->limit = cfg->limit ? cfg->limit : TP_U64_MAX;
	ring->pass = pass;
	return 0;
}

void tp_scan_ring_record(struct tp_scan_ring *ring, u64 start, u64 now)
{
	u64 nr, run, prev_run;
	u32 idx;

	TP_ASSERT(ring && ring->pass);
	nr = ring->nr;
	run = ring->run;
	prev_run = ring->prev_run;
	idx = (u32)nr & ring->mask;
	/* A start not above the previous one begins a new sweep. */
	if (nr && start <= ring->pass[(u32)(nr - 1) & ring->mask].start) {
		prev_run = run;
		run = nr;
	}

	tp_seq_write_begin(&ring->seq);
	tp_write_once(ring->pass[idx].start, start);
	tp_write_once(ring->pass[idx].time, now);
	tp_write_once(ring->offset, start);
	tp_write_once(ring->run, run);
	tp_write_once(ring->prev_run, prev_run);
	tp_write_once(ring->nr, nr + 1);
	tp_seq_write_end(&ring->seq);
}

void tp_scan_ring_advance(struct tp_scan_ring *ring, u64 offset)
{
	TP_ASSERT(ring && ring->pass);
	tp_seq_write_begin(&ring->seq);
	tp_write_once(ring->offset, offset);
	tp_seq_write_end(&ring->seq);
}

void tp_scan_ring_reset(struct tp_scan_ring *ring)
{
	TP_ASSERT(ring && ring->pass);
	tp_seq_write_begin(&ring->seq);
	tp_write_once(ring->nr, 0);
	tp_write_once(ring->offset, 0);
	tp_write_once(ring->run, 0);
	tp_write_once(ring->prev_run, 0);
	tp_seq_write_end(&ring->seq);
}

static u64 pass_start(const struct tp_scan_ring *ring, u64 k)
{
	return tp_read_once(ring->pass[(u32)k & ring->mask].start);
}

/*
 * The last pass in [lo, hi] (ascending starts, the first one <= @addr)
 * whose start is <= @addr. Branch-free halving: fault addresses are random,
 * so a taken/not-taken branch per step would be mispredicted half the time.
 */
static u64 ring_bsearch(const struct tp_scan_ring *ring, u64 lo, u64 hi,
			u64 addr)
{
	u64 n = hi - lo + 1, half;

	while (n > 1) {
		half = n >> 1;
		lo = pass_start(ring, lo + half) <= addr ? lo + half : lo;
		n -= half;
	}
	return lo;
}

/*
 * One run of passes [first, last] with ascending starts, the first one
 * <= @addr: every pass but the last covers [start, next start), the last
 * one [start, @end), or [start, limit) if @end is not above its start (it
 * wrapped; a limit below its start makes it cover nothing). Whether the run
 * covers @addr is known from two loads before the search, so the search's
 * result feeds only the time load.
 */
static inline bool ring_search_run(const struct tp_scan_ring *ring,
				   u64 first, u64 last, u64 end, u64 addr,
				   u64 *hit)
{
	u64 s_hi = pass_start(ring, last);

	if (end >= s_hi) {
		/* The run covers [its first start, end). */
		if (addr >= end)
			return false;
		*hit = ring_bsearch(ring, first, last, addr);
		return true;
	}
	/* The last pass wrapped: the others cover up to its start. */
	if (addr < s_hi) {
		*hit = ring_bsearch(ring, first, last - 1, addr);
		return true;
	}
	/* The last pass covers [s_hi, limit), nothing if limit <= s_hi. */
	*hit = last;
	return addr < ring->limit;
}

/*
 * The passes older than the newest, over a snapshot that may be torn (the
 * caller validates it with the sequence count): every loop is bounded by
 * the depth whatever the values read. Passes are named by record number (0
 * = the first ever recorded); @end is the newest pass's start. Stores the
 * covering pass (or the oldest) in *@hit.
 *
 * The older passes of the newest run, then the previous run, are searched
 * (passes [first, seg - 1], the last one ending where pass seg starts);
 * older sweeps are walked one pass at a time, newest first.
 */
static int ring_walk_older(const struct tp_scan_ring *ring, u64 addr, u64 nr,
			   u64 end, u64 *hit)
{
	u64 oldest, seg, first, run, k, s;
	int r;

	oldest = nr > ring->mask ? nr - ring->mask - 1 : 0;
	seg = nr - 1;

	run = tp_read_once(ring->run);
	for (r = 0; r < 2; r++) {
		first = tp_max_u64(run, oldest);
		if (first < seg) {
			s = pass_start(ring, first);
			if (addr >= s &&
			    ring_search_run(ring, first, seg - 1, end, addr, hit))
				return TP_LAT_EXACT;
			end = s;
			seg = first;
		}
		run = tp_read_once(ring->prev_run);
	}

	for (k = seg; k-- > oldest;) {
		s = pass_start(ring, k);
		if (end < s)
			end = ring->limit;
		if (addr >= s && addr < end) {
			*hit = k;
			return TP_LAT_EXACT;
		}
		end = s;
	}
	*hit = oldest;
	return TP_LAT_OLDEST;
}

int tp_scan_ring_latency(const struct tp_scan_ring *ring, u64 addr, u64 now,
			 u64 *latency)
{
	u64 nr, hit, s, end, time;
	u32 tries, seq;
	int ret;

	TP_ASSERT(ring && ring->pass && latency);
	for (tries = 0; tries < TP_RING_READ_RETRIES; tries++) {
		seq = tp_seq_read_begin(&ring->seq);
		if (seq & 1)
			continue;
		nr = tp_read_once(ring->nr);
		ret = -ENOENT;
		if (nr) {
			/* The newest pass: [start, offset) or [start, limit). */
			hit = nr - 1;
			s = pass_start(ring, hit);
			end = tp_read_once(ring->offset);
			if (end < s)
				end = ring->limit;
			ret = TP_LAT_EXACT;
			if (addr < s || addr >= end)
				ret = ring_walk_older(ring, addr, nr, s, &hit);
			time = tp_read_once(ring->pass[(u32)hit & ring->mask].time);
		}
		if (tp_seq_read_retry(&ring->seq, seq))
			continue;
		if (ret >= 0)
			*latency = tp_time_after(now, time) ? now - time : 0;
		return ret;
	}
	return -EBUSY;
}
