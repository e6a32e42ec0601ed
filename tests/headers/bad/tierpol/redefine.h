/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* A bad header for tests/headers/selftest.sh. expect: changes the macro UINT64_MAX */
#ifndef TP_REDEFINE_H
#define TP_REDEFINE_H
#include <stdint.h>
#undef UINT64_MAX
#define UINT64_MAX 0
#endif
