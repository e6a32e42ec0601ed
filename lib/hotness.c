// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Per-page hotness record (pghot's 1-byte and 4-byte formats). See
 * hotness.h.
 */
#include "tp_seam.h"
#include <tierpol/hotness.h>

/* Field layout of each format: shifts and widths. */
struct hot_layout {
	u32 cnt_shift, cnt_max, time_shift, time_mask, ready, nid_shift;
};

static const struct hot_layout hot_layouts[2] = {
	[TP_HOT_BYTE] = {
		.cnt_shift = 0, .cnt_max = 3, .time_shift = 2,
		.time_mask = 31, .ready = TP_HOT_BYTE_READY, .nid_shift = 0,
	},
	[TP_HOT_PRECISE] = {
		.cnt_shift = 18, .cnt_max = 7, .time_shift = 0,
		.time_mask = 0x3fff, .ready = TP_HOT_PRECISE_READY,
		.nid_shift = 21,
	},
};

#define HOT_BUCKET_SHIFT_MAX	40U

/* ceil(log2(x)) for x >= 1. */
static u32 ceil_log2(u64 x)
{
	return x <= 1 ? 0 : tp_ilog2_u64(x - 1) + 1;
}

int tp_hot_init(struct tp_hot *h, const struct tp_hot_cfg *cfg)
{
	const struct hot_layout *lo;
	u64 window;
	u32 shift, thr;

	if (!h || !cfg || __tp_cfg_check(cfg, cfg->sz, sizeof(*cfg)))
		return -EINVAL;
	if (cfg->format > TP_HOT_PRECISE || !cfg->tps ||
	    cfg->tps > TP_TPS_MAX || cfg->bucket_shift > HOT_BUCKET_SHIFT_MAX)
		return -EINVAL;
	lo = &hot_layouts[cfg->format];
	thr = cfg->freq_threshold ? cfg->freq_threshold : TP_HOT_DEFAULT_FREQ;
	if (thr > lo->cnt_max)
		return -EINVAL;
	shift = cfg->bucket_shift;
	/*
	 * The smallest power of two of ticks of at least 1/8 s, or 1 ms:
	 * ceil(log2(tps / 8)) is ceil_log2() of tps / 8 rounded up. Rounded
	 * down, 11 ticks a second made 1-tick buckets, in which the default
	 * window of 3 s does not fit the byte format's span.
	 */
	if (!shift)
		shift = ceil_log2(cfg->format == TP_HOT_BYTE ?
				  (cfg->tps + 7) / 8 : (cfg->tps + 999) / 1000);
	window = __tp_ms_to_ticks(cfg->window_ms ? cfg->window_ms :
				  TP_HOT_DEFAULT_WINDOW_MS, cfg->tps);
	/* Whole buckets, rounded up; the span keeps one bucket spare. */
	window = (window + (1ULL << shift) - 1) >> shift;
	if (window >= lo->time_mask)
		return -ERANGE;

	h->format = cfg->format;
	h->shift = shift;
	h->threshold = thr;
	h->window = (u32)window;
	return 0;
}

static u32 hot_field(u32 rec, u32 shift, u32 mask)
{
	return (rec >> shift) & mask;
}

/* Is the record's latest access within the window of @now's bucket? */
static bool hot_in_window(const struct tp_hot *h, const struct hot_layout *lo,
			  u32 rec, u64 now)
{
	u32 t = hot_field(rec, lo->time_shift, lo->time_mask);
	u32 cur = (u32)(now >> h->shift) & lo->time_mask;

	return rec && ((cur - t) & lo->time_mask) <= h->window;
}

u32 tp_hot_record(const struct tp_hot *h, u32 rec, u32 nid, u64 now)
{
	const struct hot_layout *lo;
	u32 cnt, ready, out;

	TP_ASSERT(h && h->format <= TP_HOT_PRECISE && h->threshold);
	lo = &hot_layouts[h->format];
	if (h->format == TP_HOT_BYTE)
		rec &= 0xff;
	if (hot_in_window(h, lo, rec, now)) {
		cnt = hot_field(rec, lo->cnt_shift, lo->cnt_max);
		cnt += cnt < lo->cnt_max;
		ready = rec & lo->ready;
	} else {
		cnt = 1;
		ready = 0;
	}
	if (cnt >= h->threshold)
		ready = lo->ready;
	out = ready | (cnt << lo->cnt_shift) |
	      (((u32)(now >> h->shift) & lo->time_mask) << lo->time_shift);
	if (h->format == TP_HOT_PRECISE)
		out |= tp_min_u64(nid, TP_HOT_NID_MAX) << lo->nid_shift;
	return out;
}

bool tp_hot_record32(const struct tp_hot *h, u32 *rec, u32 nid, u64 now)
{
	u32 old, new, tries;

	TP_ASSERT(h && rec);
	old = tp_read_once(*rec);
	for (tries = 0; tries < TP_RETRIES; tries++) {
		new = tp_hot_record(h, old, nid, now);
		if (h->format == TP_HOT_BYTE)
			new |= old & ~0xffU;
		if (tp_cmpxchg32(rec, &old, new))
			return tp_hot_ready(h, new);
	}
	return tp_hot_ready(h, old);
}

bool tp_hot_ready(const struct tp_hot *h, u32 rec)
{
	TP_ASSERT(h && h->format <= TP_HOT_PRECISE && h->threshold);
	return rec & hot_layouts[h->format].ready;
}

bool tp_hot_expired(const struct tp_hot *h, u32 rec, u64 now)
{
	const struct hot_layout *lo;

	TP_ASSERT(h && h->format <= TP_HOT_PRECISE && h->threshold);
	lo = &hot_layouts[h->format];
	if (h->format == TP_HOT_BYTE)
		rec &= 0xff;
	return !hot_in_window(h, lo, rec, now);
}

u32 tp_hot_nid(const struct tp_hot *h, u32 rec)
{
	TP_ASSERT(h && h->format <= TP_HOT_PRECISE && h->threshold);
	if (h->format != TP_HOT_PRECISE)
		return 0;
	return hot_field(rec, hot_layouts[TP_HOT_PRECISE].nid_shift,
			 TP_HOT_NID_MAX);
}

u32 tp_hot_count(const struct tp_hot *h, u32 rec)
{
	const struct hot_layout *lo;

	TP_ASSERT(h && h->format <= TP_HOT_PRECISE && h->threshold);
	lo = &hot_layouts[h->format];
	return hot_field(rec, lo->cnt_shift, lo->cnt_max);
}
