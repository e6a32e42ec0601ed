// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Sections "decide" and "fault": tp_decide() per preset against
 * should_numa_migrate_memory() of the 2020 RFC and of Linux 6.1 (per-CPU
 * vmstat counters, per-CPU event counts), on one and two threads; and a
 * whole hint fault, the latency source followed by the decision.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loops.h"

/* ---- baseline runners (the shapes of loops.h) ------------------------- */

static inline int bl_op_decide_rfc(struct decide_ctx *c, u64 i, u64 t)
{
	return bl_decide_rfc(c->s, c->pg, c->pcp, &c->bf[i & TBL_MASK], t);
}

static inline int bl_op_decide_61(struct decide_ctx *c, u64 i, u64 t)
{
	return bl_decide_61(c->s, c->pg, c->pcp, &c->bf[i & TBL_MASK], t);
}

static inline int bl_op_fault_ring(struct decide_ctx *c, u64 i, u64 t)
{
	struct bl_fault f = c->bf[i & TBL_MASK];

	f.latency = (u64)bl_ring_latency(c->mm, c->addr[i & TBL_MASK],
					 c->lat_now) >> 20;
	return bl_decide_rfc(c->s, c->pg, c->pcp, &f, t);
}

static inline int bl_op_fault_stamp(struct decide_ctx *c, u64 i, u64 t)
{
	struct bl_fault f = c->bf[i & TBL_MASK];

	f.latency = bl_atime_fault(&c->blfmt, &c->bstamp[i & TBL_MASK],
				   c->lat_now + (i << 10));
	return bl_decide_61(c->s, c->pg, c->pcp, &f, t);
}

static u64 bl_decide_rfc_run(void *ctx, u64 iters)
{
	struct decide_ctx *c = ctx;

	return loop_decide(c, iters, c->bverdicts, bl_op_decide_rfc);
}

static u64 bl_decide_61_run(void *ctx, u64 iters)
{
	struct decide_ctx *c = ctx;

	return loop_decide(c, iters, c->bverdicts, bl_op_decide_61);
}

static u64 bl_fault_ring_run(void *ctx, u64 iters)
{
	struct decide_ctx *c = ctx;

	return loop_decide(c, iters, c->bverdicts, bl_op_fault_ring);
}

static u64 bl_fault_atime_run(void *ctx, u64 iters)
{
	struct decide_ctx *c = ctx;
	u64 r = loop_decide(c, iters, c->bverdicts, bl_op_fault_stamp);

	c->lat_now += iters << 10;
	return r;
}

/* ---- set-up ----------------------------------------------------------- */

void dec_alloc(struct dec_setup *d)
{
	d->pol = xalloc(sizeof(*d->pol));
	d->node = xalloc(sizeof(*d->node));
	d->cpu = xalloc(2 * sizeof(*d->cpu));
	d->mem = xalloc(sizeof(*d->mem));
	d->s = xalloc(sizeof(*d->s));
	d->pg = xalloc(sizeof(*d->pg));
	d->pcp = xalloc(2 * sizeof(*d->pcp));
	d->f = xalloc(TBL * sizeof(*d->f));
	d->bf = xalloc(TBL * sizeof(*d->bf));
	d->clock = xalloc(16 * sizeof(u64));
}

void dec_init(struct dec_setup *d, const struct dec_case *dc)
{
	struct tp_policy_cfg cfg;
	u32 i;
	int t;

	tp_policy_preset(&cfg, dc->preset, 1000);
	if (dc->mbps)
		cfg.rate_limit_mbps = dc->mbps;
	cfg.flags &= ~dc->clear;
	if (tp_policy_init(d->pol, &cfg) || tp_node_init(d->node, d->pol, 0)) {
		fprintf(stderr, "policy init failed\n");
		exit(2);
	}
	memset(d->cpu, 0, 2 * sizeof(*d->cpu));
	*d->mem = (struct tp_node_mem){
		.free = dc->free, .wmark_min = 16384, .wmark_low = 20480,
		.wmark_high = 25600, .wmark_promo = 30720, .present = 1 << 22,
	};
	/* The RFC preset's rate: 0 = the high watermark, 25600 pages/s. */
	*d->s = (struct bl_sysctl){
		.mode = 2, .hot_threshold_ms = 1000,
		.rate_limit_mbps = dc->mbps ? dc->mbps :
				   dc->preset == TP_PRESET_RFC2020 ? 100 : 65536,
		.scan_period_max_ms = 60000, .page_shift = 12,
	};
	memset(d->pg, 0, sizeof(*d->pg));
	memset(d->pcp, 0, 2 * sizeof(*d->pcp));
	d->pg->hz = 1000;
	d->pg->free = d->mem->free;
	d->pg->wmark_high = d->mem->wmark_high;
	d->pg->wmark_promo = d->mem->wmark_promo;
	d->pg->present = d->mem->present;
	for (i = 0; i < TBL; i++) {
		bool w = rnd() % 5 == 0;	/* 80:20 read/write */
		u64 lat = rnd() % 60;		/* hot: below every threshold */

		d->f[i] = (struct tp_fault){
			.latency = lat, .nr_pages = 1,
			.flags = TP_FAULT_YOUNG | (w ? TP_FAULT_WRITE : 0),
		};
		d->bf[i] = (struct bl_fault){
			.latency = lat, .nr = 1,
			.flags = BL_F_YOUNG | (w ? BL_F_WRITE : 0),
		};
	}
	for (t = 0; t < 2; t++) {
		d->c[t] = (struct decide_ctx){
			.pol = d->pol, .node = d->node, .cpu = &d->cpu[t],
			.mem = d->mem, .f = d->f, .s = d->s, .pg = d->pg,
			.pcp = &d->pcp[t], .bf = d->bf, .now = 1,
			.shift = dc->shift,
		};
	}
	d->clock[0] = 1;
}

/* ---- reports ---------------------------------------------------------- */

static void verdict_mix(char *buf, size_t len, const u64 *v)
{
	u64 total = 0;
	size_t off = 0;
	int k;

	for (k = 0; k < TP_NR_VERDICTS; k++)
		total += v[k];
	buf[0] = 0;
	for (k = 0; k < TP_NR_VERDICTS && total; k++) {
		if (!v[k])
			continue;
		off += (size_t)snprintf(buf + off, len - off, "%s%s %.1f%%",
					off ? ", " : "", tp_verdict_name(k),
					100.0 * (double)v[k] / (double)total);
		if (off >= len)
			break;
	}
}

/*
 * Print both sides' verdicts, and check tierpol's statistics: the slots
 * of the @threads callers must hold exactly the verdicts the loops saw
 * (every fault is one page).
 */
static void dec_report(const struct dec_setup *d, int threads)
{
	u64 tv[VERDICT_SLOTS] = { 0 }, bv[VERDICT_SLOTS] = { 0 }, total = 0;
	struct tp_node_stats st;
	char a[200], b[200];
	int t, k;

	tp_node_stats_read(d->pol, d->node, &st);
	for (t = 0; t < threads; t++) {
		tp_node_stats_add(&st, &d->cpu[t]);
		for (k = 0; k < TP_NR_VERDICTS; k++) {
			tv[k] += d->c[t].verdicts[k];
			bv[k] += d->c[t].bverdicts[k];
		}
	}
	verdict_mix(a, sizeof(a), tv);
	verdict_mix(b, sizeof(b), bv);
	note("verdicts: tierpol %s | baseline %s", a, b);
	for (k = 0; k < TP_NR_VERDICTS; k++) {
		total += tv[k];
		if (st.verdict[k] != tv[k])
			check_failed("statistics: %llu pages %s, the callers saw %llu",
				     (unsigned long long)st.verdict[k],
				     tp_verdict_name(k),
				     (unsigned long long)tv[k]);
	}
	if (st.decided != total)
		check_failed("statistics: %llu decided, the callers made %llu",
			     (unsigned long long)st.decided,
			     (unsigned long long)total);
}

/* ---- the sections ------------------------------------------------------- */

void bench_decide(void)
{
	static const struct {
		const char *name;
		struct dec_case dc;
		int threads;
		bool full;
	} rows[] = {
		{ "RFC: bypass (free space)", DEC_RFC_BYPASS, 1, false },
		{ "RFC: full path, admitted", DEC_RFC_ADMIT, 1, true },
		{ "RFC: full path, rate-limited", DEC_RFC_LIMIT, 1, true },
		{ "6.1: bypass (free space)", DEC_61_BYPASS, 1, false },
		{ "6.1: full path, admitted", DEC_61_ADMIT, 1, true },
		{ "6.1: full path, rate-limited", DEC_61_LIMIT, 1, true },
		{ "6.1, bypass knob off (generic)", DEC_61_NOBYPASS, 1, false },
		{ "2 threads: RFC full, admitted", DEC_RFC_ADMIT, 2, true },
		{ "2 threads: RFC full, rate-limited", DEC_RFC_LIMIT, 2, true },
		{ "2 threads: 6.1 full, admitted", DEC_61_ADMIT, 2, true },
		{ "2 threads: 6.1 full, rate-limited", DEC_61_LIMIT, 2, true },
	};
	/* the worst ratio: [preset][threads - 1]; the worst ns, 1 thread */
	double worst[2][2] = { { 1e9, 1e9 }, { 1e9, 1e9 } }, worst_ns = -1;
	const char *worst_name = "";
	struct dec_setup d;
	struct side tp, base;
	struct result r;
	bench_fn bfn;
	size_t k;
	int p, n;

	section("decide", "tp_decide() per preset, ms ticks, 4 KiB pages, hot young faults (20% writes), a per-CPU slot per thread; baselines: should_numa_migrate_memory() of the 2020 RFC and of 6.1, per-CPU vmstat and event counters");
	dec_alloc(&d);
	for (k = 0; k < ARRAY_SIZE(rows); k++) {
		if (!wanted(rows[k].name))
			continue;
		p = rows[k].dc.preset == TP_PRESET_RFC2020 ? 0 : 1;
		n = rows[k].threads;
		dec_init(&d, &rows[k].dc);
		bfn = p ? bl_decide_61_run : bl_decide_rfc_run;
		if (n == 2) {
			d.c[0].clock = d.c[1].clock = d.clock;
			tp = SIDE2(lib_decide, &d.c[0], &d.c[1]);
			base = SIDE2(bfn, &d.c[0], &d.c[1]);
		} else {
			tp = SIDE1(lib_decide, &d.c[0]);
			base = SIDE1(bfn, &d.c[0]);
		}
		r = compare(rows[k].name, &tp, &base,
			    p ? "6.1, per-CPU vmstat" : "RFC 1-8/8, per-CPU vmstat");
		dec_report(&d, n);
		if (!rows[k].full)
			continue;
		if (r.ratio.med < worst[p][n - 1])
			worst[p][n - 1] = r.ratio.med;
		if (n == 1 && r.tp.med > worst_ns) {
			worst_ns = r.tp.med;
			worst_name = rows[k].name;
		}
	}
	if (worst[1][0] < 1e9)
		target(worst[1][0] >= 1.0,
		       "tp_decide() full path, 1 thread, >= 1.0x Linux 6.1's code: worst %.2fx",
		       worst[1][0]);
	if (worst[0][0] < 1e9)
		target(worst[0][0] >= 1.0,
		       "tp_decide() full path, 1 thread, >= 1.0x the 2020 RFC's code: worst %.2fx",
		       worst[0][0]);
	if (worst[0][1] < 1e9 || worst[1][1] < 1e9) {
		double w = worst[0][1] < worst[1][1] ? worst[0][1] : worst[1][1];

		target(w >= 0.9,
		       "tp_decide(), 2 threads on one node, >= 0.9x the per-CPU counted kernel code: worst %.2fx",
		       w);
	}
	if (worst_ns >= 0)
		target(worst_ns <= 25.0,
		       "whole decision, full path <= 25 ns: worst %.2f ns (%s)",
		       worst_ns, worst_name);
}

void bench_fault(void)
{
	struct tp_atime_cfg acfg = { .sz = sizeof(acfg), .bits = 21, .shift = 20 };
	struct dec_setup d;
	struct ring_ctx rc;
	u32 *stamp, *bstamp;
	u64 *addr;
	u32 i;

	section("fault", "one hint fault: latency source + tp_decide(), full path, admitted");
	if (!wanted("RFC: ring lookup + decide") &&
	    !wanted("6.1: stamp xchg + decide"))
		return;
	ring_alloc(&rc);
	addr = (u64 *)rc.addr;
	ring_fill(&rc, 20, 2 * NS_PER_MS);	/* passes 2 ms apart: hot */
	for (i = 0; i < TBL; i++)
		addr[i] = ring_addr(20, (u32)(rnd() % 16));
	dec_alloc(&d);

	if (wanted("RFC: ring lookup + decide")) {
		dec_init(&d, &(struct dec_case)DEC_RFC_ADMIT);
		d.c[0].ring = rc.ring;
		d.c[0].mm = rc.mm;
		d.c[0].addr = rc.addr;
		d.c[0].lat_now = rc.now;
		compare("RFC: ring lookup + decide",
			&SIDE1(lib_fault_ring, &d.c[0]),
			&SIDE1(bl_fault_ring_run, &d.c[0]),
			"RFC lookup + RFC decision");
		dec_report(&d, 1);
	}
	if (wanted("6.1: stamp xchg + decide")) {
		dec_init(&d, &(struct dec_case)DEC_61_ADMIT);
		if (tp_atime_init(&d.c[0].fmt, &acfg))
			exit(2);
		d.c[0].blfmt.bucket = 1ULL << 20;	/* runtime: divides */
		d.c[0].blfmt.mask = (1U << 21) - 1;
		stamp = xalloc(TBL * sizeof(u32));
		bstamp = xalloc(TBL * sizeof(u32));
		for (i = 0; i < TBL; i++) {
			stamp[i] = tp_atime_encode(&d.c[0].fmt, rc.now);
			bstamp[i] = bl_atime_encode(&d.c[0].blfmt, rc.now);
		}
		d.c[0].stamp = stamp;
		d.c[0].bstamp = bstamp;
		d.c[0].lat_now = rc.now;
		compare("6.1: stamp xchg + decide",
			&SIDE1(lib_fault_atime, &d.c[0]),
			&SIDE1(bl_fault_atime_run, &d.c[0]),
			"6.1 stamp + 6.1 decision");
		dec_report(&d, 1);
	}
}
