// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * tiersim: a run's setup (tierpol's objects, the page state, the VMAs, the
 * threads, the costs, the oracle's pins), its teardown, and the
 * self-checks of the page accounting at its end.
 */
#include "sim_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * A run's page state does not fit: say how much it takes. Checked against
 * the machine's memory before allocating, not only by malloc(): with
 * overcommit a 20 TiB array is granted, and the first pass over it ends in
 * the OOM killer.
 */
static int sim_oom(struct sim *s, u64 bytes, bool failed)
{
	long pg = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
	u64 phys = pg > 0 && psz > 0 ? (u64)pg * (u64)psz : 0;

	if (!failed && (!phys || bytes <= phys))
		return 0;
	snprintf(s->r->err, sizeof(s->r->err),
		 "out of memory: the page state of %llu pages (a fast tier of %llu) takes %llu MiB, the machine has %llu MiB",
		 (unsigned long long)s->src->pages,
		 (unsigned long long)s->c->fast_pages,
		 (unsigned long long)((bytes + (1 << 20) - 1) >> 20),
		 (unsigned long long)(phys >> 20));
	return -1;
}

/* The units the allocator can place on the fast tier: the oracle's size. */
static u64 oracle_k(const struct sim *s)
{
	u64 k = (s->c->fast_pages * s->K - s->wm[1]) / s->upages;

	return k < s->fcap ? k : s->fcap;
}

/*
 * The oracle's placement: the oracle_k() units with the most accesses over
 * the whole stream, ties taken in unit order. Fills @uc with each unit's
 * accesses and sets @in[u] for the units of the placement.
 */
static void oracle_set(const struct sim *s, u32 *uc, u8 *in)
{
	const u32 *cnt = s->src->oracle_count;
	u64 k = oracle_k(s), u, lo = 0, hi = UINT32_MAX, n, pinned = 0;

	for (u = 0; u < s->src->pages; u++) {
		u32 *c = &uc[u >> s->ushift];

		*c = *c + cnt[u] < *c ? UINT32_MAX : *c + cnt[u];
	}
	/* The smallest count t such that fewer than k units exceed it. */
	while (lo < hi) {
		u64 mid = lo + (hi - lo) / 2;

		for (n = 0, u = 0; u < s->nr_units; u++)
			n += uc[u] > mid;
		if (n < k)
			hi = mid;
		else
			lo = mid + 1;
	}
	for (u = 0; u < s->nr_units; u++)
		if (uc[u] > lo) {
			in[u] = 1;
			pinned++;
		}
	for (u = 0; u < s->nr_units && pinned < k; u++)
		if (uc[u] == lo && lo > 0) {
			in[u] = 1;
			pinned++;
		}
}

/*
 * oracle_set() into arrays of its own: @uc and @in, which the caller frees.
 * Returns -1 out of memory (nothing to free then).
 */
static int oracle_alloc_set(const struct sim *s, u32 **uc, u8 **in)
{
	*uc = calloc(s->nr_units, sizeof(**uc));
	*in = calloc(s->nr_units, sizeof(**in));
	if (!*uc || !*in) {
		free(*uc);
		free(*in);
		return -1;
	}
	oracle_set(s, *uc, *in);
	return 0;
}

static int pin_oracle(struct sim *s)
{
	u32 *uc;
	u8 *in;
	u64 u;

	if (!s->src->oracle_count) {
		snprintf(s->r->err, sizeof(s->r->err),
			 "oracle: no access counts");
		return -1;
	}
	if (oracle_alloc_set(s, &uc, &in))
		return -1;
	for (u = 0; u < s->nr_units; u++)
		if (in[u])
			s->flags[u] |= PF_PINNED;
	free(uc);
	free(in);
	return 0;
}

const u32 sim_to_oracle_pct[SIM_TO_ORACLE_SHARES] = { 50, 90, 95, 99 };

static int cmp_u32_desc(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? 1 : x > y ? -1 : 0;
}

static int cmp_u32_asc(const void *a, const void *b)
{
	return cmp_u32_desc(b, a);
}

/*
 * The exchange oracle_distance() prices, given the oracle's candidates
 * (units of its placement on the slow tier, hottest first) and victims
 * (units outside it on the fast tier, coldest first): each candidate in
 * turn is promoted, and a victim demoted for it once the fast tier holds
 * @room units. Fills r->to_oracle_*: all of it, and the migrations after
 * which the accesses gained reach each share of what the whole exchange
 * gains. No step loses: a victim is never accessed more than a candidate.
 */
static void oracle_exchange(const struct sim *s, const u32 *cand, u64 nc,
			    const u32 *vict, u64 used, u64 room)
{
	struct sim_result *r = s->r;
	u64 i, j = 0, gain = 0, all = 0, mig = 0;
	/* demotions: the first candidates fill the room left (used <= room) */
	u64 nd = used + nc > room ? used + nc - room : 0;
	u32 sh = 0;

	for (i = 0; i < nc; i++)
		all += cand[i] - (i < nd ? vict[i] : 0);
	for (i = 0; i < nc; i++) {
		gain += cand[i];
		mig++;
		if (used < room) {
			used++;
		} else {
			gain -= vict[j++];	/* not more than cand[i] */
			mig++;
		}
		while (sh < SIM_TO_ORACLE_SHARES &&
		       100 * gain >= (u64)sim_to_oracle_pct[sh] * all)
			r->to_oracle_mig[sh++] = mig * s->upages;
	}
	while (sh < SIM_TO_ORACLE_SHARES)
		r->to_oracle_mig[sh++] = mig * s->upages;
	r->to_oracle_promo = nc * s->upages;
	r->to_oracle_demo = j * s->upages;
	r->has_to_oracle = 1;
}

/*
 * How far the placement at the end of a run is from the oracle's (JSON
 * "to_oracle"): the pages to promote (the oracle's on the slow tier) and
 * to demote (the coldest others, to keep the fast tier no fuller than it
 * is or than the oracle's), and, moving the hottest first, the migrations
 * that gain each share of the accesses over the whole stream that the
 * exchange moves to the fast tier. For `none`, which never migrates, that
 * is the distance from first touch's placement. Computed only where the
 * stream's counts are at hand (a set with the oracle), not for the oracle
 * itself. Returns -1 out of memory.
 */
int oracle_distance(struct sim *s)
{
	u64 u, k = oracle_k(s), fast = 0, nc = 0, nv = 0;
	u32 *uc, *buf, *vict;
	u8 *in, f;

	if (!s->src->oracle_count || s->p->oracle)
		return 0;
	/* the candidates from the front, the victims from the back */
	buf = malloc(s->nr_units * sizeof(*buf));
	if (!buf || oracle_alloc_set(s, &uc, &in)) {
		free(buf);
		return -1;
	}
	for (u = 0; u < s->nr_units; u++) {
		f = s->flags[u];
		if (f & PF_NOALLOC)
			continue;
		fast += !!(f & PF_FAST);
		if (in[u] && !(f & PF_FAST))
			buf[nc++] = uc[u];
		else if (!in[u] && (f & PF_FAST))
			buf[s->nr_units - ++nv] = uc[u];
	}
	vict = buf + s->nr_units - nv;
	qsort(buf, nc, sizeof(*buf), cmp_u32_desc);
	qsort(vict, nv, sizeof(*vict), cmp_u32_asc);
	oracle_exchange(s, buf, nc, vict, fast, fast > k ? fast : k);
	free(uc);
	free(in);
	free(buf);
	return 0;
}

/* The threads: their streams, buffers, TLBs and NUMA state. */
static int setup_threads(struct sim *s)
{
	const struct sim_src *src = s->src;
	u32 i;

	/* A trace is one stream in its recorded (time) order. */
	s->nr_thr = src->wl ? src->nr_threads : 1;
	s->thr = calloc(s->nr_thr, sizeof(*s->thr));
	if (!s->thr)
		return -1;
	for (i = 0; i < s->nr_thr; i++) {
		struct sthread *t = &s->thr[i];

		t->tid = i;
		t->buf = malloc(BATCH * sizeof(*t->buf));
		t->tlb = malloc((s->tlb_mask + 1) * sizeof(*t->tlb));
		if (!t->buf || !t->tlb)
			return -1;
		if (src->tr && src->tr->has_time) {
			t->gap = malloc(BATCH * sizeof(*t->gap));
			if (!t->gap)
				return -1;
		}
		memset(t->tlb, 0xff, (s->tlb_mask + 1) * sizeof(*t->tlb));
		if (src->wl)
			wl_thread_start(src->wl, &t->ws, i);
		numa_thread_init(s, t);
	}
	if (src->tr) {
		if (trace_stream_open(&s->ts, src->tr, s->r->err,
				      sizeof(s->r->err)))
			return -2;
		s->ts_open = 1;
	}
	return 0;
}

int sim_setup(struct sim *s)
{
	const struct sim_cfg *c = s->c;
	const struct sim_policy *p = s->p;
	const struct sim_src *src = s->src;
	struct tp_scan_ring_cfg rc = { .sz = sizeof(rc) };
	struct tp_atime_cfg ac = { .sz = sizeof(ac),
				   .bits = TP_ATIME_DEFAULT_BITS, .shift = 20 };
	struct tp_vma_profile_cfg vc = { .sz = sizeof(vc) };
	u64 i, addr, state;
	int ret, need_atime;

	s->ushift = c->thp ? 9 : 0;
	s->K = c->scale ? c->scale : 1;
	s->upages = (u64)s->K << s->ushift;
	s->ubytes = s->upages << 12;
	s->nr_units = sim_units(c, src->pages);
	s->fcap = c->fast_pages >> s->ushift;
	s->scap = c->slow_pages >> s->ushift;
	memcpy(s->wm, c->wmark, sizeof(s->wm));
	s->init_fast_cap = s->fcap;
	if (c->init_fast > 0 && c->init_fast < 1)
		s->init_fast_cap = (u64)(c->init_fast * (double)src->pages) >>
				   s->ushift;

	ret = tp_policy_init(&s->tpp, &p->cfg);
	if (!ret)
		ret = tp_node_init(&s->node, &s->tpp, 0);	/* at boot */
	if (!ret)
		ret = tp_atime_init(&s->fmt, &ac);
	if (!ret)
		ret = tp_scan_ring_init(&s->ring, &rc, s->pass,
					TP_DEFAULT_RING_DEPTH);
	if (!ret) {
		/* The fault-count clock's stamps: 21 bits of single faults. */
		ac.shift = 0;
		ret = tp_atime_init(&s->ffmt, &ac);
	}
	if (!ret)
		ret = tp_fault_clock_init(&s->fclk, 0);
	if (!ret) {
		vc.filter = p->vma_filter == VMAF_PID ? TP_VMA_FILTER_PID :
			    (u32)p->vma_filter;
		vc.tps = SIM_TPS;
		vc.scan_delay = (u64)c->scan_delay_ms * SIM_NS_PER_MS;
		ret = tp_vma_profile_init(&s->vprof, &vc);
	}
	if (ret) {
		snprintf(s->r->err, sizeof(s->r->err),
			 "%s: tierpol refused the settings (%d)", p->name, ret);
		return -1;
	}

	need_atime = p->lat_src != LAT_RING && !p->oracle &&
		     (p->cfg.mode & TP_MODE_TIERING);
	s->lru = c->lru_two_list && p->demote;
	state = s->nr_units * (1 + (need_atime ? sizeof(*s->atime) : 0)) +
		s->fcap * (sizeof(*s->fpromo) + sizeof(*s->fslot) +
			   sizeof(*s->ffree) +
			   (s->lru ? sizeof(*s->lnext) + sizeof(*s->lprev) : 0));
	if (sim_oom(s, state, false))
		return -1;
	s->flags = malloc(s->nr_units);
	s->fpromo = malloc(s->fcap * sizeof(*s->fpromo));
	s->fslot = malloc(s->fcap * sizeof(*s->fslot));
	s->ffree = malloc(s->fcap * sizeof(*s->ffree));
	s->nr_vmas = src->nr_vmas;
	s->vma = calloc(s->nr_vmas, sizeof(*s->vma));
	s->vst = calloc(s->nr_vmas, sizeof(*s->vst));
	s->r->vma = s->vst;		/* the result owns the VMA statistics */
	s->r->nr_vmas = s->nr_vmas;
	/* Stamps exist only where the scanner writes them. */
	if (need_atime)
		s->atime = malloc(s->nr_units * sizeof(*s->atime));
	if (!s->flags || !s->fpromo || !s->fslot || !s->ffree ||
	    !s->vma || !s->vst || (need_atime && !s->atime)) {
		sim_oom(s, state, true);
		return -1;
	}
	memset(s->flags, PF_NOALLOC, s->nr_units);
	if (s->atime)
		memset(s->atime, 0xff, s->nr_units * sizeof(*s->atime));
	for (i = 0; i < s->fcap; i++) {
		s->fslot[i] = NO_SLOT;
		s->ffree[i] = s->fcap - 1 - i;
	}
	s->nffree = s->fcap;
	s->inflight = NO_SLOT;

	/* Synthetic VMAs: 1 GiB apart, starting at 0x7f0000000000. */
	addr = 0x7f0000000000ULL;
	for (i = 0; i < s->nr_vmas; i++) {
		struct svma *v = &s->vma[i];

		v->first = src->vma[i].first >> s->ushift;
		v->n = src->vma[i].pages >> s->ushift;
		if (src->tr) {
			v->start = src->tr->vpn[src->vma[i].first] << 12;
			v->end = (src->tr->vpn[src->vma[i].first +
					       src->vma[i].pages - 1] + 1) << 12;
		} else {
			v->start = addr;
			v->end = addr + (src->vma[i].pages * s->K << 12);
			addr = (v->end + (2ULL << 30) - 1) & ~((1ULL << 30) - 1);
		}
		s->vst[i].pages = src->vma[i].pages;
	}

	s->tiering = !!(p->cfg.mode & TP_MODE_TIERING);
	/* A hotness record fed by the accessed-bit scanner alone: no hints. */
	s->scan_on = p->cfg.mode != TP_MODE_DISABLED && !p->oracle &&
		     (p->hot.record == REC_NONE ||
		      (p->hot.sources & SRC_HINT));
	s->scan_fast = tp_scan_wanted(&s->tpp, true);
	s->scan_slow = tp_scan_wanted(&s->tpp, false);
	s->young_clear = s->tiering && (p->cfg.flags & TP_POL_YOUNG);
	s->stamp = s->tiering && p->lat_src != LAT_RING;
	s->scan_units = ((u64)c->scan_size_mb << 8) / s->upages;
	if (!s->scan_units)
		s->scan_units = 1;
	/*
	 * The period adapts in tiering mode (update_task_scan_period()); a
	 * fixed one (--scan-period-ms, or task_scan_min() of the footprint
	 * for a policy without tiering) does not. As init_numa_balancing()
	 * sets it, the mm's first scan is scan_delay away.
	 */
	s->fixed_period = (u64)c->scan_period_ms * SIM_NS_PER_MS;
	if (!s->tiering && !s->fixed_period)
		s->fixed_period = (u64)sim_scan_period_ms(c, src->pages) *
				  SIM_NS_PER_MS;
	s->numa_next_scan = (u64)c->scan_delay_ms * SIM_NS_PER_MS;
	s->period_max_ms = c->scan_period_max_ms ? c->scan_period_max_ms :
			   TP_DEFAULT_SCAN_PERIOD_MAX_MS;
	s->reclaim_ns = (u64)c->costs.reclaim_ns * s->upages;
	s->krounds = c->kswapd_rounds;
	if (s->lru) {
		s->lnext = malloc(s->fcap * sizeof(*s->lnext));
		s->lprev = malloc(s->fcap * sizeof(*s->lprev));
		if (!s->lnext || !s->lprev) {
			sim_oom(s, state, true);
			return -1;
		}
		s->lhead[0] = s->lhead[1] = NO_SLOT;
		s->ltail[0] = s->ltail[1] = NO_SLOT;
	}
	s->xfer_ns = (u64)((double)s->ubytes * 1e9 /
			   ((double)c->costs.migrate_mbps * 1048576.0));
	s->mig_cpu_ns = (u64)c->costs.migrate_ns * s->upages;
	s->demote_cpu_ns = (u64)sim_demote_ns(&c->costs) * s->upages;
	s->sample_ns = (u64)c->sample_ms * SIM_NS_PER_MS;
	s->next_sample = 0;

	/* Memory: the latencies at rest, the bandwidth epochs. */
	s->mlp = c->costs.mlp ? c->costs.mlp : src->mlp ? src->mlp : 1;
	s->cpu_ns = (u64)(c->costs.cpu_ns ? c->costs.cpu_ns : src->cpu_ns) *
		    s->K;
	mem_costs(s);
	s->bw = c->costs.bw_mbps[0] || c->costs.bw_mbps[1] ||
		c->costs.bw_mbps[2] || c->costs.bw_mbps[3];
	s->next_bw = s->bw ? BW_EPOCH_NS : T_NEVER;
	s->tlb_mask = sim_tlb_units(c) - 1;
	s->next_ctl = s->kmig_clock = s->abit_clock = s->next_age = T_NEVER;
	s->damon_clock = T_NEVER;
	if (kthread_setup(s))
		return -1;
	update_next_event(s);

	ret = setup_threads(s);
	if (ret) {
		if (ret == -1)
			snprintf(s->r->err, sizeof(s->r->err), "out of memory");
		return -1;
	}
	if (p->oracle && pin_oracle(s))
		return -1;
	return 0;
}

void sim_teardown(struct sim *s)
{
	u32 i;

	for (i = 0; s->thr && i < s->nr_thr; i++) {
		free(s->thr[i].buf);
		free(s->thr[i].gap);
		free(s->thr[i].tlb);
	}
	free(s->thr);
	if (s->ts_open)
		trace_stream_close(&s->ts);
	free(s->lnext);
	free(s->lprev);
	free(s->flags);
	free(s->atime);
	free(s->fpromo);
	free(s->fslot);
	free(s->ffree);
	free(s->vma);
	kthread_teardown(s);
}

/* Every allocated unit is on exactly one tier; the counts agree. */
int sim_check(struct sim *s)
{
	u64 u, fast = 0, slow = 0, slots = 0, *seen;
	struct sim_result *r = s->r;

	for (u = 0; u < s->nr_units; u++) {
		u8 f = s->flags[u];

		if (f & PF_NOALLOC)
			continue;
		if (f & PF_FAST)
			fast++;
		else
			slow++;
	}
	/* Each fast unit sits in exactly one slot. */
	seen = calloc((s->nr_units + 63) / 64, sizeof(*seen));
	if (!seen)
		goto bad;
	for (u = 0; u < s->fcap; u++) {
		u64 x = s->fslot[u];

		if (x == NO_SLOT)
			continue;
		if (x >= s->nr_units || !(s->flags[x] & PF_FAST) ||
		    (seen[x / 64] >> (x % 64) & 1)) {
			free(seen);
			goto bad;
		}
		seen[x / 64] |= 1ULL << (x % 64);
		slots++;
	}
	free(seen);
	if (slots != fast)
		goto bad;
	fast *= s->upages;
	slow *= s->upages;
	if (s->fused > s->fcap || s->sused > s->scap ||
	    fast != s->fused * s->upages || slow != s->sused * s->upages ||
	    fast + slow != r->alloc_fast + r->alloc_slow ||
	    r->promotions - r->demotions != fast - r->alloc_fast)
		goto bad;
	return 0;
bad:
	snprintf(r->err, sizeof(r->err), "%s: internal error: the page "
		 "accounting is inconsistent (fast %llu/%llu, slow %llu/%llu)",
		 s->p->name, (unsigned long long)fast,
		 (unsigned long long)s->fused, (unsigned long long)slow,
		 (unsigned long long)s->sused);
	return -1;
}

