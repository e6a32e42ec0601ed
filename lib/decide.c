// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The promotion decision and the node's statistics. docs/decision.md walks
 * the pipeline in order; docs/concurrency.md gives the protocol.
 *
 * A decision reads the settings it needs from one copy of the policy's
 * latch and decides everything that needs no live state; the latch is then
 * validated, and only then does the decision touch live state (the
 * threshold controller, the candidate count, the limiter, the counters).
 * So a tune never makes a decision mix two settings, and a retry (the
 * settings changed while they were read) has nothing to undo.
 */
#include "tp_inline.h"

/* The period is over: close it (one closer), judging @rate. Cold path. */
static TP_NOINLINE TP_COLD void
decide_close(const struct tp_policy *pol, struct tp_node *node,
	     u64 period, u64 ref_th, u64 unit, u64 max, u32 variant,
	     u32 shift, u64 rate, u64 now)
{
	struct tp_thresh_set set = {
		.ref_th = ref_th, .period = period, .unit = unit, .max = max,
		.rate = rate, .variant = variant, .shift = shift,
	};
	int ev = __tp_thresh_close(&node->th, &set, pol->tps, rate,
				   tp_atomic64_read(&node->cand), now);

	if (ev == TP_TH_RAISED)
		tp_atomic64_add(&node->th_raised, 1);
	else if (ev == TP_TH_LOWERED)
		tp_atomic64_add(&node->th_lowered, 1);
}

/*
 * decide_copy()'s answer when the decision must be made again, having
 * written nothing: the settings changed under it, or (@leaf) a threshold
 * period is due.
 */
#define DECIDE_RETRY	(-1)

/*
 * The decision, from the copy @c of the settings that @seq names, whose
 * flags and variants the caller read already. It reads the other settings
 * it needs into locals and validates the latch before its first write to
 * live state; DECIDE_RETRY (the settings changed) has nothing to undo.
 *
 * Always inlined: tp_decide() instantiates it with the presets' flags and
 * variants as constants, and @tiering set (the copy's @fast said that the
 * mode is on), so their paths test no switch at run time. With @leaf set
 * an instance calls nothing: it leaves a period that is due (once per
 * period) to decide_again() (DECIDE_RETRY).
 */
static TP_ALWAYS_INLINE int
decide_copy(const struct tp_policy *pol, struct tp_node *node,
	    struct tp_node_cpu *cpu, const struct tp_fault *f,
	    const struct tp_node_mem *mem, u64 now,
	    const struct tp_policy_set *c, unsigned int seq, u32 flags,
	    u32 wmark_variant, u32 lim_variant, u32 th_variant, bool tiering,
	    bool leaf, u32 *counter)
{
	u64 nr = f->nr_pages, rate, th, cost, tau, n_max, dbl;
	u64 period, ref_th, unit, max;
	u32 batch, th_shift;
	int v, r;

	if (!tiering && !(tp_read_once(c->mode) & TP_MODE_TIERING)) {
		v = TP_REFUSE_MODE;
		goto plain;
	}
	if (f->flags & TP_FAULT_TOPTIER) {
		v = TP_REFUSE_TOPTIER;
		goto plain;
	}
	rate = __tp_policy_rate(tp_read_once(c->lim.limit), flags, mem);
	if ((flags & TP_POL_FREE_BYPASS) &&
	    __tp_free_space_enough(wmark_variant, tp_read_once(c->bypass_min),
				   rate, mem)) {
		if (tp_unlikely(tp_latch_retry(&pol->latch, seq)))
			return DECIDE_RETRY;
		/* The workload changed: forget the adapted threshold. */
		if (flags & TP_POL_BYPASS_RESET)
			__tp_thresh_forget(&node->th);
		if (__tp_promote_room(mem, nr)) {
			*counter = TP_PROMOTE_NRL;
			return TP_PROMOTE_NRL;
		}
		*counter = TP_NODE_NOSPACE_NRL;
		return TP_REFUSE_NOSPACE;
	}
	if ((flags & TP_POL_YOUNG) && !(f->flags & TP_FAULT_YOUNG)) {
		v = TP_REFUSE_NOT_YOUNG;
		goto plain;
	}

	/* A candidate if hot: copy out what the rest of the path needs. */
	batch = tp_read_once(c->lim.batch);
	cost = 0;
	tau = 0;
	n_max = 0;
	if (lim_variant == TP_LIMITER_BUCKET) {
		cost = tp_read_once(c->lim.cost);
		tau = tp_read_once(c->lim.tau);
		n_max = tp_read_once(c->lim.n_max);
	}
	th = 0;
	period = 0;
	ref_th = 0;
	unit = 0;
	max = 0;
	th_shift = 0;
	if (flags & TP_POL_ADAPTIVE) {
		period = tp_read_once(c->th.period);
		ref_th = tp_read_once(c->th.ref_th);
		unit = tp_read_once(c->th.unit);
		max = tp_read_once(c->th.max);
		if (th_variant == TP_THRESH_HISTOGRAM)
			th_shift = tp_read_once(c->th.shift);
	} else {
		th = tp_read_once(c->hot_th);
	}
	if (tp_unlikely(tp_latch_retry(&pol->latch, seq)))
		return DECIDE_RETRY;

	if (flags & TP_POL_HOTNESS) {
		if (flags & TP_POL_ADAPTIVE) {
			if (tp_unlikely(__tp_thresh_due(&node->th, period, now))) {
				if (leaf)
					return DECIDE_RETRY;
				decide_close(pol, node, period, ref_th, unit,
					     max, th_variant, th_shift, rate,
					     now);
			}
			/* The histogram counts every fault it judges. */
			if (th_variant == TP_THRESH_HISTOGRAM)
				__tp_thresh_record(&node->th, &cpu->th,
						   th_shift, batch, f->latency,
						   nr);
			th = tp_atomic64_read(&node->th.th);
			th = __tp_thresh_effective(th, ref_th, unit, max);
		}
		/*
		 * The 2020 RFC's write bias, a product by 1 or 2 rather than a
		 * branch on the write flag: the flag is the workload's, and a
		 * mispredicted branch on it cost the RFC's decision more than
		 * the doubling (make bench).
		 */
		dbl = (u64)((flags & TP_POL_WRITE_DOUBLE) != 0) &
		      (u64)((f->flags & TP_FAULT_WRITE) != 0);
		th = tp_mul_sat(th, 1 + dbl);
		if (f->latency == TP_LATENCY_UNKNOWN ||
		    ((flags & TP_POL_HOT_STRICT) ? f->latency >= th :
						   f->latency > th)) {
			*counter = TP_REFUSE_COLD;
			return TP_REFUSE_COLD;
		}
	}

	/* A candidate: counted before the rate limit, as the kernel does. */
	__tp_count(&node->cand, &cpu->cand, nr, batch);
	if (lim_variant == TP_LIMITER_BUCKET)
		r = __tp_bucket_take(&node->lim, cost, tau, n_max, pol->shift,
				     pol->stale, nr, now);
	else
		r = __tp_window_take(&node->lim, tp_atomic64_read(&node->cand),
				     rate, lim_variant, pol->tps, now);
	if (tp_unlikely(r < 0)) {
		*counter = TP_NODE_BUSY_CAND;
		return TP_REFUSE_BUSY;
	}
	if (!r)
		v = TP_REFUSE_RATELIMIT;
	else
		v = __tp_promote_room(mem, nr) ? TP_PROMOTE : TP_REFUSE_NOSPACE;
	*counter = v;
	return v;

plain:
	/* Decided from the settings alone: they must have been one copy. */
	if (tp_unlikely(tp_latch_retry(&pol->latch, seq)))
		return DECIDE_RETRY;
	*counter = v;
	return v;
}

/*
 * The attempts after a first one that the settings changed under or that
 * found a threshold period due, out of line so that tp_decide() keeps no
 * loop and no call: the generic instance (every switch tested at run
 * time, the period closed here), up to TP_RETRIES attempts in all, then
 * the count. Six arguments, so tp_decide() jumps to it.
 */
static TP_NOINLINE int
decide_again(const struct tp_policy *pol, struct tp_node *node,
	     struct tp_node_cpu *cpu, const struct tp_fault *f,
	     const struct tp_node_mem *mem, u64 now)
{
	const struct tp_policy_set *c;
	u32 tries, counter = TP_REFUSE_BUSY;
	unsigned int seq;
	int v = TP_REFUSE_BUSY;

	for (tries = 1; tries < TP_RETRIES; tries++) {
		seq = tp_latch_begin(&pol->latch);
		c = &pol->set[seq & 1];
		v = decide_copy(pol, node, cpu, f, mem, now, c, seq,
				tp_read_once(c->flags),
				tp_read_once(c->wmark_variant),
				tp_read_once(c->lim.variant),
				tp_read_once(c->th.variant), false, false,
				&counter);
		if (tp_likely(v != DECIDE_RETRY))
			break;
		v = TP_REFUSE_BUSY;
		counter = TP_REFUSE_BUSY;
	}
	tp_local64_add(&cpu->nr[counter], f->nr_pages);
	return v;
}

int tp_decide(const struct tp_policy *pol, struct tp_node *node,
	      struct tp_node_cpu *cpu, const struct tp_fault *f,
	      const struct tp_node_mem *mem, u64 now)
{
	const struct tp_policy_set *c;
	unsigned int seq;
	u32 counter;
	int v;

	TP_ASSERT(pol && pol->tps && node && cpu && f && mem);
	/* No folio has more than 2^32 pages; larger counts would wrap. */
	if (tp_unlikely(f->nr_pages - 1 >= TP_RATE_MAX ||
			!__tp_mem_valid(mem)))
		return -EINVAL;

	/*
	 * The first attempt, with the presets' switches as constants (or
	 * the generic instance); it calls nothing, and leaves the rare steps
	 * (a retry, a period to close) to decide_again().
	 */
	seq = tp_latch_begin(&pol->latch);
	c = &pol->set[seq & 1];
	switch (tp_read_once(c->fast)) {
	case TP_FAST_LINUX61:
		v = decide_copy(pol, node, cpu, f, mem, now, c, seq,
				TP_FLAGS_LINUX61, TP_WMARK_LINUX61,
				TP_LIMITER_WINDOW_LINUX61, TP_THRESH_LINUX61,
				true, true, &counter);
		break;
	case TP_FAST_RFC2020:
		v = decide_copy(pol, node, cpu, f, mem, now, c, seq,
				TP_FLAGS_RFC2020, TP_WMARK_RFC2020,
				TP_LIMITER_WINDOW_RFC2020, TP_THRESH_RFC2020,
				true, true, &counter);
		break;
	default:
		v = decide_copy(pol, node, cpu, f, mem, now, c, seq,
				tp_read_once(c->flags),
				tp_read_once(c->wmark_variant),
				tp_read_once(c->lim.variant),
				tp_read_once(c->th.variant), false, true,
				&counter);
		break;
	}
	if (tp_unlikely(v == DECIDE_RETRY))
		return decide_again(pol, node, cpu, f, mem, now);
	tp_local64_add(&cpu->nr[counter], f->nr_pages);
	return v;
}

void tp_node_stats_read(const struct tp_policy *pol,
			const struct tp_node *node, struct tp_node_stats *s)
{
	struct tp_policy_set set;
	u32 i;

	TP_ASSERT(pol && node && s);
	for (i = 0; i < TP_VERDICT_SLOTS; i++)
		s->verdict[i] = 0;
	s->nospace_nrl = 0;
	s->candidate = 0;
	s->candidate_nrl = 0;
	s->success = 0;
	s->decided = 0;
	s->cand_shared = tp_atomic64_read(&node->cand);
	s->th_raised = tp_atomic64_read(&node->th_raised);
	s->th_lowered = tp_atomic64_read(&node->th_lowered);
	/*
	 * Settings that keep changing: no threshold (0), rather than one
	 * from a copy that may mix two tunes (one's bounds clamping the
	 * other's threshold gave a value neither has).
	 */
	if (!__tp_policy_read(pol, &set))
		s->threshold = 0;
	else if (set.flags & TP_POL_ADAPTIVE)
		s->threshold = __tp_thresh_effective(tp_atomic64_read(&node->th.th),
						     set.th.ref_th, set.th.unit,
						     set.th.max);
	else
		s->threshold = set.hot_th;
}

void tp_node_stats_add(struct tp_node_stats *s, const struct tp_node_cpu *cpu)
{
	u64 n[TP_NODE_NR_COUNTERS];
	u32 i;

	TP_ASSERT(s && cpu);
	for (i = 0; i < TP_NODE_NR_COUNTERS; i++) {
		n[i] = tp_local64_read(&cpu->nr[i]);
		s->decided += n[i];
	}
	for (i = 0; i < TP_VERDICT_SLOTS; i++)
		s->verdict[i] += n[i];
	s->verdict[TP_REFUSE_NOSPACE] += n[TP_NODE_NOSPACE_NRL];
	s->verdict[TP_REFUSE_BUSY] += n[TP_NODE_BUSY_CAND];
	s->nospace_nrl += n[TP_NODE_NOSPACE_NRL];
	s->candidate += n[TP_PROMOTE] + n[TP_REFUSE_RATELIMIT] +
			n[TP_REFUSE_NOSPACE] + n[TP_NODE_BUSY_CAND];
	s->candidate_nrl += n[TP_PROMOTE_NRL] + n[TP_NODE_NOSPACE_NRL];
	s->success += n[TP_PROMOTE] + n[TP_PROMOTE_NRL];
}

static const char *const verdict_names[TP_NR_VERDICTS] = {
	[TP_PROMOTE] = "promote",
	[TP_PROMOTE_NRL] = "promote-nrl",
	[TP_REFUSE_MODE] = "refuse-mode",
	[TP_REFUSE_TOPTIER] = "refuse-toptier",
	[TP_REFUSE_NOT_YOUNG] = "refuse-not-young",
	[TP_REFUSE_COLD] = "refuse-cold",
	[TP_REFUSE_RATELIMIT] = "refuse-ratelimit",
	[TP_REFUSE_NOSPACE] = "refuse-nospace",
	[TP_REFUSE_BUSY] = "refuse-busy",
};

const char *tp_verdict_name(int v)
{
	if (v < 0 || v >= TP_NR_VERDICTS)
		return "(unknown verdict)";
	return verdict_names[v];
}
