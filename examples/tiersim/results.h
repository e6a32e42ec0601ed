/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * tiersim suites and the results page: the runs behind each claim of the
 * sources and the generator of docs/RESULTS.md (tiersim --suite results
 * --results-md).
 */
#ifndef _TIERSIM_RESULTS_H
#define _TIERSIM_RESULTS_H

#include "out.h"

/**
 * struct item - one entry of a suite: a workload and its settings, on top of
 * the workload's defaults
 * @label: name of the set (file names under --outdir)
 * @workload: workload name
 * @pages: footprint (0: default)
 * @accesses: measured accesses (0: default)
 * @fast: fast-tier size as for --fast (NULL: the workload's default)
 * @profile: cost profile (NULL: the workload's default)
 * @policies: comma-separated policy specs
 * @scan_period_max_ms: numa_balancing_scan_period_max_ms (0: default)
 * @rate_limit_mbps: promote rate limit (-1: the policies' own)
 * @hot_frac: hot set fraction (0: default)
 * @hot_prob: hot set probability (0: default)
 * @cpu_ns: CPU time per access (0: default)
 * @scan_size_mb: numa_balancing_scan_size_mb (0: default)
 * @scan_period_min_ms: numa_balancing_scan_period_min_ms (0: default)
 * @scale: a 1/@scale model of a larger machine (0: 1)
 * @threads: threads (0: the workload's)
 * @thresh_period_ms: the threshold controller's period alone (0: default)
 * @mlp: misses in flight per thread (0: the workload's)
 */
struct item {
	const char *label;
	const char *workload;
	u64 pages, accesses;
	const char *fast;
	const char *profile;
	const char *policies;
	long long scan_period_max_ms;
	long long rate_limit_mbps;
	double hot_frac, hot_prob;
	u32 cpu_ns;
	u32 scan_size_mb;
	u32 scan_period_min_ms;
	u32 scale;
	u32 threads;
	u32 thresh_period_ms;
	u32 mlp;
	u64 seed;		/* 0: the command line's (--seed, 1) */
};

extern const struct item results_items[];
extern const unsigned int results_nr_items;

/*
 * Huang Ying's 2022 ladder ("memory tiering: hot page selection") on the
 * 2020 RFC's machine: the base's MRU promotion, hot-page selection (a fixed
 * 1 s threshold on the access-time stamp), the rate limit, the automatic
 * threshold. The cover letter does not say which limit it set; its
 * promotion rate falls by 70 % at that step (544.0 -> 165.2 MB/s), so the
 * limit here is 30 % of the hot-page selection step's promotion rate on
 * that machine (191.7 MB/s: 57.5). The results page gives that rate; a
 * change of the model that moves it should move this too.
 */
#define LADDER2022_MBPS		58
#define LADDER2022_STR		RES_STR(LADDER2022_MBPS)
#define RES_STR(x)		RES_STR_(x)
#define RES_STR_(x)		#x
#define LADDER2022_LABEL	"ladder2022-pmbench"

/* The one policy of issue 16's goal, in the default suite's list. */
#define GOAL_POLICY		"pghot-abit"

/*
 * The other policies past Linux 6.1, which the results suite adds to the
 * default suite's workloads and the sources' (docs/tiersim-policies.md,
 * "Policies past Linux 6.1"): the histogram threshold at the rate the
 * limiters are compared at.
 */
#define PAST61_POLICIES \
	",goal-bucket,histogram:rate=64,goal-histogram,goal-threshold," \
	"pghot,fault-clock,damon,damon:feedback=damos," \
	"damon:feedback=damos:quota-start=min"

/*
 * The results suite also runs the default suite's workloads, labelled with
 * this prefix, with the policies past Linux 6.1 added (suite.c).
 */
#define RESULTS61_PREFIX	"past61-"

/*
 * And the workloads where the goal policy misses the goal again, with two
 * and four times the default suite's accesses, labelled
 * "length-<label>-x<factor>": what the goal's migration bound measures of
 * the run's length.
 */
#define RESULTS_LEN_PREFIX	"length-"

/*
 * "seed-<label>-s<seed>": the default suite's workloads and policies again
 * with other seeds: how much of the goal table is the seed's.
 */
#define RESULTS_SEED_PREFIX	"seed-"

/* results.c's helpers, shared with results61.c and the others. */
const struct sim_result *res_find(const struct run_set *rs,
				  const char *policy);
const struct run_set *res_find_set(const struct run_set *rs, u32 nr,
				   const char *title);
int res_find_phase(const struct run_set *rs, const char *name);
const char *res_yes(int ok);
/* A signed percentage with two decimals and an explicit sign. */
const char *res_pct(char *b, size_t n, double v);
/* @v within a factor of 2 of the source's @ref (same sign). */
int res_within2(double v, double ref);
double res_sec(u64 ns);
/* A set's machine and run, one paragraph. */
void res_md_setup(FILE *f, const struct run_set *rs);

/**
 * struct goal_row - how one policy fares against the goal on one workload
 * @gap: the share of the gap between the best preset and the oracle it
 *	closes (1 = all of it)
 * @vs_none: its throughput against none's, in %
 * @migr: its migrations over mainline's
 * @met: all three criteria hold
 */
struct goal_row {
	double gap, vs_none, migr;
	int met;
};

/* results61.c's goal helpers, shared with results_len.c. */
int res_is_past61(const char *policy);
/* A "past61-" set's workload: its title without the prefix. */
const char *res_wl_name(const struct run_set *s);
/* The best run of a set that is neither the oracle nor past 6.1. */
const struct sim_result *res_best_preset(const struct run_set *s);
/* The fast tier's capacity in the machine's pages. */
u64 res_fast_cap(const struct run_set *s);
/*
 * What kswapd demoted while the initialisation pass filled the fast tier:
 * @r's fast-tier allocations past its capacity.
 */
u64 res_init_demoted(const struct run_set *s, const struct sim_result *r);
/* Promotions plus demotions. */
u64 res_migrations(const struct sim_result *r);
/* How @r fares against the goal in @s: 0, or -1 if a run is missing. */
int res_goal_row(const struct run_set *s, const struct sim_result *r,
		 struct goal_row *g);

/* The page's section on the policies past Linux 6.1 (results61.c). */
void results61_write(FILE *f, const struct run_set *rs, u32 nr);
/*
 * Its part on the goal against the run's length and pmbench's placement
 * map (results_len.c): @w are the @nw "past61-" sets of the @nr in @rs.
 */
void results_len_write(FILE *f, const struct run_set *rs, u32 nr,
		       const struct run_set *const *w, u32 nw);

/*
 * Its anchors (results_anchors.c): the 2022 ladder from its set @s; the
 * one-second window's bursts and DAMON's goal from the @nw "past61-" sets
 * @w.
 */
void res_anchor_ladder(FILE *f, const struct run_set *s);
void res_anchor_bursts(FILE *f, const struct run_set *const *w, u32 nw);
void res_anchor_damon(FILE *f, const struct run_set *const *w, u32 nw);

/* Write the results page from the runs of results_items, in order. */
int results_write(const char *path, const struct run_set *rs, u32 nr);

#endif /* _TIERSIM_RESULTS_H */
