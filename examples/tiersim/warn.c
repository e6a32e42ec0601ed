// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * tiersim's warnings: results that cannot mean what they seem, read from
 * the runs' results after they ended. One line each on stderr, naming the
 * set, the policies it concerns and the option that changes it; with
 * --strict they are errors (exit status 2 once the output is written).
 *
 *  - WARN_NO_SCAN: a policy that scans ended before the first scan pass (the
 *    scan delay): it never saw a hint fault, never promoted, and looks
 *    worse than "none" only by its demotions. For a trace: the trace is
 *    shorter than the first scan pass.
 *  - WARN_PART_SCAN: the scanner covered only part of the footprint once
 *    (fewer scan windows than a pass over it takes).
 *  - WARN_FEW_PTES: the scanner looked at fewer PTEs than the footprint has
 *    pages and marked none: its passes ran while first touch had placed
 *    only part of it (and no VMA filter skipped a VMA: that is a result).
 *  - WARN_NO_FAULT: PTEs were marked, but no access faulted on one before the
 *    run ended. (No PTE marked at all, as under a VMA filter that skips the
 *    VMAs, is a result, not a warning.)
 *  - WARN_NO_ADAPT: an adaptive policy's threshold moved at most once (in
 *    tiering mode: without it tierpol judges no page), and the run ended
 *    before the controller's first full period could end: the period that
 *    closes at the first fault it sees (6.1's start, tiersim's node clock)
 *    judges no candidates, so its "thr ms" is not the controller's answer
 *    to the run.
 *  - WARN_TLB_FIT: a policy that sees accesses only through accessed bits
 *    (DAMON; an accessed-bit scanner with no hint faults) ran a footprint
 *    whose units fit each thread's TLB model: the bit, cleared without a
 *    flush as x86 clears it, is set only by a TLB fill, and with no NUMA
 *    scan to flush the TLB, a unit's entry, once filled, stays: after the
 *    first clear the policy saw no access (but to a unit it migrated, or,
 *    with --thp, after kswapd's look at a young folio flushed the TLB).
 *  - WARN_SATURATED (any policy, besides the others): a tier's loaded
 *    latency was at its cap (u = UTIL_MAX) for more than a tenth of the
 *    run's measured phases (not first touch's unmeasured pass): the
 *    demand reached its bandwidth, which the model meets with that
 *    latency, not with a queue, so what goes beyond it is served at that
 *    latency and the throughput can exceed what the bandwidth allows.
 *
 * And one about the machine, for every policy (warn_machine()): the fast
 * tier's idle read or write latency is above the slow tier's
 * (--fast-read-ns 400 on pmem's 305): a promotion makes no access faster,
 * and the runs compare policies on tiers the wrong way round.
 */
#include "cli.h"
#include "sim_int.h"

#include <string.h>

enum {
	WARN_NO_SCAN, WARN_PART_SCAN, WARN_FEW_PTES, WARN_NO_FAULT,
	WARN_NO_ADAPT, WARN_TLB_FIT, WARN_SATURATED, WARN_NR
};

/* The controller's period of policy @p, ms. */
static u64 thresh_period_ms(const struct sim_policy *p)
{
	return p->cfg.scan_period_max_ms ? p->cfg.scan_period_max_ms :
	       TP_DEFAULT_SCAN_PERIOD_MAX_MS;
}

/* The VMA filter skipped a VMA in run @r. */
static int skipped(const struct sim_result *r)
{
	u32 v;

	for (v = 0; v < r->nr_vmas; v++)
		if (r->vma[v].skips)
			return 1;
	return 0;
}

/*
 * Policy @p sees accesses only through accessed bits (DAMON, or a record
 * fed by the accessed-bit scanner alone) and the units of set @s fit each
 * thread's TLB (direct-mapped: units 0 to n - 1 each have an entry of
 * their own), so that no fill sets a bit again.
 */
static int tlb_fit(const struct set *s, const struct sim_policy *p)
{
	if (!p->damon.on && (p->hot.record == REC_NONE ||
			     (p->hot.sources & SRC_HINT) ||
			     !(p->hot.sources & SRC_ABIT)))
		return 0;
	return s->cfg.tlb_entries &&
	       sim_units(&s->cfg, s->src.pages) <= sim_tlb_units(&s->cfg);
}

/* The largest power of 2 below @x (@x at least 2). */
static u64 pow2_below(u64 x)
{
	u64 p = 1;

	while (2 * p < x)
		p *= 2;
	return p;
}

/* Which of the scanner's warnings run @i of set @s earns, or -1. */
static int classify(const struct set *s, u32 i)
{
	const struct sim_policy *p = &s->pol[i];
	const struct sim_result *r = &s->rs.res[i];
	const struct sim_cfg *c = &s->cfg;
	u64 k = c->scale ? c->scale : 1, end_ms = r->sim_time_ns / 1000000;

	if (tlb_fit(s, p))
		return WARN_TLB_FIT;
	if (p->oracle || p->cfg.mode == TP_MODE_DISABLED ||
	    (p->hot.record != REC_NONE && !(p->hot.sources & SRC_HINT)))
		return -1;	/* takes no hint faults */
	if (!r->scan_passes)
		return WARN_NO_SCAN;
	if (r->scan_passes < sim_scan_windows(c, s->src.pages * k))
		return WARN_PART_SCAN;
	if (!r->pte_updates && !skipped(r) &&
	    r->pte_scanned < r->alloc_fast + r->alloc_slow)
		return WARN_FEW_PTES;
	if (!r->hint_faults && r->pte_updates)
		return WARN_NO_FAULT;
	/* (without tiering, mode=1, tierpol judges no page: no threshold) */
	if ((p->cfg.mode & TP_MODE_TIERING) &&
	    (p->cfg.flags & (TP_POL_ADAPTIVE | TP_POL_HOTNESS)) ==
	    (TP_POL_ADAPTIVE | TP_POL_HOTNESS) &&
	    r->node.th_raised + r->node.th_lowered <= 1 &&
	    end_ms < c->scan_delay_ms + thresh_period_ms(p))
		return WARN_NO_ADAPT;
	return -1;
}

/*
 * The share of run @r's measured phases tier @tier (0 slow, 1 fast) had
 * its latency capped: the headline figures are theirs, and an unmeasured
 * first touch can be most of a short run's time. (An epoch that straddles
 * a phase's end counts in the phase it ends in: at most 1.)
 */
static double capped(const struct sim_result *r, int tier)
{
	double x = r->measured_time_ns ?
		   (double)r->measured_capped_ns[tier] /
		   (double)r->measured_time_ns : 0;

	return x < 1 ? x : 1;
}

/*
 * The tier whose latency run @r had at its cap for more than a tenth of
 * its measured phases: 1 slow, 2 fast (the longer), or 0.
 */
static int saturated(const struct sim_result *r)
{
	int t = capped(r, 0) >= capped(r, 1) ? 0 : 1;

	return capped(r, t) > 0.1 ? t + 1 : 0;
}

/* @t seconds in at most 3 digits: "31 ms", "2.05 s", "169 s". */
static int secs(char *b, size_t n, double t)
{
	if (t < 1)
		return snprintf(b, n, "%.3g ms", t * 1e3);
	return snprintf(b, n, "%.*f s", t < 10 ? 2 : 0, t);
}

/* "0.29 s" or "6.65 s to 8.03 s": the end of the runs of @mask. */
static void ends(char *b, size_t n, const struct set *s, const u8 *mask)
{
	double lo = -1, hi = 0, t;
	int k;
	u32 i;

	for (i = 0; i < s->nr_pol; i++) {
		if (!mask[i])
			continue;
		t = (double)s->rs.res[i].sim_time_ns / 1e9;
		if (lo < 0 || t < lo)
			lo = t;
		if (t > hi)
			hi = t;
	}
	k = secs(b, n, lo);
	if (hi - lo >= 0.05 * hi && k > 0 && (size_t)k < n) {
		k += snprintf(b + k, n - (size_t)k, " to ");
		if (k > 0 && (size_t)k < n)
			secs(b + k, n - (size_t)k, hi);
	}
}

/* The text of warning @w for the runs of @mask (the first is @i). */
static void say(FILE *f, const struct set *s, int w, const u8 *mask, u32 i)
{
	const struct sim_cfg *c = &s->cfg;
	const struct sim_result *r = &s->rs.res[i];
	char t[64];
	int trace = s->has_tr;

	ends(t, sizeof(t), s, mask);
	switch (w) {
	case WARN_NO_SCAN:
		fprintf(f, "no scan pass ran: the %s ended at %s (the first "
			"pass is due %u ms in, at a thread's next access after "
			"that): nothing was scanned or promoted; %s",
			trace ? "trace" : "run", t, c->scan_delay_ms,
			!trace ? "a longer run (--accesses) or a shorter "
			"--scan-delay-ms changes that" :
			c->scan_delay_ms > 1 ? "--scan-delay-ms 1 "
			"--scan-period-ms 1 scan within it" :
			"the scanner runs only while a thread runs");
		break;
	case WARN_PART_SCAN:
		fprintf(f, "the %s ended at %s, after %llu of the %llu scan "
			"windows of one pass over the footprint: part of it was "
			"never scanned; %s", trace ? "trace" : "run", t,
			(unsigned long long)r->scan_passes,
			(unsigned long long)sim_scan_windows(c, s->src.pages *
				(c->scale ? c->scale : 1)),
			trace ? "a shorter --scan-period-ms or a larger "
			"--scan-size-mb scans it faster" : "a longer run "
			"(--accesses) or a shorter --scan-period-ms changes "
			"that");
		break;
	case WARN_FEW_PTES:
		fprintf(f, "the scanner's %llu pass%s looked at %llu PTEs, "
			"fewer than the footprint's %llu pages, and marked "
			"none: %s ran while first touch had placed only part of "
			"it; %s", (unsigned long long)r->scan_passes,
			r->scan_passes == 1 ? "" : "es",
			(unsigned long long)r->pte_scanned,
			(unsigned long long)(r->alloc_fast + r->alloc_slow),
			r->scan_passes == 1 ? "it" : "they",
			trace ? "a shorter --scan-period-ms scans it again "
			"sooner" : "a longer run (--accesses) or a shorter "
			"--scan-period-ms changes that");
		break;
	case WARN_SATURATED: {
		int tier = saturated(r) - 1;
		const char *name = tier ? "fast" : "slow";

		fprintf(f, "the %s tier's loaded latency was at its cap "
			"(utilisation %.2f) for %.0f %% of the measured run: the "
			"demand reached its bandwidth, which the model meets "
			"with that latency, not with a queue, so the throughput "
			"may be above what the bandwidth allows; fewer threads "
			"or more bandwidth (--%s-read-mbps, --%s-write-mbps) "
			"keep the run inside the model", name, UTIL_MAX,
			100.0 * capped(r, tier), name, name);
		break;
	}
	case WARN_TLB_FIT: {
		u64 n = sim_units(c, s->src.pages), e = 1;
		u64 k = c->scale ? c->scale : 1;
		const char *unit = c->thp ? "folio" : "page";

		/* Units fit from e * k entries (e: n up to a power of 2). */
		while (e < n)
			e *= 2;
		fprintf(f, "the footprint's %llu %s%s fit%s each thread's TLB "
			"(%llu entries: --tlb-entries %u at --scale %llu) and no "
			"NUMA scan flushes it: an accessed bit, cleared without "
			"a flush as x86 clears it, is set again only by a TLB "
			"fill, so after the first clear no access was seen (but "
			"to a migrated %s%s); ", (unsigned long long)n, unit,
			n == 1 ? "" : "s", n == 1 ? "s" : "",
			(unsigned long long)sim_tlb_units(c), c->tlb_entries,
			(unsigned long long)k, unit, c->thp ? ", or after "
			"kswapd's look at a young folio flushed the TLB" : "");
		if (e * k > 1)
			fprintf(f, "--tlb-entries %llu or less, ",
				(unsigned long long)pow2_below(e * k));
		fprintf(f, "%s--tlb-entries 0 (the bit set by every access) "
			"lets accesses be seen", c->thp && s->src.pages >
			sim_tlb_units(c) ? "no --thp, or " : "");
		break;
	}
	case WARN_NO_FAULT:
		fprintf(f, "no NUMA hint fault in %llu scan pass%s (%llu PTEs "
			"marked): the %s ended at %s, before an access touched "
			"a marked page; %sa shorter --scan-period-ms changes "
			"that", (unsigned long long)r->scan_passes,
			r->scan_passes == 1 ? "" : "es",
			(unsigned long long)r->pte_updates,
			trace ? "trace" : "run", t,
			trace ? "" : "a longer run (--accesses) or ");
		break;
	default:
		fprintf(f, "the %s ended at %s, before the hot-threshold "
			"controller's first full period (%llu ms after the %u ms "
			"scan delay; the period that closes at the first fault, "
			"as 6.1's does, judges no candidates and can only raise "
			"the threshold a step): \"thr ms\" is never adapted to "
			"the run; --thresh-period-ms (below the %s's length)%s "
			"changes that", trace ? "trace" : "run", t,
			(unsigned long long)thresh_period_ms(&s->pol[i]),
			c->scan_delay_ms, trace ? "trace" : "run",
			trace ? "" : " or a longer run (--accesses)");
		break;
	}
}

/*
 * The fast tier's read or write latency above the slow tier's: one line
 * for set @s, whatever its policies; 1 if written. Equal latencies are a
 * model's choice (the kernel-truth fit runs with all of them 0), not a
 * mistake.
 */
static u32 warn_machine(FILE *f, const struct set *s, int strict)
{
	const u32 *lat = s->cfg.costs.lat;	/* slow r, slow w, fast r, w */
	int rd = lat[2] > lat[0], wr = lat[3] > lat[1];

	if (!rd && !wr)
		return 0;
	fflush(stdout);
	fprintf(f, "%s: %s: %s: ", prog, strict ? "error" : "warning",
		s->label);
	if (rd && wr)
		fprintf(f, "the fast tier's read and write latencies (%u and "
			"%u ns) are above the slow tier's (%u and %u ns): a "
			"promotion makes no access faster; --fast-read-ns and "
			"--fast-write-ns below those, or larger --slow-read-ns "
			"and --slow-write-ns, put the tiers in order\n", lat[2],
			lat[3], lat[0], lat[1]);
	else
		fprintf(f, "the fast tier's %s latency (%u ns) is above "
			"the slow tier's (%u ns): a promotion makes no %s "
			"faster; a --fast-%s-ns below %u, or a larger "
			"--slow-%s-ns, puts the tiers in order\n",
			rd ? "read" : "write", lat[rd ? 2 : 3], lat[rd ? 0 : 1],
			rd ? "read" : "write", rd ? "read" : "write",
			lat[rd ? 0 : 1], rd ? "read" : "write");
	return 1;
}

u32 warn_set(FILE *f, const struct set *s, int strict)
{
	int kind[SIM_MAX_POLICIES];
	u8 mask[SIM_MAX_POLICIES];
	u32 i, j, nr = 0;
	int w;

	nr = warn_machine(f, s, strict);
	for (i = 0; i < s->nr_pol; i++)
		kind[i] = classify(s, i);
	for (w = 0; w < WARN_NR; w++) {
		u32 first = s->nr_pol;

		memset(mask, 0, sizeof(mask));
		for (i = 0; i < s->nr_pol; i++)
			if (w == WARN_SATURATED ?
			    saturated(&s->rs.res[i]) != 0 : kind[i] == w) {
				mask[i] = 1;
				if (first == s->nr_pol)
					first = i;
			}
		if (first == s->nr_pol)
			continue;
		fflush(stdout);
		fprintf(f, "%s: %s: %s: ", prog, strict ? "error" : "warning",
			s->label);
		for (i = 0, j = 0; i < s->nr_pol; i++)
			if (mask[i])
				fprintf(f, "%s%s", j++ ? ", " : "",
					s->rs.res[i].policy);
		fputs(": ", f);
		say(f, s, w, mask, first);
		fputc('\n', f);
		nr++;
	}
	return nr;
}
