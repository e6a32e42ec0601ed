// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The results page's anchors for the policies past Linux 6.1 (issue 16),
 * each reproduced from the results suite's runs or its gap explained:
 * Huang Ying's 2022 pmbench ladder, the one-second window's bursts against
 * the token bucket (Li Zhijian's PGPROMOTE_CANDIDATE thread, 2025), and
 * DAMON's goal while the hot set moves (SeongJae Park, 2025).
 */
#include "results.h"

#include <string.h>

/* Most promotions within any @win_ns of a run (from its samples). */
static u64 max_promo_in(const struct sim_result *r, u64 win_ns)
{
	u64 best = 0;
	u32 i, j = 0;

	for (i = 0; i < r->nr_samples; i++) {
		while (r->sample[i].t_ns - r->sample[j].t_ns > win_ns)
			j++;
		if (r->sample[i].promo - r->sample[j].promo > best)
			best = r->sample[i].promo - r->sample[j].promo;
	}
	return best;
}

/*
 * What the runs measure about a step of the ladder out of a factor of 2:
 * the fast-tier ratios, what the limiter refused, the threshold's moves.
 */
static void ladder_note(FILE *f, const struct sim_result *a,
			const struct sim_result *b, int ok)
{
	u64 moves = b->node.th_raised + b->node.th_lowered;

	if (ok) {
		fprintf(f, "Both within a factor of 2.");
		return;
	}
	fprintf(f, "Fast-tier ratio %.3f -> %.3f.", sim_fast_ratio(a),
		sim_fast_ratio(b));
	if (b->node.refused_ratelimit)
		fprintf(f, " The limit refused %.0f %% of the %llu candidate "
			"pages.", 100.0 * (double)b->node.refused_ratelimit /
			(double)(b->node.pgpromote_candidate ?
				 b->node.pgpromote_candidate : 1),
			(unsigned long long)b->node.pgpromote_candidate);
	if (b->has_threshold && moves)
		fprintf(f, " The controller moved the threshold %llu times "
			"(down %llu, up %llu) to %.0f ms in %.0f s (60 s "
			"periods).", (unsigned long long)moves,
			(unsigned long long)b->node.th_lowered,
			(unsigned long long)b->node.th_raised,
			(double)b->node.threshold / 1e6,
			res_sec(b->sim_time_ns));
	else if (b->has_threshold)
		fprintf(f, " The threshold stayed at %.0f ms.",
			(double)b->node.threshold / 1e6);
}

/* The promotion rate of a run's measured phase, MB/s. */
static double promo_mbps(const struct sim_result *r)
{
	return (double)r->phase[r->nr_phases - 1].promotions * 4096.0 /
	       1048576.0 / res_sec(r->measured_time_ns);
}

/*
 * Huang Ying's 2022 ladder: one row per step, each against the step it
 * follows (@prev); the last runs the threshold auto-adjustment step with
 * the capacity-fitted threshold instead of the 2022 controller.
 */
void res_anchor_ladder(FILE *f, const struct run_set *s)
{
	static const struct {
		const char *step, *policy;
		double score, mbps;
		u32 prev;
	} st[] = {
		{ "base (MRU promotion)", "promote-all", 146887704.1, 725.6,
		  0 },
		{ "hot-page selection", "mainline-bypass-reset-adaptive",
		  165695601.2, 544.0, 0 },
		{ "rate limit", "mainline-bypass-reset-adaptive:rate="
		  LADDER2022_STR, 162814569.8, 165.2, 1 },
		{ "threshold auto-adjustment", "mainline:rate=" LADDER2022_STR,
		  170495294.0, 136.9, 2 },
		{ "threshold auto-adjustment, in one step (capacity-fitted)",
		  "histogram:rate=" LADDER2022_STR, 170495294.0, 136.9, 2 },
	};
	enum { N = sizeof(st) / sizeof(st[0]) };
	const struct sim_result *r[N], *a;
	char b1[32], b2[32], b3[32], b4[32];
	double ds, dm, ts, tm;
	u32 i;

	for (i = 0; i < N; i++) {
		r[i] = res_find(s, st[i].policy);
		if (!r[i])
			return;
	}
	fprintf(f, "#### Huang Ying's 2022 ladder (\"memory tiering: hot page "
		"selection\", LKML, April 2022)\n\n");
	res_md_setup(f, s);
	fprintf(f, "\nThe cover letter's pmbench on a two-socket DRAM + PMEM "
		"server, step by step, against the same steps in tiersim on "
		"the 2020 RFC's machine (the rate limit: %s MB/s, %.0f %% of "
		"the hot-page selection step's promotion rate here, as the "
		"source's step cut its rate by 70 %%; see "
		"`examples/tiersim/results.h`). The promotion rate is over the "
		"measured phase. The last row takes the last step with the "
		"capacity-fitted threshold (`thresh=histogram`) instead of the "
		"2022 controller, against the same step before it.\n\n"
		"| step | policy | source: score, promotion MB/s | tiersim: "
		"score (M acc/s), promotion MB/s | source: change | tiersim: "
		"change | direction matches | within a factor of 2 | notes |\n"
		"|---|---|---|---|---|---|---|---|---|\n", LADDER2022_STR,
		promo_mbps(r[1]) > 0 ? 100.0 * LADDER2022_MBPS /
				       promo_mbps(r[1]) : 0);
	for (i = 0; i < N; i++) {
		fprintf(f, "| %s | `%s` | %.3g, %.1f | %.3f, %.1f |", st[i].step,
			st[i].policy, st[i].score, st[i].mbps,
			sim_throughput(r[i]), promo_mbps(r[i]));
		if (!i) {
			fprintf(f, " - | - | - | - | - |\n");
			continue;
		}
		a = r[st[i].prev];
		ds = out_pct(st[i].score, st[st[i].prev].score);
		dm = out_pct(st[i].mbps, st[st[i].prev].mbps);
		ts = out_pct(sim_throughput(r[i]), sim_throughput(a));
		tm = out_pct(promo_mbps(r[i]), promo_mbps(a));
		fprintf(f, " score %s, promotion %s | score %s, promotion %s "
			"| %s / %s | %s / %s | ", res_pct(b1, sizeof(b1), ds),
			res_pct(b2, sizeof(b2), dm), res_pct(b3, sizeof(b3), ts),
			res_pct(b4, sizeof(b4), tm),
			res_yes((ts > 0) == (ds > 0) && ts != 0),
			res_yes((tm > 0) == (dm > 0) && tm != 0),
			res_yes(res_within2(ts, ds)), res_yes(res_within2(tm, dm)));
		ladder_note(f, a, r[i],
			    res_within2(ts, ds) && res_within2(tm, dm));
		fprintf(f, " |\n");
	}
	fprintf(f, "\n");
}

/*
 * The highest rate limit a run had in force, in pages a second (the goal
 * controller's changes over time; the others' one setting).
 */
static u64 rate_max(const struct sim_result *r)
{
	u64 m = r->rate_end;
	u32 i;

	for (i = 0; i < r->nr_samples; i++)
		if (r->sample[i].rate > m)
			m = r->sample[i].rate;
	return m << 8;
}

/*
 * Promotions in consecutive 0.1 s bins of a run: the bins with any, and
 * those above twice the per-bin share of @limit pages a second.
 */
static void bins(const struct sim_result *r, u64 limit, u32 *active,
		 u32 *over)
{
	const u64 bin = 100 * SIM_NS_PER_MS;
	u64 end = bin, before = 0, last = 0;
	u32 i;

	*active = *over = 0;
	for (i = 0; i < r->nr_samples; i++) {
		const struct sim_sample *m = &r->sample[i];

		while (m->t_ns >= end) {
			if (last > before)
				(*active)++;
			if ((last - before) * 10 > 2 * limit)
				(*over)++;
			before = last;
			end += bin;
		}
		last = m->promo;
	}
}

/* The one-second window's bursts against the token bucket's rate. */
void res_anchor_bursts(FILE *f, const struct run_set *const *w, u32 nw)
{
	static const char *const pol[] = {
		"mainline:rate=64", "histogram:rate=64", "token-bucket:rate=64",
		"goal-bucket",
	};
	u32 i, k, act, over;

	fprintf(f, "#### The one-second window's bursts (Li Zhijian's "
		"PGPROMOTE_CANDIDATE thread, July 2025)\n\n"
		"The thread saw 168,301 and 207,149 pages promoted in one "
		"second where the limit was far lower: promotions through the "
		"free-space bypass pass no limiter. Here the limiters at 64 "
		"MB/s (`goal-bucket` at the highest rate its goal set): the "
		"most pages promoted within any second, the limiter's and the "
		"bypass's pages, and of the 0.1 s bins with promotions, those "
		"above twice the limit's rate (a burst).\n\n"
		"| workload | policy | limiter | limit (pages/s) | most in 1 s | "
		"x limit | through the bypass | refused by the limit | 0.1 s "
		"bins above 2x the limit |\n"
		"|---|---|---|---:|---:|---:|---:|---:|---:|\n");
	for (k = 0; k < nw; k++) {
		const char *n = res_wl_name(w[k]);

		if (strcmp(n, "pmbench") && strcmp(n, "cold-burst"))
			continue;
		for (i = 0; i < sizeof(pol) / sizeof(pol[0]); i++) {
			const struct sim_result *r = res_find(w[k], pol[i]);
			u64 m1, lim;

			if (!r)
				continue;
			lim = rate_max(r);
			m1 = max_promo_in(r, 1000 * SIM_NS_PER_MS);
			bins(r, lim, &act, &over);
			fprintf(f, "| %s | `%s` | %s | %llu | %llu | %.1f | %llu "
				"| %llu | %u of %u |\n", n, pol[i],
				strstr(pol[i], "bucket") ? "token bucket" :
				"6.1's window", (unsigned long long)lim,
				(unsigned long long)m1,
				lim ? (double)m1 / (double)lim : 0,
				(unsigned long long)r->node.promote_nrl,
				(unsigned long long)r->node.refused_ratelimit,
				over, act);
		}
	}
	fprintf(f, "\nA bucket admits at most its burst (one second of the "
		"rate) plus the rate over any interval: above twice the rate "
		"only while its first burst drains. The window admits its "
		"whole second's limit as fast as candidates come, then nothing "
		"until the next second. Neither limits the bypass.\n\n");
}

/* DAMON-based tiering's variants on the results page, as run. */
#define DAMON_DAMOS	"damon:feedback=damos"
#define DAMON_SHIPPED	"damon:feedback=damos:quota-start=min"

/* A run's fast-node use and rate over the measured phases. */
struct use_range {
	double lo, mean, hi;	/* the fast node's used share */
	double rlo, rhi;	/* the rate (or quota) set, MB/s */
};

static void use_range(const struct run_set *s, const struct sim_result *r,
		      struct use_range *u)
{
	u64 cap = res_fast_cap(s), t0 = 0;
	double sum = 0;
	u32 j, n = 0;

	*u = (struct use_range){ .lo = 1, .rlo = 1e18 };
	/* From the first measured phase on (first touch is done). */
	for (j = r->nr_phases; j-- > 0;)
		if (s->src->phase_measured[j])
			t0 = r->phase[j].start_ns;
	for (j = 0; j < r->nr_samples; j++) {
		const struct sim_sample *m = &r->sample[j];
		double v = (double)m->fast_used / (double)cap;

		if (m->t_ns < t0)
			continue;
		u->lo = v < u->lo ? v : u->lo;
		u->hi = v > u->hi ? v : u->hi;
		sum += v;
		n++;
		if (m->rate < u->rlo)
			u->rlo = (double)m->rate;
		if (m->rate > u->rhi)
			u->rhi = (double)m->rate;
	}
	u->mean = n ? sum / n : 0;
	if (!n)
		u->rlo = 0;
}

/* What the table says of DAMON-based tiering and its variants. */
static void damon_note(FILE *f, const struct run_set *s)
{
	const struct sim_result *d = res_find(s, "damon");
	const struct sim_result *ds = res_find(s, DAMON_DAMOS);
	const struct sim_result *sh = res_find(s, DAMON_SHIPPED);
	struct use_range u;

	if (d) {
		use_range(s, d, &u);
		fprintf(f, " With both schemes (`damon`) the fast node stays "
			"between %.2f %% and %.2f %% used (mean %.2f %%)",
			100 * u.lo, 100 * u.hi, 100 * u.mean);
		if (u.lo < 0.995)
			fprintf(f, ": the demotion scheme demotes a second's "
				"quota of idle pages at once and overshoots "
				"its 0.5 %% free goal, and the promotion "
				"scheme refills the node only as fast as its "
				"young filter finds accessed pages");
		if (d->response_ms > 0)
			fprintf(f, "; it recovers from the hot set's move in "
				"%.2f s, from its sampled regions alone (no "
				"hint faults).", d->response_ms / 1e3);
		else if (!d->response_ms)
			fprintf(f, "; its fast-tier ratio never falls below "
				"90 %% of its level before the hot set's "
				"move, so there is nothing to recover from.");
		else
			fprintf(f, "; it does not recover from the hot set's "
				"move within the run.");
	}
	if (d && ds) {
		use_range(s, ds, &u);
		fprintf(f, " With DAMOS's own feedback step in place of "
			"tierpol's controller (`%s`: a quota drops to its "
			"minimum once the metric is twice its goal, and "
			"winds up past its cap while the goal is out of "
			"reach) the node stays between %.2f %% and %.2f %% "
			"(mean %.2f %%), with %llu promotions and %llu "
			"demotions against %llu and %llu.", DAMON_DAMOS,
			100 * u.lo, 100 * u.hi, 100 * u.mean,
			(unsigned long long)ds->promotions,
			(unsigned long long)ds->demotions,
			(unsigned long long)d->promotions,
			(unsigned long long)d->demotions);
	}
	if (sh) {
		fprintf(f, " As DAMON starts a quota, at one byte (`%s`), "
			"the promotion scheme promotes %llu pages in the run",
			DAMON_SHIPPED, (unsigned long long)sh->promotions);
		if (!sh->damon_tried[0] && !sh->damon_tried[1])
			fprintf(f, ": on a node within a fraction of a percent "
				"of its goal the feedback grows a quota by "
				"that fraction a second, so neither reaches a "
				"page, and the run's demotions (%llu) are "
				"kswapd's", (unsigned long long)sh->demotions);
		fprintf(f, ".");
	}
}

/* DAMON's goal: the fast node's use while the hot set moves. */
void res_anchor_damon(FILE *f, const struct run_set *const *w, u32 nw)
{
	static const char *const pol[] = {
		"goal-bucket", "damon", DAMON_DAMOS, DAMON_SHIPPED, "mainline",
	};
	const struct run_set *s = NULL;
	const struct sim_result *g;
	struct use_range u;
	u64 cap;
	double top;
	u32 i, k;

	for (k = 0; k < nw; k++)
		if (!strcmp(res_wl_name(w[k]), "phase-shift"))
			s = w[k];
	if (!s || !res_fast_cap(s))
		return;
	fprintf(f, "#### DAMON's goal while the hot set moves (SeongJae Park, "
		"\"mm/damon: auto-tune DAMOS for memory tiering\", April "
		"2025)\n\n"
		"DAMON's tiering sample promotes until the fast node is 99.7 "
		"%% used, at most 200 MiB/s. `goal-bucket` drives the token "
		"bucket's rate with the same feedback once a second; `damon` "
		"is the sample itself (its two kdamonds and schemes, NUMA "
		"balancing off; its rate: the promotion scheme's quota). The "
		"fast node's use on phase-shift over the measured phases "
		"(first touch is over), the rate the controller set, and the "
		"time after the shift until the fast-tier ratio is back at 90 "
		"%% of its level before (no drop: it never fell below that):"
		"\n\n"
		"| policy | fast node used: min | mean | max | rate set: min | "
		"max (MB/s) | second hot set promoted | recovery after the "
		"shift |\n|---|---:|---:|---:|---:|---:|---:|---:|\n");
	for (i = 0; i < sizeof(pol) / sizeof(pol[0]); i++) {
		const struct sim_result *r = res_find(s, pol[i]);

		if (!r)
			continue;
		use_range(s, r, &u);
		fprintf(f, "| `%s` | %.2f %% | %.2f %% | %.2f %% | %.0f | %.0f | "
			"%llu | ", pol[i], 100 * u.lo, 100 * u.mean,
			100 * u.hi, u.rlo, u.rhi,
			(unsigned long long)r->region_promo[WL_REGION_HOT2]);
		if (r->response_ms > 0)
			fprintf(f, "%.2f s |\n", r->response_ms / 1e3);
		else if (!r->response_ms)
			fprintf(f, "no drop |\n");
		else
			fprintf(f, "not within the run |\n");
	}
	g = res_find(s, "goal-bucket");
	cap = res_fast_cap(s);
	top = 1.0 - (double)s->cfg->wmark[2] / (double)cap;
	fprintf(f, "\nPromotions stop at the fast node's high watermark "
		"(%llu pages of %llu) and kswapd demotes to its promo "
		"watermark, so promotions fill the node to %.2f %% at most%s",
		(unsigned long long)s->cfg->wmark[2], (unsigned long long)cap,
		100 * top, top < 0.997 ? ", below DAMON's goal: the "
		"controller sees the goal ahead and keeps the rate at its "
		"cap. DAMON's tiering sample pairs it with a demotion scheme "
		"whose goal is 0.5 % free; a promotion goal alone does not "
		"choose what to promote." : ".");
	if (g)
		fprintf(f, " `goal-bucket` changed the rate %llu times.",
			(unsigned long long)g->goal_steps);
	damon_note(f, s);
	fprintf(f, "\n\n");
}

