/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Helpers of the tiersim tests (test_tiersim.c, test_tiersim61.c), which
 * compile the simulator's sources in: a small synthetic machine, a policy
 * that must be accepted, the accounting every run keeps, a set's JSON.
 * Include after cmocka.h and the simulator's sources.
 */
#ifndef _TIERPOL_TIERSIM_TEST_H
#define _TIERPOL_TIERSIM_TEST_H

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

#endif /* _TIERPOL_TIERSIM_TEST_H */
