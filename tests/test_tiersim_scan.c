// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * tiersim's NUMA scanner against Linux 6.1's rules, through the passes a
 * run logs (struct sim_pass: time, scan sequence, period): task_numa_work()
 * moves numa_scan_seq when a pass reaches the end of the address space;
 * in tiering mode (no NUMA_BALANCING_NORMAL) the only faults that reach
 * task_numa_fault()'s statistics are promotions, private and not local,
 * so update_task_scan_period() doubles the period (to task_scan_max())
 * and nothing else, once per scan sequence, at the first promotion after
 * the sequence moved; the next pass is at least a period after the last.
 *
 * It links the simulator's objects (examples/tiersim/tiersim.mk), which
 * each build of the tests compiles with its own flags, so those builds
 * cover them too: gcc's ASan and UBSan, valgrind, TP_DEBUG, 32-bit.
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

/*
 * A Gaussian of 8192 pages on a fast tier of 3072, scanned 4 MiB (1024
 * pages) a pass, the period adaptive from 5 ms (the scan delay) up to
 * @max_ms; mainline's policy (6.1's tiering mode).
 */
static void scan_run(struct sim_result *r, u32 max_ms)
{
	struct setup s;
	struct sim_policy p;
	char err[SIM_ERRLEN];

	small_setup(&s, WL_PMBENCH, 8192, 4000000, 3072);
	s.cfg.scan_period_ms = 0;
	s.cfg.scan_period_min_ms = 5;
	s.cfg.scan_delay_ms = 5;
	s.cfg.scan_period_max_ms = max_ms;
	assert_int_equal(sim_validate(&s.cfg, &s.src, err, sizeof(err)), 0);
	policy(&p, "mainline", &s.cfg);
	assert_int_equal(sim_run(&s.cfg, &p, &s.src, r, NULL), 0);
	small_free(&s);
}

static void test_scan_period_doubles(void **state)
{
	struct sim_result *r = calloc(1, sizeof(*r));
	u64 changes = 0, moves = 0, last_change_seq = 0;
	u32 i;

	(void)state;
	assert_non_null(r);
	scan_run(r, 1000);
	assert_true(r->nr_passes > 8);
	assert_true(r->promotions > 0);
	/*
	 * The mm's first scan is the scan delay away; the first tick set
	 * the period to task_scan_start(): 1 ms here (1000 ms over 640
	 * windows of 4 MiB in 2560 MiB/s, above 5 ms over 8 windows).
	 */
	assert_true(r->pass[0].t_ns >= 5 * SIM_NS_PER_MS);
	assert_true(r->pass[0].period_ns == 1 * SIM_NS_PER_MS);
	for (i = 1; i < r->nr_passes; i++) {
		const struct sim_pass *a = &r->pass[i - 1], *b = &r->pass[i];

		/* The sequence moves by one at most, at a wrap. */
		assert_true(b->seq == a->seq || b->seq == a->seq + 1);
		moves += b->seq != a->seq;
		/* No pass before the period after the last one has passed. */
		assert_true(b->t_ns >= a->t_ns + a->period_ns);
		if (b->period_ns == a->period_ns)
			continue;
		/*
		 * Only doubling (capped), and once per sequence: the
		 * change between two passes belongs to the sequence of the
		 * first, and none before it changed the period.
		 */
		assert_true(b->period_ns == 2 * a->period_ns);
		assert_true(!changes || a->seq > last_change_seq);
		last_change_seq = a->seq;
		changes++;
	}
	/*
	 * The run moved its sequence and doubled its period at each move
	 * (each sequence saw a promotion), but the last if no promotion
	 * followed it before the next pass.
	 */
	assert_true(moves >= 3);
	assert_true(changes >= moves - 1 && changes <= moves);
	sim_result_free(r);
	free(r);
}

/*
 * task_scan_max(): numa_balancing_scan_period_max_ms over the windows, not
 * below task_scan_min(): 16 ms over 8 windows caps the period at 2 ms,
 * one doubling from 1 ms, whatever the sequences after.
 */
static void test_scan_period_capped(void **state)
{
	struct sim_result *r = calloc(1, sizeof(*r));
	u32 i, moves = 0;

	(void)state;
	assert_non_null(r);
	scan_run(r, 16);
	assert_true(r->nr_passes > 8);
	for (i = 1; i < r->nr_passes; i++) {
		moves += r->pass[i].seq != r->pass[i - 1].seq;
		assert_true(r->pass[i].period_ns <= 2 * SIM_NS_PER_MS);
		assert_true(r->pass[i].period_ns >= r->pass[i - 1].period_ns);
	}
	assert_true(moves >= 3);
	assert_true(r->pass[0].period_ns == 1 * SIM_NS_PER_MS);
	assert_true(r->pass[r->nr_passes - 1].period_ns == 2 * SIM_NS_PER_MS);
	sim_result_free(r);
	free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scan_period_doubles),
		cmocka_unit_test(test_scan_period_capped),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
