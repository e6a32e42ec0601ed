/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Self-test vectors of the policy (the 2020 RFC, patches 1/8 to 8/8; the
 * 2026 bypass knob; Linux 6.1): the presets, the validation of init and
 * tune, the names of verdicts and errors, and the helpers the other policy
 * vectors use. tp_st_policy() runs them all: these, the decisions
 * (decide.h) and the watermark, scan and pseudo-interleaving helpers
 * (wmark.h), which this header includes. Shared by the CMocka suite and
 * the kernel self-test module: public API only, no libc, no 64-bit
 * division, small stack frames (the policy, the node, its slot and the
 * snapshot are static).
 *
 * One slot (struct tp_node_cpu) stands for the one CPU deciding. Vectors
 * whose answer depends on the shared candidate count set the candidate
 * batch explicitly: 1 (exact) or the preset's %TP_DEFAULT_CAND_BATCH.
 */
#ifndef TP_SELFTEST_POLICY_H
#define TP_SELFTEST_POLICY_H

#include "selftest.h"

#ifndef EINVAL
#define EINVAL		22
#endif
#ifndef ERANGE
#define ERANGE		34
#endif
#ifndef ENOENT
#define ENOENT		2
#endif
#ifndef EBUSY
#define EBUSY		16
#endif

/* "Keep the preset's value" in the tables below. */
#define TP_ST_POL_KEEP	0xffffffffU

/* Every switch that needs TP_POL_HOTNESS, and the bypass reset. */
#define TP_ST_POL_HOT_DEPS	(TP_POL_HOTNESS | TP_POL_ADAPTIVE | \
				 TP_POL_WRITE_DOUBLE | TP_POL_HOT_STRICT | \
				 TP_POL_BYPASS_RESET)
#define TP_ST_POL_BYPASS	(TP_POL_FREE_BYPASS | TP_POL_BYPASS_RESET)
/*
 * Not switches: in a row's @set, they select the token bucket limiter,
 * Linux 6.1's watermarks and Linux 6.1's threshold controller, or (in
 * decide.h's rows) have a page open the window before the row's request.
 */
#define TP_ST_POL_BUCKET	0x80000000U
#define TP_ST_POL_WM61		0x40000000U
#define TP_ST_POL_TH61		0x20000000U
#define TP_ST_POL_OPEN		0x10000000U
#define TP_ST_POL_VARIANTS	(TP_ST_POL_BUCKET | TP_ST_POL_WM61 | \
				 TP_ST_POL_TH61 | TP_ST_POL_OPEN)

/*
 * The configuration, followed by bytes a newer header would add: the
 * library reads up to cfg.sz bytes, and refuses non-zero unknown ones.
 */
static struct {
	struct tp_policy_cfg c;
	u64 tail[2];
} tp_st_pol_big;

static struct tp_policy tp_st_pol_pol, tp_st_pol_copy;
static struct tp_node tp_st_pol_node, tp_st_pol_node_copy;
static struct tp_node_cpu tp_st_pol_cpu;
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

/* A node and a zeroed slot for the policy, at @now. */
static bool tp_st_pol_node_setup(u64 now)
{
	tp_st_pol_fill(&tp_st_pol_cpu, sizeof(tp_st_pol_cpu), 0);
	return !tp_node_init(&tp_st_pol_node, &tp_st_pol_pol, now);
}

/* The configuration as it is, into the policy; a fresh node at 0. */
static bool tp_st_pol_reinit(void)
{
	return !tp_policy_init(&tp_st_pol_pol, &tp_st_pol_big.c) &&
	       tp_st_pol_node_setup(0);
}

/* A preset at 1000 ticks/s with the changes of a table row. */
static bool tp_st_pol_setup(u32 preset, u32 set, u32 clr, u32 mode, u32 rate)
{
	struct tp_policy_cfg *c = &tp_st_pol_big.c;

	if (tp_policy_preset(c, preset, 1000))
		return false;
	if (set & TP_ST_POL_BUCKET)
		c->limiter_variant = TP_LIMITER_BUCKET;
	if (set & TP_ST_POL_WM61)
		c->wmark_variant = TP_WMARK_LINUX61;
	if (set & TP_ST_POL_TH61)
		c->thresh_variant = TP_THRESH_LINUX61;
	c->flags = (c->flags | (set & ~TP_ST_POL_VARIANTS)) & ~clr;
	if (mode != TP_ST_POL_KEEP)
		c->mode = mode;
	if (rate != TP_ST_POL_KEEP)
		c->rate_limit_mbps = rate;
	return tp_st_pol_reinit();
}

/* One decision on the node, from the slot. */
static int tp_st_pol_decide(u64 latency, u64 nr, u32 flags,
			    const struct tp_node_mem *mem, u64 now)
{
	struct tp_fault f = { .latency = latency, .nr_pages = nr,
			      .flags = flags };

	return tp_decide(&tp_st_pol_pol, &tp_st_pol_node, &tp_st_pol_cpu, &f,
			 mem, now);
}

/*
 * A snapshot of the node and its one slot, checked for consistency: every
 * figure is a sum of the slot's counters, so decided is the sum of the
 * verdicts, the candidates are the hot promotions, rate-limit refusals,
 * refusals for room off the bypass path and busy candidates, and no figure
 * exceeds what it is part of. Returns false if the snapshot contradicts
 * itself.
 */
static bool tp_st_pol_snap(void)
{
	struct tp_node_stats *s = &tp_st_pol_stats;
	u64 sum = 0, hot_nospace;
	unsigned int v;

	tp_st_pol_fill(s, sizeof(*s), 0xa5);
	tp_node_stats_read(&tp_st_pol_pol, &tp_st_pol_node, s);
	tp_node_stats_add(s, &tp_st_pol_cpu);
	for (v = 0; v < TP_NR_VERDICTS; v++)
		sum += s->verdict[v];
	if (sum != s->decided || s->nospace_nrl > s->verdict[TP_REFUSE_NOSPACE])
		return false;
	hot_nospace = s->verdict[TP_REFUSE_NOSPACE] - s->nospace_nrl;
	return s->candidate >= s->verdict[TP_PROMOTE] +
			       s->verdict[TP_REFUSE_RATELIMIT] + hot_nospace &&
	       s->candidate <= s->verdict[TP_PROMOTE] +
			       s->verdict[TP_REFUSE_RATELIMIT] + hot_nospace +
			       s->verdict[TP_REFUSE_BUSY] &&
	       s->candidate_nrl == s->verdict[TP_PROMOTE_NRL] +
				   s->nospace_nrl &&
	       s->success == s->verdict[TP_PROMOTE] +
			     s->verdict[TP_PROMOTE_NRL] &&
	       s->cand_shared <= s->candidate;
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
	{ "RFC 2020 preset", TP_PRESET_RFC2020,
	  TP_POL_HOTNESS | TP_POL_FREE_BYPASS | TP_POL_YOUNG |
	  TP_POL_WRITE_DOUBLE | TP_POL_ADAPTIVE | TP_POL_RL_WMARK_DEFAULT,
	  0, TP_THRESH_RFC2020, TP_LIMITER_WINDOW_RFC2020, TP_WMARK_RFC2020 },
	{ "Linux 6.1 preset", TP_PRESET_LINUX61,
	  TP_POL_HOTNESS | TP_POL_FREE_BYPASS | TP_POL_ADAPTIVE |
	  TP_POL_HOT_STRICT | TP_POL_BYPASS_RESET,
	  65536, TP_THRESH_LINUX61, TP_LIMITER_WINDOW_LINUX61,
	  TP_WMARK_LINUX61 },
};

static void tp_st_pol_check_presets(struct tp_st *st)
{
	const struct tp_st_pol_preset *r;
	struct tp_policy_cfg *c = &tp_st_pol_big.c;
	unsigned int i;
	bool ok;

	for (i = 0; i < TP_ST_ARRAY_SIZE(tp_st_pol_preset_rows); i++) {
		r = &tp_st_pol_preset_rows[i];
		tp_st_pol_fill(c, sizeof(*c), 0xee);
		ok = !tp_policy_preset(c, r->preset, 250);
		ok = ok && c->sz == sizeof(*c) &&
		     c->mode == TP_MODE_TIERING && c->flags == r->flags &&
		     c->tps == 250 && c->page_shift == 12 &&
		     c->hot_threshold_ms == 1000 &&
		     c->rate_limit_mbps == r->rate &&
		     c->scan_period_max_ms == 60000 &&
		     c->thresh_variant == r->thv &&
		     c->limiter_variant == r->limv &&
		     c->wmark_variant == r->wmv &&
		     c->cand_batch == TP_DEFAULT_CAND_BATCH &&
		     c->burst_pages == 0;
		ok = ok && !tp_policy_init(&tp_st_pol_pol, c);
		TP_ST_CHECK(st, ok, r->name);
	}
	/* bad presets leave the configuration alone */
	tp_st_pol_fill(c, sizeof(*c), 0xee);
	tp_st_pol_fill(&tp_st_pol_copy, sizeof(*c), 0xee);
	ok = tp_policy_preset(c, 2, 1000) == -EINVAL;
	ok = ok && tp_policy_preset(c, ~0U, 1000) == -EINVAL;
	ok = ok && tp_policy_preset(NULL, TP_PRESET_RFC2020, 1000) == -EINVAL;
	ok = ok && tp_st_pol_same(c, &tp_st_pol_copy, sizeof(*c));
	TP_ST_CHECK(st, ok, "unknown preset, NULL config");
	/* tps is checked by init, not by the preset */
	ok = !tp_policy_preset(c, TP_PRESET_LINUX61, 0) && c->tps == 0;
	tp_st_pol_fill(&tp_st_pol_pol, sizeof(tp_st_pol_pol), 0x33);
	tp_st_pol_copy = tp_st_pol_pol;
	ok = ok && tp_policy_init(&tp_st_pol_pol, c) == -EINVAL &&
	     tp_st_pol_same(&tp_st_pol_pol, &tp_st_pol_copy,
			    sizeof(tp_st_pol_pol));
	TP_ST_CHECK(st, ok, "preset with tps 0: init refuses it");
}

/* ---- tp_policy_init() and tp_policy_tune() validation -------------------- */

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
	TP_ST_F_BUCKET_BURST,	/* the token bucket with this burst */
	TP_ST_F_BATCH,
	TP_ST_F_HOT_MS,
	TP_ST_F_PERIOD_MS,
	TP_ST_F_SZ,
	TP_ST_F_TAIL,		/* the last word of a newer header */
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

#define TP_ST_POL_BIG	sizeof(tp_st_pol_big)
#define TP_ST_POL_SZ	sizeof(struct tp_policy_cfg)

static const struct tp_st_pol_bad tp_st_pol_bad_rows[] = {
	{ "NULL config", TP_ST_F_NULLCFG, 0, 0, 0, -EINVAL },
	{ "NULL policy", TP_ST_F_NULLPOL, 0, 0, 0, -EINVAL },
	{ "mode 4", TP_ST_F_MODE, 4, 0, 0, -EINVAL },
	{ "mode ~0", TP_ST_F_MODE, ~0U, 0, 0, -EINVAL },
	{ "mode 3", TP_ST_F_MODE, 3, 0, 0, 0 },
	{ "mode 0", TP_ST_F_MODE, 0, 0, 0, 0 },
	{ "unknown flag 0x200", TP_ST_F_FLAGS, TP_POL_HOTNESS | 0x200, 0, 0,
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
	{ "every switch (a window limiter)", TP_ST_F_FLAGS, TP_POL_ALL, 0, 0,
	  0 },
	{ "RL_WMARK_DEFAULT with the token bucket", TP_ST_F_FLAGS,
	  TP_POL_HOTNESS | TP_POL_RL_WMARK_DEFAULT, TP_ST_F_LIMV,
	  TP_LIMITER_BUCKET, -EINVAL },
	{ "RL_WMARK_DEFAULT with the 2020 RFC's window", TP_ST_F_FLAGS,
	  TP_POL_RL_WMARK_DEFAULT, TP_ST_F_LIMV, TP_LIMITER_WINDOW_RFC2020,
	  0 },
	{ "RL_WMARK_DEFAULT with Linux 6.1's window", TP_ST_F_FLAGS,
	  TP_POL_RL_WMARK_DEFAULT, TP_ST_F_LIMV, TP_LIMITER_WINDOW_LINUX61,
	  0 },
	{ "tps 0", TP_ST_F_TPS, 0, 0, 0, -EINVAL },
	{ "tps TP_TPS_MAX + 1", TP_ST_F_TPS, TP_TPS_MAX + 1ULL, 0, 0,
	  -EINVAL },
	{ "tps 1 (a tune must keep 1000)", TP_ST_F_TPS, 1, 0, 0, 0 },
	{ "tps TP_TPS_MAX (a tune must keep 1000)", TP_ST_F_TPS, TP_TPS_MAX,
	  0, 0, 0 },
	{ "page_shift 9", TP_ST_F_SHIFT, 9, 0, 0, -EINVAL },
	{ "page_shift 31", TP_ST_F_SHIFT, 31, 0, 0, -EINVAL },
	{ "page_shift 0 (4 KiB)", TP_ST_F_SHIFT, 0, 0, 0, 0 },
	{ "page_shift 12", TP_ST_F_SHIFT, 12, 0, 0, 0 },
	{ "page_shift 14", TP_ST_F_SHIFT, 14, 0, 0, 0 },
	{ "page_shift 16", TP_ST_F_SHIFT, 16, 0, 0, 0 },
	{ "page_shift 21", TP_ST_F_SHIFT, 21, 0, 0, 0 },
	{ "thresh_variant 3", TP_ST_F_THV, 3, 0, 0, -EINVAL },
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
	{ "burst TP_RATE_MAX (a window ignores it)", TP_ST_F_BURST,
	  TP_RATE_MAX, 0, 0, 0 },
	{ "burst TP_RATE_MAX + 1", TP_ST_F_BURST, TP_RATE_MAX + 1, 0, 0,
	  -ERANGE },
	/*
	 * 1 MB/s = 256 pages/s at 1000 ticks/s: a page costs 1000 x 2^31
	 * units, and the bucket holds at most 2^61.
	 */
	{ "bucket at 1 MB/s: burst 1073741 fits", TP_ST_F_BUCKET_BURST,
	  1073741, TP_ST_F_RATE, 1, 0 },
	{ "bucket at 1 MB/s: burst 1073742 does not", TP_ST_F_BUCKET_BURST,
	  1073742, TP_ST_F_RATE, 1, -ERANGE },
	{ "bucket at 1 MB/s: burst TP_RATE_MAX does not",
	  TP_ST_F_BUCKET_BURST, TP_RATE_MAX, TP_ST_F_RATE, 1, -ERANGE },
	{ "bucket at rate 0: any burst (nothing is admitted)",
	  TP_ST_F_BUCKET_BURST, TP_RATE_MAX, TP_ST_F_RATE, 0, 0 },
	{ "bucket at 2^24 MB/s: burst TP_RATE_MAX", TP_ST_F_BUCKET_BURST,
	  TP_RATE_MAX, TP_ST_F_RATE, 1U << 24, 0 },
	{ "cand_batch 0 (each at once)", TP_ST_F_BATCH, 0, 0, 0, 0 },
	{ "cand_batch 1", TP_ST_F_BATCH, 1, 0, 0, 0 },
	{ "cand_batch TP_CAND_BATCH_MAX", TP_ST_F_BATCH, TP_CAND_BATCH_MAX, 0,
	  0, 0 },
	{ "cand_batch TP_CAND_BATCH_MAX + 1", TP_ST_F_BATCH,
	  TP_CAND_BATCH_MAX + 1, 0, 0, -EINVAL },
	{ "cand_batch ~0", TP_ST_F_BATCH, ~0U, 0, 0, -EINVAL },
	{ "hot_threshold_ms 0 (a threshold of 0)", TP_ST_F_HOT_MS, 0, 0, 0,
	  0 },
	{ "hot_threshold_ms ~0", TP_ST_F_HOT_MS, ~0U, 0, 0, 0 },
	{ "hot_threshold_ms ~0 at 2^30 ticks/s", TP_ST_F_HOT_MS, ~0U,
	  TP_ST_F_TPS, TP_TPS_MAX, 0 },
	{ "scan_period_max_ms 0 (every tick)", TP_ST_F_PERIOD_MS, 0, 0, 0, 0 },
	{ "scan_period_max_ms ~0", TP_ST_F_PERIOD_MS, ~0U, 0, 0, 0 },
	{ "sz 0", TP_ST_F_SZ, 0, 0, 0, -EINVAL },
	{ "sz one byte short", TP_ST_F_SZ, TP_ST_POL_SZ - 1, 0, 0, -EINVAL },
	{ "sz without burst_pages", TP_ST_F_SZ,
	  offsetof(struct tp_policy_cfg, burst_pages), 0, 0, -EINVAL },
	{ "sz of a newer header, zero tail", TP_ST_F_SZ, TP_ST_POL_BIG, 0, 0,
	  0 },
	{ "sz of a newer header, non-zero tail", TP_ST_F_SZ, TP_ST_POL_BIG,
	  TP_ST_F_TAIL, 1, -EINVAL },
	{ "exact sz, bytes beyond it ignored", TP_ST_F_TAIL, ~0ULL, 0, 0, 0 },
	{ "sz above 4096", TP_ST_F_SZ, 4097, 0, 0, -EINVAL },
	{ "sz ~0", TP_ST_F_SZ, ~0U, 0, 0, -EINVAL },
	/* every error leaves the object untouched, whichever is found */
	{ "mode 4 and a burst above the range", TP_ST_F_MODE, 4, TP_ST_F_BURST,
	  ~0ULL, -EINVAL },
	{ "sz 0 and tps 0", TP_ST_F_SZ, 0, TP_ST_F_TPS, 0, -EINVAL },
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
	case TP_ST_F_BUCKET_BURST:
		c->limiter_variant = TP_LIMITER_BUCKET;
		c->burst_pages = v;
		break;
	case TP_ST_F_BATCH:
		c->cand_batch = (u32)v;
		break;
	case TP_ST_F_HOT_MS:
		c->hot_threshold_ms = (u32)v;
		break;
	case TP_ST_F_PERIOD_MS:
		c->scan_period_max_ms = (u32)v;
		break;
	case TP_ST_F_SZ:
		c->sz = (u32)v;
		break;
	case TP_ST_F_TAIL:
		tp_st_pol_big.tail[1] = v;
		break;
	}
}

/* The Linux 6.1 preset with a row's fields; the tail zeroed first. */
static bool tp_st_pol_row_cfg(const struct tp_st_pol_bad *r)
{
	struct tp_policy_cfg *c = &tp_st_pol_big.c;

	tp_st_pol_fill(&tp_st_pol_big, sizeof(tp_st_pol_big), 0);
	if (tp_policy_preset(c, TP_PRESET_LINUX61, 1000))
		return false;
	tp_st_pol_set_field(c, r->f1, r->v1);
	tp_st_pol_set_field(c, r->f2, r->v2);
	return true;
}

static void tp_st_pol_check_cfgs(struct tp_st *st)
{
	const struct tp_st_pol_bad *r;
	struct tp_policy_cfg *c = &tp_st_pol_big.c;
	struct tp_policy *p;
	const struct tp_policy_cfg *cp;
	unsigned int i;
	int tune_ret;
	bool ok;

	for (i = 0; i < TP_ST_ARRAY_SIZE(tp_st_pol_bad_rows); i++) {
		r = &tp_st_pol_bad_rows[i];
		p = r->f1 == TP_ST_F_NULLPOL ? NULL : &tp_st_pol_pol;
		cp = r->f1 == TP_ST_F_NULLCFG ? NULL : c;

		/* init: untouched on error */
		ok = tp_st_pol_row_cfg(r);
		tp_st_pol_fill(&tp_st_pol_pol, sizeof(tp_st_pol_pol), 0x77);
		tp_st_pol_copy = tp_st_pol_pol;
		ok = ok && tp_policy_init(p, cp) == r->ret;
		if (r->ret)
			ok = ok && tp_st_pol_same(&tp_st_pol_pol,
						  &tp_st_pol_copy,
						  sizeof(tp_st_pol_pol));
		/* an accepted policy makes a node */
		if (!r->ret && p)
			ok = ok && tp_st_pol_node_setup(0);
		TP_ST_CHECK(st, ok, r->name);

		/*
		 * The same settings as a tune of a live policy at 1000 ticks/s:
		 * the same answer, but a different clock is refused too; on
		 * error, nothing changes.
		 */
		tune_ret = r->ret;
		if (!tune_ret && (r->f1 == TP_ST_F_TPS ||
				  r->f2 == TP_ST_F_TPS))
			tune_ret = -EINVAL;
		ok = !tp_policy_preset(c, TP_PRESET_RFC2020, 1000);
		ok = ok && !tp_policy_init(&tp_st_pol_pol, c);
		tp_st_pol_copy = tp_st_pol_pol;
		ok = ok && tp_st_pol_row_cfg(r);
		ok = ok && tp_policy_tune(p, cp) == tune_ret;
		if (tune_ret)
			ok = ok && tp_st_pol_same(&tp_st_pol_pol,
						  &tp_st_pol_copy,
						  sizeof(tp_st_pol_pol));
		else
			ok = ok && !tp_st_pol_same(&tp_st_pol_pol,
						   &tp_st_pol_copy,
						   sizeof(tp_st_pol_pol));
		TP_ST_CHECK(st, ok, r->name);
	}
}

/* ---- names of verdicts and errors ---------------------------------------- */

static bool tp_st_pol_streq(const char *a, const char *b)
{
	if (!a || !b)
		return false;
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

/* A value and its documented name: verdicts, then errors. */
struct tp_st_pol_err {
	int err;
	const char *text;
};

static const struct tp_st_pol_err tp_st_pol_vnames[] = {
	{ TP_PROMOTE, "promote" },
	{ TP_PROMOTE_NRL, "promote-nrl" },
	{ TP_REFUSE_MODE, "refuse-mode" },
	{ TP_REFUSE_TOPTIER, "refuse-toptier" },
	{ TP_REFUSE_NOT_YOUNG, "refuse-not-young" },
	{ TP_REFUSE_COLD, "refuse-cold" },
	{ TP_REFUSE_RATELIMIT, "refuse-ratelimit" },
	{ TP_REFUSE_NOSPACE, "refuse-nospace" },
	{ TP_REFUSE_BUSY, "refuse-busy" },
};

static const struct tp_st_pol_err tp_st_pol_errs[] = {
	{ 0, "success" },
	{ -EINVAL, "invalid argument" },
	{ -ERANGE, "value out of range" },
	{ -ENOENT, "nothing recorded" },
	{ -EBUSY, "busy: state kept changing, try again" },
	/* a positive errno is taken as its negative */
	{ EINVAL, "invalid argument" },
	{ ERANGE, "value out of range" },
	{ ENOENT, "nothing recorded" },
	{ EBUSY, "busy: state kept changing, try again" },
	/* values tierpol never returns */
	{ -1, "unknown error" },
	{ 1, "unknown error" },
	{ -7, "unknown error" },		/* -E2BIG */
	{ -12, "unknown error" },		/* -ENOMEM */
	{ -4095, "unknown error" },
	{ 2147483647, "unknown error" },
	{ -2147483647 - 1, "unknown error" },	/* no negative in an int */
};

static void tp_st_pol_check_names(struct tp_st *st)
{
	static const int bad[] = { -1, TP_NR_VERDICTS, TP_NR_VERDICTS + 1, 64,
				   -EINVAL, 2147483647, -2147483647 - 1 };
	unsigned int i, j;
	bool ok = true;

	/* every verdict has its row, and its own name */
	ok = TP_ST_ARRAY_SIZE(tp_st_pol_vnames) == TP_NR_VERDICTS;
	for (i = 0; i < TP_ST_ARRAY_SIZE(tp_st_pol_vnames); i++) {
		ok = ok && tp_st_pol_streq(
			tp_verdict_name(tp_st_pol_vnames[i].err),
			tp_st_pol_vnames[i].text);
		for (j = 0; j < i; j++)
			ok = ok && tp_st_pol_vnames[i].err !=
				   tp_st_pol_vnames[j].err &&
			     !tp_st_pol_streq(tp_verdict_name((int)i),
					      tp_verdict_name((int)j));
	}
	TP_ST_CHECK(st, ok, "tp_verdict_name(): every verdict, distinct");
	ok = true;
	for (i = 0; i < TP_ST_ARRAY_SIZE(bad); i++)
		ok = ok && tp_st_pol_streq(tp_verdict_name(bad[i]),
					   "(unknown verdict)");
	TP_ST_CHECK(st, ok, "tp_verdict_name(): out of range");
	for (i = 0; i < TP_ST_ARRAY_SIZE(tp_st_pol_errs); i++)
		TP_ST_CHECK(st, tp_st_pol_streq(tp_strerror(
						tp_st_pol_errs[i].err),
						tp_st_pol_errs[i].text),
			    tp_st_pol_errs[i].text);
}


static int tp_st_decide(struct tp_st *st);
static int tp_st_wmark(struct tp_st *st);

/**
 * tp_st_policy() - run the policy's vectors
 * @st: the run
 *
 * The presets, the validation and the names, then tp_st_decide() and
 * tp_st_wmark().
 *
 * Return: the number of failed cases this call added.
 */
static int tp_st_policy(struct tp_st *st)
{
	unsigned int failed = st->failed;

	tp_st_pol_check_presets(st);
	tp_st_pol_check_cfgs(st);
	tp_st_pol_check_names(st);
	tp_st_decide(st);
	tp_st_wmark(st);
	return st->failed - failed;
}

#include "decide.h"
#include "wmark.h"

#endif /* TP_SELFTEST_POLICY_H */
