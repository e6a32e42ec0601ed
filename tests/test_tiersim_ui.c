// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * tiersim's user interface: the option table (every field option once,
 * a default or a meaning of 0 for each, consistent ranges), --help from
 * it, the warnings read from results, the plot's axes and buckets, and
 * the policy keys' range messages. tests/tiersim_cli.sh runs the program
 * itself (exit status, exact messages); these check the parts.
 *
 * The program's sources but main.c, suite.c and results.c are compiled in.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "../examples/tiersim/wl.c"
#include "../examples/tiersim/wl_gen.c"
#include "../examples/tiersim/trace.c"
#include "../examples/tiersim/sim_cfg.c"
#include "../examples/tiersim/sim_src.c"
#include "../examples/tiersim/sim_reclaim.c"
#include "../examples/tiersim/sim_numa.c"
#include "../examples/tiersim/sim_mem.c"
#include "../examples/tiersim/sim_kthread.c"
#include "../examples/tiersim/sim_damon.c"
#include "../examples/tiersim/sim_setup.c"
#include "../examples/tiersim/sim.c"
#include "../examples/tiersim/sim_preset.c"
#include "../examples/tiersim/sim_policy.c"
#include "../examples/tiersim/sim_policy_check.c"
#include "../examples/tiersim/svg.c"
#include "../examples/tiersim/out.c"
#include "../examples/tiersim/plot.c"
#include "../examples/tiersim/opts.c"
#include "../examples/tiersim/parse.c"
#include "../examples/tiersim/help.c"
#include "../examples/tiersim/set.c"
#include "../examples/tiersim/warn.c"
#include "../examples/tiersim/progress.c"
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

/* ---- policy keys ------------------------------------------------------------ */

static void expect_policy_err(const char *spec, const char *want)
{
	struct sim_policy p;
	char err[SIM_ERRLEN];

	assert_int_equal(sim_policy_parse(spec, &p, err, sizeof(err)), -1);
	if (strcmp(err, want)) {
		print_error("got \"%s\"\nwant \"%s\"\n", err, want);
		fail();
	}
}

/*
 * mode=1: NUMA balancing scans but tierpol refuses every hint fault
 * (TP_REFUSE_MODE), so the keys and switches only tiering reads, and the
 * base's hotness record or kmigrated, are refused; the scanner's keys are
 * taken.
 */
static void test_policy_untiered(void **state)
{
	static const char why[] = "does nothing: without tiering (mode=1) "
				  "tierpol refuses every hint fault "
				  "(TP_REFUSE_MODE)";
	static const char *const keys[] = {
		"rate=64", "hot=50", "period=100", "burst=5", "hot-faults=5",
		"limiter=bucket", "thresh=rfc2020", "wmark=rfc2020",
		"lat=ring", "goal=used", "target=50", "ctl=100",
		"rate-min=2", "rate-max=50", "goal-out=threshold",
		"record=byte", "src=both", "freq=2", "window=100", "abit=10",
		"room-record=1", "migrate=kmigrated", "promo-max=5",
	};
	struct sim_policy p;
	char err[SIM_ERRLEN], spec[96], want[SIM_ERRLEN];
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		snprintf(spec, sizeof(spec), "mainline:mode=1:%s", keys[i]);
		snprintf(want, sizeof(want), "policy \"%s\": %s %s", spec,
			 keys[i], why);
		expect_policy_err(spec, want);
	}
	/* the first one in the spec is named, a switch too */
	snprintf(want, sizeof(want), "policy \"mainline+young:mode=1:"
		 "rate=64\": +young %s", why);
	expect_policy_err("mainline+young:mode=1:rate=64", want);
	snprintf(want, sizeof(want), "policy \"rfc2020-p5-young:vma=pid:"
		 "mode=1\": -young %s", why);
	expect_policy_err("rfc2020-p5-young:vma=pid:mode=1", want);
	/* a hint fault would record into a record never set up */
	expect_policy_err("pghot:mode=1", "policy \"pghot:mode=1\": mode=1 "
			  "leaves the hotness record and kmigrated nothing to "
			  "do: without tiering tierpol admits no page");
	expect_policy_err("pghot-abit:mode=1", "policy \"pghot-abit:mode=1\": "
			  "mode=1 leaves the hotness record and kmigrated "
			  "nothing to do: without tiering tierpol admits no "
			  "page");
	/* mode= sets the scan of the fast tier: scan-top before it is lost */
	expect_policy_err("mainline+scan-top:mode=1", "policy \"mainline+"
			  "scan-top:mode=1\": scan-top does nothing with mode= "
			  "(which sets the scan of the fast tier: mode=1 or 3 "
			  "scans it)");
	expect_policy_err("rfc2020-p3-scan-top:mode=2", "policy \"rfc2020-p3-"
			  "scan-top:mode=2\": scan-top does nothing with mode= "
			  "(which sets the scan of the fast tier: mode=1 or 3 "
			  "scans it)");
	/* the scanner's keys are read; damon and the oracle say why not */
	assert_int_equal(sim_policy_parse("mainline:mode=1", &p, err,
					  sizeof(err)), 0);
	assert_int_equal(sim_policy_parse("mainline:mode=1:vma=pid:demote=0",
					  &p, err, sizeof(err)), 0);
	assert_int_equal(sim_policy_parse("rfc2020-p4:mode=3:rate=64", &p, err,
					  sizeof(err)), 0);
	assert_int_equal(sim_policy_parse("damon:mode=1", &p, err,
					  sizeof(err)), 0);
}

static void test_policy_keys(void **state)
{
	struct sim_policy p;
	char err[SIM_ERRLEN];

	(void)state;
	expect_policy_err("mainline:rate=99999999999", "policy \"mainline:"
			  "rate=99999999999\": rate=99999999999 is too large "
			  "(allowed: 0 to 16777216 MB/s)");
	expect_policy_err("mainline:rate=16777217", "policy \"mainline:"
			  "rate=16777217\": rate=16777217 is too large "
			  "(allowed: 0 to 16777216 MB/s)");
	expect_policy_err("mainline:hot=0", "policy \"mainline:hot=0\": hot=0 "
			  "is too small (allowed: 1 to 4294967295 ms; 0 is the "
			  "sysctl's threshold of 0, which only a latency of 0 "
			  "meets)");
	expect_policy_err("mainline:period=-3", "policy \"mainline:period=-3\": "
			  "period=-3 is too small (allowed: 1 to 4294967295 "
			  "ms)");
	expect_policy_err("mainline:mode=4", "policy \"mainline:mode=4\": "
			  "mode=4 is too large (allowed: 0 to 3)");
	expect_policy_err("mainline:burst=1x", "policy \"mainline:burst=1x\": "
			  "burst=1x is not a whole number");
	/* keys nothing reads: the row would be the policy's without them */
	expect_policy_err("mainline:target=5000", "policy \"mainline:target="
			  "5000\": target= needs a goal (goal=used|free|"
			  "pingpong)");
	expect_policy_err("mainline:ctl=100:rate-max=1", "policy \"mainline:"
			  "ctl=100:rate-max=1\": ctl= needs a goal (goal=used|"
			  "free|pingpong)");
	expect_policy_err("mainline:rate-min=300:rate-max=100", "policy "
			  "\"mainline:rate-min=300:rate-max=100\": rate-min= "
			  "needs a goal (goal=used|free|pingpong)");
	expect_policy_err("goal-threshold:rate-max=5", "policy \"goal-"
			  "threshold:rate-max=5\": rate-max= needs goal-out="
			  "rate (with goal-out=threshold the goal sets the "
			  "threshold, between 2 x hot / 16 and 2 x hot ms)");
	expect_policy_err("mainline:freq=3:window=100:abit=5", "policy "
			  "\"mainline:freq=3:window=100:abit=5\": freq= needs "
			  "a hotness record (record=byte|precise)");
	expect_policy_err("mainline:src=hint", "policy \"mainline:src=hint\": "
			  "src= needs a hotness record (record=byte|precise)");
	expect_policy_err("pghot:abit=5", "policy \"pghot:abit=5\": abit= "
			  "needs the accessed-bit scanner (src=abit|both)");
	expect_policy_err("damon:freq=7", "policy \"damon:freq=7\": freq= "
			  "needs a hotness record, which damon does not keep");
	expect_policy_err("mainline:hot-faults=5", "policy \"mainline:hot-"
			  "faults=5\": hot-faults= needs lat=faults (the "
			  "threshold counted in hint faults)");
	expect_policy_err("fault-clock:hot=5", "policy \"fault-clock:hot=5\": "
			  "hot= needs a latency in time (lat=ring|atime): with "
			  "lat=faults the threshold is hot-faults=");
	/* hot= without hot-page selection; the threshold controller's keys */
	expect_policy_err("promote-all:hot=1", "policy \"promote-all:hot=1\": "
			  "hot= needs hot-page selection (+hotness): without "
			  "it no latency is judged");
	expect_policy_err("rfc2020-p5:hot=50", "policy \"rfc2020-p5:hot=50\": "
			  "hot= needs hot-page selection (+hotness): without "
			  "it no latency is judged");
	expect_policy_err("pghot:hot=50", "policy \"pghot:hot=50\": hot= "
			  "needs hot-page selection (+hotness): without it no "
			  "latency is judged");
	/* the scanner's ready pages have a latency of 0 */
	expect_policy_err("pghot-abit:hot=50", "policy \"pghot-abit:hot=50\": "
			  "hot= needs hint faults to time (src=hint|both): the "
			  "accessed-bit scanner's pages are hot or not");
	expect_policy_err("rfc2020-p6:thresh=mainline", "policy \"rfc2020-p6:"
			  "thresh=mainline\": thresh= needs the adaptive "
			  "threshold (+adaptive): without it the threshold is "
			  "fixed");
	expect_policy_err("rfc2020-p7:period=100", "policy \"rfc2020-p7:"
			  "period=100\": period= needs the adaptive threshold "
			  "(+adaptive): without it the threshold is fixed");
	expect_policy_err("promote-all:thresh=histogram", "policy \"promote-"
			  "all:thresh=histogram\": thresh= needs the adaptive "
			  "threshold (+hotness+adaptive): without them no "
			  "latency is judged");
	expect_policy_err("goal-threshold:period=100", "policy \"goal-"
			  "threshold:period=100\": period= needs the adaptive "
			  "threshold (+adaptive): with goal-out=threshold the "
			  "goal sets the threshold");
	expect_policy_err("mainline:burst=5", "policy \"mainline:burst=5\": "
			  "burst= needs the token-bucket limiter (limiter="
			  "bucket); a window limiter has no burst");
	expect_policy_err("none:goal=used", "policy \"none:goal=used\": "
			  "goal=used does nothing with NUMA balancing off (base "
			  "none): no scanning, no hint faults");
	expect_policy_err("oracle:target=5", "policy \"oracle:target=5\": "
			  "target=5 does nothing with NUMA balancing off (base "
			  "oracle): no scanning, no hint faults");
	/* the record, kmigrated and kswapd do nothing without it either */
	expect_policy_err("oracle:demote=1", "policy \"oracle:demote=1\": "
			  "demote=1 does nothing with NUMA balancing off (base "
			  "oracle): no scanning, no hint faults");
	expect_policy_err("none:record=precise:src=abit:migrate=kmigrated",
			  "policy \"none:record=precise:src=abit:migrate="
			  "kmigrated\": record=precise does nothing with NUMA "
			  "balancing off (base none): no scanning, no hint "
			  "faults");
	expect_policy_err("mainline:mode=0:migrate=kmigrated", "policy "
			  "\"mainline:mode=0:migrate=kmigrated\": migrate="
			  "kmigrated does nothing with NUMA balancing off "
			  "(mode=0 of mainline): no scanning, no hint faults");
	/* (a preset's record with mode=0, the oracle's mode: tiersim_cli.sh) */
	/* damon's own demotion is kswapd's: demote=0 is read there */
	assert_int_equal(sim_policy_parse("damon:demote=0", &p, err,
					  sizeof(err)), 0);
	/* given twice: one of them would be ignored */
	expect_policy_err("mainline:rate=4:rate=8", "policy \"mainline:rate=4:"
			  "rate=8\": rate= is given twice (the last one, "
			  "rate=8, would win)");
	expect_policy_err("mainline+young-young", "policy \"mainline+young-"
			  "young\": the switch young is given twice (the last "
			  "one, -young, would win)");
	/* ... and where they are read, they are taken */
	assert_int_equal(sim_policy_parse("token-bucket:burst=5", &p, err,
					  sizeof(err)), 0);
	assert_int_equal(sim_policy_parse("goal-bucket:target=5000:ctl=100:"
					  "rate-min=2:rate-max=100", &p, err,
					  sizeof(err)), 0);
	assert_int_equal(sim_policy_parse("fault-clock:hot-faults=5", &p, err,
					  sizeof(err)), 0);
	assert_int_equal(sim_policy_parse("rfc2020-p6:hot=50", &p, err,
					  sizeof(err)), 0);
	assert_int_equal(sim_policy_parse("promote-all+hotness:hot=50", &p,
					  err, sizeof(err)), 0);
	assert_int_equal(sim_policy_parse("rfc2020-p6+adaptive:thresh=mainline:"
					  "period=100", &p, err, sizeof(err)),
			 0);
	assert_int_equal(sim_policy_parse("fault-clock:thresh=histogram:"
					  "period=100", &p, err, sizeof(err)),
			 0);
	/* the goal's bounds and the adaptive threshold's read hot= */
	assert_int_equal(sim_policy_parse("goal-threshold:hot=500", &p, err,
					  sizeof(err)), 0);
	assert_int_equal(sim_policy_parse("pghot-abit:src=both:hot=50", &p,
					  err, sizeof(err)), 0);
	assert_int_equal(sim_policy_parse("pghot-abit+adaptive:hot=50", &p,
					  err, sizeof(err)), 0);
	assert_int_equal(sim_policy_parse("pghot:src=both:abit=10:freq=3:"
					  "window=1000:room-record=1", &p, err,
					  sizeof(err)), 0);
	/* the ends of the ranges are allowed */
	assert_int_equal(sim_policy_parse("token-bucket:rate=16777216:hot=1:"
					  "mode=3:demote=0", &p, err,
					  sizeof(err)), 0);
	assert_int_equal(p.cfg.rate_limit_mbps, 16777216);
	assert_int_equal(p.cfg.hot_threshold_ms, 1);
	assert_int_equal(p.demote, 0);
}

/*
 * A key that sets what the base already has, or the default that the spec's
 * other keys pick, would label the base's row as a variant: refused, as a
 * switch the base has, after the keys that nothing reads.
 */
static void test_policy_unchanged(void **state)
{
	static const struct {
		const char *spec;
		const char *what;
	} same[] = {
		{ "mainline:thresh=mainline", "thresh=mainline" },
		{ "token-bucket:limiter=bucket", "limiter=bucket" },
		{ "rfc2020:wmark=rfc2020", "wmark=rfc2020" },
		{ "rfc2020-p3:mode=3", "mode=3" },
		{ "mainline+young:vma=none", "vma=none" },
		{ "mainline:lat=atime", "lat=atime" },
		{ "fault-clock:lat=faults", "lat=faults" },
		{ "token-bucket:burst=0", "burst=0" },
		{ "goal-bucket:goal=used", "goal=used" },
		{ "goal-threshold:goal-out=threshold", "goal-out=threshold" },
		{ "goal-bucket:ctl=1000", "ctl=1000" },
		{ "goal-bucket:rate-max=200", "rate-max=200" },
		{ "pghot:record=byte", "record=byte" },
		{ "pghot:migrate=kmigrated", "migrate=kmigrated" },
		{ "pghot-abit:src=abit", "src=abit" },
		{ "pghot-abit:room-record=1", "room-record=1" },
		{ "damon:mode=0", "mode=0" },
		{ "damon:feedback=tierpol", "feedback=tierpol" },
		{ "mainline:demote=1", "demote=1" },
		/* a default filled in later: the value it stands for */
		{ "goal-bucket:target=9970", "target=9970" },
		{ "fault-clock:hot-faults=1000000", "hot-faults=1000000" },
		{ "pghot:freq=2", "freq=2" },
		{ "pghot:window=3000", "window=3000" },
		{ "pghot-precise:window=5000", "window=5000" },
		/* the first one in the spec is named */
		{ "goal-bucket:rate-min=5:ctl=1000:rate-max=200", "ctl=1000" },
	};
	static const char *const differ[] = {
		"mainline:thresh=histogram", "mainline:limiter=bucket",
		"rfc2020:wmark=mainline", "rfc2020-p4:mode=3",
		"mainline:vma=pid", "token-bucket:burst=1",
		"goal-bucket:goal=free", "goal-bucket:target=9969",
		"fault-clock:hot-faults=999999", "pghot:freq=3",
		"pghot:window=2999", "pghot-precise:window=3000",
		"pghot:record=precise", "damon:feedback=damos",
		"mainline:demote=0", "goal-bucket:goal=free:target=9970",
		/* they pin the value against the command line's options */
		"mainline:rate=65536", "mainline:hot=1000",
		"mainline:period=60000", "rfc2020:rate=0",
	};
	struct sim_policy p;
	char err[SIM_ERRLEN], want[SIM_ERRLEN];
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(same) / sizeof(same[0]); i++) {
		snprintf(want, sizeof(want), "policy \"%s\": %s changes "
			 "nothing: %.*s has it", same[i].spec, same[i].what,
			 (int)strcspn(same[i].spec, "+:"), same[i].spec);
		expect_policy_err(same[i].spec, want);
	}
	for (i = 0; i < sizeof(differ) / sizeof(differ[0]); i++) {
		if (sim_policy_parse(differ[i], &p, err, sizeof(err))) {
			print_error("%s: %s\n", differ[i], err);
			fail();
		}
	}
	/* the default that the spec's other keys pick, in any order */
	expect_policy_err("mainline:goal=used:target=9970", "policy \"mainline:"
			  "goal=used:target=9970\": target=9970 changes "
			  "nothing: with the other keys it is the default");
	expect_policy_err("mainline:target=50:goal=free", "policy \"mainline:"
			  "target=50:goal=free\": target=50 changes nothing: "
			  "with the other keys it is the default");
	expect_policy_err("pghot:record=precise:window=5000", "policy \"pghot:"
			  "record=precise:window=5000\": window=5000 changes "
			  "nothing: with the other keys it is the default");
	/* a key nothing reads, or one given twice, says so first */
	expect_policy_err("damon:goal=none", "policy \"damon:goal=none\": "
			  "damon sets its quotas with its own goals (goal=)");
	expect_policy_err("none:lat=atime", "policy \"none:lat=atime\": lat="
			  "atime does nothing with NUMA balancing off (base "
			  "none): no scanning, no hint faults");
	expect_policy_err("mainline:mode=1:thresh=mainline", "policy "
			  "\"mainline:mode=1:thresh=mainline\": "
			  "thresh=mainline does "
			  "nothing: without tiering (mode=1) tierpol refuses "
			  "every hint fault (TP_REFUSE_MODE)");
	expect_policy_err("rfc2020-p6:thresh=rfc2020", "policy \"rfc2020-p6:"
			  "thresh=rfc2020\": thresh= needs the adaptive "
			  "threshold (+adaptive): without it the threshold is "
			  "fixed");
	expect_policy_err("mainline:target=9970", "policy \"mainline:target="
			  "9970\": target= needs a goal (goal=used|free|"
			  "pingpong)");
	expect_policy_err("mainline:vma=none:vma=none", "policy \"mainline:"
			  "vma=none:vma=none\": vma= is given twice (the last "
			  "one, vma=none, would win)");
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

/*
 * Every key --help documents has a bit of its own for "given twice"
 * (sim_policy.c's key tables), none the spare one.
 */
static void test_policy_key_bits(void **state)
{
	static const char *const keys[] = {
		"rate", "hot", "period", "burst", "limiter", "thresh", "wmark",
		"lat", "hot-faults", "vma", "mode", "demote", "migrate", "goal",
		"target", "ctl", "rate-min", "rate-max", "goal-out", "record",
		"src", "freq", "window", "abit", "room-record", "promo-max",
		"feedback", "quota-start",
	};
	unsigned int i, j, seen = 0;

	(void)state;
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		j = key_index(keys[i]);
		assert_true(j < NR_NUM_KEYS + NR_STR_KEYS);
		assert_false(seen & 1U << j);
		seen |= 1U << j;
	}
	assert_int_equal(key_index("no-such-key"), NR_NUM_KEYS + NR_STR_KEYS);
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
			       "period (60000 ms after the 1000 ms scan "
			       "delay)"));
	free(w);
	/* long enough, or the threshold moved: no warning */
	r[1].sim_time_ns = 61000000000ULL;
	w = warnings(&s, 0, &nr);
	assert_int_equal(nr, 0);
	free(w);
	r[1].sim_time_ns = 3000000000ULL;
	r[1].node.th_raised = 1;
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
		cmocka_unit_test(test_policy_keys),
		cmocka_unit_test(test_policy_unchanged),
		cmocka_unit_test(test_policy_untiered),
		cmocka_unit_test(test_nice_step),
		cmocka_unit_test(test_axis_fit),
		cmocka_unit_test(test_buckets),
		cmocka_unit_test(test_same_series),
		cmocka_unit_test(test_warnings),
		cmocka_unit_test(test_warn_tlb_fit),
		cmocka_unit_test(test_policy_key_bits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
