/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Kernel cases: the seam's synchronisation primitives on the kernel's own
 * types, one CPU, no concurrency (kcase_irq.h and kcase_smp.h add it).
 *
 * In the kernel build, struct tp_latch is a seqcount_latch_t and struct
 * tp_seqcount a seqcount_t (include/tierpol/types.h). These cases drive
 * them through lib/tp_seam.h, then through the public functions that use
 * them, and check what the design promises: a latch publication is two
 * flips with both copies written, a rejected tune publishes nothing, a ring
 * reader facing a writer in mid-update gives up (-EBUSY) instead of waiting,
 * and the writer cannot be preempted while it updates.
 *
 * Shared by tierpol_test.ko (KTAP) and tierpol_kunit.ko (KUnit).
 */
#ifndef TP_KCASE_PRIM_H
#define TP_KCASE_PRIM_H

#include <linux/build_bug.h>
#include <linux/preempt.h>
#include <linux/seqlock.h>
#include <linux/string.h>

#include "selftest/selftest.h"
#include "tp_seam.h"

/* The wrappers are the kernel's types, not look-alikes. */
static_assert(__same_type(((struct tp_latch *)0)->seq, seqcount_latch_t));
static_assert(__same_type(((struct tp_seqcount *)0)->seq, seqcount_t));
static_assert(__same_type(((struct tp_atomic64 *)0)->v, atomic64_t));
static_assert(__same_type(((struct tp_local64 *)0)->v, local64_t));

/* Big objects live here, not on the stack. */
static struct {
	struct tp_policy pol;
	struct tp_policy before;
	struct tp_limiter lim;
	struct tp_limiter lim_before;
	struct tp_thresh th;
	struct tp_thresh th_before;
	struct tp_scan_ring ring;
	struct tp_scan_pass pass[4];
} tp_kp;

/* The latch itself: which copy a reader takes, and when it retries. */
static void tp_kp_latch(struct tp_st *st)
{
	struct tp_latch l;
	unsigned int s0, s1, s2;

	tp_latch_init(&l);
	s0 = tp_latch_begin(&l);
	TP_ST_CHECK(st, !(s0 & 1) && !tp_latch_retry(&l, s0),
		    "latch: a new latch sends readers to copy 0, no retry");
	tp_latch_flip(&l);
	s1 = tp_latch_begin(&l);
	TP_ST_CHECK(st, (s1 & 1) && s1 == s0 + 1,
		    "latch: one flip sends readers to copy 1");
	TP_ST_CHECK(st, tp_latch_retry(&l, s0) && !tp_latch_retry(&l, s1),
		    "latch: a read begun before a flip retries, one after does not");
	tp_latch_flip(&l);
	s2 = tp_latch_begin(&l);
	TP_ST_CHECK(st, !(s2 & 1) && tp_latch_retry(&l, s1) &&
		    s2 == raw_read_seqcount_latch(&l.seq),
		    "latch: the second flip sends readers back to copy 0");
}

/* Publication through the public tune functions. */
static void tp_kp_publish(struct tp_st *st)
{
	struct tp_policy_cfg cfg;
	struct tp_limiter_cfg lc = { .sz = sizeof(lc), .tps = 1000,
				     .variant = TP_LIMITER_BUCKET,
				     .rate = 1000, .burst = 2000 };
	struct tp_thresh_cfg tc = { .sz = sizeof(tc), .tps = 1000,
				    .variant = TP_THRESH_LINUX61,
				    .ref_th = 1000, .period = 60000,
				    .rate_limit = 100 };
	unsigned int seq;
	bool ok;
	int ret;

	ok = !tp_policy_preset(&cfg, TP_PRESET_LINUX61, 1000) &&
	     !tp_policy_init(&tp_kp.pol, &cfg);
	seq = tp_latch_begin(&tp_kp.pol.latch);
	cfg.rate_limit_mbps = 4;
	ret = tp_policy_tune(&tp_kp.pol, &cfg);
	TP_ST_CHECK(st, ok && !ret &&
		    tp_latch_begin(&tp_kp.pol.latch) == seq + 2 &&
		    tp_latch_retry(&tp_kp.pol.latch, seq),
		    "policy: a tune is one publication, two flips");
	TP_ST_CHECK(st, !memcmp(&tp_kp.pol.set[0], &tp_kp.pol.set[1],
				sizeof(tp_kp.pol.set[0])) &&
		    tp_kp.pol.set[0].lim.limit == 4 << 8,
		    "policy: after a tune both copies hold the new settings");
	memcpy(&tp_kp.before, &tp_kp.pol, sizeof(tp_kp.pol));
	cfg.mode = 0x4;
	ret = tp_policy_tune(&tp_kp.pol, &cfg);
	TP_ST_CHECK(st, ret == -EINVAL &&
		    !memcmp(&tp_kp.before, &tp_kp.pol, sizeof(tp_kp.pol)),
		    "policy: a rejected tune flips nothing, writes nothing");

	ok = !tp_limiter_init(&tp_kp.lim, &lc, 0);
	seq = tp_latch_begin(&tp_kp.lim.latch);
	lc.variant = TP_LIMITER_WINDOW_LINUX61;
	ret = tp_limiter_tune(&tp_kp.lim, &lc);
	TP_ST_CHECK(st, ok && !ret && tp_latch_retry(&tp_kp.lim.latch, seq) &&
		    tp_latch_begin(&tp_kp.lim.latch) == seq + 2 &&
		    tp_kp.lim.set[0].variant == TP_LIMITER_WINDOW_LINUX61 &&
		    tp_kp.lim.set[1].variant == TP_LIMITER_WINDOW_LINUX61,
		    "limiter: a tune is one publication, both copies");
	memcpy(&tp_kp.lim_before, &tp_kp.lim, sizeof(tp_kp.lim));
	lc.tps = 999;
	ret = tp_limiter_tune(&tp_kp.lim, &lc);
	TP_ST_CHECK(st, ret == -EINVAL &&
		    !memcmp(&tp_kp.lim_before, &tp_kp.lim, sizeof(tp_kp.lim)),
		    "limiter: a rejected tune flips nothing, writes nothing");

	ok = !tp_thresh_init(&tp_kp.th, &tc, 0, 0);
	seq = tp_latch_begin(&tp_kp.th.latch);
	tc.ref_th = 2000;
	ret = tp_thresh_tune(&tp_kp.th, &tc);
	TP_ST_CHECK(st, ok && !ret && tp_latch_retry(&tp_kp.th.latch, seq) &&
		    tp_latch_begin(&tp_kp.th.latch) == seq + 2 &&
		    tp_thresh_get(&tp_kp.th) == 2000,
		    "threshold: a tune is one publication");
	memcpy(&tp_kp.th_before, &tp_kp.th, sizeof(tp_kp.th));
	tc.period = TP_TIME_MAX + 1;
	ret = tp_thresh_tune(&tp_kp.th, &tc);
	TP_ST_CHECK(st, ret == -ERANGE &&
		    !memcmp(&tp_kp.th_before, &tp_kp.th, sizeof(tp_kp.th)),
		    "threshold: a rejected tune flips nothing, writes nothing");
}

/* The ring's seqcount_t: a reader never waits for the writer. */
static void tp_kp_seqcount(struct tp_st *st)
{
	struct tp_scan_ring_cfg cfg = { .sz = sizeof(cfg), .depth = 4 };
	unsigned int seq;
	u64 lat = 0;
	int ret, busy;

	ret = tp_scan_ring_init(&tp_kp.ring, &cfg, tp_kp.pass,
				ARRAY_SIZE(tp_kp.pass));
	tp_scan_ring_record(&tp_kp.ring, 0x1000, 100);
	tp_scan_ring_advance(&tp_kp.ring, 0x5000);
	TP_ST_CHECK(st, !ret &&
		    tp_scan_ring_latency(&tp_kp.ring, 0x2000, 250, &lat) ==
		    TP_LAT_EXACT && lat == 150,
		    "seqcount: a quiet ring answers exactly");

	seq = tp_seq_read_begin(&tp_kp.ring.seq);
	tp_seq_write_begin(&tp_kp.ring.seq);
	/* The writer holds the count odd, with preemption off. */
	if (IS_ENABLED(CONFIG_PREEMPT_COUNT))
		TP_ST_CHECK(st, !preemptible(),
			    "seqcount: the writer cannot be preempted");
	busy = tp_scan_ring_latency(&tp_kp.ring, 0x2000, 250, &lat);
	TP_ST_CHECK(st, (tp_seq_read_begin(&tp_kp.ring.seq) & 1) &&
		    tp_seq_read_retry(&tp_kp.ring.seq, seq),
		    "seqcount: odd while the writer works, readers retry");
	tp_seq_write_end(&tp_kp.ring.seq);
	TP_ST_CHECK(st, busy == -EBUSY,
		    "seqcount: a reader facing a writer mid-update gives up");
	TP_ST_CHECK(st, !(tp_seq_read_begin(&tp_kp.ring.seq) & 1) &&
		    tp_seq_read_begin(&tp_kp.ring.seq) == seq + 2 &&
		    tp_scan_ring_latency(&tp_kp.ring, 0x4fff, 300, &lat) ==
		    TP_LAT_EXACT && lat == 200,
		    "seqcount: the writer done, readers answer again");
}

static int tp_kc_prim(struct tp_st *st)
{
	unsigned int failed = st->failed;

	tp_kp_latch(st);
	tp_kp_publish(st);
	tp_kp_seqcount(st);
	return st->failed - failed;
}

#endif /* TP_KCASE_PRIM_H */
