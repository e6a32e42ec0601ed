/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Helpers of the VMA scan rate limiter's tests (test_vma_scan.c,
 * test_vma_scan_filters.c): a profile that must be accepted and one check
 * of a VMA described by the fields that differ from a 4 MiB VMA of the
 * scanning task with 16 threads. Include after cmocka.h and
 * <tierpol/vma_scan.h>.
 */
#ifndef TP_TP_TEST_VMA_H
#define TP_TP_TEST_VMA_H

#include <stdbool.h>
#include "selftest/selftest.h"

#define KiB		1024ULL
#define MiB		(1024 * KiB)
#define GiB		(1024 * MiB)
#define BASE		0x7f0000000000ULL
#define PID_A		2001U	/* the scanning task, hash bit 20 */
#define PID_B		1001U	/* another task, hash bit 22 */

/* ---- helpers ------------------------------------------------------------ */

static inline struct tp_vma_profile profile(u32 filter)
{
	struct tp_vma_profile_cfg cfg = {
		.sz = sizeof(cfg), .filter = filter, .tps = 1000,
	};
	struct tp_vma_profile p;

	assert_int_equal(tp_vma_profile_init(&p, &cfg), 0);
	assert_true(p.scan_delay == 1000);
	return p;
}

/* Zero fields select: a 4 MiB VMA, the scanning task, 16 threads. */
struct chk {
	u64 size;
	u32 pid;
	u32 nr_threads;
	u64 offset;
	bool forced;
};

#define CHK(...) (&(struct chk){ __VA_ARGS__ })

static inline int check(struct tp_vma_scan *v, const struct tp_vma_profile *p,
		 u32 seq, u64 now, const struct chk *c)
{
	struct tp_vma_facts f = {
		.vma_start = BASE,
		.vma_end = BASE + (c->size ? c->size : 4 * MiB),
		.scan_offset = c->offset,
		.scan_seq = seq,
		.nr_threads = c->nr_threads ? c->nr_threads : 16,
		.pid = c->pid ? c->pid : PID_A,
		.forced = c->forced,
	};

	return tp_vma_scan_check(v, p, &f, now);
}

#endif /* TP_TP_TEST_VMA_H */
