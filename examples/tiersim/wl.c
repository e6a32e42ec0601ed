// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * tiersim workload generators. libc and libm only: see wl.h.
 *
 * Random numbers: xoshiro256** seeded through splitmix64 (Blackman and
 * Vigna). A bounded integer is Lemire's multiply-shift (bias below 2^-32 for
 * the sizes used here).
 *
 * Gaussian (pmbench): inverse-CDF table lookup with linear interpolation,
 * no transcendental call per access. The table holds the standard normal
 * quantiles at k / 4096, k = 1..4095, computed once at init (Acklam's
 * rational approximation refined by one Halley step on erfc()). One 64-bit
 * random number gives the bin (12 bits), the position inside the bin (20
 * bits) and the write decision (32 bits). The two tail bins end at the value
 * that gives them the exact conditional mean of the tail, E[Z | Z < z1] =
 * -phi(z1) / Phi(z1), so the mean and variance stay right; only the shape
 * inside the outer 1/4096 of each tail is approximate (linear), which is far
 * below a page at the sizes simulated. Samples outside the address range
 * (|z| > 4 sigma with the default sigma = pages / 8) are drawn again; sigma
 * is at most WL_SIGMA_MAX x pages, so that the loop ends soon.
 *
 * Zipf: Vose's alias method over the pages (8 bytes per page), built once;
 * ranks are scattered over the address space by a multiplicative bijection
 * so the hottest pages are not neighbours.
 */
#include "wl_int.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static const char *const kind_names[WL_NR_KINDS] = {
	[WL_PMBENCH] = "pmbench",
	[WL_ZIPF] = "zipf",
	[WL_GUPS_HOTSET] = "gups-hotset",
	[WL_PHASE_SHIFT] = "phase-shift",
	[WL_COLD_BURST] = "cold-burst",
	[WL_DISJOINT_VMA] = "disjoint-vma",
	[WL_UNIFORM] = "uniform",
};

/* The quantile table is the same for every generator: built once, lazily. */
double wl_gauss_tab[GAUSS_N + 1];
static int gauss_ready;

const char *wl_kind_name(uint32_t kind)
{
	return kind < WL_NR_KINDS ? kind_names[kind] : "?";
}

int wl_kind_parse(const char *name)
{
	int i;

	for (i = 0; i < WL_NR_KINDS; i++)
		if (!strcmp(name, kind_names[i]))
			return i;
	return -1;
}


double wl_norm_quantile(double p)
{
	static const double a[] = { -3.969683028665376e+01,
		2.209460984245205e+02, -2.759285104469687e+02,
		1.383577518672690e+02, -3.066479806614716e+01,
		2.506628277459239e+00 };
	static const double b[] = { -5.447609879822406e+01,
		1.615858368580409e+02, -1.556989798598866e+02,
		6.680131188771972e+01, -1.328068155288572e+01 };
	static const double c[] = { -7.784894002430293e-03,
		-3.223964580411365e-01, -2.400758277161838e+00,
		-2.549732539343734e+00, 4.374664141464968e+00,
		2.938163982698783e+00 };
	static const double d[] = { 7.784695709041462e-03,
		3.224671290700398e-01, 2.445134137142996e+00,
		3.754408661907416e+00 };
	double q, r, x, e, u;

	if (p <= 0)
		return -HUGE_VAL;
	if (p >= 1)
		return HUGE_VAL;
	if (p < 0.02425) {
		q = sqrt(-2 * log(p));
		x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) *
		     q + c[5]) /
		    ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
	} else if (p <= 1 - 0.02425) {
		q = p - 0.5;
		r = q * q;
		x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) *
		     r + a[5]) * q /
		    (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) *
		     r + 1);
	} else {
		q = sqrt(-2 * log(1 - p));
		x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) *
		      q + c[5]) /
		    ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
	}
	/* One Halley step on Phi(x) - p. */
	e = 0.5 * erfc(-x / sqrt(2)) - p;
	u = e * sqrt(2 * M_PI) * exp(x * x / 2);
	return x - u / (1 + x * u / 2);
}

static void gauss_init(void)
{
	double z1, phi, tail;
	unsigned int k;

	if (gauss_ready)
		return;
	for (k = 1; k < GAUSS_N; k++)
		wl_gauss_tab[k] = wl_norm_quantile((double)k / GAUSS_N);
	/* Tail bins: linear from z1 to t has mean (z1 + t) / 2 = E[Z|Z<z1]. */
	z1 = wl_gauss_tab[1];
	phi = exp(-z1 * z1 / 2) / sqrt(2 * M_PI);
	tail = -phi / (1.0 / GAUSS_N);
	wl_gauss_tab[0] = 2 * tail - z1;
	wl_gauss_tab[GAUSS_N] = -wl_gauss_tab[0];
	gauss_ready = 1;
}

void wl_defaults(struct wl_params *p, uint32_t kind)
{
	memset(p, 0, sizeof(*p));
	p->kind = kind;
	p->seed = 1;
	p->pages = 1ULL << 20;
	p->accesses = 40000000;
	p->init = 1;
	p->write_frac = 0.2;
	p->sigma_frac = 0.125;
	p->zipf_s = 0.99;
	p->hot_frac = 0.1;
	p->hot_prob = 0.9;
	p->shift_at = 0.5;
	p->burst_pages = 65536;
	p->small_frac = 1.0 / 16;
	p->threads = 1;
	switch (kind) {
	case WL_GUPS_HOTSET:
		p->write_frac = 1.0;	/* GUPS updates: read-modify-write */
		break;
	case WL_COLD_BURST:
		p->pages = 2ULL << 20;	/* 8 GiB: the bypass needs 1 GiB free */
		p->hot_prob = 1.0;	/* the benchmark only reads hot keys */
		p->write_frac = 0.1;
		p->shift_at = 0.8;
		break;
	case WL_DISJOINT_VMA:
		/* 64 MiB and 1 GiB: 4 scan windows of 256 MB in the large */
		p->pages = 17 * 16384;
		p->small_frac = 1.0 / 17;
		p->threads = 8;
		p->hot_frac = 0.25;
		p->shift_at = 0.5;
		break;
	default:
		break;
	}
}

void wl_machine_defaults(uint32_t kind, struct wl_machine *m)
{
	m->cpu_ns = 25;		/* a pmbench-like loop between accesses */
	/*
	 * Independent random accesses: an out-of-order core keeps several
	 * misses in flight (10-12 line fill buffers on the Intel cores of the
	 * 2020 RFC's machine; 4 is an estimate of what a loop that computes
	 * its next address sustains).
	 */
	m->mlp = 4;
	m->fast_frac = 0.25;
	m->profile = "pmem";
	m->init_fast = 0;
	switch (kind) {
	case WL_COLD_BURST:
		/*
		 * The bypass knob's Redis test (docs/SOURCES.md): about 7 us
		 * of CPU per request (117k requests/s), CXL memory, a fast
		 * tier with room, 85 % of the data reclaimed to the slow tier.
		 */
		m->cpu_ns = 7000;
		m->mlp = 1;	/* a request's accesses depend on each other */
		m->fast_frac = 0.5;
		m->profile = "cxl";
		m->init_fast = 0.15;
		break;
	case WL_DISJOINT_VMA:
		m->cpu_ns = 100;
		break;
	default:
		break;
	}
}

static uint64_t gcd64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

uint64_t wl_hot_pages(const struct wl_params *p)
{
	uint64_t hot = (uint64_t)(p->hot_frac * (double)p->pages);

	return hot ? hot : 1;
}

uint64_t wl_scatter_mult(uint64_t n)
{
	uint64_t m;

	if (n <= 2)
		return 1;
	m = (uint64_t)((double)n * 0.6180339887) | 1;
	while (gcd64(m, n) != 1)
		m += 2;
	return m % n ? m % n : 1;
}


/* Modular inverse of @a mod @n (gcd 1, n < 2^63: |t| stays below n). */
static uint64_t modinv(uint64_t a, uint64_t n)
{
	int64_t t = 0, nt = 1, r = (int64_t)n, nr = (int64_t)a, q, tmp;

	while (nr) {
		q = r / nr;
		tmp = t - q * nt;
		t = nt;
		nt = tmp;
		tmp = r - q * nr;
		r = nr;
		nr = tmp;
	}
	if (t < 0)
		t += (int64_t)n;
	return (uint64_t)t;
}

static int zipf_build(struct wl *w, char *err, size_t errlen)
{
	uint64_t n = w->p.pages, r, i, ns, nl;
	double *q, sum = 0;
	uint32_t *small, *large;
	uint64_t m = wl_scatter_mult(n);

	if (n > 0xffffffffULL) {
		snprintf(err, errlen, "zipf supports at most 2^32-1 pages");
		return -EINVAL;
	}
	q = calloc(n, sizeof(*q));
	small = malloc(n * sizeof(*small));
	large = malloc(n * sizeof(*large));
	w->alias_prob = malloc(n * sizeof(*w->alias_prob));
	w->alias_idx = malloc(n * sizeof(*w->alias_idx));
	if (!q || !small || !large || !w->alias_prob || !w->alias_idx) {
		free(q);
		free(small);
		free(large);
		wl_free(w);
		/* q, small, large, alias_prob, alias_idx: 24 bytes a page */
		snprintf(err, errlen, "out of memory for the zipf table of "
			 "%llu pages (%llu MiB while it is built)",
			 (unsigned long long)n,
			 (unsigned long long)((n * 24 + (1 << 20) - 1) >> 20));
		return -ENOMEM;
	}
	for (r = 0; r < n; r++) {
		double wt = pow((double)(r + 1), -w->p.zipf_s);

		q[mulmod(r, m, n)] = wt;
		sum += wt;
	}
	ns = nl = 0;
	for (i = 0; i < n; i++) {
		q[i] = q[i] * (double)n / sum;
		if (q[i] < 1.0)
			small[ns++] = (uint32_t)i;
		else
			large[nl++] = (uint32_t)i;
	}
	while (ns && nl) {
		uint32_t s = small[--ns], l = large[nl - 1];

		w->alias_prob[s] = (uint32_t)(q[s] * 4294967295.0);
		w->alias_idx[s] = l;
		q[l] = (q[l] + q[s]) - 1.0;
		if (q[l] < 1.0) {
			nl--;
			small[ns++] = l;
		}
	}
	while (nl) {
		uint32_t l = large[--nl];

		w->alias_prob[l] = 0xffffffffU;
		w->alias_idx[l] = l;
	}
	while (ns) {
		uint32_t s = small[--ns];

		w->alias_prob[s] = 0xffffffffU;
		w->alias_idx[s] = s;
	}
	free(q);
	free(small);
	free(large);
	return 0;
}

/* A phase of @count accesses by threads [@t_lo, @t_hi). */
static void add_phase(struct wl *w, const char *name, uint64_t count,
		      int measured, uint32_t t_lo, uint32_t t_hi)
{
	struct wl_phase *ph = &w->phase[w->nr_phases++];

	ph->name = name;
	ph->count = count;
	ph->measured = measured;
	ph->t_lo = t_lo;
	ph->t_hi = t_hi;
}

static uint32_t frac32(double f)
{
	if (f <= 0)
		return 0;
	if (f >= 1)
		return 0xffffffffU;
	return (uint32_t)(f * 4294967296.0);
}

uint64_t wl_thread_quota(const struct wl *w, uint32_t ph, uint32_t tid)
{
	const struct wl_phase *p = &w->phase[ph];
	uint32_t n = p->t_hi - p->t_lo, k = tid - p->t_lo;

	if (tid < p->t_lo || tid >= p->t_hi)
		return 0;
	return p->count / n + (k < p->count % n);
}

/* Enter phase @ph: the thread's share and where it starts. */
static void thread_enter(const struct wl *w, struct wl_thread *t, uint32_t ph)
{
	uint32_t k;

	t->cur = ph;
	t->done = 0;
	t->quota = ph < w->nr_phases ? wl_thread_quota(w, ph, t->tid) : 0;
	t->base = 0;
	for (k = 0; ph < w->nr_phases && k < t->tid; k++)
		t->base += wl_thread_quota(w, ph, k);
}

/*
 * Thread 0's random numbers are seeded from the seed alone (one thread is
 * the stream of earlier versions), thread t's from the seed and t.
 */
void wl_thread_start(const struct wl *w, struct wl_thread *t, uint32_t tid)
{
	uint64_t x = w->p.seed + tid * 0xd1b54a32d192ed03ULL;
	int i;

	for (i = 0; i < 4; i++)
		t->s[i] = splitmix64(&x);
	t->tid = tid;
	thread_enter(w, t, 0);
}

int wl_thread_next(const struct wl *w, struct wl_thread *t)
{
	if (t->cur >= w->nr_phases)
		return 0;
	thread_enter(w, t, t->cur + 1);
	return t->cur < w->nr_phases;
}

void wl_rewind(struct wl *w)
{
	uint32_t i;

	for (i = 0; i < w->p.threads; i++)
		wl_thread_start(w, &w->thr[i], i);
	w->it = 0;
	w->last_phase = 0;
}

int wl_init(struct wl *w, const struct wl_params *p, char *err, size_t errlen)
{
	uint64_t n = p->pages, x, acc = p->accesses, before;
	uint32_t i;
	int rc;

	memset(w, 0, sizeof(*w));
	w->p = *p;
	if (p->kind >= WL_NR_KINDS) {
		snprintf(err, errlen, "unknown workload kind %u", p->kind);
		return -EINVAL;
	}
	if (n < 16 || n > WL_PAGE_MASK) {
		snprintf(err, errlen, "pages must be in [16, 2^40): %llu",
			 (unsigned long long)n);
		return -EINVAL;
	}
	if (p->write_frac < 0 || p->write_frac > 1 || p->hot_prob < 0 ||
	    p->hot_prob > 1 || p->shift_at < 0 || p->shift_at > 1) {
		snprintf(err, errlen,
			 "write-frac, hot-prob and shift-at must be in [0, 1]");
		return -EINVAL;
	}
	if (!(p->hot_frac > 0 && p->hot_frac <= 0.5)) {
		snprintf(err, errlen, "hot-frac must be in (0, 0.5]");
		return -EINVAL;
	}
	if (!p->threads || p->threads > WL_MAX_THREADS) {
		snprintf(err, errlen, "threads must be in [1, %d]",
			 WL_MAX_THREADS);
		return -EINVAL;
	}
	/* phase-shift with a side empty: the hot set never moves. */
	before = (uint64_t)(p->shift_at * (double)acc);
	if (p->kind == WL_PHASE_SHIFT && (!before || before == acc)) {
		snprintf(err, errlen, "--shift-at %g of %llu access%s leaves "
			 "none %s the shift (the hot set never moves: no "
			 "response time to measure)", p->shift_at,
			 (unsigned long long)acc, acc == 1 ? "" : "es",
			 before ? "after" : "before");
		return -EINVAL;
	}
	w->write_th = frac32(p->write_frac);
	w->hot_th = frac32(p->hot_prob);
	w->nr_vmas = 1;
	w->vma[0].first = 0;
	w->vma[0].pages = n;

	x = p->seed ^ 0x5eedULL;
	switch (p->kind) {
	case WL_PMBENCH:
		if (!(p->sigma_frac > 0 && p->sigma_frac <= WL_SIGMA_MAX)) {
			snprintf(err, errlen, "sigma must be in (0, %g]",
				 WL_SIGMA_MAX);
			return -EINVAL;
		}
		gauss_init();
		w->mean = (double)n / 2;
		w->sigma = p->sigma_frac * (double)n;
		break;
	case WL_ZIPF:
		if (!(p->zipf_s > 0)) {
			snprintf(err, errlen, "zipf exponent must be positive");
			return -EINVAL;
		}
		rc = zipf_build(w, err, errlen);
		if (rc)
			return rc;
		break;
	case WL_GUPS_HOTSET:
	case WL_PHASE_SHIFT:
		w->hot_n = wl_hot_pages(p);
		/* Two disjoint hot sets, half the address space apart. */
		w->hot0 = bounded(splitmix64(&x), n / 2 - w->hot_n + 1);
		w->hot2 = w->hot0 + n / 2;
		break;
	case WL_COLD_BURST:
		w->hot_n = wl_hot_pages(p);
		if (!p->burst_pages || w->hot_n + p->burst_pages > n) {
			snprintf(err, errlen,
				 "burst pages must be in [1, pages - hot set]");
			return -EINVAL;
		}
		w->mult = wl_scatter_mult(n);
		w->inv_mult = modinv(w->mult, n);
		w->burst_base = bounded(splitmix64(&x), n);
		break;
	case WL_DISJOINT_VMA: {
		uint64_t small = (uint64_t)(p->small_frac * (double)n + 0.5);

		if (p->threads < 2) {
			snprintf(err, errlen, "disjoint-vma needs 2+ threads");
			return -EINVAL;
		}
		if (!small)
			small = 1;
		if (small >= n) {
			snprintf(err, errlen, "--small-frac %g of %llu pages "
				 "leaves the large VMA no page (the small one "
				 "rounds to %llu)", p->small_frac,
				 (unsigned long long)n,
				 (unsigned long long)small);
			return -EINVAL;
		}
		w->nr_vmas = 2;
		w->vma[0].pages = small;
		w->vma[1].first = small;
		w->vma[1].pages = n - small;
		/* The hot set is the end of the large VMA. */
		w->hot_n = (uint64_t)(p->hot_frac * (double)(n - small));
		if (!w->hot_n)
			w->hot_n = 1;
		w->hot0 = n - w->hot_n;
		break;
	}
	default:
		break;
	}

	/* Thread 0 initialises (touches every page once), as a main thread. */
	if (p->init)
		add_phase(w, "init", p->kind == WL_DISJOINT_VMA ?
			  w->vma[0].pages : n, 0, 0, 1);
	switch (p->kind) {
	case WL_PHASE_SHIFT:
		before = (uint64_t)(p->shift_at * (double)acc);
		add_phase(w, "before", before, 1, 0, p->threads);
		add_phase(w, "after", acc - before, 1, 0, p->threads);
		break;
	case WL_DISJOINT_VMA:
		/*
		 * The 2023 disjoint-VMA RFC's corner cases (d) and (e): the
		 * first group runs alone on the small VMA while the scanner
		 * finishes its first sequences; then the second group
		 * populates the large VMA and both run.
		 */
		before = (uint64_t)(p->shift_at * (double)acc);
		add_phase(w, "warm", before, 1, 0, p->threads / 2);
		if (p->init)
			add_phase(w, "init-y", w->vma[1].pages, 0,
				  p->threads / 2, p->threads / 2 + 1);
		add_phase(w, "main", acc - before, 1, 0, p->threads);
		break;
	case WL_COLD_BURST:
		before = (uint64_t)(p->shift_at * (double)acc);
		add_phase(w, "hot", before, 1, 0, p->threads);
		add_phase(w, "burst", p->burst_pages, 1, 0, p->threads);
		add_phase(w, "after", acc - before, 1, 0, p->threads);
		break;
	default:
		add_phase(w, "main", acc, 1, 0, p->threads);
		break;
	}
	w->total = 0;
	for (i = 0; i < w->nr_phases; i++)
		w->total += w->phase[i].count;
	wl_rewind(w);
	return 0;
}

void wl_free(struct wl *w)
{
	free(w->alias_prob);
	free(w->alias_idx);
	w->alias_prob = NULL;
	w->alias_idx = NULL;
}

size_t wl_bytes_per_page(const struct wl *w)
{
	return w->alias_prob ? 2 * sizeof(uint32_t) : 0;
}
