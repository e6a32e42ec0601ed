/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Self-test vectors of the promotion decision pipeline (seed 000 patches
 * 1-8, seed 002, mainline should_numa_migrate_memory()), the watermark,
 * demotion and scan helpers, and seed 001's pseudo-interleaving rules.
 * Shared by the CMocka suite and the kernel self-test module: public API
 * only, no libc, no 64-bit division, small stack frames (the node and the
 * policy are static).
 */
#ifndef _TIERPOL_SELFTEST_POLICY_H
#define _TIERPOL_SELFTEST_POLICY_H

#include "selftest.h"

#ifndef EINVAL
#define EINVAL		22
#endif
#ifndef ERANGE
#define ERANGE		34
#endif

/* "Keep the preset's value" in the tables below. */
#define TP_ST_POL_KEEP	0xffffffffU

/* Every switch that needs TP_POL_HOTNESS, and the bypass reset. */
#define TP_ST_POL_HOT_DEPS	(TP_POL_HOTNESS | TP_POL_ADAPTIVE | \
				 TP_POL_WRITE_DOUBLE | TP_POL_HOT_STRICT | \
				 TP_POL_BYPASS_RESET)
#define TP_ST_POL_BYPASS	(TP_POL_FREE_BYPASS | TP_POL_BYPASS_RESET)
/* Not a switch: in a row's @set, selects the token bucket limiter. */
#define TP_ST_POL_BUCKET	0x80000000U

static struct tp_policy_cfg tp_st_pol_cfg;
static struct tp_policy tp_st_pol_pol, tp_st_pol_copy;
static struct tp_node tp_st_pol_node;
static struct tp_node_stats tp_st_pol_stats;

static bool tp_st_pol_same(const void *a, const void *b, size_t n)
{
	const u8 *x = a, *y = b;
	size_t i;

	for (i = 0; i < n; i++)
		if (x[i] != y[i])
			return false;
	return true;
}

static void tp_st_pol_fill(void *p, size_t n, u8 v)
{
	u8 *b = p;
	size_t i;

	for (i = 0; i < n; i++)
		b[i] = v;
}

/* A preset at 1000 ticks/s with the changes of a table row. */
static bool tp_st_pol_setup(u32 preset, u32 set, u32 clr, u32 mode, u32 rate)
{
	struct tp_policy_cfg *c = &tp_st_pol_cfg;

	if (tp_policy_preset(c, preset, 1000))
		return false;
	if (set & TP_ST_POL_BUCKET)
		c->limiter_variant = TP_LIMITER_BUCKET;
	c->flags = (c->flags | (set & ~TP_ST_POL_BUCKET)) & ~clr;
	if (mode != TP_ST_POL_KEEP)
		c->mode = mode;
	if (rate != TP_ST_POL_KEEP)
		c->rate_limit_mbps = rate;
	return !tp_policy_init(&tp_st_pol_pol, c) &&
	       !tp_node_init(&tp_st_pol_node, &tp_st_pol_pol, 0);
}

/* The statistics counter of a verdict. */
static u64 tp_st_pol_vcount(const struct tp_node_stats *s, int v)
{
	switch (v) {
	case TP_PROMOTE:
		return s->promote_hot;
	case TP_PROMOTE_NRL:
		return s->promote_nrl;
	case TP_REFUSE_MODE:
		return s->refused_mode;
	case TP_REFUSE_TOPTIER:
		return s->refused_toptier;
	case TP_REFUSE_NOT_YOUNG:
		return s->refused_not_young;
	case TP_REFUSE_COLD:
		return s->refused_cold;
	case TP_REFUSE_RATELIMIT:
		return s->refused_ratelimit;
	case TP_REFUSE_NOSPACE:
		return s->refused_nospace;
	}
	return ~0ULL;
}

/* ---- presets ------------------------------------------------------------- */

struct tp_st_pol_preset {
	const char *name;
	u32 preset;
	u32 flags;
	u32 rate;
	u32 thv, limv, wmv;
};

static const struct tp_st_pol_preset tp_st_pol_preset_rows[] = {
	{ "seed preset", TP_PRESET_SEED,
	  TP_POL_HOTNESS | TP_POL_FREE_BYPASS | TP_POL_YOUNG |
	  TP_POL_WRITE_DOUBLE | TP_POL_ADAPTIVE | TP_POL_RL_WMARK_DEFAULT,
	  0, TP_THRESH_SEED, TP_LIMITER_WINDOW_SEED, TP_WMARK_SEED },
	{ "mainline preset", TP_PRESET_MAINLINE,
	  TP_POL_HOTNESS | TP_POL_FREE_BYPASS | TP_POL_ADAPTIVE |
	  TP_POL_HOT_STRICT | TP_POL_BYPASS_RESET,
	  65536, TP_THRESH_MAINLINE, TP_LIMITER_WINDOW_MAINLINE,
	  TP_WMARK_MAINLINE },
};

static void tp_st_pol_check_presets(struct tp_st *st)
{
	const struct tp_st_pol_preset *r;
	struct tp_policy_cfg *c = &tp_st_pol_cfg;
	unsigned int i;
	bool ok;

	for (i = 0; i < TP_ST_ARRAY_SIZE(tp_st_pol_preset_rows); i++) {
		r = &tp_st_pol_preset_rows[i];
		tp_st_pol_fill(c, sizeof(*c), 0xee);
		ok = !tp_policy_preset(c, r->preset, 250);
		ok = ok && c->mode == TP_MODE_TIERING && c->flags == r->flags &&
		     c->tps == 250 && c->page_shift == 12 &&
		     c->hot_threshold_ms == 1000 &&
		     c->rate_limit_mbps == r->rate &&
		     c->scan_period_max_ms == 60000 &&
		     c->thresh_variant == r->thv &&
		     c->limiter_variant == r->limv &&
		     c->wmark_variant == r->wmv && c->burst_pages == 0;
		ok = ok && !tp_policy_init(&tp_st_pol_pol, c);
		TP_ST_CHECK(st, ok, r->name);
	}
	/* bad presets leave the configuration alone */
	tp_st_pol_fill(c, sizeof(*c), 0xee);
	tp_st_pol_fill(&tp_st_pol_copy, sizeof(*c), 0xee);
	ok = tp_policy_preset(c, 2, 1000) == -EINVAL;
	ok = ok && tp_policy_preset(NULL, TP_PRESET_SEED, 1000) == -EINVAL;
	ok = ok && tp_st_pol_same(c, &tp_st_pol_copy, sizeof(*c));
	TP_ST_CHECK(st, ok, "unknown preset, NULL config");
}

/* ---- tp_policy_init() validation ----------------------------------------- */

enum {
	TP_ST_F_NONE,
	TP_ST_F_MODE,
	TP_ST_F_FLAGS,
	TP_ST_F_TPS,
	TP_ST_F_SHIFT,
	TP_ST_F_THV,
	TP_ST_F_LIMV,
	TP_ST_F_WMV,
	TP_ST_F_RATE,
	TP_ST_F_BURST,
	TP_ST_F_NULLCFG,
	TP_ST_F_NULLPOL,
};

struct tp_st_pol_bad {
	const char *name;
	u8 f1;
	u64 v1;
	u8 f2;
	u64 v2;
	int ret;
};

static const struct tp_st_pol_bad tp_st_pol_bad_rows[] = {
	{ "NULL config", TP_ST_F_NULLCFG, 0, 0, 0, -EINVAL },
	{ "NULL policy", TP_ST_F_NULLPOL, 0, 0, 0, -EINVAL },
	{ "mode 4", TP_ST_F_MODE, 4, 0, 0, -EINVAL },
	{ "mode ~0", TP_ST_F_MODE, ~0U, 0, 0, -EINVAL },
	{ "mode 3", TP_ST_F_MODE, 3, 0, 0, 0 },
	{ "mode 0", TP_ST_F_MODE, 0, 0, 0, 0 },
	{ "unknown flag 0x100", TP_ST_F_FLAGS, TP_POL_HOTNESS | 0x100, 0, 0,
	  -EINVAL },
	{ "unknown flag 0x80000000", TP_ST_F_FLAGS, 0x80000000U, 0, 0,
	  -EINVAL },
	{ "ADAPTIVE without HOTNESS", TP_ST_F_FLAGS, TP_POL_ADAPTIVE, 0, 0,
	  -EINVAL },
	{ "WRITE_DOUBLE without HOTNESS", TP_ST_F_FLAGS, TP_POL_WRITE_DOUBLE,
	  0, 0, -EINVAL },
	{ "HOT_STRICT without HOTNESS", TP_ST_F_FLAGS, TP_POL_HOT_STRICT, 0, 0,
	  -EINVAL },
	{ "everything but HOTNESS", TP_ST_F_FLAGS,
	  TP_POL_ALL & ~TP_POL_HOTNESS, 0, 0, -EINVAL },
	{ "BYPASS_RESET without FREE_BYPASS", TP_ST_F_FLAGS,
	  TP_POL_HOTNESS | TP_POL_ADAPTIVE | TP_POL_BYPASS_RESET, 0, 0,
	  -EINVAL },
	{ "BYPASS_RESET without ADAPTIVE", TP_ST_F_FLAGS,
	  TP_POL_HOTNESS | TP_POL_FREE_BYPASS | TP_POL_BYPASS_RESET, 0, 0,
	  -EINVAL },
	{ "BYPASS_RESET with both", TP_ST_F_FLAGS,
	  TP_POL_HOTNESS | TP_POL_FREE_BYPASS | TP_POL_ADAPTIVE |
	  TP_POL_BYPASS_RESET, 0, 0, 0 },
	{ "no switches", TP_ST_F_FLAGS, 0, 0, 0, 0 },
	{ "every switch", TP_ST_F_FLAGS, TP_POL_ALL, 0, 0, 0 },
	{ "tps 0", TP_ST_F_TPS, 0, 0, 0, -EINVAL },
	{ "tps TP_TPS_MAX + 1", TP_ST_F_TPS, TP_TPS_MAX + 1ULL, 0, 0,
	  -EINVAL },
	{ "tps 1", TP_ST_F_TPS, 1, 0, 0, 0 },
	{ "tps TP_TPS_MAX", TP_ST_F_TPS, TP_TPS_MAX, 0, 0, 0 },
	{ "page_shift 9", TP_ST_F_SHIFT, 9, 0, 0, -EINVAL },
	{ "page_shift 31", TP_ST_F_SHIFT, 31, 0, 0, -EINVAL },
	{ "page_shift 0 (4 KiB)", TP_ST_F_SHIFT, 0, 0, 0, 0 },
	{ "page_shift 12", TP_ST_F_SHIFT, 12, 0, 0, 0 },
	{ "page_shift 14", TP_ST_F_SHIFT, 14, 0, 0, 0 },
	{ "page_shift 16", TP_ST_F_SHIFT, 16, 0, 0, 0 },
	{ "page_shift 21", TP_ST_F_SHIFT, 21, 0, 0, 0 },
	{ "thresh_variant 2", TP_ST_F_THV, 2, 0, 0, -EINVAL },
	{ "limiter_variant 3", TP_ST_F_LIMV, 3, 0, 0, -EINVAL },
	{ "wmark_variant 2", TP_ST_F_WMV, 2, 0, 0, -EINVAL },
	{ "2^24 MB/s = 2^32 pages/s", TP_ST_F_RATE, 1U << 24, 0, 0, 0 },
	{ "2^24 + 1 MB/s > TP_RATE_MAX pages/s", TP_ST_F_RATE,
	  (1U << 24) + 1, 0, 0, -ERANGE },
	{ "~0 MB/s at 4 KiB", TP_ST_F_RATE, ~0U, 0, 0, -ERANGE },
	{ "2^28 MB/s of 64 KiB pages", TP_ST_F_RATE, 1U << 28, TP_ST_F_SHIFT,
	  16, 0 },
	{ "2^28 + 1 MB/s of 64 KiB pages", TP_ST_F_RATE, (1U << 28) + 1,
	  TP_ST_F_SHIFT, 16, -ERANGE },
	{ "~0 MB/s of 2 MiB pages", TP_ST_F_RATE, ~0U, TP_ST_F_SHIFT, 21, 0 },
	{ "burst TP_RATE_MAX", TP_ST_F_BURST, TP_RATE_MAX, 0, 0, 0 },
	{ "burst TP_RATE_MAX + 1", TP_ST_F_BURST, TP_RATE_MAX + 1, 0, 0,
	  -ERANGE },
};

static void tp_st_pol_set_field(struct tp_policy_cfg *c, u8 f, u64 v)
{
	switch (f) {
	case TP_ST_F_MODE:
		c->mode = (u32)v;
		break;
	case TP_ST_F_FLAGS:
		c->flags = (u32)v;
		break;
	case TP_ST_F_TPS:
		c->tps = (u32)v;
		break;
	case TP_ST_F_SHIFT:
		c->page_shift = (u32)v;
		break;
	case TP_ST_F_THV:
		c->thresh_variant = (u32)v;
		break;
	case TP_ST_F_LIMV:
		c->limiter_variant = (u32)v;
		break;
	case TP_ST_F_WMV:
		c->wmark_variant = (u32)v;
		break;
	case TP_ST_F_RATE:
		c->rate_limit_mbps = (u32)v;
		break;
	case TP_ST_F_BURST:
		c->burst_pages = v;
		break;
	}
}

static void tp_st_pol_check_cfgs(struct tp_st *st)
{
	const struct tp_st_pol_bad *r;
	struct tp_policy_cfg *c = &tp_st_pol_cfg;
	struct tp_policy *p;
	const struct tp_policy_cfg *cp;
	unsigned int i;
	bool ok;

	for (i = 0; i < TP_ST_ARRAY_SIZE(tp_st_pol_bad_rows); i++) {
		r = &tp_st_pol_bad_rows[i];
		p = r->f1 == TP_ST_F_NULLPOL ? NULL : &tp_st_pol_pol;
		cp = r->f1 == TP_ST_F_NULLCFG ? NULL : c;

		/* init: untouched on error */
		ok = !tp_policy_preset(c, TP_PRESET_MAINLINE, 1000);
		tp_st_pol_set_field(c, r->f1, r->v1);
		tp_st_pol_set_field(c, r->f2, r->v2);
		tp_st_pol_fill(&tp_st_pol_pol, sizeof(tp_st_pol_pol), 0x77);
		tp_st_pol_copy = tp_st_pol_pol;
		ok = ok && tp_policy_init(p, cp) == r->ret;
		if (r->ret)
			ok = ok && tp_st_pol_same(&tp_st_pol_pol,
						  &tp_st_pol_copy,
						  sizeof(tp_st_pol_pol));
		TP_ST_CHECK(st, ok, r->name);

		/* tune of a live policy: the same answer, no change */
		ok = !tp_policy_preset(c, TP_PRESET_SEED, 1000);
		ok = ok && !tp_policy_init(&tp_st_pol_pol, c);
		tp_st_pol_copy = tp_st_pol_pol;
		ok = ok && !tp_policy_preset(c, TP_PRESET_MAINLINE, 1000);
		tp_st_pol_set_field(c, r->f1, r->v1);
		tp_st_pol_set_field(c, r->f2, r->v2);
		ok = ok && tp_policy_tune(p, cp) == r->ret;
		if (r->ret)
			ok = ok && tp_st_pol_same(&tp_st_pol_pol,
						  &tp_st_pol_copy,
						  sizeof(tp_st_pol_pol));
		TP_ST_CHECK(st, ok, r->name);
	}
}

/* ---- one decision per row ------------------------------------------------ */

/* Target node memory (pages) used by the decision rows. */
static const struct tp_node_mem tp_st_pol_mems[] = {
	/* 0: room, no bypass for either preset (seed mark 30000) */
	{ 20000, 2500, 5000, 10000, 12000, 1000000 },
	/* 1: bypass for both (mainline mark 12000 + 262144) */
	{ 300000, 2500, 5000, 10000, 12000, 1000000 },
	/* 2: bypass for the seed only */
	{ 40000, 2500, 5000, 10000, 12000, 1000000 },
	/* 3: bypass for mainline only (seed mark 600000, mainline 472144) */
	{ 500000, 50000, 100000, 200000, 210000, 1000000 },
	/* 4: free == high + 1: no room for one page */
	{ 10001, 2500, 5000, 10000, 12000, 1000000 },
	/* 5: free == high + 2: room for one page */
	{ 10002, 2500, 5000, 10000, 12000, 1000000 },
	/* 6: free == high + 512: no room for a THP */
	{ 10512, 2500, 5000, 10000, 12000, 1000000 },
	/* 7: free == high + 513: room for a THP */
	{ 10513, 2500, 5000, 10000, 12000, 1000000 },
	/* 8: seed bypass (> 30000) without room for 30000 pages */
	{ 35000, 2500, 5000, 10000, 12000, 1000000 },
	/* 9: free == high: no room, no bypass even at rate 0 */
	{ 10000, 2500, 5000, 10000, 12000, 1000000 },
};

struct tp_st_pol_dec {
	const char *name;
	u32 preset;
	u32 set;
	u32 clr;
	u32 mode;
	u32 rate;
	u64 latency;
	u64 nr;
	u32 fflags;
	u8 mem;
	int verdict;
	u8 cand;	/* counted in pgpromote_candidate */
	u8 nrl;		/* counted in pgpromote_candidate_nrl */
};

#define ST_S	TP_PRESET_SEED
#define ST_M	TP_PRESET_MAINLINE
#define ST_K	TP_ST_POL_KEEP
#define ST_Y	TP_FAULT_YOUNG
#define ST_W	TP_FAULT_WRITE
#define ST_UNK	TP_LATENCY_UNKNOWN

static const struct tp_st_pol_dec tp_st_pol_dec_rows[] = {
	/* hotness: seed latency <= th, mainline latency < th (th 1000) */
	{ "seed: hot young read promotes", ST_S, 0, 0, ST_K, ST_K, 500, 1, ST_Y,
	  0, TP_PROMOTE, 1, 0 },
	{ "seed: latency == th is hot", ST_S, 0, 0, ST_K, ST_K, 1000, 1, ST_Y,
	  0, TP_PROMOTE, 1, 0 },
	{ "seed: latency th + 1 is cold", ST_S, 0, 0, ST_K, ST_K, 1001, 1, ST_Y,
	  0, TP_REFUSE_COLD, 0, 0 },
	{ "mainline: latency == th is cold", ST_M, 0, 0, ST_K, ST_K, 1000, 1, 0,
	  0, TP_REFUSE_COLD, 0, 0 },
	{ "mainline: latency th - 1 is hot", ST_M, 0, 0, ST_K, ST_K, 999, 1, 0,
	  0, TP_PROMOTE, 1, 0 },
	{ "mainline without HOT_STRICT: latency == th is hot", ST_M, 0,
	  TP_POL_HOT_STRICT, ST_K, ST_K, 1000, 1, 0, 0, TP_PROMOTE, 1, 0 },
	{ "unknown latency is cold (seed)", ST_S, 0, 0, ST_K, ST_K, ST_UNK, 1,
	  ST_Y | ST_W, 0, TP_REFUSE_COLD, 0, 0 },
	{ "unknown latency is cold (mainline)", ST_M, 0, 0, ST_K, ST_K, ST_UNK,
	  1, ST_W, 0, TP_REFUSE_COLD, 0, 0 },
	/* the young check */
	{ "seed: not young is refused", ST_S, 0, 0, ST_K, ST_K, 10, 1, 0, 0,
	  TP_REFUSE_NOT_YOUNG, 0, 0 },
	{ "seed without YOUNG: not young promotes", ST_S, 0, TP_POL_YOUNG, ST_K,
	  ST_K, 10, 1, 0, 0, TP_PROMOTE, 1, 0 },
	{ "mainline: not young promotes", ST_M, 0, 0, ST_K, ST_K, 10, 1, 0, 0,
	  TP_PROMOTE, 1, 0 },
	{ "mainline with YOUNG: not young is refused", ST_M, TP_POL_YOUNG, 0,
	  ST_K, ST_K, 10, 1, 0, 0, TP_REFUSE_NOT_YOUNG, 0, 0 },
	{ "seed: not young and cold: NOT_YOUNG first", ST_S, 0, 0, ST_K, ST_K,
	  ST_UNK, 1, 0, 0, TP_REFUSE_NOT_YOUNG, 0, 0 },
	/* write doubling: latency between th and 2 th */
	{ "seed: write at 1.5 th promotes", ST_S, 0, 0, ST_K, ST_K, 1500, 1,
	  ST_Y | ST_W, 0, TP_PROMOTE, 1, 0 },
	{ "seed: read at 1.5 th is cold", ST_S, 0, 0, ST_K, ST_K, 1500, 1, ST_Y,
	  0, TP_REFUSE_COLD, 0, 0 },
	{ "seed without WRITE_DOUBLE: write at 1.5 th cold", ST_S, 0,
	  TP_POL_WRITE_DOUBLE, ST_K, ST_K, 1500, 1, ST_Y | ST_W, 0,
	  TP_REFUSE_COLD, 0, 0 },
	{ "seed: write at 2 th is hot", ST_S, 0, 0, ST_K, ST_K, 2000, 1,
	  ST_Y | ST_W, 0, TP_PROMOTE, 1, 0 },
	{ "seed: write at 2 th + 1 is cold", ST_S, 0, 0, ST_K, ST_K, 2001, 1,
	  ST_Y | ST_W, 0, TP_REFUSE_COLD, 0, 0 },
	{ "mainline: write at 1.5 th is cold", ST_M, 0, 0, ST_K, ST_K, 1500, 1,
	  ST_W, 0, TP_REFUSE_COLD, 0, 0 },
	{ "mainline with WRITE_DOUBLE: write at 1.5 th", ST_M,
	  TP_POL_WRITE_DOUBLE, 0, ST_K, ST_K, 1500, 1, ST_W, 0, TP_PROMOTE, 1,
	  0 },
	{ "mainline with WRITE_DOUBLE: write at 2 th cold", ST_M,
	  TP_POL_WRITE_DOUBLE, 0, ST_K, ST_K, 2000, 1, ST_W, 0, TP_REFUSE_COLD,
	  0, 0 },
	/* the free-space bypass (seed 002) */
	{ "seed: bypass promotes a cold page", ST_S, 0, 0, ST_K, ST_K, ST_UNK,
	  1, 0, 1, TP_PROMOTE_NRL, 0, 1 },
	{ "mainline: bypass promotes a cold page", ST_M, 0, 0, ST_K, ST_K,
	  ST_UNK, 1, 0, 1, TP_PROMOTE_NRL, 0, 1 },
	{ "seed, bypass off: the cold page is cold", ST_S, 0, TP_ST_POL_BYPASS,
	  ST_K, ST_K, ST_UNK, 1, ST_Y, 1, TP_REFUSE_COLD, 0, 0 },
	{ "mainline, bypass off: the cold page is cold", ST_M, 0,
	  TP_ST_POL_BYPASS, ST_K, ST_K, ST_UNK, 1, 0, 1, TP_REFUSE_COLD, 0, 0 },
	{ "seed, bypass off: not young is checked", ST_S, 0, TP_ST_POL_BYPASS,
	  ST_K, ST_K, 10, 1, 0, 1, TP_REFUSE_NOT_YOUNG, 0, 0 },
	{ "mainline, bypass off: a hot page is a candidate", ST_M, 0,
	  TP_ST_POL_BYPASS, ST_K, ST_K, 10, 1, 0, 1, TP_PROMOTE, 1, 0 },
	{ "seed mark only (40000 > 30000): seed bypasses", ST_S, 0, 0, ST_K,
	  ST_K, ST_UNK, 1, 0, 2, TP_PROMOTE_NRL, 0, 1 },
	{ "seed mark only (40000 < 274144): mainline cold", ST_M, 0, 0, ST_K,
	  ST_K, ST_UNK, 1, 0, 2, TP_REFUSE_COLD, 0, 0 },
	{ "mainline mark only: seed cold", ST_S, 0, 0, ST_K, ST_K, ST_UNK, 1,
	  ST_Y, 3, TP_REFUSE_COLD, 0, 0 },
	{ "mainline mark only: mainline bypasses", ST_M, 0, 0, ST_K, ST_K,
	  ST_UNK, 1, 0, 3, TP_PROMOTE_NRL, 0, 1 },
	{ "seed: bypass without room for 30000 pages", ST_S, 0, 0, ST_K, ST_K,
	  ST_UNK, 30000, 0, 8, TP_REFUSE_NOSPACE, 0, 1 },
	{ "mainline: bypass without room for 300000 pages", ST_M, 0, 0, ST_K,
	  ST_K, ST_UNK, 300000, 0, 1, TP_REFUSE_NOSPACE, 0, 1 },
	/* the mode and the top tier */
	{ "seed: mode 0x1 never promotes", ST_S, 0, 0, TP_MODE_NORMAL, ST_K, 10,
	  1, ST_Y, 1, TP_REFUSE_MODE, 0, 0 },
	{ "mainline: mode 0x1 never promotes", ST_M, 0, 0, TP_MODE_NORMAL, ST_K,
	  10, 1, 0, 0, TP_REFUSE_MODE, 0, 0 },
	{ "mode 0 never promotes", ST_M, 0, 0, TP_MODE_DISABLED, ST_K, 10, 1, 0,
	  1, TP_REFUSE_MODE, 0, 0 },
	{ "mode 0x3 promotes", ST_M, 0, 0, TP_MODE_NORMAL | TP_MODE_TIERING,
	  ST_K, 10, 1, 0, 0, TP_PROMOTE, 1, 0 },
	{ "top tier is refused", ST_M, 0, 0, ST_K, ST_K, 10, 1,
	  TP_FAULT_TOPTIER, 1, TP_REFUSE_TOPTIER, 0, 0 },
	{ "top tier is refused (seed)", ST_S, 0, 0, ST_K, ST_K, 10, 1,
	  TP_FAULT_TOPTIER | ST_Y, 0, TP_REFUSE_TOPTIER, 0, 0 },
	{ "mode 0x1 is checked before the top tier", ST_S, 0, 0, TP_MODE_NORMAL,
	  ST_K, 10, 1, TP_FAULT_TOPTIER, 0, TP_REFUSE_MODE, 0, 0 },
	/* room: free > high + nr, strictly */
	{ "free == high + 1: no room for 1 page", ST_M, 0, 0, ST_K, ST_K, 10, 1,
	  0, 4, TP_REFUSE_NOSPACE, 1, 0 },
	{ "free == high + 2: room for 1 page", ST_M, 0, 0, ST_K, ST_K, 10, 1, 0,
	  5, TP_PROMOTE, 1, 0 },
	{ "free == high + 512: no room for a THP", ST_S, 0, 0, ST_K, ST_K, 10,
	  512, ST_Y, 6, TP_REFUSE_NOSPACE, 1, 0 },
	{ "free == high + 513: room for a THP", ST_S, 0, 0, ST_K, ST_K, 10, 512,
	  ST_Y, 7, TP_PROMOTE, 1, 0 },
	/* rate limit 0 */
	{ "mainline, rate 0: limited", ST_M, 0, 0, ST_K, 0, 10, 1, 0, 0,
	  TP_REFUSE_RATELIMIT, 1, 0 },
	{ "mainline, rate 0, token bucket: limited", ST_M, TP_ST_POL_BUCKET, 0,
	  ST_K, 0, 10, 1, 0, 0, TP_REFUSE_RATELIMIT, 1, 0 },
	{ "seed, rate 0 = high watermark: promotes", ST_S, 0, 0, ST_K, 0, 10, 1,
	  ST_Y, 0, TP_PROMOTE, 1, 0 },
	/* the seed's bypass mark is then high: any room bypasses */
	{ "seed, rate 0 without RL_WMARK_DEFAULT: bypass", ST_S, 0,
	  TP_POL_RL_WMARK_DEFAULT, ST_K, 0, 10, 1, ST_Y, 0, TP_PROMOTE_NRL, 0,
	  1 },
	{ "seed, rate 0 without RL_WMARK_DEFAULT: limited", ST_S, 0,
	  TP_POL_RL_WMARK_DEFAULT, ST_K, 0, 10, 1, ST_Y, 9, TP_REFUSE_RATELIMIT,
	  1, 0 },
	{ "seed, rate 0, token bucket: limited", ST_S, TP_ST_POL_BUCKET,
	  TP_POL_RL_WMARK_DEFAULT, ST_K, 0, 10, 1, ST_Y, 9, TP_REFUSE_RATELIMIT,
	  1, 0 },
	/* no hotness check at all */
	{ "without HOTNESS a cold page is a candidate", ST_M, 0,
	  TP_ST_POL_HOT_DEPS, ST_K, ST_K, ST_UNK, 1, 0, 0, TP_PROMOTE, 1, 0 },
};

#undef ST_S
#undef ST_M
#undef ST_K
#undef ST_Y
#undef ST_W
#undef ST_UNK

static void tp_st_pol_check_decisions(struct tp_st *st)
{
	const struct tp_st_pol_dec *r;
	struct tp_node_stats *s = &tp_st_pol_stats;
	struct tp_fault f;
	unsigned int i;
	bool ok;
	int v;

	for (i = 0; i < TP_ST_ARRAY_SIZE(tp_st_pol_dec_rows); i++) {
		r = &tp_st_pol_dec_rows[i];
		ok = tp_st_pol_setup(r->preset, r->set, r->clr, r->mode,
				     r->rate);
		f.latency = r->latency;
		f.nr_pages = r->nr;
		f.flags = r->fflags;
		v = tp_decide(&tp_st_pol_pol, &tp_st_pol_node, &f,
			      &tp_st_pol_mems[r->mem], 1);
		ok = ok && v == r->verdict;
		tp_node_stats(&tp_st_pol_node, s);
		ok = ok && tp_st_pol_vcount(s, v) == r->nr &&
		     s->decided == r->nr &&
		     s->pgpromote_candidate == r->cand * r->nr &&
		     s->pgpromote_candidate_nrl == r->nrl * r->nr &&
		     s->pgpromote_success ==
		     (tp_verdict_promotes(v) ? r->nr : 0);
		TP_ST_CHECK(st, ok, r->name);
	}
}

/* ---- sequences: burst cut at the limit, the bypass reset ----------------- */

struct tp_st_pol_burst {
	const char *name;
	u32 limv;
	u64 admitted;	/* of 1000 single pages at one instant, 256/s */
};

static const struct tp_st_pol_burst tp_st_pol_burst_rows[] = {
	{ "burst cut: token bucket admits the burst", TP_LIMITER_BUCKET, 256 },
	{ "burst cut: seed window admits the limit", TP_LIMITER_WINDOW_SEED,
	  256 },
	{ "burst cut: mainline window refuses the limit-th",
	  TP_LIMITER_WINDOW_MAINLINE, 255 },
};

static void tp_st_pol_check_burst(struct tp_st *st)
{
	const struct tp_st_pol_burst *r;
	struct tp_node_stats *s = &tp_st_pol_stats;
	struct tp_fault f = { .latency = 1, .nr_pages = 1, .flags = 0 };
	unsigned int i, k, prom;
	bool ok;
	int v;

	for (i = 0; i < TP_ST_ARRAY_SIZE(tp_st_pol_burst_rows); i++) {
		r = &tp_st_pol_burst_rows[i];
		/* mainline, 1 MB/s = 256 pages/s */
		ok = tp_st_pol_setup(TP_PRESET_MAINLINE, 0, 0, TP_ST_POL_KEEP,
				     1);
		tp_st_pol_cfg.limiter_variant = r->limv;
		ok = ok && !tp_policy_init(&tp_st_pol_pol, &tp_st_pol_cfg) &&
		     !tp_node_init(&tp_st_pol_node, &tp_st_pol_pol, 0);
		prom = 0;
		for (k = 0; k < 1000; k++) {
			v = tp_decide(&tp_st_pol_pol, &tp_st_pol_node, &f,
				      &tp_st_pol_mems[0], 5);
			if (v == TP_PROMOTE)
				prom++;
			else if (v != TP_REFUSE_RATELIMIT)
				ok = false;
			/* cut at the limit: no promotion after a refusal */
			if (v == TP_PROMOTE && prom != k + 1)
				ok = false;
		}
		tp_node_stats(&tp_st_pol_node, s);
		ok = ok && prom == r->admitted && s->promote_hot == prom &&
		     s->refused_ratelimit == 1000 - prom &&
		     s->pgpromote_candidate == 1000 && s->decided == 1000;
		TP_ST_CHECK(st, ok, r->name);
	}
}

static void tp_st_pol_check_bypass_reset(struct tp_st *st)
{
	struct tp_node_stats *s = &tp_st_pol_stats;
	struct tp_fault f = { .latency = 1, .nr_pages = 1, .flags = 0 };
	unsigned int pass, k;
	bool ok;

	for (pass = 0; pass < 2; pass++) {
		/* mainline, 1 MB/s: 25 candidates per 100 ms period */
		ok = tp_st_pol_setup(TP_PRESET_MAINLINE, 0,
				     pass ? TP_POL_BYPASS_RESET : 0,
				     TP_ST_POL_KEEP, 1);
		tp_st_pol_cfg.scan_period_max_ms = 100;
		ok = ok && !tp_policy_init(&tp_st_pol_pol, &tp_st_pol_cfg) &&
		     !tp_node_init(&tp_st_pol_node, &tp_st_pol_pol, 0);
		for (k = 0; k < 200; k++)
			tp_decide(&tp_st_pol_pol, &tp_st_pol_node, &f,
				  &tp_st_pol_mems[0], 1);
		/* the next period's first decision lowers the threshold */
		tp_decide(&tp_st_pol_pol, &tp_st_pol_node, &f,
			  &tp_st_pol_mems[0], 102);
		tp_node_stats(&tp_st_pol_node, s);
		ok = ok && s->threshold == 875 && s->th_lowered == 1;
		/* a cold page through the bypass */
		f.latency = TP_LATENCY_UNKNOWN;
		ok = ok && tp_decide(&tp_st_pol_pol, &tp_st_pol_node, &f,
				     &tp_st_pol_mems[1], 103) ==
			   TP_PROMOTE_NRL;
		f.latency = 1;
		tp_node_stats(&tp_st_pol_node, s);
		ok = ok && s->threshold == (pass ? 875 : 1000);
		TP_ST_CHECK(st, ok, pass ? "bypass keeps the threshold" :
					   "bypass resets the threshold");
	}
}

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
	/* seed: free > high + 2 * rate limit */
	{ "seed 4 KiB 100 MB/s: at the mark", 0, 12, 100, 1000, 1000, 0,
	  1000 + 2 * 25600, false },
	{ "seed 4 KiB 100 MB/s: above", 0, 12, 100, 1000, 1000, 0,
	  1000 + 2 * 25600 + 1, true },
	{ "seed 16 KiB 100 MB/s: at the mark", 0, 14, 100, 1000, 1000, 0,
	  1000 + 2 * 6400, false },
	{ "seed 16 KiB 100 MB/s: above", 0, 14, 100, 1000, 1000, 0,
	  1000 + 2 * 6400 + 1, true },
	{ "seed 64 KiB 100 MB/s: at the mark", 0, 16, 100, 1000, 1000, 0,
	  1000 + 2 * 1600, false },
	{ "seed 64 KiB 100 MB/s: above", 0, 16, 100, 1000, 1000, 0,
	  1000 + 2 * 1600 + 1, true },
	{ "seed rate = high: at 3 x high", 0, 12, 0, 7000, 7000, 0, 21000,
	  false },
	{ "seed rate = high: above 3 x high", 0, 12, 0, 7000, 7000, 0, 21001,
	  true },
	{ "seed 65536 MB/s: 2^25 + high", 0, 12, 65536, 5, 5, 0,
	  (1ULL << 25) + 5, false },
	/* mainline: free > promo + max(1 GiB, present / 16) */
	{ "mainline 4 KiB: 1 GiB margin, at", 1, 12, 0, 1000, 2000, 1000,
	  2000 + 262144, false },
	{ "mainline 4 KiB: 1 GiB margin, above", 1, 12, 0, 1000, 2000, 1000,
	  2000 + 262144 + 1, true },
	{ "mainline 16 KiB: 1 GiB margin, at", 1, 14, 0, 1000, 2000, 1000,
	  2000 + 65536, false },
	{ "mainline 16 KiB: 1 GiB margin, above", 1, 14, 0, 1000, 2000, 1000,
	  2000 + 65536 + 1, true },
	{ "mainline 64 KiB: 1 GiB margin, at", 1, 16, 0, 1000, 2000, 1000,
	  2000 + 16384, false },
	{ "mainline 64 KiB: 1 GiB margin, above", 1, 16, 0, 1000, 2000, 1000,
	  2000 + 16384 + 1, true },
	{ "mainline 4 KiB: present / 16, at", 1, 12, 0, 1000, 2000,
	  1ULL << 28, 2000 + (1ULL << 24), false },
	{ "mainline 4 KiB: present / 16, above", 1, 12, 0, 1000, 2000,
	  1ULL << 28, 2000 + (1ULL << 24) + 1, true },
	{ "mainline 64 KiB: present / 16, above", 1, 16, 0, 1000, 2000,
	  1ULL << 20, 2000 + 65536 + 1, true },
	{ "mainline: the rate limit does not matter", 1, 12, 65535, 1000,
	  2000, 1000, 2000 + 262144 + 1, true },
	{ "mainline: huge watermarks saturate", 1, 12, 0, ~0ULL - 5,
	  ~0ULL - 5, 1000, ~0ULL, false },
};

static void tp_st_pol_check_free(struct tp_st *st)
{
	const struct tp_st_pol_free *r;
	struct tp_node_mem mem;
	unsigned int i;
	bool ok;

	for (i = 0; i < TP_ST_ARRAY_SIZE(tp_st_pol_free_rows); i++) {
		r = &tp_st_pol_free_rows[i];
		ok = tp_st_pol_setup(r->wmv ? TP_PRESET_MAINLINE :
					      TP_PRESET_SEED, 0, 0,
				     TP_ST_POL_KEEP, r->rate);
		tp_st_pol_cfg.page_shift = r->shift;
		ok = ok && !tp_policy_init(&tp_st_pol_pol, &tp_st_pol_cfg) &&
		     !tp_node_init(&tp_st_pol_node, &tp_st_pol_pol, 0);
		mem.free = r->free;
		mem.wmark_min = 0;
		mem.wmark_low = 0;
		mem.wmark_high = r->high;
		mem.wmark_promo = r->promo;
		mem.present = r->present;
		ok = ok && tp_free_space_enough(&tp_st_pol_pol, &mem) ==
			   r->enough;
		/* and tp_decide() agrees on a cold single page */
		{
			struct tp_fault f = { .latency = TP_LATENCY_UNKNOWN,
					      .nr_pages = 1,
					      .flags = TP_FAULT_YOUNG };
			int v = tp_decide(&tp_st_pol_pol, &tp_st_pol_node, &f,
					  &mem, 1);

			ok = ok && (v == TP_PROMOTE_NRL) == r->enough;
		}
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
	{ "demotion: seed, rate = high", TP_PRESET_SEED, TP_ST_POL_KEEP,
	  TP_ST_POL_KEEP, 2000 },
	{ "demotion: seed, 100 MB/s", TP_PRESET_SEED, TP_ST_POL_KEEP, 100,
	  1000 + 25600 },
	{ "demotion: seed, mode 0x3", TP_PRESET_SEED, 3, TP_ST_POL_KEEP,
	  2000 },
	{ "demotion: seed, mode 0x1: high", TP_PRESET_SEED, 1, TP_ST_POL_KEEP,
	  1000 },
	{ "demotion: seed, mode 0: high", TP_PRESET_SEED, 0, TP_ST_POL_KEEP,
	  1000 },
	{ "demotion: mainline: promo", TP_PRESET_MAINLINE, TP_ST_POL_KEEP,
	  TP_ST_POL_KEEP, 1500 },
	{ "demotion: mainline, mode 0x3: promo", TP_PRESET_MAINLINE, 3,
	  TP_ST_POL_KEEP, 1500 },
	{ "demotion: mainline, mode 0x1: high", TP_PRESET_MAINLINE, 1,
	  TP_ST_POL_KEEP, 1000 },
	{ "demotion: mainline, mode 0: high", TP_PRESET_MAINLINE, 0,
	  TP_ST_POL_KEEP, 1000 },
};

static void tp_st_pol_check_demote(struct tp_st *st)
{
	static const struct tp_node_mem mem = {
		.free = 0, .wmark_min = 500, .wmark_low = 750,
		.wmark_high = 1000, .wmark_promo = 1500, .present = 100000,
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
			ok = tp_st_pol_setup(TP_PRESET_SEED, 0, 0, mode,
					     TP_ST_POL_KEEP);
			ok = ok && tp_scan_wanted(&tp_st_pol_pol, top) ==
				   !!(want & (1U << (2 * mode + top)));
			TP_ST_CHECK(st, ok, "tp_scan_wanted by mode and tier");
		}
	}
}

/* ---- pseudo-interleaving (seed 001) -------------------------------------- */

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
	{ "local fault is local", 0, true, true, false, 0, 9, 4, 200, true },
	{ "local fault is local (mainline)", 1, true, false, false, 0, 9, 4,
	  200, true },
	{ "private fault within the set: not local", 0, false, true, true,
	  0, 1, 0, 200, false },
	{ "shared fault, no group: not local", 0, false, false, false, 0, 1,
	  0, 200, false },
	{ "seed: shared fault within the set: local", 0, false, false, true,
	  0, 1, 0, 200, true },
	{ "seed: memory outside the set", 0, false, false, true, 0, 2, 0,
	  200, false },
	{ "seed: CPU outside the set", 0, false, false, true, 2, 1, 0, 200,
	  false },
	{ "seed: one active node suffices", 0, false, false, true, 3, 3, 1,
	  200, true },
	{ "mainline: one active node is not enough", 1, false, false, true,
	  3, 3, 1, 200, false },
	{ "mainline: two active nodes", 1, false, false, true, 1, 0, 0, 200,
	  true },
	{ "mainline: nodes 70 and 199 of 200", 1, false, false, true, 70, 199,
	  2, 200, true },
	{ "seed: nodes 130 and 199 of 200", 0, false, false, true, 130, 199,
	  2, 200, true },
	{ "seed: node 131 not active", 0, false, false, true, 130, 131, 2,
	  200, false },
	{ "seed: node 200 is beyond 200 bits", 0, false, false, true, 199,
	  200, 2, 200, false },
	{ "mainline: a bit beyond nbits is not a node", 1, false, false,
	  true, 5, 5, 3, 200, false },
	{ "seed: node 201 of 256 bits", 0, false, false, true, 5, 201, 3, 256,
	  true },
	{ "mainline: node 201 of 256 bits", 1, false, false, true, 201, 5, 3,
	  256, true },
	{ "empty set", 0, false, false, true, 0, 0, 4, 200, false },
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
	{ "seed: into an active node", 0, true, 1, 7, 0, 200, 1 },
	{ "seed: into an inactive node: unchanged", 0, true, 2, 7, 0, 200,
	  -1 },
	{ "seed: no group: unchanged", 0, false, 1, 7, 0, 200, -1 },
	{ "seed: no CPU found: unchanged", 0, true, -1, 7, 0, 200, -1 },
	{ "seed: node 199 of 200", 0, true, 199, 7, 2, 200, 199 },
	{ "seed: node 201 beyond 200 bits", 0, true, 201, 7, 3, 200, -1 },
	{ "mainline: the best CPU's node", 1, true, 2, 7, 0, 200, 2 },
	{ "mainline: no CPU found: the source", 1, true, -1, 7, 0, 200, 7 },
	{ "mainline: no group: unchanged", 1, false, 1, 7, 0, 200, -1 },
	{ "mainline: node 199", 1, true, 199, 7, 4, 200, 199 },
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
 * tp_st_policy() - run the decision pipeline's vectors
 * @st: the run
 *
 * Return: the number of failed cases this call added.
 */
static int tp_st_policy(struct tp_st *st)
{
	unsigned int failed = st->failed;

	tp_st_pol_check_presets(st);
	tp_st_pol_check_cfgs(st);
	tp_st_pol_check_decisions(st);
	tp_st_pol_check_burst(st);
	tp_st_pol_check_bypass_reset(st);
	tp_st_pol_check_free(st);
	tp_st_pol_check_demote(st);
	tp_st_pol_check_promo(st);
	tp_st_pol_check_scan(st);
	tp_st_pol_check_local(st);
	tp_st_pol_check_retry(st);
	tp_st_pol_check_pref(st);
	return st->failed - failed;
}

#endif /* _TIERPOL_SELFTEST_POLICY_H */
