// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * tiersim's policy grammar: each key's range messages, the keys nothing
 * reads in the mode asked for, a key that changes nothing, and each key's
 * bit for "given twice". tests/tiersim_cli.sh runs the program itself
 * (exit status, exact messages); these check the parser.
 *
 * It links the program's objects, main.c's excepted, as test_tiersim.c
 * does.
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

#include "../examples/tiersim/sim_int.h"
#include "tiersim_test.h"

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
		assert_true(j < policy_nr_keys);
		assert_false(seen & 1U << j);
		seen |= 1U << j;
	}
	assert_int_equal(key_index("no-such-key"), policy_nr_keys);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_policy_keys),
		cmocka_unit_test(test_policy_unchanged),
		cmocka_unit_test(test_policy_untiered),
		cmocka_unit_test(test_policy_key_bits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
