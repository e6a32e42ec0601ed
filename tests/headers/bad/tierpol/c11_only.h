/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* A bad header for tests/headers/selftest.sh. expect: does not compile on its own (gcc -std=c99) */
#ifndef TP_C11_ONLY_H
#define TP_C11_ONLY_H
#include <stdint.h>
struct tp_x { union { uint32_t a; uint64_t b; }; };
#endif
