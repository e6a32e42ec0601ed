// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * tierpol_test.c - in-kernel self-test of tierpol
 *
 * Runs the shared vectors of tests/selftest/ (the same tables the CMocka
 * suites run in userspace) in kernel context, against the exports of
 * tierpol.ko, in the style of the kernel's lib/test_*.c modules. Then the
 * "smp" suite runs the lock-free paths on several kthreads at once, so the
 * kernel branch of the seam (atomic64_*, xchg, smp_rmb/smp_wmb) is checked
 * under real concurrency, with results that do not depend on the
 * interleaving. The output is KTAP:
 *
 *	KTAP version 1
 *	1..N
 *	ok 1 - ring: <case>
 *	# atime: <case>: failed at line 42
 *	not ok 2 - atime: <case>
 *	...
 *	# Totals: pass:N fail:0 xfail:0 xpass:0 skip:0 error:0
 *
 * The plan is known before any result is printed because the suites run
 * twice: once silently to count the cases, once to report them. Loading
 * fails with -EINVAL if any case failed (or a suite ran no case, or the two
 * runs disagree).
 */
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/errno.h>
#include <linux/init.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/printk.h>
#include <linux/sched.h>

#include "selftest/selftest.h"
#include "selftest/ring.h"
#include "selftest/atime.h"
#include "selftest/vma_scan.h"
#include "selftest/threshold.h"
#include "selftest/limiter.h"
#include "selftest/policy.h"

/* Print diagnostics: false during the counting run. */
static bool tp_kt_verbose;

/* ---- smp: the lock-free paths on several kthreads ----------------------- */

#define TP_KT_THREADS		3
/* Scan ring: pass k starts at k * STEP at time k; lookups happen at NOW. */
#define TP_KT_RING_STEP		0x10000ULL
#define TP_KT_RING_NOW		BIT_ULL(40)
#define TP_KT_RING_PASSES	20000U
#define TP_KT_RING_EXACT	1000U
#define TP_KT_LIM_TRIES		2000U
#define TP_KT_TH_TRIES		500U
#define TP_KT_XCHG_TRIES	5000U
#define TP_KT_DECIDE_TRIES	3000U

/* Shared by the threads of one test; tests run one after the other. */
static struct {
	void (*fn)(unsigned int id);
	struct completion done;
	int go;
	int stop;
	atomic64_t sum;
	atomic64_t sum2;
	atomic64_t progress;
	atomic_t lookups;
	atomic_t exact;
	atomic_t busy;
	atomic_t torn;
	atomic64_t verdicts[TP_NR_VERDICTS];
	u64 now;
	u64 cand;
	u32 stamp;
	struct tp_atime fmt;
	struct tp_scan_ring ring;
	struct tp_scan_pass pass[16];
	struct tp_limiter lim;
	struct tp_thresh th;
	struct tp_policy pol;
	struct tp_node node __aligned(TP_CACHELINE_BYTES);
	struct tp_node_mem mem;
} tp_kt;

static int tp_kt_thread(void *data)
{
	while (!READ_ONCE(tp_kt.go))
		cond_resched();
	tp_kt.fn((unsigned long)data);
	kthread_complete_and_exit(&tp_kt.done, 0);
}

/*
 * Runs @fn(id) on TP_KT_THREADS kthreads, and @main_fn on the caller's
 * thread meanwhile. Returns how many kthreads ran.
 */
static unsigned int tp_kt_spawn(void (*fn)(unsigned int id),
				void (*main_fn)(void))
{
	struct task_struct *t;
	unsigned int i, n = 0;

	tp_kt.fn = fn;
	WRITE_ONCE(tp_kt.go, 0);
	WRITE_ONCE(tp_kt.stop, 0);
	init_completion(&tp_kt.done);
	for (i = 0; i < TP_KT_THREADS; i++) {
		t = kthread_run(tp_kt_thread, (void *)(unsigned long)i,
				"tierpol_test/%u", i);
		if (!IS_ERR(t))
			n++;
	}
	WRITE_ONCE(tp_kt.go, 1);
	if (main_fn)
		main_fn();
	for (i = 0; i < n; i++)
		wait_for_completion(&tp_kt.done);
	return n;
}

/* Scan ring: one writer (this thread), readers on every kthread. */
static void tp_kt_ring_writer(void)
{
	unsigned long least = jiffies + HZ / 4, deadline = jiffies + 2 * HZ;
	u64 k;

	for (k = 1; ; k++) {
		tp_scan_ring_record(&tp_kt.ring, k * TP_KT_RING_STEP, k);
		tp_scan_ring_advance(&tp_kt.ring, k * TP_KT_RING_STEP +
				     TP_KT_RING_STEP / 2);
		atomic64_set(&tp_kt.progress, k);
		if (!(k & 63))
			cond_resched();
		if (k >= TP_KT_RING_PASSES && time_after(jiffies, least) &&
		    atomic_read(&tp_kt.exact) >= TP_KT_RING_EXACT)
			break;
		if (time_after(jiffies, deadline))
			break;
	}
	WRITE_ONCE(tp_kt.stop, 1);
}

static void tp_kt_ring_reader(unsigned int id)
{
	u32 x = 0x9e3779b9U * (id + 1), after = 0, n = 0;
	u64 k, j, lat;
	int ret;

	/* A few lookups after the writer stopped: a stable ring. */
	while (after < 16) {
		if (READ_ONCE(tp_kt.stop))
			after++;
		if (!(++n & 63))
			cond_resched();
		x = x * 1664525U + 1013904223U;
		j = x >> 28;
		k = atomic64_read(&tp_kt.progress);
		if (k <= j)
			continue;
		/* Pass k - j covers this address while the ring holds it. */
		k -= j;
		ret = tp_scan_ring_latency(&tp_kt.ring,
					   k * TP_KT_RING_STEP +
					   TP_KT_RING_STEP / 4,
					   TP_KT_RING_NOW, &lat);
		atomic_inc(&tp_kt.lookups);
		if (ret == TP_LAT_EXACT) {
			atomic_inc(&tp_kt.exact);
			/* The time of another pass: a torn record. */
			if (lat != TP_KT_RING_NOW - k)
				atomic_inc(&tp_kt.torn);
		} else if (ret == -EBUSY) {
			atomic_inc(&tp_kt.busy);
		}
	}
}

static void tp_kt_smp_ring(struct tp_st *st)
{
	struct tp_scan_ring_cfg cfg = { .depth = 16 };
	unsigned int n;

	atomic64_set(&tp_kt.progress, 0);
	atomic_set(&tp_kt.lookups, 0);
	atomic_set(&tp_kt.exact, 0);
	atomic_set(&tp_kt.busy, 0);
	atomic_set(&tp_kt.torn, 0);
	TP_ST_CHECK(st, !tp_scan_ring_init(&tp_kt.ring, &cfg, tp_kt.pass),
		    "ring: init");
	n = tp_kt_spawn(tp_kt_ring_reader, tp_kt_ring_writer);
	if (tp_kt_verbose)
		pr_info("# smp: ring: %llu passes, %u readers: %d lookups, %d exact, %d busy, %d torn\n",
			(u64)atomic64_read(&tp_kt.progress), n,
			atomic_read(&tp_kt.lookups), atomic_read(&tp_kt.exact),
			atomic_read(&tp_kt.busy), atomic_read(&tp_kt.torn));
	TP_ST_CHECK(st, n == TP_KT_THREADS, "ring: reader kthreads started");
	TP_ST_CHECK(st, atomic_read(&tp_kt.exact) > 0,
		    "ring: readers found passes");
	TP_ST_CHECK(st, !atomic_read(&tp_kt.torn),
		    "ring: one writer, concurrent readers: no torn pass");
}

/* Rate limiter: at one instant, admissions do not depend on interleaving. */
static void tp_kt_lim_consumer(unsigned int id)
{
	u64 got = 0;
	u32 i;

	for (i = 0; i < TP_KT_LIM_TRIES; i++) {
		if (tp_limiter_consume(&tp_kt.lim, 1, tp_kt.now))
			got++;
		if (!(i & 255))
			cond_resched();
	}
	atomic64_add(got, &tp_kt.sum);
}

/* Single-threaded reference: the same requests, one after the other. */
static u64 tp_kt_lim_ref(struct tp_limiter *l, u64 now)
{
	u64 got = 0;
	u32 i;

	for (i = 0; i < TP_KT_THREADS * TP_KT_LIM_TRIES; i++)
		got += tp_limiter_consume(l, 1, now);
	return got;
}

static void tp_kt_smp_limiter(struct tp_st *st, u32 variant,
			      const char *name1, const char *name2)
{
	struct tp_limiter_cfg cfg = { .variant = variant, .tps = 1000,
				      .rate = 1000, .burst = 3000 };
	struct tp_limiter ref;
	u64 ref1, ref2, got1, got2, now = 5000;
	unsigned int n;
	bool ok;

	ok = !tp_limiter_init(&ref, &cfg, now) &&
	     !tp_limiter_init(&tp_kt.lim, &cfg, now);
	ref1 = tp_kt_lim_ref(&ref, now);
	ref2 = tp_kt_lim_ref(&ref, now + 2000);

	atomic64_set(&tp_kt.sum, 0);
	tp_kt.now = now;
	n = tp_kt_spawn(tp_kt_lim_consumer, NULL);
	got1 = atomic64_read(&tp_kt.sum);
	atomic64_set(&tp_kt.sum, 0);
	tp_kt.now = now + 2000;
	n += tp_kt_spawn(tp_kt_lim_consumer, NULL);
	got2 = atomic64_read(&tp_kt.sum);
	if (tp_kt_verbose)
		pr_info("# smp: limiter %u: admitted %llu then %llu (reference %llu, %llu)\n",
			variant, got1, got2, ref1, ref2);

	TP_ST_CHECK(st, ok && n == 2 * TP_KT_THREADS && got1 == ref1 &&
		    (variant != TP_LIMITER_BUCKET || got1 == 3000), name1);
	/*
	 * A bucket refills exactly; a window's opener may race callers that
	 * then are refused (limiter.h): never more than the reference.
	 */
	TP_ST_CHECK(st, variant == TP_LIMITER_BUCKET ?
		    got2 == ref2 && got2 == 2000 : got2 <= ref2, name2);
}

/* Threshold controller: exactly one caller closes a period. */
static void tp_kt_th_updater(unsigned int id)
{
	u64 closed = 0;
	u32 i;

	for (i = 0; i < TP_KT_TH_TRIES; i++)
		if (tp_thresh_update(&tp_kt.th, &tp_kt.cand, tp_kt.now) !=
		    TP_TH_IDLE)
			closed++;
	atomic64_add(closed, &tp_kt.sum);
}

static void tp_kt_smp_thresh(struct tp_st *st)
{
	struct tp_thresh_cfg cfg = { .variant = TP_THRESH_MAINLINE,
				     .tps = 1000, .ref_th = 1000,
				     .period = 60000, .rate_limit = 100 };
	struct tp_thresh ref;
	u64 cand = 0;
	unsigned int n;
	bool ok;

	ok = !tp_thresh_init(&ref, &cfg, 0, 0) &&
	     !tp_thresh_init(&tp_kt.th, &cfg, 0, 0) &&
	     tp_thresh_update(&ref, &cand, 60001) == TP_TH_RAISED;

	tp_kt.cand = 0;
	tp_kt.now = 60001;
	atomic64_set(&tp_kt.sum, 0);
	n = tp_kt_spawn(tp_kt_th_updater, NULL);
	TP_ST_CHECK(st, ok && n == TP_KT_THREADS &&
		    atomic64_read(&tp_kt.sum) == 1 &&
		    tp_thresh_get(&tp_kt.th) == tp_thresh_get(&ref) &&
		    tp_thresh_get(&ref) == 1125,
		    "threshold: concurrent updates close one period, one step");
}

/* Access-time stamp: every stamp written is returned exactly once. */
static void tp_kt_xchg_stamper(unsigned int id)
{
	u64 wrote = 0, read = 0;
	u32 i, v;

	for (i = 0; i < TP_KT_XCHG_TRIES; i++) {
		v = (id + 1) * 1000000U + i;
		wrote += v;
		read += tp_atime_xchg(&tp_kt.fmt, &tp_kt.stamp, v);
		if (!(i & 255))
			cond_resched();
	}
	atomic64_add(wrote, &tp_kt.sum);
	atomic64_add(read, &tp_kt.sum2);
}

static void tp_kt_smp_atime(struct tp_st *st)
{
	struct tp_atime_cfg cfg = { .bits = 32 };
	unsigned int n;
	bool ok;

	ok = !tp_atime_init(&tp_kt.fmt, &cfg);
	tp_kt.stamp = 7;
	atomic64_set(&tp_kt.sum, 0);
	atomic64_set(&tp_kt.sum2, 0);
	n = tp_kt_spawn(tp_kt_xchg_stamper, NULL);
	/* initial + written == returned + final */
	TP_ST_CHECK(st, ok && n == TP_KT_THREADS &&
		    7 + atomic64_read(&tp_kt.sum) ==
		    atomic64_read(&tp_kt.sum2) + tp_kt.stamp,
		    "atime: concurrent xchg loses and duplicates no stamp");
}

/* Decision pipeline: every concurrent decision is counted exactly once. */
static void tp_kt_decider(unsigned int id)
{
	u64 tally[TP_NR_VERDICTS] = { 0 };
	struct tp_fault f = { .nr_pages = 1 };
	u32 x = 0x2545f491U * (id + 1), i;
	int v;

	for (i = 0; i < TP_KT_DECIDE_TRIES; i++) {
		x = x * 1664525U + 1013904223U;
		f.latency = (x >> 8) % 3000;
		f.nr_pages = x & 1 ? 1 : 512;
		f.flags = x & 2 ? TP_FAULT_WRITE : 0;
		v = tp_decide(&tp_kt.pol, &tp_kt.node, &f, &tp_kt.mem,
			      100000 + (u64)i * 10);
		if (v >= 0 && v < TP_NR_VERDICTS)
			tally[v] += f.nr_pages;
		if (!(i & 127))
			cond_resched();
	}
	for (i = 0; i < TP_NR_VERDICTS; i++)
		atomic64_add(tally[i], &tp_kt.verdicts[i]);
}

static void tp_kt_smp_decide(struct tp_st *st)
{
	struct tp_policy_cfg cfg;
	struct tp_node_stats s;
	u64 total = 0, v[TP_NR_VERDICTS];
	unsigned int i, n;
	bool ok;

	/*
	 * A small rate limit, and free space above the high watermark but
	 * below the bypass (promo + 1 GiB): promote, cold and rate limited.
	 */
	ok = !tp_policy_preset(&cfg, TP_PRESET_MAINLINE, 1000);
	cfg.rate_limit_mbps = 4;
	ok = ok && !tp_policy_init(&tp_kt.pol, &cfg) &&
	     !tp_node_init(&tp_kt.node, &tp_kt.pol, 100000);
	tp_kt.mem = (struct tp_node_mem){ .free = 200000, .wmark_min = 1000,
					  .wmark_low = 2000,
					  .wmark_high = 3000,
					  .wmark_promo = 4000,
					  .present = 1 << 22 };
	for (i = 0; i < TP_NR_VERDICTS; i++)
		atomic64_set(&tp_kt.verdicts[i], 0);
	n = tp_kt_spawn(tp_kt_decider, NULL);
	tp_node_stats(&tp_kt.node, &s);
	for (i = 0; i < TP_NR_VERDICTS; i++) {
		v[i] = atomic64_read(&tp_kt.verdicts[i]);
		total += v[i];
	}
	if (tp_kt_verbose)
		pr_info("# smp: decide: %llu pages: %llu promoted, %llu cold, %llu rate limited\n",
			total, v[TP_PROMOTE], v[TP_REFUSE_COLD],
			v[TP_REFUSE_RATELIMIT]);
	TP_ST_CHECK(st, ok && n == TP_KT_THREADS && s.decided == total &&
		    s.promote_hot == v[TP_PROMOTE] &&
		    s.promote_nrl == v[TP_PROMOTE_NRL] &&
		    s.refused_mode == v[TP_REFUSE_MODE] &&
		    s.refused_toptier == v[TP_REFUSE_TOPTIER] &&
		    s.refused_not_young == v[TP_REFUSE_NOT_YOUNG] &&
		    s.refused_cold == v[TP_REFUSE_COLD] &&
		    s.refused_ratelimit == v[TP_REFUSE_RATELIMIT] &&
		    s.refused_nospace == v[TP_REFUSE_NOSPACE],
		    "policy: concurrent decisions each counted once");
	TP_ST_CHECK(st, v[TP_PROMOTE] && v[TP_REFUSE_COLD] &&
		    v[TP_REFUSE_RATELIMIT],
		    "policy: concurrent decisions reach promote, cold, limit");
}

static int tp_kt_smp(struct tp_st *st)
{
	unsigned int failed = st->failed;

	tp_kt_smp_ring(st);
	tp_kt_smp_limiter(st, TP_LIMITER_BUCKET,
			  "limiter: bucket: concurrent consumers take the burst",
			  "limiter: bucket: concurrent consumers take the refill");
	tp_kt_smp_limiter(st, TP_LIMITER_WINDOW_SEED,
			  "limiter: seed window: concurrent count exact",
			  "limiter: seed window: new window within the bound");
	tp_kt_smp_limiter(st, TP_LIMITER_WINDOW_MAINLINE,
			  "limiter: mainline window: concurrent count exact",
			  "limiter: mainline window: new window within the bound");
	tp_kt_smp_thresh(st);
	tp_kt_smp_atime(st);
	tp_kt_smp_decide(st);
	return st->failed - failed;
}

/* ---- the runner ----------------------------------------------------------- */

struct tp_kt_suite {
	const char *name;
	int (*run)(struct tp_st *st);
};

static const struct tp_kt_suite tp_kt_suites[] = {
	{ "ring", tp_st_ring },
	{ "atime", tp_st_atime },
	{ "vma_scan", tp_st_vma_scan },
	{ "threshold", tp_st_threshold },
	{ "limiter", tp_st_limiter },
	{ "policy", tp_st_policy },
	{ "smp", tp_kt_smp },
};

static void tp_kt_print(struct tp_st *st, bool ok, const char *name,
			int line)
{
	if (!ok)
		pr_info("# %s: %s: failed at line %d\n", st->suite, name,
			line);
	pr_info("%sok %u - %s: %s\n", ok ? "" : "not ", st->run, st->suite,
		name);
}

/* Runs every suite; returns the number of problems outside the cases. */
static unsigned int tp_kt_run(struct tp_st *st)
{
	unsigned int i, run, failed, errors = 0;
	int ret;

	for (i = 0; i < ARRAY_SIZE(tp_kt_suites); i++) {
		run = st->run;
		failed = st->failed;
		st->suite = tp_kt_suites[i].name;
		ret = tp_kt_suites[i].run(st);
		if (st->run == run) {
			if (tp_kt_verbose)
				pr_info("# %s: ran no case\n", st->suite);
			errors++;
		}
		if (ret < 0 || (unsigned int)ret != st->failed - failed) {
			if (tp_kt_verbose)
				pr_info("# %s: returned %d, %u cases failed\n",
					st->suite, ret, st->failed - failed);
			errors++;
		}
	}
	return errors;
}

static int __init tierpol_test_init(void)
{
	struct tp_st st = { .report = NULL };
	unsigned int plan, errors;

	tp_kt_verbose = false;
	tp_kt_run(&st);
	plan = st.run;

	pr_info("KTAP version 1\n");
	pr_info("1..%u\n", plan);
	tp_kt_verbose = true;
	st = (struct tp_st){ .report = tp_kt_print };
	errors = tp_kt_run(&st);
	if (st.run != plan) {
		pr_info("# tierpol_test: %u cases ran, the plan was %u\n",
			st.run, plan);
		errors++;
	}
	pr_info("# tierpol_test: %u of %u cases passed, %u errors\n",
		st.run - st.failed, st.run, errors);
	pr_info("# Totals: pass:%u fail:%u xfail:0 xpass:0 skip:0 error:%u\n",
		st.run - st.failed, st.failed, errors);

	return st.failed || errors ? -EINVAL : 0;
}

static void __exit tierpol_test_exit(void)
{
}

module_init(tierpol_test_init);
module_exit(tierpol_test_exit);

MODULE_LICENSE("Dual BSD/GPL");
MODULE_DESCRIPTION("tierpol: in-kernel self-test (KTAP)");
