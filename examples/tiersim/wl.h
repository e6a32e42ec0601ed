/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * tiersim workload generators: deterministic, seeded access streams.
 *
 * This file and wl.c depend on nothing but libc and libm: the same code is
 * compiled into tiersim and into the static guest program of the
 * real-kernel ground-truth harness (issue 8), so both run one
 * implementation. A generator is a pure function of its parameters and seed:
 * the i-th access never depends on the consumer's clock.
 *
 * An access is a u64: the page index (bits 0-39), the write bit (bit 40)
 * and the thread id (bits 48-63).
 *
 * Each thread has a stream of its own (its own random numbers): a phase's
 * accesses are shared out among the threads that take part in it, and a
 * phase ends when all of them are done with theirs (a barrier). A
 * simulator runs the threads side by side (wl_thread_*); wl_fill() yields
 * the same accesses one thread after the other, phase by phase (thread 0's
 * share of phase 0, thread 1's, ..., then phase 1), for whoever needs only
 * the accesses, not their timing. It never returns a batch that crosses a
 * phase boundary; wl_phase() tells the phase of the last batch. With one
 * thread both are the same stream.
 */
#ifndef _TIERSIM_WL_H
#define _TIERSIM_WL_H

#include <stddef.h>
#include <stdint.h>

#define WL_PAGE_BITS		40
#define WL_PAGE_MASK		((1ULL << WL_PAGE_BITS) - 1)
#define WL_WRITE_BIT		(1ULL << 40)
#define WL_TID_SHIFT		48

#define WL_PAGE(a)		((a) & WL_PAGE_MASK)
#define WL_IS_WRITE(a)		(((a) >> 40) & 1)
#define WL_TID(a)		((uint32_t)((a) >> WL_TID_SHIFT))
#define WL_MAKE(page, write, tid) \
	((uint64_t)(page) | ((write) ? WL_WRITE_BIT : 0) | \
	 ((uint64_t)(tid) << WL_TID_SHIFT))

#define WL_MAX_VMAS		4
#define WL_MAX_PHASES		4
#define WL_MAX_THREADS		64
/*
 * pmbench's widest sigma, a fraction of the pages. Samples outside the
 * footprint are drawn again: at sigma = 10 x pages about 1 in 25 lands
 * inside (a loop of 25 draws an access; a wider sigma ran for hours), and
 * the density across the footprint is within 0.2 % of uniform already
 * (-w uniform is the limit).
 */
#define WL_SIGMA_MAX		10.0

enum wl_kind {
	WL_PMBENCH = 0,
	WL_ZIPF,
	WL_GUPS_HOTSET,
	WL_PHASE_SHIFT,
	WL_COLD_BURST,
	WL_DISJOINT_VMA,
	WL_UNIFORM,
	WL_NR_KINDS,
};

/* Page classes reported by wl_region() (for per-region statistics). */
enum wl_region {
	WL_REGION_OTHER = 0,
	WL_REGION_HOT = 1,	/* the (first) hot set */
	WL_REGION_HOT2 = 2,	/* phase-shift: the hot set after the shift */
	WL_REGION_BURST = 3,	/* cold-burst: the pages of the burst */
	WL_NR_REGIONS = 4,
};

/**
 * struct wl_params - what to generate
 * @kind: &enum wl_kind
 * @seed: RNG seed
 * @pages: footprint in 4 KiB pages
 * @accesses: accesses after the initialisation pass
 * @init: touch every page once, in address order, before the measured
 *	accesses (pmbench and Redis populate their memory first)
 * @write_frac: probability that an access is a write
 * @sigma_frac: pmbench: standard deviation as a fraction of @pages, above
 *	0 and at most %WL_SIGMA_MAX
 * @zipf_s: zipf: exponent
 * @hot_frac: gups-hotset, phase-shift, cold-burst, disjoint-vma: hot set
 *	size as a fraction of the pages (of the large VMA for disjoint-vma)
 * @hot_prob: probability that an access goes to the hot set
 * @shift_at: phase-shift: fraction of @accesses after which the hot set
 *	moves; cold-burst: where the burst starts
 * @burst_pages: cold-burst: distinct cold pages the burst touches, once each
 * @small_frac: disjoint-vma: size of the small VMA as a fraction of @pages
 * @threads: threads (disjoint-vma: split in two groups; others: accesses
 *	are spread round-robin over them)
 */
struct wl_params {
	uint32_t kind;
	uint64_t seed;
	uint64_t pages;
	uint64_t accesses;
	int init;
	double write_frac;
	double sigma_frac;
	double zipf_s;
	double hot_frac;
	double hot_prob;
	double shift_at;
	uint64_t burst_pages;
	double small_frac;
	uint32_t threads;
};

/** struct wl_vma - one VMA of the workload's address space, in pages */
struct wl_vma {
	uint64_t first;
	uint64_t pages;
};

/**
 * struct wl_phase - a phase of the stream
 * @name: its name
 * @count: its accesses, all threads together
 * @measured: counts towards the headline figures
 * @t_lo: the first thread taking part
 * @t_hi: one past the last (the others wait for the phase to end)
 */
struct wl_phase {
	const char *name;
	uint64_t count;
	int measured;
	uint32_t t_lo, t_hi;
};

/**
 * struct wl_thread - one thread's stream
 * @s: its xoshiro256** state
 * @tid: the thread
 * @cur: its current phase
 * @done: its accesses done in the phase
 * @quota: its share of the phase
 * @base: the shares of the threads before it in the phase (the position of
 *	its first access in the phase)
 */
struct wl_thread {
	uint64_t s[4];
	uint32_t tid;
	uint32_t cur;
	uint64_t done;
	uint64_t quota;
	uint64_t base;
};

struct wl {
	struct wl_params p;
	uint32_t nr_vmas;
	struct wl_vma vma[WL_MAX_VMAS];
	uint32_t nr_phases;
	struct wl_phase phase[WL_MAX_PHASES];
	uint32_t it;			/* wl_fill(): the thread it is at */
	uint32_t last_phase;		/* wl_fill(): phase of the last batch */
	struct wl_thread thr[WL_MAX_THREADS];	/* wl_fill()'s streams */
	uint64_t total;			/* all accesses, every phase */
	uint32_t write_th;		/* write if rand32 < write_th */
	uint32_t hot_th;		/* hot if rand32 < hot_th */
	/* pmbench */
	double mean, sigma;
	/* hot sets: [hot0, hot0 + hot_n), [hot2, hot2 + hot_n) */
	uint64_t hot0, hot2, hot_n;
	/* cold-burst: scatter multiplier, burst permutation position */
	uint64_t mult, inv_mult, burst_base;
	/* zipf: alias table over pages */
	uint32_t *alias_prob;
	uint32_t *alias_idx;
};

/**
 * struct wl_machine - what a workload expects of the simulated machine
 * @cpu_ns: CPU time per access between memory accesses, ns
 * @fast_frac: fast tier size as a fraction of the footprint
 * @profile: cost profile name (tiersim's "pmem" or "cxl")
 * @init_fast: first-touch allocation stops using the fast tier once it
 *	holds this fraction of the footprint; 0: only the watermarks stop it
 * @mlp: memory-level parallelism: the cache misses a thread has in flight
 */
struct wl_machine {
	uint32_t cpu_ns;
	uint32_t mlp;
	double fast_frac;
	const char *profile;
	double init_fast;
};

/*
 * The machine a workload of @kind is run on unless told otherwise (any
 * other @kind, e.g. %WL_NR_KINDS for a trace: the common defaults).
 */
void wl_machine_defaults(uint32_t kind, struct wl_machine *m);

/* Name of a kind, and the kind of a name (-1 if unknown). */
const char *wl_kind_name(uint32_t kind);
int wl_kind_parse(const char *name);

/* Fill @p with the defaults of @kind (pages, accesses and shape). */
void wl_defaults(struct wl_params *p, uint32_t kind);

/*
 * Set up a generator. Returns 0, or with a reason in @err -EINVAL for
 * parameters out of range, -ENOMEM when its tables (zipf's) do not fit in
 * memory. Nothing is left to wl_free() after an error.
 */
int wl_init(struct wl *w, const struct wl_params *p, char *err, size_t errlen);
void wl_free(struct wl *w);

/* Restart the stream from its first access (same seed, same accesses). */
void wl_rewind(struct wl *w);

/*
 * Generate up to @n accesses into @buf; returns how many (0 at the end).
 * A batch never crosses a phase boundary.
 */
size_t wl_fill(struct wl *w, uint64_t *buf, size_t n);

/* Start thread @tid's stream at its first phase. */
void wl_thread_start(const struct wl *w, struct wl_thread *t, uint32_t tid);

/*
 * Up to @n of thread @t's accesses of its current phase into @buf; 0 when
 * its share of the phase is done (then wl_thread_next()).
 */
size_t wl_thread_fill(const struct wl *w, struct wl_thread *t, uint64_t *buf,
		      size_t n);

/* Move @t to the next phase: 1, or 0 if the stream is over. */
int wl_thread_next(const struct wl *w, struct wl_thread *t);

/* Thread @tid's share of phase @ph, accesses. */
uint64_t wl_thread_quota(const struct wl *w, uint32_t ph, uint32_t tid);

/*
 * The hot set of gups-hotset, phase-shift and cold-burst: hot_frac x pages,
 * at least one page.
 */
uint64_t wl_hot_pages(const struct wl_params *p);

/* Phase index of the last batch, and the phases' table. */
static inline uint32_t wl_phase(const struct wl *w)
{
	return w->last_phase;
}

/* The class of a page (&enum wl_region). */
uint32_t wl_region(const struct wl *w, uint64_t page);

/* Bytes of generator state per page (the zipf alias table). */
size_t wl_bytes_per_page(const struct wl *w);

/* Standard normal quantile (Acklam + one Halley step); for init only. */
double wl_norm_quantile(double p);

#endif /* _TIERSIM_WL_H */
