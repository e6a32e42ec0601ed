// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Section "inline": the same loops over libtierpol.a called out of line
 * (lib_ runners) and over the library's sources compiled into the loop's
 * translation unit and flattened (inl_ runners, inline.c): what a caller
 * would gain from static inline functions or LTO.
 */
#include "bench.h"

void bench_inline(void)
{
	struct ring_ctx rc;
	struct lim_setup s;
	struct dec_setup d;
	u64 *addr;
	u32 i;

	section("inline", "libtierpol.a called out of line (as 'tierpol') vs the same code inlined into the loop (as 'baseline')");
	if (wanted("ring latency, newest")) {
		ring_alloc(&rc);
		addr = (u64 *)rc.addr;
		ring_fill(&rc, 20, 100 * NS_PER_MS);
		for (i = 0; i < TBL; i++)
			addr[i] = ring_addr(20, 0);
		compare("ring latency, newest", &SIDE1(lib_ring_lat, &rc),
			&SIDE1(inl_ring_lat, &rc), "inlined (flatten)");
	}
	if (wanted("bucket consume, admitted")) {
		lim_alloc(&s);
		lim_init(&s, LIM_BUCKET_ALL, 1);
		compare("bucket consume, admitted",
			&SIDE1(lib_lim_consume, &s.tp[0]),
			&SIDE1(inl_lim_consume, &s.tp[0]), "inlined (flatten)");
	}
	dec_alloc(&d);
	if (wanted("decide RFC, full, admitted")) {
		dec_init(&d, &(struct dec_case)DEC_RFC_ADMIT);
		compare("decide RFC, full, admitted",
			&SIDE1(lib_decide, &d.c[0]),
			&SIDE1(inl_decide, &d.c[0]), "inlined (flatten)");
	}
	if (wanted("decide 6.1, full, admitted")) {
		dec_init(&d, &(struct dec_case)DEC_61_ADMIT);
		compare("decide 6.1, full, admitted",
			&SIDE1(lib_decide, &d.c[0]),
			&SIDE1(inl_decide, &d.c[0]), "inlined (flatten)");
	}
}
