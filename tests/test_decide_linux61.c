// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * tp_decide() with TP_PRESET_LINUX61 against a model of Linux 6.1's
 * promotion decision, fault by fault: the memory-tiering branch of
 * should_numa_migrate_memory() in kernel/sched/fair.c (the free-space
 * bypass of pgdat_free_space_enough(), numa_promotion_adjust_threshold(),
 * the hot threshold, numa_promotion_rate_limit()) and the room check of
 * migrate_balanced_pgdat() in mm/migrate.c, written here from their rules
 * (docs/decision.md walks them) with the kernel's types: times are the
 * unsigned int milliseconds of jiffies_to_msecs(), which wrap every 49.7
 * days, counts are unsigned long.
 *
 * One CPU, a candidate batch of 1 (6.1 reads node_page_state(), which on
 * one CPU lags by the vmstat threshold; the model reads the exact count,
 * as tierpol does with a batch of 1), one zone on the target node (6.1
 * passes its checks when any zone does: policy.h, struct tp_node_mem).
 * Random faults (latency, THP or base page, flags 6.1 ignores), the target
 * node's free pages at and around both watermark edges, time steps of a
 * few milliseconds with jumps past a window or a period, the rate limit
 * retuned and the tiering mode switched on again (reset_memory_tiering()).
 * The clock starts 3 s before the unsigned int milliseconds wrap.
 *
 * Two wrong models must disagree, so the comparison can see a difference:
 * one whose rate-limit window opens at init (tierpol before December
 * 2026; 6.1's nbp_rl_start is 0 from boot, so its first candidate opens
 * the first window) and one that reads latency == threshold as hot (the
 * 2020 RFC's comparison).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <tierpol/tierpol.h>
#include "selftest/selftest.h"

#define TP_TEST_RNG_SEED	0x9e3779b97f4a7c15ULL
#include "tp_test_util.h"

/* 4 KiB pages: 1 GiB is 262144 pages. */
#define M61_GIB_PAGES		(1UL << (30 - 12))
#define M61_PERIOD_MS		2000U	/* scan_period_max, shortened */
#define M61_HOT_MS		1000U	/* hot_threshold_ms, the default */

/* The wrong models: struct m61's quirks. */
enum { M61_OPEN_AT_INIT = 1, M61_HOT_AT_EQUAL = 2 };

/* One target node's fields of struct pglist_data, and the sysctls. */
struct m61 {
	unsigned int nbp_rl_start;
	unsigned long nbp_rl_nr_cand;
	unsigned int nbp_th_start;
	unsigned long nbp_th_nr_cand;
	unsigned int nbp_threshold;
	unsigned long cand;		/* PGPROMOTE_CANDIDATE */
	unsigned int hot_threshold;	/* sysctl, ms */
	unsigned int rate_limit_mbps;	/* sysctl */
	unsigned int quirks;		/* M61_*: the wrong models */
};

/* reset_memory_tiering(): tiering switched on at @now. */
static void m61_reset(struct m61 *m, unsigned int now)
{
	m->nbp_threshold = 0;
	m->nbp_th_nr_cand = m->cand;
	m->nbp_th_start = now;
}

static void m61_adjust(struct m61 *m, unsigned int now,
		       unsigned long rate_limit, unsigned int ref_th)
{
	unsigned long ref_cand, diff_cand;
	unsigned int unit_th, th;

	if (now - m->nbp_th_start <= M61_PERIOD_MS)
		return;
	m->nbp_th_start = now;
	ref_cand = rate_limit * M61_PERIOD_MS / 1000;
	diff_cand = m->cand - m->nbp_th_nr_cand;
	unit_th = ref_th * 2 / 16;
	th = m->nbp_threshold ? m->nbp_threshold : ref_th;
	if (diff_cand > ref_cand * 11 / 10)
		th = th - unit_th > unit_th ? th - unit_th : unit_th;
	else if (diff_cand < ref_cand * 9 / 10)
		th = th + unit_th < ref_th * 2 ? th + unit_th : ref_th * 2;
	m->nbp_th_nr_cand = m->cand;
	m->nbp_threshold = th;
}

/* True: over the limit. The candidate is counted first. */
static bool m61_rate_limited(struct m61 *m, unsigned int now,
			     unsigned long rate_limit, unsigned long nr)
{
	m->cand += nr;
	if (now - m->nbp_rl_start > 1000) {
		m->nbp_rl_start = now;
		m->nbp_rl_nr_cand = m->cand;
	}
	return m->cand - m->nbp_rl_nr_cand >= rate_limit;
}

/* pgdat_free_space_enough()'s margin above the promo watermark. */
static unsigned long m61_enough(const struct tp_node_mem *mem)
{
	unsigned long sixteenth = (unsigned long)(mem->present >> 4);

	return M61_GIB_PAGES > sixteenth ? M61_GIB_PAGES : sixteenth;
}

static int m61_decide(struct m61 *m, const struct tp_node_mem *mem,
		      unsigned int now, unsigned int latency, unsigned long nr)
{
	unsigned long enough = m61_enough(mem);
	unsigned long rate_limit = (unsigned long)m->rate_limit_mbps << 8;
	bool room = mem->free > mem->wmark_high + nr;
	unsigned int th;

	if (mem->free > mem->wmark_promo + enough) {
		m->nbp_threshold = 0;	/* "workload changed" */
		return room ? TP_PROMOTE_NRL : TP_REFUSE_NOSPACE;
	}
	m61_adjust(m, now, rate_limit, m->hot_threshold);
	th = m->nbp_threshold ? m->nbp_threshold : m->hot_threshold;
	if ((m->quirks & M61_HOT_AT_EQUAL) ? latency > th : latency >= th)
		return TP_REFUSE_COLD;
	if (m61_rate_limited(m, now, rate_limit, nr))
		return TP_REFUSE_RATELIMIT;
	return room ? TP_PROMOTE : TP_REFUSE_NOSPACE;
}

/* The target node's memory: around both edges, or plenty, or tight. */
static void pick_mem(struct tp_node_mem *mem, unsigned long nr)
{
	unsigned long enough = m61_enough(mem);

	switch (rnd_range(0, 5)) {
	case 0:		/* the free-space bypass's edge */
		mem->free = mem->wmark_promo + enough + rnd_range(0, 2) - 1;
		break;
	case 1:		/* the room check's edge */
		mem->free = mem->wmark_high + nr + rnd_range(0, 2) - 1;
		break;
	case 2:
		mem->free = rnd_range(0, mem->wmark_high + 600);
		break;
	default:	/* room, no bypass: the threshold and the limit decide */
		mem->free = mem->wmark_promo + rnd_range(1000, enough - 1000);
		break;
	}
}

struct diff_run {
	u64 calls;
	u64 differ;
	u64 pages[TP_NR_VERDICTS];	/* the model's, by verdict */
};

/*
 * @calls random faults from @seed on a fresh policy and node and on the
 * model with @quirks: the faults whose verdicts differ and the model's
 * pages by verdict in @out. With no quirk, the node's statistics must be
 * the model's pages.
 */
static void run_diff(u64 seed, u64 calls, unsigned int quirks,
		     struct diff_run *out)
{
	static struct tp_node node;
	static struct tp_node_cpu cpu;
	struct tp_policy_cfg cfg;
	struct tp_policy pol;
	struct tp_node_stats s;
	struct tp_node_mem mem = {
		.wmark_min = 8000, .wmark_low = 10000, .wmark_high = 12000,
		.wmark_promo = 14000, .present = 1UL << 24,
	};
	struct m61 m;
	u64 now = (1ULL << 32) - 3000, i;
	int v;

	rng_state = seed;
	memset(out, 0, sizeof(*out));
	memset(&m, 0, sizeof(m));
	memset(&cpu, 0, sizeof(cpu));
	assert_int_equal(tp_policy_preset(&cfg, TP_PRESET_LINUX61, 1000), 0);
	cfg.cand_batch = 1;
	cfg.rate_limit_mbps = (u32)rnd_range(1, 4);
	cfg.scan_period_max_ms = M61_PERIOD_MS;
	assert_int_equal(tp_policy_init(&pol, &cfg), 0);
	assert_int_equal(tp_node_init(&node, &pol, now), 0);
	m.hot_threshold = M61_HOT_MS;
	m.rate_limit_mbps = cfg.rate_limit_mbps;
	m.quirks = quirks;
	m61_reset(&m, (unsigned int)now);	/* tiering on, at init */
	if (quirks & M61_OPEN_AT_INIT)
		m.nbp_rl_start = (unsigned int)now;

	for (i = 0; i < calls; i++) {
		struct tp_fault f = {
			.latency = rnd_range(0, 2500),
			.nr_pages = rnd_range(0, 49) ? 1 : 512,
			/* 6.1 has no young check nor write doubling */
			.flags = (rnd_range(0, 1) ? TP_FAULT_YOUNG : 0) |
				 (rnd_range(0, 1) ? TP_FAULT_WRITE : 0),
		};
		u64 r = rnd_range(0, 9999);

		if (r < 5)		/* past a window */
			now += rnd_range(900, 1100);
		else if (r < 7)		/* past a period and then some */
			now += rnd_range(2000, 7000);
		else
			now += rnd_range(0, 3);
		if (r == 9999) {	/* the sysctl written */
			cfg.rate_limit_mbps = (u32)rnd_range(1, 8);
			assert_int_equal(tp_policy_tune(&pol, &cfg), 0);
			m.rate_limit_mbps = cfg.rate_limit_mbps;
		} else if (r == 9998) {	/* tiering off, then on again */
			tp_node_reset(&node, now);
			m61_reset(&m, (unsigned int)now);
		}
		pick_mem(&mem, f.nr_pages);

		v = tp_decide(&pol, &node, &cpu, &f, &mem, now);
		assert_true(v >= 0 && v < TP_NR_VERDICTS);
		r = (u64)m61_decide(&m, &mem, (unsigned int)now,
				    (unsigned int)f.latency, f.nr_pages);
		out->pages[r] += f.nr_pages;
		if ((u64)v != r) {
			if (!quirks && out->differ < 5)
				print_message("seed %llx call %llu t=%llu lat=%llu nr=%llu free=%llu: tierpol %s, 6.1 %s\n",
					      (unsigned long long)seed,
					      (unsigned long long)i,
					      (unsigned long long)now,
					      (unsigned long long)f.latency,
					      (unsigned long long)f.nr_pages,
					      (unsigned long long)mem.free,
					      tp_verdict_name(v),
					      tp_verdict_name((int)r));
			out->differ++;
		}
	}
	out->calls = calls;
	if (quirks)
		return;
	/* And the statistics say the same, verdict by verdict. */
	tp_node_stats_read(&pol, &node, &s);
	tp_node_stats_add(&s, &cpu);
	for (v = 0; v < TP_NR_VERDICTS; v++)
		assert_true(s.verdict[v] == out->pages[v]);
}

static const u64 seeds[] = {
	0x9e3779b97f4a7c15ULL, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
};

static void test_same_verdicts(void **state)
{
	struct diff_run d;
	u64 promoted = 0, limited = 0, cold = 0, nrl = 0, nospace = 0;
	size_t k;

	(void)state;
	for (k = 0; k < sizeof(seeds) / sizeof(seeds[0]); k++) {
		run_diff(seeds[k], 100000, 0, &d);
		assert_true(d.differ == 0);
		promoted += d.pages[TP_PROMOTE];
		limited += d.pages[TP_REFUSE_RATELIMIT];
		cold += d.pages[TP_REFUSE_COLD];
		nrl += d.pages[TP_PROMOTE_NRL];
		nospace += d.pages[TP_REFUSE_NOSPACE];
	}
	/* Every path taken, many times: the comparison means something. */
	assert_true(promoted > 10000 && limited > 10000 && cold > 10000);
	assert_true(nrl > 10000 && nospace > 10000);
	print_message("%zu seeds x 100000 faults: the same verdicts (pages: promote %llu, rate limit %llu, cold %llu, bypass %llu, no room %llu)\n",
		      k, (unsigned long long)promoted,
		      (unsigned long long)limited, (unsigned long long)cold,
		      (unsigned long long)nrl, (unsigned long long)nospace);
}

/* The comparison sees the two differences it should. */
static void test_wrong_models_differ(void **state)
{
	struct diff_run d;
	u64 open_at_init = 0, hot_at_equal = 0;
	size_t k;

	(void)state;
	for (k = 0; k < sizeof(seeds) / sizeof(seeds[0]); k++) {
		run_diff(seeds[k], 100000, M61_OPEN_AT_INIT, &d);
		open_at_init += d.differ != 0;
		run_diff(seeds[k], 100000, M61_HOT_AT_EQUAL, &d);
		hot_at_equal += d.differ != 0;
	}
	assert_true(open_at_init > 0);
	assert_true(hot_at_equal > 0);
	print_message("seeds that tell a wrong model apart: window opened at init %llu of %zu, hot at equal %llu of %zu\n",
		      (unsigned long long)open_at_init, k,
		      (unsigned long long)hot_at_equal, k);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_verdicts),
		cmocka_unit_test(test_wrong_models_differ),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
