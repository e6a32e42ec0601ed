// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * tierpol benchmark harness (issues 6 and 12). libc and pthreads only.
 *
 * Method (docs/PERFORMANCE.md has the long version):
 *  - every figure is the median of R repeats (default 7) with min and max,
 *    in ns per operation; the iteration count of a repeat is calibrated so
 *    that one repeat takes about T seconds (default 0.1 s);
 *  - each tierpol operation is measured side by side with a baseline (the
 *    kernel's code or the obvious implementation, baselines.c): repeats
 *    alternate between the two (ABBAAB...), and the ratio base/tp is the
 *    median of the per-repeat ratios, so a noisy neighbour slows both sides
 *    of a pair alike;
 *  - the measured loops take their inputs from 4096-entry tables (or a
 *    clock that advances), call the operation out of line, and fold the
 *    results into a checksum stored into a volatile sink;
 *  - time is each thread's CPU time (CLOCK_THREAD_CPUTIME_ID) unless --wall:
 *    the machines are shared, and time spent descheduled is not the
 *    operation's;
 *  - contended figures run the same loop on 2 threads pinned to the first 2
 *    CPUs the process may run on, sharing one object (and one clock), each
 *    with its own per-CPU slot; ns/op is each thread's own time per call,
 *    averaged over the threads. Each such row says for how much of their
 *    time the two threads certainly ran at once: on a loaded host they take
 *    turns, and the row then times mostly uncontended calls.
 *
 * --instr N (under callgrind, bench/instr.sh) times nothing: it runs each
 * single-thread comparison's two sides for N calls each and has callgrind
 * dump the instructions of each, a count that noise cannot move.
 *
 * Usage: bench [--smoke] [-r REPEATS] [-t SECONDS] [-f FILTER]
 *              [--md FILE] [--tiersim PATH] [--wall] [--no-inline]
 *              [--instr N]
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#endif
#endif
#ifndef CALLGRIND_DUMP_STATS_AT
/* No valgrind headers: --instr still runs, callgrind just cannot be told. */
#define CALLGRIND_ZERO_STATS		do { } while (0)
#define CALLGRIND_DUMP_STATS_AT(s)	do { (void)(s); } while (0)
#endif

#ifndef BENCH_CFLAGS
#define BENCH_CFLAGS "?"
#endif
#ifndef BENCH_LIB
#define BENCH_LIB "libtierpol.a"
#endif

/* ---- options and output ------------------------------------------------ */

int opt_repeats = 7;
bool opt_smoke;
const char *opt_tiersim = "build/examples/tiersim";
volatile u64 sink;

static double opt_target = 0.1;
static const char *opt_filter;
static bool opt_inline = true;
static bool opt_wall;		/* measure wall time instead of CPU time */
static u64 opt_instr;		/* --instr: calls per side, under callgrind */
static FILE *md;		/* --md: the tables in Markdown */
static int failures;		/* correctness checks that failed */

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void mdf(const char *fmt, ...)
{
	va_list ap;

	if (!md)
		return;
	va_start(ap, fmt);
	vfprintf(md, fmt, ap);
	va_end(ap);
}

void *xalloc(size_t size)
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

u64 rnd(void)
{
	u64 z = (rng_state += 0x9E3779B97F4A7C15ULL);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

/* ---- measuring -------------------------------------------------------- */

struct thr {
	pthread_t tid;
	int cpu;		/* index in cpu_ids */
	const struct side *s;
	void *ctx;
	u64 iters;
	double elapsed;
	double w0, w1, run;	/* wall interval and CPU time of the calls */
	int *ready;
	int *go;
};

static int ncpus;		/* CPUs the threads are pinned to: 0..2 */
static int cpu_ids[2];		/* the first two of the process's mask */
static int pin_failed;		/* pthread_setaffinity_np() failures */
static double last_together;	/* of the last 2-thread run, see together() */
static int nr_apart;		/* 2-thread rows whose threads took turns */
static double tot_cpu, tot_wall;	/* the CPU share the bench got */

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
		CPU_SET(cpu_ids[t->cpu], &set);
		if (pthread_setaffinity_np(pthread_self(), sizeof(set), &set))
			__atomic_fetch_add(&pin_failed, 1, __ATOMIC_RELAXED);
	}
	__atomic_fetch_add(t->ready, 1, __ATOMIC_SEQ_CST);
	while (!__atomic_load_n(t->go, __ATOMIC_ACQUIRE))
		;
	t->w0 = now_s();
	t->run = cpu_s();
	t->elapsed = timed(t->s->fn, t->ctx, t->iters);
	t->run = cpu_s() - t->run;
	t->w1 = now_s();
	return NULL;
}

/*
 * The share of the two threads' CPU time that they certainly spent running
 * at once: the overlap of their wall intervals less all the time either was
 * descheduled (a lower bound). Each thread's clock counts its own CPU time
 * only, so a thread that ran while the other waited for a CPU timed
 * uncontended calls, and nothing else shows it.
 */
static double together(const struct thr *t)
{
	double lo = t[0].w0 > t[1].w0 ? t[0].w0 : t[1].w0;
	double hi = t[0].w1 < t[1].w1 ? t[0].w1 : t[1].w1;
	double off = (t[0].w1 - t[0].w0 - t[0].run) +
		     (t[1].w1 - t[1].w0 - t[1].run);
	double cpu = (t[0].run + t[1].run) / 2, both = hi - lo - off;

	if (ncpus < 2 || both <= 0 || cpu <= 0)
		return 0;
	return both < cpu ? both / cpu : 1;
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
		t[i] = (struct thr){ .cpu = i, .s = s,
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
	last_together = together(t);
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

struct stat3 stat3(const double *v, int n)
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

/* ---- sections and rows ------------------------------------------------ */

static const char *cur_section, *cur_what;
static bool cur_header;		/* the section's header is printed */

bool wanted(const char *name)
{
	return !opt_filter || strstr(cur_section, opt_filter) ||
	       strstr(name, opt_filter);
}

void section(const char *name, const char *what)
{
	cur_section = name;
	cur_what = what;
	cur_header = false;
}

bool section_plain(const char *name, const char *title)
{
	section(name, title);
	if (opt_filter && !strstr(name, opt_filter))
		return false;
	printf("\n== %s: %s\n", name, title);
	cur_header = true;
	return true;
}

/* The table header, before the section's first row. */
static void header(void)
{
	if (cur_header)
		return;
	cur_header = true;
	printf("\n== %s: %s\n", cur_section, cur_what);
	printf("%-34s %21s %21s %8s  %s\n", "operation",
	       "tierpol ns/op [min..max]", "baseline ns [min..max]",
	       "base/tp", "baseline");
	mdf("\n**%s**: %s\n\n", cur_section, cur_what);
	mdf("| operation | tierpol ns/op (min–max) | baseline ns/op (min–max) | base/tp | baseline |\n");
	mdf("|---|---|---|---|---|\n");
}

/* --instr: @s warmed up, then opt_instr calls between two callgrind marks. */
static void instr_side(const struct side *s, const char *who, const char *name)
{
	char label[200];

	snprintf(label, sizeof(label), "%s|%s|%s|%llu", who, cur_section, name,
		 (unsigned long long)opt_instr);
	side_run(s, opt_instr / 4 + 1);
	CALLGRIND_ZERO_STATS;
	side_run(s, opt_instr);
	CALLGRIND_DUMP_STATS_AT(label);
}

struct result compare(const char *name, const struct side *tp,
		      const struct side *base, const char *what)
{
	double vt[64], vb[64], vr[64], gt[64], gb[64];
	struct result r = { .ran = false };
	struct stat3 tt, tb;
	u64 nt, nb;
	int i;

	if (!wanted(name))
		return r;
	if (opt_instr) {
		/* threads are serialized under valgrind: one thread only */
		if (tp->threads == 1 && base->threads == 1) {
			instr_side(tp, "tp", name);
			instr_side(base, "base", name);
		}
		return r;
	}
	header();
	nt = calibrate(tp);
	nb = calibrate(base);
	for (i = 0; i < opt_repeats; i++) {
		/* ABBA: neither side always runs first */
		if ((i ^ (i >> 1)) & 1) {
			vb[i] = side_run(base, nb) / (double)nb * 1e9;
			gb[i] = last_together;
			vt[i] = side_run(tp, nt) / (double)nt * 1e9;
			gt[i] = last_together;
		} else {
			vt[i] = side_run(tp, nt) / (double)nt * 1e9;
			gt[i] = last_together;
			vb[i] = side_run(base, nb) / (double)nb * 1e9;
			gb[i] = last_together;
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
	if (tp->threads > 1 && base->threads > 1) {
		bool apart;

		tt = stat3(gt, opt_repeats);
		tb = stat3(gb, opt_repeats);
		apart = tt.med < 0.9 || tb.med < 0.9;
		nr_apart += apart;
		note("2 threads ran at once >= %.0f %% (tierpol), %.0f %% (baseline) of their CPU time%s",
		     100 * tt.med, 100 * tb.med,
		     apart ? ": they took turns, contention under-measured" : "");
		mdf("| | 2 threads ran at once >= %.0f %% / %.0f %% of their CPU time%s | | | |\n",
		    100 * tt.med, 100 * tb.med,
		    apart ? " (**they took turns**)" : "");
	}
	fflush(stdout);
	return r;
}

static void vnote(const char *fmt, va_list ap)
{
	printf("%-34s ", "");
	vprintf(fmt, ap);
	printf("\n");
}

void note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vnote(fmt, ap);
	va_end(ap);
}

void check_failed(const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	note("CHECK FAILED: %s", buf);
	mdf("\n**Check failed**: %s\n\n", buf);
	failures++;
}

/* ---- targets ---------------------------------------------------------- */

#define MAX_TARGETS	32

static struct {
	char text[240];
	int pass;	/* 1 pass, 0 miss, -1 not measured */
} targets[MAX_TARGETS];
static int nr_targets;

void target(int pass, const char *fmt, ...)
{
	va_list ap;

	if (nr_targets == MAX_TARGETS)
		return;
	va_start(ap, fmt);
	vsnprintf(targets[nr_targets].text, sizeof(targets[0].text), fmt, ap);
	va_end(ap);
	targets[nr_targets++].pass = pass;
}

static void print_targets(void)
{
	int i, pass = 0, miss = 0, nm = 0;

	printf("\n== targets (issues 6 and 12)%s\n", opt_smoke ?
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

#ifdef __clang__
#define COMPILER "clang"
#else
#define COMPILER "gcc"
#endif

static void print_machine(double load)
{
	char cpu[256];
	int online = (int)sysconf(_SC_NPROCESSORS_ONLN);

	cpu_model(cpu, sizeof(cpu));
	printf("tierpol bench: %s, %d online CPUs, load average %.2f\n", cpu,
	       online, load);
	printf("compiler: %s %s, %s; library: %s (out-of-line calls)\n",
	       COMPILER, __VERSION__, BENCH_CFLAGS, BENCH_LIB);
	printf("clock: %s\n", opt_wall ? "wall (CLOCK_MONOTONIC)" :
	       "each thread's CPU time (CLOCK_THREAD_CPUTIME_ID): time descheduled is not counted");
	if (ncpus > 1)
		printf("2-thread rows: pinned to CPUs %d and %d\n", cpu_ids[0],
		       cpu_ids[1]);
	else
		printf("2-thread rows: %s: the threads take turns, no contention is measured\n",
		       ncpus ? "one CPU allowed" : "the CPU mask is unknown");
	printf("method: median of %d repeats of ~%.3f s each (iterations calibrated), [min..max];\n"
	       "        tierpol and baseline alternate repeat by repeat; base/tp = median of the\n"
	       "        per-repeat ratios baseline ns / tierpol ns (> 1: tierpol is faster)\n",
	       opt_repeats, opt_target);
	mdf("CPU: %s (%d online CPUs); compiler: %s %s, %s; %d repeats of ~%.3f s; load average at start %.2f\n",
	    cpu, online, COMPILER, __VERSION__, BENCH_CFLAGS, opt_repeats,
	    opt_target, load);
}

/*
 * The CPUs of the 2-thread rows: the first two the process may run on (not
 * 0 and 1, which a cpuset may not allow and which taskset did not ask for).
 */
static void pick_cpus(void)
{
	cpu_set_t set;
	int c;

	ncpus = 0;
	if (sched_getaffinity(0, sizeof(set), &set))
		return;
	for (c = 0; c < CPU_SETSIZE && ncpus < 2; c++)
		if (CPU_ISSET(c, &set))
			cpu_ids[ncpus++] = c;
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

static void bench_harness(void)
{
	u64 *t = xalloc(TBL * sizeof(u64));

	section("harness", "the measuring loop alone");
	compare("empty loop (table load + sum)", &SIDE1(empty_run, t),
		&SIDE1(empty_run, t), "the same loop");
	free(t);
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
		"  --no-inline   skip the out-of-line vs inlined comparison\n"
		"  --instr N     no timing: N calls per side between callgrind marks\n"
		"                (bench/instr.sh runs it under callgrind)\n",
		p);
	exit(2);
}

static void parse_args(int argc, char **argv)
{
	int i;

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
				exit(2);
			}
		} else if (!strcmp(argv[i], "--tiersim") && i + 1 < argc) {
			opt_tiersim = argv[++i];
		} else if (!strcmp(argv[i], "--wall")) {
			opt_wall = true;
		} else if (!strcmp(argv[i], "--no-inline")) {
			opt_inline = false;
		} else if (!strcmp(argv[i], "--instr") && i + 1 < argc) {
			opt_instr = strtoull(argv[++i], NULL, 0);
			if (!opt_instr)
				usage(argv[0]);
		} else {
			usage(argv[0]);
		}
	}
	if (opt_repeats < 1 || opt_repeats > 63 || opt_target <= 0)
		usage(argv[0]);
}

int main(int argc, char **argv)
{
	double t0 = now_s(), l0 = loadavg();

	parse_args(argc, argv);
	pick_cpus();
	print_machine(l0);

	bench_harness();
	bench_ring();
	bench_atime();
	bench_thresh();
	bench_algos();
	bench_limiter();
	bench_vma();
	bench_decide();
	bench_fault();
	if (opt_inline)
		bench_inline();
	if (opt_instr) {
		printf("--instr %llu: callgrind dumps written, nothing timed\n",
		       (unsigned long long)opt_instr);
		return failures ? 1 : 0;
	}
	bench_memory();
	bench_tiersim();

	print_targets();
	printf("conditions: %.1f s; load average %.2f -> %.2f; the measuring thread got %.0f %% of a CPU while timed\n",
	       now_s() - t0, l0, loadavg(),
	       tot_wall > 0 ? 100.0 * tot_cpu / tot_wall : 0.0);
	if (nr_apart || pin_failed)
		printf("conditions: %d 2-thread row(s) whose threads ran at once < 90 %% of their time; %d thread(s) not pinned\n",
		       nr_apart, pin_failed);
	mdf("\nRun took %.1f s; load average %.2f at start, %.2f at end; the measuring thread got %.0f %% of a CPU while timed (single-thread figures).\n",
	    now_s() - t0, l0, loadavg(),
	    tot_wall > 0 ? 100.0 * tot_cpu / tot_wall : 0.0);
	if (md)
		fclose(md);
	/* Timings never fail the run; broken guarantees do. */
	return failures ? 1 : 0;
}
