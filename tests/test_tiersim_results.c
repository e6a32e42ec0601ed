// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * tiersim: the results page's tables for the policies past Linux 6.1
 * (results61.c, results_len.c): the goal table and its matrix on runs made
 * up for them, the placement map of a small pmbench run, the goal against
 * the run's length and the seed, and the 2022 ladder's steps.
 *
 * It links the simulator's objects, as test_tiersim.c does.
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
#include "../examples/tiersim/results.h"
#include "tiersim_test.h"

/* ---- the results page's goal table ------------------------------------------ */

/* A made-up run: @tput M accesses a second, @promo and @demo pages. */
static void fake(struct sim_result *r, const char *pol, u64 tput,
		 u64 promo, u64 demo)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->policy, sizeof(r->policy), "%s", pol);
	r->scale = 1;
	r->measured_accesses = tput * 1000000;
	r->measured_time_ns = 1000000000;
	r->promotions = promo;
	r->demotions = demo;
}

/* results61_write()'s page for the one set @rs, in a buffer to free. */
static char *past61_page(const struct run_set *rs)
{
	char *buf = NULL;
	size_t len;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	results61_write(f, rs, 1);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void test_goal_table(void **state)
{
	struct sim_result res[6];
	struct sim_cfg c;
	struct sim_src src = { .name = "x" };
	struct run_set rs = {
		.title = RESULTS61_PREFIX "pmbench", .cfg = &c, .src = &src,
		.nr = 6, .res = res,
	};
	char *buf;
	struct goal_row g;

	(void)state;
	sim_cfg_defaults(&c);
	c.fast_pages = 100;
	fake(&res[0], "none", 30, 0, 0);
	fake(&res[1], "mainline", 35, 500, 500);
	fake(&res[2], "token-bucket:rate=64", 40, 100, 100);
	fake(&res[3], "goal-bucket", 65, 10, 10);	/* not a preset */
	fake(&res[4], GOAL_POLICY, 50, 200, 300);
	fake(&res[5], "oracle", 60, 0, 0);
	assert_ptr_equal(res_best_preset(&rs), &res[2]);
	/* Half the gap from 40 to 60 is 50: met, with 500 of 1000 moved. */
	assert_int_equal(res_goal_row(&rs, &res[4], &g), 0);
	assert_true(g.gap > 0.4999 && g.gap < 0.5001);
	assert_true(g.migr > 0.4999 && g.migr < 0.5001);
	assert_true(g.met);
	/* One page more is too many. */
	res[4].demotions++;
	assert_int_equal(res_goal_row(&rs, &res[4], &g), 0);
	assert_false(g.met);
	res[4].demotions--;
	/* Below none fails whatever the gap. */
	res[0].measured_accesses = 55000000;
	assert_ptr_equal(res_best_preset(&rs), &res[0]);
	assert_int_equal(res_goal_row(&rs, &res[4], &g), 0);
	assert_false(g.met);
	res[0].measured_accesses = 30000000;

	buf = past61_page(&rs);
	assert_non_null(strstr(buf, "| pmbench | `token-bucket:rate=64` | "
				    "40.000 | 60.000 | 30.000 | 50.000 | "
				    "50 % | +66.67 % | 500 | 0.50 | **yes** |"));
	assert_non_null(strstr(buf, "meets all three on 1 of the 1"));
	/* The matrix lists the policies past 6.1 only. */
	assert_non_null(strstr(buf, "| `goal-bucket` | **125 %, +117 %, 0.02x** |"));
	assert_non_null(strstr(buf, "| `" GOAL_POLICY "` | **50 %, +67 %, 0.50x** |"));
	assert_null(strstr(buf, "| `mainline` |  "));
	assert_null(strstr(buf, "From first touch's placement"));
	free(buf);

	/*
	 * Missed, with the runs' distances to the oracle's placement: the
	 * note prices the exchange from none's against mainline's 1000.
	 */
	res[4].demotions++;
	res[0].has_to_oracle = res[4].has_to_oracle = 1;
	res[0].to_oracle_promo = res[0].to_oracle_demo = 300;
	res[0].to_oracle_mig[0] = 100;
	res[0].to_oracle_mig[1] = 400;
	res[0].to_oracle_mig[2] = 500;
	res[0].to_oracle_mig[3] = 580;
	res[4].to_oracle_promo = 42;
	buf = past61_page(&rs);
	assert_non_null(strstr(buf, "From first touch's placement (`none`'s) "
				    "the oracle's is 300 promotions and 300 "
				    "demotions away, 0.600 times `mainline`'s "
				    "migrations;"));
	assert_non_null(strstr(buf, "(counted over the whole stream) with "
				    "0.100 times `mainline`'s migrations, 90 % "
				    "with 0.400, 95 % with 0.500 and 99 % with "
				    "0.580: within the bound (0.500) a policy "
				    "gets at most 95 % of it,"));
	assert_non_null(strstr(buf, "; `" GOAL_POLICY "` ends 42 promotions "
				    "from the oracle's placement."));
	free(buf);
	/* One migration more: 95 % no longer fits. */
	res[0].to_oracle_mig[2] = 501;
	buf = past61_page(&rs);
	assert_non_null(strstr(buf, "gets at most 90 % of it,"));
	free(buf);
	/* None of the shares fits, or the whole exchange does. */
	res[0].to_oracle_mig[0] = 501;
	res[0].to_oracle_mig[1] = 520;
	res[0].to_oracle_mig[2] = 540;
	buf = past61_page(&rs);
	assert_non_null(strstr(buf, ": not even 50 % of it fits within the "
				    "bound (0.500);"));
	free(buf);
	res[0].to_oracle_promo = res[0].to_oracle_demo = 250;
	buf = past61_page(&rs);
	assert_non_null(strstr(buf, ": the whole exchange fits within the "
				    "bound;"));
	free(buf);
}

/* ---- the placement map, and the goal against the run's length -------- */

static void test_placement_map(void **state)
{
	struct setup s;
	struct sim_policy p[2];
	struct sim_result r[2];
	char err[SIM_ERRLEN];
	u64 centre;
	u32 i, b;

	(void)state;
	memset(r, 0, sizeof(r));
	small_setup(&s, WL_PMBENCH, 1 << 12, 400000, 1 << 10);
	assert_int_equal(sim_validate(&s.cfg, &s.src, err, sizeof(err)), 0);
	assert_int_equal(sim_src_count(&s.src, err, sizeof(err)), 0);
	policy(&p[0], "none", &s.cfg);
	policy(&p[1], "oracle", &s.cfg);
	for (i = 0; i < 2; i++) {
		assert_int_equal(sim_run(&s.cfg, &p[i], &s.src, &r[i], NULL),
				 0);
		check_accounting(&s.src, &r[i]);
		for (b = 0; b < SIM_MAP_BINS; b++)
			assert_int_equal(r[i].map_alloc[b],
					 (1 << 12) / SIM_MAP_BINS);
	}
	/*
	 * First touch in address order fills the fast tier from the first
	 * sixteenths; the oracle keeps the Gaussian's middle (within one
	 * standard deviation: sixteenths 6 to 9).
	 */
	assert_int_equal(r[0].map_fast[0], r[0].map_alloc[0]);
	assert_int_equal(r[0].map_fast[2], r[0].map_alloc[2]);
	assert_int_equal(r[0].map_fast[8], 0);
	assert_int_equal(r[0].map_fast[SIM_MAP_BINS - 1], 0);
	for (centre = 0, b = 6; b <= 9; b++)
		centre += r[1].map_fast[b];
	assert_true(centre * 10 >= r[1].fast_used_end * 9);
	assert_int_equal(r[1].map_fast[0], 0);
	for (i = 0; i < 2; i++)
		sim_result_free(&r[i]);
	small_free(&s);
}

/* A made-up set of the five runs the goal's rows read. */
static void fake_set(struct run_set *rs, struct sim_result *res,
		     const char *title, u64 mainline_migr, u64 goal_promo)
{
	memset(rs, 0, sizeof(*rs));
	rs->title = title;
	rs->nr = 5;
	rs->res = res;
	fake(&res[0], "none", 30, 0, 0);
	fake(&res[1], "mainline", 35, mainline_migr / 2, mainline_migr / 2);
	fake(&res[2], "token-bucket:rate=64", 40, 10, 10);
	fake(&res[3], GOAL_POLICY, 52, goal_promo, goal_promo + 100);
	fake(&res[4], "oracle", 60, 0, 0);
}

/* results_len_write()'s page for the @nr sets of @rs, @w the first. */
static char *len_page(const struct run_set *rs, u32 nr,
		      const struct run_set *const *w)
{
	char *buf = NULL;
	size_t len;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	results_len_write(f, rs, nr, w, 1);
	fclose(f);
	return buf;
}

static void test_length_table(void **state)
{
	struct sim_result res[3][5];
	struct run_set rs[3];
	const struct run_set *w[1] = { &rs[0] };
	struct sim_cfg c;
	struct wl_params wp;
	struct sim_src src = { .name = "x" };
	char *buf;
	u32 i, b;

	(void)state;
	sim_cfg_defaults(&c);
	c.fast_pages = 1000;
	wl_defaults(&wp, WL_PMBENCH);
	/* 1x misses the bound (1000 of 1500), 2x meets it (1000 of 3000). */
	fake_set(&rs[0], res[0], RESULTS61_PREFIX "pmbench", 1500, 450);
	fake_set(&rs[1], res[1], "other", 1, 1);
	fake_set(&rs[2], res[2], RESULTS_LEN_PREFIX "pmbench-x2", 3000, 450);
	for (i = 0; i < 3; i++) {
		rs[i].cfg = &c;
		rs[i].src = &src;
		rs[i].wp = &wp;
		/* the initialisation pass: 100 pages demoted */
		res[i][3].alloc_fast = 1100;
	}
	/* The goal policy's promotions: 300 in sixteenth 7, 150 in 8. */
	res[0][3].map_promo[7] = 300;
	res[0][3].map_promo[8] = 150;
	for (b = 0; b < SIM_MAP_BINS; b++) {
		res[0][3].map_alloc[b] = res[0][4].map_alloc[b] = 100;
		res[0][1].map_alloc[b] = res[0][0].map_alloc[b] = 100;
	}
	res[0][3].map_fast[7] = 100;
	res[0][3].map_fast[8] = 50;
	res[0][4].map_fast[7] = res[0][4].map_fast[8] = 100;

	buf = len_page(rs, 3, w);
	assert_non_null(strstr(buf, "| pmbench | 1x | 0 | "
				    "`token-bucket:rate=64` | 40.000 | "
				    "60.000 | 52.000 | 60 % | +73.33 % | "
				    "1000 | 1500 | 0.67 | **no** |"));
	assert_non_null(strstr(buf, "| pmbench | 2x | 0 | "
				    "`token-bucket:rate=64` | 40.000 | "
				    "60.000 | 52.000 | 60 % | +73.33 % | "
				    "1000 | 3000 | 0.33 | **yes** |"));
	assert_null(strstr(buf, "| other |"));
	assert_non_null(strstr(buf, "migrates 1000 and 1000 pages (+0 % "
				    "from 1x to 2x), `mainline` 1500 and "
				    "3000 (+100 %): `" GOAL_POLICY "`'s "
				    "count levels off"));
	assert_non_null(strstr(buf, "The goal is met at 2x."));
	/* The map: sixteenth 7 is -0.5 to 0 sigma at the default 1/8. */
	assert_non_null(strstr(buf, "| -0.5 to +0.0 | 0 % | 0 % | 100 % | "
				    "100 % | 300 |"));
	assert_non_null(strstr(buf, "promoted 450 pages, 100 % of them "
				    "into the bands within 1 sigma"));
	assert_non_null(strstr(buf, "it holds 38 % of the pages within 1 "
				    "sigma on the fast tier (the oracle "
				    "50 %, `mainline` 0 %)"));
	/* (1500 / 2 - 100) / 2 = 325 promotions: 125 fewer than 450. */
	assert_non_null(strstr(buf, "about 325 promotions, each with its "
				    "demotion: 125 fewer"));
	free(buf);

	/* Without a longer run, no length table. */
	buf = len_page(rs, 2, w);
	assert_null(strstr(buf, "run's length"));
	assert_non_null(strstr(buf, "Where `" GOAL_POLICY "` puts"));
	free(buf);
}

/*
 * The goal and the seed: a column a seed, bold where the goal is met, the
 * count of workloads a seed meets it on, and why the goal policy fell
 * below none where it did.
 */
static void test_seed_table(void **state)
{
	struct sim_result res[3][5];
	struct run_set rs[4];
	const struct run_set *w[1] = { &rs[0] };
	struct sim_cfg c;
	char *buf;
	u32 i;

	(void)state;
	sim_cfg_defaults(&c);
	c.fast_pages = 1000;
	fake_set(&rs[0], res[0], RESULTS61_PREFIX "zipf", 1500, 450);
	fake_set(&rs[1], res[1], RESULTS_SEED_PREFIX "zipf-s2", 3000, 450);
	fake_set(&rs[2], res[2], RESULTS_SEED_PREFIX "zipf-s3", 1500, 450);
	rs[3] = rs[1];
	rs[3].title = RESULTS_SEED_PREFIX "zipfian-s2";	/* not zipf's */
	for (i = 0; i < 3; i++) {
		rs[i].cfg = &c;
		rs[i].seed = i + 1;
	}
	/* Seed 3: 25 M acc/s, below none, whose fast tier has the pages. */
	res[2][3].measured_accesses = 25000000;
	res[2][0].accesses = res[2][4].accesses = res[2][3].accesses = 1000;
	res[2][0].fast_accesses = 900;
	res[2][4].fast_accesses = 950;
	res[2][3].fast_accesses = 800;
	res[2][3].alloc_fast = 1100;

	buf = len_page(rs, 4, w);
	assert_non_null(strstr(buf, "### The goal and the seed"));
	assert_non_null(strstr(buf, "| workload | seed 1 | seed 2 | seed 3 |\n"
				    "|---|---|---|---|\n"));
	assert_non_null(strstr(buf, "| zipf | 60 %, +73 %, 0.67x | "
				    "**60 %, +73 %, 0.33x** | "
				    "-75 %, -17 %, 0.67x |\n"));
	assert_non_null(strstr(buf, "| goal met on | 0 of 1 | 1 of 1 | "
				    "0 of 1 |"));
	assert_non_null(strstr(buf, "`" GOAL_POLICY "` meets the goal on 0, "
				    "1 and 0 of the 1 workloads with these 3 "
				    "seeds."));
	assert_non_null(strstr(buf, "On zipf with seed 3 `" GOAL_POLICY "` "
				    "is 16.7 % slower than `none`, whose fast "
				    "tier serves 90.0 % of the accesses (the "
				    "oracle's 95.0 %, `" GOAL_POLICY "`'s "
				    "80.0 %): first touch put the hot pages "
				    "there"));
	assert_non_null(strstr(buf, "there, and kswapd demoted 100 pages "
				    "while the initialisation pass filled the "
				    "fast tier; `" GOAL_POLICY "` promoted "
				    "450 pages and demoted 550 in the run."));
	/* The verdict changes with the seed: the migrations over them. */
	assert_non_null(strstr(buf, "On zipf the verdict depends on the seed: "
				    "over the seeds `" GOAL_POLICY "` migrates "
				    "1000 to 1000 pages (+0 %), `mainline` "
				    "1500 to 3000 (+100 %)."));
	/* Only seed 3 fell below none. */
	assert_null(strstr(buf, "with seed 2"));
	free(buf);

	/* none's fast tier far from the oracle's: the figures, no cause. */
	res[2][0].fast_accesses = 500;
	buf = len_page(rs, 4, w);
	assert_non_null(strstr(buf, "whose fast tier serves 50.0 % of the "
				    "accesses (the oracle's 95.0 %, `"
				    GOAL_POLICY "`'s 80.0 %)."));
	assert_null(strstr(buf, "first touch"));
	free(buf);

	/*
	 * No demotion during the initialisation pass: none said. A loss
	 * under 1 % has two decimals.
	 */
	res[2][0].fast_accesses = 900;
	res[2][3].alloc_fast = 1000;
	res[2][3].measured_accesses = 29900000;
	buf = len_page(rs, 4, w);
	assert_non_null(strstr(buf, "`" GOAL_POLICY "` is 0.33 % slower "
				    "than `none`"));
	assert_non_null(strstr(buf, "first touch put the hot pages there; `"
				    GOAL_POLICY "` promoted 450 pages and "
				    "demoted 550 in the run."));
	free(buf);

	/* Without other seeds, no seed table. */
	buf = len_page(rs, 1, w);
	assert_null(strstr(buf, "and the seed"));
	free(buf);
}

/*
 * The 2022 ladder: each step against the one it follows; the one-step
 * threshold's row against the rate-limit step, as the 2022 controller's.
 */
static void test_ladder(void **state)
{
	static const char *const pol[] = {
		"promote-all", "mainline-bypass-reset-adaptive",
		"mainline-bypass-reset-adaptive:rate=" LADDER2022_STR,
		"mainline:rate=" LADDER2022_STR,
		"histogram:rate=" LADDER2022_STR,
	};
	static const u64 tput[] = { 100, 110, 80, 79, 84 };
	static const u64 promo[] = { 4000, 3000, 1000, 990, 850 };
	struct sim_result res[5];
	struct sim_cfg c;
	struct sim_src src = { .name = "x", .pages = 1024, .total = 1000 };
	struct run_set rs = {
		.title = LADDER2022_LABEL, .cfg = &c, .src = &src, .nr = 5,
		.res = res,
	};
	char *buf = NULL, want[96];
	size_t len;
	FILE *f;
	u32 i;

	(void)state;
	sim_cfg_defaults(&c);
	c.fast_pages = 256;
	for (i = 0; i < 5; i++) {
		fake(&res[i], pol[i], tput[i], promo[i], 0);
		res[i].nr_phases = 1;
		res[i].phase[0].promotions = promo[i];
	}
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	res_anchor_ladder(f, &rs);
	fclose(f);
	/* The limit against the hot-page selection step's 3000 pages in 1 s. */
	snprintf(want, sizeof(want), "(the rate limit: %s MB/s, %.0f %% of",
		 LADDER2022_STR, 100.0 * atof(LADDER2022_STR) /
		 (3000 * 4096.0 / 1048576.0));
	assert_non_null(strstr(buf, want));
	/* Auto-adjustment against the rate limit: 80 -> 79, 1000 -> 990. */
	assert_non_null(strstr(buf, "| threshold auto-adjustment | `mainline:"
				    "rate=" LADDER2022_STR "` | 1.7e+08, 136.9 "
				    "| 79.000, 3.9 | score +4.72 %, promotion "
				    "-17.13 % | score -1.25 %, promotion "
				    "-1.00 % | **no** / **yes** |"));
	/* The one-step row against the same step: 80 -> 84, 1000 -> 850. */
	assert_non_null(strstr(buf, "| `histogram:rate=" LADDER2022_STR "` | "
				    "1.7e+08, 136.9 | 84.000, 3.3 | score "
				    "+4.72 %, promotion -17.13 % | score "
				    "+5.00 %, promotion -15.00 % | **yes** / "
				    "**yes** | **yes** / **yes** | Both "
				    "within a factor of 2. |"));
	free(buf);
	/* A step's run missing: no table. */
	rs.nr = 4;
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	res_anchor_ladder(f, &rs);
	fclose(f);
	assert_int_equal(len, 0);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_goal_table),
		cmocka_unit_test(test_placement_map),
		cmocka_unit_test(test_length_table),
		cmocka_unit_test(test_seed_table),
		cmocka_unit_test(test_ladder),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
