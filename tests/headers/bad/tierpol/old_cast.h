/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* A bad header for tests/headers/selftest.sh. expect: does not compile on its own (clang++ -std=c++11) */
#ifndef TP_OLD_CAST_H
#define TP_OLD_CAST_H
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif
static inline uint32_t tp_low(uint64_t v)
{
	return (uint32_t)v;	/* a C++ program may build with -Wold-style-cast */
}
#ifdef __cplusplus
}
#endif
#endif
