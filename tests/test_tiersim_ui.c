// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * tiersim's user interface: the option table (every field option once,
 * a default or a meaning of 0 for each, consistent ranges), --help from
 * it, the warnings read from results, and the plot's axes and buckets
 * (the policy grammar's checks: test_tiersim_policy.c). tests/tiersim_cli.sh
 * runs the program itself (exit status, exact messages); these check the
 * parts.
 *
 * It links the program's objects, main.c's excepted, as test_tiersim.c
 * does.
 */
#define _GNU_SOURCE
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "../examples/tiersim/cli.h"
#include "../examples/tiersim/plot_int.h"
#include "../examples/tiersim/sim_int.h"
#include "../examples/tiersim/svg.h"
#include "tiersim_test.h"

/* ---- the option table ------------------------------------------------------ */

static void test_opt_table(void **state)
{
	int cost[C_NR] = { 0 }, kern[K_NR] = { 0 }, wlf[W_NR] = { 0 };
	unsigned int i, j;

	(void)state;
	for (i = 0; i < nr_opt_defs; i++) {
		const struct opt_def *d = &opt_defs[i];
		const char *n = opt_name(d);

		assert_non_null(n);
		assert_non_null(d->help);
		/* a name once, a short option once */
		for (j = 0; j < i; j++) {
			assert_string_not_equal(n, opt_name(&opt_defs[j]));
			assert_true(!d->key || d->key != opt_defs[j].key);
		}
		/* once each, its value where the field option's goes */
		if (d->tab == cost_opts) {
			cost[d->field]++;
			assert_int_equal(d->off, offsetof(struct opts, cost) +
					 d->field * sizeof(long long));
		} else if (d->tab == kern_opts) {
			kern[d->field]++;
			assert_int_equal(d->off, offsetof(struct opts, kern) +
					 d->field * sizeof(long long));
		} else if (d->tab == wl_opts) {
			wlf[d->field]++;
			assert_int_equal(d->off, offsetof(struct opts, wl) +
					 d->field * sizeof(double));
		}
		/* a value shows its default */
		if (d->arg && d->kind != OPT_FN)
			assert_true(d->dflt || d->dflt_fn);
		/* a range that excludes 0 says why, one that holds it says
		 * what 0 means unless 0 is a plain value */
		if (d->kind == OPT_INT || d->kind == OPT_LL ||
		    d->kind == OPT_U64) {
			assert_true(d->ilo <= d->ihi);
			/* 0 refused without a word only where 0 is absurd */
			if (d->ilo > 0 && !d->why)
				assert_true(!strcmp(n, "jobs") ||
					    !strcmp(n, "scale") ||
					    !strcmp(n, "accesses") ||
					    !strcmp(n, "pages"));
		}
		if (d->kind == OPT_DBL && !(d->tab == wl_opts &&
					    wl_opts[d->field].kind != FIELD_DBL))
			assert_true(d->lo <= d->hi);
	}
	for (i = 0; i < C_NR; i++)
		assert_int_equal(cost[i], 1);
	for (i = 0; i < K_NR; i++)
		assert_int_equal(kern[i], 1);
	for (i = 0; i < W_NR; i++)
		assert_int_equal(wlf[i], 1);
}

static const struct opt_def *find_opt(const char *name)
{
	unsigned int i;

	for (i = 0; i < nr_opt_defs; i++)
		if (!strcmp(opt_name(&opt_defs[i]), name))
			return &opt_defs[i];
	fail_msg("no option --%s", name);
	return NULL;
}

static void test_opt_ranges(void **state)
{
	char b[96];

	(void)state;
	opt_range(b, sizeof(b), find_opt("pages"));
	assert_string_equal(b, "16 to 1099511627775");
	opt_range(b, sizeof(b), find_opt("write-frac"));
	assert_string_equal(b, "0 to 1");
	/* a wider Gaussian made the generator's rejection loop hang */
	opt_range(b, sizeof(b), find_opt("sigma"));
	assert_string_equal(b, "above 0, up to 10");
	opt_range(b, sizeof(b), find_opt("hot-frac"));
	assert_string_equal(b, "above 0, up to 0.5");
	opt_range(b, sizeof(b), find_opt("small-frac"));
	assert_string_equal(b, "above 0, below 1");
	opt_range(b, sizeof(b), find_opt("threads"));
	assert_string_equal(b, "1 to 64");
	/* the workloads each shape option applies to (others refuse it) */
	assert_int_equal(find_opt("sigma")->kinds, 1U << WL_PMBENCH);
	assert_int_equal(find_opt("zipf-s")->kinds, 1U << WL_ZIPF);
	assert_int_equal(find_opt("hot-frac")->kinds, (1U << WL_GUPS_HOTSET) |
			 (1U << WL_PHASE_SHIFT) | (1U << WL_COLD_BURST) |
			 (1U << WL_DISJOINT_VMA));
	assert_int_equal(find_opt("hot-prob")->kinds,
			 find_opt("hot-frac")->kinds);
	assert_int_equal(find_opt("shift-at")->kinds, (1U << WL_PHASE_SHIFT) |
			 (1U << WL_COLD_BURST) | (1U << WL_DISJOINT_VMA));
	assert_int_equal(find_opt("burst-pages")->kinds, 1U << WL_COLD_BURST);
	assert_int_equal(find_opt("small-frac")->kinds,
			 1U << WL_DISJOINT_VMA);
	assert_int_equal(find_opt("write-frac")->kinds, 0);
	assert_int_equal(find_opt("threads")->kinds, 0);
	/* the rate limit's top is TP_RATE_MAX pages of 4 KiB per second */
	assert_int_equal(find_opt("rate-limit-mbps")->ihi * 256, TP_RATE_MAX);
	/* good values are read as they are */
	assert_int_equal(parse_whole(find_opt("pages"), "16"), 16);
	assert_int_equal(parse_whole(find_opt("seed"), "18446744073709551615"),
			 UINT64_MAX);
	assert_int_equal(parse_whole(find_opt("seed"), "010"), 10);
}

/* Runs of blanks and line breaks to one space: --help's text unwrapped. */
static void squeeze(char *s)
{
	char *w = s, *start = s;
	int blank = 0;

	for (; *s; s++) {
		if (*s == ' ' || *s == '\n') {
			blank = 1;
			continue;
		}
		if (blank && w != start)
			*w++ = ' ';
		blank = 0;
		*w++ = *s;
	}
	*w = 0;
}

/* --help: every option, the defaults the model's tables give. */
static void test_help(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	unsigned int i;
	FILE *f = open_memstream(&buf, &len);
	char want[128];

	(void)state;
	assert_non_null(f);
	usage(f);
	fclose(f);
	squeeze(buf);
	for (i = 0; i < nr_opt_defs; i++) {
		snprintf(want, sizeof(want), "--%s", opt_name(&opt_defs[i]));
		assert_non_null(strstr(buf, want));
	}
	/* from wl_defaults(), wl_machine_defaults(), the profiles */
	assert_non_null(strstr(buf, "footprint in 4 KiB pages [1048576; "
				    "cold-burst 2097152; disjoint-vma 278528]"));
	assert_non_null(strstr(buf, "[4; cold-burst 1; traces 1]"));
	assert_non_null(strstr(buf, "[pmem 305, cxl 170]"));
	assert_non_null(strstr(buf, "numa_balancing_scan_size_mb [256]"));
	assert_non_null(strstr(buf, "[two-list]"));
	/* what 0 means */
	assert_non_null(strstr(buf, "0: the kernel's adaptive period"));
	free(buf);
}

/* ---- plots -------------------------------------------------------------------- */

static void test_nice_step(void **state)
{
	(void)state;
	assert_true(svg_nice_step(410, 5) == 100);
	assert_true(svg_nice_step(410, 2) == 250);
	assert_true(svg_nice_step(11.7, 6) == 2);
	assert_true(svg_nice_step(1, 4) == 0.25);
	assert_true(svg_nice_step(1000, 3) == 500);
	assert_true(svg_nice_step(0, 4) == 1);
	assert_true(svg_nice_step(-1, 4) == 1);
}

static void test_axis_fit(void **state)
{
	struct axis a;
	char t[32];

	(void)state;
	fit(&a, 0, 410, 5);
	assert_true(a.lo == 0 && a.hi == 500 && a.step == 100);
	/* a flat line sits inside, not on the frame */
	fit(&a, 1000, 1000, 5);
	assert_true(a.lo < 1000 && a.hi > 1000);
	fit(&a, 750, 1500, 5);
	assert_true(a.lo <= 750 && a.hi >= 1500);
	tick_text(t, sizeof(t), 2.5, 0.5);
	assert_string_equal(t, "2.5");
	tick_text(t, sizeof(t), 1500, 250);
	assert_string_equal(t, "1500");
	tick_text(t, sizeof(t), 0.05, 0.05);
	assert_string_equal(t, "0.05");
	tick_text(t, sizeof(t), 1e-17, 0.1);
	assert_string_equal(t, "0.0");
}

/*
 * A run sampled every 10 ms for 2 s: 1000 accesses and 10 promotions per
 * sample, 300 of them on the fast tier; the threshold 1000 ms, then 1500
 * from 1 s on.
 */
static void fake_run(struct sim_result *r)
{
	u32 i;

	memset(r, 0, sizeof(*r));
	r->has_threshold = 1;
	r->nr_samples = 201;
	for (i = 0; i < r->nr_samples; i++) {
		struct sim_sample *m = &r->sample[i];

		m->t_ns = (u64)i * 10000000;
		m->acc = (u64)i * 1000;
		m->fast = (u64)i * 300;
		m->promo = (u64)i * 10;
		m->thresh = (i < 100 ? 1000 : 1500) * 1000000ULL;
	}
}

static void test_buckets(void **state)
{
	static struct sim_result r;
	struct series s[NR_Q];
	u32 j;

	(void)state;
	fake_run(&r);
	bucket(&r, 0.1, s);
	/* 2 s in buckets of 0.1 s */
	assert_in_range(s[0].n, 20, 21);
	for (j = 0; j < s[0].n; j++) {
		assert_true(s[0].ok[j] && s[1].ok[j] && s[2].ok[j]);
		/* 30 % on the fast tier */
		assert_true(fabs(s[0].v[j] - 30) < 1e-9);
		/* 10 pages per 10 ms: 1000 pages/s, 3.90625 MB/s */
		assert_true(fabs(s[1].v[j] - 1000 * 4096.0 / 1048576) < 1e-6);
		/* the threshold at the bucket's end */
		assert_true(s[2].v[j] == (s[2].t[j] < 1.0 - 1e-9 ? 1000 : 1500));
		if (j)
			assert_true(s[0].t[j] > s[0].t[j - 1]);
	}
	/* no threshold, no values on its axis */
	r.has_threshold = 0;
	bucket(&r, 0.1, s);
	for (j = 0; j < s[2].n; j++)
		assert_false(s[2].ok[j]);
}

static void test_same_series(void **state)
{
	static struct sim_result a, b;

	(void)state;
	fake_run(&a);
	fake_run(&b);
	assert_true(same_series(&a, &b));
	b.sample[50].promo++;
	assert_false(same_series(&a, &b));
	fake_run(&b);
	b.has_threshold = 0;
	assert_false(same_series(&a, &b));
}

/* ---- warnings ------------------------------------------------------------------ */

static char *warnings(const struct set *s, int strict, u32 *nr)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	*nr = warn_set(f, s, strict);
	fclose(f);
	return buf;
}

static void test_warnings(void **state)
{
	static struct set s;
	struct sim_result *r;
	char err[SIM_ERRLEN], *w;
	u32 nr;

	(void)state;
	memset(&s, 0, sizeof(s));
	sim_cfg_defaults(&s.cfg);
	snprintf(s.label, sizeof(s.label), "pmbench");
	s.has_wl = 1;
	s.src.pages = 1 << 20;		/* 4 GiB: 16 scan windows */
	s.nr_pol = 3;
	assert_int_equal(sim_policy_parse("none", &s.pol[0], err,
					  sizeof(err)), 0);
	assert_int_equal(sim_policy_parse("mainline", &s.pol[1], err,
					  sizeof(err)), 0);
	assert_int_equal(sim_policy_parse("promote-all", &s.pol[2], err,
					  sizeof(err)), 0);
	s.rs.nr = 3;
	s.rs.res = calloc(3, sizeof(*s.rs.res));
	assert_non_null(s.rs.res);
	r = s.rs.res;
	snprintf(r[0].policy, sizeof(r[0].policy), "none");
	snprintf(r[1].policy, sizeof(r[1].policy), "mainline");
	snprintf(r[2].policy, sizeof(r[2].policy), "promote-all");
	r[0].sim_time_ns = r[1].sim_time_ns = r[2].sim_time_ns = 800000000;

	/* nothing scanned: one line for both policies that scan */
	w = warnings(&s, 0, &nr);
	assert_int_equal(nr, 1);
	assert_string_equal(w, "tiersim: warning: pmbench: mainline, "
			    "promote-all: no scan pass ran: the run ended at "
			    "800 ms (the first pass is due 1000 ms in, at a "
			    "thread's next access after that): nothing was "
			    "scanned or promoted; a longer run (--accesses) or "
			    "a shorter --scan-delay-ms changes that\n");
	free(w);
	w = warnings(&s, 1, &nr);
	assert_non_null(strstr(w, "tiersim: error: pmbench: mainline, "));
	free(w);

	/* a part of the footprint */
	r[1].scan_passes = r[2].scan_passes = 3;
	r[1].sim_time_ns = r[2].sim_time_ns = 3000000000ULL;
	w = warnings(&s, 0, &nr);
	assert_int_equal(nr, 1);
	assert_non_null(strstr(w, "after 3 of the 16 scan windows"));
	free(w);

	/* marked, but no fault; the VMA filter's "nothing marked" is not */
	r[1].scan_passes = r[2].scan_passes = 16;
	r[1].pte_updates = 1000;
	w = warnings(&s, 0, &nr);
	assert_int_equal(nr, 1);
	assert_non_null(strstr(w, "pmbench: mainline: no NUMA hint fault in "
			       "16 scan passes (1000 PTEs marked): the run "
			       "ended at 3.00 s"));
	assert_null(strstr(w, "promote-all: no NUMA"));
	/* ... and promote-all: faults but no threshold, no warning */
	assert_null(strstr(w, "promote-all"));
	free(w);

	/* the adaptive threshold, too short a run for its period */
	r[1].hint_faults = 10;
	w = warnings(&s, 0, &nr);
	assert_int_equal(nr, 1);
	assert_non_null(strstr(w, "pmbench: mainline: the run ended at 3.00 s, "
			       "before the hot-threshold controller's first "
			       "full period (60000 ms after the 1000 ms scan "
			       "delay; "));
	free(w);
	/*
	 * One move is the close at the first fault (6.1's start), which
	 * judges no candidates: still the warning.
	 */
	r[1].node.th_raised = 1;
	w = warnings(&s, 0, &nr);
	assert_int_equal(nr, 1);
	assert_non_null(strstr(w, "pmbench: mainline: the run ended at 3.00 s"));
	free(w);
	/* long enough, or the threshold moved again: no warning */
	r[1].sim_time_ns = 61000000000ULL;
	w = warnings(&s, 0, &nr);
	assert_int_equal(nr, 0);
	free(w);
	r[1].sim_time_ns = 3000000000ULL;
	r[1].node.th_lowered = 1;
	w = warnings(&s, 0, &nr);
	assert_int_equal(nr, 0);
	free(w);
	r[1].node.th_lowered = 0;
	/* without tiering (mode=1) there is no threshold to adapt */
	r[1].node.th_raised = 0;
	assert_int_equal(sim_policy_parse("mainline:mode=1", &s.pol[1], err,
					  sizeof(err)), 0);
	w = warnings(&s, 0, &nr);
	assert_int_equal(nr, 0);
	free(w);
	free(s.rs.res);
}

/*
 * pghot-abit and damon on 32 folios, which fit the default TLB (2048
 * entries): after the first clear no fill sets an accessed bit again and
 * the scanner finds no candidate, which tiersim warns about (not for
 * mainline, whose scanner flushes the TLB); with 16 entries, it does not
 * fit, candidates come, no warning.
 */
static void test_warn_tlb_fit(void **state)
{
	static const char *const specs[] = { "pghot-abit", "damon",
					     "mainline" };
	static struct set s;
	struct setup st;
	struct sim_result *r;
	char err[SIM_ERRLEN], *w;
	u32 i, nr, fit;

	(void)state;
	small_setup(&st, WL_PMBENCH, 512 * 32, 4000000, 512 * 8);
	st.cfg.thp = 1;
	for (fit = 0; fit < 2; fit++) {
		st.cfg.tlb_entries = fit ? 2048 : 16;
		assert_int_equal(sim_validate(&st.cfg, &st.src, err,
					      sizeof(err)), 0);
		memset(&s, 0, sizeof(s));
		s.cfg = st.cfg;
		s.src.pages = st.src.pages;
		snprintf(s.label, sizeof(s.label), "pmbench");
		s.has_wl = 1;
		s.nr_pol = s.rs.nr = 3;
		s.rs.res = r = calloc(3, sizeof(*r));
		assert_non_null(r);
		for (i = 0; i < 3; i++) {
			policy(&s.pol[i], specs[i], &st.cfg);
			assert_int_equal(sim_run(&st.cfg, &s.pol[i], &st.src,
						 &r[i], NULL), 0);
		}
		w = warnings(&s, 0, &nr);
		if (!fit) {
			assert_true(r[0].node.pgpromote_candidate > 0);
			assert_int_equal(nr, 0);
		} else {
			assert_int_equal(r[0].node.pgpromote_candidate, 0);
			assert_int_equal(r[0].promotions, 0);
			assert_int_equal(nr, 1);
			assert_non_null(strstr(w, "pmbench: pghot-abit, damon: "
					       "the footprint's 32 folios fit "
					       "each thread's TLB (2048 "
					       "entries"));
			assert_non_null(strstr(w, "; --tlb-entries 16 or less, "
					       "no --thp, or --tlb-entries 0 "));
		}
		free(w);
		for (i = 0; i < 3; i++)
			sim_result_free(&r[i]);
		free(r);
	}
	small_free(&st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_opt_table),
		cmocka_unit_test(test_opt_ranges),
		cmocka_unit_test(test_help),
		cmocka_unit_test(test_nice_step),
		cmocka_unit_test(test_axis_fit),
		cmocka_unit_test(test_buckets),
		cmocka_unit_test(test_same_series),
		cmocka_unit_test(test_warnings),
		cmocka_unit_test(test_warn_tlb_fit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
