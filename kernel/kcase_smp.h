/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Kernel cases: the lock-free paths on several kthreads at once, so the
 * kernel branch of the seam (atomic64_t, local64_t, seqcount_t,
 * seqcount_latch_t, xchg) runs under real concurrency, with per-CPU slots
 * from alloc_percpu() used under get_cpu_ptr() as docs/kernel.md tells
 * callers to. Every check holds whatever the interleaving: counts that must
 * be exact, answers that must match a single-threaded reference or stay
 * within a bound, and reads that must never mix two writes.
 *
 * On a uniprocessor kernel (UML) the threads interleave at preemption
 * points only; the checks are the same.
 *
 * Shared by tierpol_test.ko (KTAP) and tierpol_kunit.ko (KUnit).
 */
#ifndef TP_KCASE_SMP_H
#define TP_KCASE_SMP_H

#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/percpu.h>
#include <linux/sched.h>

#include "selftest/selftest.h"
#include "tp_seam.h"

#define TP_KS_THREADS		3
/* Scan ring: pass k starts at k * STEP at time k; lookups happen at NOW. */
#define TP_KS_RING_STEP		0x10000ULL
#define TP_KS_RING_NOW		BIT_ULL(40)
#define TP_KS_RING_PASSES	20000U
#define TP_KS_EXACT		1000U
#define TP_KS_LIM_TRIES		2000U
#define TP_KS_TH_TRIES		500U
#define TP_KS_XCHG_TRIES	5000U
#define TP_KS_DECIDE_TRIES	3000U

/* Shared by the threads of one case; cases run one after the other. */
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
	atomic64_t bad;
	u64 now;
	u32 stamp;
	struct tp_atime fmt;
	struct tp_scan_ring ring;
	struct tp_scan_pass pass[16];
	struct tp_latch latch;
	struct {
		u64 a;
		u64 b;
	} copy[2];
	struct tp_limiter lim;
	struct tp_limiter ref;
	struct tp_limiter_cpu __percpu *lslots;
	struct tp_thresh th;
	struct tp_policy pol;
	struct tp_policy_cfg cfg[2];
	struct tp_node node;
	struct tp_node_cpu __percpu *slots;
	struct tp_node_mem mem;
} tp_ks;

static int tp_ks_thread(void *data)
{
	while (!READ_ONCE(tp_ks.go))
		cond_resched();
	tp_ks.fn((unsigned long)data);
	kthread_complete_and_exit(&tp_ks.done, 0);
}

/*
 * Runs @fn(id) on TP_KS_THREADS kthreads, and @main_fn on the caller's
 * thread meanwhile. Returns how many kthreads ran.
 */
static unsigned int tp_ks_spawn(void (*fn)(unsigned int id),
				void (*main_fn)(void))
{
	struct task_struct *t;
	unsigned int i, n = 0;

	tp_ks.fn = fn;
	WRITE_ONCE(tp_ks.go, 0);
	WRITE_ONCE(tp_ks.stop, 0);
	init_completion(&tp_ks.done);
	for (i = 0; i < TP_KS_THREADS; i++) {
		t = kthread_run(tp_ks_thread, (void *)(unsigned long)i,
				"tierpol_test/%u", i);
		if (!IS_ERR(t))
			n++;
	}
	WRITE_ONCE(tp_ks.go, 1);
	if (main_fn)
		main_fn();
	for (i = 0; i < n; i++)
		wait_for_completion(&tp_ks.done);
	return n;
}

/* Writers run until the readers saw enough, for 1/4 s to 2 s. */
static bool tp_ks_writer_done(unsigned long least, unsigned long deadline,
			      u64 k, u64 min_k)
{
	if (!(k & 63))
		cond_resched();
	if (k >= min_k && time_after(jiffies, least) &&
	    atomic_read(&tp_ks.exact) >= TP_KS_EXACT)
		return true;
	return time_after(jiffies, deadline);
}

/* ---- scan ring: one writer (the caller), readers on every kthread ------ */

static void tp_ks_ring_writer(void)
{
	unsigned long least = jiffies + HZ / 4, deadline = jiffies + 2 * HZ;
	u64 k;

	for (k = 1; ; k++) {
		tp_scan_ring_record(&tp_ks.ring, k * TP_KS_RING_STEP, k);
		tp_scan_ring_advance(&tp_ks.ring, k * TP_KS_RING_STEP +
				     TP_KS_RING_STEP / 2);
		atomic64_set(&tp_ks.progress, k);
		if (tp_ks_writer_done(least, deadline, k, TP_KS_RING_PASSES))
			break;
	}
	WRITE_ONCE(tp_ks.stop, 1);
}

static void tp_ks_ring_reader(unsigned int id)
{
	u32 x = 0x9e3779b9U * (id + 1), after = 0, n = 0;
	u64 k, j, lat;
	int ret;

	/* A few lookups after the writer stopped: a stable ring. */
	while (after < 16) {
		if (READ_ONCE(tp_ks.stop))
			after++;
		if (!(++n & 63))
			cond_resched();
		x = x * 1664525U + 1013904223U;
		j = x >> 28;
		k = atomic64_read(&tp_ks.progress);
		if (k <= j)
			continue;
		/* Pass k - j covers this address while the ring holds it. */
		k -= j;
		ret = tp_scan_ring_latency(&tp_ks.ring,
					   k * TP_KS_RING_STEP +
					   TP_KS_RING_STEP / 4,
					   TP_KS_RING_NOW, &lat);
		atomic_inc(&tp_ks.lookups);
		if (ret == TP_LAT_EXACT) {
			atomic_inc(&tp_ks.exact);
			/* The time of another pass: a torn record. */
			if (lat != TP_KS_RING_NOW - k)
				atomic_inc(&tp_ks.torn);
		} else if (ret == -EBUSY) {
			atomic_inc(&tp_ks.busy);
		}
	}
}

static void tp_ks_ring(struct tp_st *st)
{
	struct tp_scan_ring_cfg cfg = { .sz = sizeof(cfg), .depth = 16 };
	unsigned int n;

	atomic64_set(&tp_ks.progress, 0);
	atomic_set(&tp_ks.lookups, 0);
	atomic_set(&tp_ks.exact, 0);
	atomic_set(&tp_ks.busy, 0);
	atomic_set(&tp_ks.torn, 0);
	TP_ST_CHECK(st, !tp_scan_ring_init(&tp_ks.ring, &cfg, tp_ks.pass,
					   ARRAY_SIZE(tp_ks.pass)),
		    "ring: init");
	n = tp_ks_spawn(tp_ks_ring_reader, tp_ks_ring_writer);
	tp_kc_diag(st, "smp: ring: %llu passes, %u readers: %d reads, %d exact, %d busy, %d torn\n",
		   (u64)atomic64_read(&tp_ks.progress), n,
		   atomic_read(&tp_ks.lookups), atomic_read(&tp_ks.exact),
		   atomic_read(&tp_ks.busy), atomic_read(&tp_ks.torn));
	TP_ST_CHECK(st, n == TP_KS_THREADS && atomic_read(&tp_ks.exact),
		    "ring: reader kthreads found passes");
	TP_ST_CHECK(st, !atomic_read(&tp_ks.torn),
		    "ring: one writer, concurrent readers: no torn pass");
}

/* ---- latch: one publisher (the caller), readers on every kthread ------- */

/* Both halves of a u64 carry k: a torn 64-bit read shows. */
static u64 tp_ks_latch_val(u64 k)
{
	return (k & 0xffffffffULL) * 0x100000001ULL;
}

static void tp_ks_latch_writer(void)
{
	unsigned long least = jiffies + HZ / 4, deadline = jiffies + 2 * HZ;
	u64 k, v;
	int i;

	for (k = 1; ; k++) {
		v = tp_ks_latch_val(k);
		for (i = 0; i < 2; i++) {
			tp_latch_flip(&tp_ks.latch);
			tp_write_once(tp_ks.copy[i].a, v);
			tp_write_once(tp_ks.copy[i].b, ~v);
		}
		atomic64_set(&tp_ks.progress, k);
		if (tp_ks_writer_done(least, deadline, k, 20000))
			break;
	}
	WRITE_ONCE(tp_ks.stop, 1);
}

static void tp_ks_latch_reader(unsigned int id)
{
	unsigned int seq, n = 0, after = 0;
	u64 a, b, last = 0;

	/* A few reads after the writer stopped: one that ran late reads too. */
	while (after < 16) {
		if (READ_ONCE(tp_ks.stop))
			after++;
		if (!(++n & 63))
			cond_resched();
		seq = tp_latch_begin(&tp_ks.latch);
		a = tp_read_once(tp_ks.copy[seq & 1].a);
		b = tp_read_once(tp_ks.copy[seq & 1].b);
		if (tp_latch_retry(&tp_ks.latch, seq)) {
			atomic_inc(&tp_ks.busy);
			continue;
		}
		atomic_inc(&tp_ks.exact);
		/* One write whole, and never older than one seen before. */
		if (a != ~b || a != tp_ks_latch_val(a) || a < last)
			atomic_inc(&tp_ks.torn);
		last = a;
	}
}

static void tp_ks_latch(struct tp_st *st)
{
	unsigned int n;

	tp_latch_init(&tp_ks.latch);
	tp_ks.copy[0].a = 0;
	tp_ks.copy[0].b = ~0ULL;
	tp_ks.copy[1] = tp_ks.copy[0];
	atomic64_set(&tp_ks.progress, 0);
	atomic_set(&tp_ks.exact, 0);
	atomic_set(&tp_ks.busy, 0);
	atomic_set(&tp_ks.torn, 0);
	n = tp_ks_spawn(tp_ks_latch_reader, tp_ks_latch_writer);
	tp_kc_diag(st, "smp: latch: %llu writes, %u readers: %d reads, %d retried, %d mixed\n",
		   (u64)atomic64_read(&tp_ks.progress), n,
		   atomic_read(&tp_ks.exact), atomic_read(&tp_ks.busy),
		   atomic_read(&tp_ks.torn));
	TP_ST_CHECK(st, n == TP_KS_THREADS && atomic_read(&tp_ks.exact),
		    "latch: reader kthreads read the settings");
	TP_ST_CHECK(st, !atomic_read(&tp_ks.torn),
		    "latch: one publisher, concurrent readers: no mixed or torn read");
}

/* ---- rate limiter: one instant, per-CPU slots --------------------------- */

static void tp_ks_lim_consumer(unsigned int id)
{
	struct tp_limiter_cpu *c;
	u64 got = 0;
	u32 i;

	for (i = 0; i < TP_KS_LIM_TRIES; i++) {
		c = get_cpu_ptr(tp_ks.lslots);
		got += tp_limiter_consume(&tp_ks.lim, c, 1, tp_ks.now);
		put_cpu_ptr(tp_ks.lslots);
		if (!(i & 255))
			cond_resched();
	}
	atomic64_add(got, &tp_ks.sum);
}

/* Single-threaded reference: the same requests, one after the other. */
static u64 tp_ks_lim_ref(u64 now)
{
	u64 got = 0;
	u32 i;

	for (i = 0; i < TP_KS_THREADS * TP_KS_LIM_TRIES; i++)
		got += tp_limiter_consume(&tp_ks.ref, NULL, 1, now);
	return got;
}

/* The shared count plus every slot's pending pages. */
static u64 tp_ks_lim_counted(void)
{
	u64 n = tp_atomic64_read(&tp_ks.lim.count);
	int cpu;

	for_each_possible_cpu(cpu)
		n += tp_local64_read(&per_cpu_ptr(tp_ks.lslots, cpu)->diff);
	return n;
}

static void tp_ks_limiter(struct tp_st *st, u32 variant, u32 batch,
			  const char *name1, const char *name2)
{
	struct tp_limiter_cfg cfg = { .sz = sizeof(cfg), .variant = variant,
				      .tps = 1000, .cand_batch = batch,
				      .rate = 1000, .burst = 3000 };
	u64 ref1, ref2, got1, got2, now = 5000, asked, slack;
	unsigned int n;
	bool ok, bucket = variant == TP_LIMITER_BUCKET;

	tp_ks.lslots = alloc_percpu(struct tp_limiter_cpu);
	ok = tp_ks.lslots && !tp_limiter_init(&tp_ks.ref, &cfg, now) &&
	     !tp_limiter_init(&tp_ks.lim, &cfg, now);
	/*
	 * A window is expired at init: one page opens both (admitted, not
	 * counted in them) before the threads start, so that the first
	 * instant has the threads race in an open window, the second at
	 * the opening of one.
	 */
	if (ok && !bucket)
		ok = tp_limiter_consume(&tp_ks.ref, NULL, 1, now) &&
		     tp_limiter_consume(&tp_ks.lim, NULL, 1, now);
	if (!ok) {
		free_percpu(tp_ks.lslots);
		TP_ST_CHECK(st, false, name1);
		TP_ST_CHECK(st, false, name2);
		return;
	}
	ref1 = tp_ks_lim_ref(now);
	ref2 = tp_ks_lim_ref(now + 2000);

	atomic64_set(&tp_ks.sum, 0);
	tp_ks.now = now;
	n = tp_ks_spawn(tp_ks_lim_consumer, NULL);
	got1 = atomic64_read(&tp_ks.sum);
	atomic64_set(&tp_ks.sum, 0);
	tp_ks.now = now + 2000;
	n += tp_ks_spawn(tp_ks_lim_consumer, NULL);
	got2 = atomic64_read(&tp_ks.sum);
	asked = bucket ? 0 : tp_ks_lim_counted();
	free_percpu(tp_ks.lslots);
	tp_ks.lslots = NULL;
	tp_kc_diag(st, "smp: limiter %u/%u: admitted %llu then %llu (reference %llu, %llu)\n",
		   variant, batch, got1, got2, ref1, ref2);

	if (bucket) {
		/* Every admission is one cmpxchg: the burst, then the refill. */
		TP_ST_CHECK(st, n == 2 * TP_KS_THREADS && got1 == ref1 &&
			    got1 == 3000, name1);
		TP_ST_CHECK(st, got2 == ref2 && got2 == 2000, name2);
		return;
	}
	/*
	 * A window reads the shared count after adding to it, so racing
	 * callers may see each other's pages and refuse: at most the
	 * reference; a late fold lets each slot under-count by batch - 1.
	 */
	slack = (u64)num_possible_cpus() * (batch > 1 ? batch - 1 : 0);
	TP_ST_CHECK(st, n == 2 * TP_KS_THREADS && got1 &&
		    got1 <= ref1 + slack &&
		    asked == 2ULL * TP_KS_THREADS * TP_KS_LIM_TRIES + 1, name1);
	TP_ST_CHECK(st, got2 && got2 <= ref2 + slack, name2);
}

/* ---- threshold controller: exactly one caller closes a period ----------- */

static void tp_ks_th_updater(unsigned int id)
{
	u64 closed = 0;
	u32 i;

	for (i = 0; i < TP_KS_TH_TRIES; i++)
		if (tp_thresh_update(&tp_ks.th, 0, tp_ks.now) != TP_TH_IDLE)
			closed++;
	atomic64_add(closed, &tp_ks.sum);
}

static void tp_ks_thresh(struct tp_st *st)
{
	struct tp_thresh_cfg cfg = { .sz = sizeof(cfg),
				     .variant = TP_THRESH_LINUX61,
				     .tps = 1000, .ref_th = 1000,
				     .period = 60000, .rate_limit = 100 };
	struct tp_thresh ref;
	unsigned int n;
	bool ok;

	ok = !tp_thresh_init(&ref, &cfg, 0, 0) &&
	     !tp_thresh_init(&tp_ks.th, &cfg, 0, 0) &&
	     tp_thresh_update(&ref, 0, 60001) == TP_TH_RAISED;

	tp_ks.now = 60001;
	atomic64_set(&tp_ks.sum, 0);
	n = tp_ks_spawn(tp_ks_th_updater, NULL);
	TP_ST_CHECK(st, ok && n == TP_KS_THREADS &&
		    atomic64_read(&tp_ks.sum) == 1 &&
		    tp_thresh_get(&tp_ks.th) == tp_thresh_get(&ref) &&
		    tp_thresh_get(&ref) == 1125,
		    "threshold: concurrent updates close one period, one step");
}

/* ---- access-time stamp: every stamp written is returned exactly once ---- */

static void tp_ks_xchg_stamper(unsigned int id)
{
	u64 wrote = 0, read = 0;
	u32 i, v;

	for (i = 0; i < TP_KS_XCHG_TRIES; i++) {
		v = (id + 1) * 1000000U + i;
		wrote += v;
		read += tp_atime_xchg(&tp_ks.fmt, &tp_ks.stamp, v);
		if (!(i & 255))
			cond_resched();
	}
	atomic64_add(wrote, &tp_ks.sum);
	atomic64_add(read, &tp_ks.sum2);
}

static void tp_ks_atime(struct tp_st *st)
{
	struct tp_atime_cfg cfg = { .sz = sizeof(cfg), .bits = 32 };
	unsigned int n;
	bool ok;

	ok = !tp_atime_init(&tp_ks.fmt, &cfg);
	tp_ks.stamp = 7;
	atomic64_set(&tp_ks.sum, 0);
	atomic64_set(&tp_ks.sum2, 0);
	n = tp_ks_spawn(tp_ks_xchg_stamper, NULL);
	/* initial + written == returned + final */
	TP_ST_CHECK(st, ok && n == TP_KS_THREADS &&
		    7 + atomic64_read(&tp_ks.sum) ==
		    atomic64_read(&tp_ks.sum2) + tp_ks.stamp,
		    "atime: concurrent xchg loses and duplicates no stamp");
}

/* ---- decisions on every CPU while the settings change ------------------- */

static void tp_ks_decider(unsigned int id)
{
	u64 tally[TP_NR_VERDICTS] = { 0 };
	struct tp_fault f = { .nr_pages = 1 };
	struct tp_node_cpu *c;
	u32 x = 0x2545f491U * (id + 1), i;
	int v;

	for (i = 0; i < TP_KS_DECIDE_TRIES; i++) {
		x = x * 1664525U + 1013904223U;
		f.latency = (x >> 8) % 3000;
		f.nr_pages = x & 1 ? 1 : 512;
		f.flags = x & 2 ? TP_FAULT_WRITE : 0;
		/* The documented pattern: this CPU's slot, no preemption. */
		c = get_cpu_ptr(tp_ks.slots);
		v = tp_decide(&tp_ks.pol, &tp_ks.node, c, &f, &tp_ks.mem,
			      100000 + (u64)i * 10);
		put_cpu_ptr(tp_ks.slots);
		if (v >= 0 && v < TP_NR_VERDICTS)
			tally[v] += f.nr_pages;
		else
			atomic64_inc(&tp_ks.bad);
		if (!(i & 127))
			cond_resched();
	}
	for (i = 0; i < TP_NR_VERDICTS; i++)
		atomic64_add(tally[i], &tp_ks.verdicts[i]);
	atomic_inc(&tp_ks.exact);
}

/* Switches the limiter between the window and the bucket meanwhile. */
static void tp_ks_tuner(void)
{
	u64 k = 0;

	while (atomic_read(&tp_ks.exact) < TP_KS_THREADS) {
		if (tp_policy_tune(&tp_ks.pol, &tp_ks.cfg[++k & 1]))
			atomic_inc(&tp_ks.busy);
		if (!(k & 15))
			cond_resched();
	}
	atomic64_set(&tp_ks.progress, k);
}

static void tp_ks_decide(struct tp_st *st, bool tune)
{
	struct tp_node_stats s;
	u64 total = 0, cand, v[TP_NR_VERDICTS];
	unsigned int i, n;
	bool ok, exact = true;
	int cpu;

	/*
	 * A small rate limit, and free space above the high watermark but
	 * below the bypass (promo + 1 GiB): promote, cold and rate limited.
	 */
	ok = !tp_policy_preset(&tp_ks.cfg[0], TP_PRESET_LINUX61, 1000);
	tp_ks.cfg[0].rate_limit_mbps = 4;
	tp_ks.cfg[1] = tp_ks.cfg[0];
	tp_ks.cfg[1].limiter_variant = TP_LIMITER_BUCKET;
	tp_ks.cfg[1].burst_pages = 2048;
	tp_ks.slots = alloc_percpu(struct tp_node_cpu);
	ok = ok && tp_ks.slots && !tp_policy_init(&tp_ks.pol, &tp_ks.cfg[0]) &&
	     !tp_node_init(&tp_ks.node, &tp_ks.pol, 100000);
	tp_ks.mem = (struct tp_node_mem){ .free = 200000, .wmark_min = 1000,
					  .wmark_low = 2000,
					  .wmark_high = 3000,
					  .wmark_promo = 4000,
					  .present = 1 << 22 };
	for (i = 0; i < TP_NR_VERDICTS; i++)
		atomic64_set(&tp_ks.verdicts[i], 0);
	atomic64_set(&tp_ks.bad, 0);
	atomic64_set(&tp_ks.progress, 0);
	atomic_set(&tp_ks.exact, 0);
	atomic_set(&tp_ks.busy, 0);
	n = ok ? tp_ks_spawn(tp_ks_decider, tune ? tp_ks_tuner : NULL) : 0;

	if (ok) {
		tp_node_stats_read(&tp_ks.pol, &tp_ks.node, &s);
		cand = s.cand_shared;
		for_each_possible_cpu(cpu) {
			struct tp_node_cpu *c = per_cpu_ptr(tp_ks.slots, cpu);

			tp_node_stats_add(&s, c);
			cand += tp_local64_read(&c->cand);
		}
		for (i = 0; i < TP_NR_VERDICTS; i++) {
			v[i] = atomic64_read(&tp_ks.verdicts[i]);
			total += v[i];
			exact = exact && s.verdict[i] == v[i];
		}
		tp_kc_diag(st, "smp: decide: %llu pages, %llu tunes\n", total,
			   (u64)atomic64_read(&tp_ks.progress));
		tp_kc_diag(st, "smp: %llu promoted, %llu cold, %llu limited, %llu busy\n",
			   v[TP_PROMOTE], v[TP_REFUSE_COLD],
			   v[TP_REFUSE_RATELIMIT], v[TP_REFUSE_BUSY]);
	}
	free_percpu(tp_ks.slots);
	tp_ks.slots = NULL;
	if (!ok) {
		TP_ST_CHECK(st, false, "policy: set-up for concurrent decisions");
		return;
	}
	TP_ST_CHECK(st, n == TP_KS_THREADS && !atomic64_read(&tp_ks.bad) &&
		    exact && s.decided == total && cand == s.candidate &&
		    !atomic_read(&tp_ks.busy),
		    tune ? "policy: every CPU deciding, limiter switching: each counted once" :
			   "policy: every CPU deciding: each counted once");
	TP_ST_CHECK(st, v[TP_PROMOTE] && v[TP_REFUSE_COLD] &&
		    v[TP_REFUSE_RATELIMIT] &&
		    (!tune || atomic64_read(&tp_ks.progress)),
		    tune ? "policy: decisions while tuning reach promote, cold, limit" :
			   "policy: concurrent decisions reach promote, cold, limit");
}

static int tp_kc_smp(struct tp_st *st)
{
	unsigned int failed = st->failed;

	tp_ks_ring(st);
	tp_ks_latch(st);
	tp_ks_limiter(st, TP_LIMITER_BUCKET, 0,
		      "limiter: bucket: concurrent consumers take the burst",
		      "limiter: bucket: concurrent consumers take the refill");
	tp_ks_limiter(st, TP_LIMITER_WINDOW_RFC2020, 0,
		      "limiter: RFC 2020 window: concurrent, never above the reference",
		      "limiter: RFC 2020 window: new window, never above the reference");
	tp_ks_limiter(st, TP_LIMITER_WINDOW_LINUX61, 8,
		      "limiter: Linux 6.1 window, batch 8: count exact, within the bound",
		      "limiter: Linux 6.1 window, batch 8: new window within the bound");
	tp_ks_thresh(st);
	tp_ks_atime(st);
	tp_ks_decide(st, false);
	tp_ks_decide(st, true);
	return st->failed - failed;
}

#endif /* TP_KCASE_SMP_H */
