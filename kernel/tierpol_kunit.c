// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * tierpol_kunit.c - tierpol's tests under KUnit
 *
 * One KUnit case per vector file of tests/selftest/ (the tables the CMocka
 * suites run in userspace; Kbuild lists them in tierpol_vectors.h, so a new
 * file becomes a new case without an edit here), then one case with a
 * parameter per group of kernel-specific cases of kcases.h. A failed vector is reported with its
 * name and line; a case also fails when its file ran no vector or returned
 * a count that disagrees with its reports. tierpol_test.c runs the same
 * cases as KTAP for kernels without KUnit.
 *
 * Run it on UML from the repository: make kunit (docs/kernel.md), or in a
 * kernel tree with tierpol as lib/tierpol/:
 *
 *	./tools/testing/kunit/kunit.py run --kunitconfig=lib/tierpol/kernel
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/string.h>

#include "kcases.h"
#include "tierpol_vectors.h"

static void tp_ku_report(struct tp_st *st, bool ok, const char *name,
			 int line)
{
	struct kunit *test = st->priv;

	if (!ok)
		KUNIT_FAIL(test, "%s: %s: failed at line %d", st->suite, name,
			   line);
}

static void tp_kc_diag(struct tp_st *st, const char *fmt, ...)
{
	struct kunit *test = st->priv;
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	kunit_info(test, "%pV", &vaf);
	va_end(args);
}

static void tp_ku_run(struct kunit *test, const char *suite,
		      int (*run)(struct tp_st *st))
{
	struct tp_st st = { .suite = suite, .report = tp_ku_report,
			    .priv = test };
	int ret = run(&st);

	KUNIT_EXPECT_GT_MSG(test, st.run, 0U, "%s ran no case", suite);
	KUNIT_EXPECT_EQ_MSG(test, ret, (int)st.failed,
			    "%s returned %d, %u cases failed", suite, ret,
			    st.failed);
	kunit_info(test, "%s: %u of %u cases passed\n", suite,
		   st.run - st.failed, st.run);
}

/* One case per vector file, so that a skipped file shows as skipped. */
#define TP_KU_RUN(n)							\
static void tp_ku_##n(struct kunit *test)				\
{									\
	tp_ku_run(test, #n, tp_st_##n);					\
}

#define TP_KU_SKIP(n)							\
static void tp_ku_##n(struct kunit *test)				\
{									\
	kunit_skip(test, "not built (TP_ST_SKIP)");			\
}

TP_ST_VECTORS(TP_KU_RUN)
TP_ST_SKIPPED(TP_KU_SKIP)

/* The kernel cases: one parameterised case, a parameter per group. */
static void tp_ku_kernel(struct kunit *test)
{
	const struct tp_kc_suite *s = test->param_value;

	tp_ku_run(test, s->name, s->run);
}

static void tp_ku_kernel_desc(const struct tp_kc_suite *s, char *desc)
{
	strscpy(desc, s->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(tp_ku_kernel, tp_kc_suites, tp_ku_kernel_desc);

#define TP_KU_CASE(n)	KUNIT_CASE(tp_ku_##n),

static struct kunit_case tp_ku_cases[] = {
	TP_ST_VECTORS(TP_KU_CASE)
	TP_ST_SKIPPED(TP_KU_CASE)
	KUNIT_CASE_PARAM(tp_ku_kernel, tp_ku_kernel_gen_params),
	{}
};

static struct kunit_suite tp_ku_suite = {
	.name = "tierpol",
	.test_cases = tp_ku_cases,
};

kunit_test_suite(tp_ku_suite);

MODULE_LICENSE("Dual BSD/GPL");
MODULE_DESCRIPTION("tierpol: KUnit tests");
MODULE_IMPORT_NS(TP_NS);
