/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Self-test vectors of the watermark, demotion and scan helpers (lib/wmark.c:
 * the free-space bypass of the 2020 RFC and Linux 6.1, the demotion target,
 * Linux 6.1's promo watermark, the scan filter) and of Linux 3.15's
 * pseudo-interleaving rules. Uses the helpers of policy.h; tp_st_policy()
 * runs tp_st_wmark(). Public API only, no libc, no 64-bit division, small
 * stack frames.
 */
#ifndef TP_SELFTEST_WMARK_H
#define TP_SELFTEST_WMARK_H

#include "policy.h"

/* ---- watermark helpers --------------------------------------------------- */

struct tp_st_pol_free {
	const char *name;
	u32 wmv;
	u32 shift;
	u32 rate;	/* MB/s; 0 with RL_WMARK_DEFAULT: the high watermark */
	u64 high;
	u64 promo;
	u64 present;
	u64 free;
	bool enough;
};

static const struct tp_st_pol_free tp_st_pol_free_rows[] = {
	/* the RFC: free > high + 2 * rate limit */
	{ "RFC 4 KiB 100 MB/s: at the mark", 0, 12, 100, 1000, 1000, 0,
	  1000 + 2 * 25600, false },
	{ "RFC 4 KiB 100 MB/s: above", 0, 12, 100, 1000, 1000, 0,
	  1000 + 2 * 25600 + 1, true },
	{ "RFC 16 KiB 100 MB/s: at the mark", 0, 14, 100, 1000, 1000, 0,
	  1000 + 2 * 6400, false },
	{ "RFC 16 KiB 100 MB/s: above", 0, 14, 100, 1000, 1000, 0,
	  1000 + 2 * 6400 + 1, true },
	{ "RFC 64 KiB 100 MB/s: at the mark", 0, 16, 100, 1000, 1000, 0,
	  1000 + 2 * 1600, false },
	{ "RFC 64 KiB 100 MB/s: above", 0, 16, 100, 1000, 1000, 0,
	  1000 + 2 * 1600 + 1, true },
	{ "RFC rate = high: at 3 x high", 0, 12, 0, 7000, 7000, 0, 21000,
	  false },
	{ "RFC rate = high: above 3 x high", 0, 12, 0, 7000, 7000, 0, 21001,
	  true },
	{ "RFC 65536 MB/s: 2^25 + high", 0, 12, 65536, 5, 5, 0,
	  (1ULL << 25) + 5, false },
	/* 6.1: free > promo + max(1 GiB, present / 16) */
	{ "6.1 4 KiB: 1 GiB margin, at", 1, 12, 0, 1000, 2000, 1000,
	  2000 + 262144, false },
	{ "6.1 4 KiB: 1 GiB margin, above", 1, 12, 0, 1000, 2000, 1000,
	  2000 + 262144 + 1, true },
	{ "6.1 16 KiB: 1 GiB margin, at", 1, 14, 0, 1000, 2000, 1000,
	  2000 + 65536, false },
	{ "6.1 16 KiB: 1 GiB margin, above", 1, 14, 0, 1000, 2000, 1000,
	  2000 + 65536 + 1, true },
	{ "6.1 64 KiB: 1 GiB margin, at", 1, 16, 0, 1000, 2000, 1000,
	  2000 + 16384, false },
	{ "6.1 64 KiB: 1 GiB margin, above", 1, 16, 0, 1000, 2000, 1000,
	  2000 + 16384 + 1, true },
	{ "6.1 4 KiB: present / 16, at", 1, 12, 0, 1000, 2000,
	  1ULL << 28, 2000 + (1ULL << 24), false },
	{ "6.1 4 KiB: present / 16, above", 1, 12, 0, 1000, 2000,
	  1ULL << 28, 2000 + (1ULL << 24) + 1, true },
	{ "6.1 64 KiB: present / 16, above", 1, 16, 0, 1000, 2000,
	  1ULL << 20, 2000 + 65536 + 1, true },
	{ "6.1: the rate limit does not matter", 1, 12, 65535, 1000,
	  2000, 1000, 2000 + 262144 + 1, true },
	{ "6.1: huge watermarks saturate", 1, 12, 0, ~0ULL - 5,
	  ~0ULL - 5, 1000, ~0ULL, false },
	/* no promo watermark (0, before Linux 6.1): the high one for it */
	{ "6.1, promo 0: high + 1 GiB, at", 1, 12, 0, 1000, 0, 1000,
	  1000 + 262144, false },
	{ "6.1, promo 0: high + 1 GiB, above", 1, 12, 0, 1000, 0, 1000,
	  1000 + 262144 + 1, true },
	{ "6.1, promo 0: present / 16, above", 1, 12, 0, 1000, 0,
	  1ULL << 28, 1000 + (1ULL << 24) + 1, true },
	{ "RFC, promo 0: the RFC has no use for it", 0, 12, 100, 1000, 0, 0,
	  1000 + 2 * 25600 + 1, true },
};

static void tp_st_pol_check_free(struct tp_st *st)
{
	const struct tp_st_pol_free *r;
	struct tp_node_mem mem;
	unsigned int i;
	bool ok;
	int v;

	for (i = 0; i < TP_ST_ARRAY_SIZE(tp_st_pol_free_rows); i++) {
		r = &tp_st_pol_free_rows[i];
		ok = tp_st_pol_setup(r->wmv ? TP_PRESET_LINUX61 :
					      TP_PRESET_RFC2020, 0, 0,
				     TP_ST_POL_KEEP, r->rate);
		tp_st_pol_big.c.page_shift = r->shift;
		ok = ok && tp_st_pol_reinit();
		mem.free = r->free;
		mem.wmark_min = 0;
		mem.wmark_low = 0;
		mem.wmark_high = r->high;
		mem.wmark_promo = r->promo;
		mem.present = r->present;
		ok = ok && tp_free_space_enough(&tp_st_pol_pol, &mem) ==
			   r->enough;
		/* and tp_decide() agrees on a cold single page */
		v = tp_st_pol_decide(TP_LATENCY_UNKNOWN, 1, TP_FAULT_YOUNG,
				     &mem, 1);
		ok = ok && (v == TP_PROMOTE_NRL) == r->enough;
		TP_ST_CHECK(st, ok, r->name);
	}
}

struct tp_st_pol_demote {
	const char *name;
	u32 preset;
	u32 mode;
	u32 rate;
	u64 want;	/* high 1000, promo 1500 */
};

static const struct tp_st_pol_demote tp_st_pol_demote_rows[] = {
	{ "demotion: RFC, rate = high", TP_PRESET_RFC2020, TP_ST_POL_KEEP,
	  TP_ST_POL_KEEP, 2000 },
	{ "demotion: RFC, 100 MB/s", TP_PRESET_RFC2020, TP_ST_POL_KEEP, 100,
	  1000 + 25600 },
	{ "demotion: RFC, mode 0x3", TP_PRESET_RFC2020, 3, TP_ST_POL_KEEP,
	  2000 },
	{ "demotion: RFC, mode 0x1: high", TP_PRESET_RFC2020, 1, TP_ST_POL_KEEP,
	  1000 },
	{ "demotion: RFC, mode 0: high", TP_PRESET_RFC2020, 0, TP_ST_POL_KEEP,
	  1000 },
	{ "demotion: 6.1: promo", TP_PRESET_LINUX61, TP_ST_POL_KEEP,
	  TP_ST_POL_KEEP, 1500 },
	{ "demotion: 6.1, mode 0x3: promo", TP_PRESET_LINUX61, 3,
	  TP_ST_POL_KEEP, 1500 },
	{ "demotion: 6.1, mode 0x1: high", TP_PRESET_LINUX61, 1,
	  TP_ST_POL_KEEP, 1000 },
	{ "demotion: 6.1, mode 0: high", TP_PRESET_LINUX61, 0,
	  TP_ST_POL_KEEP, 1000 },
};

static void tp_st_pol_check_demote(struct tp_st *st)
{
	static const struct tp_node_mem mem = {
		.free = 0, .wmark_min = 500, .wmark_low = 750,
		.wmark_high = 1000, .wmark_promo = 1500, .present = 100000,
	};
	static const struct tp_node_mem nopromo = {
		.free = 0, .wmark_min = 500, .wmark_low = 750,
		.wmark_high = 1000, .wmark_promo = 0, .present = 100000,
	};
	const struct tp_st_pol_demote *r;
	unsigned int i;
	bool ok;

	for (i = 0; i < TP_ST_ARRAY_SIZE(tp_st_pol_demote_rows); i++) {
		r = &tp_st_pol_demote_rows[i];
		ok = tp_st_pol_setup(r->preset, 0, 0, r->mode, r->rate);
		ok = ok && tp_demotion_target(&tp_st_pol_pol, &mem) == r->want;
		TP_ST_CHECK(st, ok, r->name);
	}
	/* without a promo watermark, 6.1 demotes to the high one */
	ok = tp_st_pol_setup(TP_PRESET_LINUX61, 0, 0, TP_ST_POL_KEEP,
			     TP_ST_POL_KEEP);
	ok = ok && tp_demotion_target(&tp_st_pol_pol, &nopromo) == 1000;
	TP_ST_CHECK(st, ok, "demotion: 6.1, promo 0: high");
	ok = tp_st_pol_setup(TP_PRESET_RFC2020, 0, 0, TP_ST_POL_KEEP,
			     TP_ST_POL_KEEP);
	ok = ok && tp_demotion_target(&tp_st_pol_pol, &nopromo) == 2000;
	TP_ST_CHECK(st, ok, "demotion: RFC, promo 0: high + rate (= high)");
}

struct tp_st_pol_promo {
	const char *name;
	u64 min, high, managed;
	u32 scale;
	u64 want;
};

static const struct tp_st_pol_promo tp_st_pol_promo_rows[] = {
	{ "promo: managed * 0.1 % wins", 1000, 1500, 1000000, 10, 2500 },
	{ "promo: min / 4 wins", 1000, 1500, 100000, 10, 1750 },
	{ "promo: scale 0: min / 4", 1000, 1500, 1000000, 0, 1750 },
	{ "promo: all zero", 0, 0, 0, 10, 0 },
	{ "promo: 3 %, rounded down", 0, 100, 12345, 300, 100 + 370 },
	{ "promo: no overflow in managed * scale", 0, 0, 1ULL << 62, 1000,
	  461168601842738790ULL },
	{ "promo: 2^63 + 2^62", 0, 1ULL << 63, 1ULL << 62, 10000,
	  (1ULL << 63) + (1ULL << 62) },
	{ "promo: saturates", 0, 1ULL << 63, 1ULL << 63, 10000, ~0ULL },
};

static void tp_st_pol_check_promo(struct tp_st *st)
{
	const struct tp_st_pol_promo *r;
	unsigned int i;

	for (i = 0; i < TP_ST_ARRAY_SIZE(tp_st_pol_promo_rows); i++) {
		r = &tp_st_pol_promo_rows[i];
		TP_ST_CHECK(st, tp_wmark_promo(r->min, r->high, r->managed,
					       r->scale) == r->want, r->name);
	}
}

static void tp_st_pol_check_scan(struct tp_st *st)
{
	/* bit 2 * mode + toptier: wanted (mode 0: never; 2: not top) */
	static const u8 want = 0x0c | 0x10 | 0xc0;
	u32 mode, top;
	bool ok;

	for (mode = 0; mode < 4; mode++) {
		for (top = 0; top < 2; top++) {
			ok = tp_st_pol_setup(TP_PRESET_RFC2020, 0, 0, mode,
					     TP_ST_POL_KEEP);
			ok = ok && tp_scan_wanted(&tp_st_pol_pol, top) ==
				   !!(want & (1U << (2 * mode + top)));
			TP_ST_CHECK(st, ok, "tp_scan_wanted by mode and tier");
		}
	}
}

/* ---- pseudo-interleaving (Linux 3.15) ------------------------------------ */

#define TP_ST_BPL	(8 * sizeof(unsigned long))
#define TP_ST_MASK_LONGS	((256 + TP_ST_BPL - 1) / TP_ST_BPL)

/* Node sets of the rows; 0xffff ends a list. */
static const u16 tp_st_pol_sets[][5] = {
	{ 0, 1, 0xffff },
	{ 3, 0xffff },
	{ 5, 70, 130, 199, 0xffff },
	{ 5, 201, 0xffff },
	{ 0xffff },
};

static unsigned long tp_st_pol_mask[TP_ST_MASK_LONGS];

static const unsigned long *tp_st_pol_mkmask(unsigned int set)
{
	unsigned int i;
	u32 n;

	for (i = 0; i < TP_ST_MASK_LONGS; i++)
		tp_st_pol_mask[i] = 0;
	for (i = 0; tp_st_pol_sets[set][i] != 0xffff; i++) {
		n = tp_st_pol_sets[set][i];
		tp_st_pol_mask[n / TP_ST_BPL] |= 1UL << (n % TP_ST_BPL);
	}
	return tp_st_pol_mask;
}

#define ST_G315	TP_GROUP_LINUX315
#define ST_G61	TP_GROUP_LINUX61

struct tp_st_pol_local {
	const char *name;
	u32 variant;
	bool local, priv, in_group;
	u32 cpu, mem;
	u8 set;
	u32 nbits;
	bool want;
};

static const struct tp_st_pol_local tp_st_pol_local_rows[] = {
	{ "local fault is local", ST_G315, true, true, false, 0, 9, 4, 200,
	  true },
	{ "local fault is local (6.1)", ST_G61, true, false, false, 0, 9, 4,
	  200, true },
	{ "private fault within the set: not local", ST_G315, false, true, true,
	  0, 1, 0, 200, false },
	{ "shared fault, no group: not local", ST_G315, false, false, false, 0,
	  1, 0, 200, false },
	{ "3.15: shared fault within the set: local", ST_G315, false, false,
	  true, 0, 1, 0, 200, true },
	{ "3.15: memory outside the set", ST_G315, false, false, true, 0, 2, 0,
	  200, false },
	{ "3.15: CPU outside the set", ST_G315, false, false, true, 2, 1, 0,
	  200, false },
	{ "3.15: one active node suffices", ST_G315, false, false, true, 3, 3,
	  1, 200, true },
	{ "6.1: one active node is not enough", ST_G61, false, false, true, 3,
	  3, 1, 200, false },
	{ "6.1: two active nodes", ST_G61, false, false, true, 1, 0, 0, 200,
	  true },
	{ "6.1: nodes 70 and 199 of 200", ST_G61, false, false, true, 70, 199,
	  2, 200, true },
	{ "3.15: nodes 130 and 199 of 200", ST_G315, false, false, true, 130,
	  199, 2, 200, true },
	{ "3.15: node 131 not active", ST_G315, false, false, true, 130, 131, 2,
	  200, false },
	{ "3.15: node 200 is beyond 200 bits", ST_G315, false, false, true, 199,
	  200, 2, 200, false },
	{ "6.1: a bit beyond nbits is not a node", ST_G61, false, false, true,
	  5, 5, 3, 200, false },
	{ "3.15: node 201 of 256 bits", ST_G315, false, false, true, 5, 201, 3,
	  256, true },
	{ "6.1: node 201 of 256 bits", ST_G61, false, false, true, 201, 5, 3,
	  256, true },
	{ "empty set", ST_G315, false, false, true, 0, 0, 4, 200, false },
};

static void tp_st_pol_check_local(struct tp_st *st)
{
	const struct tp_st_pol_local *r;
	struct tp_group_fault f;
	unsigned int i;

	for (i = 0; i < TP_ST_ARRAY_SIZE(tp_st_pol_local_rows); i++) {
		r = &tp_st_pol_local_rows[i];
		f.cpu_node = r->cpu;
		f.mem_node = r->mem;
		f.local = r->local;
		f.priv = r->priv;
		f.in_group = r->in_group;
		TP_ST_CHECK(st, tp_group_fault_local(r->variant, &f,
						     tp_st_pol_mkmask(r->set),
						     r->nbits) == r->want,
			    r->name);
	}
}

struct tp_st_pol_retry {
	const char *name;
	u64 period;
	u32 tps;
	u64 want;
};

static const struct tp_st_pol_retry tp_st_pol_retry_rows[] = {
	{ "retry: period 10 ticks: 1, not 0", 10, 1000, 1 },
	{ "retry: period 0: 1", 0, 1000, 1 },
	{ "retry: period 31: 1", 31, 1000, 1 },
	{ "retry: period 32: 2", 32, 1000, 2 },
	{ "retry: 1.6 s: 100 ms", 1600, 1000, 100 },
	{ "retry: 16 s: 1 s", 16000, 1000, 1000 },
	{ "retry: 60 s: capped at 1 s", 60000, 1000, 1000 },
	{ "retry: HZ=250, 1 s period: 15", 250, 250, 15 },
	{ "retry: HZ=250, huge period: HZ", ~0ULL, 250, 250 },
	{ "retry: ns, 1.6 s: 100 ms", 1600000000ULL, 1000000000, 100000000 },
	{ "retry: tps 1: 1", 1000, 1, 1 },
};

static void tp_st_pol_check_retry(struct tp_st *st)
{
	const struct tp_st_pol_retry *r;
	unsigned int i;

	for (i = 0; i < TP_ST_ARRAY_SIZE(tp_st_pol_retry_rows); i++) {
		r = &tp_st_pol_retry_rows[i];
		TP_ST_CHECK(st, tp_migrate_retry_interval(r->period, r->tps) ==
			    r->want, r->name);
	}
}

struct tp_st_pol_pref {
	const char *name;
	u32 variant;
	bool in_group;
	int dst, src;
	u8 set;
	u32 nbits;
	int want;
};

static const struct tp_st_pol_pref tp_st_pol_pref_rows[] = {
	{ "3.15: into an active node", ST_G315, true, 1, 7, 0, 200, 1 },
	{ "3.15: into an inactive node: unchanged", ST_G315, true, 2, 7, 0, 200,
	  -1 },
	{ "3.15: no group: unchanged", ST_G315, false, 1, 7, 0, 200, -1 },
	{ "3.15: no CPU found: unchanged", ST_G315, true, -1, 7, 0, 200, -1 },
	{ "3.15: node 199 of 200", ST_G315, true, 199, 7, 2, 200, 199 },
	{ "3.15: node 201 beyond 200 bits", ST_G315, true, 201, 7, 3, 200, -1 },
	{ "6.1: the best CPU's node", ST_G61, true, 2, 7, 0, 200, 2 },
	{ "6.1: no CPU found: the source", ST_G61, true, -1, 7, 0, 200, 7 },
	{ "6.1: no group: unchanged", ST_G61, false, 1, 7, 0, 200, -1 },
	{ "6.1: node 199", ST_G61, true, 199, 7, 4, 200, 199 },
};

static void tp_st_pol_check_pref(struct tp_st *st)
{
	const struct tp_st_pol_pref *r;
	unsigned int i;

	for (i = 0; i < TP_ST_ARRAY_SIZE(tp_st_pol_pref_rows); i++) {
		r = &tp_st_pol_pref_rows[i];
		TP_ST_CHECK(st, tp_preferred_node(r->variant, r->in_group,
						  r->dst, r->src,
						  tp_st_pol_mkmask(r->set),
						  r->nbits) == r->want,
			    r->name);
	}
}

/**
 * tp_st_wmark() - run the watermark, scan and pseudo-interleaving vectors
 * @st: the run
 *
 * Return: the number of failed cases this call added.
 */
static int tp_st_wmark(struct tp_st *st)
{
	unsigned int failed = st->failed;

	tp_st_pol_check_free(st);
	tp_st_pol_check_demote(st);
	tp_st_pol_check_promo(st);
	tp_st_pol_check_scan(st);
	tp_st_pol_check_local(st);
	tp_st_pol_check_retry(st);
	tp_st_pol_check_pref(st);
	return st->failed - failed;
}

#undef ST_G315
#undef ST_G61

#endif /* TP_SELFTEST_WMARK_H */
