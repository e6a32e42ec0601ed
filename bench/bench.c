// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * tierpol benchmark harness (issue 6). libc and pthreads only.
 *
 * Method (docs/PERFORMANCE.md has the long version):
 *  - every figure is the median of R repeats (default 7) with min and max,
 *    in ns per operation; the iteration count of a repeat is calibrated so
 *    that one repeat takes about T seconds (default 0.1 s);
 *  - each tierpol operation is measured side by side with a baseline (the
 *    obvious implementation, baselines.c): repeats alternate between the two
 *    (ABBAAB...), and the ratio base/tp is the median of the per-repeat
 *    ratios, so a noisy neighbour slows both sides of a pair alike;
 *  - the measured loops take their inputs from 4096-entry tables (or a
 *    clock that advances), call the operation out of line, and fold the
 *    results into a checksum stored into a volatile sink;
 *  - time is each thread's CPU time (CLOCK_THREAD_CPUTIME_ID) unless --wall:
 *    the machines are shared, and time spent descheduled is not the
 *    operation's;
 *  - contended figures run the same loop on 2 threads pinned to 2 CPUs that
 *    share one object (and one clock); ns/op is each thread's own time per
 *    call, averaged over the threads.
 *
 * Usage: bench [--smoke] [-r REPEATS] [-t SECONDS] [-f FILTER]
 *              [--md FILE] [--tiersim PATH] [--wall] [--no-inline]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

#ifndef BENCH_CFLAGS
#define BENCH_CFLAGS "?"
#endif
#ifndef BENCH_LIB
#define BENCH_LIB "libtierpol.a"
#endif

/* ---- options and output ------------------------------------------------ */

static int opt_repeats = 7;
static double opt_target = 0.1;
static const char *opt_filter;
static const char *opt_tiersim = "build/examples/tiersim";
static bool opt_smoke;
static bool opt_inline = true;
static FILE *md;		/* --md: the tables in Markdown */
static int failures;		/* correctness checks that failed */
static volatile u64 sink;

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void mdf(const char *fmt, ...)
{
	va_list ap;

	if (!md)
		return;
	va_start(ap, fmt);
	vfprintf(md, fmt, ap);
	va_end(ap);
}

static void *xalloc(size_t size)
{
	void *p = aligned_alloc(64, (size + 63) & ~(size_t)63);

	if (!p) {
		perror("aligned_alloc");
		exit(2);
	}
	memset(p, 0, size);
	return p;
}

/* Deterministic inputs: splitmix64. */
static u64 rng_state = 0x5eed5eed12345678ULL;

static u64 rnd(void)
{
	u64 z = (rng_state += 0x9E3779B97F4A7C15ULL);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

/* ---- measuring -------------------------------------------------------- */

/** struct side - one side of a comparison: a loop on 1 or 2 threads */
struct side {
	bench_fn fn;
	void *ctx[2];
	int threads;
};

struct thr {
	pthread_t tid;
	int cpu;
	const struct side *s;
	void *ctx;
	u64 iters;
	double elapsed;
	int *ready;
	int *go;
};

static int ncpus;
static bool opt_wall;		/* measure wall time instead of CPU time */
static double tot_cpu, tot_wall;	/* the CPU share the bench got */

static double cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Run @iters calls; return this thread's CPU (or wall) seconds. */
static double timed(bench_fn fn, void *ctx, u64 iters)
{
	double w0 = now_s(), c0 = cpu_s(), w, c;

	sink += fn(ctx, iters);
	c = cpu_s() - c0;
	w = now_s() - w0;
	return opt_wall ? w : (c > 0 ? c : w);
}

static void *thr_main(void *arg)
{
	struct thr *t = arg;
	cpu_set_t set;

	if (ncpus > 1) {
		CPU_ZERO(&set);
		CPU_SET(t->cpu, &set);
		pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	}
	__atomic_fetch_add(t->ready, 1, __ATOMIC_SEQ_CST);
	while (!__atomic_load_n(t->go, __ATOMIC_ACQUIRE))
		;
	t->elapsed = timed(t->s->fn, t->ctx, t->iters);
	return NULL;
}

/* Seconds one thread spent on @iters calls (the mean over the threads). */
static double side_run(const struct side *s, u64 iters)
{
	struct thr t[2];
	int ready = 0, go = 0, i;
	double w0 = now_s(), c0 = cpu_s(), sum = 0, r;

	if (s->threads <= 1) {
		r = timed(s->fn, s->ctx[0], iters);
		tot_cpu += cpu_s() - c0;
		tot_wall += now_s() - w0;
		return r;
	}
	for (i = 0; i < s->threads; i++) {
		t[i] = (struct thr){ .cpu = i % (ncpus ? ncpus : 1), .s = s,
				     .ctx = s->ctx[i], .iters = iters,
				     .ready = &ready, .go = &go };
		if (pthread_create(&t[i].tid, NULL, thr_main, &t[i])) {
			perror("pthread_create");
			exit(2);
		}
	}
	while (__atomic_load_n(&ready, __ATOMIC_ACQUIRE) < s->threads)
		;
	__atomic_store_n(&go, 1, __ATOMIC_RELEASE);
	for (i = 0; i < s->threads; i++) {
		pthread_join(t[i].tid, NULL);
		sum += t[i].elapsed;
	}
	return sum / s->threads;
}

/* Iterations for one repeat of about opt_target seconds. */
static u64 calibrate(const struct side *s)
{
	u64 n = 16;
	double t;

	for (;;) {
		t = side_run(s, n);
		if (t >= opt_target / 10 || n >= (1ULL << 40))
			break;
		n *= t < opt_target / 1000 ? 16 : 2;
	}
	n = (u64)((double)n * opt_target / t);
	return n ? n : 1;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/** struct stat3 - median, min and max of the repeats */
struct stat3 {
	double med, min, max;
};

static struct stat3 stat3(const double *v, int n)
{
	double s[64];
	struct stat3 r;

	memcpy(s, v, sizeof(*v) * (size_t)n);
	qsort(s, (size_t)n, sizeof(*s), cmp_double);
	r.min = s[0];
	r.max = s[n - 1];
	r.med = n & 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	return r;
}

/** struct result - one compared figure */
struct result {
	struct stat3 tp;	/* ns/op */
	struct stat3 base;	/* ns/op */
	struct stat3 ratio;	/* base / tp, per repeat */
	bool ran;
};

static bool wanted(const char *sec, const char *name)
{
	return !opt_filter || strstr(sec, opt_filter) || strstr(name, opt_filter);
}

static const char *cur_section;

static void section(const char *name, const char *what)
{
	cur_section = name;
	if (opt_filter && !strstr(name, opt_filter))
		return;
	printf("\n== %s: %s\n", name, what);
	printf("%-34s %21s %21s %8s  %s\n", "operation",
	       "tierpol ns/op [min..max]", "baseline ns [min..max]",
	       "base/tp", "baseline");
	mdf("\n**%s**: %s\n\n", name, what);
	mdf("| operation | tierpol ns/op (min–max) | baseline ns/op (min–max) | base/tp | baseline |\n");
	mdf("|---|---|---|---|---|\n");
}

/* Measure tp and base side by side; print one row. */
static struct result compare(const char *name, const struct side *tp,
			     const struct side *base, const char *what)
{
	double vt[64], vb[64], vr[64];
	struct result r = { .ran = false };
	u64 nt, nb;
	int i;

	if (!wanted(cur_section, name))
		return r;
	nt = calibrate(tp);
	nb = calibrate(base);
	for (i = 0; i < opt_repeats; i++) {
		/* ABBA: neither side always runs first */
		if ((i ^ (i >> 1)) & 1) {
			vb[i] = side_run(base, nb) / (double)nb * 1e9;
			vt[i] = side_run(tp, nt) / (double)nt * 1e9;
		} else {
			vt[i] = side_run(tp, nt) / (double)nt * 1e9;
			vb[i] = side_run(base, nb) / (double)nb * 1e9;
		}
		vr[i] = vb[i] / vt[i];
	}
	r.tp = stat3(vt, opt_repeats);
	r.base = stat3(vb, opt_repeats);
	r.ratio = stat3(vr, opt_repeats);
	r.ran = true;
	printf("%-34s %7.2f [%5.2f..%6.2f] %7.2f [%5.2f..%6.2f] %7.2fx  %s\n",
	       name, r.tp.med, r.tp.min, r.tp.max, r.base.med, r.base.min,
	       r.base.max, r.ratio.med, what);
	mdf("| %s | %.2f (%.2f–%.2f) | %.2f (%.2f–%.2f) | %.2fx | %s |\n",
	    name, r.tp.med, r.tp.min, r.tp.max, r.base.med, r.base.min,
	    r.base.max, r.ratio.med, what);
	fflush(stdout);
	return r;
}

static void note(const char *fmt, ...)
{
	va_list ap;

	printf("%-34s ", "");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

#define SIDE1(f, c)		((struct side){ .fn = (f), .ctx = { (c) }, .threads = 1 })
#define SIDE2(f, c0, c1)	((struct side){ .fn = (f), .ctx = { (c0), (c1) }, .threads = 2 })

/* ---- targets ---------------------------------------------------------- */

#define MAX_TARGETS	32

static struct {
	char text[200];
	int pass;	/* 1 pass, 0 miss, -1 not measured */
} targets[MAX_TARGETS];
static int nr_targets;

static void target(int pass, const char *fmt, ...)
{
	va_list ap;

	if (nr_targets == MAX_TARGETS)
		return;
	va_start(ap, fmt);
	vsnprintf(targets[nr_targets].text, sizeof(targets[0].text), fmt, ap);
	va_end(ap);
	targets[nr_targets++].pass = pass;
}

/* ---- baseline loops (the same shapes as cases.h) ----------------------- */

static u64 bl_ring_record_run(void *ctx, u64 iters)
{
	struct ring_ctx *c = ctx;
	u64 start = c->rec_start, now = c->rec_now, i;

	for (i = 0; i < iters; i++) {
		bl_ring_record(c->mm, start, now);
		start += 1ULL << 28;
		now += 100;
	}
	c->rec_start = start;
	c->rec_now = now;
	return start;
}

static u64 bl_ring_advance_run(void *ctx, u64 iters)
{
	struct ring_ctx *c = ctx;
	u64 off = c->rec_start, i;

	for (i = 0; i < iters; i++) {
		bl_ring_advance(c->mm, off);
		off += 1ULL << 21;
	}
	c->rec_start = off;
	return off;
}

static u64 bl_ring_lat_run(void *ctx, u64 iters)
{
	struct ring_ctx *c = ctx;
	u64 sum = 0, i;

	for (i = 0; i < iters; i++)
		sum += (u64)bl_ring_latency(c->mm, c->addr[i & TBL_MASK], c->now);
	return sum;
}

static u64 bl_ring_lat_rt_run(void *ctx, u64 iters)
{
	struct ring_ctx *c = ctx;
	u64 sum = 0, i;

	for (i = 0; i < iters; i++)
		sum += (u64)bl_ring_latency_rt(c->mm, c->addr[i & TBL_MASK],
					       c->now);
	return sum;
}

static u64 bl_atime_encode_run(void *ctx, u64 iters)
{
	struct atime_ctx *c = ctx;
	u64 now = c->now, step = c->step, sum = 0, i;

	for (i = 0; i < iters; i++) {
		OPT_LAUNDER(now);
		sum += bl_atime_encode(&c->bl, now);
		now += step;
	}
	c->now = now;
	return sum;
}

static u64 bl_atime_latency_run(void *ctx, u64 iters)
{
	struct atime_ctx *c = ctx;
	u64 now = c->now, step = c->step, sum = 0, i;

	for (i = 0; i < iters; i++) {
		OPT_LAUNDER(now);
		sum += bl_atime_latency(&c->bl, c->bstamp[i & TBL_MASK], now);
		now += step;
	}
	c->now = now;
	return sum;
}

static u64 bl_atime_fault_run(void *ctx, u64 iters)
{
	struct atime_ctx *c = ctx;
	u64 now = c->now, step = c->step, sum = 0, i;

	for (i = 0; i < iters; i++) {
		sum += bl_atime_fault(&c->bl, &c->bstamp[i & TBL_MASK], now);
		now += step;
	}
	c->now = now;
	return sum;
}

static u64 bl_thresh_idle_run(void *ctx, u64 iters)
{
	struct thresh_ctx *c = ctx;
	u64 i;

	for (i = 0; i < iters; i++)
		bl_thresh_seed(c->pg, c->rate, c->ref_th,
			       c->start + (i & TBL_MASK), c->period, c->period);
	return c->pg->numa_threshold;
}

static u64 bl_thresh_adjust_run(void *ctx, u64 iters)
{
	struct thresh_ctx *c = ctx;
	u64 now = c->now, cand = c->cand, i, ref;

	ref = c->rate * (c->period / 1000);
	for (i = 0; i < iters; i++) {
		cand += ref / 2 * (((i * 0x9E3779B97F4A7C15ULL) >> 62) % 3 + 1);
		__atomic_store_n(&c->pg->vm_stat[BL_NUMA_TRY_MIGRATE],
				 (long)cand, __ATOMIC_RELAXED);
		now += c->period + 1;
		bl_thresh_seed(c->pg, c->rate, c->ref_th, now, c->period,
			       c->period);
	}
	c->now = now;
	return c->pg->numa_threshold;
}

static u64 bl_bucket_run(void *ctx, u64 iters)
{
	struct lim_ctx *c = ctx;
	u64 now = c->now, step = c->step, adm = 0, i;

	for (i = 0; i < iters; i++) {
		now += step;
		if (c->clock && !(i % CLOCK_SYNC))
			now = clock_sync(c->clock, now);
		adm += bl_bucket_consume(c->bb, 1, now);
	}
	c->now = now;
	c->admitted += adm;
	c->calls += iters;
	return adm;
}

static u64 bl_win_seed_run(void *ctx, u64 iters)
{
	struct lim_ctx *c = ctx;
	u64 now = c->now, step = c->step, adm = 0, i;

	for (i = 0; i < iters; i++) {
		now += step;
		if (c->clock && !(i % CLOCK_SYNC))
			now = clock_sync(c->clock, now);
		adm += bl_window_seed(c->pg, c->pcp, c->rate, 1, now);
	}
	c->now = now;
	c->admitted += adm;
	c->calls += iters;
	return adm;
}

static u64 bl_win_mainline_run(void *ctx, u64 iters)
{
	struct lim_ctx *c = ctx;
	u64 now = c->now, step = c->step, adm = 0, i;

	for (i = 0; i < iters; i++) {
		now += step;
		if (c->clock && !(i % CLOCK_SYNC))
			now = clock_sync(c->clock, now);
		adm += bl_window_mainline(c->pg, c->pcp, c->rate, 1, now);
	}
	c->now = now;
	c->admitted += adm;
	c->calls += iters;
	return adm;
}

static u64 bl_vma_run(void *ctx, u64 iters, bool mainline)
{
	struct vma_ctx *c = ctx;
	u64 now = c->now, scans = 0, i;
	struct bl_vma *v;
	const struct bl_vma_mm *mm;

	for (i = 0; i < iters; i++) {
		v = &c->bv[i & (VMA_NR - 1)];
		mm = &c->bmm[i & TBL_MASK];
		if (mainline)
			scans += bl_vma_check_mainline(v, mm, now);
		else
			scans += bl_vma_check_seed(v, mm, now);
		now += 1;
	}
	c->now = now;
	c->scans += scans;
	return scans;
}

static u64 bl_vma_seed_run(void *ctx, u64 iters)
{
	return bl_vma_run(ctx, iters, false);
}

static u64 bl_vma_mainline_run(void *ctx, u64 iters)
{
	return bl_vma_run(ctx, iters, true);
}

static u64 bl_vma_note_run(void *ctx, u64 iters)
{
	struct vma_ctx *c = ctx;
	u64 i;

	for (i = 0; i < iters; i++)
		bl_vma_note(&c->bv[i & (VMA_NR - 1)], (int)c->pid[i & TBL_MASK]);
	return c->bv[0].access_pids[1];
}

typedef int (*bl_decide_fn)(const struct bl_sysctl *, struct bl_pgdat *,
			    struct bl_pcp *, const struct bl_fault *,
			    unsigned long);

/* @lat: 0 none, 1 ring lookup, 2 stamp exchange, before the decision */
static u64 bl_decide_loop(void *ctx, u64 iters, bl_decide_fn fn, int lat)
{
	struct decide_ctx *c = ctx;
	u64 cnt[TP_NR_VERDICTS] = { 0 };
	u64 now = c->now, i, t;
	unsigned int shift = c->shift, k;
	struct bl_fault f;
	int v;

	for (i = 0; i < iters; i++) {
		t = now + (i >> shift);
		if (c->clock && !(i % CLOCK_SYNC)) {
			now += clock_sync(c->clock, t) - t;
			t = now + (i >> shift);
		}
		f = c->bf[i & TBL_MASK];
		if (lat == 1)
			f.latency = (u64)bl_ring_latency(c->mm,
							 c->addr[i & TBL_MASK],
							 c->lat_now) >> 20;
		else if (lat == 2)
			f.latency = bl_atime_fault(&c->blfmt,
						   &c->bstamp[i & TBL_MASK],
						   c->lat_now + (i << 10));
		v = fn(c->s, c->pg, c->pcp, &f, t);
		cnt[v & (TP_NR_VERDICTS - 1)]++;
	}
	c->now = now + (iters >> shift);
	if (lat == 2)
		c->lat_now += iters << 10;
	for (k = 0; k < TP_NR_VERDICTS; k++)
		c->bverdicts[k] += cnt[k];
	return cnt[BL_PROMOTE];
}

static u64 bl_decide_seed_run(void *ctx, u64 iters)
{
	return bl_decide_loop(ctx, iters, bl_decide_seed, 0);
}

static u64 bl_decide_mainline_run(void *ctx, u64 iters)
{
	return bl_decide_loop(ctx, iters, bl_decide_mainline, 0);
}

static u64 bl_fault_ring_run(void *ctx, u64 iters)
{
	return bl_decide_loop(ctx, iters, bl_decide_seed, 1);
}

static u64 bl_fault_atime_run(void *ctx, u64 iters)
{
	return bl_decide_loop(ctx, iters, bl_decide_mainline, 2);
}

/* A loop that does nothing but the table walk and the checksum. */
static u64 empty_run(void *ctx, u64 iters)
{
	const u64 *t = ctx;
	u64 sum = 0, i;

	for (i = 0; i < iters; i++) {
		u64 x = t[i & TBL_MASK];

		OPT_LAUNDER(x);
		sum += x;
	}
	return sum;
}

/* ---- machine ---------------------------------------------------------- */

static void cpu_model(char *buf, size_t len)
{
	char line[512];
	FILE *f = fopen("/proc/cpuinfo", "r");

	snprintf(buf, len, "unknown");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *p = strchr(line, ':');

		if (strncmp(line, "model name", 10) || !p)
			continue;
		p += 2;
		p[strcspn(p, "\n")] = 0;
		snprintf(buf, len, "%s", p);
		break;
	}
	fclose(f);
}

static double loadavg(void)
{
	double l = -1;
	FILE *f = fopen("/proc/loadavg", "r");

	if (f) {
		if (fscanf(f, "%lf", &l) != 1)
			l = -1;
		fclose(f);
	}
	return l;
}

/* ---- 1. scan-history ring --------------------------------------------- */

#define PASS_BYTES	(1ULL << 28)	/* 256 MB passes */
#define RING_BASE	(1ULL << 32)
#define RING_T0		1000000000ULL	/* ns */
#define NS_PER_MS	1000000ULL

/* Record @nr passes of PASS_BYTES, @gap ns apart; the newest fully scanned. */
static void ring_fill(struct tp_scan_ring *r, struct bl_mm *mm, u32 nr,
		      u64 gap)
{
	struct tp_scan_ring_cfg cfg = { .depth = 16, .limit = 1ULL << 47 };
	u64 start = RING_BASE, t = RING_T0;
	u32 k;

	if (tp_scan_ring_init(r, &cfg, r->pass)) {
		fprintf(stderr, "tp_scan_ring_init failed\n");
		exit(2);
	}
	memset(mm, 0, sizeof(*mm));
	mm->nr_hist = BL_NUMA_SCAN_NR_HIST;
	for (k = 0; k < nr; k++) {
		tp_scan_ring_record(r, start, t);
		bl_ring_record(mm, start, t);
		start += PASS_BYTES;
		tp_scan_ring_advance(r, start);
		bl_ring_advance(mm, start);
		t += gap;
	}
}

/* An address in the pass @back passes before the newest (0 = newest). */
static u64 ring_addr(u32 nr, u32 back)
{
	return RING_BASE + (u64)(nr - 1 - back) * PASS_BYTES +
	       (rnd() % (PASS_BYTES >> 12) << 12);
}

/* Do tierpol and the seed give the same latencies for these addresses? */
static void ring_check(const struct ring_ctx *c, const char *what)
{
	u64 lat = 0;
	u32 i, bad = 0;

	for (i = 0; i < TBL; i++) {
		if (tp_scan_ring_latency(c->ring, c->addr[i], c->now, &lat) < 0 ||
		    lat != (u64)bl_ring_latency(c->mm, c->addr[i], c->now))
			bad++;
	}
	if (bad) {
		note("CHECK FAILED: %u of %u %s latencies differ from the seed's",
		     bad, TBL, what);
		failures++;
	}
}

static void bench_ring(void)
{
	static const struct {
		const char *name;
		int back;	/* -1 miss, -2 mixed */
	} rows[] = {
		{ "latency: newest pass", 0 },
		{ "latency: middle pass (8th)", 7 },
		{ "latency: oldest pass (16th)", 15 },
		{ "latency: miss (walks all 16)", -1 },
		{ "latency: mixed (random pass)", -2 },
	};
	const u32 nr = 20;	/* more passes than the ring holds: wrapped */
	struct tp_scan_ring *ring = xalloc(sizeof(*ring));
	struct tp_scan_pass *pass = xalloc(16 * sizeof(*pass));
	struct bl_mm *mm = xalloc(sizeof(*mm));
	u64 *addr = xalloc(TBL * sizeof(*addr));
	struct ring_ctx c = { .ring = ring, .mm = mm, .addr = addr };
	struct ring_ctx rc;
	struct result r, worst = { .ran = false };
	double newest = -1, worst_base = -1;
	const char *worst_name = "", *worst_base_name = "";
	size_t k;
	u32 i;

	section("ring", "scan-history ring, depth 16, wrapped, 256 MB passes 100 ms apart; seed 000 6/8 as baseline");
	ring->pass = pass;
	ring_fill(ring, mm, nr, 100 * NS_PER_MS);
	c.now = RING_T0 + nr * 100 * NS_PER_MS;

	rc = c;
	rc.rec_start = RING_BASE;
	rc.rec_now = RING_T0;
	compare("record a pass", &SIDE1(lib_ring_record, &rc),
		&SIDE1(bl_ring_record_run, &rc),
		"seed: 3 WRITE_ONCE + release of (idx+1)%16");
	compare("advance the scan offset", &SIDE1(lib_ring_advance, &rc),
		&SIDE1(bl_ring_advance_run, &rc), "seed: WRITE_ONCE(offset)");
	/* Recording moved the rings; rebuild them for the lookups. */
	ring_fill(ring, mm, nr, 100 * NS_PER_MS);

	for (k = 0; k < sizeof(rows) / sizeof(rows[0]); k++) {
		for (i = 0; i < TBL; i++) {
			if (rows[k].back >= 0)
				addr[i] = ring_addr(nr, (u32)rows[k].back);
			else if (rows[k].back == -1)
				addr[i] = rnd() % RING_BASE; /* below all */
			else if (rnd() % 17 == 16)
				addr[i] = rnd() % RING_BASE;
			else
				addr[i] = ring_addr(nr, (u32)(rnd() % 16));
		}
		if (wanted(cur_section, rows[k].name))
			ring_check(&c, rows[k].name);
		r = compare(rows[k].name, &SIDE1(lib_ring_lat, &c),
			    &SIDE1(bl_ring_lat_run, &c),
			    "seed: (i - 1 + 16) % 16 on an int");
		if (!r.ran)
			continue;
		if (rows[k].back == 0)
			newest = r.tp.med;
		/* the worst case of each side over the fixed positions */
		if (rows[k].back != -2 &&
		    (!worst.ran || r.tp.med > worst.tp.med)) {
			worst = r;
			worst_name = rows[k].name;
		}
		if (rows[k].back != -2 && r.base.med > worst_base) {
			worst_base = r.base.med;
			worst_base_name = rows[k].name;
		}
		if (rows[k].back == 15) {
			compare("latency: oldest, vs runtime depth",
				&SIDE1(lib_ring_lat, &c),
				&SIDE1(bl_ring_lat_rt_run, &c),
				"the seed's walk with % nr_hist (a division)");
		}
	}
	if (newest >= 0)
		target(newest <= 5.0, "latency lookup, newest pass <= 5 ns: %.2f ns",
		       newest);
	if (worst.ran) {
		target(worst.tp.med <= 12.0,
		       "latency lookup, worst case of a 16-deep ring <= 12 ns: %.2f ns (%s)",
		       worst.tp.med, worst_name);
		target(worst_base / worst.tp.med >= 2.0,
		       "latency lookup, worst case >= 2x faster than signed modulo: %.2fx (seed %.2f ns, %s)",
		       worst_base / worst.tp.med, worst_base, worst_base_name);
	}
}

/* ---- 2. access-time stamps -------------------------------------------- */

static void bench_atime(void)
{
	struct tp_atime_cfg cfg = { .bits = 21, .shift = 20 };
	struct atime_ctx c = { .now = RING_T0, .step = 1234567 };
	u32 i;

	section("atime", "per-page access-time stamp, 21 bits of 2^20 ns; baseline: ns -> ms by division (bucket 10^6 ns)");
	if (tp_atime_init(&c.fmt, &cfg))
		exit(2);
	c.bl.bucket = NS_PER_MS;
	c.bl.mask = (1U << 21) - 1;
	c.stamp = xalloc(TBL * sizeof(u32));
	c.bstamp = xalloc(TBL * sizeof(u32));
	for (i = 0; i < TBL; i++) {
		c.stamp[i] = tp_atime_encode(&c.fmt, RING_T0 - rnd() % (1ULL << 30));
		c.bstamp[i] = bl_atime_encode(&c.bl, RING_T0 - rnd() % (1ULL << 30));
	}
	compare("encode (static inline)", &SIDE1(lib_atime_encode, &c),
		&SIDE1(bl_atime_encode_run, &c), "(now / bucket) & mask");
	compare("latency (static inline)", &SIDE1(lib_atime_latency, &c),
		&SIDE1(bl_atime_latency_run, &c),
		"(now / bucket - stamp) & mask");
	compare("fault: xchg stamp + latency", &SIDE1(lib_atime_fault, &c),
		&SIDE1(bl_atime_fault_run, &c),
		"6.1 numa_hint_fault_latency(), ms by division");
}

/* ---- 3. hot-threshold controller -------------------------------------- */

static void bench_thresh(void)
{
	struct tp_thresh_cfg cfg = {
		.variant = TP_THRESH_SEED, .tps = 1000, .ref_th = 1000,
		.period = 60000, .rate_limit = 25600,
	};
	struct thresh_ctx c = {
		.t = xalloc(sizeof(struct tp_thresh)),
		.pg = xalloc(sizeof(struct bl_pgdat)),
		.period = 60000, .rate = 25600, .ref_th = 1000,
		.now = 1000000, .start = 1000000,
	};

	section("thresh", "hot-threshold controller, seed variant, ms ticks, 60 s period; seed 000 8/8 as baseline");
	if (tp_thresh_init(c.t, &cfg, 0, c.start))
		exit(2);
	c.pg->numa_threshold_ts = c.start;
	compare("update, period not over (idle)", &SIDE1(lib_thresh_idle, &c),
		&SIDE1(bl_thresh_idle_run, &c),
		"seed: now > ts + period, plain words");
	compare("update, closes the period", &SIDE1(lib_thresh_adjust, &c),
		&SIDE1(bl_thresh_adjust_run, &c),
		"seed: cmpxchg, ref * 11 / 10, ...");
}

/* ---- 4. rate limiters ------------------------------------------------- */

#define LIM_TPS		1000000000ULL	/* ns ticks */
/*
 * Simulated time runs at about real speed (8 ns per call, each call takes
 * 3..20 ns), so the callers' clocks disagree only by as much as a real
 * descheduling; the rate is set so that one caller asks ~2x what is
 * allowed. (With 1 us per call a 10 ms descheduling became 1.6 simulated
 * seconds, beyond the bucket's one-second stale margin, and the bound of
 * limiter.h was exceeded: see docs/PERFORMANCE.md.)
 */
#define LIM_RATE	(1ULL << 26)	/* 256 GiB/s of 4 KiB pages */
#define LIM_BURST	4096ULL
#define LIM_STEP	8ULL		/* ns between two calls of one caller */

enum lim_kind { LIM_BUCKET_ALL, LIM_BUCKET, LIM_WIN_SEED, LIM_WIN_MAINLINE };

/** struct lim_setup - one limiter and its baseline, with up to 2 callers */
struct lim_setup {
	struct tp_limiter *l;
	struct bl_bucket *bb;
	struct bl_pgdat *pg;
	struct bl_pcp *pcp;	/* 2 */
	struct lim_ctx tp[2];
	struct lim_ctx base[2];
	u64 *clock;		/* 2: tierpol's threads, the baseline's */
	u64 rate, burst;
	enum lim_kind kind;
};

static void lim_init(struct lim_setup *s, enum lim_kind kind, int threads)
{
	struct tp_limiter_cfg cfg = { .tps = LIM_TPS };
	u64 step = LIM_STEP;
	int i;

	s->kind = kind;
	s->rate = LIM_RATE;
	s->burst = LIM_BURST;
	cfg.variant = kind == LIM_WIN_SEED ? TP_LIMITER_WINDOW_SEED :
		      kind == LIM_WIN_MAINLINE ? TP_LIMITER_WINDOW_MAINLINE :
		      TP_LIMITER_BUCKET;
	if (kind == LIM_BUCKET_ALL) {
		/* the largest rate: every call is admitted (the cmpxchg path) */
		s->rate = TP_RATE_MAX;
		s->burst = 0;
	}
	cfg.rate = s->rate;
	cfg.burst = s->burst;
	if (!s->burst)
		s->burst = s->rate;
	if (tp_limiter_init(s->l, &cfg, RING_T0))
		exit(2);
	bl_bucket_init(s->bb, s->rate, s->burst, LIM_TPS, RING_T0);
	memset(s->pg, 0, sizeof(*s->pg));
	memset(s->pcp, 0, 2 * sizeof(*s->pcp));
	s->pg->hz = LIM_TPS;
	s->pg->numa_ts = RING_T0;
	s->clock[0] = RING_T0;
	s->clock[8] = RING_T0;	/* another cache line */
	for (i = 0; i < 2; i++) {
		s->tp[i] = (struct lim_ctx){ .l = s->l, .rate = s->rate,
					     .now = RING_T0, .step = step };
		s->base[i] = (struct lim_ctx){ .bb = s->bb, .pg = s->pg,
					       .pcp = &s->pcp[i],
					       .rate = s->rate,
					       .now = RING_T0, .step = step };
		if (threads > 1) {
			s->tp[i].clock = &s->clock[0];
			s->base[i].clock = &s->clock[8];
		}
	}
}

/* The stated bound on the pages admitted since init, over all callers. */
static double lim_bound(const struct lim_setup *s, const struct lim_ctx *c)
{
	u64 tmax = c[0].now > c[1].now ? c[0].now : c[1].now;
	double secs = (double)(tmax - RING_T0) / (double)LIM_TPS;

	if (s->kind == LIM_BUCKET || s->kind == LIM_BUCKET_ALL)
		return (double)s->burst + (double)s->rate * secs;
	/* window: (T + 2) * (limit + n_max) */
	return (secs + 2) * (double)(s->rate + 1);
}

static void lim_report(const struct lim_setup *s, const struct lim_ctx *c,
		       const char *who, bool is_tp, const char *row)
{
	u64 adm = c[0].admitted + c[1].admitted;
	u64 calls = c[0].calls + c[1].calls;
	double bound = lim_bound(s, c);
	bool ok = (double)adm <= bound;

	note("%s: admitted %llu of %llu (%.1f %%), bound %.0f: %s", who,
	     (unsigned long long)adm, (unsigned long long)calls,
	     calls ? 100.0 * (double)adm / (double)calls : 0.0, bound,
	     ok ? "within" : "ABOVE THE BOUND");
	mdf("| | %s admitted %llu of %llu, bound %.0f: %s | | | |\n", who,
	    (unsigned long long)adm, (unsigned long long)calls, bound,
	    ok ? "within" : "**above**");
	if (is_tp && !ok) {
		note("CHECK FAILED: tierpol above its stated bound (%s)", row);
		failures++;
	}
}

static void bench_limiter(void)
{
	struct lim_setup s = {
		.l = xalloc(sizeof(struct tp_limiter)),
		.bb = xalloc(sizeof(struct bl_bucket)),
		.pg = xalloc(sizeof(struct bl_pgdat)),
		.pcp = xalloc(2 * sizeof(struct bl_pcp)),
		.clock = xalloc(16 * sizeof(u64)),
	};
	static const struct {
		const char *name;
		enum lim_kind kind;
		int threads;
		const char *what;
	} rows[] = {
		{ "bucket: every call admitted", LIM_BUCKET_ALL, 1,
		  "mutex bucket, refill by division" },
		{ "bucket: over the rate (~50%)", LIM_BUCKET, 1,
		  "mutex bucket, refill by division" },
		{ "window seed: over the rate", LIM_WIN_SEED, 1,
		  "seed 2/8: numa_ts/numa_try + vmstat" },
		{ "window mainline: over the rate", LIM_WIN_MAINLINE, 1,
		  "6.1 numa_promotion_rate_limit()" },
		{ "2 threads: bucket, all admitted", LIM_BUCKET_ALL, 2,
		  "mutex bucket, 2 threads" },
		{ "2 threads: bucket, over the rate", LIM_BUCKET, 2,
		  "mutex bucket, 2 threads" },
		{ "2 threads: window seed", LIM_WIN_SEED, 2,
		  "seed 2/8, 2 threads" },
		{ "2 threads: window mainline", LIM_WIN_MAINLINE, 2,
		  "6.1, 2 threads" },
	};
	struct result r;
	struct side tp, base;
	bool contended_ok = true, contended_ran = false;
	bool bound_ok = true;
	double worst_ratio = 1e9;
	size_t k;

	section("limiter", "promotion rate limiter on one node, ns ticks, rate 2^26 pages/s, burst 4096, a call every 8 ns per caller");
	for (k = 0; k < sizeof(rows) / sizeof(rows[0]); k++) {
		if (!wanted(cur_section, rows[k].name))
			continue;
		lim_init(&s, rows[k].kind, rows[k].threads);
		tp = rows[k].threads == 2 ?
		     SIDE2(lib_lim_consume, &s.tp[0], &s.tp[1]) :
		     SIDE1(lib_lim_consume, &s.tp[0]);
		base.fn = rows[k].kind == LIM_WIN_SEED ? bl_win_seed_run :
			  rows[k].kind == LIM_WIN_MAINLINE ? bl_win_mainline_run :
			  bl_bucket_run;
		base.ctx[0] = &s.base[0];
		base.ctx[1] = &s.base[1];
		base.threads = rows[k].threads;
		r = compare(rows[k].name, &tp, &base, rows[k].what);
		if (rows[k].kind != LIM_BUCKET_ALL) {
			lim_report(&s, s.tp, "tierpol ", true, rows[k].name);
			lim_report(&s, s.base, "baseline", false, rows[k].name);
		}
		if (rows[k].kind == LIM_BUCKET_ALL && rows[k].threads == 1)
			target(r.tp.med <= 8.0,
			       "token bucket consume, uncontended <= 8 ns: %.2f ns",
			       r.tp.med);
		if (rows[k].threads == 2 && (rows[k].kind == LIM_BUCKET ||
					     rows[k].kind == LIM_BUCKET_ALL)) {
			contended_ran = true;
			if (r.ratio.med < worst_ratio)
				worst_ratio = r.ratio.med;
			if (r.ratio.med < 1.0)
				contended_ok = false;
			if ((double)(s.tp[0].admitted + s.tp[1].admitted) >
			    lim_bound(&s, s.tp))
				bound_ok = false;
		}
	}
	if (contended_ran) {
		target(contended_ok,
		       "token bucket, 2 threads, not worse than the mutex: worst base/tp %.2fx",
		       worst_ratio);
		target(bound_ok, "token bucket, 2 threads, admitted <= bound: %s",
		       bound_ok ? "yes" : "NO");
	}
}

/* ---- 5. VMA scan decisions -------------------------------------------- */

static void bench_vma(void)
{
	struct tp_vma_profile_cfg pc = { .tps = 1000, .scan_delay = 1000 };
	struct vma_ctx c = {
		.prof = xalloc(sizeof(struct tp_vma_profile)),
		.v = xalloc(VMA_NR * sizeof(struct tp_vma_scan)),
		.facts = xalloc(TBL * sizeof(struct tp_vma_facts)),
		.bv = xalloc(VMA_NR * sizeof(struct bl_vma)),
		.bmm = xalloc(TBL * sizeof(struct bl_vma_mm)),
		.pid = xalloc(TBL * sizeof(u32)),
	};
	static const char *names[] = { "check: seed 004 filter",
				       "check: mainline 6.7 filter" };
	u64 vstart[VMA_NR], vend[VMA_NR];
	int filt;
	u32 i;

	section("vma", "VMA scan decision over 64 VMAs of 4 KiB..1 GiB, 8 PIDs, one check per VMA per pass");
	for (i = 0; i < VMA_NR; i++) {
		vstart[i] = (u64)(i + 1) << 31;
		vend[i] = vstart[i] + (4096ULL << (i % 19));
	}
	for (i = 0; i < TBL; i++) {
		struct tp_vma_facts *f = &c.facts[i];
		struct bl_vma_mm *m = &c.bmm[i];

		f->vma_start = vstart[i & (VMA_NR - 1)];
		f->vma_end = vend[i & (VMA_NR - 1)];
		f->scan_seq = 2 + i / VMA_NR;
		f->scan_offset = rnd() % 2 ? f->vma_start + 4096 : 0;
		f->nr_threads = 1 + (u32)(rnd() % 64);
		f->pid = 1000 + (u32)(rnd() % 8);
		f->forced = rnd() % 8 == 0;
		c.pid[i] = 1000 + (u32)(rnd() % 8);
		*m = (struct bl_vma_mm){
			.numa_scan_seq = (int)f->scan_seq,
			.numa_scan_offset = f->scan_offset,
			.nr_threads = (int)f->nr_threads, .pid = (int)f->pid,
			.forced = f->forced, .scan_delay_ms = 1000,
		};
	}
	for (filt = 0; filt < 2; filt++) {
		struct bl_vma_mm m0 = { .scan_delay_ms = 1000 };

		if (!wanted(cur_section, names[filt]))
			continue;
		pc.filter = filt ? TP_VMA_FILTER_MAINLINE : TP_VMA_FILTER_SEED;
		if (tp_vma_profile_init(c.prof, &pc))
			exit(2);
		for (i = 0; i < VMA_NR; i++) {
			tp_vma_scan_init(&c.v[i], c.prof, 0, 0);
			bl_vma_init(&c.bv[i], &m0, 0);
			c.bv[i].vm_start = vstart[i];
			c.bv[i].vm_end = vend[i];
			/* half the VMAs were accessed by some PIDs */
			if (i & 1) {
				tp_vma_scan_note(&c.v[i], 1000 + i % 8);
				bl_vma_note(&c.bv[i], (int)(1000 + i % 8));
			}
		}
		c.now = 2000;
		c.scans = 0;
		compare(names[filt], &SIDE1(lib_vma_check, &c),
			&SIDE1(filt ? bl_vma_mainline_run : bl_vma_seed_run, &c),
			filt ? "6.7 vma_is_accessed() + task_numa_work() checks" :
			       "6.5 + seed 004 (u32 size, division per check)");
	}
	compare("note a PID access (fault path)", &SIDE1(lib_vma_note, &c),
		&SIDE1(bl_vma_note_run, &c), "vma_set_access_pid_bit()");
}

/* ---- 6. the whole decision -------------------------------------------- */

#define DEC_FREE_FULL	60000ULL	/* no bypass, room for promotion */
#define DEC_FREE_BYPASS	1000000ULL	/* bypass on both presets */

/** struct dec_setup - one configuration of tp_decide and its baseline */
struct dec_setup {
	struct tp_policy *pol;
	struct tp_node *node;
	struct tp_node_mem *mem;
	struct bl_sysctl *s;
	struct bl_pgdat *pg;
	struct bl_pcp *pcp;	/* 2 */
	struct tp_fault *f;
	struct bl_fault *bf;
	struct decide_ctx c[2];	/* one per thread */
	u64 *clock;		/* shared clock of 2 threads */
};

static void dec_alloc(struct dec_setup *d)
{
	d->pol = xalloc(sizeof(*d->pol));
	d->node = xalloc(sizeof(*d->node));
	d->mem = xalloc(sizeof(*d->mem));
	d->s = xalloc(sizeof(*d->s));
	d->pg = xalloc(sizeof(*d->pg));
	d->pcp = xalloc(2 * sizeof(*d->pcp));
	d->f = xalloc(TBL * sizeof(*d->f));
	d->bf = xalloc(TBL * sizeof(*d->bf));
	d->clock = xalloc(16 * sizeof(u64));
}

/*
 * @preset: TP_PRESET_*; @free: the target's free pages; @mbps: rate limit
 * override (0: the preset's); @shift: now advances one ms per 2^shift calls.
 */
static void dec_init(struct dec_setup *d, u32 preset, u64 free, u32 mbps,
		     unsigned int shift)
{
	struct tp_policy_cfg cfg;
	u32 i;
	int t;

	tp_policy_preset(&cfg, preset, 1000);
	if (mbps)
		cfg.rate_limit_mbps = mbps;
	if (tp_policy_init(d->pol, &cfg) || tp_node_init(d->node, d->pol, 0)) {
		fprintf(stderr, "policy init failed\n");
		exit(2);
	}
	*d->mem = (struct tp_node_mem){
		.free = free, .wmark_min = 16384, .wmark_low = 20480,
		.wmark_high = 25600, .wmark_promo = 30720, .present = 1 << 22,
	};
	/* The seed preset's rate: 0 = the high watermark, 25600 pages/s. */
	*d->s = (struct bl_sysctl){
		.mode = 2, .hot_threshold_ms = 1000,
		.rate_limit_mbps = mbps ? mbps :
				   preset == TP_PRESET_SEED ? 100 : 65536,
		.scan_period_max_ms = 60000, .page_shift = 12,
	};
	memset(d->pg, 0, sizeof(*d->pg));
	memset(d->pcp, 0, 2 * sizeof(*d->pcp));
	d->pg->hz = 1000;
	d->pg->free = d->mem->free;
	d->pg->wmark_high = d->mem->wmark_high;
	d->pg->wmark_promo = d->mem->wmark_promo;
	d->pg->present = d->mem->present;
	for (i = 0; i < TBL; i++) {
		bool w = rnd() % 5 == 0;	/* 80:20 read/write */
		u64 lat = rnd() % 60;		/* hot: below every threshold */

		d->f[i] = (struct tp_fault){
			.latency = lat, .nr_pages = 1,
			.flags = TP_FAULT_YOUNG | (w ? TP_FAULT_WRITE : 0),
		};
		d->bf[i] = (struct bl_fault){
			.latency = lat, .nr = 1,
			.flags = BL_F_YOUNG | (w ? BL_F_WRITE : 0),
		};
	}
	for (t = 0; t < 2; t++) {
		d->c[t] = (struct decide_ctx){
			.pol = d->pol, .node = d->node, .mem = d->mem,
			.f = d->f, .s = d->s, .pg = d->pg, .pcp = &d->pcp[t],
			.bf = d->bf, .now = 1, .shift = shift,
		};
	}
	d->clock[0] = 1;
}

static const char *verdict_name[TP_NR_VERDICTS] = {
	"PROMOTE", "PROMOTE_NRL", "MODE", "TOPTIER", "NOT_YOUNG", "COLD",
	"RATELIMIT", "NOSPACE",
};

static void verdict_mix(char *buf, size_t len, const u64 *v)
{
	u64 total = 0;
	size_t off = 0;
	int k;

	for (k = 0; k < TP_NR_VERDICTS; k++)
		total += v[k];
	buf[0] = 0;
	for (k = 0; k < TP_NR_VERDICTS && total; k++) {
		if (!v[k])
			continue;
		off += (size_t)snprintf(buf + off, len - off, "%s%s %.1f%%",
					off ? ", " : "", verdict_name[k],
					100.0 * (double)v[k] / (double)total);
		if (off >= len)
			break;
	}
}

static void dec_report(const struct dec_setup *d, int threads)
{
	u64 tv[TP_NR_VERDICTS] = { 0 }, bv[TP_NR_VERDICTS] = { 0 };
	char a[160], b[160];
	int t, k;

	for (t = 0; t < threads; t++) {
		for (k = 0; k < TP_NR_VERDICTS; k++) {
			tv[k] += d->c[t].verdicts[k];
			bv[k] += d->c[t].bverdicts[k];
		}
	}
	verdict_mix(a, sizeof(a), tv);
	verdict_mix(b, sizeof(b), bv);
	note("verdicts: tierpol %s | baseline %s", a, b);
}

static void bench_decide(void)
{
	static const struct {
		const char *name;
		u32 preset;
		u64 free;
		u32 mbps;
		unsigned int shift;
		int threads;
		bool full;
	} rows[] = {
		{ "seed: bypass (free space)", TP_PRESET_SEED, DEC_FREE_BYPASS, 0, 0, 1, false },
		{ "seed: full path, admitted", TP_PRESET_SEED, DEC_FREE_FULL, 0, 0, 1, true },
		{ "seed: full path, rate-limited", TP_PRESET_SEED, DEC_FREE_FULL, 0, 12, 1, true },
		{ "mainline: bypass (free space)", TP_PRESET_MAINLINE, DEC_FREE_BYPASS, 0, 0, 1, false },
		{ "mainline: full path, admitted", TP_PRESET_MAINLINE, DEC_FREE_FULL, 0, 0, 1, true },
		{ "mainline: full path, rate-limited", TP_PRESET_MAINLINE, DEC_FREE_FULL, 1, 12, 1, true },
		{ "2 threads: seed full, admitted", TP_PRESET_SEED, DEC_FREE_FULL, 0, 0, 2, false },
		{ "2 threads: mainline full, admitted", TP_PRESET_MAINLINE, DEC_FREE_FULL, 0, 0, 2, false },
	};
	struct dec_setup d;
	struct side tp, base;
	struct result r;
	double worst = -1;
	const char *worst_name = "";
	size_t k;

	section("decide", "tp_decide() per preset, ms ticks, 4 KiB pages, hot young faults (20% writes); baselines: should_numa_migrate_memory() of seed 000 and 6.1");
	dec_alloc(&d);
	for (k = 0; k < sizeof(rows) / sizeof(rows[0]); k++) {
		bool seed = rows[k].preset == TP_PRESET_SEED;

		if (!wanted(cur_section, rows[k].name))
			continue;
		dec_init(&d, rows[k].preset, rows[k].free, rows[k].mbps,
			 rows[k].shift);
		if (rows[k].threads == 2) {
			d.c[0].clock = d.c[1].clock = d.clock;
			tp = SIDE2(lib_decide, &d.c[0], &d.c[1]);
			base = SIDE2(seed ? bl_decide_seed_run :
				     bl_decide_mainline_run, &d.c[0], &d.c[1]);
		} else {
			tp = SIDE1(lib_decide, &d.c[0]);
			base = SIDE1(seed ? bl_decide_seed_run :
				     bl_decide_mainline_run, &d.c[0]);
		}
		r = compare(rows[k].name, &tp, &base,
			    seed ? "seed 000 1-8/8, vmstat counters" :
				   "6.1, vmstat counters");
		if (!r.ran)
			continue;
		dec_report(&d, rows[k].threads);
		if (rows[k].full && r.tp.med > worst) {
			worst = r.tp.med;
			worst_name = rows[k].name;
		}
	}
	if (worst >= 0)
		target(worst <= 25.0, "whole decision, full path <= 25 ns: worst %.2f ns (%s)",
		       worst, worst_name);
}

/* ---- 7. a whole hint fault -------------------------------------------- */

static void bench_fault(void)
{
	struct dec_setup d;
	struct tp_scan_ring *ring = xalloc(sizeof(*ring));
	struct bl_mm *mm = xalloc(sizeof(*mm));
	u64 *addr = xalloc(TBL * sizeof(*addr));
	u32 *stamp = xalloc(TBL * sizeof(u32));
	u32 *bstamp = xalloc(TBL * sizeof(u32));
	struct tp_atime_cfg acfg = { .bits = 21, .shift = 20 };
	u64 lat_now = RING_T0 + 20 * 2 * NS_PER_MS;
	u32 i;

	section("fault", "one hint fault: latency source + tp_decide(), full path, admitted");
	ring->pass = xalloc(16 * sizeof(struct tp_scan_pass));
	ring_fill(ring, mm, 20, 2 * NS_PER_MS);	/* passes 2 ms apart: hot */
	for (i = 0; i < TBL; i++)
		addr[i] = ring_addr(20, (u32)(rnd() % 16));
	dec_alloc(&d);

	if (wanted(cur_section, "seed: ring lookup + decide")) {
		dec_init(&d, TP_PRESET_SEED, DEC_FREE_FULL, 0, 0);
		d.c[0].ring = ring;
		d.c[0].mm = mm;
		d.c[0].addr = addr;
		d.c[0].lat_now = lat_now;
		compare("seed: ring lookup + decide", &SIDE1(lib_fault_ring, &d.c[0]),
			&SIDE1(bl_fault_ring_run, &d.c[0]),
			"seed lookup + seed decision");
		dec_report(&d, 1);
	}
	if (wanted(cur_section, "mainline: stamp xchg + decide")) {
		dec_init(&d, TP_PRESET_MAINLINE, DEC_FREE_FULL, 0, 0);
		if (tp_atime_init(&d.c[0].fmt, &acfg))
			exit(2);
		d.c[0].blfmt.bucket = 1ULL << 20;	/* runtime: divides */
		d.c[0].blfmt.mask = (1U << 21) - 1;
		for (i = 0; i < TBL; i++) {
			stamp[i] = tp_atime_encode(&d.c[0].fmt, lat_now);
			bstamp[i] = bl_atime_encode(&d.c[0].blfmt, lat_now);
		}
		d.c[0].stamp = stamp;
		d.c[0].bstamp = bstamp;
		d.c[0].lat_now = lat_now;
		compare("mainline: stamp xchg + decide",
			&SIDE1(lib_fault_atime, &d.c[0]),
			&SIDE1(bl_fault_atime_run, &d.c[0]),
			"6.1 stamp + 6.1 decision");
		dec_report(&d, 1);
	}
}

/* ---- 8. out of line vs inlined ---------------------------------------- */

static void bench_inline(void)
{
	struct tp_scan_ring *ring = xalloc(sizeof(*ring));
	struct bl_mm *mm = xalloc(sizeof(*mm));
	u64 *addr = xalloc(TBL * sizeof(*addr));
	struct ring_ctx rc = { .ring = ring, .mm = mm, .addr = addr };
	struct lim_setup s = {
		.l = xalloc(sizeof(struct tp_limiter)),
		.bb = xalloc(sizeof(struct bl_bucket)),
		.pg = xalloc(sizeof(struct bl_pgdat)),
		.pcp = xalloc(2 * sizeof(struct bl_pcp)),
		.clock = xalloc(16 * sizeof(u64)),
	};
	struct dec_setup d;
	u32 i;

	section("inline", "libtierpol.a called out of line (as 'tierpol') vs the same code inlined into the loop (as 'baseline')");
	ring->pass = xalloc(16 * sizeof(struct tp_scan_pass));
	ring_fill(ring, mm, 20, 100 * NS_PER_MS);
	rc.now = RING_T0 + 20 * 100 * NS_PER_MS;
	for (i = 0; i < TBL; i++)
		addr[i] = ring_addr(20, 0);
	compare("ring latency, newest", &SIDE1(lib_ring_lat, &rc),
		&SIDE1(inl_ring_lat, &rc), "inlined (flatten)");
	lim_init(&s, LIM_BUCKET_ALL, 1);
	compare("bucket consume, admitted", &SIDE1(lib_lim_consume, &s.tp[0]),
		&SIDE1(inl_lim_consume, &s.tp[0]), "inlined (flatten)");
	dec_alloc(&d);
	dec_init(&d, TP_PRESET_SEED, DEC_FREE_FULL, 0, 0);
	compare("decide seed, full, admitted", &SIDE1(lib_decide, &d.c[0]),
		&SIDE1(inl_decide, &d.c[0]), "inlined (flatten)");
	dec_init(&d, TP_PRESET_MAINLINE, DEC_FREE_FULL, 0, 0);
	compare("decide mainline, full, admitted", &SIDE1(lib_decide, &d.c[0]),
		&SIDE1(inl_decide, &d.c[0]), "inlined (flatten)");
}

/* ---- 9. memory -------------------------------------------------------- */

#define LINES(sz)	(((sz) + TP_CACHELINE_BYTES - 1) / TP_CACHELINE_BYTES)

static void mem_row(const char *name, size_t size, const char *what)
{
	printf("  %-40s %5zu B  %2zu line%s  %s\n", name, size, LINES(size),
	       LINES(size) == 1 ? " " : "s", what);
	mdf("| %s | %zu | %zu | %s |\n", name, size, LINES(size), what);
}

/** struct fld - a field the decision reads or writes */
struct fld {
	const char *name;
	size_t off;
	bool write;
};

#define NODE_F(m, w)	{ #m, offsetof(struct tp_node, m), w }
#define TH_F(m)		{ "th." #m, offsetof(struct tp_node, th) + offsetof(struct tp_thresh, m), false }
#define LIM_F(m, w)	{ "lim." #m, offsetof(struct tp_node, lim) + offsetof(struct tp_limiter, m), w }
#define POL_F(m)	{ #m, offsetof(struct tp_policy, m), false }
#define FLD_END		{ NULL, 0, false }

/* Cache lines of a 64-byte aligned object that a list of fields touches. */
static unsigned int lines_of(const struct fld *f, char *buf, size_t len,
			     bool *wr)
{
	unsigned int mask = 0, n = 0, l;
	size_t off = 0;

	for (; f->name; f++) {
		l = (unsigned int)(f->off / TP_CACHELINE_BYTES);
		mask |= 1U << l;
		if (f->write && wr)
			wr[l] = true;
	}
	buf[0] = 0;
	for (l = 0; l < 8; l++) {
		if (!(mask & (1U << l)))
			continue;
		n++;
		off += (size_t)snprintf(buf + off, len - off, "%s%u", off ? "," : "", l);
	}
	return n;
}

/* Which 64-byte lines of the node does one tp_decide() call write? */
static unsigned int lines_written(struct dec_setup *d, char *buf, size_t len)
{
	unsigned char before[sizeof(struct tp_node)];
	const unsigned char *after = (const unsigned char *)d->node;
	unsigned int mask = 0, n = 0, l;
	size_t i, off = 0;
	int k;

	for (k = 0; k < 64; k++) {
		memcpy(before, d->node, sizeof(before));
		tp_decide(d->pol, d->node, &d->f[k], d->mem,
			  d->c[0].now + ((u64)k >> d->c[0].shift));
		for (i = 0; i < sizeof(before); i++) {
			if (before[i] != after[i])
				mask |= 1U << (i / TP_CACHELINE_BYTES);
		}
	}
	buf[0] = 0;
	for (l = 0; l < 8; l++) {
		if (!(mask & (1U << l)))
			continue;
		n++;
		off += (size_t)snprintf(buf + off, len - off, "%s%u", off ? "," : "", l);
	}
	return n;
}

static void bench_memory(void)
{
	/* Fields of each decision path, read from lib/policy.c. */
	static const struct fld common_th[] = {
		TH_F(start), TH_F(period), TH_F(th), TH_F(ref_th), TH_F(unit),
		TH_F(max), FLD_END,
	};
	static const struct fld win[] = {
		LIM_F(tat, true), LIM_F(window.count, true),
		LIM_F(window.base, false), LIM_F(window.limit, false),
		LIM_F(variant, false), LIM_F(tps, false), FLD_END,
	};
	static const struct {
		const char *name;
		u32 preset;
		u64 free;
		u32 mbps;
		unsigned int shift;
		struct fld f[8];
		bool th, lim;
		struct fld pol[8];
		bool cold;	/* latencies above the threshold */
	} paths[] = {
		{ "seed: bypass -> PROMOTE_NRL", TP_PRESET_SEED, DEC_FREE_BYPASS, 0, 0,
		  { NODE_F(nr_promote_nrl, true), FLD_END },
		  false, false,
		  { POL_F(mode), POL_F(flags), POL_F(rate_pages), POL_F(wmark_variant), FLD_END }, false },
		{ "seed: full -> PROMOTE", TP_PRESET_SEED, DEC_FREE_FULL, 0, 0,
		  { NODE_F(rate_pages, false), NODE_F(nr_promote, true), FLD_END },
		  true, true,
		  { POL_F(mode), POL_F(flags), POL_F(rate_pages), POL_F(wmark_variant), FLD_END }, false },
		{ "seed: full -> RATELIMIT", TP_PRESET_SEED, DEC_FREE_FULL, 0, 12,
		  { NODE_F(rate_pages, false), FLD_END },
		  true, true,
		  { POL_F(mode), POL_F(flags), POL_F(rate_pages), POL_F(wmark_variant), FLD_END }, false },
		{ "seed: full -> COLD", TP_PRESET_SEED, DEC_FREE_FULL, 0, 0,
		  { NODE_F(nr_cold, true), FLD_END },
		  true, false,
		  { POL_F(mode), POL_F(flags), POL_F(rate_pages), POL_F(wmark_variant), FLD_END },
		  true },
		{ "mainline: bypass -> PROMOTE_NRL", TP_PRESET_MAINLINE, DEC_FREE_BYPASS, 0, 0,
		  { { "th.th", offsetof(struct tp_node, th) + offsetof(struct tp_thresh, th), false },
		    NODE_F(nr_promote_nrl, true), FLD_END },
		  false, false,
		  { POL_F(mode), POL_F(flags), POL_F(rate_pages), POL_F(wmark_variant),
		    POL_F(bypass_min), FLD_END }, false },
		{ "mainline: full -> PROMOTE", TP_PRESET_MAINLINE, DEC_FREE_FULL, 0, 0,
		  { NODE_F(nr_promote, true), FLD_END },
		  true, true,
		  { POL_F(mode), POL_F(flags), POL_F(rate_pages), POL_F(wmark_variant),
		    POL_F(bypass_min), FLD_END }, false },
		{ "mainline: full -> RATELIMIT", TP_PRESET_MAINLINE, DEC_FREE_FULL, 1, 12,
		  { FLD_END },
		  true, true,
		  { POL_F(mode), POL_F(flags), POL_F(rate_pages), POL_F(wmark_variant),
		    POL_F(bypass_min), FLD_END }, false },
		{ "mainline: full -> COLD", TP_PRESET_MAINLINE, DEC_FREE_FULL, 0, 0,
		  { NODE_F(nr_cold, true), FLD_END },
		  true, false,
		  { POL_F(mode), POL_F(flags), POL_F(rate_pages), POL_F(wmark_variant),
		    POL_F(bypass_min), FLD_END },
		  true },
	};
	struct dec_setup d;
	char a[32], b[32], c[32];
	unsigned int n, nw, np, worst_fast = 0;
	const char *worst_name = "";
	bool wr[8];
	size_t k;
	int j;

	if (opt_filter && !strstr("memory", opt_filter))
		return;
	printf("\n== memory: sizeof, and 64-byte lines if the object is 64-byte aligned\n");
	mdf("\n**memory**: sizeof, and 64-byte cache lines when 64-byte aligned\n\n");
	mdf("| object | bytes | lines | note |\n|---|---|---|---|\n");
	mem_row("struct tp_scan_ring (header)", sizeof(struct tp_scan_ring),
		"seq, mask, nr, offset, run, prev_run, limit, pass pointer");
	mem_row("struct tp_scan_pass x 16", 16 * sizeof(struct tp_scan_pass),
		"caller-owned array (align it to 64)");
	mem_row("ring + 16 passes", sizeof(struct tp_scan_ring) +
		16 * sizeof(struct tp_scan_pass), "if laid out contiguously");
	mem_row("seed: mm idx + offset + 2 x 16 longs", sizeof(struct bl_mm) -
		sizeof(int), "numa_scan_idx/offset/jiffies[16]/starts[16]");
	mem_row("struct tp_atime (format)", sizeof(struct tp_atime), "read-only");
	mem_row("page stamp", sizeof(u32), "per page, caller-owned");
	mem_row("struct tp_limiter", sizeof(struct tp_limiter), "per node");
	mem_row("baseline: mutex bucket", sizeof(struct bl_bucket) -
		(sizeof(struct bl_bucket) - offsetof(struct bl_bucket, last) -
		 sizeof(unsigned long)), "pthread_mutex_t + 5 longs");
	mem_row("struct tp_thresh", sizeof(struct tp_thresh), "per node");
	mem_row("struct tp_node", sizeof(struct tp_node),
		"per target node: limiter, controller, counters");
	mem_row("struct tp_policy", sizeof(struct tp_policy), "shared, read-mostly");
	mem_row("struct tp_node_mem", sizeof(struct tp_node_mem), "caller's input");
	mem_row("struct tp_fault", sizeof(struct tp_fault), "caller's input");
	mem_row("struct tp_vma_scan", sizeof(struct tp_vma_scan), "per VMA");
	mem_row("struct tp_vma_profile", sizeof(struct tp_vma_profile), "shared");
	mem_row("struct tp_vma_facts", sizeof(struct tp_vma_facts), "caller's input");

	{
		size_t entries = 16 * sizeof(struct tp_scan_pass);
		size_t all = entries + sizeof(struct tp_scan_ring);

		target(LINES(entries) <= 4,
		       "ring of 16 entries <= 4 cache lines: %zu B = %zu lines (+ %zu B header: %zu lines in all)",
		       entries, LINES(entries), sizeof(struct tp_scan_ring),
		       LINES(all));
	}

	printf("\n== cache lines of the 64-byte aligned tp_node (232 B: lines 0-3) and tp_policy (72 B: lines 0-1) per decision path\n");
	printf("   derived: the fields lib/policy.c touches on the path, by offsetof; measured: lines whose bytes changed over 64 calls\n");
	printf("  %-34s %-14s %-16s %s\n", "path", "node (derived)",
	       "node written", "policy (derived)");
	mdf("\n**cache lines per decision path** (tp_node and tp_policy 64-byte aligned; derived from offsetof of the fields the path touches; written lines measured by comparing the node before and after 64 calls)\n\n");
	mdf("| path | node lines (derived) | node lines written (measured) | policy lines (derived) |\n|---|---|---|---|\n");
	dec_alloc(&d);
	for (k = 0; k < sizeof(paths) / sizeof(paths[0]); k++) {
		struct fld all[24];
		int m = 0;

		memset(wr, 0, sizeof(wr));
		for (j = 0; paths[k].f[j].name; j++)
			all[m++] = paths[k].f[j];
		if (paths[k].th)
			for (j = 0; common_th[j].name; j++)
				all[m++] = common_th[j];
		if (paths[k].lim)
			for (j = 0; win[j].name; j++)
				all[m++] = win[j];
		all[m] = (struct fld)FLD_END;
		n = lines_of(all, a, sizeof(a), wr);
		np = lines_of(paths[k].pol, c, sizeof(c), NULL);
		dec_init(&d, paths[k].preset, paths[k].free, paths[k].mbps,
			 paths[k].shift);
		for (j = 0; paths[k].cold && j < (int)TBL; j++)
			d.f[j].latency = 5000 + rnd() % 1000;	/* > 2 x 2000 ms */
		/* warm up into the path's steady state */
		d.c[0].shift = paths[k].shift;
		sink += lib_decide(&d.c[0], 100000);
		nw = lines_written(&d, b, sizeof(b));
		printf("  %-34s %u: %-11s %u: %-13s %u: %s\n", paths[k].name,
		       n, a, nw, b, np, c);
		mdf("| %s | %u (%s) | %u (%s) | %u (%s) |\n", paths[k].name,
		    n, a, nw, b, np, c);
		if (n > worst_fast) {
			worst_fast = n;
			worst_name = paths[k].name;
		}
	}
	target(worst_fast <= 2,
	       "per-node state <= 2 cache lines on every decision path: worst %u (%s)",
	       worst_fast, worst_name);
}

/* ---- 10. tiersim ------------------------------------------------------ */

/*
 * Run tiersim quietly on one policy and one core; return the child's CPU
 * seconds (user + sys) and its max RSS in KiB; -1 on failure.
 */
static double tiersim_run(const char *policy, u64 pages, u64 accesses,
			  long *maxrss_kb)
{
	char p[32], a[32];
	char *argv[] = { (char *)opt_tiersim, (char *)"-q", (char *)"-j",
			 (char *)"1", (char *)"-w", (char *)"pmbench",
			 (char *)"-p", (char *)policy, (char *)"--pages", p,
			 (char *)"--accesses", a, NULL };
	struct rusage ru;
	int status;
	pid_t pid;

	snprintf(p, sizeof(p), "%llu", (unsigned long long)pages);
	snprintf(a, sizeof(a), "%llu", (unsigned long long)accesses);
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		if (!freopen("/dev/null", "w", stdout) ||
		    !freopen("/dev/null", "w", stderr))
			_exit(127);
		execv(argv[0], argv);
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) < 0)
		return -1;
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		return -1;
	*maxrss_kb = ru.ru_maxrss;
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
	       (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
}

/*
 * Accesses per second: the CPU time of a run with extra accesses minus that
 * of the same run without them (start-up and the initialisation pass over
 * every page cancel out). Bytes per page: the max RSS of 1 M pages minus
 * that of 64 Ki pages, over the difference in pages.
 */
static void bench_tiersim(void)
{
	static const char *policies[] = { "mainline" };
	const u64 pages = opt_smoke ? 65536 : 1048576;
	const u64 small = 65536, base_acc = 1000000;
	const u64 extra = opt_smoke ? 1000000 : 10000000;
	double rates[64], t0, t1;
	long rss0 = 0, rss1 = 0, rss_small = 0;
	struct stat st;
	struct stat3 r;
	size_t k;
	int i, n;

	if (opt_filter && !strstr("tiersim", opt_filter))
		return;
	printf("\n== tiersim: simulated accesses per second (pmbench, %llu pages, 1 core), state per page\n",
	       (unsigned long long)pages);
	mdf("\n**tiersim** (pmbench, %llu pages, one policy, -j 1; child CPU time)\n\n",
	    (unsigned long long)pages);
	if (stat(opt_tiersim, &st) || !(st.st_mode & S_IXUSR)) {
		printf("  SKIPPED: %s does not exist yet (make tiersim); not measured\n",
		       opt_tiersim);
		mdf("Skipped: %s did not exist when this table was made.\n",
		    opt_tiersim);
		target(-1, "tiersim >= 20 M accesses/s on pmbench, 1 M pages: not measured (no %s)",
		       opt_tiersim);
		target(-1, "tiersim <= 64 B of state per simulated page: not measured");
		return;
	}
	mdf("| policy | M accesses/s (min–max) |\n|---|---|\n");
	for (k = 0; k < sizeof(policies) / sizeof(policies[0]); k++) {
		n = opt_smoke ? 1 : opt_repeats;
		for (i = 0; i < n; i++) {
			t0 = tiersim_run(policies[k], pages, base_acc, &rss0);
			t1 = tiersim_run(policies[k], pages, base_acc + extra,
					 &rss1);
			if (t0 < 0 || t1 < 0 || t1 <= t0) {
				printf("  FAILED: %s -q -j 1 -w pmbench -p %s --pages %llu did not run\n",
				       opt_tiersim, policies[k],
				       (unsigned long long)pages);
				target(-1, "tiersim >= 20 M accesses/s: could not be measured");
				return;
			}
			rates[i] = (double)extra / (t1 - t0);
		}
		r = stat3(rates, n);
		printf("  %-10s %6.1f M accesses/s [%.1f..%.1f] (%llu extra accesses, CPU time of the child)\n",
		       policies[k], r.med / 1e6, r.min / 1e6, r.max / 1e6,
		       (unsigned long long)extra);
		mdf("| %s | %.1f (%.1f–%.1f) |\n", policies[k], r.med / 1e6,
		    r.min / 1e6, r.max / 1e6);
		if (k == 0)
			target(r.med >= 20e6,
			       "tiersim >= 20 M accesses/s on pmbench, %llu pages (mainline): %.1f M/s",
			       (unsigned long long)pages, r.med / 1e6);
	}
	if (tiersim_run(policies[0], small, base_acc, &rss_small) < 0 ||
	    tiersim_run(policies[0], pages, base_acc, &rss0) < 0 ||
	    pages <= small) {
		target(-1, "tiersim <= 64 B per simulated page: not measured");
		return;
	}
	{
		double bpp = (double)(rss0 - rss_small) * 1024.0 /
			     (double)(pages - small);

		printf("  state: max RSS %ld KiB at %llu pages, %ld KiB at %llu: %.1f B per page\n",
		       rss0, (unsigned long long)pages, rss_small,
		       (unsigned long long)small, bpp);
		mdf("\nState: max RSS %ld KiB at %llu pages, %ld KiB at %llu pages: %.1f bytes per simulated page.\n",
		    rss0, (unsigned long long)pages, rss_small,
		    (unsigned long long)small, bpp);
		target(bpp <= 64, "tiersim <= 64 B per simulated page: %.1f B", bpp);
	}
}

/* ---- main ------------------------------------------------------------- */

static void usage(const char *p)
{
	fprintf(stderr,
		"usage: %s [--smoke] [-r REPEATS] [-t SECONDS] [-f FILTER] [--md FILE]\n"
		"          [--tiersim PATH] [--wall] [--no-inline]\n"
		"  --smoke       3 repeats of ~3 ms (CI: checks it runs, no timing asserts)\n"
		"  -r REPEATS    repeats per figure (default 7, at most 63)\n"
		"  -t SECONDS    target duration of one repeat (default 0.1)\n"
		"  -f FILTER     only sections or operations whose name contains FILTER\n"
		"  --md FILE     also write the tables as Markdown to FILE\n"
		"  --tiersim P   the simulator binary (default build/examples/tiersim)\n"
		"  --wall        time with the wall clock instead of each thread's CPU time\n"
		"  --no-inline   skip the out-of-line vs inlined comparison\n",
		p);
	exit(2);
}

int main(int argc, char **argv)
{
	char cpu[256];
	double t0 = now_s(), l0 = loadavg();
	int i, pass = 0, miss = 0, nm = 0;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--smoke")) {
			opt_smoke = true;
			opt_repeats = 3;
			opt_target = 0.003;
		} else if (!strcmp(argv[i], "-r") && i + 1 < argc) {
			opt_repeats = atoi(argv[++i]);
		} else if (!strcmp(argv[i], "-t") && i + 1 < argc) {
			opt_target = atof(argv[++i]);
		} else if (!strcmp(argv[i], "-f") && i + 1 < argc) {
			opt_filter = argv[++i];
		} else if (!strcmp(argv[i], "--md") && i + 1 < argc) {
			md = fopen(argv[++i], "w");
			if (!md) {
				perror(argv[i]);
				return 2;
			}
		} else if (!strcmp(argv[i], "--tiersim") && i + 1 < argc) {
			opt_tiersim = argv[++i];
		} else if (!strcmp(argv[i], "--wall")) {
			opt_wall = true;
		} else if (!strcmp(argv[i], "--no-inline")) {
			opt_inline = false;
		} else {
			usage(argv[0]);
		}
	}
	if (opt_repeats < 1 || opt_repeats > 63 || opt_target <= 0)
		usage(argv[0]);
	ncpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (ncpus > 2)
		ncpus = 2;

	cpu_model(cpu, sizeof(cpu));
	printf("tierpol bench: %s, %d online CPUs, load average %.2f\n", cpu,
	       (int)sysconf(_SC_NPROCESSORS_ONLN), l0);
	printf("compiler: %s %s, %s; library: %s (out-of-line calls)\n",
#ifdef __clang__
	       "clang",
#else
	       "gcc",
#endif
	       __VERSION__, BENCH_CFLAGS, BENCH_LIB);
	printf("clock: %s\n", opt_wall ? "wall (CLOCK_MONOTONIC)" :
	       "each thread's CPU time (CLOCK_THREAD_CPUTIME_ID): time descheduled is not counted");
	printf("method: median of %d repeats of ~%.3f s each (iterations calibrated), [min..max];\n"
	       "        tierpol and baseline alternate repeat by repeat; base/tp = median of the\n"
	       "        per-repeat ratios baseline ns / tierpol ns (> 1: tierpol is faster)\n",
	       opt_repeats, opt_target);
	mdf("CPU: %s (%d online CPUs); compiler: %s %s, %s; %d repeats of ~%.3f s; load average at start %.2f\n",
	    cpu, (int)sysconf(_SC_NPROCESSORS_ONLN),
#ifdef __clang__
	    "clang",
#else
	    "gcc",
#endif
	    __VERSION__, BENCH_CFLAGS, opt_repeats, opt_target, l0);

	{
		u64 *t = xalloc(TBL * sizeof(u64));

		section("harness", "the measuring loop alone");
		compare("empty loop (table load + sum)", &SIDE1(empty_run, t),
			&SIDE1(empty_run, t), "the same loop");
	}
	bench_ring();
	bench_atime();
	bench_thresh();
	bench_limiter();
	bench_vma();
	bench_decide();
	bench_fault();
	if (opt_inline)
		bench_inline();
	bench_memory();
	bench_tiersim();

	printf("\n== targets (issue 6)%s\n", opt_smoke ?
	       ": SMOKE RUN, 3 repeats of ~3 ms: these verdicts mean nothing" : "");
	mdf("\n**targets**\n\n| target | result |\n|---|---|\n");
	for (i = 0; i < nr_targets; i++) {
		const char *v = targets[i].pass > 0 ? "PASS" :
				targets[i].pass == 0 ? "MISS" : "SKIP";

		printf("  %-4s  %s\n", v, targets[i].text);
		mdf("| %s | %s |\n", targets[i].text, v);
		pass += targets[i].pass > 0;
		miss += targets[i].pass == 0;
		nm += targets[i].pass < 0;
	}
	printf("\n%d targets: %d PASS, %d MISS, %d not measured; %d correctness check(s) failed\n",
	       nr_targets, pass, miss, nm, failures);
	printf("conditions: %.1f s; load average %.2f -> %.2f; the measuring thread got %.0f %% of a CPU while timed\n",
	       now_s() - t0, l0, loadavg(),
	       tot_wall > 0 ? 100.0 * tot_cpu / tot_wall : 0.0);
	mdf("\nRun took %.1f s; load average %.2f at start, %.2f at end; the measuring thread got %.0f %% of a CPU while timed (single-thread figures).\n",
	    now_s() - t0, l0, loadavg(),
	    tot_wall > 0 ? 100.0 * tot_cpu / tot_wall : 0.0);
	if (md)
		fclose(md);
	/* Timings never fail the run; broken guarantees do. */
	return failures ? 1 : 0;
}
