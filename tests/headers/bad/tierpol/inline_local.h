/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* A bad header for tests/headers/selftest.sh. expect: declares m (InlineVarDecl) outside tp_/TP_ */
#ifndef TP_INLINE_LOCAL_H
#define TP_INLINE_LOCAL_H
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif
static inline uint64_t tp_twice(uint64_t tp_x)
{
	uint64_t m = tp_x;

	return m + tp_x;
}
#ifdef __cplusplus
}
#endif
#endif
