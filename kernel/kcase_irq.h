/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Kernel cases: tierpol called from hard interrupts that interrupt tierpol.
 *
 * A pinned hard hrtimer fires every TP_KI_PERIOD_NS on the CPU of the test,
 * which keeps preemption off, so the interrupt and the code it interrupts
 * share the CPU and its per-CPU slots, as a NUMA hint fault would share
 * them with an interrupt that decides. Each case checks an invariant that
 * holds whatever the interleaving:
 *
 *  - seqcount: a ring reader in the interrupt, with the writer it
 *    interrupted in mid-update, gives up with -EBUSY: it does not wait
 *    (waiting would never end: the writer cannot run until it returns);
 *  - decide: the same tp_node_cpu slot counts decisions of both contexts,
 *    with a latch publication (a tune) in one context and decisions in the
 *    other; every decision is counted exactly once under its verdict, and
 *    the node's shared candidate count plus the slot's pending candidates
 *    is exactly the number of candidates (local64 adds and the batch fold
 *    are interrupt-safe);
 *  - limiter: the same for a window limiter's per-CPU slot: shared count
 *    plus pending equals the pages asked for.
 *
 * Without high-resolution timers the hrtimer fires at the tick; the cases
 * run until TP_KI_FIRES interrupts or TP_KI_MAX_NS, whichever comes first,
 * and need TP_KI_FIRES_MIN: past TP_KI_MAX_NS they wait for those, up to
 * TP_KI_HARD_NS (a slow machine takes longer rather than failing).
 *
 * Shared by tierpol_test.ko (KTAP) and tierpol_kunit.ko (KUnit).
 */
#ifndef TP_KCASE_IRQ_H
#define TP_KCASE_IRQ_H

#include <linux/atomic.h>
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/preempt.h>

#include "selftest/selftest.h"
#include "tp_seam.h"

#define TP_KI_PERIOD_NS		50000ULL
#define TP_KI_FIRES		1000
#define TP_KI_FIRES_MIN		8
#define TP_KI_MAX_NS		(500 * NSEC_PER_MSEC)
/*
 * Past TP_KI_MAX_NS a run still waits for TP_KI_FIRES_MIN interrupts (a
 * starved UML process or qemu vCPU may see one a tick), up to this: well
 * below the soft-lockup and RCU-stall reports, with preemption off.
 */
#define TP_KI_HARD_NS		(5ULL * NSEC_PER_SEC)	/* past a 32-bit long */
/* Decisions per interrupt; a tune every TP_KI_TUNE_EVERY interrupts or
 * process-context decisions.
 */
#define TP_KI_PER_IRQ		4
#define TP_KI_TUNE_EVERY	8

/* Contexts: the test's thread, the interrupt. */
#define TP_KI_TASK		0
#define TP_KI_IRQ		1

static struct {
	struct hrtimer timer;
	void (*fn)(void);
	atomic_t fired;
	atomic_t outside;
	int stop;

	struct tp_scan_ring ring;
	struct tp_scan_pass pass[4];
	int writing;
	atomic_t busy_in;
	atomic_t exact_in;
	atomic_t other_in;

	struct tp_policy pol;
	struct tp_policy_cfg cfg[2];
	struct tp_node node;
	struct tp_node_cpu slot;
	struct tp_node_mem mem;
	atomic64_t clock;
	bool irq_tunes;
	u32 x[2];
	u64 tally[2][TP_NR_VERDICTS];
	u64 pages[2];
	u64 bad[2];
	u64 tunes;
	u64 tune_err;

	struct tp_limiter lim;
	struct tp_limiter_cpu lslot;
	u64 asked[2];
} tp_ki;

static enum hrtimer_restart tp_ki_fire(struct hrtimer *t)
{
	if (!in_hardirq())
		atomic_inc(&tp_ki.outside);
	tp_ki.fn();
	atomic_inc(&tp_ki.fired);
	if (READ_ONCE(tp_ki.stop))
		return HRTIMER_NORESTART;
	hrtimer_forward_now(t, ns_to_ktime(TP_KI_PERIOD_NS));
	return HRTIMER_RESTART;
}

/* Runs @fn in hard interrupts on this CPU; call with preemption off. */
static void tp_ki_start(void (*fn)(void))
{
	tp_ki.fn = fn;
	atomic_set(&tp_ki.fired, 0);
	atomic_set(&tp_ki.outside, 0);
	WRITE_ONCE(tp_ki.stop, 0);
#ifdef TP_HAVE_HRTIMER_SETUP
	hrtimer_setup(&tp_ki.timer, tp_ki_fire, CLOCK_MONOTONIC,
		      HRTIMER_MODE_REL_PINNED_HARD);
#else
	/* before Linux 6.13 (Kbuild), which has no hrtimer_setup() */
	hrtimer_init(&tp_ki.timer, CLOCK_MONOTONIC,
		     HRTIMER_MODE_REL_PINNED_HARD);
	tp_ki.timer.function = tp_ki_fire;
#endif
	hrtimer_start(&tp_ki.timer, ns_to_ktime(TP_KI_PERIOD_NS),
		      HRTIMER_MODE_REL_PINNED_HARD);
}

/* Ends the interrupts and enables preemption again. */
static void tp_ki_stop(void)
{
	WRITE_ONCE(tp_ki.stop, 1);
	preempt_enable();
	hrtimer_cancel(&tp_ki.timer);
}

/* Has the run done what it should, or run out of time? */
static bool tp_ki_done(u64 t0, int fires)
{
	int fired = atomic_read(&tp_ki.fired);
	u64 el = ktime_get_ns() - t0;

	return fired >= fires ||
	       (el > TP_KI_MAX_NS && fired >= TP_KI_FIRES_MIN) ||
	       el > TP_KI_HARD_NS;
}

/* ---- a ring reader interrupting the writer ------------------------------ */

static void tp_ki_ring_irq(void)
{
	u64 lat = 0;
	int ret = tp_scan_ring_latency(&tp_ki.ring, 0x2000, 250, &lat);

	if (READ_ONCE(tp_ki.writing))
		atomic_inc(ret == -EBUSY ? &tp_ki.busy_in : &tp_ki.other_in);
	else if (ret == TP_LAT_EXACT && lat == 150)
		atomic_inc(&tp_ki.exact_in);
	else
		atomic_inc(&tp_ki.other_in);
}

static void tp_ki_ring(struct tp_st *st)
{
	struct tp_scan_ring_cfg cfg = { .sz = sizeof(cfg), .depth = 4 };
	bool ok;
	u64 t0;

	ok = !tp_scan_ring_init(&tp_ki.ring, &cfg, tp_ki.pass,
				ARRAY_SIZE(tp_ki.pass));
	tp_scan_ring_record(&tp_ki.ring, 0x1000, 100);
	tp_scan_ring_advance(&tp_ki.ring, 0x5000);
	atomic_set(&tp_ki.busy_in, 0);
	atomic_set(&tp_ki.exact_in, 0);
	atomic_set(&tp_ki.other_in, 0);
	WRITE_ONCE(tp_ki.writing, 0);

	preempt_disable();
	tp_ki_start(tp_ki_ring_irq);
	t0 = ktime_get_ns();
	/* Interrupts off around the switches: "writing" is exact. */
	local_irq_disable();
	tp_seq_write_begin(&tp_ki.ring.seq);
	WRITE_ONCE(tp_ki.writing, 1);
	local_irq_enable();
	while (!tp_ki_done(t0, TP_KI_FIRES_MIN))
		cpu_relax();
	local_irq_disable();
	WRITE_ONCE(tp_ki.writing, 0);
	tp_seq_write_end(&tp_ki.ring.seq);
	local_irq_enable();
	t0 = ktime_get_ns();
	while (!atomic_read(&tp_ki.exact_in) &&
	       ktime_get_ns() - t0 <= TP_KI_HARD_NS)
		cpu_relax();
	tp_ki_stop();

	tp_kc_diag(st, "irq: ring: %d irqs: %d busy while writing, %d exact after, %d other\n",
		   atomic_read(&tp_ki.fired), atomic_read(&tp_ki.busy_in),
		   atomic_read(&tp_ki.exact_in), atomic_read(&tp_ki.other_in));
	TP_ST_CHECK(st, ok && !atomic_read(&tp_ki.outside) &&
		    atomic_read(&tp_ki.busy_in),
		    "seqcount: a reader interrupting the writer gives up");
	TP_ST_CHECK(st, atomic_read(&tp_ki.exact_in) &&
		    !atomic_read(&tp_ki.other_in),
		    "seqcount: once the writer is done, the reader answers");
}

/* ---- decisions in both contexts on one slot ------------------------------ */

static void tp_ki_decide_one(int ctx)
{
	struct tp_fault f = { .flags = 0 };
	u64 now = (u64)atomic64_inc_return(&tp_ki.clock) >> 2;
	u32 x;
	int v;

	x = tp_ki.x[ctx] * 1664525U + 1013904223U;
	tp_ki.x[ctx] = x;
	f.latency = (x >> 8) % 3000;
	f.nr_pages = x & 1 ? 1 : 512;
	v = tp_decide(&tp_ki.pol, &tp_ki.node, &tp_ki.slot, &f, &tp_ki.mem,
		      now);
	if (v >= 0 && v < TP_NR_VERDICTS)
		tp_ki.tally[ctx][v] += f.nr_pages;
	else
		tp_ki.bad[ctx]++;
	tp_ki.pages[ctx] += f.nr_pages;
}

/* The two settings alternate: 1 and 2 MB/s. One context tunes. */
static void tp_ki_tune(void)
{
	if (tp_policy_tune(&tp_ki.pol, &tp_ki.cfg[++tp_ki.tunes & 1]))
		tp_ki.tune_err++;
}

static void tp_ki_decide_irq(void)
{
	int i;

	for (i = 0; i < TP_KI_PER_IRQ; i++)
		tp_ki_decide_one(TP_KI_IRQ);
	if (tp_ki.irq_tunes && !(atomic_read(&tp_ki.fired) % TP_KI_TUNE_EVERY))
		tp_ki_tune();
}

static const char *const tp_ki_names[2][4] = {
	{
		"decide: tunes and decisions in the task, decisions in irqs",
		"decide: task tunes: each decision of both counted once",
		"decide: task tunes: shared + pending candidates exact",
		"decide: task tunes: promote, cold and rate limited reached",
	}, {
		"decide: decisions in the task, tunes and decisions in irqs",
		"decide: irq tunes: each decision of both counted once",
		"decide: irq tunes: shared + pending candidates exact",
		"decide: irq tunes: promote, cold and rate limited reached",
	},
};

static void tp_ki_decide(struct tp_st *st, bool irq_tunes)
{
	struct tp_node_stats s;
	u64 cand, t0, n = 0, pages, total[TP_NR_VERDICTS];
	bool ok, exact = true;
	int v;

	memset(tp_ki.tally, 0, sizeof(tp_ki.tally));
	memset(tp_ki.pages, 0, sizeof(tp_ki.pages));
	memset(tp_ki.bad, 0, sizeof(tp_ki.bad));
	memset(&tp_ki.slot, 0, sizeof(tp_ki.slot));
	tp_ki.x[TP_KI_TASK] = 1;
	tp_ki.x[TP_KI_IRQ] = 2;
	tp_ki.tunes = 0;
	tp_ki.tune_err = 0;
	tp_ki.irq_tunes = irq_tunes;
	atomic64_set(&tp_ki.clock, 0);
	/*
	 * Linux 6.1's preset at 1 or 2 MB/s, folding every 3 candidates;
	 * free memory above the high watermark, below the bypass.
	 */
	ok = !tp_policy_preset(&tp_ki.cfg[0], TP_PRESET_LINUX61, 1000);
	tp_ki.cfg[0].rate_limit_mbps = 1;
	tp_ki.cfg[0].cand_batch = 3;
	tp_ki.cfg[1] = tp_ki.cfg[0];
	tp_ki.cfg[1].rate_limit_mbps = 2;
	ok = ok && !tp_policy_init(&tp_ki.pol, &tp_ki.cfg[0]) &&
	     !tp_node_init(&tp_ki.node, &tp_ki.pol, 0);
	tp_ki.mem = (struct tp_node_mem){ .free = 200000, .wmark_min = 1000,
					  .wmark_low = 2000,
					  .wmark_high = 3000,
					  .wmark_promo = 4000,
					  .present = 1 << 22 };

	preempt_disable();
	tp_ki_start(tp_ki_decide_irq);
	t0 = ktime_get_ns();
	while (!tp_ki_done(t0, TP_KI_FIRES)) {
		tp_ki_decide_one(TP_KI_TASK);
		if (!irq_tunes && !(++n % TP_KI_TUNE_EVERY))
			tp_ki_tune();
	}
	tp_ki_stop();

	tp_node_stats_read(&tp_ki.pol, &tp_ki.node, &s);
	tp_node_stats_add(&s, &tp_ki.slot);
	pages = tp_ki.pages[TP_KI_TASK] + tp_ki.pages[TP_KI_IRQ];
	for (v = 0; v < TP_NR_VERDICTS; v++) {
		total[v] = tp_ki.tally[TP_KI_TASK][v] +
			   tp_ki.tally[TP_KI_IRQ][v];
		exact = exact && s.verdict[v] == total[v];
	}
	cand = s.cand_shared + tp_local64_read(&tp_ki.slot.cand);
	tp_kc_diag(st, "irq: decide, %s tunes: %d interrupts, %llu tunes\n",
		   irq_tunes ? "interrupt" : "task",
		   atomic_read(&tp_ki.fired), tp_ki.tunes);
	tp_kc_diag(st, "irq: pages: %llu in the task, %llu in interrupts\n",
		   tp_ki.pages[TP_KI_TASK], tp_ki.pages[TP_KI_IRQ]);
	tp_kc_diag(st, "irq: %llu promoted, %llu cold, %llu limited, %llu busy\n",
		   total[TP_PROMOTE], total[TP_REFUSE_COLD],
		   total[TP_REFUSE_RATELIMIT], total[TP_REFUSE_BUSY]);
	TP_ST_CHECK(st, ok && !atomic_read(&tp_ki.outside) &&
		    atomic_read(&tp_ki.fired) >= TP_KI_FIRES_MIN &&
		    tp_ki.pages[TP_KI_IRQ] && tp_ki.tunes && !tp_ki.tune_err,
		    tp_ki_names[irq_tunes][0]);
	TP_ST_CHECK(st, !tp_ki.bad[TP_KI_TASK] && !tp_ki.bad[TP_KI_IRQ] &&
		    exact && s.decided == pages, tp_ki_names[irq_tunes][1]);
	TP_ST_CHECK(st, cand == s.candidate, tp_ki_names[irq_tunes][2]);
	TP_ST_CHECK(st, total[TP_PROMOTE] && total[TP_REFUSE_COLD] &&
		    total[TP_REFUSE_RATELIMIT], tp_ki_names[irq_tunes][3]);
}

/* ---- a window limiter's slot in both contexts ------------------------------ */

static void tp_ki_consume(int ctx, u64 n)
{
	u64 now = (u64)atomic64_inc_return(&tp_ki.clock) >> 4;

	tp_limiter_consume(&tp_ki.lim, &tp_ki.lslot, n, now);
	tp_ki.asked[ctx] += n;
}

static void tp_ki_consume_irq(void)
{
	int i;

	for (i = 0; i < TP_KI_PER_IRQ; i++)
		tp_ki_consume(TP_KI_IRQ, 1 + (i & 1) * 6);
}

static void tp_ki_limiter(struct tp_st *st)
{
	struct tp_limiter_cfg cfg = { .sz = sizeof(cfg), .tps = 1000,
				      .variant = TP_LIMITER_WINDOW_RFC2020,
				      .cand_batch = 5, .rate = 300 };
	u64 t0, counted;
	u32 n = 0;	/* % 3 of a u64 is a libgcc call on 32-bit clang */
	bool ok;

	memset(&tp_ki.lslot, 0, sizeof(tp_ki.lslot));
	memset(tp_ki.asked, 0, sizeof(tp_ki.asked));
	atomic64_set(&tp_ki.clock, 0);
	ok = !tp_limiter_init(&tp_ki.lim, &cfg, 0);

	preempt_disable();
	tp_ki_start(tp_ki_consume_irq);
	t0 = ktime_get_ns();
	while (!tp_ki_done(t0, TP_KI_FIRES))
		tp_ki_consume(TP_KI_TASK, 1 + (++n % 3));
	tp_ki_stop();

	counted = tp_atomic64_read(&tp_ki.lim.count) +
		  tp_local64_read(&tp_ki.lslot.diff);
	tp_kc_diag(st, "irq: limiter: %d interrupts, pages: %llu + %llu asked, %llu counted\n",
		   atomic_read(&tp_ki.fired), tp_ki.asked[TP_KI_TASK],
		   tp_ki.asked[TP_KI_IRQ], counted);
	TP_ST_CHECK(st, ok && !atomic_read(&tp_ki.outside) &&
		    atomic_read(&tp_ki.fired) >= TP_KI_FIRES_MIN &&
		    tp_ki.asked[TP_KI_IRQ] &&
		    counted == tp_ki.asked[TP_KI_TASK] + tp_ki.asked[TP_KI_IRQ] &&
		    !tp_limiter_busy(&tp_ki.lslot),
		    "limiter: one slot, both contexts: shared + pending pages exact");
}

static int tp_kc_irq(struct tp_st *st)
{
	unsigned int failed = st->failed;

	tp_ki_ring(st);
	tp_ki_decide(st, false);
	tp_ki_decide(st, true);
	tp_ki_limiter(st);
	return st->failed - failed;
}

#endif /* TP_KCASE_IRQ_H */
