// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * truth report [--md FILE] [--svg-dir DIR] [--svg-ref PREFIX]
 *		[--notes FILE] SCENARIO-DIR...
 *	Reads SCENARIO-DIR/scenario.txt (a title line, then a description)
 *	and SCENARIO-DIR/run* /{kernel,tiersim}.json, prints the side-by-side
 *	tables (per million accesses, medians, run-to-run spread, ratios) and
 *	writes the Markdown page and one comparison plot per scenario (with
 *	tiersim's SVG writer, examples/tiersim/svg.h).
 *	Exit status 0 whatever the fidelity, 1 if a run is missing or broken.
 */
#define _GNU_SOURCE
#include "truth.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>

#include "svg.h"

#define MAX_SCEN	8
#define TARGET		0.25	/* tiersim within 25 % of the kernel */

/* ---- report ----------------------------------------------------------------- */

struct metric {
	const char *label;
	const char *key;	/* in both JSONs' run object */
	int target;		/* one of the targets */
};

static const struct metric metrics[] = {
	{ "hint faults", "hint_faults", 1 },
	{ "promotion candidates", "pgpromote_candidate", 1 },
	{ "promotions", "promotions", 1 },
	{ "demotions", "demotions", 1 },
	{ "PTE updates", "pte_updates", 0 },
	{ "scan passes", "scan_passes", 0 },
};

#define NR_METRICS	(sizeof(metrics) / sizeof(metrics[0]))

struct run {
	struct jv *k, *t;
	const struct jv *kr, *tr;	/* sets.0.runs.0 */
	double kv[NR_METRICS], tv[NR_METRICS];	/* per million accesses */
};

struct scenario {
	char dir[1024];
	char name[256];
	char title[256];
	char desc[4096];
	int nr;
	struct run run[MAX_RUNS];
};

static double median(double *v, int n)
{
	int i, j;

	for (i = 1; i < n; i++)
		for (j = i; j > 0 && v[j - 1] > v[j]; j--) {
			double t = v[j];

			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	if (!n)
		return 0;
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Spread: (max - min) / median, in %; 0 for one run. */
static double spread(const double *v, int n)
{
	double lo = v[0], hi = v[0], tmp[MAX_RUNS], med;
	int i;

	for (i = 0; i < n; i++) {
		lo = v[i] < lo ? v[i] : lo;
		hi = v[i] > hi ? v[i] : hi;
		tmp[i] = v[i];
	}
	med = median(tmp, n);
	return med > 0 ? (hi - lo) / med * 100 : 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void load_scenario(struct scenario *s, const char *dir)
{
	char path[2048], line[1024], *names[MAX_RUNS * 4], err[512];
	struct dirent *de;
	FILE *f;
	DIR *d;
	int n = 0, i;
	size_t off = 0;

	memset(s, 0, sizeof(*s));
	snprintf(s->dir, sizeof(s->dir), "%s", dir);
	snprintf(s->name, sizeof(s->name), "%s", strrchr(dir, '/') ?
		 strrchr(dir, '/') + 1 : dir);
	snprintf(path, sizeof(path), "%s/scenario.txt", dir);
	f = fopen(path, "r");
	if (!f)
		die("%s: %s", path, strerror(errno));
	if (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		snprintf(s->title, sizeof(s->title), "%.200s", line);
	}
	while (fgets(line, sizeof(line), f) && off + 1 < sizeof(s->desc))
		off += (size_t)snprintf(s->desc + off, sizeof(s->desc) - off,
					"%s", line);
	fclose(f);
	d = opendir(dir);
	if (!d)
		die("%s: %s", dir, strerror(errno));
	while ((de = readdir(d)) && n < MAX_RUNS * 4)
		if (!strncmp(de->d_name, "run", 3))
			names[n++] = strdup(de->d_name);
	closedir(d);
	qsort(names, (size_t)n, sizeof(names[0]), cmp_str);
	for (i = 0; i < n && s->nr < MAX_RUNS; i++) {
		struct run *r = &s->run[s->nr];
		size_t m;

		snprintf(path, sizeof(path), "%s/%s/kernel.json", dir,
			 names[i]);
		r->k = json_load(path, err, sizeof(err));
		if (!r->k)
			die("%s", err);
		snprintf(path, sizeof(path), "%s/%s/tiersim.json", dir,
			 names[i]);
		r->t = json_load(path, err, sizeof(err));
		if (!r->t)
			die("%s", err);
		r->kr = json_path(r->k, "sets.0.runs.0");
		r->tr = json_path(r->t, "sets.0.runs.0");
		if (!r->kr || !r->tr)
			die("%s/%s: no run in the JSON", dir, names[i]);
		for (m = 0; m < NR_METRICS; m++) {
			double ka = json_num(r->kr, "accesses", 0);
			double ta = json_num(r->tr, "accesses", 0);

			r->kv[m] = ka > 0 ? json_num(r->kr, metrics[m].key, 0) *
				   1e6 / ka : 0;
			r->tv[m] = ta > 0 ? json_num(r->tr, metrics[m].key, 0) *
				   1e6 / ta : 0;
		}
		s->nr++;
		free(names[i]);
	}
	for (; i < n; i++)
		free(names[i]);
	if (!s->nr)
		die("%s: no run*/ directories", dir);
}

/* Time (s, from the start of phase @ph) when the phase's promotions reach
 * @frac of their total; -1 if the phase promotes nothing. */
static double promo_time(const struct jv *run, double t0, double t1,
			 double frac)
{
	const struct jv *t = json_path(run, "series.t_s");
	const struct jv *p = json_path(run, "series.promotions");
	double p0 = -1, p1 = 0, goal, pt = 0, pp = 0;
	size_t i;

	if (!t || !p || t->n != p->n || !t->n)
		return -1;
	/* The counts at t0 and t1, by interpolation. */
	for (i = 0; i < t->n; i++) {
		double ti = t->kid[i].num, pi = p->kid[i].num;

		if (p0 < 0 && ti >= t0)
			p0 = i ? pp + (pi - pp) * (t0 - pt) /
				 (ti - pt > 0 ? ti - pt : 1) : pi;
		if (ti <= t1)
			p1 = pi;
		pt = ti;
		pp = pi;
	}
	if (p0 < 0 || p1 - p0 < 1)
		return -1;
	goal = p0 + frac * (p1 - p0);
	pt = t0;
	pp = p0;
	for (i = 0; i < t->n; i++) {
		double ti = t->kid[i].num, pi = p->kid[i].num;

		if (ti < t0)
			continue;
		if (pi >= goal)
			return (pi > pp ? pt + (ti - pt) * (goal - pp) /
				(pi - pp) : ti) - t0;
		pt = ti;
		pp = pi;
	}
	return t1 - t0;
}

/* Phase @i's start and end (s) in a run; tiersim's from its phase times. */
static int phase_span(const struct jv *run, size_t i, double *t0, double *t1)
{
	const struct jv *ph = json_get(run, "phases");
	double t = 0;
	size_t j;

	if (!ph || i >= ph->n)
		return -1;
	for (j = 0; j < i; j++)
		t += json_num(&ph->kid[j], "time_s", 0);
	*t0 = json_num(&ph->kid[i], "start_s", t);
	*t1 = *t0 + json_num(&ph->kid[i], "time_s", 0);
	return 0;
}

static void fmt_num(char *b, size_t n, double v)
{
	if (v < 0)
		snprintf(b, n, "-");
	else if (v >= 100 || v == 0)
		snprintf(b, n, "%.0f", v);
	else if (v >= 10)
		snprintf(b, n, "%.1f", v);
	else
		snprintf(b, n, "%.2f", v);
}

static int md_scenario(FILE *f, const struct scenario *s,
		       const char *svg_ref, int *met, int *missed)
{
	const struct jv *km = json_path(s->run[0].k, "sets.0.machine");
	const struct jv *kk = json_path(s->run[0].k, "sets.0.kernel");
	const struct jv *src = json_path(s->run[0].k, "sets.0.source");
	const struct jv *phases = json_path(s->run[0].kr, "phases");
	char b[64];
	size_t m, p;
	int i, ok = 1;

	fprintf(f, "\n## %s\n\n%s\n", s->title, s->desc);
	fprintf(f, "Workload: `%s`, %.0f pages (%.0f MiB), %.1fM accesses "
		"after the initialisation pass; seed %.0f. Machine (run 1): "
		"node 0 %.0f MiB free at the start, node 1 %.0f MiB, node 0 "
		"watermarks min/low/high/promo %.0f/%.0f/%.0f/%.0f pages; "
		"%.2fM accesses/s in the guest; scan delay %.0f ms, period "
		"min/max %.0f/%.0f ms, size %.0f MB; hot threshold %.0f ms; "
		"rate limit %.0f MB/s.\n\n",
		json_path(src, "name")->str, json_num(src, "pages", 0),
		json_num(src, "pages", 0) / 256,
		(json_num(src, "measured_accesses", 0)) / 1e6,
		json_num(src, "seed", 0), json_num(km, "fast_pages", 0) / 256,
		json_num(km, "slow_pages", 0) / 256,
		json_num(km, "wmark_min", 0), json_num(km, "wmark_low", 0),
		json_num(km, "wmark_high", 0), json_num(km, "wmark_promo", 0),
		json_num(km, "access_rate", 0) / 1e6,
		json_num(kk, "scan_delay_ms", 0),
		json_num(kk, "scan_period_min_ms", 0),
		json_num(kk, "scan_period_max_ms", 0),
		json_num(kk, "scan_size_mb", 0),
		json_num(kk, "hot_threshold_ms", 0),
		json_num(kk, "rate_limit_mbps", 0));
	fprintf(f, "| per million accesses | kernel runs | kernel median | "
		"kernel spread | tiersim runs | tiersim median | tiersim "
		"spread | tiersim / kernel | target (±25 %%) |\n");
	fprintf(f, "| --- | --- | ---: | ---: | --- | ---: | ---: | ---: | "
		"--- |\n");
	for (m = 0; m < NR_METRICS; m++) {
		double kv[MAX_RUNS], tv[MAX_RUNS], kmed, tmed, ratio;
		char kl[256] = "", tl[256] = "";
		size_t ko = 0, to = 0;

		for (i = 0; i < s->nr; i++) {
			kv[i] = s->run[i].kv[m];
			tv[i] = s->run[i].tv[m];
			fmt_num(b, sizeof(b), kv[i]);
			ko += (size_t)snprintf(kl + ko, sizeof(kl) - ko, "%s%s",
					       i ? ", " : "", b);
			fmt_num(b, sizeof(b), tv[i]);
			to += (size_t)snprintf(tl + to, sizeof(tl) - to, "%s%s",
					       i ? ", " : "", b);
		}
		kmed = median(kv, s->nr);
		tmed = median(tv, s->nr);
		ratio = kmed > 0 ? tmed / kmed : (tmed > 0 ? INFINITY : 1);
		fprintf(f, "| %s | %s | ", metrics[m].label, kl);
		fmt_num(b, sizeof(b), kmed);
		fprintf(f, "%s | %.0f %% | %s | ", b, spread(kv, s->nr), tl);
		fmt_num(b, sizeof(b), tmed);
		fprintf(f, "%s | %.0f %% | ", b, spread(tv, s->nr));
		if (isinf(ratio))
			fprintf(f, "∞ |");
		else
			fprintf(f, "%.2f |", ratio);
		if (!metrics[m].target) {
			fprintf(f, " (not a target) |\n");
		} else if (fabs(ratio - 1) <= TARGET) {
			fprintf(f, " **met** |\n");
			(*met)++;
		} else {
			fprintf(f, " **missed** (%+.0f %%) |\n",
				isinf(ratio) ? 999.0 : (ratio - 1) * 100);
			(*missed)++;
			ok = 0;
		}
	}
	/* Time course: per phase, when promotions reach 10 % and 90 %. */
	fprintf(f, "\nTime course: seconds after the start of each phase at "
		"which its promotions reach 10 %% (start) and 90 %% (settled) "
		"of the phase's total, median over the runs.\n\n");
	fprintf(f, "| phase | kernel start | tiersim start | kernel settled "
		"| tiersim settled | kernel promotions | tiersim promotions "
		"|\n| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n");
	for (p = 0; phases && p < phases->n; p++) {
		double v[4][MAX_RUNS], np[2][MAX_RUNS];
		const char *name = json_path(&phases->kid[p], "name")->str;

		for (i = 0; i < s->nr; i++) {
			double t0, t1, u0, u1;

			if (phase_span(s->run[i].kr, p, &t0, &t1) ||
			    phase_span(s->run[i].tr, p, &u0, &u1))
				break;
			v[0][i] = promo_time(s->run[i].kr, t0, t1, 0.1);
			v[1][i] = promo_time(s->run[i].tr, u0, u1, 0.1);
			v[2][i] = promo_time(s->run[i].kr, t0, t1, 0.9);
			v[3][i] = promo_time(s->run[i].tr, u0, u1, 0.9);
			np[0][i] = promo_time(s->run[i].kr, t0, t1, 0) >= 0;
			np[1][i] = promo_time(s->run[i].tr, u0, u1, 0) >= 0;
		}
		if (i < s->nr)
			continue;
		fprintf(f, "| %s", name);
		for (m = 0; m < 4; m++) {
			fmt_num(b, sizeof(b), median(v[m], s->nr));
			fprintf(f, " | %s", b);
		}
		fprintf(f, " | %s | %s |\n",
			median(np[0], s->nr) > 0 ? "yes" : "none",
			median(np[1], s->nr) > 0 ? "yes" : "none");
	}
	/*
	 * The hot threshold: 6.1 exports no counter of it; tiersim's moves
	 * when the candidates of a period miss the rate limit's share of it.
	 */
	{
		double lo[MAX_RUNS], ra[MAX_RUNS], th[MAX_RUNS];

		for (i = 0; i < s->nr; i++) {
			lo[i] = json_num(s->run[i].tr, "threshold_lowered", 0);
			ra[i] = json_num(s->run[i].tr, "threshold_raised", 0);
			th[i] = json_num(s->run[i].tr, "threshold_ms", -1);
		}
		if (median(lo, s->nr) > 0 || median(ra, s->nr) > 0)
			fprintf(f, "\ntiersim's hot threshold (median of the "
				"runs): lowered %.0f and raised %.0f times, %.0f "
				"ms at the end (Linux 6.1 exports no counter of "
				"its threshold; its candidates per million "
				"accesses above show what it admitted).\n",
				median(lo, s->nr), median(ra, s->nr),
				median(th, s->nr));
	}
	if (svg_ref)
		fprintf(f, "\n![%s: kernel (solid) and tiersim (dashed) over "
			"time](%s%s.svg)\n", s->title, svg_ref, s->name);
	return ok;
}

/* ---- the comparison plot ----------------------------------------------------- */

#define SVG_W		760
#define PANEL_H		170
#define PAD_L		70
#define PAD_R		20
#define PAD_T		30

struct panel {
	const char *title;
	const char *key;	/* series key (tiersim may lack it) */
};

static const struct panel panels[] = {
	{ "promotions (cumulative, pages)", "promotions" },
	{ "demotions (cumulative, pages)", "demotions" },
	{ "hint faults (cumulative)", "hint_faults" },
	{ "promotion candidates (cumulative, pages)", "pgpromote_candidate" },
	{ "accesses (cumulative)", "accesses" },
	{ "hot threshold (ms; tiersim only, 6.1 exports none)", "threshold_ms" },
};

#define NR_PANELS	(sizeof(panels) / sizeof(panels[0]))

static const char *const kcolor[] = { "#1f77b4", "#2ca02c", "#9467bd",
				      "#8c564b" };
static const char *const tcolor[] = { "#d62728", "#ff7f0e", "#e377c2",
				      "#bcbd22" };

static void svg_line(FILE *f, const struct jv *t, const struct jv *y,
		     double x0, double y0, double sx, double sy,
		     const char *color, int dashed)
{
	size_t i;

	if (!t || !y || t->n != y->n || !t->n)
		return;
	svg_poly_begin(f, color, dashed ? "6,3" : NULL);
	for (i = 0; i < t->n; i++)
		svg_poly_point(f, x0 + t->kid[i].num * sx,
			       y0 - y->kid[i].num * sy, !i);
	svg_poly_end(f);
}

static int write_svg(const char *path, const struct scenario *s)
{
	const int h = PAD_T + (int)NR_PANELS * (PANEL_H + 40) + 30;
	double tmax = 0;
	size_t p, j;
	FILE *f;
	int i;

	for (i = 0; i < s->nr; i++) {
		const struct jv *tk = json_path(s->run[i].kr, "series.t_s");
		const struct jv *tt = json_path(s->run[i].tr, "series.t_s");

		if (tk && tk->n && tk->kid[tk->n - 1].num > tmax)
			tmax = tk->kid[tk->n - 1].num;
		if (tt && tt->n && tt->kid[tt->n - 1].num > tmax)
			tmax = tt->kid[tt->n - 1].num;
	}
	if (tmax <= 0)
		tmax = 1;
	f = svg_open(path, SVG_W, h, 11);
	if (!f)
		return -1;
	fprintf(f, "<text x=\"%d\" y=\"18\" font-size=\"13\" "
		"font-weight=\"bold\">", PAD_L);
	svg_esc(f, s->title);
	fprintf(f, ": Linux (solid) vs tiersim mainline (dashed)</text>\n");
	for (p = 0; p < NR_PANELS; p++) {
		double ymax = 0, x0 = PAD_L, y0, sx, sy;
		int top = PAD_T + (int)p * (PANEL_H + 40) + 20;

		for (i = 0; i < s->nr; i++) {
			const struct jv *a[2] = {
				json_path(s->run[i].kr, "series"),
				json_path(s->run[i].tr, "series"),
			};

			for (j = 0; j < 2; j++) {
				const struct jv *y = json_get(a[j],
							      panels[p].key);
				size_t q;

				for (q = 0; y && q < y->n; q++)
					if (y->kid[q].num > ymax)
						ymax = y->kid[q].num;
			}
		}
		if (ymax <= 0)
			ymax = 1;
		y0 = top + PANEL_H;
		sx = (SVG_W - PAD_L - PAD_R) / tmax;
		sy = PANEL_H / ymax;
		fprintf(f, "<text x=\"%d\" y=\"%d\" font-weight=\"bold\">%s"
			"</text>\n", PAD_L, top - 6, panels[p].title);
		svg_frame(f, PAD_L, top, SVG_W - PAD_L - PAD_R, PANEL_H, "#999");
		for (j = 0; j <= 4; j++) {
			double yv = ymax * (double)j / 4;

			fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">"
				"%.3g</text>\n", PAD_L - 4, y0 - yv * sy + 4, yv);
			fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" "
				"text-anchor=\"middle\">%.0f s</text>\n",
				x0 + tmax * (double)j / 4 * sx, y0 + 14,
				tmax * (double)j / 4);
		}
		/* Phase starts of kernel run 1 (grey). */
		{
			const struct jv *ph = json_get(s->run[0].kr, "phases");

			for (j = 1; ph && j < ph->n; j++) {
				double ts = json_num(&ph->kid[j], "start_s", 0);

				fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\""
					" y2=\"%.1f\" stroke=\"#bbb\" "
					"stroke-dasharray=\"2,2\"/>\n",
					x0 + ts * sx, top, x0 + ts * sx, y0);
			}
		}
		for (i = 0; i < s->nr; i++) {
			svg_line(f, json_path(s->run[i].kr, "series.t_s"),
				 json_get(json_get(s->run[i].kr, "series"),
					  panels[p].key), x0, y0, sx, sy,
				 kcolor[i % 4], 0);
			svg_line(f, json_path(s->run[i].tr, "series.t_s"),
				 json_get(json_get(s->run[i].tr, "series"),
					  panels[p].key), x0, y0, sx, sy,
				 tcolor[i % 4], 1);
		}
	}
	fprintf(f, "<text x=\"%d\" y=\"%d\">", PAD_L, h - 10);
	for (i = 0; i < s->nr; i++)
		fprintf(f, "<tspan fill=\"%s\">run %d kernel</tspan>, "
			"<tspan fill=\"%s\">run %d tiersim</tspan>%s",
			kcolor[i % 4], i + 1, tcolor[i % 4], i + 1,
			i + 1 < s->nr ? "; " : "");
	fprintf(f, "</text>\n");
	return svg_close(f);
}

int cmd_report(int argc, char **argv)
{
	static struct scenario sc[MAX_SCEN];
	const char *md = NULL, *svg_dir = NULL, *svg_ref = NULL, *notes = NULL;
	int nsc = 0, i, met = 0, missed = 0, ok_all = 1;
	FILE *f;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--md") && i + 1 < argc)
			md = argv[++i];
		else if (!strcmp(argv[i], "--svg-dir") && i + 1 < argc)
			svg_dir = argv[++i];
		else if (!strcmp(argv[i], "--svg-ref") && i + 1 < argc)
			svg_ref = argv[++i];
		else if (!strcmp(argv[i], "--notes") && i + 1 < argc)
			notes = argv[++i];
		else if (argv[i][0] == '-')
			die("usage: truth report [--md FILE] [--svg-dir DIR] "
			    "[--svg-ref PREFIX] [--notes FILE] SCENARIO-DIR...");
		else if (nsc < MAX_SCEN)
			load_scenario(&sc[nsc++], argv[i]);
	}
	if (!nsc)
		die("report: no scenario directory");
	if (svg_dir) {
		mkdir(svg_dir, 0755);
		for (i = 0; i < nsc; i++) {
			char path[4096];

			snprintf(path, sizeof(path), "%s/%s.svg", svg_dir,
				 sc[i].name);
			if (write_svg(path, &sc[i]))
				die("%s: %s", path, strerror(errno));
		}
	}
	f = md ? fopen(md, "w") : stdout;
	if (!f)
		die("%s: %s", md, strerror(errno));
	fprintf(f, "<!-- SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause "
		"-->\n<!-- Generated by \"make kernel-truth\" (tests/truth/): "
		"do not edit; the prose is tests/truth/notes.md. -->\n"
		"# Fidelity: tiersim's mainline preset against Linux %s\n\n"
		"Each scenario runs on the real kernel under qemu (node 0: DRAM "
		"and the CPUs; node 1: an emulated NVDIMM onlined as system RAM "
		"in a lower memory tier; NUMA balancing mode 2) and then in "
		"tiersim, given the machine each kernel run measured. Figures "
		"are per million accesses (all accesses, the initialisation "
		"pass included). Spread is (max - min) / median over the runs; "
		"the target is tiersim's median within 25 %% of the kernel's "
		"for hint faults, promotion candidates, promotions and "
		"demotions.\n",
		json_path(sc[0].run[0].k, "kernel") ? json_path(sc[0].run[0].k, "kernel")->str
		: "6.1");
	fprintf(f, "\nqemu %s, software emulation (TCG). The guest's access "
		"rate depends on the host's load, which differs from run to "
		"run: each tiersim run is given the rate its kernel run "
		"measured.\n",
		json_path(sc[0].run[0].k, "sets.0.machine.qemu") ?
		json_path(sc[0].run[0].k, "sets.0.machine.qemu")->str : "?");
	for (i = 0; i < nsc; i++)
		ok_all &= md_scenario(f, &sc[i], svg_ref, &met, &missed);
	fprintf(f, "\n## Summary\n\n%d of %d targets met (4 figures x %d "
		"scenarios); time courses in the plots above.\n", met,
		met + missed, nsc);
	if (notes) {
		FILE *n = fopen(notes, "r");
		char line[4096];

		if (!n)
			die("%s: %s", notes, strerror(errno));
		fprintf(f, "\n");
		while (fgets(line, sizeof(line), n))
			if (strncmp(line, "<!-- SPDX", 9))
				fputs(line, f);
		fclose(n);
	}
	if (md && fclose(f))
		die("%s: %s", md, strerror(errno));
	printf("truth: %d of %d targets met%s%s\n", met, met + missed,
	       md ? ", wrote " : "", md ? md : "");
	(void)ok_all;
	return 0;
}

