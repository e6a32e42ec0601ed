// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * tiersim output: table, JSON and CSV (plot.c draws the SVG). JSON and CSV
 * carry the same scalar fields, from one table (run_fields()); JSON adds
 * the per-phase, per-region, per-VMA figures and the time series. Every
 * number is printed with a fixed format, so the same seed and options give
 * the same bytes.
 */
#include "out.h"
#include "svg.h"

#include <stddef.h>
#include <string.h>

enum fkind { F_U64, F_DBL, F_OPT };	/* F_OPT: double, < 0 means n/a */

struct fval {
	const char *name;
	int kind;
	u64 u;
	double d;
};

#define MAX_FIELDS	80

static const char *const region_names[WL_NR_REGIONS] = {
	"other", "hot", "hot2", "burst",
};

/* The phase named @name of @rs's source, or -1. */
static int phase_index(const struct run_set *rs, const char *name)
{
	u32 i;

	for (i = 0; i < rs->src->nr_phases; i++)
		if (!strcmp(rs->src->phase_name[i], name))
			return (int)i;
	return -1;
}

static u32 run_fields(const struct run_set *rs, const struct sim_result *r,
		      struct fval *v)
{
	const struct sim_node_stats *n = &r->node;
	int kind = rs->wp ? (int)rs->wp->kind : -1;
	int burst = phase_index(rs, "burst");
	u32 i = 0;

#define U(nm, x) do { v[i].name = nm; v[i].kind = F_U64; v[i].u = (x); \
		      i++; } while (0)
#define D(nm, x) do { v[i].name = nm; v[i].kind = F_DBL; v[i].d = (x); \
		      i++; } while (0)
#define O(nm, x) do { v[i].name = nm; v[i].kind = F_OPT; v[i].d = (x); \
		      i++; } while (0)
	U("accesses", r->accesses);
	U("measured_accesses", r->measured_accesses);
	D("sim_time_s", (double)r->sim_time_ns / 1e9);
	D("measured_time_s", (double)r->measured_time_ns / 1e9);
	D("fast_ratio", sim_fast_ratio(r));
	D("mean_latency_ns", sim_mean_latency(r));
	D("throughput_macc_s", sim_throughput(r));
	U("promotions", r->promotions);
	U("demotions", r->demotions);
	U("pingpong", r->pingpong);
	U("hint_faults", r->hint_faults);
	U("hint_faults_fast", r->hint_faults_fast);
	U("pte_scanned", r->pte_scanned);
	U("pte_updates", r->pte_updates);
	U("scan_passes", r->scan_passes);
	U("pgpromote_candidate", n->pgpromote_candidate);
	U("pgpromote_candidate_nrl", n->pgpromote_candidate_nrl);
	U("promote_hot", n->promote_hot);
	U("promote_nrl", n->promote_nrl);
	U("refused_mode", n->refused_mode);
	U("refused_toptier", n->refused_toptier);
	U("refused_not_young", n->refused_not_young);
	U("refused_cold", n->refused_cold);
	U("refused_ratelimit", n->refused_ratelimit);
	U("refused_nospace", n->refused_nospace);
	O("threshold_ms", r->has_threshold && !r->th_faults ?
	  (double)n->threshold / 1e6 : -1);
	O("threshold_faults", r->has_threshold && r->th_faults ?
	  (double)n->threshold : -1);
	U("threshold_raised", n->th_raised);
	U("threshold_lowered", n->th_lowered);
	U("alloc_fast", r->alloc_fast);
	U("alloc_slow", r->alloc_slow);
	U("kswapd_wakeups", r->kswapd_wakeups);
	U("kswapd_scanned", r->kswapd_scanned);
	U("scan_period_end_ms", r->scan_period_end_ms);
	U("fast_used_end", r->fast_used_end);
	U("slow_used_end", r->slow_used_end);
	D("t_cpu_s", (double)r->t_cpu / 1e9);
	D("t_mem_s", (double)r->t_mem / 1e9);
	D("t_fault_s", (double)r->t_fault / 1e9);
	D("t_migrate_s", (double)r->t_migr / 1e9);
	D("t_scan_s", (double)r->t_scan / 1e9);
	D("t_alloc_s", (double)r->t_alloc / 1e9);
	D("t_tlb_s", (double)r->t_tlb / 1e9);
	U("tlb_shootdowns", r->tlb_shootdowns);
	D("t_kthread_s", (double)r->t_kthread / 1e9);
	U("kmigrated_batches", r->kmig_batches);
	U("abit_scanned", r->abit_scanned);
	U("goal_steps", r->goal_steps);
	U("damon_regions_fast", r->damon_regions[0]);
	U("damon_regions_slow", r->damon_regions[1]);
	U("damon_sample_us_fast", r->damon_sample_us[0]);
	U("damon_sample_us_slow", r->damon_sample_us[1]);
	U("damon_tried_demote", r->damon_tried[0]);
	U("damon_tried_promote", r->damon_tried[1]);
	U("rate_end_mbps", r->rate_end);
	D("slow_util", r->sim_time_ns ?
	  (double)r->busy_ns[0] / (double)r->sim_time_ns : 0);
	D("fast_util", r->sim_time_ns ?
	  (double)r->busy_ns[1] / (double)r->sim_time_ns : 0);
	O("response_ms", r->response_ms);
	U("promotions_hot", r->region_promo[WL_REGION_HOT]);
	U("promotions_hot2", r->region_promo[WL_REGION_HOT2]);
	U("promotions_burst", r->region_promo[WL_REGION_BURST]);
	/* The table's workload columns: cold-burst's, disjoint-vma's. */
	O("burst_throughput_macc_s", kind == WL_COLD_BURST && burst >= 0 ?
	  sim_phase_throughput(r, (u32)burst) : -1);
	O("large_vma_pte_updates", kind == WL_DISJOINT_VMA && r->nr_vmas > 1 ?
	  (double)r->vma[1].pte_updates : -1);
	D("state_bytes_per_page", r->pages ?
	  (double)r->state_bytes / (double)r->pages : 0);
#undef U
#undef D
#undef O
	return i;
}

/* @s as a JSON string; a byte that is not UTF-8 is written as U+FFFD. */
static void json_str(FILE *f, const char *s)
{
	size_t n;

	fputc('"', f);
	for (; *s; s += n ? n : 1) {
		unsigned char c = (unsigned char)*s;

		n = utf8_len(s);
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else if (!n)
			fputs("\\ufffd", f);
		else
			fwrite(s, 1, n, f);
	}
	fputc('"', f);
}

static void json_num(FILE *f, const struct fval *v)
{
	if (v->kind == F_U64)
		fprintf(f, "%llu", (unsigned long long)v->u);
	else if (v->kind == F_OPT && v->d < 0)
		fputs("null", f);
	else if (v->d >= 1e6 && v->d < 9007199254740992.0 &&
		 v->d == (double)(u64)v->d)
		fprintf(f, "%.0f", v->d);	/* a count, every digit */
	else
		fprintf(f, "%.6g", v->d);
}

/*
 * @sep "@name": the u32 at @off of every run of @rs if they agree, else
 * null (each run's "kernel" has its own).
 */
static void json_common(FILE *f, const char *sep, const char *name,
			const struct run_set *rs, size_t off)
{
	u32 v = 0, w, i;

	fprintf(f, "%s\"%s\": ", sep, name);
	for (i = 0; i < rs->nr; i++) {
		memcpy(&w, (const char *)&rs->res[i] + off, sizeof(w));
		if (i && w != v) {
			fputs("null", f);
			return;
		}
		v = w;
	}
	fprintf(f, "%u", v);
}

/*
 * Page counts are the machine's: in a 1/K scale model each page of the
 * stream stands for K (accesses stay the stream's).
 */
static void json_config(FILE *f, const struct run_set *rs)
{
	const struct sim_cfg *c = rs->cfg;
	const struct wl_params *p = rs->wp;
	const u64 k = c->scale ? c->scale : 1;
	u64 measured = 0;
	u32 i;

	fprintf(f, "    \"source\": {\"name\": ");
	json_str(f, rs->title);
	fprintf(f, ", \"kind\": \"%s\", \"pages\": %llu, \"accesses\": %llu, "
		"\"threads\": %u, \"vmas\": %u",
		p ? "workload" : "trace",
		(unsigned long long)(rs->src->pages * k),
		(unsigned long long)rs->src->total, rs->src->nr_threads,
		rs->src->nr_vmas);
	/* A trace has no seed: nothing in its run draws a random number. */
	if (p)
		fprintf(f, ", \"seed\": %llu", (unsigned long long)rs->seed);
	/* The measured phases' accesses (cold-burst's burst adds to them). */
	for (i = 0; p && rs->src->wl && i < rs->src->wl->nr_phases; i++)
		if (rs->src->wl->phase[i].measured)
			measured += rs->src->wl->phase[i].count;
	if (p)
		fprintf(f, ", \"measured_accesses\": %llu, \"init\": %d, "
			"\"write_frac\": %.6g, \"sigma_frac\": %.6g, "
			"\"zipf_s\": %.6g, \"hot_frac\": %.6g, \"hot_prob\": "
			"%.6g, \"shift_at\": %.6g, \"burst_pages\": %llu, "
			"\"small_frac\": %.6g",
			(unsigned long long)measured, p->init, p->write_frac,
			p->sigma_frac, p->zipf_s, p->hot_frac, p->hot_prob,
			p->shift_at, (unsigned long long)(p->burst_pages * k),
			p->small_frac);
	fprintf(f, ", \"phases\": [");
	for (i = 0; i < rs->src->nr_phases; i++)
		fprintf(f, "%s\"%s\"", i ? ", " : "", rs->src->phase_name[i]);
	fprintf(f, "]},\n");
	/*
	 * A trace's timestamps give the CPU time, and a --cpu-ns-file profile
	 * from access 0 every access's: no per-access figure.
	 */
	fprintf(f, "    \"machine\": {\"profile\": \"%s\", \"cpu_ns\": ",
		c->costs.name);
	if ((rs->src->tr && rs->src->tr->has_time) ||
	    (c->nr_cpu && !c->cpu_at[0]))
		fputs("null", f);
	else
		fprintf(f, "%u", c->costs.cpu_ns ? c->costs.cpu_ns :
			rs->src->cpu_ns);
	fprintf(f, ", "
		"\"slow_read_ns\": %u, \"slow_write_ns\": %u, "
		"\"fast_read_ns\": %u, \"fast_write_ns\": %u, "
		"\"fault_ns\": %u, \"migrate_ns\": %u, \"migrate_mbps\": %u, "
		"\"scan_pte_ns\": %u, \"scan_update_ns\": %u, \"alloc_ns\": %u, "
		"\"reclaim_ns\": %u, \"demote_ns\": %u, \"cpu_ns_steps\": %u, "
		"\"fast_pages\": %llu, "
		"\"slow_pages\": %llu, \"wmark_min\": %llu, \"wmark_low\": "
		"%llu, \"wmark_high\": %llu, \"wmark_promo\": %llu, "
		"\"thp\": %s, \"init_fast\": %.6g, \"lru\": \"%s\", \"kswapd\": \"%s\", "
		"\"mlp\": %u, \"slow_read_mbps\": %u, \"slow_write_mbps\": %u, "
		"\"fast_read_mbps\": %u, \"fast_write_mbps\": %u, "
		"\"slow_gran\": %u, \"fast_gran\": %u, \"slow_queue_ns\": %u, "
		"\"fast_queue_ns\": %u, \"tlb_ns\": %u, \"ipi_ns\": %u, "
		"\"tlb_entries\": %u, \"clock\": \"%s\", \"scale\": %u},\n",
		c->costs.lat[0], c->costs.lat[1],
		c->costs.lat[2], c->costs.lat[3], c->costs.fault_ns,
		c->costs.migrate_ns, c->costs.migrate_mbps,
		c->costs.scan_pte_ns, c->costs.scan_update_ns,
		c->costs.alloc_ns, c->costs.reclaim_ns,
		sim_demote_ns(&c->costs), c->nr_cpu,
		(unsigned long long)(c->fast_pages * k),
		(unsigned long long)(c->slow_pages * k),
		(unsigned long long)c->wmark[0], (unsigned long long)c->wmark[1],
		(unsigned long long)c->wmark[2], (unsigned long long)c->wmark[3],
		c->thp ? "true" : "false", c->init_fast,
		c->lru_two_list ? "two-list" : "clock",
		c->kswapd_rounds ? "rounds" : "simple",
		c->costs.mlp ? c->costs.mlp : rs->src->mlp ? rs->src->mlp : 1,
		c->costs.bw_mbps[0], c->costs.bw_mbps[1], c->costs.bw_mbps[2],
		c->costs.bw_mbps[3], c->costs.gran[0], c->costs.gran[1],
		c->costs.queue_ns[0], c->costs.queue_ns[1], c->costs.tlb_ns,
		c->costs.ipi_ns, c->tlb_entries,
		c->serial_clock ? "serial" : "threads",
		c->scale ? c->scale : 1);
	fprintf(f, "    \"kernel\": {\"scan_delay_ms\": %u, \"scan_period_ms\": "
		"%u, \"scan_period_adaptive\": %s, \"scan_size_mb\": %u, "
		"\"scan_period_max_ms\": %u, ", c->scan_delay_ms,
		sim_scan_period_ms(c, rs->src->pages),
		c->scan_period_ms ? "false" : "true", c->scan_size_mb,
		c->scan_period_max_ms ? c->scan_period_max_ms :
		TP_DEFAULT_SCAN_PERIOD_MAX_MS);
	/* the policies' own where no option set them: null if they differ */
	json_common(f, "", "thresh_period_ms", rs,
		    offsetof(struct sim_result, k_thresh_period_ms));
	json_common(f, ", ", "hot_threshold_ms", rs,
		    offsetof(struct sim_result, k_hot_ms));
	json_common(f, ", ", "rate_limit_mbps", rs,
		    offsetof(struct sim_result, k_rate_mbps));
	fprintf(f, ", \"sample_ms\": %u, \"pingpong_ms\": %u},\n",
		c->sample_ms, c->pingpong_ms);
}

/*
 * One JSON array: @name (quoted, with any separator before it), then the
 * u64 at @off of each of the @nr structs of @size bytes at @base, divided by
 * @div ("%.6g") or as integers when @div is 0.
 */
static void json_u64s(FILE *f, const char *name, const void *base,
		      size_t size, size_t off, u64 nr, double div)
{
	u64 i, v;

	fprintf(f, "%s: [", name);
	for (i = 0; i < nr; i++) {
		memcpy(&v, (const char *)base + i * size + off, sizeof(v));
		if (div)
			fprintf(f, "%s%.6g", i ? ", " : "", (double)v / div);
		else
			fprintf(f, "%s%llu", i ? ", " : "",
				(unsigned long long)v);
	}
	fprintf(f, "]");
}

/* The time series of a run, in the order they are written. */
static const struct {
	const char *name;
	size_t off;
	double div;
} series[] = {
	{ "\"t_s\"", offsetof(struct sim_sample, t_ns), 1e9 },
	{ ", \"accesses\"", offsetof(struct sim_sample, acc), 0 },
	{ ", \"fast_accesses\"", offsetof(struct sim_sample, fast), 0 },
	{ ", \"promotions\"", offsetof(struct sim_sample, promo), 0 },
	{ ", \"threshold_ms\"", offsetof(struct sim_sample, thresh), 1e6 },
	{ ", \"threshold_faults\"", offsetof(struct sim_sample, thresh), 0 },
	{ ", \"hint_faults\"", offsetof(struct sim_sample, faults), 0 },
	{ ", \"pgpromote_candidate\"", offsetof(struct sim_sample, cand), 0 },
	{ ", \"demotions\"", offsetof(struct sim_sample, demo), 0 },
	{ ", \"fast_used\"", offsetof(struct sim_sample, fast_used), 0 },
	{ ", \"pte_updates\"", offsetof(struct sim_sample, pte_updates), 0 },
	{ ", \"slow_util\"", offsetof(struct sim_sample, util[0]), 1000 },
	{ ", \"fast_util\"", offsetof(struct sim_sample, util[1]), 1000 },
	{ ", \"rate_mbps\"", offsetof(struct sim_sample, rate), 0 },
};

static void json_run(FILE *f, const struct run_set *rs,
		     const struct sim_result *r)
{
	struct fval v[MAX_FIELDS];
	u32 n = run_fields(rs, r, v), i;

	fprintf(f, "      {\"policy\": ");
	json_str(f, r->policy);
	fprintf(f, ", \"kernel\": {\"thresh_period_ms\": %u, "
		"\"hot_threshold_ms\": %u, \"rate_limit_mbps\": %u}",
		r->k_thresh_period_ms, r->k_hot_ms, r->k_rate_mbps);
	for (i = 0; i < n; i++) {
		fprintf(f, ", \"%s\": ", v[i].name);
		json_num(f, &v[i]);
	}
	fprintf(f, ",\n       \"phases\": [");
	for (i = 0; i < r->nr_phases; i++) {
		const struct sim_phase_stats *ph = &r->phase[i];

		fprintf(f, "%s{\"name\": \"%s\", \"accesses\": %llu, "
			"\"time_s\": %.6g, \"fast_ratio\": %.6g, "
			"\"throughput_macc_s\": %.6g, \"promotions\": %llu, "
			"\"hint_faults\": %llu}", i ? ", " : "",
			rs->src->phase_name[i],
			(unsigned long long)ph->accesses,
			(double)ph->time_ns / 1e9, ph->accesses ?
			(double)ph->fast / (double)ph->accesses : 0,
			sim_phase_throughput(r, i),
			(unsigned long long)ph->promotions,
			(unsigned long long)ph->hint_faults);
	}
	fprintf(f, "],\n       \"region_promotions\": {");
	for (i = 0; i < WL_NR_REGIONS; i++)
		fprintf(f, "%s\"%s\": %llu", i ? ", " : "", region_names[i],
			(unsigned long long)r->region_promo[i]);
	fprintf(f, "},\n       \"map\": {");
	json_u64s(f, "\"promotions\"", r->map_promo, sizeof(u64), 0,
		  SIM_MAP_BINS, 0);
	json_u64s(f, ", \"allocated\"", r->map_alloc, sizeof(u64), 0,
		  SIM_MAP_BINS, 0);
	json_u64s(f, ", \"fast\"", r->map_fast, sizeof(u64), 0,
		  SIM_MAP_BINS, 0);
	fprintf(f, "},\n       \"to_oracle\": ");
	if (r->has_to_oracle) {
		fprintf(f, "{\"promote\": %llu, \"demote\": %llu, ",
			(unsigned long long)r->to_oracle_promo,
			(unsigned long long)r->to_oracle_demo);
		fprintf(f, "\"gain_pct\": [");
		for (i = 0; i < SIM_TO_ORACLE_SHARES; i++)
			fprintf(f, "%s%u", i ? ", " : "",
				sim_to_oracle_pct[i]);
		json_u64s(f, "], \"migrations\"", r->to_oracle_mig,
			  sizeof(u64), 0, SIM_TO_ORACLE_SHARES, 0);
		fprintf(f, "}");
	} else {
		fprintf(f, "null");
	}
	fprintf(f, ",\n       \"vmas\": [");
	for (i = 0; i < r->nr_vmas; i++) {
		const struct sim_vma_stats *s = &r->vma[i];

		fprintf(f, "%s{\"pages\": %llu, \"pte_scanned\": %llu, "
			"\"pte_updates\": %llu, \"hint_faults\": %llu, "
			"\"promotions\": %llu, \"scans\": %llu, \"skips\": "
			"%llu}", i ? ", " : "",
			(unsigned long long)(s->pages * r->scale),
			(unsigned long long)s->pte_scanned,
			(unsigned long long)s->pte_updates,
			(unsigned long long)s->hint_faults,
			(unsigned long long)s->promotions,
			(unsigned long long)s->scans,
			(unsigned long long)s->skips);
	}
	fprintf(f, "],\n       \"scans\": {");
	json_u64s(f, "\"t_s\"", r->pass, sizeof(*r->pass),
		  offsetof(struct sim_pass, t_ns), r->nr_passes, 1e9);
	json_u64s(f, ", \"duration_ms\"", r->pass, sizeof(*r->pass),
		  offsetof(struct sim_pass, cost_ns), r->nr_passes, 1e6);
	json_u64s(f, ", \"updates\"", r->pass, sizeof(*r->pass),
		  offsetof(struct sim_pass, updates), r->nr_passes, 0);
	json_u64s(f, ", \"seq\"", r->pass, sizeof(*r->pass),
		  offsetof(struct sim_pass, seq), r->nr_passes, 0);
	json_u64s(f, ", \"period_ms\"", r->pass, sizeof(*r->pass),
		  offsetof(struct sim_pass, period_ns), r->nr_passes, 1e6);
	fprintf(f, "},\n       \"series\": {");
	for (i = 0; i < sizeof(series) / sizeof(series[0]); i++) {
		/* The threshold in its unit, as the scalar fields: or null. */
		if (series[i].off == offsetof(struct sim_sample, thresh) &&
		    (!r->has_threshold ||
		     !r->th_faults != (series[i].div != 0))) {
			fprintf(f, "%s: null", series[i].name);
			continue;
		}
		json_u64s(f, series[i].name, r->sample, sizeof(*r->sample),
			  series[i].off, r->nr_samples, series[i].div);
	}
	fprintf(f, "}}");
}

void out_json(FILE *f, const struct run_set *rs, u32 nr_sets)
{
	u32 s, i;

	fprintf(f, "{\n  \"tiersim\": \"%s\",\n  \"tierpol\": \"%s\",\n"
		"  \"sets\": [\n", TP_VERSION_STRING, tp_version_string());
	for (s = 0; s < nr_sets; s++) {
		fprintf(f, "   {\n");
		json_config(f, &rs[s]);
		fprintf(f, "    \"runs\": [\n");
		for (i = 0; i < rs[s].nr; i++) {
			json_run(f, &rs[s], &rs[s].res[i]);
			fprintf(f, "%s\n", i + 1 < rs[s].nr ? "," : "");
		}
		fprintf(f, "    ]\n   }%s\n", s + 1 < nr_sets ? "," : "");
	}
	fprintf(f, "  ]\n}\n");
}

static void csv_str(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

void out_csv(FILE *f, const struct run_set *rs, u32 nr_sets)
{
	struct fval v[MAX_FIELDS];
	u32 s, i, j, n;

	if (!nr_sets || !rs[0].nr)
		return;
	n = run_fields(&rs[0], &rs[0].res[0], v);
	fprintf(f, "source,policy");
	for (j = 0; j < n; j++)
		fprintf(f, ",%s", v[j].name);
	fputc('\n', f);
	for (s = 0; s < nr_sets; s++) {
		for (i = 0; i < rs[s].nr; i++) {
			n = run_fields(&rs[s], &rs[s].res[i], v);
			csv_str(f, rs[s].title);
			fputc(',', f);
			csv_str(f, rs[s].res[i].policy);
			for (j = 0; j < n; j++) {
				fputc(',', f);
				if (v[j].kind == F_OPT && v[j].d < 0)
					continue;
				json_num(f, &v[j]);
			}
			fputc('\n', f);
		}
	}
}

/* A count in at most 6 characters: 123456, 1.23M, 12.3G. */
static const char *compact(char *b, size_t n, u64 v)
{
	if (v < 1000000)
		snprintf(b, n, "%llu", (unsigned long long)v);
	else if (v < 10000000)
		snprintf(b, n, "%.2fM", (double)v / 1e6);
	else if (v < 1000000000)
		snprintf(b, n, "%.1fM", (double)v / 1e6);
	else
		snprintf(b, n, "%.2fG", (double)v / 1e9);
	return b;
}

/* A simulated time: "9.0 s", or below a second "17.4 ms" (3 digits). */
static const char *sim_time_str(char *b, size_t n, u64 ns)
{
	if (ns < 999500000ULL)	/* "1e+03 ms" past it */
		snprintf(b, n, "%.3g ms", (double)ns / 1e6);
	else
		snprintf(b, n, "%.1f s", (double)ns / 1e9);
	return b;
}

/*
 * The runs' simulated time: "9.0 s" when they agree to 0.05 s (below a
 * second: to the digits shown), else the range and the policies at its
 * ends, "5.8 s (oracle) to 9.1 s (promote-all)".
 */
static const char *sim_time_range(char *b, size_t n, const struct run_set *rs)
{
	char t0[24], t1[24];
	u64 t_lo, t_hi;
	u32 i, lo = 0, hi = 0;

	if (!rs->nr) {
		snprintf(b, n, "0.0 s");
		return b;
	}
	for (i = 1; i < rs->nr; i++) {
		if (rs->res[i].sim_time_ns < rs->res[lo].sim_time_ns)
			lo = i;
		if (rs->res[i].sim_time_ns > rs->res[hi].sim_time_ns)
			hi = i;
	}
	t_lo = rs->res[lo].sim_time_ns;
	t_hi = rs->res[hi].sim_time_ns;
	sim_time_str(t0, sizeof(t0), t_lo);
	sim_time_str(t1, sizeof(t1), t_hi);
	if (t_hi >= 999500000ULL ? t_hi - t_lo < 50000000 : !strcmp(t0, t1))
		snprintf(b, n, "%s", t1);
	else
		snprintf(b, n, "%s (%s) to %s (%s)", t0, rs->res[lo].policy,
			 t1, rs->res[hi].policy);
	return b;
}

void out_table(FILE *f, const struct run_set *rs)
{
	const struct sim_cfg *c = rs->cfg;
	char b[12][16], th[16], simt[320], size[32], seed[32];
	int kind = rs->wp ? (int)rs->wp->kind : -1;
	int burst = phase_index(rs, "burst");
	const u32 k = c->scale ? c->scale : 1;
	size_t w = 6;
	u32 i;

	for (i = 0; i < rs->nr; i++)
		if (strlen(rs->res[i].policy) > w)
			w = strlen(rs->res[i].policy);
	/* GiB, or MiB below one; a seed only for a generated workload. */
	if (rs->src->pages * k >= 262144)
		snprintf(size, sizeof(size), "%.2f GiB",
			 (double)(rs->src->pages * k) / 262144.0);
	else
		snprintf(size, sizeof(size), "%.2f MiB",
			 (double)(rs->src->pages * k) / 256.0);
	seed[0] = 0;
	if (!rs->src->tr)
		snprintf(seed, sizeof(seed), ", seed %llu",
			 (unsigned long long)rs->seed);
	fprintf(f, "\n== %s: %llu page%s (%s), %llu accesses, %u "
		"thread(s)%s\n   fast tier %llu pages (%.0f %%), "
		"profile %s%s, scan period %u ms%s, %s simulated\n",
		rs->title, (unsigned long long)(rs->src->pages * k),
		rs->src->pages * k == 1 ? "" : "s", size,
		(unsigned long long)(rs->src->total * k), rs->src->nr_threads,
		seed, (unsigned long long)(c->fast_pages * k),
		100.0 * (double)c->fast_pages / (double)rs->src->pages,
		c->costs.name, c->thp ? ", 2 MiB folios" : "",
		sim_scan_period_ms(c, rs->src->pages),
		c->scan_period_ms ? "" : " at first (adaptive)",
		sim_time_range(simt, sizeof(simt), rs));
	if (k > 1 || c->thresh_period_ms) {
		fprintf(f, "   ");
		if (k > 1)
			fprintf(f, "a 1/%u scale model (each page and access "
				"stands for %u)%s", k, k,
				c->thresh_period_ms ? "; " : "");
		if (c->thresh_period_ms)
			fprintf(f, "threshold period scaled to %s (from %.0f "
				"s)", sim_time_str(th, sizeof(th),
					(u64)c->thresh_period_ms * 1000000),
				(c->scan_period_max_ms ? c->scan_period_max_ms :
				 TP_DEFAULT_SCAN_PERIOD_MAX_MS) / 1e3);
		fputc('\n', f);
	}
	fprintf(f, "%-*s %6s %7s %7s %6s %6s %6s %6s %6s %6s %6s %6s %6s "
		"%6s %6s %6s %7s", (int)w, "policy", "fast%", "lat ns",
		"Macc/s", "promo", "demo", "pingp", "faults", "ptescn",
		"cand", "nrl", "r.cold", "r.rate", "r.room", "r.yng", "r.top",
		"thr ms");
	if (kind == WL_PHASE_SHIFT)
		fprintf(f, " %8s", "resp s");
	else if (kind == WL_COLD_BURST)
		fprintf(f, " %8s %8s", "burst M/s", "burst pr");
	else if (kind == WL_DISJOINT_VMA)
		fprintf(f, " %8s %8s", "bigVMA up", "hot pr");
	fputc('\n', f);
	for (i = 0; i < rs->nr; i++) {
		const struct sim_result *r = &rs->res[i];
		const struct sim_node_stats *n = &r->node;

		if (r->has_threshold && r->th_faults)
			snprintf(th, sizeof(th), "%sf",
				 compact(b[0], 16, n->threshold));
		else if (r->has_threshold)
			snprintf(th, sizeof(th), "%.0f",
				 (double)n->threshold / 1e6);
		else
			snprintf(th, sizeof(th), "-");
		fprintf(f, "%-*s %6.2f %7.1f %7.3f %6s %6s %6s %6s %6s %6s "
			"%6s %6s %6s %6s %6s %6s %7s", (int)w, r->policy,
			100 * sim_fast_ratio(r), sim_mean_latency(r),
			sim_throughput(r),
			compact(b[0], 16, r->promotions),
			compact(b[1], 16, r->demotions),
			compact(b[2], 16, r->pingpong),
			compact(b[3], 16, r->hint_faults),
			compact(b[4], 16, r->pte_scanned),
			compact(b[5], 16, n->pgpromote_candidate),
			compact(b[6], 16, n->pgpromote_candidate_nrl),
			compact(b[7], 16, n->refused_cold),
			compact(b[8], 16, n->refused_ratelimit),
			compact(b[9], 16, n->refused_nospace),
			compact(b[10], 16, n->refused_not_young),
			compact(b[11], 16, n->refused_toptier), th);
		if (kind == WL_PHASE_SHIFT) {
			if (r->response_ms >= 0)
				fprintf(f, " %8.2f", r->response_ms / 1e3);
			else
				fprintf(f, " %8s", "never");
		} else if (kind == WL_COLD_BURST && burst >= 0) {
			fprintf(f, " %9.4f %8s",
				sim_phase_throughput(r, (u32)burst),
				compact(b[0], 16,
					r->region_promo[WL_REGION_BURST]));
		} else if (kind == WL_DISJOINT_VMA && r->nr_vmas > 1) {
			fprintf(f, " %9s %8s",
				compact(b[0], 16, r->vma[1].pte_updates),
				compact(b[1], 16,
					r->region_promo[WL_REGION_HOT]));
		}
		fputc('\n', f);
	}
}

double out_pct(double a, double b)
{
	return b != 0 ? 100.0 * (a - b) / b : 0;
}
