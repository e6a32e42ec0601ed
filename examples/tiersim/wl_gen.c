// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * tiersim workload generators: the streams (libc only, see wl.h). Each
 * thread draws from its own xoshiro256** state; wl_fill() yields the
 * threads' streams one after the other. wl.c sets the generators up.
 */
#include "wl_int.h"

#include <string.h>

/* cold-burst: key k -> page, a bijection scattering keys. */
static inline uint64_t key_page(const struct wl *w, uint64_t k)
{
	return (mulmod(k, w->mult, w->p.pages) + w->burst_base) % w->p.pages;
}

uint32_t wl_region(const struct wl *w, uint64_t page)
{
	uint64_t n = w->p.pages, k;

	switch (w->p.kind) {
	case WL_GUPS_HOTSET:
	case WL_PHASE_SHIFT:
		if (page >= w->hot0 && page < w->hot0 + w->hot_n)
			return WL_REGION_HOT;
		if (w->p.kind == WL_PHASE_SHIFT && page >= w->hot2 &&
		    page < w->hot2 + w->hot_n)
			return WL_REGION_HOT2;
		return WL_REGION_OTHER;
	case WL_DISJOINT_VMA:
		return page >= w->hot0 ? WL_REGION_HOT : WL_REGION_OTHER;
	case WL_COLD_BURST:
		k = mulmod((page + n - w->burst_base) % n, w->inv_mult, n);
		if (k < w->hot_n)
			return WL_REGION_HOT;
		if (k < w->hot_n + w->p.burst_pages)
			return WL_REGION_BURST;
		return WL_REGION_OTHER;
	default:
		return WL_REGION_OTHER;
	}
}

/* Touch every page of [first, ...) once, in address order. */
static size_t fill_init(struct wl_thread *t, uint64_t *buf, size_t n,
			uint64_t first)
{
	uint64_t page = first + t->base + t->done;
	size_t i;

	for (i = 0; i < n; i++, page++)
		buf[i] = WL_MAKE(page, 1, t->tid);
	return n;
}

static size_t fill_pmbench(const struct wl *w, struct wl_thread *t,
			   uint64_t *buf, size_t n)
{
	const double mean = w->mean, sigma = w->sigma;
	const double top = (double)w->p.pages;
	const uint32_t wth = w->write_th;
	size_t i;

	for (i = 0; i < n; i++) {
		uint64_t r;
		double z, pos;

		do {
			uint32_t bin, frac;

			r = rnd(t->s);
			bin = (uint32_t)(r >> (64 - GAUSS_BITS));
			frac = (uint32_t)(r >> 32) & 0xfffff;
			z = wl_gauss_tab[bin] + (wl_gauss_tab[bin + 1] -
					      wl_gauss_tab[bin]) *
				(frac * (1.0 / 1048576.0));
			pos = mean + z * sigma;
		} while (!(pos >= 0 && pos < top));
		buf[i] = WL_MAKE((uint64_t)pos, (uint32_t)r < wth, t->tid);
	}
	return n;
}

static size_t fill_zipf(const struct wl *w, struct wl_thread *t,
			uint64_t *buf, size_t n)
{
	const uint32_t pages = (uint32_t)w->p.pages, wth = w->write_th;
	size_t i;

	for (i = 0; i < n; i++) {
		uint64_t r = rnd(t->s), r2;
		uint32_t idx = bounded32((uint32_t)(r >> 32), pages);

		if ((uint32_t)r >= w->alias_prob[idx])
			idx = w->alias_idx[idx];
		r2 = rnd(t->s);
		buf[i] = WL_MAKE(idx, (uint32_t)r2 < wth, t->tid);
	}
	return n;
}

static size_t fill_uniform(const struct wl *w, struct wl_thread *t,
			   uint64_t *buf, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		uint64_t r = rnd(t->s);

		buf[i] = WL_MAKE(bounded(r, w->p.pages),
				 (uint32_t)rnd(t->s) < w->write_th, t->tid);
	}
	return n;
}

/* gups-hotset and phase-shift: @hot is the current hot set's start. */
static size_t fill_hotset(const struct wl *w, struct wl_thread *t,
			  uint64_t *buf, size_t n, uint64_t hot)
{
	const uint64_t hn = w->hot_n, cold = w->p.pages - hn;
	size_t i;

	for (i = 0; i < n; i++) {
		uint64_t r = rnd(t->s), r2 = rnd(t->s), page;

		if ((uint32_t)r < w->hot_th) {
			page = hot + bounded(r2, hn);
		} else {
			/* Uniform over the pages outside the hot set. */
			page = bounded(r2, cold);
			if (page >= hot)
				page += hn;
		}
		buf[i] = WL_MAKE(page, (uint32_t)(r >> 32) < w->write_th,
				 t->tid);
	}
	return n;
}

static size_t fill_cold_burst(const struct wl *w, struct wl_thread *t,
			      uint64_t *buf, size_t n, int burst)
{
	const uint64_t pages = w->p.pages, hn = w->hot_n;
	const uint64_t bn = w->p.burst_pages;
	uint64_t bm = wl_scatter_mult(bn);
	size_t i;

	for (i = 0; i < n; i++) {
		uint64_t r = rnd(t->s), k;

		if (burst) {
			/* Every burst key once, in a scattered order. */
			k = hn + mulmod(t->base + t->done + i, bm, bn);
		} else if ((uint32_t)r < w->hot_th) {
			k = bounded(rnd(t->s), hn);
		} else {
			k = bounded(rnd(t->s), pages);
		}
		buf[i] = WL_MAKE(key_page(w, k),
				 (uint32_t)(r >> 32) < w->write_th, t->tid);
	}
	return n;
}

/* The first half of the threads on the small VMA, the rest on the large. */
static size_t fill_disjoint(const struct wl *w, struct wl_thread *t,
			    uint64_t *buf, size_t n)
{
	const uint64_t small = w->vma[0].pages, big = w->vma[1].pages;
	const int first_group = t->tid < w->p.threads / 2;
	size_t i;

	for (i = 0; i < n; i++) {
		uint64_t r = rnd(t->s), r2 = rnd(t->s), page;

		if (first_group)
			page = bounded(r2, small);
		else if ((uint32_t)r < w->hot_th)
			page = w->hot0 + bounded(r2, w->hot_n);
		else
			page = small + bounded(r2, big);
		buf[i] = WL_MAKE(page, (uint32_t)r2 < w->write_th, t->tid);
	}
	return n;
}

size_t wl_thread_fill(const struct wl *w, struct wl_thread *t, uint64_t *buf,
		      size_t n)
{
	const char *name;
	size_t got;

	if (t->cur >= w->nr_phases || t->done == t->quota)
		return 0;
	if (n > t->quota - t->done)
		n = (size_t)(t->quota - t->done);
	name = w->phase[t->cur].name;
	if (!strcmp(name, "init")) {
		got = fill_init(t, buf, n, 0);
	} else if (!strcmp(name, "init-y")) {
		got = fill_init(t, buf, n, w->vma[1].first);
	} else {
		switch (w->p.kind) {
		case WL_PMBENCH:
			got = fill_pmbench(w, t, buf, n);
			break;
		case WL_ZIPF:
			got = fill_zipf(w, t, buf, n);
			break;
		case WL_GUPS_HOTSET:
			got = fill_hotset(w, t, buf, n, w->hot0);
			break;
		case WL_PHASE_SHIFT:
			got = fill_hotset(w, t, buf, n, strcmp(name, "after") ?
					  w->hot0 : w->hot2);
			break;
		case WL_COLD_BURST:
			got = fill_cold_burst(w, t, buf, n,
					      !strcmp(name, "burst"));
			break;
		case WL_DISJOINT_VMA:
			got = fill_disjoint(w, t, buf, n);
			break;
		default:
			got = fill_uniform(w, t, buf, n);
			break;
		}
	}
	t->done += got;
	return got;
}

size_t wl_fill(struct wl *w, uint64_t *buf, size_t n)
{
	size_t got;
	uint32_t i;

	while (w->thr[0].cur < w->nr_phases) {
		got = wl_thread_fill(w, &w->thr[w->it], buf, n);
		if (got) {
			w->last_phase = w->thr[w->it].cur;
			return got;
		}
		if (++w->it < w->p.threads)
			continue;
		/* Every thread is done with the phase: the next one. */
		w->it = 0;
		for (i = 0; i < w->p.threads; i++)
			wl_thread_next(w, &w->thr[i]);
	}
	return 0;
}
