/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* A bad header for tests/headers/selftest.sh. expect: declares now (InlineParmVarDecl) outside tp_/TP_ */
#ifndef TP_INLINE_NAMES_H
#define TP_INLINE_NAMES_H
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif
static inline uint64_t tp_later(uint64_t now)
{
	return now + 1;
}
#ifdef __cplusplus
}
#endif
#endif
