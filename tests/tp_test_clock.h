/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The multi-threaded CMocka suites' run lengths (userspace only). Include
 * after <time.h> and a selftest header (for the u64 names).
 */
#ifndef TP_TEST_CLOCK_H
#define TP_TEST_CLOCK_H

/* Monotonic wall time in nanoseconds. */
static inline u64 test_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + (u64)ts.tv_nsec;
}

/*
 * Is a run that started at @t0 over? Past @soft_ns once it has done what
 * its checks need (@enough), past @hard_ns in any case (then those checks
 * fail): a slow or busy machine takes longer, it does not fail.
 */
static inline bool test_run_over(u64 t0, u64 soft_ns, u64 hard_ns,
				 bool enough)
{
	u64 el = test_now_ns() - t0;

	return el > hard_ns || (el > soft_ns && enough);
}

#endif /* TP_TEST_CLOCK_H */
