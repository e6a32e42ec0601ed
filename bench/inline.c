// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The same measuring loops as cases_lib.c, but with the library's sources
 * compiled into this translation unit with internal linkage and every loop
 * flattened (all calls inlined): what a caller would get from static inline
 * functions or LTO. Comparing inl_ with lib_ runners answers whether the
 * out-of-line calls of libtierpol.a matter.
 */
#include <tierpol/types.h>

/* Every TP_API function becomes static, so it cannot clash with the .a. */
#undef TP_API
#define TP_API static __attribute__((__unused__))

/* The only static name that two library files share. */
#define ms_to_ticks	thresh_ms_to_ticks
#include "../lib/threshold.c"
#undef ms_to_ticks
#define ms_to_ticks	policy_ms_to_ticks
#include "../lib/policy.c"
#undef ms_to_ticks
#include "../lib/atime.c"
#include "../lib/limiter.c"
#include "../lib/scan_ring.c"
#include "../lib/vma_scan.c"
#include "../lib/version.c"

#include "bench.h"

#define CASE(name)	inl_##name
#define RUNNER_ATTR	__attribute__((__flatten__))

#include "cases.h"
