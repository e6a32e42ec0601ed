// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * libFuzzer target: random sequences of tierpol API calls (issue 7, on the
 * 1.0 API of issue 13).
 *
 * The input is a program: each step takes one opcode byte and the operands
 * it needs (missing bytes read as 0). Configurations are random, valid or
 * not, their @sz included; times come from one clock that moves forward by
 * small, medium and large steps, back by a little, or jumps next to the
 * 2^32 and 2^64 wraps. After every step the invariants the headers
 * document are checked:
 *
 *  - a rejected init/tune returns the documented error and leaves its
 *    object byte-for-byte unchanged; an accepted one publishes one whole
 *    copy of the settings the documentation derives (both latch copies
 *    equal, the sequence even: no mixed settings), and a tune writes no
 *    live state; a tune to another clock is -EINVAL;
 *  - ring: the answer is the documented one (a model of the header's rules),
 *    the latency is never "negative" (huge) and never more than the span of
 *    the recorded passes (now minus the oldest time, clamped at 0), -EBUSY
 *    never happens without a concurrent writer, errors write nothing;
 *  - threshold: always in [step, bound] of the current settings (0 for a
 *    reference of 0); a period closes exactly when it is over, and moves
 *    the threshold the way the candidates ask, against the rate in force;
 *  - limiter: the bucket admits exactly what tp_limiter_available() says
 *    (up to n_max when full), the windows what a model of them says (per-
 *    CPU slot included); admitted pages stay within the documented bound
 *    (bucket: max(burst, n) + rate x T; windows:
 *    (T + 2) x (limit + n_max + batch - 1)), for callers less than one
 *    second apart; nothing is refused as busy without a concurrent caller;
 *  - decide: every valid call adds its pages to exactly one of its slot's
 *    counters, consistently with its verdict; statistics equal the pages of
 *    all valid calls, by verdict; invalid calls count nothing; the threshold
 *    stays in its bounds; the rate limiter's admissions keep its bound;
 *  - atime and vma_scan: latencies below the stamp span, verdicts known.
 *
 * A violated invariant prints the step and aborts, which libFuzzer reports
 * as a crash with the input saved.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tierpol/tierpol.h>
#include "fuzz_api.h"
#include "fuzz_api_rate.h"
#include "fuzz_api_policy.h"

/* ---- scan ring ----------------------------------------------------------- */

static struct tp_scan_ring ring;
static struct tp_scan_pass pass_arr[TP_RING_DEPTH_MAX];
static bool ring_ok;
static struct {
	u32 depth;
	u64 limit, nr, offset;
	u64 start[TP_RING_DEPTH_MAX], time[TP_RING_DEPTH_MAX];
} rm;

static void ring_op(struct input *in, u8 sub)
{
	struct {
		struct tp_scan_ring_cfg c;
		u8 tail[8];
	} w;
	struct tp_scan_ring copy;
	u64 addr, lat, want_lat, end, start, time, span, l;
	u32 n, j, i, depth, nr_pass;
	int ret, want;
	bool bad;
	u8 k;

	switch (sub % 8) {
	case 0:	/* init */
		memset(&w, 0, sizeof(w));
		w.c.depth = (u8)take(in, 1) & 1 ? 1U << (take(in, 1) % 12) :
						  value32(in);
		w.c.limit = value(in);
		/* the array's length: all of it, one short, or any */
		k = (u8)take(in, 1);
		depth = w.c.depth ? w.c.depth : TP_DEFAULT_RING_DEPTH;
		nr_pass = k % 4 == 1 ? depth - 1 :
			  k % 4 == 2 ? (u32)take(in, 2) : TP_RING_DEPTH_MAX;
		if (nr_pass > TP_RING_DEPTH_MAX)
			nr_pass = TP_RING_DEPTH_MAX;
		w.c.sz = pick_sz(in, sizeof(w.c), w.tail, &bad);
		copy = ring;
		ret = tp_scan_ring_init(&ring, &w.c, pass_arr, nr_pass);
		want = bad || (depth & (depth - 1)) ||
		       depth > TP_RING_DEPTH_MAX || nr_pass < depth ?
			-EINVAL : 0;
		CHECK(ret == want, "init sz %u depth %u of %u: %d", w.c.sz,
		      w.c.depth, nr_pass, ret);
		if (ret) {
			CHECK(!memcmp(&copy, &ring, sizeof(ring)),
			      "rejected init wrote the ring");
			break;
		}
		ring_ok = true;
		rm.depth = depth;
		rm.limit = w.c.limit ? w.c.limit : ~0ULL;
		rm.nr = 0;
		rm.offset = 0;
		CHECK(tp_scan_ring_depth(&ring) == depth, "depth");
		break;
	case 1:
	case 2:	/* record */
		if (!ring_ok)
			break;
		start = value(in);
		tp_scan_ring_record(&ring, start, clk);
		TRACE("ring_record(%#llx) at %#llx", ULL(start), ULL(clk));
		rm.start[rm.nr % rm.depth] = start;
		rm.time[rm.nr % rm.depth] = clk;
		rm.nr++;
		rm.offset = start;
		break;
	case 3:
	case 4:	/* advance */
		if (!ring_ok)
			break;
		rm.offset = (u8)take(in, 1) & 1 ? value(in) :
			    rm.offset + take(in, 3);
		tp_scan_ring_advance(&ring, rm.offset);
		TRACE("ring_advance(%#llx)", (unsigned long long)rm.offset);
		break;
	case 5:	/* reset (rarely) */
		if (!ring_ok || (u8)take(in, 1) % 4)
			break;
		tp_scan_ring_reset(&ring);
		rm.nr = 0;
		rm.offset = 0;
		break;
	default:	/* latency */
		if (!ring_ok)
			break;
		addr = (u8)take(in, 1) & 1 ? value(in) :
		       rm.start[take(in, 2) % rm.depth] + take(in, 2);
		lat = 0xdeadbeefULL;
		ret = tp_scan_ring_latency(&ring, addr, clk, &lat);
		TRACE("ring_latency(%#llx) at %#llx = %d, %llu",
		      (unsigned long long)addr, (unsigned long long)clk, ret,
		      (unsigned long long)lat);
		if (!rm.nr) {
			CHECK(ret == -ENOENT && lat == 0xdeadbeefULL,
			      "empty ring: %d", ret);
			break;
		}
		/* The model, from the header's rules. */
		n = rm.nr < rm.depth ? (u32)rm.nr : rm.depth;
		end = rm.offset;
		want = TP_LAT_OLDEST;
		time = 0;
		span = 0;
		for (j = 0; j < n; j++) {
			i = (u32)((rm.nr - 1 - j) % rm.depth);
			start = rm.start[i];
			time = rm.time[i];
			l = (s64)(clk - time) > 0 ? clk - time : 0;
			if (l > span)
				span = l;
		}
		for (j = 0; j < n; j++) {
			i = (u32)((rm.nr - 1 - j) % rm.depth);
			start = rm.start[i];
			time = rm.time[i];
			if (end < start)
				end = rm.limit;
			if (addr >= start && addr < end) {
				want = TP_LAT_EXACT;
				break;
			}
			end = start;
		}
		want_lat = (s64)(clk - time) > 0 ? clk - time : 0;
		CHECK(ret == want && lat == want_lat,
		      "addr %#llx now %#llx: got %d %llu, want %d %llu", (unsigned long long)addr,
		      (unsigned long long)clk, ret, (unsigned long long)lat,
		      want, (unsigned long long)want_lat);
		CHECK(lat < (1ULL << 63) && lat <= span,
		      "latency %llu beyond the span %llu",
		      (unsigned long long)lat, (unsigned long long)span);
		break;
	}
}

/* The stateless helpers, on anything. */
static void helpers_op(struct input *in, u8 sub)
{
	struct tp_node_mem mem;
	struct tp_group_fault gf;
	unsigned long *mask;
	u32 nbits, words, i;
	u64 a, b, r;
	int node_id, v;
	const char *name;

	switch (sub % 7) {
	case 0:
		if (!pol_ok)
			break;
		random_mem(in, &mem);
		CHECK(tp_free_space_enough(&pol, &mem) == space_model(&mem),
		      "free space enough: free %llu high %llu promo %llu "
		      "present %llu", ULL(mem.free), ULL(mem.wmark_high),
		      ULL(mem.wmark_promo), ULL(mem.present));
		r = tp_demotion_target(&pol, &mem);
		if (!(pm.mode & TP_MODE_TIERING))
			CHECK(r == mem.wmark_high, "demotion target");
		else
			CHECK(r >= mem.wmark_high || r == mem.wmark_promo,
			      "demotion target below high");
		(void)tp_scan_wanted(&pol, take(in, 1) & 1);
		break;
	case 1:
		random_mem(in, &mem);
		a = value(in);
		CHECK(tp_promote_room(&mem, a) ==
		      (mem.free > mem.wmark_high &&
		       mem.free - mem.wmark_high > a), "promote room");
		break;
	case 2: {
		/* high + max(min / 4, managed * scale / 10000), saturated */
		u64 managed = value(in);
		u32 scale = value32(in);
		u128 gap, want;

		a = value(in);
		b = value(in);
		r = tp_wmark_promo(a, b, managed, scale);
		gap = (u128)managed * scale / 10000;
		if (gap < a / 4)
			gap = a / 4;
		want = b + gap;
		CHECK(r == (want > ~0ULL ? ~0ULL : (u64)want),
		      "promo watermark %llu", (unsigned long long)r);
		break;
	}
	case 3: {
		/* min(1 s, scan period / 16), at least 1 tick */
		u32 tps = value32(in);

		a = value(in);
		r = tp_migrate_retry_interval(a, tps);
		CHECK(r == (a / 16 < tps ? (a / 16 ? a / 16 : 1) :
			    (tps ? tps : 1)), "retry interval %llu",
		      (unsigned long long)r);
		break;
	}
	case 4:	/* names of any verdict and error, known or not */
		v = (int)(s32)value32(in);
		name = tp_verdict_name(v);
		CHECK(name && *name && ((v >= 0 && v < TP_NR_VERDICTS) ==
					!!strcmp(name, tp_verdict_name(-1))),
		      "verdict %d: %s", v, name ? name : "(null)");
		name = tp_strerror(v);
		CHECK(name && *name, "strerror %d", v);
		break;
	default:	/* node masks of any size */
		nbits = (u32)take(in, 2) % 600;
		words = (nbits + 8 * sizeof(long) - 1) / (8 * sizeof(long));
		mask = malloc((words ? words : 1) * sizeof(long));
		for (i = 0; i < words; i++)
			mask[i] = (unsigned long)value(in);
		gf.cpu_node = value32(in);
		gf.mem_node = value32(in);
		gf.local = take(in, 1) & 1;
		gf.priv = take(in, 1) & 1;
		gf.in_group = take(in, 1) & 1;
		(void)tp_group_fault_local(take(in, 1) % 2, &gf,
					   words ? mask : NULL, nbits);
		node_id = (int)(s32)value32(in);
		{
			u32 var = (u32)take(in, 1) % 2;
			bool grp = take(in, 1) & 1;
			int src = (int)take(in, 1), want;

			r = (u64)(s64)tp_preferred_node(var, grp, node_id, src,
							words ? mask : NULL,
							nbits);
			/*
			 * Not in a group: none. 6.1: the destination, or
			 * the source without one. 3.15: the destination if
			 * it is one of the group's active nodes.
			 */
			if (!grp)
				want = -1;
			else if (var == TP_GROUP_LINUX61)
				want = node_id >= 0 ? node_id : src;
			else
				want = node_id >= 0 && (u32)node_id < nbits &&
				       (mask[node_id / (8 * sizeof(long))] >>
					(node_id % (8 * sizeof(long))) & 1) ?
				       node_id : -1;
			CHECK((s64)r == want, "preferred node %lld, not %d",
			      (long long)(s64)r, want);
		}
		free(mask);
		break;
	}
}

/* ---- access-time stamps -------------------------------------------------- */

static struct tp_atime fmt;
static bool fmt_ok;
static u32 stamp;
static u64 stamp_time;

static void atime_op(struct input *in, u8 sub)
{
	struct {
		struct tp_atime_cfg c;
		u8 tail[8];
	} w;
	struct tp_atime copy;
	u32 bits;
	u64 lat, span, el, bucket;
	bool bad;
	int ret;

	switch (sub % 4) {
	case 0:
		memset(&w, 0, sizeof(w));
		w.c.bits = (u8)take(in, 1) & 1 ? value32(in) :
			   (u32)take(in, 1) % 40;
		w.c.shift = (u8)take(in, 1) & 1 ? value32(in) :
			    (u32)take(in, 1) % 70;
		w.c.sz = pick_sz(in, sizeof(w.c), w.tail, &bad);
		copy = fmt;
		ret = tp_atime_init(&fmt, &w.c);
		bits = w.c.bits ? w.c.bits : TP_ATIME_DEFAULT_BITS;
		CHECK(ret == (bad || bits > 32 || w.c.shift > 64 - bits ?
			      -EINVAL : 0),
		      "atime sz %u bits %u shift %u: %d", w.c.sz, w.c.bits,
		      w.c.shift, ret);
		if (ret) {
			CHECK(!memcmp(&copy, &fmt, sizeof(fmt)),
			      "rejected atime init wrote the format");
			break;
		}
		fmt_ok = true;
		stamp = tp_atime_encode(&fmt, clk);
		stamp_time = clk;
		break;
	case 1:
		if (!fmt_ok)
			break;
		(void)tp_atime_xchg(&fmt, &stamp, clk);
		stamp_time = clk;
		break;
	default:
		if (!fmt_ok)
			break;
		span = tp_atime_span(&fmt);
		lat = tp_atime_fault(&fmt, &stamp, clk);
		CHECK(lat < span || span == ~0ULL, "atime latency %llu, span %llu",
		      (unsigned long long)lat, (unsigned long long)span);
		if (fmt.shift < 64)
			CHECK(!(lat & ((1ULL << fmt.shift) - 1)),
			      "latency not a multiple of the bucket");
		/* Within a bucket of the true elapsed time, when it fits. */
		el = clk - stamp_time;
		bucket = fmt.shift < 64 ? 1ULL << fmt.shift : ~0ULL;
		if ((s64)el >= 0 && span != ~0ULL && el < span - bucket)
			CHECK(lat + bucket > el && lat < el + bucket,
			      "latency %llu for %llu ticks",
			      (unsigned long long)lat, (unsigned long long)el);
		stamp_time = clk;
		break;
	}
}

/* ---- VMA scan filter ----------------------------------------------------- */

static struct tp_vma_profile prof;
static struct tp_vma_scan vs;
static bool prof_ok, vs_ok;

static void vma_op(struct input *in, u8 sub)
{
	struct {
		struct tp_vma_profile_cfg c;
		u8 tail[8];
	} w;
	struct tp_vma_profile copy;
	struct tp_vma_facts f;
	u64 size;
	u32 want;
	bool einval, bad;
	int ret;

	switch (sub % 6) {
	case 0:
		memset(&w, 0, sizeof(w));
		w.c.filter = (u8)take(in, 1) & 1 ? value32(in) :
			     (u32)take(in, 1) % 4;
		w.c.tps = (u8)take(in, 1) & 1 ? value32(in) :
			  (u32)take(in, 2) + 1;
		w.c.scan_delay = value(in);
		w.c.sz = pick_sz(in, sizeof(w.c), w.tail, &bad);
		copy = prof;
		ret = tp_vma_profile_init(&prof, &w.c);
		einval = bad || w.c.filter > TP_VMA_FILTER_PID || !w.c.tps ||
			 w.c.tps > TP_TPS_MAX;
		CHECK(einval ? ret == -EINVAL :
		      ret == (w.c.scan_delay > TP_TIME_MAX / 4 ? -ERANGE : 0),
		      "vma profile: %d", ret);
		if (ret) {
			CHECK(!memcmp(&copy, &prof, sizeof(prof)),
			      "rejected profile wrote the profile");
			break;
		}
		prof_ok = true;
		vs_ok = false;
		break;
	case 1:
		if (!prof_ok)
			break;
		tp_vma_scan_init(&vs, &prof, (u32)value32(in), clk);
		vs_ok = true;
		break;
	case 2:
		if (vs_ok)
			tp_vma_scan_note(&vs, value32(in));
		break;
	case 3:
		if (vs_ok)
			tp_vma_scan_done(&vs, value32(in));
		break;
	case 4:
		size = value(in);
		want = !size ? 1 : 1 + (u32)(((4ULL << 20) / size) >> 7);
		CHECK(tp_vma_scan_ratelimit(size) == want, "ratelimit");
		CHECK(tp_vma_pid_bit(value32(in)) < 64, "pid bit");
		break;
	default:
		if (!vs_ok)
			break;
		f.vma_start = value(in);
		f.vma_end = (u8)take(in, 1) & 1 ? value(in) :
			    f.vma_start + take(in, 4);
		f.scan_offset = value(in);
		f.scan_seq = value32(in);
		f.nr_threads = value32(in);
		f.pid = value32(in);
		f.forced = take(in, 1) & 1;
		ret = tp_vma_scan_check(&vs, &prof, &f, clk);
		if (f.vma_end <= f.vma_start) {
			CHECK(ret == -EINVAL, "empty VMA: %d", ret);
			break;
		}
		CHECK((ret >= TP_VMA_SCAN_ALL && ret <= TP_VMA_SCAN_DISJOINT) ||
		      (ret >= TP_VMA_SKIP_DELAY && ret <= TP_VMA_SKIP_INACTIVE),
		      "vma verdict %d", ret);
		if (prof.filter == TP_VMA_FILTER_NONE)
			CHECK(ret == TP_VMA_SCAN_ALL, "no filter: %d", ret);
		break;
	}
}

/* ---- the program --------------------------------------------------------- */

#define MAX_STEPS	1024U

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct input in = { data, size };
	u8 op, sub;

	if (trace_on < 0)
		trace_on = getenv("FUZZ_API_TRACE") != NULL;
	/* Every object starts as garbage the init functions must overwrite. */
	memset(&ring, 0xa5, sizeof(ring));
	memset(&lim, 0xa5, sizeof(lim));
	memset(&thr, 0xa5, sizeof(thr));
	memset(&pol, 0xa5, sizeof(pol));
	memset(&node, 0xa5, sizeof(node));
	memset(&fmt, 0xa5, sizeof(fmt));
	memset(&prof, 0xa5, sizeof(prof));
	ring_ok = lim_ok = thr_ok = pol_ok = fmt_ok = prof_ok = vs_ok = false;
	memset(&tm, 0, sizeof(tm));
	memset(&lm, 0, sizeof(lm));
	memset(&pm, 0, sizeof(pm));
	clk_jumps = 0;
	clk = value(&in);

	for (step_no = 0; in.n && step_no < MAX_STEPS; step_no++) {
		op = (u8)take(&in, 1);
		sub = (u8)take(&in, 1);
		cur_op = op % 8;
		switch (cur_op) {
		case 0:
			clock_step(&in);
			break;
		case 1:
			ring_op(&in, sub);
			break;
		case 2:
			limiter_op(&in, sub);
			break;
		case 3:
			thresh_op(&in, sub);
			break;
		case 4:
			policy_op(&in, sub);
			break;
		case 5:
			atime_op(&in, sub);
			break;
		case 6:
			vma_op(&in, sub);
			break;
		default:
			helpers_op(&in, sub);
			break;
		}
	}
	return 0;
}
