// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Section "vma": the VMA scan filter against Linux 6.5 with the 2023
 * disjoint-VMA RFC and against Linux 6.7's vma_is_accessed().
 */
#include <stdlib.h>

#include "loops.h"

/* ---- baseline runners (the shapes of loops.h) ------------------------- */

static inline bool bl_op_vma_disjoint(struct vma_ctx *c, u64 k, u64 now)
{
	return bl_vma_check_disjoint(&c->bv[k & (VMA_NR - 1)], &c->bmm[k], now);
}

static inline bool bl_op_vma_67(struct vma_ctx *c, u64 k, u64 now)
{
	return bl_vma_check_67(&c->bv[k & (VMA_NR - 1)], &c->bmm[k], now);
}

static inline u64 bl_op_vma_note(void *ctx, u64 k)
{
	struct vma_ctx *c = ctx;

	bl_vma_note(&c->bv[k & (VMA_NR - 1)], (int)c->pid[k]);
	return 0;
}

static u64 bl_vma_disjoint_run(void *ctx, u64 iters)
{
	return loop_vma(ctx, iters, bl_op_vma_disjoint);
}

static u64 bl_vma_67_run(void *ctx, u64 iters)
{
	return loop_vma(ctx, iters, bl_op_vma_67);
}

static u64 bl_vma_note_run(void *ctx, u64 iters)
{
	return loop_tbl(ctx, iters, bl_op_vma_note);
}

/* ---- the section ------------------------------------------------------- */

/* TBL scanner facts over VMA_NR VMAs, the same for both sides. */
static void vma_facts(struct vma_ctx *c, const u64 *vstart, const u64 *vend)
{
	u32 i;

	for (i = 0; i < TBL; i++) {
		struct tp_vma_facts *f = &c->facts[i];
		struct bl_vma_mm *m = &c->bmm[i];

		f->vma_start = vstart[i & (VMA_NR - 1)];
		f->vma_end = vend[i & (VMA_NR - 1)];
		f->scan_seq = 2 + i / VMA_NR;
		f->scan_offset = rnd() % 2 ? f->vma_start + 4096 : 0;
		f->nr_threads = 1 + (u32)(rnd() % 64);
		f->pid = 1000 + (u32)(rnd() % 8);
		f->forced = rnd() % 8 == 0;
		c->pid[i] = 1000 + (u32)(rnd() % 8);
		*m = (struct bl_vma_mm){
			.numa_scan_seq = (int)f->scan_seq,
			.numa_scan_offset = f->scan_offset,
			.nr_threads = (int)f->nr_threads, .pid = (int)f->pid,
			.forced = f->forced, .scan_delay_ms = 1000,
		};
	}
}

void bench_vma(void)
{
	struct tp_vma_profile_cfg pc = {
		.sz = sizeof(pc), .tps = 1000, .scan_delay = 1000,
	};
	struct vma_ctx c = {
		.prof = xalloc(sizeof(struct tp_vma_profile)),
		.v = xalloc(VMA_NR * sizeof(struct tp_vma_scan)),
		.facts = xalloc(TBL * sizeof(struct tp_vma_facts)),
		.bv = xalloc(VMA_NR * sizeof(struct bl_vma)),
		.bmm = xalloc(TBL * sizeof(struct bl_vma_mm)),
		.pid = xalloc(TBL * sizeof(u32)),
	};
	static const struct {
		const char *name;
		u32 filter;
		bench_fn base;
		const char *what;
	} rows[] = {
		{ "check: disjoint-VMA RFC filter", TP_VMA_FILTER_DISJOINT,
		  bl_vma_disjoint_run,
		  "6.5 + the 2023 RFC (u32 size, division per check)" },
		{ "check: Linux 6.7 filter", TP_VMA_FILTER_LINUX67,
		  bl_vma_67_run,
		  "6.7 vma_is_accessed() + task_numa_work() checks" },
	};
	u64 vstart[VMA_NR], vend[VMA_NR];
	size_t k;
	u32 i;

	section("vma", "VMA scan decision over 64 VMAs of 4 KiB..1 GiB, 8 PIDs, one check per VMA per pass");
	for (i = 0; i < VMA_NR; i++) {
		vstart[i] = (u64)(i + 1) << 31;
		vend[i] = vstart[i] + (4096ULL << (i % 19));
	}
	vma_facts(&c, vstart, vend);
	for (k = 0; k < ARRAY_SIZE(rows); k++) {
		struct bl_vma_mm m0 = { .scan_delay_ms = 1000 };

		if (!wanted(rows[k].name))
			continue;
		pc.filter = rows[k].filter;
		if (tp_vma_profile_init(c.prof, &pc))
			exit(2);
		for (i = 0; i < VMA_NR; i++) {
			tp_vma_scan_init(&c.v[i], c.prof, 0, 0);
			bl_vma_init(&c.bv[i], &m0, 0);
			c.bv[i].vm_start = vstart[i];
			c.bv[i].vm_end = vend[i];
			/* half the VMAs were accessed by some PIDs */
			if (i & 1) {
				tp_vma_scan_note(&c.v[i], 1000 + i % 8);
				bl_vma_note(&c.bv[i], (int)(1000 + i % 8));
			}
		}
		c.now = 2000;
		c.scans = 0;
		compare(rows[k].name, &SIDE1(lib_vma_check, &c),
			&SIDE1(rows[k].base, &c), rows[k].what);
	}
	compare("note a PID access (fault path)", &SIDE1(lib_vma_note, &c),
		&SIDE1(bl_vma_note_run, &c), "vma_set_access_pid_bit()");
}
