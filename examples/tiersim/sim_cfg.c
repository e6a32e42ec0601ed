// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * tiersim: the machine's configuration: cost profiles, the kernel's
 * defaults, the fast node's watermarks, task_scan_min() and the checks of a
 * configuration against a source (docs/tiersim-model.md: the model
 * and "Costs and their sources").
 */
#include "sim_int.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>


/*
 * Cost profiles: one socket of a two-socket server. Sources and how each
 * figure was chosen: docs/tiersim-model.md, "Costs and their sources".
 *  - DRAM and Optane (pmem): Izraelevitz et al., "Basic Performance
 *    Measurements of the Intel Optane DC Persistent Memory Module",
 *    arXiv:1903.05714 (2019): idle random-read latency about 81 ns (DRAM)
 *    and 305 ns (Optane); six interleaved Optane DIMMs read about 39 GB/s
 *    and write about 13 GB/s. Yang et al., "An Empirical Guide to the
 *    Behavior and Use of Scalable Persistent Memory", FAST 2020: Optane
 *    reads and writes its media in 256-byte lines, so a random 64-byte
 *    access moves 256 bytes. A write that misses the caches reads the
 *    line first (its latency is the read's) and writes it back later
 *    (the bandwidth). Six DDR4-2666 channels: about 100 GB/s read, 60 GB/s
 *    write (estimates below the 128 GB/s peak).
 *  - Loaded latency (queue_ns): a knee and a slope fitted to the shape of
 *    published loaded-latency curves (Intel MLC; Optane in the FAST 2020
 *    paper): DRAM about doubles near 90 % of its bandwidth (12 ns x 9
 *    = 108 ns more), Optane about quadruples (100 ns x 9 = 900 ns more).
 *    Estimates.
 *  - CXL: Sun et al., "Demystifying CXL Memory with Genuine CXL-Ready
 *    Systems and Devices", MICRO 2023, and Li et al., "Pond", ASPLOS 2023:
 *    CXL-attached DRAM at about twice the local DRAM latency; an x8 link's
 *    share about 30 GB/s (estimate).
 *  - Fault, migration and scan costs: order-of-magnitude estimates (a minor
 *    fault is about 1 us, lmbench lat_pagefault class; a 4 KiB migration is
 *    a few us including unmap and copy). kswapd's costs per page examined
 *    and per page demoted: the ratios the ground truth fits under qemu
 *    (docs/FIDELITY.md: a look about half a hint fault, a demotion about
 *    1.5 promotions) applied to these.
 *  - TLB shootdowns: a few us for the initiator, about 1 us for each CPU
 *    it interrupts (order of magnitude of Amit, "Optimizing the TLB
 *    Shootdown Algorithm with Page-Access Tracking", USENIX ATC 2017, and
 *    Kumar et al., "LATR", ASPLOS 2018); estimates.
 */
const struct sim_costs sim_profiles[] = {
	{
		.name = "pmem",
		.cpu_ns = 0,
		.lat = { 305, 305, 81, 81 },
		.fault_ns = 1000,
		.migrate_ns = 4000,
		.migrate_mbps = 2048,
		.scan_pte_ns = 10,
		.alloc_ns = 1500,
		.reclaim_ns = 500,
		.scan_update_ns = 10,
		.demote_ns = 6000,
		.bw_mbps = { 39000, 13000, 100000, 60000 },
		.gran = { 256, 64 },
		.queue_ns = { 100, 12 },
		.tlb_ns = 3000,
		.ipi_ns = 1000,
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
		.reclaim_ns = 500,
		.scan_update_ns = 10,
		.demote_ns = 3000,
		.bw_mbps = { 30000, 30000, 100000, 60000 },
		.gran = { 64, 64 },
		.queue_ns = { 30, 12 },
		.tlb_ns = 3000,
		.ipi_ns = 1000,
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
	/* The mechanisms checked against Linux 6.1 (docs/FIDELITY.md). */
	c->lru_two_list = 1;
	c->kswapd_rounds = 1;
	/* A Skylake-class STLB: 1536 entries, here 2048 direct-mapped. */
	c->tlb_entries = 2048;
}

/* ---- watermarks --------------------------------------------------------- */

u64 sim_isqrt(u64 x)
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

	kb = sim_isqrt(total * 4 * 16);
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

/* task_nr_scan_windows(): the RSS in scan_size_mb chunks, at least 1. */
u64 sim_scan_windows(const struct sim_cfg *c, u64 rss_pages)
{
	u64 chunk = (u64)c->scan_size_mb << 8;

	return rss_pages ? (rss_pages + chunk - 1) / chunk : 1;
}

/*
 * The units @pages stream pages take: pages, or with --thp 2 MiB folios
 * (the last one partly used).
 */
u64 sim_units(const struct sim_cfg *c, u64 pages)
{
	return c->thp ? (pages + 511) >> 9 : pages;
}

/*
 * Each thread's TLB in the model, entries: a TLB entry maps one page (or
 * one 2 MiB folio), and with --scale K of the machine's entries map one
 * unit here; a power of 2, at least one (--tlb-entries 0 uses none).
 */
u64 sim_tlb_units(const struct sim_cfg *c)
{
	u64 n = c->tlb_entries / (c->scale ? c->scale : 1), i;

	for (i = 1; 2 * i <= n; i *= 2)
		;
	return i;
}

/*
 * task_scan_min() of an RSS, ms: scan_period_min_ms over the RSS's scan
 * windows, but never more than MAX_SCAN_WINDOW MB/s.
 */
u64 sim_task_scan_min_ms(const struct sim_cfg *c, u64 rss_pages)
{
	u64 size = c->scan_size_mb, floor, scan;

	floor = 1000 / (size < MAX_SCAN_WINDOW ? MAX_SCAN_WINDOW / size : 1);
	scan = c->scan_period_min_ms / sim_scan_windows(c, rss_pages);
	return scan > floor ? scan : floor;
}

/* The machine's pages: a --scale model's stream pages stand for more. */
static u64 machine_pages(const struct sim_cfg *c, u64 pages)
{
	return pages * (c->scale ? c->scale : 1);
}

u32 sim_scan_period_ms(const struct sim_cfg *c, u64 footprint_pages)
{
	if (c->scan_period_ms)
		return c->scan_period_ms;
	return (u32)sim_task_scan_min_ms(c, machine_pages(c, footprint_pages));
}

int sim_validate(struct sim_cfg *c, const struct sim_src *src, char *err,
		 size_t errlen)
{
	u64 *w = c->wmark;
	int computed = 0;
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
	if (c->scale > 1 && src->tr) {
		snprintf(err, errlen, "--scale needs a synthetic workload (a "
			 "trace's pages are the machine's)");
		return -1;
	}
	/* Watermarks, as all page counts below, are the machine's. */
	if (!w[0] && !w[1] && !w[2] && !w[3]) {
		sim_wmarks(machine_pages(c, c->fast_pages),
			   machine_pages(c, c->slow_pages), w);
		computed = 1;
	}
	/*
	 * A fast tier of fewer than about 150 pages gets a gap of 0: kswapd
	 * then stops where a promotion still finds no room, and none could
	 * ever happen. Linux computes the same; a run of it would say
	 * nothing, so it is refused (given watermarks are taken as given).
	 */
	if (computed && w[3] <= w[2]) {
		snprintf(err, errlen, "the fast tier (%llu pages) is too small "
			 "for the computed watermarks to leave room for a "
			 "promotion (min %llu, low %llu, high %llu, promo %llu): "
			 "give --wmark or a larger --fast",
			 (unsigned long long)machine_pages(c, c->fast_pages),
			 (unsigned long long)w[0], (unsigned long long)w[1],
			 (unsigned long long)w[2], (unsigned long long)w[3]);
		memset(w, 0, sizeof(c->wmark));
		return -1;
	}
	if (!(w[0] <= w[1] && w[1] <= w[2] && w[2] <= w[3])) {
		snprintf(err, errlen, "watermarks out of order: min %llu, low "
			 "%llu, high %llu, promo %llu (need min <= low <= high "
			 "<= promo)", (unsigned long long)w[0],
			 (unsigned long long)w[1], (unsigned long long)w[2],
			 (unsigned long long)w[3]);
		return -1;
	}
	if (w[3] >= machine_pages(c, c->fast_pages)) {
		snprintf(err, errlen, "the promo watermark (%llu pages) is not "
			 "below the fast tier's capacity (%llu pages)",
			 (unsigned long long)w[3],
			 (unsigned long long)machine_pages(c, c->fast_pages));
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
		/* A tier holds whole folios: its pages rounded down. */
		if ((c->fast_pages >> 9) + (c->slow_pages >> 9) <
		    (src->pages + 511) >> 9) {
			snprintf(err, errlen, "--thp: the footprint (%llu "
				 "pages) needs %llu folios of 512 pages, and the "
				 "two tiers hold %llu + %llu whole ones",
				 (unsigned long long)src->pages,
				 (unsigned long long)((src->pages + 511) >> 9),
				 (unsigned long long)(c->fast_pages >> 9),
				 (unsigned long long)(c->slow_pages >> 9));
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

