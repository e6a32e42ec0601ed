/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Running the shared self-test vectors (tests/selftest/) as CMocka tests:
 * every failed case is printed with its file and line, and the test fails
 * unless every case ran and passed.
 */
#ifndef TP_ST_CMOCKA_H
#define TP_ST_CMOCKA_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "selftest/selftest.h"

/* The vectors' file, for the failure lines: define it before including. */
#ifndef ST_VECTORS
#define ST_VECTORS	"tests/selftest"
#endif

static void st_report(struct tp_st *st, bool ok, const char *name, int line)
{
	if (!ok)
		print_error("%s: FAILED: %s (%s:%d)\n", st->suite, name,
			    ST_VECTORS, line);
}

static inline void st_run(int (*fn)(struct tp_st *), const char *suite)
{
	struct tp_st st = { .suite = suite, .report = st_report };
	int failed = fn(&st);

	print_message("%s: %u cases, %u failed\n", suite, st.run, st.failed);
	assert_true(st.run > 0);
	assert_int_equal(failed, 0);
	assert_int_equal(st.failed, 0);
}

#endif /* TP_ST_CMOCKA_H */
