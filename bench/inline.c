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

/* The library's internal functions (hidden, not static): renamed. */
#define __tp_mul_frac		inl__tp_mul_frac
#define __tp_ms_to_ticks	inl__tp_ms_to_ticks
#define __tp_cfg_check		inl__tp_cfg_check
#define __tp_limiter_check	inl__tp_limiter_check
#define __tp_limiter_set_write	inl__tp_limiter_set_write
#define __tp_thresh_check	inl__tp_thresh_check
#define __tp_thresh_set_write	inl__tp_thresh_set_write
#define __tp_thresh_close	inl__tp_thresh_close
#define __tp_policy_read	inl__tp_policy_read

#include "../lib/math.c"
#include "../lib/atime.c"
#include "../lib/limiter.c"
#include "../lib/threshold.c"
#include "../lib/policy.c"
#include "../lib/decide.c"
#include "../lib/scan_ring.c"
#include "../lib/vma_scan.c"
#include "../lib/wmark.c"
#include "../lib/version.c"
#include "../lib/goal.c"
#include "../lib/hotness.c"
#include "../lib/fclock.c"

#include "bench.h"

#define CASE(name)	inl_##name
#define RUNNER_ATTR	__attribute__((__flatten__))

#include "cases.h"
