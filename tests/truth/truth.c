// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * truth: the host side of the real-kernel ground truth (make kernel-truth,
 * docs/FIDELITY.md).
 *
 *   truth parse CONSOLE OUTDIR
 *	Turns the console of one guest run (tests/truth/boot.sh) into
 *	OUTDIR/kernel.json, in tiersim's JSON format plus a few fields (the
 *	superset is described in docs/FIDELITY.md), and OUTDIR/tiersim.args:
 *	the tiersim options, one a line, that describe the measured machine
 *	(node sizes, watermarks, access rate, the kernel's settings) and run
 *	the same workload under the mainline preset.
 *
 *   truth report [--md FILE] [--svg-dir DIR] [--svg-ref PREFIX]
 *		  [--notes FILE] SCENARIO-DIR...
 *	Reads SCENARIO-DIR/scenario.txt (a title line, then a description)
 *	and SCENARIO-DIR/run* /{kernel,tiersim}.json, prints the side-by-side
 *	tables (per million accesses, medians, run-to-run spread, ratios) and
 *	writes the Markdown page and one comparison plot per scenario.
 *	Exit status 0 whatever the fidelity, 1 if a run is missing or broken.
 */
#define _GNU_SOURCE
#include "json.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_KV		512
#define MAX_SAMPLES	4096
#define MAX_SCANS	8192
#define MAX_PHASES	8
#define MAX_RUNS	8
#define MAX_SCEN	8
#define TARGET		0.25	/* tiersim within 25 % of the kernel */

static const char *prog = "truth";

static void __attribute__((noreturn, format(printf, 1, 2)))
die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	exit(1);
}

/* ---- console lines: "TRUTH kind key=value key=value ..." ---------------- */

struct kvl {
	int n;
	char *k[MAX_KV];
	char *v[MAX_KV];
};

static void kvl_parse(struct kvl *l, char *s)
{
	char *tok, *save = NULL;

	l->n = 0;
	for (tok = strtok_r(s, " \t\n", &save); tok && l->n < MAX_KV;
	     tok = strtok_r(NULL, " \t\n", &save)) {
		char *eq = strchr(tok, '=');

		if (!eq)
			continue;
		*eq = 0;
		l->k[l->n] = tok;
		l->v[l->n] = eq + 1;
		l->n++;
	}
}

static const char *kv_str(const struct kvl *l, const char *key)
{
	int i;

	for (i = 0; i < l->n; i++)
		if (!strcmp(l->k[i], key))
			return l->v[i];
	return NULL;
}

static double kv_num(const struct kvl *l, const char *key, double def)
{
	const char *s = kv_str(l, key);

	return s && *s ? strtod(s, NULL) : def;
}

static double kv_req(const struct kvl *l, const char *key, const char *what)
{
	const char *s = kv_str(l, key);

	if (!s || !*s)
		die("the console's %s line has no %s", what, key);
	return strtod(s, NULL);
}

struct scan {
	double t_ms;		/* program time */
	double dur_us;
};

/* One change_prot_numa() call: a chunk of a NUMA scan pass. */
struct chunk {
	double t_ms;		/* program time of the call */
	double dur_us;
	double start, end;	/* addresses */
	double updated;		/* PTEs changed (its return value) */
};

#define MAX_CHUNKS	16384

struct krun {
	char *buf[MAX_SAMPLES + 64];
	int nbuf;
	struct kvl machine, start, done, host, bind;
	int have_machine, have_start, have_done, have_host, have_bind;
	char release[64];
	int nr_phases;
	struct kvl phase[MAX_PHASES];
	int nr_samples;
	struct kvl sample[MAX_SAMPLES];
	int nr_scans;
	struct scan scans[MAX_SCANS];
	int nr_other_scans;
	int nr_chunks;
	struct chunk chunks[MAX_CHUNKS];
};

static char *keep(struct krun *k, const char *s)
{
	char *d = strdup(s);

	if (!d || k->nbuf == (int)(sizeof(k->buf) / sizeof(k->buf[0])))
		die("out of memory or too many lines");
	k->buf[k->nbuf++] = d;
	return d;
}

/* A kprobe entry waiting for its return, per task. */
struct pending {
	int pid;
	int valid;
	double t_ms;
	double start, end;
};

#define MAX_PENDING	16

struct raw_scan {
	double t_ms, dur_us;
	int pid;
};

/* The pending entry of (@pid, @kind): found, or a free one; NULL if full. */
static struct pending *pending_of(struct pending *p, int pid)
{
	int i;

	for (i = 0; i < MAX_PENDING; i++)
		if (p[i].valid && p[i].pid == pid)
			return &p[i];
	for (i = 0; i < MAX_PENDING; i++)
		if (!p[i].valid)
			return &p[i];
	return NULL;
}

/*
 * The trace instance's lines (absolute mono seconds; converted to program
 * time once the start line is known):
 *   "truth-guest-109 [001] ..... 49.09: tnw: (task_numa_work+0x0/0x..)"
 *   "truth-guest-109 [001] ..... 49.30: tnwr: (... <- task_numa_work)"
 *   "... cpn: (change_prot_numa+0x0/..) start=0x7f.. end=0x7f.."
 *   "... cpnr: (... <- change_prot_numa) ret=1234"
 * Entries and returns pair up per task: the workload's and the sampler's
 * events interleave.
 */
static void parse_kprobe(struct krun *k, const char *line,
			 struct pending *tnw, struct pending *cpn,
			 struct raw_scan *raw, int *nraw)
{
	const char *p = strstr(line, " [");
	const char *q, *ev;
	struct pending *pe;
	double t;
	int pid;

	if (!p)
		return;
	while (p > line && p[-1] == ' ')
		p--;
	for (q = p; q > line && q[-1] >= '0' && q[-1] <= '9'; q--)
		;
	if (q == p || q == line || q[-1] != '-')
		return;
	pid = atoi(q);
	ev = strstr(p, ": tnw");
	if (!ev)
		ev = strstr(p, ": cpn");
	if (!ev)
		return;
	for (q = ev; q > line && q[-1] != ' '; q--)
		;
	t = strtod(q, NULL) * 1e3;
	if (!strncmp(ev, ": tnw:", 6) || !strncmp(ev, ": cpn:", 6)) {
		pe = pending_of(ev[4] == 'w' ? tnw : cpn, pid);
		if (!pe)
			return;
		pe->pid = pid;
		pe->valid = 1;
		pe->t_ms = t;
		q = strstr(ev, "start=");
		pe->start = q ? (double)strtoull(q + 6, NULL, 0) : 0;
		q = strstr(ev, "end=");
		pe->end = q ? (double)strtoull(q + 4, NULL, 0) : 0;
		return;
	}
	pe = pending_of(ev[4] == 'w' ? tnw : cpn, pid);
	if (!pe || !pe->valid)
		return;
	pe->valid = 0;
	if (ev[4] == 'w') {
		if (*nraw == MAX_SCANS)
			return;
		raw[*nraw].t_ms = pe->t_ms;
		raw[*nraw].dur_us = (t - pe->t_ms) * 1e3;
		raw[*nraw].pid = pid;
		(*nraw)++;
	} else if (k->nr_chunks < MAX_CHUNKS) {
		struct chunk *c = &k->chunks[k->nr_chunks++];

		c->t_ms = pe->t_ms;
		c->dur_us = (t - pe->t_ms) * 1e3;
		c->start = pe->start;
		c->end = pe->end;
		q = strstr(ev, "ret=");
		c->updated = q ? strtod(q + 4, NULL) : 0;
	}
}

static void read_console(const char *path, struct krun *k)
{
	FILE *f = fopen(path, "r");
	char line[8192];
	static struct pending tnw[MAX_PENDING], cpn[MAX_PENDING];
	double t0_us = 0;
	int pid = -1, i;
	struct raw_scan *raw;
	int nraw = 0;

	if (!f)
		die("%s: %s", path, strerror(errno));
	raw = calloc(MAX_SCANS, sizeof(*raw));
	if (!raw)
		die("out of memory");
	memset(k, 0, sizeof(*k));
	memset(tnw, 0, sizeof(tnw));
	memset(cpn, 0, sizeof(cpn));
	while (fgets(line, sizeof(line), f)) {
		char *s;

		if (strncmp(line, "TRUTH ", 6))
			continue;
		s = line + 6;
		if (!strncmp(s, "machine ", 8)) {
			kvl_parse(&k->machine, keep(k, s + 8));
			k->have_machine = 1;
		} else if (!strncmp(s, "start ", 6)) {
			kvl_parse(&k->start, keep(k, s + 6));
			k->have_start = 1;
		} else if (!strncmp(s, "done ", 5)) {
			kvl_parse(&k->done, keep(k, s + 5));
			k->have_done = 1;
		} else if (!strncmp(s, "host ", 5)) {
			kvl_parse(&k->host, keep(k, s + 5));
			k->have_host = 1;
		} else if (!strncmp(s, "bind ", 5)) {
			kvl_parse(&k->bind, keep(k, s + 5));
			k->have_bind = 1;
		} else if (!strncmp(s, "phase ", 6) &&
			   k->nr_phases < MAX_PHASES) {
			kvl_parse(&k->phase[k->nr_phases++], keep(k, s + 6));
		} else if (!strncmp(s, "sample ", 7) &&
			   k->nr_samples < MAX_SAMPLES) {
			kvl_parse(&k->sample[k->nr_samples++], keep(k, s + 7));
		} else if (!strncmp(s, "init release ", 13)) {
			snprintf(k->release, sizeof(k->release), "%.60s",
				 s + 13);
			k->release[strcspn(k->release, "\n")] = 0;
		} else if (!strncmp(s, "kprobe ", 7)) {
			parse_kprobe(k, s + 7, tnw, cpn, raw, &nraw);
		}
	}
	fclose(f);
	if (!k->have_machine || !k->have_start || !k->have_done ||
	    k->nr_samples < 2 || !k->nr_phases)
		die("%s: incomplete run (machine %d, start %d, done %d, %d "
		    "samples, %d phases)", path, k->have_machine,
		    k->have_start, k->have_done, k->nr_samples, k->nr_phases);
	t0_us = kv_req(&k->start, "mono_t0_us", "start");
	pid = (int)kv_num(&k->start, "pid", -1);
	for (i = 0; i < nraw; i++) {
		if (raw[i].pid >= 0 && pid >= 0 && raw[i].pid != pid) {
			k->nr_other_scans++;
			continue;
		}
		k->scans[k->nr_scans].t_ms = raw[i].t_ms - t0_us / 1e3;
		k->scans[k->nr_scans].dur_us = raw[i].dur_us;
		k->nr_scans++;
	}
	free(raw);
	for (i = 0; i < k->nr_chunks; i++)
		k->chunks[i].t_ms -= t0_us / 1e3;
}

/* ---- parse: kernel.json and tiersim.args ------------------------------- */

static const char *const counters[] = {
	"numa_hint_faults", "numa_pte_updates", "pgpromote_candidate",
	"pgpromote_success", "pgdemote_kswapd", "pgdemote_direct",
	"numa_pages_migrated", "pgmigrate_success", "pgmigrate_fail",
	"pgsteal_kswapd", "pgscan_kswapd", "pgrefill", "numa_hint_faults_local",
	"kswapd_low_wmark_hit_quickly", "kswapd_high_wmark_hit_quickly",
	"pageoutrun", "allocstall_movable", "allocstall_dma32",
};

#define NR_COUNTERS	(sizeof(counters) / sizeof(counters[0]))

/* The counter's increase from the first sample to sample @i. */
static double delta(const struct krun *k, int i, const char *key)
{
	return kv_num(&k->sample[i], key, 0) - kv_num(&k->sample[0], key, 0);
}

/* Workload RSS (pages) at program time @t_ms, from the samples. */
static double rss_at(const struct krun *k, double t_ms)
{
	int i;

	for (i = 1; i < k->nr_samples; i++) {
		double t1 = kv_num(&k->sample[i], "t_ms", 0);

		if (t1 >= t_ms) {
			const struct kvl *a = &k->sample[i - 1];
			const struct kvl *b = &k->sample[i];
			double t0 = kv_num(a, "t_ms", 0), x, ra, rb;

			ra = kv_num(a, "ws0", 0) + kv_num(a, "ws1", 0);
			rb = kv_num(b, "ws0", 0) + kv_num(b, "ws1", 0);
			x = t1 > t0 ? (t_ms - t0) / (t1 - t0) : 1;
			return ra + (rb - ra) * x;
		}
	}
	return kv_num(&k->sample[k->nr_samples - 1], "ws0", 0) +
	       kv_num(&k->sample[k->nr_samples - 1], "ws1", 0);
}

/* What the parse derives: the machine as tiersim takes it. */
struct derived {
	double acc_total, acc_init, acc_measured;
	double t_start_ms, t_main_ms, t_end_ms;
	double scan_ms_init, scan_ms_main, scan_ptes;
	int scan_passes;
	double cpu_ns, alloc_ns, scan_pte_ns, rate, reclaim_ns;
	double scan_update_ns;
	int scan_fit;		/* scan costs fitted on the chunks */
	double fault_ns, migrate_ns;
	int cost_fit;		/* intervals the fault costs were fitted on */
	double demote_ns;
	int kswapd_fit;		/* intervals kswapd's costs were fitted on */
	double fast_pages, slow_pages, wm[4];
};

/*
 * The fast tier as tiersim models it, one zone: node 0's highest populated
 * zone, where the workload's pages go, with its watermarks (promo = high +
 * (high - low), as setup_per_zone_wmarks() sets it). A lower zone (DMA)
 * only adds the pages an allocation may take from it before its low
 * watermark plus its lowmem reserve against the top zone stops it: the
 * kernel never reclaims them back (kswapd balances the top zone), so they
 * are capacity, never free room.
 *
 * Capacity: what the workload can have, its resident pages on node 0 plus
 * the free pages as above, median over the samples of the measured phases.
 * It is larger than the free memory at the start: the kernel gives back a
 * few thousand pages of its own (caches, per-CPU lists) under pressure.
 */
struct ftier {
	int nz, top;
	char names[8][32];
	double managed[8], low[8], reserve[8];
};

static void ftier_init(const struct krun *k, struct ftier *z, double wm[4])
{
	const struct kvl *m = &k->machine;
	char key[320];
	int i, j;

	memset(z, 0, sizeof(*z));
	z->top = -1;
	/* Node 0's zones in zone-index order (DMA, DMA32, Normal, ...). */
	for (i = 0; i < m->n && z->nz < 8; i++) {
		const char *kk = m->k[i];
		size_t l = strlen(kk);

		if (strncmp(kk, "z0_", 3) || l < 12 ||
		    strcmp(kk + l - 8, "_managed"))
			continue;
		snprintf(z->names[z->nz], sizeof(z->names[0]), "%.*s",
			 (int)(l - 11), kk + 3);
		z->managed[z->nz] = atof(m->v[i]);
		if (z->managed[z->nz] > 0)
			z->top = z->nz;
		z->nz++;
	}
	if (z->top < 0)
		die("the machine line has no zones of node 0");
	snprintf(key, sizeof(key), "z0_%s_min", z->names[z->top]);
	wm[0] = kv_req(m, key, "machine");
	snprintf(key, sizeof(key), "z0_%s_low", z->names[z->top]);
	wm[1] = kv_req(m, key, "machine");
	snprintf(key, sizeof(key), "z0_%s_high", z->names[z->top]);
	wm[2] = kv_req(m, key, "machine");
	wm[3] = wm[2] + (wm[2] - wm[1]);
	for (i = 0; i < z->top; i++) {
		const char *prot;

		snprintf(key, sizeof(key), "z0_%s_low", z->names[i]);
		z->low[i] = kv_num(m, key, 0);
		snprintf(key, sizeof(key), "z0_%s_protection", z->names[i]);
		prot = kv_str(m, key);
		/* "r0,_r1,..." by zone index: the reserve against the top. */
		for (j = 0; prot && j <= z->top; j++) {
			z->reserve[i] = strtod(prot, NULL);
			prot = strchr(prot, ',');
			if (prot)
				while (*prot == ',' || *prot == '_')
					prot++;
		}
	}
}

/* Pages the workload has or could have on node 0 at sample @i. */
static double ftier_avail(const struct krun *k, const struct ftier *z, int i)
{
	const struct kvl *s = &k->sample[i];
	char key[320];
	double v = kv_num(s, "ws0", 0), fr;
	int j;

	snprintf(key, sizeof(key), "z0_%s_free", z->names[z->top]);
	v += kv_num(s, key, 0);
	for (j = 0; j < z->top; j++) {
		if (z->managed[j] <= 0)
			continue;
		snprintf(key, sizeof(key), "z0_%s_free", z->names[j]);
		fr = kv_num(s, key, 0);
		if (fr > z->low[j] + z->reserve[j])
			v += fr - z->low[j] - z->reserve[j];
	}
	return v;
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void fast_tier(const struct krun *k, struct derived *d)
{
	static double v[MAX_SAMPLES];
	struct ftier z;
	int i, n = 0;

	ftier_init(k, &z, d->wm);
	for (i = 0; i < k->nr_samples; i++)
		if (kv_num(&k->sample[i], "t_ms", 0) >= d->t_main_ms)
			v[n++] = ftier_avail(k, &z, i);
	if (!n)
		v[n++] = ftier_avail(k, &z, 0);
	qsort(v, (size_t)n, sizeof(v[0]), cmp_dbl);
	d->fast_pages = v[n / 2];
}

/* A call shorter than this returned before scanning (not its turn). */
#define SCAN_MIN_US	300.0

/* Scanner time (ms) of the workload's passes inside [t0, t1). */
static double scan_ms_in(const struct krun *k, double t0, double t1)
{
	double ms = 0;
	int i;

	for (i = 0; i < k->nr_scans; i++)
		if (k->scans[i].dur_us >= SCAN_MIN_US &&
		    k->scans[i].t_ms >= t0 && k->scans[i].t_ms < t1)
			ms += k->scans[i].dur_us / 1e3;
	return ms;
}

/* Accesses done at program time @t_ms (interpolated from the samples). */
static double acc_at(const struct krun *k, double t_ms)
{
	int i;

	for (i = 1; i < k->nr_samples; i++) {
		double t1 = kv_num(&k->sample[i], "t_ms", 0);

		if (t1 >= t_ms) {
			double t0 = kv_num(&k->sample[i - 1], "t_ms", 0);
			double a0 = kv_num(&k->sample[i - 1], "acc", 0);
			double a1 = kv_num(&k->sample[i], "acc", 0);

			return t1 > t0 ? a0 + (a1 - a0) * (t_ms - t0) /
			       (t1 - t0) : a1;
		}
	}
	return kv_num(&k->sample[k->nr_samples - 1], "acc", 0);
}

/*
 * Least squares for d = a x + b y with a, b >= 0 (the costs in the fits
 * below): sums over the samples, then the normal equations; a negative
 * coefficient is dropped and the other one refitted alone.
 */
struct lsq2 {
	double sxx, sxy, syy, sxd, syd;
	int n;
};

static void lsq2_add(struct lsq2 *l, double x, double y, double d)
{
	l->sxx += x * x;
	l->sxy += x * y;
	l->syy += y * y;
	l->sxd += x * d;
	l->syd += y * d;
	l->n++;
}

static void lsq2_solve(const struct lsq2 *l, double *a, double *b)
{
	double det = l->sxx * l->syy - l->sxy * l->sxy;

	*a = det > 0 ? (l->sxd * l->syy - l->syd * l->sxy) / det : -1;
	*b = det > 0 ? (l->syd * l->sxx - l->sxd * l->sxy) / det : -1;
	if (*b < 0) {
		*b = 0;
		*a = l->sxd / l->sxx;
	} else if (*a < 0) {
		*a = 0;
		*b = l->syy > 0 ? l->syd / l->syy : 0;
	}
}

/*
 * The scanner's cost, from the passes (task_numa_work(), ftrace) and the
 * chunks each marked (change_prot_numa(), kprobes): per pass, duration =
 * a x PTEs examined + b x PTEs changed, least squares over the passes.
 * PTEs examined: the chunk's pages the workload had touched by then (its
 * initialisation pass touches them in address order). Returns -1 without
 * chunk data.
 */
static int fit_scan_cost(const struct krun *k, struct derived *d)
{
	double base = (double)strtoull(kv_str(&k->start, "base") ?: "0", NULL,
				       0);
	double pages = kv_num(&k->start, "pages", 0), top = base + pages * 4096;
	struct lsq2 l = { 0 };
	double a, b;
	int i, j;

	if (!base || !k->nr_chunks)
		return -1;
	for (i = 0; i < k->nr_scans; i++) {
		const struct scan *sc = &k->scans[i];
		double ex = 0, up = 0, dur = sc->dur_us / 1e3;

		if (sc->dur_us < SCAN_MIN_US)
			continue;
		for (j = 0; j < k->nr_chunks; j++) {
			const struct chunk *c = &k->chunks[j];
			double pop, lo, hi;

			if (c->t_ms < sc->t_ms || c->t_ms > sc->t_ms + dur + 1 ||
			    c->end <= base || c->start >= top)
				continue;
			pop = acc_at(k, c->t_ms);
			if (pop > pages)
				pop = pages;
			lo = c->start > base ? c->start : base;
			hi = c->end < base + pop * 4096 ? c->end :
			     base + pop * 4096;
			if (hi > lo)
				ex += (hi - lo) / 4096;
			up += c->updated;
		}
		if (ex <= 0)
			continue;
		lsq2_add(&l, ex, up, dur);
	}
	if (l.n < 2)
		return -1;
	lsq2_solve(&l, &a, &b);
	d->scan_pte_ns = a * 1e6;
	d->scan_update_ns = b * 1e6;
	d->scan_fit = l.n;
	return 0;
}

/*
 * What a hint fault and a promotion cost the workload: least squares over
 * the intervals between samples of the measured phases, the task's system
 * time minus its scanning = a x hint faults + b x promotions (both >= 0).
 * System time leaves out the user-mode accesses, whose speed follows the
 * host's load. Returns -1 without enough data.
 */
static int fit_fault_cost(const struct krun *k, struct derived *d)
{
	struct lsq2 l = { 0 };
	double a, b;
	int i;

	for (i = 1; i < k->nr_samples; i++) {
		const struct kvl *p = &k->sample[i - 1], *q = &k->sample[i];
		double t0 = kv_num(p, "t_ms", 0), t1 = kv_num(q, "t_ms", 0);
		double sys = kv_num(q, "sys_ms", -1) - kv_num(p, "sys_ms", -1);
		double x = kv_num(q, "numa_hint_faults", 0) -
			   kv_num(p, "numa_hint_faults", 0);
		double y = kv_num(q, "pgpromote_success", 0) -
			   kv_num(p, "pgpromote_success", 0);
		double dd;

		if (t0 < d->t_main_ms || kv_num(p, "sys_ms", -1) < 0)
			continue;
		dd = (sys - scan_ms_in(k, t0, t1)) * 1e6;
		lsq2_add(&l, x, y, dd);
	}
	if (l.n < 3 || l.sxx <= 0)
		return -1;
	lsq2_solve(&l, &a, &b);
	d->fault_ns = a > 0 ? a : 0;
	d->migrate_ns = b > 0 ? b : 0;
	d->cost_fit = l.n;
	return 0;
}

/*
 * What kswapd's work costs it: least squares over the intervals between
 * samples, kswapd0's CPU time = a x pages looked at (pgscan_kswapd +
 * pgrefill) + b x pages demoted (pgdemote_kswapd), both >= 0. Under
 * emulation a demotion (a migration with its TLB shootdown to the busy
 * vCPU) costs 100-150 us and a look a few us: while the initialisation pass
 * fills node 0, every page kswapd looks at is old and demoted, in the
 * measured phases it looks at up to 60 pages per demotion. One rate per look
 * (kswapd's time over its looks, less the promotions' migration cost per
 * demotion) mixes the two. Returns -1 without enough data.
 */
static int fit_kswapd_cost(const struct krun *k, struct derived *d)
{
	struct lsq2 l = { 0 };
	double a, b;
	int i;

	for (i = 1; i < k->nr_samples; i++) {
		const struct kvl *p = &k->sample[i - 1], *q = &k->sample[i];
		double x = kv_num(q, "pgscan_kswapd", 0) -
			   kv_num(p, "pgscan_kswapd", 0) +
			   kv_num(q, "pgrefill", 0) - kv_num(p, "pgrefill", 0);
		double y = kv_num(q, "pgdemote_kswapd", 0) -
			   kv_num(p, "pgdemote_kswapd", 0);
		double dd = (kv_num(q, "kswapd_cpu_ms", 0) -
			     kv_num(p, "kswapd_cpu_ms", 0)) * 1e6;

		if (x <= 0 && y <= 0)
			continue;
		lsq2_add(&l, x, y, dd);
	}
	if (l.n < 3 || l.sxx <= 0 || l.syy <= 0)
		return -1;
	lsq2_solve(&l, &a, &b);
	d->reclaim_ns = a;
	d->demote_ns = b;
	d->kswapd_fit = l.n;
	return 0;
}

static void derive(const struct krun *k, struct derived *d)
{
	double lru;
	int i;

	memset(d, 0, sizeof(*d));
	d->acc_total = kv_req(&k->done, "acc", "done");
	d->t_end_ms = kv_req(&k->done, "t_ms", "done");
	d->t_start_ms = kv_num(&k->phase[0], "t_ms", 0);
	d->t_main_ms = d->t_start_ms;
	if (!strcmp(kv_str(&k->phase[0], "name") ?: "", "init") &&
	    k->nr_phases > 1) {
		d->acc_init = kv_num(&k->phase[1], "acc", 0);
		d->t_main_ms = kv_num(&k->phase[1], "t_ms", 0);
	}
	d->acc_measured = d->acc_total - d->acc_init;
	for (i = 0; i < k->nr_scans; i++) {
		const struct scan *s = &k->scans[i];

		if (s->dur_us < SCAN_MIN_US)
			continue;
		d->scan_passes++;
		if (s->t_ms < d->t_main_ms)
			d->scan_ms_init += s->dur_us / 1e3;
		else
			d->scan_ms_main += s->dur_us / 1e3;
		d->scan_ptes += rss_at(k, s->t_ms);
	}
	/* The task's time per access, scanning excluded (tiersim adds it). */
	d->rate = d->acc_measured * 1e3 / (d->t_end_ms - d->t_main_ms);
	d->cpu_ns = (d->t_end_ms - d->t_main_ms - d->scan_ms_main) * 1e6 /
		    d->acc_measured;
	if (d->acc_init > 0) {
		d->alloc_ns = (d->t_main_ms - d->t_start_ms - d->scan_ms_init) *
			      1e6 / d->acc_init - d->cpu_ns;
		if (d->alloc_ns < 0)
			d->alloc_ns = 0;
	}
	/* Each pass is taken to examine the whole RSS (see FIDELITY.md). */
	d->scan_pte_ns = d->scan_ptes > 0 ?
		(d->scan_ms_init + d->scan_ms_main) * 1e6 / d->scan_ptes : 0;
	fit_scan_cost(k, d);
	fit_fault_cost(k, d);
	fast_tier(k, d);
	d->slow_pages = kv_num(&k->sample[0], "n1_free", 0);
	/*
	 * kswapd's CPU time per page it examined: on the inactive list
	 * (pgscan_kswapd) and on the active list (pgrefill).
	 */
	lru = delta(k, k->nr_samples - 1, "pgscan_kswapd") +
	      delta(k, k->nr_samples - 1, "pgrefill");
	/* tiersim charges kswapd migrate_ns per demotion on top. */
	d->reclaim_ns = lru > 0 ? ((kv_num(&k->sample[k->nr_samples - 1],
					   "kswapd_cpu_ms", 0) -
				    kv_num(&k->sample[0], "kswapd_cpu_ms",
					   0)) * 1e6 -
				   d->migrate_ns *
				   delta(k, k->nr_samples - 1,
					 "pgdemote_kswapd")) / lru : 0;
	if (d->reclaim_ns < 0)
		d->reclaim_ns = 0;
	d->demote_ns = d->migrate_ns;
	fit_kswapd_cost(k, d);
}

static void json_series(FILE *f, const struct krun *k, const char *name,
			const char *key, int is_delta, double scale)
{
	int i;

	fprintf(f, "%s\"%s\": [", strcmp(name, "t_s") ? ", " : "", name);
	for (i = 0; i < k->nr_samples; i++) {
		double v = is_delta ? delta(k, i, key) :
			   kv_num(&k->sample[i], key, 0);

		fprintf(f, "%s%.10g", i ? ", " : "", v * scale);
	}
	fprintf(f, "]");
}

static void write_kernel_json(const char *path, const struct krun *k,
			      const struct derived *d)
{
	const struct kvl *st = &k->start, *m = &k->machine;
	const int last = k->nr_samples - 1;
	FILE *f = fopen(path, "w");
	char phases[512];
	double dem;
	int i;

	if (!f)
		die("%s: %s", path, strerror(errno));
	snprintf(phases, sizeof(phases), "%s", kv_str(st, "phases") ?: "");
	fprintf(f, "{\n  \"tiersim\": \"kernel-truth\",\n  \"kernel\": "
		"\"%s\",\n  \"sets\": [\n   {\n", k->release);
	fprintf(f, "    \"source\": {\"name\": \"%s\", \"kind\": \"workload\", "
		"\"pages\": %s, \"accesses\": %.0f, \"threads\": %s, "
		"\"seed\": %s, \"measured_accesses\": %.0f, \"init\": %s, "
		"\"write_frac\": %s, \"sigma_frac\": %s, \"hot_frac\": %s, "
		"\"hot_prob\": %s, \"shift_at\": %s, \"burst_pages\": %s, "
		"\"init_fast\": %s, \"phases\": [",
		kv_str(st, "kind"), kv_str(st, "pages"), d->acc_total,
		kv_str(st, "threads"), kv_str(st, "seed"), d->acc_measured,
		kv_str(st, "init"), kv_str(st, "write_frac"),
		kv_str(st, "sigma"), kv_str(st, "hot_frac"),
		kv_str(st, "hot_prob"), kv_str(st, "shift_at"),
		kv_str(st, "burst_pages"), kv_str(st, "init_fast") ?: "0");
	for (i = 0; i < k->nr_phases; i++)
		fprintf(f, "%s\"%s\"", i ? ", " : "",
			kv_str(&k->phase[i], "name"));
	fprintf(f, "]},\n");
	fprintf(f, "    \"machine\": {\"profile\": \"qemu-tcg\", \"cpu_ns\": "
		"%.1f, \"alloc_ns\": %.1f, \"scan_pte_ns\": %.1f, "
		"\"reclaim_ns\": %.1f, \"demote_ns\": %.1f, "
		"\"scan_update_ns\": %.1f, "
		"\"fault_ns\": %.1f, \"migrate_ns\": %.1f, "
		"\"fast_pages\": %.0f, \"slow_pages\": %.0f, \"wmark_min\": "
		"%.0f, \"wmark_low\": %.0f, \"wmark_high\": %.0f, "
		"\"wmark_promo\": %.0f, \"thp\": %s, \"node0_managed\": %s, "
		"\"node1_managed\": %s, \"access_rate\": %.0f, "
		"\"qemu\": \"%s\", \"host_loadavg\": %s, \"wall_s\": %s},\n",
		d->cpu_ns, d->alloc_ns, d->scan_pte_ns, d->reclaim_ns,
		d->demote_ns, d->scan_update_ns, d->fault_ns, d->migrate_ns, d->fast_pages,
		d->slow_pages, d->wm[0], d->wm[1], d->wm[2], d->wm[3],
		kv_num(st, "thp", 0) ? "true" : "false",
		kv_str(m, "n0_managed"), kv_str(m, "n1_managed") ?: "0",
		d->rate, kv_str(&k->host, "qemu") ?: "",
		kv_str(&k->host, "loadavg") ?: "0",
		kv_str(&k->host, "wall_s") ?: "0");
	fprintf(f, "    \"kernel\": {\"scan_delay_ms\": %s, "
		"\"scan_period_min_ms\": %s, \"scan_period_max_ms\": %s, "
		"\"scan_size_mb\": %s, \"hot_threshold_ms\": %s, "
		"\"rate_limit_mbps\": %s, \"numa_balancing\": %s, "
		"\"demotion_enabled\": \"%s\", \"sample_ms\": %s},\n",
		kv_str(m, "scan_delay_ms"), kv_str(m, "scan_period_min_ms"),
		kv_str(m, "scan_period_max_ms"), kv_str(m, "scan_size_mb"),
		kv_str(m, "hot_threshold_ms"),
		kv_str(m, "promote_rate_limit_mbps"),
		kv_str(m, "numa_balancing"), kv_str(m, "demotion_enabled"),
		kv_str(st, "sample_ms"));
	dem = delta(k, last, "pgdemote_kswapd") +
	      delta(k, last, "pgdemote_direct");
	fprintf(f, "    \"runs\": [\n      {\"policy\": \"linux-%s\", "
		"\"accesses\": %.0f, \"measured_accesses\": %.0f, "
		"\"sim_time_s\": %.3f, \"measured_time_s\": %.3f, "
		"\"promotions\": %.0f, \"demotions\": %.0f, "
		"\"demotions_kswapd\": %.0f, \"demotions_direct\": %.0f, "
		"\"hint_faults\": %.0f, \"pte_updates\": %.0f, "
		"\"pgpromote_candidate\": %.0f, \"numa_pages_migrated\": %.0f, "
		"\"scan_passes\": %d, \"scan_time_s\": %.3f, "
		"\"fast_used_end\": %.0f, \"slow_used_end\": %.0f,\n",
		k->release, d->acc_total, d->acc_measured,
		(d->t_end_ms - d->t_start_ms) / 1e3,
		(d->t_end_ms - d->t_main_ms) / 1e3,
		delta(k, last, "pgpromote_success"), dem,
		delta(k, last, "pgdemote_kswapd"),
		delta(k, last, "pgdemote_direct"),
		delta(k, last, "numa_hint_faults"),
		delta(k, last, "numa_pte_updates"),
		delta(k, last, "pgpromote_candidate"),
		delta(k, last, "numa_pages_migrated"), d->scan_passes,
		(d->scan_ms_init + d->scan_ms_main) / 1e3,
		kv_num(&k->sample[last], "ws0", 0),
		kv_num(&k->sample[last], "ws1", 0));
	fprintf(f, "       \"phases\": [");
	for (i = 0; i < k->nr_phases; i++) {
		double t0 = kv_num(&k->phase[i], "t_ms", 0);
		double a0 = kv_num(&k->phase[i], "acc", 0);
		double t1 = i + 1 < k->nr_phases ?
			kv_num(&k->phase[i + 1], "t_ms", 0) : d->t_end_ms;
		double a1 = i + 1 < k->nr_phases ?
			kv_num(&k->phase[i + 1], "acc", 0) : d->acc_total;

		fprintf(f, "%s{\"name\": \"%s\", \"accesses\": %.0f, "
			"\"start_s\": %.3f, \"time_s\": %.3f}", i ? ", " : "",
			kv_str(&k->phase[i], "name"), a1 - a0, t0 / 1e3,
			(t1 - t0) / 1e3);
	}
	fprintf(f, "],\n       \"vmstat\": {");
	for (i = 0; i < (int)NR_COUNTERS; i++)
		fprintf(f, "%s\"%s\": %.0f", i ? ", " : "", counters[i],
			delta(k, last, counters[i]));
	fprintf(f, "},\n       \"scans\": {\"t_s\": [");
	for (i = 0; i < k->nr_scans; i++)
		fprintf(f, "%s%.3f", i ? ", " : "", k->scans[i].t_ms / 1e3);
	fprintf(f, "], \"duration_ms\": [");
	for (i = 0; i < k->nr_scans; i++)
		fprintf(f, "%s%.3f", i ? ", " : "", k->scans[i].dur_us / 1e3);
	fprintf(f, "]},\n       \"series\": {");
	json_series(f, k, "t_s", "t_ms", 0, 1e-3);
	json_series(f, k, "accesses", "acc", 0, 1);
	json_series(f, k, "promotions", "pgpromote_success", 1, 1);
	json_series(f, k, "demotions", "pgdemote_kswapd", 1, 1);
	json_series(f, k, "demotions_direct", "pgdemote_direct", 1, 1);
	json_series(f, k, "hint_faults", "numa_hint_faults", 1, 1);
	json_series(f, k, "pgpromote_candidate", "pgpromote_candidate", 1, 1);
	json_series(f, k, "pte_updates", "numa_pte_updates", 1, 1);
	json_series(f, k, "fast_used", "ws0", 0, 1);
	json_series(f, k, "slow_used", "ws1", 0, 1);
	json_series(f, k, "node0_free", "n0_free", 0, 1);
	json_series(f, k, "node0_boost", "n0_boost", 0, 1);
	json_series(f, k, "scan_seq", "seq", 0, 1);
	fprintf(f, "}}\n    ]\n   }\n  ]\n}\n");
	if (fclose(f))
		die("%s: %s", path, strerror(errno));
}


/*
 * The guest's speed over the run, for tiersim's --cpu-ns-file: between
 * consecutive samples, the time per access, scanning taken out (tiersim
 * charges its scans itself). First touches are in it (the init pass), as
 * are hint faults and promotions: tiersim then charges none of them.
 */
/* Counter @key at program time @t_ms, interpolated between samples. */
static double series_at(const struct krun *k, double t_ms, const char *key)
{
	int i;

	for (i = 1; i < k->nr_samples; i++) {
		double t1 = kv_num(&k->sample[i], "t_ms", 0);

		if (t1 >= t_ms) {
			double t0 = kv_num(&k->sample[i - 1], "t_ms", 0);
			double v0 = kv_num(&k->sample[i - 1], key, 0);
			double v1 = kv_num(&k->sample[i], key, 0);

			return t1 > t0 && t_ms > t0 ?
			       v0 + (v1 - v0) * (t_ms - t0) / (t1 - t0) : v0;
		}
	}
	return kv_num(&k->sample[k->nr_samples - 1], key, 0);
}

struct point {
	double acc, t;
	double faults, promo;	/* since the previous point (filled below) */
	double cf, cp;		/* cumulative counts at this point */
};

static int cmp_point(const void *a, const void *b)
{
	const struct point *x = a, *y = b;

	return x->acc < y->acc ? -1 : x->acc > y->acc;
}

static void write_cpu_file(const char *path, const struct krun *k,
			   const struct derived *d)
{
	static struct point pt[MAX_SAMPLES + MAX_PHASES + 2];
	FILE *f = fopen(path, "w");
	double t0, a0, f0, p0;
	int i, n = 0;

	if (!f)
		die("%s: %s", path, strerror(errno));
	/* The samples, the phase boundaries (exact) and the end. */
	for (i = 0; i < k->nr_samples; i++) {
		pt[n].acc = kv_num(&k->sample[i], "acc", 0);
		pt[n++].t = kv_num(&k->sample[i], "t_ms", 0);
	}
	for (i = 0; i < k->nr_phases; i++) {
		pt[n].acc = kv_num(&k->phase[i], "acc", 0);
		pt[n++].t = kv_num(&k->phase[i], "t_ms", 0);
	}
	pt[n].acc = d->acc_total;
	pt[n++].t = d->t_end_ms;
	/* Cumulative hint faults and promotions at each point. */
	for (i = 0; i < n; i++) {
		pt[i].cf = series_at(k, pt[i].t, "numa_hint_faults");
		pt[i].cp = series_at(k, pt[i].t, "pgpromote_success");
	}
	qsort(pt, (size_t)n, sizeof(pt[0]), cmp_point);
	fprintf(f, "# truth: the guest's CPU time per access (ns) from access "
		"N on\n");
	t0 = d->t_start_ms;
	a0 = 0;
	f0 = series_at(k, t0, "numa_hint_faults");
	p0 = series_at(k, t0, "pgpromote_success");
	for (i = 0; i < n; i++) {
		double ns;

		if (pt[i].t <= t0 || pt[i].acc <= a0)
			continue;
		pt[i].faults = pt[i].cf - f0;
		pt[i].promo = pt[i].cp - p0;
		f0 = pt[i].cf;
		p0 = pt[i].cp;
		ns = ((pt[i].t - t0) - scan_ms_in(k, t0, pt[i].t)) * 1e6;
		ns -= d->fault_ns * pt[i].faults + d->migrate_ns * pt[i].promo;
		ns /= pt[i].acc - a0;
		fprintf(f, "%.0f %.0f\n", a0, ns > 1 ? ns : 1);
		t0 = pt[i].t;
		a0 = pt[i].acc;
	}
	if (fclose(f))
		die("%s: %s", path, strerror(errno));
}

static void arg(FILE *f, const char *opt, const char *fmt, ...)
{
	va_list ap;

	fprintf(f, "%s\n", opt);
	if (!fmt)
		return;
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fprintf(f, "\n");
}

static void write_args(const char *path, const char *cpu_path,
		       const struct krun *k, const struct derived *d)
{
	const struct kvl *st = &k->start, *m = &k->machine;
	FILE *f = fopen(path, "w");

	if (!f)
		die("%s: %s", path, strerror(errno));
	/* The workload: the guest's own parameters. */
	arg(f, "--workload", "%s", kv_str(st, "kind"));
	arg(f, "--pages", "%s", kv_str(st, "pages"));
	arg(f, "--accesses", "%s", kv_str(st, "accesses"));
	arg(f, "--seed", "%s", kv_str(st, "seed"));
	arg(f, "--write-frac", "%s", kv_str(st, "write_frac"));
	arg(f, "--sigma", "%s", kv_str(st, "sigma"));
	arg(f, "--hot-frac", "%s", kv_str(st, "hot_frac"));
	arg(f, "--hot-prob", "%s", kv_str(st, "hot_prob"));
	arg(f, "--shift-at", "%s", kv_str(st, "shift_at"));
	arg(f, "--burst-pages", "%s", kv_str(st, "burst_pages"));
	arg(f, "--threads", "%s", kv_str(st, "threads"));
	arg(f, "--init-fast", "%s", kv_str(st, "init_fast") ?: "0");
	if (!kv_num(st, "init", 1))
		arg(f, "--no-init", NULL);
	if (kv_num(st, "thp", 0))
		arg(f, "--thp", NULL);
	/* The machine as measured. */
	arg(f, "--policy", "mainline");
	arg(f, "--fast", "%.0f", d->fast_pages);
	if (d->fast_pages >= kv_num(st, "pages", 0))
		arg(f, "--allow-no-pressure", NULL);
	arg(f, "--slow", "%.0f", d->slow_pages);
	arg(f, "--wmark", "%.0f,%.0f,%.0f,%.0f", d->wm[0], d->wm[1], d->wm[2],
	    d->wm[3]);
	/*
	 * Emulated NVDIMM is RAM: no latency gap; time is the CPU's, as the
	 * guest measured it over the run (first touches, faults and
	 * migrations included: they cost nothing more in tiersim).
	 */
	arg(f, "--cpu-ns", "%.0f", d->cpu_ns);
	arg(f, "--cpu-ns-file", "%s", cpu_path);
	arg(f, "--alloc-ns", "0");
	arg(f, "--scan-pte-ns", "%.0f", d->scan_pte_ns);
	arg(f, "--scan-update-ns", "%.0f", d->scan_update_ns);
	arg(f, "--reclaim-ns", "%.0f", d->reclaim_ns);
	if (d->demote_ns >= 1)
		arg(f, "--demote-ns", "%.0f", d->demote_ns);
	arg(f, "--lru", "two-list");
	arg(f, "--kswapd", "rounds");
	arg(f, "--fast-read-ns", "0");
	arg(f, "--fast-write-ns", "0");
	arg(f, "--slow-read-ns", "0");
	arg(f, "--slow-write-ns", "0");
	arg(f, "--fault-ns", "%.0f", d->fault_ns);
	arg(f, "--migrate-ns", "%.0f", d->migrate_ns);
	arg(f, "--migrate-mbps", "1000000");
	/* The kernel's settings. */
	arg(f, "--scan-delay-ms", "%s", kv_str(m, "scan_delay_ms"));
	arg(f, "--scan-period-min-ms", "%s", kv_str(m, "scan_period_min_ms"));
	arg(f, "--scan-period-max-ms", "%s", kv_str(m, "scan_period_max_ms"));
	arg(f, "--scan-size-mb", "%s", kv_str(m, "scan_size_mb"));
	arg(f, "--hot-threshold-ms", "%s", kv_str(m, "hot_threshold_ms"));
	arg(f, "--rate-limit-mbps", "%s",
	    kv_str(m, "promote_rate_limit_mbps"));
	arg(f, "--sample-ms", "500");
	if (fclose(f))
		die("%s: %s", path, strerror(errno));
}

static int cmd_parse(int argc, char **argv)
{
	static struct krun k;
	struct derived d;
	char path[4096], cpath[4096];

	if (argc != 3)
		die("usage: truth parse CONSOLE OUTDIR");
	read_console(argv[1], &k);
	derive(&k, &d);
	snprintf(path, sizeof(path), "%s/kernel.json", argv[2]);
	write_kernel_json(path, &k, &d);
	snprintf(cpath, sizeof(cpath), "%s/tiersim.cpu", argv[2]);
	write_cpu_file(cpath, &k, &d);
	snprintf(path, sizeof(path), "%s/tiersim.args", argv[2]);
	write_args(path, cpath, &k, &d);
	printf("truth: %s: %.1fM accesses in %.1f s (%.2fM/s), %d scan passes "
	       "(%.2f s), cpu %.0f ns, alloc %.0f ns, scan %.0f ns/PTE + %.0f "
	       "ns/change (%d fitted), "
	       "kswapd %.0f ns/look + %.0f ns/demotion (%d fitted), "
	       "fault %.0f ns, promotion %.0f ns (%d "
	       "fitted), fast tier %.0f pages; "
	       "per M accesses: %.0f hint faults, %.0f candidates, %.0f "
	       "promotions, %.0f demotions\n", argv[2], d.acc_total / 1e6,
	       (d.t_end_ms - d.t_start_ms) / 1e3, d.rate / 1e6,
	       d.scan_passes, (d.scan_ms_init + d.scan_ms_main) / 1e3,
	       d.cpu_ns, d.alloc_ns, d.scan_pte_ns, d.scan_update_ns,
	       d.scan_fit, d.reclaim_ns, d.demote_ns, d.kswapd_fit,
	       d.fault_ns, d.migrate_ns,
	       d.cost_fit, d.fast_pages,
	       delta(&k, k.nr_samples - 1, "numa_hint_faults") * 1e6 /
	       d.acc_total,
	       delta(&k, k.nr_samples - 1, "pgpromote_candidate") * 1e6 /
	       d.acc_total,
	       delta(&k, k.nr_samples - 1, "pgpromote_success") * 1e6 /
	       d.acc_total,
	       (delta(&k, k.nr_samples - 1, "pgdemote_kswapd") +
		delta(&k, k.nr_samples - 1, "pgdemote_direct")) * 1e6 /
	       d.acc_total);
	return 0;
}

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
	fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\""
		"%s points=\"", color, dashed ?
		" stroke-dasharray=\"6,3\"" : "");
	for (i = 0; i < t->n; i++)
		fprintf(f, "%s%.1f,%.1f", i ? " " : "",
			x0 + t->kid[i].num * sx, y0 - y->kid[i].num * sy);
	fprintf(f, "\"/>\n");
}

static int write_svg(const char *path, const struct scenario *s)
{
	FILE *f = fopen(path, "w");
	double tmax = 0;
	size_t p, j;
	int i, h = PAD_T + (int)NR_PANELS * (PANEL_H + 40) + 30;

	if (!f)
		return -1;
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
	fprintf(f, "<!-- SPDX-License-Identifier: GPL-2.0-only OR "
		"BSD-2-Clause -->\n");
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		"height=\"%d\" font-family=\"sans-serif\" font-size=\"11\">\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
		"<text x=\"%d\" y=\"18\" font-size=\"13\" font-weight=\"bold\">"
		"%s: Linux (solid) vs tiersim mainline (dashed)</text>\n",
		SVG_W, h, PAD_L, s->title);
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
		fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
			"fill=\"none\" stroke=\"#999\"/>\n", PAD_L, top,
			SVG_W - PAD_L - PAD_R, PANEL_H);
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
	fprintf(f, "</text>\n</svg>\n");
	return fclose(f);
}

static int cmd_report(int argc, char **argv)
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

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "parse"))
		return cmd_parse(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "report"))
		return cmd_report(argc - 1, argv + 1);
	fprintf(stderr, "usage: truth parse CONSOLE OUTDIR\n"
		"       truth report [--md FILE] [--svg-dir DIR] "
		"[--svg-ref PREFIX] [--notes FILE] SCENARIO-DIR...\n");
	return 2;
}
