/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Self-test vectors: per-page access-time stamps (Linux 6.1 and later,
 * folio_xchg_access_time() and numa_hint_fault_latency()).
 *
 * Shared by tests/test_atime.c and the kernel's self-test module: only the
 * public tierpol API and selftest.h, no libc, no 64-bit division.
 *
 * Every expected value below was worked out by hand from the kernel's
 * formulas, not computed with the library's:
 *	stamp   = (now >> shift) & mask
 *	latency = (now - (stamp << shift)) & (mask << shift)
 * Stamps older than the span (2^(bits + shift) ticks) alias to a smaller
 * latency, and a "now" before the stamp wraps to a large one: both are the
 * kernel's behaviour, kept and tested as such.
 */
#ifndef TP_SELFTEST_ATIME_H
#define TP_SELFTEST_ATIME_H

#include "selftest.h"

#ifndef EINVAL
#define EINVAL		22
#endif

#define TP_ST_ATIME_FILL	0x5a
#define TP_ST_ATIME_2_20	0x100000ULL
#define TP_ST_ATIME_2_21	0x200000ULL
#define TP_ST_ATIME_2_32	0x100000000ULL
#define TP_ST_ATIME_U64_MAX	(~0ULL)

static void tp_st_atime_fill(void *p, size_t n, u8 pat)
{
	u8 *b = p;
	size_t i;

	for (i = 0; i < n; i++)
		b[i] = pat;
}

static bool tp_st_atime_is_filled(const void *p, size_t n, u8 pat)
{
	const u8 *b = p;
	size_t i;

	for (i = 0; i < n; i++)
		if (b[i] != pat)
			return false;
	return true;
}

/* ---- init validation and span ------------------------------------------ */

struct tp_st_atime_init_row {
	const char *name;
	bool null_fmt;
	bool null_cfg;
	u32 bits;
	u32 shift;
	int ret;
	u32 mask;	/* on success */
	u64 span;	/* on success */
};

static const struct tp_st_atime_init_row tp_st_atime_init_rows[] = {
	{ "atime init: NULL fmt", true, false, 21, 0, -EINVAL, 0, 0 },
	{ "atime init: NULL cfg", false, true, 21, 0, -EINVAL, 0, 0 },
	{ "atime init: bits 0 selects 21", false, false, 0, 0, 0,
	  0x1fffff, TP_ST_ATIME_2_21 },
	{ "atime init: bits 0, shift 43 (64 bits)", false, false, 0, 43, 0,
	  0x1fffff, TP_ST_ATIME_U64_MAX },
	{ "atime init: bits 0, shift 44 rejected (65 bits)", false, false,
	  0, 44, -EINVAL, 0, 0 },
	{ "atime init: bits 1", false, false, 1, 0, 0, 1, 2 },
	{ "atime init: bits 1, shift 10", false, false, 1, 10, 0, 1, 2048 },
	{ "atime init: bits 1, shift 63 (span saturates)", false, false,
	  1, 63, 0, 1, TP_ST_ATIME_U64_MAX },
	{ "atime init: bits 1, shift 64 rejected", false, false, 1, 64,
	  -EINVAL, 0, 0 },
	{ "atime init: bits 8, shift 4 (12 min bits)", false, false, 8, 4, 0,
	  0xff, 4096 },
	{ "atime init: bits 21, shift 0 (Linux 6.1 ms)", false, false, 21, 0,
	  0, 0x1fffff, TP_ST_ATIME_2_21 },
	{ "atime init: bits 21, shift 20 (ns buckets)", false, false, 21, 20,
	  0, 0x1fffff, 0x20000000000ULL },
	{ "atime init: bits 32", false, false, 32, 0, 0, 0xffffffffU,
	  TP_ST_ATIME_2_32 },
	{ "atime init: bits 32, shift 31", false, false, 32, 31, 0,
	  0xffffffffU, 0x8000000000000000ULL },
	{ "atime init: bits 32, shift 32 (span saturates)", false, false,
	  32, 32, 0, 0xffffffffU, TP_ST_ATIME_U64_MAX },
	{ "atime init: bits 32, shift 33 rejected", false, false, 32, 33,
	  -EINVAL, 0, 0 },
	{ "atime init: bits 33 rejected", false, false, 33, 0, -EINVAL, 0, 0 },
	{ "atime init: bits 64 rejected", false, false, 64, 0, -EINVAL, 0, 0 },
	{ "atime init: bits 2^32-1 rejected", false, false, 0xffffffffU, 0,
	  -EINVAL, 0, 0 },
	{ "atime init: shift 2^32-1 rejected", false, false, 1, 0xffffffffU,
	  -EINVAL, 0, 0 },
	{ "atime init: bits 0, shift 64 rejected", false, false, 0, 64,
	  -EINVAL, 0, 0 },
};

static bool tp_st_atime_init_one(const struct tp_st_atime_init_row *row)
{
	struct tp_atime_cfg cfg = {
		.sz = sizeof(cfg), .bits = row->bits, .shift = row->shift,
	};
	struct tp_atime fmt;
	int ret;

	tp_st_atime_fill(&fmt, sizeof(fmt), TP_ST_ATIME_FILL);
	ret = tp_atime_init(row->null_fmt ? NULL : &fmt,
			    row->null_cfg ? NULL : &cfg);
	if (ret != row->ret)
		return false;
	if (ret)
		return tp_st_atime_is_filled(&fmt, sizeof(fmt),
					     TP_ST_ATIME_FILL);
	return fmt.mask == row->mask && fmt.shift == row->shift &&
	       tp_atime_span(&fmt) == row->span;
}

static int tp_st_atime_init_table(struct tp_st *st)
{
	unsigned int failed = st->failed;
	size_t i;

	for (i = 0; i < TP_ST_ARRAY_SIZE(tp_st_atime_init_rows); i++)
		TP_ST_CHECK(st,
			    tp_st_atime_init_one(&tp_st_atime_init_rows[i]),
			    tp_st_atime_init_rows[i].name);
	return st->failed - failed;
}

/* ---- the size field (libbpf style) --------------------------------------- */

/*
 * A configuration from a newer header: the known fields, then bytes this
 * library does not know. They must be zero, or the call is refused.
 */
static struct {
	struct tp_atime_cfg cfg;
	u32 tail[3];
} tp_st_atime_big;

/* The largest configuration docs/ABI.md accepts: sz 4096, zero-padded. */
static struct {
	struct tp_atime_cfg cfg;
	u8 tail[4096 - sizeof(struct tp_atime_cfg)];
} tp_st_atime_max;

struct tp_st_atime_sz_row {
	const char *name;
	u32 sz;
	u32 tail;	/* value of the last unknown word */
	int ret;
};

static const struct tp_st_atime_sz_row tp_st_atime_sz_rows[] = {
	{ "atime sz: 0 rejected", 0, 0, -EINVAL },
	{ "atime sz: one field short rejected",
	  sizeof(struct tp_atime_cfg) - 4, 0, -EINVAL },
	{ "atime sz: one byte short rejected",
	  sizeof(struct tp_atime_cfg) - 1, 0, -EINVAL },
	{ "atime sz: exact", sizeof(struct tp_atime_cfg), 0, 0 },
	{ "atime sz: exact, bytes beyond it ignored",
	  sizeof(struct tp_atime_cfg), 7, 0 },
	{ "atime sz: newer header, zero tail", sizeof(tp_st_atime_big), 0, 0 },
	{ "atime sz: newer header, non-zero tail rejected",
	  sizeof(tp_st_atime_big), 1, -EINVAL },
	{ "atime sz: one unknown byte, zero", sizeof(struct tp_atime_cfg) + 1,
	  0, 0 },
	{ "atime sz: above 4096 rejected", 4097, 0, -EINVAL },
	{ "atime sz: ~0 rejected", 0xffffffffU, 0, -EINVAL },
};

static bool tp_st_atime_sz_one(const struct tp_st_atime_sz_row *row)
{
	struct tp_atime fmt;
	int ret;

	tp_st_atime_fill(&tp_st_atime_big, sizeof(tp_st_atime_big), 0);
	tp_st_atime_big.cfg.sz = row->sz;
	tp_st_atime_big.cfg.bits = 12;
	tp_st_atime_big.cfg.shift = 3;
	tp_st_atime_big.tail[2] = row->tail;
	tp_st_atime_fill(&fmt, sizeof(fmt), TP_ST_ATIME_FILL);
	ret = tp_atime_init(&fmt, &tp_st_atime_big.cfg);
	if (ret != row->ret)
		return false;
	if (ret)
		return tp_st_atime_is_filled(&fmt, sizeof(fmt),
					     TP_ST_ATIME_FILL);
	return fmt.mask == 0xfff && fmt.shift == 3;
}

/* tp_atime_init() with sz 4096 + @over; @last is the byte at 4095. */
static int tp_st_atime_max_one(u32 over, u8 last)
{
	struct tp_atime fmt;
	int ret;

	if (sizeof(tp_st_atime_max) != 4096)
		return -1;
	tp_st_atime_fill(&tp_st_atime_max, sizeof(tp_st_atime_max), 0);
	tp_st_atime_max.cfg.sz = 4096 + over;
	tp_st_atime_max.cfg.bits = 12;
	tp_st_atime_max.cfg.shift = 3;
	tp_st_atime_max.tail[sizeof(tp_st_atime_max.tail) - 1] = last;
	ret = tp_atime_init(&fmt, &tp_st_atime_max.cfg);
	if (!ret && (fmt.mask != 0xfff || fmt.shift != 3))
		return -1;
	return ret;
}

static int tp_st_atime_sz_table(struct tp_st *st)
{
	unsigned int failed = st->failed;
	size_t i;

	for (i = 0; i < TP_ST_ARRAY_SIZE(tp_st_atime_sz_rows); i++)
		TP_ST_CHECK(st, tp_st_atime_sz_one(&tp_st_atime_sz_rows[i]),
			    tp_st_atime_sz_rows[i].name);
	TP_ST_CHECK(st, tp_st_atime_max_one(0, 0) == 0,
		    "atime sz: 4096, zero tail");
	TP_ST_CHECK(st, tp_st_atime_max_one(0, 1) == -EINVAL,
		    "atime sz: 4096, last byte non-zero rejected");
	TP_ST_CHECK(st, tp_st_atime_max_one(1, 0) == -EINVAL,
		    "atime sz: 4097 rejected, 4096 zero bytes past the struct");
	return st->failed - failed;
}

/* ---- worked examples ---------------------------------------------------- */

struct tp_st_atime_row {
	const char *name;
	u32 bits;
	u32 shift;
	u64 then;	/* stamp time */
	u64 now;	/* fault time */
	u32 stamp;	/* encode(then) */
	u64 lat;	/* latency(stamp, now) */
};

static const struct tp_st_atime_row tp_st_atime_rows[] = {
	/* Linux 6.1: 21-bit millisecond stamps. */
	{ "atime 21b ms: 500 ms", 21, 0, 1000, 1500, 1000, 500 },
	{ "atime 21b ms: stamp wraps at 2^21", 21, 0,
	  TP_ST_ATIME_2_21 - 100, TP_ST_ATIME_2_21 + 50, 0x1fff9c, 150 },
	{ "atime 21b ms: clock wraps at 2^32", 21, 0,
	  TP_ST_ATIME_2_32 - 5, TP_ST_ATIME_2_32 + 5, 0x1ffffb, 10 },
	{ "atime 21b ms: clock wraps at 2^64", 21, 0,
	  TP_ST_ATIME_U64_MAX - 4, 4, 0x1ffffb, 9 },
	{ "atime 21b ms: span - 1 is the largest latency", 21, 0, 0,
	  TP_ST_ATIME_2_21 - 1, 0, 0x1fffff },
	{ "atime 21b ms: alias: exactly one span reads 0", 21, 0, 0,
	  TP_ST_ATIME_2_21, 0, 0 },
	{ "atime 21b ms: alias: span + 7 reads 7", 21, 0, 1000,
	  1000 + TP_ST_ATIME_2_21 + 7, 1000, 7 },
	{ "atime 21b ms: now 10 before the stamp reads span - 10", 21, 0,
	  1000, 990, 1000, 0x1ffff6 },
	/* Nanosecond clock, 2^20 ns (about 1 ms) buckets. */
	{ "atime ns shift 20: 3 buckets", 21, 20,
	  5 * TP_ST_ATIME_2_20 + 123, 8 * TP_ST_ATIME_2_20 + 999, 5,
	  3 * TP_ST_ATIME_2_20 },
	{ "atime ns shift 20: same bucket reads 0", 21, 20,
	  5 * TP_ST_ATIME_2_20 + 1, 6 * TP_ST_ATIME_2_20 - 1, 5, 0 },
	{ "atime ns shift 20: 1 ns across a bucket reads 1 bucket", 21, 20,
	  6 * TP_ST_ATIME_2_20 - 1, 6 * TP_ST_ATIME_2_20, 5,
	  TP_ST_ATIME_2_20 },
	{ "atime ns shift 20: alias at 2^41", 21, 20, 5 * TP_ST_ATIME_2_20,
	  5 * TP_ST_ATIME_2_20 + 0x20000000000ULL + 3 * TP_ST_ATIME_2_20, 5,
	  3 * TP_ST_ATIME_2_20 },
	{ "atime ns shift 20: high time bits dropped", 21, 20,
	  0x4000000700000ULL, 0x4000000900000ULL, 7, 2 * TP_ST_ATIME_2_20 },
	/* Full 32-bit stamps. */
	{ "atime 32b: 20 ticks above 2^32", 32, 0, TP_ST_ATIME_2_32 + 10,
	  TP_ST_ATIME_2_32 + 30, 10, 20 },
	{ "atime 32b: across 2^32", 32, 0, TP_ST_ATIME_2_32 - 5,
	  TP_ST_ATIME_2_32 + 5, 0xfffffffbU, 10 },
	{ "atime 32b: alias at 2^32", 32, 0, 3, TP_ST_ATIME_2_32 + 4, 3, 1 },
	{ "atime 32b shift 32: upper half", 32, 32, 0x123456789abcdef0ULL,
	  0x1234567a9abcdef0ULL, 0x12345678, 0x200000000ULL },
	/* One-bit stamps. */
	{ "atime 1b: 1 tick", 1, 0, 3, 4, 1, 1 },
	{ "atime 1b: alias: 2 ticks read 0", 1, 0, 3, 5, 1, 0 },
	{ "atime 1b shift 10: one bucket", 1, 10, 3072, 4101, 1, 1024 },
	/* Linux 6.1 with LAST_CPUPID_SHIFT 8: 4 bucket bits (12 min bits). */
	{ "atime 8b shift 4: 300 ms in 16 ms buckets", 8, 4, 1000, 1300, 62,
	  304 },
};

static bool tp_st_atime_one(const struct tp_st_atime_row *row)
{
	struct tp_atime_cfg cfg = {
		.sz = sizeof(cfg), .bits = row->bits, .shift = row->shift,
	};
	struct tp_atime fmt;
	u32 word = 0xdeadbeefU;

	if (tp_atime_init(&fmt, &cfg))
		return false;
	if (tp_atime_encode(&fmt, row->then) != row->stamp ||
	    tp_atime_latency(&fmt, row->stamp, row->now) != row->lat)
		return false;
	/* xchg stores the stamp and returns the previous word... */
	if (tp_atime_xchg(&fmt, &word, row->then) != 0xdeadbeefU ||
	    word != row->stamp)
		return false;
	/* ...and fault() is xchg plus latency. */
	if (tp_atime_fault(&fmt, &word, row->now) != row->lat)
		return false;
	return word == tp_atime_encode(&fmt, row->now);
}

static int tp_st_atime_examples(struct tp_st *st)
{
	unsigned int failed = st->failed;
	size_t i;

	for (i = 0; i < TP_ST_ARRAY_SIZE(tp_st_atime_rows); i++)
		TP_ST_CHECK(st, tp_st_atime_one(&tp_st_atime_rows[i]),
			    tp_st_atime_rows[i].name);
	return st->failed - failed;
}

/* ---- exchange sequence -------------------------------------------------- */

static int tp_st_atime_xchg_seq(struct tp_st *st)
{
	static const struct tp_atime_cfg cfg = {
		.sz = sizeof(cfg), .bits = 21, .shift = 0,
	};
	unsigned int failed = st->failed;
	struct tp_atime fmt;
	u32 word = 0;

	if (!TP_ST_CHECK(st, !tp_atime_init(&fmt, &cfg), "atime xchg: init"))
		return st->failed - failed;
	TP_ST_CHECK(st, tp_atime_xchg(&fmt, &word, 1000) == 0 && word == 1000,
		    "atime xchg: returns the initial word");
	TP_ST_CHECK(st, tp_atime_xchg(&fmt, &word, 1500) == 1000 &&
		    word == 1500, "atime xchg: returns the previous stamp");
	TP_ST_CHECK(st, tp_atime_xchg(&fmt, &word, TP_ST_ATIME_2_21 + 3) ==
		    1500 && word == 3, "atime xchg: stores the masked stamp");
	TP_ST_CHECK(st, tp_atime_fault(&fmt, &word, TP_ST_ATIME_2_21 + 10) ==
		    7 && word == 10, "atime fault: latency, then re-stamped");
	TP_ST_CHECK(st, tp_atime_fault(&fmt, &word, TP_ST_ATIME_2_21 + 10) ==
		    0 && word == 10, "atime fault: a second fault reads 0");
	/* A word with bits above the mask: the latency stays masked. */
	word = 0xffe00000U | 5;
	TP_ST_CHECK(st, tp_atime_fault(&fmt, &word, 25) == 20 && word == 25,
		    "atime fault: foreign high bits are masked off");
	return st->failed - failed;
}

static int tp_st_atime(struct tp_st *st)
{
	unsigned int failed = st->failed;

	tp_st_atime_init_table(st);
	tp_st_atime_sz_table(st);
	tp_st_atime_examples(st);
	tp_st_atime_xchg_seq(st);
	return st->failed - failed;
}

#endif /* TP_SELFTEST_ATIME_H */
