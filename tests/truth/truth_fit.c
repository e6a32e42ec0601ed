// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * truth: the machine tiersim is given, derived from one kernel run by
 * fixed rules (the same for every scenario): the fast tier's capacity and
 * watermarks, the guest's speed over the run, and the costs of the
 * scanner, hint faults, promotions and kswapd fitted by least squares;
 * written as tiersim's options (tiersim.args) and speed profile
 * (tiersim.cpu). docs/FIDELITY.md lists the rules.
 */
#define _GNU_SOURCE
#include "truth.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
 * The progress lines the fits and the profile take: all, or none with
 * TRUTH_PROG=off.
 */
static int prog_used(const struct krun *k)
{
	const char *e = getenv("TRUTH_PROG");

	return e && !strcmp(e, "off") ? 0 : k->nr_prog;
}

/*
 * The counters the fits and the profile take, at a sample or a progress
 * line: hint faults and promotions (which the profile takes out of the
 * guest's time), and kswapd's looks, demotions and CPU time (its cost
 * fit; -1 on a progress line without them).
 */
struct cnt {
	double t, faults, promo;
	double klooks, kdemoted, kcpu_ms;
};

static int cmp_cnt(const void *a, const void *b)
{
	const struct cnt *x = a, *y = b;

	return x->t < y->t ? -1 : x->t > y->t;
}

/*
 * @k's samples and its first @nr_prog progress lines (with @kswapd, only
 * those with kswapd's counters), in time order, into @c; returns how many.
 */
static int cnt_build(const struct krun *k, int nr_prog, int kswapd,
		     struct cnt *c)
{
	int i, n = 0;

	for (i = 0; i < k->nr_samples; i++) {
		const struct kvl *q = &k->sample[i];

		c[n].t = kv_num(q, "t_ms", 0);
		c[n].faults = kv_num(q, "numa_hint_faults", 0);
		c[n].promo = kv_num(q, "pgpromote_success", 0);
		c[n].klooks = kv_num(q, "pgscan_kswapd", 0) +
			      kv_num(q, "pgrefill", 0);
		c[n].kdemoted = kv_num(q, "pgdemote_kswapd", 0);
		c[n++].kcpu_ms = kv_num(q, "kswapd_cpu_ms", 0);
	}
	for (i = 0; i < nr_prog; i++) {
		const struct prog *g = &k->prog[i];

		if (kswapd && g->kcpu_ms < 0)
			continue;
		c[n].t = g->t_ms;
		c[n].faults = g->faults;
		c[n].promo = g->promo;
		c[n].klooks = g->klooks;
		c[n].kdemoted = g->kdemoted;
		c[n++].kcpu_ms = g->kcpu_ms;
	}
	qsort(c, (size_t)n, sizeof(c[0]), cmp_cnt);
	return n;
}

/*
 * What kswapd's work costs it: least squares over the intervals between
 * samples and progress lines, kswapd0's CPU time = a x pages looked at
 * (pgscan_kswapd + pgrefill) + b x pages demoted (pgdemote_kswapd), both
 * >= 0. Under emulation a demotion (a migration with its TLB shootdown to
 * the busy vCPU) costs 100-150 us and a look a few us: while the
 * initialisation pass fills node 0, every page kswapd looks at is old and
 * demoted, in the measured phases it looks at up to 60 pages per
 * demotion. One rate per look (kswapd's time over its looks, less the
 * promotions' migration cost per demotion) mixes the two. kswapd works in
 * bursts: over the 2 s samples alone a run where it works in fewer than
 * three intervals has no fit; the 100 ms progress lines give one. Returns
 * -1 without enough data.
 */
static int fit_kswapd_cost(const struct krun *k, struct derived *d)
{
	static struct cnt p[MAX_SAMPLES + MAX_PROG];
	struct lsq2 l = { 0 };
	int i, n = cnt_build(k, prog_used(k), 1, p);
	double a, b;

	for (i = 1; i < n; i++) {
		double x = p[i].klooks - p[i - 1].klooks;
		double y = p[i].kdemoted - p[i - 1].kdemoted;
		double dd = (p[i].kcpu_ms - p[i - 1].kcpu_ms) * 1e6;

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

void derive(const struct krun *k, struct derived *d)
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

/* The counters at program time @t_ms, interpolated between @c's times. */
static struct cnt cnt_at(const struct cnt *c, int n, double t_ms)
{
	struct cnt r = c[n - 1];
	int i;

	for (i = 1; i < n; i++) {
		if (c[i].t >= t_ms) {
			double t0 = c[i - 1].t, t1 = c[i].t, f;

			r = c[i - 1];
			if (t1 > t0 && t_ms > t0) {
				f = (t_ms - t0) / (t1 - t0);
				r.faults += (c[i].faults - r.faults) * f;
				r.promo += (c[i].promo - r.promo) * f;
			}
			break;
		}
	}
	r.t = t_ms;
	return r;
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

/*
 * The threads that ran in the phase holding access @acc (1 for the logs
 * of a single-threaded guest, whose phase lines have no count).
 */
static double threads_at(const struct krun *k, double acc)
{
	double n = 1;
	int i;

	for (i = 0; i < k->nr_phases; i++)
		if (kv_num(&k->phase[i], "acc", 0) <= acc)
			n = kv_num(&k->phase[i], "threads", 1);
	return n > 0 ? n : 1;
}

/*
 * The guest's speed over the run, for tiersim's --cpu-ns-file: between
 * consecutive points (samples, progress lines, phase starts), each
 * thread's time per access, the scanner's time and the fitted costs of
 * the hint faults and promotions taken out (tiersim charges them itself).
 * First touches stay in it (the init pass: --alloc-ns 0).
 */
void write_cpu_file(const char *path, const struct krun *k,
		    const struct derived *d)
{
	static struct point pt[MAX_SAMPLES + MAX_PROG + MAX_PHASES + 2];
	static struct cnt c[MAX_SAMPLES + MAX_PROG];
	FILE *f = fopen(path, "w");
	double t0, a0, f0, p0, debt = 0;
	int i, n = 0, nc, nr_prog = prog_used(k);
	struct cnt at;

	if (!f)
		die("%s: %s", path, strerror(errno));
	/*
	 * The samples, the progress lines (--prog-ms: every 100 ms where a
	 * sample is every 2 s, so that a slow stretch of the guest, after a
	 * scan pass, say, is where it was), the phase boundaries (exact) and
	 * the end.
	 */
	for (i = 0; i < k->nr_samples; i++) {
		pt[n].acc = kv_num(&k->sample[i], "acc", 0);
		pt[n++].t = kv_num(&k->sample[i], "t_ms", 0);
	}
	for (i = 0; i < nr_prog; i++) {
		pt[n].acc = k->prog[i].acc;
		pt[n++].t = k->prog[i].t_ms;
	}
	for (i = 0; i < k->nr_phases; i++) {
		pt[n].acc = kv_num(&k->phase[i], "acc", 0);
		pt[n++].t = kv_num(&k->phase[i], "t_ms", 0);
	}
	pt[n].acc = d->acc_total;
	pt[n++].t = d->t_end_ms;
	/* Cumulative hint faults and promotions at each point. */
	nc = cnt_build(k, nr_prog, 0, c);
	for (i = 0; i < n; i++) {
		at = cnt_at(c, nc, pt[i].t);
		pt[i].cf = at.faults;
		pt[i].cp = at.promo;
	}
	qsort(pt, (size_t)n, sizeof(pt[0]), cmp_point);
	fprintf(f, "# truth: the guest's CPU time per access (ns) from access "
		"N on\n");
	t0 = d->t_start_ms;
	a0 = 0;
	at = cnt_at(c, nc, t0);
	f0 = at.faults;
	p0 = at.promo;
	for (i = 0; i < n; i++) {
		double ns;

		if (pt[i].t <= t0 || pt[i].acc <= a0)
			continue;
		pt[i].faults = pt[i].cf - f0;
		pt[i].promo = pt[i].cp - p0;
		f0 = pt[i].cf;
		p0 = pt[i].cp;
		/*
		 * Each thread's time per access: the threads ran side by
		 * side, so the interval holds threads x its length of their
		 * time; the scanner's passes, the hint faults and the
		 * promotions each took one thread's (the one they ran in).
		 */
		ns = (threads_at(k, a0) * (pt[i].t - t0) -
		      scan_ms_in(k, t0, pt[i].t)) * 1e6;
		ns -= d->fault_ns * pt[i].faults + d->migrate_ns * pt[i].promo;
		/*
		 * The fitted costs can take more than the interval had
		 * (a stretch of faults 100 ms long): what is left over comes
		 * out of the next intervals, so that the run's time is kept
		 * (but for what the last interval still owes).
		 */
		ns -= debt;
		debt = 0;
		if (ns < pt[i].acc - a0) {
			debt = pt[i].acc - a0 - ns;
			ns = pt[i].acc - a0;
		}
		ns /= pt[i].acc - a0;
		fprintf(f, "%.0f %.0f\n", a0, ns);
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

void write_args(const char *path, const char *cpu_path,
		       const struct krun *k, const struct derived *d)
{
	const struct kvl *st = &k->start, *m = &k->machine;
	const char *kind = kv_str(st, "kind");
	FILE *f = fopen(path, "w");

	if (!f)
		die("%s: %s", path, strerror(errno));
	/*
	 * The workload: the guest's own parameters; a shape option of one
	 * workload only for that one (tiersim refuses another's).
	 */
	arg(f, "--workload", "%s", kind);
	arg(f, "--pages", "%s", kv_str(st, "pages"));
	arg(f, "--accesses", "%s", kv_str(st, "accesses"));
	arg(f, "--seed", "%s", kv_str(st, "seed"));
	arg(f, "--write-frac", "%s", kv_str(st, "write_frac"));
	if (kind && !strcmp(kind, "pmbench"))
		arg(f, "--sigma", "%s", kv_str(st, "sigma"));
	if (kind && strcmp(kind, "pmbench") && strcmp(kind, "zipf") &&
	    strcmp(kind, "uniform")) {
		arg(f, "--hot-frac", "%s", kv_str(st, "hot_frac"));
		arg(f, "--hot-prob", "%s", kv_str(st, "hot_prob"));
		if (strcmp(kind, "gups-hotset"))
			arg(f, "--shift-at", "%s", kv_str(st, "shift_at"));
	}
	if (kind && !strcmp(kind, "cold-burst"))
		arg(f, "--burst-pages", "%s", kv_str(st, "burst_pages"));
	arg(f, "--threads", "%s", kv_str(st, "threads"));
	if (kind && !strcmp(kind, "disjoint-vma") && kv_str(st, "small_frac"))
		arg(f, "--small-frac", "%s", kv_str(st, "small_frac"));
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
	 * migrations included: they cost nothing more in tiersim). The
	 * profile starts at access 0 (write_cpu_file()), so no --cpu-ns:
	 * tiersim refuses it there, as it would set no access's time.
	 */
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
	/*
	 * RAM under emulation: one access at a time (the fitted time per
	 * access holds the memory's), no bandwidth limit that the workload
	 * comes near, and TLB shootdowns inside the fitted fault, migration
	 * and demotion costs.
	 */
	arg(f, "--mlp", "1");
	arg(f, "--slow-read-mbps", "0");
	arg(f, "--slow-write-mbps", "0");
	arg(f, "--fast-read-mbps", "0");
	arg(f, "--fast-write-mbps", "0");
	arg(f, "--tlb-ns", "0");
	arg(f, "--ipi-ns", "0");
	/*
	 * The accessed bit: qemu's software TLB sets it in its page walk, on
	 * a TLB fill, as the hardware does; tiersim's default TLB.
	 */
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

