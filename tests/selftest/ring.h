/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Self-test vectors: scan-history ring and hint-fault latency lookup
 * (the 2020 RFC, patch 6/8).
 *
 * Shared by tests/test_scan_ring.c and the kernel's self-test module: only
 * the public tierpol API and selftest.h, no libc, no 64-bit division, all
 * tables and ring buffers static.
 *
 * tp_st_ring() runs:
 *  - the init validation table (every rejected config leaves the ring
 *    byte-for-byte untouched), the array length and the size field;
 *  - scripted lookup scenarios (record / advance / reset / lookup) for the
 *    range rules, the no-progress newest pass, wrapped passes, the address
 *    space limit, TP_LAT_OLDEST, the empty ring and the time wrap;
 *  - the index walk at every wrap of the ring index, depth 1 to 1024 (the
 *    RFC's "(i - 1) % NUMA_SCAN_NR_HIST" reads slot -1 when i == 0).
 */
#ifndef TP_SELFTEST_RING_H
#define TP_SELFTEST_RING_H

#include "selftest.h"

#ifndef ENOENT
#define ENOENT		2
#endif
#ifndef EBUSY
#define EBUSY		16
#endif
#ifndef EINVAL
#define EINVAL		22
#endif

/* Written to *latency before a lookup: failed lookups must leave it. */
#define TP_ST_RING_LAT_POISON	0x5afec0debadc0de5ULL
#define TP_ST_RING_FILL		0xa5
#define TP_ST_U64_MAX		(~0ULL)
#define TP_ST_2_32		0x100000000ULL

static struct tp_scan_pass tp_st_ring_buf[TP_RING_DEPTH_MAX];
static struct tp_scan_ring tp_st_ring_r;

static void tp_st_ring_fill(void *p, size_t n, u8 pat)
{
	u8 *b = p;
	size_t i;

	for (i = 0; i < n; i++)
		b[i] = pat;
}

static bool tp_st_ring_is_filled(const void *p, size_t n, u8 pat)
{
	const u8 *b = p;
	size_t i;

	for (i = 0; i < n; i++)
		if (b[i] != pat)
			return false;
	return true;
}

/* ---- init validation --------------------------------------------------- */

struct tp_st_ring_init_row {
	const char *name;
	bool null_ring;
	bool null_cfg;
	bool null_pass;
	u32 depth;
	u64 limit;
	u32 nr_pass;		/* the array length told to init */
	int ret;
	u32 want_depth;		/* tp_scan_ring_depth() after success */
};

#define TP_ST_RING_MAX	TP_RING_DEPTH_MAX

static const struct tp_st_ring_init_row tp_st_ring_init_rows[] = {
	{ "ring init: NULL ring", true, false, false, 16, 0, TP_ST_RING_MAX,
	  -EINVAL, 0 },
	{ "ring init: NULL cfg", false, true, false, 16, 0, TP_ST_RING_MAX,
	  -EINVAL, 0 },
	{ "ring init: NULL pass", false, false, true, 16, 0, TP_ST_RING_MAX,
	  -EINVAL, 0 },
	{ "ring init: depth 0 selects 16", false, false, false, 0, 0,
	  TP_ST_RING_MAX, 0, 16 },
	{ "ring init: depth 1", false, false, false, 1, 0, TP_ST_RING_MAX, 0,
	  1 },
	{ "ring init: depth 2", false, false, false, 2, 4096, TP_ST_RING_MAX,
	  0, 2 },
	{ "ring init: depth 16", false, false, false, 16, 0, TP_ST_RING_MAX, 0,
	  16 },
	{ "ring init: depth 512", false, false, false, 512, 0, TP_ST_RING_MAX,
	  0, 512 },
	{ "ring init: depth 1024 (max)", false, false, false,
	  TP_RING_DEPTH_MAX, 0, TP_ST_RING_MAX, 0, TP_RING_DEPTH_MAX },
	{ "ring init: depth 3 rejected", false, false, false, 3, 0,
	  TP_ST_RING_MAX, -EINVAL, 0 },
	{ "ring init: depth 6 rejected", false, false, false, 6, 0,
	  TP_ST_RING_MAX, -EINVAL, 0 },
	{ "ring init: depth 17 rejected", false, false, false, 17, 0,
	  TP_ST_RING_MAX, -EINVAL, 0 },
	{ "ring init: depth 1023 rejected", false, false, false, 1023, 0,
	  TP_ST_RING_MAX, -EINVAL, 0 },
	{ "ring init: depth 1025 rejected", false, false, false, 1025, 0,
	  TP_ST_RING_MAX, -EINVAL, 0 },
	{ "ring init: depth 2048 rejected", false, false, false, 2048, 0,
	  TP_ST_RING_MAX, -EINVAL, 0 },
	{ "ring init: depth 2^31 rejected", false, false, false,
	  0x80000000U, 0, TP_ST_RING_MAX, -EINVAL, 0 },
	{ "ring init: depth 2^32-1 rejected", false, false, false,
	  0xffffffffU, 0, TP_ST_RING_MAX, -EINVAL, 0 },
	/* the array's length */
	{ "ring init: array as long as the depth", false, false, false, 16, 0,
	  16, 0, 16 },
	{ "ring init: array one short of the depth rejected", false, false,
	  false, 16, 0, 15, -EINVAL, 0 },
	{ "ring init: empty array rejected", false, false, false, 1, 0, 0,
	  -EINVAL, 0 },
	{ "ring init: depth 0 (16) in 15 passes rejected", false, false,
	  false, 0, 0, 15, -EINVAL, 0 },
	{ "ring init: depth 0 (16) in 16 passes", false, false, false, 0, 0,
	  16, 0, 16 },
	{ "ring init: a longer array uses depth entries", false, false, false,
	  4, 0, 0xffffffffU, 0, 4 },
	{ "ring init: depth 1024 in 1023 passes rejected", false, false,
	  false, TP_RING_DEPTH_MAX, 0, TP_RING_DEPTH_MAX - 1, -EINVAL, 0 },
	{ "ring init: depth 3 in a long array still rejected", false, false,
	  false, 3, 0, TP_ST_RING_MAX, -EINVAL, 0 },
};

static bool tp_st_ring_init_one(const struct tp_st_ring_init_row *row)
{
	struct tp_scan_ring_cfg cfg = { .sz = sizeof(cfg),
					.depth = row->depth,
					.limit = row->limit };
	struct tp_scan_ring *ring = &tp_st_ring_r;
	u64 lat = TP_ST_RING_LAT_POISON;
	int ret;

	tp_st_ring_fill(ring, sizeof(*ring), TP_ST_RING_FILL);
	ret = tp_scan_ring_init(row->null_ring ? NULL : ring,
				row->null_cfg ? NULL : &cfg,
				row->null_pass ? NULL : tp_st_ring_buf,
				row->nr_pass);
	if (ret != row->ret)
		return false;
	if (ret)
		return tp_st_ring_is_filled(ring, sizeof(*ring),
					    TP_ST_RING_FILL);
	/* Accepted: the configured depth, and an empty ring. */
	return tp_scan_ring_depth(ring) == row->want_depth &&
	       tp_scan_ring_latency(ring, 0, 1, &lat) == -ENOENT &&
	       lat == TP_ST_RING_LAT_POISON;
}

static int tp_st_ring_init_table(struct tp_st *st)
{
	unsigned int failed = st->failed;
	size_t i;

	for (i = 0; i < TP_ST_ARRAY_SIZE(tp_st_ring_init_rows); i++)
		TP_ST_CHECK(st, tp_st_ring_init_one(&tp_st_ring_init_rows[i]),
			    tp_st_ring_init_rows[i].name);
	return st->failed - failed;
}

/* ---- the size field (libbpf style) ----------------------------------- */

/* A configuration from a newer header: unknown bytes must be zero. */
static struct {
	struct tp_scan_ring_cfg cfg;
	u64 tail[2];
} tp_st_ring_big;

struct tp_st_ring_sz_row {
	const char *name;
	u32 sz;
	u64 tail;	/* the last unknown word */
	int ret;
};

static const struct tp_st_ring_sz_row tp_st_ring_sz_rows[] = {
	{ "ring sz: 0 rejected", 0, 0, -EINVAL },
	{ "ring sz: without limit rejected",
	  (u32)offsetof(struct tp_scan_ring_cfg, limit), 0, -EINVAL },
	{ "ring sz: one byte short rejected",
	  sizeof(struct tp_scan_ring_cfg) - 1, 0, -EINVAL },
	{ "ring sz: exact", sizeof(struct tp_scan_ring_cfg), 0, 0 },
	{ "ring sz: exact, bytes beyond it ignored",
	  sizeof(struct tp_scan_ring_cfg), 5, 0 },
	{ "ring sz: newer header, zero tail", sizeof(tp_st_ring_big), 0, 0 },
	{ "ring sz: newer header, non-zero tail rejected",
	  sizeof(tp_st_ring_big), 0x100, -EINVAL },
	{ "ring sz: above 4096 rejected", 4097, 0, -EINVAL },
};

static bool tp_st_ring_sz_one(const struct tp_st_ring_sz_row *row)
{
	struct tp_scan_ring *ring = &tp_st_ring_r;
	int ret;

	tp_st_ring_fill(&tp_st_ring_big, sizeof(tp_st_ring_big), 0);
	tp_st_ring_big.cfg.sz = row->sz;
	tp_st_ring_big.cfg.depth = 8;
	tp_st_ring_big.cfg.limit = 0x10000;
	tp_st_ring_big.tail[1] = row->tail;
	tp_st_ring_fill(ring, sizeof(*ring), TP_ST_RING_FILL);
	ret = tp_scan_ring_init(ring, &tp_st_ring_big.cfg, tp_st_ring_buf,
				TP_ST_RING_MAX);
	if (ret != row->ret)
		return false;
	if (ret)
		return tp_st_ring_is_filled(ring, sizeof(*ring),
					    TP_ST_RING_FILL);
	return tp_scan_ring_depth(ring) == 8;
}

static int tp_st_ring_sz_table(struct tp_st *st)
{
	unsigned int failed = st->failed;
	size_t i;

	for (i = 0; i < TP_ST_ARRAY_SIZE(tp_st_ring_sz_rows); i++)
		TP_ST_CHECK(st, tp_st_ring_sz_one(&tp_st_ring_sz_rows[i]),
			    tp_st_ring_sz_rows[i].name);
	return st->failed - failed;
}

/* ---- scripted lookup scenarios ----------------------------------------- */

enum {
	TP_ST_RING_END,
	TP_ST_RING_REC,		/* tp_scan_ring_record(a, t) */
	TP_ST_RING_ADV,		/* tp_scan_ring_advance(a) */
	TP_ST_RING_RESET,	/* tp_scan_ring_reset() */
	TP_ST_RING_LOOK,	/* tp_scan_ring_latency(a, t) == ret, lat */
};

struct tp_st_ring_op {
	u8 op;
	int ret;
	u64 a;
	u64 t;
	u64 lat;
	const char *name;
};

#define TP_ST_REC(s, now)	{ .op = TP_ST_RING_REC, .a = (s), .t = (now) }
#define TP_ST_ADV(off)		{ .op = TP_ST_RING_ADV, .a = (off) }
#define TP_ST_RESET		{ .op = TP_ST_RING_RESET }
#define TP_ST_LOOK(n, addr, now, r, l) \
	{ .op = TP_ST_RING_LOOK, .a = (addr), .t = (now), .ret = (r), \
	  .lat = (l), .name = (n) }
#define TP_ST_EXACT(n, addr, now, l) \
	TP_ST_LOOK(n, addr, now, TP_LAT_EXACT, l)
#define TP_ST_OLDEST(n, addr, now, l) \
	TP_ST_LOOK(n, addr, now, TP_LAT_OLDEST, l)
#define TP_ST_NONE(n, addr, now) \
	TP_ST_LOOK(n, addr, now, -ENOENT, 0)
#define TP_ST_END		{ .op = TP_ST_RING_END }

struct tp_st_ring_scn {
	u32 depth;
	u64 limit;
	const struct tp_st_ring_op *ops;
};

static const struct tp_st_ring_op tp_st_ring_ops_empty[] = {
	TP_ST_NONE("empty ring: -ENOENT, latency untouched", 0, 100),
	TP_ST_NONE("empty ring: -ENOENT at ~0", TP_ST_U64_MAX, 0),
	TP_ST_REC(0, 10),
	TP_ST_ADV(4096),
	TP_ST_EXACT("reset: before", 100, 20, 10),
	TP_ST_RESET,
	TP_ST_NONE("reset: -ENOENT after reset", 100, 20),
	TP_ST_REC(8192, 30),
	TP_ST_ADV(12288),
	TP_ST_EXACT("reset: new pass found", 8200, 35, 5),
	TP_ST_OLDEST("reset: pre-reset pass forgotten", 100, 35, 5),
	TP_ST_END
};

static const struct tp_st_ring_op tp_st_ring_ops_newest[] = {
	TP_ST_REC(0x1000, 100),
	TP_ST_ADV(0x3000),
	TP_ST_EXACT("newest [start, offset): start", 0x1000, 150, 50),
	TP_ST_EXACT("newest [start, offset): offset - 1", 0x2fff, 150, 50),
	TP_ST_OLDEST("newest [start, offset): offset excluded", 0x3000,
		     150, 50),
	TP_ST_OLDEST("newest [start, offset): below start", 0xfff, 150, 50),
	TP_ST_ADV(0x5000),
	TP_ST_EXACT("newest: advance extends the range", 0x4fff, 170, 70),
	TP_ST_END
};

static const struct tp_st_ring_op tp_st_ring_ops_older[] = {
	TP_ST_REC(0, 1000),
	TP_ST_ADV(0x10000),
	TP_ST_REC(0x10000, 2000),
	TP_ST_ADV(0x20000),
	TP_ST_REC(0x20000, 3000),
	TP_ST_ADV(0x28000),
	TP_ST_EXACT("older [start, next start): first pass, start", 0,
		    3500, 2500),
	TP_ST_EXACT("older [start, next start): first pass, end - 1",
		    0xffff, 3500, 2500),
	TP_ST_EXACT("older [start, next start): second pass, start",
		    0x10000, 3500, 1500),
	TP_ST_EXACT("older [start, next start): second pass, end - 1",
		    0x1ffff, 3500, 1500),
	TP_ST_EXACT("older: newest pass, start", 0x20000, 3500, 500),
	TP_ST_EXACT("older: newest pass, offset - 1", 0x27fff, 3500, 500),
	TP_ST_OLDEST("older: beyond the newest offset", 0x28000, 3500, 2500),
	TP_ST_END
};

/*
 * A newest pass without progress (start == offset) covers nothing. No PTE of
 * it is marked yet, so no hint fault can come from it; an address there was
 * marked by an older pass (the previous sweep), and that pass's latency is
 * the true one. The RFC instead stretched the range to start + 10 GiB
 * (MAX_SCAN_WINDOW * 4 MiB), so faults from the previous sweep got the
 * near-zero latency of the pass that just began and all looked hot.
 */
static const struct tp_st_ring_op tp_st_ring_ops_noprogress[] = {
	TP_ST_REC(0, 1000),
	TP_ST_ADV(0x10000),
	TP_ST_REC(0x10000, 2000),
	TP_ST_OLDEST("no progress: newest start not covered (RFC: 100)",
		     0x10000, 2100, 1100),
	TP_ST_OLDEST("no progress: start + 5 GiB not covered (RFC: 100)",
		     0x10000 + 0x140000000ULL, 2100, 1100),
	TP_ST_EXACT("no progress: older pass still answers", 0x8000, 2100,
		    1100),
	TP_ST_ADV(0x11000),
	TP_ST_EXACT("no progress: covered once advanced", 0x10000, 2100, 100),
	TP_ST_OLDEST("no progress: advanced range ends at offset", 0x11000,
		     2100, 1100),
	TP_ST_END
};

static const struct tp_st_ring_op tp_st_ring_ops_noprogress_wrap[] = {
	TP_ST_REC(0xf000, 1000),
	TP_ST_ADV(0x10000),
	/* reset_ptenuma_scan(): a new sweep begins at 0, nothing marked. */
	TP_ST_REC(0, 2000),
	TP_ST_OLDEST("no progress at 0: previous sweep's page (RFC: 100)",
		     0x100, 2100, 1100),
	TP_ST_EXACT("no progress at 0: wrapped older pass covers to limit",
		    0xf800, 2100, 1100),
	TP_ST_END
};

static const struct tp_st_ring_op tp_st_ring_ops_single_noprog[] = {
	TP_ST_REC(0x5000, 10),
	TP_ST_OLDEST("no progress, only pass: TP_LAT_OLDEST", 0x5000, 20, 10),
	TP_ST_END
};

static const struct tp_st_ring_op tp_st_ring_ops_wrap_newest[] = {
	TP_ST_REC(0, 100),
	TP_ST_ADV(0x80000),
	TP_ST_REC(0x80000, 200),
	TP_ST_ADV(0xf0000),
	/* The scanner reached the limit and restarted: offset < start. */
	TP_ST_ADV(0x10),
	TP_ST_EXACT("wrapped newest: covers [start, limit)", 0xfffff, 250, 50),
	TP_ST_EXACT("wrapped newest: beyond old offset", 0xf8000, 250, 50),
	TP_ST_OLDEST("wrapped newest: limit excluded", 0x100000, 250, 150),
	TP_ST_EXACT("wrapped newest: [0, offset) is not the newest's", 0x8,
		    250, 150),
	TP_ST_END
};

static const struct tp_st_ring_op tp_st_ring_ops_wrap_older[] = {
	TP_ST_REC(0x80000, 100),
	TP_ST_ADV(0x100000),
	TP_ST_REC(0, 200),
	TP_ST_ADV(0x40000),
	TP_ST_EXACT("wrapped older: covers [start, limit)", 0x90000, 300,
		    200),
	TP_ST_EXACT("wrapped older: limit - 1", 0xfffff, 300, 200),
	TP_ST_OLDEST("wrapped older: limit excluded", 0x100000, 300, 200),
	TP_ST_EXACT("wrapped older: newest [0, offset)", 0x3ffff, 300, 100),
	TP_ST_OLDEST("wrapped older: gap between offset and older start",
		     0x40000, 300, 200),
	TP_ST_OLDEST("wrapped older: just below older start", 0x7ffff, 300,
		     200),
	TP_ST_END
};

/* Depth 4, six passes of one sweep: passes 0 and 1 are forgotten. */
static const struct tp_st_ring_op tp_st_ring_ops_oldest[] = {
	TP_ST_REC(0x0000, 10), TP_ST_ADV(0x1000),
	TP_ST_REC(0x1000, 110), TP_ST_ADV(0x2000),
	TP_ST_REC(0x2000, 210), TP_ST_ADV(0x3000),
	TP_ST_REC(0x3000, 310), TP_ST_ADV(0x4000),
	TP_ST_REC(0x4000, 410), TP_ST_ADV(0x5000),
	TP_ST_REC(0x5000, 510), TP_ST_ADV(0x6000),
	TP_ST_OLDEST("not covered: forgotten pass -> oldest latency", 0,
		     1000, 790),
	TP_ST_OLDEST("not covered: below the oldest start", 0x1fff, 1000,
		     790),
	TP_ST_EXACT("not covered: oldest retained pass", 0x2000, 1000, 790),
	TP_ST_EXACT("not covered: newest pass", 0x5fff, 1000, 490),
	TP_ST_OLDEST("not covered: beyond the offset", 0x6000, 1000, 790),
	TP_ST_OLDEST("not covered: far beyond", TP_ST_U64_MAX - 1, 1000, 790),
	TP_ST_END
};

static const struct tp_st_ring_op tp_st_ring_ops_depth1[] = {
	TP_ST_REC(0, 10),
	TP_ST_ADV(4096),
	TP_ST_EXACT("depth 1: one pass", 100, 30, 20),
	TP_ST_REC(4096, 25),
	TP_ST_ADV(8192),
	TP_ST_EXACT("depth 1: the newest replaces it", 5000, 30, 5),
	TP_ST_OLDEST("depth 1: the old range is forgotten", 100, 30, 5),
	TP_ST_END
};

static const struct tp_st_ring_op tp_st_ring_ops_time[] = {
	TP_ST_REC(0, TP_ST_2_32 - 5),
	TP_ST_ADV(4096),
	TP_ST_EXACT("time: 2^32 - 5 to 2^32 + 5", 0, TP_ST_2_32 + 5, 10),
	TP_ST_REC(4096, TP_ST_2_32 + 3),
	TP_ST_ADV(8192),
	TP_ST_EXACT("time: older pass across 2^32", 100, TP_ST_2_32 + 5, 10),
	TP_ST_EXACT("time: newer pass after 2^32", 5000, TP_ST_2_32 + 5, 2),
	TP_ST_RESET,
	TP_ST_REC(0, TP_ST_U64_MAX - 4),
	TP_ST_ADV(4096),
	TP_ST_EXACT("time: 2^64 - 5 to 2^64 + 4", 0, 4, 9),
	TP_ST_EXACT("time: 2^64 - 5 to 2^64 - 1", 0, TP_ST_U64_MAX, 4),
	TP_ST_EXACT("time: now before the pass (2^64 wrap) -> 0", 0,
		    TP_ST_U64_MAX - 10, 0),
	TP_ST_RESET,
	TP_ST_REC(0, 1000),
	TP_ST_ADV(4096),
	TP_ST_EXACT("time: now == pass time -> 0", 0, 1000, 0),
	TP_ST_EXACT("time: now before the pass -> 0", 0, 999, 0),
	TP_ST_EXACT("time: now far before the pass -> 0", 0, 0, 0),
	TP_ST_OLDEST("time: now before, not covered -> 0", 8192, 500, 0),
	TP_ST_END
};

static const struct tp_st_ring_op tp_st_ring_ops_limit_default[] = {
	TP_ST_REC(TP_ST_U64_MAX - 0x1fff, 10),
	TP_ST_ADV(0),
	TP_ST_EXACT("limit 0 = 2^64 - 1: wrapped pass covers 2^64 - 2",
		    TP_ST_U64_MAX - 1, 20, 10),
	TP_ST_OLDEST("limit 0 = 2^64 - 1: 2^64 - 1 excluded",
		     TP_ST_U64_MAX, 20, 10),
	TP_ST_END
};

static const struct tp_st_ring_op tp_st_ring_ops_limit_1m[] = {
	TP_ST_REC(0xf0000, 10),
	TP_ST_ADV(5),
	TP_ST_EXACT("limit 1 MiB: wrapped pass covers limit - 1", 0xfffff, 20,
		    10),
	TP_ST_OLDEST("limit 1 MiB: limit excluded", 0x100000, 20, 10),
	TP_ST_END
};

static const struct tp_st_ring_scn tp_st_ring_scns[] = {
	{ 16, 0, tp_st_ring_ops_empty },
	{ 0, 0, tp_st_ring_ops_newest },
	{ 16, 0, tp_st_ring_ops_older },
	{ 16, 0, tp_st_ring_ops_noprogress },
	{ 16, 0x10000, tp_st_ring_ops_noprogress_wrap },
	{ 2, 0, tp_st_ring_ops_single_noprog },
	{ 16, 0x100000, tp_st_ring_ops_wrap_newest },
	{ 16, 0x100000, tp_st_ring_ops_wrap_older },
	{ 4, 0, tp_st_ring_ops_oldest },
	{ 1, 0, tp_st_ring_ops_depth1 },
	{ 16, 0, tp_st_ring_ops_time },
	{ 16, 0, tp_st_ring_ops_limit_default },
	{ 8, 0x100000, tp_st_ring_ops_limit_1m },
};

static int tp_st_ring_run_scn(struct tp_st *st,
			      const struct tp_st_ring_scn *scn)
{
	struct tp_scan_ring_cfg cfg = { .sz = sizeof(cfg),
					.depth = scn->depth,
					.limit = scn->limit };
	struct tp_scan_ring *ring = &tp_st_ring_r;
	unsigned int failed = st->failed;
	const struct tp_st_ring_op *op;
	u64 lat;
	int ret;

	if (!TP_ST_CHECK(st, !tp_scan_ring_init(ring, &cfg, tp_st_ring_buf,
						 TP_ST_RING_MAX),
			 "ring scenario: init"))
		return st->failed - failed;
	for (op = scn->ops; op->op != TP_ST_RING_END; op++) {
		switch (op->op) {
		case TP_ST_RING_REC:
			tp_scan_ring_record(ring, op->a, op->t);
			break;
		case TP_ST_RING_ADV:
			tp_scan_ring_advance(ring, op->a);
			break;
		case TP_ST_RING_RESET:
			tp_scan_ring_reset(ring);
			break;
		case TP_ST_RING_LOOK:
			lat = TP_ST_RING_LAT_POISON;
			ret = tp_scan_ring_latency(ring, op->a, op->t, &lat);
			TP_ST_CHECK(st, ret == op->ret &&
				    lat == (ret < 0 ? TP_ST_RING_LAT_POISON :
					    op->lat), op->name);
			break;
		}
	}
	return st->failed - failed;
}

static int tp_st_ring_scenarios(struct tp_st *st)
{
	unsigned int failed = st->failed;
	size_t i;

	for (i = 0; i < TP_ST_ARRAY_SIZE(tp_st_ring_scns); i++)
		tp_st_ring_run_scn(st, &tp_st_ring_scns[i]);
	return st->failed - failed;
}

/* ---- index walk at every wrap ------------------------------------------ */

/*
 * Pass k starts at k * 4096 at time k * 1000 + 7 and is advanced to the
 * next pass's start. After n passes on a ring of depth d, passes
 * max(0, n - d) .. n - 1 must answer exactly, and the ones before them give
 * TP_LAT_OLDEST with the oldest retained pass's latency. Every n from 1 to
 * 3d + 1 puts the newest pass in every slot, slot 0 included, and walks
 * backwards across index 0 each time.
 */
struct tp_st_ring_idx_row {
	const char *name;
	u32 depth;
	u32 n_lo;
	u32 n_hi;
};

static const struct tp_st_ring_idx_row tp_st_ring_idx_rows[] = {
	{ "index walk: depth 1, 1..4 passes", 1, 1, 4 },
	{ "index walk: depth 2, 1..7 passes", 2, 1, 7 },
	{ "index walk: depth 4, 1..13 passes", 4, 1, 13 },
	{ "index walk: depth 16, 1..49 passes", 16, 1, 49 },
	{ "index walk: depth 1024, 1023..1025 passes", 1024, 1023, 1025 },
	{ "index walk: depth 1024, 2047..2049 passes", 1024, 2047, 2049 },
};

#define TP_ST_RING_IDX_NOW	0x40000000ULL

static u64 tp_st_ring_idx_lat(u32 k)
{
	return TP_ST_RING_IDX_NOW - ((u64)k * 1000 + 7);
}

static bool tp_st_ring_idx_one(u32 depth, u32 n)
{
	struct tp_scan_ring_cfg cfg = { .sz = sizeof(cfg), .depth = depth };
	struct tp_scan_ring *ring = &tp_st_ring_r;
	u32 k, oldest = n > depth ? n - depth : 0;
	u64 lat;
	int ret;

	if (tp_scan_ring_init(ring, &cfg, tp_st_ring_buf, TP_ST_RING_MAX))
		return false;
	for (k = 0; k < n; k++) {
		tp_scan_ring_record(ring, (u64)k * 4096, (u64)k * 1000 + 7);
		tp_scan_ring_advance(ring, (u64)(k + 1) * 4096);
	}
	for (k = 0; k < n; k++) {
		lat = TP_ST_RING_LAT_POISON;
		ret = tp_scan_ring_latency(ring, (u64)k * 4096 + 100,
					   TP_ST_RING_IDX_NOW, &lat);
		if (k >= oldest) {
			if (ret != TP_LAT_EXACT || lat != tp_st_ring_idx_lat(k))
				return false;
		} else if (ret != TP_LAT_OLDEST ||
			   lat != tp_st_ring_idx_lat(oldest)) {
			return false;
		}
	}
	/* Beyond the newest offset: not covered, the oldest's latency. */
	lat = TP_ST_RING_LAT_POISON;
	ret = tp_scan_ring_latency(ring, (u64)n * 4096, TP_ST_RING_IDX_NOW,
				   &lat);
	return ret == TP_LAT_OLDEST && lat == tp_st_ring_idx_lat(oldest);
}

static int tp_st_ring_index_walk(struct tp_st *st)
{
	unsigned int failed = st->failed;
	const struct tp_st_ring_idx_row *row;
	size_t i;
	bool ok;
	u32 n;

	for (i = 0; i < TP_ST_ARRAY_SIZE(tp_st_ring_idx_rows); i++) {
		row = &tp_st_ring_idx_rows[i];
		ok = true;
		for (n = row->n_lo; n <= row->n_hi && ok; n++)
			ok = tp_st_ring_idx_one(row->depth, n);
		TP_ST_CHECK(st, ok, row->name);
	}
	return st->failed - failed;
}

static int tp_st_ring(struct tp_st *st)
{
	unsigned int failed = st->failed;

	tp_st_ring_init_table(st);
	tp_st_ring_sz_table(st);
	tp_st_ring_scenarios(st);
	tp_st_ring_index_walk(st);
	return st->failed - failed;
}

#undef TP_ST_REC
#undef TP_ST_ADV
#undef TP_ST_RESET
#undef TP_ST_LOOK
#undef TP_ST_EXACT
#undef TP_ST_OLDEST
#undef TP_ST_NONE
#undef TP_ST_END

#endif /* TP_SELFTEST_RING_H */
