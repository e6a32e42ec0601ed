/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* A bad header for tests/headers/selftest.sh. expect: does not compile on its own (g++ -std=c++11) */
#ifndef TP_WARNS_H
#define TP_WARNS_H
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif
static inline uint32_t tp_narrow(uint64_t v)
{
	return v;
}
#ifdef __cplusplus
}
#endif
#endif
