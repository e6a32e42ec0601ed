/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* A bad header for tests/headers/selftest.sh. expect: declares u64 (TypedefDecl) outside tp_/TP_ */
#ifndef TP_LEAK_TYPEDEF_H
#define TP_LEAK_TYPEDEF_H
#include <stdint.h>
typedef uint64_t u64;
struct tp_x { u64 v; };
#endif
