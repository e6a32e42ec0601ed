/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Helpers of the tiersim tests (test_tiersim.c, test_tiersim61.c,
 * test_tiersim_damon.c, ...), which link the simulator's objects: a small
 * synthetic machine, a policy that must be accepted, the accounting every
 * run keeps, a machine with every page allocated by hand, a set's JSON.
 * Include after cmocka.h.
 */
#ifndef TP_TIERSIM_TEST_H
#define TP_TIERSIM_TEST_H

#include "../examples/tiersim/out.h"
#include "../examples/tiersim/sim_int.h"

struct setup {
	struct wl_params wp;
	struct wl wl;
	struct sim_src src;
	struct sim_cfg cfg;
};

/*
 * A small synthetic machine: @pages of @kind, @threads threads (0: the
 * workload's), fast tier @fast pages, scanning early and often so a short
 * run exercises everything.
 */
static inline void small_setup_threads(struct setup *s, u32 kind, u64 pages,
				       u64 accesses, u64 fast, u32 threads)
{
	char err[SIM_ERRLEN];

	wl_defaults(&s->wp, kind);
	s->wp.pages = pages;
	s->wp.accesses = accesses;
	s->wp.burst_pages = pages / 16;
	if (threads)
		s->wp.threads = threads;
	assert_int_equal(wl_init(&s->wl, &s->wp, err, sizeof(err)), 0);
	assert_int_equal(sim_src_workload(&s->src, &s->wl), 0);
	sim_cfg_defaults(&s->cfg);
	s->cfg.fast_pages = fast;
	s->cfg.slow_pages = pages;
	s->cfg.scan_delay_ms = 5;
	s->cfg.scan_period_ms = 5;
	s->cfg.scan_size_mb = 4;
	s->cfg.sample_ms = 2;
	s->cfg.scan_period_max_ms = 50;
}

static inline void small_setup(struct setup *s, u32 kind, u64 pages,
			       u64 accesses, u64 fast)
{
	small_setup_threads(s, kind, pages, accesses, fast, 0);
}

static inline void small_free(struct setup *s)
{
	sim_src_free(&s->src);
	wl_free(&s->wl);
}

/* Parse and finalize @spec, which must be accepted. */
static inline void policy(struct sim_policy *p, const char *spec,
			  const struct sim_cfg *c)
{
	char err[SIM_ERRLEN];

	if (sim_policy_parse(spec, p, err, sizeof(err)) ||
	    sim_policy_finalize(p, c, err, sizeof(err))) {
		print_error("%s: %s\n", spec, err);
		fail();
	}
}

/* The error sim_policy_parse() or _finalize() gives for @spec. */
static inline const char *refused(const char *spec, const struct sim_cfg *c)
{
	static char err[SIM_ERRLEN];
	struct sim_policy p;

	err[0] = 0;
	if (!sim_policy_parse(spec, &p, err, sizeof(err)) &&
	    !sim_policy_finalize(&p, c, err, sizeof(err)))
		return NULL;
	assert_true(err[0] != 0);
	return err;
}

/*
 * What every run keeps: it replayed the stream, every allocated page is on
 * one tier, promotions minus demotions are the fast tier's change, and the
 * placement map adds up to the run's totals.
 */
static inline void check_accounting(const struct sim_src *src,
				    const struct sim_result *r)
{
	u64 phases = 0, promo = 0, alloc = 0, fast = 0;
	u32 i;

	for (i = 0; i < SIM_MAP_BINS; i++) {
		assert_true(r->map_fast[i] <= r->map_alloc[i]);
		promo += r->map_promo[i];
		alloc += r->map_alloc[i];
		fast += r->map_fast[i];
	}
	assert_int_equal(promo, r->promotions);
	assert_int_equal(fast, r->fast_used_end);
	assert_int_equal(alloc, r->fast_used_end + r->slow_used_end);

	assert_false(r->failed);
	assert_int_equal(r->accesses, src->total);
	for (i = 0; i < r->nr_phases; i++)
		phases += r->phase[i].accesses;
	assert_int_equal(phases, src->total);
	assert_int_equal(r->fast_used_end + r->slow_used_end,
			 r->alloc_fast + r->alloc_slow);
	assert_int_equal(r->promotions - r->demotions,
			 r->fast_used_end - r->alloc_fast);
	assert_true(r->fast_accesses <= r->accesses);
}

/* A struct sim on @st's machine and source under @p, results in @r. */
static inline void sim_begin(struct sim *s, struct setup *st,
			     struct sim_policy *p, struct sim_result *r)
{
	memset(s, 0, sizeof(*s));
	s->c = &st->cfg;
	s->p = p;
	s->src = &st->src;
	s->r = r;
	assert_int_equal(sim_setup(s), 0);
}

/*
 * A struct sim on 4096 pages with a fast tier of 1024 and the watermarks
 * 10/20/30/40, every page allocated by hand (the first 1024 - 20 on the
 * fast tier, as first touch stops at the low watermark), with what the
 * allocations did (kswapd woken, the counts) left as they are.
 */
static inline void part_alloc(struct setup *st, struct sim *s,
			      struct sim_policy *p, struct sim_result *r,
			      u32 threads, const char *spec, u32 scan_pte_ns)
{
	static const u64 wm[4] = { 10, 20, 30, 40 };
	char err[SIM_ERRLEN];
	u64 u;

	small_setup_threads(st, WL_UNIFORM, 4096, 1000, 1024, threads);
	memcpy(st->cfg.wmark, wm, sizeof(wm));
	if (scan_pte_ns)
		st->cfg.costs.scan_pte_ns = scan_pte_ns;
	assert_int_equal(sim_validate(&st->cfg, &st->src, err, sizeof(err)),
			 0);
	policy(p, spec, &st->cfg);
	memset(r, 0, sizeof(*r));
	sim_begin(s, st, p, r);
	for (u = 0; u < 4096; u++)
		alloc_unit(s, u);
	assert_int_equal(fast_free_pages(s), 20);
}

/* part_alloc(), then what the allocations did is cleared. */
static inline void part_pte(struct setup *st, struct sim *s,
			    struct sim_policy *p, struct sim_result *r,
			    u32 threads, const char *spec, u32 scan_pte_ns)
{
	part_alloc(st, s, p, r, threads, spec, scan_pte_ns);
	/* Whatever the allocations woke is not part of the tests. */
	s->kswapd_awake = 0;
	memset(s->r, 0, sizeof(*s->r));
	s->r->vma = s->vst;
	s->r->nr_vmas = s->nr_vmas;
}

static inline void part(struct setup *st, struct sim *s,
			struct sim_policy *p, struct sim_result *r,
			u32 threads, const char *spec)
{
	part_pte(st, s, p, r, threads, spec, 0);
}

/* Demote @n units of the fast tier at once (room for promotions). */
static inline void make_room(struct sim *s, u64 n)
{
	u64 sl;

	for (sl = 0; sl < s->fcap && n; sl++) {
		u64 u = s->fslot[sl];

		if (u == NO_SLOT)
			continue;
		if (s->lru)
			lru_del(s, !!(s->flags[u] & PF_ACTIVE), sl);
		slot_remove(s, sl);
		s->flags[u] &= (u8)~PF_FAST;
		s->sused++;
		n--;
	}
	assert_int_equal(n, 0);
}

static inline void part_teardown(struct setup *st, struct sim *s)
{
	sim_teardown(s);
	sim_result_free(s->r);
	small_free(st);
}

/* The JSON of a set, in a buffer the caller frees. */
static inline char *json_of(const struct run_set *rs, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	assert_non_null(f);
	out_json(f, rs, 1);
	assert_int_equal(fclose(f), 0);
	return buf;
}

#endif /* TP_TIERSIM_TEST_H */
