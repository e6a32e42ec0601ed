// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * libFuzzer target: the primitives past Linux 6.1 (issue 16) under random
 * programs of calls: the goal controller, pghot's hotness record, the
 * fault-count clock and the capacity-fitted (histogram) threshold.
 *
 * The input is a program: each step takes an opcode byte and the operands
 * it needs (missing bytes read as 0); values lean towards the edges. After
 * every step the documented behaviour is checked:
 *
 *  - goal: a rejected init or tune returns the documented error and leaves
 *    the controller byte for byte as it was; an update gives exactly
 *    o' = clamp(o x (2g - c) / g) (halved from c >= 1.5 g, one more for a
 *    stuck small output below the goal unless c x (o + 1) / o would reach
 *    the halving point), computed here in 128 bits; the
 *    output is always inside the bounds in force and moves by at most x2
 *    or /2 before the clamp;
 *  - hot: a record keeps the format's fields (a byte in 8 bits, the
 *    precise format's unused bits 0, the node clamped to 1023); a new
 *    count starts at 1 outside the window and counts up to the format's
 *    maximum inside it; ready iff the count reached the threshold or the
 *    record was ready within the window; tp_hot_record32() agrees with
 *    tp_hot_record(); a rejected init leaves the format unchanged;
 *  - fault clock: the reading never goes back, never passes the faults
 *    counted and lags them by at most (batch - 1) per slot;
 *  - histogram threshold: always inside [step, 2 x reference] of the
 *    settings in force (0 for a reference of 0), whatever was recorded.
 *
 * A violated check prints the step and aborts (a libFuzzer crash).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tierpol/tierpol.h>

typedef uint8_t u8;
typedef uint32_t u32;
typedef uint64_t u64;
typedef unsigned __int128 u128;

#define CHECK(cond, ...) do {						\
	if (!(cond)) {							\
		fprintf(stderr, "fuzz_algos: step %u: %s: ", step_no,	\
			#cond);						\
		fprintf(stderr, __VA_ARGS__);				\
		fputc('\n', stderr);					\
		abort();						\
	}								\
} while (0)

#define ULL(x)	((unsigned long long)(x))

static unsigned int step_no;

/* ---- the program ------------------------------------------------------------ */

struct prog {
	const u8 *p;
	size_t n;
};

static u64 bytes(struct prog *in, unsigned int n)
{
	u64 v = 0;
	unsigned int i;

	for (i = 0; i < n; i++) {
		v |= (u64)(in->n ? *in->p : 0) << (8 * i);
		if (in->n) {
			in->p++;
			in->n--;
		}
	}
	return v;
}

static const u64 edge[] = {
	0, 1, 2, 3, 7, 8, 9999, 10000, 10001, 1ULL << 32, (1ULL << 32) - 1,
	TP_GOAL_MAX - 1, TP_GOAL_MAX, TP_GOAL_MAX + 1, ~0ULL, 1ULL << 62,
	1000000000, TP_TPS_MAX, TP_TPS_MAX + 1ULL, TP_CAND_BATCH_MAX,
	TP_CAND_BATCH_MAX + 1ULL, TP_TIME_MAX, TP_TIME_MAX + 1,
};

static u64 val(struct prog *in)
{
	u8 k = (u8)bytes(in, 1);

	switch (k & 3) {
	case 0:
		return bytes(in, 1);
	case 1:
		return bytes(in, 2);
	case 2:
		return edge[bytes(in, 1) % (sizeof(edge) / sizeof(edge[0]))] +
		       (u64)(int64_t)(signed char)bytes(in, 1);
	default:
		return bytes(in, 8);
	}
}

/*
 * The @sz of a configuration of @known bytes followed by 8 bytes @tail:
 * mostly @known; sometimes 0 or one byte short (bad), or 8 more with a zero
 * tail (good: a newer caller asking for nothing new) or a non-zero one
 * (bad). Returns whether the size is acceptable.
 */
static bool pick_sz(struct prog *in, u32 known, u32 *sz, u8 *tail)
{
	u8 k = (u8)bytes(in, 1);

	memset(tail, 0, 8);
	switch (k & 7) {
	case 0:
		*sz = 0;
		return false;
	case 1:
		*sz = known - 1;
		return false;
	case 2:
		*sz = known + 8;
		return true;
	case 3:
		*sz = known + 8;
		tail[k >> 5] = 1;
		return false;
	default:
		*sz = known;
		return true;
	}
}

/* ---- goal controller ------------------------------------------------------------ */

static struct tp_goal goal;
static bool goal_ok;
static u64 g_goal, g_min, g_max, g_raw;	/* settings, output unclamped */

/* A configuration and the bytes after it (@sz may cover them). */
struct goal_buf {
	struct tp_goal_cfg c;
	u8 tail[8];
};

static u64 clampv(u64 v, u64 lo, u64 hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* The documented error of a goal configuration, 0 if valid. */
static int goal_expect(const struct tp_goal_cfg *c, bool sz_ok)
{
	/* -EINVAL wins over -ERANGE (docs/BAD_INPUT.md) */
	if (!sz_ok || !c->goal || !c->min || c->min > c->max)
		return -EINVAL;
	if (c->goal > TP_GOAL_MAX || c->min > TP_GOAL_MAX ||
	    c->max > TP_GOAL_MAX || c->init > TP_GOAL_MAX)
		return -ERANGE;
	return 0;
}

static bool goal_cfg(struct prog *in, struct goal_buf *b)
{
	struct tp_goal_cfg *c = &b->c;
	bool ok;

	memset(b, 0, sizeof(*b));
	ok = pick_sz(in, sizeof(*c), &c->sz, b->tail);
	c->goal = val(in);
	c->min = val(in);
	c->max = val(in);
	c->init = val(in);
	return ok;
}

static void goal_op(struct prog *in, u8 sub)
{
	struct goal_buf b;
	struct tp_goal_cfg *c = &b.c;
	struct tp_goal before;
	u64 cur, o, want, got;
	int ret, exp;

	switch (sub % 3) {
	case 0:		/* init or tune */
		exp = goal_expect(c, goal_cfg(in, &b));
		before = goal;
		if (!goal_ok || (sub & 8)) {
			ret = tp_goal_init(&goal, c);
			CHECK(ret == exp, "init %d, expected %d", ret, exp);
			if (!ret) {
				goal_ok = true;
				g_raw = clampv(c->init ? c->init : c->min,
					       c->min, c->max);
				CHECK(tp_goal_get(&goal) == g_raw,
				      "first output");
			}
		} else {
			ret = tp_goal_tune(&goal, c);
			CHECK(ret == exp, "tune %d, expected %d", ret, exp);
			if (!ret)
				CHECK(tp_goal_get(&goal) ==
				      clampv(g_raw, c->min, c->max),
				      "a tune keeps the output");
		}
		if (ret) {
			CHECK(!memcmp(&before, &goal, sizeof(goal)),
			      "a rejected call changed the controller");
		} else {
			g_goal = c->goal;
			g_min = c->min;
			g_max = c->max;
		}
		break;
	default:	/* update */
		if (!goal_ok)
			return;
		cur = val(in);
		o = tp_goal_get(&goal);
		got = tp_goal_update(&goal, cur);
		/* any metric, however large, at 1.5 x the goal or more halves */
		if ((u128)2 * cur >= (u128)3 * g_goal) {
			want = o / 2;
		} else {
			want = (u64)((u128)o * (2 * g_goal - cur) / g_goal);
			if (cur < g_goal && want == o &&
			    (u128)cur * (o + 1) / o < g_goal + (g_goal + 1) / 2)
				want = o + 1;
		}
		want = clampv(want, g_min, g_max);
		CHECK(got == want, "update(%llu) from %llu: %llu, expected %llu",
		      ULL(cur), ULL(o), ULL(got), ULL(want));
		CHECK(got >= g_min && got <= g_max, "output out of bounds");
		CHECK(got <= (o + 1 > 2 * o ? o + 1 : 2 * o) || got == g_min,
		      "more than doubled");
		CHECK(got >= o / 2 || got == g_min, "more than halved");
		CHECK(tp_goal_get(&goal) == got, "get after update");
		g_raw = got;
		break;
	}
}

/* ---- hotness record --------------------------------------------------------------- */

static struct tp_hot hot;
static bool hot_ok;

/*
 * hotness.h's rule for a valid @c's time buckets: the default bucket is the
 * smallest power of two of ticks of at least 1/8 s (byte) or 1 ms
 * (precise); the window is ceil(window_ms * tps / 1000) ticks in whole
 * buckets, rounded up, at most the span less two buckets (30 of 32, 16382
 * of 16384), -ERANGE past that. Returns 0 or -ERANGE.
 */
static int hot_expect(const struct tp_hot_cfg *c, u32 *shift, u32 *win)
{
	u64 per = c->format == TP_HOT_BYTE ? 8 : 1000, span, ticks, w;
	u32 s = c->bucket_shift;

	if (!s)
		while ((1ULL << s) * per < c->tps)
			s++;
	span = c->format == TP_HOT_BYTE ? 32 : 16384;
	ticks = ((u64)(c->window_ms ? c->window_ms : 3000) * c->tps + 999) /
		1000;
	w = (ticks >> s) + !!(ticks & ((1ULL << s) - 1));
	*shift = s;
	*win = (u32)w;
	return w > span - 2 ? -ERANGE : 0;
}

static void hot_op(struct prog *in, u8 sub)
{
	struct {
		struct tp_hot_cfg c;
		u8 tail[8];
	} b;
	struct tp_hot_cfg *cp = &b.c, c;
	struct tp_hot before = hot;
	u32 rec, out, nid, cnt_max, old_cnt, rec32, word, shift, win;
	u64 now;
	bool inwin, ready, sz_ok, valid;
	int ret, want;

	if (sub % 4 == 0 || !hot_ok) {
		memset(&b, 0, sizeof(b));
		sz_ok = pick_sz(in, sizeof(*cp), &cp->sz, b.tail);
		c = *cp;
		c.format = (u32)(bytes(in, 1) % 3);
		c.tps = (u32)val(in);
		c.freq_threshold = (u32)(bytes(in, 1) % 9);
		c.window_ms = (u32)val(in);
		c.bucket_shift = (u32)(bytes(in, 1) % 44);
		c.sz = cp->sz;
		*cp = c;
		ret = tp_hot_init(&hot, cp);
		valid = sz_ok && c.format <= TP_HOT_PRECISE && c.tps &&
			c.tps <= TP_TPS_MAX && c.bucket_shift <= 40 &&
			c.freq_threshold <= (c.format ? 7U : 3U);
		/* -EINVAL wins over -ERANGE (docs/BAD_INPUT.md) */
		want = valid ? hot_expect(&c, &shift, &win) : -EINVAL;
		CHECK(ret == want, "init %d, expected %d (format %u, tps %u, "
		      "window %u ms, shift %u)", ret, want, c.format, c.tps,
		      c.window_ms, c.bucket_shift);
		if (ret) {
			CHECK(!memcmp(&before, &hot, sizeof(hot)),
			      "a rejected init changed the format");
			return;
		}
		hot_ok = true;
		CHECK(hot.format == c.format && hot.shift == shift &&
		      hot.window == win && hot.threshold ==
		      (c.freq_threshold ? c.freq_threshold : 2U),
		      "format %u, shift %u, window %u, threshold %u; "
		      "expected %u, %u, %u", hot.format, hot.shift, hot.window,
		      hot.threshold, c.format, shift, win);
		return;
	}
	cnt_max = hot.format == TP_HOT_PRECISE ? 7 : 3;
	rec = (u32)val(in);
	if (hot.format == TP_HOT_BYTE)
		rec &= 0xff;
	else if (bytes(in, 1) & 1)
		rec &= ~0x3c000U;	/* a record it could have written */
	nid = (u32)val(in);
	now = val(in);
	inwin = !tp_hot_expired(&hot, rec, now);
	old_cnt = tp_hot_count(&hot, rec);
	out = tp_hot_record(&hot, rec, nid, now);
	ready = tp_hot_ready(&hot, out);
	if (hot.format == TP_HOT_BYTE) {
		CHECK(out <= 0xff, "a byte record of 0x%x", out);
		CHECK(tp_hot_nid(&hot, out) == 0, "a byte record's node");
	} else {
		CHECK(!(out & 0x3c000U), "unused bits set: 0x%x", out);
		CHECK(tp_hot_nid(&hot, out) == (nid > 1023 ? 1023 : nid),
		      "node %u for %u", tp_hot_nid(&hot, out), nid);
	}
	CHECK(!tp_hot_expired(&hot, out, now), "a new access is expired");
	if (inwin)
		CHECK(tp_hot_count(&hot, out) ==
		      (old_cnt < cnt_max ? old_cnt + 1 : cnt_max),
		      "count %u after %u", tp_hot_count(&hot, out), old_cnt);
	else
		CHECK(tp_hot_count(&hot, out) == 1, "a new count of %u",
		      tp_hot_count(&hot, out));
	CHECK(ready == (tp_hot_count(&hot, out) >= hot.threshold ||
			(inwin && tp_hot_ready(&hot, rec))),
	      "ready %d, count %u, was ready %d", ready,
	      tp_hot_count(&hot, out), tp_hot_ready(&hot, rec));
	/* The shared-word variant does the same to its low byte or word. */
	word = hot.format == TP_HOT_BYTE ? (rec | 0xabcd00U) : rec;
	rec32 = word;
	CHECK(tp_hot_record32(&hot, &rec32, nid, now) == ready,
	      "record32's answer");
	CHECK(hot.format == TP_HOT_BYTE ?
	      rec32 == ((word & ~0xffU) | out) : rec32 == out,
	      "record32 wrote 0x%x, record gave 0x%x", rec32, out);
}

/* ---- fault-count clock ------------------------------------------------------------ */

#define FC_SLOTS	4

static struct tp_fault_clock fclk;
static struct tp_fault_clock_cpu fcpu[FC_SLOTS];
static bool fclk_ok;
static u64 fc_total, fc_last;
static u32 fc_batch;

static void fclk_op(struct prog *in, u8 sub)
{
	struct tp_fault_clock before = fclk;
	u64 n, now;
	u32 batch;
	int ret;

	if (sub % 8 == 0 || !fclk_ok) {
		batch = (u32)val(in);
		ret = tp_fault_clock_init(&fclk, batch);
		CHECK(ret == (batch > TP_CAND_BATCH_MAX ? -EINVAL : 0),
		      "init(%u): %d", batch, ret);
		if (ret) {
			CHECK(!memcmp(&before, &fclk, sizeof(fclk)),
			      "a rejected init changed the clock");
			return;
		}
		memset(fcpu, 0, sizeof(fcpu));
		fclk_ok = true;
		fc_total = fc_last = 0;
		fc_batch = batch ? batch : 1;
		return;
	}
	n = bytes(in, 1) & 1 ? bytes(in, 1) : bytes(in, 3);
	if (n == 0xffffff)	/* any count: past 2^32 it is ignored */
		n = val(in);
	now = tp_fault_clock_tick(&fclk, &fcpu[sub % FC_SLOTS], n);
	if (n <= TP_RATE_MAX)
		fc_total += n;
	CHECK(now == tp_fault_clock_now(&fclk), "tick's reading");
	CHECK(now >= fc_last, "went back: %llu after %llu", ULL(now),
	      ULL(fc_last));
	CHECK(now <= fc_total, "%llu read, %llu counted", ULL(now),
	      ULL(fc_total));
	CHECK(fc_total - now <= (u64)FC_SLOTS * (fc_batch - 1),
	      "lags by %llu with a batch of %u", ULL(fc_total - now),
	      fc_batch);
	fc_last = now;
}

/* ---- histogram threshold ---------------------------------------------------------- */

static struct tp_thresh th;
static struct tp_thresh_cpu thcpu;
static bool th_ok;
static u64 th_ref, th_now, th_cand, th_period, th_rate;
static u32 th_steps, th_var;

/* The documented answer of an init or a tune of @c: 0, -EINVAL, -ERANGE. */
static int th_expect(const struct tp_thresh_cfg *c)
{
	if (c->variant > TP_THRESH_HISTOGRAM || c->steps > TP_THRESH_STEPS_MAX ||
	    c->batch > TP_CAND_BATCH_MAX)
		return -EINVAL;
	if (c->ref_th > TP_TIME_MAX || c->period > TP_TIME_MAX ||
	    c->rate_limit > TP_RATE_MAX)
		return -ERANGE;
	return 0;
}

static u64 mul_frac(u64 a, u64 b, u64 c)
{
	u128 r = (u128)a * b / c;

	return r > ~0ULL ? ~0ULL : (u64)r;
}

/*
 * The histogram's fit, from the documentation (threshold.h): the bins are
 * [0, u), [u, 2u), [2u, 4u), ... with u = 2^shift and the top bin ending
 * at the upper bound, shift the smallest that puts the top bin's lower
 * edge at or above max; the threshold is where the pages counted from the
 * lowest latency up pass the budget (twice the period's candidates at the
 * rate limit), interpolated linearly in that bin, clamped to [unit, max].
 */
static u64 th_fit(const u64 *bin, u64 unit, u64 max, u64 budget)
{
	u32 shift = 0, b;
	u64 cum = 0, lo, hi;

	while (max > 1ULL << (shift + TP_THRESH_BINS - 2))
		shift++;
	for (b = 0; b < TP_THRESH_BINS; b++) {
		if (bin[b] > budget - cum) {
			lo = b ? 1ULL << (shift + b - 1) : 0;
			hi = b + 1 < TP_THRESH_BINS ? 1ULL << (shift + b) : max;
			lo = hi > lo ? lo + mul_frac(hi - lo, budget - cum,
						     bin[b]) : lo;
			return clampv(lo, unit, max);
		}
		cum += bin[b];
	}
	return max;
}

static void th_op(struct prog *in, u8 sub)
{
	struct tp_thresh_cfg c;
	struct tp_thresh before;
	u64 t, max, unit, n, bin[TP_THRESH_BINS], want, cand;
	bool closes, tune;
	int ret, ev;
	u32 b;

	if (sub % 6 == 0 || !th_ok) {
		memset(&c, 0, sizeof(c));
		c.sz = sizeof(c);
		c.variant = bytes(in, 1) & 3 ? TP_THRESH_HISTOGRAM :
			    (u32)(bytes(in, 1) % 4);
		c.steps = (u32)(bytes(in, 1) & 1 ? bytes(in, 3) % 70000 : 0);
		c.tps = 1000000000;
		c.ref_th = val(in);
		c.period = val(in) & 0xffffffffffULL;
		c.rate_limit = val(in);
		c.batch = (u32)(bytes(in, 1) & 1 ? bytes(in, 3) % 70000 :
				bytes(in, 1) % 70);
		/* a tune half the time, once there is something to tune */
		tune = th_ok && ((sub / 6) & 1);
		memcpy(&before, &th, sizeof(th));
		ret = tune ? tp_thresh_tune(&th, &c) :
		      tp_thresh_init(&th, &c, th_cand, th_now);
		CHECK(ret == th_expect(&c), "%s: %d, not %d",
		      tune ? "tune" : "init", ret, th_expect(&c));
		if (ret) {
			CHECK(!memcmp(&before, &th, sizeof(th)),
			      "a refused %s changed the controller",
			      tune ? "tune" : "init");
			return;
		}
		th_ok = true;
		th_ref = c.ref_th;
		th_var = c.variant;
		th_period = c.period;
		th_rate = c.rate_limit;
		th_steps = c.steps ? c.steps : TP_DEFAULT_THRESH_STEPS;
		if (!tune)
			memset(&thcpu, 0, sizeof(thcpu));
		return;
	}
	max = th_var == TP_THRESH_RFC2020 ? th_ref : 2 * th_ref;
	unit = max / th_steps ? max / th_steps : (max ? 1 : 0);
	if (sub % 3 == 1) {
		/* 0xffff: any count, past any folio too (ignored) */
		n = bytes(in, 2) + 1;
		if (n == 0x10000)
			n = val(in);
		tp_thresh_record(&th, &thcpu, val(in), n);
	} else {
		for (b = 0; b < TP_THRESH_BINS; b++)
			bin[b] = th.st.hist[b].v;
		t = tp_thresh_get(&th);
		th_now += val(in) & 0xffffffffffULL;
		th_cand += bytes(in, 3);
		closes = (int64_t)(th_now - th.st.start.v) > (int64_t)th_period;
		ev = tp_thresh_update(&th, th_cand, th_now);
		CHECK((ev != TP_TH_IDLE) == closes, "event %d, period %s", ev,
		      closes ? "over" : "not over");
		if (th_var == TP_THRESH_HISTOGRAM && closes) {
			/* the fit, then every bin halved (cooling) */
			/* twice the period's candidates, saturated */
			cand = mul_frac(th_period, th_rate, 1000000000);
			want = th_fit(bin, unit, max,
				      cand > ~0ULL / 2 ? ~0ULL : 2 * cand);
			CHECK(tp_thresh_get(&th) == want,
			      "fit %llu, not %llu", ULL(tp_thresh_get(&th)),
			      ULL(want));
			CHECK(ev == (want < t ? TP_TH_LOWERED : want > t ?
				     TP_TH_RAISED : TP_TH_KEPT),
			      "event %d for %llu -> %llu", ev, ULL(t),
			      ULL(want));
			for (b = 0; b < TP_THRESH_BINS; b++)
				CHECK(th.st.hist[b].v == bin[b] -
				      (bin[b] >= 2 ? bin[b] / 2 : 0),
				      "bin %u: %llu after %llu", b,
				      ULL(th.st.hist[b].v), ULL(bin[b]));
		} else if (!closes) {
			CHECK(tp_thresh_get(&th) == t, "threshold moved "
			      "within a period: %llu -> %llu", ULL(t),
			      ULL(tp_thresh_get(&th)));
			for (b = 0; b < TP_THRESH_BINS; b++)
				CHECK(th.st.hist[b].v == bin[b],
				      "bin %u moved within a period", b);
		}
	}
	t = tp_thresh_get(&th);
	CHECK(t >= unit && t <= max, "threshold %llu outside [%llu, %llu]",
	      ULL(t), ULL(unit), ULL(max));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct prog in = { data, size };

	goal_ok = hot_ok = fclk_ok = th_ok = false;
	memset(&goal, 0, sizeof(goal));
	memset(&hot, 0, sizeof(hot));
	memset(&fclk, 0, sizeof(fclk));
	memset(&th, 0, sizeof(th));
	th_now = 1000000000;
	th_cand = 0;
	for (step_no = 0; in.n && step_no < 4096; step_no++) {
		u8 op = (u8)bytes(&in, 1);

		switch (op & 3) {
		case 0:
			goal_op(&in, op >> 2);
			break;
		case 1:
			hot_op(&in, op >> 2);
			break;
		case 2:
			fclk_op(&in, op >> 2);
			break;
		default:
			th_op(&in, op >> 2);
			break;
		}
	}
	return 0;
}
