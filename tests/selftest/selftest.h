/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Shared self-test vectors: one set of table-driven checks that runs both in
 * the CMocka suites (userspace) and in the kernel's tierpol_test.ko. Files in
 * tests/selftest/ may use only the public tierpol API and this header: no
 * libc, no CMocka, no floating point, no VLAs, no 64-bit division.
 *
 * Each component provides "int tp_st_<component>(struct tp_st *st)" that
 * runs its vectors, reporting every case through TP_ST_CHECK(), and returns
 * the number of failed cases.
 */
#ifndef TP_SELFTEST_H
#define TP_SELFTEST_H

#include <tierpol/tierpol.h>

#ifndef __KERNEL__
/*
 * NULL, size_t and offsetof(), which the kernel's <linux/types.h> brings
 * and the public headers do not (a freestanding header: no libc).
 */
#include <stddef.h>

/*
 * The kernel's fixed-width names, for the tests only: the public headers
 * use <stdint.h>'s and define none of these.
 */
typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t s32;
typedef int64_t s64;
#endif

/**
 * struct tp_st - a self-test run
 * @run: cases run so far
 * @failed: cases failed so far
 * @suite: name of the running suite (the component)
 * @report: called for every case; may be NULL
 * @priv: for the reporter
 */
struct tp_st {
	unsigned int run;
	unsigned int failed;
	const char *suite;
	void (*report)(struct tp_st *st, bool ok, const char *name, int line);
	void *priv;
};

static inline bool tp_st_report(struct tp_st *st, bool ok, const char *name,
				int line)
{
	st->run++;
	if (!ok)
		st->failed++;
	if (st->report)
		st->report(st, ok, name, line);
	return ok;
}

/* Report one case: @name is a string literal or a table row's name. */
#define TP_ST_CHECK(st, cond, name) \
	tp_st_report((st), !!(cond), (name), __LINE__)

#define TP_ST_ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#endif /* TP_SELFTEST_H */
