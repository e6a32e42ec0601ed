// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * VMA scan rate limiter: the 2023 disjoint-VMA RFC's countdown and Linux
 * 6.7's vma_is_accessed() access filter.
 */
#include "tp_seam.h"
#include <tierpol/vma_scan.h>

#define VMA_4M			BIT_ULL(22)
#define VMA_RATELIMIT_SHIFT	7
#define VMA_RESET_FACTOR	4

int tp_vma_profile_init(struct tp_vma_profile *p,
			const struct tp_vma_profile_cfg *cfg)
{
	u64 delay;

	if (!p || !cfg)
		return -EINVAL;
	if (__tp_cfg_check(cfg, cfg->sz, sizeof(*cfg)))
		return -EINVAL;
	if (cfg->filter > TP_VMA_FILTER_PID)
		return -EINVAL;
	if (!cfg->tps || cfg->tps > TP_TPS_MAX)
		return -EINVAL;
	if (cfg->scan_delay > TP_TIME_MAX / VMA_RESET_FACTOR)
		return -ERANGE;

	delay = cfg->scan_delay;
	if (!delay)
		delay = __tp_ms_to_ticks(TP_DEFAULT_SCAN_DELAY_MS, cfg->tps);
	p->filter = cfg->filter;
	p->scan_delay = delay;
	p->reset_period = delay * VMA_RESET_FACTOR;
	return 0;
}

void tp_vma_scan_init(struct tp_vma_scan *v, const struct tp_vma_profile *p,
		      u32 scan_seq, u64 now)
{
	TP_ASSERT(v && p);
	tp_write_once(v->pids[0], 0);
	tp_write_once(v->pids[1], 0);
	v->next_scan = now + p->scan_delay;
	/* The first rotation comes 4 x scan delay after the first scan. */
	v->pids_reset = v->next_scan + p->reset_period;
	v->start_seq = scan_seq;
	/* Not equal to scan_seq, so the first sequence is not "done". */
	v->prev_seq = scan_seq - 1;
	v->countdown = 0;
}

void tp_vma_scan_note(struct tp_vma_scan *v, u32 pid)
{
	u64 bit = 1ULL << tp_vma_pid_bit(pid);
	u64 cur;

	TP_ASSERT(v);
	cur = tp_read_once(v->pids[1]);
	if (!(cur & bit))
		tp_write_once(v->pids[1], cur | bit);
}

u32 tp_vma_scan_ratelimit(u64 size)
{
	if (!size)
		return 1;
	return 1 + (u32)(tp_div64_u64(VMA_4M, size) >> VMA_RATELIMIT_SHIFT);
}

static void vma_rotate(struct tp_vma_scan *v, const struct tp_vma_profile *p,
		       u32 scan_seq, u64 now)
{
	if (scan_seq && tp_time_after(now, v->pids_reset)) {
		v->pids_reset += p->reset_period;
		tp_write_once(v->pids[0], tp_read_once(v->pids[1]));
		tp_write_once(v->pids[1], 0);
	}
}

static bool vma_pid_seen(const struct tp_vma_scan *v, u32 pid)
{
	u64 pids = tp_read_once(v->pids[0]) | tp_read_once(v->pids[1]);

	return pids & (1ULL << tp_vma_pid_bit(pid));
}

/* The disjoint-VMA RFC: scan 1 in ratelimit + 1 checks of an unaccessed VMA. */
static bool vma_disjoint_select(struct tp_vma_scan *v, u64 size)
{
	if (v->countdown > 0) {
		v->countdown--;
		return false;
	}
	v->countdown = tp_vma_scan_ratelimit(size);
	return true;
}

int tp_vma_scan_check(struct tp_vma_scan *v, const struct tp_vma_profile *p,
		      const struct tp_vma_facts *f, u64 now)
{
	TP_ASSERT(v && p && f);
	if (f->vma_end <= f->vma_start)
		return -EINVAL;
	if (p->filter == TP_VMA_FILTER_NONE)
		return TP_VMA_SCAN_ALL;

	/* Scanning short-lived VMAs costs more than it helps: delay them. */
	if (f->scan_seq && tp_time_before(now, v->next_scan))
		return TP_VMA_SKIP_DELAY;

	if (p->filter == TP_VMA_FILTER_PID) {
		/*
		 * Linux 6.4 to 6.6: the access check comes first, and only a
		 * VMA that passes it rotates its windows ("to avoid clearing
		 * PID info before access"); 6.7 and the disjoint-VMA RFC's
		 * patch 1/6 moved the rotation up, before the check.
		 */
		if (f->scan_seq < 2) {
			vma_rotate(v, p, f->scan_seq, now);
			return TP_VMA_SCAN_EARLY;
		}
		if (!vma_pid_seen(v, f->pid))
			return TP_VMA_SKIP_INACTIVE;
		vma_rotate(v, p, f->scan_seq, now);
		return TP_VMA_SCAN_ACCESSED;
	}

	vma_rotate(v, p, f->scan_seq, now);

	if (p->filter == TP_VMA_FILTER_DISJOINT) {
		/* Linux 6.5: the mm's first two sequences, or the PID. */
		if (f->scan_seq < 2)
			return TP_VMA_SCAN_EARLY;
		if (vma_pid_seen(v, f->pid))
			return TP_VMA_SCAN_ACCESSED;
		/* The disjoint-VMA RFC: then the size-based countdown. */
		if (vma_disjoint_select(v, f->vma_end - f->vma_start))
			return TP_VMA_SCAN_DISJOINT;
		return TP_VMA_SKIP_INACTIVE;
	}

	/* Linux 6.7+ */
	if (v->prev_seq == f->scan_seq)
		return TP_VMA_SKIP_DONE;
	if (f->scan_seq - v->start_seq < 2)
		return TP_VMA_SCAN_EARLY;
	if (vma_pid_seen(v, f->pid))
		return TP_VMA_SCAN_ACCESSED;
	if (f->scan_offset > f->vma_start)
		return TP_VMA_SCAN_PARTIAL;
	if ((s32)(f->scan_seq - v->prev_seq - f->nr_threads) > 0)
		return TP_VMA_SCAN_STARVED;
	if (f->forced)
		return TP_VMA_SCAN_FORCED;
	return TP_VMA_SKIP_INACTIVE;
}

void tp_vma_scan_done(struct tp_vma_scan *v, u32 scan_seq)
{
	TP_ASSERT(v);
	v->prev_seq = scan_seq;
}
