// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * tiersim: the two-tier memory model. docs/tiersim.md describes what is
 * simulated and what is left out; this file follows it section by section:
 * profiles, watermarks, sources, allocation, the NUMA scanner, hint faults,
 * migration, the kswapd-like demoter, sampling and the main loop.
 *
 * Speed: the common access (page allocated, no hint fault armed) reads and
 * writes one byte of per-page state and adds a table cost to the clock. All
 * periodic work (scanner, kswapd, sampling) hangs off one "next event" time
 * compared once per access.
 */
#include "sim.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)

#define BATCH		4096
#define PREFETCH	16		/* accesses ahead */
#define NO_SLOT		UINT32_MAX
#define T_NEVER		UINT64_MAX
#define PID_BASE	1000U
#define KSWAPD_BATCH	32U		/* SWAP_CLUSTER_MAX */
#define DEF_PRIORITY	12		/* mm/vmscan.c */
#define MAX_SCAN_WINDOW	2560U		/* MB/s, kernel/sched/fair.c */

/*
 * Cost profiles. Sources (docs/tiersim.md, "Costs"):
 *  - DRAM and Optane latencies: Izraelevitz et al., "Basic Performance
 *    Measurements of the Intel Optane DC Persistent Memory Module",
 *    arXiv:1903.05714 (2019): idle random-read latency about 81 ns (DRAM)
 *    and 305 ns (Optane); Optane write bandwidth about a third of its read
 *    bandwidth, modelled as a 3x effective write cost.
 *  - CXL: Sun et al., "Demystifying CXL Memory with Genuine CXL-Ready
 *    Systems and Devices", MICRO 2023, and Li et al., "Pond", ASPLOS 2023:
 *    CXL-attached DRAM at about twice the local DRAM latency.
 *  - Fault, migration and scan costs: order-of-magnitude estimates (a minor
 *    fault is about 1 us, lmbench lat_pagefault class; a 4 KiB migration is
 *    a few us including unmap, TLB flush and copy), see the document.
 */
const struct sim_costs sim_profiles[] = {
	{
		.name = "pmem",
		.cpu_ns = 0,
		.lat = { 305, 915, 81, 81 },
		.fault_ns = 1000,
		.migrate_ns = 4000,
		.migrate_mbps = 2048,
		.scan_pte_ns = 10,
		.alloc_ns = 1500,
		.reclaim_ns = 0,
		.scan_update_ns = 0,
	},
	{
		.name = "cxl",
		.cpu_ns = 0,
		.lat = { 170, 170, 81, 81 },
		.fault_ns = 1000,
		.migrate_ns = 2000,
		.migrate_mbps = 8192,
		.scan_pte_ns = 10,
		.alloc_ns = 1500,
		.reclaim_ns = 0,
		.scan_update_ns = 0,
	},
};

const unsigned int sim_nr_profiles = sizeof(sim_profiles) /
				     sizeof(sim_profiles[0]);

const struct sim_costs *sim_profile(const char *name)
{
	unsigned int i;

	for (i = 0; i < sim_nr_profiles; i++)
		if (!strcmp(name, sim_profiles[i].name))
			return &sim_profiles[i];
	return NULL;
}

void sim_cfg_defaults(struct sim_cfg *c)
{
	memset(c, 0, sizeof(*c));
	c->costs = sim_profiles[0];
	c->scan_delay_ms = TP_DEFAULT_SCAN_DELAY_MS;
	c->scan_period_min_ms = TP_DEFAULT_SCAN_PERIOD_MIN_MS;
	c->scan_size_mb = TP_DEFAULT_SCAN_SIZE_MB;
	c->rate_limit_mbps = -1;
	c->sample_ms = 10;	/* doubles whenever the series fills up */
	c->pingpong_ms = 10000;
}

/* ---- watermarks --------------------------------------------------------- */

static u64 isqrt(u64 x)
{
	u64 r = (u64)sqrt((double)x);

	while (r * r > x)
		r--;
	while ((r + 1) * (r + 1) <= x)
		r++;
	return r;
}

/*
 * mm/page_alloc.c: min_free_kbytes = sqrt(lowmem_kbytes * 16), clamped to
 * [128, 262144]; each zone gets its share of it as the min watermark; the
 * gaps are max(min / 4, managed * watermark_scale_factor / 10000) with the
 * default scale factor 10: low = min + gap, high = min + 2 gap, promo =
 * high + gap (tp_wmark_promo()).
 */
void sim_wmarks(u64 fast_pages, u64 slow_pages, u64 wmark[4])
{
	u64 total = fast_pages + slow_pages, kb, minfree, min, gap;

	kb = isqrt(total * 4 * 16);
	if (kb < 128)
		kb = 128;
	if (kb > 262144)
		kb = 262144;
	minfree = kb >> 2;
	min = total ? (u64)((double)minfree * (double)fast_pages /
			    (double)total) : 0;
	gap = min / 4;
	if (fast_pages * 10 / 10000 > gap)
		gap = fast_pages * 10 / 10000;
	wmark[0] = min;
	wmark[1] = min + gap;
	wmark[2] = min + 2 * gap;
	wmark[3] = tp_wmark_promo(min, wmark[2], fast_pages, 10);
}

u32 sim_scan_period_ms(const struct sim_cfg *c, u64 footprint_pages)
{
	u64 scan_pages = (u64)c->scan_size_mb << 8, windows, floor, scan;

	if (c->scan_period_ms)
		return c->scan_period_ms;
	/* task_scan_min(): never more than MAX_SCAN_WINDOW MB/s. */
	windows = c->scan_size_mb < MAX_SCAN_WINDOW ?
		  MAX_SCAN_WINDOW / c->scan_size_mb : 1;
	floor = 1000 / windows;
	/* task_nr_scan_windows(): the RSS in scan_size chunks. */
	windows = (footprint_pages + scan_pages - 1) / scan_pages;
	if (!windows)
		windows = 1;
	scan = c->scan_period_min_ms / windows;
	return (u32)(scan > floor ? scan : floor);
}

int sim_validate(struct sim_cfg *c, const struct sim_src *src, char *err,
		 size_t errlen)
{
	u64 *w = c->wmark;
	u32 i;

	if (!c->fast_pages || !c->slow_pages) {
		snprintf(err, errlen, "zero capacity: the %s tier has no pages",
			 c->fast_pages ? "slow" : "fast");
		return -1;
	}
	if (c->fast_pages + c->slow_pages < src->pages) {
		snprintf(err, errlen, "the footprint (%llu pages) does not fit "
			 "in the two tiers (%llu + %llu pages)",
			 (unsigned long long)src->pages,
			 (unsigned long long)c->fast_pages,
			 (unsigned long long)c->slow_pages);
		return -1;
	}
	if (src->needs_pressure && !c->allow_no_pressure &&
	    c->fast_pages >= src->pages) {
		snprintf(err, errlen, "the fast tier (%llu pages) holds the "
			 "whole footprint (%llu pages): workload %s needs memory "
			 "pressure; use a smaller --fast or --allow-no-pressure",
			 (unsigned long long)c->fast_pages,
			 (unsigned long long)src->pages, src->name);
		return -1;
	}
	if (!w[0] && !w[1] && !w[2] && !w[3])
		sim_wmarks(c->fast_pages, c->slow_pages, w);
	if (!(w[0] <= w[1] && w[1] <= w[2] && w[2] <= w[3])) {
		snprintf(err, errlen, "watermarks out of order: min %llu, low "
			 "%llu, high %llu, promo %llu (need min <= low <= high "
			 "<= promo)", (unsigned long long)w[0],
			 (unsigned long long)w[1], (unsigned long long)w[2],
			 (unsigned long long)w[3]);
		return -1;
	}
	if (w[3] >= c->fast_pages) {
		snprintf(err, errlen, "the promo watermark (%llu pages) is not "
			 "below the fast tier's capacity (%llu pages)",
			 (unsigned long long)w[3],
			 (unsigned long long)c->fast_pages);
		return -1;
	}
	if (c->thp) {
		if (src->tr) {
			snprintf(err, errlen, "--thp needs a synthetic workload "
				 "(trace pages are not 2 MiB aligned)");
			return -1;
		}
		for (i = 0; i < src->nr_vmas; i++) {
			if (src->vma[i].first % 512 || src->vma[i].pages % 512) {
				snprintf(err, errlen, "--thp: VMA %u is not a "
					 "multiple of 2 MiB (use --pages a "
					 "multiple of 512 per VMA)", i);
				return -1;
			}
		}
		if (c->fast_pages < 4 * 512) {
			snprintf(err, errlen, "--thp: the fast tier holds fewer "
				 "than four 2 MiB folios");
			return -1;
		}
	}
	if (!c->scan_size_mb) {
		snprintf(err, errlen, "scan size must be at least 1 MB");
		return -1;
	}
	if (!c->costs.migrate_mbps) {
		snprintf(err, errlen, "the migration bandwidth must not be 0");
		return -1;
	}
	if (!c->sample_ms) {
		snprintf(err, errlen, "the sampling interval must not be 0");
		return -1;
	}
	return 0;
}

/* ---- sources ------------------------------------------------------------ */

int sim_src_workload(struct sim_src *s, struct wl *w)
{
	u32 i;

	memset(s, 0, sizeof(*s));
	s->name = wl_kind_name(w->p.kind);
	s->wl = w;
	s->pages = w->p.pages;
	s->total = w->total;
	s->nr_threads = w->p.threads;
	s->nr_vmas = w->nr_vmas;
	s->vma = calloc(w->nr_vmas, sizeof(*s->vma));
	if (!s->vma)
		return -1;
	for (i = 0; i < w->nr_vmas; i++) {
		s->vma[i].first = w->vma[i].first;
		s->vma[i].pages = w->vma[i].pages;
	}
	s->nr_phases = w->nr_phases;
	for (i = 0; i < w->nr_phases; i++) {
		s->phase_name[i] = w->phase[i].name;
		s->phase_measured[i] = w->phase[i].measured;
	}
	s->needs_pressure = 1;
	/* Redis: about 7 us of CPU per request (117k requests/s). */
	s->cpu_ns = w->p.kind == WL_COLD_BURST ? 7000 :
		    w->p.kind == WL_DISJOINT_VMA ? 100 : 25;
	return 0;
}

int sim_src_trace(struct sim_src *s, struct trace *t)
{
	u32 i;

	memset(s, 0, sizeof(*s));
	s->name = t->path;
	s->tr = t;
	s->pages = t->nr_pages;
	s->total = t->nr_accesses;
	s->nr_threads = t->nr_threads;
	s->nr_vmas = t->nr_vmas;
	s->vma = calloc(t->nr_vmas, sizeof(*s->vma));
	if (!s->vma)
		return -1;
	for (i = 0; i < t->nr_vmas; i++) {
		s->vma[i].first = t->vma[i].first;
		s->vma[i].pages = t->vma[i].pages;
	}
	s->nr_phases = 1;
	s->phase_name[0] = "trace";
	s->phase_measured[0] = 1;
	s->needs_pressure = 0;
	s->cpu_ns = 25;
	return 0;
}

void sim_src_free(struct sim_src *s)
{
	free(s->vma);
	free(s->oracle_count);
	s->vma = NULL;
	s->oracle_count = NULL;
}

struct reader {
	const struct sim_src *src;
	struct wl wl;
	struct trace_stream ts;
};

static int reader_open(struct reader *rd, const struct sim_src *src,
		       char *err, size_t errlen)
{
	memset(rd, 0, sizeof(*rd));
	rd->src = src;
	if (src->wl) {
		/* Shares the template's read-only tables. */
		rd->wl = *src->wl;
		wl_rewind(&rd->wl);
		return 0;
	}
	return trace_stream_open(&rd->ts, src->tr, err, errlen);
}

/* Returns the count (0 at the end) and the phase, or -1. */
static long reader_fill(struct reader *rd, u64 *buf, u64 *gap, size_t n,
			u32 *phase, char *err, size_t errlen)
{
	long got;

	if (rd->src->wl) {
		got = (long)wl_fill(&rd->wl, buf, n);
		*phase = wl_phase(&rd->wl);
		return got;
	}
	*phase = 0;
	return trace_stream_fill(&rd->ts, buf, rd->src->tr->has_time ? gap :
				 NULL, n, err, errlen);
}

static void reader_close(struct reader *rd)
{
	if (!rd->src->wl)
		trace_stream_close(&rd->ts);
}

int sim_src_count(struct sim_src *s, char *err, size_t errlen)
{
	struct reader rd;
	u64 *buf, *gap;
	u32 phase;
	long got, i;

	if (s->oracle_count)
		return 0;
	s->oracle_count = calloc(s->pages, sizeof(*s->oracle_count));
	if (!s->oracle_count) {
		snprintf(err, errlen, "out of memory for the oracle's counts");
		return -1;
	}
	if (s->tr) {
		memcpy(s->oracle_count, s->tr->count,
		       s->pages * sizeof(*s->oracle_count));
		return 0;
	}
	buf = malloc(BATCH * sizeof(*buf));
	gap = malloc(BATCH * sizeof(*gap));
	if (!buf || !gap || reader_open(&rd, s, err, errlen)) {
		free(buf);
		free(gap);
		if (!*err)
			snprintf(err, errlen, "out of memory");
		return -1;
	}
	while ((got = reader_fill(&rd, buf, gap, BATCH, &phase, err,
				  errlen)) > 0)
		for (i = 0; i < got; i++) {
			u32 *c = &s->oracle_count[WL_PAGE(buf[i])];

			if (*c != UINT32_MAX)
				(*c)++;
		}
	reader_close(&rd);
	free(buf);
	free(gap);
	return got < 0 ? -1 : 0;
}

/* ---- the simulation state ------------------------------------------------ */

struct svma {
	u64 first;		/* first unit */
	u64 n;			/* units */
	u64 start;		/* address */
	u64 end;		/* address, exclusive */
	int inited;
	struct tp_vma_scan scan;
};

struct sim {
	const struct sim_cfg *c;
	const struct sim_policy *p;
	const struct sim_src *src;
	struct sim_result *r;

	struct tp_node node;
	struct tp_node_cpu cpu;
	struct tp_policy tpp;
	struct tp_atime fmt;
	struct tp_vma_profile vprof;
	struct tp_scan_ring ring;
	struct tp_scan_pass pass[TP_DEFAULT_RING_DEPTH];

	u32 ushift;		/* log2 pages per unit: 0 or 9 */
	u64 upages;		/* pages per unit */
	u64 nr_units;
	u8 *flags;
	u32 *atime;		/* LAT_ATIME only */

	u32 *fslot;		/* fast-tier slots: unit or NO_SLOT */
	u32 *fpromo;		/* its promotion time in ms + 1; 0: none */
	u32 *ffree;		/* free slot stack */
	u64 nffree;
	u64 fcap, fused;	/* fast tier, units */
	u64 scap, sused;	/* slow tier, units */
	u64 init_fast_cap;	/* allocation on the fast tier stops here */
	u64 hand;		/* CLOCK hand */
	/* --lru two-list: the inactive (0) and active (1) lists of slots */
	int lru;
	u32 *lnext, *lprev;
	u32 lhead[2], ltail[2];
	u64 lcount[2];
	u64 wm[4];

	int scan_on, scan_fast, scan_slow, young_clear, stamp, tiering;

	u32 nr_vmas;
	struct svma *vma;
	struct sim_vma_stats *vst;

	u64 now;
	u64 next_event;
	u64 next_scan, scan_period, scan_units;
	u64 offset;		/* mm->numa_scan_offset (an address) */
	u32 seq;		/* mm->numa_scan_seq */
	u32 cur_tid;		/* thread of the access being processed */

	/* The adaptive scan period (no --scan-period-ms), on the task's clock */
	int adapt;
	int stamped;		/* node_stamp started (task_scan_start done) */
	u64 node_stamp;		/* p->node_stamp */
	u64 numa_next_scan;	/* mm->numa_next_scan */
	u64 migrate_retry;	/* p->numa_migrate_retry */
	u32 task_seq;		/* p->numa_scan_seq */
	u64 locality[2];	/* p->numa_faults_locality: remote, local */
	u64 period_max_ms;	/* numa_balancing_scan_period_max_ms */
	u64 reclaim_ns;		/* kswapd's cost per page examined */

	int kswapd_awake;
	u64 kswapd_clock;
	u32 kswapd_n;		/* demotions in the current batch */
	int picking;		/* a clock_pick() is under way */
	u64 clock_tries;	/* its remaining budget of slots */
	/* --kswapd rounds: balance_pgdat()'s priority and the round under way */
	int krounds;
	int kprio;
	int kround;		/* a round is under way */
	u64 kquota;		/* the round's pages to examine */
	u64 kreclaimed;		/* units it demoted */
	u64 mig_free_at;	/* migration channel busy until */
	u64 xfer_ns;		/* one unit through the bandwidth cap */
	u64 mig_cpu_ns;		/* one unit's migration CPU time */
	u64 demote_cpu_ns;	/* kswapd's, per unit demoted */

	u64 next_sample, sample_ns;
	u64 pingpong_ns;
	u32 phase;

	int failed;
};

static inline u64 unit_addr(const struct sim *s, u64 u)
{
	const struct svma *v;
	u32 lo = 0, hi = s->nr_vmas;

	if (s->src->tr)
		return s->src->tr->vpn[u] << 12;
	while (hi - lo > 1) {
		u32 mid = (lo + hi) / 2;

		if (s->vma[mid].first <= u)
			lo = mid;
		else
			hi = mid;
	}
	v = &s->vma[lo];
	return v->start + ((u - v->first) << (12 + s->ushift));
}

static inline u32 vma_of(const struct sim *s, u64 u)
{
	u32 lo = 0, hi = s->nr_vmas;

	while (hi - lo > 1) {
		u32 mid = (lo + hi) / 2;

		if (s->vma[mid].first <= u)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* First unit of VMA @v at or above address @addr. */
static u64 vma_unit_at(const struct sim *s, const struct svma *v, u64 addr)
{
	u64 lo, hi, vpn;

	if (addr <= v->start)
		return v->first;
	if (!s->src->tr)
		return v->first + ((addr - v->start + (s->upages << 12) - 1) >>
				   (12 + s->ushift));
	vpn = (addr + 4095) >> 12;
	lo = v->first;
	hi = v->first + v->n;
	while (lo < hi) {
		u64 mid = lo + (hi - lo) / 2;

		if (s->src->tr->vpn[mid] < vpn)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Address just past unit @u - 1 (the end of a scanned range [.., u)). */
static u64 unit_end_addr(const struct sim *s, const struct svma *v, u64 u)
{
	if (u >= v->first + v->n)
		return v->end;
	if (s->src->tr)
		return (s->src->tr->vpn[u - 1] + 1) << 12;
	return v->start + ((u - v->first) << (12 + s->ushift));
}

static inline u64 fast_free_pages(const struct sim *s)
{
	return (s->fcap - s->fused) << s->ushift;
}

static void fast_mem(const struct sim *s, struct tp_node_mem *m)
{
	m->free = fast_free_pages(s);
	m->wmark_min = s->wm[0];
	m->wmark_low = s->wm[1];
	m->wmark_high = s->wm[2];
	m->wmark_promo = s->wm[3];
	m->present = s->fcap << s->ushift;
}

static void sim_fail(struct sim *s, const char *what, int ret)
{
	if (s->failed)
		return;
	s->failed = 1;
	snprintf(s->r->err, sizeof(s->r->err), "%s: %s failed (%d)",
		 s->p->name, what, ret);
}

static void update_next_event(struct sim *s)
{
	u64 t = s->next_sample;

	if (s->next_scan < t)
		t = s->next_scan;
	if (s->kswapd_awake && s->kswapd_clock < t)
		t = s->kswapd_clock;
	s->next_event = t;
}

/* ---- fast-tier slots and the CLOCK demoter ------------------------------- */

/*
 * The fast tier is an array of slots, each holding a unit and the time it
 * was promoted (0: allocated there). Only the CLOCK demoter removes units,
 * and it knows the slot, so no per-page slot index is needed.
 */
/* --lru two-list: list @l of slots, head = most recently added. */
static void lru_add(struct sim *s, int l, u32 sl)
{
	s->lprev[sl] = NO_SLOT;
	s->lnext[sl] = s->lhead[l];
	if (s->lhead[l] != NO_SLOT)
		s->lprev[s->lhead[l]] = sl;
	else
		s->ltail[l] = sl;
	s->lhead[l] = sl;
	s->lcount[l]++;
}

static void lru_del(struct sim *s, int l, u32 sl)
{
	u32 p = s->lprev[sl], n = s->lnext[sl];

	if (p != NO_SLOT)
		s->lnext[p] = n;
	else
		s->lhead[l] = n;
	if (n != NO_SLOT)
		s->lprev[n] = p;
	else
		s->ltail[l] = p;
	s->lcount[l]--;
}

/*
 * A new page on the fast tier (first touch, promotion) starts on the
 * inactive list, as lru_cache_add() puts new anon folios (and migration
 * keeps a slow page's inactive state).
 */
static void slot_insert(struct sim *s, u64 u, u32 promo_ms)
{
	u32 sl = s->ffree[--s->nffree];

	s->fslot[sl] = (u32)u;
	s->fpromo[sl] = promo_ms;
	s->fused++;
	if (s->lru) {
		s->flags[u] &= (u8)~(PF_ACTIVE | PF_REFD);
		lru_add(s, 0, sl);
	}
}

static void slot_remove(struct sim *s, u64 sl)
{
	if (s->lru)
		lru_del(s, !!(s->flags[s->fslot[sl]] & PF_ACTIVE), (u32)sl);
	s->fslot[sl] = NO_SLOT;
	s->ffree[s->nffree++] = (u32)sl;
	s->fused--;
}

static void wake_kswapd(struct sim *s)
{
	if (!s->p->demote || s->kswapd_awake)
		return;
	s->kswapd_awake = 1;
	s->kprio = DEF_PRIORITY;
	s->r->kswapd_wakeups++;
	if (s->kswapd_clock < s->now)
		s->kswapd_clock = s->now;
	update_next_event(s);
}

/* kswapd looks at one page: reclaim_ns of its time. */
static void reclaim_charge(struct sim *s)
{
	s->kswapd_clock += s->reclaim_ns;
	s->r->kswapd_scanned += s->upages;
}

#define CLOCK_NONE	UINT64_MAX		/* nothing old: two sweeps */
#define CLOCK_LATER	(UINT64_MAX - 1)	/* kswapd's clock passed now */

/*
 * Second chance: skip (and age) young pages; return the slot of the first
 * old one. Each page examined costs kswapd reclaim_ns (the kernel's
 * pgscan_kswapd: isolation and the rmap walk of folio_referenced()); when
 * that cost takes kswapd's clock past the task's, the pick stops and
 * resumes where it was at the next event, so kswapd never works ahead of
 * the task (and never books the migration channel in its future).
 */
static u64 clock_pick(struct sim *s)
{
	while (s->clock_tries) {
		u64 sl = s->hand;
		u32 u;

		s->clock_tries--;
		if (++s->hand == s->fcap)
			s->hand = 0;
		u = s->fslot[sl];
		if (u == NO_SLOT)
			continue;
		/* shrink_inactive_list(): isolate, folio_referenced(). */
		reclaim_charge(s);
		if (s->flags[u] & PF_YOUNG) {
			s->flags[u] &= (u8)~PF_YOUNG;
			if (s->reclaim_ns && s->kswapd_clock > s->now)
				return CLOCK_LATER;
			continue;
		}
		return sl;
	}
	return CLOCK_NONE;
}

/*
 * --lru two-list: 6.1's LRU for anon pages (mm/vmscan.c). While the
 * inactive list is low (inactive x inactive_ratio < active, the ratio
 * int_sqrt(10 x GiB of the LRU), 1 below 1 GiB), shrink_active_list()
 * moves the active list's tail to the inactive head, clearing the young bit
 * (folio_referenced()) whether set or not: anon pages get no second trip on
 * the active list. shrink_inactive_list() takes the inactive tail:
 * folio_check_references() activates a young page that already had
 * PG_referenced, keeps (back to the inactive head, PG_referenced set) a
 * young one that had not, and reclaims (here: demotes) an old one. Each
 * page looked at costs reclaim_ns (pgrefill and pgscan_kswapd).
 */
static u64 lru_pick(struct sim *s)
{
	while (s->clock_tries) {
		u64 total = s->lcount[0] + s->lcount[1], gb, ratio;
		u32 sl, u;
		u8 f;

		s->clock_tries--;
		gb = (total << s->ushift) >> 18;
		ratio = gb ? isqrt(10 * gb) : 1;
		if (s->lcount[1] && s->lcount[0] * ratio < s->lcount[1]) {
			sl = s->ltail[1];
			u = s->fslot[sl];
			lru_del(s, 1, sl);
			s->flags[u] &= (u8)~(PF_ACTIVE | PF_YOUNG);
			lru_add(s, 0, sl);
			reclaim_charge(s);
			if (s->reclaim_ns && s->kswapd_clock > s->now)
				return CLOCK_LATER;
			continue;
		}
		sl = s->ltail[0];
		if (sl == NO_SLOT)
			return CLOCK_NONE;
		u = s->fslot[sl];
		f = s->flags[u];
		reclaim_charge(s);
		if (!(f & PF_YOUNG))
			return sl;
		lru_del(s, 0, sl);
		s->flags[u] = (u8)(f & ~PF_YOUNG);
		if (f & PF_REFD) {
			s->flags[u] = (u8)((s->flags[u] & ~PF_REFD) | PF_ACTIVE);
			lru_add(s, 1, sl);
		} else {
			s->flags[u] |= PF_REFD;
			lru_add(s, 0, sl);
		}
		if (s->reclaim_ns && s->kswapd_clock > s->now)
			return CLOCK_LATER;
	}
	return CLOCK_NONE;
}

/*
 * Demote the unit in slot @sl. Its access-time stamp is not reset (the
 * kernel resets last_cpupid across tiers): the page leaves with PF_PROT
 * clear, and the scanner stamps it again before it can fault.
 */
static void demote(struct sim *s, u64 sl)
{
	struct sim_result *r = s->r;
	u64 u = s->fslot[sl];
	u32 promo = s->fpromo[sl];
	u64 start = s->kswapd_clock > s->mig_free_at ? s->kswapd_clock :
		    s->mig_free_at;

	slot_remove(s, sl);
	s->flags[u] &= (u8)~(PF_FAST | PF_PROT);
	s->sused++;
	s->mig_free_at = start + s->xfer_ns;
	s->kswapd_clock = start + s->demote_cpu_ns;
	r->demotions += s->upages;
	if (promo && s->kswapd_clock / SIM_NS_PER_MS - (promo - 1) <
	    s->c->pingpong_ms)
		r->pingpong += s->upages;
}

/*
 * --kswapd rounds: 6.1's balance_pgdat(). Each round (kswapd_shrink_node())
 * examines lru_size >> priority pages, or fewer once it has reclaimed
 * nr_to_reclaim (the zone's high watermark, at least SWAP_CLUSTER_MAX); the
 * watermark (the demotion target: WMARK_PROMO in tiering mode) is checked
 * only between rounds, so kswapd overshoots it by up to a round. A round
 * that examined fewer than nr_to_reclaim pages, or demoted nothing, raises
 * the priority (halves the shift); past priority 1 kswapd gives up and
 * sleeps until the next wakeup, which starts again at DEF_PRIORITY.
 */
static void kswapd_rounds(struct sim *s)
{
	u64 nr_to_reclaim = s->wm[2] > KSWAPD_BATCH ? s->wm[2] : KSWAPD_BATCH;
	struct tp_node_mem m;
	u64 u, total, pages;

	while (s->kswapd_awake && s->kswapd_clock <= s->now) {
		if (!s->kround) {
			fast_mem(s, &m);
			if (m.free > tp_demotion_target(&s->tpp, &m) ||
			    s->kprio < 1)
				goto sleep;
			total = s->lru ? s->lcount[0] + s->lcount[1] : s->fcap;
			pages = (total << s->ushift) >> s->kprio;
			s->kquota = (pages + s->upages - 1) >> s->ushift;
			s->clock_tries = s->kquota;
			s->kreclaimed = 0;
			s->kround = 1;
		}
		u = CLOCK_NONE;
		if (s->kreclaimed << s->ushift < nr_to_reclaim)
			u = s->lru ? lru_pick(s) : clock_pick(s);
		if (u == CLOCK_LATER)
			return;
		if (u != CLOCK_NONE) {
			demote(s, u);
			s->kreclaimed++;
			continue;
		}
		/* The round is over: kswapd_shrink_node()'s verdict. */
		s->kround = 0;
		if ((s->kquota - s->clock_tries) << s->ushift < nr_to_reclaim ||
		    !s->kreclaimed)
			s->kprio--;
	}
	return;
sleep:
	s->kswapd_awake = 0;
	s->kround = 0;
}

/* Batches of SWAP_CLUSTER_MAX; a pick interrupted by its cost resumes. */
static void kswapd_run(struct sim *s)
{
	struct tp_node_mem m;
	u64 u;

	if (s->krounds) {
		kswapd_rounds(s);
		return;
	}
	while (s->kswapd_awake && s->kswapd_clock <= s->now) {
		for (; s->kswapd_n < KSWAPD_BATCH; s->kswapd_n++) {
			if (!s->picking) {
				fast_mem(s, &m);
				if (m.free > tp_demotion_target(&s->tpp, &m))
					goto sleep;
				s->picking = 1;
				s->clock_tries = 2 * s->fcap + 1;
			}
			u = s->lru ? lru_pick(s) : clock_pick(s);
			if (u == CLOCK_LATER)
				return;
			s->picking = 0;
			if (u == CLOCK_NONE)
				goto sleep;
			demote(s, u);
		}
		s->kswapd_n = 0;
	}
	return;
sleep:
	s->kswapd_awake = 0;
	s->kswapd_n = 0;
	s->picking = 0;
}

/* ---- allocation ----------------------------------------------------------- */

static u8 alloc_unit(struct sim *s, u64 u)
{
	u8 f = s->flags[u];
	int fast;

	if (s->p->oracle)
		fast = !!(f & PF_PINNED);
	else
		fast = fast_free_pages(s) >= s->wm[1] + s->upages &&
		       s->fused < s->init_fast_cap;
	if (fast && s->fused == s->fcap)
		fast = 0;
	if (!fast && s->sused == s->scap) {
		if (s->fused == s->fcap) {
			sim_fail(s, "allocation (out of memory)", -ENOMEM);
			return PF_YOUNG;
		}
		fast = 1;
	}
	f = (u8)((f & PF_PINNED) | (fast ? PF_FAST : 0));
	s->flags[u] = f;
	if (fast) {
		slot_insert(s, u, 0);
		s->r->alloc_fast += s->upages;
	} else {
		s->sused++;
		s->r->alloc_slow += s->upages;
		/* Below the low watermark: the allocator wakes kswapd. */
		if (!s->p->oracle && s->fused < s->init_fast_cap)
			wake_kswapd(s);
	}
	s->now += (u64)s->c->costs.alloc_ns << s->ushift;
	s->r->t_alloc += (u64)s->c->costs.alloc_ns << s->ushift;
	return f;
}

/* ---- the adaptive scan period (kernel/sched/fair.c) ---------------------------- */

/* task_nr_scan_windows(): the RSS in scan_size_mb chunks, at least 1. */
static u64 scan_windows(const struct sim *s)
{
	u64 chunk = (u64)s->c->scan_size_mb << 8;
	u64 rss = s->r->alloc_fast + s->r->alloc_slow;

	if (!rss)
		rss = chunk;
	return (rss + chunk - 1) / chunk;
}

/* task_scan_min() of the current RSS, in ns (whole ms, as the kernel). */
static u64 task_scan_min_ns(const struct sim *s)
{
	u64 size = s->c->scan_size_mb, floor, scan;

	floor = 1000 / (size < MAX_SCAN_WINDOW ? MAX_SCAN_WINDOW / size : 1);
	scan = s->c->scan_period_min_ms / scan_windows(s);
	return (scan > floor ? scan : floor) * SIM_NS_PER_MS;
}

/* task_scan_max(), no NUMA group. */
static u64 task_scan_max_ns(const struct sim *s)
{
	u64 smin = task_scan_min_ns(s);
	u64 smax = s->period_max_ms / scan_windows(s) * SIM_NS_PER_MS;

	return smax > smin ? smax : smin;
}

/*
 * update_task_scan_period(). In tiering mode without NUMA_BALANCING_NORMAL
 * the only faults that reach the statistics are promotions, which are
 * remote and private (a slow-tier page's last_cpupid holds its access
 * time, so the fault counts as a first access): local + shared == 0, and
 * the period doubles up to task_scan_max() at every new scan sequence that
 * sees a promotion. Faults on fast-tier pages (policies that scan it) are
 * local; all faults are taken as private (tiersim does not keep
 * last_cpupid), so the period then grows by 30 % (ps_ratio 10 of 10).
 */
static void update_scan_period(struct sim *s)
{
	u64 local = s->locality[1];
	u64 period_ms = s->scan_period / SIM_NS_PER_MS, max, min, slot;

	max = task_scan_max_ns(s);
	if (!local) {
		s->scan_period = 2 * s->scan_period < max ?
				 2 * s->scan_period : max;
		s->numa_next_scan = s->now + s->scan_period;
		return;
	}
	slot = (period_ms + 9) / 10;		/* DIV_ROUND_UP(, SLOTS) */
	s->scan_period += 3 * slot * SIM_NS_PER_MS;
	min = task_scan_min_ns(s);
	if (s->scan_period < min)
		s->scan_period = min;
	if (s->scan_period > max)
		s->scan_period = max;
	s->locality[0] = s->locality[1] = 0;
}

/*
 * task_numa_fault() for a fault whose page is on the fast tier when it
 * returns (@local: it was there already; else it was just promoted). A
 * slow-tier fault that stays on the slow tier returns before this in
 * tiering mode. The first such fault after the mm's scan sequence moved
 * runs task_numa_placement() and so update_task_scan_period(); the next
 * placement is tried no sooner than numa_migrate_preferred()'s retry
 * interval, min(1 s, period / 16).
 */
static void numa_fault_stats(struct sim *s, int local)
{
	u64 retry;

	if (!s->adapt)
		return;
	if (s->now > s->migrate_retry && s->task_seq != s->seq) {
		s->task_seq = s->seq;
		update_scan_period(s);
		retry = s->scan_period / 16;
		s->migrate_retry = s->now + (retry < 1000 * SIM_NS_PER_MS ?
					     retry : 1000 * SIM_NS_PER_MS);
	}
	s->locality[local] += s->upages;
}

/* ---- promotion and hint faults --------------------------------------------- */

static void promote(struct sim *s, u64 u, u32 vi)
{
	struct sim_result *r = s->r;
	u64 start = s->now > s->mig_free_at ? s->now : s->mig_free_at;
	u64 stall = start - s->now + s->mig_cpu_ns;

	s->sused--;
	s->flags[u] |= PF_FAST;
	s->mig_free_at = start + s->xfer_ns;
	s->now += stall;
	r->t_migr += stall;
	r->promotions += s->upages;
	slot_insert(s, u, (u32)(s->now / SIM_NS_PER_MS) + 1);
	s->vst[vi].promotions += s->upages;
	if (s->src->wl)
		r->region_promo[wl_region(s->src->wl, u << s->ushift)] +=
			s->upages;
}

static u8 hint_fault(struct sim *s, u64 u, u32 write, u32 tid)
{
	struct sim_result *r = s->r;
	struct tp_node_mem m;
	struct tp_fault tf;
	u8 f = s->flags[u];
	int fast = f & PF_FAST, v;
	u32 vi = vma_of(s, u);
	u64 lat;

	r->hint_faults++;
	if (fast)
		r->hint_faults_fast++;
	s->vst[vi].hint_faults++;
	s->now += s->c->costs.fault_ns;
	r->t_fault += s->c->costs.fault_ns;
	if (s->vma[vi].inited)
		tp_vma_scan_note(&s->vma[vi].scan, PID_BASE + tid);

	f &= (u8)~PF_PROT;
	s->flags[u] = f;
	tf.nr_pages = s->upages;
	tf.flags = (fast ? TP_FAULT_TOPTIER : 0) |
		   ((f & PF_YOUNG) ? TP_FAULT_YOUNG : 0) |
		   (write ? TP_FAULT_WRITE : 0);
	if (fast || (s->p->lat_src == LAT_ATIME && !s->atime)) {
		tf.latency = TP_LATENCY_UNKNOWN;
	} else if (s->p->lat_src == LAT_RING) {
		if (tp_scan_ring_latency(&s->ring, unit_addr(s, u), s->now,
					 &lat) < 0)
			lat = TP_LATENCY_UNKNOWN;
		tf.latency = lat;
	} else {
		/*
		 * tp_atime_fault() without its atomic exchange: one
		 * simulation owns its pages.
		 */
		tf.latency = tp_atime_latency(&s->fmt, s->atime[u], s->now);
		s->atime[u] = tp_atime_encode(&s->fmt, s->now);
	}
	fast_mem(s, &m);
	v = tp_decide(&s->tpp, &s->node, &s->cpu, &tf, &m, s->now);
	if (v < 0) {
		sim_fail(s, "tp_decide", v);
		return f;
	}
	if (tp_verdict_promotes(v)) {
		promote(s, u, vi);
		numa_fault_stats(s, 0);
	} else if (v == TP_REFUSE_NOSPACE) {
		wake_kswapd(s);
	}
	if (fast)
		numa_fault_stats(s, 1);
	return s->flags[u];
}

/* Allocation or hint fault; returns the flags the access then sees. */
static u8 sim_slow(struct sim *s, u64 u, u64 a)
{
	u8 f = s->flags[u];

	if (f & PF_NOALLOC)
		return alloc_unit(s, u);
	return hint_fault(s, u, (u32)WL_IS_WRITE(a), WL_TID(a));
}

/* ---- the NUMA scanner (task_numa_work) ------------------------------------- */

/* change_prot_numa() over [us, ue): returns the PTEs examined. */
static u64 mark_range(struct sim *s, u64 us, u64 ue, u32 vi, u64 *nr_updates)
{
	const u32 stamp_val = tp_atime_encode(&s->fmt, s->now);
	u64 u, scanned = 0, updates = 0;
	u8 *flags = s->flags;

	for (u = us; u < ue; u++) {
		u8 f = flags[u];

		if (f & PF_NOALLOC)
			continue;	/* no PTE */
		scanned++;
		if (f & PF_PROT) {
			/* Seed 000 5/8: still PROT_NONE: not accessed. */
			if (s->young_clear)
				flags[u] = f & (u8)~PF_YOUNG;
			continue;
		}
		if ((f & PF_FAST) ? !s->scan_fast : !s->scan_slow)
			continue;
		flags[u] = f | PF_PROT;
		updates++;
		if (s->stamp && !(f & PF_FAST))
			s->atime[u] = stamp_val;
	}
	s->vst[vi].pte_scanned += scanned;
	s->vst[vi].pte_updates += updates;
	s->r->pte_updates += updates;
	*nr_updates = updates;
	return scanned;
}

static void scan_pass(struct sim *s)
{
	const u32 tid = s->cur_tid, pid = PID_BASE + tid;
	const u64 align = 512 >> s->ushift;	/* HPAGE_SIZE in units */
	s64 pages = (s64)s->scan_units, virt = 8 * (s64)s->scan_units;
	u64 start = s->offset, scanned = 0, updated = 0, cost;
	u32 vi, first_vi;
	int forced = 0, pid_skipped = 0, any = 0;

	/* The first VMA ending above the offset; none: restart at 0. */
	for (vi = 0; vi < s->nr_vmas && s->vma[vi].end <= start; vi++)
		;
	if (vi == s->nr_vmas) {
		s->offset = start = 0;
		s->seq++;
		vi = 0;
	}
	first_vi = vi;
	tp_scan_ring_record(&s->ring, start, s->now);
	s->r->scan_passes++;
retry:
	for (; vi < s->nr_vmas; vi++) {
		struct svma *v = &s->vma[vi];
		struct tp_vma_facts fa;
		u64 us, ue;
		int verdict;

		if (!v->inited) {
			tp_vma_scan_init(&v->scan, &s->vprof, s->seq, s->now);
			v->inited = 1;
		}
		fa.vma_start = v->start;
		fa.vma_end = v->end;
		fa.scan_offset = start;
		fa.scan_seq = s->seq;
		fa.nr_threads = s->src->nr_threads;
		fa.pid = pid;
		fa.forced = forced;
		verdict = tp_vma_scan_check(&v->scan, &s->vprof, &fa, s->now);
		if (verdict < 0) {
			sim_fail(s, "tp_vma_scan_check", verdict);
			return;
		}
		if (!tp_vma_verdict_scans(verdict)) {
			if (verdict == TP_VMA_SKIP_INACTIVE)
				pid_skipped = 1;
			s->vst[vi].skips++;
			continue;
		}
		us = vma_unit_at(s, v, start > v->start ? start : v->start);
		s->vst[vi].scans++;
		any = 1;
		/*
		 * task_numa_work(): chunks of the remaining budget, aligned to
		 * 2 MiB; a chunk that changed no PTE (fast pages skipped,
		 * pages already marked, nothing mapped) only uses the 8x
		 * larger virtual budget.
		 */
		do {
			u64 upd;

			ue = us + (u64)pages;
			ue = ue - v->first + align - 1;
			ue = v->first + ue - ue % align;
			if (ue > v->first + v->n)
				ue = v->first + v->n;
			start = unit_end_addr(s, v, ue);
			/* Before marking, so a fault always finds its pass. */
			tp_scan_ring_advance(&s->ring, start);
			scanned += mark_range(s, us, ue, vi, &upd);
			updated += upd;
			if (upd)
				pages -= (s64)(ue - us);
			virt -= (s64)(ue - us);
			us = ue;
		} while (pages > 0 && virt > 0 && ue != v->first + v->n);
		if (ue == v->first + v->n)
			tp_vma_scan_done(&v->scan, s->seq);
		if (pages <= 0 || virt <= 0)
			break;
	}
	/* Linux 6.7: a pass the PID filter emptied is retried, forced. */
	if (vi == s->nr_vmas && !any && pid_skipped && !forced &&
	    s->p->vma_filter == VMAF_MAINLINE) {
		forced = 1;
		vi = first_vi;
		start = s->offset;
		goto retry;
	}
	if (vi < s->nr_vmas) {
		s->offset = start;
	} else {
		/* reset_ptenuma_scan() */
		s->offset = 0;
		s->seq++;
		/*
		 * The pass reached the end of the address space: it covers
		 * [start, limit). Advancing to the ring's limit says so even
		 * for a pass that began at 0 (an offset of 0 would read as
		 * "no progress" there).
		 */
		tp_scan_ring_advance(&s->ring, ~0ULL);
	}
	s->r->pte_scanned += scanned;
	cost = scanned * s->c->costs.scan_pte_ns +
	       updated * s->c->costs.scan_update_ns;
	if (s->r->nr_passes < SIM_MAX_PASSES) {
		struct sim_pass *ps = &s->r->pass[s->r->nr_passes++];

		ps->t_ns = s->now;
		ps->cost_ns = cost;
		ps->updates = updated;
	}
	s->now += cost;
	s->r->t_scan += cost;
}

/* The one place that reads the library's statistics (one slot: one CPU). */
static void sim_node_stats(const struct sim *s, struct sim_node_stats *o)
{
	struct tp_node_stats n;

	tp_node_stats(&s->tpp, &s->node, &n);
	tp_node_stats_add(&n, &s->cpu);
	o->pgpromote_candidate = n.candidate;
	o->pgpromote_candidate_nrl = n.candidate_nrl;
	o->pgpromote_success = n.success;
	o->promote_hot = n.verdict[TP_PROMOTE];
	o->promote_nrl = n.verdict[TP_PROMOTE_NRL];
	o->refused_mode = n.verdict[TP_REFUSE_MODE];
	o->refused_toptier = n.verdict[TP_REFUSE_TOPTIER];
	o->refused_not_young = n.verdict[TP_REFUSE_NOT_YOUNG];
	o->refused_cold = n.verdict[TP_REFUSE_COLD];
	o->refused_ratelimit = n.verdict[TP_REFUSE_RATELIMIT];
	o->refused_nospace = n.verdict[TP_REFUSE_NOSPACE];
	o->decided = n.decided;
	o->th_raised = n.th_raised;
	o->th_lowered = n.th_lowered;
	o->threshold = n.threshold;
}

/* ---- sampling and events ---------------------------------------------------- */

static void take_sample(struct sim *s)
{
	struct sim_result *r = s->r;
	struct sim_sample *sm;
	struct sim_node_stats ns;
	u32 i;

	if (r->nr_samples == SIM_MAX_SAMPLES) {
		/* Keep every other sample, sample half as often. */
		for (i = 0; i < SIM_MAX_SAMPLES / 2; i++)
			r->sample[i] = r->sample[2 * i + 1];
		r->nr_samples = SIM_MAX_SAMPLES / 2;
		s->sample_ns *= 2;
	}
	sm = &r->sample[r->nr_samples++];
	sim_node_stats(s, &ns);
	sm->t_ns = s->now;
	sm->acc = r->accesses;
	sm->fast = r->fast_accesses;
	sm->promo = r->promotions;
	sm->thresh = ns.threshold;
	sm->faults = r->hint_faults;
	sm->demo = r->demotions;
	sm->cand = ns.pgpromote_candidate;
	sm->fast_used = s->fused << s->ushift;
	sm->pte_updates = r->pte_updates;
	while (s->next_sample <= s->now)
		s->next_sample += s->sample_ns;
}

/*
 * task_tick_numa() and the gate of task_numa_work(), with the adaptive
 * period. The task's CPU time is the simulated clock (one task; kswapd has
 * its own). Once the task has run a period past node_stamp, node_stamp
 * advances by that period (the first time, the period becomes
 * task_scan_start() of the RSS: it starts as scan_delay); if the mm's next
 * scan time has come, the scan runs, the next scan time becomes now plus
 * the period, and node_stamp moves on by 32 times the scan's cost.
 */
static void numa_tick(struct sim *s)
{
	u64 old = s->scan_period, t;

	if (!s->stamped) {
		s->stamped = 1;
		s->scan_period = task_scan_min_ns(s);
	}
	s->node_stamp += old;
	if (s->now >= s->numa_next_scan) {
		t = s->now;
		s->numa_next_scan = s->now + s->scan_period;
		scan_pass(s);
		s->node_stamp += 32 * (s->now - t);
	}
	s->next_scan = s->node_stamp + s->scan_period;
}

static void sim_events(struct sim *s)
{
	do {
		if (s->now >= s->next_sample)
			take_sample(s);
		if (s->kswapd_awake && s->now >= s->kswapd_clock)
			kswapd_run(s);
		if (s->now >= s->next_scan && s->adapt) {
			numa_tick(s);
		} else if (s->now >= s->next_scan) {
			u64 t = s->now;

			scan_pass(s);
			/*
			 * task_numa_work() charges the task 32 times the CPU
			 * time it spent scanning (node_stamp), so scanning
			 * stays under about 3 % of its runtime.
			 */
			s->next_scan = s->now + s->scan_period +
				       32 * (s->now - t);
		}
		update_next_event(s);
	} while (s->now >= s->next_event && !s->failed);
}

/* ---- setup ------------------------------------------------------------------ */

static int pin_oracle(struct sim *s)
{
	const u32 *cnt = s->src->oracle_count;
	u64 k, u, lo = 0, hi = UINT32_MAX, n, pinned = 0;
	u32 *uc;

	if (!cnt) {
		snprintf(s->r->err, sizeof(s->r->err),
			 "oracle: no access counts");
		return -1;
	}
	/* Units the allocator can place on the fast tier. */
	k = (s->c->fast_pages - s->wm[1]) >> s->ushift;
	if (k > s->fcap)
		k = s->fcap;
	uc = calloc(s->nr_units, sizeof(*uc));
	if (!uc)
		return -1;
	for (u = 0; u < s->src->pages; u++) {
		u32 *c = &uc[u >> s->ushift];

		*c = *c + cnt[u] < *c ? UINT32_MAX : *c + cnt[u];
	}
	/* The smallest count t such that fewer than k units exceed it. */
	while (lo < hi) {
		u64 mid = lo + (hi - lo) / 2;

		for (n = 0, u = 0; u < s->nr_units; u++)
			n += uc[u] > mid;
		if (n < k)
			hi = mid;
		else
			lo = mid + 1;
	}
	for (u = 0; u < s->nr_units; u++)
		if (uc[u] > lo) {
			s->flags[u] |= PF_PINNED;
			pinned++;
		}
	for (u = 0; u < s->nr_units && pinned < k; u++)
		if (uc[u] == lo && lo > 0) {
			s->flags[u] |= PF_PINNED;
			pinned++;
		}
	free(uc);
	return 0;
}

static int sim_setup(struct sim *s)
{
	const struct sim_cfg *c = s->c;
	const struct sim_policy *p = s->p;
	const struct sim_src *src = s->src;
	struct tp_scan_ring_cfg rc = { .sz = sizeof(rc) };
	struct tp_atime_cfg ac = { .sz = sizeof(ac), .bits = TP_ATIME_DEFAULT_BITS,
				   .shift = 20 };
	struct tp_vma_profile_cfg vc = { .sz = sizeof(vc) };
	u64 i, addr;
	int ret, need_atime;

	s->ushift = c->thp ? 9 : 0;
	s->upages = 1ULL << s->ushift;
	s->nr_units = (src->pages + s->upages - 1) >> s->ushift;
	s->fcap = c->fast_pages >> s->ushift;
	s->scap = c->slow_pages >> s->ushift;
	memcpy(s->wm, c->wmark, sizeof(s->wm));
	s->init_fast_cap = s->fcap;
	if (c->init_fast > 0 && c->init_fast < 1)
		s->init_fast_cap = (u64)(c->init_fast * (double)src->pages) >>
				   s->ushift;

	ret = tp_policy_init(&s->tpp, &p->cfg);
	if (!ret)
		ret = tp_node_init(&s->node, &s->tpp, 0);
	if (!ret)
		ret = tp_atime_init(&s->fmt, &ac);
	if (!ret)
		ret = tp_scan_ring_init(&s->ring, &rc, s->pass,
					TP_DEFAULT_RING_DEPTH);
	if (!ret) {
		vc.filter = p->vma_filter == VMAF_BASE65 ? TP_VMA_FILTER_PID :
			    (u32)p->vma_filter;
		vc.tps = SIM_TPS;
		vc.scan_delay = (u64)c->scan_delay_ms * SIM_NS_PER_MS;
		ret = tp_vma_profile_init(&s->vprof, &vc);
	}
	if (ret) {
		snprintf(s->r->err, sizeof(s->r->err),
			 "%s: tierpol refused the settings (%d)", p->name, ret);
		return -1;
	}

	s->flags = malloc(s->nr_units);
	s->fpromo = malloc(s->fcap * sizeof(*s->fpromo));
	s->fslot = malloc(s->fcap * sizeof(*s->fslot));
	s->ffree = malloc(s->fcap * sizeof(*s->ffree));
	s->nr_vmas = src->nr_vmas;
	s->vma = calloc(s->nr_vmas, sizeof(*s->vma));
	s->vst = calloc(s->nr_vmas, sizeof(*s->vst));
	s->r->vma = s->vst;		/* the result owns the VMA statistics */
	s->r->nr_vmas = s->nr_vmas;
	/* Stamps exist only where the scanner writes them. */
	need_atime = p->lat_src == LAT_ATIME && !p->oracle &&
		     (p->cfg.mode & TP_MODE_TIERING);
	if (need_atime)
		s->atime = malloc(s->nr_units * sizeof(*s->atime));
	if (!s->flags || !s->fpromo || !s->fslot || !s->ffree ||
	    !s->vma || !s->vst || (need_atime && !s->atime)) {
		snprintf(s->r->err, sizeof(s->r->err), "out of memory");
		return -1;
	}
	memset(s->flags, PF_NOALLOC, s->nr_units);
	if (s->atime)
		memset(s->atime, 0xff, s->nr_units * sizeof(*s->atime));
	for (i = 0; i < s->fcap; i++) {
		s->fslot[i] = NO_SLOT;
		s->ffree[i] = (u32)(s->fcap - 1 - i);
	}
	s->nffree = s->fcap;

	/* Synthetic VMAs: 1 GiB apart, starting at 0x7f0000000000. */
	addr = 0x7f0000000000ULL;
	for (i = 0; i < s->nr_vmas; i++) {
		struct svma *v = &s->vma[i];

		v->first = src->vma[i].first >> s->ushift;
		v->n = src->vma[i].pages >> s->ushift;
		if (src->tr) {
			v->start = src->tr->vpn[src->vma[i].first] << 12;
			v->end = (src->tr->vpn[src->vma[i].first +
					       src->vma[i].pages - 1] + 1) << 12;
		} else {
			v->start = addr;
			v->end = addr + (src->vma[i].pages << 12);
			addr = (v->end + (2ULL << 30) - 1) & ~((1ULL << 30) - 1);
		}
		s->vst[i].pages = src->vma[i].pages;
	}

	s->tiering = !!(p->cfg.mode & TP_MODE_TIERING);
	s->scan_on = p->cfg.mode != TP_MODE_DISABLED && !p->oracle;
	s->scan_fast = tp_scan_wanted(&s->tpp, true);
	s->scan_slow = tp_scan_wanted(&s->tpp, false);
	s->young_clear = s->tiering && (p->cfg.flags & TP_POL_YOUNG);
	s->stamp = s->tiering && p->lat_src == LAT_ATIME;
	s->scan_period = (u64)sim_scan_period_ms(c, src->pages) * SIM_NS_PER_MS;
	s->scan_units = ((u64)c->scan_size_mb << 8) >> s->ushift;
	if (!s->scan_units)
		s->scan_units = 1;
	s->next_scan = s->scan_on ? (u64)c->scan_delay_ms * SIM_NS_PER_MS :
		       T_NEVER;
	/*
	 * The adaptive period (tiering policies, no fixed period): as
	 * init_numa_balancing() sets it, the task's period starts at
	 * scan_delay and the mm's first scan is scan_delay away.
	 */
	s->adapt = s->scan_on && s->tiering && !c->scan_period_ms;
	if (s->adapt) {
		s->scan_period = (u64)c->scan_delay_ms * SIM_NS_PER_MS;
		s->numa_next_scan = s->scan_period;
		s->next_scan = s->scan_period;
		s->period_max_ms = p->cfg.scan_period_max_ms ?
				   p->cfg.scan_period_max_ms :
				   TP_DEFAULT_SCAN_PERIOD_MAX_MS;
	}
	s->reclaim_ns = (u64)c->costs.reclaim_ns << s->ushift;
	s->lru = c->lru_two_list && s->p->demote;
	s->krounds = c->kswapd_rounds;
	if (s->lru) {
		s->lnext = malloc(s->fcap * sizeof(*s->lnext));
		s->lprev = malloc(s->fcap * sizeof(*s->lprev));
		if (!s->lnext || !s->lprev) {
			snprintf(s->r->err, sizeof(s->r->err), "out of memory");
			return -1;
		}
		s->lhead[0] = s->lhead[1] = NO_SLOT;
		s->ltail[0] = s->ltail[1] = NO_SLOT;
	}	s->xfer_ns = (u64)((double)(4096ULL << s->ushift) * 1e9 /
			   ((double)c->costs.migrate_mbps * 1048576.0));
	s->mig_cpu_ns = (u64)c->costs.migrate_ns << s->ushift;
	s->demote_cpu_ns = (u64)sim_demote_ns(&c->costs) << s->ushift;
	s->sample_ns = (u64)c->sample_ms * SIM_NS_PER_MS;
	s->next_sample = 0;
	s->pingpong_ns = (u64)c->pingpong_ms * SIM_NS_PER_MS;
	update_next_event(s);

	if (p->oracle && pin_oracle(s))
		return -1;
	return 0;
}

static void sim_teardown(struct sim *s)
{
	free(s->lnext);
	free(s->lprev);
	free(s->flags);
	free(s->atime);
	free(s->fpromo);
	free(s->fslot);
	free(s->ffree);
	free(s->vma);
}

/* Every allocated unit is on exactly one tier; the counts agree. */
static int sim_check(struct sim *s)
{
	u64 u, fast = 0, slow = 0, slots = 0, *seen;
	struct sim_result *r = s->r;

	for (u = 0; u < s->nr_units; u++) {
		u8 f = s->flags[u];

		if (f & PF_NOALLOC)
			continue;
		if (f & PF_FAST)
			fast++;
		else
			slow++;
	}
	/* Each fast unit sits in exactly one slot. */
	seen = calloc((s->nr_units + 63) / 64, sizeof(*seen));
	if (!seen)
		goto bad;
	for (u = 0; u < s->fcap; u++) {
		u32 x = s->fslot[u];

		if (x == NO_SLOT)
			continue;
		if (x >= s->nr_units || !(s->flags[x] & PF_FAST) ||
		    (seen[x / 64] >> (x % 64) & 1)) {
			free(seen);
			goto bad;
		}
		seen[x / 64] |= 1ULL << (x % 64);
		slots++;
	}
	free(seen);
	if (slots != fast)
		goto bad;
	fast <<= s->ushift;
	slow <<= s->ushift;
	if (fast != s->fused << s->ushift || slow != s->sused << s->ushift ||
	    fast + slow != r->alloc_fast + r->alloc_slow ||
	    r->promotions - r->demotions != fast - r->alloc_fast)
		goto bad;
	return 0;
bad:
	snprintf(r->err, sizeof(r->err), "%s: internal error: the page "
		 "accounting is inconsistent (fast %llu/%llu, slow %llu/%llu)",
		 s->p->name, (unsigned long long)fast,
		 (unsigned long long)s->fused, (unsigned long long)slow,
		 (unsigned long long)s->sused);
	return -1;
}

/*
 * phase-shift: time from the shift until the fast-tier ratio is back at
 * 90 % of its level just before (0 if it never fell below; -1 if it did
 * not recover within the run).
 */
static double response_ms(const struct sim_result *r, const struct sim_src *src)
{
	u32 ph, i;
	u64 t0, t_pre;
	const struct sim_sample *a = NULL, *b = NULL;
	double pre;
	int dropped = 0;

	for (ph = 0; ph < r->nr_phases; ph++)
		if (!strcmp(src->phase_name[ph], "after"))
			break;
	if (ph == r->nr_phases || !ph || src->wl->p.kind != WL_PHASE_SHIFT)
		return -1;
	t0 = r->phase[ph].start_ns;
	t_pre = t0 - r->phase[ph - 1].time_ns / 5;
	for (i = 0; i < r->nr_samples; i++) {
		if (!a && r->sample[i].t_ns >= t_pre)
			a = &r->sample[i];
		if (r->sample[i].t_ns <= t0)
			b = &r->sample[i];
	}
	if (!a || !b || b->acc <= a->acc)
		return -1;
	pre = (double)(b->fast - a->fast) / (double)(b->acc - a->acc);
	for (i = 1; i < r->nr_samples; i++) {
		const struct sim_sample *x = &r->sample[i - 1],
					*y = &r->sample[i];
		double ratio;

		if (x->t_ns < t0 || y->acc == x->acc)
			continue;
		ratio = (double)(y->fast - x->fast) / (double)(y->acc - x->acc);
		if (ratio < 0.9 * pre)
			dropped = 1;
		else if (!dropped)
			return 0;	/* the shift did not hurt */
		else
			return (double)(y->t_ns - t0) / 1e6;
	}
	return -1;			/* not recovered within the run */
}

/* ---- the main loop ------------------------------------------------------------ */

int sim_run(const struct sim_cfg *c, const struct sim_policy *p,
	    const struct sim_src *src, struct sim_result *r,
	    _Atomic u64 *progress)
{
	struct sim s;
	struct reader rd;
	u64 *buf = NULL, *gap = NULL;
	u64 lat[4], cpu_ns;
	u32 phase = 0, i, ci = 0;
	long got;
	int ret = -1;

	memset(r, 0, sizeof(*r));
	memset(&s, 0, sizeof(s));
	snprintf(r->policy, sizeof(r->policy), "%s", p->name);
	r->has_threshold = !!(p->cfg.flags & TP_POL_HOTNESS) &&
			   (p->cfg.mode & TP_MODE_TIERING) && !p->oracle;
	r->response_ms = -1;
	r->nr_phases = src->nr_phases;
	r->pages = src->pages;
	s.c = c;
	s.p = p;
	s.src = src;
	s.r = r;
	if (sim_setup(&s))
		goto out;
	r->state_bytes = s.nr_units * (sizeof(*s.flags) +
				       (s.atime ? sizeof(*s.atime) : 0)) +
			 s.fcap * (sizeof(*s.fslot) + sizeof(*s.ffree) +
				   sizeof(*s.fpromo) +
				   (s.lru ? 2 * sizeof(u32) : 0)) +
			 (src->wl ? wl_bytes_per_page(src->wl) * src->pages :
			  0) +
			 (p->oracle ? sizeof(u32) * src->pages : 0);

	buf = malloc(BATCH * sizeof(*buf));
	gap = malloc(BATCH * sizeof(*gap));
	if (!buf || !gap) {
		snprintf(r->err, sizeof(r->err), "out of memory");
		goto out;
	}
	if (reader_open(&rd, src, r->err, sizeof(r->err)))
		goto out;
	for (i = 0; i < 4; i++)
		lat[i] = c->costs.lat[i];
	cpu_ns = c->costs.cpu_ns ? c->costs.cpu_ns : src->cpu_ns;

	for (;;) {
		u64 now, next_ev, tmem = 0, nfast = 0, t0, p0, f0, st0, cpu = 0;
		const u64 *gp;
		u8 *flags = s.flags;
		u32 *atime = s.atime;
		const u32 sh = s.ushift;
		struct sim_phase_stats *ph;

		got = reader_fill(&rd, buf, gap, BATCH, &phase, r->err,
				  sizeof(r->err));
		if (got <= 0)
			break;
		/* A measured speed profile: per batch, no cost per access. */
		if (c->nr_cpu) {
			while (ci + 1 < c->nr_cpu &&
			       c->cpu_at[ci + 1] <= r->accesses)
				ci++;
			if (c->cpu_at[ci] <= r->accesses)
				cpu_ns = c->cpu_ns[ci];
		}
		gp = src->tr && src->tr->has_time ? gap : NULL;
		ph = &r->phase[phase];
		if (!ph->accesses && !ph->time_ns)
			ph->start_ns = s.now;
		t0 = s.now;
		st0 = r->t_fault + r->t_migr;
		p0 = r->promotions;
		f0 = r->hint_faults;
		now = s.now;
		next_ev = s.next_event;
		for (i = 0; i < (u32)got; i++) {
			const u64 a = buf[i];
			const u64 u = WL_PAGE(a) >> sh;
			u64 k, cost;
			u8 f;

			/*
			 * The stream is known a batch ahead: fetch the state
			 * of the page PREFETCH accesses ahead (and its stamp,
			 * if it will take a hint fault).
			 */
			if (likely(i + PREFETCH < (u32)got)) {
				const u64 un = WL_PAGE(buf[i + PREFETCH]) >> sh;

				__builtin_prefetch(&flags[un], 1);
				if (atime && (flags[WL_PAGE(buf[i + PREFETCH / 2]) >>
						    sh] & PF_PROT))
					__builtin_prefetch(&atime[WL_PAGE(
						buf[i + PREFETCH / 2]) >> sh], 1);
			}

			if (unlikely(now >= next_ev)) {
				s.now = now;
				s.cur_tid = WL_TID(a);
				r->accesses += i;
				r->fast_accesses += nfast;
				sim_events(&s);
				r->accesses -= i;
				r->fast_accesses -= nfast;
				now = s.now;
				next_ev = s.next_event;
			}
			f = flags[u];
			if (unlikely(f & PF_SLOWPATH)) {
				s.now = now;
				s.cur_tid = WL_TID(a);
				f = sim_slow(&s, u, a);
				now = s.now;
				next_ev = s.next_event;
			}
			k = (f & PF_FAST) | WL_IS_WRITE(a);
			flags[u] = f | PF_YOUNG;
			cost = lat[k];
			tmem += cost;
			nfast += (f >> 1) & 1;
			if (gp) {
				cpu += gp[i];
				now += gp[i] + cost;
			} else {
				now += cpu_ns + cost;
			}
		}
		if (!gp)
			cpu = cpu_ns * (u64)got;
		s.now = now;
		r->accesses += (u64)got;
		r->fast_accesses += nfast;
		r->t_mem += tmem;
		r->t_cpu += cpu;
		ph->accesses += (u64)got;
		ph->fast += nfast;
		ph->time_ns += s.now - t0;
		ph->promotions += r->promotions - p0;
		ph->hint_faults += r->hint_faults - f0;
		if (src->phase_measured[phase]) {
			r->measured_accesses += (u64)got;
			r->measured_fast += nfast;
			r->measured_time_ns += s.now - t0;
			r->measured_mem_ns += tmem;
			r->measured_stall_ns += r->t_fault + r->t_migr - st0;
		}
		if (progress)
			atomic_store_explicit(progress, r->accesses,
					      memory_order_relaxed);
		if (s.failed)
			break;
	}
	reader_close(&rd);
	if (got < 0 || s.failed)
		goto out;
	take_sample(&s);
	r->sim_time_ns = s.now;
	r->scan_period_end_ms = s.scan_period / SIM_NS_PER_MS;
	sim_node_stats(&s, &r->node);
	r->fast_used_end = s.fused << s.ushift;
	r->slow_used_end = s.sused << s.ushift;
	if (r->accesses != src->total) {
		snprintf(r->err, sizeof(r->err), "%s: %llu accesses replayed, "
			 "the stream has %llu", p->name,
			 (unsigned long long)r->accesses,
			 (unsigned long long)src->total);
		goto out;
	}
	if (sim_check(&s))
		goto out;
	if (src->wl)
		r->response_ms = response_ms(r, src);
	ret = 0;
out:
	if (ret && !r->err[0])
		snprintf(r->err, sizeof(r->err), "%s: simulation failed",
			 p->name);
	r->failed = ret != 0;
	sim_teardown(&s);
	free(buf);
	free(gap);
	return ret;
}

void sim_result_free(struct sim_result *r)
{
	free(r->vma);
	r->vma = NULL;
}

double sim_fast_ratio(const struct sim_result *r)
{
	return r->measured_accesses ?
	       (double)r->measured_fast / (double)r->measured_accesses : 0;
}

double sim_throughput(const struct sim_result *r)
{
	return r->measured_time_ns ?
	       (double)r->measured_accesses * 1e3 /
	       (double)r->measured_time_ns : 0;
}

/* Memory latency plus the hint-fault and migration stalls, per access. */
double sim_mean_latency(const struct sim_result *r)
{
	return r->measured_accesses ?
	       (double)(r->measured_mem_ns + r->measured_stall_ns) /
	       (double)r->measured_accesses : 0;
}

double sim_phase_throughput(const struct sim_result *r, u32 phase)
{
	const struct sim_phase_stats *ph = &r->phase[phase];

	return ph->time_ns ? (double)ph->accesses * 1e3 / (double)ph->time_ns :
	       0;
}
