// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The results page's section on the policies past Linux 6.1 (issue 16):
 * the goal (one policy that, on every workload of the default suite,
 * closes half the throughput gap between the best preset and the oracle,
 * is never worse than "none" and migrates at most half as many pages as
 * mainline), every new policy on every workload and on the sources'
 * machines, and the runs; the sources' anchors are results_anchors.c's.
 * Every figure is computed from the runs of the results suite.
 */
#include "results.h"

#include <string.h>

/* The policies the page counts as past Linux 6.1 (not presets). */
int res_is_past61(const char *p)
{
	static const char *const pre[] = {
		"goal-", "histogram", "pghot", "fault-clock", "damon",
	};
	u32 i;

	for (i = 0; i < sizeof(pre) / sizeof(pre[0]); i++)
		if (!strncmp(p, pre[i], strlen(pre[i])))
			return 1;
	return 0;
}

/* The default suite's sets, as the results suite ran them again. */
static u32 past61_sets(const struct run_set *rs, u32 nr,
		       const struct run_set **out, u32 max)
{
	u32 i, n = 0;

	for (i = 0; i < nr && n < max; i++)
		if (!strncmp(rs[i].title, RESULTS61_PREFIX,
			     strlen(RESULTS61_PREFIX)))
			out[n++] = &rs[i];
	return n;
}

const char *res_wl_name(const struct run_set *s)
{
	return s->title + strlen(RESULTS61_PREFIX);
}

/* The best run of a set that is neither the oracle nor past 6.1. */
const struct sim_result *res_best_preset(const struct run_set *s)
{
	const struct sim_result *b = NULL;
	u32 i;

	for (i = 0; i < s->nr; i++) {
		const struct sim_result *r = &s->res[i];

		if (!strcmp(r->policy, "oracle") || res_is_past61(r->policy))
			continue;
		if (!b || sim_throughput(r) > sim_throughput(b))
			b = r;
	}
	return b;
}

u64 res_migrations(const struct sim_result *r)
{
	return r->promotions + r->demotions;
}

u64 res_fast_cap(const struct run_set *s)
{
	return s->cfg->fast_pages * (s->cfg->scale ? s->cfg->scale : 1);
}

u64 res_init_demoted(const struct run_set *s, const struct sim_result *r)
{
	return r->alloc_fast > res_fast_cap(s) ?
	       r->alloc_fast - res_fast_cap(s) : 0;
}

int res_goal_row(const struct run_set *s, const struct sim_result *r,
		 struct goal_row *g)
{
	const struct sim_result *b = res_best_preset(s),
				*o = res_find(s, "oracle"),
				*n = res_find(s, "none"),
				*m = res_find(s, "mainline");
	double tb, to;

	if (!b || !o || !n || !m || !r)
		return -1;
	tb = sim_throughput(b);
	to = sim_throughput(o);
	g->gap = to > tb ? (sim_throughput(r) - tb) / (to - tb) : 0;
	g->vs_none = out_pct(sim_throughput(r), sim_throughput(n));
	g->migr = res_migrations(m) ? (double)res_migrations(r) /
		  (double)res_migrations(m) : 0;
	g->met = g->gap >= 0.5 && sim_throughput(r) >= sim_throughput(n) &&
		 2 * res_migrations(r) <= res_migrations(m);
	return 0;
}

/*
 * Where a goal is missed: how far first touch's placement (`none`'s) is
 * from the oracle's, and how much of that exchange the bound on the
 * migrations leaves room for (the runs' "to_oracle", oracle_distance()).
 */
static void to_oracle_note(FILE *f, const struct run_set *s,
			   const struct sim_result *r,
			   const struct sim_result *m)
{
	const struct sim_result *n = res_find(s, "none");
	u64 mm = res_migrations(m);
	int fit = -1;
	u32 i;

	if (!n || !n->has_to_oracle || !r->has_to_oracle || !mm)
		return;
	fprintf(f, ". From first touch's placement (`none`'s) the oracle's "
		"is %llu promotions and %llu demotions away, %.3f times "
		"`mainline`'s migrations; made at once at the start, the "
		"hottest pages first, that exchange gains",
		(unsigned long long)n->to_oracle_promo,
		(unsigned long long)n->to_oracle_demo,
		(double)(n->to_oracle_promo + n->to_oracle_demo) / (double)mm);
	for (i = 0; i < SIM_TO_ORACLE_SHARES; i++) {
		fprintf(f, i ? "%s %u %% with %.3f" :
			"%s %u %% of the accesses it moves to the fast tier "
			"(counted over the whole stream) with %.3f times "
			"`mainline`'s migrations",
			!i ? "" : i + 1 < SIM_TO_ORACLE_SHARES ? "," : " and",
			sim_to_oracle_pct[i],
			(double)n->to_oracle_mig[i] / (double)mm);
		if (2 * n->to_oracle_mig[i] <= mm)
			fit = (int)i;
	}
	if (2 * (n->to_oracle_promo + n->to_oracle_demo) <= mm)
		fprintf(f, ": the whole exchange fits within the bound");
	else if (fit >= 0)
		fprintf(f, ": within the bound (0.500) a policy gets at most "
			"%u %% of it, and only if it moves the hottest pages "
			"first and stops short of the oracle's placement",
			sim_to_oracle_pct[fit]);
	else
		fprintf(f, ": not even %u %% of it fits within the bound "
			"(0.500)", sim_to_oracle_pct[0]);
	fprintf(f, "; `%s` ends %llu promotions from the oracle's placement",
		GOAL_POLICY, (unsigned long long)r->to_oracle_promo);
}

static void goal_table(FILE *f, const struct run_set **w, u32 nw)
{
	struct goal_row g;
	u32 i, met = 0;
	char b1[32];

	fprintf(f, "### The goal: one policy on every workload of the default "
		"suite\n\n"
		"`%s`, the same configuration everywhere: an accessed-bit "
		"scanner tests and clears the young bit of every slow-tier page "
		"every 20 ms (in its own time, no hint faults) and records the "
		"pages it finds accessed in pghot's precise record with a "
		"window of 1.6 scans, so the record counts consecutive scans; "
		"a page seen in 7 consecutive scans is hot. While the fast node "
		"has room (Linux 6.1's free-space bypass), pghot's default "
		"record (2 accesses within 3 s) is enough. kmigrated promotes "
		"what tierpol admits, 512 pages a batch, and kswapd demotes as "
		"before. The goal: close at least half of the throughput gap "
		"between the best existing policy (the presets and `none`; no "
		"policy past 6.1) and the oracle, measured in the same run, "
		"never fall below `none`, and migrate (promotions plus "
		"demotions) at most half as many pages as `mainline`.\n\n"
		"| workload | best existing | its M acc/s | oracle | `none` | "
		"`%s` | gap closed | vs `none` | migrations | vs `mainline` | "
		"goal met |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"
		"---|\n", GOAL_POLICY, GOAL_POLICY);
	for (i = 0; i < nw; i++) {
		const struct sim_result *r = res_find(w[i], GOAL_POLICY),
					*b = res_best_preset(w[i]);

		if (res_goal_row(w[i], r, &g))
			continue;
		met += g.met;
		fprintf(f, "| %s | `%s` | %.3f | %.3f | %.3f | %.3f | %.0f %% | "
			"%s | %llu | %.2f | %s |\n", res_wl_name(w[i]),
			b->policy,
			sim_throughput(b),
			sim_throughput(res_find(w[i], "oracle")),
			sim_throughput(res_find(w[i], "none")),
			sim_throughput(r), 100 * g.gap,
			res_pct(b1, sizeof(b1), g.vs_none),
			(unsigned long long)res_migrations(r), g.migr,
			res_yes(g.met));
	}
	fprintf(f, "\n`%s` meets all three on %u of the %u workloads.",
		GOAL_POLICY, met, nw);
	for (i = 0; i < nw; i++) {
		const struct sim_result *r = res_find(w[i], GOAL_POLICY),
					*m = res_find(w[i], "mainline");
		u64 ir, im;

		if (res_goal_row(w[i], r, &g) || g.met)
			continue;
		ir = res_init_demoted(w[i], r);
		im = res_init_demoted(w[i], m);
		fprintf(f, " On %s it closes %.0f %% of the gap, %s against "
			"`none`, and migrates %.2f times what `mainline` does "
			"(%llu promoted, %llu demoted; `mainline` %llu and "
			"%llu)", res_wl_name(w[i]), 100 * g.gap,
			res_pct(b1, sizeof(b1), g.vs_none), g.migr,
			(unsigned long long)r->promotions,
			(unsigned long long)r->demotions,
			(unsigned long long)m->promotions,
			(unsigned long long)m->demotions);
		if (r->region_promo[WL_REGION_HOT] &&
		    res_wl_name(w[i])[0] == 'c')
			fprintf(f, ": %llu of its promotions are the hot keys "
				"that started on the slow tier, more than half "
				"of `mainline`'s migrations on their own, and "
				"%llu burst pages",
				(unsigned long long)
				r->region_promo[WL_REGION_HOT],
				(unsigned long long)
				r->region_promo[WL_REGION_BURST]);
		else if (ir && im)
			fprintf(f, ": kswapd demoted %llu pages while the "
				"initialisation pass filled the fast tier, "
				"before any promotion, as it does for every "
				"tiering policy (`mainline`: %llu); without "
				"them on both sides the ratio is %.2f",
				(unsigned long long)ir, (unsigned long long)im,
				(double)(res_migrations(r) - ir) /
				(double)(res_migrations(m) - im));
		else
			to_oracle_note(f, w[i], r, m);
		fprintf(f, ".");
	}
	fprintf(f, " Its kernel threads (the scanner and kmigrated) are not "
		"charged to the workload's CPUs, as kswapd is not; their CPU "
		"time is in the last table of each run below. Where it falls "
		"short, and the promotion budgets (`promo-max=`) that would "
		"meet the goal on one workload and not on another: "
		"[tiersim-policies.md](tiersim-policies.md), \"What was "
		"tried, and why\".\n\n");
}

static void matrix(FILE *f, const struct run_set **w, u32 nw)
{
	const struct run_set *s0 = w[0];
	struct goal_row g;
	u32 i, k;

	fprintf(f, "### Every policy past 6.1 on every workload\n\n"
		"Each cell: the gap closed, throughput against `none`, "
		"migrations against `mainline`; **bold** where all three "
		"criteria of the goal hold.\n\n| policy |");
	for (k = 0; k < nw; k++)
		fprintf(f, " %s |", res_wl_name(w[k]));
	fprintf(f, "\n|---|");
	for (k = 0; k < nw; k++)
		fprintf(f, "---|");
	fprintf(f, "\n");
	for (i = 0; i < s0->nr; i++) {
		const char *p = s0->res[i].policy;

		if (!res_is_past61(p))
			continue;
		fprintf(f, "| `%s` |", p);
		for (k = 0; k < nw; k++) {
			if (res_goal_row(w[k], res_find(w[k], p), &g)) {
				fprintf(f, " - |");
				continue;
			}
			fprintf(f, " %s%.0f %%, %+.0f %%, %.2fx%s |",
				g.met ? "**" : "", 100 * g.gap, g.vs_none,
				g.migr, g.met ? "**" : "");
		}
		fprintf(f, "\n");
	}
	fprintf(f, "\n");
}

/*
 * The policies past 6.1 on the sources' machines: the 2020 RFC's (the
 * ladder's set), the bypass knob's Redis, the 2023 RFC's two VMAs.
 */
static void sources(FILE *f, const struct run_set *rs, u32 nr)
{
	static const char *const sets[] = {
		LADDER2022_LABEL, "bypass-cold-burst", "rfc2023-disjoint-vma",
	};
	struct goal_row g;
	char b1[32];
	u32 k, i;

	fprintf(f, "### On the sources' machines\n\n"
		"The same policies on the machines of the results suite's "
		"claims (tables above): the 2020 RFC's pmbench (16 threads, "
		"128 GiB, the set of the 2022 ladder), the bypass knob's Redis "
		"and the 2023 RFC's two VMAs, against the best of the other "
		"policies of the set, `none` and the oracle.\n\n"
		"| machine | policy | M acc/s | gap closed | vs `none` | "
		"migrations | vs `mainline` | goal met | kernel threads (s) |\n"
		"|---|---|---:|---:|---:|---:|---:|---|---:|\n");
	for (k = 0; k < sizeof(sets) / sizeof(sets[0]); k++) {
		const struct run_set *s = res_find_set(rs, nr, sets[k]);
		const struct sim_result *b;

		if (!s || !(b = res_best_preset(s)) || res_goal_row(s, b, &g))
			continue;
		fprintf(f, "| %s | `%s` (best other) | %.3f | - | %s | %llu | "
			"%.2f | - | - |\n", sets[k], b->policy,
			sim_throughput(b), res_pct(b1, sizeof(b1), g.vs_none),
			(unsigned long long)res_migrations(b), g.migr);
		for (i = 0; i < s->nr; i++) {
			const struct sim_result *r = &s->res[i];

			if (!res_is_past61(r->policy) || res_goal_row(s, r, &g))
				continue;
			fprintf(f, "| %s | `%s` | %.3f | %.0f %% | %s | %llu | "
				"%.2f | %s | %.2f |\n", sets[k], r->policy,
				sim_throughput(r), 100 * g.gap,
				res_pct(b1, sizeof(b1), g.vs_none),
				(unsigned long long)res_migrations(r), g.migr,
				res_yes(g.met), res_sec(r->t_kthread));
		}
	}
	fprintf(f, "\n");
}

/* The runs: a compact table per workload. */
static void runs(FILE *f, const struct run_set **w, u32 nw)
{
	u32 k, i;

	fprintf(f, "### The runs\n\nThe default suite's workloads and "
		"machines (`make run`), with the policies past 6.1 added; "
		"kernel threads: CPU seconds of kmigrated and the accessed-bit "
		"scanner.\n\n");
	for (k = 0; k < nw; k++) {
		fprintf(f, "#### %s\n\n", res_wl_name(w[k]));
		res_md_setup(f, w[k]);
		fprintf(f, "\n| policy | fast-tier ratio | throughput (M "
			"acc/s) | promotions | demotions | ping-pong | hint "
			"faults | kernel threads (s) |\n|---|---:|---:|---:|"
			"---:|---:|---:|---:|\n");
		for (i = 0; i < w[k]->nr; i++) {
			const struct sim_result *r = &w[k]->res[i];

			fprintf(f, "| `%s` | %.4f | %.3f | %llu | %llu | %llu | "
				"%llu | %.2f |\n", r->policy, sim_fast_ratio(r),
				sim_throughput(r),
				(unsigned long long)r->promotions,
				(unsigned long long)r->demotions,
				(unsigned long long)r->pingpong,
				(unsigned long long)r->hint_faults,
				res_sec(r->t_kthread));
		}
		fprintf(f, "\n");
	}
}

void results61_write(FILE *f, const struct run_set *rs, u32 nr)
{
	const struct run_set *w[8], *lad;
	u32 nw = past61_sets(rs, nr, w, 8);

	if (!nw)
		return;
	fprintf(f, "\n## Policies past Linux 6.1\n\n"
		"The policies built from tierpol's goal controller, "
		"capacity-fitted (histogram) threshold, pghot hotness record "
		"and fault-count clock ([tiersim-policies.md]"
		"(tiersim-policies.md), \"Policies past Linux 6.1\", says what "
		"each is and where it comes from), "
		"run on the default suite's workloads beside the presets.\n\n");
	goal_table(f, w, nw);
	results_len_write(f, rs, nr, w, nw);
	matrix(f, w, nw);
	sources(f, rs, nr);
	fprintf(f, "### The anchors\n\n");
	lad = res_find_set(rs, nr, LADDER2022_LABEL);
	if (lad)
		res_anchor_ladder(f, lad);
	res_anchor_bursts(f, w, nw);
	res_anchor_damon(f, w, nw);
	runs(f, w, nw);
}
