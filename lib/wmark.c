// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Watermark and demotion helpers, the scan filter, and the
 * pseudo-interleaving rules of Linux 3.15 (docs/SOURCES.md).
 */
#include "tp_inline.h"

bool tp_free_space_enough(const struct tp_policy *pol,
			  const struct tp_node_mem *mem)
{
	struct tp_policy_set s;

	TP_ASSERT(pol && mem);
	if (!__tp_policy_read(pol, &s))
		return false;
	return __tp_free_space_enough(s.wmark_variant, s.bypass_min,
				      __tp_policy_rate(s.lim.limit, s.flags,
						       mem), mem);
}

bool tp_promote_room(const struct tp_node_mem *mem, u64 nr)
{
	TP_ASSERT(mem);
	return __tp_promote_room(mem, nr);
}

u64 tp_demotion_target(const struct tp_policy *pol,
		       const struct tp_node_mem *mem)
{
	struct tp_policy_set s;

	TP_ASSERT(pol && mem);
	/*
	 * Settings that keep changing: the copy last read may mix two tunes
	 * (one's rate in the other's formula); the high watermark, the
	 * smallest target, demotes no page that either would not.
	 */
	if (!__tp_policy_read(pol, &s) || !(s.mode & TP_MODE_TIERING))
		return mem->wmark_high;
	if (s.wmark_variant == TP_WMARK_RFC2020)
		return tp_add_sat(mem->wmark_high,
				  __tp_policy_rate(s.lim.limit, s.flags, mem));
	return __tp_wmark_promo(mem);
}

u64 tp_wmark_promo(u64 wmark_min, u64 wmark_high, u64 managed,
		   u32 scale_factor)
{
	return tp_add_sat(wmark_high,
			  tp_max_u64(wmark_min >> 2,
				     __tp_mul_frac(managed, scale_factor,
						   10000)));
}

bool tp_scan_wanted(const struct tp_policy *pol, bool toptier)
{
	struct tp_policy_set s;

	TP_ASSERT(pol);
	if (!__tp_policy_read(pol, &s) || !s.mode)
		return false;
	return !toptier || (s.mode & TP_MODE_NORMAL);
}

#define TP_BITS_PER_LONG	(8 * sizeof(unsigned long))

static bool node_in(const unsigned long *mask, u32 nbits, u32 nid)
{
	if (!mask || nid >= nbits)
		return false;
	return (mask[nid / TP_BITS_PER_LONG] >> (nid % TP_BITS_PER_LONG)) & 1;
}

/* More than one bit set among the first @nbits? No popcount: no libgcc. */
static bool mask_several(const unsigned long *mask, u32 nbits)
{
	u32 words, i, seen = 0;
	unsigned long w;

	if (!mask)
		return false;
	words = (nbits + TP_BITS_PER_LONG - 1) / TP_BITS_PER_LONG;
	for (i = 0; i < words; i++) {
		w = mask[i];
		if (i == words - 1 && nbits % TP_BITS_PER_LONG)
			w &= (1UL << (nbits % TP_BITS_PER_LONG)) - 1;
		if (!w)
			continue;
		if (w & (w - 1))
			return true;
		if (seen++)
			return true;
	}
	return false;
}

bool tp_group_fault_local(u32 variant, const struct tp_group_fault *f,
			  const unsigned long *active, u32 nbits)
{
	TP_ASSERT(f);
	if (f->local)
		return true;
	if (f->priv || !f->in_group)
		return false;
	if (variant == TP_GROUP_LINUX61 && !mask_several(active, nbits))
		return false;
	return node_in(active, nbits, f->cpu_node) &&
	       node_in(active, nbits, f->mem_node);
}

u64 tp_migrate_retry_interval(u64 scan_period, u32 tps)
{
	return tp_max_u64(tp_min_u64(tps, scan_period >> 4), 1);
}

int tp_preferred_node(u32 variant, bool in_group, int dst_node, int src_node,
		      const unsigned long *active, u32 nbits)
{
	if (!in_group)
		return -1;
	if (variant == TP_GROUP_LINUX61)
		return dst_node >= 0 ? dst_node : src_node;
	if (dst_node >= 0 && node_in(active, nbits, (u32)dst_node))
		return dst_node;
	return -1;
}
