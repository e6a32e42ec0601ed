// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * CMocka tests of the promotion rate limiter's windows (lib/limiter.c):
 * the 2020 RFC's and Linux 6.1's per-second windows, against a model of
 * their documented semantics, per-CPU slots and their batch included.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <tierpol/tierpol.h>
#include "selftest/selftest.h"
#include "tp_test_util.h"
#include "tp_test_limiter.h"

static void test_window_limit_th_page(void **state)
{
	struct tp_limiter l;
	struct tp_limiter_cfg c;
	u64 limit, n;

	(void)state;
	for (limit = 1; limit < 3000; limit = limit * 3 + 1) {
		c = mkcfg(TP_LIMITER_WINDOW_RFC2020, 1000, limit, 0, 0);
		assert_int_equal(tp_limiter_init(&l, &c, 0), 0);
		for (n = 0; tp_limiter_consume(&l, NULL, 1, 10); n++)
			;
		assert_int_equal(n, limit);	/* the limit-th admitted */
		c.variant = TP_LIMITER_WINDOW_LINUX61;
		assert_int_equal(tp_limiter_init(&l, &c, 0), 0);
		for (n = 0; tp_limiter_consume(&l, NULL, 1, 10); n++)
			;
		/* the limit-th refused */
		assert_int_equal(n, limit - 1);
	}
}

static void test_window_rolls_strictly(void **state)
{
	struct tp_limiter l;
	struct tp_limiter_cfg c = mkcfg(TP_LIMITER_WINDOW_LINUX61, 250, 10, 0,
					0);
	u64 start = 1000;
	int w;

	(void)state;
	assert_int_equal(tp_limiter_init(&l, &c, start), 0);
	assert_true(tp_limiter_consume(&l, NULL, 9, start));
	for (w = 0; w < 50; w++) {
		/* refused through start + tps inclusive */
		assert_false(tp_limiter_consume(&l, NULL, 1, start + 1));
		assert_false(tp_limiter_consume(&l, NULL, 1, start + 250));
		/* start + tps + 1: a new window, opened by this request */
		start += 251;
		assert_true(tp_limiter_consume(&l, NULL, 500, start));
		assert_true(tp_limiter_consume(&l, NULL, 9, start + 100));
	}
}

/*
 * An independent model of the documented window semantics, per-CPU slots
 * included: a slot keeps its pages until @batch are pending, then adds
 * them all to the shared count, which the window compares.
 */
#define WSLOTS	4

struct wmodel {
	u64 start, count, base, limit;
	u64 diff[WSLOTS];
	u32 tps, batch;
	bool rfc;
};

static bool wmodel_consume(struct wmodel *m, int slot, u64 n, u64 now)
{
	u64 used;

	if (!n)
		return true;
	if (slot < 0 || m->batch <= 1) {
		m->count += n;
	} else {
		m->diff[slot] += n;
		if (m->diff[slot] >= m->batch) {
			m->count += m->diff[slot];
			m->diff[slot] = 0;
		}
	}
	if ((s64)(now - m->start) > (s64)m->tps) {
		m->start = now;
		m->base = m->count;
	}
	used = m->count - m->base;
	if (!m->limit)
		return false;
	return m->rfc ? used <= m->limit : used < m->limit;
}

/*
 * Random requests from up to 4 slots (or none) against the model, with
 * batches from 0 to 64: the same answers, each window admits at most
 * limit + C x (batch - 1) + n_max, and T seconds at most
 * (T + 2) x (limit + n_max + C x (batch - 1)).
 */
static void test_window_random_bound(void **state)
{
	static struct tp_limiter_cpu slot[WSLOTS];
	struct tp_limiter l;
	struct tp_limiter_cfg c;
	struct wmodel m;
	u64 now, n, nmax, in_win, wmax, opened, t0, tot, late, worst = 0;
	int run, k, s;
	bool got;

	(void)state;
	for (run = 0; run < 400; run++) {
		c = mkcfg(run & 1 ? TP_LIMITER_WINDOW_RFC2020 :
				    TP_LIMITER_WINDOW_LINUX61,
			  (u32)rnd_range(1, 100000), rnd_range(1, 5000), 0, 0);
		c.cand_batch = run % 4 ? (u32)rnd_range(0, 64) : 0;
		nmax = rnd_range(1, 600);
		t0 = rnd();
		memset(slot, 0, sizeof(slot));
		assert_int_equal(tp_limiter_init(&l, &c, t0), 0);
		memset(&m, 0, sizeof(m));
		m.start = t0;
		m.limit = c.rate;
		m.tps = c.tps;
		m.batch = c.cand_batch;
		m.rfc = run & 1;
		late = WSLOTS * (m.batch > 1 ? m.batch - 1 : 0);
		now = t0;
		in_win = 0;
		wmax = 0;
		opened = t0;
		tot = 0;
		for (k = 0; k < 5000; k++) {
			now += rnd_range(0, c.tps / 20 + 1);
			n = rnd_range(1, nmax);
			s = (int)rnd_range(0, WSLOTS) - 1;
			got = tp_limiter_consume(&l, s < 0 ? NULL : &slot[s],
						 n, now);
			assert_int_equal(got, wmodel_consume(&m, s, n, now));
			if (m.start != opened) {
				opened = m.start;
				in_win = 0;
				wmax = 0;
			}
			if (got) {
				in_win += n;
				tot += n;
				wmax = n > wmax ? n : wmax;
			}
			assert_true(in_win <= c.rate + late + nmax);
			/* beyond what exact counting allows */
			if (in_win > c.rate + wmax &&
			    in_win - c.rate - wmax > worst)
				worst = in_win - c.rate - wmax;
		}
		assert_true(tot <= ((now - t0) / c.tps + 3) *
				   (c.rate + nmax + late));
		for (s = 0; s < WSLOTS; s++)
			assert_int_equal(tp_limiter_busy(&slot[s]), 0);
	}
	/*
	 * The slots' lag does show: some window admitted more than exact
	 * counting allows by more than one slot's batch (111 pages here).
	 */
	assert_true(worst > 64);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_window_limit_th_page),
		cmocka_unit_test(test_window_rolls_strictly),
		cmocka_unit_test(test_window_random_bound),
	};

	return cmocka_run_group_tests_name("limiter_window", tests, NULL, NULL);
}
