// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * tiersim's results page: the runs behind each claim of the sources (the
 * "results" suite) and the generator of docs/RESULTS.md from their output.
 * Nothing on the page is typed in except the sources' own numbers and the
 * explanations; every tiersim figure, every "direction matches" and
 * "within a factor of 2" verdict is computed here from the runs.
 * docs/SOURCES.md lists the sources.
 */
#include "results.h"

#include <math.h>
#include <string.h>

/*
 * The 2020 RFC's pmbench (80:20 read/write, Gaussian addresses) ran on a
 * two-socket Intel server with Optane DC PMM; the thread reports no
 * thread count, footprint or run length. tiersim models one socket: 16
 * threads on a 128 GiB footprint (a quarter of it DRAM), as a 1/256 scale
 * model (131072 pages of the stream, each standing for 256), for about ten
 * minutes. At that size and rate the pages at the edge of the DRAM-sized
 * hot set are touched about once a second, as the RFC says its 1 s
 * threshold assumes, and 16 threads keep the Optane tier near its
 * bandwidth. Everything else is the kernel's default: the rate limit (the
 * fast node's high watermark per second), the scan settings and their
 * adaptation, the threshold controller's 60 s period. The second item is
 * the same machine with the rate limit 16 times higher (the accounts of
 * the claims use it).
 */
#define RFC2020 \
	.workload = "pmbench", .pages = 1 << 17, .scale = 256, .threads = 16, \
	.accesses = 120000000

/* 16 x the default limit of that machine (19366 pages/s = 75.6 MB/s). */
#define RATE16X_MBPS	1210


const struct item results_items[] = {
	{ .label = "rfc2020-pmbench", RFC2020, .rate_limit_mbps = -1,
	  .policies = "none,rfc2020-p3,rfc2020-p4,rfc2020-p5,rfc2020-p6,"
		      "rfc2020-p7,rfc2020-p8,oracle" },
	{ .label = "rfc2020-pmbench-rate16x", RFC2020,
	  .rate_limit_mbps = RATE16X_MBPS,
	  .policies = "rfc2020-p4,rfc2020-p5,rfc2020-p6,rfc2020-p7,"
		      "rfc2020-p8" },
	/* The ladder's machine also runs the policies past 6.1 (results61.c). */
	{ .label = LADDER2022_LABEL, RFC2020, .rate_limit_mbps = -1,
	  .policies = "promote-all,mainline-bypass-reset-adaptive,"
		      "mainline-bypass-reset-adaptive:rate=" LADDER2022_STR ","
		      "mainline:rate=" LADDER2022_STR ","
		      "histogram:rate=" LADDER2022_STR ",none,mainline,"
		      GOAL_POLICY PAST61_POLICIES ",oracle" },
	/* The bypass knob's Redis: one thread, 8 GiB on CXL (wl.c). */
	{ .label = "bypass-cold-burst", .workload = "cold-burst",
	  .pages = 2 << 20, .accesses = 4000000,
	  .policies = "none,mainline,mainline-bypass-off," GOAL_POLICY
		      PAST61_POLICIES ",oracle",
	  .rate_limit_mbps = -1 },
	/*
	 * The 2023 RFC: 8 threads, 64 MiB and 1 GiB VMAs, a 1/64 model run
	 * for about two minutes after the second group starts (the period
	 * adapts to 1-2 s: a sweep of the 1 GiB VMA takes several passes).
	 */
	{ .label = "rfc2023-disjoint-vma", .workload = "disjoint-vma",
	  .pages = 17 << 8, .scale = 64, .accesses = 150000000,
	  .policies = "mainline:vma=pid,mainline:vma=disjoint,"
		      "mainline:vma=mainline,mainline,none," GOAL_POLICY
		      PAST61_POLICIES ",oracle",
	  .rate_limit_mbps = -1 },
};

const unsigned int results_nr_items = sizeof(results_items) /
				      sizeof(results_items[0]);

const struct sim_result *res_find(const struct run_set *rs, const char *policy)
{
	u32 i;

	for (i = 0; rs && i < rs->nr; i++)
		if (!strcmp(rs->res[i].policy, policy))
			return &rs->res[i];
	return NULL;
}

const struct run_set *res_find_set(const struct run_set *rs, u32 nr,
				   const char *title)
{
	u32 i;

	for (i = 0; i < nr; i++)
		if (!strcmp(rs[i].title, title))
			return &rs[i];
	return NULL;
}

int res_find_phase(const struct run_set *rs, const char *name)
{
	u32 i;

	for (i = 0; i < rs->src->nr_phases; i++)
		if (!strcmp(rs->src->phase_name[i], name))
			return (int)i;
	return -1;
}

const char *res_yes(int ok)
{
	return ok ? "**yes**" : "**no**";
}

/* A signed percentage with two decimals and an explicit sign. */
const char *res_pct(char *b, size_t n, double v)
{
	snprintf(b, n, "%+.2f %%", v);
	return b;
}

/* @v within a factor of 2 of the source's @ref (same sign). */
int res_within2(double v, double ref)
{
	return (v > 0) == (ref > 0) && fabs(v) >= 0.5 * fabs(ref) &&
	       fabs(v) <= 2 * fabs(ref);
}

double res_sec(u64 ns)
{
	return (double)ns / 1e9;
}

/* The table of one set, in markdown. */
static void md_set(FILE *f, const struct run_set *rs)
{
	u32 i;

	fprintf(f, "| policy | fast-tier ratio | mean latency (ns) | "
		"throughput (M acc/s) | promotions | demotions | ping-pong | "
		"hint faults | candidates | NRL | refused cold | refused rate | "
		"refused no room | refused young | refused top tier | "
		"threshold (ms) |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|"
		"---:|---:|---:|---:|---:|---:|---:|\n");
	for (i = 0; i < rs->nr; i++) {
		const struct sim_result *r = &rs->res[i];
		const struct sim_node_stats *n = &r->node;
		char th[32];

		if (r->has_threshold)
			snprintf(th, sizeof(th), "%.1f",
				 (double)n->threshold / 1e6);
		else
			snprintf(th, sizeof(th), "-");
		fprintf(f, "| `%s` | %.4f | %.1f | %.3f | %llu | %llu | %llu | "
			"%llu | %llu | %llu | %llu | %llu | %llu | %llu | %llu | "
			"%s |\n", r->policy, sim_fast_ratio(r),
			sim_mean_latency(r), sim_throughput(r),
			(unsigned long long)r->promotions,
			(unsigned long long)r->demotions,
			(unsigned long long)r->pingpong,
			(unsigned long long)r->hint_faults,
			(unsigned long long)n->pgpromote_candidate,
			(unsigned long long)n->pgpromote_candidate_nrl,
			(unsigned long long)n->refused_cold,
			(unsigned long long)n->refused_ratelimit,
			(unsigned long long)n->refused_nospace,
			(unsigned long long)n->refused_not_young,
			(unsigned long long)n->refused_toptier, th);
	}
}

void res_md_setup(FILE *f, const struct run_set *rs)
{
	const struct sim_cfg *c = rs->cfg;
	const u64 k = c->scale ? c->scale : 1;
	char seed[32] = "";

	if (rs->wp)
		snprintf(seed, sizeof(seed), ", seed %llu",
			 (unsigned long long)rs->seed);
	fprintf(f, "`%s`: %llu pages (%.2f GiB), %llu accesses (%llu "
		"measured), %u thread(s)%s; fast tier %llu pages "
		"(%.0f %%), watermarks min/low/high/promo %llu/%llu/%llu/%llu "
		"pages; profile `%s`, %u ns CPU per access; scan %u MB, period "
		"from %u ms (adaptive); threshold period %u ms",
		rs->title, (unsigned long long)(rs->src->pages * k),
		(double)(rs->src->pages * k) / 262144.0,
		(unsigned long long)(rs->src->total * k),
		(unsigned long long)((rs->wp ? rs->wp->accesses :
				      rs->src->total) * k),
		rs->src->nr_threads, seed,
		(unsigned long long)(c->fast_pages * k),
		100.0 * (double)c->fast_pages / (double)rs->src->pages,
		(unsigned long long)c->wmark[0], (unsigned long long)c->wmark[1],
		(unsigned long long)c->wmark[2], (unsigned long long)c->wmark[3],
		c->costs.name, c->costs.cpu_ns ? c->costs.cpu_ns :
		rs->src->cpu_ns, c->scan_size_mb,
		sim_scan_period_ms(c, rs->src->pages),
		c->thresh_period_ms ? c->thresh_period_ms :
		c->scan_period_max_ms ? c->scan_period_max_ms :
		TP_DEFAULT_SCAN_PERIOD_MAX_MS);
	if (c->rate_limit_mbps >= 0)
		fprintf(f, "; rate limit %lld MB/s",
			(long long)c->rate_limit_mbps);
	if (k > 1)
		fprintf(f, "; a 1/%llu scale model (each page and access of "
			"the stream stands for %llu)", (unsigned long long)k,
			(unsigned long long)k);
	fprintf(f, "; %.0f s simulated.\n",
		rs->nr ? res_sec(rs->res[0].sim_time_ns) : 0.0);
}

/*
 * One step of the 2020 RFC: @b is the step, @a the series before it; @ra
 * and @rb the same steps with the rate limit 16 times higher (may be
 * NULL). The notes say, for a magnitude out of a factor of 2, what the
 * runs measure about why.
 */
static void row2020(FILE *f, const char *claim, const char *says,
		    double src_score, double src_migr,
		    const struct sim_result *a, const struct sim_result *b,
		    const struct sim_result *ra, const struct sim_result *rb,
		    u64 limit_pages)
{
	double ds = out_pct(sim_throughput(b), sim_throughput(a));
	double dm = out_pct((double)b->promotions, (double)a->promotions);
	double cand = res_sec(b->sim_time_ns) > 0 ?
		      (double)b->node.pgpromote_candidate /
		      res_sec(b->sim_time_ns) : 0;
	char b1[32], b2[32], b3[32], b4[32];

	fprintf(f, "| %s | %s | score %s, promotions %s (%llu -> %llu) | "
		"%s / %s | %s / %s | ", claim, says, res_pct(b1, sizeof(b1), ds),
		res_pct(b2, sizeof(b2), dm), (unsigned long long)a->promotions,
		(unsigned long long)b->promotions,
		res_yes((ds > 0) == (src_score > 0) && ds != 0),
		res_yes((dm < 0) == (src_migr < 0) && dm != 0),
		res_yes(res_within2(ds, src_score)), res_yes(res_within2(dm, src_migr)));
	if (res_within2(ds, src_score) && res_within2(dm, src_migr)) {
		fprintf(f, "Both within a factor of 2. |\n");
		return;
	}
	fprintf(f, "The RFC's default rate limit (the fast node's high "
		"watermark, %llu pages/s) binds: %.0f candidates a second "
		"reach it, %.0f times the limit, so the step changes which "
		"pages fill the budget more than how many move.",
		(unsigned long long)limit_pages, cand,
		limit_pages ? cand / (double)limit_pages : 0);
	if (b->has_threshold && b->node.th_lowered + b->node.th_raised)
		fprintf(f, " The controller moved the threshold %llu times "
			"(down %llu, up %llu) to %.0f ms in %.0f s.",
			(unsigned long long)(b->node.th_lowered +
					     b->node.th_raised),
			(unsigned long long)b->node.th_lowered,
			(unsigned long long)b->node.th_raised,
			(double)b->node.threshold / 1e6, res_sec(b->sim_time_ns));
	if (ra && rb)
		fprintf(f, " With the limit 16 times higher "
			"(`rfc2020-pmbench-rate16x`) the step gives score %s, "
			"promotions %s%s.",
			res_pct(b3, sizeof(b3), out_pct(sim_throughput(rb),
						    sim_throughput(ra))),
			res_pct(b4, sizeof(b4), out_pct((double)rb->promotions,
						    (double)ra->promotions)),
			b->node.th_lowered + b->node.th_raised &&
			!rb->node.th_lowered && !rb->node.th_raised ?
			" (the candidates stay below "
			"the limit's share of a period: the controller never "
			"moves the threshold, which the RFC caps at its "
			"start)" :
			res_within2(out_pct(sim_throughput(rb),
					sim_throughput(ra)), src_score) &&
			res_within2(out_pct((double)rb->promotions,
					(double)ra->promotions), src_migr) ?
			": both within a factor of 2 of the RFC's" : "");
	fprintf(f, " |\n");
}

int results_write(const char *path, const struct run_set *rs, u32 nr)
{
	const struct run_set *s0, *s16, *s2, *s4;
	const struct sim_result *p[9] = { NULL }, *q[9] = { NULL };
	const struct sim_result *ml, *off, *pid, *dj, *l67;
	char name[32], b1[32];
	u64 limit;
	FILE *f;
	u32 i;

	s0 = res_find_set(rs, nr, "rfc2020-pmbench");
	s16 = res_find_set(rs, nr, "rfc2020-pmbench-rate16x");
	s2 = res_find_set(rs, nr, "bypass-cold-burst");
	s4 = res_find_set(rs, nr, "rfc2023-disjoint-vma");
	if (!s0 || !s2 || !s4)
		return -1;
	for (i = 3; i <= 8; i++) {
		snprintf(name, sizeof(name), "rfc2020-p%u", i);
		p[i] = res_find(s0, name);
		q[i] = res_find(s16, name);
		if (!p[i])
			return -1;
	}
	ml = res_find(s2, "mainline");
	off = res_find(s2, "mainline-bypass-off");
	pid = res_find(s4, "mainline:vma=pid");
	dj = res_find(s4, "mainline:vma=disjoint");
	l67 = res_find(s4, "mainline:vma=mainline");
	if (!ml || !off || !pid || !dj || !l67)
		return -1;
	limit = s0->cfg->wmark[2];

	f = fopen(path, "w");
	if (!f)
		return -1;
	fprintf(f,
"<!-- SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause -->\n"
"<!-- Generated by `make results` (tiersim --suite results --results-md). "
"Do not edit. -->\n"
"# tiersim results: what the sources report and what tiersim shows\n\n"
"Each row takes a claim of one of the patch threads tierpol started from\n"
"([SOURCES.md](SOURCES.md) lists them) and the same comparison in\n"
"tiersim %s on tierpol %s. Every tiersim figure below is computed from\n"
"tiersim's own runs by `make results`, which runs `tiersim --suite\n"
"results` and writes this page; the JSON, CSV and SVG of every run are\n"
"under `build/results/`. A direction matches when tiersim moves the same\n"
"way as the source (score up, migrations down, ...). Where a magnitude is\n"
"not within a factor of two of the source's, the notes say what the runs\n"
"measure about why. The model is tiersim's default one (docs/tiersim-model.md):\n"
"a clock per thread, bandwidth and loaded latency per tier, TLB\n"
"shootdowns, 6.1's LRU and kswapd rounds, the adaptive scan period.\n\n",
		TP_VERSION_STRING, tp_version_string());

	fprintf(f, "## Summary\n\n"
		"| claim | what the source reports | what tiersim shows | "
		"direction matches | within a factor of 2 | notes |\n"
		"|---|---|---|---|---|---|\n");

	/* 2020 RFC patch 4/8: skip the top tier. */
	{
		double ds = out_pct(sim_throughput(p[4]),
				    sim_throughput(p[3]));
		int ok_f = p[4]->hint_faults_fast == 0 ||
			   p[4]->hint_faults_fast * 100 <
			   p[3]->hint_faults_fast;

		fprintf(f, "| 2020 RFC patch 4/8: skip scanning the fastest "
			"tier (`rfc2020-p4` vs `rfc2020-p3`) | score +4.6 %%; "
			"hint faults on the DRAM node reduced to almost 0 | "
			"score %s; hint faults on the fast tier %llu -> %llu | "
			"%s / %s | %s / - | ", res_pct(b1, sizeof(b1), ds),
			(unsigned long long)p[3]->hint_faults_fast,
			(unsigned long long)p[4]->hint_faults_fast,
			res_yes(ds > 0), res_yes(ok_f), res_yes(res_within2(ds, 4.6)));
		if (res_within2(ds, 4.6))
			fprintf(f, "The fast-tier faults and their scanning "
				"cost the threads %.1f s of fault time and %.1f "
				"s of shootdowns more than with the step.",
				res_sec(p[3]->t_fault) - res_sec(p[4]->t_fault),
				res_sec(p[3]->t_tlb) - res_sec(p[4]->t_tlb));
		else
			fprintf(f, "The fast-tier faults cost %.1f s of the "
				"threads' %.0f s; in the RFC's kernel each also "
				"ran task_numa_fault()'s NUMA-group statistics "
				"on a two-socket machine, which tiersim does "
				"not model.", res_sec(p[3]->t_fault) -
				res_sec(p[4]->t_fault),
				res_sec(p[3]->sim_time_ns) * s0->src->nr_threads);
		fprintf(f, " |\n");
	}
	row2020(f, "2020 RFC patch 5/8: promote only pages accessed twice "
		"(`rfc2020-p5` vs `rfc2020-p4`)",
		"score +3.1 %; 7.2 % fewer promotions", 3.1, -7.2, p[4], p[5],
		q[4], q[5], limit);
	row2020(f, "2020 RFC patch 6/8: hot-page selection, 1 s threshold on "
		"the scan-ring latency (`rfc2020-p6` vs `rfc2020-p5`)",
		"score +9.2 %; 50.3 % fewer NUMA page migrations", 9.2, -50.3,
		p[5], p[6], q[5], q[6], limit);
	row2020(f, "2020 RFC patch 8/8: automatic threshold adjustment "
		"(`rfc2020-p8` vs `rfc2020-p7`)",
		"score +5.5 %; 24.6 % fewer NUMA page migrations", 5.5, -24.6,
		p[7], p[8], q[7], q[8], limit);

	/* The bypass knob: cold-key burst with the bypass off. */
	{
		int bp = res_find_phase(s2, "burst");
		double t_on = bp >= 0 ? sim_phase_throughput(ml, (u32)bp) : 0;
		double t_off = bp >= 0 ? sim_phase_throughput(off, (u32)bp) : 0;
		double ds = out_pct(t_off, t_on);
		int ok_p = off->region_promo[WL_REGION_BURST] == 0 &&
			   ml->region_promo[WL_REGION_BURST] > 0;

		fprintf(f, "| the bypass knob (2026): free-space bypass off "
			"during a cold-key burst (`mainline-bypass-off` vs "
			"`mainline`) | the burst is not promoted (upstream "
			"promotes it through the bypass); burst throughput "
			"+21.5 %% | burst pages promoted: %llu with the bypass, "
			"%llu without; burst throughput %s (%.4f -> %.4f M "
			"acc/s) | %s / %s | - / %s | ",
			(unsigned long long)ml->region_promo[WL_REGION_BURST],
			(unsigned long long)off->region_promo[WL_REGION_BURST],
			res_pct(b1, sizeof(b1), ds), t_on, t_off, res_yes(ok_p),
			res_yes(ds > 0), res_yes(res_within2(ds, 21.5)));
		if (res_within2(ds, 21.5))
			fprintf(f, "With the bypass every burst page that "
				"faults is copied to DRAM inside the request "
				"(%.1f us of migration per burst page).",
				ml->region_promo[WL_REGION_BURST] ?
				(double)ml->t_migr / 1e3 /
				(double)ml->promotions : 0);
		else
			fprintf(f, "The gap is the promotion cost per burst "
				"request against the request's own 7 us; "
				"Redis's request cost in the thread is not "
				"known exactly.");
		fprintf(f, " |\n");
	}

	/* The 2023 RFC: disjoint VMA. */
	{
		const struct sim_vma_stats *a = &pid->vma[1], *b = &dj->vma[1];
		int ok_scan = b->pte_updates > a->pte_updates;
		int ok_hot = b->promotions > a->promotions;
		int mp = res_find_phase(s4, "main");

		fprintf(f, "| the 2023 RFC: forced scan of a VMA the scanning "
			"task never accessed (`mainline:vma=disjoint` vs "
			"`mainline:vma=pid`, Linux 6.5's PID filter alone) | "
			"numa01_THREAD_ALLOC: numa_pte_updates 6985 -> 1573363, "
			"hint faults 2705 -> 1022623, pages migrated 426 -> "
			"632990; the disjoint VMA gets scanned and its hot pages "
			"found | large VMA: PTE updates %llu -> %llu, hint "
			"faults %llu -> %llu, promotions %llu -> %llu, of its "
			"hot set (%llu pages) %llu -> %llu; fast-tier ratio of "
			"the main phase %.3f -> %.3f | %s / %s | - | Different "
			"benchmark (the RFC's numa01 in normal NUMA balancing), "
			"so only the direction compares. The hot set's "
			"faults are refused for want of room (%llu pages "
			"refused): first touch filled the fast tier and kswapd "
			"frees only the promo watermark's margin per wakeup. "
			"Linux 6.7's filter (`mainline:vma=mainline`) promotes "
			"%llu pages of the hot set. |\n",
			(unsigned long long)a->pte_updates,
			(unsigned long long)b->pte_updates,
			(unsigned long long)a->hint_faults,
			(unsigned long long)b->hint_faults,
			(unsigned long long)a->promotions,
			(unsigned long long)b->promotions,
			(unsigned long long)(s4->wp ?
			(u64)(s4->wp->hot_frac *
			      (double)s4->src->vma[1].pages) *
			(s4->cfg->scale ? s4->cfg->scale : 1) : 0),
			(unsigned long long)pid->region_promo[WL_REGION_HOT],
			(unsigned long long)dj->region_promo[WL_REGION_HOT],
			mp >= 0 && pid->phase[mp].accesses ?
			(double)pid->phase[mp].fast /
			(double)pid->phase[mp].accesses : 0,
			mp >= 0 && dj->phase[mp].accesses ?
			(double)dj->phase[mp].fast /
			(double)dj->phase[mp].accesses : 0,
			res_yes(ok_scan), res_yes(ok_hot),
			(unsigned long long)dj->node.refused_nospace,
			(unsigned long long)l67->region_promo[WL_REGION_HOT]);
	}

	fprintf(f, "\nScore is tiersim's throughput (accesses per simulated "
		"second over the measured phases, all threads), the analogue "
		"of the pmbench score; promotions are NUMA-balancing "
		"migrations to the fast tier (numa_pages_migrated), in 4 KiB "
		"pages.\n\n");

	fprintf(f, "## The runs\n\n");
	fprintf(f, "### The 2020 RFC: pmbench, the series step by step\n\n");
	res_md_setup(f, s0);
	fprintf(f, "\nThe RFC reports no thread count, footprint or run "
		"length; this is one socket with 16 threads, a footprint four "
		"times its DRAM, run about ten minutes (docs/tiersim.md, "
		"\"Scale models\"). The pages at the edge of the DRAM-sized "
		"hot set are touched about once a second, as the RFC's 1 s "
		"threshold assumes. `rfc2020-pN` is the series up to patch "
		"N/8.\n\n");
	md_set(f, s0);
	if (s16) {
		fprintf(f, "\n#### The same steps with the rate limit 16 times "
			"higher\n\n");
		res_md_setup(f, s16);
		fprintf(f, "\n");
		md_set(f, s16);
	}
	fprintf(f, "\n### The bypass knob (2026): cold-key burst with the "
		"free-space bypass on and off\n\n");
	res_md_setup(f, s2);
	fprintf(f, "\n85 %% of the data starts on the slow tier (the test "
		"reclaimed it there), the fast tier has free room, the "
		"benchmark reads 10 %% hot keys, then 256 MiB of cold keys once "
		"each. Phases:\n\n| policy | phase | accesses | throughput (M "
		"acc/s) | fast-tier ratio | promotions | hint faults |\n"
		"|---|---|---:|---:|---:|---:|---:|\n");
	for (i = 0; i < s2->nr; i++) {
		const struct sim_result *r = &s2->res[i];
		u32 k;

		for (k = 0; k < r->nr_phases; k++)
			fprintf(f, "| `%s` | %s | %llu | %.4f | %.4f | %llu | "
				"%llu |\n", r->policy, s2->src->phase_name[k],
				(unsigned long long)r->phase[k].accesses,
				sim_phase_throughput(r, k),
				r->phase[k].accesses ? (double)r->phase[k].fast /
				(double)r->phase[k].accesses : 0,
				(unsigned long long)r->phase[k].promotions,
				(unsigned long long)r->phase[k].hint_faults);
	}
	fprintf(f, "\n");
	md_set(f, s2);
	fprintf(f, "\n### The 2023 RFC: two thread groups on a 64 MiB and a "
		"1 GiB VMA\n\n");
	res_md_setup(f, s4);
	fprintf(f, "\nThe first group runs alone on the small VMA until the "
		"scanner has finished its first sequences; then the second "
		"group populates the large VMA and both run. Per VMA:\n\n"
		"| policy | VMA | pages | PTEs scanned | PTE updates | hint "
		"faults | promotions | passes scanning it | passes skipping "
		"it |\n|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
	for (i = 0; i < s4->nr; i++) {
		const struct sim_result *r = &s4->res[i];
		u32 k;

		for (k = 0; k < r->nr_vmas; k++)
			fprintf(f, "| `%s` | %s | %llu | %llu | %llu | %llu | "
				"%llu | %llu | %llu |\n", r->policy,
				k ? "large" : "small",
				(unsigned long long)(r->vma[k].pages *
						     r->scale),
				(unsigned long long)r->vma[k].pte_scanned,
				(unsigned long long)r->vma[k].pte_updates,
				(unsigned long long)r->vma[k].hint_faults,
				(unsigned long long)r->vma[k].promotions,
				(unsigned long long)r->vma[k].scans,
				(unsigned long long)r->vma[k].skips);
	}
	fprintf(f, "\n");
	md_set(f, s4);
	results61_write(f, rs, nr);
	fprintf(f, "\n## Reproduce\n\n```\nmake results      # runs "
		"tiersim --suite results --outdir build/results "
		"--results-md docs/RESULTS.md\n```\n\nThe runs are "
		"deterministic: the same tiersim and seed give the same "
		"page.\n");
	return fclose(f) ? -1 : 0;
}
