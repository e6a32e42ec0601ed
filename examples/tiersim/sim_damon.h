/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * tiersim: the kdamonds of DAMON-based tiering (sim_damon.c), their
 * regions and settings, for sim_damon.c and its tests
 * (tests/test_tiersim_damon.c); the rest of the simulator knows a
 * struct sim_kdamond by its pointer only (sim_int.h).
 */
#ifndef _TIERSIM_SIM_DAMON_H
#define _TIERSIM_SIM_DAMON_H

#include "sim_int.h"

#define DAMON_MIN_REGIONS	10U
#define DAMON_MAX_REGIONS	1000U
#define DAMON_AGGR_SAMPLES	20U		/* 100 ms / 5 ms */
#define DAMON_SAMPLE_MIN_NS	(5 * SIM_NS_PER_MS)
#define DAMON_SAMPLE_MAX_NS	(10000 * SIM_NS_PER_MS)
#define DAMON_ACCESS_BP		400U		/* 4 % of the samples */
#define DAMON_TUNE_AGGRS	3U
#define DAMON_APPLY_NS		(1000 * SIM_NS_PER_MS)
#define DAMON_QUOTA_PAGES	(200ULL << 8)	/* 200 MiB in 4 KiB pages */
#define DAMON_USED_GOAL_BP	9970U		/* promotion: fast node used */
#define DAMON_FREE_GOAL_BP	50U		/* demotion: fast node free */
#define DAMON_MAX_SCORE		99U
#define DAMON_MAX_AGE_LOG	32

/* A region of frames [start, end) and what DAMON knows of it. */
struct kd_region {
	u64 start, end;
	u64 sample;		/* the frame sampled now */
	u32 nr;			/* samples that saw an access, this aggr. */
	u32 last_nr;		/* at the last aggregation */
	u32 age;		/* aggregations its count has held */
};

struct sim_kdamond {
	int promote;		/* the slow node's kdamond, or the fast one's */
	u64 frames;
	struct kd_region *reg;	/* DAMON_MAX_REGIONS x 3 (a split's room) */
	u32 nr, split_nr;	/* regions; at the last split */
	u64 clock;		/* the next sample */
	u64 sample_ns;
	u32 samples;		/* in this aggregation */
	u32 aggrs;		/* since the intervals' last tune */
	u64 next_apply;
	struct tp_goal quota;	/* DAMON_FB_TIERPOL */
	u64 esz_bp;		/* DAMON_FB_DAMOS: its quota, bytes x 10000 */
	u64 esz;		/* the quota in force, pages a second */
	/* the scheme's application under way (kd_apply_some()) */
	int applying;
	u32 ap_i;		/* the next region to look at */
	u64 ap_f, ap_e;		/* the frames left of the current one */
	u64 ap_moved;		/* units it moved (one shootdown a region) */
	u64 charged, limit;	/* units charged, the quota, this second */
	u32 min_score;
	u64 rng;
};

/* For the tests: no other file calls these (SIM_TESTED_INLINE). */
u64 kd_rand(struct sim_kdamond *kd, u64 n);
int kd_young(const struct sim *s, u64 u);
void kd_mkold(struct sim *s, u64 u);
void kd_merge(struct sim_kdamond *kd, u32 thres, u64 limit, int age);
void kd_merge_all(struct sim_kdamond *kd);
void kd_split(struct sim_kdamond *kd);
u32 kd_score(const struct sim_kdamond *kd, const struct kd_region *r);
int kd_eligible(const struct sim_kdamond *kd, const struct kd_region *r);
u64 damos_next(u64 last, u64 score);
u64 kd_quota(struct sim *s, struct sim_kdamond *kd, u64 metric);
void kd_apply_begin(struct sim *s, struct sim_kdamond *kd);
void kd_apply_some(struct sim *s, struct sim_kdamond *kd);
void kd_tune(struct sim_kdamond *kd);

#endif /* _TIERSIM_SIM_DAMON_H */
