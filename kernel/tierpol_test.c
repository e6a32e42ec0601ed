// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * tierpol_test.c - in-kernel self-test of tierpol, printed as KTAP
 *
 * For kernels built without KUnit (Debian's, among others): loading this
 * module runs every vector file of tests/selftest/ (the tables the CMocka
 * suites run in userspace; Kbuild lists them in tierpol_vectors.h), then
 * the kernel-specific cases of kcases.h (latch and seqcount on the kernel's
 * types, interrupts, several CPUs), against the exports of tierpol.ko. The
 * same cases run under KUnit in tierpol_kunit.c. The output is KTAP:
 *
 *	KTAP version 1
 *	1..N
 *	ok 1 - ring: <case>
 *	# atime: <case>: failed at line 42
 *	not ok 2 - atime: <case>
 *	ok 3 - vma_scan # SKIP not built (TP_ST_SKIP)
 *	...
 *	# Totals: pass:N fail:0 xfail:0 xpass:0 skip:0 error:0
 *
 * The results are kept until every suite has run, so that the plan comes
 * first. Loading fails with -EINVAL if any case failed, a suite ran no case
 * or returned a count that disagrees with its reports.
 */
#include <linux/errno.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/printk.h>
#include <linux/slab.h>

#include "kcases.h"
#include "tierpol_vectors.h"

enum tp_kt_kind { TP_KT_OK, TP_KT_FAIL, TP_KT_SKIP, TP_KT_DIAG };

/* One line of output, kept until the plan is known. */
struct tp_kt_line {
	enum tp_kt_kind kind;
	int line;
	const char *suite;
	const char *name;
	char *diag;
};

static struct {
	struct tp_kt_line *lines;
	unsigned int nr;
	unsigned int cap;
	unsigned int skipped;
	bool nomem;
} tp_kt;

static struct tp_kt_line *tp_kt_add(enum tp_kt_kind kind, const char *suite)
{
	struct tp_kt_line *l;

	if (tp_kt.nr == tp_kt.cap) {
		unsigned int cap = tp_kt.cap ? 2 * tp_kt.cap : 256;

		l = krealloc_array(tp_kt.lines, cap, sizeof(*l), GFP_KERNEL);
		if (!l) {
			tp_kt.nomem = true;
			return NULL;
		}
		tp_kt.lines = l;
		tp_kt.cap = cap;
	}
	l = &tp_kt.lines[tp_kt.nr++];
	*l = (struct tp_kt_line){ .kind = kind, .suite = suite };
	return l;
}

static void tp_kt_report(struct tp_st *st, bool ok, const char *name,
			 int line)
{
	struct tp_kt_line *l = tp_kt_add(ok ? TP_KT_OK : TP_KT_FAIL,
					 st->suite);

	if (l) {
		l->name = name;
		l->line = line;
	}
}

static void tp_kc_diag(struct tp_st *st, const char *fmt, ...)
{
	struct tp_kt_line *l;
	va_list args;

	if (!st->report)
		return;
	l = tp_kt_add(TP_KT_DIAG, st->suite);
	if (!l)
		return;
	va_start(args, fmt);
	l->diag = kvasprintf(GFP_KERNEL, fmt, args);
	va_end(args);
}

#define TP_KT_RUN(n)	{ #n, tp_st_##n },
#define TP_KT_SKIP(n)	{ #n, NULL },

/* The vector files, then the kernel cases. */
static const struct tp_kc_suite tp_kt_vectors[] = {
	TP_ST_VECTORS(TP_KT_RUN)
	TP_ST_SKIPPED(TP_KT_SKIP)
};

/*
 * Runs @n suites; returns the number of problems outside the cases (a
 * suite that ran none, or returned a count that disagrees with its reports).
 */
static unsigned int tp_kt_run(struct tp_st *st, const struct tp_kc_suite *s,
			      unsigned int n)
{
	unsigned int i, run, failed, errors = 0;
	int ret;

	for (i = 0; i < n; i++) {
		st->suite = s[i].name;
		if (!s[i].run) {
			st->run++;
			tp_kt.skipped++;
			tp_kt_add(TP_KT_SKIP, st->suite);
			continue;
		}
		run = st->run;
		failed = st->failed;
		ret = s[i].run(st);
		if (st->run == run) {
			tp_kc_diag(st, "%s: ran no case\n", st->suite);
			errors++;
		}
		if (ret < 0 || (unsigned int)ret != st->failed - failed) {
			tp_kc_diag(st, "%s: returned %d, %u cases failed\n",
				   st->suite, ret, st->failed - failed);
			errors++;
		}
	}
	return errors;
}

static void tp_kt_print(unsigned int plan)
{
	const struct tp_kt_line *l;
	unsigned int i, n = 0;

	pr_info("KTAP version 1\n");
	pr_info("1..%u\n", plan);
	for (i = 0; i < tp_kt.nr; i++) {
		l = &tp_kt.lines[i];
		switch (l->kind) {
		case TP_KT_DIAG:
			if (l->diag)
				pr_info("# %s", l->diag);
			break;
		case TP_KT_SKIP:
			pr_info("ok %u - %s # SKIP not built (TP_ST_SKIP)\n",
				++n, l->suite);
			break;
		case TP_KT_FAIL:
			pr_info("# %s: %s: failed at line %d\n", l->suite,
				l->name, l->line);
			fallthrough;
		case TP_KT_OK:
			pr_info("%sok %u - %s: %s\n",
				l->kind == TP_KT_OK ? "" : "not ", ++n,
				l->suite, l->name);
			break;
		}
	}
}

static void tp_kt_free(void)
{
	unsigned int i;

	for (i = 0; i < tp_kt.nr; i++)
		kfree(tp_kt.lines[i].diag);
	kfree(tp_kt.lines);
	tp_kt.lines = NULL;
	tp_kt.nr = 0;
	tp_kt.cap = 0;
}

static int __init tierpol_test_init(void)
{
	struct tp_st st = { .report = tp_kt_report };
	unsigned int errors, pass;

	errors = tp_kt_run(&st, tp_kt_vectors, ARRAY_SIZE(tp_kt_vectors)) +
		 tp_kt_run(&st, tp_kc_suites, ARRAY_SIZE(tp_kc_suites));
	if (tp_kt.nomem) {
		pr_err("tierpol_test: out of memory for the results\n");
		tp_kt_free();
		return -ENOMEM;
	}
	tp_kt_print(st.run);
	pass = st.run - st.failed - tp_kt.skipped;
	pr_info("# tierpol_test: %u of %u cases passed, %u skipped, %u errors\n",
		pass, st.run, tp_kt.skipped, errors);
	pr_info("# Totals: pass:%u fail:%u xfail:0 xpass:0 skip:%u error:%u\n",
		pass, st.failed, tp_kt.skipped, errors);
	tp_kt_free();

	return st.failed || errors ? -EINVAL : 0;
}

static void __exit tierpol_test_exit(void)
{
}

module_init(tierpol_test_init);
module_exit(tierpol_test_exit);

MODULE_LICENSE("Dual BSD/GPL");
MODULE_DESCRIPTION("tierpol: in-kernel self-test (KTAP)");
MODULE_IMPORT_NS(TP_NS);
