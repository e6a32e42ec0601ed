/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Self-test vectors: the VMA scan rate limiter's scripted verdicts. Each
 * scenario inits a VMA's scan state under one filter (none, the 2023
 * disjoint-VMA RFC's, Linux 6.7's), then notes PIDs, marks sequences
 * done and checks verdicts on the clock vma_scan.h describes: the delays,
 * the early phase, the access windows' rotation, the RFC's countdown,
 * Linux 6.7's reasons and starvation, and the wraps of the sequence and
 * of the clock. Uses the helpers of vma_scan.h; tp_st_vma_scan() runs
 * tp_st_vma_scenarios(). Public API only, no libc, no 64-bit division.
 */
#ifndef TP_SELFTEST_VMA_SCENARIOS_H
#define TP_SELFTEST_VMA_SCENARIOS_H

#include "vma_scan.h"

/* ---- scripted verdicts ----------------------------------------------- */

enum {
	TP_ST_VMA_END,
	TP_ST_VMA_INIT,		/* tp_vma_scan_init(seq, now) */
	TP_ST_VMA_NOTE,		/* tp_vma_scan_note(pid) */
	TP_ST_VMA_DONE,		/* tp_vma_scan_done(seq) */
	TP_ST_VMA_CHECK,	/* tp_vma_scan_check() == want */
};

/* Bad VMA bounds for a CHECK: empty or inverted. */
enum {
	TP_ST_VMA_OK,
	TP_ST_VMA_EMPTY,
	TP_ST_VMA_INVERTED,
};

struct tp_st_vma_op {
	u8 op;
	u8 bad;
	bool forced;
	u32 seq;
	u32 pid;
	u32 nr_threads;
	u64 now;
	u64 offset;
	int want;
	const char *name;
};

#define TP_ST_INIT(s, t)	{ .op = TP_ST_VMA_INIT, .seq = (s), .now = (t) }
#define TP_ST_NOTE(p)		{ .op = TP_ST_VMA_NOTE, .pid = (p) }
#define TP_ST_DONE(s)		{ .op = TP_ST_VMA_DONE, .seq = (s) }
#define TP_ST_CHKX(n, s, t, p, thr, off, f, w) \
	{ .op = TP_ST_VMA_CHECK, .seq = (s), .now = (t), .pid = (p), \
	  .nr_threads = (thr), .offset = (off), .forced = (f), .want = (w), \
	  .name = (n) }
/* The scanning task, 16 threads, scan offset 0, not forced. */
#define TP_ST_CHK(n, s, t, w) \
	TP_ST_CHKX(n, s, t, TP_ST_VMA_PID_SCAN, 16, 0, false, w)
#define TP_ST_CHKBAD(n, b) \
	{ .op = TP_ST_VMA_CHECK, .bad = (b), .seq = 5, .now = 2000, \
	  .pid = TP_ST_VMA_PID_SCAN, .nr_threads = 16, .want = -EINVAL, \
	  .name = (n) }
#define TP_ST_VEND		{ .op = TP_ST_VMA_END }

struct tp_st_vma_scn {
	u32 filter;
	u64 size;
	const struct tp_st_vma_op *ops;
};

static const struct tp_st_vma_op tp_st_vma_ops_none[] = {
	TP_ST_INIT(5, 0),
	TP_ST_CHK("NONE: within the new-VMA delay", 5, 10, TP_VMA_SCAN_ALL),
	TP_ST_CHK("NONE: seq 0", 0, 10, TP_VMA_SCAN_ALL),
	TP_ST_DONE(6),
	TP_ST_CHK("NONE: twice in one sequence", 6, 2000, TP_VMA_SCAN_ALL),
	TP_ST_CHKX("NONE: other task, never accessed", 7, 99000,
		   TP_ST_VMA_PID_OTHER, 1, 0, false, TP_VMA_SCAN_ALL),
	TP_ST_CHKBAD("NONE: empty VMA -> -EINVAL", TP_ST_VMA_EMPTY),
	TP_ST_CHKBAD("NONE: inverted VMA -> -EINVAL", TP_ST_VMA_INVERTED),
	TP_ST_VEND
};

static const struct tp_st_vma_op tp_st_vma_ops_dj_early[] = {
	TP_ST_INIT(0, 0),
	TP_ST_CHK("DISJOINT: seq 0 ignores the delay -> EARLY", 0, 0,
		  TP_VMA_SCAN_EARLY),
	TP_ST_CHK("DISJOINT: seq 1 within the delay -> SKIP_DELAY", 1, 999,
		  TP_VMA_SKIP_DELAY),
	TP_ST_CHK("DISJOINT: seq 1 at the end of the delay -> EARLY", 1, 1000,
		  TP_VMA_SCAN_EARLY),
	TP_ST_CHK("DISJOINT: seq 2, not accessed -> DISJOINT (countdown 0)", 2,
		  1000, TP_VMA_SCAN_DISJOINT),
	TP_ST_CHK("DISJOINT: seq 2, not accessed -> SKIP_INACTIVE", 2, 1001,
		  TP_VMA_SKIP_INACTIVE),
	TP_ST_NOTE(TP_ST_VMA_PID_SCAN),
	TP_ST_CHK("DISJOINT: PID bit set -> ACCESSED", 3, 1002,
		  TP_VMA_SCAN_ACCESSED),
	TP_ST_CHKX("DISJOINT: other task's PID not set -> DISJOINT", 3, 1003,
		   TP_ST_VMA_PID_OTHER, 16, 0, false, TP_VMA_SCAN_DISJOINT),
	TP_ST_CHKBAD("DISJOINT: empty VMA -> -EINVAL", TP_ST_VMA_EMPTY),
	TP_ST_CHKBAD("DISJOINT: inverted VMA -> -EINVAL", TP_ST_VMA_INVERTED),
	TP_ST_VEND
};

/* A VMA created late (mm seq 7): the RFC has no per-VMA early phase. */
static const struct tp_st_vma_op tp_st_vma_ops_dj_late[] = {
	TP_ST_INIT(7, 0),
	TP_ST_CHK("DISJOINT late VMA: within the delay -> SKIP_DELAY", 7, 500,
		  TP_VMA_SKIP_DELAY),
	TP_ST_CHK("DISJOINT late VMA: no early phase -> DISJOINT", 7, 1000,
		  TP_VMA_SCAN_DISJOINT),
	TP_ST_VEND
};

static const struct tp_st_vma_op tp_st_vma_ops_dj_rotate[] = {
	TP_ST_INIT(2, 0),
	TP_ST_NOTE(TP_ST_VMA_PID_SCAN),
	TP_ST_CHK("rotation: noted PID -> ACCESSED", 2, 1000,
		  TP_VMA_SCAN_ACCESSED),
	TP_ST_CHK("rotation: none yet at 5 x delay", 3, 5000,
		  TP_VMA_SCAN_ACCESSED),
	TP_ST_CHK("rotation: first, PID in the previous window", 3, 5001,
		  TP_VMA_SCAN_ACCESSED),
	TP_ST_CHK("rotation: none at 9 x delay", 4, 9000,
		  TP_VMA_SCAN_ACCESSED),
	TP_ST_CHK("rotation: second drops the PID -> DISJOINT", 4, 9001,
		  TP_VMA_SCAN_DISJOINT),
	TP_ST_CHK("rotation: dropped PID -> SKIP_INACTIVE", 5, 9002,
		  TP_VMA_SKIP_INACTIVE),
	TP_ST_NOTE(TP_ST_VMA_PID_SCAN),
	TP_ST_CHK("rotation: noted again -> ACCESSED", 5, 9003,
		  TP_VMA_SCAN_ACCESSED),
	TP_ST_VEND
};

/*
 * The first rotation, 5 x delay after the init, falls just past the 2^64
 * wrap of the clock: checks before it, at times near 2^64 that are
 * numerically larger, rotate nothing.
 */
static const struct tp_st_vma_op tp_st_vma_ops_dj_rotate_wrap[] = {
	TP_ST_INIT(2, ~0ULL - 1500),
	TP_ST_NOTE(TP_ST_VMA_PID_SCAN),
	TP_ST_CHK("rotation wrap: noted PID -> ACCESSED", 2, ~0ULL - 500,
		  TP_VMA_SCAN_ACCESSED),
	TP_ST_CHK("rotation wrap: none before 2^64, PID kept", 3, ~0ULL - 400,
		  TP_VMA_SCAN_ACCESSED),
	TP_ST_CHK("rotation wrap: none at 2^64 + 3499", 4, 3499,
		  TP_VMA_SCAN_ACCESSED),
	TP_ST_CHK("rotation wrap: first, PID in the previous window", 4, 3500,
		  TP_VMA_SCAN_ACCESSED),
	TP_ST_CHK("rotation wrap: second drops the PID -> DISJOINT", 5, 7500,
		  TP_VMA_SCAN_DISJOINT),
	TP_ST_VEND
};

/* No rotation at mm seq 0, and at most one rotation per check. */
static const struct tp_st_vma_op tp_st_vma_ops_dj_rotate0[] = {
	TP_ST_INIT(0, 0),
	TP_ST_NOTE(TP_ST_VMA_PID_SCAN),
	TP_ST_CHK("rotation: never at seq 0", 0, 100000, TP_VMA_SCAN_EARLY),
	TP_ST_CHK("rotation: one per check, PID kept", 2, 100001,
		  TP_VMA_SCAN_ACCESSED),
	TP_ST_CHK("rotation: next check rotates again", 2, 100002,
		  TP_VMA_SCAN_DISJOINT),
	TP_ST_VEND
};

/* 16 KiB: ratelimit 3. Accessed checks leave the countdown alone. */
static const struct tp_st_vma_op tp_st_vma_ops_dj_countdown[] = {
	TP_ST_INIT(2, 0),
	TP_ST_NOTE(TP_ST_VMA_PID_SCAN),
	TP_ST_CHKX("countdown: first unaccessed check -> DISJOINT", 2, 1000,
		   TP_ST_VMA_PID_OTHER, 16, 0, false, TP_VMA_SCAN_DISJOINT),
	TP_ST_CHK("countdown: accessed -> ACCESSED", 3, 1001,
		  TP_VMA_SCAN_ACCESSED),
	TP_ST_CHK("countdown: accessed again -> ACCESSED", 4, 1002,
		  TP_VMA_SCAN_ACCESSED),
	TP_ST_CHKX("countdown: 3 -> 2", 5, 1003, TP_ST_VMA_PID_OTHER, 16, 0,
		   false, TP_VMA_SKIP_INACTIVE),
	TP_ST_CHKBAD("countdown: -EINVAL does not count", TP_ST_VMA_EMPTY),
	TP_ST_CHKX("countdown: 2 -> 1", 6, 1004, TP_ST_VMA_PID_OTHER, 16, 0,
		   false, TP_VMA_SKIP_INACTIVE),
	TP_ST_CHKX("countdown: 1 -> 0", 7, 1005, TP_ST_VMA_PID_OTHER, 16, 0,
		   false, TP_VMA_SKIP_INACTIVE),
	TP_ST_CHKX("countdown: 0 -> DISJOINT, 1 in 4", 8, 1006,
		   TP_ST_VMA_PID_OTHER, 16, 0, false, TP_VMA_SCAN_DISJOINT),
	TP_ST_CHKX("countdown: reloaded -> SKIP_INACTIVE", 9, 1007,
		   TP_ST_VMA_PID_OTHER, 16, 0, false, TP_VMA_SKIP_INACTIVE),
	/* Re-initialising the VMA's scan state resets the countdown. */
	TP_ST_INIT(9, 1000),
	TP_ST_CHKX("countdown: reset by init -> DISJOINT", 10, 2000,
		   TP_ST_VMA_PID_OTHER, 16, 0, false, TP_VMA_SCAN_DISJOINT),
	TP_ST_VEND
};

static const struct tp_st_vma_op tp_st_vma_ops_l67_early[] = {
	TP_ST_INIT(7, 0),
	TP_ST_CHK("LINUX67: within the delay -> SKIP_DELAY", 7, 500,
		  TP_VMA_SKIP_DELAY),
	TP_ST_CHK("LINUX67: VMA's first sequence -> EARLY", 7, 1000,
		  TP_VMA_SCAN_EARLY),
	TP_ST_CHK("LINUX67: VMA's second sequence -> EARLY", 8, 1000,
		  TP_VMA_SCAN_EARLY),
	TP_ST_CHK("LINUX67: VMA's third sequence -> SKIP_INACTIVE", 9, 1000,
		  TP_VMA_SKIP_INACTIVE),
	TP_ST_CHKBAD("LINUX67: empty VMA -> -EINVAL", TP_ST_VMA_EMPTY),
	TP_ST_CHKBAD("LINUX67: inverted VMA -> -EINVAL", TP_ST_VMA_INVERTED),
	TP_ST_VEND
};

static const struct tp_st_vma_op tp_st_vma_ops_l67_seq0[] = {
	TP_ST_INIT(0, 0),
	TP_ST_CHK("LINUX67: seq 0 ignores the delay -> EARLY", 0, 0,
		  TP_VMA_SCAN_EARLY),
	TP_ST_CHK("LINUX67: seq 1 honours the delay -> SKIP_DELAY", 1, 999,
		  TP_VMA_SKIP_DELAY),
	TP_ST_VEND
};

static const struct tp_st_vma_op tp_st_vma_ops_l67_reasons[] = {
	TP_ST_INIT(0, 0),
	TP_ST_NOTE(TP_ST_VMA_PID_SCAN),
	TP_ST_CHK("LINUX67: PID bit set -> ACCESSED", 5, 2000,
		  TP_VMA_SCAN_ACCESSED),
	TP_ST_CHKX("LINUX67: other PID -> SKIP_INACTIVE", 5, 2000,
		   TP_ST_VMA_PID_OTHER, 16, 0, false, TP_VMA_SKIP_INACTIVE),
	TP_ST_CHKX("LINUX67: offset > vma start -> PARTIAL", 5, 2000,
		   TP_ST_VMA_PID_OTHER, 16, TP_ST_VMA_BASE + 1, false,
		   TP_VMA_SCAN_PARTIAL),
	TP_ST_CHKX("LINUX67: offset == vma start -> SKIP_INACTIVE", 5, 2000,
		   TP_ST_VMA_PID_OTHER, 16, TP_ST_VMA_BASE, false,
		   TP_VMA_SKIP_INACTIVE),
	TP_ST_CHKX("LINUX67: forced retry pass -> FORCED", 5, 2000,
		   TP_ST_VMA_PID_OTHER, 16, 0, true, TP_VMA_SCAN_FORCED),
	TP_ST_CHKX("LINUX67: forced, PID set -> ACCESSED", 5, 2000,
		   TP_ST_VMA_PID_SCAN, 16, 0, true, TP_VMA_SCAN_ACCESSED),
	TP_ST_DONE(5),
	TP_ST_CHKX("LINUX67: scanned this seq -> SKIP_DONE, even forced", 5,
		   2000, TP_ST_VMA_PID_SCAN, 16, 0, true, TP_VMA_SKIP_DONE),
	TP_ST_CHKX("LINUX67: forced within the delay -> SKIP_DELAY", 6, 1,
		   TP_ST_VMA_PID_OTHER, 16, 0, true, TP_VMA_SKIP_DELAY),
	TP_ST_VEND
};

static const struct tp_st_vma_op tp_st_vma_ops_l67_done[] = {
	TP_ST_INIT(3, 0),
	TP_ST_CHK("SKIP_DONE: a new VMA's first seq is not done", 3, 1000,
		  TP_VMA_SCAN_EARLY),
	TP_ST_DONE(3),
	TP_ST_CHK("SKIP_DONE: done in this seq beats EARLY", 3, 1001,
		  TP_VMA_SKIP_DONE),
	TP_ST_CHK("SKIP_DONE: next seq -> EARLY", 4, 1002, TP_VMA_SCAN_EARLY),
	TP_ST_DONE(4),
	TP_ST_CHK("SKIP_DONE: done again", 4, 1003, TP_VMA_SKIP_DONE),
	TP_ST_CHK("SKIP_DONE: seq 5 -> SKIP_INACTIVE", 5, 1004,
		  TP_VMA_SKIP_INACTIVE),
	TP_ST_VEND
};

static const struct tp_st_vma_op tp_st_vma_ops_l67_starved[] = {
	TP_ST_INIT(0, 0),
	TP_ST_DONE(5),
	TP_ST_CHKX("STARVED: seq 8 == prev 5 + 3 threads -> SKIP_INACTIVE", 8,
		   2000, TP_ST_VMA_PID_OTHER, 3, 0, false,
		   TP_VMA_SKIP_INACTIVE),
	TP_ST_CHKX("STARVED: seq 9 > prev 5 + 3 threads -> STARVED", 9, 2000,
		   TP_ST_VMA_PID_OTHER, 3, 0, false, TP_VMA_SCAN_STARVED),
	TP_ST_CHKX("STARVED: 6 threads -> SKIP_INACTIVE", 9, 2000,
		   TP_ST_VMA_PID_OTHER, 6, 0, false, TP_VMA_SKIP_INACTIVE),
	TP_ST_DONE(9),
	TP_ST_CHKX("STARVED: done -> SKIP_DONE", 9, 2000,
		   TP_ST_VMA_PID_OTHER, 3, 0, false, TP_VMA_SKIP_DONE),
	TP_ST_CHKX("STARVED: seq 12 -> SKIP_INACTIVE", 12, 2000,
		   TP_ST_VMA_PID_OTHER, 3, 0, false, TP_VMA_SKIP_INACTIVE),
	TP_ST_CHKX("STARVED: seq 13 -> STARVED", 13, 2000,
		   TP_ST_VMA_PID_OTHER, 3, 0, false, TP_VMA_SCAN_STARVED),
	TP_ST_VEND
};

/* Sequence numbers wrap at 2^32 (the kernel's int numa_scan_seq). */
static const struct tp_st_vma_op tp_st_vma_ops_l67_starved_wrap[] = {
	TP_ST_INIT(0xfffffff0U, 0),
	TP_ST_DONE(0xfffffffeU),
	TP_ST_CHKX("STARVED wrap: one seq later, prev + 4 wraps (naive: yes)",
		   0xffffffffU, 2000, TP_ST_VMA_PID_OTHER, 4, 0, false,
		   TP_VMA_SKIP_INACTIVE),
	TP_ST_CHKX("STARVED wrap: seq 2 == prev + 4 -> SKIP_INACTIVE", 2,
		   2000, TP_ST_VMA_PID_OTHER, 4, 0, false,
		   TP_VMA_SKIP_INACTIVE),
	TP_ST_CHKX("STARVED wrap: seq 3 > prev + 4 -> STARVED", 3, 2000,
		   TP_ST_VMA_PID_OTHER, 4, 0, false, TP_VMA_SCAN_STARVED),
	TP_ST_VEND
};

/* The VMA's own early phase across the 2^32 wrap of the sequence. */
static const struct tp_st_vma_op tp_st_vma_ops_l67_early_wrap[] = {
	TP_ST_INIT(0xffffffffU, 0),
	TP_ST_CHK("EARLY wrap: start seq 2^32-1", 0xffffffffU, 1000,
		  TP_VMA_SCAN_EARLY),
	TP_ST_CHK("EARLY wrap: seq 0 is the second", 0, 1000,
		  TP_VMA_SCAN_EARLY),
	TP_ST_CHK("EARLY wrap: seq 1 is the third", 1, 1000,
		  TP_VMA_SKIP_INACTIVE),
	TP_ST_VEND
};

/* The new-VMA delay ends just past the 2^64 wrap of the clock. */
static const struct tp_st_vma_op tp_st_vma_ops_l67_delay_wrap[] = {
	TP_ST_INIT(3, ~0ULL - 500),
	TP_ST_CHK("delay wrap: 2^64 - 1 is before 2^64 + 499", 3, ~0ULL,
		  TP_VMA_SKIP_DELAY),
	TP_ST_CHK("delay wrap: 2^64 + 498 is before 2^64 + 499", 3, 498,
		  TP_VMA_SKIP_DELAY),
	TP_ST_CHK("delay wrap: 2^64 + 499 ends the delay", 3, 499,
		  TP_VMA_SCAN_EARLY),
	TP_ST_VEND
};

static const struct tp_st_vma_scn tp_st_vma_scns[] = {
	{ TP_VMA_FILTER_NONE, TP_ST_VMA_4M, tp_st_vma_ops_none },
	{ TP_VMA_FILTER_DISJOINT, TP_ST_VMA_4M, tp_st_vma_ops_dj_early },
	{ TP_VMA_FILTER_DISJOINT, TP_ST_VMA_4M, tp_st_vma_ops_dj_late },
	{ TP_VMA_FILTER_DISJOINT, TP_ST_VMA_4M, tp_st_vma_ops_dj_rotate },
	{ TP_VMA_FILTER_DISJOINT, TP_ST_VMA_4M, tp_st_vma_ops_dj_rotate_wrap },
	{ TP_VMA_FILTER_DISJOINT, TP_ST_VMA_4M, tp_st_vma_ops_dj_rotate0 },
	{ TP_VMA_FILTER_DISJOINT, 4 * TP_ST_VMA_4K,
	  tp_st_vma_ops_dj_countdown },
	{ TP_VMA_FILTER_LINUX67, TP_ST_VMA_4M, tp_st_vma_ops_l67_early },
	{ TP_VMA_FILTER_LINUX67, TP_ST_VMA_4M, tp_st_vma_ops_l67_seq0 },
	{ TP_VMA_FILTER_LINUX67, TP_ST_VMA_4M, tp_st_vma_ops_l67_reasons },
	{ TP_VMA_FILTER_LINUX67, TP_ST_VMA_4M, tp_st_vma_ops_l67_done },
	{ TP_VMA_FILTER_LINUX67, TP_ST_VMA_4M, tp_st_vma_ops_l67_starved },
	{ TP_VMA_FILTER_LINUX67, TP_ST_VMA_4M,
	  tp_st_vma_ops_l67_starved_wrap },
	{ TP_VMA_FILTER_LINUX67, TP_ST_VMA_4M, tp_st_vma_ops_l67_early_wrap },
	{ TP_VMA_FILTER_LINUX67, TP_ST_VMA_4M, tp_st_vma_ops_l67_delay_wrap },
};

static int tp_st_vma_run_scn(struct tp_st *st,
			     const struct tp_st_vma_scn *scn)
{
	unsigned int failed = st->failed;
	const struct tp_st_vma_op *op;
	struct tp_vma_facts f;
	struct tp_vma_profile p;
	struct tp_vma_scan v;
	int ret;

	if (!TP_ST_CHECK(st, tp_st_vma_profile(&p, scn->filter),
			 "vma scenario: profile"))
		return st->failed - failed;
	tp_st_vma_fill(&v, sizeof(v), TP_ST_VMA_FILL);
	for (op = scn->ops; op->op != TP_ST_VMA_END; op++) {
		switch (op->op) {
		case TP_ST_VMA_INIT:
			tp_vma_scan_init(&v, &p, op->seq, op->now);
			break;
		case TP_ST_VMA_NOTE:
			tp_vma_scan_note(&v, op->pid);
			break;
		case TP_ST_VMA_DONE:
			tp_vma_scan_done(&v, op->seq);
			break;
		case TP_ST_VMA_CHECK:
			f = (struct tp_vma_facts) {
				.vma_start = TP_ST_VMA_BASE,
				.vma_end = TP_ST_VMA_BASE + scn->size,
				.scan_offset = op->offset,
				.scan_seq = op->seq,
				.nr_threads = op->nr_threads,
				.pid = op->pid,
				.forced = op->forced,
			};
			if (op->bad == TP_ST_VMA_EMPTY)
				f.vma_end = f.vma_start;
			else if (op->bad == TP_ST_VMA_INVERTED)
				f.vma_end = f.vma_start - TP_ST_VMA_4K;
			ret = tp_vma_scan_check(&v, &p, &f, op->now);
			TP_ST_CHECK(st, ret == op->want, op->name);
			break;
		}
	}
	return st->failed - failed;
}

static int tp_st_vma_scenarios(struct tp_st *st)
{
	unsigned int failed = st->failed;
	size_t i;

	for (i = 0; i < TP_ST_ARRAY_SIZE(tp_st_vma_scns); i++)
		tp_st_vma_run_scn(st, &tp_st_vma_scns[i]);
	return st->failed - failed;
}

#undef TP_ST_INIT
#undef TP_ST_NOTE
#undef TP_ST_DONE
#undef TP_ST_CHKX
#undef TP_ST_CHK
#undef TP_ST_CHKBAD
#undef TP_ST_VEND

#endif /* TP_SELFTEST_VMA_SCENARIOS_H */
