// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Section "ring": the scan-history ring (record, advance, latency lookups)
 * against the 2020 RFC's walk (patch 6/8), and the ring set-up the "fault"
 * and "inline" sections share.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loops.h"

#define PASS_BYTES	(1ULL << 28)	/* 256 MB passes */
#define RING_BASE	(1ULL << 32)

/* ---- baseline runners (the shapes of loops.h) ------------------------- */

static inline void bl_op_record(struct ring_ctx *c, u64 start, u64 now)
{
	bl_ring_record(c->mm, start, now);
}

static inline u64 bl_op_advance(void *ctx, u64 k, u64 off)
{
	struct ring_ctx *c = ctx;

	(void)k;
	bl_ring_advance(c->mm, off);
	return 0;
}

static inline u64 bl_op_ring_lat(void *ctx, u64 k)
{
	struct ring_ctx *c = ctx;

	return (u64)bl_ring_latency(c->mm, c->addr[k], c->now);
}

static inline u64 bl_op_ring_lat_rt(void *ctx, u64 k)
{
	struct ring_ctx *c = ctx;

	return (u64)bl_ring_latency_rt(c->mm, c->addr[k], c->now);
}

static u64 bl_ring_record_run(void *ctx, u64 iters)
{
	return loop_record(ctx, iters, bl_op_record);
}

static u64 bl_ring_advance_run(void *ctx, u64 iters)
{
	struct ring_ctx *c = ctx;

	return loop_clocked(c, iters, &c->rec_start, 1ULL << 21, bl_op_advance);
}

static u64 bl_ring_lat_run(void *ctx, u64 iters)
{
	return loop_tbl(ctx, iters, bl_op_ring_lat);
}

static u64 bl_ring_lat_rt_run(void *ctx, u64 iters)
{
	return loop_tbl(ctx, iters, bl_op_ring_lat_rt);
}

/* ---- set-up ----------------------------------------------------------- */

void ring_alloc(struct ring_ctx *c)
{
	memset(c, 0, sizeof(*c));
	c->ring = xalloc(sizeof(*c->ring));
	c->pass = xalloc(RING_DEPTH * sizeof(*c->pass));
	c->mm = xalloc(sizeof(*c->mm));
	c->addr = xalloc(TBL * sizeof(*c->addr));
}

void ring_fill(struct ring_ctx *c, u32 nr, u64 gap)
{
	struct tp_scan_ring_cfg cfg = {
		.sz = sizeof(cfg), .depth = RING_DEPTH, .limit = 1ULL << 47,
	};
	u64 start = RING_BASE, t = T0;
	u32 k;

	if (tp_scan_ring_init(c->ring, &cfg, c->pass, RING_DEPTH)) {
		fprintf(stderr, "tp_scan_ring_init failed\n");
		exit(2);
	}
	memset(c->mm, 0, sizeof(*c->mm));
	c->mm->nr_hist = BL_NUMA_SCAN_NR_HIST;
	for (k = 0; k < nr; k++) {
		tp_scan_ring_record(c->ring, start, t);
		bl_ring_record(c->mm, start, t);
		start += PASS_BYTES;
		tp_scan_ring_advance(c->ring, start);
		bl_ring_advance(c->mm, start);
		t += gap;
	}
	c->now = t;
}

u64 ring_addr(u32 nr, u32 back)
{
	return RING_BASE + (u64)(nr - 1 - back) * PASS_BYTES +
	       (rnd() % (PASS_BYTES >> 12) << 12);
}

/* @addr: TBL addresses of a row (@back as in bench_ring()'s rows). */
static void ring_row_addr(u64 *addr, u32 nr, int back)
{
	u32 i;

	for (i = 0; i < TBL; i++) {
		if (back >= 0)
			addr[i] = ring_addr(nr, (u32)back);
		else if (back == -1)
			addr[i] = rnd() % RING_BASE;	/* below all */
		else if (rnd() % 17 == 16)
			addr[i] = rnd() % RING_BASE;
		else
			addr[i] = ring_addr(nr, (u32)(rnd() % 16));
	}
}

/* Do tierpol and the RFC give the same latencies for these addresses? */
static void ring_check(const struct ring_ctx *c, const char *what)
{
	u64 lat = 0;
	u32 i, bad = 0;

	for (i = 0; i < TBL; i++) {
		if (tp_scan_ring_latency(c->ring, c->addr[i], c->now, &lat) < 0 ||
		    lat != (u64)bl_ring_latency(c->mm, c->addr[i], c->now))
			bad++;
	}
	if (bad)
		check_failed("%u of %u %s latencies differ from the RFC's",
			     bad, TBL, what);
}

/* ---- the section ------------------------------------------------------- */

void bench_ring(void)
{
	static const struct {
		const char *name;
		int back;	/* -1 miss, -2 mixed */
	} rows[] = {
		{ "latency: newest pass", 0 },
		{ "latency: middle pass (8th)", 7 },
		{ "latency: oldest pass (16th)", 15 },
		{ "latency: miss (walks all 16)", -1 },
		{ "latency: mixed (random pass)", -2 },
	};
	const u32 nr = 20;	/* more passes than the ring holds: wrapped */
	struct ring_ctx c, rc, wt, wb;
	struct result r, worst = { .ran = false };
	double newest = -1, worst_base = -1;
	const char *worst_name = "", *worst_base_name = "";
	int worst_back = 0, worst_base_back = 0;
	char name[80];
	u64 *addr;
	size_t k;

	section("ring", "scan-history ring, depth 16, wrapped, 256 MB passes 100 ms apart; the 2020 RFC's walk (patch 6/8) as baseline");
	ring_alloc(&c);
	addr = (u64 *)c.addr;
	ring_fill(&c, nr, 100 * NS_PER_MS);

	rc = c;
	rc.rec_start = RING_BASE;
	rc.rec_now = T0;
	compare("record a pass", &SIDE1(lib_ring_record, &rc),
		&SIDE1(bl_ring_record_run, &rc),
		"RFC: 3 WRITE_ONCE + release of (idx+1)%16");
	compare("advance the scan offset", &SIDE1(lib_ring_advance, &rc),
		&SIDE1(bl_ring_advance_run, &rc), "RFC: WRITE_ONCE(offset)");
	/* Recording moved the rings; rebuild them for the lookups. */
	ring_fill(&c, nr, 100 * NS_PER_MS);

	for (k = 0; k < ARRAY_SIZE(rows); k++) {
		if (!wanted(rows[k].name))
			continue;
		ring_row_addr(addr, nr, rows[k].back);
		ring_check(&c, rows[k].name);
		r = compare(rows[k].name, &SIDE1(lib_ring_lat, &c),
			    &SIDE1(bl_ring_lat_run, &c),
			    "RFC: (i - 1 + 16) % 16 on an int");
		if (rows[k].back == 0)
			newest = r.tp.med;
		/*
		 * The worst case of each side over the fixed positions, by
		 * the fastest repeat: a neighbour only ever adds time, and a
		 * burst during one row must not make it the worst.
		 */
		if (rows[k].back != -2 &&
		    (!worst.ran || r.tp.min > worst.tp.min)) {
			worst = r;
			worst_name = rows[k].name;
			worst_back = rows[k].back;
		}
		if (rows[k].back != -2 && r.base.min > worst_base) {
			worst_base = r.base.min;
			worst_base_name = rows[k].name;
			worst_base_back = rows[k].back;
		}
		if (rows[k].back == 15) {
			compare("latency: oldest, vs runtime depth",
				&SIDE1(lib_ring_lat, &c),
				&SIDE1(bl_ring_lat_rt_run, &c),
				"the RFC's walk with % nr_hist (a division)");
		}
	}
	if (newest >= 0)
		target(newest <= 5.0, "ring lookup, newest pass <= 5 ns: %.2f ns",
		       newest);
	if (!worst.ran)
		return;
	target(worst.tp.med <= 12.0,
	       "ring lookup, worst case of a 16-deep ring <= 12 ns: %.2f ns (%s)",
	       worst.tp.med, worst_name);
	/*
	 * The two worst cases are different rows: the ratio of their medians
	 * would pair repeats minutes apart, which a neighbour's burst in
	 * either row moves by tens of percent. Time them side by side.
	 */
	wt = c;
	wb = c;
	wt.addr = xalloc(TBL * sizeof(u64));
	wb.addr = xalloc(TBL * sizeof(u64));
	ring_row_addr((u64 *)wt.addr, nr, worst_back);
	ring_row_addr((u64 *)wb.addr, nr, worst_base_back);
	snprintf(name, sizeof(name), "worst cases: %s vs %s",
		 strchr(worst_name, ' ') + 1,
		 strchr(worst_base_name, ' ') + 1);
	r = compare(name, &SIDE1(lib_ring_lat, &wt),
		    &SIDE1(bl_ring_lat_run, &wb),
		    "each side's slowest row above, side by side");
	if (r.ran)
		target(r.ratio.med >= 2.0,
		       "ring lookup, worst case >= 2x the 2020 RFC's walk: %.2fx (tierpol %.2f ns, %s; RFC %.2f ns, %s)",
		       r.ratio.med, r.tp.med, worst_name, r.base.med,
		       worst_base_name);
	free((void *)wt.addr);
	free((void *)wb.addr);
}
