// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Per-page access-time stamp (Linux 6.1, xchg_page_access_time()).
 */
#include "tp_seam.h"
#include <tierpol/atime.h>

int tp_atime_init(struct tp_atime *fmt, const struct tp_atime_cfg *cfg)
{
	u32 bits;

	if (!fmt || !cfg)
		return -EINVAL;
	if (__tp_cfg_check(cfg, cfg->sz, sizeof(*cfg)))
		return -EINVAL;
	bits = cfg->bits ? cfg->bits : TP_ATIME_DEFAULT_BITS;
	if (bits > 32 || cfg->shift > 64 - bits)
		return -EINVAL;

	fmt->mask = bits == 32 ? ~0U : (1U << bits) - 1;
	fmt->shift = cfg->shift;
	return 0;
}

u32 tp_atime_xchg(const struct tp_atime *fmt, u32 *stamp, u64 now)
{
	TP_ASSERT(fmt && fmt->mask && stamp);	/* fmt initialised */
	return tp_xchg32(stamp, tp_atime_encode(fmt, now));
}

u64 tp_atime_fault(const struct tp_atime *fmt, u32 *stamp, u64 now)
{
	TP_ASSERT(fmt && fmt->mask && stamp);
	return tp_atime_latency(fmt, tp_atime_xchg(fmt, stamp, now), now);
}
