/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Self-test vectors: VMA scan rate limiter (the 2023 disjoint-VMA RFC's
 * countdown on Linux 6.5, and Linux 6.7+ vma_is_accessed()).
 *
 * Shared by tests/test_vma_scan.c and the kernel's self-test module: only
 * the public tierpol API and selftest.h, no libc, no 64-bit division.
 *
 * Every scripted scenario uses a clock of 1000 ticks per second and the
 * default scan delay, so a VMA initialised at time T may be scanned from
 * T + 1000 on and its access windows rotate after T + 5000, T + 9000, ...
 *
 * This file has the profile, size-field, rate-limit-formula and PID-hash
 * tables, the disjoint-VMA RFC's countdown period and its disjoint VMA
 * sets; vma_scenarios.h has the scripted verdicts. tp_st_vma_scan() runs
 * them all.
 */
#ifndef TP_SELFTEST_VMA_SCAN_H
#define TP_SELFTEST_VMA_SCAN_H

#include "selftest.h"

#ifndef EINVAL
#define EINVAL		22
#endif
#ifndef ERANGE
#define ERANGE		34
#endif

#define TP_ST_VMA_FILL		0x3c
#define TP_ST_VMA_4K		0x1000ULL
#define TP_ST_VMA_4M		0x400000ULL
#define TP_ST_VMA_4G		0x100000000ULL
#define TP_ST_VMA_BASE		0x7f0000000000ULL

/* The scanning task and a task of another thread group. */
#define TP_ST_VMA_PID_SCAN	2001	/* hash bit 20 */
#define TP_ST_VMA_PID_OTHER	1001	/* hash bit 22 */

static void tp_st_vma_fill(void *p, size_t n, u8 pat)
{
	u8 *b = p;
	size_t i;

	for (i = 0; i < n; i++)
		b[i] = pat;
}

static bool tp_st_vma_is_filled(const void *p, size_t n, u8 pat)
{
	const u8 *b = p;
	size_t i;

	for (i = 0; i < n; i++)
		if (b[i] != pat)
			return false;
	return true;
}

/* A profile of @filter on the scenarios' clock, with the default delay. */
static bool tp_st_vma_profile(struct tp_vma_profile *p, u32 filter)
{
	struct tp_vma_profile_cfg cfg = {
		.sz = sizeof(cfg), .filter = filter, .tps = 1000,
	};

	return !tp_vma_profile_init(p, &cfg);
}

/* ---- profile validation ---------------------------------------------- */

struct tp_st_vma_prof_row {
	const char *name;
	bool null_p;
	bool null_cfg;
	u32 filter;
	u32 tps;
	u64 delay;
	int ret;
	u64 want_delay;		/* on success; reset period is 4 x */
};

static const struct tp_st_vma_prof_row tp_st_vma_prof_rows[] = {
	{ "vma profile: NULL profile", true, false, TP_VMA_FILTER_DISJOINT,
	  1000, 0, -EINVAL, 0 },
	{ "vma profile: NULL cfg", false, true, TP_VMA_FILTER_DISJOINT, 1000, 0,
	  -EINVAL, 0 },
	{ "vma profile: filter 4 rejected", false, false, 4, 1000, 0,
	  -EINVAL, 0 },
	{ "vma profile: filter 2^32-1 rejected", false, false, 0xffffffffU,
	  1000, 0, -EINVAL, 0 },
	{ "vma profile: tps 0 rejected", false, false, TP_VMA_FILTER_NONE, 0,
	  0, -EINVAL, 0 },
	{ "vma profile: tps max + 1 rejected", false, false,
	  TP_VMA_FILTER_DISJOINT, TP_TPS_MAX + 1, 0, -EINVAL, 0 },
	{ "vma profile: tps 2^32-1 rejected", false, false,
	  TP_VMA_FILTER_DISJOINT, 0xffffffffU, 0, -EINVAL, 0 },
	{ "vma profile: delay above TP_TIME_MAX / 4 rejected", false, false,
	  TP_VMA_FILTER_LINUX67, 1000, TP_TIME_MAX / 4 + 1, -ERANGE, 0 },
	{ "vma profile: delay 2^64-1 rejected", false, false,
	  TP_VMA_FILTER_LINUX67, 1000, ~0ULL, -ERANGE, 0 },
	{ "vma profile: NONE, ms: default delay 1000", false, false,
	  TP_VMA_FILTER_NONE, 1000, 0, 0, 1000 },
	{ "vma profile: DISJOINT, ms: default delay 1000", false, false,
	  TP_VMA_FILTER_DISJOINT, 1000, 0, 0, 1000 },
	{ "vma profile: LINUX67, HZ=250: default delay 250 jiffies", false,
	  false, TP_VMA_FILTER_LINUX67, 250, 0, 0, 250 },
	{ "vma profile: ns: default delay 1e9", false, false,
	  TP_VMA_FILTER_DISJOINT, 1000000000U, 0, 0, 1000000000ULL },
	{ "vma profile: tps 1: default delay 1", false, false,
	  TP_VMA_FILTER_DISJOINT, 1, 0, 0, 1 },
	{ "vma profile: tps max: default delay 2^30", false, false,
	  TP_VMA_FILTER_DISJOINT, TP_TPS_MAX, 0, 0, TP_TPS_MAX },
	{ "vma profile: explicit delay 7", false, false, TP_VMA_FILTER_DISJOINT,
	  1000, 7, 0, 7 },
	{ "vma profile: delay TP_TIME_MAX / 4 accepted", false, false,
	  TP_VMA_FILTER_LINUX67, 1000, TP_TIME_MAX / 4, 0, TP_TIME_MAX / 4 },
};

static bool tp_st_vma_prof_one(const struct tp_st_vma_prof_row *row)
{
	struct tp_vma_profile_cfg cfg = { .sz = sizeof(cfg),
					  .filter = row->filter,
					  .tps = row->tps,
					  .scan_delay = row->delay };
	struct tp_vma_profile p;
	int ret;

	tp_st_vma_fill(&p, sizeof(p), TP_ST_VMA_FILL);
	ret = tp_vma_profile_init(row->null_p ? NULL : &p,
				  row->null_cfg ? NULL : &cfg);
	if (ret != row->ret)
		return false;
	if (ret)
		return tp_st_vma_is_filled(&p, sizeof(p), TP_ST_VMA_FILL);
	return p.filter == row->filter && p.scan_delay == row->want_delay &&
	       p.reset_period == 4 * row->want_delay;
}

static int tp_st_vma_prof_table(struct tp_st *st)
{
	unsigned int failed = st->failed;
	size_t i;

	for (i = 0; i < TP_ST_ARRAY_SIZE(tp_st_vma_prof_rows); i++)
		TP_ST_CHECK(st, tp_st_vma_prof_one(&tp_st_vma_prof_rows[i]),
			    tp_st_vma_prof_rows[i].name);
	return st->failed - failed;
}

/* ---- the size field (libbpf style) --------------------------------------- */

/* A configuration from a newer header: unknown bytes must be zero. */
static struct {
	struct tp_vma_profile_cfg cfg;
	u64 tail[2];
} tp_st_vma_big;

struct tp_st_vma_sz_row {
	const char *name;
	u32 sz;
	u64 tail;	/* the last unknown word */
	int ret;
};

static const struct tp_st_vma_sz_row tp_st_vma_sz_rows[] = {
	{ "vma sz: 0 rejected", 0, 0, -EINVAL },
	{ "vma sz: without scan_delay rejected",
	  (u32)offsetof(struct tp_vma_profile_cfg, scan_delay), 0, -EINVAL },
	{ "vma sz: one byte short rejected",
	  sizeof(struct tp_vma_profile_cfg) - 1, 0, -EINVAL },
	{ "vma sz: exact", sizeof(struct tp_vma_profile_cfg), 0, 0 },
	{ "vma sz: exact, bytes beyond it ignored",
	  sizeof(struct tp_vma_profile_cfg), ~0ULL, 0 },
	{ "vma sz: newer header, zero tail", sizeof(tp_st_vma_big), 0, 0 },
	{ "vma sz: newer header, non-zero tail rejected",
	  sizeof(tp_st_vma_big), 1ULL << 63, -EINVAL },
	{ "vma sz: above 4096 rejected", 4097, 0, -EINVAL },
};

static bool tp_st_vma_sz_one(const struct tp_st_vma_sz_row *row)
{
	struct tp_vma_profile p;
	int ret;

	tp_st_vma_fill(&tp_st_vma_big, sizeof(tp_st_vma_big), 0);
	tp_st_vma_big.cfg.sz = row->sz;
	tp_st_vma_big.cfg.filter = TP_VMA_FILTER_LINUX67;
	tp_st_vma_big.cfg.tps = 1000;
	tp_st_vma_big.cfg.scan_delay = 77;
	tp_st_vma_big.tail[1] = row->tail;
	tp_st_vma_fill(&p, sizeof(p), TP_ST_VMA_FILL);
	ret = tp_vma_profile_init(&p, &tp_st_vma_big.cfg);
	if (ret != row->ret)
		return false;
	if (ret)
		return tp_st_vma_is_filled(&p, sizeof(p), TP_ST_VMA_FILL);
	return p.filter == TP_VMA_FILTER_LINUX67 && p.scan_delay == 77 &&
	       p.reset_period == 308;
}

static int tp_st_vma_sz_table(struct tp_st *st)
{
	unsigned int failed = st->failed;
	size_t i;

	for (i = 0; i < TP_ST_ARRAY_SIZE(tp_st_vma_sz_rows); i++)
		TP_ST_CHECK(st, tp_st_vma_sz_one(&tp_st_vma_sz_rows[i]),
			    tp_st_vma_sz_rows[i].name);
	return st->failed - failed;
}

/* ---- the disjoint-VMA RFC's rate limit formula ----------------------- */

struct tp_st_vma_rl_row {
	const char *name;
	u64 size;
	u32 ratelimit;
};

static const struct tp_st_vma_rl_row tp_st_vma_rl_rows[] = {
	{ "ratelimit: size 0 -> 1 (the RFC's guard)", 0, 1 },
	{ "ratelimit: 1 byte -> 1 + (4M >> 7)", 1, 32769 },
	{ "ratelimit: 2 KiB -> 17", 0x800, 17 },
	{ "ratelimit: 4 KiB - 1 -> 9", TP_ST_VMA_4K - 1, 9 },
	{ "ratelimit: 4 KiB -> 9", TP_ST_VMA_4K, 9 },
	{ "ratelimit: 4 KiB + 1 -> 8", TP_ST_VMA_4K + 1, 8 },
	{ "ratelimit: 8 KiB -> 5", 2 * TP_ST_VMA_4K, 5 },
	{ "ratelimit: 16 KiB -> 3", 4 * TP_ST_VMA_4K, 3 },
	{ "ratelimit: 32 KiB -> 2", 8 * TP_ST_VMA_4K, 2 },
	{ "ratelimit: 32 KiB + 1 -> 1", 8 * TP_ST_VMA_4K + 1, 1 },
	{ "ratelimit: 4 MiB -> 1", TP_ST_VMA_4M, 1 },
	{ "ratelimit: 4 GiB -> 1", TP_ST_VMA_4G, 1 },
	{ "ratelimit: 4 GiB + 4 KiB -> 1 (the RFC's u32: 9)",
	  TP_ST_VMA_4G + TP_ST_VMA_4K, 1 },
	{ "ratelimit: 4 GiB + 16 KiB -> 1 (the RFC's u32: 3)",
	  TP_ST_VMA_4G + 4 * TP_ST_VMA_4K, 1 },
	{ "ratelimit: 2^64 - 1 -> 1", ~0ULL, 1 },
};

static int tp_st_vma_rl_table(struct tp_st *st)
{
	unsigned int failed = st->failed;
	const struct tp_st_vma_rl_row *row;
	size_t i;

	for (i = 0; i < TP_ST_ARRAY_SIZE(tp_st_vma_rl_rows); i++) {
		row = &tp_st_vma_rl_rows[i];
		TP_ST_CHECK(st, tp_vma_scan_ratelimit(row->size) ==
			    row->ratelimit, row->name);
	}
	return st->failed - failed;
}

/* ---- PID hash: hash_32(pid, 6) = (pid * 0x61C88647) >> 26 ------------ */

struct tp_st_vma_pid_row {
	const char *name;
	u32 pid;
	u32 bit;
};

static const struct tp_st_vma_pid_row tp_st_vma_pid_rows[] = {
	{ "pid bit: 0", 0, 0 },
	{ "pid bit: 1", 1, 24 },
	{ "pid bit: 2", 2, 48 },
	{ "pid bit: 42", 42, 2 },
	{ "pid bit: 1000", 1000, 61 },
	{ "pid bit: 1001", 1001, 22 },
	{ "pid bit: 2001", 2001, 20 },
	{ "pid bit: 4096", 4096, 34 },
	{ "pid bit: 12345", 12345, 23 },
	{ "pid bit: 32768", 32768, 16 },
	{ "pid bit: 4194304 (pid_max)", 4194304, 36 },
	{ "pid bit: 2^32-1", 0xffffffffU, 39 },
};

static int tp_st_vma_pid_table(struct tp_st *st)
{
	unsigned int failed = st->failed;
	size_t i;

	for (i = 0; i < TP_ST_ARRAY_SIZE(tp_st_vma_pid_rows); i++)
		TP_ST_CHECK(st, tp_vma_pid_bit(tp_st_vma_pid_rows[i].pid) ==
			    tp_st_vma_pid_rows[i].bit,
			    tp_st_vma_pid_rows[i].name);
	return st->failed - failed;
}

/* ---- the disjoint-VMA RFC's countdown period ------------------------- */

/*
 * A VMA that the scanning task never accessed, checked once per sequence
 * from seq 2 on: DISJOINT exactly on checks 1, 1 + period, 1 + 2 * period,
 * ... and SKIP_INACTIVE otherwise, with period = ratelimit + 1: the RFC's
 * code, not its "1 in 9" comment.
 */
struct tp_st_vma_period_row {
	const char *name;
	u64 size;
	u32 period;
	u32 checks;
};

static const struct tp_st_vma_period_row tp_st_vma_period_rows[] = {
	{ "period: 4 KiB: checks 1, 11, 21 (1 in 10)", TP_ST_VMA_4K, 10,
	  30 },
	{ "period: 16 KiB: 1 in 4", 4 * TP_ST_VMA_4K, 4, 20 },
	{ "period: 32 KiB: 1 in 3", 8 * TP_ST_VMA_4K, 3, 20 },
	{ "period: 4 MiB: checks 1, 3, 5 (1 in 2)", TP_ST_VMA_4M, 2, 20 },
	{ "period: 4 GiB + 4 KiB: 1 in 2, not 1 in 10",
	  TP_ST_VMA_4G + TP_ST_VMA_4K, 2, 20 },
	{ "period: 1 byte: 1 in 32770", 1, 32770, 32771 },
};

static bool tp_st_vma_period_one(const struct tp_st_vma_period_row *row)
{
	struct tp_vma_facts f = {
		.vma_start = TP_ST_VMA_BASE,
		.vma_end = TP_ST_VMA_BASE + row->size,
		.nr_threads = 16,
		.pid = TP_ST_VMA_PID_SCAN,
	};
	struct tp_vma_profile p;
	struct tp_vma_scan v;
	u32 i, next = 1;
	int want;

	if (!tp_st_vma_profile(&p, TP_VMA_FILTER_DISJOINT))
		return false;
	tp_vma_scan_init(&v, &p, 2, 0);
	tp_vma_scan_note(&v, TP_ST_VMA_PID_OTHER);
	for (i = 1; i <= row->checks; i++) {
		f.scan_seq = 1 + i;
		want = TP_VMA_SKIP_INACTIVE;
		if (i == next) {
			want = TP_VMA_SCAN_DISJOINT;
			next += row->period;
		}
		if (tp_vma_scan_check(&v, &p, &f, 1000 + i) != want)
			return false;
	}
	return true;
}

static int tp_st_vma_period_table(struct tp_st *st)
{
	unsigned int failed = st->failed;
	size_t i;

	for (i = 0; i < TP_ST_ARRAY_SIZE(tp_st_vma_period_rows); i++)
		TP_ST_CHECK(st,
			    tp_st_vma_period_one(&tp_st_vma_period_rows[i]),
			    tp_st_vma_period_rows[i].name);
	return st->failed - failed;
}

/* ---- the disjoint-VMA RFC's disjoint VMA sets ------------------------ */

/*
 * Four threads: group 1 (PIDs 1001, 1002) touches only VMA x, group 2 (PIDs
 * 2001, 2002) only VMA y, and only group 2 gets to run the scanner. Without
 * a fallback, 6.5's PID filter never scans x after the first two sequences.
 * With the disjoint-VMA RFC x is scanned by the countdown (8 MiB: every
 * 2nd sequence); with Linux 6.7 it is scanned when starved (every
 * nr_threads + 1 = 5th sequence). y is scanned in every sequence by both.
 */
#define TP_ST_VMA_DJ_SEQS	40

static bool tp_st_vma_disjoint_want(u32 filter, u32 s)
{
	if (s < 2)
		return true;
	if (filter == TP_VMA_FILTER_DISJOINT)
		return !(s & 1);
	/* Done in seq 1: starved at 6, then 5 sequences after each scan. */
	return s >= 6 && (s - 1) % 5 == 0;
}

static bool tp_st_vma_disjoint_one(u32 filter)
{
	static const u32 g1[] = { 1001, 1002 };
	static const u32 g2[] = { 2001, 2002 };
	int want_x = filter == TP_VMA_FILTER_DISJOINT ? TP_VMA_SCAN_DISJOINT :
						     TP_VMA_SCAN_STARVED;
	struct tp_vma_scan x, y;
	struct tp_vma_facts fx = {
		.vma_start = TP_ST_VMA_BASE,
		.vma_end = TP_ST_VMA_BASE + 2 * TP_ST_VMA_4M,
		.nr_threads = 4,
	};
	struct tp_vma_facts fy = {
		.vma_start = TP_ST_VMA_BASE + 4 * TP_ST_VMA_4M,
		.vma_end = TP_ST_VMA_BASE + 8 * TP_ST_VMA_4M,
		.nr_threads = 4,
	};
	struct tp_vma_profile p;
	u64 now;
	u32 s;
	int vx, vy;

	if (!tp_st_vma_profile(&p, filter))
		return false;
	tp_vma_scan_init(&x, &p, 0, 0);
	tp_vma_scan_init(&y, &p, 0, 0);
	for (s = 0; s < TP_ST_VMA_DJ_SEQS; s++) {
		now = 1000 * (u64)(s + 1);
		tp_vma_scan_note(&x, g1[s & 1]);
		tp_vma_scan_note(&y, g2[s & 1]);
		fx.scan_seq = s;
		fy.scan_seq = s;
		fx.pid = g2[(s >> 1) & 1];
		fy.pid = fx.pid;
		vx = tp_vma_scan_check(&x, &p, &fx, now);
		vy = tp_vma_scan_check(&y, &p, &fy, now);
		if (vy != (s < 2 ? TP_VMA_SCAN_EARLY : TP_VMA_SCAN_ACCESSED))
			return false;
		tp_vma_scan_done(&y, s);
		if (tp_vma_verdict_scans(vx) !=
		    tp_st_vma_disjoint_want(filter, s))
			return false;
		if (tp_vma_verdict_scans(vx)) {
			/* Only the fallback ever lets group 2 scan x. */
			if (vx != (s < 2 ? TP_VMA_SCAN_EARLY : want_x))
				return false;
			tp_vma_scan_done(&x, s);
		} else if (vx != TP_VMA_SKIP_INACTIVE) {
			return false;
		}
	}
	return true;
}

static int tp_st_vma_disjoint(struct tp_st *st)
{
	unsigned int failed = st->failed;

	TP_ST_CHECK(st, tp_st_vma_disjoint_one(TP_VMA_FILTER_DISJOINT),
		    "disjoint VMAs: DISJOINT scans x by the countdown");
	TP_ST_CHECK(st, tp_st_vma_disjoint_one(TP_VMA_FILTER_LINUX67),
		    "disjoint VMAs: LINUX67 scans x when starved");
	return st->failed - failed;
}

static int tp_st_vma_scenarios(struct tp_st *st);

static int tp_st_vma_scan(struct tp_st *st)
{
	unsigned int failed = st->failed;

	tp_st_vma_prof_table(st);
	tp_st_vma_sz_table(st);
	tp_st_vma_rl_table(st);
	tp_st_vma_pid_table(st);
	tp_st_vma_scenarios(st);
	tp_st_vma_period_table(st);
	tp_st_vma_disjoint(st);
	return st->failed - failed;
}

#include "vma_scenarios.h"

#endif /* TP_SELFTEST_VMA_SCAN_H */
