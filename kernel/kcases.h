/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The kernel-specific cases of tierpol's tests, beside the shared vectors of
 * tests/selftest/: each kcase_<name>.h defines "int tp_kc_<name>(struct
 * tp_st *st)", which reports its cases through TP_ST_CHECK() and returns
 * the number that failed, as the vectors' tp_st_<name>() do. Both runners,
 * tierpol_test.c (KTAP, for kernels without KUnit) and tierpol_kunit.c
 * (KUnit), include this header and run tp_kc_suites[] after the vectors.
 *
 * A runner defines tp_kc_diag(): a diagnostic line (KTAP "# ...") that the
 * cases print when @st has a reporter, i.e. when someone reads the results.
 */
#ifndef TP_KCASES_H
#define TP_KCASES_H

#include <linux/compiler.h>

#include "selftest/selftest.h"

static __printf(2, 3) void tp_kc_diag(struct tp_st *st, const char *fmt, ...);

#include "kcase_prim.h"
#include "kcase_irq.h"
#include "kcase_smp.h"

/**
 * struct tp_kc_suite - a group of cases
 * @name: its name, the prefix of its cases' names
 * @run: runs the cases, returns how many failed; NULL: not built, skipped
 */
struct tp_kc_suite {
	const char *name;
	int (*run)(struct tp_st *st);
};

/* prim: one CPU, no concurrency; irq: hard interrupts; smp: kthreads. */
static const struct tp_kc_suite tp_kc_suites[] = {
	{ "prim", tp_kc_prim },
	{ "irq", tp_kc_irq },
	{ "smp", tp_kc_smp },
};

#endif /* TP_KCASES_H */
