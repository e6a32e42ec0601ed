// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The results page's part on what issue 16's goal measures of a run: the
 * default suite's workloads that the results suite runs again with more
 * accesses ("length-<label>-x<factor>", suite.c), and pmbench's placement
 * map at the end of the default run: where each policy keeps the pages of
 * the Gaussian, and where the goal policy's promotions went. Every figure
 * comes from the results suite's runs.
 */
#include "results.h"

#include <stdlib.h>
#include <string.h>

#define MAX_LEN		8

/* One workload at every length the suite ran it: 1x first. */
struct len_row {
	const struct run_set *s;
	u32 factor;
};

/* @w's sets: itself (1x), then "length-<wl>-x<factor>" in suite order. */
static u32 len_rows(const struct run_set *rs, u32 nr,
		    const struct run_set *w, struct len_row *row)
{
	char pre[64];
	size_t n;
	u32 i, k = 0;

	n = (size_t)snprintf(pre, sizeof(pre), "%s%s-x", RESULTS_LEN_PREFIX,
			     res_wl_name(w));
	row[k].s = w;
	row[k++].factor = 1;
	for (i = 0; i < nr && k < MAX_LEN; i++) {
		if (strncmp(rs[i].title, pre, n))
			continue;
		row[k].s = &rs[i];
		row[k++].factor = (u32)strtoul(rs[i].title + n, NULL, 10);
	}
	return k;
}

/* Growth from the first to the last, in %. */
static double growth(u64 first, u64 last)
{
	return first ? 100.0 * ((double)last - (double)first) /
		       (double)first : 0;
}

/* The separator before item @k of a list of @n: "", ", " or " and ". */
static const char *sep(u32 k, u32 n)
{
	return !k ? "" : k + 1 < n ? ", " : " and ";
}

static void len_text(FILE *f, const struct len_row *row, u32 n, int first)
{
	const struct sim_result *g0 = res_find(row[0].s, GOAL_POLICY),
				*gl = res_find(row[n - 1].s, GOAL_POLICY),
				*m0 = res_find(row[0].s, "mainline"),
				*ml = res_find(row[n - 1].s, "mainline");
	struct goal_row g;
	u32 k, i = 0, met = 0;

	fprintf(f, "%sOn %s `%s` migrates ", first ? "" : " ",
		res_wl_name(row[0].s), GOAL_POLICY);
	for (k = 0; k < n; k++)
		fprintf(f, "%s%llu", sep(k, n),
			(unsigned long long)
			res_migrations(res_find(row[k].s, GOAL_POLICY)));
	fprintf(f, " pages (%+.0f %% from %ux to %ux), `mainline` ",
		growth(res_migrations(g0), res_migrations(gl)), row[0].factor,
		row[n - 1].factor);
	for (k = 0; k < n; k++)
		fprintf(f, "%s%llu", sep(k, n),
			(unsigned long long)
			res_migrations(res_find(row[k].s, "mainline")));
	fprintf(f, " (%+.0f %%)", growth(res_migrations(m0),
					   res_migrations(ml)));
	if (g0->region_promo[WL_REGION_HOT]) {
		fprintf(f, "; its promotions of the hot keys that started on "
			"the slow tier alone are ");
		for (k = 0; k < n; k++)
			fprintf(f, "%s%.2f", sep(k, n),
				(double)res_find(row[k].s, GOAL_POLICY)->
				region_promo[WL_REGION_HOT] /
				(double)res_migrations(res_find(row[k].s,
								"mainline")));
		fprintf(f, " of `mainline`'s migrations");
	}
	if (growth(res_migrations(g0), res_migrations(gl)) < 10 &&
	    growth(res_migrations(m0), res_migrations(ml)) > 20)
		fprintf(f, ": `%s`'s count levels off once the fast tier "
			"holds what it finds hot, `mainline`'s keeps growing "
			"with its ping-pong (%llu pages at %ux, %llu at %ux)",
			GOAL_POLICY, (unsigned long long)m0->pingpong,
			row[0].factor, (unsigned long long)ml->pingpong,
			row[n - 1].factor);
	for (k = 0; k < n; k++)
		met += !res_goal_row(row[k].s, res_find(row[k].s, GOAL_POLICY),
				     &g) && g.met;
	fprintf(f, ". The goal is met at %s", met ? "" :
		"none of these lengths");
	for (k = 0; k < n && met; k++)
		if (!res_goal_row(row[k].s, res_find(row[k].s, GOAL_POLICY),
				  &g) && g.met)
			fprintf(f, "%s%ux", sep(i++, met), row[k].factor);
	fprintf(f, ".");
}

static void length_table(FILE *f, const struct run_set *rs, u32 nr,
			 const struct run_set *const *w, u32 nw)
{
	struct len_row row[MAX_LEN];
	struct goal_row g;
	u32 i, k, n, any = 0;
	char b1[32];

	for (i = 0; i < nw; i++) {
		n = len_rows(rs, nr, w[i], row);
		if (n < 2)
			continue;
		if (!any++)
			fprintf(f, "### The goal and the run's length\n\n"
				"The workloads where `%s` misses the goal, "
				"run again with two and four times the "
				"default suite's accesses (the same machine, "
				"policies and seed; the results suite's "
				"`%s<workload>-x<factor>`):\n\n"
				"| workload | length | accesses | best existing "
				"| its M acc/s | oracle | `%s` | gap closed | "
				"vs `none` | migrations | `mainline`'s | "
				"vs `mainline` | goal met |\n"
				"|---|---:|---:|---|---:|---:|---:|---:|---:|"
				"---:|---:|---:|---|\n", GOAL_POLICY,
				RESULTS_LEN_PREFIX, GOAL_POLICY);
		for (k = 0; k < n; k++) {
			const struct run_set *s = row[k].s;
			const struct sim_result *r = res_find(s, GOAL_POLICY),
						*b = res_best_preset(s);

			if (res_goal_row(s, r, &g))
				continue;
			fprintf(f, "| %s | %ux | %llu | `%s` | %.3f | %.3f | "
				"%.3f | %.0f %% | %s | %llu | %llu | %.2f | "
				"%s |\n", res_wl_name(w[i]), row[k].factor,
				(unsigned long long)r->accesses, b->policy,
				sim_throughput(b),
				sim_throughput(res_find(s, "oracle")),
				sim_throughput(r), 100 * g.gap,
				res_pct(b1, sizeof(b1), g.vs_none),
				(unsigned long long)res_migrations(r),
				(unsigned long long)
				res_migrations(res_find(s, "mainline")),
				g.migr, res_yes(g.met));
		}
	}
	if (!any)
		return;
	fprintf(f, "\n");
	for (i = 0, any = 0; i < nw; i++) {
		n = len_rows(rs, nr, w[i], row);
		for (k = 0; k < n; k++)
			if (!res_find(row[k].s, GOAL_POLICY) ||
			    !res_find(row[k].s, "mainline"))
				break;
		if (n >= 2 && k == n)
			len_text(f, row, n, !any++);
	}
	fprintf(f, "\n\n");
}

/* Bin @b of the map in standard deviations from pmbench's mean. */
static double bin_sigma(const struct run_set *s, u32 b)
{
	return ((double)b / SIM_MAP_BINS - 0.5) / s->wp->sigma_frac;
}

static double fast_share(const struct sim_result *r, u32 b)
{
	return r->map_alloc[b] ? 100.0 * (double)r->map_fast[b] /
				 (double)r->map_alloc[b] : 0;
}

/* Sum of @v over the bins wholly within +-@k sigma. */
static u64 within(const struct run_set *s, const u64 *v, double k)
{
	u64 sum = 0;
	u32 b;

	for (b = 0; b < SIM_MAP_BINS; b++)
		if (bin_sigma(s, b) >= -k - 1e-9 &&
		    bin_sigma(s, b + 1) <= k + 1e-9)
			sum += v[b];
	return sum;
}

/* The share of @r's pages within +-@k sigma on the fast tier, in %. */
static double fast_within(const struct run_set *s,
			  const struct sim_result *r, double k)
{
	u64 a = within(s, r->map_alloc, k);

	return a ? 100.0 * (double)within(s, r->map_fast, k) / (double)a : 0;
}

static void map_table(FILE *f, const struct run_set *s)
{
	static const char *const pol[] = {
		"none", "mainline", GOAL_POLICY, "oracle",
	};
	const struct sim_result *r[4], *g, *m;
	u64 init_g, bound, pmax;
	u32 i, b;

	for (i = 0; i < 4; i++)
		if (!(r[i] = res_find(s, pol[i])))
			return;
	g = r[2];
	m = r[1];
	fprintf(f, "### Where `%s` puts pmbench's pages\n\n"
		"The placement map of the default run (`%s`; tiersim's JSON, "
		"`map`): the footprint in sixteenths, as bands of the "
		"Gaussian in standard deviations from its mean; per band the "
		"share of its pages on the fast tier at the end, and the "
		"pages `%s` promoted into it.\n\n| band (sigma) |",
		GOAL_POLICY, s->title, GOAL_POLICY);
	for (i = 0; i < 4; i++)
		fprintf(f, " `%s` fast |", pol[i]);
	fprintf(f, " `%s` promoted |\n|---|---:|---:|---:|---:|---:|\n",
		GOAL_POLICY);
	for (b = 0; b < SIM_MAP_BINS; b++) {
		fprintf(f, "| %+.1f to %+.1f |", bin_sigma(s, b),
			bin_sigma(s, b + 1));
		for (i = 0; i < 4; i++)
			fprintf(f, " %.0f %% |", fast_share(r[i], b));
		fprintf(f, " %llu |\n", (unsigned long long)g->map_promo[b]);
	}
	fprintf(f, "\n`%s` promoted %llu pages, %.0f %% of them into the "
		"bands within 1 sigma of the mean and %.0f %% within 1.5; at "
		"the end it holds %.0f %% of the pages within 1 sigma on the "
		"fast tier (the oracle %.0f %%, `mainline` %.0f %%).",
		GOAL_POLICY, (unsigned long long)g->promotions,
		g->promotions ? 100.0 * (double)within(s, g->map_promo, 1) /
				(double)g->promotions : 0,
		g->promotions ? 100.0 * (double)within(s, g->map_promo, 1.5) /
				(double)g->promotions : 0,
		fast_within(s, g, 1), fast_within(s, r[3], 1),
		fast_within(s, m, 1));
	/*
	 * The bound in promotions: half mainline's migrations, less what
	 * kswapd demoted while the initialisation pass filled the fast tier,
	 * then one demotion a promotion.
	 */
	init_g = res_init_demoted(s, g);
	bound = res_migrations(m) / 2;
	pmax = bound > init_g ? (bound - init_g) / 2 : 0;
	if (g->promotions > pmax)
		fprintf(f, " Half of `mainline`'s %llu migrations, less the "
			"%llu pages kswapd demoted while the initialisation "
			"pass filled the fast tier, leave room for about "
			"%llu promotions, each with its demotion: %llu fewer "
			"than `%s` made, pages of the bands it fills that would "
			"have to stay on the slow tier.",
			(unsigned long long)res_migrations(m),
			(unsigned long long)init_g, (unsigned long long)pmax,
			(unsigned long long)(g->promotions - pmax),
			GOAL_POLICY);
	fprintf(f, "\n\n");
}

/* ---- the goal and the seed ------------------------------------------------ */

#define MAX_SEEDS	8

/* @w's sets: itself (its seed) first, then "seed-<wl>-s<N>" in order. */
static u32 seed_sets(const struct run_set *rs, u32 nr,
		     const struct run_set *w, const struct run_set **out)
{
	char pre[64];
	size_t n;
	u32 i, k = 0;

	n = (size_t)snprintf(pre, sizeof(pre), "%s%s-s", RESULTS_SEED_PREFIX,
			     res_wl_name(w));
	out[k++] = w;
	for (i = 0; i < nr && k < MAX_SEEDS; i++)
		if (!strncmp(rs[i].title, pre, n))
			out[k++] = &rs[i];
	return k;
}

/*
 * A cell of the seed table: gap, against none, migrations; bold if met.
 * Returns whether the goal is met.
 */
static int seed_cell(FILE *f, const struct run_set *s)
{
	struct goal_row g;

	if (res_goal_row(s, res_find(s, GOAL_POLICY), &g)) {
		fprintf(f, " - |");
		return 0;
	}
	fprintf(f, " %s%.0f %%, %+.0f %%, %.2fx%s |", g.met ? "**" : "",
		100 * g.gap, g.vs_none, g.migr, g.met ? "**" : "");
	return g.met;
}

/*
 * The share of @r's accesses served by the fast tier over the whole run,
 * the initialisation pass included (sim_fast_ratio() is the measured
 * phases'), in %.
 */
static double fast_pct(const struct sim_result *r)
{
	return r->accesses ? 100.0 * (double)r->fast_accesses /
			     (double)r->accesses : 0;
}

/*
 * Where the goal policy falls below none on workload @wl: the fast tiers'
 * shares of the accesses; if none's is within 5 points of the oracle's,
 * first touch put the hot pages there, and what the goal policy moved
 * (kswapd's demotions while the initialisation pass filled the tier among
 * them).
 */
static void seed_below_none(FILE *f, const char *wl, const struct run_set *s)
{
	const struct sim_result *r = res_find(s, GOAL_POLICY),
				*n = res_find(s, "none"),
				*o = res_find(s, "oracle");
	struct goal_row g;

	if (res_goal_row(s, r, &g) || g.vs_none >= 0)
		return;
	/* Two decimals below 1 %: a small loss does not read as 0.0 %. */
	fprintf(f, " On %s with seed %llu `%s` is %.*f %% slower than `none`, "
		"whose fast tier serves %.1f %% of the accesses (the oracle's "
		"%.1f %%, `%s`'s %.1f %%)", wl, (unsigned long long)s->seed,
		GOAL_POLICY, -g.vs_none < 1 ? 2 : 1, -g.vs_none, fast_pct(n),
		fast_pct(o), GOAL_POLICY, fast_pct(r));
	if (fast_pct(n) + 5 < fast_pct(o)) {
		fprintf(f, ".");
		return;
	}
	fprintf(f, ": first touch put the hot pages there");
	if (res_init_demoted(s, r))
		fprintf(f, ", and kswapd demoted %llu pages while the "
			"initialisation pass filled the fast tier",
			(unsigned long long)res_init_demoted(s, r));
	fprintf(f, "; `%s` promoted %llu pages and demoted %llu in the "
		"run.", GOAL_POLICY, (unsigned long long)r->promotions,
		(unsigned long long)r->demotions);
}

/* A policy's fewest and most migrations over sets @row[0..n). */
static void migr_range(const struct run_set *const *row, u32 n,
		       const char *pol, u64 *lo, u64 *hi)
{
	u32 k;

	*lo = UINT64_MAX;
	*hi = 0;
	for (k = 0; k < n; k++) {
		u64 m = res_migrations(res_find(row[k], pol));

		*lo = m < *lo ? m : *lo;
		*hi = m > *hi ? m : *hi;
	}
}

/* " (+x %)" for a range within a factor of 10; nothing for a wider one. */
static void range_growth(FILE *f, u64 lo, u64 hi)
{
	if (lo && hi / 10 < lo)
		fprintf(f, " (%+.0f %%)", growth(lo, hi));
}

/*
 * Where the verdict on workload @wl changes with the seed: the goal
 * policy's and mainline's migrations over the seeds, whose ratio is the
 * bound.
 */
static void seed_migrations(FILE *f, const char *wl,
			    const struct run_set *const *row, u32 n)
{
	struct goal_row g;
	u64 glo, ghi, mlo, mhi;
	u32 k, met = 0, ok = 0;

	for (k = 0; k < n; k++) {
		if (res_goal_row(row[k], res_find(row[k], GOAL_POLICY), &g))
			return;
		ok++;
		met += g.met;
	}
	if (!met || met == ok)
		return;
	migr_range(row, n, GOAL_POLICY, &glo, &ghi);
	migr_range(row, n, "mainline", &mlo, &mhi);
	fprintf(f, " On %s the verdict depends on the seed: over the seeds "
		"`%s` migrates %llu to %llu pages", wl, GOAL_POLICY,
		(unsigned long long)glo, (unsigned long long)ghi);
	range_growth(f, glo, ghi);
	fprintf(f, ", `mainline` %llu to %llu", (unsigned long long)mlo,
		(unsigned long long)mhi);
	range_growth(f, mlo, mhi);
	fprintf(f, ".");
}

static void seed_table(FILE *f, const struct run_set *rs, u32 nr,
		       const struct run_set *const *w, u32 nw)
{
	const struct run_set *row[MAX_SEEDS];
	u32 met[MAX_SEEDS] = { 0 }, i, k, n, cols = 0, widest = 0;

	for (i = 0; i < nw; i++) {
		n = seed_sets(rs, nr, w[i], row);
		if (n > cols) {
			cols = n;
			widest = i;
		}
	}
	if (cols < 2)
		return;
	fprintf(f, "### The goal and the seed\n\n"
		"The default suite's workloads, machines and policies again "
		"with other seeds (the results suite's `%s<workload>-s<seed>`; "
		"a seed draws the workload's random choices: its accesses, and "
		"where it picks them at random, its hot pages). Each cell: the "
		"gap `%s` closes, its throughput against `none`, its "
		"migrations against `mainline`; **bold** where the goal is "
		"met.\n\n| workload |",
		RESULTS_SEED_PREFIX, GOAL_POLICY);
	/* The header: the seeds of the workload with the most of them. */
	seed_sets(rs, nr, w[widest], row);
	for (k = 0; k < cols; k++)
		fprintf(f, " seed %llu |", (unsigned long long)row[k]->seed);
	fprintf(f, "\n|---|");
	for (k = 0; k < cols; k++)
		fprintf(f, "---|");
	fprintf(f, "\n");
	for (i = 0; i < nw; i++) {
		n = seed_sets(rs, nr, w[i], row);
		fprintf(f, "| %s |", res_wl_name(w[i]));
		for (k = 0; k < cols; k++) {
			if (k >= n) {
				fprintf(f, " - |");
				continue;
			}
			met[k] += (u32)seed_cell(f, row[k]);
		}
		fprintf(f, "\n");
	}
	fprintf(f, "| goal met on |");
	for (k = 0; k < cols; k++)
		fprintf(f, " %u of %u |", met[k], nw);
	fprintf(f, "\n\n`%s` meets the goal on ", GOAL_POLICY);
	for (k = 0; k < cols; k++)
		fprintf(f, "%s%u", sep(k, cols), met[k]);
	fprintf(f, " of the %u workloads with these %u seeds.", nw, cols);
	for (i = 0; i < nw; i++) {
		n = seed_sets(rs, nr, w[i], row);
		seed_migrations(f, res_wl_name(w[i]), row, n);
		for (k = 0; k < n; k++)
			seed_below_none(f, res_wl_name(w[i]), row[k]);
	}
	fprintf(f, "\n\n");
}

void results_len_write(FILE *f, const struct run_set *rs, u32 nr,
		       const struct run_set *const *w, u32 nw)
{
	u32 i;

	length_table(f, rs, nr, w, nw);
	seed_table(f, rs, nr, w, nw);
	for (i = 0; i < nw; i++)
		if (w[i]->wp && !strcmp(res_wl_name(w[i]), "pmbench"))
			map_table(f, w[i]);
}
