/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * fuzz_api.c's infrastructure: the input program, the shared clock, the
 * admission-bound epochs and the arithmetic the headers document. Included
 * once, by fuzz_api.c.
 */
#ifndef TP_FUZZ_API_H
#define TP_FUZZ_API_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tierpol/tierpol.h>

typedef uint8_t u8;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t s32;
typedef int64_t s64;
typedef unsigned __int128 u128;

#define CHECK(cond, ...) do {						\
	if (!(cond)) {							\
		fprintf(stderr, "fuzz_api: step %u op %u: %s: ", step_no,	\
			cur_op, #cond);					\
		fprintf(stderr, __VA_ARGS__);				\
		fputc('\n', stderr);					\
		abort();						\
	}								\
} while (0)

static unsigned int step_no, cur_op;
static int trace_on = -1;	/* FUZZ_API_TRACE=1: print every step */

#define TRACE(...) do {							\
	if (trace_on > 0) {						\
		fprintf(stderr, "%4u: ", step_no);			\
		fprintf(stderr, __VA_ARGS__);				\
		fputc('\n', stderr);					\
	}								\
} while (0)

#define ULL(x)	((unsigned long long)(x))

/* ---- input --------------------------------------------------------------- */

struct input {
	const u8 *p;
	size_t n;
};

static u64 take(struct input *in, unsigned int bytes)
{
	u64 v = 0;
	unsigned int i;

	for (i = 0; i < bytes; i++) {
		v |= (u64)(in->n ? *in->p : 0) << (8 * i);
		if (in->n) {
			in->p++;
			in->n--;
		}
	}
	return v;
}

static const u64 edges[] = {
	0, 1, 2, 3, 15, 16, 17, 63, 64, 1000, 1023, 1024, 4096, 65535, 65536,
	999999, 1000000, 1000000000, 0x7fffffffULL, 0xffffffffULL,
	0x100000000ULL, 0x100000001ULL, TP_TPS_MAX, TP_TPS_MAX + 1ULL,
	TP_RATE_MAX - 1, TP_RATE_MAX, TP_RATE_MAX + 1, TP_TIME_MAX,
	TP_TIME_MAX + 1, TP_TIME_MAX / 4, TP_TIME_MAX / 4 + 1,
	0x7fffffffffffffffULL, 0x8000000000000000ULL, ~0ULL - 1, ~0ULL,
	TP_CAND_BATCH_MAX, TP_CAND_BATCH_MAX + 1ULL, 1ULL << 61,
};

/* A value with a taste for edges: small, edge, edge +- small, or raw. */
static u64 value(struct input *in)
{
	u8 k = (u8)take(in, 1);
	u64 e;

	switch (k & 7) {
	case 0:
	case 1:
		return take(in, 1);
	case 2:
		return take(in, 2);
	case 3:
	case 4:
		return edges[take(in, 1) % (sizeof(edges) / sizeof(edges[0]))];
	case 5:
		e = edges[take(in, 1) % (sizeof(edges) / sizeof(edges[0]))];
		return e + (u64)(s64)(signed char)take(in, 1);
	case 6:
		return take(in, 4);
	default:
		return take(in, 8);
	}
}

static u32 value32(struct input *in)
{
	u64 v = value(in);

	return (u8)take(in, 1) & 1 ? (u32)v : (u32)(v > 0xffffffffULL ?
						    0xffffffffULL : v);
}

/*
 * The @sz of a configuration of @known bytes that 8 bytes @tail follow:
 * mostly @known; sometimes 0 or one byte short (bad), 8 more with a zero
 * tail (good: a newer caller asking for nothing new) or with a non-zero
 * one (bad). Sets *@bad for the bad ones.
 */
static u32 pick_sz(struct input *in, u32 known, u8 *tail, bool *bad)
{
	u8 k = (u8)take(in, 1);

	memset(tail, 0, 8);
	*bad = true;
	switch (k % 16) {
	case 0:
		return 0;
	case 1:
		return known - 1;
	case 2:
		*bad = false;
		return known + 8;
	case 3:
		tail[(k >> 4) % 8] = 1;
		return known + 8;
	default:
		*bad = false;
		return known;
	}
}

/* tps given to a tune: mostly the one of the init, else any. */
static u32 tune_tps(struct input *in, u8 sel, u32 cur, u32 bytes)
{
	if (!(sel & 0x40))
		return cur;
	return sel & 0x80 ? value32(in) : (u32)(take(in, bytes) + 1);
}

/* ---- the documented arithmetic ------------------------------------------- */

#define UNITS_MAX	(1ULL << 61)

/* The bucket's units of a tick, log2: 2^48 <= tps << shift < 2^49. */
static u32 bucket_shift(u32 tps)
{
	return 48 - (63 - __builtin_clzll(tps));
}

/*
 * The limiter settings the header derives from @rate and @burst at @tps:
 * cost = ceil(units of a second / rate), tau = burst x cost (burst 0: the
 * rate), n_max = 2^61 / cost; false if the bucket cannot hold the burst.
 */
static bool limiter_derive(u32 variant, u32 tps, u32 batch, u64 rate,
			   u64 burst, struct tp_limiter_set *s)
{
	u64 u, b;

	memset(s, 0, sizeof(*s));
	s->variant = variant;
	s->batch = batch ? batch : 1;
	s->limit = rate;
	if (variant != TP_LIMITER_BUCKET || !rate)
		return true;
	u = (u64)tps << bucket_shift(tps);
	b = burst ? burst : rate;
	s->cost = u / rate + !!(u % rate);
	if ((u128)b * s->cost > UNITS_MAX)
		return false;
	s->tau = b * s->cost;
	s->n_max = UNITS_MAX / s->cost;
	return true;
}

/* msecs_to_jiffies(): rounded up. */
static u64 ms_to_ticks(u64 ms, u32 tps)
{
	return (ms * tps + 999) / 1000;
}

/* The threshold's bounds: [unit, max], both 0 for a reference of 0. */
static void thresh_bounds(u32 variant, u32 steps, u64 ref, u64 *unit,
			  u64 *max)
{
	u64 s = steps ? steps : TP_DEFAULT_THRESH_STEPS;

	/* Linux 6.1's bounds, and the histogram's, go up to twice the ref. */
	*max = variant == TP_THRESH_RFC2020 ? ref : 2 * ref;
	*unit = !*max ? 0 : *max / s ? *max / s : 1;
}

/* Published settings: one copy twice, sequence even (no tune in flight). */
#define CHECK_LATCH(obj, what) do {					\
	CHECK(!memcmp(&(obj).set[0], &(obj).set[1],			\
		      sizeof((obj).set[0])), "%s: latch copies differ",	\
	      what);							\
	CHECK(!((obj).latch.seq & 1), "%s: latch sequence odd", what);	\
} while (0)

/* ---- the shared clock ---------------------------------------------------- */

static u64 clk;
static u64 clk_jumps;	/* the clock jumped: bounds restart their epoch */

static void clock_step(struct input *in)
{
	u8 k = (u8)take(in, 1);
	u64 d;

	switch (k % 8) {
	case 0:
	case 1:
		clk += take(in, 1);
		break;
	case 2:
		clk += take(in, 3);
		break;
	case 3:
		clk += take(in, 5);	/* up to 2^40 */
		break;
	case 4:
		d = take(in, 2);
		clk -= d;
		break;
	case 5:
		clk = 0x100000000ULL - take(in, 2);	/* below 2^32 */
		clk_jumps++;
		break;
	case 6:
		clk = 0ULL - take(in, 2);		/* below 2^64 */
		clk_jumps++;
		break;
	default:
		clk = value(in);
		clk_jumps++;
		break;
	}
}

/*
 * An admission bound's epoch: the callers' times since its start, the
 * pages admitted and the largest request admitted. A new epoch starts at
 * init and tune, when the clock jumps, and when a caller is a second or
 * more behind another (the bound assumes less).
 */
struct epoch {
	u64 jumps, base;
	s64 lo, hi;
	u128 admitted;
	u64 nmax;
};

static void epoch_start(struct epoch *e)
{
	e->jumps = clk_jumps;
	e->base = clk;
	e->lo = 0;
	e->hi = 0;
	e->admitted = 0;
	e->nmax = 0;
}

/* A caller at clk: a new epoch first if needed. */
static void epoch_enter(struct epoch *e, u32 tps)
{
	s64 rel;

	if (e->jumps != clk_jumps) {
		epoch_start(e);
		return;
	}
	rel = (s64)(clk - e->base);
	if (rel < e->hi && (u64)(e->hi - rel) >= tps) {
		epoch_start(e);
		return;
	}
	if (rel < e->lo)
		e->lo = rel;
	if (rel > e->hi)
		e->hi = rel;
	/* Beyond 2^62 ticks apart the times alias. */
	if ((u64)(e->hi - e->lo) >= (1ULL << 62))
		epoch_start(e);
}

static void epoch_admit(struct epoch *e, u64 n)
{
	e->admitted += n;
	if (n > e->nmax)
		e->nmax = n;
}

/*
 * The documented bound of @s at @tps (rate @rate pages a second) over the
 * epoch, @late pages the per-CPU slots may add to a window late.
 */
static void epoch_check(const struct epoch *e, const struct tp_limiter_set *s,
			u32 tps, u64 rate, u64 late, const char *who)
{
	u64 span = (u64)(e->hi - e->lo);
	u128 lhs = e->admitted * tps, rhs;
	u64 burst;

	if (s->variant == TP_LIMITER_BUCKET) {
		burst = s->cost ? s->tau / s->cost : 0;
		rhs = rate ? (u128)(e->nmax > burst ? e->nmax : burst) * tps +
			     (u128)rate * span : 0;
	} else {
		rhs = ((u128)span + 2 * tps) *
		      ((u128)rate + e->nmax + late);
	}
	CHECK(lhs <= rhs,
	      "%s: %s admitted %llu pages over %llu ticks (tps %u, rate %llu, n_max %llu)",
	      who, s->variant ? "window" : "bucket", ULL(e->admitted),
	      ULL(span), tps, ULL(rate), ULL(e->nmax));
}

#endif /* TP_FUZZ_API_H */
